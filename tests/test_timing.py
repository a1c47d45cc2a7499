"""TOOL-TIMING: every effect acts at its timing (`at once`, `at round_start`, `before_take`,
`at end`), with its `uses` and `skip_turn`, on a tool or a helper card alike; combinations that
make no sense are refused by the compiler with their position.

Each supported combination is played in seeded games (random and greedy bots) on a rules file
that includes base.dh and overrides or adds one card; the games keep the invariants of
tests/test_game.py (card conservation, legal houses, scores = the scorer, exact replay) and show
the behaviour: the card's action is offered only in the phase of its timing, is used, and a tool
is discarded when its uses are spent while a helper is kept.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace

import pytest

from dreamhome.dsl.compiler import compile_rules
from dreamhome.engine.endgame import helper_uses
from dreamhome.errors import RulesError
from dreamhome.game.actions import (
    Action,
    SwapInHouse,
    SwapTrackRooms,
    SwapWithRoomDiscard,
    SwapWithTrack,
    TakeFromRoofDiscard,
    TakeRoomAtRoundStart,
)
from dreamhome.game.record import GameResult, replay_record
from dreamhome.game.roles import effect_role, when
from dreamhome.game.state import GameState, Phase
from dreamhome.generate import random_house
from dreamhome.players.roster import make_bot
from dreamhome.scoring import score_house, score_total
from dreamhome.solver.optimize import best_final_score
from tests.helpers.cli import run_here
from tests.helpers.games import check_invariants
from tests.helpers.reference_endgame import reference_best_final

PHASE_OF_TIMING = {"round_start": Phase.ROUND_START, "before_take": Phase.TURN, "end": Phase.END}


def rules_with(card: str):
    return compile_rules(text=f'include "base.dh"\n{card}\n', name="timing.dh")


@dataclass
class Played:
    """What a game showed about one card's uses."""

    uses: list[tuple[Phase, int, Action]]  # (phase when chosen, player, action) of the card's action type
    states: list[GameState]  # the state just before each of those uses
    after: list[GameState]  # the state just after
    final: GameState


def play(rules, players: int, seed: int, bot: str, action_type: type[Action], allowed: frozenset[Phase] = frozenset()) -> Played:
    """One seeded game, every decision checked against the invariants; the uses of `action_type`
    kept; with `allowed`, that action type is never offered in another phase."""
    state = GameState(rules, players, seed)
    bots = [make_bot(bot, seed, i) for i in range(players)]
    uses: list[tuple[Phase, int, Action]] = []
    before: list[GameState] = []
    after: list[GameState] = []
    check_invariants(state)
    while not state.is_terminal():
        legal = state.legal_actions()
        if allowed and any(isinstance(a, action_type) for a in legal):  # TOOL-TIMING: only in its phase
            assert state.phase in allowed, (state.phase, action_type)
        bot_ = bots[state.current_player()]
        action = bot_.choose(state.observation(lookahead=bot_.looks_ahead), legal)
        if isinstance(action, action_type):
            uses.append((state.phase, state.actor, action))
            before.append(state.clone())
        state.apply_action(action)
        if isinstance(action, action_type):
            after.append(state.clone())
        check_invariants(state)
    assert state.returns() == [score_house(rules, h).total for h in state.houses]  # SCORE-*
    record = GameResult(state, tuple([bot] * players)).record()
    replayed = replay_record(record, "timing game")  # records and replay stay exact
    assert replayed.state.events == state.events
    return Played(uses, before, after, state)


# A take at round start without skip_turn is a room card more: base.dh's 12 rounds fill its 12
# spaces, so those games play 10 rounds to leave room for it (TOOL-TIMING).
SHORT = "game dream_home { rounds 10 }\n"

