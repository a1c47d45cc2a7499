"""The `dreamhome` command: outputs, exit codes 0/1/2, one-line errors, no tracebacks."""

from __future__ import annotations

import json

import pytest

from tests.helpers.cli import run_here
from tests.helpers.paths import DATA, EXAMPLES

EXAMPLE = str(EXAMPLES / "rulebook_example.json")


def test_score_json_rulebook_example():
    proc = run_here("score", EXAMPLE, "--json")
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    assert {k: out[k] for k in ("total", "rooms", "furnishings", "functionality", "roof", "empty_rooms")} == {
        "total": 29,
        "rooms": 15,
        "furnishings": 4,
        "functionality": 6,
        "roof": 4,
        "empty_rooms": 0,
    }
    assert out["total"] == sum(out[k] for k in ("rooms", "furnishings", "functionality", "roof", "empty_rooms"))


def test_score_human_view_draws_grid_and_breakdown():
    proc = run_here("score", EXAMPLE)
    assert proc.returncode == 0
    assert "Children's" in proc.stdout and "Pantry beside kitchen" in proc.stdout and "29" in proc.stdout
    assert "roof pile" in proc.stdout


def test_check_legal_and_illegal(tmp_path):
    proc = run_here("check", EXAMPLE, "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout) == {"legal": True, "violations": []}
    data = json.loads((EXAMPLES / "rulebook_example.json").read_text())
    data["floors"]["top"][3] = {"room": "garage"}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    proc = run_here("check", bad, "--json")
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert out["legal"] is False
    assert {"rule": "PLACE-B", "cell": "top/3"} == {k: out["violations"][0][k] for k in ("rule", "cell")}
    human = run_here("check", bad)
    assert human.returncode == 1 and "PLACE-B" in human.stdout
    # An illegal house is bad input for `score`.
    proc = run_here("score", bad)
    assert proc.returncode == 2 and "PLACE-B at top/3" in proc.stderr and proc.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ('{"format": "dreamhome.house/1",\n "floors": [}', ":2:13: malformed JSON"),
        ('{"floors": {"top": [{"room": "kichen"}, null, null, null, null]}}', "did you mean 'kitchen'"),
        ('{"floors": {"top": [null, null]}}', "expected a list of 5 cells"),
    ],
)
def test_bad_house_files(tmp_path, content, needle):
    path = tmp_path / "h.json"
    path.write_text(content)
    for command in ("check", "score"):
        proc = run_here(command, path)
        assert proc.returncode == 2
        assert needle in proc.stderr and proc.stderr.count("\n") == 1 and proc.stdout == ""


def test_missing_house_file(tmp_path):
    proc = run_here("score", tmp_path / "missing.json")
    assert proc.returncode == 2 and "cannot read house file" in proc.stderr


def test_rules_check(tmp_path):
    proc = run_here("rules", "check", "dreamhome/rules/base.dh", "--json", cwd=EXAMPLES.parent)
    assert proc.returncode == 0 and json.loads(proc.stdout)["ok"] is True
    proc = run_here("rules", "check", DATA / "dsl_example.dh")
    assert proc.returncode == 2
    assert "dsl_example.dh:24:18: error: unknown room 'kitchen'" in proc.stderr
    assert "^" in proc.stderr
    out = json.loads(run_here("rules", "check", DATA / "dsl_example.dh", "--json").stdout)
    assert out["ok"] is False and {"file", "line", "column", "message"} <= set(out["errors"][0])
    syntax = tmp_path / "s.dh"
    syntax.write_text("room kitchen {\n  points\n}\n")
    proc = run_here("rules", "check", syntax)
    assert proc.returncode == 2 and "s.dh:3:1: error: unexpected '}'; expected a number" in proc.stderr


def test_bad_rules_file_for_other_commands(tmp_path):
    bad = tmp_path / "bad.dh"
    bad.write_text('include "base.dh"\nroom kitchen { points 6 1 }\n')
    proc = run_here("score", EXAMPLE, "--rules", bad)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "bad.dh:2:16: error: points must not fall" in proc.stderr
    cycle = tmp_path / "cycle.dh"
    cycle.write_text('include "cycle.dh"\n')
    proc = run_here("--rules", cycle, "score", EXAMPLE)
    assert proc.returncode == 2 and "include cycle" in proc.stderr


def test_override_file_changes_legality_and_score(tmp_path):
    """An override file (`include "base.dh"` + `room kitchen { points 1 3 6 }`) changes legality and score, no code change."""
    data = json.loads((EXAMPLES / "rulebook_example.json").read_text())
    data["floors"]["middle"][1] = {"room": "kitchen"}  # kitchen, kitchen, kitchen
    house = tmp_path / "k3.json"
    house.write_text(json.dumps(data))
    override = tmp_path / "k3.dh"
    override.write_text((DATA / "override_example.dh").read_text())
    base_check = json.loads(run_here("check", house, "--json").stdout)
    assert [v["rule"] for v in base_check["violations"]] == ["PLACE-C"]
    proc = run_here("check", house, "--json", "--rules", override)
    assert proc.returncode == 0
    base_example = json.loads(run_here("score", EXAMPLE, "--json").stdout)
    scored = json.loads(run_here("--rules", override, "score", house, "--json").stdout)
    # Kitchens 1 + pantry 3 + kitchen 1 become one 3-card kitchen worth 6.
    assert scored["rooms"] == base_example["rooms"] - 5 + 6


