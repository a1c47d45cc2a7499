"""Issue 21 (game/): a record's action and the game's constructor refuse bad values in one
clear line naming the field, never with Python's "unexpected keyword argument" or a TypeError."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import ACTION_CLASSES, TakeColumn, action_from_dict
from dreamhome.game.state import GameState, GameStateError
from dreamhome.ruleset import Ruleset

# A value of each field type, and values of every other type.
GOOD: dict[str, Any] = {"int": 1, "str": "top/1", "bool": False}
WRONG = st.one_of(
    st.floats(), st.none(), st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=2), st.integers(), max_size=1)
)


def _good_dict(cls: type) -> dict[str, Any]:
    return {"type": cls.__name__, **{f.name: GOOD[str(f.type)] for f in dataclasses.fields(cls)}}


def test_an_unknown_field_is_named() -> None:
    with pytest.raises(ValueError, match=r"^TakeColumn has no field 'bogus' \(its fields: column\)$"):
        action_from_dict({"type": "TakeColumn", "column": 1, "bogus": 2})


def test_a_missing_field_is_named() -> None:
    with pytest.raises(ValueError, match=r"^TakeColumn needs the field 'column'$"):
        action_from_dict({"type": "TakeColumn"})


def test_a_bool_is_no_column() -> None:
    """`True == 1` in Python, so a record saying `"column": true` replayed as column 1 before."""
    with pytest.raises(ValueError, match=r"TakeColumn.column must be int, got True"):
        action_from_dict({"type": "TakeColumn", "column": True})
    assert action_from_dict({"type": "TakeColumn", "column": 1}) == TakeColumn(1)


@given(cls=st.sampled_from(ACTION_CLASSES), extra=st.text(min_size=1, max_size=8))
def test_every_action_names_an_unknown_field(cls: type, extra: str) -> None:
    data = _good_dict(cls)
    if extra in data:
        return
    data[extra] = 0
    with pytest.raises(ValueError) as info:
        action_from_dict(data)
    message = str(info.value)
    assert repr(extra) in message and "unexpected keyword" not in message and "\n" not in message


@given(cls=st.sampled_from([c for c in ACTION_CLASSES if dataclasses.fields(c)]), data=st.data(), bad=WRONG)
def test_every_field_refuses_a_wrong_type(cls: type, data: st.DataObject, bad: Any) -> None:
    field = data.draw(st.sampled_from(dataclasses.fields(cls)))
    record = _good_dict(cls)
    record[field.name] = bad
    with pytest.raises(ValueError, match=f"{cls.__name__}.{field.name} must be"):
        action_from_dict(record)
    # the well-typed record is read back as the action it describes
    assert action_from_dict(_good_dict(cls)).to_dict() == _good_dict(cls)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"first_player": 1.5}, "first_player"),
        ({"first_player": "0"}, "first_player"),
        ({"players": 3.0}, "players"),
        ({"players": True}, "players"),
        ({"seed": None}, "seed"),
        ({"seed": 2.5}, "seed"),
        ({"rules": "base"}, "rules"),
    ],
)
def test_wrongly_typed_constructor_values_are_a_game_state_error(base: Ruleset, changes: dict[str, Any], field: str) -> None:
    args: dict[str, Any] = {"rules": base, "players": 3, "seed": 1, **changes}
    with pytest.raises(GameStateError, match=f"^{field} must be"):
        GameState(**args)


def test_well_typed_values_still_make_a_game(base: Ruleset) -> None:
    state = GameState(base, 3, 1, first_player=2)
    assert state.initial_first == 2 and state.n == 3
    with pytest.raises(DreamhomeError, match="first player must be a seat from 0 to 2"):
        GameState(base, 3, 1, first_player=3)


def test_a_record_with_an_unknown_action_field_is_refused_naming_it(base: Ruleset) -> None:
    """Issue 21: the field reaches the user through `replay`, in one line, never a TypeError."""
    from dreamhome.game.record import replay_record
    from dreamhome.players.playing import play_game

    record = play_game(base, 2, ["random", "random"], 4).record()
    event = next(e for e in record["events"] if "action" in e and e["action"]["type"] == "TakeColumn")
    event["action"]["colour"] = "red"
    with pytest.raises(DreamhomeError) as info:
        replay_record(record)
    message = str(info.value)
    assert "TakeColumn has no field 'colour'" in message and "\n" not in message
