"""The replay viewer in a real browser: headless Chromium clicks through a golden game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from dreamhome.game.record import load_record, replay_record
from dreamhome.scoring import score_total
from tests.helpers.cli import run_here
from tests.helpers.paths import ROOT
from tests.helpers.table_browser import artifact, chromium_fixture, shared_chromium_fixture  # noqa: F401

GOLDEN = ROOT / "tests" / "golden" / "four_players.v2.json"
WINDOW = {"width": 1500, "height": 1100}


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


def browse(browser: Any, page: Path, fragment: str, screenshot: str | None = None) -> str:
    """The page's DOM once loaded at `#fragment` (its script run, the clicks it names made), as
    Chromium's `--dump-dom` gives it; the page's own policy in force (a fresh context, no bypass).
    One shared Chromium (tests/helpers/table_browser.py) rather than a Chromium a load."""
    context = browser.new_context(viewport=WINDOW)
    try:
        tab = context.new_page()
        tab.goto(f"file://{page}#{fragment}")
        dom = str(tab.content())
        if screenshot:
            tab.screenshot(path=artifact(screenshot))
        return dom
    finally:
        context.close()


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


@pytest.mark.slow
def test_browser_shows_the_right_round_player_and_scores(page, chromium):
    steps = expected_steps()
    for n in (0, 17, len(steps) // 2, len(steps) - 1):
        view = shown(browse(chromium, page, f"step={n}", screenshot=f"viewer-step-{n}.png" if n else None))
        want = steps[n]
        assert view["step"] == n
        assert (view["round"], view["player"], view["scores"]) == (want["round"], want["player"], want["scores"])


@pytest.mark.slow
def test_clicking_through_steps(page, chromium):
    steps = expected_steps()
    view = shown(browse(chromium, page, "step=20&clicks=next,next,next,prev", screenshot="viewer-clicks.png"))
    assert view["step"] == 22
    assert (view["round"], view["player"], view["scores"]) == (steps[22]["round"], steps[22]["player"], steps[22]["scores"])
    view = shown(browse(chromium, page, f"step={len(steps) - 1}&clicks=next"))
    assert view["step"] == len(steps) - 1  # next at the end stays at the end
    assert view["player"] == -1


def test_replay_html_bad_record_leaves_no_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "dreamhome.record/1", "rules": {}}')
    out = tmp_path / "game.html"
    proc = run_here("replay", bad, "--html", out)
    assert proc.returncode == 2 and not out.exists()


HOSTILE = ("<!--<script>", "</script><script>alert(1)</script>\u2028&amp;")


@pytest.fixture(scope="module")
def hostile_html() -> str:
    """The replay page of a real game whose bots bear names meant to break out of the page (one
    game for the module's four tests: each writes its own copy)."""
    from dreamhome.dsl.compiler import compile_rules
    from dreamhome.game.record import GameResult
    from dreamhome.players.playing import play_game
    from dreamhome.render.replay_page import replay_html

    result = play_game(compile_rules(variants=["kids"]), 2, ["greedy", "random"], 3)
    record = GameResult(result.state, HOSTILE).record()
    return replay_html(record)


def hostile_page(tmp_path: Path, html: str) -> Path:
    out = tmp_path / "hostile.html"
    out.write_text(html, encoding="utf-8")
    return out


def test_strings_of_the_record_cannot_break_the_page(tmp_path, hostile_html):
    html = hostile_page(tmp_path, hostile_html).read_text(encoding="utf-8")
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert [attrs for attrs, _ in scripts] == [' id="game" type="application/json"', ""]
    data = scripts[0][1]
    assert not set("<>&\u2028\u2029") & set(data)  # every such character is a JSON escape
    import json

    assert json.loads(data)["bots"] == list(HOSTILE)


def test_content_security_policy_allows_only_the_page_script(tmp_path, hostile_html):
    import base64
    import hashlib

    html = hostile_page(tmp_path, hostile_html).read_text(encoding="utf-8")
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html).group(1)
    script = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert len(script) == 1
    digest = base64.b64encode(hashlib.sha256(script[0].encode("utf-8")).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in csp.replace("&#x27;", "'")
    assert "default-src 'none'" in csp.replace("&#x27;", "'") and "unsafe-inline" not in csp.split("script-src")[1]


def test_hostile_names_show_as_text(tmp_path, hostile_html, chromium):
    dom = browse(chromium, hostile_page(tmp_path, hostile_html), "step=3")
    assert "alert(1)" in dom and "&lt;/script&gt;&lt;script&gt;alert(1)" in dom
    assert re.search(r'id="player-now"', dom)  # the script ran under the policy


def test_policy_blocks_any_other_inline_script(tmp_path, hostile_html, chromium):
    """The policy is in force: a script slipped into the page does not run; the page's own does."""
    page = hostile_page(tmp_path, hostile_html)
    html = page.read_text(encoding="utf-8")
    page.write_text(html.replace("</body>", '<script>document.body.dataset.pwned = "yes"</script></body>'), encoding="utf-8")
    dom = browse(chromium, page, "step=1")
    assert 'data-pwned="yes"' not in dom and 'id="player-now"' in dom
