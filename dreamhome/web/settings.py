"""A table game's settings: each seat a person or a bot, the variant, the seed, the persons'
names (`Settings`), read from a start request or a game file as strictly, and the rules a
variant names (`rules_for`), compiled once per server.

Apart from the store (`store`: the games kept, their files): a start request is checked here
before any game or file exists, and the front page's options (`players_range`,
`variant_catalogue`) are exactly what `Settings.parse` accepts.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from dreamhome.players import roster
from dreamhome.ruleset import Ruleset
from dreamhome.web.errors import RequestError
from dreamhome.web.rulesets import RULESETS, UnknownVariantError

BOT_NAMES = roster.BOT_NAMES
"""The packaged bots a seat may get, the levels (easy, medium, hard) first; `module:Class` bots
are never taken from a request."""
PERSON = "person"
"""A person's seat, in a start request and in the game record (the replay page shows it beside the bots)."""
MAX_SEED = 2**31 - 1
"""The largest seed a start request may name (a seed someone chose is known to them: SEE-1)."""
DRAWN_SEED_BITS = 63
"""A game started without a seed gets `secrets.randbits(DRAWN_SEED_BITS)`: the seed decides the
decks' order (SEE-1 hides it from everyone), and 63 random bits cannot be found by trying seeds
against the first deal, which 31 could."""


def rules_for(variant: str) -> Ruleset:
    """The packaged base rules with `variant` on ("" for none): compiled once for the server's
    life, kept by content (`rulesets.RULESETS`); `RequestError` for a name that is no variant."""
    try:
        return RULESETS.get(variant)
    except UnknownVariantError as exc:
        raise RequestError(f"{exc}; known: {', '.join(variant_catalogue())}") from None


def variant_catalogue() -> dict[str, str]:
    """VAR-*: the variants a game may use: the base rules' `variant` blocks and the packaged
    files of rules/variants/, each with its title (as `Ruleset.variants_available` lists them)."""
    return dict(rules_for("").variants_available)


def players_range(variant: str) -> tuple[int, int]:
    """SETUP-1: the numbers of players the rules with `variant` on ("" for none) allow; what
    the start page offers for that variant is exactly what `Settings.parse` accepts."""
    game = rules_for(variant).game
    return game.min_players, game.max_players


START_FIELDS = ("seats", "variant", "seed", "lang", "names")
MAX_NAME = 24
"""Characters of a person's name at most (`Settings.parse`): a name shows beside each house and in the log."""
OLD_START_FIELDS = ("players", "bots", "variant", "seed")


