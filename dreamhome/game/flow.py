"""The flow of a game between decisions (ROUND-*, END-ORDER): dealing, the turn order, the
resource card taken, the award token, the end game and the final scores.

Module functions taking the state, as the handlers are (`handlers.py`): a handler applies its
action's own change, then calls the step that follows it here; `GameState` starts the first
round with `start_round` and settles single-option decisions itself. The steps change the
state's public fields and read it through its public methods, so `GameState` stays one class
with no private door for them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from dreamhome.engine.endgame import END_ROLES, helper_uses, resolve_tokens
from dreamhome.engine.placement import free_supported_cells
from dreamhome.game import held
from dreamhome.game.legal import LEGAL_BY_PHASE
from dreamhome.game.phases import Phase
from dreamhome.game.roles import SCAFFOLD as SCAFFOLD_ROLE
from dreamhome.game.roles import has_end_effect, has_role
from dreamhome.game.values import GameStateError, Resource
from dreamhome.ruleset import Ruleset
from dreamhome.scoring import final_score, rooms_of

if TYPE_CHECKING:
    from dreamhome.game.state import GameState

_Card = TypeVar("_Card")


def _note(state: GameState, kind: str, **data: Any) -> None:
    """An event of the game's own (a deal, a card discarded, the award, the scores) in its log."""
    state.events.append({"round": state.round, "event": kind, **data})


def start_round(state: GameState) -> None:
    """ROUND-2: the next round's deal (or the end game after the last round), then its first
    decision: the round-start discard (ROUND-1) or the round-start window."""
    g = state.rules.game
    state.round += 1
    if state.round > g.rounds:
        _start_end(state)
        return
    state.track_rooms = [state.room_deck.pop() for _ in range(g.deal_rooms)]
    state.track_res = [None] + [state.res_deck.pop() for _ in range(g.deal_resources)]
    state.track_res += [None] * (len(state.track_rooms) - len(state.track_res))
    _note(
        state,
        "deal",
        rooms=[_room_id(state.rules, r) for r in state.track_rooms],
        resources=[r.to_dict() if r else None for r in state.track_res],
    )
    state.order = [(state.first + i) % state.n for i in range(state.n)]
    state.skip = set()
    state.took_zero = None
    if state.rules.game.discards_at_round_start(state.n) and state.rules.options["round_discard"] == "on":  # ROUND-1
        state.phase, state.actor = Phase.DISCARD, state.first  # ROUND-1, ROUND-ORDER
    else:
        round_start_window(state)


def discard_column(state: GameState, k: int) -> None:
    """ROUND-1, ROUND-5: both cards of column `k` go to the discard piles."""
    room, res = state.track_rooms[k], state.track_res[k]
    state.track_rooms[k] = None
    state.track_res[k] = None
    if room is not None:
        state.room_discard.append(room)
    if res is not None:
        discard_resource(state, res)


def discard_resource(state: GameState, res: Resource) -> None:
    """ROUND-5: a roof card to the roof discard pile; any other resource card leaves the game."""
    if res.kind == "roof":
        state.roof_discard.append((state.rules.roof(res.id).index, res.window))  # ROUND-5
    else:
        state.gone.append(res)  # other resource cards leave the game


def round_start_window(state: GameState) -> None:
    """TOOL-JACKHAMMER, TOOL-TIMING: the holders of a round-start use, in turn order, before any turn."""
    state.jack_queue = [p for p in state.order if len(LEGAL_BY_PHASE[Phase.ROUND_START](state, p)) > 1]
    next_round_start_tool(state)


def next_round_start_tool(state: GameState) -> None:
    """The next holder of a round-start use decides; with none left, the round's first turn."""
    if state.jack_queue:
        state.actor = state.jack_queue.pop(0)
        state.phase = Phase.ROUND_START
        return
    state.turn_index = -1
    next_turn(state)


def next_turn(state: GameState) -> None:
    """ROUND-3: the next player in turn order who has a turn this round (a round-start take
    with `skip_turn` removed its user's); after the last, the round ends. A placement made in
    the round-start window returns to that window instead."""
    if state.after_place == Phase.ROUND_START and state.phase != Phase.TURN and state.pending_room is None:
        state.after_place = Phase.TURN
        next_round_start_tool(state)
        return
    state.turn_index += 1
    while state.turn_index < len(state.order) and state.order[state.turn_index] in state.skip:
        state.turn_index += 1
    if state.turn_index >= len(state.order):
        _end_round(state)
        return
    state.actor = state.order[state.turn_index]
    state.phase = Phase.TURN
    state.pending_room = state.pending_res = None


def turns_left(state: GameState, p: int) -> int:
    """The turns `p` still has in the rounds, each bringing one room card (ROUND-2, ROUND-3): one
    a round after this one, and this round's when it is still ahead — not taken yet, nor given
    up to a round-start take (`skip`). A room card in hand is not counted. The look-ahead reads
    it to know when a house is final but for its end game (players.lookahead)."""
    rounds = state.rules.game.rounds
    if state.phase in (Phase.END, Phase.DONE) or state.round > rounds:
        return 0
    later = rounds - state.round
    if p in state.skip:
        return later
    if state.phase in (Phase.DISCARD, Phase.ROUND_START) or (
        state.after_place == Phase.ROUND_START and state.phase != Phase.TURN
    ):
        return later + 1  # the round's turns have not begun (a round-start take is being placed)
    position = state.order.index(p)
    ahead = position > state.turn_index or (position == state.turn_index and state.phase == Phase.TURN)
    return later + ahead


