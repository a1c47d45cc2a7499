"""The expected measure (issue 31, item 3): an option's value as the mean final score of seeded
play-outs (dreamhome/players/playouts.py), ranked and judged on disjoint halves, and luck as what
the deals did (dreamhome/review/luck.py). SEE-1: a sample holds nothing a player cannot know."""

from __future__ import annotations

import json
import random
import statistics
from dataclasses import replace
from importlib.resources import files

import jsonschema
import pytest

from dreamhome.dsl.compiler import compile_rules
from dreamhome.game.phases import Phase
from dreamhome.game.state import GameState
from dreamhome.players.evaluation import judged
from dreamhome.players.lookahead import AS_IT_STANDS, EXPECTED, MARGIN, REVIEW, OptionValue, best_index, option_values
from dreamhome.players.playouts import playout_finals, playout_position, sample_of, sample_seed
from dreamhome.players.roster import make_bot
from dreamhome.review.game import review_record
from dreamhome.review.luck import deal_luck
from dreamhome.scoring import score_total
from tests.helpers.games import decision_positions

EXPECTED2 = replace(REVIEW, samples=2)


def _short_rules(rounds: int):
    return compile_rules(text=f'include "base.dh"\ngame dream_home {{ rounds {rounds} }}\n', name=f"r{rounds}.dh")


def _reordered(state: GameState, seed: int) -> GameState:
    """The same position with its decks in another true order (the contents unchanged)."""
    twin = state.snapshot()
    rng = random.Random(seed)
    rooms, res = list(twin.room_deck), list(twin.res_deck)
    rng.shuffle(rooms)
    rng.shuffle(res)
    twin.stack_deal(rooms, res)
    return twin


def _greedy_to_the_end(state: GameState, me: int, action, k: int) -> list[int]:
    """Sample `k` of `state` as `me` sees it, `action` applied, played by the greedy bot in every
    seat to the game's end (by hand, against the module's own play-outs): the final scores."""
    seed = sample_seed(state, me, k)
    game = sample_of(state.observation(me, lookahead=False), seed).child(action)
    bots = [make_bot("greedy", seed, s) for s in range(game.n)]
    while not game.is_terminal():
        bot = bots[game.current_player()]
        game.apply_action(bot.choose(game.observation(lookahead=bot.looks_ahead), game.legal_actions()))
    return game.returns()


def test_a_sample_depends_on_the_decks_contents_never_their_order():
    """SEE-1: two games that differ only in the decks' true order give the same samples, so the
    same expected values — shuffling the true order with a seed fixed by public facts would only
    relabel the real future."""
    state = decision_positions(_short_rules(4), 3, 7)[8]
    twin = _reordered(state, 1)
    assert twin.room_deck != state.room_deck and sorted(twin.room_deck) == sorted(state.room_deck)
    me = state.current_player()
    a = sample_of(state.observation(me, lookahead=False), 5)
    b = sample_of(twin.observation(me, lookahead=False), 5)
    assert a.room_deck == b.room_deck and a.res_deck == b.res_deck
    assert [v and v.samples for v in option_values(state, EXPECTED2)] == [v and v.samples for v in option_values(twin, EXPECTED2)]


def test_an_expected_value_is_the_mean_of_greedy_play_outs_from_the_shared_samples():
    """The value read against play-outs made here by hand: the same sample (seeded by the
    public position) for every option, the greedy bot in every seat to the game's end."""
    state = decision_positions(_short_rules(4), 2, 3)[9]
    me, legal = state.current_player(), state.legal_actions()
    values = option_values(state, EXPECTED2)
    floor = score_total(state.rules, state.observation(me, lookahead=False).house_with_piles(me))
    for i, action in enumerate(legal):
        finals = [_greedy_to_the_end(state, me, action, k)[me] for k in range(2)]
        v = values[i]
        assert v is not None
        assert v.value == max(statistics.fmean(finals), floor)
        if v.note != AS_IT_STANDS:
            assert v.samples == tuple(float(f) for f in finals)


def test_an_expected_value_is_never_below_the_house_as_it_stands():
    """PLACE-EMPTY: the rest of the house can go face down, so its score now is reachable."""
    rules = _short_rules(4)
    for state in decision_positions(rules, 2, 11, "random")[::3]:
        if state.phase == Phase.END:
            continue
        me = state.current_player()
        floor = score_total(rules, state.observation(me, lookahead=False).house_with_piles(me))
        for v in option_values(state, EXPECTED2):
            assert v is not None and v.value is not None
            if v.measure != MARGIN:
                assert v.value >= floor


