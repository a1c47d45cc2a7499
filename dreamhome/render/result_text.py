"""A finished game's result in one sentence, in the reader's language (SCORE-WIN): the winner
and the points, or the players tied at the top and how the tie was settled — by the children
hidden on their face-up room cards (option `tiebreak = children`), or a shared victory.

A tie announced as "you won" with no word of the tie-break left two players with 33 points each
wondering why one of them won; the sentence says it. Points are counted in the language's
plural form (`i18n.count_text`: "33 очка", "35 очков").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from dreamhome.i18n import DEFAULT_LANG, count_text, text

if TYPE_CHECKING:
    from dreamhome.game.state import GameState


def result_line(state: GameState, names: Sequence[str], lang: str = DEFAULT_LANG) -> str:
    """The result of the finished game `state`, each seat named by `names`."""
    scores = state.returns()
    top = state.top_scorers()
    winners = state.winners()
    points = count_text("result.points", int(scores[top[0]]), lang)
    said = ", ".join(names[p] for p in winners)
    if len(top) == 1:
        return text("result.won", lang, names=said, points=points)
    children = ", ".join(f"{names[p]} {state.children(p)}" for p in top)
    tied = ", ".join(names[p] for p in top)
    if len(winners) == 1:
        return text("result.tie_broken", lang, tied=tied, points=points, names=said, children=children)
    if state.rules.options["tiebreak"] == "children":
        return text("result.shared_children", lang, names=said, points=points, children=children)
    return text("result.shared", lang, names=said, points=points)


__all__ = ["result_line"]
