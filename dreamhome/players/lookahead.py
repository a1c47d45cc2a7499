"""The one look-ahead: what each option of a decision is worth to the player who decides.

    option_values(state, settings) -> list[OptionValue]

Every caller asks this module — the review (its evaluation), the hints of a human seat, the
medium and hard bots — each with a named `Settings` value, so that no caller keeps its own copy
of the unseen pool, of "the option applied to a copy", of a completion or of a house "without
its swap helpers". Where two callers use the same settings they get the same numbers: the hints
use the review's (`HINT is REVIEW`), so the hint's pick is an option the review marks best.

What an option is worth (`Settings.measure`): the final score the player's house can still
reach after it, read from what the player saw (SEE-1: the room cards still unseen are the deck
less its own house, the other houses and the room discard pile; never the deck's order), found
by the solver within a deterministic work bound:

- the option is applied to a copy of the game (`GameState.child`: a deal it triggers changes no
  house, and the cards it deals are counted unseen as before), so whatever the option brings is
  in the house: a take's resource card (a roof, a helper, a tool), a placement's furnishing
  token when it has one space;
- then, for the same player (a `leaf`): a room card in hand is placed at its best (one solve over
  its legal placements, `solver.place.best_placement_bound`), and the furnishing taken with it
  counted as it resolves after the placement (RES-FURN: outside, or a token on a room of its
  type, `_in_hand`); a take still to make (after a tool
  or the discard) is the best take (`solver.place.best_take_now`, one solve over the columns); a
  furnishing token or a scaffold still to place is the best of its options; otherwise the house
  is completed at best (`solver.place.completion_bound`) with the room cards still unseen, its
  end-game helpers used at best (all of them, swap helpers too, unless `Settings.swap_helpers`
  is False) — with the discard piles only in the last round (`rounds_house`): a helper that draws
  from the rounds' growing room discard pile makes models CP-SAT leaves unproven within the work;
- once no room card comes to the player any more (`game.flow.turns_left` 0: its last take),
  the house is final but for its end game, read with both piles as they lie (`end_value`);
  its last room card in hand is placed at each legal space by the engine and read so
  (`_last_card`): without the piles a held helper that takes from the discard pile was worth
  nothing on the last take;
- never below what the house already scores as it stands: a house keeps its score by placing
  its remaining cards face down (PLACE-EMPTY), so that score is reachable;
- the end game (END-ORDER): `solver.optimize.best_final_score` of the house with both piles and
  the uses still left to it (`end_house`: every copy of a role counted, spent ones removed).

A decision that only changes what the others get — the 2–3 player discard (ROUND-1) — is judged
by the margin (`MARGIN`): the player's value less the mean of the other players' values.

The value is the best the solver finds for the unseen cards as a pool (the whole pool, not a
sample of futures): an optimistic estimate of the expected final score that is the same for
every option of one decision, not the expectation itself (docs/REVIEW.md says what that means
for "luck"). Every solve is CP-SAT with one worker, seed 0 and a deterministic time, never the
wall clock, so an answer is the same on any machine under any load.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from dreamhome.engine.deck import rooms_left
from dreamhome.engine.endgame import END_ROLES, helper_uses
from dreamhome.engine.helpers import helper_amounts
from dreamhome.engine.placement import Placement, legal_placements
from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import (
    END_ACTION_OF_ROLE,
    Action,
    EndTurn,
    PlaceRoom,
    TakeColumn,
    TakeRoomAtRoundStart,
)
from dreamhome.game.flow import turns_left
from dreamhome.game.observation import Observation, with_piles
from dreamhome.game.phases import Phase
from dreamhome.game.state import GameState
from dreamhome.house import House
from dreamhome.players.playouts import POLICY, Estimate, playout_finals
from dreamhome.ruleset import Ruleset
from dreamhome.scoring import score_total

if TYPE_CHECKING:
    from dreamhome.solver.optimize import EndAction

SCORE = "score"
"""The measure of most decisions: the player's own reachable final score."""
EXPECTED = "expected"
"""How a value is read (`Settings.measure_name`): the mean final score of seeded play-outs."""
BOUND = "bound"
"""How a value is read: the best final score the solver finds over the unseen cards as a pool."""
MARGIN = "margin"
"""The measure of a decision that only changes what the others get (the discard, ROUND-1): the
player's value less the mean of the other players' values."""


