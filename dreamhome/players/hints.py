"""Hints for a human seat: what each legal option keeps reachable, and the solver bot's pick.

The terminal seat (`dreamhome play --bots human,…`, dreamhome/terminal/seat.py) and the browser
table both call one function::

    hint(state: GameState, work: float = HINT_WORK) -> Hint

For the player to act in `state`, every legal action (in `state.legal_actions()` order) gets an
`OptionHint`: the best final score the solver finds still reachable after it (`bound`, the same
bound the solver bot uses: the house completed with the best room cards still unseen, no
further resource card, the score helpers counted), whether CP-SAT proved it within its work
(`proven`), or why there is none (`note`). `Hint.bot_choice` is the position of the action the
solver bot would choose. The hint sees only what the player sees (SEE-1): the house after an
option is read from the option applied to a copy of the game (a deal it may trigger changes no
house), and the cards still to come are counted from the observation, never from the deck.

Like the solver bot, the look-ahead leaves swap helpers out during the rounds (for speed).
The work is bounded deterministically, never by the wall clock, so a hint is the same on a busy
machine as on a quiet one (issue 22): the options share `work` units of CP-SAT's deterministic
time (each solve one worker, a fixed seed, its share `work / options`, at least `MIN_WORK`), and
the bot's pick is the solver bot's own deterministic choice. A bound not proven within its share
is the best found (`proven` False: the true best may be higher, shown "≥"), and one not found at
all is None with a note. In the end game (END-ORDER) an option's `bound` is the score right after it, a
floor (`proven` False: the player may stop there; a further swap may do better), except
ending the turn (exact): a house may offer hundreds of swaps, too many for one solve each;
the solver bot's pick is the first step of its end-game plan (`best_final_score` with the
bot's deterministic work), and that option's bound is the plan's score (ending the turn keeps
the house's own score: it is what ending the turn gives).

The pick always carries its value (`Hint.pick_value`, its option's bound: a pick whose option
found none gets one more solve with the hint's whole work) and a reason (`Hint.reason`, said by
`reason_text` in a language), made only from the numbers of this hint: the pick's value against
the best other option's, what a take brings and where its room card goes best, or in the end
game the plan's score against the house as it stands. `bound_text` is the one way a bound is
shown: "N" proven, "≥N" found but not proven, "—" none.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from dreamhome.engine.deck import rooms_left
from dreamhome.engine.endgame import helper_uses
from dreamhome.engine.placement import legal_placements
from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import (
    END_ACTION_OF_ROLE,
    Action,
    EndTurn,
    TakeColumn,
    TakeRoomAtRoundStart,
)
from dreamhome.game.observation import Observation
from dreamhome.game.phases import Phase
from dreamhome.game.state import GameState, Resource
from dreamhome.house import House
from dreamhome.i18n import DEFAULT_LANG
from dreamhome.i18n import text as i18n_text
from dreamhome.players.bots import end_action, make_bot
from dreamhome.scoring import score_total

if TYPE_CHECKING:
    pass

END_WORK = 2.0  # the solver bot's deterministic work on its end-game plan (bots.SolverBot._end_game)
HINT_WORK = 1.0  # CP-SAT deterministic time the options of one hint share (about a second's work)
MIN_WORK = 0.02  # the least deterministic time one option's solve gets


@dataclass(frozen=True)
class OptionHint:
    """One legal option: its position in `legal_actions()`, its text, and what it keeps reachable."""

    index: int
    action: Action
    text: str
    bound: int | None  # best final score still reachable after this option (None: no bound, see note)
    proven: bool  # CP-SAT proved the bound within its share of the hint's deterministic work
    note: str  # how the bound was read, or why there is none

    def to_json(self) -> dict[str, object]:
        return {
            "index": self.index,
            "action": self.action.to_dict(),
            "text": self.text,
            "bound": self.bound,
            "proven": self.proven,
            "note": self.note,
        }


@dataclass(frozen=True)
class Phrase:
    """One clause of a pick's reason: a catalogue message (`seat.reason.*`) and its arguments.
    `room` is a room card's code and `resource` a resource card (said by `reason_text` by their
    names in the rules, in the reader's language), `down` a placement's face-down flag, an
    `Action` another option (said as the actions are); `value` and `next` are bounds already
    said with their sign (`bound_text`); anything else (numbers, a cell) is said as it is."""

    key: str
    args: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class Hint:
    """Every option of the player to act, and the solver bot's pick (an index into `options`)
    with why, from the numbers of the solve (`reason`, None when there is no pick)."""

    player: int
    options: tuple[OptionHint, ...]
    bot_choice: int | None  # None: the game is over, or the solver bot could not choose
    seconds: float  # wall clock spent on the hint
    reason: tuple[Phrase, ...] | None = None

    @property
    def all_proven(self) -> bool:
        return all(o.proven for o in self.options if o.bound is not None)

    @property
    def pick(self) -> OptionHint | None:
        """The solver bot's pick, if it chose."""
        return None if self.bot_choice is None else self.options[self.bot_choice]

    @property
    def pick_value(self) -> int | None:
        """The pick's value: its option's bound (in the end game, the solver's plan's score)."""
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


