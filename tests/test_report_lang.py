"""The report's plots and summary in the reader's language (issue 35, item 8): every text a
figure draws (titles, axes, legends, tick labels) and every line of summary.txt come from the
catalogue in --lang, so a French or a Russian report holds no English plot title or summary
line. The texts are read from matplotlib's Text objects after a draw, before PNG encoding."""

from __future__ import annotations

import re

import pytest

from dreamhome.report import figures

# English words of the plots and the summary, written here by hand (not read from the catalogue)
ENGLISH = (
    "win rate",
    "seat in turn order",
    "players",
    "over random",
    "margin",
    "skill and luck",
    "tension",
    "points per house",
    "proven best",
    "lead changes",
    "settled at step",
    "first seat wins",
    "best house reached",
    "assumed values",
    "room",
    "furnishing",
    "restricted play",
)


@pytest.fixture(scope="module")
def doc():
    """A tiny seeded report: 2 players, a random/greedy ladder, 2 games a condition, no cards."""
    from dreamhome.report.document import build_document
    from dreamhome.report.plan import build_plan
    from dreamhome.report.run import run_plan

    plan = build_plan(rules_path=None, players=[2], ladder=["random", "greedy"], games=2, chunk=2, cards=False, seed=3)
    return build_document(plan, run_plan(plan, None, executor_name="local", workers=1), plan.compiled())


CARDS = {
    "card_players": 3,
    "cards": [
        {"name": "Alpha", "names": {"fr": "Alpha-fr", "ru": "Альфа"}, "kind": "room", "worth": 1.5, "low": 0.5, "high": 2.5},
        {"name": "Beta", "names": {}, "kind": "furnishing", "worth": -0.2, "low": -1.0, "high": 0.6},
    ],
}


def _texts(monkeypatch, draw) -> list[str]:
    """Every non-empty text of the figures `draw` makes, after a draw (tick labels included)."""
    import matplotlib.text

    seen: list[str] = []

    def record(fig) -> bytes:
        fig.canvas.draw()
        seen.extend(t.get_text() for t in fig.findobj(matplotlib.text.Text) if t.get_text().strip())
        figures._plt().close(fig)
        return b""

    monkeypatch.setattr(figures, "_png", record)
    draw()
    return seen


def _english(texts: list[str]) -> set[str]:
    return {w for w in ENGLISH for t in texts if w in t.lower()}


def _all(doc, lang):
    return lambda: (figures.all_figures(doc, lang), figures.cards_figure(CARDS, lang))


def test_the_english_plots_say_the_english_words(monkeypatch, doc):
    """The recorder sees the plots' words: the English report holds them (else the next test
    would pass on nothing)."""
    texts = _texts(monkeypatch, _all(doc, "en"))
    assert _english(texts) >= {"win rate", "seat in turn order", "players", "over random", "tension", "room", "furnishing"}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("fr", ("taux de victoire", "2 joueurs", "3 joueurs", "contre", "Tension", "pièce", "décor", "Alpha-fr")),
        ("ru", ("доля побед", "2 игрока", "3 игрока", "против", "Напряжённость", "комната", "обстановка", "Альфа")),
        ("hu", ("győzelmi arány", "2 játékos", "ellen", "Feszültség", "szoba", "dekoráció")),
    ],
)
def test_a_translated_reports_plots_hold_no_english_text(monkeypatch, doc, lang, words):
    texts = _texts(monkeypatch, _all(doc, lang))
    said = "\n".join(texts)
    assert all(w in said for w in words), [w for w in words if w not in said]
    # "tension" is French too; every other English word is gone
    assert _english(texts) - ({"tension"} if lang == "fr" else set()) == set()


def test_a_translated_plot_is_the_same_bytes_each_time(doc):
    assert figures.seats_figure(doc, "ru") == figures.seats_figure(doc, "ru") != figures.seats_figure(doc, "en")


TITLES = [("fr", "Rapport d'équilibre"), ("ru", "Отчёт о балансе"), ("hu", "Egyensúlyjelentés")]


@pytest.mark.parametrize(("lang", "title"), TITLES)
def test_the_summary_is_in_the_readers_language_with_its_number_format(doc, lang, title):
    from dreamhome.report.document import summary

    english = summary(doc, "en")
    assert {"first seat wins", "best house reached", "over random", "tension", "margin"} <= _english(english.splitlines())
    text = summary(doc, lang)
    lines = text.splitlines()
    assert lines[0].startswith(title) and len(lines) == len(english.splitlines())
    assert _english(lines) - ({"tension"} if lang == "fr" else set()) == set(), text
    assert re.search(r"\d,\d", text)  # a decimal comma in all three languages


def test_card_kinds_and_flags_are_said_in_the_language_and_unknown_ones_as_named():
    from dreamhome.report.words import flag, kind

    assert (kind("furnishing", "fr"), kind("room", "ru"), kind("tool", "hu")) == ("décor", "комната", "eszköz")
    assert (flag("costly_to_lose", "en"), flag("essential", "fr")) == ("costly to lose", "essentielle")
    assert (kind("gadget", "ru"), flag("odd_one", "fr")) == ("gadget", "odd one")
