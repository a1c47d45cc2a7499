"""The compiler's messages, byte for byte, on a fixed set of bad rules files (issue 32, item 3).

The compiler was split into a module per step (`dreamhome/dsl/compile/`); its grammar and its
every message were to stay as they were. tests/golden/compiler_messages.json holds 279 bad
inputs and the messages `check_rules` gave for them on main before the split (b2aa463): each
line of tests/data/tiny.dh (kept in the file as it was) dropped, doubled, misspelt, its numbers
made 0, -1 or ten million; a dozen hand-written files covering effects, names, variants,
includes, options, the board, roofs and the decks; and the files the language fuzzer draws
(`rules_text`, seeds 0–199) that add a message the others lack. 420 distinct messages in all.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreamhome.dsl.compiler import check_rules

GOLDEN = json.loads((Path(__file__).parent / "golden" / "compiler_messages.json").read_text(encoding="utf-8"))


def _text(case: dict) -> str:
    if "text" in case:
        return str(case["text"])
    lines = str(GOLDEN["base"]).split("\n")
    k = int(case["line"]) - 1
    return "\n".join(lines[:k] + list(case["replaced_by"]) + lines[k + 1 :])


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: str(c["id"]))
def test_messages_are_main_s(case: dict) -> None:
    errors, warnings = check_rules(text=_text(case), name=f"{case['id']}.dh")
    assert [d.long() for d in errors + warnings] == case["messages"]


def test_the_set_covers_many_messages() -> None:
    """The set is not a handful: it holds every kind of step's message (reading, merging, checks,
    builders, effects, playability, variants)."""
    firsts = {m.splitlines()[0].split(": ", 2)[-1] for c in GOLDEN["cases"] for m in c["messages"]}
    assert len(GOLDEN["cases"]) >= 250 and len(firsts) >= 400
    for phrase in ("unexpected", "cannot include", "is given twice", "unknown effect", "cannot be negative", "deck", "variant"):
        assert any(phrase in m for m in firsts), phrase
