"""Hypothesis strategies that build houses from a compiled Ruleset.

Houses are generated from the rules object (never from hand lists), so a
variant or an override file needs no new generator.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st

from dreamhome.engine.placement import apply_placement, legal_placements
from dreamhome.house import House
from dreamhome.ruleset import ROOM0, Ruleset
from dreamhome.scoring import rooms_of


@st.composite
def legal_houses(draw, rules: Ruleset, min_cards: int = 0, max_cards: int | None = None, full: bool = False):
    """A house built by legal placements (PLACE-*), then tokens, roofs and held cards."""
    n = rules.board.size
    target = n if full else draw(st.integers(min_cards, max_cards if max_cards is not None else n))
    remaining = Counter({r.id: r.count for r in rules.rooms})
    house = House.empty(rules)
    helpers = draw(st.lists(st.sampled_from(rules.ids("helper")), max_size=4)) if rules.helpers else []
    helper_count = Counter()
    kept = []
    for h in helpers:
        if helper_count[h] < rules.held(h).count:
            helper_count[h] += 1
            kept.append(h)
    from dataclasses import replace

    house = replace(house, helpers=tuple(kept))
    for _ in range(target):
        choices = sorted(r for r, k in remaining.items() if k > 0)
        if not choices:
            break
        card = draw(st.sampled_from(choices))
        options = legal_placements(rules, house, card)
        if not options:
            break
        face_up = [p for p in options if not p.face_down]
        pool = face_up if face_up and draw(st.integers(0, 9)) > 0 else options
        placement = draw(st.sampled_from(pool))
        house = apply_placement(rules, house, card, placement)
        remaining[card] -= 1
    # Tokens: each furnishing at most its count, on a room of its type with no token yet (FURN-ONE).
    for furn in rules.furnishings:
        if furn.award is not None or not draw(st.booleans()):
            continue
        if furn.outside:
            house = replace(house, outside=house.outside + (furn.id,))
            continue
        code = rules.room(furn.room).code
        rooms = [cells for c, cells in rooms_of(rules, house) if c == code and not any(house.tokens[i] for i in cells)]
        if rooms:
            cells = draw(st.sampled_from(rooms))
            house = house.with_token(draw(st.sampled_from(cells)), furn.code)
    roofs = []
    for roof in rules.roofs:
        plain = draw(st.integers(0, min(roof.count - roof.windows, 3)))
        windows = draw(st.integers(0, roof.windows))
        roofs += [(roof.index, False)] * plain + [(roof.index, True)] * windows
    roofs = draw(st.permutations(roofs))
    return replace(house, roofs=tuple(roofs))


def face_up_cells(rules: Ruleset, house: House) -> list[int]:
    return [i for i, c in enumerate(house.cells) if c >= ROOM0]
