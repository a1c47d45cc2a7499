"""The catalogue of designer what-ifs (dreamhome/rules/variants/): every variant, every answer.

The variants are found by listing the folder, so a new file is tested with no change here.
Each one must state its question, compile cleanly, and keep every reading of the rules in
agreement on seeded inputs: the fast scorer = the explained scorer = the CP-SAT objective
(`add_final_score`) = the independent reference of tests/helpers/reference.py
(SCORE-TOTAL); `legal_placements` = placing and checking with legality (PLACE-*); seeded
games keep every invariant and replay exactly (COMP-1, ROUND-6); `place`'s bounds = the best
of every completion; `optimize` = the exhaustive end-game reference (END-ORDER); `max` = a brute
force on the tiny board where the variant applies there; `dreamhome whatif base VARIANT` runs and its numbers are the games' own.
docs/variants.md lists exactly the catalogue, with each file's question.
"""

from __future__ import annotations

import json
import random
import re
import zlib
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from ortools.sat.python import cp_model

from dreamhome.cli import main
from dreamhome.dsl.compiler import VARIANTS_DIR, compile_rules
from dreamhome.engine.cpsat import SolveSettings, new_solver
from dreamhome.engine.deck import rooms_left
from dreamhome.engine.placement import apply_placement, legal_placements
from dreamhome.engine.roof import best_roof_points
from dreamhome.errors import DreamhomeError
from dreamhome.exact.best_house import best_house as search_best_house
from dreamhome.game.record import replay_record
from dreamhome.game.state import GameState
from dreamhome.generate import random_house
from dreamhome.house import House, house_to_json
from dreamhome.legality import house_violations
from dreamhome.players.playing import play_game
from dreamhome.ruleset import EMPTY, FACE_DOWN, ROOM0, SCAFFOLD, Ruleset
from dreamhome.scoring import add_final_score, score_components, score_house, score_total
from dreamhome.solver.best_house import best_house
from dreamhome.solver.optimize import best_final_score
from dreamhome.solver.place import placement_bounds
from tests.helpers.cli import run_here
from tests.helpers.cpsat import fixed_stage
from tests.helpers.exhaustive import brute_force_max, exact_best, reference_placements
from tests.helpers.games import check_invariants
from tests.helpers.paths import DATA, ROOT
from tests.helpers.reference import reference_score
from tests.helpers.reference_endgame import reference_best_final
from tests.helpers.rules import compiled

VARIANTS = sorted(p.stem for p in VARIANTS_DIR.glob("*.dh"))
TINY = DATA / "tiny.dh"
BRUTE_FORCE_HOUSES = 1500
"""Largest number of tiny-board houses (before tokens, helpers, roofs) enumerated for `max`:
the tiny rules alone have 1,250 (about 1 s); a variant adding a room type has 2,592 (13 s)."""


def rng_for(variant: str, salt: str) -> random.Random:
    """A generator seeded by the variant's name: fixed inputs, different for each variant."""
    return random.Random(zlib.crc32(f"{variant}/{salt}".encode()))


def test_the_catalogue_is_not_empty() -> None:
    assert len(VARIANTS) >= 17
    assert {"handyman2", "kitchen3", "orthogonal"} <= set(VARIANTS)


@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_states_its_question_and_compiles_cleanly(variant: str) -> None:
    """The first line is the one-line question `rules variants` shows; the variant changes the
    rules (its compiled tables differ from the base game's) and every card is dealt (COMP-1)."""
    first = (VARIANTS_DIR / f"{variant}.dh").read_text(encoding="utf-8").splitlines()[0]
    assert re.fullmatch(r"# What if .+\?", first), first
    rules = compiled(variant)
    assert rules.warnings == ()
    assert rules.variants_on == (variant,)
    base = compiled()
    changed = (
        rules.game != base.game
        or rules.board != base.board
        or rules.rooms != base.rooms
        or rules.roofs != base.roofs
        or rules.furnishings != base.furnishings
        or rules.helpers != base.helpers
        or rules.tools != base.tools
        or rules.bonuses != base.bonuses
        or rules.roof_scoring != base.roof_scoring
        or dict(rules.options) != dict(base.options)
    )
    assert changed, f"{variant} changes nothing of the base rules"


