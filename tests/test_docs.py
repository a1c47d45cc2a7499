"""The documentation shipped with the project is complete and its examples run.

docs/rules.md defines every rule id the project cites (and cites nothing it does not define),
the project points to no document outside the repository, and every example in docs/language.md
compiles.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from dreamhome.dsl.compiler import compile_rules
from dreamhome.errors import RulesError

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULES_DIR = ROOT / "dreamhome" / "rules"

# A rule id: an area prefix and one or more parts (PLACE-A, SCORE-FUNC-B, ROUND-ORDER).
RULE_ID = re.compile(r"\b(?:COMP|SETUP|ROUND|PLACE|SEE|RES|FURN|TOOL|END|HELP|SCORE|VAR)(?:-[A-Z0-9]+)+\b")
DEFINED = re.compile(r"^### ([A-Z]+(?:-[A-Z0-9]+)+)\s*$", re.MULTILINE)
NOT_YET = "Not yet implemented."


def _sources() -> list[Path]:
    """Every file whose citations must resolve: the package's Python and rules files, the docs
    (docs/rules.md itself excepted: its cross-references are not uses), README and the tests."""
    files = [*(ROOT / "dreamhome").rglob("*.py"), *RULES_DIR.rglob("*.dh")]
    files += [p for p in DOCS.glob("*.md") if p.name != "rules.md"]
    files += [ROOT / "README.md", *(ROOT / "tests").rglob("*.py")]
    return files


def _defined() -> dict[str, str]:
    """Rule id -> the text of its section in docs/rules.md."""
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    matches = list(DEFINED.finditer(text))
    sections: dict[str, str] = {}
    for m, nxt in zip(matches, [*matches[1:], None], strict=True):
        end = nxt.start() if nxt is not None else len(text)
        assert m.group(1) not in sections, f"{m.group(1)} is defined twice in docs/rules.md"
        sections[m.group(1)] = text[m.end() : end]
    return sections


def _cited() -> dict[str, set[str]]:
    cited: dict[str, set[str]] = {}
    for path in _sources():
        for rid in RULE_ID.findall(path.read_text(encoding="utf-8")):
            cited.setdefault(rid, set()).add(str(path.relative_to(ROOT)))
    return cited


def test_every_cited_rule_id_is_defined_in_rules_md() -> None:
    defined = _defined()
    missing = {rid: sorted(where) for rid, where in _cited().items() if rid not in defined}
    assert not missing, f"rule ids cited but not defined in docs/rules.md: {missing}"


def test_every_defined_rule_id_is_cited_or_marked_not_implemented() -> None:
    cited = _cited()
    unused = [rid for rid, body in _defined().items() if rid not in cited and NOT_YET not in body]
    assert not unused, f"rule ids defined in docs/rules.md but cited nowhere: {unused}"


def test_rules_md_defines_the_ids_legality_messages_use() -> None:
    """A sample of what `check` prints: each id a violation can carry has a section."""
    defined = _defined()
    for rid in ("PLACE-A", "PLACE-B", "PLACE-C", "PLACE-CLOSED", "PLACE-MERGE", "FURN-ONE", "FURN-TYPE", "COMP-5"):
        assert rid in defined and len(defined[rid].split()) > 8, rid


def test_rules_md_options_are_the_declared_options() -> None:
    """The options table names exactly the options the language knows, with their defaults."""
    from dreamhome.vocabulary import OPTIONS

    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z_]+)` \| `([a-z_]+)` \|", text, re.MULTILINE)
    assert {name: default for name, default in rows} == {name: values[0] for name, values in OPTIONS.items()}


def test_rules_md_counts_the_assumed_values() -> None:
    """The number of assumed values the docs and README give is the base rules' own count."""
    n = len(compile_rules().assumed_values())
    assert f"{n} assumed values" in (DOCS / "rules.md").read_text(encoding="utf-8")
    assert f"{n} values" in (ROOT / "README.md").read_text(encoding="utf-8")


# Files being rewritten by others while this test was written still cite the old documents;
# docs/PERFORMANCE.md is not this change's to edit. The golden records embed the rules source as
# it was when they were recorded, so they are data, not citations.
_SPEC_NAMES = re.compile(r"\b(?:RULES|DSL|FORMATS|DESIGN|MANIFEST)\.md\b|\bthe spec\b|shared/spec")


