"""A whole game's review: the decisions walk and each player's summary, as one value and as JSON
(`dreamhome/schemas/review.schema.json`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dreamhome.game.record import GameResult
from dreamhome.players.evaluation import REVIEW_WORK, review_settings
from dreamhome.players.lookahead import HARD, MEDIUM
from dreamhome.review.marks import BLUNDER, MISTAKE, TOLERANCE
from dreamhome.review.summary import PlayerReview, player_reviews
from dreamhome.review.walk import Walk, walk_record

FORMAT = "dreamhome.review/1"


@dataclass(frozen=True)
class GameReview:
    source: str
    work: float
    walk: Walk
    players: tuple[PlayerReview, ...]
    record: dict[str, Any]  # the record reviewed (the annotated page replays it)
    samples: int = 0  # play-outs an option (0: the solver's bound over the unseen cards)

    @property
    def decisions(self) -> tuple[Any, ...]:
        return self.walk.decisions

    def to_json(self) -> dict[str, Any]:
        state = self.walk.result.state
        return {
            "format": FORMAT,
            "source": self.source,
            "seed": state.seed,
            "players_count": state.n,
            "scores": self.walk.result.scores(),
            "evaluation": {
                "work": self.work,
                "tolerance": TOLERANCE,
                "mistake": MISTAKE,
                "blunder": BLUNDER,
                "settings": review_settings(self.work, self.samples).describe(),
                "bot_settings": bot_settings(self.work, self.samples),
            },
            "players": [p.to_json() for p in self.players],
            "decisions": [d.to_json() for d in self.walk.decisions],
        }


def bot_settings(work: float = REVIEW_WORK, samples: int = 0) -> dict[str, dict[str, object]]:
    """Per level that looks ahead (medium, hard), the look-ahead settings in which it differs
    from the review's: where a bot's own decisions may lose by the review's measure."""
    review = review_settings(work, samples).describe()
    out: dict[str, dict[str, object]] = {}
    for settings in (MEDIUM, HARD):
        own = settings.describe()
        out[settings.name] = {k: v for k, v in own.items() if k != "name" and v != review.get(k)}
    return out


def review_record(
    data: Any,
    source: str = "record",
    work: float = REVIEW_WORK,
    on_decision: Callable[[int, int], None] | None = None,
    samples: int = 0,
) -> GameReview:
    """Review a finished game record (verified as `dreamhome replay` verifies it): every
    decision evaluated (`samples` play-outs an option, or 0: the solver's bound), each player
    summed up. Any flaw of the record is one `DreamhomeError`."""
    walk = walk_record(data, source, work, on_decision, samples)
    return GameReview(source, work, walk, tuple(player_reviews(walk)), data, samples)


def review_game(result: GameResult, work: float = REVIEW_WORK) -> GameReview:
    """Review a game just played (`play_game`, a terminal or browser seat's finished game)."""
    return review_record(result.record(), "game", work)


__all__ = ["FORMAT", "GameReview", "review_game", "review_record"]