def test_the_discard_is_judged_by_the_margin_over_the_others_mean():
    """ROUND-1 with three players: the discard changes what the others get, so its value is the
    player's final score less the others' mean, play-out by play-out."""
    state = next(s for s in decision_positions(_short_rules(3), 3, 5) if s.phase == Phase.DISCARD)
    me = state.current_player()
    values = option_values(state, EXPECTED2)
    for i, action in enumerate(state.legal_actions()):
        v = values[i]
        assert v is not None and v.measure == MARGIN
        margins = []
        for k in range(2):
            finals = _greedy_to_the_end(state, me, action, k)
            margins.append(finals[me] - (sum(finals) - finals[me]) / 2)
        assert v.value == pytest.approx(statistics.fmean(margins))


def test_options_are_ranked_on_one_half_of_the_play_outs_and_judged_on_the_other():
    """No winner's curse: the best option is picked on the first half and valued on the second,
    so the noise that made it look best does not also charge the others' losses."""
    lucky = OptionValue(0, 7.0, False, "read", samples=(10.0, 10.0, 4.0, 4.0))
    steady = OptionValue(1, 6.0, False, "read", samples=(6.0, 6.0, 6.0, 6.0))
    assert best_index([lucky, steady]) == 0  # ranked on (10, 10) against (6, 6)
    ev = judged([lucky, steady], 1, 2)  # the steady option chosen: better on the second half
    assert (ev.loss, ev.best_index, ev.chosen_value) == (0.0, 1, 6.0)
    sure = OptionValue(0, 9.0, False, "read", samples=(10.0, 10.0, 8.0, 8.0))
    ev = judged([sure, steady], 1, 2)
    assert (ev.loss, ev.best_value, ev.chosen_value, ev.error) == (2.0, 8.0, 6.0, 0.0)
    bound = [OptionValue(0, 30.0, True, "read"), OptionValue(1, 31.0, True, "read")]
    assert best_index(bound) == 1 and judged(bound, 0, 2).loss == 1.0  # the bound: one value, ranked and judged


def test_before_a_deal_the_value_is_the_mean_of_the_values_after_it():
    """The tower property that makes luck fair: the value of the decision that triggers the
    last deal equals, within its noise, the mean of the values after the deals other true deck
    orders would have dealt — so the luck of a deal has mean zero."""
    rules = _short_rules(3)
    positions = decision_positions(rules, 2, 8)
    before = next(
        s for s in reversed(positions) if s.phase != Phase.END and s.round == 2 and s.child(s.legal_actions()[0]).round == 3
    )
    action = before.legal_actions()[0]
    p = before.current_player()
    # the value before: the deal drawn in each of 40 play-outs
    was = [float(r.finals[p]) for r in playout_finals(before, p, [action], 40)[0]]
    # the values after the deals of 40 other true orders, 4 play-outs each
    after = []
    for world in range(40):
        dealt = _reordered(before, 100 + world).child(action)
        after.append(statistics.fmean(float(f[p]) for f in playout_position(dealt, p, 4)))
    error = (statistics.variance(was) / len(was) + statistics.variance(after) / len(after)) ** 0.5
    assert abs(statistics.fmean(after) - statistics.fmean(was)) <= 3 * error + 0.01


def test_a_review_by_the_expected_measure_says_so_and_adds_up():
    """`analyze --samples`: every loss with its error, each seat's luck from the deals with its
    error, and final = start - loss + luck + rest."""
    from dreamhome.players.playing import play_game

    rules = _short_rules(2)
    result = play_game(rules, 2, ["greedy", "random"], 6)
    review = review_record(result.record(), "game", samples=2)
    data = review.to_json()
    schema = json.loads(files("dreamhome.schemas").joinpath("review.schema.json").read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(data)  # luck_error, rest, error: in the public format
    assert data["evaluation"]["settings"]["measure"] == EXPECTED and data["evaluation"]["settings"]["samples"] == 2
    assert all("luck_error" in p and "rest" in p for p in data["players"])
    assert all(d["error"] >= 0 for d in data["decisions"])
    assert review.walk.luck is not None and all(s.deals == 1 for s in review.walk.luck)  # round 2's deal
    for player in review.players:
        assert player.luck_error is not None and player.rest is not None
        assert player.final == pytest.approx(player.start - player.total_loss + player.luck + player.rest)
    assert deal_luck(review.walk.positions, [], [], 2)[0].deals == 0  # no step, no deal
