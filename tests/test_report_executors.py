"""The balance report of a seed is the same on every executor and worker count, and resumes
to the same report (issue 24, Checks)."""

from __future__ import annotations

import pytest

from dreamhome.errors import DreamhomeError
from dreamhome.report.document import build_document
from dreamhome.report.plan import build_plan
from dreamhome.report.run import run_plan
from tests.helpers.report_rules import KEPT, short_rules


def _document(plan, results):
    rulesets = plan.compiled()
    return build_document(plan, results, rulesets)


@pytest.mark.slow
def test_the_report_of_a_seed_is_identical_on_every_executor_and_worker_count(tmp_path):
    """Every kind of condition (self-play at 2 and 3 players, a ladder rung's rotations, each
    card type's restricted and always-take play), each in chunks of one game, gives the same
    document in process, on two workers, in a process pool and on Ray, and after chunks lost
    and resumed. What an executor carries does not depend on the game, so the ruleset is the
    short one of tests/helpers/report_rules.py: 8 card types of 4 rounds, not 37 of 12 (the
    same conditions, 16 instead of 78, each game a fifth of the cost)."""
    rules = str(short_rules(tmp_path))
    plan = build_plan(rules_path=rules, players=[2, 3], ladder=["random", "greedy"], games=2, chunk=1, seed=3)
    local = _document(plan, run_plan(plan, tmp_path / "a", executor_name="local", workers=1))
    assert _document(plan, run_plan(plan, None, executor_name="local", workers=2)) == local
    assert _document(plan, run_plan(plan, None, executor_name="processes", workers=2)) == local
    assert local["ladder"] and len(local["seats"]) == 2
    assert {c["card"] for c in local["cards"]} == KEPT  # every card type of the short decks, restricted
    assert all(c["games"] == 2 for c in local["cards"])
    # resumable: chunks lost after a run are played again, to the same report
    lost = sorted((tmp_path / "a" / "games").rglob("r0-*.json"))[::3]
    for path in lost:
        path.unlink()
    with pytest.raises(DreamhomeError, match="--resume"):
        run_plan(plan, tmp_path / "a", executor_name="local", workers=1)
    assert _document(plan, run_plan(plan, tmp_path / "a", executor_name="local", workers=1, resume=True)) == local
    pytest.importorskip("ray", reason="the ray extra is not installed (pip install -e '.[ray]')")
    assert _document(plan, run_plan(plan, None, executor_name="ray", workers=2)) == local


@pytest.mark.slow
def test_precision_plays_the_same_blocks_on_every_executor():
    from dreamhome.report.run import run_to_precision

    plan = build_plan(rules_path=None, vs="kids", players=[2], ladder=["greedy"], games=4, chunk=2, seed=1, cards=False)
    local_plan, local = run_to_precision(plan, None, 0.45, executor_name="local", workers=1)
    pool_plan, pool = run_to_precision(plan, None, 0.45, executor_name="processes", workers=2)
    assert local_plan.extensions and local_plan == pool_plan
    doc = build_document(local_plan, local, local_plan.compiled(), 0.45)
    assert doc == build_document(pool_plan, pool, pool_plan.compiled(), 0.45)
    assert doc["precision"]["reached"] and doc["vs"]["differences"]["seats"][0]["mean_score"]["n"] == doc["seats"][0]["games"]


@pytest.mark.slow
def test_the_sensitivity_and_the_catalogue_are_the_same_on_every_executor():
    """A row per catalogue variant the rules offer (issue 35's check), every base assumed value's
    steps varied or said why not, and the same document in process and in a pool."""
    plan = build_plan(
        rules_path=None, players=[2], ladder=["greedy"], games=2, chunk=1, seed=7, cards=False, sensitivity="all", catalogue=True
    )
    assert plan.alt_games == 1
    local = _document(plan, run_plan(plan, None, executor_name="local", workers=1))
    assert _document(plan, run_plan(plan, None, executor_name="processes", workers=2)) == local
    rules = plan.compiled()[0]
    offered = sorted(v for v in rules.variants_available if v not in rules.variants_on)
    assert (
        sorted([r["variant"] for r in local["catalogue"]["rows"]] + [s["variant"] for s in local["catalogue"]["skipped"]])
        == offered
    )
    sens = local["sensitivity"]
    assert len(sens["entries"]) + len(sens["not_varied"]) == 2 * len(rules.assumed_values())
    assert sorted(e["rank"] for e in sens["entries"]) == list(range(1, len(sens["entries"]) + 1))
    assert all(n["why"] for n in sens["not_varied"])
