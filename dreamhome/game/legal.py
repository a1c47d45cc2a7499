"""The legal actions of each phase: one generator per `Phase`, each reading the game's data.

`GameState.legal_actions` calls the generator of its phase (`LEGAL_BY_PHASE`) and caches the
answer; every generator lists the real alternatives of the player to act, in a fixed order
(records and bots depend on it), each checked against the rules it cites.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from dreamhome.engine.endgame import pair_ok, supplied, swap_keeps_b_and_c, swapped
from dreamhome.engine.furnishings import award_tokens_complete, holds_award_token
from dreamhome.engine.helpers import keeps_rooms_open
from dreamhome.engine.placement import Placement, face_up_ok, free_supported_cells, legal_placements
from dreamhome.game import held
from dreamhome.game.actions import (
    END_ACTIONS,
    Action,
    DeferScaffold,
    DiscardColumn,
    EndTurn,
    HelperAction,
    PairSwap,
    PassTool,
    PlaceRoom,
    PlaceScaffold,
    PlaceToken,
    SwapTrackRooms,
    SwapWithRoomDiscard,
    SwapWithTrack,
    TakeColumn,
    TakeFromRoofDiscard,
    TakeRoomAtRoundStart,
)
from dreamhome.game.phases import Phase
from dreamhome.game.roles import SWAP_TRACK_ROOMS, SWAP_WITH_TRACK
from dreamhome.ruleset import EMPTY, FACE_DOWN, ROOM0

if TYPE_CHECKING:
    from dreamhome.game.state import GameState


def discard_actions(state: GameState, p: int) -> list[Action]:
    """ROUND-1: any column but the first-player column that still holds its cards."""
    return [DiscardColumn(k) for k in range(1, len(state.track_rooms)) if state.track_rooms[k] is not None]


def round_start_actions(state: GameState, p: int) -> list[Action]:
    """TOOL-JACKHAMMER: take any room card of the track now, or keep the tool; TOOL-TIMING: the
    track swaps whose cards act at round_start too, and a take without skip_turn only while every
    turn still to come keeps a room card."""
    out: list[Action] = []
    if held.round_start_take_fits(state, p):
        out += [TakeRoomAtRoundStart(k) for k, r in enumerate(state.track_rooms) if r is not None]
    out += track_tool_actions(state, p, "round_start")
    return out + [PassTool()]


def track_tool_actions(state: GameState, p: int, timing: str) -> list[Action]:
    """TOOL-DRILL, TOOL-MIXER (TOOL-TIMING): the track swaps of the player's cards acting at `timing`."""
    out: list[Action] = []
    if held.usable_cards(state, p, SWAP_WITH_TRACK, timing):
        out += swap_with_track_actions(state, p)
    if held.usable_cards(state, p, SWAP_TRACK_ROOMS, timing):
        cols = [k for k, r in enumerate(state.track_rooms) if r is not None]
        pairs = [(a, b) for i, a in enumerate(cols) for b in cols[i + 1 :]]
        out += [SwapTrackRooms(a, b) for a, b in pairs if state.track_rooms[a] != state.track_rooms[b]]
    return out


def scaffold_before_actions(state: GameState, p: int) -> list[Action]:
    """TOOL-SCAFFOLDING: the scaffold on a free supported space now, or after the room card."""
    return [*scaffold_after_actions(state, p), DeferScaffold()]


def scaffold_after_actions(state: GameState, p: int) -> list[Action]:
    """TOOL-SCAFFOLDING: the scaffold on a free supported space."""
    names = state.rules.board.cells
    return [PlaceScaffold(names[c]) for c in free_supported_cells(state.rules, state.houses[p])]


def place_actions(state: GameState, p: int) -> list[Action]:
    """PLACE-*: every legal placement of the room card in hand, face up or face down."""
    assert state.pending_room is not None
    room = state.rules.room_of_code(state.pending_room).id
    return [
        PlaceRoom(room, state.rules.board.cells[pl.cell], pl.face_down)
        for pl in legal_placements(state.rules, state.houses[p], room)
    ]