@dataclass(frozen=True)
class Settings:
    """What a new game is made of (checked by `Settings.parse`): each seat, seat 0 first, a
    person (`PERSON`) or a bot of `BOT_NAMES`; the variant ("" for none); the seed."""

    seats: tuple[str, ...]
    variant: str
    seed: int
    names: tuple[str | None, ...] = ()  # per seat: a person's name, None for none (empty: no names at all)

    def name_of(self, seat: int) -> str | None:
        """The name the person at `seat` gave (None for a bot's seat or a person who gave none)."""
        return self.names[seat] if seat < len(self.names) else None

    @property
    def players(self) -> int:
        return len(self.seats)

    def persons(self) -> tuple[int, ...]:
        """The seats people play."""
        return tuple(p for p, name in enumerate(self.seats) if name == PERSON)

    @classmethod
    def parse(cls, data: Any, stored: bool = False) -> Settings:
        """The settings of a start request, every field checked (`RequestError`, one line).

        `{"seats": [...], "seed": S, "variant": V}` (the `lang` a page may add is the answer's);
        the first form, `{"players": n, "bots": [...], ...}`, means a person at seat 0 and the
        bots after. A request without a seed (or `"seed": null`) gets one drawn from the
        system's randomness (`DRAWN_SEED_BITS`); `stored`: the settings of a game file, whose
        seed may be such a drawn one."""
        if not isinstance(data, dict):
            raise RequestError("the request body must be a JSON object")
        if "seats" not in data and set(data) & {"players", "bots"}:
            return cls._parse_old(data, stored)
        unknown = sorted(set(data) - set(START_FIELDS))
        if unknown:
            raise RequestError(f"unknown field {unknown[0]!r} (expected {', '.join(START_FIELDS)})")
        variant = _variant(data.get("variant", ""))
        seats = data.get("seats")
        low, high = players_range(variant)  # SETUP-1 of the rules the game is played under
        if not isinstance(seats, list) or not low <= len(seats) <= high:
            raise RequestError(f'seats must be a list of {low} to {high} seats, each "{PERSON}" or a bot name')
        for name in seats:
            if name != PERSON and name not in BOT_NAMES:
                raise RequestError(f"unknown seat {str(name)[:40]!r}; a seat is {PERSON!r} or a bot: {', '.join(BOT_NAMES)}")
        if PERSON not in seats:
            raise RequestError(f'at least one seat must be "{PERSON}" (a game of bots alone: dreamhome play)')
        return cls(tuple(seats), variant, seed_of(data.get("seed"), stored), _names(data.get("names"), tuple(seats)))

    @classmethod
    def _parse_old(cls, data: dict[str, Any], stored: bool) -> Settings:
        unknown = sorted(set(data) - set(OLD_START_FIELDS))
        if unknown:
            raise RequestError(f"unknown field {unknown[0]!r} (expected {', '.join(OLD_START_FIELDS)})")
        variant = _variant(data.get("variant", ""))
        low, high = players_range(variant)
        players = data.get("players", 2)
        if type(players) is not int or not low <= players <= high:
            raise RequestError(f"players must be a whole number from {low} to {high}")
        bots = data.get("bots", ["greedy"] * (players - 1))
        if not isinstance(bots, list) or len(bots) != players - 1:
            raise RequestError(f"bots must be a list of {players - 1} bot name(s), one per other seat")
        for name in bots:
            if name not in BOT_NAMES:
                raise RequestError(f"unknown bot {str(name)[:40]!r}; known bots: {', '.join(BOT_NAMES)}")
        return cls((PERSON, *bots), variant, seed_of(data.get("seed"), stored))

    def seat_names(self) -> list[str]:
        return list(self.seats)


def _names(names: Any, seats: tuple[str, ...]) -> tuple[str | None, ...]:
    """The persons' names of a start request: a list with one entry per seat (the seats after the
    last may be left out), a name (1 to `MAX_NAME` printable characters, spaces trimmed) or null
    for a person's seat, null for a bot's; no two alike. Why so strict: a name is shown to every
    page and written in the game's record; a control character, a bidirectional override or a
    line break would let one seat disguise itself or another's text (each page still writes it
    as text, never as markup)."""
    if names is None:
        return ()
    if not isinstance(names, list) or len(names) > len(seats):
        raise RequestError(f"names must be a list of at most {len(seats)} entries, one per seat (null for a bot or no name)")
    names = names + [None] * (len(seats) - len(names))  # the seats after the last named need no entry
    out: list[str | None] = []
    for p, (name, kind) in enumerate(zip(names, seats)):
        if name is None or name == "":
            out.append(None)
            continue
        if kind != PERSON:
            raise RequestError(f"seat {p} is a bot's: only a person's seat takes a name")
        text = name.strip() if isinstance(name, str) else ""
        if not 0 < len(text) <= MAX_NAME or not text.isprintable():
            raise RequestError(f"seat {p}'s name must be 1 to {MAX_NAME} printable characters")
        if text in out:
            raise RequestError(f"seat {p}'s name is another seat's too: give each person a name of their own")
        out.append(text)
    return tuple(out) if any(out) else ()


def _variant(variant: Any) -> str:
    variant = "" if variant is None else variant
    if not isinstance(variant, str) or (variant and variant not in variant_catalogue()):
        raise RequestError(f"unknown variant {str(variant)[:40]!r}; known: {', '.join(variant_catalogue())}")
    return variant


def seed_of(seed: Any, stored: bool) -> int:
    """The seed asked for, or one drawn (`DRAWN_SEED_BITS`) when none is (a start request only)."""
    if seed is None and not stored:
        return secrets.randbits(DRAWN_SEED_BITS)
    high = 2**DRAWN_SEED_BITS - 1 if stored else MAX_SEED
    if type(seed) is not int or not 0 <= seed <= high:
        raise RequestError(f"seed must be a whole number from 0 to {high}, or left out to draw one")
    return seed
