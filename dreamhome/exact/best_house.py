"""`best_house(rules)`: the best house possible under the rules, by an exact plain-Python search.

The same question as `dreamhome.solver.best_house` (its CP-SAT twin, the independent check):
one player's house, one room card a round placed legally (ROUND-6, PLACE-A/B/C: every cell when
the board has one space a round, else one search per way to fill the board, `best_house`), at
most one resource card a round (roofs, furnishing cards, helpers), no card used more often than
the deck holds (COMP-5). Every rule is read through `dreamhome.engine` (rooms, functionality,
furnishings, helpers, roof, placement); this module holds only the search.

With horizontal annex adjacency a floor row scores alone (`engine.rooms.row_value`), and floors
interact only through what the rest of the score reads off the whole house:

* the rooms of each furnishable type (a token per room, FURN-ONE), and complete rooms for award
  tokens (VAR-CAR) — capped at the number of tokens that could use them;
* which clauses of the functionality bonuses each floor meets (SCORE-FUNC-*);
* the empty rooms (what a helper's `empty_room` amount pays, HELP-ARCHITECT);
* the cards of each type (COMP-5).

So every legal row of a floor is enumerated once (`candidate_rows`: one of each mirror pair) and
reduced to the best row per signature (its rooms as (type, size) pairs, which fix all four). The search then runs in two passes:

1. a dynamic programme over the floors keyed by the first three (the *state*), which ignores
   COMP-5: `_Search.bound(f, state)` is the most floors f.. and the resource cards can add to a
   house whose floors before f left `state` — exact but for the card counts, so an admissible
   and very tight bound;
2. a depth-first branch and bound over the floors' signatures, checking COMP-5 as it goes: at
   each floor the part that reaches the bound first, then the others by the most they could
   add; a branch whose bound does not beat the best house found is cut. When the relaxed optimum
   obeys COMP-5 (every catalogue variant) the first house found is the answer.

The resource cards are chosen exactly for a final state (`_Search.extras`): helper copies and
the roof are enumerated, the tokens are a small knapsack over the budget left (award tokens
cost no card). The house is then built from the chosen rows, checked with
`legality.house_violations` and scored with the ordinary scorer; a mismatch raises.

`annex_adjacency = orthogonal` is refused: an annex then scores by the rows above and below it,
so a floor's value depends on its neighbours' whole rows, not on a small signature (docs/SOLVER.md).
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from operator import add
from typing import TypeAlias

from dreamhome.engine.deck import roof_cards, rooms_left
from dreamhome.engine.functionality import clause_bonuses, floor_clause_bits, functionality_clauses
from dreamhome.engine.furnishings import takes_token, token_room, token_value
from dreamhome.engine.helpers import NONE as NO_HELPERS
from dreamhome.engine.helpers import HelperAmounts, card_amounts, empty_room_points, helper_amounts, helper_points
from dreamhome.engine.placement import fillings, final_room_cards
from dreamhome.engine.roof import best_roof_choice
from dreamhome.engine.rooms import fits, room_runs, row_value
from dreamhome.errors import DreamhomeError
from dreamhome.house import House
from dreamhome.legality import final_state_violations
from dreamhome.ruleset import EMPTY, FACE_DOWN, Furnishing, Ruleset
from dreamhome.scoring import rooms_of, score_total

MAX_ROWS = 2_000_000
"""The most rows a floor may have to enumerate (its alphabet to the power of its width)."""


@dataclass(frozen=True)
class BestHouse:
    """The answer of `max`, from either engine: the total, whether it is proven, the house."""

    total: int
    optimal: bool
    house: House
    status: str
    seconds: float
    rows: int  # legal rows enumerated


@dataclass(frozen=True)
class FloorSignature:
    """The best legal row of a floor among the rows with the same rooms as (type, size) pairs:
    every row alike in that respect looks the same to the rest of the house."""

    rooms: tuple[tuple[int, int], ...]  # (room code, size) per room, sorted
    empties: int  # face-down cards
    score: int  # the row's room points (SCORE-ROOMS)
    mask: int  # face-up types present, bit 1 << code
    row: tuple[int, ...]

    def counts(self) -> Counter[int]:
        """Cards of each room type in the row (COMP-5)."""
        out: Counter[int] = Counter()
        for code, size in self.rooms:
            out[code] += size
        return out


def floor_alphabet(rules: Ruleset, floor: int) -> list[int]:
    """The codes a finished floor's cell may hold: its kind's room types, then FACE_DOWN (PLACE-B)."""
    kind = rules.board.floors[floor].kind
    return [r.code for r in rules.rooms if r.floor_kind == kind] + [FACE_DOWN]


def floor_signatures(rules: Ruleset, floor: int, filled: Sequence[bool] | None = None) -> tuple[list[FloorSignature], int]:
    """Every legal row of this floor (PLACE-C, scored by `engine.rooms.row_value`), reduced to the
    best row per signature; and how many legal rows were scored (a row and its mirror image once,
    see `candidate_rows`). `filled` (per cell of the floor) leaves the spaces it marks False
    empty (ROUND-6: a house of fewer cards than spaces); None fills them all."""
    t = rules.tables
    width = len(t.floor_cells[floor])
    alphabet = floor_alphabet(rules, floor)
    if len(alphabet) ** (width if filled is None else sum(filled)) > MAX_ROWS:
        kind = rules.board.floors[floor].kind
        raise DreamhomeError(
            f"max: a {kind} floor of {width} cells has {len(alphabet) ** width:,} rows to enumerate, more than {MAX_ROWS:,}"
        )
    best: dict[tuple[tuple[int, int], ...], tuple[int, int, tuple[int, ...]]] = {}
    legal = 0
    for row in candidate_rows(rules, floor, filled):
        value = row_value(t, floor, row)
        if value is None:
            continue
        legal += 1
        score, mask, spans = value
        key = tuple(sorted([(row[i], j - i) for i, j in spans]))
        kept = best.get(key)
        if kept is None or score > kept[0]:
            best[key] = (score, mask, row)
    out = [FloorSignature(key, row.count(FACE_DOWN), score, mask, row) for key, (score, mask, row) in best.items()]
    out.sort(key=lambda s: -s.score)
    return out, legal


def candidate_rows(rules: Ruleset, floor: int, filled: Sequence[bool] | None = None) -> Iterator[tuple[int, ...]]:
    """The rows of a finished floor worth scoring: every row over the floor's alphabet, except
    that when "beside" reads the same from both ends (always, with horizontal adjacency) a row and
    its mirror image have the same rooms and points, so only one of the two is given; and halves
    holding a room too large (PLACE-C, `engine.rooms.fits`) are never extended. With `filled`
    not all True, every row with EMPTY on the spaces it leaves empty (no mirror pairs then)."""
    t = rules.tables
    width = len(t.floor_cells[floor])
    alphabet = sorted(floor_alphabet(rules, floor))
    if filled is not None and not all(filled):
        yield from itertools.product(*(alphabet if f else [EMPTY] for f in filled))
        return
    near = t.annex_row_neighbours[floor]
    mirrored = all(sorted(width - 1 - q for q in near[k]) == sorted(near[width - 1 - k]) for k in range(width))
    if not mirrored:
        yield from itertools.product(alphabet, repeat=width)
        return

    def legal(part: tuple[int, ...]) -> bool:
        return all(fits(t, code, stop - start) for _r, start, stop, code in room_runs(part, (range(len(part)),)))

    halves = [half for half in itertools.product(alphabet, repeat=width // 2) if legal(half)]  # sorted, as the alphabet is
    middles = [(c,) for c in alphabet] if width % 2 else [()]
    # Each back half read backwards, with each middle in front of it, in the order of the halves.
    tails = [[middle + half[::-1] for middle in middles] for half in halves]
    flat = [tail if legal(tail) else () for group in tails for tail in group]
    step = len(middles)
    for i, front in enumerate(halves):
        for tail in itertools.islice(flat, i * step, None):  # front <= the back read backwards: one of each mirror pair
            if tail:
                yield front + tail


def signatures_by_floor(
    rules: Ruleset, filling: Sequence[bool] | None = None, cache: dict[tuple[object, ...], list[FloorSignature]] | None = None
) -> tuple[list[list[FloorSignature]], int]:
    """`floor_signatures` of every floor, its spaces filled as `filling` says (per board cell; None:
    all); floors alike in kind, width, annex neighbours and filling share one enumeration (`cache`
    keeps them across calls). Returns the lists and the legal rows enumerated."""
    t = rules.tables
    cache = {} if cache is None else cache
    rows = 0
    out = []
    for fi, floor in enumerate(rules.board.floors):
        filled = None if filling is None else tuple(filling[c] for c in t.floor_cells[fi])
        if filled is not None and all(filled):
            filled = None
        key = (floor.kind, len(t.floor_cells[fi]), t.annex_row_neighbours[fi], filled)
        if key not in cache:
            cache[key], legal = floor_signatures(rules, fi, filled)
            rows += legal
        out.append(cache[key])
    return out, rows


def refuse_unsupported(rules: Ruleset) -> int:
    """`max` reads each floor row alone: annex neighbours must stay on their floor. A finished
    house holds one room card a round (ROUND-6), each space filled when the board has one a
    round; a face-down card may be of any type the deck has left, so the deck's size is the only
    limit beyond the face-up counts (COMP-5). Round-start takes without `skip_turn` would add cards
    beyond one a round on a board with spaces to spare: refused. Returns the house's room cards."""
    if not rules.tables.annex_on_floor:
        raise DreamhomeError(
            "max: only annex_adjacency = horizontal is supported (floors are then independent "
            "but for card counts, tokens and bonuses)"
        )
    allowed = final_room_cards(rules)
    if len(allowed) > 1:
        raise DreamhomeError(
            f"max: round-start takes without skip_turn may give a house more than its {rules.game.rounds} room cards "
            f"(one a round) on a board of {rules.board.size} spaces; not supported (ROUND-6, TOOL-TIMING)"
        )
    n = allowed.start
    if n > rules.board.size:
        raise DreamhomeError(
            f"max: {n} rounds give a house {n} room cards, more than the board's {rules.board.size} spaces (ROUND-6)"
        )
    cards = sum(r.count for r in rules.rooms)
    if cards < n:
        where = f"the board's {n} spaces" if n == rules.board.size else f"the {n} a house holds (ROUND-6)"
        raise DreamhomeError(f"max: the deck holds {cards} room cards, fewer than {where} (COMP-5)")
    return n