def test_variants_on_the_command_line():
    proc = run_here("--variant", "orthogonal", "score", EXAMPLE, "--json")
    assert json.loads(proc.stdout)["total"] == 31
    proc = run_here("score", EXAMPLE, "--variant", "nope")
    assert proc.returncode == 2 and "unknown variant 'nope'" in proc.stderr and "kids" in proc.stderr


def test_rules_show():
    out = json.loads(run_here("rules", "show", "--json").stdout)
    assert sum(r["count"] for r in out["rooms"]) == 60
    assert {"id": "study", "field": "points"} in [{k: a[k] for k in ("id", "field")} for a in out["assumed"]]
    human = run_here("rules", "show", "--assumed")
    assert human.returncode == 0 and "living_room" in human.stdout
    car = json.loads(run_here("--variant", "car", "rules", "show", "--json").stdout)
    assert any(f["id"] == "car" for f in car["furnishings"])


def test_help_explains():
    proc = run_here("--help")
    assert proc.returncode == 0 and "check" in proc.stdout and "Exit" in proc.stdout
    assert run_here("score", "--help").returncode == 0


def test_optimize_json_and_human(tmp_path):
    endgame = EXAMPLES / "endgame.json"
    saved = tmp_path / "after.json"
    proc = run_here("optimize", endgame, "--json", "--save", saved)
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    assert out["optimal"] is True and out["total"] >= out["start"]
    assert {"total", "optimal", "actions", "house"} <= set(out)
    roles = ("room_discard_swap", "house_swap", "roof_discard_take")
    assert all("explanation" in a and a["kind"] in roles for a in out["actions"])
    # The saved house scores what optimize claims.
    scored = json.loads(run_here("score", saved, "--json").stdout)
    assert scored["total"] == out["total"]
    human = run_here("optimize", endgame)
    assert human.returncode == 0 and "best final score" in human.stdout and "proven optimal" in human.stdout


def test_optimize_refuses_unfinished_and_illegal(tmp_path):
    proc = run_here("optimize", EXAMPLE.replace("rulebook_example", "rulebook_example"), "--json")
    assert proc.returncode == 0
    data = json.loads((EXAMPLES / "endgame.json").read_text())
    data["floors"]["top"][0] = None
    open_house = tmp_path / "open.json"
    open_house.write_text(json.dumps(data))
    proc = run_here("optimize", open_house)
    assert proc.returncode == 2 and "not finished" in proc.stderr and "dreamhome place" in proc.stderr
    data["floors"]["top"][0] = {"room": "garage"}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    proc = run_here("optimize", bad)
    assert proc.returncode == 2 and "PLACE-B" in proc.stderr and proc.stderr.count("\n") == 1


def test_max_on_the_tiny_rules(tmp_path):
    proc = run_here("--rules", DATA / "tiny.dh", "max", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["optimal"] is True and out["total"] == out["breakdown"]["total"]
    saved = tmp_path / "best.json"
    assert run_here("--rules", DATA / "tiny.dh", "max", "--save", saved).returncode == 0
    assert json.loads(run_here("--rules", DATA / "tiny.dh", "score", saved, "--json").stdout)["total"] == out["total"]
    proc = run_here("--variant", "orthogonal", "max")
    assert proc.returncode == 2 and "annex_adjacency" in proc.stderr
    assert out["engine"] == "search"
    # The CP-SAT engine alone, and both checked against each other: the same total.
    cpsat = json.loads(run_here("--rules", DATA / "tiny.dh", "max", "--json", "--engine", "cpsat").stdout)
    assert cpsat["engine"] == "cpsat" and cpsat["optimal"] is True and cpsat["total"] == out["total"]
    proc = run_here("--rules", DATA / "tiny.dh", "max", "--json", "--check")
    assert proc.returncode == 0, proc.stderr
    both = json.loads(proc.stdout)
    assert both["engine"] == "both" and both["total"] == out["total"] and "cpsat_seconds" in both


def test_place_json_and_errors(tmp_path):
    midgame = EXAMPLES / "midgame.json"
    proc = run_here("place", midgame, "living_room", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["placements"] and {"cell", "face_down", "bound"} <= set(out["placements"][0])
    bounds = [p["bound"] for p in out["placements"]]
    assert bounds == sorted(bounds, reverse=True)
    proc = run_here("place", midgame, "livingroom")
    assert proc.returncode == 2 and "did you mean 'living_room'" in proc.stderr
    pool = tmp_path / "pool.json"
    pool.write_text('{"rooms": {"living_room": 4, "bathroom": 3}}')
    proc = run_here("place", midgame, "living_room", "--pool", pool, "--json")
    assert proc.returncode == 0, proc.stderr
    pool.write_text('{"rooms": {"living_room": 2, "bathroom": 1}}')
    proc = run_here("place", midgame, "living_room", "--pool", pool)
    assert proc.returncode == 2 and "free spaces would remain" in proc.stderr
    pool.write_text('{"rooms": {"livng_room": 2}}')
    proc = run_here("place", midgame, "living_room", "--pool", pool)
    assert proc.returncode == 2 and "unknown room 'livng_room'" in proc.stderr
    pool.write_text('{"rooms": ')
    proc = run_here("place", midgame, "living_room", "--pool", pool)
    assert proc.returncode == 2 and "malformed JSON" in proc.stderr


def test_play_and_replay(tmp_path):
    record = tmp_path / "game.json"
    proc = run_here(
        "--variant",
        "car",
        "play",
        "--players",
        "3",
        "--bots",
        "greedy,random,greedy",
        "--seed",
        "4",
        "--record",
        record,
        "--json",
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["seed"] == 4 and len(out["scores"]) == 3 and len(out["houses"]) == 3 and out["winners"]
    again = json.loads(run_here("replay", record, "--json").stdout)
    assert {k: again[k] for k in ("scores", "winners", "houses")} == {k: out[k] for k in ("scores", "winners", "houses")}
    assert "every event verified" in run_here("replay", record).stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["play", "--players", "5"], "players must be 2–4"),
        (["play", "--players", "2", "--bots", "greedy,clever"], "unknown bot 'clever'"),
        (["play", "--players", "3", "--bots", "greedy,greedy"], "one per seat"),
        (["play", "--players", "4", "--bots", "human,solver"], "--players 4 disagrees with --bots, which names 2 seat(s)"),
        (["play", "--bots", "greedy,greedy", "--lang", "xx"], "--lang: unknown language 'xx'"),
    ],
)
def test_play_bad_input(args, needle):
    proc = run_here(*args)
    assert proc.returncode == 2 and needle in proc.stderr and proc.stderr.count("\n") == 1