# ---- SCORE-TOTAL: four readings of the final score ------------------------------------------


def cpsat_score(rules: Ruleset, house: House) -> int:
    hm, stage = fixed_stage(rules, house)
    add_final_score(hm, stage, house)
    hm.model.maximize(hm.objective_expr())
    solver = new_solver(SolveSettings(workers=1, seed=0))
    status = solver.solve(hm.model)
    assert status == cp_model.OPTIMAL, solver.status_name(status)
    return round(solver.objective_value) + best_roof_points(rules, house.roofs)  # the roof is scored apart


@pytest.mark.parametrize("variant", VARIANTS)
def test_fast_explained_cpsat_and_reference_scores_agree(variant: str) -> None:
    """SCORE-TOTAL on seeded random houses, full and partial, with helpers (HELP-*) and tokens."""
    rules = compiled(variant)
    rng = rng_for(variant, "score")
    for cards in (None, None, None, rules.board.size // 2):
        house = random_house(rules, rng, cards=cards)
        fast = score_components(rules, house)
        explained = score_house(rules, house)
        reference = reference_score(rules, house_to_json(rules, house))
        assert explained.total == sum(fast) == reference["total"]
        assert list(fast) == [reference[k] for k in ("rooms", "furnishings", "functionality", "roof", "empty_rooms")]
        assert cpsat_score(rules, house) == sum(fast)


# ---- PLACE-*: legal placements = legality ------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_legal_placements_match_legality(variant: str) -> None:
    """Every card type on seeded houses in the making: the engine's placements are exactly the
    cells where placing (face up or down) leaves a legal house and joins no closed room."""
    rules = compiled(variant)
    rng = rng_for(variant, "place")
    for _ in range(4):
        house = random_house(rules, rng, cards=rng.randrange(rules.board.size))
        for room in rules.ids("room"):
            assert legal_placements(rules, house, room) == reference_placements(rules, house, room)


# ---- COMP-1, ROUND-6: seeded games keep every invariant and replay exactly --------------------


def game_plans(variant: str) -> Iterator[tuple[int, list[str], int]]:
    """The fewest and the most players the variant allows, random bots and greedy bots."""
    rules = compiled(variant)
    lo, hi = rules.game.min_players, rules.game.max_players
    rng = rng_for(variant, "games")
    yield lo, ["random"] * lo, rng.randrange(10**9)
    yield hi, ["greedy", "random"] * (hi // 2) + ["greedy"] * (hi % 2), rng.randrange(10**9)


@pytest.mark.parametrize("variant", VARIANTS)
def test_seeded_games_keep_every_invariant_and_replay(variant: str) -> None:
    rules = compiled(variant)
    assert rules.board.size == rules.game.rounds  # one card per round fills the board (ROUND-6)
    steps = [0]

    def checked(replayed: GameState) -> None:
        check_invariants(replayed)  # card conservation (COMP-1), legal houses, tokens
        steps[0] += 1

    for players, bots, seed in game_plans(variant):
        result = play_game(rules, players, bots, seed)
        state = result.state
        for house in state.houses:
            assert house.is_finished() and SCAFFOLD not in house.cells
            assert sum(1 for c in house.cells if c >= ROOM0 or c == FACE_DOWN) == rules.board.size
        assert state.returns() == [score_house(rules, h).total for h in state.houses]
        assert state.returns() == [reference_score(rules, house_to_json(rules, h))["total"] for h in state.houses]
        record = json.loads(json.dumps(result.record()))
        steps[0] = 0
        again = replay_record(record, on_step=checked)  # recompiled from the record's own source
        assert steps[0] > rules.game.rounds * players
        assert again.state.houses == state.houses and again.scores() == result.scores()


# ---- END-ORDER: optimize = the exhaustive end-game reference ----------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_optimize_matches_the_exhaustive_reference(variant: str) -> None:
    rules = compiled(variant)
    rng = rng_for(variant, "optimize")
    end_helpers = sorted({h.id for h in rules.helpers})
    for _ in range(2):
        chosen = tuple(sorted(h for h in end_helpers if rng.random() < 0.5))
        house = random_house(rules, rng, helpers=chosen, discard_rooms=rng.randint(0, 3))
        result = best_final_score(rules, house, workers=1)
        assert result.optimal
        assert result.total == reference_best_final(rules, house)
        assert result.total >= score_total(rules, house)
        assert result.total == score_total(rules, result.house)
        assert not [v for v in house_violations(rules, result.house) if v.rule != "COMP-5"]


# ---- place: the bound of each placement = the best exhaustive completion ---------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_place_bounds_match_exhaustive_completions(variant: str) -> None:
    """A house two cards short, with no swapping helper (the bound is then exact): every
    placement's bound is the best final score over every legal completion from a small pool."""
    rules = compiled(variant)
    rng = rng_for(variant, "place-bounds")
    scoring_only = tuple(sorted({h.id for h in rules.helpers if not any(e.timing == "end" for e in h.effects)}))
    house = random_house(rules, rng, cards=rules.board.size - 2, helpers=scoring_only[: rng.randint(0, len(scoring_only))])
    house = replace(house, discard_rooms=(), discard_roofs=())
    left = rooms_left(rules, house)
    free = sum(1 for c in house.cells if c in (EMPTY, SCAFFOLD))
    pool = {code: min(n, 2) for code, n in sorted(left.items())[:: max(1, len(left) // 3)] if n}
    if sum(pool.values()) < free:
        pytest.skip("no pool of three card types fills this house")  # not met by the current seeds
    card = rules.room_of_code(min(pool)).id
    rest = dict(pool)
    rest[min(pool)] -= 1
    bounds = placement_bounds(rules, house, card, pool=pool, workers=1)
    assert len(bounds) == len(legal_placements(rules, house, card)) > 0
    for bound in bounds:
        assert bound.optimal
        assert bound.bound == exact_best(rules, apply_placement(rules, house, card, bound.placement), rest)


# ---- max: brute force where the variant applies to the tiny board -----------------------------


def tiny_with(variant: str) -> Ruleset | None:
    """The variant over tests/data/tiny.dh, or None when it names cards the tiny rules lack."""
    try:
        return compile_rules(TINY, [variant])
    except DreamhomeError:
        return None


@pytest.mark.parametrize("variant", VARIANTS)
def test_max_matches_brute_force_on_the_tiny_board(variant: str) -> None:
    """`max` on the full board takes 10-20 s to prove (docs/SOLVER.md), too long per variant
    here; on the 5-space tiny board every house is enumerated, under the variant's own
    declarations applied over the tiny rules."""
    rules = tiny_with(variant)
    if rules is None:
        pytest.skip(f"{variant} names cards the tiny rules do not have; max is not enumerable on 12 spaces")
    if rules.options["annex_adjacency"] != "horizontal":
        with pytest.raises(DreamhomeError, match="annex_adjacency"):
            best_house(rules)
        return
    tiny = compiled(path=TINY)
    if (rules.rooms, rules.bonuses, rules.roof_scoring, rules.helpers, rules.furnishings) == (
        tiny.rooms,
        tiny.bonuses,
        tiny.roof_scoring,
        tiny.helpers,
        tiny.furnishings,
    ):
        pytest.skip(f"{variant} changes nothing `max` reads on the tiny board (only play: the deal, options)")
    n = 1
    for i in range(rules.board.size):
        n *= 1 + sum(r.floor_kind == rules.board.cell_kind[i] for r in rules.rooms)
    if n > BRUTE_FORCE_HOUSES:
        pytest.skip(f"{variant} over the tiny rules has {n} houses to enumerate (> {BRUTE_FORCE_HOUSES})")
    result = best_house(rules, workers=1)
    assert result.optimal
    assert result.total == brute_force_max(rules)
    assert search_best_house(rules).total == result.total  # the default engine of `max` too
    assert result.total == score_total(rules, result.house)
    assert house_violations(rules, result.house) == []


# ---- dreamhome whatif base VARIANT -----------------------------------------------------------


WHATIF_GAMES = 2
"""Two games a ruleset: the what-if runs under the variant, and its mean is that of the direct
games of seeds S and S + 1 (two seeds, so the pairing of game i with seed S + i is read); four
cost twice as much and prove nothing more here. tests/test_whatif.py checks the pairing, the
executors and the numbers in depth."""


@cache
def _greedy_scores(variants: tuple[str, ...], players: int) -> tuple[int, ...]:
    """Every score of the WHATIF_GAMES greedy games (seeds 11, 12, …) played directly under the
    variants: the base rules' games are the same for every variant's what-if, so each worker
    plays them once."""
    ruleset = compiled(*variants)
    games = range(WHATIF_GAMES)
    return tuple(s for i in games for s in play_game(ruleset, players, ["greedy"] * players, 11 + i).scores())


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_whatif_runs_on_every_variant(variant: str) -> None:
    """WHATIF_GAMES paired games in this process; each ruleset's mean is the mean of the games
    played directly with the same seeds and bots (seed S + i for game i)."""
    rules = compiled(variant)
    players = min(3, rules.game.max_players)
    args = ["whatif", "base", variant, "--games", str(WHATIF_GAMES), "--seed", "11", "--players", str(players)]
    out = CliRunner().invoke(main, [*args, "--executor", "local", "--json"], catch_exceptions=False)
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert [r["ruleset"] for r in doc["rulesets"]] == ["base", variant]
    for r, variants in zip(doc["rulesets"], ((), (variant,)), strict=True):
        assert r["games"] == WHATIF_GAMES and r["crashed"] == []
        scores = _greedy_scores(variants, players)
        assert r["score"]["mean"] == pytest.approx(sum(scores) / len(scores))


# ---- dreamhome rules variants, docs/variants.md ----------------------------------------------


def test_rules_variants_lists_the_files_and_the_blocks() -> None:
    out = CliRunner().invoke(main, ["rules", "variants", "--json"], catch_exceptions=False)
    assert out.exit_code == 0
    doc = json.loads(out.output)
    assert [v["name"] for v in doc["files"]] == VARIANTS
    for v in doc["files"]:
        first = (VARIANTS_DIR / f"{v['name']}.dh").read_text(encoding="utf-8").splitlines()[0]
        assert "# " + v["question"] == first
    assert doc["blocks"] == [
        {"name": "kids", "title": "No discard with 2 or 3 players"},
        {"name": "car", "title": "The car rule"},
    ]
    text = CliRunner().invoke(main, ["rules", "variants"], catch_exceptions=False).output
    lines = text.splitlines()
    for v in doc["files"] + doc["blocks"]:
        assert any(line.split()[:1] == [v["name"]] for line in lines), v
    assert len(lines) == len(VARIANTS) + 2 + 2  # one line each, two headings


def test_docs_variants_md_lists_exactly_the_catalogue() -> None:
    text = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z0-9_]+)` \| (.+?) \|", text, re.MULTILINE))
    questions = {v: (VARIANTS_DIR / f"{v}.dh").read_text(encoding="utf-8").splitlines()[0][2:] for v in VARIANTS}
    assert {k: v for k, v in rows.items() if k not in ("kids", "car")} == questions
    assert "variants.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_rules_variants_bad_rules_file_is_one_line(tmp_path: Path) -> None:
    """Bad input: one clear line with file:line:column, exit 2, never a traceback."""
    bad = tmp_path / "bad.dh"
    bad.write_text("game x { players 2..4 }\n", encoding="utf-8")
    proc = run_here("--rules", bad, "rules", "variants")
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and f"{bad}:1:1: error:" in proc.stderr
