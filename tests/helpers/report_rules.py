"""A short ruleset for the balance report's tests of its machinery (executors, chunks, resume),
where what is checked does not depend on the game played, only on every kind of condition
being there: the base game cut to 4 rounds and 8 card types (3 rooms, 2 roofs, a furnishing,
a helper, a tool), so a report of it has self-play, a ladder and restricted play on a handful
of conditions whose games cost a fifth of a base game's, instead of 37 card types of 12 rounds.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers.rules import compiled

KEPT = {
    "room:living_room",
    "room:bedroom",
    "room:kitchen",
    "roof:red",
    "roof:blue",
    "furnishing:piano",
    "helper:handyman",
    "tool:drill",
}
"""The card types left in the decks: 23 rooms and 16 resources for the 4 × 5 rooms and 4 × 4
resources the short game deals (COMP-1, COMP-3)."""


def short_rules(folder: Path) -> Path:
    """The short ruleset written to `folder` (it includes the packaged base.dh), its path: every
    card type of the base decks but those of KEPT at count 0, read from the compiled base rules."""
    base = compiled()
    decks = [("room", r) for r in base.rooms] + [("roof", r) for r in base.roofs] + [("helper", h) for h in base.helpers]
    decks += [("furnishing", f) for f in base.furnishings if f.is_card] + [("tool", t) for t in base.tools]
    lines = ['include "base.dh"', "game dream_home { rounds 4 }  # ROUND-6, shortened"]
    for kind, card in decks:
        if card.count and f"{kind}:{card.id}" not in KEPT:
            windows = "  windows 0" if kind == "roof" else ""  # a roof's windows are at most its count
            lines.append(f"{kind} {card.id} {{ count 0{windows} }}  # COMP-*: not in the game")
    path = folder / "report_short.dh"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
