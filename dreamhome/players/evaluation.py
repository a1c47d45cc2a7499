"""The one evaluation of a game review: what a decision keeps reachable, in final-score points.

    evaluate(state: GameState, chosen: Action, work: float = REVIEW_WORK) -> Evaluation

For the player to act in `state`, every option is valued by the one look-ahead
(`dreamhome.players.lookahead.option_values`) with the review's settings (`lookahead.REVIEW`,
its work per solve replaced by `work`): the hints of a human seat use the same settings, so the
hint's pick is the option this evaluation calls best, with the same values. The best option is
the highest value, ties to the first in `legal_actions()` order; the loss is the best value less
the chosen option's, never negative since both come from the same values.

In the end game (END-ORDER) an end turn may offer hundreds of swaps, one solve each: the values
read are the chosen option's, the end-game plan's first legal step's and ending the turn's; the
best is the highest of them.

A decision that only changes what the others get (the 2–3 player discard, ROUND-1) is judged by
the player's margin over the others (`Evaluation.measure`, `lookahead.MARGIN`).
"""

from __future__ import annotations

from dataclasses import dataclass

from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import Action
from dreamhome.game.state import GameState
from dreamhome.players.lookahead import REVIEW, SCORE, OptionValue, Settings, best_index, decision_values, with_work

REVIEW_WORK = REVIEW.work
"""CP-SAT deterministic time of one solve of the review (`lookahead.REVIEW`; the hints' too)."""


@dataclass(frozen=True)
class Evaluation:
    """One decision by the review's evaluation: how many legal options there were, the best
    option (its position in `legal_actions()`) and its value, the chosen option's value,
    whether the solves behind both were proven within their work, the measure that judged it
    (`lookahead.SCORE` or `lookahead.MARGIN`) and whether the options' values differ at all."""

    options: int
    best_index: int
    best_value: float
    chosen_value: float
    proven: bool
    measure: str = SCORE
    differ: bool = True

    @property
    def loss(self) -> float:
        """Points the choice gave away (never negative)."""
        return max(0.0, self.best_value - self.chosen_value)


def review_settings(work: float = REVIEW_WORK) -> Settings:
    """The review's look-ahead settings with `work` deterministic time a solve."""
    return with_work(REVIEW, work)


def evaluate(state: GameState, chosen: Action, work: float = REVIEW_WORK) -> Evaluation:
    """The value of `chosen` (a legal action of the player to act in `state`, unchanged) and of
    the best option, by the review's one evaluation (module docstring)."""
    legal = state.legal_actions()
    if chosen not in legal:
        raise DreamhomeError(f"review: {state.action_text(chosen)!r} is not legal in this position")
    index = legal.index(chosen)
    values = decision_values(state, review_settings(work), index)
    return judged(values, index, len(legal))


def judged(values: list[OptionValue | None], chosen: int, options: int) -> Evaluation:
    """The evaluation of choosing `chosen` among `values` (one per legal option, None where not
    read). Where no value was found for the chosen option the decision cannot be judged: no loss
    is charged (the value read as the best one found, not proven)."""
    mine = values[chosen]
    best = best_index(values)
    read = [v.value for v in values if v is not None and v.value is not None]
    measure = mine.measure if mine is not None else SCORE
    if mine is None or mine.value is None or best is None:
        known = max(read) if read else 0.0
        return Evaluation(options, chosen, known, known, False, measure, False)
    top = values[best]
    assert top is not None and top.value is not None
    if mine.value >= top.value:
        best, top = chosen, mine
    assert top.value is not None
    differ = len(set(read)) > 1
    return Evaluation(options, best, top.value, mine.value, mine.proven and top.proven, measure, differ)


__all__ = ["REVIEW_WORK", "Evaluation", "evaluate", "judged", "review_settings"]
