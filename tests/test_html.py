"""The replay viewer in a real browser: headless Chromium clicks through a golden game."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from dreamhome.game.record import load_record, replay_record
from dreamhome.scoring import score_total

from conftest import ROOT
from test_cli import run

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARTIFACTS = ROOT / "test-artifacts"
GOLDEN = ROOT / "tests" / "golden" / "four_players.v2.json"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium; .ci/run installs it)"
)


def expected_steps():
    """What each step must show, from replaying the record in Python."""
    steps = []

    def on_step(state):
        steps.append(
            {
                "round": min(state.round, state.rules.game.rounds),
                "player": state.current_player(),
                "scores": [score_total(state.rules, h) for h in state.houses],
            }
        )

    replay_record(load_record(GOLDEN), str(GOLDEN), on_step=on_step)
    return steps


def browse(page: Path, fragment: str, tmp_path: Path, screenshot: str | None = None) -> str:
    profile = tmp_path / "chromium-profile"
    url = f"file://{page}#{fragment}"
    dom = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", url], capture_output=True, text=True, timeout=120
    ).stdout
    if screenshot:
        ARTIFACTS.mkdir(exist_ok=True)
        subprocess.run(
            [
                CHROMIUM,
                *FLAGS,
                f"--user-data-dir={profile}",
                "--window-size=1500,1100",
                f"--screenshot={ARTIFACTS / screenshot}",
                url,
            ],
            capture_output=True,
            timeout=120,
        )
    return dom


def shown(dom: str) -> dict:
    round_ = int(re.search(r'id="round-now" data-round="(\d+)"', dom).group(1))
    player = int(re.search(r'id="player-now" data-player="(-?\d+)"', dom).group(1))
    step = int(re.search(r"step (\d+) / \d+", dom).group(1))
    scores = [int(x) for x in re.findall(r'class="score">(-?\d+)<', dom)]
    return {"round": round_, "player": player, "step": step, "scores": scores}


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("viewer") / "game.html"
    proc = run("replay", GOLDEN, "--html", out)
    assert proc.returncode == 0, proc.stderr
    return out


def test_page_is_self_contained(page):
    html = page.read_text()
    assert "<script" in html and "<style>" in html
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html


@needs_chromium
def test_browser_shows_the_right_round_player_and_scores(page, tmp_path):
    steps = expected_steps()
    for n in (0, 17, len(steps) // 2, len(steps) - 1):
        view = shown(browse(page, f"step={n}", tmp_path, screenshot=f"viewer-step-{n}.png" if n else None))
        want = steps[n]
        assert view["step"] == n
        assert (view["round"], view["player"], view["scores"]) == (want["round"], want["player"], want["scores"])


@needs_chromium
def test_clicking_through_steps(page, tmp_path):
    steps = expected_steps()
    view = shown(browse(page, "step=20&clicks=next,next,next,prev", tmp_path, screenshot="viewer-clicks.png"))
    assert view["step"] == 22
    assert (view["round"], view["player"], view["scores"]) == (steps[22]["round"], steps[22]["player"], steps[22]["scores"])
    view = shown(browse(page, f"step={len(steps) - 1}&clicks=next", tmp_path))
    assert view["step"] == len(steps) - 1  # next at the end stays at the end
    assert view["player"] == -1


def test_replay_html_bad_record_leaves_no_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "dreamhome.record/1", "rules": {}}')
    out = tmp_path / "game.html"
    proc = run("replay", bad, "--html", out)
    assert proc.returncode == 2 and not out.exists()
