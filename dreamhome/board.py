"""The house board as a networkx graph, plus the index tables hot paths use.

The graph is the description (cells, `beside` and `above` edges, what holds a
cell up); the tuples are derived from it once, so scoring and legality never
call into networkx per query.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
    graph: nx.DiGraph = field(compare=False, repr=False)
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

    @property
    def size(self) -> int:
        return len(self.cells)

    def floor_index(self, name: str) -> int:
        for i, floor in enumerate(self.floors):
            if floor.name == name:
                return i
        raise KeyError(name)

    def neighbours(self, cell: int, orthogonal: bool) -> tuple[int, ...]:
        """Cells that count as "beside" for annex bonuses (SCORE-ROOMS)."""
        out = [c for c in (self.left[cell], self.right[cell]) if c >= 0]
        if orthogonal:
            out += [c for c in (self.below[cell], self.above[cell]) if c >= 0]
        return tuple(out)


def build_board(floors: list[Floor], roof_pile: tuple[str, tuple[int, ...]] | None) -> Board:
    """Floors are listed top to bottom; a cell with no floor cell under it rests
    on the ground or on the roof pile and is always supported (COMP-2, PLACE-A)."""
    graph = nx.DiGraph()
    names: list[str] = []
    for fi, floor in enumerate(floors):
        for col in floor.columns:
            name = f"{floor.name}/{col}"
            graph.add_node(name, floor=floor.name, floor_index=fi, column=col, kind=floor.kind, index=len(names))
            names.append(name)
    for floor in floors:
        for col in floor.columns:
            if col + 1 in floor.columns:
                graph.add_edge(f"{floor.name}/{col}", f"{floor.name}/{col + 1}", relation="beside")
                graph.add_edge(f"{floor.name}/{col + 1}", f"{floor.name}/{col}", relation="beside")
    graph.add_node(GROUND, kind=GROUND)
    if roof_pile is not None:
        graph.add_node(ROOF_PILE, kind=ROOF_PILE, floor=roof_pile[0], columns=roof_pile[1])
    for fi, floor in enumerate(floors):
        for col in floor.columns:
            here = f"{floor.name}/{col}"
            support = next((f"{lower.name}/{col}" for lower in floors[fi + 1 :] if col in lower.columns), None)
            if support is None:
                on_pile = roof_pile is not None and roof_pile[0] == floor.name and col in roof_pile[1]
                support = ROOF_PILE if on_pile else GROUND
            graph.add_edge(here, support, relation="above")

    index = {name: i for i, name in enumerate(names)}

    def related(node: str, relation: str) -> list[str]:
        return [v for v in graph.successors(node) if graph.edges[node, v]["relation"] == relation]

    left, right, below, above = [], [], [], [-1] * len(names)
    for name in names:
        col = graph.nodes[name]["column"]
        beside = {graph.nodes[v]["column"]: index[v] for v in related(name, "beside")}
        left.append(beside.get(col - 1, -1))
        right.append(beside.get(col + 1, -1))
        under = related(name, "above")[0]
        below.append(index.get(under, -1))
    for i, b in enumerate(below):
        if b >= 0:
            above[b] = i
    floor_cells = tuple(tuple(index[f"{floor.name}/{col}"] for col in floor.columns) for floor in floors)
    return Board(
        floors=tuple(floors),
        roof_pile=roof_pile,
        graph=graph,
        cells=tuple(names),
        index=index,
        cell_floor=tuple(graph.nodes[n]["floor_index"] for n in names),
        cell_column=tuple(graph.nodes[n]["column"] for n in names),
        cell_kind=tuple(graph.nodes[n]["kind"] for n in names),
        left=tuple(left),
        right=tuple(right),
        below=tuple(below),
        above=tuple(above),
        floor_cells=floor_cells,
    )
