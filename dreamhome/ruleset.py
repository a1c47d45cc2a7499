"""The compiled rules: one immutable value that every query reads.

Cell codes used by houses and the hot paths:
EMPTY (an empty space), SCAFFOLD, FACE_DOWN (an empty room, PLACE-EMPTY) and
ROOM0 + i for face-up room type i of `Ruleset.rooms`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from dreamhome.board import Board
from dreamhome.codes import EMPTY as EMPTY  # the cell codes, read from here by most of the package
from dreamhome.codes import FACE_DOWN as FACE_DOWN
from dreamhome.codes import ROOM0
from dreamhome.codes import SCAFFOLD as SCAFFOLD
from dreamhome.errors import Diagnostic
from dreamhome.i18n import CardName

if TYPE_CHECKING:
    from dreamhome.tables import Tables

DEFAULT_ROOF_COLOUR = "#9e9e9e"  # a roof colour a rules file does not say how to draw


def fold_name(text: str) -> str:
    """A card's id or name as lookups compare it: NFKC-normalised, case-folded, `_` and runs of
    white space as one space, and `ё` as `е` (Russian print often drops the dots), so `Tree
    house`, `tree_house` and `TREE  HOUSE` fold alike."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")
    return " ".join(text.replace("_", " ").split())


@dataclass(frozen=True)
class SourceRef:
    """Where a value was declared, and how sure its source is."""

    file: str
    line: int
    column: int
    provenance: str


@dataclass(frozen=True)
class GameSpec:
    id: str
    name: str
    min_players: int
    max_players: int
    rounds: int
    deal_rooms: int
    deal_resources: int
    discard_players: tuple[int, int] | None = None  # ROUND-1: the player counts that discard a column

    def discards_at_round_start(self, players: int) -> bool:
        """ROUND-1: after the deal, the first player discards a column at these player counts
        (the option `round_discard` can still switch it off, VAR-NODISCARD)."""
        return self.discard_players is not None and self.discard_players[0] <= players <= self.discard_players[1]


@dataclass(frozen=True)
class RoomType:
    id: str
    name: str
    category: str
    floor_kind: str
    points: tuple[int, ...]  # PLACE-C: the maximum size is its length
    count: int
    children: int
    bonus: tuple[int, str] | None  # (value, room id beside it), SCORE-ROOMS
    index: int
    names: tuple[tuple[str, str], ...] = ()  # (language, name) pairs, English first (docs/language.md, names)
    genders: tuple[tuple[str, str], ...] = ()  # (language, gender) pairs of the names given one

    @property
    def code(self) -> int:
        return ROOM0 + self.index

    @property
    def max_size(self) -> int:
        return len(self.points)


@dataclass(frozen=True)
class RoofType:
    id: str  # the colour
    name: str
    count: int
    windows: int  # how many of `count` carry a window
    index: int
    colour: str = DEFAULT_ROOF_COLOUR  # how pictures draw it (#rrggbb); no rule reads it
    names: tuple[tuple[str, str], ...] = ()  # (language, name) pairs, English first (docs/language.md, names)
    genders: tuple[tuple[str, str], ...] = ()  # (language, gender) pairs of the names given one


@dataclass(frozen=True)
class Furnishing:
    """A furnishing token (RES-FURN), or a card-less token a variant awards (VAR-CAR)."""

    id: str
    name: str
    room: str | None  # None: placed outside the house (FURN-TYPE)
    points: int
    count: int
    award: str | None  # how a card-less token is earned ("first_complete")
    is_card: bool  # dealt as a resource card
    index: int
    names: tuple[tuple[str, str], ...] = ()  # (language, name) pairs, English first (docs/language.md, names)
    genders: tuple[tuple[str, str], ...] = ()  # (language, gender) pairs of the names given one

    @property
    def code(self) -> int:
        return self.index + 1

    @property
    def outside(self) -> bool:
        return self.room is None


@dataclass(frozen=True)
class Effect:
    name: str
    args: tuple[tuple[str, int | None], ...]
    timing: str | None
    flags: frozenset[str]
    uses: int

    def places(self) -> tuple[str, ...]:
        return tuple(a for a, _ in self.args)

    def amount(self, keyword: str) -> int:
        return sum(v or 0 for a, v in self.args if a == keyword)

    def describe(self) -> str:
        args = ", ".join(a if v is None else f"{a} {v}" for a, v in self.args)
        text = self.name + (f"({args})" if self.args else "")
        if self.timing:
            text += f" at {self.timing}"
        text += "".join(f" {f}" for f in sorted(self.flags))
        if self.uses != 1:
            text += f" uses {self.uses}"
        return text


