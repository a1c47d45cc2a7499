"""The card builders, one per declaration kind: rooms, roofs, furnishings and tokens,
helpers and tools (their effects compiled by `effects`), and bonuses. Each checks its card
against the others it names (a room reference must be a declared room) and appends its
typed record; a card's index is its place in its kind's list."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

from dreamhome.board import Board
from dreamhome.dsl.ast import Condition, EffectSpec, Pos
from dreamhome.dsl.compile.builders import Provenance, note
from dreamhome.dsl.compile.checks import KIND_WORDS, Names, check_count, check_points, require, suggest
from dreamhome.dsl.compile.declarations import SINGLETONS, Merged, as_int, as_ints, as_ref, card_names
from dreamhome.dsl.compile.diagnostics import Diagnostics
from dreamhome.dsl.compile.effects import compile_effect
from dreamhome.ruleset import DEFAULT_ROOF_COLOUR, Bonus, Clause, Furnishing, HeldCard, RoofType, RoomType
from dreamhome.vocabulary import (
    AWARDS,
    BONUS_CATEGORIES,
    CARD_KIND_EFFECTS,
    CARD_KIND_REFUSALS,
    CATEGORY_FLOOR_KIND,
    EFFECTS,
    FLOOR_KINDS,
)

_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass(frozen=True)
class Scope:
    """What the card builders look up: the merged declarations, the board, and
    the room ids as a set, so that each reference is checked in constant time."""

    decls: Mapping[str, Merged]
    board: Board | None
    floor_kinds: frozenset[str]
    room_ids: frozenset[str]
    room_names: Names


def scope_of(decls: Mapping[str, Merged], board: Board | None) -> Scope:
    """Everything a card may refer to, gathered once before the cards are built."""
    room_ids = [k for k, d in decls.items() if d.kind == "room"]
    floor_kinds = frozenset(fl.kind for fl in board.floors) if board else frozenset(FLOOR_KINDS)
    return Scope(decls, board, floor_kinds, frozenset(room_ids), Names(room_ids))


@dataclass
class Cards:
    """The records built so far, each list in declaration order (its index is the card's)."""

    rooms: list[RoomType] = field(default_factory=list)
    roofs: list[RoofType] = field(default_factory=list)
    furnishings: list[Furnishing] = field(default_factory=list)
    helpers: list[HeldCard] = field(default_factory=list)
    tools: list[HeldCard] = field(default_factory=list)
    bonuses: list[Bonus] = field(default_factory=list)


CardBuilder = Callable[[Diagnostics, str, Merged, Scope, Cards], None]


def build_cards(report: Diagnostics, scope: Scope, provenance: Provenance) -> Cards:
    """Every card and bonus in declaration order, each by the builder of its kind."""
    cards = Cards()
    for ident, merged in scope.decls.items():
        if merged.kind in SINGLETONS:
            continue
        note(ident, merged, provenance)
        if not require(report, merged):
            continue
        builder = CARD_BUILDERS.get(merged.kind)
        if builder is not None:
            builder(report, ident, merged, scope, cards)
    return cards


def check_room_ref(report: Diagnostics, name: str, pos: Pos, scope: Scope) -> bool:
    """A name used as a room (annex bonus, furnishing, bonus clause) must be a declared room."""
    if name in scope.room_ids:
        return True
    other = scope.decls.get(name)
    if other is not None:
        report.error(pos, f"'{name}' is {KIND_WORDS.get(other.kind, other.kind)}, not a room")
    else:
        report.error(pos, f"unknown room '{name}'" + scope.room_names.suggest(name))
    return False


def build_room(report: Diagnostics, ident: str, merged: Merged, scope: Scope, cards: Cards) -> None:
    """A room type: its category picks the floor kind (PLACE-B), its points table
    the maximum size (PLACE-C), an annex its bonus beside another room (SCORE-ROOMS)."""
    f = merged.fields
    category = cast(str, f["category"].value)
    if category not in CATEGORY_FLOOR_KIND:
        report.error(
            f["category"].pos,
            f"unknown category '{category}'; expected one of "
            + ", ".join(CATEGORY_FLOOR_KIND)
            + suggest(category, CATEGORY_FLOOR_KIND),
        )
        return
    points = as_ints(f["points"])
    check_points(report, f["points"], points)
    if CATEGORY_FLOOR_KIND[category] not in scope.floor_kinds:
        report.error(f["category"].pos, f"no floor of the board takes {category} rooms")
    bonus = None
    if "bonus" in f:
        value, target, tpos = cast("tuple[int, str, Pos]", f["bonus"].value)
        if category not in BONUS_CATEGORIES:
            # SCORE-ROOMS: only an annex scores a bonus; name the field written last (an override
            # of either the category or the bonus is where the conflict was made).
            last = [name for name in f if name in ("category", "bonus")][-1]
            report.error(
                f[last].pos,
                f"a {category} room has no bonus: only an annex scores 'bonus N beside ROOM' (SCORE-ROOMS)",
            )
        elif value < 0:
            report.error(f["bonus"].pos, "a bonus cannot be negative (SCORE-ROOMS: like points)")
        elif check_room_ref(report, target, tpos, scope):
            bonus = (value, target)
    children = as_int(f["children"]) if "children" in f else 0
    check_count(report, f["count"])
    english, names, genders = card_names(ident, merged)
    room = RoomType(
        ident,
        english,
        category,
        CATEGORY_FLOOR_KIND[category],
        points,
        as_int(f["count"]),
        children,
        bonus,
        len(cards.rooms),
        names,
        genders,
    )
    cards.rooms.append(room)


def build_roof(report: Diagnostics, ident: str, merged: Merged, scope: Scope, cards: Cards) -> None:
    """A roof colour: its cards and how many carry a window (SCORE-ROOF)."""
    f = merged.fields
    check_count(report, f["count"])
    count = as_int(f["count"])
    windows = as_int(f["windows"]) if "windows" in f else 0
    if "windows" in f and (windows < 0 or windows > max(count, 0)):  # a negative count is reported above
        report.error(f["windows"].pos, f"windows must be between 0 and the count ({count})")
    colour = cast(str, f["colour"].value) if "colour" in f else DEFAULT_ROOF_COLOUR
    if not _COLOUR.fullmatch(colour):
        report.error(f["colour"].pos, f'colour {colour!r} is not a colour; write it as "#rrggbb"')
    english, names, genders = card_names(ident, merged)
    cards.roofs.append(RoofType(ident, english, count, windows, len(cards.roofs), colour, names, genders))


def build_token(report: Diagnostics, ident: str, merged: Merged, scope: Scope, cards: Cards) -> None:
    """A furnishing (a resource card, RES-FURN) or a card-less token (VAR-CAR):
    in one room type or outside the house (FURN-TYPE), one points value."""
    f = merged.fields
    room = None
    if ("room" in f) == ("outside" in f):
        report.error(merged.pos, f"'{ident}' needs exactly one of 'room ROOM' or 'outside'")
        return
    if "room" in f:
        room, rpos = as_ref(f["room"])
        if not check_room_ref(report, room, rpos, scope):
            return
    award = None
    if "award" in f:
        award, apos = as_ref(f["award"])
        if award not in AWARDS:
            report.error(apos, f"unknown award '{award}'; expected one of {', '.join(AWARDS)}")
    points = as_ints(f["points"])
    if len(points) != 1:
        report.error(f["points"].pos, "a token has one points value")
    if points[0] < 0:
        report.error(f["points"].pos, "points cannot be negative")
    count = as_int(f["count"]) if "count" in f else 1
    if "count" in f:
        check_count(report, f["count"])
    is_card = merged.kind == "furnishing"
    english, names, genders = card_names(ident, merged)
    index = len(cards.furnishings)
    cards.furnishings.append(Furnishing(ident, english, room, points[0], count, award, is_card, index, names, genders))


def build_held(report: Diagnostics, ident: str, merged: Merged, scope: Scope, cards: Cards) -> None:
    """A helper or tool card and its compiled effects (RES-HELPER, RES-TOOL)."""
    f = merged.fields
    check_count(report, f["count"])
    specs = cast("tuple[EffectSpec, ...]", f["effect"].value)
    effects = tuple(e for e in (compile_effect(report, spec) for spec in specs) if e)
    for spec in specs:  # RES-EFFECTS: compile_effect does not know the card's kind; check it here
        if spec.name in EFFECTS and spec.name not in CARD_KIND_EFFECTS[merged.kind]:
            why = CARD_KIND_REFUSALS.get((merged.kind, spec.name), "see docs/language.md (RES-EFFECTS)")
            report.error(spec.pos, f"{spec.name} on {KIND_WORDS[merged.kind]}: {why}")
    effects = tuple(e for e in effects if e.name in CARD_KIND_EFFECTS[merged.kind])
    english, names, genders = card_names(ident, merged)
    card = HeldCard(ident, english, merged.kind, as_int(f["count"]), effects, names, genders)
    (cards.helpers if merged.kind == "helper" else cards.tools).append(card)


def build_bonus(report: Diagnostics, ident: str, merged: Merged, scope: Scope, cards: Cards) -> None:
    """A functionality bonus: clauses over rooms and floors (SCORE-FUNC-*)."""
    f = merged.fields
    points = as_ints(f["points"])
    if len(points) != 1:
        report.error(f["points"].pos, "a bonus has one points value")
    conditions = cast("tuple[Condition, ...]", f["when"].value)
    clauses: list[Clause] = []
    for cond in conditions:
        if check_room_ref(report, cond.room, cond.pos, scope):
            clauses.extend(clauses_of(report, cond, scope))
    english, names, genders = card_names(ident, merged)
    cards.bonuses.append(Bonus(ident, english, points[0], tuple(clauses), describe_when(conditions), names, genders))


def clauses_of(report: Diagnostics, cond: Condition, scope: Scope) -> list[Clause]:
    """`has ROOM`: one clause over every floor; `every KIND floor has ROOM`: one per floor of that kind."""
    board = scope.board
    if cond.scope is None:
        return [Clause(cond.room, tuple(fl.name for fl in board.floors) if board else ())]
    if cond.scope not in scope.floor_kinds:
        report.error(cond.pos, f"no floor of kind '{cond.scope}'; expected one of " + ", ".join(sorted(scope.floor_kinds)))
        return []
    if board is None:
        return []
    return [Clause(cond.room, (fl.name,)) for fl in board.floors if fl.kind == cond.scope]


def describe_when(conditions: Sequence[Condition]) -> str:
    """The bonus's condition in words, for reports and explanations."""
    parts = []
    for c in conditions:
        parts.append(f"every {c.scope} floor has {c.room}" if c.scope else f"has {c.room}")
    return " and ".join(parts)


CARD_BUILDERS: dict[str, CardBuilder] = {
    "room": build_room,
    "roof": build_roof,
    "furnishing": build_token,
    "token": build_token,
    "helper": build_held,
    "tool": build_held,
    "bonus": build_bonus,
}
"""The builder of each card kind (`build_cards` dispatches on the declaration's kind)."""
