"""Index tables derived once from a Ruleset for the hot paths.

Scoring, legality and `legal_placements` run millions of times in games and
what-ifs; they read these flat tuples (indexed by cell and by cell code)
instead of walking the graph or the card objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dreamhome.codes import ROOM0

if TYPE_CHECKING:
    from dreamhome.ruleset import Ruleset


@dataclass(frozen=True)
class Tables:
    n_cells: int
    n_codes: int
    floor_cells: tuple[tuple[int, ...], ...]
    cell_floor: tuple[int, ...]
    cell_pos: tuple[int, ...]  # a cell's position in its floor row
    left: tuple[int, ...]
    right: tuple[int, ...]
    below: tuple[int, ...]
    points: tuple[tuple[int, ...], ...]  # by code; () for non-rooms
    max_size: tuple[int, ...]  # by code; 0 for non-rooms
    allowed: tuple[tuple[bool, ...], ...]  # [cell][code]: PLACE-B
    annex_target: tuple[int, ...]  # by code: the code that earns the bonus, 0 if none
    annex_value: tuple[int, ...]
    annex_neighbours: tuple[tuple[int, ...], ...]  # by cell, per option annex_adjacency
    annex_on_floor: bool  # every annex neighbour on the cell's own floor: floors score alone
    annex_row_neighbours: tuple[tuple[tuple[int, ...], ...], ...]  # [floor][position]: positions of neighbours on that floor
    bonus_clauses: tuple[tuple[int, tuple[tuple[int, tuple[int, ...]], ...]], ...]  # (points, ((bit, floors), …))
    token_points: tuple[int, ...]  # by token code (0 = none)
    token_room: tuple[int, ...]  # by token code: room code, 0 for outside tokens
    token_closes_full_only: tuple[bool, ...]  # award tokens go on complete rooms (VAR-CAR)
    helper_bonus_plus: dict[str, int]
    helper_empty_room: dict[str, int]
    helper_token_plus: dict[str, int]
    keeps_open: frozenset[str]  # helpers with tokens_keep_open (HELP-DESIGNER)
    room_count: tuple[int, ...]  # by code: cards in the deck (COMP-5)
    token_count: tuple[int, ...]  # by token code
    roof_count: tuple[int, ...]  # by colour
    roof_windows: tuple[int, ...]
    held_count: dict[str, int]
    scaffold_limit: int
    roof_size: int
    roof_uniform: int
    roof_mixed: int
    roof_window: int
    n_roof_colours: int


def build_tables(rules: Ruleset) -> Tables:
    board = rules.board
    n_codes = ROOM0 + len(rules.rooms)
    points: list[tuple[int, ...]] = [()] * n_codes
    max_size = [0] * n_codes
    annex_target = [0] * n_codes
    annex_value = [0] * n_codes
    for room in rules.rooms:
        points[room.code] = room.points
        max_size[room.code] = room.max_size
        if room.bonus is not None:
            annex_value[room.code] = room.bonus[0]
            annex_target[room.code] = rules.room(room.bonus[1]).code
    allowed = []
    for cell in range(board.size):
        kind = board.cell_kind[cell]
        row = [False] * n_codes
        for room in rules.rooms:
            row[room.code] = room.floor_kind == kind
        allowed.append(tuple(row))
    orthogonal = rules.options.get("annex_adjacency") == "orthogonal"
    neighbours = tuple(board.neighbours(c, orthogonal) for c in range(board.size))
    clauses = []
    for bonus in rules.bonuses:
        compiled = tuple((1 << rules.room(c.room).code, tuple(board.floor_index(f) for f in c.floors)) for c in bonus.clauses)
        clauses.append((bonus.points, compiled))
    token_points = [0] * (len(rules.furnishings) + 1)
    token_room = [0] * (len(rules.furnishings) + 1)
    full_only = [False] * (len(rules.furnishings) + 1)
    for furn in rules.furnishings:
        token_points[furn.code] = furn.points
        token_room[furn.code] = rules.room(furn.room).code if furn.room else 0
        full_only[furn.code] = furn.award == "first_complete"
    bonus_plus: dict[str, int] = {}
    empty_room: dict[str, int] = {}
    token_plus: dict[str, int] = {}
    keeps_open: set[str] = set()
    for card in rules.helpers + rules.tools:
        for effect in card.effects:
            if effect.name == "score":
                bonus_plus[card.id] = bonus_plus.get(card.id, 0) + effect.amount("bonus_plus")
                empty_room[card.id] = empty_room.get(card.id, 0) + effect.amount("empty_room")
                token_plus[card.id] = token_plus.get(card.id, 0) + effect.amount("token_plus")
            elif effect.name == "tokens_keep_open":
                keeps_open.add(card.id)
    rs = rules.roof_scoring
    room_count = [0] * n_codes
    for room in rules.rooms:
        room_count[room.code] = room.count
    return Tables(
        room_count=tuple(room_count),
        token_count=(0,) + tuple(f.count for f in rules.furnishings),
        roof_count=tuple(r.count for r in rules.roofs),
        roof_windows=tuple(r.windows for r in rules.roofs),
        held_count={c.id: c.count for c in rules.helpers + rules.tools},
        scaffold_limit=sum(c.count for c in rules.helpers + rules.tools if c.effect("scaffold") is not None),
        n_cells=board.size,
        n_codes=n_codes,
        floor_cells=board.floor_cells,
        cell_floor=board.cell_floor,
        cell_pos=tuple(board.floor_cells[board.cell_floor[c]].index(c) for c in range(board.size)),
        left=board.left,
        right=board.right,
        below=board.below,
        points=tuple(points),
        max_size=tuple(max_size),
        allowed=tuple(allowed),
        annex_target=tuple(annex_target),
        annex_value=tuple(annex_value),
        annex_neighbours=neighbours,
        annex_row_neighbours=tuple(
            tuple(tuple(row.index(j) for j in neighbours[c] if j in row) for c in row) for row in board.floor_cells
        ),
        annex_on_floor=all(board.cell_floor[j] == board.cell_floor[c] for c in range(board.size) for j in neighbours[c]),
        bonus_clauses=tuple(clauses),
        token_points=tuple(token_points),
        token_room=tuple(token_room),
        token_closes_full_only=tuple(full_only),
        helper_bonus_plus=bonus_plus,
        helper_empty_room=empty_room,
        helper_token_plus=token_plus,
        keeps_open=frozenset(keeps_open),
        roof_size=rs.size,
        roof_uniform=rs.uniform,
        roof_mixed=rs.mixed,
        roof_window=rs.window,
        n_roof_colours=len(rules.roofs),
    )
