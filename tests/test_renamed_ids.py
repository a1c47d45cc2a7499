"""One rules core: the engine knows no card of the base game by name.

base.dh is compiled a second time with every id (rooms, roofs, furnishings, the award token,
helpers, tools, bonuses, the variant that names them) and every card name renamed, by text
substitution on word boundaries. Everything the engine answers must be the same, modulo the
renaming: scores of the same houses, the best house (`max`), whole games move by move with
their event streams, and a what-if's statistics. Last, no id or name of base.dh appears as a
word in the engine's Python (rule ids such as END-SUPPLIER aside).
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path

import pytest

from dreamhome.dsl.compiler import compile_rules
from dreamhome.generate import random_house
from dreamhome.house import house_from_json, house_to_json
from dreamhome.players.playing import play_game
from dreamhome.ruleset import Ruleset
from dreamhome.scoring import score_house, score_total
from tests.helpers.paths import ROOT

RULES_DIR = ROOT / "dreamhome" / "rules"
RULE_ID = re.compile(r"[A-Z]+-[A-Z0-9-]+")


def base_cards(rules: Ruleset) -> list:
    """Every card-like declaration of the rules: rooms, roofs, furnishings and tokens, helpers,
    tools, bonuses (ids and names)."""
    return [*rules.rooms, *rules.roofs, *rules.furnishings, *rules.helpers, *rules.tools, *rules.bonuses]


@cache
def base_with_every_variant() -> Ruleset:
    """base.dh with its in-file variants that declare cards (the award token of VAR-CAR)."""
    return compile_rules(variants=["car", "kids"])


@cache
def renaming() -> tuple[dict[str, str], dict[str, str]]:
    """(id → new id, name → new name) for every card of base.dh, its variants' cards included."""
    cards = base_cards(base_with_every_variant())
    ids = {c.id: f"k{i}q" for i, c in enumerate(cards)}
    names = {c.name: f"Card {i} Q" for i, c in enumerate(cards)}
    return ids, names


def _words(mapping: dict[str, str]) -> re.Pattern[str]:
    return re.compile(r"\b(" + "|".join(re.escape(k) for k in sorted(mapping, key=len, reverse=True)) + r")\b")


def rename(text: str) -> str:
    """Quoted card names first (a name may contain an id: "A bathroom on each upper floor"),
    then ids as words, one pass each so nothing is renamed twice."""
    ids, names = renaming()
    quoted = re.compile("|".join(re.escape(f'"{n}"') for n in sorted(names, key=len, reverse=True)))
    text = quoted.sub(lambda m: f'"{names[m.group(0)[1:-1]]}"', text)
    return _words(ids).sub(lambda m: ids[m.group(0)], text)


def rename_data(value):
    """A JSON value (a house, an event stream) as the renamed rules spell it: ids everywhere,
    card names at the start of a text ("Supplier: …")."""
    ids, names = renaming()
    text = json.dumps(value, ensure_ascii=False)
    text = _words(names).sub(lambda m: names[m.group(0)], text) if names else text
    return json.loads(_words(ids).sub(lambda m: ids[m.group(0)], text))


@pytest.fixture(scope="module")
def renamed_dir(tmp_path_factory) -> Path:
    """base.dh and the variant files, renamed, in a folder of their own."""
    out = tmp_path_factory.mktemp("renamed")
    (out / "variants").mkdir()
    (out / "base.dh").write_text(rename((RULES_DIR / "base.dh").read_text()))
    for path in (RULES_DIR / "variants").glob("*.dh"):
        (out / "variants" / path.name).write_text(rename(path.read_text()))
    return out


def renamed_rules(folder: Path, variants: list[str]) -> Ruleset:
    ids, _ = renaming()
    return compile_rules(folder / "base.dh", [ids.get(v, v) for v in variants])


def test_the_renaming_renames(renamed_dir):
    text = (renamed_dir / "base.dh").read_text()
    rules = renamed_rules(renamed_dir, ["car"])
    ids, names = renaming()
    assert {c.id for c in base_cards(rules)} == set(ids.values())
    assert {c.name for c in base_cards(rules)} == set(names.values())
    assert not re.search(r"\b(kitchen|supplier|drill|garage)\b", text)


