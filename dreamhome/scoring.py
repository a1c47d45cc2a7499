"""Scoring (SCORE-*): a fast path for games and solvers, and an explained breakdown.

`score_components` is the hot path (flat tables, one pass per floor);
`score_house` explains every point line by line. They are written separately
on purpose: the tests compare them on generated houses, so each checks the other.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations_with_replacement

from dreamhome.house import House
from dreamhome.ruleset import FACE_DOWN, ROOM0, Ruleset

COMPONENTS = ("rooms", "furnishings", "functionality", "roof", "empty_rooms")


def best_roof_points(rules: Ruleset, roofs) -> int:
    """SCORE-ROOF: the best choice of `size` roof cards, in closed form."""
    t = rules.tables
    size = t.roof_size
    if len(roofs) < size:
        return 0
    total = [0] * t.n_roof_colours
    wins = [0] * t.n_roof_colours
    for colour, window in roofs:
        total[colour] += 1
        if window:
            wins[colour] += 1
    best = 0
    for c in range(t.n_roof_colours):
        if total[c] >= size:
            value = t.roof_uniform + t.roof_window * min(size, wins[c])
            if value > best:
                best = value
    colours = sum(1 for x in total if x)
    if colours >= 2 and size >= 2:
        all_windows = sum(wins)
        k = min(size, all_windows)
        if k == size and sum(1 for w in wins if w) < 2:
            k -= 1  # all windows share one colour: one card must come from another colour
        value = t.roof_mixed + t.roof_window * k
        if value > best:
            best = value
    return best


def best_roof_choice(rules: Ruleset, roofs) -> tuple[int, tuple[tuple[int, bool], ...]]:
    """The best roof cards to choose and their points, by enumeration (explains SCORE-ROOF)."""
    rs = rules.roof_scoring
    if len(roofs) < rs.size:
        return 0, ()
    have = Counter(roofs)
    best: tuple[int, tuple] = (-1, ())
    for choice in combinations_with_replacement(sorted(have), rs.size):
        need = Counter(choice)
        if any(need[k] > have[k] for k in need):
            continue
        uniform = len({c for c, _ in choice}) == 1
        value = (rs.uniform if uniform else rs.mixed) + rs.window * sum(1 for _, w in choice if w)
        if value > best[0]:
            best = (value, choice)
    return best


def _held_amounts(t, helpers) -> tuple[int, int, int]:
    bonus_plus = empty_room = token_plus = 0
    for h in helpers:
        bonus_plus += t.helper_bonus_plus.get(h, 0)
        empty_room += t.helper_empty_room.get(h, 0)
        token_plus += t.helper_token_plus.get(h, 0)
    return bonus_plus, empty_room, token_plus


def score_components(rules: Ruleset, house: House) -> tuple[int, int, int, int, int]:
    """(rooms, furnishings, functionality, roof, empty_rooms) for a legal house."""
    t = rules.tables
    cells = house.cells
    tokens = house.tokens
    points = t.points
    annex_target = t.annex_target
    rooms = 0
    empties = cells.count(FACE_DOWN)
    present = []
    for floor in t.floor_cells:
        mask = 0
        run_code = -1
        run_len = 0
        run_bonus = False
        for i in floor:
            c = cells[i]
            if c == run_code:
                run_len += 1
            else:
                if run_code >= ROOM0:
                    rooms += t.annex_value[run_code] if run_bonus else points[run_code][run_len - 1]
                run_code = c
                run_len = 1
                run_bonus = False
                if c >= ROOM0:
                    mask |= 1 << c
            if c >= ROOM0 and annex_target[c] and not run_bonus:
                target = annex_target[c]
                for j in t.annex_neighbours[i]:
                    if cells[j] == target:
                        run_bonus = True
                        break
        if run_code >= ROOM0:
            rooms += t.annex_value[run_code] if run_bonus else points[run_code][run_len - 1]
        present.append(mask)

    bonus_plus, empty_plus, token_plus = _held_amounts(t, house.helpers) if house.helpers else (0, 0, 0)

    furn = 0
    n_tokens = 0
    token_points = t.token_points
    for tok in tokens:
        if tok:
            furn += token_points[tok]
            n_tokens += 1
    if house.outside:
        furn_index = rules._furn_by_id
        for fid in house.outside:
            furn += furn_index[fid].points
            n_tokens += 1
    furn += token_plus * n_tokens

    func = 0
    for bonus_points, clauses in t.bonus_clauses:
        for bit, floors in clauses:
            for f in floors:
                if present[f] & bit:
                    break
            else:
                break
        else:
            func += bonus_points + bonus_plus

    roof = best_roof_points(rules, house.roofs) if len(house.roofs) >= t.roof_size else 0
    return rooms, furn, func, roof, empties * empty_plus


def score_total(rules: Ruleset, house: House) -> int:
    return sum(score_components(rules, house))


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

    def to_json(self, rules: Ruleset) -> dict:
        out = {"total": self.total, **self.components()}
        out["lines"] = [{"part": ln.part, "points": ln.points, "text": ln.text, "cells": list(ln.cells)} for ln in self.lines]
        out["roof_choice"] = [{"color": rules.roofs[c].id, "window": w} for c, w in self.roof_choice]
        return out


def rooms_of(rules: Ruleset, house: House) -> list[tuple[int, tuple[int, ...]]]:
    """Every room (PLACE-C): (room code, its cells), floor by floor, left to right."""
    out = []
    for floor in rules.board.floor_cells:
        run: list[int] = []
        for i in floor:
            code = house.cells[i]
            if run and code == house.cells[run[-1]]:
                run.append(i)
                continue
            if run and house.cells[run[0]] >= ROOM0:
                out.append((house.cells[run[0]], tuple(run)))
            run = [i]
        if run and house.cells[run[0]] >= ROOM0:
            out.append((house.cells[run[0]], tuple(run)))
    return out


def score_house(rules: Ruleset, house: House) -> Score:
    """Every point, line by line, with the reason for it."""
    board = rules.board
    orthogonal = rules.options["annex_adjacency"] == "orthogonal"
    lines: list[ScoreLine] = []
    names = lambda cells: tuple(board.cells[i] for i in cells)  # noqa: E731

    for code, cells in rooms_of(rules, house):
        room = rules.room_of_code(code)
        size = len(cells)
        text = f"{room.name}, {size} card{'s' if size > 1 else ''}"
        value = room.points[size - 1]
        if room.bonus is not None:
            bonus_value, target = room.bonus
            beside = [
                j
                for i in cells
                for j in board.neighbours(i, orthogonal)
                if house.cells[j] >= ROOM0 and rules.room_of_code(house.cells[j]).id == target
            ]
            if beside:
                value = bonus_value
                text = f"{room.name} beside {rules.room(target).name.lower()}"
            else:
                text += f" (not beside a {rules.room(target).name.lower()})"
        lines.append(ScoreLine("rooms", value, text, names(cells)))

    held = Counter(house.helpers)
    bonus_plus = sum(rules.tables.helper_bonus_plus.get(h, 0) * n for h, n in held.items())
    empty_plus = sum(rules.tables.helper_empty_room.get(h, 0) * n for h, n in held.items())
    token_plus = sum(rules.tables.helper_token_plus.get(h, 0) * n for h, n in held.items())
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

    face_up_by_floor = {fl.name: set() for fl in board.floors}
    for i, code in enumerate(house.cells):
        if code >= ROOM0:
            face_up_by_floor[board.floors[board.cell_floor[i]].name].add(rules.room_of_code(code).id)
    for bonus in rules.bonuses:
        ok = all(any(c.room in face_up_by_floor[f] for f in c.floors) for c in bonus.clauses)
        if ok:
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