@dataclass(frozen=True)
class Settings:
    """How a caller looks ahead; each field is a choice a caller names, never a hidden default.

    `swap_helpers`: the swap helpers (END-HANDYMAN, END-SUPPLIER) count in the completion during
    the rounds (leaving them out is faster and blind to plans a swap finishes). `columns`: the
    columns a bot compares (None: every one; the review and the hints value every option).
    `resource_bonus`: a bot adds its own value of a take's resource card (the roof outlook, the
    greedy value) to the solver's; the review counts a resource card once the take has put it
    in the house (a roof, a helper, a tool) or resolved it after the placement (a furnishing,
    RES-FURN). `samples`: with more than 0, an option's value during the rounds is the player's
    expected final score, the mean of that many play-outs (`players.playouts`, EXPECTED); with 0
    the solver's best case over the unseen pool (BOUND: faster, optimistic). `work`: CP-SAT
    deterministic time of one solve; `shared`: the options of one decision
    share at most that many solves' work (a turn with a tool that swaps cards in the house may offer fifty options: each then
    gets `work * shared / options`, never less than `MIN_WORK`), so a hint stays interactive.
    `end_work`: the deterministic time of an end-game plan."""

    name: str
    swap_helpers: bool
    columns: int | None
    resource_bonus: bool
    work: float
    end_work: float
    shared: int = 10
    samples: int = 0

    @property
    def measure_name(self) -> str:
        """EXPECTED (play-outs) when `samples` > 0, else BOUND (the solver's best case)."""
        return EXPECTED if self.samples > 0 else BOUND

    def per_option(self, options: int) -> Settings:
        """The settings each of `options` options of one decision is read with (`shared`)."""
        share = max(MIN_WORK, min(self.work, self.work * self.shared / max(options, 1)))
        return self if share == self.work else replace(self, work=share)

    def describe(self) -> dict[str, object]:
        """The settings as data (the review's JSON says which it used)."""
        return {
            "name": self.name,
            "swap_helpers": self.swap_helpers,
            "columns": self.columns,
            "resource_bonus": self.resource_bonus,
            "work": self.work,
            "end_work": self.end_work,
            "shared": self.shared,
            "samples": self.samples,
            "measure": self.measure_name,
            **({"playout_policy": POLICY} if self.samples > 0 else {}),
        }


MIN_WORK = 0.03
"""The least deterministic time one option's solve gets (`Settings.shared`)."""
END_WORK = 2.0
"""Deterministic time of an end-game plan (`best_final_score`), for every caller."""
END_SHARED = 2
"""During the rounds, the end-game plans of one decision share at most this many plans' work
(`_end_shared`): a last take reads a plan for each placement of each column, and a house with
two discard-pile swaps, a house swap and a roof-pile take made one such decision cost 22 s of
CPU at a whole plan's work each."""
MIN_END_WORK = 0.2
"""The least deterministic time one of those plans gets."""

REVIEW = Settings("review", swap_helpers=True, columns=None, resource_bonus=False, work=0.05, end_work=END_WORK)
"""The review's evaluation: every option, every helper, a take's resource card (a furnishing as RES-FURN resolves it)."""
HINT = REVIEW
"""The hints use the review's settings, so the hint's pick is the review's best (issue 31)."""
MEDIUM = Settings("medium", swap_helpers=False, columns=3, resource_bonus=True, work=0.04, end_work=END_WORK)
"""The medium (solver) bot: the greedy value's three best columns, swap helpers left out, for speed."""
HARD = Settings("hard", swap_helpers=True, columns=None, resource_bonus=True, work=0.04, end_work=END_WORK)
"""The hard bot: every column, every helper."""


