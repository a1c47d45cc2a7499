"""The balance report's checks (issue 24): a ruleset whose answer is known, a card with count 0,
the kids variant's paired change of the first seat's edge (the same report on every executor:
tests/test_report_executors.py)."""

from __future__ import annotations

import json
import re
import statistics
from importlib.resources import files
from pathlib import Path

import pytest

from dreamhome.dsl.compiler import compile_rules
from dreamhome.players.playing import play_game
from dreamhome.report.document import build_document
from dreamhome.report.plan import build_plan
from dreamhome.report.run import run_plan
from tests.helpers.cli import run_here

MANSION = Path(__file__).parent / "data" / "report_mansion.dh"


def _document(plan, results):
    rulesets = plan.compiled()
    return build_document(plan, results, rulesets)


@pytest.mark.slow
def test_a_room_worth_20_points_ranks_first_and_a_card_with_count_0_is_absent(tmp_path):
    out = tmp_path / "mansion"
    proc = run_here("--rules", MANSION, "report", "--games", 30, "--players", 2, "--bots", "greedy", "--out", out, "--chunk", 15)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((out / "report.json").read_text())
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(doc, json.loads(files("dreamhome.schemas").joinpath("report.schema.json").read_text()))
    cards = doc["cards"]
    assert cards[0]["card"] == "room:mansion"
    assert all(cards[0]["low"] > other["high"] for other in cards[1:])  # its interval above every other card's
    assert [c["worth"] for c in cards] == sorted((c["worth"] for c in cards), reverse=True)
    # the flags after Holm's correction (issue 35): the 20-point room is costly to lose, nothing is "worthless"
    assert doc["multiple_comparisons"]["method"] == "holm" and "costly_to_lose" in cards[0]["flags"]
    assert all(set(c["flags"]) <= {"costly_to_lose", "better_without", "essential"} for c in cards)
    assert cards[0]["always_take"]["mean"] > 0  # taking the mansion whenever it can pays
    base_rate = cards[0]["take_base"]
    assert all(c["take_base"] == base_rate for c in cards) and 0 < base_rate["rate"] < 1
    # every card type of the decks, by the rules file's own definitions, and nothing else
    rules = compile_rules(MANSION)
    decks = {f"room:{r.id}" for r in rules.rooms if r.count} | {f"roof:{r.id}" for r in rules.roofs if r.count}
    decks |= {f"furnishing:{f.id}" for f in rules.furnishings if f.is_card and f.count}
    decks |= {f"helper:{h.id}" for h in rules.helpers if h.count} | {f"tool:{t.id}" for t in rules.tools if t.count}
    assert {c["card"] for c in cards} == decks
    assert cards[0]["copies"] == rules.room("mansion").count
    assert "room:workshop" not in decks and rules.room("workshop").count == 0  # COMP-*: count 0, not in the game
    assert doc["assumed"] and {a["file"] for a in doc["assumed"]} <= {"base.dh", "report_mansion.dh"}
    sources = {"base.dh": files("dreamhome.rules").joinpath("base.dh").read_text(), "report_mansion.dh": MANSION.read_text()}
    for a in doc["assumed"]:  # file and line name the value's own line
        line = sources[a["file"]].splitlines()[a["line"] - 1]
        assert "@assumed" in line and a["field"].split(":")[0] in line, a
    best = doc["best_house"]
    assert best["optimal"] and best["total"] >= max(s["best_reached"] for s in doc["shape"])
    html = (out / "report.html").read_text()
    assert "Mansion" in html and "<script" not in html and not re.search(r"""(src|href)=["']?(https?:|//)""", html)
    assert html.count("data:image/png;base64,") == 4  # seats, cards, shape, tension, inline; one bot: no ladder
    assert "No ladder" in html
    assert "Mansion" in proc.stdout and "Mansion" in (out / "summary.txt").read_text()


def _first_margin(result) -> float:
    scores = result.scores()
    first = result.state.initial_first
    others = [s for p, s in enumerate(scores) if p != first]
    return scores[first] - statistics.fmean(others)