@dataclass(frozen=True)
class HeldCard:
    """A helper or tool card (RES-HELPER, RES-TOOL)."""

    id: str
    name: str
    kind: str  # "helper" or "tool"
    count: int
    effects: tuple[Effect, ...]
    names: tuple[tuple[str, str], ...] = ()  # (language, name) pairs, English first (docs/language.md, names)
    genders: tuple[tuple[str, str], ...] = ()  # (language, gender) pairs of the names given one

    def effect(self, name: str) -> Effect | None:
        return next((e for e in self.effects if e.name == name), None)


@dataclass(frozen=True)
class Clause:
    """Some face-up card of `room` stands on one of `floors`."""

    room: str
    floors: tuple[str, ...]


@dataclass(frozen=True)
class Bonus:
    """A functionality bonus (SCORE-FUNC-*): all clauses must hold."""

    id: str
    name: str
    points: int
    clauses: tuple[Clause, ...]
    text: str
    names: tuple[tuple[str, str], ...] = ()  # (language, name) pairs, English first (docs/language.md, names)
    genders: tuple[tuple[str, str], ...] = ()  # (language, gender) pairs of the names given one


@dataclass(frozen=True)
class RoofScoring:
    size: int
    uniform: int
    mixed: int
    window: int


@dataclass(frozen=True)
class Ruleset:
    game: GameSpec
    board: Board
    rooms: tuple[RoomType, ...]
    roofs: tuple[RoofType, ...]
    furnishings: tuple[Furnishing, ...]
    helpers: tuple[HeldCard, ...]
    tools: tuple[HeldCard, ...]
    bonuses: tuple[Bonus, ...]
    roof_scoring: RoofScoring
    options: Mapping[str, str]
    variants_on: tuple[str, ...]
    variants_available: Mapping[str, str]
    provenance: Mapping[tuple[str, str], SourceRef] = field(compare=False, repr=False)
    source: str = field(compare=False, repr=False, default="")
    content_hash: str = ""
    warnings: tuple[Diagnostic, ...] = field(compare=False, default=())
    path: str = ""
    # A variant block's title in other languages ((lang, title) pairs): dreamhome/variant_menu.py.
    variant_titles: Mapping[str, tuple[tuple[str, str], ...]] = field(compare=False, default_factory=lambda: MappingProxyType({}))

    # ---- derived once, on first use -----------------------------------
    # cached_property writes to the instance's __dict__ directly, so a frozen value can cache them.
    @cached_property
    def tables(self) -> Tables:
        """The flat index tables the hot paths read (tables.py)."""
        from dreamhome.tables import build_tables  # derived once; avoids an import cycle

        return build_tables(self)

    @cached_property
    def _by_id(self) -> dict[str, Any]:
        lookup: dict[str, Any] = {}
        for group in (self.rooms, self.roofs, self.furnishings, self.helpers, self.tools, self.bonuses):
            for item in group:
                lookup[item.id] = item
        return lookup

    @cached_property
    def _by_name(self) -> dict[str, tuple[str, ...]]:
        """Every card's and bonus's id and names in every language, folded (`fold_name`), to its ids."""
        lookup: dict[str, dict[str, None]] = {}
        for ident, item in self._by_id.items():
            for text in (ident, *(name for _lang, name in item.names)):
                lookup.setdefault(fold_name(text), {})[ident] = None
        return {key: tuple(ids) for key, ids in lookup.items()}

    @cached_property
    def _room_by_id(self) -> dict[str, RoomType]:
        return {r.id: r for r in self.rooms}

    @cached_property
    def _roof_by_id(self) -> dict[str, RoofType]:
        return {r.id: r for r in self.roofs}

    @cached_property
    def _furn_by_id(self) -> dict[str, Furnishing]:
        return {f.id: f for f in self.furnishings}

    @cached_property
    def _held_by_id(self) -> dict[str, HeldCard]:
        return {c.id: c for c in self.helpers + self.tools}

    # ---- pickling: mapping proxies become dicts on the way out and proxies again on the way in,
    # and derived caches are rebuilt rather than shipped (a Ruleset goes to process pools and Ray).
    _PROXIED = ("options", "variants_available", "variant_titles", "provenance")

    def __getstate__(self) -> dict[str, Any]:
        names = [f for f in self.__dataclass_fields__]
        return {name: dict(v) if isinstance(v := getattr(self, name), MappingProxyType) else v for name in names}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            if name in self._PROXIED and isinstance(value, dict):
                value = MappingProxyType(value)
            object.__setattr__(self, name, value)

    # ---- lookups -----------------------------------------------------
    def item(self, ident: str) -> Any:
        return self._by_id.get(ident)

    def card_name(self, ident: str, lang: str = "en") -> str:
        """The name of card (or bonus) `ident` in `lang`, as the rulebook of that language prints
        it where base.dh has it; English where the rules give no name in `lang`; the id itself
        for an id the rules do not know (a message must still say something). A `CardName`:
        the catalogue's sentences agree with its gender in `lang` (dreamhome/i18n.py)."""
        item = self._by_id.get(ident)
        if item is None:
            return ident
        names = dict(item.names)
        if names.get(lang):
            return CardName(names[lang], dict(item.genders).get(lang))
        return CardName(str(names.get("en") or item.name))

    def card_gender(self, ident: str, lang: str) -> str | None:
        """The grammatical gender of card `ident`'s name in `lang` (`name LANG "…" GENDER`),
        None where the rules give none; `card_name` carries it too (`CardName.gender`)."""
        item = self._by_id.get(ident)
        return dict(item.genders).get(lang) if item is not None else None

    def find_cards(self, text: str) -> tuple[str, ...]:
        """The ids whose id or name in any language is `text`, compared case-insensitively after
        Unicode normalisation (`fold_name`): a player types a card as their rulebook prints it."""
        if text.strip() in self._by_id:  # an id always means itself, even if another card is named so
            return (text.strip(),)
        return self._by_name.get(fold_name(text), ())

    def find_card(self, text: str) -> str | None:
        """`find_cards` when it names exactly one card, else None (unknown or ambiguous)."""
        found = self.find_cards(text)
        return found[0] if len(found) == 1 else None

    def room(self, ident: str) -> RoomType:
        return self._room_by_id[ident]

    def has_room(self, ident: str) -> bool:
        return ident in self._room_by_id

    def roof(self, ident: str) -> RoofType:
        return self._roof_by_id[ident]

    def has_roof(self, ident: str) -> bool:
        return ident in self._roof_by_id

    def furnishing(self, ident: str) -> Furnishing:
        return self._furn_by_id[ident]

    def has_furnishing(self, ident: str) -> bool:
        return ident in self._furn_by_id

    def held(self, ident: str) -> HeldCard:
        return self._held_by_id[ident]

    def has_held(self, ident: str, kind: str | None = None) -> bool:
        card = self._held_by_id.get(ident)
        return card is not None and (kind is None or card.kind == kind)

    def room_of_code(self, code: int) -> RoomType:
        return self.rooms[code - ROOM0]

    def ids(self, kind: str) -> tuple[str, ...]:
        groups: dict[str, Sequence[RoomType | RoofType | Furnishing | HeldCard]] = {
            "room": self.rooms,
            "roof": self.roofs,
            "furnishing": self.furnishings,
            "helper": self.helpers,
            "tool": self.tools,
        }
        return tuple(x.id for x in groups[kind])

    def cards_with_effect(self, name: str, kind: str | None = None) -> tuple[HeldCard, ...]:
        """Helpers/tools whose compiled effects include `name` (engine code never names cards)."""
        return tuple(c for c in self.helpers + self.tools if c.effect(name) is not None and (kind is None or c.kind == kind))

    def effect_card_name(self, effect: str, default: str, lang: str = "en") -> str:
        """The name (lower case, in `lang`) of the first card whose effect is `effect`, for messages
        and pictures that must name it the way the rules file does; `default` when no card has it."""
        cards = self.cards_with_effect(effect)
        return self.card_name(cards[0].id, lang).lower() if cards else default

    def option(self, name: str) -> str:
        return self.options[name]

    def assumed_values(self) -> list[tuple[str, str, SourceRef]]:
        """The rule values marked @assumed. A card's names (`name:LANG`) are left out: they change
        no rule, and whether a translation is ours is read from `provenance` itself."""
        return sorted(
            (
                (ident, fld, ref)
                for (ident, fld), ref in self.provenance.items()
                if ref.provenance == "assumed" and not fld.startswith("name:")
            ),
            key=lambda t: (t[2].file, t[2].line),
        )
