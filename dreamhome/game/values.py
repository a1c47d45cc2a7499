"""Values and errors that several game modules share (the game state, its legal actions, its
observation, its saved form), in a module of their own so none of those imports another for them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dreamhome.errors import DreamhomeError
from dreamhome.ruleset import Ruleset

MARKER_COLUMN = 0
"""The column whose room card comes with the first-player marker instead of a resource card (ROUND-3)."""


class IllegalAction(DreamhomeError):  # noqa: N818 - OpenSpiel-style name
    """An action that is not one of `legal_actions()` now; `rule` is the rule it breaks."""

    def __init__(self, rule: str, message: str):
        self.rule = rule
        super().__init__(f"{rule}: {message}")


class GameStateError(DreamhomeError):
    """A saved game state that is not one this engine could have produced (one line)."""


@dataclass(frozen=True)
class Resource:
    """A resource card: a roof (id = colour), a furnishing, a helper or a tool."""

    kind: str
    id: str
    window: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "window": self.window}

    def text(self) -> str:
        if self.kind == "roof":
            return f"{self.id} roof" + (" with window" if self.window else "")
        return f"{self.kind} {self.id}"


def rules_key(rules: Ruleset) -> tuple[str, tuple[str, ...], str]:
    """What rebuilds a ruleset after pickling (a Ruleset itself holds unpicklable views)."""
    return (rules.source, tuple(rules.variants_on), rules.content_hash)


@lru_cache(maxsize=8)
def rules_from_key(key: tuple[str, tuple[str, ...], str]) -> Ruleset:
    from dreamhome.dsl.compiler import compile_rules

    source, variants, digest = key
    rules = compile_rules(text=source, name="pickled game", variants=list(variants))
    if rules.content_hash != digest:
        raise GameStateError("the pickled rules do not match their content hash")
    return rules