def bound_text(bound: int | None, proven: bool) -> str:
    """A bound as every table shows it (terminal, browser, docs): the number when proven, "≥N"
    when found but not proven (the true best may be higher), "—" when there is none."""
    if bound is None:
        return "—"
    return str(bound) if proven else f"≥{bound}"


def hint(state: GameState, work: float = HINT_WORK) -> Hint:
    """The hint for the player to act in `state` (unchanged), within `work` units of CP-SAT's
    deterministic time: the same answer whatever the machine's load."""
    start = time.perf_counter()  # only to report how long it took (`Hint.seconds`), never to cut work
    if state.is_terminal():
        return Hint(-1, (), None, 0.0)
    me = state.current_player()
    legal = state.legal_actions()
    obs = state.observation()
    rules = state.rules
    end = obs.phase == Phase.END.value  # END-ORDER: the end-game helpers
    plan: tuple[int | None, int | None, bool] = (None, None, False)
    if end:
        plan = _end_plan(obs, legal)
        bot_choice = plan[0]
    else:
        bot_choice = _bot_choice(state, obs, legal)
    options: list[OptionHint] = []
    cells: dict[int, tuple[str, bool]] = {}  # a take's best space for its room card (for the pick's reason)
    for i, action in enumerate(legal):
        text = state.action_text(action)
        share = max(MIN_WORK, work / len(legal))
        if end:
            # END-ORDER: the score right after the option is reachable (the player may stop
            # there); the end game's further uses are the bot's plan (bot_choice), not searched
            # per option (hundreds of swaps, one solve each, would not fit the budget).
            after = obs.after(action) if not isinstance(action, EndTurn) else obs.house_with_piles(me)
            if after is None:
                after = state.child(action).observation(me, lookahead=False).house_with_piles(me)
            exact = isinstance(action, EndTurn)
            note = "the house as it stands" if exact else "at least: the score right after it"
            value = score_total(rules, after)
            if i == plan[0] and plan[1] is not None and plan[1] >= value and not exact:
                value, exact, note = plan[1], plan[2], "the solver's end-game plan"
            options.append(OptionHint(i, action, text, value, exact, note))
            continue
        options.append(_round_option(state, obs, i, action, text, share, cells))
    if not end and bot_choice is not None and options[bot_choice].bound is None:
        # The pick always carries its value: one more solve for it alone, with the hint's whole
        # work (deterministic too), reading the house after it when its column has no room card.
        o = options[bot_choice]
        options[bot_choice] = _round_option(state, obs, bot_choice, o.action, o.text, max(MIN_WORK, work), cells, True)
    reason = None
    if bot_choice is not None:
        now = score_total(rules, obs.house_with_piles(me)) if end else None
        reason = _reason(obs, options, bot_choice, cells, now)
    return Hint(me, tuple(options), bot_choice, time.perf_counter() - start, reason)


