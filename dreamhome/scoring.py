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
from dreamhome.engine.helpers import helper_amounts
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
    return rooms, furn, func, roof, cells.count(FACE_DOWN) * amounts.empty_room


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
    if amounts.empty_room:
        hm.add_objective(amounts.empty_room, sum(hm.down_lits(stage)))
    hm.constant += outside_points(rules, house, amounts.token_plus)


# ---------------------------------------------------------------- breakdown
@dataclass(frozen=True)
class ScoreLine:
    part: str  # one of COMPONENTS
    points: int
    text: str
    cells: tuple[str, ...] = ()


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


def score_house(rules: Ruleset, house: House) -> Score:
    """Every point, line by line, with the reason for it."""
    board = rules.board
    lines: list[ScoreLine] = []
    names = lambda cells: tuple(board.cells[i] for i in cells)  # noqa: E731

    t = rules.tables
    for room_found in house_rooms(t, house.cells):
        room = rules.room_of_code(room_found.code)
        size = room_found.size
        text = f"{room.name}, {size} card{'s' if size > 1 else ''}"
        if room.bonus is not None:
            target = rules.room(room.bonus[1]).name.lower()
            text = f"{room.name} beside {target}" if room_found.beside else text + f" (not beside a {target})"
        lines.append(ScoreLine("rooms", room_found.points, text, names(room_found.cells)))

    held = Counter(house.helpers)
    amounts = helper_amounts(t, house.helpers)
    bonus_plus, empty_plus, token_plus = amounts.bonus_plus, amounts.empty_room, amounts.token_plus
    plus_names = lambda table: ", ".join(  # noqa: E731
        rules.held(h).name.lower() for h in held if table.get(h, 0)
    )

    for i, code in enumerate(house.cells):
        if code == FACE_DOWN:
            if empty_plus:
                lines.append(
                    ScoreLine(
                        "empty_rooms", empty_plus, f"empty room ({plus_names(rules.tables.helper_empty_room)})", (board.cells[i],)
                    )
                )
            else:
                lines.append(ScoreLine("rooms", 0, "empty room", (board.cells[i],)))
    for i, tok in enumerate(house.tokens):
        if tok:
            furn = rules.furnishings[tok - 1]
            where = rules.room_of_code(house.cells[i]).name.lower() if house.cells[i] >= ROOM0 else "?"
            extra = f" + {token_plus} ({plus_names(rules.tables.helper_token_plus)})" if token_plus else ""
            lines.append(
                ScoreLine(
                    "furnishings",
                    furn.points + token_plus,
                    f"{furn.name} in the {where}: {furn.points}{extra}",
                    (board.cells[i],),
                )
            )
    for fid in house.outside:
        furn = rules.furnishing(fid)
        extra = f" + {token_plus} ({plus_names(rules.tables.helper_token_plus)})" if token_plus else ""
        lines.append(ScoreLine("furnishings", furn.points + token_plus, f"{furn.name} outside: {furn.points}{extra}"))

    for b in bonuses_met(t, floor_masks(t, house.cells)):
        bonus = rules.bonuses[b]
        extra = f" + {bonus_plus} ({plus_names(rules.tables.helper_bonus_plus)})" if bonus_plus else ""
        lines.append(ScoreLine("functionality", bonus.points + bonus_plus, f"{bonus.name}: {bonus.points}{extra}"))

    roof_points, choice = best_roof_choice(rules, house.roofs)
    rs = rules.roof_scoring
    if choice:
        uniform = len({c for c, _ in choice}) == 1
        windows = sum(1 for _, w in choice if w)
        colours = ", ".join(rules.roofs[c].name.lower() + (" with window" if w else "") for c, w in choice)
        kind = f"all {rules.roofs[choice[0][0]].name.lower()}: {rs.uniform}" if uniform else f"mixed colours: {rs.mixed}"
        lines.append(ScoreLine("roof", roof_points, f"roof of {rs.size} ({colours}) — {kind}, windows {windows} × {rs.window}"))
    elif house.roofs:
        lines.append(ScoreLine("roof", 0, f"roof: {len(house.roofs)} card(s), fewer than {rs.size}"))
    return Score(tuple(lines), tuple(choice))
