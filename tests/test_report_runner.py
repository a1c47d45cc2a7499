"""One batch runner (issue 32): the balance report's conditions are played by the what-if
engine's runner and kept in what-if stores, not by a second copy of them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from dreamhome.report.plan import build_plan
from dreamhome.report.play import play_report_chunk
from dreamhome.report.run import GAMES_DIR, run_plan
from dreamhome.whatif import runner
from dreamhome.whatif.store import Store


def test_the_reports_conditions_go_through_the_whatif_runner_and_its_stores(tmp_path, monkeypatch):
    """The what-if runner's executor sees one payload per chunk of every condition's what-if
    experiment (its bots, games and seeds, read here from the plan), played by the report's
    chunk; each condition's folder is a what-if store holding the games the report returns,
    and a resumed run finds them all there and plays nothing."""
    seen: list[dict] = []
    plays: list[object] = []
    real = runner.executor

    def spy(name, address=None, play=runner.play_chunk):
        plays.append(play)
        run = real(name, address, play)

        def watched(payloads: Iterable[dict], workers: int) -> Iterator[dict]:
            def noted() -> Iterator[dict]:
                for payload in payloads:
                    seen.append(payload)
                    yield payload

            return run(noted(), workers)

        return watched

    monkeypatch.setattr(runner, "executor", spy)
    plan = build_plan(rules_path=None, players=[2], ladder=["random", "greedy"], games=2, chunk=1, seed=5, cards=False)
    conditions = plan.conditions()
    assert {c.role for c in conditions} == {"seats", "ladder"} and len(conditions) == 3
    results = run_plan(plan, tmp_path, executor_name="local", workers=1)

    expected = sorted(
        (c.bots, a, b, plan.seed + c.offset) for c in conditions for _r, a, b in plan.experiment(c).jobs()
    )  # the bots, first and end game and seed of each chunk, as the plan alone says them
    assert sorted((tuple(p["bots"]), p["start"], p["end"], p["seed"]) for p in seen) == expected
    assert plays == [play_report_chunk]
    for c in conditions:
        stored = Store(tmp_path / GAMES_DIR / c.key, plan.experiment(c), resume=True).load_games()
        assert stored == [results[c]] and [g["game"] for g in results[c]] == [0, 1]

    seen.clear()
    assert run_plan(plan, tmp_path, executor_name="local", workers=1, resume=True) == results
    assert seen == []