def test_same_scores_for_the_same_houses(renamed_dir):
    """SCORE-*: a house scores the same under either spelling, line by line in total."""
    for variants in ([], ["car"]):
        base = compile_rules(variants=variants)
        renamed = renamed_rules(renamed_dir, variants)
        rng = random.Random(17)
        for k in range(40):
            house = random_house(base, rng, cards=None if k % 2 else rng.randint(3, 11))
            twin = house_from_json(renamed, rename_data(house_to_json(base, house)), "renamed")
            assert score_total(renamed, twin) == score_total(base, house)
            assert score_house(renamed, twin).total == score_house(base, house).total


@pytest.mark.slow
def test_same_best_house(renamed_dir):
    """`dreamhome max`: 68 under the base rules, whatever the cards are called."""
    from dreamhome.exact.best_house import best_house as search
    from dreamhome.solver.best_house import best_house

    rules = renamed_rules(renamed_dir, [])
    assert best_house(rules).total == 68
    assert search(rules).total == 68


GAMES = [([], 4, ["greedy", "random", "greedy", "random"], 11), (["kids"], 2, ["greedy", "greedy"], 3)]
GAMES += [(["car"], 3, ["random", "greedy", "greedy"], 21), (["kids"], 2, ["solver", "greedy"], 5)]


@pytest.mark.parametrize(("variants", "players", "bots", "seed"), GAMES)
def test_same_games_move_by_move(renamed_dir, variants, players, bots, seed):
    """The golden games (and one with the solver bot): identical scores, and identical event
    streams once the base game's spelling is renamed (decisions, texts, deals, notes)."""
    base = play_game(compile_rules(variants=variants), players, bots, seed).record()
    renamed = play_game(renamed_rules(renamed_dir, variants), players, bots, seed).record()
    assert renamed["scores"] == base["scores"] and renamed["winners"] == base["winners"]
    assert renamed["events"] == rename_data(base["events"])
    assert renamed["houses"] == rename_data(base["houses"])


def test_same_what_if_numbers(renamed_dir):
    """A tiny what-if under both spellings: the same statistics (card counts renamed)."""
    from dreamhome.whatif.experiment import Experiment, RulesetSpec
    from dreamhome.whatif.runner import run_experiment

    def numbers(rules: Ruleset) -> dict:
        spec = RulesetSpec("r", rules.source, tuple(rules.variants_on), rules.content_hash)
        doc = run_experiment(Experiment((spec,), 8, 3, ("greedy",) * 3, 7, 4), None, executor_name="local", workers=1)
        return {k: v for k, v in doc["rulesets"][0].items() if k not in ("label", "hash")}

    base = numbers(compile_rules())
    renamed = numbers(renamed_rules(renamed_dir, []))
    assert renamed == rename_data(base)


# ---- no card of base.dh in the engine's Python ---------------------------------------------

STRICT = ("dreamhome/game/", "dreamhome/render/replay_page.py", "dreamhome/render/house_svg.py")
# The house format's own field names (dreamhome.house/1): a key of the file format, not a card.
FORMAT_KEYS = {"dreamhome/house.py": re.compile(r'"scaffolding"|\\"scaffolding\\"')}


def offending_words() -> dict[str, list[str]]:
    """file → the ids and names of base.dh (and its variants) it spells as words."""
    words = {w for c in base_cards(base_with_every_variant()) for w in (c.id, c.name)}
    pattern = re.compile(r"\b(" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) + r")\b", re.I)
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "dreamhome").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if rel in FORMAT_KEYS:
                line = FORMAT_KEYS[rel].sub("", line)
            for m in pattern.finditer(RULE_ID.sub("", line)):
                found.setdefault(rel, []).append(f"{n}:{m.group(0)}")
    return found


def test_no_card_of_the_base_game_in_the_game_driver():
    """The game driver and the viewer name cards only through the rules file."""
    found = offending_words()
    strict = {f: w for f, w in found.items() if f.startswith(STRICT)}
    if "dreamhome/render/house_svg.py" in strict and _roof_colours(
        "dreamhome/render/house_svg.py", strict["dreamhome/render/house_svg.py"]
    ):
        del strict["dreamhome/render/house_svg.py"]
    assert strict == {}


def _roof_colours(path: str, words: list[str]) -> bool:
    """render/house_svg.py's roof colour table (moving into the rules files; not this driver's)."""
    lines = (ROOT / path).read_text().splitlines()
    return all(lines[int(w.split(":")[0]) - 1].startswith("ROOF_COLOURS") for w in words)


def test_no_card_of_the_base_game_in_the_engine():
    """No card id or name of base.dh in any of the package's Python (code, messages, comments):
    the engine names cards only through the rules file (README: "no card name in Python")."""
    assert offending_words() == {}
