"""What a ruleset holds, for people: every card, its numbers, and how sure they are."""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table
from rich.text import Text

from dreamhome.i18n import label, text
from dreamhome.ruleset import HeldCard, Ruleset


def _prov(rules: Ruleset, ident: str, fld: str) -> str:
    ref = rules.provenance.get((ident, fld))
    return ref.provenance if ref else "rulebook"


def _held_card(rules: Ruleset, card: HeldCard) -> dict[str, object]:
    """A helper or tool card: both are held cards with effects."""
    return {
        "id": card.id,
        "name": card.name,
        "names": dict(card.names),
        "count": card.count,
        "effects": [e.describe() for e in card.effects],
        "provenance": _fields_prov(rules, card.id, ("count",)),
    }


def _fields_prov(rules: Ruleset, ident: str, fields: Iterable[str]) -> dict[str, str]:
    return {f: _prov(rules, ident, f) for f in fields if (ident, f) in rules.provenance}


def rules_report(rules: Ruleset) -> dict[str, object]:
    rooms = [
        {
            "id": r.id,
            "name": r.name,
            "names": dict(r.names),
            "category": r.category,
            "points": list(r.points),
            "max_size": r.max_size,
            "bonus": {"points": r.bonus[0], "beside": r.bonus[1]} if r.bonus else None,
            "count": r.count,
            "children": r.children,
            "provenance": _fields_prov(rules, r.id, ("points", "count", "bonus", "children")),
        }
        for r in rules.rooms
    ]
    return {
        "game": {
            "id": rules.game.id,
            "name": rules.game.name,
            "players": [rules.game.min_players, rules.game.max_players],
            "rounds": rules.game.rounds,
            "deal": {"rooms": rules.game.deal_rooms, "resources": rules.game.deal_resources},
        },
        "board": {
            "cells": list(rules.board.cells),
            "floors": [{"name": f.name, "kind": f.kind, "columns": list(f.columns)} for f in rules.board.floors],
        },
        "rooms": rooms,
        "roofs": [
            {
                "id": r.id,
                "name": r.name,
                "names": dict(r.names),
                "count": r.count,
                "windows": r.windows,
                "provenance": _fields_prov(rules, r.id, ("count", "windows")),
            }
            for r in rules.roofs
        ],
        "furnishings": [
            {
                "id": f.id,
                "name": f.name,
                "names": dict(f.names),
                "room": f.room,
                "points": f.points,
                "count": f.count,
                "card": f.is_card,
                "award": f.award,
                "provenance": _fields_prov(rules, f.id, ("room", "outside", "points", "count")),
            }
            for f in rules.furnishings
        ],
        "helpers": [_held_card(rules, c) for c in rules.helpers],
        "tools": [_held_card(rules, c) for c in rules.tools],
        "bonuses": [
            {"id": b.id, "name": b.name, "names": dict(b.names), "points": b.points, "when": b.text} for b in rules.bonuses
        ],
        "roof_scoring": {
            "size": rules.roof_scoring.size,
            "uniform": rules.roof_scoring.uniform,
            "mixed": rules.roof_scoring.mixed,
            "window": rules.roof_scoring.window,
        },
        "options": dict(rules.options),
        "variants_on": list(rules.variants_on),
        "variants_available": dict(rules.variants_available),
        "assumed": [{"id": i, "field": f, "file": ref.file, "line": ref.line} for i, f, ref in rules.assumed_values()],
        "content_hash": rules.content_hash,
    }


def _mark(rules: Ruleset, ident: str, fld: str, value: str) -> Text:
    prov = _prov(rules, ident, fld)
    if prov == "assumed":
        return Text(value + " ?", style="#c9a227")
    if prov == "rulebook":
        return Text(value)
    return Text(value + f" ({prov})", style="cyan")


def _table(title: str, columns: Iterable[str], lang: str) -> Table:
    """A table titled and headed in `lang` (`rules.*` entries: the words of `rules show`)."""
    table = Table(title=Text(title), header_style="bold")
    for col in columns:
        table.add_column(text(f"rules.col.{col}", lang))
    return table


