"""A player's house: an immutable value, and its `dreamhome.house/1` JSON form.

Cells are small ints (see `dreamhome.ruleset`: EMPTY, SCAFFOLD, FACE_DOWN,
ROOM0 + room index) so the hot paths index flat tables; ids and JSON appear
only at the edges, here.
"""

from __future__ import annotations

import difflib
import json
import os
from dataclasses import dataclass, fields
from typing import Any

from dreamhome.errors import HouseError
from dreamhome.fileio import display_name, json_path, parse_json, printable, read_text, write_atomic
from dreamhome.ruleset import EMPTY, FACE_DOWN, ROOM0, SCAFFOLD, Ruleset

FORMAT = "dreamhome.house/1"
_CELL_KEYS = {"room", "token", "face_down", "scaffolding"}
_TOP_KEYS = {"format", "floors", "roofs", "outside", "helpers", "tools", "discard"}


@dataclass(frozen=True)
class House:
    cells: tuple[int, ...]
    tokens: tuple[int, ...]  # furnishing code per cell (0: none)
    under: tuple[int, ...]  # for face-down cells: the printed room's code (0: unknown)
    roofs: tuple[tuple[int, bool], ...] = ()  # (roof colour index, window)
    outside: tuple[str, ...] = ()
    helpers: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    discard_rooms: tuple[str, ...] = ()
    discard_roofs: tuple[tuple[int, bool], ...] = ()

    @classmethod
    def empty(cls, rules: Ruleset) -> House:
        n = rules.board.size
        return cls((EMPTY,) * n, (0,) * n, (0,) * n)

    def changed(self, **values: Any) -> House:
        """`dataclasses.replace(self, **values)`, five times as fast: the hot paths (placements,
        swaps, a bot's look-ahead) make hundreds of thousands of houses a run, and `replace`
        re-reads every field's metadata and runs the frozen `__init__` each time. A House has no
        `__post_init__` and no derived field, so the copy of its fields with some changed is the
        same value; `tests/test_house_io.py` holds it equal to `replace`. Unknown names are refused
        as `replace` refuses them."""
        unknown = values.keys() - _FIELDS
        if unknown:
            raise TypeError(f"House has no field {sorted(unknown)[0]!r}")
        twin = object.__new__(House)
        data = twin.__dict__
        data.update(self.__dict__)
        data.update(values)
        return twin

    def place(self, cell: int, code: int, token: int = 0, under: int = 0) -> House:
        """This house with one cell replaced (no legality check: see legality.py)."""
        cells = list(self.cells)
        tokens = list(self.tokens)
        unders = list(self.under)
        cells[cell], tokens[cell], unders[cell] = code, token, under
        return self.changed(cells=tuple(cells), tokens=tuple(tokens), under=tuple(unders))

    def with_token(self, cell: int, token: int) -> House:
        tokens = list(self.tokens)
        tokens[cell] = token
        return self.changed(tokens=tuple(tokens))

    def filled(self) -> int:
        return sum(1 for c in self.cells if c not in (EMPTY, SCAFFOLD))

    def is_finished(self) -> bool:
        return all(c not in (EMPTY, SCAFFOLD) for c in self.cells)


_FIELDS = frozenset(f.name for f in fields(House))


