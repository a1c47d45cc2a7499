"""The declarations of a compile after merging, and typed views of their field values.

The parser gives each field name one shape (parser.py, `_ToAst`); the views below name that
shape for the type checker in one place instead of at every use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from dreamhome.dsl.ast import NAME_FIELD, Field, NameValue, OptionDecl, Pos, VariantDecl
from dreamhome.i18n import LANGUAGES

SINGLETONS = ("game", "board", "roof_scoring")


@dataclass
class Merged:
    """One id's declarations so far: fields by name, a later declaration's replacing the earlier's."""

    kind: str
    id: str | None
    name: str | None
    fields: dict[str, Field]
    pos: Pos


@dataclass
class State:
    """All files merged in order: declarations by id (singletons by kind), options, and
    variants with the file that declares them (their items merge only when turned on)."""

    decls: dict[str, Merged] = field(default_factory=dict)
    options: dict[str, OptionDecl] = field(default_factory=dict)
    variants: dict[str, tuple[VariantDecl, str]] = field(default_factory=dict)


def decl_key(kind: str, ident: str | None) -> str:
    """The key a declaration merges under: its kind for a singleton (or an id-less block), else its id."""
    return kind if kind in SINGLETONS or ident is None else ident


# ---- typed views of field values ---------------------------------------


def as_int(fld: Field) -> int:
    return cast(int, fld.value)


def as_ints(fld: Field) -> tuple[int, ...]:
    return cast("tuple[int, ...]", fld.value)


def as_pair(fld: Field) -> tuple[int, int]:
    return cast("tuple[int, int]", fld.value)


def as_ref(fld: Field) -> tuple[str, Pos]:
    """`room ROOM`, `award NAME`: the name and where it is written."""
    return cast("tuple[str, Pos]", fld.value)


def as_span(fld: Field) -> tuple[str, int, int]:
    """`floor NAME KIND columns LO..HI`, `roof_pile under FLOOR columns LO..HI`."""
    return cast("tuple[str, int, int]", fld.value)


def label(name: str) -> str:
    """How a field reads in a message: `name ru` for a name field, `top` for `floor top`."""
    if name.startswith(NAME_FIELD):
        return "name " + name[len(NAME_FIELD) :]
    return name.split(":")[-1]


def card_names(ident: str, merged: Merged) -> tuple[str, tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """The English name (`name en`, else the title string, else the id), every language's
    name in LANGUAGES order, and the genders given with them (`name fr "Cuisine" feminine`).
    A language without a name is left out: `Ruleset.card_name` falls back to English for it."""
    given = {
        cast(NameValue, fld.value).lang: cast(NameValue, fld.value)
        for key, fld in merged.fields.items()
        if key.startswith(NAME_FIELD)
    }
    english = given["en"].text if "en" in given else (merged.name or ident)
    names = tuple((lang, english if lang == "en" else given[lang].text) for lang in LANGUAGES if lang in given or lang == "en")
    genders = tuple((lang, g) for lang in LANGUAGES if lang in given and (g := given[lang].gender) is not None)
    return english, names, genders
