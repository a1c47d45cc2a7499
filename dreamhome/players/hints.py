"""Hints for a human seat: what each legal option is worth, and the best of them.

The terminal seat (`dreamhome play --bots human,…`, dreamhome/terminal/seat.py) and the browser
table both call one function::

    hint(state: GameState, work: float = HINT_WORK) -> Hint

For the player to act in `state`, every legal action (in `state.legal_actions()` order) gets an
`OptionHint` valued by the one look-ahead (`dreamhome.players.lookahead.option_values`) with the
review's settings (`lookahead.HINT is lookahead.REVIEW`; `work` replaces the deterministic time
of each solve, as `dreamhome analyze --work` does): `bound` is the review's value of the option,
`proven` its proof flag, `note` how it was read. The pick (`Hint.bot_choice`) is the option the
review calls best — the highest value, ties to the first — so a player who follows every hint
loses nothing by the review of its game. The hint sees only what the player sees (SEE-1): the
look-ahead reads the option applied to a copy of the game (a deal it may trigger changes no
house) and counts the cards still to come from the observation, never from the deck.

The work is bounded deterministically, never by the wall clock, so a hint is the same on a busy
machine as on a quiet one (issue 22). A value not proven within its work is the best found
(`proven` False: shown "≥"), and one not found at all is None with a note.

In the end game (END-ORDER) a turn may offer hundreds of swaps, one solve each: the review and
the hint both value the end-game plan's first legal step (`best_final_score` of the house with
the uses still left to it, every copy of a role counted) and ending the turn; any other option
shows the score right after it, a floor (`proven` False, "at least"), and is never the pick.

The pick always carries its value (`Hint.pick_value`) and a reason (`Hint.reason`, said by
`render.hint_text.reason_text` in a language), made only from the numbers of this hint: the pick's value against
the best other option's, what a take brings and where its room card goes best, or in the end
game the plan's score against the house as it stands. `bound_text` is the one way a value is
shown: "N" proven, "≥N" found but not proven, "—" none.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from dreamhome.game.actions import Action, EndTurn, TakeColumn, TakeRoomAtRoundStart
from dreamhome.game.observation import Observation
from dreamhome.game.phases import Phase
from dreamhome.game.state import GameState
from dreamhome.players.lookahead import HINT, SCORE, OptionValue, best_index, decision_values, with_work
from dreamhome.scoring import score_total

HINT_WORK = HINT.work  # CP-SAT deterministic time of one solve of a hint: the review's (lookahead.REVIEW)


@dataclass(frozen=True)
class OptionHint:
    """One legal option: its position in `legal_actions()`, its text, and what it is worth."""

    index: int
    action: Action
    text: str
    bound: float | None  # the review's value of this option (None: no value, see note)
    proven: bool  # every solve behind the value was proven within its work
    note: str  # how the value was read, or why there is none
    measure: str = SCORE  # lookahead.SCORE (a final score) or lookahead.MARGIN (over the others' mean)

    def to_json(self) -> dict[str, object]:
        return {
            "index": self.index,
            "action": self.action.to_dict(),
            "text": self.text,
            "bound": self.bound,
            "proven": self.proven,
            "note": self.note,
            "measure": self.measure,
        }


@dataclass(frozen=True)
class Phrase:
    """One clause of a pick's reason: a catalogue message (`seat.reason.*`) and its arguments.
    `room` is a room card's code and `resource` a resource card (said by `render.hint_text.reason_text` by their
    names in the rules, in the reader's language), `down` a placement's face-down flag, an
    `Action` another option (said as the actions are); `value` and `next` are values already
    said with their sign (`bound_text`); anything else (numbers, a cell) is said as it is."""

    key: str
    args: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class Hint:
    """Every option of the player to act, and the pick — the review's best option, an index
    into `options` — with why, from the numbers of the solves (`reason`, None when no pick)."""

    player: int
    options: tuple[OptionHint, ...]
    bot_choice: int | None  # the pick (the review's best); None: the game is over, or no value was found
    seconds: float  # wall clock spent on the hint
    reason: tuple[Phrase, ...] | None = None

    @property
    def pick(self) -> OptionHint | None:
        """The picked option, if any."""
        return None if self.bot_choice is None else self.options[self.bot_choice]

    @property
    def pick_value(self) -> float | None:
        """The pick's value (the review's value of that option)."""
        pick = self.pick
        return None if pick is None else pick.bound

    @property
    def pick_proven(self) -> bool:
        pick = self.pick
        return pick is not None and pick.proven

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "options": [o.to_json() for o in self.options],
            "bot_choice": self.bot_choice,
            "pick_value": self.pick_value,
            "pick_proven": self.pick_proven,
            "reason": [{"key": p.key, "args": dict(p.args)} for p in self.reason or ()],
            "seconds": round(self.seconds, 3),
        }


def number_text(value: float) -> str:
    """A value in points as the tables show it: whole points as integers, else one decimal."""
    return str(int(value)) if value == int(value) else f"{value:.1f}"


def bound_text(bound: float | None, proven: bool) -> str:
    """A value as every table shows it (terminal, browser, docs): the number when proven, "≥N"
    when found but not proven (the true best may be higher), "—" when there is none."""
    if bound is None:
        return "—"
    return number_text(bound) if proven else f"≥{number_text(bound)}"


AT_LEAST = "at least: the score right after it"
"""The note of an end-game option the review does not read (a floor, never the pick)."""


def hint(state: GameState, work: float = HINT_WORK) -> Hint:
    """The hint for the player to act in `state` (unchanged): the review's values of its options
    with `work` units of CP-SAT deterministic time a solve — the same answer whatever the
    machine's load, and the same as `players.evaluation.evaluate` with that work."""
    start = time.perf_counter()  # only to report how long it took (`Hint.seconds`), never to cut work
    if state.is_terminal():
        return Hint(-1, (), None, 0.0)
    me = state.current_player()
    legal = state.legal_actions()
    rules = state.rules
    values = decision_values(state, with_work(HINT, work))
    options: list[OptionHint] = []
    for i, action in enumerate(legal):
        text = state.action_text(action)
        v = values[i]
        if v is None:  # END-ORDER: an option the review does not read; the score right after it
            after = state.child(action).observation(me, lookahead=False).house_with_piles(me)
            options.append(OptionHint(i, action, text, float(score_total(rules, after)), False, AT_LEAST))
        else:
            options.append(OptionHint(i, action, text, v.value, v.proven, v.note, v.measure))
    pick = best_index(values)
    reason = None
    if pick is not None:
        obs = state.observation(me, lookahead=False)
        now = score_total(rules, obs.house_with_piles(me)) if state.phase == Phase.END else None
        reason = _reason(obs, options, pick, values[pick], now)
    return Hint(me, tuple(options), pick, time.perf_counter() - start, reason)


