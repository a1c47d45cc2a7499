"""The report's plots, as PNG bytes (matplotlib's Agg backend, no metadata that changes from
run to run): seats, the skill ladder, cards by restricted play, the game's shape, and with
`--vs` the paired differences. Each error bar is the figure's 95% interval.

Every text a plot shows (titles, axes, legends, tick labels) is a `report.*` catalogue entry in
the reader's language, its numbers and player counts formatted as the page formats them
(`words`), so a plot on a French page reads as French as the table beside it."""

from __future__ import annotations

import io

from dreamhome.i18n import text
from dreamhome.report.words import number, players, row, say
from dreamhome.scoring import COMPONENTS

KIND_COLOURS = {"room": "#4c72b0", "roof": "#c44e52", "furnishing": "#dd8452", "helper": "#55a868", "tool": "#8172b3"}


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    _plt().close(fig)
    return buffer.getvalue()


def _err(ci: dict, key: str) -> tuple[float, float]:
    value = ci[key] or 0.0
    return max(0.0, value - (ci["low"] if ci["low"] is not None else value)), max(
        0.0, (ci["high"] if ci["high"] is not None else value) - value
    )


def seats_figure(section: dict, lang: str = "en") -> bytes:
    """Win rate by turn order, one group a player count and bot, the even share dashed."""
    plt = _plt()
    rows = section["seats"]
    fig, axes = plt.subplots(1, max(1, len(rows)), figsize=(3.2 * max(1, len(rows)), 3.2), squeeze=False, sharey=True)
    for ax, s in zip(axes[0], rows):
        rates = [p["win_rate"]["rate"] or 0.0 for p in s["positions"]]
        errs = list(zip(*(_err(p["win_rate"], "rate") for p in s["positions"])))
        ax.bar([str(p["position"]) for p in s["positions"]], rates, yerr=errs, capsize=3, color="#4c72b0")
        ax.axhline(s["even_share"], linestyle="--", color="grey", linewidth=1)
        ax.set_title(row(s["players"], s["bot"], lang), fontsize=9)
        ax.set_xlabel(say("fig.seat_axis", lang))
    axes[0][0].set_ylabel(say("fig.win_rate", lang))
    fig.suptitle(say("fig.seats_title", lang), fontsize=10)
    return _png(fig)


def ladder_figure(section: dict, lang: str = "en") -> bytes:
    """Each rung: the weaker bot's and a stronger seat's win rates against an even share
    (1/players, dashed), the margin, and the deal's share of the margin's variance."""
    plt = _plt()
    rungs = section["ladder"]
    fig, (ax, bx, cx) = plt.subplots(1, 3, figsize=(10, 3.2))
    labels = [say("fig.rung", lang, stronger=r["stronger"], weaker=r["weaker"]) for r in rungs]
    xs = list(range(len(rungs)))
    for offset, key, colour, name in (
        (-0.2, "weaker_win_rate", "#c44e52", say("fig.weaker", lang)),
        (0.2, "stronger_win_rate", "#55a868", say("fig.stronger", lang)),
    ):
        rates = [r[key]["rate"] or 0.0 for r in rungs]
        errs = list(zip(*(_err(r[key], "rate") for r in rungs)))
        ax.bar([x + offset for x in xs], rates, 0.4, yerr=errs, capsize=3, color=colour, label=name)
    for x, r in zip(xs, rungs):
        ax.hlines(r["even_share"], x - 0.45, x + 0.45, linestyles="--", color="grey", linewidth=1)
    ax.set_xticks(xs, labels)
    ax.set_ylim(0, 1)
    ax.set_ylabel(say("fig.win_rate_even", lang))
    ax.legend(fontsize=7)
    margins = [r["margin"]["mean"] or 0.0 for r in rungs]
    bx.bar(labels, margins, yerr=list(zip(*(_err(r["margin"], "mean") for r in rungs))), capsize=3, color="#55a868")
    bx.axhline(0, color="black", linewidth=0.8)
    bx.set_ylabel(say("fig.margin", lang))
    shares = [r["deal_share"] for r in rungs]
    cx.bar(
        labels,
        [d["share"] or 0.0 for d in shares],
        yerr=list(zip(*(_err(d, "share") for d in shares))),
        capsize=3,
        color="#4c72b0",
    )
    cx.set_ylim(0, 1)
    cx.set_ylabel(say("fig.deal_share", lang))
    fig.suptitle(say("fig.ladder_title", lang), fontsize=10)
    return _png(fig)


