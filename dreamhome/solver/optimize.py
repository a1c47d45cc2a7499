"""`best_final_score(house)`: the best final score with the helpers the house holds.

END-ORDER: each room-discard swap, house swap and roof-discard take once, in any order. The roof
is independent of the rooms, so the roof-discard pick is exact by enumeration
(endgame.best_roof_discard_picks); the room actions are one CP-SAT model over
stages (model.py), one stage per end-game swap use. The answer is replayed on
the real house with the ordinary rules code and rescored before it is
returned: a disagreement is a bug and raises, never a wrong claim.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypeAlias

from dreamhome.engine.cpsat import CardClass, HouseModel, SolveSettings, classes_for, found, new_solver
from dreamhome.engine.endgame import (
    END_ROLES,
    ROOF_DISCARD_TAKE,
    ROOM_DISCARD_SWAP,
    HelperUses,
    ReplayError,
    best_roof_discard_picks,
    find_sequence,
    helper_uses,
    resolve_tokens,
    swap_pair,
    swap_with_room_discard,
    take_from_roof_discard,
)
from dreamhome.engine.furnishings import outside_points
from dreamhome.engine.helpers import empty_room_points, helper_amounts
from dreamhome.engine.roof import best_roof_points
from dreamhome.errors import DreamhomeError
from dreamhome.gc_pause import cyclic_gc_paused
from dreamhome.house import House, house_to_json
from dreamhome.legality import final_state_violations, house_violations, summarize_violations
from dreamhome.ruleset import EMPTY, FACE_DOWN, ROOM0, SCAFFOLD, Ruleset
from dreamhome.scoring import add_final_score, score_total
from dreamhome.solver.effects import add_final_house
from dreamhome.solver.end_tables import SCALE, Row, RowScorer, build_tables, expand, solve_tables, tables_apply
from dreamhome.solver.swaps import Swaps

SequenceStep: TypeAlias = tuple[str, int, str, bool] | tuple[str, int, int]
"""A step of `endgame.find_sequence`: (ROOM_DISCARD_SWAP, cell, incoming room id, face down)
or (a swap role of `endgame.SWAP_ROLES`, cell, cell)."""
RoomsSolve: TypeAlias = tuple[list["EndAction"], str, int | None, int]
"""The room actions' answer: (actions, CP-SAT status, the score the model claims or None, refused houses)."""


@dataclass(frozen=True)
class EndAction:
    """One end-game use (END-ORDER): `kind` is its role (engine.endgame.END_ROLES), `helper` the card
    that gives it; messages print the card's own name from the rules file."""

    kind: str
    helper: str
    cells: tuple[int, ...] = ()
    incoming: str | None = None  # a room id (a room-discard swap)
    outgoing: str | None = None
    face_down: bool = False
    roof: tuple[int, bool] | None = None

    def describe(self, rules: Ruleset) -> str:
        names = [rules.board.cells[c] for c in self.cells]
        who = rules.held(self.helper).name.lower()
        if len(self.cells) == 2:  # a swap of two house cards (endgame.SWAP_ROLES)
            return f"{who}: swap {names[0]} with {names[1]}"
        if self.kind == ROOM_DISCARD_SWAP:
            assert self.incoming is not None
            incoming = rules.room(self.incoming).name.lower()
            how = " face down" if self.face_down else ""
            out = rules.room(self.outgoing).name.lower() if self.outgoing else "an empty room"
            return f"{who}: {names[0]} takes a {incoming}{how} from the discard pile ({out} goes to the pile)"
        assert self.roof is not None
        colour = rules.roofs[self.roof[0]].name.lower()
        return f"{who}: take a {colour} roof{' with a window' if self.roof[1] else ''} from the roof discard pile"

    def to_json(self, rules: Ruleset) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, "helper": self.helper, "text": self.describe(rules)}
        if self.cells:
            out["cells"] = [rules.board.cells[c] for c in self.cells]
        if self.kind == ROOM_DISCARD_SWAP:
            out.update(incoming=self.incoming, outgoing=self.outgoing, face_down=self.face_down)
        if self.roof is not None:
            out["roof"] = {"color": rules.roofs[self.roof[0]].id, "window": self.roof[1]}
        return out


