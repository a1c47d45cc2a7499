"""A game review as one self-contained page: the replay page (replay_page.py, through its public
`replay_html`) with each decision of the log annotated with its mark, its loss and the best
option, and above it a chart of each player's reachable final score after each decision, round
by round, as inline SVG (no script: the replay page's CSP allows only its own), the costly
decisions (mistakes and blunders) marked with a dot whose tooltip says what they cost.

The tab's title names the game as people do, who played and what each scored ("Game review:
Alice 33, Bob 24, greedy 33"), not the replay's seed and list of scores. While the review is
worked out, the table answers `waiting_html`: how far it is, asked again until it is ready.
"""

from __future__ import annotations

import re
from html import escape

from dreamhome.i18n import DEFAULT_LANG
from dreamhome.i18n import text as ui
from dreamhome.render.replay_page import replay_html, script_hash, seat_names
from dreamhome.render.review_text import decision_line, mark_text, option_text, summary_lines
from dreamhome.review.game import GameReview

COLOURS = ("#2b7bb9", "#d9534f", "#5cb85c", "#f0ad4e", "#8e44ad", "#555555")
WIDTH, HEIGHT, PAD, LEGEND = 720, 260, 36, 110  # the plot, its margins, the legend at its right
COSTLY = ("mistake", "blunder")


def _annotation(review: GameReview, index: int, lang: str) -> str:
    d = review.decisions[index]
    if d.mark is None:
        return ""
    mark = mark_text(d, lang)
    if d.mark == "best":
        return ui("review.annotation_best", lang, mark=mark, value=f"{d.chosen_value:g}")
    return ui(
        "review.annotation",
        lang,
        mark=mark,
        loss=f"{d.loss:g}",
        best=option_text(review, d, d.best_action, lang),
        best_value=f"{d.best_value:g}",
        chosen_value=f"{d.chosen_value:g}",
    )