# ---------------------------------------------------------------- the resource cards
State: TypeAlias = int
"""A state packed in one int (`_Search.encode`): the id of its capped vector (rooms per token type,
complete rooms per award type), then the met clauses as bits, then the empty rooms. An int keeps
the bound's hot loop (a join and a dict look-up per part) about twice as fast as tuples."""


@dataclass(frozen=True)
class Plan:
    """The resource cards of a house: tokens (furnishing, copies), scoring helpers, the roof."""

    value: int
    tokens: tuple[tuple[Furnishing, int], ...]
    helpers: tuple[str, ...]
    roof: bool


@dataclass(frozen=True)
class _Option:
    cost: int
    value: int
    picks: tuple[Furnishing, ...]


class _Search:
    """The two passes of the module docstring over one ruleset's floor signatures."""

    def __init__(self, rules: Ruleset, floors: list[list[FloorSignature]], deadline: float | None) -> None:
        t = rules.tables
        self.rules = rules
        self.t = t
        self.deadline = deadline
        self.timed_out = False
        self.nodes = 0
        # Tokens by the room type they stand in (FURN-TYPE); award tokens need a complete room (VAR-CAR).
        self.token_types = sorted({token_room(t, f.code) for f in rules.furnishings if f.room})
        self.award_types = sorted({token_room(t, f.code) for f in rules.furnishings if f.room and f.award})
        self.room_cap = [
            sum(1 if f.award else f.count for f in rules.furnishings if f.room and token_room(t, f.code) == y)
            for y in self.token_types
        ]
        self.award_cap = [sum(1 for f in rules.furnishings if f.award and token_room(t, f.code) == y) for y in self.award_types]
        self.caps = self.room_cap + self.award_cap
        # Token copies by room type (0: outside), best first: cards, and card-less tokens without an award.
        self.awards = [f for f in rules.furnishings if f.award]
        self.by_type = []
        for y in [*self.token_types, 0]:
            items = [f for f in rules.furnishings if not f.award and token_room(t, f.code) == y for _ in range(f.count)]
            paid = sorted((f for f in items if f.is_card), key=lambda f: -token_value(t, f.code, 0))
            gratis = sorted((f for f in items if not f.is_card), key=lambda f: -token_value(t, f.code, 0))
            self.by_type.append((y, paid, gratis))
        # One bit per clause of each functionality bonus (SCORE-FUNC-*, engine.functionality).
        self.bonus_clauses = functionality_clauses(t)
        self.n_clauses = len(self.bonus_clauses[0])
        # Scoring helpers, copy by copy (HELP-ARCHITECT, HELP-DESIGNER, HELP-COPIES).
        self.helpers = []
        for card in rules.helpers + rules.tools:
            if card.kind != "helper":
                continue
            amounts = card_amounts(t, card.id)
            if amounts != NO_HELPERS:
                self.helpers.append((card.id, card.count, amounts))
        self.empties_count = any(empty_room_points(a, 1) for _, _, a in self.helpers)
        self.roof_value, self.roof_choice = best_roof_choice(rules, roof_cards(rules))
        self.roofs = [(0, 0)] + ([(len(self.roof_choice), self.roof_value)] if self.roof_choice else [])
        # Every choice of helper copies: (cards, their amounts summed by engine.helpers, helper ids).
        self.copies: list[tuple[int, HelperAmounts, tuple[str, ...]]] = []
        for copies in itertools.product(*(range(count + 1) for _, count, _ in self.helpers)):
            ids = tuple(sorted(hid for n, (hid, _, _) in zip(copies, self.helpers) for _ in range(n)))
            self.copies.append((sum(copies), helper_amounts(t, ids), ids))
        self.rounds = rules.game.rounds
        self.limit = {r.code: r.count for r in rules.rooms}
        # The packing of states (see State).
        self.vectors: list[tuple[int, ...]] = []
        self.vector_ids: dict[tuple[int, ...], int] = {}
        self.vector_joins: dict[int, int] = {}
        self.e_bits = max(1, rules.board.size.bit_length())
        self.shift = self.e_bits + self.n_clauses
        self.e_mask = (1 << self.e_bits) - 1
        self.met_mask = ((1 << self.n_clauses) - 1) << self.e_bits
        # Floors: each signature with its part of the state, grouped by it.
        self.n = len(floors)
        self.groups: list[dict[State, list[FloorSignature]]] = []
        for f, sigs in enumerate(floors):
            by_key: dict[State, list[FloorSignature]] = {}
            for sig in sigs:  # sorted best first, so each group is too
                by_key.setdefault(self.part(f, sig), []).append(sig)
            self.groups.append(by_key)
        self.parts = [[(k, sigs[0].score) for k, sigs in g.items()] for g in self.groups]
        self.zero: State = self.encode((0,) * len(self.caps), 0, 0)
        # Every choice of helper copies and roof: (token budget left, index of its token_plus, the
        # copies' amounts, roof points, index of the copies, roof or not); `extras_value` reads only these.
        self.plus_ts = sorted({a.token_plus for _, a, _ in self.copies})
        self.choices: list[tuple[int, int, HelperAmounts, int, int, bool]] = []
        for c, (cost, amounts, _ids) in enumerate(self.copies):
            for roof_cost, roof_value in self.roofs:
                if cost + roof_cost <= self.rounds:
                    budget = self.rounds - cost - roof_cost
                    self.choices.append((budget, self.plus_ts.index(amounts.token_plus), amounts, roof_value, c, roof_cost > 0))
        self.value_tables: dict[int, list[list[int]]] = {}
        self.memo: list[dict[State, int]] = [{} for _ in range(self.n + 1)]
        self.arg: list[dict[State, State | None]] = [{} for _ in range(self.n)]
        self.ceilings: dict[tuple[int, int], int] = {}
        self.orders: dict[tuple[int, int], list[tuple[int, State, int]]] = {}
        self.all_clauses = (1 << self.n_clauses) - 1
        self.monotone = all(min(a) >= 0 for _, _, a in self.helpers)
        self.token_memo: dict[tuple[tuple[int, ...], int], list[tuple[int, tuple[Furnishing, ...]]]] = {}
        self.best = -(10**9)
        self.best_rows: list[FloorSignature] = []
        self.best_state: State = self.zero

    # -- states
    def part(self, f: int, sig: FloorSignature) -> State:
        """What one floor's row adds to the state."""
        rooms = [0] * len(self.token_types)
        complete = [0] * len(self.award_types)
        for code, size in sig.rooms:
            if code in self.token_types:
                rooms[self.token_types.index(code)] += 1
            if code in self.award_types and any(takes_token(self.t, a.code, code, size) for a in self.awards):
                complete[self.award_types.index(code)] += 1
        met = floor_clause_bits(self.bonus_clauses, f, sig.mask)
        return self.encode(tuple(map(min, self.caps, rooms + complete)), met, sig.empties if self.empties_count else 0)

    def encode(self, vector: tuple[int, ...], met: int, empties: int) -> State:
        """The state of this capped vector, met clauses and empty rooms."""
        vid = self.vector_ids.get(vector)
        if vid is None:
            vid = self.vector_ids[vector] = len(self.vectors)
            self.vectors.append(vector)
        return (vid << self.shift) | (met << self.e_bits) | empties

    def decode(self, s: State) -> tuple[tuple[int, ...], int, int]:
        """(capped vector, met clauses, empty rooms) of a state."""
        return self.vectors[s >> self.shift], (s & self.met_mask) >> self.e_bits, s & self.e_mask

    def join(self, s: State, k: State) -> State:
        """The state of two parts of a house together: rooms capped at what tokens can use,
        clauses met by either, empty rooms added."""
        key = ((s >> self.shift) << 32) | (k >> self.shift)
        vid = self.vector_joins.get(key)
        if vid is None:
            joined = tuple(map(min, self.caps, map(add, self.vectors[s >> self.shift], self.vectors[k >> self.shift])))
            vid = self.vector_joins[key] = self.encode(joined, 0, 0) >> self.shift
        return (vid << self.shift) | ((s | k) & self.met_mask) | ((s & self.e_mask) + (k & self.e_mask))

    # -- pass 1: the bound
    def ceiling(self, f: int, empties: int) -> int:
        """No state with these empty rooms has a larger `bound(f, ·)`: the bound of the fullest such
        state (every room a token can use, every clause met), since the extras never fall as the
        state grows — when no helper amount is negative; else no ceiling."""
        key = (f, empties)
        got = self.ceilings.get(key)
        if got is None:
            got = self.bound(f, self.encode(tuple(self.caps), self.all_clauses, empties)) if self.monotone else 10**9
            self.ceilings[key] = got
        return got

    def order(self, f: int, empties: int) -> list[tuple[int, State, int]]:
        """Floor f's parts, for a state with these empty rooms, as (the most the part and the floors
        after it could add, part, its best score), most first: `bound` and the search stop at the
        first that cannot beat what they have."""
        key = (f, empties)
        got = self.orders.get(key)
        if got is None:
            got = sorted(
                ((score + self.ceiling(f + 1, empties + (k & self.e_mask)), k, score) for k, score in self.parts[f]),
                key=lambda x: -x[0],
            )
            self.orders[key] = got
        return got

    def bound(self, f: int, s: State) -> int:
        """The most floors f.. and the resource cards can add to state `s`, card counts aside;
        also records the part that reaches it (`self.arg`), where the search looks first."""
        memo = self.memo[f]
        got = memo.get(s)
        if got is not None:
            return got
        if f == self.n:
            value = self.extras_value(s)
        else:
            bound, nxt, joins, shift, met_mask, e_mask = (
                self.bound,
                f + 1,
                self.vector_joins,
                self.shift,
                self.met_mask,
                self.e_mask,
            )
            high = (s >> shift) << 32
            empties = s & e_mask
            value = -(10**9)
            arg = None
            for most, k, score in self.order(f, empties):
                if most <= value:
                    break  # no later part can do better
                vid = joins.get(high | (k >> shift))  # self.join inlined: the hot loop
                after = self.join(s, k) if vid is None else (vid << shift) | ((s | k) & met_mask) | (empties + (k & e_mask))
                v = score + bound(nxt, after)
                if v > value:
                    value, arg = v, k
            self.arg[f][s] = arg
        memo[s] = value
        return value

    # -- the resource cards for a final state
    def extras_value(self, s: State) -> int:
        """The most the resource cards add to a house in state `s` (`extras` without the plan: the
        bound's hot path, one pass over the precomputed choices of helper copies and roof)."""
        key = s >> self.shift
        tables = self.value_tables.get(key)
        if tables is None:
            vector = self.vectors[key]
            rooms, complete = vector[: len(self.token_types)], vector[len(self.token_types) :]
            tables = [[value for value, _ in self.tokens(rooms, complete, plus_t)] for plus_t in self.plus_ts]
            self.value_tables[key] = tables
        bonus_points, n_bonuses = clause_bonuses(self.bonus_clauses, (s & self.met_mask) >> self.e_bits)
        empties = s & self.e_mask
        best = -(10**9)
        for budget, t, amounts, roof_value, _c, _roof in self.choices:
            value = tables[t][budget] + helper_points(amounts, n_bonuses, empties) + roof_value
            if value > best:
                best = value
        return best + bonus_points

    def extras(self, s: State) -> Plan:
        """The best resource cards for a house in state `s`: bonuses met, helper copies, roof, tokens."""
        vector, met, empties = self.decode(s)
        rooms, complete = vector[: len(self.token_types)], vector[len(self.token_types) :]
        bonus_points, n_bonuses = clause_bonuses(self.bonus_clauses, met)
        best: tuple[int, int, int, bool] = (-(10**9), 0, 0, False)  # value, copies, budget, roof
        for budget, _t, amounts, roof_value, c, roof in self.choices:
            furnished = self.tokens(rooms, complete, amounts.token_plus)[budget][0]
            value = furnished + bonus_points + helper_points(amounts, n_bonuses, empties) + roof_value
            if value > best[0]:
                best = (value, c, budget, roof)
        value, c, budget, roof = best
        picks = self.tokens(rooms, complete, self.copies[c][1].token_plus)[budget][1]
        tokens = tuple(sorted(Counter(picks).items(), key=lambda x: x[0].index))
        return Plan(value, tokens, self.copies[c][2], roof)

    def tokens(self, rooms: tuple[int, ...], complete: tuple[int, ...], plus_t: int) -> list[tuple[int, tuple[Furnishing, ...]]]:
        """Per budget of furnishing cards, the best tokens (value, picks): at most one per room of
        their type (FURN-ONE), each furnishing at most its count, award tokens only in complete
        rooms and at most one (VAR-CAR); each worth its points plus `plus_t` (HELP-DESIGNER)."""
        key = (rooms + complete, plus_t)
        got = self.token_memo.get(key)
        if got is not None:
            return got
        t = self.t
        best: list[tuple[int, tuple[Furnishing, ...]]] = [(-1, ())] * (self.rounds + 1)
        for chosen in itertools.product((0, 1), repeat=len(self.awards)):
            picked = [f for f, c in zip(self.awards, chosen) if c]
            cap = dict(zip(self.token_types, rooms))
            ok = True
            for y, limit in zip(self.award_types, complete):
                used = sum(1 for f in picked if token_room(t, f.code) == y)
                cap[y] -= used
                ok = ok and used <= limit and cap[y] >= 0
            if not ok:
                continue
            base = sum(token_value(t, f.code, plus_t) for f in picked)
            # Groups: each token room type (its rooms left), and outside (no limit).
            table: list[tuple[int, tuple[Furnishing, ...]]] = [(base, tuple(picked))] + [(-(10**9), ())] * self.rounds
            for y, all_paid, all_gratis in self.by_type:
                paid = [f for f in all_paid if token_value(t, f.code, plus_t) > 0]
                gratis = [f for f in all_gratis if token_value(t, f.code, plus_t) > 0]
                room = cap[y] if y else len(paid) + len(gratis)
                options = [
                    _Option(p, sum(token_value(t, f.code, plus_t) for f in paid[:p] + gratis[:g]), tuple(paid[:p] + gratis[:g]))
                    for g in range(min(room, len(gratis)) + 1)
                    for p in range(min(room - g, len(paid)) + 1)
                ]
                if len(options) == 1:
                    continue
                merged = []
                for b, (value, picks) in enumerate(table):
                    for o in options:
                        if o.cost <= b and table[b - o.cost][0] + o.value > value:
                            value, picks = table[b - o.cost][0] + o.value, table[b - o.cost][1] + o.picks
                    merged.append((value, picks))
                table = merged
            for b in range(len(table)):
                if table[b][0] > best[b][0]:
                    best[b] = table[b]
        for b in range(1, len(best)):  # a larger budget may leave cards unused
            if best[b - 1][0] > best[b][0]:
                best[b] = best[b - 1]
        self.token_memo[key] = best
        return best

    # -- pass 2: branch and bound with the card counts
    def search(self, f: int, s: State, used: Counter[int], partial: int, rows: list[FloorSignature]) -> None:
        """Depth first over floor f's signatures, best bound first (COMP-5 checked here)."""
        if self.timed_out:
            return
        self.nodes += 1
        if self.deadline is not None and self.nodes % 256 == 0 and time.perf_counter() > self.deadline:
            self.timed_out = True
            return
        if f == self.n:
            value = partial + self.extras(s).value
            if value > self.best:
                self.best, self.best_rows, self.best_state = value, list(rows), s
            return
        self.bound(f, s)
        first = self.arg[f][s]
        if first is not None:  # the part that reaches the bound, then the others best score first
            self.branch(f, s, used, partial, rows, first, self.groups[f][first])
        for most, k, _score in self.order(f, s & self.e_mask):
            if partial + most <= self.best or self.timed_out:
                break
            if k != first:
                self.branch(f, s, used, partial, rows, k, self.groups[f][k])

    def branch(
        self, f: int, s: State, used: Counter[int], partial: int, rows: list[FloorSignature], k: State, sigs: list[FloorSignature]
    ) -> None:
        """Floor f's rows with part `k`, best first, while they may beat the best house found."""
        after = self.join(s, k)
        rest = self.bound(f + 1, after)
        for sig in sigs:
            if partial + sig.score + rest <= self.best or self.timed_out:
                break
            counts = sig.counts()
            if any(used[c] + n > self.limit[c] for c, n in counts.items()):
                continue
            used.update(counts)
            rows.append(sig)
            self.search(f + 1, after, used, partial + sig.score, rows)
            rows.pop()
            used.subtract(counts)


