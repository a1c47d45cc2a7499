"""The report's plots, as PNG bytes (matplotlib's Agg backend, no metadata that changes from
run to run): seats, the skill ladder, cards by restricted play, the game's shape, and with
`--vs` the paired differences. Each error bar is the figure's 95% interval."""

from __future__ import annotations

import io

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


def seats_figure(section: dict) -> bytes:
    """Win rate by turn order, one group a player count and bot, the even share dashed."""
    plt = _plt()
    rows = section["seats"]
    fig, axes = plt.subplots(1, max(1, len(rows)), figsize=(3.2 * max(1, len(rows)), 3.2), squeeze=False, sharey=True)
    for ax, s in zip(axes[0], rows):
        rates = [p["win_rate"]["rate"] or 0.0 for p in s["positions"]]
        errs = list(zip(*(_err(p["win_rate"], "rate") for p in s["positions"])))
        ax.bar([str(p["position"]) for p in s["positions"]], rates, yerr=errs, capsize=3, color="#4c72b0")
        ax.axhline(s["even_share"], linestyle="--", color="grey", linewidth=1)
        ax.set_title(f"{s['players']} players, {s['bot']}", fontsize=9)
        ax.set_xlabel("seat in turn order")
    axes[0][0].set_ylabel("win rate")
    fig.suptitle("Win rate by seat (95% intervals; dashed: an even share)", fontsize=10)
    return _png(fig)


def ladder_figure(section: dict) -> bytes:
    """Each rung: the stronger bot's win rate, and the variance shares (bots, draw, rest)."""
    plt = _plt()
    rungs = section["ladder"]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(8, 3.2))
    labels = [f"{r['stronger']}\nover {r['weaker']}" for r in rungs]
    rates = [r["stronger_win_rate"]["rate"] or 0.0 for r in rungs]
    errs = list(zip(*(_err(r["stronger_win_rate"], "rate") for r in rungs))) if rungs else None
    ax.bar(labels, rates, yerr=errs, capsize=3, color="#55a868")
    ax.axhline(0.5, linestyle="--", color="grey", linewidth=1)
    ax.set_ylim(0, 1)
    ax.set_ylabel("stronger bot's win rate")
    bottom = [0.0] * len(rungs)
    for part, colour in (("bots", "#55a868"), ("draw", "#4c72b0"), ("rest", "#cccccc")):
        values = [r["variance"][part]["share"] or 0.0 for r in rungs]
        bx.bar(labels, values, bottom=bottom, label=part, color=colour)
        bottom = [b + v for b, v in zip(bottom, values)]
    bx.set_ylim(0, 1)
    bx.set_ylabel("share of the score's variance")
    bx.legend(fontsize=8)
    fig.suptitle("Skill and luck", fontsize=10)
    return _png(fig)


def cards_figure(section: dict) -> bytes:
    """Points each card type is worth by restricted play, ranked, coloured by kind."""
    plt = _plt()
    cards = section["cards"]
    fig, ax = plt.subplots(figsize=(7, 0.28 * max(4, len(cards)) + 1))
    names = [c["name"] for c in cards][::-1]
    worth = [c["worth"] or 0.0 for c in cards][::-1]
    errs = list(zip(*(_err(c, "worth") for c in cards[::-1]))) if cards else None
    ax.barh(names, worth, xerr=errs, capsize=2, color=[KIND_COLOURS.get(c["kind"], "grey") for c in cards[::-1]])
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel(f"points lost by a seat forbidden the card ({section['card_players']} players)")
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in KIND_COLOURS.values()]
    ax.legend(handles, list(KIND_COLOURS), fontsize=7, loc="lower right")
    ax.set_title("Cards by restricted play (95% intervals)", fontsize=10)
    return _png(fig)


def shape_figure(section: dict) -> bytes:
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
        ax.bar(xs, means, width, yerr=[lows, highs], capsize=2, label=f"{s['players']} players")
    ax.set_xticks([i + width * (len(rows) - 1) / 2 for i in range(len(COMPONENTS))], [c.replace("_", " ") for c in COMPONENTS])
    ax.set_ylabel("points per house (bars: 5th–95th percentile)")
    best = section["best_house"]["total"]
    reached = max((s["best_reached"] for s in rows if s["best_reached"] is not None), default=None)
    ax.set_title(f"The score's parts; best house reached {reached}, proven best {best}", fontsize=10)
    ax.legend(fontsize=8)
    return _png(fig)


def vs_figure(doc: dict) -> bytes:
    """The paired differences (second ruleset less the first): the first seat's edge by player
    count, and each card's worth."""
    plt = _plt()
    diff = doc["vs"]["differences"]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(9, 0.25 * max(8, len(diff["cards"])) + 1))
    labels = [f"{d['players']}p {d['bot']}" for d in diff["seats"]]
    values = [d["first_advantage"]["mean"] or 0.0 for d in diff["seats"]]
    errs = list(zip(*(_err(d["first_advantage"], "mean") for d in diff["seats"]))) if labels else None
    ax.barh(labels, values, xerr=errs, capsize=3, color="#4c72b0")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("change in the first seat's win-rate edge")
    names = [d["card"] for d in diff["cards"]][::-1]
    worth = [d["worth"]["mean"] or 0.0 for d in diff["cards"]][::-1]
    werr = list(zip(*(_err(d["worth"], "mean") for d in diff["cards"][::-1]))) if names else None
    bx.barh(names, worth, xerr=werr, capsize=2, color="#dd8452")
    bx.axvline(0, color="black", linewidth=0.8)
    bx.tick_params(axis="y", labelsize=7)
    bx.set_xlabel("change in a card's worth (points)")
    fig.suptitle(f"{doc['vs']['ruleset']} less {doc['ruleset']}, paired by seed (95% intervals)", fontsize=10)
    return _png(fig)


def all_figures(doc: dict) -> dict[str, bytes]:
    """Every plot of the report by name (the base ruleset's; `vs` when given); a section with
    nothing to plot (no ladder, --no-cards) has none."""
    out = {"seats": seats_figure(doc), "shape": shape_figure(doc)}
    if doc["ladder"]:
        out["ladder"] = ladder_figure(doc)
    if doc["cards"]:
        out["cards"] = cards_figure(doc)
    if "vs" in doc:
        out["vs"] = vs_figure(doc)
        if doc["vs"]["cards"]:
            out["vs_cards"] = cards_figure(doc["vs"])
    return out