# (card line, action type, timing)
COMBINATIONS = [
    (
        'tool drill "Drill" { count 4  effect swap(house, track) before_take uses 2 }',
        SwapWithTrack,
        "before_take",
    ),
    (
        'tool drill "Drill" { count 4  effect swap(house, track) at round_start }',
        SwapWithTrack,
        "round_start",
    ),
    (
        'helper drill_h "Drill helper" { count 3  effect swap(house, track) before_take }',
        SwapWithTrack,
        "before_take",
    ),
    (
        'helper drill_h "Drill helper" { count 3  effect swap(house, track) at round_start uses 2 }',
        SwapWithTrack,
        "round_start",
    ),
    (
        'tool concrete_mixer "Mixer" { count 4  effect swap(track, track) at round_start uses 2 }',
        SwapTrackRooms,
        "round_start",
    ),
    (
        'helper mixer_h "Mixer helper" { count 3  effect swap(track, track) before_take }',
        SwapTrackRooms,
        "before_take",
    ),
    (
        'helper handyman "Handyman" { count 3  effect swap(house, house) before_take uses 2 }',
        SwapInHouse,
        "before_take",
    ),
    (
        'tool handyman_t "Handy tool" { count 3  effect swap(house, house) before_take }',
        SwapInHouse,
        "before_take",
    ),
    (
        'tool handyman_t "Handy tool" { count 3  effect swap(house, house) at end uses 2 }',
        SwapInHouse,
        "end",
    ),
    (
        'helper supplier "Supplier" { count 3  effect swap(house, room_discard) before_take }',
        SwapWithRoomDiscard,
        "before_take",
    ),
    (
        'tool supplier_t "Supply tool" { count 3  effect swap(house, room_discard) at end }',
        SwapWithRoomDiscard,
        "end",
    ),
    (
        'tool supplier_t "Supply tool" { count 3  effect swap(house, room_discard) before_take uses 2 }',
        SwapWithRoomDiscard,
        "before_take",
    ),
    (
        'helper roofer "Roofer" { count 3  effect take(roof_discard, roof_pile) before_take uses 2 }',
        TakeFromRoofDiscard,
        "before_take",
    ),
    (
        'tool roofer_t "Roof tool" { count 3  effect take(roof_discard, roof_pile) at end uses 3 }',
        TakeFromRoofDiscard,
        "end",
    ),
    (
        'tool roofer_t "Roof tool" { count 3  effect take(roof_discard, roof_pile) before_take }',
        TakeFromRoofDiscard,
        "before_take",
    ),
    (
        SHORT + 'tool jackhammer "Jackhammer" { count 4  effect take_room(track) at round_start }',
        TakeRoomAtRoundStart,
        "round_start",
    ),
    (
        'tool jackhammer "Jackhammer" { count 4  effect take_room(track) at round_start skip_turn uses 2 }',
        TakeRoomAtRoundStart,
        "round_start",
    ),
    (
        SHORT + 'helper jack_h "Jack helper" { count 3  effect take_room(track) at round_start uses 2 }',
        TakeRoomAtRoundStart,
        "round_start",
    ),
]


BASE_PHASE = {
    SwapWithTrack: Phase.TURN,
    SwapTrackRooms: Phase.TURN,
    SwapInHouse: Phase.END,
    SwapWithRoomDiscard: Phase.END,
    TakeFromRoofDiscard: Phase.END,
    TakeRoomAtRoundStart: Phase.ROUND_START,
}


def base_card_kept(rules, action_type) -> bool:
    """Whether a card of base.dh still plays this action at its own timing (the line added a card)."""
    base = compile_rules()
    role = action_type.role
    timing = {v: k for k, v in PHASE_OF_TIMING.items()}[BASE_PHASE[action_type]]
    return any(
        effect_role(e) == role and when(e) == timing
        for c in rules.helpers + rules.tools
        if base.has_held(c.id)
        for e in c.effects
    )


def card_of(rules, line: str):
    ident = line.splitlines()[-1].split()[1]
    return rules.held(ident)


@pytest.mark.slow
@pytest.mark.parametrize(("line", "action_type", "timing"), COMBINATIONS)
def test_every_supported_combination_plays_at_its_timing(line, action_type, timing):
    """TOOL-TIMING: the card's action comes only in its timing's phase, is used in seeded games of
    random and greedy bots that keep every invariant, and its uses are honoured."""
    rules = rules_with(line)
    card = card_of(rules, line)
    effect = card.effects[0]
    base_phase = BASE_PHASE.get(action_type)  # base.dh's own cards of this shape keep their timing
    allowed = frozenset(
        {PHASE_OF_TIMING[timing]} | ({base_phase} if base_phase and base_card_kept(rules, action_type) else set())
    )
    seen = 0
    for seed in range(6):
        for bot in ("random", "greedy"):
            game = play(rules, 2 + seed % 3, seed, bot, action_type, allowed)
            for (phase, p, action), before, after in zip(game.uses, game.states, game.after):
                if before.action_text(action).split(":")[0] != card.name:
                    continue  # a base card of the same shape
                seen += 1
                assert phase == PHASE_OF_TIMING[timing]
                check_use(card, effect, timing, p, before, after)
    assert seen, f"{line}: never used in 12 games"