def rules_tables(rules: Ruleset, assumed_only: bool = False, lang: str = "en") -> list[Table | Text]:
    """The ruleset for people, in `lang`: headers and phrases from the catalogue (`rules.*`),
    card names by `Ruleset.card_name` (English where the rules give none), ids as written."""
    if assumed_only:
        table = _table(text("rules.assumed_title", lang, path=rules.path), ("id", "field", "where"), lang)
        for ident, fld, ref in rules.assumed_values():
            table.add_row(ident, fld, Text(f"{ref.file}:{ref.line}"))
        return [table]
    out: list[Table | Text] = []
    g = rules.game
    head = Text(
        text(
            "rules.head",
            lang,
            game=g.name,
            low=g.min_players,
            high=g.max_players,
            rounds=g.rounds,
            rooms=g.deal_rooms,
            resources=g.deal_resources,
        ),
        style="bold",
    )
    head.append("\n" + text("rules.options", lang, options=", ".join(f"{k}={v}" for k, v in rules.options.items())), style="dim")
    on = ", ".join(rules.variants_on) or text("rules.none", lang)
    head.append("\n" + text("rules.variants", lang, on=on, available=", ".join(rules.variants_available)), style="dim")
    head.append("\n" + text("rules.legend", lang), style="dim")
    out.append(head)
    rooms = _table(text("rules.rooms_title", lang), ("id", "name", "category", "points", "bonus", "count", "children"), lang)
    for r in rules.rooms:
        bonus = text("rules.bonus_beside", lang, points=r.bonus[0], room=r.bonus[1]) if r.bonus else ""
        rooms.add_row(
            r.id,
            Text(rules.card_name(r.id, lang)),  # as written: a name is never read as rich markup
            label(f"word.category.{r.category}", r.category, lang),
            _mark(rules, r.id, "points", " / ".join(map(str, r.points))),
            _mark(rules, r.id, "bonus", bonus) if bonus else "",
            _mark(rules, r.id, "count", str(r.count)),
            _mark(rules, r.id, "children", str(r.children)),
        )
    rooms.caption = text("rules.rooms_caption", lang, count=sum(r.count for r in rules.rooms))
    out.append(rooms)
    res = _table(text("rules.resources_title", lang), ("kind", "id", "detail", "count"), lang)
    for roof in rules.roofs:
        res.add_row(
            text("rules.kind.roof", lang),
            roof.id,
            _mark(rules, roof.id, "windows", text("rules.windows", lang, count=roof.windows)),
            _mark(rules, roof.id, "count", str(roof.count)),
        )
    for f in rules.furnishings:
        where = text("rules.in_room", lang, room=f.room) if f.room else text("rules.outside", lang)
        kind = text("rules.kind.furnishing" if f.is_card else "rules.kind.token", lang)
        res.add_row(
            kind,
            f.id,
            Text.assemble(
                _mark(rules, f.id, "room" if f.room else "outside", where),
                ", ",
                _mark(rules, f.id, "points", text("rules.points", lang, points=f.points)),
            ),
            _mark(rules, f.id, "count", str(f.count)),
        )
    for c in rules.helpers + rules.tools:
        kind = label(f"rules.kind.{c.kind}", c.kind, lang)
        res.add_row(kind, c.id, "; ".join(e.describe() for e in c.effects), _mark(rules, c.id, "count", str(c.count)))
    out.append(res)
    scoring = _table(text("rules.scoring_title", lang), ("term", "points_short", "when"), lang)
    for b in rules.bonuses:
        scoring.add_row(Text(rules.card_name(b.id, lang)), str(b.points), Text(b.text))
    rs = rules.roof_scoring
    scoring.add_row(
        text("rules.roof", lang),
        text("rules.roof_points", lang, uniform=rs.uniform, mixed=rs.mixed, window=rs.window),
        text("rules.roof_when", lang, size=rs.size),
    )
    out.append(scoring)
    return out