@dataclass(frozen=True)
class Step:
    action: EndAction
    before: int
    after: int
    detail: str = ""  # what the action moved, named for a player

    def explain(self, rules: Ruleset) -> str:
        text = self.action.describe(rules)
        if self.detail:
            text += f" ({self.detail})"
        return f"{text} — score {self.before} → {self.after}"


@dataclass(frozen=True)
class FinalScore:
    total: int
    optimal: bool
    steps: tuple[Step, ...]
    house: House
    start: int  # the score before any action
    status: str
    seconds: float
    refused: int = 0  # proposed final houses no order of actions reaches (cut off and solved again)

    @property
    def actions(self) -> tuple[EndAction, ...]:
        return tuple(s.action for s in self.steps)

    def to_json(self, rules: Ruleset) -> dict[str, object]:
        return {
            "total": self.total,
            "optimal": self.optimal,
            "start": self.start,
            "actions": [
                dict(s.action.to_json(rules), score_before=s.before, score_after=s.after, explanation=s.explain(rules))
                for s in self.steps
            ],
            "house": house_to_json(rules, self.house),
            "status": self.status,
            "seconds": round(self.seconds, 4),
        }


def require_finished(rules: Ruleset, house: House, source: str = "house") -> None:
    """`optimize` needs a finished, legal house (docs/formats.md)."""
    violations = house_violations(rules, house)
    if violations:
        raise DreamhomeError(
            f"{source}: the house is illegal before any action ({summarize_violations(violations)}); see `dreamhome check`"
        )
    open_cells = [rules.board.cells[i] for i, c in enumerate(house.cells) if c in (EMPTY, SCAFFOLD)]
    if open_cells:
        raise DreamhomeError(
            f"{source}: the house is not finished ({', '.join(open_cells)} still open); use `dreamhome place` for a house in play"
        )
    cards = [v for v in final_state_violations(rules, house) if v.rule == "ROUND-6"]
    if cards:  # a full board holding more cards than the rounds deal (ROUND-6): no game ends so
        raise DreamhomeError(f"{source}: not a game's end ({summarize_violations(cards)})")


def best_final_score(
    rules: Ruleset,
    house: House,
    *,
    time_limit: float | None = None,
    workers: int = 1,
    seed: int = 0,
    source: str = "house",
    deterministic_time: float | None = None,
    model: str = "auto",
) -> FinalScore:
    """The best final score reachable with the house's end-game helpers (END-*).

    `deterministic_time` bounds CP-SAT's work in its deterministic units instead of seconds, so
    an answer that feeds a game or a what-if is the same on any machine under any load.
    `model`: "tables" (per-floor outcome tables, end_tables.py), "cells" (effects.py), or "auto":
    the tables where they apply (at most one room-discard swap and one house swap), else the cells.
    """
    if model not in ("auto", "tables", "cells"):
        raise ValueError(f"unknown model {model!r}")
    with cyclic_gc_paused():
        return _best_final_score(rules, house, time_limit, workers, seed, source, deterministic_time, model)


def _best_final_score(
    rules: Ruleset,
    house: House,
    time_limit: float | None,
    workers: int,
    seed: int,
    source: str,
    deterministic_time: float | None,
    model: str,
) -> FinalScore:
    started = time.perf_counter()
    require_finished(rules, house, source)
    uses = helper_uses(rules, house)
    start_score = score_total(rules, house)

    # The roof-discard take: exact by enumeration, independent of the rooms.
    _roof_points, picks = best_roof_discard_picks(rules, house.roofs, house.discard_roofs, len(uses.roof_discard_take))

    n_sup = len(uses.room_discard_swap) if house.discard_rooms else 0
    swaps = Swaps.of(uses)
    room_actions: list[EndAction] = []
    status, claimed, refused = "OPTIMAL", None, 0
    if n_sup or swaps:
        room_actions, status, claimed, refused = _solve_rooms(
            rules, house, uses, n_sup, swaps, time_limit, workers, seed, deterministic_time, model
        )

    actions = list(room_actions)
    for k, roof in enumerate(picks):
        actions.append(EndAction(ROOF_DISCARD_TAKE, uses.roof_discard_take[k], roof=roof))
    steps, final = _replay(rules, house, actions)
    total = score_total(rules, final)
    after_rooms = steps[len(room_actions) - 1].after if room_actions else start_score
    # A proven answer scores exactly what the model claims; a search stopped by the time limit may
    # leave objective terms below its house's real score, never above. (A search stopped by a
    # signal never gets here: the solve raises interrupt.Interrupted.)
    expected = None if claimed is None else claimed + best_roof_points(rules, list(house.roofs))
    if expected is not None and (after_rooms != expected if status == "OPTIMAL" else after_rooms < expected):
        raise RuntimeError(f"internal error: the model claims {claimed} (+ roof) but the replayed house scores {after_rooms}")
    seconds = time.perf_counter() - started
    return FinalScore(total, status == "OPTIMAL", tuple(steps), final, start_score, status, seconds, refused)


