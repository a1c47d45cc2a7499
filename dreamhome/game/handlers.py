"""One handler per action type: what the action changes in the game (the rule of each is the
action class's `rule`), through the state's public fields and methods. A handler ends by calling
the step of the round's flow that follows its action (`flow.py`: the next turn, the placement's
aftermath, the next end-game player); the single-option decisions after that are `GameState`'s.

`HANDLERS` is built from `ACTION_CLASSES`: a class without a handler is an error when this
module loads, not a KeyError in the middle of a game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from dreamhome.engine.endgame import (
    pair_swap_house,
    resolve_tokens,
    swap_with_room_discard,
)
from dreamhome.engine.placement import Placement, apply_placement
from dreamhome.game import flow, held
from dreamhome.game.actions import (
    ACTION_CLASSES,
    Action,
    DeferScaffold,
    DiscardColumn,
    EndTurn,
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
from dreamhome.game.roles import SWAP_TRACK_ROOMS, SWAP_WITH_TRACK, TAKE_ROOM_AT_ROUND_START
from dreamhome.game.values import MARKER_COLUMN, Resource
from dreamhome.ruleset import EMPTY, SCAFFOLD

if TYPE_CHECKING:
    from dreamhome.game.state import GameState

Handler = Callable[["GameState", Any, int], None]
_A = TypeVar("_A", bound=Action)
_FOUND: dict[type[Action], Handler] = {}


def handles(cls: type[_A]) -> Callable[[Callable[[GameState, _A, int], None]], Callable[[GameState, _A, int], None]]:
    """Register the decorated function as the handler of action class `cls` and its subclasses
    (a subclass's own handler wins)."""

    def register(fn: Callable[[GameState, _A, int], None]) -> Callable[[GameState, _A, int], None]:
        _FOUND[cls] = fn
        return fn

    return register


@handles(DiscardColumn)
def on_discard_column(state: GameState, action: DiscardColumn, p: int) -> None:
    """ROUND-1: both cards of the column go to the discard piles."""
    flow.discard_column(state, action.column)
    flow.round_start_window(state)


@handles(TakeRoomAtRoundStart)
def on_take_room_at_round_start(state: GameState, action: TakeRoomAtRoundStart, p: int) -> None:
    """TOOL-JACKHAMMER: the room card now, its resource discarded; with skip_turn, no turn this
    round (TOOL-TIMING)."""
    held.use_role(state, p, TAKE_ROOM_AT_ROUND_START, "round_start", held.round_start_taker(state, p))
    room = state.track_rooms[action.column]
    state.track_rooms[action.column] = None
    res = state.track_res[action.column]
    state.track_res[action.column] = None
    if res is not None:
        flow.discard_resource(state, res)
    state.pending_room, state.pending_res = room, None
    state.after_place = Phase.ROUND_START
    state.phase = Phase.PLACE


@handles(PassTool)
def on_pass_tool(state: GameState, action: PassTool, p: int) -> None:
    flow.next_round_start_tool(state)


@handles(SwapWithTrack)
def on_swap_with_track(state: GameState, action: SwapWithTrack, p: int) -> None:
    """TOOL-DRILL: the track's card takes the house card's space; the house card goes to the track."""
    held.use_role(state, p, SWAP_WITH_TRACK, state.timing_now())
    house = state.houses[p]
    cell = state.cell_index(action.cell)
    outgoing = house.cells[cell]
    incoming = state.track_rooms[action.column]
    assert incoming is not None
    emptied = house.place(cell, EMPTY)
    state.houses[p] = apply_placement(state.rules, emptied, incoming, Placement(cell, action.face_down))
    state.track_rooms[action.column] = outgoing  # its token is lost (TOOL-DRILL)
    flow.check_award(state, p)


@handles(SwapTrackRooms)
def on_swap_track_rooms(state: GameState, action: SwapTrackRooms, p: int) -> None:
    """TOOL-MIXER: two room cards of the track change places."""
    held.use_role(state, p, SWAP_TRACK_ROOMS, state.timing_now())
    t = state.track_rooms
    t[action.a], t[action.b] = t[action.b], t[action.a]


@handles(TakeColumn)
def on_take_column(state: GameState, action: TakeColumn, p: int) -> None:
    """ROUND-3, ROUND-4: both cards of the column; column 0 carries the first-player marker."""
    k = action.column
    state.pending_room, state.pending_res = state.track_rooms[k], state.track_res[k]
    state.track_rooms[k] = None
    state.track_res[k] = None
    if k == MARKER_COLUMN:
        state.took_zero = p  # ROUND-4 / ROUND-ORDER: leads the next round
    state.after_place = Phase.TURN
    flow.take_resource(state, p)


@handles(PlaceScaffold)
def on_place_scaffold(state: GameState, action: PlaceScaffold, p: int) -> None:
    """TOOL-SCAFFOLDING: the scaffold on a free supported space."""
    state.houses[p] = state.houses[p].place(state.cell_index(action.cell), SCAFFOLD)
    state.scaffold_pending = False
    if state.pending_room is not None:
        state.phase = Phase.PLACE
    else:
        flow.after_placement(state, p)


@handles(DeferScaffold)
def on_defer_scaffold(state: GameState, action: DeferScaffold, p: int) -> None:
    state.phase = Phase.PLACE


@handles(PlaceRoom)
def on_place_room(state: GameState, action: PlaceRoom, p: int) -> None:
    """PLACE-*: the card in hand into the house."""
    cell = state.cell_index(action.cell)
    if state.houses[p].cells[cell] == SCAFFOLD:  # PLACE-SCAFFOLD: the scaffold is discarded
        state.gone.append(Resource("tool", held.scaffold_id(state.rules)))
    state.houses[p] = apply_placement(state.rules, state.houses[p], action.room, Placement(cell, action.face_down))
    state.pending_room = None
    flow.check_award(state, p)
    flow.after_placement(state, p)


@handles(PlaceToken)
def on_place_token(state: GameState, action: PlaceToken, p: int) -> None:
    """RES-FURN: the token stays, the card leaves the game."""
    state.houses[p] = state.houses[p].with_token(state.cell_index(action.cell), state.rules.furnishing(action.token).code)
    assert state.pending_res is not None
    state.gone.append(state.pending_res)
    state.pending_res = None
    flow.next_turn(state)


@handles(SwapWithRoomDiscard)
def on_swap_with_room_discard(state: GameState, action: SwapWithRoomDiscard, p: int) -> None:
    """END-SUPPLIER: a card of the room discard pile for a card of the house."""
    rules = state.rules
    house = swap_with_room_discard(rules, state.house_with_piles(p), state.cell_index(action.cell), action.room, action.face_down)
    state.room_discard = [rules.room(r).code for r in house.discard_rooms]
    state.houses[p] = house.changed(discard_rooms=(), discard_roofs=())
    held.spend_helper(state, p, str(action.role), action.helper)


@handles(PairSwap)
def on_pair_swap(state: GameState, action: PairSwap, p: int) -> None:
    """END-HANDYMAN (and every swap role of two house cards): two cards of the house change places,
    with their tokens."""
    role = str(action.role)
    a, b = state.cell_index(action.a), state.cell_index(action.b)
    state.houses[p] = pair_swap_house(state.rules, state.houses[p], a, b, role, state.phase != Phase.END)
    held.spend_helper(state, p, role, action.helper)


@handles(TakeFromRoofDiscard)
def on_take_from_roof_discard(state: GameState, action: TakeFromRoofDiscard, p: int) -> None:
    """END-ROOFER: a roof card of the roof discard pile to the player's roof pile."""
    roof = (state.rules.roof(action.color).index, action.window)
    state.roof_discard.remove(roof)
    state.houses[p] = replace(state.houses[p], roofs=state.houses[p].roofs + (roof,))
    held.spend_helper(state, p, str(action.role), action.helper)


@handles(EndTurn)
def on_end_turn(state: GameState, action: EndTurn, p: int) -> None:
    """END-ORDER, END-HANDYMAN: the player is done; a room keeps its best token."""
    state.houses[p] = resolve_tokens(state.rules, state.houses[p])
    flow.next_end_player(state)


def _handlers() -> dict[type[Action], Handler]:
    """The handler of every action class, loud on a class without one."""
    found = {cls: next((_FOUND[k] for k in cls.__mro__ if k in _FOUND), None) for cls in ACTION_CLASSES}
    missing = [cls.__name__ for cls, handler in found.items() if handler is None]
    if missing:
        raise RuntimeError(f"action classes without a handler: {', '.join(missing)}")
    return {cls: handler for cls, handler in found.items() if handler is not None}


HANDLERS: dict[type[Action], Handler] = _handlers()
