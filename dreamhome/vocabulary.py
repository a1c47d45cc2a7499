"""The engine's fixed vocabulary: what rules files may name but not define.

Rules files choose cards, numbers and conditions; the words below are the
mechanics the engine implements (docs/rules.md), so a rules file that names anything
else is an error with its position rather than a silent no-op.
"""

from __future__ import annotations

from dataclasses import dataclass

# Room categories and the kind of floor each goes on (PLACE-B).
CATEGORY_FLOOR_KIND = {"normal": "upper", "annex": "upper", "basement": "basement"}
FLOOR_KINDS = ("upper", "basement")

PROVENANCE_TAGS = ("rulebook", "printed", "review", "inferred", "assumed")

# Options with their allowed values; the first value is the default,
# used when a rules file does not declare the option (docs/rules.md, Options).
OPTIONS: dict[str, tuple[str, ...]] = {
    "round_discard": ("on", "off"),  # ROUND-1, VAR-NODISCARD
    "annex_adjacency": ("horizontal", "orthogonal"),  # SCORE-ROOMS
    "swap_face_down": ("allowed", "forbidden"),  # TOOL-DRILL, END-SUPPLIER
    "tiebreak": ("children", "none"),  # SCORE-WIN
}

# Token awards (VAR-CAR).
AWARDS = ("first_complete",)

ROOF_SCORING_FIELDS = ("size", "uniform", "mixed", "window")


@dataclass(frozen=True)
class EffectShape:
    """What one effect of the vocabulary accepts."""

    positional: tuple[tuple[str, ...], ...] = ()
    keywords: tuple[str, ...] = ()
    timings: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    meaning: str = ""


PLACES = ("house", "track", "room_discard", "roof_discard", "roof_pile")

EFFECTS: dict[str, EffectShape] = {
    "swap": EffectShape(
        positional=(("house", "track"), ("house", "track", "room_discard")),
        timings=("end",),
        flags=("before_take",),
        meaning="swap a room card of the first place with one of the second (TOOL-DRILL, TOOL-MIXER, END-HANDYMAN, END-SUPPLIER)",
    ),
    "take": EffectShape(
        positional=(("roof_discard",), ("roof_pile",)),
        timings=("end",),
        meaning="move a roof card from the first place to the second (END-ROOFER)",
    ),
    "take_room": EffectShape(
        positional=(("track",),),
        timings=("round_start",),
        flags=("skip_turn",),
        meaning="take a room card from the track at the start of a round (TOOL-JACKHAMMER)",
    ),
    "score": EffectShape(
        keywords=("bonus_plus", "empty_room", "token_plus"),
        meaning="add to scoring: per functionality bonus, per empty room, per token (HELP-ARCHITECT, HELP-DESIGNER)",
    ),
    "tokens_keep_open": EffectShape(meaning="tokens do not close the owner's rooms (HELP-DESIGNER)"),
    "scaffold": EffectShape(meaning="place scaffold on an empty supported space (TOOL-SCAFFOLDING)"),
}