def test_replay_bad_records(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    proc = run_here("replay", bad)
    assert proc.returncode == 2 and "malformed JSON" in proc.stderr
    bad.write_text('{"format": "dreamhome.house/1"}')
    proc = run_here("replay", bad)
    assert proc.returncode == 2 and "not a game record (dreamhome.record/1 or dreamhome.record/2)" in proc.stderr
    proc = run_here("replay", tmp_path / "missing.json")
    assert proc.returncode == 2 and "cannot read record" in proc.stderr


@pytest.mark.parametrize("bots", ["greedy,greedy", "greedy,random,greedy"])
def test_play_takes_the_number_of_players_from_bots(bots):
    """Issue 22: `play --bots human,solver` needed --players 2 besides; --bots names one seat each."""
    proc = run_here("play", "--bots", bots, "--seed", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["players"] == len(bots.split(",")) == len(out["scores"]) and out["bots"] == bots.split(",")


def test_lang_works_after_every_subcommand_that_takes_rules_after_it():
    """Issue 22: `--lang` after the subcommand, as `--rules`; after it, it wins over the one before."""
    import click

    from dreamhome.cli import main

    def commands(group: click.Group, path: str = ""):
        for name, command in group.commands.items():
            if isinstance(command, click.Group):
                yield from commands(command, f"{path}{name} ")
            else:
                yield f"{path}{name}", command

    with_rules = [(name, c) for name, c in commands(main) if any("--rules" in p.opts for p in c.params)]
    assert len(with_rules) >= 8
    for name, command in with_rules:
        assert any("--lang" in p.opts for p in command.params), name
    before = run_here("--lang", "ru", "score", EXAMPLE)
    after = run_here("score", EXAMPLE, "--lang", "ru")
    assert after.returncode == 0 and after.stdout == before.stdout and "итого" in after.stdout
    assert run_here("--lang", "fr", "score", EXAMPLE, "--lang", "ru").stdout == before.stdout


@pytest.mark.slow
def test_a_terminal_game_ends_with_its_review(tmp_path):
    """Issue 23: the terminal seat prints the game review's summary at its end — each player's line
    as dreamhome.review says it for the recorded game, the person's seat named "you" — and
    `--no-review` leaves it out."""
    import subprocess
    import sys

    from dreamhome.render.review_text import summary_lines
    from dreamhome.review import review_record

    record = tmp_path / "game.json"

    def play(*extra: str) -> str:
        proc = subprocess.run(
            [sys.executable, "-m", "dreamhome", "play", "--bots", "human,greedy", "--seed", "3", *extra],
            input="1\n" * 400,
            capture_output=True,
            text=True,
            env={"COLUMNS": "400", "PATH": "/usr/bin:/bin", "HOME": "/tmp"},
            timeout=600,
        )
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
        return proc.stdout

    out = play("--record", str(record))
    expected = summary_lines(review_record(json.loads(record.read_text()), str(record)), "en", {0: "you"})
    assert "Review of this game" in out
    assert all(line in out for line in expected), (expected, out[-2000:])
    assert expected[0].startswith("player 0 (you)")
    assert "Review of this game" not in play("--no-review")