def held_count(state: GameState, p: int, card) -> int:
    house = state.houses[p]
    return (house.tools if card.kind == "tool" else house.helpers).count(card.id)


def check_use(card, effect, timing: str, p: int, before: GameState, after: GameState) -> None:
    """RES-TOOL, RES-HELPER, TOOL-TIMING: a helper is kept; a tool goes when its uses are spent;
    skip_turn costs the turn; the round-start window comes before any column is taken."""
    if timing == "end":  # a helper is kept; a tool goes once its last end-game use is made
        left = sum(uses.count(card.id) for uses in before.end_left.values()) - 1
        kept = card.kind == "helper" or left > 0
        assert held_count(after, p, card) == (held_count(before, p, card) if kept else 0)
        return
    if card.kind == "helper":
        assert held_count(after, p, card) == held_count(before, p, card)
    else:
        role = effect_role(effect)
        assert role is not None
        slot = next(s for k, s in before.usable_cards(p, role, timing) if before.houses[p].tools[s] == card.id)
        spent = before.tool_spent[p][slot] + 1
        assert held_count(after, p, card) == held_count(before, p, card) - (spent >= effect.uses)
    if timing == "round_start":
        this_round = [e for e in before.events if e.get("round") == before.round and "action" in e]
        assert not any(e["action"]["type"] == "TakeColumn" for e in this_round)  # before the first turn
    if after.round == before.round:
        assert (p in after.skip) == ("skip_turn" in effect.flags or p in before.skip)


def took_column(state: GameState, p: int, round_: int) -> bool:
    return any(
        e.get("round") == round_ and e.get("player") == p and e.get("action", {}).get("type") == "TakeColumn"
        for e in state.events
    )


@pytest.mark.parametrize("skip", [False, True])
def test_jackhammer_without_skip_turn_keeps_its_users_turn(skip):
    """Reproduction 1 (TOOL-JACKHAMMER, TOOL-TIMING): `take_room(track) at round_start` without
    `skip_turn`: its user still takes a column that round; with it (base.dh), the user does not."""
    flag = " skip_turn" if skip else ""
    rules = rules_with(SHORT + f'tool jackhammer "Jackhammer" {{ count 4  effect take_room(track) at round_start{flag} }}')
    used = 0
    for seed in range(8):
        game = play(rules, 2 + seed % 3, seed, "random", TakeRoomAtRoundStart)
        for (_phase, p, _action), before in zip(game.uses, game.states):
            used += 1
            assert took_column(game.final, p, before.round) != skip
    assert used


@pytest.mark.slow
def test_round_start_take_without_skip_turn_never_strands_a_turn():
    """TOOL-TIMING: many takes that cost no turn: every turn still finds a room card and a space
    (no empty list of legal actions while the game runs); with base.dh's 12 rounds for 12 spaces
    there is never a space to spare, so the take is never offered there."""
    card = 'tool jackhammer "Jackhammer" { count 6  effect take_room(track) at round_start uses 3 }'
    used = 0
    for seed in range(6):
        used += len(play(rules_with(SHORT + card), 4 if seed % 2 else 3, seed, "random", TakeRoomAtRoundStart).uses)
        assert not play(rules_with(card), 4 if seed % 2 else 3, seed, "random", TakeRoomAtRoundStart).uses
    assert used


