"""The tools' roles, named by what their effect does (TOOL-*); a rules file names the cards.

The end-game roles of helpers live in `dreamhome.engine.endgame` (`END_ROLES`); these are the
tools' counterparts. The engine asks "which tool of this player swaps a house card with the
track", never "does the player hold card X", so a rules file may call its cards anything.
"""

from __future__ import annotations

from dreamhome.engine.endgame import end_role
from dreamhome.ruleset import Effect, HeldCard, Ruleset
from dreamhome.vocabulary import effect_timing

SWAP_WITH_TRACK = "swap_with_track"  # swap(house, track) before_take (TOOL-DRILL)
SWAP_TRACK_ROOMS = "swap_track_rooms"  # swap(track, track) before_take (TOOL-MIXER)
TAKE_ROOM_AT_ROUND_START = "take_room_at_round_start"  # take_room(track) at round_start (TOOL-JACKHAMMER)
SCAFFOLD = "scaffold"  # scaffold (TOOL-SCAFFOLDING)

# Every tool role and the effect shape that plays it (effect name, places); the tool roles, the
# shape → role map and the role → effect name map are derived from it, never written twice.
TOOL_ROLE_SHAPES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (SWAP_WITH_TRACK, "swap", ("house", "track")),
    (SWAP_TRACK_ROOMS, "swap", ("track", "track")),
    (TAKE_ROOM_AT_ROUND_START, "take_room", ("track",)),
    (SCAFFOLD, "scaffold", ()),
)
TOOL_ROLES = tuple(role for role, _name, _places in TOOL_ROLE_SHAPES)
_ROLE_OF_SHAPE = {(name, places): role for role, name, places in TOOL_ROLE_SHAPES}
_EFFECT_OF_ROLE = {role: name for role, name, _places in TOOL_ROLE_SHAPES}


def tool_role(effect: Effect) -> str | None:
    """The role of a tool's effect, or None if the game driver has no use for it."""
    return _ROLE_OF_SHAPE.get((effect.name, effect.places()))


def has_role(card: HeldCard, role: str) -> bool:
    """Whether a tool card plays `role` (one of its effects does)."""
    return card.kind == "tool" and any(tool_role(e) == role for e in card.effects)


def effect_role(effect: Effect) -> str | None:
    """The role of any effect the game driver plays: a tool's role (above) or an end-game
    role (END_ROLES), whatever card holds it and whenever it acts (TOOL-TIMING)."""
    return tool_role(effect) or end_role(effect.name, effect.places())


def when(effect: Effect) -> str | None:
    """When the effect acts (TOOL-TIMING): its timing, or its shape's default."""
    return effect_timing(effect.name, effect.places(), effect.timing, effect.flags)


def timed_effect(card: HeldCard, role: str, timing: str) -> Effect | None:
    """The card's effect that plays `role` at `timing`, if any (TOOL-TIMING)."""
    return next((e for e in card.effects if effect_role(e) == role and when(e) == timing), None)


def has_end_effect(card: HeldCard) -> bool:
    """TOOL-LAST, TOOL-TIMING: the card acts at the end (so a tool taken in the last round is kept)."""
    return any(when(e) == "end" and effect_role(e) is not None for e in card.effects)


def timed_cards(rules: Ruleset, role: str, timing: str) -> frozenset[str]:
    """The ids of the cards (helpers and tools) playing `role` at `timing`; remembered per content hash."""
    key = (rules.content_hash, role, timing)
    found = _TIMED.get(key)
    if found is None:
        found = _TIMED[key] = frozenset(c.id for c in rules.helpers + rules.tools if timed_effect(c, role, timing))
    return found


_TIMED: dict[tuple[str, str, str], frozenset[str]] = {}


def first_timed_effect(rules: Ruleset, tools: tuple[str, ...], helpers: tuple[str, ...], role: str, timing: str) -> Effect | None:
    """The effect the game uses for `role` at `timing` among these cards: the first tool's, else the
    first helper's (TOOL-TIMING; uses spent and TOOL-LAST left aside: for bots' estimates)."""
    for cid in tools + helpers:
        effect = timed_effect(rules.held(cid), role, timing)
        if effect is not None:
            return effect
    return None


def tools_with_role(rules: Ruleset, role: str) -> tuple[HeldCard, ...]:
    """The tool cards of the rules in use that play `role`, found by effect (never by id);
    remembered per content hash, since the game asks on every decision."""
    key = (rules.content_hash, role)
    found = _TOOLS_BY_RULES.get(key)
    if found is None:
        cards = rules.cards_with_effect(_EFFECT_OF_ROLE[role], "tool")
        found = _TOOLS_BY_RULES[key] = tuple(c for c in cards if has_role(c, role))
    return found


_TOOLS_BY_RULES: dict[tuple[str, str], tuple[HeldCard, ...]] = {}
