"""The bots that do not look ahead: the random bot and the greedy bot (the best immediate gain).

Apart from `players.bots` (which adds the solver bot on the one look-ahead) because the greedy bot
is also the look-ahead's play-out policy (`players.playouts`): the look-ahead imports it, so it
must not import the look-ahead back.
"""

from __future__ import annotations

from dreamhome.engine.endgame import pair_swap_house, swap_with_room_discard
from dreamhome.engine.placement import Placement, apply_placement, legal_placements
from dreamhome.game.actions import (
    Action,
    DiscardColumn,
    EndTurn,
    PairSwap,
    PassTool,
    PlaceRoom,
    PlaceToken,
    SwapWithRoomDiscard,
    TakeColumn,
    TakeRoomAtRoundStart,
)
from dreamhome.game.observation import Observation
from dreamhome.game.phases import Phase
from dreamhome.game.roles import TAKE_ROOM_AT_ROUND_START, first_timed_effect
from dreamhome.game.state import Resource
from dreamhome.house import House
from dreamhome.players.bot import Bot
from dreamhome.ruleset import Ruleset
from dreamhome.scoring import score_total


class RandomBot(Bot):
    """Uniform over the legal actions."""

    name = "random"
    looks_ahead = False

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        return self.rng.choice(legal)


# How much a resource card is worth to the greedy bot before it scores (documented heuristic):
# a roof card is worth 1.5 while the roof has fewer than its size, else 0.5; a furnishing is worth
# its points if the house has (or is taking) a room to put it in, else 0; a helper that adds to the
# bonuses 2, one that adds to each token 1 + 1 per token held; other helpers 1; tools 0.5.
ROOF_OPEN, ROOF_FULL, HELPER, TOOL = 1.5, 0.5, 1.0, 0.5


class GreedyBot(Bot):
    """The best immediate gain in its own house's score, with a simple value for resources."""

    name = "greedy"

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        base = score_total(obs.rules, obs.houses[obs.me])
        scored = [(self._value(obs, a, base), i) for i, a in enumerate(legal)]
        best = max(v for v, _ in scored)
        choices = [legal[i] for v, i in scored if v == best]
        return choices[0] if len(choices) == 1 else self.rng.choice(choices)

    def _value(self, obs: Observation, action: Action, base: int | None = None) -> float:
        """The gain of `action` in the player's own score now (a resource card by its value);
        `base` is that score before it, when the caller values many actions of one decision."""
        rules = obs.rules
        house = obs.houses[obs.me]
        if base is None:
            base = score_total(rules, house)
        if isinstance(action, TakeColumn):
            room = obs.track_rooms[action.column]
            assert room is not None
            gain = max(
                score_total(rules, apply_placement(rules, house, room, p)) - base for p in legal_placements(rules, house, room)
            )
            return gain + self._resource_value(obs, obs.track_res[action.column], room)
        if isinstance(action, TakeRoomAtRoundStart):
            effect = first_timed_effect(rules, house.tools, house.helpers, TAKE_ROOM_AT_ROUND_START, "round_start")
            if effect is None or "skip_turn" in effect.flags:
                return -0.5  # keeps it simple: tools are rarely worth a turn to this bot
            room = obs.track_rooms[action.column]  # TOOL-TIMING: a take that costs no turn is a room card more
            assert room is not None
            return max(
                (score_total(rules, apply_placement(rules, house, room, p)) - base for p in legal_placements(rules, house, room)),
                default=-1.0,
            )
        if isinstance(action, PlaceRoom):
            return score_total(rules, apply_placement(rules, house, action.room, placement_of(rules, action))) - base
        if isinstance(action, (PlaceToken, PassTool, EndTurn, DiscardColumn)):
            return 0.0
        if isinstance(action, (SwapWithRoomDiscard, PairSwap)):  # hundreds a decision at the end
            return score_total(rules, self._swapped_house(obs, action)) - base - 0.01
        after = obs.after(action)
        if after is None:  # pragma: no cover - defensive: never crash a game on a heuristic
            return -1.0
        return score_total(rules, after) - base - 0.01

    def _swapped_house(self, obs: Observation, action: SwapWithRoomDiscard | PairSwap) -> House:
        """The house a swap leaves, built from public data by the engine's function the game's
        handler calls (END-SUPPLIER: `swap_with_room_discard` on the house with the piles;
        END-HANDYMAN: `pair_swap_house`), instead of `obs.after`, which replays the whole
        handler on a copy of the game. It differs from `obs.after(action)` only in what the
        handler does beside the swap (the piles kept on it, a spent tool discarded), which
        scoring never reads (SCORE-*: cells, tokens, helpers, outside tokens, roofs), so the
        score is the same; tests/test_observation_lookahead.py holds them equal."""
        rules = obs.rules
        cell = rules.board.index
        if isinstance(action, PairSwap):
            house = obs.houses[obs.me]
            return pair_swap_house(rules, house, cell[action.a], cell[action.b], str(action.role), obs.phase != Phase.END.value)
        piles = obs.house_with_piles(obs.me)  # made once per observation
        return swap_with_room_discard(rules, piles, cell[action.cell], action.room, action.face_down)

    def _resource_value(self, obs: Observation, res: Resource | None, room: int) -> float:
        if res is None:
            return 0.0
        rules = obs.rules
        house = obs.houses[obs.me]
        if res.kind == "roof":
            return ROOF_OPEN if len(house.roofs) < rules.roof_scoring.size else ROOF_FULL
        if res.kind == "furnishing":
            furn = rules.furnishing(res.id)
            if furn.outside:
                return float(furn.points)
            assert furn.room is not None  # not outside: it names its room (FURN-TYPE)
            code = rules.room(furn.room).code
            has_room = code in house.cells or room == code
            return float(furn.points) if has_room else 0.0
        if res.kind == "helper":
            t = rules.tables
            if t.helper_bonus_plus.get(res.id):
                return 2.0
            if t.helper_token_plus.get(res.id):
                return 1.0 + sum(1 for x in house.tokens if x) + len(house.outside)
            return HELPER
        return TOOL


def placement_of(rules: Ruleset, action: PlaceRoom) -> Placement:
    """The placement a `PlaceRoom` action names (its cell as the board's index, its face)."""
    return Placement(rules.board.index[action.cell], action.face_down)


__all__ = ["GreedyBot", "RandomBot", "placement_of"]
