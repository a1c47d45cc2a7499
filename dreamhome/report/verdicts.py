"""The verdict sentences of the report page: each says only what its interval supports.

A verdict names a direction (the first seat wins more often, the stronger bot is stronger, a
variant changes the mean score) only when the 95% interval lies wholly on one side of the
line it is read against; otherwise it says that these games cannot tell. Each function gives
the sentences of one section in the reader's language (`words`).
"""

from __future__ import annotations

from dreamhome.report.words import clear_of, interval, number, percent, players, say


def seats(section: dict, lang: str) -> list[str]:
    out = []
    for s in section["seats"]:
        first = s["positions"][0]["win_rate"]
        key = {1: "first.more", -1: "first.less", 0: "first.even"}[clear_of(first, s["even_share"])]
        args = {"players": players(s["players"], lang), "bot": s["bot"], "rate": interval(first, lang, as_percent=True)}
        out.append(say(f"verdict.{key}", lang, **args, even=percent(s["even_share"], lang)))
    return out


def power(section: dict, lang: str) -> list[str]:
    return [
        say(
            "verdict.power",
            lang,
            players=players(p["players"], lang),
            needed=number(p["games_needed"], lang, 0),
            played=number(p["games_played"], lang, 0),
            power=percent(p["power_at_played"], lang, 0),
        )
        for p in section["power"]
    ]


def ladder(section: dict, lang: str) -> list[str]:
    out = []
    for r in section["ladder"]:
        weaker = r["weaker_win_rate"]
        args = {"weaker": r["weaker"], "stronger": r["stronger"], "rate": interval(weaker, lang, as_percent=True)}
        even = percent(r["even_share"], lang)
        if clear_of(weaker, r["even_share"]) < 0 and clear_of(r["margin"], 0) > 0:
            out.append(say("verdict.ladder.order", lang, **args, even=even, margin=interval(r["margin"], lang, digits=1)))
        else:
            out.append(say("verdict.ladder.unclear", lang, **args, even=even))
        if r["deal_share"]["share"] is not None:
            out.append(say("verdict.ladder.deal", lang, share=interval(r["deal_share"], lang, as_percent=True, digits=0)))
    return out


def cards(section: dict, lang: str) -> list[str]:
    entries = section["cards"]
    if not entries:
        return []
    costly = sum("costly_to_lose" in c["flags"] for c in entries)
    better = sum("better_without" in c["flags"] for c in entries)
    return [say("verdict.cards", lang, total=len(entries), costly=costly, better=better, rest=len(entries) - costly - better)]


def shape(section: dict, lang: str) -> list[str]:
    out = [
        say(
            "verdict.shape",
            lang,
            players=players(s["players"], lang),
            bot=s["bot"],
            decisions=interval(s["decisions_per_player"], lang, digits=1),
            branching=interval(s["branching_per_game"], lang, digits=1),
            score=interval(s["score"], lang, digits=1),
        )
        for s in section["shape"]
    ]
    reached = max((s["best_reached"] for s in section["shape"] if s["best_reached"] is not None), default=None)
    out.append(say("verdict.best", lang, reached=number(reached, lang, 0), best=number(section["best_house"]["total"], lang, 0)))
    return out


def tension(section: dict, lang: str) -> list[str]:
    return [
        say(
            "verdict.tension",
            lang,
            players=players(t["players"], lang),
            bot=t["bot"],
            close=interval(t["close"], lang, as_percent=True),
            changes=interval(t["lead_changes"], lang, digits=1),
            step=interval(t["decided_round"], lang, digits=1),
            steps=t["steps"],
        )
        for t in section["tension"]
    ]


def sensitivity(doc: dict, lang: str) -> list[str]:
    entries = sorted(doc["sensitivity"]["entries"], key=lambda e: e["rank"])
    if not entries:
        return []
    top = entries[0]
    measured = sum(1 for e in entries if clear_of(e["mean_score"], 0) != 0)
    out = []
    if clear_of(top["mean_score"], 0) != 0:
        effect = interval(top["mean_score"], lang)
        out.append(say("verdict.sensitivity.top", lang, card=top["id"], change=top["change"], value=top["value"], effect=effect))
    out.append(say("verdict.sensitivity.measured", lang, count=measured, total=len(entries)))
    return out


def catalogue(doc: dict, lang: str) -> list[str]:
    rows = doc["catalogue"]["rows"]
    moved = [r["variant"] for r in rows if clear_of(r["mean_score"], 0) != 0]
    return [say("verdict.catalogue", lang, count=len(moved), total=len(rows), names=", ".join(moved) or "—")]