def token_actions(state: GameState, p: int) -> list[Action]:
    """RES-FURN, FURN-TYPE: the token on any card of a room of its type without a token."""
    assert state.pending_res is not None
    furn = state.pending_res.id
    return [PlaceToken(furn, state.rules.board.cells[c]) for c in held.token_cells(state, p, furn)]


def done_actions(state: GameState, p: int) -> list[Action]:
    """SCORE-WIN: the game is over."""
    return []


def turn_actions(state: GameState, p: int) -> list[Action]:
    """ROUND-3, ROUND-COLUMN: take a column that holds its room card, or first use a tool
    (TOOL-DRILL, TOOL-MIXER, TOOL-TURN), or a card whose end-game effect acts before_take
    (TOOL-TIMING)."""
    out: list[Action] = [TakeColumn(k) for k, r in enumerate(state.track_rooms) if r is not None]
    out += track_tool_actions(state, p, "before_take")
    for role, actions in HELPER_LISTERS:
        usable = held.usable_cards(state, p, role, "before_take")
        if usable:
            kind, slot = usable[0]
            house = state.houses[p]
            out += actions(state, p, house.tools[slot] if kind == "tool" else house.helpers[slot])
    return out


def swap_with_track_actions(state: GameState, p: int) -> list[Action]:
    """TOOL-DRILL: a face-up house card against a track card that may take its space."""
    house = state.houses[p]
    out: list[Action] = []
    face_down_ok = state.rules.options["swap_face_down"] == "allowed"
    for cell, code in enumerate(house.cells):
        if code < ROOM0:
            continue  # TOOL-DRILL: only face-up cards, never an empty room
        emptied = house.place(cell, EMPTY)
        for k, incoming in enumerate(state.track_rooms):
            if incoming is None:
                continue
            options = legal_placements(state.rules, emptied, incoming)
            name = state.rules.board.cells[cell]
            if Placement(cell, False) in options:
                out.append(SwapWithTrack(name, k, False))
            if face_down_ok:
                out.append(SwapWithTrack(name, k, True))
    return out


Lister = Callable[["GameState", int, str, type[HelperAction]], list[Action]]
_LISTERS: dict[type[HelperAction], Lister] = {}


def lists(cls: type[HelperAction]) -> Callable[[Lister], Lister]:
    """Register the decorated function as the lister of the legal uses by one card (its `helper`) of
    `cls` and its subclasses; the lister is told the class it lists."""

    def register(fn: Lister) -> Lister:
        _LISTERS[cls] = fn
        return fn

    return register


def end_actions(state: GameState, p: int) -> list[Action]:
    """END-ORDER: every use of the player's next helper of each role, or done."""
    out: list[Action] = []
    for role, actions in HELPER_LISTERS:
        left = state.end_left[role]
        if left:
            out += actions(state, p, left[0])
    return [*out, EndTurn()]


@lists(SwapWithRoomDiscard)
def room_discard_swaps(state: GameState, p: int, helper: str, cls: type[HelperAction]) -> list[Action]:
    """END-SUPPLIER: any space against each kind of card of the room discard pile."""
    rules = state.rules
    if not state.room_discard:
        return []
    house = state.houses[p]
    keep_open = keeps_rooms_open(rules, house)
    face_down_ok = rules.options["swap_face_down"] == "allowed"
    incoming = sorted(set(state.room_discard))
    awards = holds_award_token(rules, house)  # VAR-CAR: only then can a supply leave one in an incomplete room
    out: list[Action] = []
    for cell in range(rules.board.size):
        if not _holds_card(house.cells[cell]):
            continue  # END-SUPPLIER swaps a card, never an empty space (in play, TOOL-TIMING; spaces to spare)
        emptied = house.place(cell, EMPTY)
        for code in incoming:
            room_id = rules.room_of_code(code).id
            name = rules.board.cells[cell]
            # END-SUPPLIER: legal as during play, and an award token keeps its complete room (VAR-CAR)
            if face_up_ok(rules, emptied, cell, code, keep_open) and (
                not awards or award_tokens_complete(rules, supplied(emptied, cell, code, False))
            ):
                out.append(SwapWithRoomDiscard(helper, name, room_id, False))
            if face_down_ok and (not awards or award_tokens_complete(rules, supplied(emptied, cell, code, True))):
                out.append(SwapWithRoomDiscard(helper, name, room_id, True))
    return out