def test_a_take_that_does_not_fit_does_not_hide_one_that_does():
    """TOOL-TIMING: of several cards that can make a round-start take, the game uses the first tool held
    whose take fits. A take that costs no turn never fits on base.dh's 12 spaces for 12 rounds; held
    first, it does not hide the jackhammer's (which skips the turn): the take is offered, names the
    jackhammer, spends it (discarded, RES-TOOL) and costs the turn, and the other tool stays unused."""
    rules = rules_with('tool probe "Probe" { count 1  effect take_room(track) at round_start }')
    state = GameState(rules, 4, 0)
    state.houses[0] = replace(state.houses[0], tools=("probe", "jackhammer"))
    state.tool_rounds[0], state.tool_spent[0] = [0, 0], [0, 0]
    bots = [make_bot("random", 0, i) for i in range(4)]
    while state.round == 1 or state.phase != Phase.ROUND_START or state.actor != 0:
        assert state.round <= 2, "player 0 was never offered the round-start take of round 2"
        legal = state.legal_actions()
        if state.actor == 0:  # player 0 keeps both tools until round 2's window
            legal = [a for a in legal if not isinstance(a, TakeRoomAtRoundStart)]
        state.apply_action(bots[state.actor].choose(state.observation(lookahead=False), legal))
    take = next(a for a in state.legal_actions() if isinstance(a, TakeRoomAtRoundStart))
    assert "Jackhammer" in state.action_text(take)
    after = state.child(take)
    assert after.houses[0].tools == ("probe",)
    assert 0 in after.skip


def test_drill_at_round_start_is_not_offered_during_turns():
    """Reproduction 2 turned around: a drill `at round_start` is used before the first turn and
    never offered on a turn (the base drill's own timing is before_take)."""
    rules = rules_with('tool drill "Drill" { count 4  effect swap(house, track) at round_start }')
    used = 0
    for seed in range(8):
        state = GameState(rules, 3, seed)
        bots = [make_bot("random", seed, i) for i in range(3)]
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.phase == Phase.TURN:
                assert not any(isinstance(a, SwapWithTrack) for a in legal)
            action = bots[state.actor].choose(state.observation(lookahead=False), legal)
            if isinstance(action, SwapWithTrack):
                assert state.phase == Phase.ROUND_START
                assert not took_column(state, state.actor, state.round)
                used += 1
            state.apply_action(action)
    assert used


REFUSED = [
    ("tool drill { effect swap(house, track) at end }", "swap(house, track) cannot act at end", "before_take, at round_start"),
    ("tool concrete_mixer { effect swap(track, track) at end }", "cannot act at end", "before_take, at round_start"),
    ("helper handyman { effect swap(house, house) at round_start }", "cannot act at round_start", "at end, before_take"),
    ("helper roofer { effect take(roof_discard, roof_pile) at round_start }", "cannot act at round_start", "at end"),
    ("tool jackhammer { effect take_room(track) before_take }", "cannot act before_take", "at round_start"),
    ("tool scaffolding { effect scaffold at end }", "cannot act at end", "at once"),
    ("helper architect { effect score(bonus_plus 1) at end }", "cannot act at end", "at once"),
    ("tool drill { effect swap(house, track) before_take skip_turn }", "skip_turn needs at round_start", ""),
    ("tool drill { effect swap(house, track) at round_start skip_turn }", "the skipped turn's space would stay empty", ""),
    ("tool drill { effect swap(track, room_discard) before_take }", "no timing the engine can play", ""),
    ("tool drill { effect swap(house, track) at round_start before_take }", "two timings", ""),
    ("tool drill { effect swap(house, track) at sometime }", "unknown timing 'at sometime'", "at once"),
    ("helper handyman { effect swap(house, house) at end uses 1000 }", "out of range (at most 100", ""),
    ("helper architect { effect score(bonus_plus 1) uses 2 }", "'uses' does not apply", ""),
]


@pytest.mark.parametrize(("line", "message", "supported"), REFUSED)
def test_refused_combinations_exit_2_with_their_position(tmp_path, line, message, supported):
    """TOOL-TIMING: a combination that makes no sense is one error at file:line:column, exit 2,
    naming the timings the shape supports."""
    path = tmp_path / "bad.dh"
    path.write_text(f'include "base.dh"\n{line}\n')
    proc = run_here("rules", "check", path)
    assert proc.returncode == 2
    first = proc.stderr.strip().splitlines()[0]
    assert first.startswith(f"{path}:2:"), first
    column = int(first.split(":")[2])
    assert 1 <= column <= len(line)
    assert message in first and supported in first


def test_refused_position_points_at_the_timing():
    """The error sits on the name of the timing written (file:line:column), not on the card."""
    line = "tool drill { effect swap(house, track) at end }"
    with pytest.raises(RulesError) as err:
        compile_rules(text=f'include "base.dh"\n{line}\n', name="bad.dh")
    diag = err.value.diagnostics[0]
    assert (diag.line, diag.column) == (2, line.index("end }") + 1)


