"""The one look-ahead (issue 31, items 1–3): the hints and the review value options the same way.

- a seat that follows every hint loses nothing by the review of its game (the terminal seat and
  the browser table both call `hints.hint`; the game here is played in the engine);
- on every decision of seeded bot games the hint's values are the review's, its pick the review's
  best, with the same proof flags;
- END-ORDER, HELP-COPIES: two copies of a role of which one is spent keep one use, and following
  the end-game hint reaches the value it proved (issue 31: "reaches 37", then 33);
- a value is never below what the house scores as it stands after the option;
- the 2–3 player discard (ROUND-1) is judged by the margin over the others, and accuracy counts
  only decisions whose options' values differ.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dreamhome.engine.endgame import END_ROLES, helper_uses
from dreamhome.game.actions import Action
from dreamhome.game.phases import Phase
from dreamhome.game.record import GameResult
from dreamhome.game.state import GameState
from dreamhome.players.evaluation import evaluate
from dreamhome.players.hints import AT_LEAST, hint
from dreamhome.players.lookahead import MARGIN, REVIEW, SCORE, end_house, option_values, with_work
from dreamhome.players.roster import make_bot
from dreamhome.review import review_record
from dreamhome.ruleset import Ruleset
from dreamhome.scoring import score_total

# One worker runs this module (pytest --dist loadgroup, pyproject.toml): its module fixtures —
# the hint-following game and its review — are computed once, not once in every worker.
pytestmark = pytest.mark.xdist_group("test_lookahead")

WORK = 0.02  # small deterministic work a solve: the checks are about agreement, not strength


def _play(rules: Ruleset, players: int, seed: int, choose: Callable[[GameState, int], Action]) -> GameState:
    state = GameState(rules, players, seed)
    while not state.is_terminal():
        state.apply_action(choose(state, state.current_player()))
    return state


def _bots(names: list[str], seed: int) -> Callable[[GameState, int], Action]:
    bots = [make_bot(name, seed, seat) for seat, name in enumerate(names)]

    def choose(state: GameState, seat: int) -> Action:
        return bots[seat].choose(state.observation(lookahead=bots[seat].looks_ahead), state.legal_actions())

    return choose


@pytest.fixture(scope="module")
def hinted(base: Ruleset) -> dict:
    """A seeded 2-player game (the discard, ROUND-1, is among its decisions): seat 0 plays the
    hint's pick at every decision, seat 1 is a random bot; its review with the hints' work."""
    seed = 12
    other = _bots(["random", "random"], seed)

    def choose(state: GameState, seat: int) -> Action:
        if seat != 0:
            return other(state, seat)
        h = hint(state, work=WORK)
        assert h.bot_choice is not None
        return h.options[h.bot_choice].action

    final = _play(base, 2, seed, choose)
    return review_record(GameResult(final, ("hint", "random")).record(), "hinted", work=WORK).to_json()


@pytest.mark.slow
def test_a_seat_that_follows_every_hint_loses_nothing_by_the_review(hinted: dict) -> None:
    """Issue 31: the review marked the hint's own pick a mistake."""
    mine = [d for d in hinted["decisions"] if d["seat"] == 0]
    assert len(mine) > 20 and any(d["measure"] == MARGIN for d in mine)
    assert all(d["loss"] == 0 and d["mark"] in ("best", None) for d in mine), [d for d in mine if d["loss"]]
    assert hinted["players"][0]["total_loss"] == 0 and hinted["players"][0]["accuracy"] == 1.0


@pytest.mark.slow
def test_the_hint_is_the_reviews_best_on_every_decision_of_a_bot_game(base: Ruleset) -> None:
    """On every decision of a seeded 2-player game (greedy against hard), the hint's pick is an
    option the review marks best, and the hint shows the review's values and proof flags for
    the chosen option and the best."""
    seed = 3
    choose = _bots(["greedy", "hard"], seed)
    state = GameState(base, 2, seed)
    checked = 0
    while not state.is_terminal():
        action = choose(state, state.current_player())
        legal = state.legal_actions()
        if len(legal) > 1:
            h = hint(state, work=WORK)
            ev = evaluate(state, action, work=WORK)
            assert h.bot_choice is not None and h.pick_value == ev.best_value  # the pick loses nothing
            assert h.options[ev.best_index].bound == ev.best_value
            assert h.options[ev.best_index].proven == h.options[h.bot_choice].proven or ev.best_index != h.bot_choice
            chosen = h.options[legal.index(action)]
            if chosen.note != AT_LEAST:  # an end-game option the review reads only when chosen
                assert chosen.bound == ev.chosen_value
            checked += 1
        state.apply_action(action)
    assert checked > 40


