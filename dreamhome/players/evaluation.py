"""The one evaluation of a game review: what a decision keeps reachable, in final-score points.

    evaluate(state: GameState, chosen: Action, work: float = REVIEW_WORK, samples: int = 0) -> Evaluation

For the player to act in `state`, every option is valued by the one look-ahead
(`dreamhome.players.lookahead.option_values`) with the review's settings (`lookahead.REVIEW`,
its work per solve replaced by `work`, its play-outs by `samples`: with 0 the solver's best case
over the unseen cards, with more the expected final score by that many play-outs, each loss
with its standard error). The hints of a human seat use the same settings (the default, 0), so
the hint's pick is the option this evaluation calls best, with the same values. The best option is
the highest value, ties to the first in `legal_actions()` order; the loss is the best value less
the chosen option's, never negative since both come from the same values. Expected values are
ranked on the first half of their play-outs and judged on the second (`OptionValue.ranking`,
`valued`: no winner's curse).

In the end game (END-ORDER) an end turn may offer hundreds of swaps, one solve each: the values
read are the chosen option's, the end-game plan's first legal step's and ending the turn's; the
best is the highest of them.

A decision that only changes what the others get (the 2–3 player discard, ROUND-1) is judged by
the player's margin over the others (`Evaluation.measure`, `lookahead.MARGIN`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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
    error: float = 0.0  # the loss's standard error (0: exact or the bound; play-outs: the paired error)

    @property
    def loss(self) -> float:
        """Points the choice gave away (never negative)."""
        return max(0.0, self.best_value - self.chosen_value)


def review_settings(work: float = REVIEW_WORK, samples: int = 0) -> Settings:
    """The review's look-ahead settings with `work` deterministic time a solve and `samples`
    play-outs an option (0: the solver's best case, `lookahead.BOUND`)."""
    settings = with_work(REVIEW, work)
    return settings if samples == settings.samples else replace(settings, samples=samples)


def evaluate(state: GameState, chosen: Action, work: float = REVIEW_WORK, samples: int = 0) -> Evaluation:
    """The value of `chosen` (a legal action of the player to act in `state`, unchanged) and of
    the best option, by the review's one evaluation (module docstring)."""
    legal = state.legal_actions()
    if chosen not in legal:
        raise DreamhomeError(f"review: {state.action_text(chosen)!r} is not legal in this position")
    index = legal.index(chosen)
    values = decision_values(state, review_settings(work, samples), index)
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
    top_value, my_value = top.valued, mine.valued  # expected values: the play-outs the ranking did not read
    assert top_value is not None and my_value is not None
    if my_value >= top_value:
        best, top, top_value = chosen, mine, my_value
    differ = len(set(read)) > 1
    error = 0.0 if best == chosen else top.paired_error(mine)
    return Evaluation(options, best, top_value, my_value, mine.proven and top.proven, measure, differ, error)


__all__ = ["REVIEW_WORK", "Evaluation", "evaluate", "judged", "review_settings"]