def test_before_take_as_a_flag_and_as_a_timing_are_the_same():
    """Backward compatibility: base.dh writes `before_take` as a flag; `at before_take` means the same."""
    for form in ("before_take", "at before_take"):
        rules = rules_with(f'tool drill "Drill" {{ count 4  effect swap(house, track) {form} }}')
        game = play(rules, 2, 3, "random", SwapWithTrack)
        assert game.uses and all(phase == Phase.TURN for phase, _p, _a in game.uses)


def test_base_game_timings_are_unchanged():
    """The defaults keep base.dh's readings: its cards act as before (the golden records replay in
    tests/test_game.py); here, each base card's timing by the support matrix."""
    rules = compile_rules()
    timing = {c.id: when(c.effects[0]) for c in rules.helpers + rules.tools}
    assert timing == {
        "handyman": "end",
        "supplier": "end",
        "roofer": "end",
        "architect": "once",
        "interior_designer": "once",
        "drill": "before_take",
        "concrete_mixer": "before_take",
        "jackhammer": "round_start",
        "scaffolding": "once",
    }


def handyman_rules(uses: int):
    return rules_with(f'helper handyman "Handyman" {{ count 2  effect swap(house, house) at end uses {uses} }}')


def test_a_huge_uses_is_refused_and_100_plays_without_recursion():
    """Reproduction 3: `uses 1000000` is refused with its bound; `uses 100` (the bound) is capped
    at what can change a house, and `optimize` answers (no RecursionError)."""
    with pytest.raises(RulesError, match="at most 100"):
        handyman_rules(1_000_000)
    rules = handyman_rules(100)
    house = random_house(rules, random.Random(0), helpers=("handyman",))
    assert len(helper_uses(rules, house).house_swap) == rules.board.size  # capped
    result = best_final_score(rules, house)
    assert result.optimal and result.total == score_total(rules, result.house)
    capped = best_final_score(handyman_rules(rules.board.size), house)
    assert capped.total == result.total


# A 7-space board over base.dh's cards (7 rounds fill it, ROUND-6), so the exhaustive reference can try every order of 5 swaps.
SMALL_BOARD = """game dream_home { rounds 7 }
board {
  floor top      upper    columns 0..2
  floor middle   upper    columns 0..2
  floor basement basement columns 2..2
  roof_pile under middle columns 0..1
}"""


@pytest.mark.slow
@pytest.mark.parametrize("uses", [2, 3, 4, 5])
def test_optimize_with_several_handyman_uses_matches_the_reference(uses):
    """END-HANDYMAN with `uses 2..5`: CP-SAT equals the exhaustive reference (every order of every
    swap, tests/helpers/reference_endgame.py), on a small board where the reference is quick."""
    rules = rules_with(f'{SMALL_BOARD}\nhelper handyman "Handyman" {{ count 2  effect swap(house, house) at end uses {uses} }}')
    moved = 0
    for seed in range(6):
        house = random_house(rules, random.Random(seed), helpers=("handyman", "architect"))
        assert len(helper_uses(rules, house).house_swap) == uses * house.helpers.count("handyman")
        result = best_final_score(rules, house)
        assert result.optimal
        assert result.total == reference_best_final(rules, house)
        moved += result.house.cells != house.cells
    assert moved  # some houses gain by swapping


def test_a_tool_at_end_counts_in_the_end_game():
    """TOOL-TIMING: a tool's `at end` effect is an end-game use like a helper's; TOOL-LAST does not
    take it away."""
    rules = rules_with('tool roofer_t "Roof tool" { count 3  effect take(roof_discard, roof_pile) at end uses 2 }')
    house = random_house(rules, random.Random(4), helpers=())
    house = replace(house, tools=("roofer_t",))
    assert helper_uses(rules, house).roof_discard_take == ("roofer_t", "roofer_t")


def test_uses_spent_survive_a_saved_state():
    """state_io: the uses spent are saved and read back; a state saved without them reads as none spent."""
    rules = rules_with('helper drill_h "Drill helper" { count 3  effect swap(house, track) before_take uses 2 }')
    for seed in range(20):
        game = play(rules, 2, seed, "random", SwapWithTrack)
        for after in game.after:
            if not after.is_terminal():
                data = after.to_dict()
                again = GameState.from_dict(rules, data)
                assert again.helper_spent == after.helper_spent and again.legal_actions() == after.legal_actions()
                data.pop("helper_spent")
                data.pop("tool_spent")
                old = GameState.from_dict(rules, data)
                assert all(n == 0 for spent in old.helper_spent for n in spent)
                return
    pytest.fail("no helper drill used in 20 games")


