"""`dreamhome render` and `optimize --svg`: well-formed SVG showing what the house holds."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from dreamhome.house import load_house
from dreamhome.render.house_svg import before_after_svg, house_svg
from tests.helpers.cli import run_here
from tests.helpers.paths import EXAMPLES

NS = "{http://www.w3.org/2000/svg}"


def test_house_svg_shows_cards_rooms_tokens_roof_and_score(base):
    house = load_house(base, EXAMPLES / "rulebook_example.json")
    root = ET.fromstring(house_svg(base, house, "Rulebook example"))
    cells = [e for e in root.iter(f"{NS}rect") if "cell" in (e.get("class") or "")]
    assert sorted(e.get("data-cell") for e in cells) == sorted(base.board.cells)
    assert {e.get("data-room") for e in cells if e.get("data-room")} >= {"pantry", "garage", "childrens_room"}
    assert len([e for e in root.iter(f"{NS}rect") if e.get("class") == "room"]) == 10  # 11 cards, one 2-card room
    assert len([e for e in root.iter(f"{NS}circle") if e.get("class") == "token"]) == 2
    assert len([e for e in root.iter(f"{NS}polygon") if e.get("class") == "roof"]) == 4
    texts = [e.text for e in root.iter(f"{NS}text")]
    assert "total 29" in texts and "empty room" in texts and "Rulebook example" in texts


def test_before_after(base):
    house = load_house(base, EXAMPLES / "endgame.json")
    root = ET.fromstring(before_after_svg(base, house, house, ["1. nothing"]))
    texts = [e.text for e in root.iter(f"{NS}text")]
    assert "before" in texts and "after" in texts and "end-game actions" in texts


def test_render_cli(tmp_path):
    out = tmp_path / "house.svg"
    proc = run_here("render", EXAMPLES / "rulebook_example.json", "-o", out)
    assert proc.returncode == 0, proc.stderr
    ET.parse(out)
    opt = tmp_path / "opt.svg"
    assert run_here("optimize", EXAMPLES / "endgame.json", "--svg", opt, "--json").returncode == 0
    assert "supplier" in opt.read_text()


def test_render_bad_input_leaves_no_file(tmp_path):
    bad = tmp_path / "bad.json"
    data = json.loads((EXAMPLES / "rulebook_example.json").read_text())
    data["floors"]["top"][0] = {"room": "garage"}
    bad.write_text(json.dumps(data))
    out = tmp_path / "out.svg"
    proc = run_here("render", bad, "-o", out)
    assert proc.returncode == 2 and "PLACE-B" in proc.stderr and not out.exists()
    bad.write_text("{")
    proc = run_here("render", bad, "-o", out)
    assert proc.returncode == 2 and "malformed JSON" in proc.stderr and not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]
