"""The house board: the index tables hot paths use, and the same board as a networkx graph.

The tables (cells, their left/right neighbours, what holds a cell up) are built once from the
floors, so scoring and legality never call into networkx per query; the graph (`Board.graph`:
cells, `beside` and `above` edges, the ground and the roof pile) is built from them when first
asked for, so a command that never draws or walks the board does not import networkx (about
0.1 s of every process's start).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

GROUND = "ground"
ROOF_PILE = "roof_pile"


@dataclass(frozen=True)
class Floor:
    name: str
    kind: str  # "upper" or "basement"
    columns: tuple[int, ...]


@dataclass(frozen=True)
class Board:
    """Cells are numbered floor by floor, top first, left to right."""

    floors: tuple[Floor, ...]
    roof_pile: tuple[str, tuple[int, ...]] | None
    cells: tuple[str, ...]
    index: dict[str, int] = field(compare=False, repr=False)
    cell_floor: tuple[int, ...]
    cell_column: tuple[int, ...]
    cell_kind: tuple[str, ...]
    left: tuple[int, ...]  # -1 where there is none
    right: tuple[int, ...]
    below: tuple[int, ...]  # -1: stands on the ground or the roof pile (PLACE-A)
    above: tuple[int, ...]
    floor_cells: tuple[tuple[int, ...], ...]  # each floor's cells, left to right
    rests_on: tuple[str, ...] = field(default=(), compare=False, repr=False)  # GROUND or ROOF_PILE where below is -1

    @property
    def size(self) -> int:
        return len(self.cells)

    def floor_index(self, name: str) -> int:
        for i, floor in enumerate(self.floors):
            if floor.name == name:
                return i
        raise KeyError(name)

    @cached_property
    def graph(self) -> nx.DiGraph:
        """The board as a directed graph: a node per cell (its floor, floor index, column, kind
        and index), `beside` edges both ways between neighbours on a floor, an `above` edge from
        each cell to what holds it up (the cell below, the ground or the roof pile)."""
        import networkx as nx

        graph = nx.DiGraph()
        for i, name in enumerate(self.cells):
            floor = self.floors[self.cell_floor[i]]
            graph.add_node(
                name, floor=floor.name, floor_index=self.cell_floor[i], column=self.cell_column[i], kind=floor.kind, index=i
            )
        for i, name in enumerate(self.cells):
            for j in (self.left[i], self.right[i]):
                if j >= 0:
                    graph.add_edge(name, self.cells[j], relation="beside")
        graph.add_node(GROUND, kind=GROUND)
        if self.roof_pile is not None:
            graph.add_node(ROOF_PILE, kind=ROOF_PILE, floor=self.roof_pile[0], columns=self.roof_pile[1])
        for i, name in enumerate(self.cells):
            graph.add_edge(name, self.cells[self.below[i]] if self.below[i] >= 0 else self.rests_on[i], relation="above")
        return graph

    def neighbours(self, cell: int, orthogonal: bool) -> tuple[int, ...]:
        """Cells that count as "beside" for annex bonuses (SCORE-ROOMS)."""
        out = [c for c in (self.left[cell], self.right[cell]) if c >= 0]
        if orthogonal:
            out += [c for c in (self.below[cell], self.above[cell]) if c >= 0]
        return tuple(out)


def build_board(floors: list[Floor], roof_pile: tuple[str, tuple[int, ...]] | None) -> Board:
    """Floors are listed top to bottom; a cell with no floor cell under it rests
    on the ground or on the roof pile and is always supported (COMP-2, PLACE-A)."""
    names: list[str] = []
    cell_floor: list[int] = []
    cell_column: list[int] = []
    cell_kind: list[str] = []
    for fi, floor in enumerate(floors):
        for col in floor.columns:
            names.append(f"{floor.name}/{col}")
            cell_floor.append(fi)
            cell_column.append(col)
            cell_kind.append(floor.kind)
    index = {name: i for i, name in enumerate(names)}
    left, right, below, rests_on = [], [], [], []
    above = [-1] * len(names)
    for fi, floor in enumerate(floors):
        for col in floor.columns:
            left.append(index[f"{floor.name}/{col - 1}"] if col - 1 in floor.columns else -1)
            right.append(index[f"{floor.name}/{col + 1}"] if col + 1 in floor.columns else -1)
            support = next((f"{lower.name}/{col}" for lower in floors[fi + 1 :] if col in lower.columns), None)
            below.append(index[support] if support is not None else -1)
            on_pile = support is None and roof_pile is not None and roof_pile[0] == floor.name and col in roof_pile[1]
            rests_on.append(ROOF_PILE if on_pile else GROUND)
    for i, b in enumerate(below):
        if b >= 0:
            above[b] = i
    floor_cells = tuple(tuple(index[f"{floor.name}/{col}"] for col in floor.columns) for floor in floors)
    return Board(
        floors=tuple(floors),
        roof_pile=roof_pile,
        cells=tuple(names),
        index=index,
        cell_floor=tuple(cell_floor),
        cell_column=tuple(cell_column),
        cell_kind=tuple(cell_kind),
        left=tuple(left),
        right=tuple(right),
        below=tuple(below),
        above=tuple(above),
        floor_cells=floor_cells,
        rests_on=tuple(rests_on),
    )
