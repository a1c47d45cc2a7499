"""Scoring (SCORE-*): three readings of one final score, built from the rule areas of engine/.

`score_components` is the hot path for games and solvers, `score_house`
explains every point line by line, and `add_final_score` states the same score
as CP-SAT terms for `optimize` and `place`. Each rule area — rooms and annexes
(engine/rooms.py), tokens (engine/furnishings.py), functionality bonuses
(engine/functionality.py), the roof (engine/roof.py), helpers' amounts
(engine/helpers.py) — is written once there; this module only composes. The
tests check that the three readings agree on random houses under random variants.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dreamhome.engine.functionality import add_functionality, bonuses_met, floor_masks, functionality_points
from dreamhome.engine.furnishings import add_tokens, outside_points, token_points
from dreamhome.engine.helpers import NONE as NO_HELPERS
from dreamhome.engine.helpers import empty_room_points, helper_amounts
from dreamhome.engine.roof import best_roof_choice, best_roof_points
from dreamhome.engine.rooms import add_annex_points, add_max_size, add_room_points, house_rooms, rooms_of, rooms_value
from dreamhome.errors import DreamhomeError
from dreamhome.house import House
from dreamhome.legality import Violation, final_state_violations, summarize_violations
from dreamhome.ruleset import FACE_DOWN, ROOM0, Ruleset

if TYPE_CHECKING:
    from dreamhome.engine.cpsat import HouseModel, Stage

COMPONENTS = ("rooms", "furnishings", "functionality", "roof", "empty_rooms")

__all__ = [
    "Arg",
    "COMPONENTS",
    "FinalStateError",
    "Score",
    "ScoreLine",
    "add_final_score",
    "best_roof_choice",
    "best_roof_points",
    "final_score",
    "rooms_of",
    "score_components",
    "score_house",
    "score_total",
]


def score_components(rules: Ruleset, house: House) -> tuple[int, int, int, int, int]:
    """(rooms, furnishings, functionality, roof, empty_rooms) for a legal house."""
    t = rules.tables
    cells = house.cells
    rooms, present = rooms_value(t, cells)
    amounts = helper_amounts(t, house.helpers) if house.helpers else NO_HELPERS
    furn = token_points(rules, house, amounts.token_plus)
    func = functionality_points(t, present, amounts.bonus_plus)
    roof = best_roof_points(rules, house.roofs) if len(house.roofs) >= t.roof_size else 0
    return rooms, furn, func, roof, empty_room_points(amounts, cells.count(FACE_DOWN))


def score_total(rules: Ruleset, house: House) -> int:
    return sum(score_components(rules, house))


class FinalStateError(DreamhomeError):
    """A house scored as a game's final result that no finished game can leave (ROUND-6)."""

    def __init__(self, violations: list[Violation]):
        self.violations = list(violations)
        super().__init__("not a finished house (ROUND-6): " + summarize_violations(self.violations))


def final_score(rules: Ruleset, house: House) -> int:
    """The score of a house at the game's end, refused unless the house is one a finished game
    leaves (`legality.final_state_violations`): every room card of every round placed, no
    scaffold left, every rule of a legal state. `score_total` scores any legal house, in play
    or not; the game's result goes through here, so a state brought to the end by other means
    (a saved state edited by hand, a driver bug) is refused rather than scored."""
    violations = final_state_violations(rules, house)
    if violations:
        raise FinalStateError(violations)
    return score_total(rules, house)


def add_final_score(hm: HouseModel, stage: Stage, house: House) -> None:
    """The final score of a model stage as CP-SAT terms: PLACE-C and every scoring rule area, with
    the helpers the house holds (HELP-ARCHITECT, HELP-DESIGNER) and its outside tokens."""
    rules = hm.rules
    amounts = helper_amounts(rules.tables, house.helpers)
    add_max_size(hm, stage)
    add_room_points(hm, stage)
    add_annex_points(hm, stage)
    add_functionality(hm, stage, amounts.bonus_plus)
    add_tokens(hm, stage, amounts.token_plus)
    if empty_room_points(amounts, 1):
        hm.add_objective(empty_room_points(amounts, 1), sum(hm.down_lits(stage)))
    hm.constant += outside_points(rules, house, amounts.token_plus)


