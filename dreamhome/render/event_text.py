"""A line of a game's log as a person reads it, in the language of their rulebook.

Why a module: the engine's events are records (English texts and ids, compared word for word by
`replay`), and several places show them to people: the browser table's log, the replay page. A
decision is said by its action (`action_text.describe`), a note of the engine (a dealt track, a
discarded furnishing, an awarded token, the final scores) by its catalogue entry `event.<kind>`
with the cards by name (`Ruleset.card_name`, so the words agree with the card: "la Maison de
chat est défaussée"), and a note the catalogue does not know yet by its fields as plain words,
never as JSON.
"""

from __future__ import annotations

from typing import Any

from dreamhome.game.actions import action_from_dict
from dreamhome.game.state import GameState
from dreamhome.i18n import DEFAULT_LANG, has_text, text
from dreamhome.render.action_text import describe


def when_text(state: GameState, round_number: object, lang: str = DEFAULT_LANG) -> str:
    """When an event happened, in `lang`: its round, or "end game" for the end game and the final
    scoring, which the engine counts as the round after the last (END-ORDER; issue 22: never
    "round 13 of 12")."""
    if isinstance(round_number, int) and not isinstance(round_number, bool) and round_number > state.rules.game.rounds:
        return text("event.when.end", lang)
    return text("event.when.round", lang, round=round_number)


def event_text(state: GameState, event: dict[str, Any], who: str, lang: str = DEFAULT_LANG) -> str:
    """`event` (one of `state.events`, or of a record replayed into `state`) in `lang`; `who`:
    how the page names the event's player."""
    rules = state.rules
    when = when_text(state, event.get("round"), lang)
    if "text" in event:
        try:
            said = describe(state, action_from_dict(event.get("action")), lang)
        except (ValueError, TypeError, KeyError):
            said = str(event["text"])
        return text("event.forced" if event.get("forced") else "event.decision", lang, when=when, who=who, action=said)
    kind = str(event.get("event", ""))
    if has_text(f"event.{kind}"):
        rooms = ", ".join(rules.card_name(r, lang) if r else "—" for r in event.get("rooms") or [])
        card = event.get("furnishing") or event.get("token")
        return text(
            f"event.{kind}",
            lang,
            when=when,
            who=who,
            rooms=rooms,
            card=rules.card_name(card, lang) if isinstance(card, str) else "",
            cell=event.get("cell", ""),
            scores=", ".join(map(str, event.get("scores") or [])),
        )
    detail = ", ".join(
        f"{k} {v}"
        for k, v in event.items()
        if k not in ("round", "event") and isinstance(v, (str, int)) and not isinstance(v, bool)
    )
    return text("event.other", lang, when=when, what=kind.replace("_", " ") + (f" ({detail})" if detail else ""))


__all__ = ["event_text"]
