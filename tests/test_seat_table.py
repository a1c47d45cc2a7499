"""The terminal seat tidied (issue 22, item 5) and the solver's pick in a hint (item 4), in process.

Each test starts from a position reached by seeded greedy bots, then drives the seat
(dreamhome.terminal.seat.HumanGame) with scripted lines, as a person types them, and reads what it
printed. What is expected is said from the legal actions, the observation and the independent
scorer (tests/helpers/reference.py), never from the seat's own output.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from dreamhome import i18n
from dreamhome.game.actions import Action, EndTurn, SwapWithTrack, TakeColumn
from dreamhome.game.state import GameState
from dreamhome.house import house_to_json
from dreamhome.players.hints import bound_text, hint, number_text
from dreamhome.players.roster import make_bot
from dreamhome.render.hint_text import reason_text
from dreamhome.terminal.seat import HumanGame, Menu, option_text
from tests.helpers.reference import reference_score
from tests.helpers.rules import compiled

RULES = compiled()


def _until(seed: int, ready: Callable[[GameState], bool], players: int = 2) -> GameState:
    """The first position of a seeded greedy game where `ready` holds (the game as it ended if never)."""
    state = GameState(RULES, players, seed, 0)
    bots = [make_bot("greedy", seed, p) for p in range(players)]
    while not state.is_terminal() and not ready(state):
        player = state.current_player()
        state.apply_action(bots[player].choose(state.observation(lookahead=True), state.legal_actions()))
    return state


def _holds_drill(state: GameState) -> bool:
    legal = state.legal_actions()
    return any(isinstance(a, SwapWithTrack) for a in legal) and any(isinstance(a, TakeColumn) for a in legal)


def _end_game(state: GameState) -> bool:
    return state.phase.value == "end" and len(state.legal_actions()) > 1


def _seat(state: GameState, lines: list[str], lang: str = "en", people: tuple[int, ...] | None = None):
    """A seat for the player to act (and any other `people`), greedy bots elsewhere, reading
    `lines` and then the end of input. Returns the game and what it printed."""
    people = people if people is not None else (state.current_player(),)
    names = tuple("human" if p in people else "greedy" for p in range(state.n))
    seats = tuple(None if p in people else make_bot("greedy", state.seed, p) for p in range(state.n))
    out = io.StringIO()
    feed = iter(lines)

    def read(prompt: str) -> str:
        out.write(prompt + "\n")
        line = next(feed, None)
        if line is None:
            raise EOFError
        return line

    console = Console(file=out, width=200, color_system=None)
    return HumanGame(state, names, seats, console, read=read, hint_work=0.05, lang=lang), out


def _numbered(block: str) -> list[str]:
    """The numbered lines of the first option list in `block` ("  3. take column 2 (…)")."""
    start = block.index("your options:")
    lines = []
    for line in block[start:].splitlines()[1:]:
        m = re.match(r"^\s+(\d+)\. (.*)$", line)
        if not m:
            break
        assert int(m.group(1)) == len(lines) + 1
        lines.append(m.group(2))
    return lines


def _played(before: GameState, after: GameState) -> Action:
    from dreamhome.game.actions import action_from_dict

    return action_from_dict(after.events[len(before.events)]["action"])


# ---- item 5: takes and placements first, the uses behind one entry ---------------------------


def test_holding_a_drill_the_takes_come_first_and_the_uses_behind_one_entry():
    state = _until(7, _holds_drill)
    legal = state.legal_actions()
    takes = [a for a in legal if isinstance(a, TakeColumn)]
    drills = [a for a in legal if isinstance(a, SwapWithTrack)]
    assert len(drills) >= 10  # the case of the issue: a list the takes drowned in
    game, out = _seat(state, [])
    game.show(state.current_player())
    shown = _numbered(out.getvalue())
    assert shown[: len(takes)] == [option_text(state, a) for a in takes]  # every take, first
    assert len(shown) == len(legal) - len(drills) + 1  # one entry stands for every drill use
    tools = state.observation(lookahead=False).houses[state.current_player()].tools
    assert any(RULES.card_name(t) in shown[-1] for t in tools) and f"{len(drills)} choices" in shown[-1]
    assert not any(option_text(state, a) in line for a in drills for line in shown)


@pytest.mark.slow
@pytest.mark.parametrize("k", [1, 5, -1])
def test_the_entry_opens_the_uses_and_each_number_plays_the_use_it_names(k):
    state = _until(7, _holds_drill)
    legal = state.legal_actions()
    uses = [a for a in legal if a.role is not None]  # in the order of the legal actions
    entry = len(legal) - len(uses) + 1
    number = k if k > 0 else len(uses)
    before = state.clone()
    game, out = _seat(state, [str(entry), "hint", str(number)])
    game.run()
    opened = out.getvalue().split("tool and helper uses", 1)[1]
    listed = re.findall(r"^\s+(\d+)\. (.*)$", opened.split("back: the other options")[0], flags=re.M)
    assert [text for _, text in listed] == [option_text(before, a) for a in uses]
    hinted = opened.split("keeps reachable", 1)[1].split("keeps reachable:")[0]
    assert len(re.findall(r"^\s*\d+\s", hinted, flags=re.M)) == len(uses)  # the hint of the opened list: its rows
    assert _played(before, game.state) == uses[number - 1]


def test_back_closes_the_uses_and_the_numbers_are_the_takes_again():
    state = _until(7, _holds_drill)
    legal = state.legal_actions()
    entry = sum(1 for a in legal if a.role is None) + 1
    before = state.clone()
    game, out = _seat(state, [str(entry), "back", "2"])
    game.run()
    assert _played(before, game.state) == [a for a in legal if a.role is None][1]
    assert out.getvalue().count("your options:") >= 2  # shown again after `back`


TOOL_VARIANTS = ["", "drill_twice", "handyman2", "more_tools", "mixer_round_start"]


@pytest.mark.slow
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), variant=st.sampled_from(TOOL_VARIANTS))
def test_a_menu_numbers_every_legal_action_once_on_any_position(seed, players, variant):
    """Menu.of partitions the legal actions of every decision of a game: the plain ones in
    their order, then one entry, then the uses in theirs; nothing is grouped when there is
    only one kind. So each number (or entry, then number) plays exactly one legal action."""
    rules = compiled(variant) if variant else RULES
    state = GameState(rules, players, seed, 0)
    bots = [make_bot("greedy", seed, p) for p in range(players)]
    while not state.is_terminal():
        legal = state.legal_actions()
        menu = Menu.of(legal)
        plain = [i for i, a in enumerate(legal) if a.role is None]
        uses = [i for i, a in enumerate(legal) if a.role is not None]
        if plain and uses:
            assert menu.main == (*plain, None) and list(menu.uses) == uses and menu.grouped
        else:
            assert menu.main == tuple(range(len(legal))) and not menu.uses and not menu.grouped
        player = state.current_player()
        state.apply_action(bots[player].choose(state.observation(lookahead=True), legal))


# ---- item 5: the piles, the end game's header, the end, "you" --------------------------------


def test_both_discard_piles_are_shown_by_their_cards():
    state = _until(5, lambda s: len(s.observation(lookahead=False).roof_discard) >= 2)
    obs = state.observation(lookahead=False)
    game, out = _seat(state, [])
    game.show(state.current_player())
    text = out.getvalue()
    roofs = text.split("roof discard pile: ", 1)[1].splitlines()[0].split(", ")
    assert len(roofs) == len(obs.roof_discard)
    for said, (roof, window) in zip(roofs, obs.roof_discard):
        assert RULES.card_name(RULES.roofs[roof].id).lower() in said and ("window" in said) == window
    rooms = text.split("room discard pile: ", 1)[1].splitlines()[0].split(", ")
    assert rooms == [RULES.card_name(RULES.room_of_code(c).id) for c in obs.room_discard]


def test_an_empty_roof_discard_pile_says_none():
    state = GameState(RULES, 4, 1, 0)  # four players: no discard in round 1 (ROUND-1)
    game, out = _seat(state, [])
    game.show(state.current_player())
    assert "roof discard pile: none" in out.getvalue()


def test_after_the_last_round_the_header_says_the_end_game_never_round_13():
    state = _until(2, _end_game)
    assert state.round > RULES.game.rounds or state.phase.value == "end"
    game, out = _seat(state, [])
    game.show(state.current_player())
    header = out.getvalue().splitlines()[0]
    assert "end game" in header and "final scoring" in header and f"of {RULES.game.rounds}" not in header
    for lang in ("ru", "fr", "hu"):
        game, out = _seat(state, [], lang=lang)
        game.show(state.current_player())
        said = out.getvalue().splitlines()[0]
        assert i18n.text("seat.rule_end", lang, rounds=RULES.game.rounds, seat=state.current_player()) in said


def test_the_end_shows_every_house_with_the_scorers_breakdown():
    state = _until(4, lambda s: False, players=3)
    assert state.is_terminal()
    game, out = _seat(state, [], people=(1,))
    game.show_result()
    text = out.getvalue()
    expected = [reference_score(RULES, house_to_json(RULES, house))["total"] for house in state.houses]
    names = ["greedy", "you", "greedy"]
    for p, total in enumerate(expected):
        assert f"seat {p} ({names[p]}): {total} points" in text
    totals = [int(m) for m in re.findall(r"^\s+(-?\d+)\s+total\s*$", text, flags=re.M)]
    assert totals == expected  # one breakdown a house, each ending with the scorer's total
    assert "human" not in text and "final scoring" in text.splitlines()[0]


def test_a_persons_seat_is_you_and_never_human():
    state = GameState(RULES, 3, 2, 0)
    game, out = _seat(state, ["1", "1", "1", "1"], people=(0, 2))
    game.run()
    text = out.getvalue()
    assert "(human)" not in text
    assert re.search(r"seat 0 \(you\)", text) and re.search(r"seat 2 \((you|person)\)", text)
    assert game.seat_name(1) == "greedy"


# ---- item 4: the solver's pick carries its value and a reason -------------------------------


def _positions() -> list[GameState]:
    return [
        GameState(RULES, 2, 5, 0),  # ROUND-1's discard
        _until(5, lambda s: s.phase.value == "turn"),
        _until(5, lambda s: s.phase.value == "place"),
        _until(7, _holds_drill),
        _until(2, _end_game),
    ]


HINTS = pytest.mark.xdist_group("test_seat_table_hints")  # the hints of the positions below, computed once


@pytest.fixture(scope="module")
def hints():
    return [(state, hint(state, work=0.2)) for state in _positions()]


@HINTS
def test_the_pick_always_carries_its_value(hints):
    for _state, h in hints:
        assert h.bot_choice is not None
        pick = h.options[h.bot_choice]
        assert h.pick_value is not None and h.pick_value == pick.bound and h.pick_proven == pick.proven
        data = h.to_json()
        assert data["pick_value"] == pick.bound and data["bot_choice"] == h.bot_choice


@HINTS
def test_the_reason_is_said_from_the_numbers_in_every_language(hints):
    for state, h in hints:
        assert h.reason
        pick = h.options[h.bot_choice]
        first = dict(h.reason[0].args)
        if state.phase.value == "end":
            now = next(o.bound for o in h.options if isinstance(o.action, EndTurn))
            if not isinstance(pick.action, EndTurn):
                assert first["now"] == now and first["diff"] == number_text(pick.bound - now)
        else:
            others = [o.bound for o in h.options if o.index != pick.index and o.bound is not None]
            assert first["value"] == bound_text(pick.bound, pick.proven)
            if others:
                assert first["diff"] == number_text(pick.bound - max(others))  # the pick is the best: never behind
                key = h.reason[0].key
                side = pick.bound - max(others)
                assert (side > 0) == key.endswith("ahead") and (side == 0) == key.endswith("tie")
        for lang in i18n.LANGUAGES:
            said = reason_text(state, h.reason, lang)
            assert said and "{" not in said
            assert bound_text(pick.bound, pick.proven) in said or str(pick.bound) in said


def test_one_sign_for_found_not_proven():
    assert bound_text(41, True) == "41" and bound_text(41, False) == "≥41" and bound_text(None, False) == "—"


def test_the_hint_of_the_closed_entry_shows_the_best_use_and_where_the_pick_is():
    state = _until(2, _end_game)
    legal = state.legal_actions()
    game, out = _seat(state, [])
    game.show_hint(legal)
    h = game.hint_now()
    uses = [o for o in h.options if o.action.role is not None]
    best = max(uses, key=lambda o: o.bound if o.bound is not None else -1)
    entry = len(legal) - len(uses) + 1
    text = out.getvalue()
    row = next(line for line in text.splitlines() if re.match(rf"^\s*{entry}\s+use a tool or helper", line))
    assert bound_text(best.bound, best.proven) in row.split("choices)")[1]
    assert h.bot_choice is not None
    pick = h.options[h.bot_choice]
    if pick.action.role is not None:  # inside the closed entry: the entry's number, then the use's
        k = [o.index for o in uses].index(pick.index) + 1
        assert f"the best: {entry} → {k}. {option_text(state, pick.action)} — " in text


@HINTS
def test_the_browser_gets_the_picks_value_and_reason(hints):
    """`hint_view` (the browser's hint JSON) carries the pick's value, '≥' when not proven as the
    terminal shows it, and the reason in the page's language. It reads only `game.state`."""

    from dreamhome.web.view import hint_view

    for state, h in hints:
        pick = h.options[h.bot_choice]
        for lang in ("en", "hu"):
            view = hint_view(state, h, lang)
            assert view["pick"] == h.bot_choice and view["pick_value"] == pick.bound
            assert view["pick_proven"] == pick.proven and view["pick_text"] == bound_text(pick.bound, pick.proven)
            assert view["reason"] == reason_text(state, h.reason, lang) and view["reason"]