def _end_turn_with_two_copies(rules: Ruleset) -> tuple[GameState, int, str]:
    """Seed 5, three greedy bots: seat 1 starts its end turn holding two copies of the card that
    gives the room-discard swap (END-SUPPLIER) and one house swap (END-HANDYMAN). Returns that
    position, the seat and the role held twice."""
    seed = 5
    choose = _bots(["greedy"] * 3, seed)
    state = GameState(rules, 3, seed)
    while not (state.phase == Phase.END and state.current_player() == 1):
        state.apply_action(choose(state, state.current_player()))
    uses = helper_uses(rules, state.houses[1])
    twice = [role for role in END_ROLES if len(uses.of(role)) == 2 and len(set(uses.of(role))) == 1]
    assert twice, uses
    return state, 1, twice[0]


def test_two_copies_of_a_role_one_spent_keep_one_use(base: Ruleset) -> None:
    """HELP-COPIES: each copy acts on its own; END-ORDER: a spent use is gone. The hints once
    kept both copies after one was used, and promised a second swap."""
    state, seat, role = _end_turn_with_two_copies(base)
    before = helper_uses(base, end_house(state, seat))
    assert len(before.of(role)) == 2
    use = next(a for a in state.legal_actions() if a.role == role)
    state.apply_action(use)
    assert state.current_player() == seat
    after = helper_uses(base, end_house(state, seat))
    assert len(after.of(role)) == 1
    assert all(len(after.of(r)) == len(before.of(r)) for r in END_ROLES if r != role)


@pytest.mark.slow
def test_following_the_end_game_hint_reaches_the_value_it_proved(base: Ruleset) -> None:
    """Issue 31: the end-game hint said 35, then "reaches 37" (proven), and the house ended on 33.
    Following the hint's pick through the end turn, every proven value it shows for its pick is
    the score the house ends with."""
    state, seat, _role = _end_turn_with_two_copies(base)
    shown = []
    while state.current_player() == seat and state.phase == Phase.END:
        h = hint(state)
        assert h.bot_choice is not None
        pick = h.options[h.bot_choice]
        if pick.proven:
            shown.append(pick.bound)
        state.apply_action(pick.action)
    final = score_total(base, state.houses[seat])
    assert shown and all(value == final for value in shown), (shown, final)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 9])
def test_a_value_is_never_below_the_house_as_it_stands(base: Ruleset, seed: int) -> None:
    """Issue 31 found values below what the house after the move scores. The house keeps its
    score by placing its remaining cards face down (PLACE-EMPTY), so no option may be worth less."""
    choose = _bots(["random", "random"], seed)
    state = GameState(base, 2, seed)
    settings = with_work(REVIEW, WORK)
    seen = 0
    while not state.is_terminal():
        me = state.current_player()
        if state.phase != Phase.END and state.phase != Phase.DISCARD and seen < 30:
            for action, value in zip(state.legal_actions(), option_values(state, settings)):
                assert value is not None and value.value is not None and value.measure == SCORE
                after = state.child(action).observation(me, lookahead=False).house_with_piles(me)
                assert value.value >= score_total(base, after), (state.action_text(action), value)
            seen += 1
        state.apply_action(choose(state, me))
    assert seen == 30


def test_the_discard_is_judged_by_the_margin_over_the_others(base: Ruleset) -> None:
    """ROUND-1: the 2–3 player discard only changes what the others get, so it is judged by the
    player's value less the mean of the others' (a margin), and the review says so."""
    state = GameState(base, 3, 4)
    assert state.phase == Phase.DISCARD
    settings = with_work(REVIEW, WORK)
    values = option_values(state, settings)
    assert all(v is not None and v.measure == MARGIN for v in values)
    me = state.current_player()
    from dreamhome.players.lookahead import leaf

    for action, value in zip(state.legal_actions(), values):
        child = state.child(action)
        mine = leaf(child, me, settings).value
        others = [leaf(child, p, settings).value for p in range(3) if p != me]
        assert value is not None and value.value == pytest.approx(mine - sum(others) / 2)
    ev = evaluate(state, state.legal_actions()[0], work=WORK)
    assert ev.measure == MARGIN


@pytest.mark.slow
def test_accuracy_counts_only_decisions_whose_options_differ(hinted: dict) -> None:
    for player in hinted["players"]:
        mine = [d for d in hinted["decisions"] if d["seat"] == player["seat"] and d["mark"] is not None]
        judged = [d for d in mine if d["differ"]]
        assert player["decisions"] == len(mine) and player["judged"] == len(judged)
        assert player["accuracy"] == pytest.approx(sum(d["mark"] == "best" for d in judged) / len(judged), abs=1e-4)
    assert any(not d["differ"] for d in hinted["decisions"] if d["mark"] is not None)