def _round_option(
    state: GameState,
    obs: Observation,
    i: int,
    action: Action,
    text: str,
    share: float,
    cells: dict[int, tuple[str, bool]],
    fallback: bool = False,
) -> OptionHint:
    """One option during the rounds: a take's room card at its best space, or the house after
    the option completed at best, within `share` of deterministic work. With `fallback` (the
    pick, a second time), a column with no room card is read as the house after the take."""
    from dreamhome.solver.place import best_placement_bound, completion_bound

    rules = state.rules
    me = obs.me
    try:
        room = obs.track_rooms[action.column] if isinstance(action, (TakeColumn, TakeRoomAtRoundStart)) else None
        if isinstance(action, (TakeColumn, TakeRoomAtRoundStart)) and (room is not None or not fallback):
            if room is None:
                return OptionHint(i, action, text, None, False, "no room card in that column")
            house = _house(obs)
            pool = _without(pool_of(obs), room)
            placements = legal_placements(rules, house, room)
            if not placements:
                return OptionHint(i, action, text, None, False, "the room card has no legal space")
            value, proven, where = best_placement_bound(rules, house, pool, room, placements, deterministic_time=share)
            cells[i] = (rules.board.cells[where.cell], where.face_down)
            name = rules.room_of_code(room).name
            return OptionHint(i, action, text, value, proven, f"{name} placed at its best space; resource card not counted")
        seen = state.child(action).observation(me, lookahead=False)
        value, proven = completion_bound(rules, _house(seen), pool_of(seen), deterministic_time=share)
        return OptionHint(i, action, text, value, proven, "the house after it, completed at best")
    except DreamhomeError:
        return OptionHint(i, action, text, None, False, "no completion found within the hint's work")


def _reason(
    obs: Observation, options: list[OptionHint], pick: int, cells: dict[int, tuple[str, bool]], now: int | None
) -> tuple[Phrase, ...]:
    """Why the pick, said only from the numbers of this hint: its value against the best other
    option's (during the rounds), what a take brings and where its room card goes best, or the
    end-game plan's score against the house as it stands (END-ORDER)."""
    chosen = options[pick]
    value = bound_text(chosen.bound, chosen.proven)
    if chosen.bound is None:
        return (Phrase("seat.reason.no_value"),)
    if now is not None:  # the end game: the plan's score (or the score right after the option)
        if isinstance(chosen.action, EndTurn):
            return (Phrase("seat.reason.end_done", (("value", value),)),)
        return (Phrase("seat.reason.end_plan", (("value", value), ("now", now), ("diff", chosen.bound - now))),)
    phrases: list[Phrase] = []
    others = [o for o in options if o.index != pick and o.bound is not None]
    if len(options) == 1:
        phrases.append(Phrase("seat.reason.only", (("value", value),)))
    elif not others:
        phrases.append(Phrase("seat.reason.alone", (("value", value),)))
    else:
        best = max(others, key=lambda o: (o.bound or 0, -o.index))
        assert best.bound is not None
        diff = chosen.bound - best.bound
        args: tuple[tuple[str, object], ...] = (
            ("value", value),
            ("next", bound_text(best.bound, best.proven)),
            ("diff", abs(diff)),
            ("other", best.action),
        )
        if diff > 0:
            phrases.append(Phrase("seat.reason.ahead", args))
        elif diff == 0:
            phrases.append(Phrase("seat.reason.tie", args))
        elif isinstance(chosen.action, TakeColumn) and best.action.role is not None:
            phrases.append(Phrase("seat.reason.behind_use", args))  # SolverBot uses a tool first only when it gains now
        elif isinstance(chosen.action, TakeColumn):
            phrases.append(Phrase("seat.reason.behind_take", args))  # SolverBot adds the resource card's worth
        else:
            phrases.append(Phrase("seat.reason.behind", args))
    action = chosen.action
    if isinstance(action, (TakeColumn, TakeRoomAtRoundStart)):
        room = obs.track_rooms[action.column]
        res = obs.track_res[action.column] if isinstance(action, TakeColumn) else None
        if room is not None and pick in cells:
            key = "seat.reason.take_with" if res is not None else "seat.reason.take"
            cell, down = cells[pick]
            phrases.append(Phrase(key, (("room", room), ("cell", cell), ("down", down), ("resource", res))))
    return tuple(phrases)