def cards_figure(section: dict, lang: str = "en") -> bytes:
    """Points each card type is worth by restricted play, ranked, coloured by kind."""
    plt = _plt()
    cards = section["cards"]
    fig, ax = plt.subplots(figsize=(7, 0.28 * max(4, len(cards)) + 1))
    names = [c.get("names", {}).get(lang, c["name"]) for c in cards][::-1]
    worth = [c["worth"] or 0.0 for c in cards][::-1]
    errs = list(zip(*(_err(c, "worth") for c in cards[::-1]))) if cards else None
    ax.barh(names, worth, xerr=errs, capsize=2, color=[KIND_COLOURS.get(c["kind"], "grey") for c in cards[::-1]])
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel(say("fig.cards_axis", lang, players=players(section["card_players"], lang)))
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in KIND_COLOURS.values()]
    ax.legend(handles, [say(f"kind.{k}", lang) for k in KIND_COLOURS], fontsize=7, loc="lower right")
    ax.set_title(say("fig.cards_title", lang), fontsize=10)
    return _png(fig)


def shape_figure(section: dict, lang: str = "en") -> bytes:
    """The score and its parts: one box a part, a row a player count (the first bot), and the
    best house reached beside the proven best."""
    plt = _plt()
    rows = [s for s in section["shape"] if s["bot"] == section["shape"][0]["bot"]] if section["shape"] else []
    fig, ax = plt.subplots(figsize=(8, 3.4))
    width = 0.8 / max(1, len(rows))
    for k, s in enumerate(rows):
        parts = [s["parts"][c] for c in COMPONENTS]
        xs = [i + k * width for i in range(len(COMPONENTS))]
        means = [p["mean"] or 0.0 for p in parts]
        lows = [max(0.0, (p["mean"] or 0) - (p["p5"] or 0)) for p in parts]
        highs = [max(0.0, (p["p95"] or 0) - (p["mean"] or 0)) for p in parts]
        ax.bar(xs, means, width, yerr=[lows, highs], capsize=2, label=players(s["players"], lang))
    ax.set_xticks(
        [i + width * (len(rows) - 1) / 2 for i in range(len(COMPONENTS))], [text(f"score.part.{c}", lang) for c in COMPONENTS]
    )
    ax.set_ylabel(say("fig.shape_axis", lang))
    best = section["best_house"]["total"]
    reached = max((s["best_reached"] for s in section["shape"] if s["best_reached"] is not None), default=None)
    bot = rows[0]["bot"] if rows else ""
    ax.set_title(say("fig.shape_title", lang, bot=bot, reached=number(reached, lang, 0), best=number(best, lang, 0)), fontsize=10)
    ax.legend(fontsize=8)
    return _png(fig)


def tension_figure(section: dict, lang: str = "en") -> bytes:
    """The tension figures of each player count and bot, each bar with its 95% interval."""
    plt = _plt()
    rows = section["tension"]
    labels = [row(t["players"], t["bot"], lang) for t in rows]
    close = rows[0]["close_points"] if rows else 2
    fig, axes = plt.subplots(1, 4, figsize=(11, 3))
    panels = (
        ("margin", "mean", say("fig.winner_margin", lang)),
        ("close", "rate", say("fig.close", lang, points=number(close, lang, 0))),
        ("lead_changes", "mean", say("fig.lead_changes", lang)),
        ("decided_round", "mean", say("fig.settled", lang)),
    )
    for ax, (key, value, title) in zip(axes, panels):
        values = [t[key][value] or 0.0 for t in rows]
        errs = list(zip(*(_err(t[key], value) for t in rows))) if rows else None
        ax.bar(labels, values, yerr=errs, capsize=3, color="#8172b3")
        ax.set_title(title, fontsize=9)
        ax.tick_params(axis="x", labelsize=7, rotation=30)
    fig.suptitle(say("fig.tension_title", lang), fontsize=10)
    return _png(fig)


def vs_figure(doc: dict, lang: str = "en") -> bytes:
    """The paired differences (second ruleset less the first): the first seat's edge by player
    count, and each card's worth."""
    plt = _plt()
    diff = doc["vs"]["differences"]
    if not diff["cards"]:
        fig, ax = plt.subplots(figsize=(5, 0.4 * max(4, len(diff["seats"])) + 1))
        _first_edge_bars(ax, diff, lang)
        fig.suptitle(say("fig.vs_title", lang, other=doc["vs"]["ruleset"], ruleset=doc["ruleset"]), fontsize=10)
        return _png(fig)
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(9, 0.25 * max(8, len(diff["cards"])) + 1))
    _first_edge_bars(ax, diff, lang)
    names = [d["card"] for d in diff["cards"]][::-1]
    worth = [d["worth"]["mean"] or 0.0 for d in diff["cards"]][::-1]
    werr = list(zip(*(_err(d["worth"], "mean") for d in diff["cards"][::-1]))) if names else None
    bx.barh(names, worth, xerr=werr, capsize=2, color="#dd8452")
    bx.axvline(0, color="black", linewidth=0.8)
    bx.tick_params(axis="y", labelsize=7)
    bx.set_xlabel(say("fig.card_worth_change", lang))
    fig.suptitle(say("fig.vs_title", lang, other=doc["vs"]["ruleset"], ruleset=doc["ruleset"]), fontsize=10)
    return _png(fig)


