"""What an experiment writes: results.json, report.md and plots (PNG and SVG)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from dreamhome.fileio import write_atomic
from dreamhome.scoring import COMPONENTS

SCHEMA = "dreamhome.whatif/1"
RESULTS, REPORT = "results.json", "report.md"
PLOTS = ("scores", "components", "seats")
PLOT_FORMATS = ("png", "svg")
REPORT_FILES = (RESULTS, REPORT, *(f"{name}.{ext}" for name in PLOTS for ext in PLOT_FORMATS))
"""Every file `write_report` writes into the experiment's folder (checked before any game: runner)."""


def crashed_games(doc: dict) -> int:
    """How many games of a results document crashed (their seeds are in the report)."""
    return sum(len(r["crashed"]) for r in doc["rulesets"])


def results_document(experiment: dict, stats: list[dict]) -> dict:
    return {"format": SCHEMA, "experiment": experiment, "rulesets": stats}


def format_interval(ci: dict, digits: int = 2) -> str:
    """A mean or rate with its 95% interval, as the report and the command line print it."""
    if ci.get("mean") is None and ci.get("rate") is None:
        return "—"
    if "rate" in ci:
        return f"{ci['rate']:.1%} [{ci['low']:.1%}, {ci['high']:.1%}]"
    return f"{ci['mean']:.{digits}f} [{ci['low']:.{digits}f}, {ci['high']:.{digits}f}]"


def report_markdown(doc: dict) -> str:
    exp = doc["experiment"]
    lines = [
        f"# What-if experiment {exp['id']}",
        "",
        f"{exp['games']} games per ruleset, {exp['players']} players, bots {', '.join(exp['bots'])}, "
        f"seeds {exp['seed']}…{exp['seed'] + exp['games'] - 1} (the same seeds under every ruleset). "
        "Intervals are 95%.",
        "",
        "| ruleset | games | mean score | sd | difference vs baseline (paired) | first player wins | ties |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in doc["rulesets"]:
        diff = format_interval(r["difference_vs_baseline"]) if "difference_vs_baseline" in r else "baseline"
        sd = f"{r['score']['sd']:.2f}" if r["score"]["sd"] is not None else "—"
        lines.append(
            f"| {r['ruleset']} | {r['games']} | {format_interval(r['score'])} | {sd} | {diff} | "
            f"{format_interval(r['first_player_win_rate'])} | {format_interval(r['tie_rate'])} |"
        )
    lines += [
        "",
        "## Score components (mean per house)",
        "",
        "| ruleset | " + " | ".join(COMPONENTS) + " |",
        "|---|" + "---|" * len(COMPONENTS),
    ]
    for r in doc["rulesets"]:
        lines.append(f"| {r['ruleset']} | " + " | ".join(format_interval(r["components"][c]) for c in COMPONENTS) + " |")
    lines += [
        "",
        "## Win rate by seat",
        "",
        "| ruleset | " + " | ".join(f"seat {i}" for i in range(exp["players"])) + " |",
        "|---|" + "---|" * exp["players"],
    ]
    for r in doc["rulesets"]:
        lines.append(f"| {r['ruleset']} | " + " | ".join(format_interval(w) for w in r["seat_win_rate"]) + " |")
    names = sorted({k for r in doc["rulesets"] for k in r["cards_per_house"]})
    lines += [
        "",
        "## Cards per house at the end",
        "",
        "| card | " + " | ".join(r["ruleset"] for r in doc["rulesets"]) + " |",
        "|---|" + "---|" * len(doc["rulesets"]),
    ]
    for name in names:
        lines.append(f"| {name} | " + " | ".join(f"{r['cards_per_house'].get(name, 0):.2f}" for r in doc["rulesets"]) + " |")
    crashed = [(r["ruleset"], c) for r in doc["rulesets"] for c in r["crashed"]]
    if crashed:
        lines += ["", "## Crashed games", ""] + [
            f"- {name}: game {c['game']}, seed {c['seed']}: {c['error']}" for name, c in crashed
        ]
    lines += ["", "Plots: `scores.png`, `components.png`, `seats.png` (and `.svg`)."]
    return "\n".join(lines) + "\n"


def write_plots(doc: dict, per_ruleset_scores: list[list[int]], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [r["ruleset"] for r in doc["rulesets"]]
    figures = {}
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for label, scores in zip(labels, per_ruleset_scores):
        if scores:
            ax.hist(scores, bins=range(min(scores), max(scores) + 2), histtype="step", linewidth=1.6, label=label)
    ax.set_xlabel("final score")
    ax.set_ylabel("houses")
    ax.set_title("Score distribution per ruleset")
    ax.legend()
    figures["scores"] = fig
    fig, ax = plt.subplots(figsize=(8, 4.5))
    bottom = [0.0] * len(labels)
    for comp in COMPONENTS:
        values = [r["components"][comp]["mean"] or 0.0 for r in doc["rulesets"]]
        ax.bar(labels, values, bottom=bottom, label=comp.replace("_", " "))
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.set_ylabel("mean points per house")
    ax.set_title("Score components")
    ax.legend()
    figures["components"] = fig
    fig, ax = plt.subplots(figsize=(8, 4.5))
    players = doc["experiment"]["players"]
    width = 0.8 / max(1, len(labels))
    for k, r in enumerate(doc["rulesets"]):
        rates = [w["rate"] or 0.0 for w in r["seat_win_rate"]]
        errs = [
            [max(0.0, (w["rate"] or 0) - (w["low"] or 0)) for w in r["seat_win_rate"]],
            [max(0.0, (w["high"] or 0) - (w["rate"] or 0)) for w in r["seat_win_rate"]],
        ]
        ax.bar([s + k * width for s in range(players)], rates, width, yerr=errs, label=r["ruleset"], capsize=3)
    ax.set_xticks([s + width * (len(labels) - 1) / 2 for s in range(players)], [f"seat {s}" for s in range(players)])
    ax.set_ylabel("win rate")
    ax.set_title("Win rate by seat (95% intervals)")
    ax.legend()
    figures["seats"] = fig
    assert tuple(figures) == PLOTS
    for name, fig in figures.items():
        for ext in PLOT_FORMATS:
            buffer = io.BytesIO()
            fig.savefig(buffer, format=ext, dpi=110, bbox_inches="tight")
            write_atomic(out / f"{name}.{ext}", buffer.getvalue())
        plt.close(fig)


def write_report(out: Path, doc: dict, per_ruleset_scores: list[list[int]]) -> None:
    write_atomic(out / RESULTS, json.dumps(doc, indent=2) + "\n")
    write_atomic(out / REPORT, report_markdown(doc))
    write_plots(doc, per_ruleset_scores, out)
