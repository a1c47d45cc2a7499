"""What a player at the table sees (SEE-1): a frozen value, never the game state itself.

Every house (face-down cards included: perfect recall), the track, both discard piles,
the round, the first-player marker, the scores so far and the rules; not the order of
the decks. A bot gets an `Observation` and the legal actions, so it cannot read or
change the deck. `after(action)` is the actor's house right after one of its actions
whose result needs more than public data to work out (a tool, the scaffold, an
end-game helper): `lookahead` (a `Lookahead`) knows which actions those are when the
observation is made and works each house out the first time it is read, since a bot
that reads few of them (the solver bot's end game) should not pay for hundreds.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import Action
from dreamhome.game.values import Resource, rules_from_key, rules_key
from dreamhome.house import House
from dreamhome.ruleset import Ruleset

if TYPE_CHECKING:
    from dreamhome.game.state import GameState


def with_piles(rules: Ruleset, house: House, room_discard: Iterable[int], roof_discard: Iterable[tuple[int, bool]]) -> House:
    """A house with both (public) discard piles, as the end-game helpers see it (END-*)."""
    return house.changed(
        discard_rooms=tuple(rules.room_of_code(c).id for c in room_discard),
        discard_roofs=tuple(roof_discard),
    )


class Lookahead(Mapping[Action, House]):
    """`Observation.lookahead`: the actor's house after each of its legal look-ahead actions, the
    keys known when the observation is made, each house worked out by `house_after` the first
    time it is read and kept (so reading a house twice, or all of them, costs what the game's
    eager table did once). Read-only. `house_after` reads the live game: if the game has moved
    on since, it raises `GameStateError` (as `Observation.sample_state` does) rather than give a
    house of another position. A deep copy is this same value (it is never changed, only
    completed); a pickle is the plain dict of every house (worked out then)."""

    __slots__ = ("_house_after", "_keys", "_known")

    def __init__(self, actions: Iterable[Action], house_after: Callable[[Action], House]):
        self._keys: dict[Action, None] = dict.fromkeys(actions)
        self._known: dict[Action, House] = {}
        self._house_after = house_after

    def __getitem__(self, action: Action) -> House:
        house = self._known.get(action)
        if house is None:
            if action not in self._keys:
                raise KeyError(action)
            house = self._known[action] = self._house_after(action)
        return house

    def __iter__(self) -> Iterator[Action]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, action: object) -> bool:
        return action in self._keys

    def __repr__(self) -> str:
        return f"Lookahead({len(self._keys)} actions, {len(self._known)} worked out)"

    def __deepcopy__(self, memo: dict[int, Any]) -> Lookahead:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self.items()),))


@dataclass(frozen=True)
class Observation:
    """SEE-1: the public part of a game, for the player `me` (`actor` is who acts now)."""

    rules: Ruleset
    me: int
    actor: int
    phase: str
    round: int
    first: int
    houses: tuple[House, ...]
    tool_rounds: tuple[tuple[int, ...], ...]
    track_rooms: tuple[int | None, ...]
    track_res: tuple[Resource | None, ...]
    room_discard: tuple[int, ...]
    roof_discard: tuple[tuple[int, bool], ...]
    scores: tuple[int, ...]
    lookahead: Mapping[Action, House] = field(default_factory=dict)
    sampler: Callable[[random.Random], GameState] | None = field(default=None, compare=False, repr=False)

    def house(self, player: int) -> House:
        return self.houses[player]

    @property
    def track(self) -> list[tuple[int | None, Resource | None]]:
        return list(zip(self.track_rooms, self.track_res))

    def house_with_piles(self, player: int) -> House:
        """The player's house with both discard piles (END-*), made once per observation and
        player: a bot valuing every supply of a decision reads it hundreds of times. The memo is
        no field (not compared, copied or pickled), so the observation stays the same value."""
        memo: dict[int, House] = self.__dict__.setdefault("_with_piles", {})
        house = memo.get(player)
        if house is None:
            house = memo[player] = with_piles(self.rules, self.houses[player], self.room_discard, self.roof_discard)
        return house

    def after(self, action: Action) -> House | None:
        """The actor's house right after `action` (one of `LOOKAHEAD_ACTIONS`), if known."""
        return self.lookahead.get(action)

    def sample_state(self, rng: random.Random) -> GameState:
        """A game state that agrees with everything this observation shows, its decks in an
        order drawn by `rng` (SEE-1: the order is the one thing nobody sees). Search bots
        (OpenSpiel's MCTS, sampled deals) play their look-ahead on such states."""
        if self.sampler is None:
            raise DreamhomeError("this observation was not made by a game (or was copied out of one)")
        return self.sampler(rng)

    def __reduce__(self) -> tuple[Any, ...]:
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in ("rules", "sampler")}
        return (_rebuild, (rules_key(self.rules), fields))

    def __deepcopy__(self, memo: dict[int, Any]) -> Observation:
        return replace(self, lookahead=copy.deepcopy(self.lookahead, memo))  # rules, houses and a Lookahead are immutable


def _rebuild(key: tuple[str, tuple[str, ...], str], fields: dict[str, Any]) -> Observation:
    return Observation(rules=rules_from_key(key), **fields)
