"""A hint's reason in words: the clauses the look-ahead's hint gives (`players.hints.Phrase`)
said in the reader's language, cards by their names in the rules, another option as the
actions say it. Here, beside the other text renderers, so that the players decide and the
renderers say (the players never import a renderer)."""

from __future__ import annotations

from dreamhome.game.actions import Action
from dreamhome.game.state import GameState
from dreamhome.game.values import Resource
from dreamhome.i18n import DEFAULT_LANG
from dreamhome.i18n import text as i18n_text
from dreamhome.players.hints import Phrase
from dreamhome.render.action_text import describe, resource_text, room_text


def reason_text(state: GameState, reason: tuple[Phrase, ...] | None, lang: str = DEFAULT_LANG) -> str:
    """A pick's reason in `lang` for the decision of `state` it was made for: its clauses
    (`Phrase`) joined, cards by their names in the rules, another option as the actions say it."""
    rules = state.rules
    said = []
    for phrase in reason or ():
        args: dict[str, object] = {}
        for name, arg in phrase.args:
            if name == "room":
                args[name] = room_text(rules, arg if isinstance(arg, int) else None, lang)
            elif name == "resource":
                args[name] = resource_text(rules, arg if isinstance(arg, Resource) else None, lang)
            elif name == "down":  # a face-down placement, said as the actions say it
                args[name] = i18n_text("action.flag.face_down", lang) if arg else ""
            elif isinstance(arg, Action):
                args[name] = describe(state, arg, lang)
            else:
                args[name] = arg
        said.append(i18n_text(phrase.key, lang, **args))
    return "; ".join(said)


__all__ = ["reason_text"]
