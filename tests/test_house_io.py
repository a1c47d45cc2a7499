"""`dreamhome.house/1`: exact round trips and clear errors for bad files."""

from __future__ import annotations

import json

import pytest
from hypothesis import given

from dreamhome.errors import HouseError
from dreamhome.house import FORMAT, dump_house, house_to_json, load_house, parse_house, save_house
from tests.helpers.paths import EXAMPLES
from tests.helpers.rules import compiled
from tests.helpers.strategies import legal_houses

BASE = compiled()
CAR = compiled("car")


@given(legal_houses(BASE))
def test_save_load_round_trip(house):
    assert parse_house(BASE, dump_house(BASE, house)) == house


@given(legal_houses(CAR))
def test_round_trip_under_a_variant(house):
    text = dump_house(CAR, house)
    assert json.loads(text)["format"] == FORMAT
    assert parse_house(CAR, text) == house


def test_formats_md_example_loads(base):
    """The house example of docs/formats.md."""
    text = """{
      "format": "dreamhome.house/1",
      "floors": {
        "top":      [{"room": "living_room"}, {"room": "living_room", "token": "piano"}, null,
                     {"room": "bathroom"}, {"room": "bedroom"}],
        "middle":   [{"room": "kitchen"}, {"room": "pantry"}, {"face_down": true, "room": "sauna"},
                     {"room": "bathroom"}, {"room": "bedroom"}],
        "basement": [{"room": "garage"}, {"scaffolding": true}]
      },
      "roofs":   [{"color": "red", "window": true}, {"color": "blue", "window": false}],
      "outside": ["treehouse"],
      "helpers": ["handyman", "supplier", "roofer", "architect", "interior_designer"],
      "tools":   ["drill"],
      "discard": {"rooms": ["living_room", "garage"],
                  "roofs": [{"color": "red", "window": false}]}
    }"""
    house = parse_house(base, text, "formats.json")
    again = house_to_json(base, house)
    assert again["floors"]["middle"][2] == {"face_down": True, "room": "sauna"}
    assert again["floors"]["basement"][1] == {"scaffolding": True}
    assert again["floors"]["top"][2] is None
    assert again["helpers"] == ["handyman", "supplier", "roofer", "architect", "interior_designer"]
    assert again["discard"]["roofs"] == [{"color": "red", "window": False}]


def test_minimal_house_optional_keys_absent(base):
    text = json.dumps(
        {"format": FORMAT, "floors": {"top": [None] * 5, "middle": [None] * 5, "basement": [None, {"face_down": True}]}}
    )
    house = parse_house(base, text)
    assert house.roofs == () and house.helpers == () and house.under[-1] == 0


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["floors"]["top"].__setitem__(0, {"room": "kichen"}),
            "h.json: floors.top[0].room: unknown room 'kichen' (did you mean 'kitchen'?)",
        ),
        (lambda d: d["floors"]["top"].pop(), "h.json: floors.top: expected a list of 5 cells (columns 0-4), got 4 cells"),
        (lambda d: d["floors"]["basement"].append(None), "floors.basement: expected a list of 2 cells (columns 3-4), got 3"),
        (lambda d: d["floors"].__setitem__("attic", []), "floors.attic: unknown floor 'attic'"),
        (
            lambda d: d["floors"]["top"][1].__setitem__("token", "pianoo"),
            "floors.top[1].token: unknown furnishing token 'pianoo' (did you mean 'piano'?)",
        ),
        (lambda d: d["roofs"].append({"color": "purple", "window": False}), "roofs[4].color: unknown roof colour 'purple'"),
        (lambda d: d.__setitem__("helpers", ["drill"]), "helpers[0]: 'drill' is not a helper"),
        (lambda d: d.__setitem__("format", "dreamhome.house/2"), 'format: expected "dreamhome.house/1"'),
        (lambda d: d["floors"]["top"].__setitem__(0, {"rom": "kitchen"}), "unknown key 'rom' (did you mean 'room'?)"),
        (lambda d: d["floors"]["top"].__setitem__(0, {"room": "piano"}), "floors.top[0].room: 'piano' is not a room card"),
        (lambda d: d["discard"].__setitem__("rooms", ["garagee"]), "discard.rooms[0]: unknown room 'garagee'"),
        (lambda d: d.__setitem__("floors", []), "floors: expected an object"),
    ],
)
def test_bad_houses_name_the_place(base, tmp_path, mutate, message):
    data = json.loads((EXAMPLES / "rulebook_example.json").read_text())
    mutate(data)
    path = tmp_path / "h.json"
    path.write_text(json.dumps(data))
    with pytest.raises(HouseError) as info:
        load_house(base, path)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_malformed_json_has_line_and_column(base, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{\n  "format": "dreamhome.house/1",\n  "floors": {,}\n}\n')
    with pytest.raises(HouseError) as info:
        load_house(base, path)
    assert str(info.value).startswith(f"{path}:3:14: malformed JSON")


def test_missing_file(base, tmp_path):
    with pytest.raises(HouseError, match="cannot read house file"):
        load_house(base, tmp_path / "nope.json")


def test_save_is_atomic(base, tmp_path):
    house = load_house(base, EXAMPLES / "rulebook_example.json")
    target = tmp_path / "out.json"
    save_house(base, house, target)
    assert load_house(base, target) == house
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_bom_duplicate_keys_and_nan(base, tmp_path):
    """The input layer (fileio) under the house loader: a BOM is fine, a second key or NaN is not."""
    text = (EXAMPLES / "rulebook_example.json").read_bytes()
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + text)
    assert load_house(base, path) == load_house(base, EXAMPLES / "rulebook_example.json")
    with pytest.raises(HouseError, match='duplicate key "floors"'):
        parse_house(base, '{"floors": {}, "floors": {}}', "d.json")
    with pytest.raises(HouseError, match="NaN is not a number JSON allows"):
        parse_house(base, '{"floors": NaN}', "n.json")


@given(legal_houses(CAR), legal_houses(CAR))
def test_changed_is_dataclasses_replace(house, other):
    """`House.changed` (the hot paths' fast `replace`) gives the value `dataclasses.replace` gives,
    for every field taken from another house, alone or all at once, and refuses an unknown name."""
    from dataclasses import fields, replace

    names = [f.name for f in fields(house)]
    for name in names:
        value = getattr(other, name)
        assert house.changed(**{name: value}) == replace(house, **{name: value})
    every = {name: getattr(other, name) for name in names}
    assert house.changed(**every) == replace(house, **every) == other
    assert house.changed() == house and house.changed() is not house
    with pytest.raises(TypeError, match="no field 'floors'"):
        house.changed(floors=())