def _holds_card(code: int) -> bool:
    """A room card, face up or face down (not an empty space or a scaffold)."""
    return code >= ROOM0 or code == FACE_DOWN


@lists(PairSwap)
def pair_swaps(state: GameState, p: int, helper: str, cls: type[HelperAction]) -> list[Action]:
    """END-HANDYMAN (and every swap role of two house cards): every pair of different spaces the
    role may swap (`endgame.pair_ok`) whose swap keeps PLACE-B and PLACE-C, and every award token
    in a complete room (VAR-CAR)."""
    rules = state.rules
    house = state.houses[p]
    n = rules.board.size
    cells = house.cells
    role = str(cls.role)
    assert issubclass(cls, PairSwap)  # registered for PairSwap and its subclasses
    awards = holds_award_token(rules, house)  # VAR-CAR: only then can a swap leave one in an incomplete room
    out: list[Action] = []
    for a in range(n):
        for b in range(a + 1, n):
            if not (_holds_card(cells[a]) and _holds_card(cells[b])):
                continue  # two room cards (END-HANDYMAN); during play a space may still be empty
            if (cells[a], house.tokens[a], house.under[a]) == (cells[b], house.tokens[b], house.under[b]):
                continue
            keeps = pair_ok(rules, role, a, b) and swap_keeps_b_and_c(rules.tables, cells, a, b)
            if keeps and (not awards or award_tokens_complete(rules, swapped(house, a, b))):  # VAR-CAR: tokens travel
                out.append(cls(helper, rules.board.cells[a], rules.board.cells[b]))
    return out


@lists(TakeFromRoofDiscard)
def roof_discard_takes(state: GameState, p: int, helper: str, cls: type[HelperAction]) -> list[Action]:
    """END-ROOFER: each kind of card of the roof discard pile."""
    return [TakeFromRoofDiscard(helper, state.rules.roofs[c].id, w) for c, w in sorted(set(state.roof_discard))]


def _helper_listers() -> tuple[tuple[str, Callable[[GameState, int, str], list[Action]]], ...]:
    """(role, lister of one card's uses) of every end-game role, in the order of the action
    classes; loud on a class without a lister."""
    found = {cls: next((_LISTERS[k] for k in cls.__mro__ if k in _LISTERS), None) for cls in END_ACTIONS}
    missing = [cls.__name__ for cls, lister in found.items() if lister is None]
    if missing:
        raise RuntimeError(f"end-game action classes without a lister in legal.py: {', '.join(missing)}")
    return tuple((str(cls.role), partial(_call, lister, cls)) for cls, lister in found.items() if lister is not None)


def _call(lister: Lister, cls: type[HelperAction], state: GameState, p: int, helper: str) -> list[Action]:
    return lister(state, p, helper, cls)


HELPER_LISTERS = _helper_listers()

LEGAL_BY_PHASE: dict[Phase, Callable[[GameState, int], list[Action]]] = {
    Phase.DISCARD: discard_actions,
    Phase.ROUND_START: round_start_actions,
    Phase.TURN: turn_actions,
    Phase.SCAFFOLD_BEFORE: scaffold_before_actions,
    Phase.PLACE: place_actions,
    Phase.SCAFFOLD_AFTER: scaffold_after_actions,
    Phase.TOKEN: token_actions,
    Phase.END: end_actions,
    Phase.DONE: done_actions,
}