def _first_edge_bars(ax, diff: dict, lang: str) -> None:
    labels = [row(d["players"], d["bot"], lang) for d in diff["seats"]]
    values = [d["first_advantage"]["mean"] or 0.0 for d in diff["seats"]]
    errs = list(zip(*(_err(d["first_advantage"], "mean") for d in diff["seats"]))) if labels else None
    ax.barh(labels, values, xerr=errs, capsize=3, color="#4c72b0")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel(say("fig.first_edge_change", lang))


def sensitivity_figure(doc: dict, lang: str = "en") -> bytes:
    """A tornado plot: each assumed value's step down and step up, ranked by the size of the
    change in the mean score (left) with the first seat's win share beside it (right)."""
    plt = _plt()
    entries = sorted(doc["sensitivity"]["entries"], key=lambda e: e["rank"])
    order: list[str] = []
    for e in entries:
        if e["value"] not in order:
            order.append(e["value"])
    names = {e["value"]: f"{e['id']} {e['field']} ({e['value']})" for e in entries}
    fig, axes = plt.subplots(1, 2, figsize=(10, 0.3 * max(6, len(order)) + 1), sharey=True)
    for ax, key, title in zip(
        axes, ("mean_score", "first_win_rate"), (say("fig.mean_change", lang), say("fig.first_share_change", lang))
    ):
        for step, colour, shift in ((-1, "#4c72b0", -0.2), (1, "#c44e52", 0.2)):
            rows = [(order.index(e["value"]), e) for e in entries if e["step"] == step]
            ys = [len(order) - 1 - i + shift for i, _e in rows]
            values = [e[key]["mean"] or 0.0 for _i, e in rows]
            errs = list(zip(*(_err(e[key], "mean") for _i, e in rows))) if rows else None
            ax.barh(
                ys,
                values,
                0.4,
                xerr=errs,
                capsize=2,
                color=colour,
                label=say("fig.step_down" if step < 0 else "fig.step_up", lang),
            )
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_xlabel(title, fontsize=9)
    axes[0].set_yticks(range(len(order)), [names[v] for v in reversed(order)], fontsize=7)
    axes[0].legend(fontsize=7)
    fig.suptitle(say("fig.sensitivity_title", lang), fontsize=10)
    return _png(fig)


def catalogue_figure(doc: dict, lang: str = "en") -> bytes:
    """Each catalogue variant's paired change in the mean score and in the first seat's win share."""
    plt = _plt()
    rows = doc["catalogue"]["rows"]
    fig, axes = plt.subplots(1, 2, figsize=(10, 0.3 * max(6, len(rows)) + 1), sharey=True)
    names = [r["variant"] for r in rows][::-1]
    for ax, key, title in zip(
        axes, ("mean_score", "first_win_rate"), (say("fig.mean_change", lang), say("fig.first_share_change", lang))
    ):
        values = [r[key]["mean"] or 0.0 for r in rows][::-1]
        errs = list(zip(*(_err(r[key], "mean") for r in rows[::-1]))) if rows else None
        ax.barh(names, values, xerr=errs, capsize=2, color="#55a868")
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_xlabel(title, fontsize=9)
        ax.tick_params(axis="y", labelsize=7)
    fig.suptitle(say("fig.catalogue_title", lang), fontsize=10)
    return _png(fig)


def all_figures(doc: dict, lang: str = "en") -> dict[str, bytes]:
    """Every plot of the report by name (the base ruleset's; `vs` when given); a section with
    nothing to plot (no ladder, --no-cards) has none."""
    out = {"seats": seats_figure(doc, lang), "shape": shape_figure(doc, lang), "tension": tension_figure(doc, lang)}
    if doc["ladder"]:
        out["ladder"] = ladder_figure(doc, lang)
    if doc["cards"]:
        out["cards"] = cards_figure(doc, lang)
    if doc.get("sensitivity", {}).get("entries"):
        out["sensitivity"] = sensitivity_figure(doc, lang)
    if doc.get("catalogue", {}).get("rows"):
        out["catalogue"] = catalogue_figure(doc, lang)
    if "vs" in doc:
        out["vs"] = vs_figure(doc, lang)
        if doc["vs"]["cards"]:
            out["vs_cards"] = cards_figure(doc["vs"], lang)
    return out