def best_house(rules: Ruleset, *, time_limit: float | None = None) -> BestHouse:
    """The best house possible under the rules, proven by the search of the module docstring.

    A house of fewer cards than spaces (ROUND-6) is searched for each way its cards can fill the
    board (`engine.placement.fillings`), the fillings by their bound, best first, until no bound
    beats the best house found. `time_limit` (seconds) stops the branch and bound with the best
    house found so far (`optimal` False); the row enumeration and the bound are always completed."""
    started = time.perf_counter()
    cards = refuse_unsupported(rules)
    shapes = fillings(rules, cards)
    deadline = None if time_limit is None else started + time_limit
    cache: dict[tuple[object, ...], list[FloorSignature]] = {}
    rows = 0
    searches = []
    for shape in shapes:
        floors, legal = signatures_by_floor(rules, None if all(shape) else shape, cache)
        rows += legal
        if any(not sigs for sigs in floors):
            continue
        search = _Search(rules, floors, deadline)
        searches.append((search.bound(0, search.zero), search))
    searches.sort(key=lambda x: -x[0])
    best: _Search | None = None
    timed_out = False
    for bound, search in searches:
        if best is not None and bound <= best.best:
            break
        if best is not None:
            search.best = best.best  # only a better house is worth finding
        search.search(0, search.zero, Counter(), 0, [])
        timed_out = timed_out or search.timed_out
        if search.best_rows and (best is None or search.best > best.best):
            best = search
        if timed_out:
            break
    if best is None:
        raise DreamhomeError("max: no house found" + (" within the time limit; try a longer --time-limit" if timed_out else ""))
    plan = best.extras(best.best_state)
    house = build_house(rules, [sig.row for sig in best.best_rows], plan.tokens, plan.helpers, plan.roof)
    total = score_total(rules, house)
    problems = final_state_violations(rules, house)
    if total != best.best or problems:
        raise RuntimeError(f"internal error: max search claims {best.best}, the house scores {total}; {problems[:2]}")
    status = "FEASIBLE" if timed_out else "OPTIMAL"
    return BestHouse(total, not timed_out, house, status, time.perf_counter() - started, rows)


