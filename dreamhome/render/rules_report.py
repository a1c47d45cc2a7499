"""What a ruleset holds, for people: every card, its numbers, and how sure they are."""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table
from rich.text import Text

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


def rules_tables(rules: Ruleset, assumed_only: bool = False, lang: str = "en") -> list[Table | Text]:
    """The ruleset for people; card names in `lang` (`Ruleset.card_name`), English where it has none."""
    if assumed_only:
        table = Table(title=Text(f"Assumed values in {rules.path}"), header_style="bold")
        for col in ("id", "field", "where"):
            table.add_column(col)
        for ident, fld, ref in rules.assumed_values():
            table.add_row(ident, fld, Text(f"{ref.file}:{ref.line}"))
        return [table]
    out: list[Table | Text] = []
    g = rules.game
    head = Text(
        f"{g.name}: {g.min_players}–{g.max_players} players, {g.rounds} rounds, "
        f"deal {g.deal_rooms} rooms + {g.deal_resources} resources",
        style="bold",
    )
    head.append(f"\noptions: {', '.join(f'{k}={v}' for k, v in rules.options.items())}", style="dim")
    head.append(
        f"\nvariants on: {', '.join(rules.variants_on) or 'none'}; available: {', '.join(rules.variants_available)}", style="dim"
    )
    head.append("\nvalues marked ? are assumed (not found in any rulebook); (x) names another source", style="dim")
    out.append(head)
    rooms = Table(title="Room cards", header_style="bold")
    for col in ("id", "name", "category", "points by size", "bonus", "count", "children"):
        rooms.add_column(col)
    for r in rules.rooms:
        bonus = f"{r.bonus[0]} beside {r.bonus[1]}" if r.bonus else ""
        rooms.add_row(
            r.id,
            Text(rules.card_name(r.id, lang)),  # as written: a name is never read as rich markup
            r.category,
            _mark(rules, r.id, "points", " / ".join(map(str, r.points))),
            _mark(rules, r.id, "bonus", bonus) if bonus else "",
            _mark(rules, r.id, "count", str(r.count)),
            _mark(rules, r.id, "children", str(r.children)),
        )
    rooms.caption = f"{sum(r.count for r in rules.rooms)} room cards"
    out.append(rooms)
    res = Table(title="Resource cards", header_style="bold")
    for col in ("kind", "id", "detail", "count"):
        res.add_column(col)
    for roof in rules.roofs:
        res.add_row(
            "roof",
            roof.id,
            _mark(rules, roof.id, "windows", f"{roof.windows} with a window"),
            _mark(rules, roof.id, "count", str(roof.count)),
        )
    for f in rules.furnishings:
        where = f"in {f.room}" if f.room else "outside"
        kind = "furnishing" if f.is_card else "token"
        res.add_row(
            kind,
            f.id,
            Text.assemble(
                _mark(rules, f.id, "room" if f.room else "outside", where), ", ", _mark(rules, f.id, "points", f"{f.points} pts")
            ),
            _mark(rules, f.id, "count", str(f.count)),
        )
    for c in rules.helpers + rules.tools:
        res.add_row(c.kind, c.id, "; ".join(e.describe() for e in c.effects), _mark(rules, c.id, "count", str(c.count)))
    out.append(res)
    scoring = Table(title="Scoring", header_style="bold")
    scoring.add_column("term")
    scoring.add_column("points")
    scoring.add_column("when")
    for b in rules.bonuses:
        scoring.add_row(Text(rules.card_name(b.id, lang)), str(b.points), Text(b.text))
    rs = rules.roof_scoring
    scoring.add_row(
        "Roof", f"{rs.uniform} / {rs.mixed} + {rs.window} per window", f"{rs.size} cards chosen: all one colour / mixed"
    )
    out.append(scoring)
    return out
