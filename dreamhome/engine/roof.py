"""The roof (SCORE-ROOF, END-ROOFER): the best choice of roof cards, in closed form and by
enumeration, and the best cards to take from the roof discard pile at the end.

The closed form (`best_roof_points`) serves the hot paths; the enumeration
(`best_roof_choice`) also says which cards, for the explained score and `max`.
The tests compare the two.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
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
    """The best roof cards to choose and their points (explains SCORE-ROOF).

    The choice is the first best one in the order `best_roof_choice_enumerated` tries them (the
    sorted tuples of cards, lexicographically), found without enumerating: the number of choices
    grows as (kinds + size)! / (kinds! size!), which a ruleset of many colours and a large roof
    makes astronomical (`max` reads the whole deck's roofs), while this is a small dynamic
    programme over (card kind, cards left to choose, colours so far, windows so far). It takes as
    many cards of the first kind as an optimal choice allows, then of the next, and so on: that is
    the lexicographically first of the optimal sorted tuples. tests/test_scoring.py holds it
    equal to the enumeration."""
    rs = rules.roof_scoring
    if len(roofs) < rs.size:
        return 0, ()
    have = Counter(roofs)
    kinds = sorted(have)
    many = -2  # colours so far: -1 none, a colour index, or `many`

    def joined(colours: int, colour: int) -> int:
        return colour if colours in (-1, colour) else many

    @cache
    def best(i: int, left: int, colours: int, windows: int) -> int | None:
        """The best value completing a choice from kinds[i:], or None if none completes it."""
        if left == 0:
            return (rs.uniform if colours >= 0 else rs.mixed) + rs.window * windows
        if i == len(kinds):
            return None
        colour, window = kinds[i]
        found: int | None = None
        for n in range(min(left, have[kinds[i]]), -1, -1):
            value = best(i + 1, left - n, joined(colours, colour) if n else colours, windows + n * window)
            if value is not None and (found is None or value > found):
                found = value
        return found

    target = best(0, rs.size, -1, 0)
    if target is None or target <= -1:
        return -1, ()  # as the enumeration, which keeps a choice only above -1
    choice: list[RoofCard] = []
    left, colours, windows = rs.size, -1, 0
    for i, kind in enumerate(kinds):
        for n in range(min(left, have[kind]), -1, -1):
            after = joined(colours, kind[0]) if n else colours
            if best(i + 1, left - n, after, windows + n * kind[1]) == target:
                choice.extend([kind] * n)
                left, colours, windows = left - n, after, windows + n * kind[1]
                break
    best.cache_clear()
    return target, tuple(choice)


def best_roof_choice_enumerated(rules: Ruleset, roofs: Sequence[RoofCard]) -> tuple[int, tuple[RoofCard, ...]]:
    """The reference `best_roof_choice` reads like: every choice of `size` cards, in order, the
    first best kept. Exponential in the number of card kinds: for tests and small rules only."""
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
