"""The engine's fixed vocabulary: what rules files may name but not define.

Rules files choose cards, numbers and conditions; the words below are the
mechanics the engine implements (docs/rules.md), so a rules file that names anything
else is an error with its position rather than a silent no-op.
"""

from __future__ import annotations

from dataclasses import dataclass

# Room categories and the kind of floor each goes on (PLACE-B).
CATEGORY_FLOOR_KIND = {"normal": "upper", "annex": "upper", "basement": "basement"}
# The categories whose rooms may carry `bonus N beside ROOM` (SCORE-ROOMS): only an annex scores its
# bonus value beside a room of the named type; a normal or basement room scores its points table alone.
BONUS_CATEGORIES = ("annex",)
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


PLACES = ("house", "track", "room_discard", "roof_discard", "roof_pile", "floor")

EFFECTS: dict[str, EffectShape] = {
    "swap": EffectShape(
        positional=(("house", "track", "floor"), ("house", "track", "room_discard", "floor")),
        timings=("end", "round_start", "before_take"),
        flags=("before_take", "skip_turn"),
        meaning="swap a room card of the first place with one of the second"
        " (TOOL-DRILL, TOOL-MIXER, END-HANDYMAN, END-SUPPLIER, END-FLOOR-SWAP)",
    ),
    "take": EffectShape(
        positional=(("roof_discard",), ("roof_pile",)),
        timings=("end", "before_take"),
        flags=("before_take",),
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
        timings=("once",),
        meaning="add to scoring: per functionality bonus, per empty room, per token (HELP-ARCHITECT, HELP-DESIGNER)",
    ),
    "tokens_keep_open": EffectShape(timings=("once",), meaning="tokens do not close the owner's rooms (HELP-DESIGNER)"),
    "scaffold": EffectShape(timings=("once",), meaning="place scaffold on an empty supported space (TOOL-SCAFFOLDING)"),
}


# Which effects each kind of held card may carry (RES-EFFECTS). A tool is used and then discarded
# (RES-TOOL), so an effect that lasts from the moment its card is taken (`score`, `tokens_keep_open`)
# has nothing to last on; a helper is kept and never used up (RES-HELPER), so it cannot carry the
# scaffold, which a tool puts down once, at once, and is then gone (TOOL-SCAFFOLDING). Every other
# effect is used at its timing and works on either kind alike (TOOL-TIMING).
CARD_KIND_EFFECTS: dict[str, tuple[str, ...]] = {
    "tool": ("swap", "take", "take_room", "scaffold"),
    "helper": ("swap", "take", "take_room", "score", "tokens_keep_open"),
}
CARD_KIND_REFUSALS: dict[tuple[str, str], str] = {
    ("tool", "score"): "a tool is used and discarded (RES-TOOL), but score() lasts from the moment its card is "
    "taken; put it on a helper (RES-EFFECTS)",
    ("tool", "tokens_keep_open"): "a tool is used and discarded (RES-TOOL), but tokens_keep_open lasts from the "
    "moment its card is taken; put it on a helper (RES-EFFECTS)",
    ("helper", "scaffold"): "a helper is kept, never used up (RES-HELPER), but the scaffold is put down once by a "
    "tool that is then discarded (TOOL-SCAFFOLDING); put it on a tool (RES-EFFECTS)",
}
"""Why each effect a kind may not carry is refused: the compiler's message (RES-EFFECTS)."""

# ---- timing and uses (TOOL-TIMING) -------------------------------------------------------
# When an effect acts. `once`: from the moment the card is taken (passive effects; the scaffold is
# placed then). `round_start`: before the first turn of a round (TOOL-JACKHAMMER's window).
# `before_take`: on the owner's turn, before taking a column (TOOL-TURN). `end`: in the end game
# (END-ORDER).
TIMINGS = ("once", "round_start", "before_take", "end")
DURING_PLAY = ("round_start", "before_take")  # the timings TOOL-LAST applies to

# The support matrix: for each effect shape (name, places), the timings the game driver and the
# solvers honour; the first is the default when a rules file gives none (base.dh's readings).
# Keyword and argument-less effects are keyed with no places. Anything missing is refused by the
# compiler: e.g. swap(house, track) at end (the track is empty when the game ends).
TIMING_SUPPORT: dict[tuple[str, tuple[str, ...]], tuple[str, ...]] = {
    ("swap", ("house", "track")): ("before_take", "round_start"),  # TOOL-DRILL
    ("swap", ("track", "track")): ("before_take", "round_start"),  # TOOL-MIXER
    ("swap", ("house", "house")): ("end", "before_take"),  # END-HANDYMAN
    ("swap", ("house", "room_discard")): ("end", "before_take"),  # END-SUPPLIER
    ("swap", ("floor", "floor")): ("end",),  # END-FLOOR-SWAP: two cards of one floor
    ("take", ("roof_discard", "roof_pile")): ("end", "before_take"),  # END-ROOFER
    ("take_room", ("track",)): ("round_start",),  # TOOL-JACKHAMMER
    ("score", ()): ("once",),  # HELP-ARCHITECT, HELP-DESIGNER
    ("tokens_keep_open", ()): ("once",),  # HELP-DESIGNER
    ("scaffold", ()): ("once",),  # TOOL-SCAFFOLDING
}

# `skip_turn` (using the effect costs the user's turn this round) makes sense only for a use made
# before the round's turns (TOOL-TIMING), by an effect that brings the room card the skipped take
# would have brought: a swap adds no card, so a skipped turn would leave a space empty at the end
# (ROUND-6: a card a round).
SKIP_TURN_TIMINGS = ("round_start",)
SKIP_TURN_SHAPES: tuple[tuple[str, tuple[str, ...]], ...] = (("take_room", ("track",)),)

# `uses N`: at most this many (TOOL-TIMING). No effect can matter more often: the board has at most a
# few dozen spaces and the roof scores a few cards, and the end game caps uses at what can change a
# house anyway (dreamhome.engine.endgame.use_caps).
MAX_USES = 100


def shape_key(name: str, places: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The key of an effect shape in `TIMING_SUPPORT` (keyword effects have no places)."""
    shape = EFFECTS.get(name)
    return (name, () if shape is None or not shape.positional else places)


def supported_timings(name: str, places: tuple[str, ...]) -> tuple[str, ...]:
    """The timings an effect shape supports, the default first; () if the engine has no use for it."""
    return TIMING_SUPPORT.get(shape_key(name, places), ())


def effect_timing(name: str, places: tuple[str, ...], timing: str | None, flags: frozenset[str]) -> str | None:
    """When an effect acts (TOOL-TIMING): its `at` timing, `before_take` written as a flag (the
    form base.dh uses), else the shape's default; None for a shape the engine cannot play."""
    if timing is not None:
        return timing
    if "before_take" in flags:
        return "before_take"
    supported = supported_timings(name, places)
    return supported[0] if supported else None
