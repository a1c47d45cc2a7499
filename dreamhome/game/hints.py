"""Hints for a human seat: what each legal option keeps reachable, and the solver bot's pick.

The terminal seat (`dreamhome play --bots human,…`, dreamhome/game/human.py) and the browser
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
bot's deterministic work), and that option's bound is the plan's score.
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
from dreamhome.game.bots import end_action, make_bot
from dreamhome.game.observation import Observation
from dreamhome.game.phases import Phase
from dreamhome.game.state import GameState
from dreamhome.house import House
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
class Hint:
    """Every option of the player to act, and the solver bot's pick (an index into `options`)."""

    player: int
    options: tuple[OptionHint, ...]
    bot_choice: int | None  # None: the game is over, or the solver bot could not choose
    seconds: float  # wall clock spent on the hint

    @property
    def all_proven(self) -> bool:
        return all(o.proven for o in self.options if o.bound is not None)

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "options": [o.to_json() for o in self.options],
            "bot_choice": self.bot_choice,
            "seconds": round(self.seconds, 3),
        }


def hint(state: GameState, work: float = HINT_WORK) -> Hint:
    """The hint for the player to act in `state` (unchanged), within `work` units of CP-SAT's
    deterministic time: the same answer whatever the machine's load."""
    from dreamhome.solver.place import best_placement_bound, completion_bound

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
            if i == plan[0] and plan[1] is not None and plan[1] >= value:
                value, exact, note = plan[1], plan[2], "the solver's end-game plan"
            options.append(OptionHint(i, action, text, value, exact, note))
            continue
        try:
            if isinstance(action, (TakeColumn, TakeRoomAtRoundStart)):
                room = obs.track_rooms[action.column]
                if room is None:
                    options.append(OptionHint(i, action, text, None, False, "no room card in that column"))
                    continue
                house = _house(obs)
                pool = _without(pool_of(obs), room)
                placements = legal_placements(rules, house, room)
                if not placements:
                    options.append(OptionHint(i, action, text, None, False, "the room card has no legal space"))
                    continue
                value, proven, _ = best_placement_bound(rules, house, pool, room, placements, deterministic_time=share)
                name = rules.room_of_code(room).name
                options.append(
                    OptionHint(i, action, text, value, proven, f"{name} placed at its best space; resource card not counted")
                )
                continue
            seen = state.child(action).observation(me, lookahead=False)
            value, proven = completion_bound(rules, _house(seen), pool_of(seen), deterministic_time=share)
            options.append(OptionHint(i, action, text, value, proven, "the house after it, completed at best"))
        except DreamhomeError:
            options.append(OptionHint(i, action, text, None, False, "no completion found within the hint's work"))
    return Hint(me, tuple(options), bot_choice, time.perf_counter() - start)


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


__all__ = ["Hint", "OptionHint", "hint", "pool_of"]