@dataclass(frozen=True)
class OptionValue:
    """One option's worth: `value` in final-score points (None: no solve found one within its
    work), `proven` (every solve behind it proven optimal), `note` (how it was read), `where`
    (a take's room card: the placement its value uses), `measure` (SCORE or MARGIN)."""

    index: int
    value: float | None
    proven: bool
    note: str
    measure: str = SCORE
    where: Placement | None = None
    error: float = 0.0
    samples: tuple[float, ...] = ()

    @property
    def halves(self) -> tuple[Estimate, Estimate] | None:
        """An expected value read on two play-outs or more, split: the first half ranks the
        option (`ranking`), the second half values it (`valued`) — a best option picked and
        valued on the same noise would be overrated (the winner's curse), and every loss beside
        it overcharged. None for one play-out or an exact value."""
        if len(self.samples) < 2:
            return None
        half = len(self.samples) // 2
        return Estimate.of(self.samples[:half]), Estimate.of(self.samples[half:])

    @property
    def ranking(self) -> float:
        """What ranks this option against the others: its value, or the first half's mean."""
        halves = self.halves
        if halves is None:
            return float(self.value) if self.value is not None else -math.inf
        return halves[0].mean

    @property
    def valued(self) -> float | None:
        """What this option is judged worth once ranked: its value, or the second half's mean."""
        halves = self.halves
        return self.value if halves is None else halves[1].mean

    def paired_error(self, other: OptionValue) -> float:
        """The standard error of `self.valued - other.valued`: 0 for exact values, else read on
        the play-outs both options shared (common random numbers), or the two errors combined."""
        mine, theirs = self.halves, other.halves
        if mine is not None and theirs is not None and len(self.samples) == len(other.samples):
            return mine[1].paired_error(theirs[1])
        return float((self.error**2 + other.error**2) ** 0.5)


# ---- what the player saw ------------------------------------------------------------------


def unseen_pool(obs: Observation) -> dict[int, int]:
    """The room cards still unseen by `obs.me` (SEE-1): the deck less its own house, the room
    discard pile and the other houses; the track's cards and a card in hand are among them."""
    seen = list(obs.room_discard)
    for other, house in enumerate(obs.houses):
        if other != obs.me:
            seen += list(house.cells)
    return rooms_left(obs.rules, obs.houses[obs.me], seen)


def without(pool: dict[int, int], room: int) -> dict[int, int]:
    """The pool less one card (the card in hand: it is not still to come)."""
    rest = dict(pool)
    if rest.get(room):
        rest[room] -= 1
    return rest


def rounds_house(obs: Observation, house: House, settings: Settings) -> House:
    """The house the completion plays during the rounds (`house`: the observer's own, or it
    after a move): without its swap helpers when the settings leave them out (a bot's speed);
    with both discard piles in the last round (ROUND-2), as the end game that follows reads
    them (END-ORDER).

    Before the last round the piles are left out: a helper that takes from the rounds' growing
    room discard pile makes models CP-SAT leaves unproven within the work (measured: late takes
    of the hard bot). In the last round they are read by every position: once the player's last
    take is made its house is read through the end game with the piles (`_final_but_end`), and a
    position before that take read without them valued a held helper that takes from the room
    discard pile at nothing — seed 27's hard seat was charged 4 points for passing its
    round-start take (34 without the piles, 38 with them), an artefact of the two readings, not
    of the play."""
    rules = obs.rules
    if obs.round >= rules.game.rounds:
        house = with_piles(rules, house, obs.room_discard, obs.roof_discard)
    if settings.swap_helpers:
        return house
    return replace(house, helpers=tuple(h for h in house.helpers if rules.held(h).effect("swap") is None))


def end_house(state: GameState, me: int) -> House:
    """END-ORDER: `me`'s house with both (public) piles, holding only the end-game uses still
    left to it: all of them before its end game has begun; during its end turn the cards of
    `GameState.end_left` (each copy of a role counted once, a spent use gone — two copies of a
    role of which one is used keep one use, HELP-COPIES)."""
    obs = state.observation(me, lookahead=False)
    house = obs.house_with_piles(me)
    if state.phase != Phase.END or state.current_player() != me:
        return house
    uses = helper_uses(state.rules, house)
    keep: Counter[str] = Counter()
    held = Counter(house.helpers + house.tools)
    ended: set[str] = set()
    for role in END_ROLES:
        given = list(uses.of(role))
        left = list(state.end_left.get(role, []))
        for card in set(given):
            ended.add(card)
            per_copy = given.count(card) / held[card] if held[card] else 1
            keep[card] = max(keep[card], math.ceil(left.count(card) / per_copy))
    return replace(house, helpers=_kept(house.helpers, ended, keep), tools=_kept(house.tools, ended, keep))


def _kept(cards: tuple[str, ...], ended: set[str], keep: Counter[str]) -> tuple[str, ...]:
    out = []
    for card in cards:
        if card not in ended:
            out.append(card)
        elif keep[card] > 0:
            keep[card] -= 1
            out.append(card)
    return tuple(out)