def _project_files() -> list[Path]:
    """The files git tracks or would add (not what it ignores: virtual environments, caches,
    a built site), less the golden records, whose embedded rules keep the words of their day."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    # A virtual environment the user made inside the checkout under any name (its pyvenv.cfg
    # says so) holds other projects' files, not this one's.
    venvs = {Path(name).parent for name in listed if Path(name).name == "pyvenv.cfg"}
    out = []
    for name in listed:
        rel = Path(name)
        if rel.parts[:2] == ("tests", "golden") or rel.suffix in {".pyc", ".png", ".so"}:
            continue
        if any(venv in rel.parents for venv in venvs):
            continue
        if rel == Path("tests/test_docs.py") or not (ROOT / rel).is_file():
            continue
        out.append(ROOT / rel)
    return out


def test_no_file_points_to_documents_outside_the_repository() -> None:
    offenders = []
    for path in _project_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for lineno, line in enumerate(text.splitlines(), 1):
            if _SPEC_NAMES.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{lineno}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


# ---- docs/language.md: every example compiles ------------------------------------------------

_DH_BLOCK = re.compile(r"^```dh\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _language_examples() -> list[str]:
    return _DH_BLOCK.findall((DOCS / "language.md").read_text(encoding="utf-8"))


def _complete(block: str) -> str:
    """An example that declares one thing is an override: it is compiled over the base rules.
    A block with its own include is compiled as it stands."""
    if "include " in block:
        return block
    return 'include "base.dh"\n' + block


def test_language_md_has_examples() -> None:
    assert len(_language_examples()) >= 15


@pytest.mark.parametrize("index", range(len(_language_examples())))
def test_language_md_example_compiles(index: int, tmp_path: Path) -> None:
    block = _language_examples()[index]
    if block.lstrip().startswith("# error"):
        # An example of an error: it must fail, with the message the text shows.
        expected = block.lstrip().splitlines()[0].removeprefix("# error:").strip()
        with pytest.raises(RulesError) as err:
            compile_rules(text=_complete(block), name="example.dh")
        assert expected in str(err.value), str(err.value)
        return
    source = tmp_path / "example.dh"
    source.write_text(_complete(block), encoding="utf-8")
    compile_rules(source)


# ---- docs/formats.md: the shipped schemas agree with the files and the loader ----------------

jsonschema = pytest.importorskip("jsonschema")

from tests.helpers.schemas import validator as schema_validator  # noqa: E402


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("*.json")), ids=lambda p: p.name)
def test_examples_match_the_house_schema(path: Path) -> None:
    schema_validator("house.schema.json").validate(json.loads(path.read_text(encoding="utf-8")))


GOLDEN_RECORDS = sorted(p for p in (ROOT / "tests" / "golden").glob("*.json") if p.name != "compiler_messages.json")


@pytest.mark.parametrize("path", GOLDEN_RECORDS, ids=lambda p: p.name)
def test_golden_records_match_the_record_schema(path: Path) -> None:
    schema_validator("record.schema.json").validate(json.loads(path.read_text(encoding="utf-8")))


def test_whatif_example_matches_the_results_schema() -> None:
    data = json.loads((DOCS / "whatif-example" / "results.json").read_text(encoding="utf-8"))
    schema_validator("whatif-results.schema.json").validate(data)


def test_record_schema_refuses_a_record2_without_digest() -> None:
    data = json.loads((ROOT / "tests" / "golden" / "four_players.v2.json").read_text(encoding="utf-8"))
    del data["digest"]
    assert not schema_validator("record.schema.json").is_valid(data)
    data["format"] = "dreamhome.record/1"
    assert schema_validator("record.schema.json").is_valid(data)


def test_formats_md_house_example_loads_and_matches_the_schema() -> None:
    from dreamhome.house import house_from_json

    text = (DOCS / "formats.md").read_text(encoding="utf-8")
    block = re.search(r"^```json\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert block is not None
    data = json.loads(block.group(1))
    schema_validator("house.schema.json").validate(data)
    house_from_json(compile_rules(), data)


def _house_documents():
    """House documents of every shape, right and wrong, with ids of the right kind drawn from
    the base rules: ids are the loader's business alone (the schema does not know the rules)."""
    from hypothesis import strategies as st

    rules = compile_rules()
    rooms = st.sampled_from(sorted(rules.ids("room")))
    furnishings = st.sampled_from(sorted(rules.ids("furnishing")))
    junk = st.sampled_from([1, "x", [], {}, False, True, 0, None])

    def maybe(values):
        # Where an id goes, junk that is not a string: an unknown id is the loader's to refuse.
        return st.one_of(values, st.sampled_from([1, [], {}, False, True, 0, None]))

    flag = st.one_of(st.booleans(), st.sampled_from([1, 0, "yes", None]))
    cell = st.one_of(
        st.none(),
        st.fixed_dictionaries(
            {},
            optional={
                "room": maybe(rooms),
                "token": maybe(furnishings),
                "face_down": flag,
                "scaffolding": flag,
                "rom": st.just("kitchen"),
            },
        ),
        st.fixed_dictionaries({"room": maybe(rooms)}, optional={"token": maybe(furnishings), "face_down": flag}),
        st.fixed_dictionaries({"face_down": flag}, optional={"room": maybe(rooms), "token": maybe(furnishings)}),
        st.fixed_dictionaries({"scaffolding": flag}, optional={"face_down": flag, "room": rooms}),
        junk,
    )
    roof = st.one_of(
        st.fixed_dictionaries(
            {"color": maybe(st.sampled_from(sorted(rules.ids("roof"))))},
            optional={"window": flag, "pane": st.just(1)},
        ),
        junk,
    )
    good_cell = st.one_of(
        st.none(),
        st.fixed_dictionaries({"room": rooms}, optional={"token": furnishings}),
        st.fixed_dictionaries({"face_down": st.just(True)}, optional={"room": rooms}),
    )
    row = st.one_of(st.lists(cell, min_size=1, max_size=6), junk)
    floors = st.one_of(
        st.fixed_dictionaries(
            {},
            optional={
                "top": st.lists(good_cell, min_size=5, max_size=5),
                "middle": st.lists(st.one_of(good_cell, cell), min_size=5, max_size=5),
                "basement": st.lists(good_cell, min_size=2, max_size=2),
            },
        ),
        st.dictionaries(st.sampled_from(["top", "middle", "basement", "attic"]), row, max_size=4),
        junk,
    )

    def ids(kind: str):
        return st.one_of(st.none(), st.lists(st.sampled_from(sorted(rules.ids(kind))), max_size=3), junk)

    discard = st.one_of(
        st.none(),
        st.fixed_dictionaries(
            {}, optional={"rooms": st.one_of(st.lists(rooms, max_size=3), junk), "roofs": st.lists(roof, max_size=2)}
        ),
        junk,
    )
    return st.fixed_dictionaries(
        {"floors": floors},
        optional={
            "format": st.sampled_from(["dreamhome.house/1", "dreamhome.house/2", None]),
            "roofs": st.one_of(st.lists(roof, max_size=3), junk),
            "outside": ids("furnishing"),
            "helpers": ids("helper"),
            "tools": ids("tool"),
            "discard": discard,
            "colour": st.just("red"),
        },
    )


