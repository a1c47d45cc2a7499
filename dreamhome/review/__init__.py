"""Game review (`dreamhome analyze`): every decision of a finished game, what it cost in points
of reachable final score, and how much of the result was luck (docs/REVIEW.md).

Public API: `review_record(data, source)` and `review_game(result)` give a `GameReview`
(`to_json()`); `dreamhome.players.evaluation.evaluate` is the one evaluation; `marks` holds the
thresholds; `batch.review_many` reviews many records on all cores and sums them by bot and seat.
"""

from dreamhome.review.game import FORMAT, GameReview, review_game, review_record

__all__ = ["FORMAT", "GameReview", "review_game", "review_record"]
