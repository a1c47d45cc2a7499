"""The end game's final house on per-floor outcome tables (END-SUPPLIER, END-HANDYMAN).

With at most one room-discard swap and one house swap (the usual house), every
final house the relaxation of effects.py allows is: one swap of two cards (or
none), then one card replaced from the room discard pile (or none). Floors
then interact only through those two actions and the functionality bonuses
(with horizontal annex adjacency), so each floor's possible final rows are
enumerated in Python and scored exactly, and CP-SAT picks one row per floor:

- a row's *signature* is what the other floors see of it: whether it holds
  the room-discard swap's card, its part of the swap (none, both ends, or one end:
  the class that left and the class that came), and which types named by a
  functionality bonus it shows face up;
- the model starts with the best row of each signature, less the signatures
  another one dominates (no more room-discard swap, the same swap part or none instead
  of a swap inside the floor, every bonus type shown, a value as high); the
  coupling constraints are: at most the room-discard swaps, at most the house swap
  uses, the two ends of a swap between floors match (x leaves A for B exactly
  when y leaves B for A), and a bonus needs its types on its floors.

Rows no order of actions reaches are never enumerated: the room-discard swap's card must be
legal where it arrives (PLACE-CLOSED, PLACE-MERGE: `endgame.supply_fits`), before or after the
house swap's part on the floor (`_supply_order`, which reads that floor only; it runs when a
row would become its signature's best, or when a cut asks for the row). Every row of a
reachable house remains, so the argument below holds unchanged; the proposals the order check
refuses (and the solves again they cost) become rarer.

Each row's value is exact, so the LP bound is tight and the proof is short;
the cell model of effects.py measured 5× slower at the median on the same
houses (docs/PERFORMANCE.md). Exactness with the order check: optimize.py
asks `endgame.find_sequence` for an order of real actions reaching the
proposed house. When none exists, that choice of rows is cut off, every
dominated signature comes back, and each signature whose last shown row the
cut used shows its next best row (`expand`). Why nothing is lost: take the
best reachable house. Before any cut, replacing each of its rows by the best
row of its signature, then by a dominating one, keeps the coupling
constraints and the value. After a cut, on each floor whose reachable row is
not shown, every shown row of that signature is at least as good; the
combination of the *last* shown rows there (the reachable rows elsewhere)
meets the coupling constraints, is worth as much, and was never cut, since a
cut using a last row would have shown the next one. So the model's optimum
never falls below the best reachable house, and the answer returned is
reachable: it is optimal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum
from itertools import combinations
from typing import Final, Literal, TypeAlias

from ortools.sat.python import cp_model

from dreamhome.engine.cpsat import CardClass, SolveSettings, found, house_class, new_solver
from dreamhome.engine.endgame import supply_fits
from dreamhome.engine.functionality import add_bonuses
from dreamhome.engine.rooms import category_ok, row_value
from dreamhome.house import House
from dreamhome.ruleset import FACE_DOWN, Ruleset

SCALE = 1000  # a row's value: SCALE × score − cells changed (the fewest changes among equal scores)

SwapPart: TypeAlias = tuple[()] | tuple[Literal["both"]] | tuple[Literal["end"], int, int]
"""A row's part in the house swap's swap: none, both ends on this floor, or one end (the class that
left, the class that came)."""
Signature: TypeAlias = tuple[int, SwapPart, int]
"""What the other floors see of a row: (room-discard swap 0/1, swap part, bonus types shown as a bit mask)."""
Pending: TypeAlias = tuple[tuple[int, ...], tuple[int, ...], int, int] | None
"""A row's order test not run yet (the `_supply_order` arguments), or None: not needed, or passed."""
Candidate: TypeAlias = tuple[tuple[int, ...], int, int, Pending]
"""A possible final row: (class index per cell, score, cells changed, its order test if still to run)."""
OrderTest: TypeAlias = Callable[[tuple[int, ...], tuple[int, ...], int, int], bool]


def tables_apply(rules: Ruleset, n_sup: int, n_hand: int) -> bool:
    """The tables model the relaxation exactly for one use of each swap helper at most, and
    need floors that meet only through bonuses (annex neighbours on the same floor)."""
    if n_sup > 1 or n_hand > 1:
        return False
    return rules.tables.annex_on_floor


@dataclass(frozen=True)
class Row:
    cells: tuple[int, ...]  # class index per cell of the floor, in floor order
    score: int
    changed: int
    signature: Signature

    @property
    def value(self) -> int:
        return SCALE * self.score - self.changed