# ---------------------------------------------------------------- reading
class _Reader:
    def __init__(self, rules: Ruleset, source: str):
        self.rules = rules
        self.source = source

    def fail(self, where: str, message: str) -> HouseError:
        """One line, whatever the file holds: keys and ids from the file are shown escaped."""
        return HouseError(printable(f"{self.source}: {where}: {message}"))

    def known(self, where: str, value, ids, what: str) -> str:
        if not isinstance(value, str):
            raise self.fail(where, f"expected a {what} id (a string), got {json.dumps(value)}")
        if value not in ids:
            close = difflib.get_close_matches(value, list(ids), n=1, cutoff=0.6)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise self.fail(where, f"unknown {what} '{value}'{hint}")
        return value

    def room_code(self, where: str, value) -> int:
        other = self.rules.item(value) if isinstance(value, str) else None
        if other is not None and not self.rules.has_room(value):
            raise self.fail(where, f"'{value}' is not a room card")
        return self.rules.room(self.known(where, value, self.rules.ids("room"), "room")).code

    def roof(self, where: str, value) -> tuple[int, bool]:
        if not isinstance(value, dict) or "color" not in value:
            raise self.fail(where, 'expected a roof card {"color": ID, "window": true|false}')
        extra = set(value) - {"color", "window"}
        if extra:
            raise self.fail(where, f"unknown key '{sorted(extra)[0]}' in a roof card")
        colour = self.known(where + ".color", value["color"], self.rules.ids("roof"), "roof colour")
        window = value.get("window", False)
        if not isinstance(window, bool):
            raise self.fail(where + ".window", "expected true or false")
        return (self.rules.roof(colour).index, window)

    def id_list(self, where: str, value, kind: str, what: str) -> tuple[str, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list of {what} ids")
        out = []
        for i, item in enumerate(value):
            pos = f"{where}[{i}]"
            if isinstance(item, str) and self.rules.item(item) is not None and item not in self.rules.ids(kind):
                raise self.fail(pos, f"'{item}' is not a {what}")
            out.append(self.known(pos, item, self.rules.ids(kind), what))
        return tuple(out)

    def cell(self, where: str, value) -> tuple[int, int, int]:
        if value is None:
            return EMPTY, 0, 0
        if not isinstance(value, dict):
            raise self.fail(where, 'expected null or an object such as {"room": "<room id>"}')
        extra = set(value) - _CELL_KEYS
        if extra:
            key = sorted(extra)[0]
            close = difflib.get_close_matches(key, sorted(_CELL_KEYS), n=1, cutoff=0.6)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise self.fail(where, f"unknown key '{key}'{hint}")
        token = 0
        if value.get("token") is not None:
            tid = self.known(where + ".token", value["token"], self.rules.ids("furnishing"), "furnishing token")
            token = self.rules.furnishing(tid).code
        for flag in ("face_down", "scaffolding"):
            if flag in value and not isinstance(value[flag], bool):
                raise self.fail(f"{where}.{flag}", "expected true or false")
        if value.get("scaffolding"):
            if value.get("face_down") or "room" in value:
                raise self.fail(where, 'a cell marked "scaffolding" holds no room card')
            return SCAFFOLD, token, 0
        if value.get("face_down"):
            under = self.room_code(where + ".room", value["room"]) if value.get("room") is not None else 0
            return FACE_DOWN, token, under
        if "room" not in value:
            raise self.fail(where, 'expected "room", "face_down" or "scaffolding"')
        return self.room_code(where + ".room", value["room"]), token, 0

    def string_keys(self, data) -> None:
        """Every object's keys are strings (JSON's always are; a dict from Python code may not
        be). Iterative: a Python caller's nesting has no depth cap."""
        stack: list[tuple[tuple[str | int, ...], object]] = [((), data)]
        while stack:
            path, value = stack.pop()
            if isinstance(value, dict):
                for key, item in value.items():
                    if not isinstance(key, str):
                        raise self.fail(json_path(path), f"keys are names (strings), got {type(key).__name__} {key!r}"[:200])
                    stack.append(((*path, key), item))
            elif isinstance(value, list):
                stack.extend(((*path, i), item) for i, item in enumerate(value))

    def house(self, data) -> House:
        if not isinstance(data, dict):
            raise self.fail("top level", "expected a JSON object (a dreamhome.house/1 house)")
        self.string_keys(data)
        fmt = data.get("format", FORMAT)
        if fmt != FORMAT:
            raise self.fail("format", f'expected "{FORMAT}", got {json.dumps(fmt)}')
        extra = set(data) - _TOP_KEYS
        if extra:
            raise self.fail("top level", f"unknown key '{sorted(extra)[0]}'; expected {', '.join(sorted(_TOP_KEYS))}")
        board = self.rules.board
        floors = data.get("floors")
        if not isinstance(floors, dict):
            raise self.fail("floors", "expected an object with the floors " + ", ".join(f.name for f in board.floors))
        names = [f.name for f in board.floors]
        for name in floors:
            if name not in names:
                close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                raise self.fail(f"floors.{name}", f"unknown floor '{name}'{hint}")
        n = board.size
        cells, tokens, unders = [EMPTY] * n, [0] * n, [0] * n
        for fi, floor in enumerate(board.floors):
            row = floors.get(floor.name, [None] * len(floor.columns))
            if not isinstance(row, list) or len(row) != len(floor.columns):
                got = f"{len(row)} cells" if isinstance(row, list) else "not a list"
                raise self.fail(
                    f"floors.{floor.name}",
                    f"expected a list of {len(floor.columns)} cells (columns {floor.columns[0]}-{floor.columns[-1]}), got {got}",
                )
            for k, value in enumerate(row):
                i = board.floor_cells[fi][k]
                cells[i], tokens[i], unders[i] = self.cell(f"floors.{floor.name}[{k}]", value)
        # Only null or a missing key means "none"; `false` or `{}` is a mistake, not an empty list
        # (the shipped JSON Schema, dreamhome/schemas/house.schema.json, says the same).
        roofs = _or_empty(data.get("roofs"), [])
        if not isinstance(roofs, list):
            raise self.fail("roofs", "expected a list of roof cards")
        discard = _or_empty(data.get("discard"), {})
        if not isinstance(discard, dict):
            raise self.fail("discard", 'expected {"rooms": [...], "roofs": [...]}')
        extra = set(discard) - {"rooms", "roofs"}
        if extra:
            raise self.fail("discard", f"unknown key '{sorted(extra)[0]}'; expected rooms, roofs")
        d_rooms = _or_empty(discard.get("rooms"), [])
        if not isinstance(d_rooms, list):
            raise self.fail("discard.rooms", "expected a list of room ids")
        d_roofs = _or_empty(discard.get("roofs"), [])
        if not isinstance(d_roofs, list):
            raise self.fail("discard.roofs", "expected a list of roof cards")
        return House(
            cells=tuple(cells),
            tokens=tuple(tokens),
            under=tuple(unders),
            roofs=tuple(self.roof(f"roofs[{i}]", r) for i, r in enumerate(roofs)),
            outside=self.id_list("outside", data.get("outside"), "furnishing", "furnishing"),
            helpers=self.id_list("helpers", data.get("helpers"), "helper", "helper"),
            tools=self.id_list("tools", data.get("tools"), "tool", "tool"),
            discard_rooms=tuple(
                self.rules.room(self.known(f"discard.rooms[{i}]", r, self.rules.ids("room"), "room")).id
                for i, r in enumerate(d_rooms)
            ),
            discard_roofs=tuple(self.roof(f"discard.roofs[{i}]", r) for i, r in enumerate(d_roofs)),
        )


def _or_empty(value, empty):
    """`value`, or `empty` when it is null or absent."""
    return empty if value is None else value


def house_from_json(rules: Ruleset, data, source: str = "house") -> House:
    return _Reader(rules, source).house(data)


def parse_house(rules: Ruleset, text: str, source: str = "house") -> House:
    """A house from JSON text; malformed, duplicate-keyed or absurdly deep JSON is a `HouseError`."""
    return house_from_json(rules, parse_json(text, source, error=HouseError), source)


def load_house(rules: Ruleset, path: str | os.PathLike[str]) -> House:
    """A house from a file (`-`: stdin), read through the size-capped reader of `fileio`."""
    text = read_text(path, "house file", error=HouseError)
    return parse_house(rules, text, display_name(path))


# ---------------------------------------------------------------- writing
def _roof_json(rules: Ruleset, roof: tuple[int, bool]) -> dict:
    return {"color": rules.roofs[roof[0]].id, "window": roof[1]}


def house_to_json(rules: Ruleset, house: House) -> dict:
    floors = {}
    for fi, floor in enumerate(rules.board.floors):
        row = []
        for i in rules.board.floor_cells[fi]:
            code = house.cells[i]
            cell: dict[str, object] | None
            if code == EMPTY:
                cell = None
            elif code == SCAFFOLD:
                cell = {"scaffolding": True}
            elif code == FACE_DOWN:
                cell = {"face_down": True}
                if house.under[i]:
                    cell["room"] = rules.room_of_code(house.under[i]).id
            else:
                cell = {"room": rules.rooms[code - ROOM0].id}
            if house.tokens[i] and cell is not None:
                cell["token"] = rules.furnishings[house.tokens[i] - 1].id
            row.append(cell)
        floors[floor.name] = row
    return {
        "format": FORMAT,
        "floors": floors,
        "roofs": [_roof_json(rules, r) for r in house.roofs],
        "outside": list(house.outside),
        "helpers": list(house.helpers),
        "tools": list(house.tools),
        "discard": {
            "rooms": list(house.discard_rooms),
            "roofs": [_roof_json(rules, r) for r in house.discard_roofs],
        },
    }


def dump_house(rules: Ruleset, house: House) -> str:
    return json.dumps(house_to_json(rules, house), indent=2) + "\n"


def save_house(rules: Ruleset, house: House, path: str | os.PathLike[str]) -> None:
    """Write a house file atomically (see `fileio.write_atomic`)."""
    write_atomic(path, dump_house(rules, house))
