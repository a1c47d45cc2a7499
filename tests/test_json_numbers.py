"""Numbers Python cannot hold, and keys that are not names, in any JSON input (issue 21).

A 5,000-digit integer in a house or a record once leaked Python's own message (its advice to
call `sys.set_int_max_str_digits`), and `house_from_json` given a dict with an int key ended
in a TypeError. Each is now one line naming the JSON path (dreamhome.fileio.parse_json,
dreamhome.house)."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamhome.errors import DreamhomeError, HouseError
from dreamhome.fileio import InputError, json_path, parse_json, printable
from dreamhome.game.record import load_record
from dreamhome.house import house_from_json, load_house
from tests.helpers.cli import run_here
from tests.helpers.paths import EXAMPLES, GOLDEN

HUGE = "7" * 5000
DOCS = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)),
    max_leaves=12,
)


def _places(doc, path=()):
    """Every place in `doc` a value sits (the document itself included)."""
    yield path
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for key, value in items:
        yield from _places(value, (*path, key))


def _put(doc, path, marker):
    if not path:
        return marker
    doc = copy.deepcopy(doc)
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = marker
    return doc


@given(DOCS, st.data(), st.sampled_from([HUGE, "-" + HUGE, "1e999", "-1e999", "1" * 4301]))
@settings(max_examples=80)
def test_a_number_python_cannot_hold_is_one_line_with_its_path(doc, data, literal):
    path = data.draw(st.sampled_from(list(_places(doc))))
    text = json.dumps(_put(doc, path, "@@")).replace('"@@"', literal)
    with pytest.raises(InputError) as caught:
        parse_json(text, "f.json")
    message = str(caught.value)
    assert "\n" not in message and "set_int_max_str_digits" not in message
    assert message.startswith(f"f.json: {printable(json_path(path))}: "), (message, path)
    assert ("digits" in message) == ("e" not in literal)


def test_numbers_python_holds_are_read_as_before():
    assert parse_json("[1, -2, 1.5, 1e300, " + "9" * 4300 + "]", "f.json")[:4] == [1, -2, 1.5, 1e300]


def test_a_huge_number_in_a_house_file_is_one_line_with_its_path(tmp_path, base):
    data = json.loads((EXAMPLES / "rulebook_example.json").read_text())
    text = json.dumps(data).replace('"window": true', '"window": ' + HUGE, 1)
    path = tmp_path / "house.json"
    path.write_text(text)
    with pytest.raises(DreamhomeError, match=r"house.json: roofs\[0\].window: a whole number of 5000 digits"):
        load_house(base, path)
    proc = run_here("score", path)
    assert proc.returncode == 2 and "roofs[0].window" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_a_huge_number_in_a_record_is_one_line_with_its_path(tmp_path):
    golden = GOLDEN / "two_players_kids.v2.json"
    text = golden.read_text().replace('"seed": ', '"seed": ' + HUGE + ', "x": ', 1)
    path = tmp_path / "record.json"
    path.write_text(text)
    with pytest.raises(DreamhomeError, match=r"record.json: seed: a whole number of 5000 digits"):
        load_record(path)


@pytest.mark.parametrize(
    ("edit", "where"),
    [
        (lambda d: d["floors"].__setitem__(1, []), "floors"),
        (lambda d: d["floors"]["top"].__setitem__(0, {1: "kitchen"}), r"floors.top\[0\]"),
        (lambda d: d.__setitem__((1, 2), None), "top level"),
        (lambda d: d["roofs"].__setitem__(0, {None: "red"}), r"roofs\[0\]"),
        (lambda d: d.__setitem__("discard", {2.5: []}), "discard"),
    ],
)
def test_house_from_json_with_keys_that_are_not_strings_is_one_line(base, edit, where):
    data = json.loads((EXAMPLES / "rulebook_example.json").read_text())
    edit(data)
    with pytest.raises(HouseError, match=rf"^h: {where}: keys are names \(strings\)") as caught:
        house_from_json(base, data, "h")
    assert "\n" not in str(caught.value)
