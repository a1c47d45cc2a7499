"""The replay viewer in a real browser: headless Chromium clicks through a golden game."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from dreamhome.game.record import load_record, replay_record
from dreamhome.scoring import score_total
from tests.helpers.cli import run_here
from tests.helpers.paths import ROOT

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
    proc = run_here("replay", GOLDEN, "--html", out)
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
    proc = run_here("replay", bad, "--html", out)
    assert proc.returncode == 2 and not out.exists()


HOSTILE = ("<!--<script>", "</script><script>alert(1)</script>\u2028&amp;")


def hostile_page(tmp_path: Path) -> Path:
    """A real game whose bots bear names meant to break out of the page."""
    from dreamhome.dsl.compiler import compile_rules
    from dreamhome.game.record import GameResult
    from dreamhome.players.playing import play_game
    from dreamhome.render.replay_page import replay_html

    result = play_game(compile_rules(variants=["kids"]), 2, ["greedy", "random"], 3)
    record = GameResult(result.state, HOSTILE).record()
    out = tmp_path / "hostile.html"
    out.write_text(replay_html(record), encoding="utf-8")
    return out


def test_strings_of_the_record_cannot_break_the_page(tmp_path):
    html = hostile_page(tmp_path).read_text(encoding="utf-8")
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert [attrs for attrs, _ in scripts] == [' id="game" type="application/json"', ""]
    data = scripts[0][1]
    assert not set("<>&\u2028\u2029") & set(data)  # every such character is a JSON escape
    import json

    assert json.loads(data)["bots"] == list(HOSTILE)


def test_content_security_policy_allows_only_the_page_script(tmp_path):
    import base64
    import hashlib

    html = hostile_page(tmp_path).read_text(encoding="utf-8")
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html).group(1)
    script = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert len(script) == 1
    digest = base64.b64encode(hashlib.sha256(script[0].encode("utf-8")).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in csp.replace("&#x27;", "'")
    assert "default-src 'none'" in csp.replace("&#x27;", "'") and "unsafe-inline" not in csp.split("script-src")[1]


@needs_chromium
def test_hostile_names_show_as_text(tmp_path):
    dom = browse(hostile_page(tmp_path), "step=3", tmp_path)
    assert "alert(1)" in dom and "&lt;/script&gt;&lt;script&gt;alert(1)" in dom
    assert re.search(r'id="player-now"', dom)  # the script ran under the policy


@needs_chromium
def test_policy_blocks_any_other_inline_script(tmp_path):
    """The policy is in force: a script slipped into the page does not run; the page's own does."""
    page = hostile_page(tmp_path)
    html = page.read_text(encoding="utf-8")
    page.write_text(html.replace("</body>", '<script>document.body.dataset.pwned = "yes"</script></body>'), encoding="utf-8")
    dom = browse(page, "step=1", tmp_path)
    assert 'data-pwned="yes"' not in dom and 'id="player-now"' in dom