# How a value was read (the hints show these notes; dreamhome/locales say them in each language).
COMPLETED = "the house after it, completed at best"
IN_HAND = "its room card placed at its best space"
BEST_TAKE = "the best take still to make"
END_PLAN = "the solver's end-game plan"
FINAL = "the final score"
MARGIN_NOTE = "the margin over the others' mean"
AS_IT_STANDS = "the house as it stands"
"""The note of a value that is the house's score as it stands: the completion found less, or
none within its work (a floor: the house keeps its score, PLACE-EMPTY)."""

# ---- values ---------------------------------------------------------------------------------

_CONTINUES = (Phase.SCAFFOLD_BEFORE, Phase.SCAFFOLD_AFTER, Phase.TOKEN)
"""Phases whose options a leaf expands (a handful each): the player's turn is not over yet."""


@dataclass(frozen=True)
class _Read:
    value: float
    proven: bool
    note: str
    where: Placement | None = None


def option_values(state: GameState, settings: Settings, only: Collection[int] | None = None) -> list[OptionValue | None]:
    """Each legal option of the player to act in `state` (unchanged), in `legal_actions()` order,
    valued by `settings` (module docstring); with `only`, the options at those indexes (None
    elsewhere). In the end game an option is the plan from the position after it."""
    if settings.samples > 0 and state.phase != Phase.END:
        return _expected_values(state, settings.samples, only)
    legal = state.legal_actions()
    me = state.current_player()
    margin = state.phase == Phase.DISCARD
    settings = settings.per_option(len(legal) if only is None else len(only))
    if state.phase != Phase.END:
        settings = _end_shared(settings, len(legal) if only is None else len(only))
    out: list[OptionValue | None] = []
    for i, action in enumerate(legal):
        if only is not None and i not in only:
            out.append(None)
            continue
        child = state.child(action)
        read = leaf(child, me, settings)
        if margin:
            others = [leaf(child, p, settings) for p in range(state.n) if p != me]
            spread = sum(o.value for o in others) / len(others)
            read = _Read(read.value - spread, read.proven and all(o.proven for o in others), MARGIN_NOTE, read.where)
        out.append(OptionValue(i, read.value, read.proven, read.note, MARGIN if margin else SCORE, read.where))
    return out


PLAYED_OUT = "the mean final score of its play-outs"
"""The note of an expected value (EXPECTED): the mean of the option's seeded play-outs."""


def _expected_values(state: GameState, samples: int, only: Collection[int] | None) -> list[OptionValue | None]:
    """EXPECTED during the rounds: each option's mean final score over `samples` play-outs
    (`players.playouts`, the same sampled futures for every option), never below the house as
    it stands (PLACE-EMPTY); the discard (ROUND-1) by the mean margin over the others' mean."""
    legal = state.legal_actions()
    me = state.current_player()
    margin = state.phase == Phase.DISCARD
    picked = [i for i in range(len(legal)) if only is None or i in only]
    runs = playout_finals(state, me, [legal[i] for i in picked], samples)
    floor = float(score_total(state.rules, state.observation(me, lookahead=False).house_with_piles(me)))
    out: list[OptionValue | None] = [None] * len(legal)
    for i, plays in zip(picked, runs):
        if margin:
            values = [p.finals[me] - (sum(p.finals) - p.finals[me]) / (state.n - 1) for p in plays]
        else:
            values = [float(p.finals[me]) for p in plays]
        est = Estimate.of(values)
        taken = isinstance(legal[i], (TakeColumn, TakeRoomAtRoundStart))
        where = _most_placed(state.rules, [p.placed for p in plays]) if taken else None
        if not margin and est.mean < floor:  # the house keeps its score: the rest face down (PLACE-EMPTY)
            out[i] = OptionValue(i, floor, False, AS_IT_STANDS, SCORE, where)
            continue
        note = MARGIN_NOTE if margin else PLAYED_OUT
        out[i] = OptionValue(i, est.mean, False, note, MARGIN if margin else SCORE, where, est.error, est.values)
    return out