def _end_round(state: GameState) -> None:
    """ROUND-5: the leftovers are discarded; ROUND-4: the taker of column 0 leads the next round."""
    for k in range(len(state.track_rooms)):
        discard_column(state, k)
    if state.took_zero is not None:
        state.first = state.took_zero
    start_round(state)


def take_resource(state: GameState, p: int) -> None:
    """RES-*: the resource card of the column just taken goes where it acts (a roof to the roof
    pile, a helper to the house, a tool to the held cards or the scaffold in hand; a furnishing
    waits for the placement), then the placement (after the scaffold's, if it may go first)."""
    res = state.pending_res
    house = state.houses[p]
    state.scaffold_pending = False
    if res is None or res.kind == "furnishing":
        pass
    elif res.kind == "roof":
        state.houses[p] = replace(house, roofs=house.roofs + ((state.rules.roof(res.id).index, res.window),))
        state.pending_res = None
    elif res.kind == "helper":  # HELP-DESIGNER applies at once: the house holds it now
        state.houses[p] = replace(house, helpers=house.helpers + (res.id,))
        state.helper_spent[p] = state.helper_spent[p] + [0] * (len(house.helpers) + 1 - len(state.helper_spent[p]))
        state.pending_res = None
    elif res.kind == "tool":
        state.pending_res = None
        last = state.round >= state.rules.game.rounds  # TOOL-LAST (a tool that acts at the end is kept)
        if last and not has_end_effect(state.rules.held(res.id)):
            state.gone.append(res)
        elif has_role(state.rules.held(res.id), SCAFFOLD_ROLE):
            state.scaffold_pending = True
            state.scaffold_card = res
        else:
            state.houses[p] = replace(house, tools=house.tools + (res.id,))
            state.tool_rounds[p] = state.tool_rounds[p] + [state.round]
            state.tool_spent[p] = state.tool_spent[p] + [0]
    if state.scaffold_pending and free_supported_cells(state.rules, state.houses[p]):
        state.phase = Phase.SCAFFOLD_BEFORE
    else:
        state.phase = Phase.PLACE


def after_placement(state: GameState, p: int) -> None:
    """TOOL-SCAFFOLDING, RES-FURN: after the room card is placed, the scaffold still in hand
    (placed now, or discarded with no space for it), then the furnishing (outside, as a token,
    or discarded with no room for it), then the next turn."""
    if state.scaffold_pending:
        if free_supported_cells(state.rules, state.houses[p]):
            state.phase = Phase.SCAFFOLD_AFTER
            return
        state.scaffold_pending = False
        assert state.scaffold_card is not None
        state.gone.append(state.scaffold_card)
        _note(state, "scaffold_discarded", player=p)
    res = state.pending_res
    if res is not None and res.kind == "furnishing":
        furn = state.rules.furnishing(res.id)
        if furn.outside:
            state.houses[p] = replace(state.houses[p], outside=state.houses[p].outside + (furn.id,))
            state.gone.append(res)
            state.pending_res = None
        elif held.token_cells(state, p, res.id):
            state.phase = Phase.TOKEN
            return
        else:
            _note(state, "furnishing_discarded", player=p, furnishing=res.id)
            state.gone.append(res)
            state.pending_res = None
    next_turn(state)


def check_award(state: GameState, p: int) -> None:
    """VAR-CAR: the first complete room of an award token's type gets it, automatically."""
    if state.car_awarded:
        return
    t = state.rules.tables
    for furn in state.rules.furnishings:
        if furn.award != "first_complete":
            continue
        code = t.token_room[furn.code]
        house = state.houses[p]
        for room, cells in rooms_of(state.rules, house):
            if room == code and len(cells) == t.max_size[code] and not any(house.tokens[i] for i in cells):
                state.houses[p] = house.with_token(cells[0], furn.code)
                state.car_awarded = True
                _note(state, "award", player=p, token=furn.id, cell=state.rules.board.cells[cells[0]])
                return


def _start_end(state: GameState) -> None:
    """END-ORDER: after the last round, each player in turn order from the first-player marker."""
    state.phase = Phase.END
    state.end_queue = [(state.first + i) % state.n for i in range(state.n)]  # END-ORDER
    next_end_player(state)


def next_end_player(state: GameState) -> None:
    """END-ORDER: the next player with an end-game use decides (a player with none only has its
    tokens resolved); after the last, the final scores (ROUND-6) and the game is over."""
    while state.end_queue:
        p = state.end_queue.pop(0)
        uses = helper_uses(state.rules, state.houses[p])
        state.end_left = {role: list(uses.of(role)) for role in END_ROLES}
        if any(state.end_left.values()):
            state.actor = p
            state.phase = Phase.END
            return
        state.houses[p] = resolve_tokens(state.rules, state.houses[p])
    for house in state.houses:
        final_score(state.rules, house)  # ROUND-6: a house no finished game leaves is refused, not scored
    state.phase = Phase.DONE
    state.actor = -1
    _note(state, "scores", scores=state.returns(), winners=state.winners())


def on_top(deck: list[_Card], cards: list[_Card], kind: str) -> list[_Card]:
    """`deck` with `cards` moved to its end, first card last: `start_round` deals by `pop()`, so
    they are the next deal (`GameState.stack_deal`)."""
    rest = list(deck)
    for card in cards:
        try:
            rest.remove(card)
        except ValueError:
            raise GameStateError(f"the {kind} deck holds no {card} to deal") from None
    return rest + cards[::-1]


def _room_id(rules: Ruleset, code: int | None) -> str | None:
    return rules.room_of_code(code).id if code is not None else None
