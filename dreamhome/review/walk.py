"""The decisions walk: replay a record (verified by `replay_record`, as `dreamhome replay` does)
and evaluate every decision of every seat (`evaluation.evaluate`).

A decision is an event of the record with an action that was not forced (a forced step had one
legal option: the engine played it, and it is never marked). Each is evaluated on the position
before it, a copy taken while the record is replayed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import action_from_dict
from dreamhome.game.record import GameResult, replay_record
from dreamhome.game.state import GameState
from dreamhome.players.evaluation import REVIEW_WORK, evaluate
from dreamhome.review.luck import SeatLuck, deal_luck
from dreamhome.review.marks import mark


@dataclass(frozen=True)
class Decision:
    """One reviewed decision: who, when, the chosen and the best option (their texts and
    actions), their values in reachable final-score points, the loss and the mark."""

    index: int  # the decision's position among the game's decisions
    event: int  # its index in the record's events
    seat: int
    round: int
    phase: str
    chosen: str
    best: str
    chosen_action: dict[str, Any]
    best_action: dict[str, Any]
    chosen_value: float
    best_value: float
    loss: float
    mark: str | None
    options: int
    proven: bool
    measure: str = "score"  # lookahead.SCORE, or lookahead.MARGIN for a decision that only changes what the others get
    differ: bool = True  # the options' values differ (accuracy counts only such decisions)
    error: float = 0.0  # the loss's standard error: 0 by the solver's bound, the play-outs' paired error by expected values

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "event": self.event,
            "seat": self.seat,
            "round": self.round,
            "phase": self.phase,
            "chosen": self.chosen,
            "best": self.best,
            "chosen_action": self.chosen_action,
            "best_action": self.best_action,
            "chosen_value": round(self.chosen_value, 2),
            "best_value": round(self.best_value, 2),
            "loss": round(self.loss, 2),
            "mark": self.mark,
            "options": self.options,
            "proven": self.proven,
            "measure": self.measure,
            "differ": self.differ,
            "error": round(self.error, 2),
        }


@dataclass(frozen=True)
class Walk:
    """A verified record's game (its result), the positions before each decision, the decisions,
    and by the expected measure each seat's start value and luck (`review.luck`; None by the bound)."""

    result: GameResult
    positions: tuple[GameState, ...]
    decisions: tuple[Decision, ...]
    luck: tuple[SeatLuck, ...] | None = None


def walk_record(
    data: Any,
    source: str = "record",
    work: float = REVIEW_WORK,
    on_decision: Callable[[int, int], None] | None = None,
    samples: int = 0,
) -> Walk:
    """Replay and verify `data` (a record), then evaluate each decision with `work` units of
    CP-SAT deterministic time a solve and `samples` play-outs an option (0: the solver's bound),
    and with `samples` each seat's luck, deal by deal; `on_decision(done, total)` reports progress
    (the deals after the decisions)."""
    positions: list[GameState] = []
    result = replay_record(data, source, on_step=lambda state: positions.append(state.snapshot()))
    # The replay's own events (verified equal to the record's): a record/1's action names read as record/2's.
    events = [(i, e) for i, e in enumerate(result.state.events) if "action" in e and not e.get("forced")]
    if len(events) != len(positions) - 1:
        raise DreamhomeError(f"{source}: {len(events)} decisions but {len(positions) - 1} replayed steps")
    all_events = result.state.events
    ends = [e for e, _ in events[1:]] + [len(all_events)]
    deals = [any(x.get("event") == "deal" for x in all_events[e + 1 : end]) for (e, _), end in zip(events, ends)]
    total = len(events) + (sum(deals) if samples > 0 else 0)
    decisions: list[Decision] = []
    for n, ((event, record), before) in enumerate(zip(events, positions)):
        action = action_from_dict(record["action"])
        ev = evaluate(before, action, work, samples)
        legal = before.legal_actions()
        best = legal[ev.best_index]
        decisions.append(
            Decision(
                index=n,
                event=event,
                seat=before.current_player(),
                round=before.round,
                phase=before.phase.value,
                chosen=before.action_text(action),
                best=before.action_text(best),
                chosen_action=action.to_dict(),
                best_action=best.to_dict(),
                chosen_value=ev.chosen_value,
                best_value=ev.best_value,
                loss=ev.loss,
                mark=mark(ev.loss, ev.options),
                options=ev.options,
                proven=ev.proven,
                measure=ev.measure,
                differ=ev.differ,
                error=ev.error,
            )
        )
        if on_decision is not None:
            on_decision(n + 1, total)
    luck = None
    if samples > 0:
        actions = [action_from_dict(record["action"]) for _, record in events]
        luck = tuple(deal_luck(positions, actions, deals, samples))
        if on_decision is not None:
            on_decision(total, total)
    return Walk(result, tuple(positions), tuple(decisions), luck)


__all__ = ["Decision", "Walk", "walk_record"]