@dataclass
class FloorTable:
    """A floor's possible final rows by signature. `shown` holds the rows in the model: the best
    of each signature no other signature dominates, until a cut asks for more (`show_next`)."""

    cells: tuple[int, ...]  # board cells of the floor
    best: dict[Signature, Row] = field(default_factory=dict)
    candidates: dict[Signature, list[Candidate]] = field(default_factory=dict)
    shown: dict[Signature, list[Row]] = field(default_factory=dict)
    ordered: dict[Signature, list[Row]] = field(default_factory=dict)  # all rows of a signature, best first
    orderable: OrderTest | None = None  # runs the order tests left pending (`_supply_order`)

    def show_next(self, signature: Signature) -> None:
        """One more row of this signature, in value order (ties: the smaller row first)."""
        if signature not in self.ordered:
            rows = {}
            for cells, score, changed, pending in self.candidates[signature]:
                if pending is None or (self.orderable is not None and self.orderable(*pending)):
                    rows[cells] = Row(cells, score, changed, signature)
            self.ordered[signature] = sorted(rows.values(), key=lambda r: (-r.value, r.cells))
        shown = self.shown[signature]
        if len(shown) < len(self.ordered[signature]):
            shown.append(self.ordered[signature][len(shown)])

    def unprune(self) -> None:
        for signature, row in self.best.items():
            self.shown.setdefault(signature, [row])


class _Miss(Enum):
    """The score cache's miss marker (None is a cached answer: an illegal row)."""

    MISS = 0


_MISS: Final = _Miss.MISS


class RowScorer:
    """Exact floor scores for rows of card classes, from the rule areas' own readings: SCORE-ROOMS
    with annexes (`rooms.row_value`), the best token of each room (FURN-ONE at the end, as
    `furnishings.kept_token`), empty rooms; None when PLACE-B or PLACE-C fails."""

    def __init__(self, rules: Ruleset, classes: list[CardClass], empty_plus: int, token_plus: int) -> None:
        t = rules.tables
        self.t = t
        self.up = [c.face_up_type for c in classes]
        self.token = [(t.token_points[c.token] + token_plus) if c.kind == "token" else 0 for c in classes]
        self.down = [1 if c.kind == "down" else 0 for c in classes]
        self.allowed = [[c.kind == "down" or category_ok(t, cell, c.room) for c in classes] for cell in range(t.n_cells)]
        self.empty_plus = empty_plus
        self.bonus_bits = 0  # the room types some functionality bonus names: all a row shows other floors
        for _points, clauses in t.bonus_clauses:
            for bit, _floors in clauses:
                self.bonus_bits |= bit
        self.cache: dict[int, dict[tuple[int, ...], tuple[int, int] | None]] = {}

    def for_floor(self, floor: int) -> Callable[[tuple[int, ...]], tuple[int, int] | None]:
        """The scorer of one floor's rows: row → (score, bonus types shown as a bit mask), or None
        if the row is illegal. Each floor keeps its own memo; rows that differ only in tokens or
        printed cards share their rooms (`rooms.row_value`, computed once per row of codes)."""
        cache = self.cache.setdefault(floor, {})
        t, up, token, down, empty_plus, bits = self.t, self.up, self.token, self.down, self.empty_plus, self.bonus_bits

        def score(row: tuple[int, ...]) -> tuple[int, int] | None:
            hit = cache.get(row, _MISS)
            if hit is not _MISS:
                return hit
            value = row_value(t, floor, list(map(up.__getitem__, row)))
            result = None
            if value is not None:
                points, shown, spans = value
                total = points + empty_plus * sum([down[k] for k in row]) if empty_plus else points
                for start, stop in spans:
                    total += max([token[k] for k in row[start:stop]]) if stop - start > 1 else token[row[start]]
                result = (total, shown & bits)
            cache[row] = result
            return result

        return score