# ---------------------------------------------------------------- breakdown
Arg = tuple[str, str | int]
"""One argument of a score line's message: (name, value). Card ids stay ids (a language names
them, `Ruleset.card_name`); a name that occurs more than once is a list, in order (the helpers
behind a bonus, the roof cards of a roof)."""


@dataclass(frozen=True)
class ScoreLine:
    """One reason for points. `text` is the English sentence (JSON outputs and records keep it);
    `key` and `args` are the same sentence as a catalogue message (`line.*` in
    dreamhome/locales), so that `dreamhome.render.score_text.line_text` can say it in any language."""

    part: str  # one of COMPONENTS
    points: int
    text: str
    cells: tuple[str, ...] = ()
    key: str = ""  # the catalogue's `line.*` entry; "" for a line with no message (its text is shown)
    args: tuple[Arg, ...] = ()


@dataclass(frozen=True)
class Score:
    lines: tuple[ScoreLine, ...]
    roof_choice: tuple[tuple[int, bool], ...]

    def part(self, name: str) -> int:
        return sum(line.points for line in self.lines if line.part == name)

    @property
    def total(self) -> int:
        return sum(line.points for line in self.lines)

    def components(self) -> dict[str, int]:
        return {name: self.part(name) for name in COMPONENTS}

    def to_json(self, rules: Ruleset) -> dict[str, object]:
        out: dict[str, object] = {"total": self.total, **self.components()}
        out["lines"] = [{"part": ln.part, "points": ln.points, "text": ln.text, "cells": list(ln.cells)} for ln in self.lines]
        out["roof_choice"] = [{"color": rules.roofs[c].id, "window": w} for c, w in self.roof_choice]
        return out


def _with_helpers(key: str, plus: int, helpers: list[str]) -> tuple[str, tuple[Arg, ...]]:
    """A message's key and the helper arguments it gains when helpers add `plus` points."""
    if not plus:
        return key, ()
    return key + ".helpers", (("plus", plus), *(("helper", h) for h in helpers))


