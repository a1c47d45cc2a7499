"""A game review for the terminal: one summary line a player (the terminal seat prints these
at a game's end), the players' table, and the costliest decisions with the house drawn before
each; a batch's sums by bot and by seat. Words come from the `review.*` catalogue keys."""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from dreamhome.game.actions import action_from_dict
from dreamhome.game.record import GameResult
from dreamhome.i18n import DEFAULT_LANG, count_text, decimal_text
from dreamhome.i18n import text as ui
from dreamhome.render.action_text import describe
from dreamhome.render.house_text import house_grid
from dreamhome.review.game import GameReview, review_game
from dreamhome.review.marks import TOLERANCE
from dreamhome.review.summary import PlayerReview
from dreamhome.review.walk import Decision


def _num(value: float, lang: str = DEFAULT_LANG) -> str:
    """A value with at most two decimals in `lang`'s format ("1.19", "1,19")."""
    return decimal_text(value, lang)


def _fixed(value: float, lang: str = DEFAULT_LANG) -> str:
    """A value with exactly two decimals in `lang`'s format ("0.20", "0,20")."""
    return decimal_text(value, lang, fixed=2)


def _signed(value: float, lang: str = DEFAULT_LANG) -> str:
    return ("+" if value > 0 else "") + _num(value, lang)


def summary_lines(review: GameReview, lang: str = DEFAULT_LANG, names: dict[int, str] | None = None) -> list[str]:
    """One line a player: accuracy, points lost, blunders, final against expected, luck. `names`
    (seat → name) says a seat otherwise than by its bot (the terminal seat's "you")."""
    names = names or {}
    return [
        _line(p, lang, names)
        + (
            ui("review.summary_expected", lang, error=_num(round(p.luck_error, 1), lang), rest=_signed(round(p.rest, 1), lang))
            if p.luck_error is not None and p.rest is not None
            else ""
        )
        for p in review.players
    ]


def _line(p: PlayerReview, lang: str, names: dict[int, str]) -> str:
    return ui(
        "review.summary",
        lang,
        seat=p.seat,
        bot=names.get(p.seat, p.bot),
        accuracy=round(100 * p.accuracy),
        lost=count_text("review.points_lost", round(p.total_loss, 2), lang),
        mean_loss=_fixed(p.mean_loss, lang),
        blunders=count_text("review.blunders", p.blunders, lang),
        final=p.final,
        expected=_num(p.expected, lang),
        luck=_signed(round(p.luck, 1) if p.luck_error is not None else p.luck, lang),
    )


def summary_for_game(result: GameResult, lang: str = DEFAULT_LANG, names: dict[int, str] | None = None) -> list[str]:
    """The review's summary of a game just finished (a `GameResult`, a person's seat named
    "human" among the bots): what the terminal seat prints at the end of its game, each seat
    named as `names` says where it says (the seat's "you")."""
    return summary_lines(review_game(result), lang, names)


def mark_text(d: Decision, lang: str = DEFAULT_LANG) -> str:
    """A decision's mark in `lang`, with the measure that judged it when it is not the player's
    own score (the discard's margin over the others, docs/REVIEW.md)."""
    if not d.mark:
        return ""
    mark = ui(f"review.mark.{d.mark}", lang)
    return f"{mark} ({ui('review.by_margin', lang)})" if d.measure == "margin" else mark


def option_text(review: GameReview, d: Decision, action: dict[str, Any], lang: str = DEFAULT_LANG) -> str:
    """One of a decision's options as the log says it in `lang` (cards by their names), read in
    the position before the decision, never in the engine's ids."""
    return describe(review.walk.positions[d.index], action_from_dict(action), lang)


def decision_line(review: GameReview, d: Decision, lang: str = DEFAULT_LANG) -> str:
    """A decision in `lang`: its round, the choice, the mark, the loss and the best option."""
    return ui(
        "review.decision",
        lang,
        when=ui("review.when.end", lang) if d.phase == "end" else ui("review.when.round", lang, round=d.round),
        chosen=option_text(review, d, d.chosen_action, lang),
        mark=mark_text(d, lang),
        loss=count_text("review.points_lost", round(d.loss, 2), lang),
        best=option_text(review, d, d.best_action, lang),
        best_value=_num(d.best_value, lang),
        chosen_value=_num(d.chosen_value, lang),
    )


def players_table(review: GameReview, lang: str = DEFAULT_LANG) -> Table:
    table = Table(title=ui("review.title", lang, seed=review.walk.result.state.seed), title_justify="left")
    for key in ("seat", "bot", "accuracy", "mean_loss", "lost", "marks", "expected", "final", "luck"):
        table.add_column(ui(f"review.col.{key}", lang), justify="left" if key == "bot" else "right", overflow="fold")
    for p in review.players:
        table.add_row(
            str(p.seat),
            p.bot,
            f"{round(100 * p.accuracy)}%",
            _fixed(p.mean_loss, lang),
            _num(p.total_loss, lang),
            f"{p.inaccuracies}/{p.mistakes}/{p.blunders}",
            _num(p.expected, lang),
            str(p.final),
            _signed(p.luck, lang),
        )
    return table


def print_review(console: Console, review: GameReview, lang: str = DEFAULT_LANG) -> None:
    """The players' table, then each player's costliest decisions with the house before it."""
    console.print(players_table(review, lang))
    rules = review.walk.result.state.rules
    for p in review.players:
        if not p.costliest:
            console.print(
                ui("review.none_costly", lang, seat=p.seat, bot=p.bot, tolerance=count_text("review.points", TOLERANCE, lang))
            )
            continue
        console.print(Text(ui("review.costliest", lang, seat=p.seat, bot=p.bot), style="bold"))
        for index in p.costliest:
            d = review.decisions[index]
            house = review.walk.positions[index].houses[d.seat]
            console.print(Group(Text("  " + decision_line(review, d, lang)), house_grid(rules, house, lang=lang)))


def batch_table(summary: dict[str, Any], lang: str = DEFAULT_LANG) -> list[Table]:
    """The batch's sums (`batch.aggregate`): one table by bot, one by seat."""
    tables = []
    for group, name in (("by_bot", "bot"), ("by_seat", "seat")):
        table = Table(title=ui(f"review.batch.{group}", lang), title_justify="left")
        for key in (name, "games", "decisions", "mean_loss", "interval", "accuracy", "blunders_game", "luck", "score"):
            table.add_column(ui(f"review.col.{key}", lang), justify="left" if key == name else "right", overflow="fold")
        for who, s in summary[group].items():
            low, high = s["mean_loss_ci95"]
            table.add_row(
                who,
                str(s["games"]),
                str(s["decisions"]),
                f"{s['mean_loss']:.3f}",
                f"{low:.3f}–{high:.3f}",
                f"{round(100 * s['accuracy'])}%",
                f"{s['blunders_per_game']:.2f}",
                _signed(round(s["mean_luck"], 2), lang),
                f"{s['mean_score']:.1f}",
            )
        tables.append(table)
    return tables


__all__ = ["batch_table", "decision_line", "option_text", "players_table", "print_review", "summary_for_game", "summary_lines"]