def test_counts_of_uses_per_card():
    """RES-HELPER, TOOL-TIMING: a helper with `uses 2` before_take acts at most twice per copy held."""
    rules = rules_with('helper roofer "Roofer" { count 3  effect take(roof_discard, roof_pile) before_take uses 2 }')
    for seed in range(6):
        game = play(rules, 3, seed, "random", TakeFromRoofDiscard)
        per_player = Counter(p for _phase, p, _a in game.uses)
        for p, n in per_player.items():
            assert n <= 2 * game.final.houses[p].helpers.count("roofer")
        for p in range(3):
            spent = game.final.helper_spent[p]
            assert sum(spent) == per_player.get(p, 0)


def test_solver_bot_plays_the_new_uses_in_a_legal_replayable_game():
    """Bots (TOOL-TIMING): the solver bot plays an end-game effect offered before the take when it
    gains at once, and a round-start drill by the greedy value; the game keeps its invariants."""
    rules = rules_with(
        'helper handyman "Handyman" { count 3  effect swap(house, house) before_take uses 2 }\n'
        'helper roofer "Roofer" { count 3  effect take(roof_discard, roof_pile) before_take }\n'
        'tool drill "Drill" { count 3  effect swap(house, track) at round_start }'
    )
    kinds: Counter = Counter()
    for seed in range(2):
        state = GameState(rules, 2, seed)
        bots = [make_bot("solver", seed, 0), make_bot("greedy", seed, 1)]
        while not state.is_terminal():
            bot = bots[state.actor]
            action = bot.choose(state.observation(lookahead=bot.looks_ahead), state.legal_actions())
            if state.actor == 0:
                kinds[type(action).__name__, state.phase] += 1
            state.apply_action(action)
            check_invariants(state)
        replay_record(GameResult(state, ("solver", "greedy")).record(), "solver game")
    played = {k for k, _phase in kinds}
    assert {"SwapWithTrack"} & played and {"SwapInHouse", "TakeFromRoofDiscard"} & played
    assert all(phase == Phase.ROUND_START for (k, phase) in kinds if k == "SwapWithTrack")


@pytest.mark.parametrize(
    "effect",
    [
        "scaffold at once",
        "swap(house, track) at before_take",
        "swap(house, house) before_take uses 3",
        "take_room(track) at round_start",
        "take_room(track) at round_start skip_turn uses 2",
    ],
)
def test_the_reader_reads_the_timing_words(effect):
    """dreamhome/dsl/parser.py reads the timings with no grammar change (`at NAME`): the effect's
    timing is the word after `at`, and `uses N` its uses."""
    import re

    from dreamhome.dsl.parser import RulesParser

    text = f'tool t "T" {{ count 1  effect {effect} }}\n'
    (decl,) = RulesParser().parse(text, "t.dh").items
    (spec,) = decl.fields[-1].value
    at, uses = re.search(r" at (\w+)", effect), re.search(r"uses (\d+)", effect)
    assert spec.timing == (at.group(1) if at else None) and spec.uses == (int(uses.group(1)) if uses else None)


def test_roof_takes_beyond_what_the_roof_scores_are_capped():
    """TOOL-TIMING, SCORE-ROOF: the roof scores its best `size` cards, so a roofer's uses count up to
    that many; `optimize` with `uses 100` equals the exhaustive reference with the cap."""
    rules = rules_with('helper roofer "Roofer" { count 2  effect take(roof_discard, roof_pile) at end uses 100 }')
    house = random_house(rules, random.Random(2), helpers=("roofer",))
    deck = [(r.index, k < r.windows) for r in rules.roofs for k in range(r.count)]
    for roof in house.roofs:
        deck.remove(roof)
    house = replace(house, discard_roofs=tuple(deck))  # every other roof card of the game
    assert len(helper_uses(rules, house).roof_discard_take) == rules.roof_scoring.size
    result = best_final_score(rules, house)
    assert result.total == reference_best_final(rules, house)
