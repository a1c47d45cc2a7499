"""The roof (SCORE-ROOF, END-ROOFER): the best choice of roof cards, in closed form and by
enumeration, and the best cards to take from the roof discard pile at the end.

The closed form (`best_roof_points`) serves the hot paths; the enumeration
(`best_roof_choice`) also says which cards, for the explained score and `max`.
The tests compare the two.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dreamhome.ruleset import Ruleset

RoofCard = tuple[int, bool]  # (colour index, has a window)


def best_roof_points(rules: Ruleset, roofs: Sequence[RoofCard]) -> int:
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


def best_roof_choice(rules: Ruleset, roofs: Sequence[RoofCard]) -> tuple[int, tuple[RoofCard, ...]]:
    """The best roof cards to choose and their points, by enumeration (explains SCORE-ROOF)."""
    rs = rules.roof_scoring
    if len(roofs) < rs.size:
        return 0, ()
    have = Counter(roofs)
    best: tuple[int, tuple[RoofCard, ...]] = (-1, ())
    for choice in combinations_with_replacement(sorted(have), rs.size):
        need = Counter(choice)
        if any(need[k] > have[k] for k in need):
            continue
        uniform = len({c for c, _ in choice}) == 1
        value = (rs.uniform if uniform else rs.mixed) + rs.window * sum(1 for _, w in choice if w)
        if value > best[0]:
            best = (value, choice)
    return best


def best_roof_discard_picks(
    rules: Ruleset, roofs: Sequence[RoofCard], discard_roofs: Sequence[RoofCard], uses: int
) -> tuple[int, tuple[RoofCard, ...]]:
    """END-ROOFER: the roof cards to take (at most `uses`) for the best SCORE-ROOF.

    Ties go to fewer cards, then the canonical order of (colour, window)."""
    have = Counter(discard_roofs)
    kinds = sorted(have)
    best: tuple[int, tuple[RoofCard, ...]] = (best_roof_points(rules, list(roofs)), ())
    for n in range(1, min(uses, len(discard_roofs)) + 1):
        for pick in combinations_with_replacement(kinds, n):
            need = Counter(pick)
            if any(need[k] > have[k] for k in need):
                continue
            value = best_roof_points(rules, list(roofs) + list(pick))
            if value > best[0]:
                best = (value, pick)
    return best
