"""The data of a game (`GameState`'s fields, typed once) and the small readings of it that every
part of the game uses: the scores now, the winners, what a player holds, the discard piles."""

from __future__ import annotations

from typing import Any

from dreamhome.game.observation import with_piles
from dreamhome.game.phases import Phase
from dreamhome.game.values import Resource
from dreamhome.house import House
from dreamhome.ruleset import ROOM0, Ruleset
from dreamhome.scoring import score_total


class GameFields:
    """The fields of a game, set by `GameState.__init__` (or read back by `from_dict`)."""

    rules: Ruleset
    n: int
    seed: int
    room_deck: list[int]
    res_deck: list[Resource]
    first: int
    initial_first: int
    houses: list[House]
    tool_rounds: list[list[int]]  # round each held tool was taken
    tool_spent: list[list[int]]  # uses spent of each held tool (TOOL-TIMING)
    helper_spent: list[list[int]]  # uses spent of each helper during play
    room_discard: list[int]
    roof_discard: list[tuple[int, bool]]
    gone: list[Resource]  # resource cards that left the game (RES-TOOL, RES-FURN, ROUND-5)
    car_awarded: bool
    round: int
    phase: Phase
    actor: int
    events: list[dict[str, Any]]
    track_rooms: list[int | None]
    track_res: list[Resource | None]
    order: list[int]
    turn_index: int
    skip: set[int]
    took_zero: int | None
    jack_queue: list[int]
    pending_room: int | None
    pending_res: Resource | None
    scaffold_pending: bool
    scaffold_card: Resource | None
    after_place: Phase  # where a placement returns to: the turn, or the round-start window
    end_queue: list[int]
    end_left: dict[str, list[str]]
    _mutations: int
    _scored: dict[int, tuple[House, int]]

    def returns(self) -> list[int]:
        """SCORE-*: every house's score now (final once the game is over)."""
        known = self._scored  # id(house) → (house, its score); houses are immutable values
        out = []
        for house in self.houses:
            hit = known.get(id(house))
            if hit is None or hit[0] is not house:
                hit = known[id(house)] = (house, score_total(self.rules, house))
            out.append(hit[1])
        if len(known) > 4 * self.n:
            self._scored = {id(h): known[id(h)] for h in self.houses}
        return out

    def winners(self) -> list[int]:
        """SCORE-WIN: most points; tie: most children on face-up room cards (option tiebreak)."""
        tied = self.top_scorers()
        if len(tied) > 1 and self.rules.options["tiebreak"] == "children":
            kids = {p: self.children(p) for p in tied}
            most = max(kids.values())
            tied = [p for p in tied if kids[p] == most]
        return tied

    def top_scorers(self) -> list[int]:
        """SCORE-WIN: the players with the most points, before any tie-break."""
        scores = self.returns()
        best = max(scores)
        return [p for p, s in enumerate(scores) if s == best]

    def children(self, player: int) -> int:
        """SCORE-WIN's tie-break: the children hidden on the player's face-up room cards."""
        return sum(self.rules.room_of_code(c).children for c in self.houses[player].cells if c >= ROOM0)

    def timing_now(self) -> str:
        """TOOL-TIMING: the timing of the phase's uses (round_start, before_take or end)."""
        return {Phase.ROUND_START: "round_start", Phase.END: "end"}.get(self.phase, "before_take")

    def _held_id(self, p: int, kind: str, slot: int) -> str:
        house = self.houses[p]
        return house.tools[slot] if kind == "tool" else house.helpers[slot]

    def cell_index(self, name: str) -> int:
        """A board cell's index in the ruleset's tables, by the cell's name."""
        return self.rules.board.index[name]

    def house_with_piles(self, player: int) -> House:
        """A player's house with both discard piles, as the end-game helpers see it (END-*)."""
        return with_piles(self.rules, self.houses[player], self.room_discard, self.roof_discard)

    def _note(self, kind: str, **data: Any) -> None:
        self.events.append({"round": self.round, "event": kind, **data})