def _replay(rules: Ruleset, house: House, actions: list[EndAction]) -> tuple[list[Step], House]:
    steps: list[Step] = []
    current = house
    for action in actions:
        before = score_total(rules, resolve_tokens(rules, current))
        detail = ""
        try:
            if action.kind == ROOM_DISCARD_SWAP:
                cell = action.cells[0]
                code = current.cells[cell] if current.cells[cell] != FACE_DOWN else current.under[cell]
                action = replace(action, outgoing=rules.room_of_code(code).id if code else None)
                assert action.incoming is not None
                current = swap_with_room_discard(rules, current, action.cells[0], action.incoming, action.face_down)
            elif len(action.cells) == 2:  # a swap of two house cards (endgame.SWAP_ROLES)
                a, b = action.cells
                detail = f"{_card_name(rules, current, a)} ↔ {_card_name(rules, current, b)}"
                current = swap_pair(rules, current, a, b, action.kind)
            else:
                assert action.roof is not None
                current = take_from_roof_discard(rules, current, action.roof)
        except ReplayError as exc:  # a bug in the model, never bad input
            raise RuntimeError(f"internal error: the solver's {action.kind} action does not replay: {exc}") from exc
        steps.append(Step(action, before, score_total(rules, resolve_tokens(rules, current)), detail))
    return steps, resolve_tokens(rules, current)


def _card_name(rules: Ruleset, house: House, cell: int) -> str:
    code = house.cells[cell]
    if code == FACE_DOWN:
        return "empty room"
    name = rules.room_of_code(code).name.lower()
    if house.tokens[cell]:
        name += f" with {rules.furnishings[house.tokens[cell] - 1].name.lower()}"
    return name


