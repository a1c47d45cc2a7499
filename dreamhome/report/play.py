"""A report game: each game played and summarised for every figure of the report.

`play_report_chunk` is what the what-if executors run on a worker (`executor(..., play=...)`,
through the what-if runner's `play_stores`): the what-if engine's chunk loop (`play_games`)
with the report's summary of a game, so a chunk has the what-if shape and the what-if store
keeps and verifies it. A game's summary is a pure function of the payload and its seed.
"""

from __future__ import annotations

from dreamhome.game.actions import DiscardColumn, TakeColumn, TakeRoomAtRoundStart
from dreamhome.game.state import GameState
from dreamhome.report.restricted import RestrictedBot, column_cards, make_seat, takes
from dreamhome.ruleset import Ruleset
from dreamhome.scoring import score_components
from dreamhome.whatif.experiment import play_games


def play_report_game(rules: Ruleset, players: int, bots: list[str], seed: int) -> dict:
    """One game and what the report needs of it (seat by seat, seat 0 first)."""
    seats = [make_seat(name, seed, i) for i, name in enumerate(bots)]
    state = GameState(rules, players, seed)
    decisions = [0] * players
    options = [0] * players
    multi = [0] * players
    taken: dict[str, int] = {}
    seen: set[tuple[int, int, frozenset[str]]] = set()
    round_scores: list[list[int]] = []  # every house's score at each round's end (tension)
    while not state.is_terminal():
        actor = state.current_player()
        bot = seats[actor]
        legal = state.legal_actions()
        obs = state.observation(lookahead=bot.looks_ahead)
        action = bot.choose(obs, legal)
        decisions[actor] += 1
        options[actor] += len(legal)
        multi[actor] += len(legal) > 1
        if any(isinstance(a, (TakeColumn, DiscardColumn)) for a in legal):
            for column in range(len(obs.track_rooms)):
                seen.add((obs.round, column, frozenset(column_cards(obs, column))))
        if isinstance(action, (TakeColumn, TakeRoomAtRoundStart)):
            for card in takes(obs, action):
                taken[card] = taken.get(card, 0) + 1
        state.apply_action(action)
        if state.is_terminal() or state.round != obs.round:
            round_scores.append(state.returns())
    steps = [0] * players  # the game's forced steps (one legal action: the driver played it)
    for event in state.events:
        if event.get("forced") and "player" in event:
            steps[event["player"]] += 1
    offered: dict[str, int] = {}
    for _round, _column, cards in seen:
        for card in cards:
            offered[card] = offered.get(card, 0) + 1
    scores = state.returns()
    top = max(scores)
    return {
        "seed": seed,
        "scores": scores,
        "winners": state.winners(),
        "tied_top": sum(1 for s in scores if s == top) > 1,  # SCORE-WIN: the tie-break had work to do
        "first": state.initial_first,
        "components": [list(score_components(rules, h)) for h in state.houses],
        "decisions": decisions,
        "options": options,
        "multi": multi,
        "forced_steps": steps,
        "forced": [s.forced if isinstance(s, RestrictedBot) else 0 for s in seats],
        "taken": dict(sorted(taken.items())),
        "offered": dict(sorted(offered.items())),
        "round_scores": round_scores,
    }


def play_report_chunk(job: dict) -> dict:
    """Play one chunk of a condition (game i from seed `seed + i`) through the what-if engine's
    chunk loop (`play_games`: its rules cache, a crash kept with its seed), each game summarised
    for the report."""
    return play_games(job, _report_game)


def _report_game(rules: Ruleset, job: dict, seed: int) -> dict:
    return play_report_game(rules, job["players"], list(job["bots"]), seed)