def build_tables(
    rules: Ruleset, house: House, classes: list[CardClass], incoming: list[int], n_sup: int, n_hand: int, scorer: RowScorer
) -> list[FloorTable]:
    t = rules.tables
    index = {c: k for k, c in enumerate(classes)}
    own = [index[house_class(house, c)] for c in range(t.n_cells)]
    tables = []
    for floor in t.floor_cells:
        width = len(floor)
        start = tuple(own[c] for c in floor)
        allowed = [scorer.allowed[c] for c in floor]
        # (swap part, the row after the swap, cells it changed, the floor's positions the swap touches)
        roles: list[tuple[SwapPart, tuple[int, ...], int, tuple[int, ...]]] = [((), start, 0, ())]
        if n_hand:
            for a, b in combinations(range(width), 2):
                if start[a] != start[b] and allowed[a][start[b]] and allowed[b][start[a]]:
                    swapped = list(start)
                    swapped[a], swapped[b] = swapped[b], swapped[a]
                    roles.append((("both",), tuple(swapped), 2, (a, b)))
            others = sorted({own[d] for d in range(t.n_cells) if t.cell_floor[d] != t.cell_floor[floor[0]]})
            for p in range(width):
                for y in others:
                    if y != start[p] and allowed[p][y]:
                        roles.append((("end", start[p], y), start[:p] + (y,) + start[p + 1 :], 1, (p,)))
        fits = [[k for k in incoming if allowed[p][k]] for p in range(width)] if n_sup else []
        table = FloorTable(tuple(floor))
        candidates = table.candidates
        best: dict[Signature, tuple[int, tuple[int, ...], int, int]] = {}  # signature → (value, row, score, changed)
        score_row = scorer.for_floor(t.cell_floor[floor[0]])
        orderable = table.orderable = _supply_order(rules, house, classes, floor, score_row)
        for role, base, base_changed, moved in roles:
            options = [(0, base, base_changed, 0, 0)]
            for p, ks in enumerate(fits):
                before = base_changed - (base[p] != start[p])
                for k in ks:
                    if k != base[p]:
                        options.append((1, base[:p] + (k,) + base[p + 1 :], before + (k != start[p]), p, k))
            for sup, row, changed, p, k in options:
                scored = score_row(row)
                if scored is None:
                    continue
                score, shown = scored
                signature: Signature = (sup, role, shown)
                value = SCALE * score - changed
                kept = best.get(signature)
                better = kept is None or value > kept[0] or (value == kept[0] and row < kept[1])
                # A room-discard swap row's order test runs when it would become its signature's best;
                # the others wait until a cut asks for them (`show_next`): most never are.
                pending: Pending = None
                if sup:
                    if not better:
                        pending = (base, moved, p, k)
                    elif not orderable(base, moved, p, k):
                        continue
                if kept is None:
                    candidates[signature] = [(row, score, changed, pending)]
                else:
                    candidates[signature].append((row, score, changed, pending))
                if better:
                    best[signature] = (value, row, score, changed)
        table.best = {sig: Row(row, score, changed, sig) for sig, (_v, row, score, changed) in best.items()}
        groups: dict[tuple[int, SwapPart], list[Row]] = {}
        for best_row in table.best.values():
            groups.setdefault(best_row.signature[:2], []).append(best_row)
        for signature, best_row in table.best.items():
            if not _dominated(best_row, groups):
                table.shown[signature] = [best_row]
        tables.append(table)
    return tables


def _supply_order(
    rules: Ruleset,
    house: House,
    classes: list[CardClass],
    floor: tuple[int, ...],
    score_row: Callable[[tuple[int, ...]], tuple[int, int] | None],
) -> OrderTest:
    """END-SUPPLIER, END-ORDER on one floor: can the room-discard swap's card (class k, ending on
    position p) arrive legally in some order with the house swap's part on this floor (`moved`:
    the positions it touches, `base`: the floor after it)? Before the swap, the card arrives on
    the floor as it began, on the cell the swap then moves to p; after it, on p of `base`, which
    must itself keep PLACE-B/C. A card ending on the one end of a swap between floors may have
    arrived on the other floor: always kept. The test reads this floor only (`supply_fits`), so
    it drops only rows no order reaches."""
    on_start: dict[tuple[int, int], bool] = {}

    def arrives(on: House, p: int, k: int) -> bool:
        return supply_fits(rules, on, floor[p], classes[k].room, classes[k].kind == "down")

    def orderable(base: tuple[int, ...], moved: tuple[int, ...], p: int, k: int) -> bool:
        if len(moved) == 1 and p == moved[0]:
            return True
        first = moved[0] + moved[1] - p if len(moved) == 2 and p in moved else p
        if (first, k) not in on_start:
            on_start[first, k] = arrives(house, first, k)
        if on_start[first, k]:
            return True
        if not moved or score_row(base) is None:
            return False
        after = house
        for q in moved:
            c = classes[base[q]]
            code = c.room if c.kind != "down" else FACE_DOWN
            after = after.place(floor[q], code, c.token if c.kind == "token" else 0, c.room if c.kind == "down" else 0)
        return arrives(after, p, k)

    return orderable


