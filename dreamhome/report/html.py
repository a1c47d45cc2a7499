"""report.html: one self-contained page (plots inline as PNG data, no script, no link out)
and the writer of the report's three outputs.

English only: the report is a designer's tool, its words are not in the i18n catalogues
(docs/REPORT.md says so); card names come from the ruleset.
"""

from __future__ import annotations

import base64
import json
from html import escape
from pathlib import Path

from dreamhome.fileio import write_atomic
from dreamhome.report.document import summary
from dreamhome.report.figures import all_figures
from dreamhome.scoring import COMPONENTS

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 70em; margin: 1em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: .5em 0 1em; font-size: 90%; }
th, td { border: 1px solid #ccc; padding: .2em .5em; text-align: right; }
th { background: #f2f2f2; } td.l, th.l { text-align: left; }
img { max-width: 100%; }
pre { background: #f6f6f6; padding: .5em; white-space: pre-wrap; }
"""


NO_LADDER = "<p>No ladder: --bots named one bot (or the rules allow one player only).</p>"
NO_CARDS = "<p>Restricted play was left out (--no-cards).</p>"


def interval(ci: dict | None, percent: bool = False, digits: int = 2) -> str:
    """A figure and its 95% interval, as text."""
    if not ci:
        return "—"
    value = ci.get("rate", ci.get("mean", ci.get("worth")))
    if value is None:
        return "—"
    if percent:
        return f"{value:.1%} [{ci['low']:.1%}, {ci['high']:.1%}]"
    return f"{value:.{digits}f} [{ci['low']:.{digits}f}, {ci['high']:.{digits}f}]"


def _table(head: list[str], rows: list[list[str]], left: int = 1) -> str:
    cls = [' class="l"' if i < left else "" for i in range(len(head))]
    out = ["<table><tr>" + "".join(f"<th{c}>{escape(h)}</th>" for c, h in zip(cls, head)) + "</tr>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td{c}>{escape(v)}</td>" for c, v in zip(cls, row)) + "</tr>")
    return "\n".join(out) + "</table>"


def _img(png: bytes, alt: str) -> str:
    return f'<img alt="{escape(alt)}" src="data:image/png;base64,{base64.b64encode(png).decode()}">'


def _seats(section: dict) -> str:
    rows = []
    for s in section["seats"]:
        for p in s["positions"]:
            rows.append(
                [
                    f"{s['players']} players, {s['bot']}",
                    str(p["position"]),
                    interval(p["win_rate"], percent=True),
                    interval(p["score"]),
                ]
            )
    table = _table(["games", "seat", "win rate", "mean score"], rows, 1)
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
                f"{s['players']} players, {s['bot']}",
                str(s["games"]),
                interval(s["first_advantage"], percent=True),
                interval(s["first_margin"]),
                _share(s["balance_ci"], ".1%"),
                interval(s["tiebreak_decided"], percent=True),
                interval(s["ties_left"], percent=True),
            ]
            for s in section["seats"]
        ],
    )
    power = _table(
        ["games", "first-seat edge to detect", "games needed (power 80%, α 5%)", "games played", "power of the games played"],
        [
            [
                f"{pw['players']} players, {pw['bot']}",
                f"{pw['edge']:.0%} of win share",
                str(pw["games_needed"]),
                str(pw["games_played"]),
                f"{pw['power_at_played']:.0%}" if pw["power_at_played"] is not None else "—",
            ]
            for pw in section["power"]
        ],
    )
    return table + balance + power


def _ladder(section: dict) -> str:
    rows = []
    for r in section["ladder"]:
        d = r["deal_share"]
        rows.append(
            [
                f"{r['stronger']} over {r['weaker']}",
                str(r["players"]),
                f"{r['games']} ({r['deals']} deals)",
                interval(r["weaker_win_rate"], percent=True),
                interval(r["stronger_win_rate"], percent=True),
                f"{r['even_share']:.1%}",
                interval(r["margin"], digits=1),
                f"{d['share']:.0%} [{d['low']:.0%}, {d['high']:.0%}]" if d["share"] is not None and d["low"] is not None else "—",
            ]
        )
    head = ["rung", "players", "games", "weaker wins", "a stronger seat wins", "even share", "margin (points)"]
    return _table(head + ["deal's share of the margin's variance"], rows)


def _cards(section: dict) -> str:
    rows = [
        [
            str(c["rank"]),
            c["name"],
            c["kind"],
            str(c["copies"]),
            interval(c),
            interval(c["worth_per_copy"]),
            interval(c["win_worth"], percent=True),
            interval(c["always_take"]),
            interval(c["take_rate"], percent=True),
            f"{c['take_base']['rate']:.1%}" if c["take_base"]["rate"] is not None else "—",
            interval(c["forced_takes"]),
            f"{c['p_adjusted']:.3f}" if c["p_adjusted"] is not None else "—",
            ", ".join(f.replace("_", " ") for f in c["flags"]),
        ]
        for c in section["cards"]
    ]
    head = ["rank", "card", "kind", "copies", "worth (points)", "worth a copy", "worth (win rate)", "always take (points)"]
    head += ["take rate", "base rate", "forced takes", "p (Holm)", "flags"]
    mc = section["multiple_comparisons"]
    note = (
        f"<p>Flags hold the family-wise error at {mc['alpha']:.0%} by {escape(mc['method'].title())}'s method "
        f"({escape(mc['families']['worth'])}; {escape(mc['families']['essential'])}). A card with no flag has a worth "
        "these games cannot tell from 0, which is not a worth of 0.</p>"
    )
    return _table(head, rows, 3) + note


def _share(ci: dict, fmt: str) -> str:
    """A figure (`share`) and its percentile interval."""
    if ci["share"] is None:
        return "—"
    if ci["low"] is None:
        return format(ci["share"], fmt)
    return f"{ci['share']:{fmt}} [{ci['low']:{fmt}}, {ci['high']:{fmt}}]"


def _shape(section: dict) -> str:
    rows = []
    for s in section["shape"]:
        top = s["top_score"]
        rows.append(
            [
                f"{s['players']} players, {s['bot']}",
                interval(s["decisions_per_player"], digits=1),
                interval(s["branching_per_game"], digits=2),
                interval(s["choice_share"], percent=True),
                interval(s["score"], digits=1) + f" ({s['score']['p5']}–{s['score']['p95']})",
                *[interval(s["parts"][c], digits=1) for c in COMPONENTS],
                f"{top['value']} [{top['low']}, {top['high']}]" if top["value"] is not None else "—",
                str(s["best_reached"]),
            ]
        )
    head = ["games", "decisions a player", "branching", "moves with a choice", "score (p5–p95)"]
    head += [c.replace("_", " ") for c in COMPONENTS] + ["99th percentile house", "best reached (a maximum: no interval)"]
    best = section["best_house"]
    proven = (
        f"{best['total']} ({'proven' if best['optimal'] else 'not proven'})"
        if best["total"] is not None
        else best.get("why", "—")
    )
    return _table(head, rows) + f"<p>Proven best house under these rules (<code>dreamhome max</code>): {escape(str(proven))}.</p>"


def _tension(section: dict) -> str:
    rows = [
        [
            f"{t['players']} players, {t['bot']}",
            str(t["games"]),
            interval(t["margin"], digits=1),
            interval(t["close"], percent=True),
            interval(t["lead_changes"], digits=2),
            interval(t["decided_round"], digits=1) + f" of {t['steps']}",
        ]
        for t in section["tension"]
    ]
    head = ["games", "n", "winner's margin (points)", "close (won by ≤ 2)", "lead changes", "settled at step"]
    return _table(head, rows)


def _sensitivity(doc: dict) -> str:
    sens = doc["sensitivity"]
    rows = [
        [
            str(e["rank"]),
            e["value"],
            e["id"],
            e["change"],
            str(e["games"]),
            interval(e["mean_score"]),
            interval(e["first_win_rate"], digits=3),
            str(e["rank_first_seat"]),
        ]
        for e in sorted(sens["entries"], key=lambda e: e["rank"])
    ]
    head = ["rank", "value", "card", "change", "games", "mean score (change)", "first seat's win share (change)", "rank by it"]
    table = _table(head, rows, 4)
    if sens["not_varied"]:
        table += "<p>Not varied:</p>" + _table(
            ["value", "card", "change", "why"], [[n["value"], n["id"], n["change"], n["why"]] for n in sens["not_varied"]], 4
        )
    return table


def _catalogue(doc: dict) -> str:
    cat = doc["catalogue"]
    rows = [
        [r["variant"], str(r["games"]), interval(r["mean_score"]), interval(r["first_win_rate"], digits=3), interval(r["margin"])]
        for r in cat["rows"]
    ]
    table = _table(
        ["variant", "games", "mean score (change)", "first seat's win share (change)", "winner's margin (change)"], rows
    )
    if cat["skipped"]:
        table += "<p>Not played: " + escape("; ".join(f"{s['variant']} ({s['why']})" for s in cat["skipped"])) + ".</p>"
    return table


def _assumed(section: dict) -> str:
    if not section["assumed"]:
        return "<p>No value of these rules is marked <code>@assumed</code>.</p>"
    rows = [[a["id"], a["field"], f"{a['file']}:{a['line']}"] for a in section["assumed"]]
    return "<p>Conclusions that rest on these values rest on an assumption.</p>" + _table(["card", "field", "where"], rows, 3)


def _differences(doc: dict) -> str:
    d = doc["vs"]["differences"]
    seats = _table(
        ["games", "first seat's edge (win share)", "first seat's edge (points)", "mean score", "tie-break decided"],
        [
            [
                f"{x['players']} players, {x['bot']}",
                interval(x["first_advantage"], digits=3),
                interval(x["first_margin"]),
                interval(x["mean_score"]),
                interval(x["tiebreak_decided"], digits=3),
            ]
            for x in d["seats"]
        ],
    )
    ladder = _table(
        ["rung", "weaker's win share", "margin"],
        [
            [f"{x['stronger']} over {x['weaker']}", interval(x["weaker_win_rate"], digits=3), interval(x["margin"])]
            for x in d["ladder"]
        ],
    )
    shape = _table(
        ["games", "decisions a player", "branching", *[c.replace("_", " ") for c in COMPONENTS]],
        [
            [
                f"{x['players']} players, {x['bot']}",
                interval(x["decisions_per_player"]),
                interval(x["branching_factor"]),
                *[interval(x[f"part_{c}"]) for c in COMPONENTS],
            ]
            for x in d["shape"]
        ],
    )
    cards = _table(["card", "worth (points)"], [[x["card"], interval(x["worth"])] for x in d["cards"]])
    return seats + (ladder if d["ladder"] else "") + shape + (cards if d["cards"] else "")


def report_html(doc: dict, figures: dict[str, bytes]) -> str:
    title = f"Balance report: {doc['ruleset']}" + (f" vs {doc['vs']['ruleset']}" if "vs" in doc else "")
    plan = doc["plan"]
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>Seed {plan['seed']}: game <i>i</i> of every condition is played from seed {plan['seed']} + <i>i</i>, "
        "under every ruleset. "
        f"{plan['games']} games a light bot's condition, {plan['heavy_games']} a heavy bot's; intervals are 95%. "
        "docs/REPORT.md explains each figure and its method.</p>",
        f"<pre>{escape(summary(doc))}</pre>",
        "<h2>1. Seats</h2>",
        _img(figures["seats"], "win rate by seat"),
        _seats(doc),
        "<h2>2. Skill and luck</h2>",
        _img(figures["ladder"], "skill ladder") + _ladder(doc) if doc["ladder"] else NO_LADDER,
        "<h2>3. Cards by restricted play</h2>",
        _img(figures["cards"], "cards by restricted play") + _cards(doc) if doc["cards"] else NO_CARDS,
        "<h2>4. The game's shape</h2>",
        _img(figures["shape"], "score parts"),
        _shape(doc),
        "<h2>5. Tension</h2>",
        "<p>How close and how settled the games are, from every house's score at each round's end: "
        "the winner's margin over the next score, the share of games won by at most 2 points, the "
        "lead changes (the sole leader after a round differs from the last sole leader) and the step "
        "(a round's end; the last step is the game's end) from which a winner was never behind.</p>",
        _img(figures["tension"], "tension"),
        _tension(doc),
        "<h2>6. Assumptions</h2>",
        _assumed(doc),
    ]
    if "sensitivity" in doc:
        sens = doc["sensitivity"]
        parts += [
            "<h2>Sensitivity to the assumed values</h2>",
            f"<p>Each value marked <code>@assumed</code> moved one step down and one up (a count by 1, points by 1 at "
            f"every entry), each as a rules override, and {sens['games']} games of {escape(sens['bot'])} bots at "
            f"{sens['players']} players played under it on the seeds of the rules as they are. Ranked by the size of the "
            "change in the mean score (paired by seed, 95% intervals); a change whose interval holds 0 is one these games "
            "cannot tell from none.</p>",
            _img(figures["sensitivity"], "sensitivity tornado") if "sensitivity" in figures else "",
            _sensitivity(doc),
        ]
    if "catalogue" in doc:
        cat = doc["catalogue"]
        parts += [
            "<h2>The catalogue</h2>",
            f"<p>Every variant of the rules against them, {cat['games']} games of {escape(cat['bot'])} bots at "
            f"{cat['players']} players each, paired by seed: the change each variant makes (95% intervals).</p>",
            _img(figures["catalogue"], "catalogue") if "catalogue" in figures else "",
            _catalogue(doc),
        ]
    if "vs" in doc:
        vs = doc["vs"]
        parts += [
            f"<h2>7. {escape(vs['ruleset'])} against {escape(doc['ruleset'])}</h2>",
            "<p>Each difference is the second ruleset less the first, game by game on the same seeds.</p>",
            _img(figures["vs"], "paired differences"),
            _differences(doc),
            f"<h3>{escape(vs['ruleset'])}: seats</h3>",
            _seats(vs),
            f"<h3>{escape(vs['ruleset'])}: skill and luck</h3>",
            _ladder(vs) if vs["ladder"] else NO_LADDER,
            f"<h3>{escape(vs['ruleset'])}: cards</h3>",
            _img(figures["vs_cards"], "cards by restricted play, second ruleset") + _cards(vs) if vs["cards"] else NO_CARDS,
            f"<h3>{escape(vs['ruleset'])}: shape</h3>",
            _shape(vs),
            f"<h3>{escape(vs['ruleset'])}: tension</h3>",
            _tension(vs),
            f"<h3>{escape(vs['ruleset'])}: assumptions</h3>",
            _assumed(vs) if vs["assumed"] != doc["assumed"] else "<p>The same assumed values as above.</p>",
        ]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_report(out: Path, doc: dict) -> None:
    """report.json, report.html and summary.txt into `out`, each written atomically."""
    write_atomic(out / "report.json", json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    write_atomic(out / "report.html", report_html(doc, all_figures(doc)))
    write_atomic(out / "summary.txt", summary(doc))
