"""Why a space is refused (issue 33: a refused cell says why): `placement_refusal` names a rule
exactly where `legal_placements` (the engine's moves) has no such placement, and the rule it
names is one the house shows broken, checked from the board and the card here."""

from __future__ import annotations

from collections import Counter

import pytest

from dreamhome.engine.placement import Placement, legal_placements, placement_refusal
from dreamhome.game.phases import Phase
from dreamhome.game.state import GameState
from dreamhome.house import House
from dreamhome.players.roster import make_bot
from dreamhome.ruleset import EMPTY, SCAFFOLD, Ruleset
from tests.helpers.rules import compiled


def placing_positions(rules: Ruleset, seed: int, players: int = 3) -> list[tuple[House, int]]:
    """Each (house, room card) a seat placed in a game of random bots."""
    state = GameState(rules, players, seed)
    bots = [make_bot("random", seed, p) for p in range(players)]
    found = []
    while not state.is_terminal():
        if state.phase == Phase.PLACE and state.pending_room is not None:
            found.append((state.houses[state.actor], state.pending_room))
        p = state.current_player()
        state.apply_action(bots[p].choose(state.observation(lookahead=False), state.legal_actions()))
    return found


def check_rule(rules: Ruleset, house: House, code: int, cell: int, rule: str) -> None:
    """The rule named is broken as the board and the card show it."""
    cells, below = house.cells, rules.board.below[cell]
    room = rules.room_of_code(code)
    if rule == "PLACE-FIXED":
        assert cells[cell] not in (EMPTY, SCAFFOLD)
    elif rule == "PLACE-A":
        assert cells[cell] == EMPTY and below >= 0 and cells[below] == EMPTY
    elif rule == "PLACE-B":
        assert rules.board.cell_kind[cell] != room.floor_kind  # a basement card above, or another below
    elif rule in ("PLACE-C", "PLACE-CLOSED", "PLACE-MERGE"):
        left, right = rules.tables.left[cell], rules.tables.right[cell]
        assert code in (cells[left] if left >= 0 else -1, cells[right] if right >= 0 else -1)  # a neighbour of its type
    else:
        assert rule == "TOOL-SCAFFOLDING" and SCAFFOLD in cells and cells[cell] == EMPTY


@pytest.mark.parametrize("variants", [(), ("wide",), ("more_tools",)])
def test_a_refusal_is_named_exactly_where_the_engine_refuses(variants: tuple[str, ...]) -> None:
    rules = compiled(*variants)
    seen: Counter[str] = Counter()
    positions = [found for seed in range(6) for found in placing_positions(rules, seed)]
    for house, code in positions:
        legal = set(legal_placements(rules, house, code))
        for cell in range(rules.board.size):
            for face_down in (False, True):
                placement = Placement(cell, face_down)
                rule = placement_refusal(rules, house, code, placement)
                assert (rule is None) == (placement in legal), (rules.board.cells[cell], face_down, rule)
                if rule is not None:
                    check_rule(rules, house, code, cell, rule)
                    seen[rule] += 1
    assert {"PLACE-FIXED", "PLACE-A", "PLACE-B", "PLACE-C"} <= set(seen), seen