def score_house(rules: Ruleset, house: House) -> Score:
    """Every point, line by line, with the reason for it: an English `text` and the same reason
    as a message (`key`, `args` with card ids) for the other languages (dreamhome/render/score_text.py)."""
    board = rules.board
    lines: list[ScoreLine] = []
    names = lambda cells: tuple(board.cells[i] for i in cells)  # noqa: E731
    key: str
    args: tuple[Arg, ...]

    t = rules.tables
    for room_found in house_rooms(t, house.cells):
        room = rules.room_of_code(room_found.code)
        size = room_found.size
        plural = "many" if size > 1 else "one"  # as the English text chooses "cards"
        text = f"{room.name}, {size} card{'s' if size > 1 else ''}"
        key, args = f"line.room.{plural}", (("room", room.id), ("size", size))
        if room.bonus is not None:
            target_room = rules.room(room.bonus[1])
            target = target_room.name.lower()
            if room_found.beside:
                text = f"{room.name} beside {target}"
                key, args = "line.room.beside", (("room", room.id), ("target", target_room.id))
            else:
                text += f" (not beside a {target})"
                key, args = f"line.room.not_beside.{plural}", (*args, ("target", target_room.id))
        lines.append(ScoreLine("rooms", room_found.points, text, names(room_found.cells), key, args))

    held = Counter(house.helpers)
    amounts = helper_amounts(t, house.helpers)
    bonus_plus, empty_plus, token_plus = amounts.bonus_plus, empty_room_points(amounts, 1), amounts.token_plus
    plus_ids = lambda table: [h for h in held if table.get(h, 0)]  # noqa: E731
    plus_names = lambda table: ", ".join(rules.held(h).name.lower() for h in plus_ids(table))  # noqa: E731

    for i, code in enumerate(house.cells):
        if code == FACE_DOWN:
            if empty_plus:
                table = rules.tables.helper_empty_room
                args = tuple(("helper", h) for h in plus_ids(table))
                text = f"empty room ({plus_names(table)})"
                lines.append(ScoreLine("empty_rooms", empty_plus, text, (board.cells[i],), "line.empty.helpers", args))
            else:
                lines.append(ScoreLine("rooms", 0, "empty room", (board.cells[i],), "line.empty"))
    token_table = rules.tables.helper_token_plus
    for i, tok in enumerate(house.tokens):
        if tok:
            furn = rules.furnishings[tok - 1]
            room_here = rules.room_of_code(house.cells[i]) if house.cells[i] >= ROOM0 else None
            where = room_here.name.lower() if room_here is not None else "?"
            extra = f" + {token_plus} ({plus_names(token_table)})" if token_plus else ""
            key, more = _with_helpers("line.token", token_plus, plus_ids(token_table))
            args = (("furnishing", furn.id), ("where", room_here.id if room_here is not None else "?"), ("points", furn.points))
            lines.append(
                ScoreLine(
                    "furnishings",
                    furn.points + token_plus,
                    f"{furn.name} in the {where}: {furn.points}{extra}",
                    (board.cells[i],),
                    key,
                    args + more,
                )
            )
    for fid in house.outside:
        furn = rules.furnishing(fid)
        extra = f" + {token_plus} ({plus_names(token_table)})" if token_plus else ""
        key, more = _with_helpers("line.outside", token_plus, plus_ids(token_table))
        args = (("furnishing", furn.id), ("points", furn.points))
        lines.append(
            ScoreLine("furnishings", furn.points + token_plus, f"{furn.name} outside: {furn.points}{extra}", (), key, args + more)
        )

    bonus_table = rules.tables.helper_bonus_plus
    for b in bonuses_met(t, floor_masks(t, house.cells)):
        bonus = rules.bonuses[b]
        extra = f" + {bonus_plus} ({plus_names(bonus_table)})" if bonus_plus else ""
        key, more = _with_helpers("line.bonus", bonus_plus, plus_ids(bonus_table))
        args = (("bonus", bonus.id), ("points", bonus.points))
        text = f"{bonus.name}: {bonus.points}{extra}"
        lines.append(ScoreLine("functionality", bonus.points + bonus_plus, text, (), key, args + more))

    roof_points, choice = best_roof_choice(rules, house.roofs)
    rs = rules.roof_scoring
    if choice:
        uniform = len({c for c, _ in choice}) == 1
        windows = sum(1 for _, w in choice if w)
        colours = ", ".join(rules.roofs[c].name.lower() + (" with window" if w else "") for c, w in choice)
        kind = f"all {rules.roofs[choice[0][0]].name.lower()}: {rs.uniform}" if uniform else f"mixed colours: {rs.mixed}"
        cards = tuple(("roof_window" if w else "roof", rules.roofs[c].id) for c, w in choice)
        args = (("size", rs.size), ("windows", windows), ("window", rs.window), *cards)
        if uniform:
            key, args = "line.roof.uniform", (*args, ("colour", rules.roofs[choice[0][0]].id), ("uniform", rs.uniform))
        else:
            key, args = "line.roof.mixed", (*args, ("mixed", rs.mixed))
        text = f"roof of {rs.size} ({colours}) — {kind}, windows {windows} × {rs.window}"
        lines.append(ScoreLine("roof", roof_points, text, (), key, args))
    elif house.roofs:
        text = f"roof: {len(house.roofs)} of {rs.size} cards"
        lines.append(ScoreLine("roof", 0, text, (), "line.roof.short", (("count", len(house.roofs)), ("size", rs.size))))
    return Score(tuple(lines), tuple(choice))