def _most_placed(rules: Ruleset, placed: list[PlaceRoom | None]) -> Placement | None:
    """Where the play-outs most often put the room card the option took (ties: the first seen)."""
    seen = Counter(a for a in placed if a is not None)
    if not seen:
        return None
    top = max(seen.values())
    action = next(a for a in placed if a is not None and seen[a] == top)
    return Placement(rules.board.index[action.cell], action.face_down)


def with_work(settings: Settings, work: float) -> Settings:
    """`settings` with `work` deterministic time a solve (`dreamhome analyze --work`, a hint's work)."""
    return settings if work == settings.work else replace(settings, work=work)


def decision_values(state: GameState, settings: Settings, chosen: int | None = None) -> list[OptionValue | None]:
    """The options the review and the hints value in `state`: every one during the rounds; in
    the end game (END-ORDER: hundreds of swaps, one solve each) the plan's first legal step,
    ending the turn and `chosen` (None elsewhere)."""
    if state.phase != Phase.END:
        return option_values(state, settings)
    legal = state.legal_actions()
    only = {i for i in (end_plan_choice(state, settings), chosen) if i is not None}
    if EndTurn() in legal:
        only.add(legal.index(EndTurn()))
    return option_values(state, settings, only)


def best_index(values: list[OptionValue | None]) -> int | None:
    """The best option: the highest value (`OptionValue.ranking`: for expected values the first
    half of the play-outs), ties to the first in `legal_actions()` order (the review's best and
    the hint's pick are this one)."""
    best: OptionValue | None = None
    for v in values:
        if v is not None and v.value is not None and (best is None or v.ranking > best.ranking):
            best = v
    return None if best is None else best.index


def leaf(state: GameState, me: int, settings: Settings) -> _Read:
    """The value of a position to `me` (module docstring); where no solve finds a completion
    within its work, the house as it stands (reachable, not proven)."""
    rules = state.rules
    if state.phase == Phase.DONE:
        return _Read(float(state.returns()[me]), True, FINAL)
    if state.phase == Phase.END and state.current_player() != me and me not in state.end_queue:
        return _Read(float(state.returns()[me]), True, FINAL)  # its end game is over
    obs = state.observation(me, lookahead=False)
    floor = float(score_total(rules, obs.house_with_piles(me)))
    if state.phase == Phase.END:
        try:
            value, proven = end_value(state, me, settings)
        except DreamhomeError:  # no plan found within the work: the house as it stands, reachable
            return _Read(floor, False, AS_IT_STANDS)
        return _Read(value, proven, END_PLAN)
    acting = state.current_player() == me
    if acting and state.phase in _CONTINUES:
        reads = [leaf(state.child(a), me, settings) for a in state.legal_actions()]
        return max(reads, key=lambda r: r.value)
    try:
        return _solved(state, obs, me, settings, floor)
    except DreamhomeError:  # no completion found within the work: the house keeps its score (PLACE-EMPTY)
        return _Read(floor, False, AS_IT_STANDS)


def _solved(state: GameState, obs: Observation, me: int, settings: Settings, floor: float) -> _Read:
    """A leaf during the rounds, by one solve: the card in hand placed, the best take still to
    make, or the house completed (module docstring)."""
    from dreamhome.solver.place import Take, best_take_now, completion_bound

    rules = state.rules
    acting = state.current_player() == me
    if turns_left(state, me) == 0 and not (acting and state.phase == Phase.PLACE):
        return _final_but_end(state, me, settings, floor)
    pool = unseen_pool(obs)
    light = rounds_house(obs, obs.houses[me], settings)  # the piles in the last round only (its docstring)
    if acting and state.phase == Phase.PLACE and state.pending_room is not None:
        return _in_hand(state, me, settings, floor, light, pool)
    if acting and state.phase in (Phase.TURN, Phase.ROUND_START):
        takes: list[Take] = []
        for action in state.legal_actions():
            if isinstance(action, (TakeColumn, TakeRoomAtRoundStart)):
                card = obs.track_rooms[action.column]
                spots = legal_placements(rules, obs.houses[me], card) if card is not None else []
                if card is not None and spots:
                    takes.append(Take(card, spots))
        if takes:
            gain, _k, where = best_take_now(rules, light, pool, takes, deterministic_time=settings.work)
            return _floored(gain, False, floor, BEST_TAKE, where)
    value, proven = completion_bound(rules, light, pool, deterministic_time=settings.work)
    return _floored(float(value), proven, floor, COMPLETED, None)


