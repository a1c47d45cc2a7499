"""Seeded random houses built by legal play, for benchmarks and experiments.

Unlike the hypothesis strategies in the tests, these take a `random.Random`,
so a benchmark's inputs are varied yet exactly reproducible from its seed.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from dreamhome.engine.deck import roof_cards, room_cards
from dreamhome.engine.placement import apply_placement, legal_placements
from dreamhome.house import House
from dreamhome.ruleset import Ruleset
from dreamhome.scoring import rooms_of


def random_house(
    rules: Ruleset,
    rng: random.Random,
    cards: int | None = None,
    face_up_bias: float = 0.9,
    helpers: tuple[str, ...] | None = None,
    discard_rooms: int = 0,
) -> House:
    """A house of `cards` room cards (default: a full board) placed legally one by one,
    with furnishing tokens where rooms allow, some roofs and helpers."""
    n = rules.board.size if cards is None else cards
    deck = Counter({rules.room_of_code(code).id: n for code, n in room_cards(rules).items()})
    if helpers is None:
        pool = [h.id for h in rules.helpers for _ in range(h.count)]
        helpers = tuple(sorted(rng.sample(pool, rng.randint(0, min(3, len(pool))))))
    house = replace(House.empty(rules), helpers=helpers)
    ids = sorted(deck)
    for _ in range(n):
        choices = [r for r in ids if deck[r] > 0]
        if not choices:
            break
        card = rng.choice(choices)
        options = legal_placements(rules, house, card)
        if not options:
            break
        face_up = [p for p in options if not p.face_down]
        placement = rng.choice(face_up if face_up and rng.random() < face_up_bias else options)
        house = apply_placement(rules, house, card, placement)
        deck[card] -= 1
    for furn in rules.furnishings:
        if furn.award is not None or rng.random() < 0.5:
            continue
        if furn.room is None:  # outside the house (Furnishing.outside)
            house = replace(house, outside=house.outside + (furn.id,))
            continue
        code = rules.room(furn.room).code
        open_rooms = [cells for c, cells in rooms_of(rules, house) if c == code and not any(house.tokens[i] for i in cells)]
        if open_rooms:
            house = house.with_token(rng.choice(rng.choice(open_rooms)), furn.code)
    roof_deck = roof_cards(rules)
    rng.shuffle(roof_deck)
    n_roofs = rng.randint(0, 7)
    roofs, rest = roof_deck[:n_roofs], roof_deck[n_roofs:]
    discards = []
    if discard_rooms:
        left = [r for r in ids for _ in range(deck[r])]
        discards = rng.sample(left, min(discard_rooms, len(left)))
    return replace(
        house,
        roofs=tuple(roofs),
        discard_rooms=tuple(discards),
        discard_roofs=tuple(rest[: rng.randint(0, 4)]) if discard_rooms else (),
    )
