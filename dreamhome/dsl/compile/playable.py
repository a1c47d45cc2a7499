"""Can the compiled game be played? The compiler's last check: it gathers the values and the
positions of the declarations they come from, and reports what `dsl/playability.py` (which
judges plain values) finds, at the declaration at fault."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from dreamhome.board import Board
from dreamhome.dsl.ast import EffectSpec, Pos
from dreamhome.dsl.compile.cards import Cards
from dreamhome.dsl.compile.declarations import Merged
from dreamhome.dsl.compile.diagnostics import Diagnostics
from dreamhome.dsl.playability import Decks, Where, extra_take_problem, playability_problems, scaffold_kinds_problem
from dreamhome.ruleset import Furnishing, GameSpec, HeldCard, RoofType, RoomType
from dreamhome.vocabulary import SKIP_TURN_SHAPES, SKIP_TURN_TIMINGS, supported_timings


def biggest(decls: Mapping[str, Merged], cards: Sequence[RoomType | RoofType | Furnishing | HeldCard]) -> Pos | None:
    """Where the largest `count` among these cards was declared: the first place to look in a deck too big."""
    best = max(cards, key=lambda c: c.count, default=None)
    return decls[best.id].fields["count"].pos if best is not None and "count" in decls[best.id].fields else None


def check_playability(
    report: Diagnostics, game: GameSpec, board: Board, decls: Mapping[str, Merged], cards: Cards, options: Mapping[str, str]
) -> None:
    """Rules that compile but cannot be played are refused here (dsl/playability.py)."""
    g, b = decls["game"], decls["board"]
    resources: list[RoofType | Furnishing | HeldCard] = [
        *cards.roofs,
        *(x for x in cards.furnishings if x.is_card),
        *cards.helpers,
        *cards.tools,
    ]
    decks = Decks(
        sum(r.count for r in cards.rooms),
        sum(r.count for r in resources),
        biggest(decls, cards.rooms),
        biggest(decls, resources),
    )
    floors = {name.split(":", 1)[1]: fld.pos for name, fld in b.fields.items() if name.startswith("floor:")}
    where = Where(
        g.fields["players"].pos,
        g.fields["rounds"].pos,
        g.fields["deal"].pos,
        g.fields["discard"].pos if "discard" in g.fields else None,
        b.pos,
        floors,
    )
    for problem in playability_problems(game, board, decks, options, where):
        report.error(problem.pos, problem.message, problem.severity)
    check_idle_takes(report, game, board, decls, cards, options)
    scaffolds = [c.id for c in cards.tools if c.count and c.effect("scaffold")]
    message = scaffold_kinds_problem(scaffolds)
    if message is not None:
        report.error(decls[scaffolds[-1]].pos, message)


def check_idle_takes(
    report: Diagnostics, game: GameSpec, board: Board, decls: Mapping[str, Merged], cards: Cards, options: Mapping[str, str]
) -> None:
    """A held card whose round-start take (a SKIP_TURN_SHAPES effect at a SKIP_TURN_TIMINGS
    timing) has no `skip_turn` and no spare space to land on can never act: warn at the effect."""
    for card in (*cards.helpers, *cards.tools):
        if not card.count:
            continue
        specs = cast("tuple[EffectSpec, ...]", decls[card.id].fields["effect"].value) if card.id in decls else ()
        for k, effect in enumerate(card.effects):
            places = effect.places()
            when = effect.timing or next(iter(supported_timings(effect.name, places)), None)
            if (effect.name, places) not in SKIP_TURN_SHAPES or when not in SKIP_TURN_TIMINGS or "skip_turn" in effect.flags:
                continue
            message = extra_take_problem(game, board.size, options, f"{card.id}'s {effect.describe()}")
            if message is not None:
                pos = specs[k].pos if k < len(specs) else decls[card.id].pos
                report.error(pos, message, "warning")