def build_house(
    rules: Ruleset,
    rows: Sequence[Sequence[int]],
    tokens: Sequence[tuple[Furnishing, int]],
    helpers: Sequence[str],
    roof: bool,
) -> House:
    """The finished house of one row per floor with these resource cards: award tokens on complete
    rooms first (VAR-CAR), the others one per room of their type (FURN-ONE), the best roof if any,
    and a printed card the deck still has under each face-down card (COMP-5)."""
    t = rules.tables
    n_cells = rules.board.size
    cells = [0] * n_cells
    for floor_index, row in enumerate(rows):
        for cell, code in zip(rules.board.floor_cells[floor_index], row):
            cells[cell] = code
    under = [rules.rooms[0].code if c == FACE_DOWN else 0 for c in cells]
    house = House(tuple(cells), (0,) * n_cells, tuple(under))
    placed = [0] * n_cells
    outside: list[str] = []
    rooms = rooms_of(rules, house)
    for furn, uses in sorted(tokens, key=lambda x: not x[0].award):
        for _ in range(uses):
            if furn.outside:
                outside.append(furn.id)
                continue
            room_cells = next(
                cells_ for c, cells_ in rooms if takes_token(t, furn.code, c, len(cells_)) and not any(placed[i] for i in cells_)
            )
            placed[room_cells[0]] = furn.code
    _value, choice = best_roof_choice(rules, roof_cards(rules))
    house = replace(
        house, tokens=tuple(placed), outside=tuple(outside), helpers=tuple(sorted(helpers)), roofs=tuple(choice) if roof else ()
    )
    return _fix_face_down_cards(rules, house)


def _fix_face_down_cards(rules: Ruleset, house: House) -> House:
    """Give every empty room a printed card the deck still has (COMP-5)."""
    left = Counter(rooms_left(rules, replace(house, under=(0,) * len(house.cells))))
    under = list(house.under)
    for i, c in enumerate(house.cells):
        if c == FACE_DOWN:
            code = next(code for code, n in sorted(left.items()) if n > 0)
            under[i] = code
            left[code] -= 1
    return replace(house, under=tuple(under))