def _in_hand(state: GameState, me: int, settings: Settings, floor: float, light: House, pool: dict[int, int]) -> _Read:
    """The room card in hand placed at its best (one solve over its legal placements), and what
    the take still brings after the placement counted as the rules resolve it (ROUND-3: the
    room card first, then the scaffold still in hand, then the furnishing; a roof, a helper or
    a tool taken with the column is in the house already, `flow.take_resource`):

    - a furnishing that goes outside (RES-FURN, FURN-TYPE `outside`) is in the house the solve
      reads: its points whatever the placement (SCORE-FURN, with HELP-DESIGNER's);
    - a furnishing placed as a token (RES-FURN, FURN-TYPE, FURN-ONE) goes on a room of its type
      after the placement, or is discarded if none can take it, and it closes its room
      (FURN-CLOSES): two lines of play are read to their end (`leaf` after the placement, each
      card the token may go on its own solve) — the placement best without the token, and the
      one best with the token's points added where a room can then take it (a bound: a token
      only adds its points and closes a room); the value is the better line, proven when that
      line reaches the bound, proven;
    - a scaffold still in hand (TOOL-SCAFFOLDING) is placed after the card: the line of the
      best placement read to its end (each space the scaffold may take), never proven.

    The value had been the placement alone: a furnishing taken with a column was not counted,
    even one that goes outside (seed 1's hard seat, charged 5 points for one, issue 31)."""
    from dreamhome.solver.place import best_placement_bound

    rules = state.rules
    room = state.pending_room
    assert room is not None
    places = [a for a in state.legal_actions() if isinstance(a, PlaceRoom)]
    placements = [Placement(rules.board.index[a.cell], a.face_down) for a in places]
    if turns_left(state, me) == 0:
        return _last_card(state, me, settings, floor, places, placements)
    res = state.pending_res
    furn = rules.furnishing(res.id) if res is not None and res.kind == "furnishing" else None
    if furn is not None and furn.outside:  # RES-FURN: outside, whatever the placement
        light = light.changed(outside=light.outside + (furn.id,))
    rest = without(pool, room)
    value, proven, where = best_placement_bound(rules, light, rest, room, placements, deterministic_time=settings.work)
    token = furn is not None and not furn.outside
    if not token and not state.scaffold_pending:
        return _floored(float(value), proven, floor, IN_HAND, where)
    after = {pl: state.child(a) for a, pl in zip(places, placements)}
    tokens = _tokens(state.houses[me])
    # the placements after which a room takes the token: still to place, or placed already (one card could take it)
    hosts = [pl for pl in placements if after[pl].phase == Phase.TOKEN or _tokens(after[pl].houses[me]) > tokens]

    def line(pl: Placement, solved: float, solved_proven: bool) -> _Read:
        child = after[pl]
        if pl in hosts or (child.current_player() == me and child.phase in _CONTINUES):  # a token, a scaffold
            read = leaf(child, me, settings)
            return _Read(read.value, read.proven, IN_HAND, pl)
        return _Read(solved, solved_proven, IN_HAND, pl)  # the furnishing discarded: no room takes it (RES-FURN)

    best = line(where, float(value), proven)
    if state.scaffold_pending:  # the placement was chosen without the scaffold: not proven the best
        best = replace(best, proven=False)
    if token and hosts:
        assert furn is not None
        points = furn.points + helper_amounts(rules.tables, light.helpers).token_plus  # SCORE-FURN, HELP-DESIGNER
        bonus = [points if pl in hosts else 0 for pl in placements]
        try:
            bound, bound_proven, with_token = best_placement_bound(
                rules, light, rest, room, placements, deterministic_time=settings.work, bonus=bonus
            )
        except DreamhomeError:  # no completion found within the work: the first line alone, not proven
            return _floored(best.value, False, floor, IN_HAND, best.where)
        other = line(with_token, float(bound - bonus[placements.index(with_token)]), bound_proven)
        best = max((best, other), key=lambda r: r.value)  # ties to the placement best without the token
        best = replace(best, proven=best.proven and bound_proven and best.value >= bound)
    return _floored(best.value, best.proven, floor, IN_HAND, best.where)


def _end_shared(settings: Settings, reads: int) -> Settings:
    """`settings` whose end-game plans are `reads` of one decision's, sharing `END_SHARED`
    plans' work (never less than `MIN_END_WORK` each)."""
    share = max(MIN_END_WORK, min(settings.end_work, settings.end_work * END_SHARED / max(reads, 1)))
    return settings if share == settings.end_work else replace(settings, end_work=share)