def reason_text(state: GameState, reason: tuple[Phrase, ...] | None, lang: str = DEFAULT_LANG) -> str:
    """A pick's reason in `lang` for the decision of `state` it was made for: its clauses
    (`Phrase`) joined, cards by their names in the rules, another option as the actions say it."""
    from dreamhome.render.action_text import describe, resource_text, room_text

    rules = state.rules
    said = []
    for phrase in reason or ():
        args: dict[str, object] = {}
        for name, arg in phrase.args:
            if name == "room":
                args[name] = room_text(rules, arg if isinstance(arg, int) else None, lang)
            elif name == "resource":
                args[name] = resource_text(rules, arg if isinstance(arg, Resource) else None, lang)
            elif name == "down":  # a face-down placement, said as the actions say it
                args[name] = i18n_text("action.flag.face_down", lang) if arg else ""
            elif isinstance(arg, Action):
                args[name] = describe(state, arg, lang)
            else:
                args[name] = arg
        said.append(i18n_text(phrase.key, lang, **args))
    return "; ".join(said)


def _bot_choice(state: GameState, obs: Observation, legal: list[Action]) -> int | None:
    """What a fresh solver bot for this seat would play (its work is bounded by deterministic
    time); a fresh one, so the hint never moves the random stream of a bot in the game."""
    try:
        choice = make_bot("solver", state.seed, obs.me).choose(obs, legal)
    except DreamhomeError:
        return None
    return legal.index(choice) if choice in legal else None


def _end_plan(obs: Observation, legal: list[Action]) -> tuple[int | None, int | None, bool]:
    """END-ORDER, as the solver bot plays it: the plan of `best_final_score` (the bot's
    deterministic work), its first step that is legal now, else ending the turn. Returns (that
    option's index, the plan's final score, whether proven)."""
    from dreamhome.solver.optimize import best_final_score

    try:
        house = _unused_helpers(obs, legal)
        result = best_final_score(obs.rules, house, deterministic_time=END_WORK)
    except DreamhomeError:
        return None, None, False
    for step in result.steps:
        action = end_action(obs.rules, step.action)
        if action in legal:
            return legal.index(action), result.total, result.optimal
    end_turn = EndTurn()
    return (legal.index(end_turn) if end_turn in legal else None), result.total, result.optimal


def _unused_helpers(obs: Observation, legal: list[Action]) -> House:
    """The house with both piles, less the end-game helpers whose role no legal action plays any
    more (END-ORDER: a helper used this turn stays in the house, but its use is gone; the legal
    actions are the public trace of that). Two copies of a role of which one is used still count
    twice: the observation does not say how many uses are left."""
    house = obs.house_with_piles(obs.me)
    uses = helper_uses(obs.rules, house)
    gone: list[str] = []
    for role, kind in END_ACTION_OF_ROLE.items():
        if not any(isinstance(a, kind) for a in legal):
            gone += uses.of(role)
    helpers = list(house.helpers)
    for helper in gone:
        if helper in helpers:
            helpers.remove(helper)
    return replace(house, helpers=tuple(helpers))


def pool_of(obs: Observation) -> dict[int, int]:
    """The room cards still unseen by `obs.me` (SEE-1): the deck less its own house, the room
    discard pile and the other houses; the track's cards are among them (the solver bot's pool)."""
    seen = list(obs.room_discard)
    for other, house in enumerate(obs.houses):
        if other != obs.me:
            seen += [c for c in house.cells]
    return rooms_left(obs.rules, obs.houses[obs.me], seen)


def _without(pool: dict[int, int], room: int) -> dict[int, int]:
    """The pool less the card in hand."""
    rest = dict(pool)
    if rest.get(room):
        rest[room] -= 1
    return rest


def _house(obs: Observation) -> House:
    """The house the solver completes during the rounds: without its swap helpers (as the
    solver bot looks ahead)."""
    house = obs.houses[obs.me]
    return replace(house, helpers=tuple(h for h in house.helpers if obs.rules.held(h).effect("swap") is None))


__all__ = ["Hint", "OptionHint", "Phrase", "bound_text", "hint", "pool_of", "reason_text"]