@pytest.mark.slow
def test_the_kids_variant_moves_the_first_seat_as_its_paired_interval_says():
    """VAR-NODISCARD removes the 2–3 player discard (ROUND-1). The report's paired change of the
    first seat's edge, on the same seeds, must be what games played apart (the game driver,
    play_game) give, and the direction its interval says.

    The change is checked game for game against the games played apart, which any number of
    games proves as well; on 40 games its interval named no direction at either player count
    (2 players: −2.3 to 3.2, 3 players: −2.9 to 3.0: the discard moves the first seat's edge by
    less than a game's noise, sd ≈ 9), nor on 10 (−4.0 to 11.0, −1.7 to 12.2). So 10 games a
    condition, in chunks of 5 so the pool still shares each condition out."""
    games = 10
    plan = build_plan(rules_path=None, vs="kids", players=[2, 3], ladder=["greedy"], games=games, cards=False, seed=5, chunk=5)
    doc = _document(plan, run_plan(plan, None, executor_name="processes", workers=2))
    base, kids = compile_rules(None), compile_rules(None, ["kids"])
    for diff, seats in zip(doc["vs"]["differences"]["seats"], doc["seats"]):
        n = diff["players"]
        played = [play_game(base, n, ["greedy"] * n, 5 + i) for i in range(games)]
        apart = [_first_margin(play_game(kids, n, ["greedy"] * n, 5 + i)) - _first_margin(played[i]) for i in range(games)]
        change = diff["first_margin"]
        assert change["n"] == games and change["mean"] == pytest.approx(statistics.fmean(apart))
        assert change["low"] <= statistics.fmean(apart) <= change["high"]
        if change["low"] > 0 or change["high"] < 0:  # the interval names a direction: the games agree with it
            assert (statistics.fmean(apart) > 0) == (change["low"] > 0)
        first = sum(1 / len(r.winners()) for r in played if r.state.initial_first in r.winners())
        assert seats["positions"][0]["win_rate"]["rate"] == pytest.approx(first / games)


@pytest.mark.slow
def test_a_planted_three_player_ladder_comes_out_in_its_known_order():
    """random < easy < greedy (issue 35's check): on each rung of a 3-player ladder the weaker bot,
    in every seat in turn, wins less than an even 1/3 and a stronger seat more, by the intervals;
    and its win rate is the one counted from the games played apart (play_game), seat by seat."""
    games = 10
    ladder = ["random", "easy", "greedy"]
    plan = build_plan(rules_path=None, players=[3], ladder=ladder, games=games, cards=False, seed=2, chunk=5)
    doc = _document(plan, run_plan(plan, None, executor_name="processes", workers=2))
    assert [(r["weaker"], r["stronger"]) for r in doc["ladder"]] == [("random", "easy"), ("easy", "greedy")]
    base = compile_rules(None)
    for rung in doc["ladder"]:
        assert rung["players"] == 3 and rung["even_share"] == pytest.approx(1 / 3) and rung["games"] == 3 * games
        assert rung["weaker_win_rate"]["high"] < 1 / 3 < rung["stronger_win_rate"]["low"]
        assert rung["margin"]["low"] > 0
        wins = 0.0
        for seat in range(3):
            bots = [rung["weaker"] if p == seat else rung["stronger"] for p in range(3)]
            for i in range(games):
                winners = play_game(base, 3, bots, 2 + i).winners()
                wins += 1 / len(winners) if seat in winners else 0.0
        assert rung["weaker_win_rate"]["rate"] == pytest.approx(wins / (3 * games))


def _stored_games(out: Path, condition: str) -> list[dict]:
    """A condition's games as the store keeps them (games/<condition>/chunks/*.json)."""
    (directory,) = (out / "games").glob(f"r0-{condition}-*")
    return sorted(
        (g for f in sorted((directory / "chunks").glob("*.json")) for g in json.loads(f.read_text())["games"]),
        key=lambda g: g["game"],
    )


def _replayed_round_scores(rules, players: int, seed: int) -> list[list[int]]:
    """Every house's score at each round's end, from a game stepped here with the greedy bots."""
    from dreamhome.game.state import GameState
    from dreamhome.players.roster import make_bot

    state = GameState(rules, players, seed)
    bots = [make_bot("greedy", seed, p) for p in range(players)]
    out, current = [], state.round
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].choose(state.observation(), state.legal_actions()))
        if state.round != current or state.is_terminal():
            out.append(state.returns())
            current = state.round
    return out