def _final_but_end(state: GameState, me: int, settings: Settings, floor: float) -> _Read:
    """A house no room card comes to any more (`flow.turns_left` 0: its last take is placed):
    its end game read now, with both piles as they lie (`end_value`, the solver's plan). The
    completion of the rounds had read no piles (`rounds_house`): there a held helper that takes
    from the room discard pile was worth nothing on the last take, where the plan of the same
    house with the piles found it (seed 41's hard seat: 29 'proven' for a column after which
    it reached 37, the value the other column's end-game read gave, issue 31). The piles may
    still grow before the player's end turn (the round's leftovers, ROUND-5), or be drawn from
    by a player before it (END-ORDER): the value is the plan on the piles the player sees."""
    value, proven = end_value(state, me, settings)
    return _floored(value, proven, floor, END_PLAN, None)


def _last_card(
    state: GameState, me: int, settings: Settings, floor: float, places: list[PlaceRoom], placements: list[Placement]
) -> _Read:
    """The player's last room card in hand (`flow.turns_left` 0): each placement played by the
    engine (its scaffold and furnishing resolved as the rules do, RES-FURN, TOOL-SCAFFOLDING)
    and read to its end (`leaf`: the end game with the piles, `_final_but_end`). The best; proven
    when every placement's read is, ties to the first."""
    per = _end_shared(settings, len(places) * END_SHARED)  # the option's share, split among its placements
    reads = [replace(leaf(state.child(a), me, per), where=pl) for a, pl in zip(places, placements)]
    best = max(reads, key=lambda r: r.value)
    return _floored(best.value, all(r.proven for r in reads), floor, IN_HAND, best.where)


def _tokens(house: House) -> int:
    """The furnishing tokens on the house's cards."""
    return sum(1 for t in house.tokens if t)


def _floored(value: float, proven: bool, floor: float, note: str, where: Placement | None) -> _Read:
    """Never below the house's score as it stands (reachable: the rest goes face down)."""
    if value < floor:
        return _Read(floor, False, AS_IT_STANDS, where)
    return _Read(value, proven, note, where)


def end_value(state: GameState, me: int, settings: Settings) -> tuple[float, bool]:
    """END-ORDER: the best final score `me` can still reach with its uses left (`end_house`)."""
    from dreamhome.solver.optimize import best_final_score

    result = best_final_score(state.rules, end_house(state, me), deterministic_time=settings.end_work)
    return float(result.total), bool(result.optimal)


def end_plan_choice(state: GameState, settings: Settings) -> int | None:
    """END-ORDER: the option the end-game plan plays now (the solver bot's way): the first step
    of `best_final_score` (uses left counted by `end_house`) that is legal, else ending the turn."""
    from dreamhome.solver.optimize import best_final_score

    legal = state.legal_actions()
    me = state.current_player()
    try:
        plan = best_final_score(state.rules, end_house(state, me), deterministic_time=settings.end_work)
    except DreamhomeError:
        plan = None
    if plan is not None:
        for step in plan.steps:
            action = end_action(state.rules, step.action)
            if action in legal:
                return legal.index(action)
    return legal.index(EndTurn()) if EndTurn() in legal else None


def end_action(rules: Ruleset, step: EndAction) -> Action:
    """A step of an end-game plan (`best_final_score`: its role, helper, cells or roof) as the
    game's action; the bots, the hints and the review play plans through it."""
    return END_ACTION_OF_ROLE[step.kind].from_step(rules, step)


__all__ = [
    "AS_IT_STANDS",
    "BEST_TAKE",
    "COMPLETED",
    "END_PLAN",
    "END_WORK",
    "FINAL",
    "IN_HAND",
    "MARGIN_NOTE",
    "HARD",
    "HINT",
    "MARGIN",
    "MEDIUM",
    "MIN_WORK",
    "REVIEW",
    "SCORE",
    "OptionValue",
    "Settings",
    "best_index",
    "decision_values",
    "end_action",
    "end_house",
    "end_plan_choice",
    "end_value",
    "leaf",
    "option_values",
    "rounds_house",
    "unseen_pool",
    "with_work",
    "without",
]