def _dominated(row: Row, groups: dict[tuple[int, SwapPart], list[Row]]) -> bool:
    """Another best row at least as good that needs no more: no more room-discard swap, the same swap part
    (or none instead of a swap inside the floor), and every bonus type this one shows."""
    sup, role, shown = row.signature
    for other_role in (role, ()) if role[:1] == ("both",) else (role,):
        for other_sup in range(sup + 1):
            for other in groups.get((other_sup, other_role), ()):
                if other is not row and other.signature[2] & shown == shown and other.value >= row.value:
                    return True
    return False


@dataclass
class TableSolve:
    rows: list[Row]  # the chosen row per floor
    score: int  # the final house's score without the roof
    status: str


def solve_tables(
    rules: Ruleset,
    tables: list[FloorTable],
    n_sup: int,
    n_hand: int,
    bonus_plus: int,
    constant: int,
    cuts: list[list[Row]],
    settings: SolveSettings,
) -> TableSolve | None:
    """One CP-SAT solve over the rows now shown; None when no solution was found in time."""
    m = cp_model.CpModel()
    t = rules.tables
    lits: list[list[tuple[cp_model.IntVar, Row]]] = []
    objective: list[cp_model.LinearExpr] = []
    for f, table in enumerate(tables):
        here: list[tuple[cp_model.IntVar, Row]] = []
        for rows in table.shown.values():
            for row in rows:
                here.append((m.new_bool_var(f"f{f}_{len(here)}"), row))
        m.add_exactly_one(v for v, _ in here)
        objective += [row.value * v for v, row in here if row.value]
        lits.append(here)
    chosen = [(v, row) for here in lits for v, row in here]
    if n_sup < 1:
        m.add(sum(v for v, row in chosen if row.signature[0]) == 0)
    else:
        m.add(sum(v for v, row in chosen if row.signature[0]) <= n_sup)
    both = [v for v, row in chosen if row.signature[1][:1] == ("both",)]
    ends: dict[tuple[int, int], list[cp_model.IntVar]] = {}
    for v, row in chosen:
        role = row.signature[1]
        if role and role[0] == "end":
            ends.setdefault((role[1], role[2]), []).append(v)
    m.add(2 * sum(both) + sum(v for vs in ends.values() for v in vs) <= 2 * n_hand)
    for (x, y), vs in ends.items():
        if x < y:
            m.add(sum(vs) == sum(ends.get((y, x), [])))
        elif (y, x) not in ends:
            m.add(sum(vs) == 0)

    def support(code: int, f: int) -> list[cp_model.IntVar]:
        return [v for v, row in lits[f] if row.signature[2] >> code & 1]

    bonus_lits = [(lit, points + bonus_plus) for lit, points in add_bonuses(m, t, support)]
    objective += [SCALE * value * lit for lit, value in bonus_lits]
    by_row = {(f, row.signature, row.cells): v for f, here in enumerate(lits) for v, row in here}
    for cut in cuts:
        m.add(sum(by_row[f, row.signature, row.cells] for f, row in enumerate(cut)) <= len(cut) - 1)
    m.maximize(sum(objective))
    # The rows are already the reduced model: CP-SAT's presolve measured costlier than it saves
    # here, and so did probing with SAT inprocessing (off: 1.8 ms median a solve against 5.0 ms, on
    # the benchmark's 200 models; the LP bound of exact rows finds and proves the optimum at once).
    solver = new_solver(replace(settings, workers=1, presolve=False, probing=False))
    result = solver.solve(m)
    if not found(result):
        return None
    rows = [next(row for v, row in here if solver.value(v)) for here in lits]
    score = sum(row.score for row in rows) + sum(p for lit, p in bonus_lits if solver.value(lit)) + constant
    return TableSolve(rows, score, solver.status_name(result))


def expand(tables: list[FloorTable], rows: list[Row]) -> None:
    """After a cut: every signature back in the model, and the next row of each signature whose
    last shown row the cut used (see the module docstring for why this keeps the answer exact)."""
    for table, row in zip(tables, rows):
        table.unprune()
        shown = table.shown[row.signature]
        if shown[-1] is row or shown[-1].cells == row.cells:
            table.show_next(row.signature)
