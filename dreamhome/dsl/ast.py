"""The parsed form of a rules file: declarations with their source positions.

The AST stays close to the text (one node per declaration, one field per line
item) so that the compiler can merge overrides field by field and point every
error at the exact place it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pos:
    file: str
    line: int
    column: int


@dataclass(frozen=True)
class EffectSpec:
    """`effect NAME(args) flags`: one call into the engine's effect vocabulary."""

    name: str
    args: tuple[tuple[str, int | None], ...]
    timing: str | None
    flags: tuple[tuple[str, Pos], ...]
    uses: int | None
    pos: Pos
    repeats: tuple[tuple[str, Pos], ...] = ()
    """Words given more than once in this effect (`uses 2 uses 3`, `skip_turn skip_turn`), each at
    its second writing: the compiler refuses them as it refuses a field given twice."""


@dataclass(frozen=True)
class Condition:
    """`has ROOM` (scope None) or `every FLOORKIND floor has ROOM`."""

    room: str
    scope: str | None
    pos: Pos


NAME_FIELD = "name:"
"""The key of a `name LANG "text"` field is `name:LANG` (value: a `NameValue`), so that a later
declaration overrides one language's name and keeps the others (field-wise override)."""


GENDERS = ("masculine", "feminine", "neuter", "plural")
"""The grammatical genders a name may carry (`name fr "Cuisine" feminine`); `plural` is for a
name that is grammatically plural (Russian "Строительные леса"). Which a language takes is
`dreamhome.i18n.GENDERS`."""


@dataclass(frozen=True)
class NameValue:
    """`name LANG "text" [GENDER]`: the language, the name, and the gender its language's
    sentences agree with (None: not given), with where LANG and GENDER are written."""

    lang: str
    text: str
    lang_pos: Pos
    gender: str | None = None
    gender_pos: Pos | None = None


@dataclass(frozen=True)
class Field:
    name: str
    value: object
    provenance: str | None
    pos: Pos


@dataclass(frozen=True)
class Decl:
    """A `game`, `board`, `roof_scoring`, card (`room`, `roof`, …) or `bonus` block."""

    kind: str
    id: str | None
    name: str | None
    fields: tuple[Field, ...]
    pos: Pos


@dataclass(frozen=True)
class Include:
    path: str
    pos: Pos
    start: int
    end: int


@dataclass(frozen=True)
class Inlined:
    """The text of an included file, expanded in place: its own file for duplicate checks."""

    path: str
    items: tuple[Item, ...]
    pos: Pos


@dataclass(frozen=True)
class OptionDecl:
    name: str
    value: str | int
    pos: Pos


@dataclass(frozen=True)
class VariantDecl:
    id: str
    name: str | None
    items: tuple[VariantItem, ...]
    pos: Pos
    names: tuple[Field, ...] = ()
    """The block's `name LANG "…"` fields: its title in other languages, for the variant menus."""


@dataclass(frozen=True)
class RulesFile:
    path: str
    text: str
    items: tuple[Item, ...]


# What a variant may hold: declarations and options (the grammar's _variant_item).
VariantItem = Decl | OptionDecl
# One top-level item of a rules file (the grammar's _item).
Item = Decl | OptionDecl | VariantDecl | Include | Inlined