def test_house_schema_and_loader_agree() -> None:
    """Whatever the document, the loader and the schema both accept it or both refuse it."""
    from hypothesis import given, settings

    from dreamhome.errors import DreamhomeError
    from dreamhome.house import house_from_json

    rules = compile_rules()
    validator = schema_validator("house.schema.json")

    @settings(max_examples=400, deadline=None)
    @given(_house_documents())
    def check(doc: dict) -> None:
        try:
            house_from_json(rules, doc)
            loaded = True
        except DreamhomeError:
            loaded = False
        assert loaded == validator.is_valid(doc), (loaded, doc)
        outcomes.add(loaded)

    outcomes: set[bool] = set()
    check()
    assert outcomes == {True, False}, "the documents drawn should include accepted and refused ones"


# ---- docs/python.md: every block runs, in order, in one session -----------------------------

_PY_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize("page", ["python.md", "formats.md"])
def test_python_examples_run(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil
    import sys

    blocks = _PY_BLOCK.findall((DOCS / page).read_text(encoding="utf-8"))
    assert blocks
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    namespace: dict[str, object] = {"__name__": f"docs_{page}"}
    for i, block in enumerate(blocks):
        exec(compile(block, f"docs/{page} block {i + 1}", "exec"), namespace)  # noqa: S102 - the docs' own code


def test_make_bot_imports_module_class(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from dreamhome.errors import DreamhomeError
    from dreamhome.players.bots import Bot
    from dreamhome.players.roster import make_bot

    (tmp_path / "docbots.py").write_text(
        "from dreamhome.players.bots import Bot\n"
        "class First(Bot):\n    name = 'first'\n    def choose(self, obs, legal):\n        return legal[0]\n"
        "class NotABot:\n    pass\n"
    )
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    bot = make_bot("docbots:First", 1, 0)
    assert isinstance(bot, Bot) and type(bot).__name__ == "First"
    for name, words in [
        ("docbots:NotABot", "is not a bot"),
        ("docbots:Missing", "has no Missing"),
        ("no_such_module_xyz:Bot", "cannot import no_such_module_xyz"),
        (":Bot", "expected module:Class"),
        ("greedyy", "unknown bot 'greedyy'"),
    ]:
        with pytest.raises(DreamhomeError) as err:
            make_bot(name, 1, 0)
        assert words in str(err.value) and "\n" not in str(err.value)


def test_language_md_names_every_word_of_the_language() -> None:
    """Every keyword of the grammar and every word of the engine's vocabulary (effects, places,
    timings, flags, options and their values, fields per kind, provenance marks) is in
    docs/language.md, in backquotes: a word added to the language without docs fails here."""
    from dreamhome.dsl.compiler import CARD_FIELDS
    from dreamhome.vocabulary import (
        AWARDS,
        CATEGORY_FLOOR_KIND,
        EFFECTS,
        FLOOR_KINDS,
        OPTIONS,
        PLACES,
        PROVENANCE_TAGS,
        ROOF_SCORING_FIELDS,
    )

    text = (DOCS / "language.md").read_text(encoding="utf-8")
    fences = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
    coded = set(re.findall(r"`([^`\n]+)`", fences.sub("", text))) | set(fences.findall(text))
    words_in_code = {w for c in coded for w in re.findall(r"[A-Za-z_@]+", c)}
    grammar = (ROOT / "dreamhome" / "dsl" / "grammar.lark").read_text(encoding="utf-8")
    words = {w for w in re.findall(r'"([a-z_]+)"', grammar)}
    words |= set(EFFECTS) | set(PLACES) | set(OPTIONS) | {v for vs in OPTIONS.values() for v in vs}
    for shape in EFFECTS.values():
        words |= set(shape.timings) | set(shape.flags) | set(shape.keywords)
    for kind, (required, optional) in CARD_FIELDS.items():
        words |= {kind} | required | optional
    words |= set(CATEGORY_FLOOR_KIND) | set(FLOOR_KINDS) | set(ROOF_SCORING_FIELDS) | set(AWARDS)
    words |= {"@" + tag for tag in PROVENANCE_TAGS}
    missing = sorted(w for w in words if w not in words_in_code)
    assert not missing, f"words of the language not documented in docs/language.md: {missing}"


# ---- the record schema and the record loader agree --------------------------------------------

_WRONG_TYPED = [None, True, "7", [], {}, 1.5, -3]  # no whole float: JSON Schema calls 7.0 an integer, the loader does not


def _record_mutations():
    """A golden record/2 with one field made wrong where both readers can judge it (missing, or
    of another JSON type) — or left right with a field the schema allows (`finished: true`) —
    its digest made anew, so the digest is never the reason for a refusal."""
    from hypothesis import strategies as st

    data = json.loads((ROOT / "tests" / "golden" / "two_players_kids.v2.json").read_text(encoding="utf-8"))
    top = [k for k in data if k != "digest"]
    places = st.one_of(
        st.tuples(st.just("top"), st.sampled_from(top)),
        st.tuples(st.just("rules"), st.sampled_from(["source", "variants", "hash"])),
        st.tuples(st.just("event"), st.sampled_from(["whole", "round", "action", "player"])),
        st.tuples(st.just("right"), st.just("finished")),
    )
    how = st.sampled_from(["delete", "retype"])
    return st.tuples(st.just(data), places, how, st.sampled_from(_WRONG_TYPED), st.integers(0, 60))


def _mutate(data: dict, place: tuple[str, str], how: str, value, index: int) -> dict:
    import copy

    from dreamhome.game.record import record_digest

    doc = copy.deepcopy(data)
    area, key = place
    decisions = [i for i, e in enumerate(doc["events"]) if "action" in e]
    at = decisions[index % len(decisions)]
    target = {"top": doc, "rules": doc["rules"], "event": doc["events"][at]}.get(area)
    if area == "right":
        doc["finished"] = True
    elif area == "event" and key == "whole":
        doc["events"][at] = value  # an event that is not an object
    elif how == "delete" and (area != "event" or key == "action"):
        del target[key]  # a required field missing (an event's round and player are judged by type)
    else:
        target[key] = value
    doc["digest"] = record_digest(doc)
    return doc


def test_record_schema_and_loader_agree() -> None:
    """Whatever is made wrong, the loader (which replays the record) and the schema both refuse
    it; what the schema allows, the loader accepts."""
    from hypothesis import given, settings

    from dreamhome.errors import DreamhomeError
    from dreamhome.game.record import replay_record

    validator = schema_validator("record.schema.json")
    outcomes: set[bool] = set()

    @settings(max_examples=60, deadline=None, derandomize=True)
    @given(_record_mutations())
    def check(drawn) -> None:
        doc = _mutate(*drawn)
        try:
            replay_record(doc)
            loaded = True
        except DreamhomeError:
            loaded = False
        assert loaded == validator.is_valid(doc), (drawn[1:], loaded)
        outcomes.add(loaded)

    check()
    assert outcomes == {True, False}