def _reason(
    obs: Observation, options: list[OptionHint], pick: int, value: OptionValue | None, now: int | None
) -> tuple[Phrase, ...]:
    """Why the pick, said only from the numbers of this hint: its value against the best other
    option's (during the rounds), what a take brings and where its room card goes best, or the
    end-game plan's score against the house as it stands (END-ORDER)."""
    chosen = options[pick]
    if chosen.bound is None:
        return (Phrase("seat.reason.no_value"),)
    said = bound_text(chosen.bound, chosen.proven)
    if now is not None:  # the end game: the plan's score
        if isinstance(chosen.action, EndTurn):
            return (Phrase("seat.reason.end_done", (("value", said),)),)
        return (Phrase("seat.reason.end_plan", (("value", said), ("now", now), ("diff", number_text(chosen.bound - now)))),)
    phrases: list[Phrase] = []
    others = [o for o in options if o.index != pick and o.bound is not None]
    if len(options) == 1:
        phrases.append(Phrase("seat.reason.only", (("value", said),)))
    elif not others:
        phrases.append(Phrase("seat.reason.alone", (("value", said),)))
    else:
        best = max(others, key=lambda o: (o.bound or 0, -o.index))
        assert best.bound is not None
        diff = chosen.bound - best.bound  # never negative: the pick is the best
        args: tuple[tuple[str, object], ...] = (
            ("value", said),
            ("next", bound_text(best.bound, best.proven)),
            ("diff", number_text(diff)),
            ("other", best.action),
        )
        phrases.append(Phrase("seat.reason.ahead" if diff > 0 else "seat.reason.tie", args))
    action = chosen.action
    if isinstance(action, (TakeColumn, TakeRoomAtRoundStart)) and value is not None and value.where is not None:
        room = obs.track_rooms[action.column]
        res = obs.track_res[action.column] if isinstance(action, TakeColumn) else None
        if room is not None:
            key = "seat.reason.take_with" if res is not None else "seat.reason.take"
            cell, down = obs.rules.board.cells[value.where.cell], value.where.face_down
            phrases.append(Phrase(key, (("room", room), ("cell", cell), ("down", down), ("resource", res))))
    return tuple(phrases)


__all__ = ["AT_LEAST", "HINT_WORK", "Hint", "OptionHint", "Phrase", "bound_text", "hint", "number_text"]