def chart_svg(review: GameReview, lang: str = DEFAULT_LANG) -> str:
    """Each player's reachable final score after each of its decisions (x: the round, the
    decisions of a round spread across it; the end game after the last round)."""
    rounds = review.walk.result.state.rules.game.rounds
    values = [d.chosen_value for d in review.decisions] + [0.0]
    top = max(values) or 1.0
    low = min(0.0, min(values))

    def x(position: float) -> float:
        return PAD + (WIDTH - 2 * PAD) * (position - 1) / max(rounds, 1)

    def y(value: float) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * (value - low) / (top - low)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH + LEGEND}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH + LEGEND} {HEIGHT}" '
        f'role="img" id="review-chart"><title>{escape(ui("review.chart", lang))}</title>',
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" stroke="#999"/>',
        f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}" stroke="#999"/>',
        f'<text x="{PAD}" y="{PAD - 8}" font-size="11">{top:g}</text>',
    ]
    parts.append(  # the y-axis says what it measures, and where it starts
        f'<text x="{PAD}" y="{HEIGHT - PAD + 4}" font-size="11" text-anchor="end">{low:g}</text>'
        f'<text transform="translate(11 {HEIGHT / 2:.0f}) rotate(-90)" font-size="11" text-anchor="middle" '
        f'class="axis-label">{escape(ui("review.axis", lang))}</text>'
    )
    for r in range(1, rounds + 2):
        parts.append(
            f'<text x="{x(r):.1f}" y="{HEIGHT - PAD + 14}" font-size="10" text-anchor="middle">'
            f"{r if r <= rounds else escape(ui('review.end', lang))}</text>"
        )
    for p in review.players:
        colour = COLOURS[p.seat % len(COLOURS)]
        mine = [d for d in review.decisions if d.seat == p.seat]
        per_round: dict[int, int] = {}
        for d in mine:
            per_round[d.round] = per_round.get(d.round, 0) + 1
        seen: dict[int, int] = {}
        points = []
        for d in mine:
            r = d.round if d.phase != "end" else rounds + 1
            k = seen[d.round] = seen.get(d.round, 0) + 1
            px, py = x(r - 1 + k / (per_round[d.round] + 1) + 0.5), y(d.chosen_value)
            points.append(f"{px:.1f},{py:.1f}")
            if d.mark in COSTLY:
                tip = escape(
                    ui(
                        "review.tip",
                        lang,
                        seat=d.seat,
                        when=ui("review.when.end", lang) if d.phase == "end" else ui("review.when.round", lang, round=d.round),
                        chosen=option_text(review, d, d.chosen_action, lang),
                        mark=ui(f"review.mark.{d.mark}", lang),
                        loss=f"{d.loss:g}",
                    )
                )
                parts.append(
                    f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{5 if d.mark == "blunder" else 3.5}" fill="{colour}" '
                    f'class="costly {d.mark}" data-decision="{d.index}"><title>{tip}</title></circle>'
                )
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{" ".join(points)}"/>')
        parts.append(
            f'<text x="{WIDTH - PAD + 4}" y="{PAD + 14 * p.seat}" font-size="11" fill="{colour}">'
            f"{escape(f'{p.seat} {_who(review, p.seat, p.bot)}')}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _who(review: GameReview, seat: int, bot: str) -> str:
    """A seat as the page names it: the person's name the record gives (the browser table's
    `names`), else its bot (`replay_page.seat_names`, as the replay part of the page names it)."""
    names = seat_names(review.record)
    return names[seat] if seat < len(names) else bot


def review_html(review: GameReview, lang: str = DEFAULT_LANG) -> str:
    """The annotated replay page of a reviewed game: the chart, each player's summary, its
    costliest decisions with the house drawn before each, then the replay with every decision
    of the log annotated."""
    annotations = {d.event: _annotation(review, d.index, lang) for d in review.decisions if d.mark is not None}
    named = {p.seat: _who(review, p.seat, p.bot) for p in review.players}
    summary = "".join(f"<li>{escape(line)}</li>" for line in summary_lines(review, lang, named))
    extra = (
        # the chart scales to the page's width (its viewBox); a costly house keeps a readable
        # size and scrolls sideways in its own box on a phone (focusable, so a keyboard can too)
        "<style>#review-chart { max-width: 100%; height: auto; } "
        ".costly-house svg { width: 520px; max-width: none; height: auto; } .costly-house { display: inline-block; "
        "vertical-align: top; margin: 0 12px 12px 0; font-size: 13px; max-width: min(520px, 100%); overflow-x: auto; }</style>"
        f'<h3>{escape(ui("review.chart", lang))}</h3><p class="note">{escape(ui("review.reachable_note", lang))}</p>'
        f'{chart_svg(review, lang)}<ul id="review-summary">{summary}</ul>'
        f"{_costliest(review, lang)}"
    )
    page = replay_html(review.record, review.source, lang=lang, annotations=annotations, extra_html=extra)
    return TITLE.sub(lambda _: f"<title>{escape(page_title(review, lang))}</title>", page, count=1)


TITLE = re.compile(r"<title>.*?</title>", re.S)
"""The replay page's title element (the first), which the review's page names otherwise."""


def page_title(review: GameReview, lang: str = DEFAULT_LANG) -> str:
    """The review page's title: each seat by its name (or bot) with its final score."""
    scores = review.walk.result.scores()
    seats = ", ".join(f"{_who(review, p, '?')} {score}" for p, score in enumerate(scores))
    return ui("review.page_title", lang, seats=seats)


REFRESH_SECONDS = 3
"""How often the waiting page asks again (its script; a browser without script reloads it)."""

WAITING_SCRIPT = """(() => {
const ask = () => fetch(location.href, {cache: 'no-store'}).then(r => {
  if (r.status !== 202) { location.reload(); return; }
  return r.text().then(t => {
    const fresh = new DOMParser().parseFromString(t, 'text/html');
    const line = fresh.getElementById('review-progress'), bar = fresh.getElementById('review-bar');
    const here = document.getElementById('review-progress'), mine = document.getElementById('review-bar');
    if (line && here.textContent !== line.textContent) here.textContent = line.textContent;
    if (bar) { mine.max = bar.max; mine.value = bar.value; mine.textContent = bar.textContent; }
    setTimeout(ask, WAIT);
  });
}).catch(() => setTimeout(ask, 3 * WAIT));
setTimeout(ask, WAIT);
})();""".replace("WAIT", str(REFRESH_SECONDS * 1000))
WAITING_CSP = f"default-src 'none'; style-src 'unsafe-inline'; connect-src 'self'; script-src {script_hash(WAITING_SCRIPT)}"
"""The waiting page's Content-Security-Policy: its own script, which asks the server again."""

WAITING = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<noscript><meta http-equiv="refresh" content="{refresh}"></noscript>
<title>{title}</title>
<style>body {{ font-family: sans-serif; margin: 16px; color: #222; }}
progress {{ width: min(420px, 90vw); height: 18px; }}</style>
</head><body><main><h1>{title}</h1>
<p id="review-progress" role="status">{line}</p>
<progress id="review-bar" max="{total}" value="{done}" aria-label="{label}">{done} / {total}</progress>
<p>{note}</p></main><script>{script}</script></body></html>
"""


def waiting_html(started: bool, done: int, total: int, lang: str = DEFAULT_LANG) -> str:
    """The page answered while a game's review is worked out: waiting for a worker (`started`
    false), `done` of `total` decisions reviewed, or all of them and the pages being written;
    its script asks again every `REFRESH_SECONDS` (the line and the bar follow) and shows the
    review once it is there; without script the page reloads itself (no timed reload when the
    script runs: axe-core's `meta-refresh` counts it as a barrier). Served with `WAITING_CSP`."""
    if not started or total <= 0:
        line = ui("review.wait.queued" if not started else "review.wait.starting", lang)
    elif done < total:
        line = ui("review.wait.decisions", lang, done=done, total=total)
    else:
        line = ui("review.wait.writing", lang)
    return WAITING.format(
        lang=escape(lang),
        refresh=REFRESH_SECONDS,
        title=escape(ui("review.wait.title", lang)),
        line=escape(line),
        total=max(total, 1),
        done=min(max(done, 0), max(total, 1)),
        label=escape(ui("review.wait.label", lang)),
        note=escape(ui("review.wait.note", lang)),
        script=WAITING_SCRIPT,
    )


def _costliest(review: GameReview, lang: str) -> str:
    """Each player's costliest decisions, the house before each drawn (render/house_svg.py)."""
    from dreamhome.render.house_svg import house_svg

    rules = review.walk.result.state.rules
    parts = ['<div id="review-costliest">']
    for p in review.players:
        if not p.costliest:
            continue
        parts.append(f"<h4>{escape(ui('review.costliest', lang, seat=p.seat, bot=_who(review, p.seat, p.bot)))}</h4>")
        for index in p.costliest:
            d = review.decisions[index]
            house = review.walk.positions[index].houses[d.seat]
            parts.append(
                f'<div class="costly-house" tabindex="0" data-decision="{d.index}">'
                f"<div>{escape(decision_line(review, d, lang))}</div>"
                f"{house_svg(rules, house, lang=lang)}</div>"
            )
    parts.append("</div>")
    return "".join(parts)


__all__ = ["chart_svg", "page_title", "review_html", "waiting_html"]
