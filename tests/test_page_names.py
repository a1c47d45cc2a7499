"""Issue 33, item 10, without a browser: the controls axe-core named as unnamed at phone width
(the language menu, the replay and review pages' round menu) and the replay's scrolling log
carry their accessible names in the page's language, and the words the fixes added exist in
every language. tests/test_table_page.py runs axe itself on every page kind."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

from dreamhome.i18n import LANGUAGES, text
from dreamhome.players.playing import play_game
from dreamhome.render.replay_page import replay_html
from dreamhome.ruleset import Ruleset

STATIC = Path(__file__).resolve().parents[1] / "dreamhome" / "web" / "static"
ADDED = ("table.unreachable", "replay.round_menu", "replay.log")


def test_the_words_added_exist_in_every_language() -> None:
    for key in ADDED:
        said = {lang: text(key, lang) for lang in LANGUAGES}
        assert all(s and s != key for s in said.values()), said
    for key in ("table.unreachable", "replay.round_menu"):  # said in each language, not English left behind
        assert len({text(key, lang) for lang in LANGUAGES}) == len(LANGUAGES), key


def test_the_language_menu_is_named_at_every_width() -> None:
    """Its visible label is hidden below 760 px (table.css), so the select carries its own name,
    set again in the page's language whenever the texts load."""
    html = (STATIC / "table.html").read_text(encoding="utf-8")
    assert re.search(r'<select id="lang" aria-label="Language">', html)
    script = (STATIC / "table.js").read_text(encoding="utf-8")
    assert 'byId("lang").setAttribute("aria-label", t("table.language"))' in script
    assert 't("table.unreachable")' in script  # a network failure is said in the page's words


def test_the_replay_names_its_round_menu_and_its_log(base: Ruleset) -> None:
    record = play_game(base, 2, ["random", "random"], 1).record()
    for lang in ("en", "hu"):
        page = replay_html(record, lang=lang)
        menu = escape(text("replay.round_menu", lang))
        log = escape(text("replay.log", lang))
        assert f'<select id="round" aria-label="{menu}"></select>' in page
        assert f'<div id="log" tabindex="0" role="region" aria-label="{log}"></div>' in page
