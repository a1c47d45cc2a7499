"""report.html: one self-contained page (plots inline as PNG data, no script, no link out)
and the writer of the report's three outputs.

The page is in the reader's language (en, ru, fr, hu: the global --lang): each section opens
with what it measured and how, then the verdicts its intervals support (`verdicts`), then its
plot and tables, numbers in the language's format (`words`, Babel). Card names come from the
ruleset; the plots and summary.txt are in the page's language too; report.json stays
language-neutral (English keys and machine names, plain numbers).
"""

from __future__ import annotations

import base64
import json
from html import escape
from pathlib import Path

from dreamhome.fileio import write_atomic
from dreamhome.i18n import text
from dreamhome.report import verdicts
from dreamhome.report.document import summary
from dreamhome.report.figures import all_figures
from dreamhome.report.words import flag, kind, number, percent, row, say
from dreamhome.report.words import interval as _interval
from dreamhome.scoring import COMPONENTS

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 70em; margin: 1em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: .5em 0 1em; font-size: 90%; }
th, td { border: 1px solid #ccc; padding: .2em .5em; text-align: right; }
th { background: #f2f2f2; } td.l, th.l { text-align: left; }
img { max-width: 100%; }
pre { background: #f6f6f6; padding: .5em; white-space: pre-wrap; }
p.how { color: #444; } ul.verdict { background: #f4f8f4; padding: .4em 1.6em; }
"""


def interval(ci: dict | None, percent: bool = False, digits: int = 2, lang: str = "en") -> str:
    """A figure and its 95% interval, as text in `lang`."""
    return _interval(ci, lang, as_percent=percent, digits=digits)


def _opening(how: str, sentences: list[str], lang: str) -> str:
    """A section's opening: what it measured and how, then its verdicts."""
    said = "".join(f"<li>{escape(v)}</li>" for v in sentences)
    return f'<p class="how">{escape(how)}</p>' + (
        f'<p><b>{escape(say("verdict", lang))}</b></p><ul class="verdict">{said}</ul>' if said else ""
    )


HEADERS = {
    "games": "h.games",
    "seat": "h.seat",
    "win rate": "h.win_rate",
    "mean score": "h.mean_score",
    "first seat's edge (win share)": "h.first_share",
    "first seat's edge (points)": "h.first_points",
    "balance": "h.balance",
    "tie-break decided": "h.tiebreak",
    "ties left": "h.ties_left",
    "card": "h.card",
    "kind": "h.kind",
    "copies": "h.copies",
    "worth (points)": "h.worth",
    "rank": "h.rank",
    "flags": "h.flags",
    "variant": "h.variant",
    "change": "h.change",
    "value": "h.value",
    "where": "h.where",
    "field": "h.field",
    "why": "h.why",
    "players": "h.players",
    "first-seat edge to detect": "h.edge_to_detect",
    "games needed (power 80%, α 5%)": "h.games_needed",
    "games played": "h.games_played",
    "power of the games played": "h.power_played",
    "rung": "h.rung",
    "weaker wins": "h.weaker_wins",
    "a stronger seat wins": "h.stronger_wins",
    "even share": "h.even_share",
    "margin (points)": "h.margin",
    "deal's share of the margin's variance": "h.deal_share",
    "worth a copy": "h.worth_copy",
    "worth (win rate)": "h.win_worth",
    "always take (points)": "h.always",
    "take rate": "h.take_rate",
    "base rate": "h.base_rate",
    "forced takes": "h.forced",
    "p (Holm)": "h.p_holm",
    "decisions a player": "h.decisions",
    "branching": "h.branching",
    "moves with a choice": "h.choice",
    "score (p5–p95)": "h.score",
    "99th percentile house": "h.top",
    "best reached (a maximum: no interval)": "h.best",
    "winner's margin (points)": "h.winner_margin",
    "close (won by ≤ 2)": "h.close",
    "lead changes": "h.lead_changes",
    "settled at step": "h.settled",
    "mean score (change)": "h.score_change",
    "first seat's win share (change)": "h.first_change",
    "rank by it": "h.rank_by_it",
    "winner's margin (change)": "h.margin_change",
    "weaker's win share": "h.weaker_share",
}
"""The table headers the catalogues translate (the others stay as report.json names them)."""


def _table(head: list[str], rows: list[list[str]], left: int = 1, lang: str = "en") -> str:
    head = [say(HEADERS[h], lang) if h in HEADERS else h for h in head]
    cls = [' class="l"' if i < left else "" for i in range(len(head))]
    out = ["<table><tr>" + "".join(f"<th{c}>{escape(h)}</th>" for c, h in zip(cls, head)) + "</tr>"]
    for cells in rows:
        out.append("<tr>" + "".join(f"<td{c}>{escape(v)}</td>" for c, v in zip(cls, cells)) + "</tr>")
    return "\n".join(out) + "</table>"


def _img(png: bytes, alt: str) -> str:
    return f'<img alt="{escape(alt)}" src="data:image/png;base64,{base64.b64encode(png).decode()}">'


def _seats(section: dict, lang: str) -> str:
    rows = []
    for s in section["seats"]:
        for p in s["positions"]:
            rows.append(
                [
                    row(s["players"], s["bot"], lang),
                    str(p["position"]),
                    interval(p["win_rate"], percent=True, lang=lang),
                    interval(p["score"], lang=lang),
                ]
            )
    table = _table(["games", "seat", "win rate", "mean score"], rows, 1, lang=lang)
    balance = _table(
        [
            "games",
            "n",
            "first seat's edge (win share)",
            "first seat's edge (points)",
            "balance",
            "tie-break decided",
            "ties left",
        ],
        [
            [
                row(s["players"], s["bot"], lang),
                str(s["games"]),
                interval(s["first_advantage"], percent=True, lang=lang),
                interval(s["first_margin"], lang=lang),
                interval(s["balance_ci"], percent=True, lang=lang),
                interval(s["tiebreak_decided"], percent=True, lang=lang),
                interval(s["ties_left"], percent=True, lang=lang),
            ]
            for s in section["seats"]
        ],
        lang=lang,
    )
    power = _table(
        ["games", "first-seat edge to detect", "games needed (power 80%, α 5%)", "games played", "power of the games played"],
        [
            [
                row(pw["players"], pw["bot"], lang),
                percent(pw["edge"], lang, 0),
                str(pw["games_needed"]),
                str(pw["games_played"]),
                percent(pw["power_at_played"], lang, 0),
            ]
            for pw in section["power"]
        ],
        lang=lang,
    )
    return table + balance + power


def _ladder(section: dict, lang: str) -> str:
    rows = []
    for r in section["ladder"]:
        d = r["deal_share"]
        rows.append(
            [
                say("rung", lang, stronger=r["stronger"], weaker=r["weaker"]),
                str(r["players"]),
                say("games_deals", lang, games=number(r["games"], lang, 0), deals=number(r["deals"], lang, 0)),
                interval(r["weaker_win_rate"], percent=True, lang=lang),
                interval(r["stronger_win_rate"], percent=True, lang=lang),
                percent(r["even_share"], lang),
                interval(r["margin"], digits=1, lang=lang),
                interval(d, percent=True, digits=0, lang=lang),
            ]
        )
    head = ["rung", "players", "games", "weaker wins", "a stronger seat wins", "even share", "margin (points)"]
    return _table(head + ["deal's share of the margin's variance"], rows, lang=lang)


def _cards(section: dict, lang: str) -> str:
    rows = [
        [
            str(c["rank"]),
            c["names"].get(lang, c["name"]),
            kind(c["kind"], lang),
            str(c["copies"]),
            interval(c, lang=lang),
            interval(c["worth_per_copy"], lang=lang),
            interval(c["win_worth"], percent=True, lang=lang),
            interval(c["always_take"], lang=lang),
            interval(c["take_rate"], percent=True, lang=lang),
            percent(c["take_base"]["rate"], lang),
            interval(c["forced_takes"], lang=lang),
            number(c["p_adjusted"], lang, 3),
            ", ".join(flag(f, lang) for f in c["flags"]),
        ]
        for c in section["cards"]
    ]
    head = ["rank", "card", "kind", "copies", "worth (points)", "worth a copy", "worth (win rate)", "always take (points)"]
    head += ["take rate", "base rate", "forced takes", "p (Holm)", "flags"]
    mc = section["multiple_comparisons"]
    families = "; ".join(mc["families"].values())
    note = f"<p>{escape(mc['method'].title())}, α = {percent(mc['alpha'], lang, 0)}: {escape(families)}.</p>"
    return _table(head, rows, 3, lang=lang) + note


def _shape(section: dict, lang: str) -> str:
    rows = []
    for s in section["shape"]:
        top = s["top_score"]
        rows.append(
            [
                row(s["players"], s["bot"], lang),
                interval(s["decisions_per_player"], digits=1, lang=lang),
                interval(s["branching_per_game"], digits=2, lang=lang),
                interval(s["choice_share"], percent=True, lang=lang),
                interval(s["score"], digits=1, lang=lang) + f" ({s['score']['p5']}–{s['score']['p95']})",
                *[interval(s["parts"][c], digits=1, lang=lang) for c in COMPONENTS],
                f"{top['value']} [{top['low']}, {top['high']}]" if top["value"] is not None else "—",
                str(s["best_reached"]),
            ]
        )
    head = ["games", "decisions a player", "branching", "moves with a choice", "score (p5–p95)"]
    head += [text(f"score.part.{c}", lang) for c in COMPONENTS] + [
        "99th percentile house",
        "best reached (a maximum: no interval)",
    ]
    best = section["best_house"]
    proven = (
        say("best_house.proven" if best["optimal"] else "best_house.not_proven", lang, total=number(best["total"], lang, 0))
        if best["total"] is not None
        else best.get("why", "—")
    )
    return _table(head, rows, lang=lang) + f"<p>{escape(say('best_house.line', lang, best=proven))}</p>"


def _tension(section: dict, lang: str) -> str:
    rows = [
        [
            row(t["players"], t["bot"], lang),
            str(t["games"]),
            interval(t["margin"], digits=1, lang=lang),
            interval(t["close"], percent=True, lang=lang),
            interval(t["lead_changes"], digits=2, lang=lang),
            interval(t["decided_round"], digits=1, lang=lang) + f" of {t['steps']}",
        ]
        for t in section["tension"]
    ]
    head = ["games", "n", "winner's margin (points)", "close (won by ≤ 2)", "lead changes", "settled at step"]
    return _table(head, rows, lang=lang)


def _sensitivity(doc: dict, lang: str) -> str:
    sens = doc["sensitivity"]
    rows = [
        [
            str(e["rank"]),
            e["value"],
            e["id"],
            e["change"],
            str(e["games"]),
            interval(e["mean_score"], lang=lang),
            interval(e["first_win_rate"], digits=3, lang=lang),
            str(e["rank_first_seat"]),
        ]
        for e in sorted(sens["entries"], key=lambda e: e["rank"])
    ]
    head = ["rank", "value", "card", "change", "games", "mean score (change)", "first seat's win share (change)", "rank by it"]
    table = _table(head, rows, 4, lang=lang)
    if sens["not_varied"]:
        table += "<p>Not varied:</p>" + _table(
            ["value", "card", "change", "why"],
            [[n["value"], n["id"], n["change"], n["why"]] for n in sens["not_varied"]],
            4,
            lang=lang,
        )
    return table


def _catalogue(doc: dict, lang: str) -> str:
    cat = doc["catalogue"]
    rows = [
        [
            r["variant"],
            str(r["games"]),
            interval(r["mean_score"], lang=lang),
            interval(r["first_win_rate"], digits=3, lang=lang),
            interval(r["margin"], lang=lang),
        ]
        for r in cat["rows"]
    ]
    table = _table(
        ["variant", "games", "mean score (change)", "first seat's win share (change)", "winner's margin (change)"],
        rows,
        lang=lang,
    )
    if cat["skipped"]:
        table += "<p>Not played: " + escape("; ".join(f"{s['variant']} ({s['why']})" for s in cat["skipped"])) + ".</p>"
    return table


def _assumed(section: dict, lang: str) -> str:
    if not section["assumed"]:
        return f"<p>{escape(say('assumed.none', lang))}</p>"
    rows = [[a["id"], a["field"], f"{a['file']}:{a['line']}"] for a in section["assumed"]]
    return _table(["card", "field", "where"], rows, 3, lang=lang)


def _differences(doc: dict, lang: str) -> str:
    d = doc["vs"]["differences"]
    seats = _table(
        ["games", "first seat's edge (win share)", "first seat's edge (points)", "mean score", "tie-break decided"],
        [
            [
                row(x["players"], x["bot"], lang),
                interval(x["first_advantage"], digits=3, lang=lang),
                interval(x["first_margin"], lang=lang),
                interval(x["mean_score"], lang=lang),
                interval(x["tiebreak_decided"], digits=3, lang=lang),
            ]
            for x in d["seats"]
        ],
        lang=lang,
    )
    ladder = _table(
        ["rung", "weaker's win share", "margin"],
        [
            [
                say("rung", lang, stronger=x["stronger"], weaker=x["weaker"]),
                interval(x["weaker_win_rate"], digits=3, lang=lang),
                interval(x["margin"], lang=lang),
            ]
            for x in d["ladder"]
        ],
        lang=lang,
    )
    shape = _table(
        ["games", "decisions a player", "branching", *[text(f"score.part.{c}", lang) for c in COMPONENTS]],
        [
            [
                row(x["players"], x["bot"], lang),
                interval(x["decisions_per_player"], lang=lang),
                interval(x["branching_factor"], lang=lang),
                *[interval(x[f"part_{c}"], lang=lang) for c in COMPONENTS],
            ]
            for x in d["shape"]
        ],
        lang=lang,
    )
    cards = _table(["card", "worth (points)"], [[x["card"], interval(x["worth"], lang=lang)] for x in d["cards"]], lang=lang)
    return seats + (ladder if d["ladder"] else "") + shape + (cards if d["cards"] else "")


def report_html(doc: dict, figures: dict[str, bytes], lang: str = "en") -> str:
    title = (
        say("title.vs", lang, ruleset=doc["ruleset"], other=doc["vs"]["ruleset"])
        if "vs" in doc
        else say("title", lang, ruleset=doc["ruleset"])
    )
    plan = doc["plan"]
    games, heavy = number(plan["games"], lang, 0), number(plan["heavy_games"], lang, 0)
    no_ladder, no_cards = f"<p>{escape(say('no_ladder', lang))}</p>", f"<p>{escape(say('no_cards', lang))}</p>"
    parts = [
        f"<!DOCTYPE html><html lang='{lang}'><head><meta charset='utf-8'>",
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>{escape(say('intro', lang, seed=plan['seed'], games=games, heavy=heavy))}</p>",
        f"<pre>{escape(summary(doc, lang))}</pre>",
        f"<h2>{escape(say('seats', lang))}</h2>",
        _opening(say("seats.how", lang), verdicts.seats(doc, lang), lang),
        _img(figures["seats"], say("fig.seats_title", lang)),
        _seats(doc, lang),
        f"<h3>{escape(say('power', lang))}</h3>",
        _opening(say("power.how", lang), verdicts.power(doc, lang), lang),
        f"<h2>{escape(say('ladder', lang))}</h2>",
        _opening(say("ladder.how", lang), verdicts.ladder(doc, lang), lang)
        + _img(figures["ladder"], say("fig.ladder_title", lang))
        + _ladder(doc, lang)
        if doc["ladder"]
        else no_ladder,
        f"<h2>{escape(say('cards', lang))}</h2>",
        _opening(say("cards.how", lang), verdicts.cards(doc, lang), lang)
        + _img(figures["cards"], say("fig.cards_title", lang))
        + _cards(doc, lang)
        if doc["cards"]
        else no_cards,
        f"<h2>{escape(say('shape', lang))}</h2>",
        _opening(say("shape.how", lang), verdicts.shape(doc, lang), lang),
        _img(figures["shape"], say("fig.shape_axis", lang)),
        _shape(doc, lang),
        f"<h2>{escape(say('tension', lang))}</h2>",
        _opening(say("tension.how", lang), verdicts.tension(doc, lang), lang),
        _img(figures["tension"], say("fig.tension_title", lang)),
        _tension(doc, lang),
        f"<h2>{escape(say('assumed', lang))}</h2>",
        _opening(say("assumed.how", lang), [say("assumed.count", lang, count=len(doc["assumed"]))], lang),
        _assumed(doc, lang),
    ]
    if "sensitivity" in doc:
        sens = doc["sensitivity"]
        how = say("sensitivity.how", lang, games=number(sens["games"], lang, 0), bot=sens["bot"], players=sens["players"])
        parts += [
            f"<h2>{escape(say('sensitivity', lang))}</h2>",
            _opening(how, verdicts.sensitivity(doc, lang), lang),
            _img(figures["sensitivity"], say("fig.sensitivity_title", lang)) if "sensitivity" in figures else "",
            _sensitivity(doc, lang),
        ]
    if "catalogue" in doc:
        cat = doc["catalogue"]
        how = say("catalogue.how", lang, games=number(cat["games"], lang, 0), bot=cat["bot"], players=cat["players"])
        parts += [
            f"<h2>{escape(say('catalogue', lang))}</h2>",
            _opening(how, verdicts.catalogue(doc, lang), lang),
            _img(figures["catalogue"], say("fig.catalogue_title", lang)) if "catalogue" in figures else "",
            _catalogue(doc, lang),
        ]
    if "vs" in doc:
        vs = doc["vs"]
        parts += [
            f"<h2>{escape(say('vs', lang, other=vs['ruleset'], ruleset=doc['ruleset']))}</h2>",
            f"<p>{escape(say('vs.how', lang))}</p>",
            _img(figures["vs"], say("fig.vs_title", lang, other=doc["vs"]["ruleset"], ruleset=doc["ruleset"])),
            _differences(doc, lang),
            f"<h3>{escape(vs['ruleset'])}: {escape(say('seats', lang))}</h3>",
            _opening("", verdicts.seats(vs, lang), lang),
            _seats(vs, lang),
            f"<h3>{escape(vs['ruleset'])}: {escape(say('ladder', lang))}</h3>",
            _ladder(vs, lang) if vs["ladder"] else no_ladder,
            f"<h3>{escape(vs['ruleset'])}: {escape(say('cards', lang))}</h3>",
            _img(figures["vs_cards"], say("fig.cards_title", lang)) + _cards(vs, lang) if vs["cards"] else no_cards,
            f"<h3>{escape(vs['ruleset'])}: {escape(say('shape', lang))}</h3>",
            _shape(vs, lang),
            f"<h3>{escape(vs['ruleset'])}: {escape(say('tension', lang))}</h3>",
            _tension(vs, lang),
            f"<h3>{escape(vs['ruleset'])}: {escape(say('assumed', lang))}</h3>",
            _assumed(vs, lang) if vs["assumed"] != doc["assumed"] else f"<p>{escape(say('assumed.same', lang))}</p>",
        ]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_report(out: Path, doc: dict, lang: str = "en") -> None:
    """report.json, report.html (in `lang`) and summary.txt into `out`, each written atomically."""
    write_atomic(out / "report.json", json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    write_atomic(out / "report.html", report_html(doc, all_figures(doc, lang), lang))
    write_atomic(out / "summary.txt", summary(doc, lang))