def _solve_rooms(
    rules: Ruleset,
    house: House,
    uses: HelperUses,
    n_sup: int,
    swaps: Swaps,
    time_limit: float | None,
    workers: int,
    seed: int,
    deterministic_time: float | None,
    model: str,
) -> RoomsSolve:
    """The best final house by CP-SAT over the relaxation in effects.py, each proposal
    checked for an action order (endgame.find_sequence) and cut off if it has none."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    discard_types = sorted({rules.room(r).code for r in house.discard_rooms})
    house_types = sorted({c for c in house.cells if c >= ROOM0} | {u for u in house.under if u})
    relevant = sorted(set(discard_types) | (set(house_types) if n_sup >= 2 else set()))
    face_down_ok = rules.options["swap_face_down"] == "allowed"
    # With one room-discard swap, the printed type under an incoming empty room never matters again:
    # one representative face-down class stands for all of them.
    down_types = (relevant if n_sup >= 2 else relevant[:1]) if n_sup and face_down_ok else []
    classes = classes_for(rules, [house], extra_types=relevant if n_sup else (), down_types=down_types)
    incoming = [
        k
        for k, c in enumerate(classes)
        if (c.kind == "up" and c.printed in relevant) or (c.kind == "down" and c.printed in down_types)
    ]
    # The tables model swaps any two cells only (END-HANDYMAN); a restricted swap role uses the cells model.
    on_tables = not swaps.restricted and tables_apply(rules, n_sup, swaps.any_pair)
    if model == "tables" and not on_tables:
        raise ValueError(
            "the tables model needs at most one room-discard swap and one house swap (of any two cells)"
            " and annex neighbours on one floor"
        )
    if model != "cells" and on_tables:
        return _solve_on_tables(rules, house, uses, n_sup, swaps.any_pair, classes, incoming, deadline, seed, deterministic_time)
    hm = HouseModel(rules, classes)
    m = hm.model
    pile = [rules.room(r).code for r in house.discard_rooms]
    final = add_final_house(hm, house, n_sup, swaps, {t: pile.count(t) for t in relevant}, incoming)
    add_final_score(hm, final.stage, house)
    changed = sum(1 - u for u in final.unchanged)
    m.maximize(SCALE * hm.objective_expr() - changed)

    settings = SolveSettings(workers=workers, seed=seed, deterministic_time=deterministic_time)
    status_name = "UNKNOWN"
    n = rules.board.size
    refused = 0
    while True:
        if deadline is not None and deadline - time.perf_counter() <= 0:
            return [], "TIME_LIMIT", None, refused
        solver = new_solver(settings.until(deadline, time.perf_counter()))
        result = solver.solve(m)
        status_name = solver.status_name(result)
        if not found(result):
            return [], status_name, None, refused  # doing nothing is always legal
        chosen = [
            next(
                k
                for k in range(len(classes))
                if (c, k) in final.class_lits and any(solver.value(v) for v in final.class_lits[c, k])
            )
            for c in range(n)
        ]
        target = [(classes[k].kind, classes[k].room, classes[k].token) for k in chosen]
        try:
            sequence = find_sequence(rules, house, target, uses)
        except TimeoutError:
            sequence = None
        if sequence is not None:
            claimed = round(solver.objective_value + sum(solver.value(1 - u) for u in final.unchanged)) // SCALE
            break
        # No order of actions reaches this final house: cut it off and solve again.
        m.add(sum(v for c in range(n) for v in final.class_lits[c, chosen[c]]) <= n - 1)
        refused += 1

    return _actions(sequence, uses), status_name, claimed, refused


def _actions(sequence: Sequence[SequenceStep], uses: HelperUses) -> list[EndAction]:
    actions = []
    cards = {role: list(uses.of(role)) for role in END_ROLES}  # each role's cards, used in order
    for step in sequence:
        if step[0] == ROOM_DISCARD_SWAP:
            assert len(step) == 4
            _kind, cell, room_id, face_down = step
            actions.append(EndAction(ROOM_DISCARD_SWAP, cards[ROOM_DISCARD_SWAP].pop(0), (cell,), room_id, None, face_down))
        else:
            assert len(step) == 3  # a swap of two house cards (endgame.SWAP_ROLES)
            actions.append(EndAction(step[0], cards[step[0]].pop(0), (step[1], step[2])))
    return actions


def _solve_on_tables(
    rules: Ruleset,
    house: House,
    uses: HelperUses,
    n_sup: int,
    n_hand: int,
    classes: list[CardClass],
    incoming: list[int],
    deadline: float | None,
    seed: int,
    deterministic_time: float | None,
) -> RoomsSolve:
    """The same relaxation on per-floor outcome tables (end_tables.py), with the same order check."""
    amounts = helper_amounts(rules.tables, house.helpers)
    scorer = RowScorer(rules, classes, empty_room_points(amounts, 1), amounts.token_plus)
    tables = build_tables(rules, house, classes, incoming, n_sup, n_hand, scorer)
    constant = outside_points(rules, house, amounts.token_plus)
    cuts: list[list[Row]] = []
    unreachable: set[tuple[int, ...]] = set()
    settings = SolveSettings(seed=seed, deterministic_time=deterministic_time)
    while True:
        if deadline is not None and deadline - time.perf_counter() <= 0:
            return [], "TIME_LIMIT", None, len(cuts)
        solved = solve_tables(
            rules, tables, n_sup, n_hand, amounts.bonus_plus, constant, cuts, settings.until(deadline, time.perf_counter())
        )
        if solved is None:
            return [], "UNKNOWN", None, len(cuts)  # doing nothing is always legal
        target_cells = [0] * rules.board.size
        for table, row in zip(tables, solved.rows):
            for cell, k in zip(table.cells, row.cells):
                target_cells[cell] = k
        target = [(classes[k].kind, classes[k].room, classes[k].token) for k in target_cells]
        sequence = None
        if tuple(target_cells) not in unreachable:
            try:
                sequence = find_sequence(rules, house, target, uses)
            except TimeoutError:
                sequence = None
        if sequence is not None:
            return _actions(sequence, uses), solved.status, solved.score, len(cuts)
        # No order of actions reaches this house: cut off this choice of rows and show more rows (end_tables.expand).
        unreachable.add(tuple(target_cells))
        cuts.append(solved.rows)
        expand(tables, solved.rows)