@pytest.mark.slow
def test_the_tension_figures_are_those_recomputed_from_the_stored_games(tmp_path):
    """Issue 35's check: margin, close, lead changes and the deciding round against a
    recomputation, written apart here, from the games the report stored; the stored scores at
    each round's end are those of the games replayed."""
    out = tmp_path / "t"
    proc = run_here(
        "report", "--players", "3", "--bots", "greedy", "--no-cards", "--games", 12, "--chunk", 6, "--seed", 4, "--out", out
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((out / "report.json").read_text())
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(doc, json.loads(files("dreamhome.schemas").joinpath("report.schema.json").read_text()))
    (t,) = doc["tension"]
    games = _stored_games(out, "p3-seats")
    base = compile_rules(None)
    for g in games[:3]:
        assert g["round_scores"] == _replayed_round_scores(base, 3, g["seed"]) and g["round_scores"][-1] == g["scores"]
    margins, changes, settled = [], [], []
    for g in games:
        top = sorted(g["scores"])
        margins.append(top[-1] - top[-2])
        leaders = [[p for p in range(3) if s[p] == max(s)] for s in g["round_scores"]]
        sole = [ls[0] for ls in leaders if len(ls) == 1]
        changes.append(sum(1 for a, b in zip(sole, sole[1:]) if a != b))
        # the earliest step after which some winner is at the top at every later step
        steps = len(g["round_scores"])
        settled.append(
            min(next(k + 1 for k in range(steps) if all(w in leaders[j] for j in range(k, steps))) for w in g["winners"])
        )
    assert t["games"] == len(games) == 12 and t["steps"] == base.game.rounds + 1
    assert t["margin"]["mean"] == pytest.approx(statistics.fmean(margins))
    assert t["close"]["rate"] == pytest.approx(sum(m <= 2 for m in margins) / len(margins))
    assert t["lead_changes"]["mean"] == pytest.approx(statistics.fmean(changes))
    assert t["decided_round"]["mean"] == pytest.approx(statistics.fmean(settled))
    for key in ("margin", "lead_changes", "decided_round"):
        assert t[key]["low"] <= t[key]["mean"] <= t[key]["high"]


SENSITIVE = Path(__file__).parent / "data" / "report_sensitivity.dh"


@pytest.mark.slow
def test_a_planted_dominating_assumed_value_ranks_first(tmp_path):
    """Issue 35's check: the mansion's count (25 points a copy, 2 copies, @assumed) moves the mean
    score far more than the birdhouse's point, so one of its steps ranks first, its interval clear
    of 0; each step is a rules override of the value at its file:line. (A catalogue row per
    variant: tests/test_report_executors.py.)

    The games needed, from the effects and their noise (measured on 20 games a condition): a
    mansion less moves a game's mean score by −8.7 points, per-game sd 5.1 (a mansion more:
    +7.8, sd 9.6); a birdhouse point −0.8 (sd 1.4) or +0.45 (sd 2.1). On 10 games the first
    step's interval is ±2.26·5.1/√10 ≈ ±3.6 wide, clear of 0 by more than twice that, and a
    birdhouse step would have to move ~18 of its standard errors (1.4/√10) to outrank it: 10
    games a condition (two chunks of 5) prove what 20 did."""
    out = tmp_path / "s"
    args = ("--rules", SENSITIVE, "report", "--players", 2, "--bots", "greedy", "--no-cards", "--games", 10, "--chunk", 5)
    proc = run_here(*args, "--sensitivity", "own", "--alt-games", 10, "--out", out)
    assert proc.returncode == 0, proc.stderr
    assert "games to play; a timed sample" in proc.stderr
    doc = json.loads((out / "report.json").read_text())
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(doc, json.loads(files("dreamhome.schemas").joinpath("report.schema.json").read_text()))
    entries = sorted(doc["sensitivity"]["entries"], key=lambda e: e["rank"])
    lines = SENSITIVE.read_text().splitlines()
    mansion = f"report_sensitivity.dh:{next(i for i, line in enumerate(lines, 1) if 'count 2 @assumed' in line)}"
    assert {e["value"] for e in entries} == {mansion, f"report_sensitivity.dh:{len(lines)}"}  # own values only
    assert [e["step"] for e in entries if e["value"] == mansion] and len(entries) == 4
    top = entries[0]
    assert top["value"] == mansion and top["id"] == "mansion" and top["field"] == "count"
    assert top["mean_score"]["low"] > 0 or top["mean_score"]["high"] < 0
    assert all(abs(top["mean_score"]["mean"]) > abs(e["mean_score"]["mean"]) for e in entries if e["value"] != mansion)
    # the step is the rules' own value moved by one: the override compiled says so
    base = compile_rules(SENSITIVE)
    assert top["change"] == f"count {base.room('mansion').count} → {base.room('mansion').count + top['step']}"
    html = (out / "report.html").read_text()
    assert "Sensitivity to the assumed values" in html and html.count("data:image/png;base64,") == 4
