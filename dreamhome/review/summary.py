"""A player's review: accuracy, points lost, the costliest decisions, and luck.

- accuracy: the share of the player's judged decisions (two options or more whose values
  differ: a choice among equal options says nothing) within `marks.TOLERANCE` of the best;
- mean loss: points lost a marked decision; total loss: their sum;
- luck, by the solver's bound (the default): the final score against what the player's
  decisions were expected to reach. The evaluation's value telescopes: the value before the
  player's first decision, less every loss, plus what the draw and the other players did between
  its decisions, is the final score. So `expected = start - total_loss` and
  `luck = final - expected`: what the deals, the other seats' takes and the evaluation's own
  optimism (the best cards still unseen) added or cost.
- luck, by the expected measure (`analyze --samples N`): what the deals did alone
  (`review.luck`: mean zero by construction), with its standard error; `start` is the first
  position's expected final score and `rest = final - expected - luck` what the other players'
  choices and the best options' edge over the play-out policy did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dreamhome.players.lookahead import SCORE
from dreamhome.review.marks import TOLERANCE
from dreamhome.review.walk import Decision, Walk

COSTLIEST = 3


@dataclass(frozen=True)
class PlayerReview:
    seat: int
    bot: str
    decisions: int  # marked decisions (two options or more)
    judged: int  # marked decisions whose options' values differ (accuracy is over these)
    accuracy: float  # share within the tolerance of the best, 0–1
    mean_loss: float
    total_loss: float
    inaccuracies: int
    mistakes: int
    blunders: int
    start: float  # the reachable final score before the player's first decision
    expected: float  # start less the points its decisions lost
    final: int
    luck: float  # by the bound: final - expected; by the expected measure: what the deals did (review.luck)
    costliest: tuple[int, ...]  # decision indices, costliest first
    curve: tuple[tuple[int, float], ...]  # (round, reachable final score after the decision)
    luck_error: float | None = None  # by the expected measure: the luck's standard error
    rest: float | None = None  # by the expected measure: final - expected - luck

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "bot": self.bot,
            "decisions": self.decisions,
            "judged": self.judged,
            "accuracy": round(self.accuracy, 4),
            "mean_loss": round(self.mean_loss, 3),
            "total_loss": round(self.total_loss, 2),
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
            "start": round(self.start, 2),
            "expected": round(self.expected, 2),
            "final": self.final,
            "luck": round(self.luck, 2),
            "costliest": list(self.costliest),
            **({"luck_error": round(self.luck_error, 2)} if self.luck_error is not None else {}),
            **({"rest": round(self.rest, 2)} if self.rest is not None else {}),
        }


def player_reviews(walk: Walk) -> list[PlayerReview]:
    """One review per seat of the walked game."""
    scores = walk.result.scores()
    return [_player(walk, seat, bot, scores[seat]) for seat, bot in enumerate(_bots(walk))]


def _bots(walk: Walk) -> list[str]:
    return list(walk.result.bots) or ["?"] * walk.result.state.n


def _player(walk: Walk, seat: int, bot: str, final: int) -> PlayerReview:
    mine = [d for d in walk.decisions if d.seat == seat]
    marked = [d for d in mine if d.mark is not None]
    judged = [d for d in marked if d.differ]
    total = sum(d.loss for d in marked)
    scored = [d for d in mine if d.measure == SCORE]  # a margin (the discard) is no own score
    start = scored[0].best_value if scored else float(final)
    luck, luck_error, rest = None, None, None
    if walk.luck is not None:  # the expected measure: the start and the deals' luck by play-outs
        seat_luck = walk.luck[seat]
        start, luck, luck_error = seat_luck.start, seat_luck.luck, seat_luck.error
    expected = start - total
    if luck is None:
        luck = final - expected
    else:
        rest = final - expected - luck
    costly = sorted((d for d in marked if d.loss > TOLERANCE), key=lambda d: (-d.loss, d.index))[:COSTLIEST]
    return PlayerReview(
        seat=seat,
        bot=bot,
        decisions=len(marked),
        judged=len(judged),
        accuracy=(sum(1 for d in judged if d.mark == "best") / len(judged)) if judged else 1.0,
        mean_loss=total / len(marked) if marked else 0.0,
        total_loss=total,
        inaccuracies=_count(marked, "inaccuracy"),
        mistakes=_count(marked, "mistake"),
        blunders=_count(marked, "blunder"),
        start=start,
        expected=expected,
        final=final,
        luck=luck,
        costliest=tuple(d.index for d in costly),
        curve=tuple((d.round, d.chosen_value) for d in scored),
        luck_error=luck_error,
        rest=rest,
    )


def _count(decisions: list[Decision], which: str) -> int:
    return sum(1 for d in decisions if d.mark == which)


__all__ = ["COSTLIEST", "PlayerReview", "player_reviews"]
