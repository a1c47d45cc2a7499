"""report.json: the figures of every condition, per ruleset, and with `--vs` the paired
differences; and the short text summary the command prints.

The document is a pure function of the plan and the games (sorted by game index), so a seed
gives the same document on any executor and any number of workers. Numbers are kept as
computed; the HTML and the summary round them for reading.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path

from dreamhome.errors import DreamhomeError
from dreamhome.fileio import printable
from dreamhome.i18n import LANGUAGES
from dreamhome.report import stats, words
from dreamhome.report.plan import CARD_BOT, Condition, ReportPlan
from dreamhome.report.power import first_seat_rate, width
from dreamhome.report.power import power as power_of
from dreamhome.report.tension import margin as winner_margin
from dreamhome.report.tension import tension as tension_of
from dreamhome.ruleset import Ruleset
from dreamhome.scoring import COMPONENTS

FORMAT = "dreamhome.report/1"
Results = Mapping[Condition, Sequence[dict]]


def build_document(plan: ReportPlan, played: Results, rulesets: Sequence[Ruleset], precision: float | None = None) -> dict:
    """report.json from the games; `precision`, the width `--precision` asked for (the
    document then says whether each first seat's interval reached it)."""
    results = plan.merged(played)
    sections = [_section(plan, results, r, rules) for r, rules in enumerate(rulesets)]
    doc: dict = {"format": FORMAT, "plan": plan.to_dict(), **sections[0]}
    doc["crashed"] = sum(len(g) - len(stats.ok_games(g)) for g in results.values())
    if precision is not None:
        doc["precision"] = _precision(plan, results, precision)
    if plan.variations:
        doc["sensitivity"] = _sensitivity(plan, results)
    if "catalogue" in plan.alt_roles or plan.catalogue_skipped:
        doc["catalogue"] = _catalogue(plan, results)
    if len(sections) > 1:
        doc["vs"] = {**sections[1], "differences": _differences(plan, results)}
    return doc


def _conditions(plan: ReportPlan, r: int, role: str) -> list[Condition]:
    return [c for c in plan.conditions() if c.ruleset == r and c.role == role]


def _section(plan: ReportPlan, results: Results, r: int, rules: Ruleset) -> dict:
    seats = [{"bot": c.bots[0], **stats.seats(results[c], c.players, plan.seed)} for c in _conditions(plan, r, "seats")]
    ladder = [
        {
            "weaker": weak,
            "stronger": strong,
            "players": rotations[0].players,
            **stats.ladder([(c.bots.index(weak), results[c]) for c in rotations], rotations[0].players, plan.seed),
        }
        for weak, strong, rotations in plan.rungs(r)
    ]
    cards = []
    base = results.get(plan.card_baseline(r), [])
    rates, take_base = stats.take_rates(base)
    always = {c.card: results[c] for c in _conditions(plan, r, "always")}
    for c in _conditions(plan, r, "card"):
        assert c.card is not None
        kind, _, ident = c.card.partition(":")
        figures = stats.card(results[c], always.get(c.card, []), base, plan.copies[r][c.card])
        names = {lang: str(rules.card_name(ident, lang)) for lang in LANGUAGES}
        entry = {"card": c.card, "kind": kind, "name": rules.card_name(ident), "names": names, **figures}
        entry["take_rate"] = rates.get(c.card, stats.proportion_ci(0, 0))
        entry["take_base"] = take_base
        cards.append(entry)
    comparisons = stats.flag_cards(cards, plan.card_players)
    cards.sort(key=lambda e: (-(e["worth"] if e["worth"] is not None else float("-inf")), e["card"]))
    for rank, entry in enumerate(cards, 1):
        entry["rank"] = rank
    shape = [{"bot": c.bots[0], "players": c.players, **stats.shape(results[c])} for c in _conditions(plan, r, "seats")]
    tension = [{"bot": c.bots[0], "players": c.players, **tension_of(results[c])} for c in _conditions(plan, r, "seats")]
    power = [power_of(c.players, c.bots[0], len(stats.ok_games(results[c]))) for c in _conditions(plan, r, "seats")]
    return {
        "ruleset": plan.rulesets[r].label,
        "variants": list(plan.rulesets[r].variants),
        "seats": seats,
        "ladder": ladder,
        "cards": cards,
        "multiple_comparisons": comparisons,
        "card_players": plan.card_players,
        "shape": shape,
        "tension": tension,
        "power": power,
        "best_house": best_house(rules),
        "assumed": [
            {"id": ident, "field": fld, "file": Path(ref.file).name, "line": ref.line}
            for ident, fld, ref in rules.assumed_values()
        ],
    }


def _precision(plan: ReportPlan, results: Results, target: float) -> dict:
    """Each self-play condition's first-seat interval against the width asked for."""
    rows = []
    for c in plan.conditions():
        if c.role == "seats":
            ci = first_seat_rate(results[c], c.players)
            wide = width(ci)
            rows.append(
                {
                    "ruleset": c.ruleset,
                    "players": c.players,
                    "bot": c.bots[0],
                    "games": ci["n"],
                    "width": wide if math.isfinite(wide) else None,
                }
            )
    return {
        "width": target,
        "reached": all(r["width"] is not None and r["width"] <= target for r in rows),
        "blocks": len(plan.extensions),
        "conditions": rows,
    }


def _alt_effects(plan: ReportPlan, results: Results, label: str, role: str) -> dict:
    """An alternative ruleset against the first, paired by seed: the changes in the mean
    score, the first seat's win share and the winner's margin, each with its interval."""
    p = plan.card_players
    base = results[plan.alt_baseline()]
    games = results[Condition(0, p, (CARD_BOT,) * p, plan.alt_games, role, alt=label)]
    mean_score = stats.paired(base, games, _mean_score)
    return {
        "games": mean_score["n"],
        "mean_score": mean_score,
        "first_win_rate": stats.paired(base, games, partial(stats.first_edge, players=p)),
        "margin": stats.paired(base, games, lambda g: float(winner_margin(g))),
    }


def _mean_score(game: dict) -> float:
    return sum(game["scores"]) / len(game["scores"])


def _sensitivity(plan: ReportPlan, results: Results) -> dict:
    """Every assumed value's steps, ranked by the size of their effect on the mean score
    (`rank`) and on the first seat's win share (`rank_first_seat`); the values not varied
    beside them with their reasons."""
    entries = []
    not_varied = []
    for v in plan.variations:
        if v.spec is None:
            not_varied.append(v.to_dict())
            continue
        entries.append({**v.to_dict(), **_alt_effects(plan, results, v.spec.label, "sensitivity")})
    for key, rank in (("first_win_rate", "rank_first_seat"), ("mean_score", "rank")):
        entries.sort(key=lambda e: (-abs(e[key]["mean"] or 0.0), e["value"], e["step"]))
        for k, e in enumerate(entries, 1):
            e[rank] = k
    return {
        "players": plan.card_players,
        "bot": CARD_BOT,
        "games": plan.alt_games,
        "entries": entries,
        "not_varied": not_varied,
    }


def _catalogue(plan: ReportPlan, results: Results) -> dict:
    rows = [
        {"variant": spec.label, **_alt_effects(plan, results, spec.label, "catalogue")}
        for spec, role in zip(plan.alternatives, plan.alt_roles)
        if role == "catalogue"
    ]
    return {
        "players": plan.card_players,
        "bot": CARD_BOT,
        "games": plan.alt_games,
        "rows": rows,
        "skipped": [{"variant": v, "why": why} for v, why in plan.catalogue_skipped],
    }


def best_house(rules: Ruleset) -> dict:
    """The proven best house (`max`, the exact search) beside which the best reached is read."""
    from dreamhome.exact.best_house import best_house as search

    try:
        found = search(rules)
    except DreamhomeError as exc:
        return {"total": None, "optimal": False, "why": str(exc)}
    return {"total": found.total, "optimal": found.optimal}


def _differences(plan: ReportPlan, results: Results) -> dict:
    """Every figure of the second ruleset less the first's, per game on the same seeds."""
    out: dict[str, list] = {"seats": [], "ladder": [], "cards": [], "shape": []}
    for a, b in zip(_conditions(plan, 0, "seats"), _conditions(plan, 1, "seats")):
        ga, gb = results[a], results[b]
        n = a.players
        out["seats"].append(
            {
                "bot": a.bots[0],
                "players": n,
                "first_advantage": stats.paired(ga, gb, partial(stats.first_edge, players=n)),
                "first_margin": stats.paired(ga, gb, stats.first_margin),
                "mean_score": stats.paired(ga, gb, lambda g: sum(g["scores"]) / len(g["scores"])),
                "tiebreak_decided": stats.paired(ga, gb, lambda g: float(g["tied_top"] and len(g["winners"]) == 1)),
            }
        )
        out["shape"].append(
            {
                "bot": a.bots[0],
                "players": n,
                "decisions_per_player": stats.paired(ga, gb, lambda g: sum(g["decisions"]) / len(g["decisions"])),
                "branching_factor": stats.paired(ga, gb, lambda g: sum(g["options"]) / max(1, sum(g["decisions"]))),
                **{f"part_{c}": stats.paired(ga, gb, partial(_part_mean, part=i)) for i, c in enumerate(COMPONENTS)},
            }
        )
    for (weak, strong, rot_a), (_w, _s, rot_b) in zip(plan.rungs(0), plan.rungs(1)):
        ga = _rotated(weak, rot_a, results)
        gb = _rotated(weak, rot_b, results)
        out["ladder"].append(
            {
                "weaker": weak,
                "stronger": strong,
                "weaker_win_rate": stats.paired(ga, gb, lambda g: stats.win_share(g, g["weak"])),
                "margin": stats.paired(ga, gb, stats.margin_of_weaker),
            }
        )
    base_a, base_b = results.get(plan.card_baseline(0), []), results.get(plan.card_baseline(1), [])
    cards_b = {c.card: c for c in _conditions(plan, 1, "card")}
    for a in _conditions(plan, 0, "card"):
        twin = cards_b.get(a.card)
        if twin is None:
            continue
        worth_a = dict(_worths(results[a], base_a))
        diffs = [w - worth_a[k] for k, w in _worths(results[twin], base_b) if k in worth_a]
        out["cards"].append({"card": a.card, "worth": stats.mean_ci(diffs)})
    return out


def _rotated(weak: str, rotations: Sequence[Condition], results: Results) -> list[dict]:
    """A rung's games from every rotation, each marked with the weaker bot's seat and indexed
    (rotation, game) so that two rulesets' rungs pair game by game."""
    out = []
    for k, c in enumerate(rotations):
        seat = c.bots.index(weak)
        out += [{**g, "weak": seat, "game": (k, g["game"])} for g in results[c]]
    return out


def _part_mean(game: dict, part: int) -> float:
    """A game's mean over its houses of one score part (COMPONENTS order)."""
    return sum(h[part] for h in game["components"]) / len(game["components"])


def _worths(restricted: Sequence[dict], base: Sequence[dict]) -> list[tuple[int, float]]:
    """(game, the points seat 0 lost to the restriction) for each game both finished."""
    ref = {g["game"]: g for g in stats.ok_games(base)}
    return [(g["game"], ref[g["game"]]["scores"][0] - g["scores"][0]) for g in stats.ok_games(restricted) if g["game"] in ref]


def summary(doc: dict, lang: str = "en") -> str:
    """A few lines a designer reads first, in `lang` with its number format (summary.txt and
    the command's output); report.html has the rest. Counts stand after a colon ("assumed
    values: 58") so that no noun needs a plural form the count would choose."""
    say = partial(words.say, lang=lang)
    title = (
        say("title.vs", ruleset=doc["ruleset"], other=doc["vs"]["ruleset"])
        if "vs" in doc
        else say("title", ruleset=doc["ruleset"])
    )
    lines = [title]
    for part in (_summary_seats, _summary_cards, _summary_shape, _summary_alternatives, _summary_end):
        lines += part(doc, lang)
    # ruleset paths, variant and bot names are the user's: controls escaped, printed as written (issue 34)
    return printable("\n".join(lines), keep="\n") + "\n"


def _summary_seats(doc: dict, lang: str) -> list[str]:
    """The summary's seats and skill ladder lines."""
    say, ci = partial(words.say, lang=lang), partial(words.interval, lang=lang)
    pct = partial(ci, as_percent=True)
    lines: list[str] = []
    for s in doc["seats"]:
        lines.append(
            "  "
            + say(
                "sum.seats",
                row=words.row(s["players"], s["bot"], lang),
                first=pct(s["positions"][0]["win_rate"]),
                even=words.percent(s["even_share"], lang),
                deviation=pct(s["balance_ci"]),
                tiebreak=pct(s["tiebreak_decided"]),
            )
        )
    for rung in doc["ladder"]:
        lines.append(
            "  "
            + say(
                "sum.rung",
                rung=say("rung", stronger=rung["stronger"], weaker=rung["weaker"]),
                players=words.players(rung["players"], lang),
                rate=pct(rung["weaker_win_rate"]),
                even=words.percent(rung["even_share"], lang),
                margin=ci(rung["margin"], digits=1),
            )
        )
    return lines


def _summary_cards(doc: dict, lang: str) -> list[str]:
    """The summary's card lines: the strongest and weakest card, the flagged ones."""
    say, ci = partial(words.say, lang=lang), partial(words.interval, lang=lang)
    lines: list[str] = []
    if doc["cards"]:
        top, bottom = doc["cards"][0], doc["cards"][-1]
        lines.append(
            "  "
            + say(
                "sum.cards",
                players=words.players(doc["card_players"], lang),
                top=top.get("names", {}).get(lang, top["name"]),
                top_worth=ci(top),
                bottom=bottom.get("names", {}).get(lang, bottom["name"]),
                bottom_worth=ci(bottom),
            )
        )
        for f in ("costly_to_lose", "better_without", "essential"):
            names = [c.get("names", {}).get(lang, c["name"]) for c in doc["cards"] if f in c["flags"]]
            if names:
                lines.append(f"  {say(f'sum.flag.{f}')}: {', '.join(names)}")
        unflagged = sum(1 for c in doc["cards"] if not c["flags"])
        if unflagged:
            mc = doc["multiple_comparisons"]
            lines.append("  " + say("sum.unflagged", n=unflagged, method=mc["method"], alpha=words.percent(mc["alpha"], lang, 0)))
    return lines


def _summary_shape(doc: dict, lang: str) -> list[str]:
    """The summary's tension, power and --precision lines."""
    say, ci = partial(words.say, lang=lang), partial(words.interval, lang=lang)
    pct = partial(ci, as_percent=True)
    lines: list[str] = []
    for t in doc["tension"]:
        lines.append(
            "  "
            + say(
                "sum.tension",
                row=words.row(t["players"], t["bot"], lang),
                margin=ci(t["margin"], digits=1),
                points=t["close_points"],
                close=pct(t["close"]),
                lead=ci(t["lead_changes"], digits=1),
                step=ci(t["decided_round"], digits=1),
                steps=t["steps"],
            )
        )
    for pw in doc["power"]:
        lines.append(
            "  "
            + say(
                "sum.power",
                row=words.row(pw["players"], pw["bot"], lang),
                edge=words.percent(pw["edge"], lang, 0),
                needed=words.number(pw["games_needed"], lang, 0),
                power=words.percent(pw["power"], lang, 0),
                played=words.number(pw["games_played"], lang, 0),
                at_played=words.percent(pw["power_at_played"], lang, 0),
            )
        )
    if "precision" in doc:
        pr = doc["precision"]
        games = "; ".join(
            say(
                "sum.precision.condition",
                row=words.row(c["players"], c["bot"], lang),
                games=words.number(c["games"], lang, 0),
                width=words.number(c["width"] or 0, lang, 3),
            )
            for c in pr["conditions"]
            if c["ruleset"] == 0
        )
        lines.append(
            "  "
            + say(
                "sum.precision.reached" if pr["reached"] else "sum.precision.not_reached",
                width=words.plain(pr["width"], lang),
                blocks=pr["blocks"],
                games=games,
            )
        )
    return lines


def _summary_alternatives(doc: dict, lang: str) -> list[str]:
    """The summary's --sensitivity and --catalogue lines."""
    say, ci = partial(words.say, lang=lang), partial(words.interval, lang=lang)
    lines: list[str] = []
    if "sensitivity" in doc:
        top3 = sorted(doc["sensitivity"]["entries"], key=lambda e: e["rank"])[:3]
        ranked = "; ".join(f"{e['id']} {e['change']} ({e['value']}): {ci(e['mean_score'])}" for e in top3)
        lines.append("  " + say("sum.sensitivity", n=len(doc["sensitivity"]["entries"]), ranked=ranked))
    if "catalogue" in doc:
        rows = sorted(doc["catalogue"]["rows"], key=lambda r: -abs(r["mean_score"]["mean"] or 0.0))[:3]
        ranked = "; ".join(f"{r['variant']} {ci(r['mean_score'])}" for r in rows)
        lines.append("  " + say("sum.catalogue", n=len(doc["catalogue"]["rows"]), ranked=ranked))
    return lines


def _summary_end(doc: dict, lang: str) -> list[str]:
    """The summary's best-house, --vs and crash lines."""
    say, ci = partial(words.say, lang=lang), partial(words.interval, lang=lang)
    lines: list[str] = []
    reached = max((s["best_reached"] for s in doc["shape"] if s["best_reached"] is not None), default=None)
    lines.append(
        "  "
        + say(
            "sum.best",
            reached=words.number(reached, lang, 0),
            best=words.number(doc["best_house"]["total"], lang, 0),
            assumed=len(doc["assumed"]),
        )
    )
    if "vs" in doc:
        for d in doc["vs"]["differences"]["seats"]:
            lines.append(
                "  "
                + say(
                    "sum.vs",
                    row=words.row(d["players"], d["bot"], lang),
                    edge=ci(d["first_advantage"], digits=3),
                    points=ci(d["first_margin"]),
                    score=ci(d["mean_score"]),
                )
            )
    if doc["crashed"]:
        lines.append("  " + say("sum.crashed", n=doc["crashed"]))
    return lines
