"""Actions and resource cards as a person reads them, in the language of their rulebook.

Why a module beside `GameState.action_text`: the engine's texts are English and go into game
records, where `replay` compares them word for word, so they must never depend on who is
watching. The terminal seat and the browser table instead speak the chosen language: this
module renders the same actions from their fields, with the interface catalogue
(`dreamhome.i18n`, keys `action.<ActionClass>`) and the cards' names in that language
(`Ruleset.card_name`).

The rendering is generic over the action dataclasses: each field becomes a placeholder of the
same name, rendered by what it holds (a room or furnishing id by its card name, a roof colour by
its roof's name, a `face_down`/`window` flag by its phrase, `action.flag.<field>`, or nothing),
and `{card}` is the helper or tool card the action uses. An action class without a catalogue
entry (one added to the engine later) is shown by its English engine text, never as a blank.
"""

from __future__ import annotations

from dataclasses import fields

from dreamhome.game.actions import Action
from dreamhome.game.state import GameState, Resource
from dreamhome.i18n import DEFAULT_LANG, has_text, text
from dreamhome.ruleset import ROOM0, Ruleset

NO_CARD = "—"
"""A track slot without a card."""


def action_key(action_class: type[Action]) -> str:
    """The catalogue key of an action class: `action.<ClassName>`."""
    return f"action.{action_class.__name__}"


def _field_text(rules: Ruleset, name: str, value: object, lang: str) -> str:
    """One field of an action as a person reads it (ids of cards by their names)."""
    if isinstance(value, bool):
        key = f"action.flag.{name}"
        return text(key, lang) if value and has_text(key) else ""
    if isinstance(value, str):
        if name == "color" and rules.has_roof(value):
            return rules.card_name(value, lang).lower()
        if name in ("room", "token", "helper"):
            return rules.card_name(value, lang)
    return str(value)


def describe(state: GameState, action: Action, lang: str = DEFAULT_LANG) -> str:
    """`action` (legal in `state` now, or just played from it) in `lang`: the catalogue's
    `action.<ClassName>` filled with the action's fields and `{card}`, the card it uses; the
    engine's English text for an action class the catalogue does not know."""
    key = action_key(type(action))
    if not has_text(key):
        return state.action_text(action)
    rules = state.rules
    args = {f.name: _field_text(rules, f.name, getattr(action, f.name), lang) for f in fields(action)}
    args["card"] = card_used(state, action, lang)
    return text(key, lang, **args)


def card_used(state: GameState, action: Action, lang: str = DEFAULT_LANG) -> str:
    """The name of the held card an action uses, the one the engine's own text names
    (`GameState.card_for`); its role, said plainly, if no card is known."""
    card_id = state.card_for(action)
    return state.rules.card_name(card_id, lang) if card_id is not None else (action.role or "").replace("_", " ")


def room_text(rules: Ruleset, code: int | None, lang: str = DEFAULT_LANG) -> str:
    """A room card by its code (the track, the discard pile) in `lang`; "—" for none."""
    if code is None or code < ROOM0:
        return NO_CARD
    return rules.card_name(rules.room_of_code(code).id, lang)


def roof_text(rules: Ruleset, roof_id: str, window: bool, lang: str = DEFAULT_LANG) -> str:
    """A roof card: its colour's name and whether it has a window (ROOF-*)."""
    colour = rules.card_name(roof_id, lang).lower()
    return text("card.roof_window" if window else "card.roof", lang, color=colour)


def resource_text(rules: Ruleset, res: Resource | None, lang: str = DEFAULT_LANG) -> str:
    """A resource card of the track in `lang`: a roof, a furnishing, or a helper or tool (said so)."""
    if res is None:
        return NO_CARD
    if res.kind == "roof":
        return roof_text(rules, res.id, res.window, lang)
    name = rules.card_name(res.id, lang)
    kind_key = f"card.kind.{res.kind}"
    if res.kind == "furnishing" or not has_text(kind_key):
        return name
    return text("card.held", lang, name=name, kind=text(kind_key, lang))


__all__ = ["NO_CARD", "action_key", "describe", "resource_text", "roof_text", "room_text"]
