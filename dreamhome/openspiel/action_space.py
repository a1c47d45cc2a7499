"""A fixed numbering of every action a game under one ruleset can offer (OpenSpiel's integer
actions), derived from the action classes' fields, so a new action type needs no code here.

Each field's values come from the rules: a track column is one of the deal's columns, a cell
one of the board's, a room, token, held card or roof colour one of the rules' ids, a flag one
of two. An action class is a mixed-radix block of numbers after the blocks of the classes
before it. A field whose domain this module does not know is an error when the space is built
(tests build it for every ruleset of the catalogue), never a silent wrong number.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import ACTION_CLASSES, Action, HelperAction
from dreamhome.game.roles import effect_role
from dreamhome.ruleset import Ruleset


def _domains(rules: Ruleset) -> dict[tuple[str, str], tuple[Any, ...]]:
    """(field name, annotated type) → the values it can take under `rules`."""
    columns = tuple(range(rules.game.deal_rooms))
    cells = rules.board.cells
    held = tuple(c.id for c in (*rules.helpers, *rules.tools))
    return {
        ("column", "int"): columns,
        ("a", "int"): columns,
        ("b", "int"): columns,
        ("cell", "str"): cells,
        ("a", "str"): cells,
        ("b", "str"): cells,
        ("face_down", "bool"): (False, True),
        ("window", "bool"): (False, True),
        ("room", "str"): tuple(r.id for r in rules.rooms),
        ("token", "str"): tuple(f.id for f in rules.furnishings),
        ("helper", "str"): held,
        ("color", "str"): tuple(r.id for r in rules.roofs),
    }


def _without_unplayed_tail(rules: Ruleset, classes: Sequence[type[Action]]) -> Sequence[type[Action]]:
    """`classes` less its trailing end-game action classes whose role no card of `rules` plays.
    A new end-game mechanic appends its class (game/actions.py), so the rules that do not use it
    keep their space, its size and every number exactly; an unused block in the middle stays
    (dropping it would renumber the classes after it)."""
    played = {effect_role(e) for card in (*rules.helpers, *rules.tools) for e in card.effects}
    end = len(classes)
    while end and issubclass(classes[end - 1], HelperAction) and classes[end - 1].role not in played:
        end -= 1
    return classes[:end]


@dataclass(frozen=True)
class _Block:
    cls: type[Action]
    offset: int
    names: tuple[str, ...]
    values: tuple[tuple[Any, ...], ...]
    index: tuple[dict[Any, int], ...]

    @property
    def size(self) -> int:
        size = 1
        for vals in self.values:
            size *= len(vals)
        return size


class ActionSpace:
    """Action ↔ integer for one ruleset: `number(action)`, `action(number)`, `size`."""

    def __init__(self, rules: Ruleset, classes: Sequence[type[Action]] = ACTION_CLASSES):
        classes = _without_unplayed_tail(rules, classes)
        domains = _domains(rules)
        blocks: list[_Block] = []
        offset = 0
        for cls in classes:
            fields = dataclasses.fields(cls)
            values = []
            for f in fields:
                key = (f.name, f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type)))
                if key not in domains:
                    raise DreamhomeError(f"the OpenSpiel action space has no domain for {cls.__name__}.{f.name}: {key[1]}")
                values.append(domains[key])
            block = _Block(
                cls,
                offset,
                tuple(f.name for f in fields),
                tuple(values),
                tuple({v: i for i, v in enumerate(vals)} for vals in values),
            )
            blocks.append(block)
            offset += block.size
        self._blocks = tuple(blocks)
        self._by_class = {b.cls: b for b in blocks}
        self.size = offset

    def number(self, action: Action) -> int:
        """The integer of `action` (KeyError-free: an action outside the space is a DreamhomeError)."""
        block = self._by_class.get(type(action))
        if block is None:
            raise DreamhomeError(f"{type(action).__name__} is not in the OpenSpiel action space")
        n = 0
        for name, index in zip(block.names, block.index, strict=True):
            value = getattr(action, name)
            if value not in index:
                raise DreamhomeError(f"{type(action).__name__}.{name} = {value!r} is outside the OpenSpiel action space")
            n = n * len(index) + index[value]
        return block.offset + n

    def action(self, number: int) -> Action:
        """The action of an integer of the space."""
        if not 0 <= number < self.size:
            raise DreamhomeError(f"action {number} is outside the space of {self.size} actions")
        block = next(b for b in reversed(self._blocks) if b.offset <= number)
        n = number - block.offset
        picked: list[Any] = []
        for vals in reversed(block.values):
            n, i = divmod(n, len(vals))
            picked.append(vals[i])
        return block.cls(**dict(zip(block.names, reversed(picked), strict=True)))
