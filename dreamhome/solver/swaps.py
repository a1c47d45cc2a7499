"""The end-game swaps of two house cards (`endgame.SWAP_ROLES`) as CP-SAT sees them, built once
and shared by the final-house model (effects.py) and the completion model (completion.py).

A house's swap uses are one `Swaps` value: how many of each swap role it holds. The models ask
it which moves of a card exist at all (`can_move`: a card may move from d to c only if some swap
role pairs the two cells, `endgame.pair_ok`) and add its budget (`add_budget`): a cell whose card
changed was touched by a swap, each swap touches two cells, and a card that a restricted role
cannot move there (another floor, for a one-floor swap) needs one of the roles that can, each
moving two cards. Any reachable final house meets these; the order of the swaps is checked on the
real house afterwards (`endgame.find_sequence`), so the answer stays exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from dreamhome.engine.cpsat import HouseModel
from dreamhome.engine.endgame import SWAP_ROLES, HelperUses, pair_ok
from dreamhome.ruleset import Ruleset
from dreamhome.solver.expr import PairLits


@dataclass(frozen=True)
class Swaps:
    """How many uses of each swap role (`endgame.SWAP_ROLES`, in their order) a house holds."""

    counts: tuple[tuple[str, int], ...] = ()

    @classmethod
    def of(cls, uses: HelperUses) -> Swaps:
        return cls(tuple((r.name, len(uses.of(r.name))) for r in SWAP_ROLES if uses.of(r.name)))

    @property
    def total(self) -> int:
        """Every swap use, whatever its role."""
        return sum(k for _role, k in self.counts)

    @property
    def any_pair(self) -> int:
        """The uses that may swap any two cells (END-HANDYMAN)."""
        return sum(k for role, k in self.counts if _pairs(role) == "any")

    @property
    def restricted(self) -> int:
        """The uses that swap only some pairs of cells (e.g. two of one floor)."""
        return self.total - self.any_pair

    def __bool__(self) -> bool:
        return self.total > 0

    def can_move(self, rules: Ruleset, c: int, d: int) -> bool:
        """Whether the card of cell d may end on cell c (it stays, or some swap pairs d and c)."""
        if c == d or self.any_pair:
            return True
        return any(k and pair_ok(rules, role, min(c, d), max(c, d)) for role, k in self.counts)

    def add_budget(self, hm: HouseModel, move: PairLits, n: int, name: str) -> None:
        """The swaps' budget (see the module docstring). With swaps of any pair only, it is the
        model END-HANDYMAN always had: at most two touched cells per swap."""
        m = hm.model
        touched = [m.new_bool_var(f"{name}_t{p}") for p in range(n)]
        for p in range(n):
            into = [lit for (c, d), lit in move.items() if c == p and d != p]
            out_of = [lit for (c, d), lit in move.items() if d == p and c != p]
            if into:
                m.add(sum(into) <= touched[p])
            if out_of:
                m.add(sum(out_of) <= touched[p])
        m.add(sum(touched) <= 2 * self.total)
        if self.restricted:
            far = [lit for (c, d), lit in move.items() if c != d and not self._restricted_pair(hm.rules, c, d)]
            if far:
                m.add(sum(far) <= 2 * self.any_pair)

    def _restricted_pair(self, rules: Ruleset, c: int, d: int) -> bool:
        return any(k and _pairs(role) != "any" and pair_ok(rules, role, min(c, d), max(c, d)) for role, k in self.counts)


def _pairs(role: str) -> str | None:
    return next(r.pairs for r in SWAP_ROLES if r.name == role)
