"""Game actions: small frozen values with a readable text (OpenSpiel-style).

Cells are named as in docs/formats.md (`top/2`), columns are track columns (0–4),
cards are ids of the rules in use; actions never carry objects of the engine.
Each action is named by what it does, not by the card of the base game that
does it: `text(card)` takes the name of the card used (from the rules file,
`Ruleset.held(id).name`), so a rules file that calls its swap helper "Plumber"
reads "Plumber: top/1 takes …" in records and logs. `str(action)` names the
role instead, for messages where no card is known.
"""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from dreamhome.engine.endgame import END_ROLE_SPECS, END_ROLES, FLOOR_SWAP, HOUSE_SWAP, ROOF_DISCARD_TAKE, ROOM_DISCARD_SWAP
from dreamhome.game.roles import SCAFFOLD, SWAP_TRACK_ROOMS, SWAP_WITH_TRACK, TAKE_ROOM_AT_ROUND_START
from dreamhome.ruleset import Ruleset

if TYPE_CHECKING:
    from dreamhome.solver.optimize import EndAction


@dataclass(frozen=True)
class Action:
    """A decision of the player to act. `role` is the helper or tool role it uses, if any."""

    role: ClassVar[str | None] = None
    rule: ClassVar[str] = ""  # the rule id (docs/rules.md) the action plays, named when it is refused
    looks_ahead: ClassVar[bool] = False  # an observation carries the house after it (`Observation.after`)

    def to_dict(self) -> dict[str, Any]:
        return {"type": type(self).__name__, **asdict(self)}

    def text(self, card: str = "") -> str:
        """The action as a player says it; `card` is the name of the card used (if any)."""
        return repr(self)

    def __str__(self) -> str:
        return self.text((self.role or "").replace("_", " "))


def _down(face_down: bool) -> str:
    return " face down" if face_down else ""


@dataclass(frozen=True)
class DiscardColumn(Action):
    """ROUND-1: the first player discards both cards of a column (2–3 players)."""

    rule: ClassVar[str] = "ROUND-1"

    column: int

    def text(self, card: str = "") -> str:
        return f"discard column {self.column}"


@dataclass(frozen=True)
class TakeRoomAtRoundStart(Action):
    """TOOL-JACKHAMMER: a tool takes the room card of a column at the round's start."""

    role: ClassVar[str | None] = TAKE_ROOM_AT_ROUND_START
    rule: ClassVar[str] = "TOOL-JACKHAMMER"
    column: int

    def text(self, card: str = "") -> str:
        return f"{card}: take track {self.column}"


@dataclass(frozen=True)
class PassTool(Action):
    """TOOL-JACKHAMMER: keep the round-start tool for a later round."""

    rule: ClassVar[str] = "TOOL-JACKHAMMER"

    def text(self, card: str = "") -> str:
        return "pass tool"


@dataclass(frozen=True)
class SwapWithTrack(Action):
    """TOOL-DRILL: swap a face-up card of the house with a room card of the track."""

    role: ClassVar[str | None] = SWAP_WITH_TRACK
    rule: ClassVar[str] = "TOOL-DRILL"
    looks_ahead: ClassVar[bool] = True
    cell: str
    column: int
    face_down: bool = False

    def text(self, card: str = "") -> str:
        return f"{card}: swap {self.cell} with track {self.column}{_down(self.face_down)}"


@dataclass(frozen=True)
class SwapTrackRooms(Action):
    """TOOL-MIXER: swap two room cards on the track."""

    role: ClassVar[str | None] = SWAP_TRACK_ROOMS
    rule: ClassVar[str] = "TOOL-MIXER"
    looks_ahead: ClassVar[bool] = True
    a: int
    b: int

    def text(self, card: str = "") -> str:
        return f"{card}: swap track {self.a} and {self.b}"


@dataclass(frozen=True)
class TakeColumn(Action):
    """ROUND-3: take both cards of a column."""

    rule: ClassVar[str] = "ROUND-COLUMN"

    column: int

    def text(self, card: str = "") -> str:
        return f"take column {self.column}"


@dataclass(frozen=True)
class PlaceRoom(Action):
    """PLACE-*: put the room card in hand on a cell, face up or face down."""

    rule: ClassVar[str] = "PLACE-A"

    room: str
    cell: str
    face_down: bool = False

    def text(self, card: str = "") -> str:
        return f"place {self.room} at {self.cell}{_down(self.face_down)}"


@dataclass(frozen=True)
class PlaceScaffold(Action):
    """TOOL-SCAFFOLDING: the scaffold tool on a free supported space."""

    role: ClassVar[str | None] = SCAFFOLD
    rule: ClassVar[str] = "TOOL-SCAFFOLDING"
    looks_ahead: ClassVar[bool] = True
    cell: str

    def text(self, card: str = "") -> str:
        return f"{card} at {self.cell}"


@dataclass(frozen=True)
class DeferScaffold(Action):
    """TOOL-SCAFFOLDING: place the room card first, the scaffold tool after it."""

    role: ClassVar[str | None] = SCAFFOLD
    rule: ClassVar[str] = "TOOL-SCAFFOLDING"
    looks_ahead: ClassVar[bool] = True

    def text(self, card: str = "") -> str:
        return f"{card} after the room card"


@dataclass(frozen=True)
class PlaceToken(Action):
    """RES-FURN: the furnishing's token on a card of a room of its type."""

    rule: ClassVar[str] = "FURN-TYPE"

    token: str
    cell: str

    def text(self, card: str = "") -> str:
        return f"token {self.token} on {self.cell}"


@dataclass(frozen=True)
class HelperAction(Action):
    """A use of an end-game role (END-ORDER, TOOL-TIMING): `helper` is the card that gives it.

    `from_step` reads the step of an end-game plan (`solver.optimize.EndAction`, whose `kind`
    is the class's role) as the game's action: the solver bot and the hints play plans through it."""

    role: ClassVar[str | None] = None
    looks_ahead: ClassVar[bool] = True
    helper: str

    @classmethod
    def from_step(cls, rules: Ruleset, step: EndAction) -> HelperAction:
        raise NotImplementedError


@dataclass(frozen=True)
class SwapWithRoomDiscard(HelperAction):
    """END-SUPPLIER: a house card swapped with a card of the room discard pile."""

    role: ClassVar[str | None] = ROOM_DISCARD_SWAP
    rule: ClassVar[str] = "END-SUPPLIER"
    cell: str
    room: str
    face_down: bool = False

    def text(self, card: str = "") -> str:
        return f"{card}: {self.cell} takes {self.room} from the discard pile{_down(self.face_down)}"

    @classmethod
    def from_step(cls, rules: Ruleset, step: EndAction) -> HelperAction:
        assert step.incoming is not None  # a room-discard swap names the card it takes
        return cls(step.helper, rules.board.cells[step.cells[0]], step.incoming, step.face_down)


@dataclass(frozen=True)
class PairSwap(HelperAction):
    """A swap of two house cards with their tokens, by a role of `endgame.SWAP_ROLES` (its pairs
    rule says which two: `endgame.pair_ok`). One handler and one lister serve every subclass."""

    a: str
    b: str

    def text(self, card: str = "") -> str:
        return f"{card}: swap {self.a} {self.b}"

    @classmethod
    def from_step(cls, rules: Ruleset, step: EndAction) -> HelperAction:
        names = rules.board.cells
        return cls(step.helper, names[step.cells[0]], names[step.cells[1]])


@dataclass(frozen=True)
class SwapInHouse(PairSwap):
    """END-HANDYMAN: two cards of the house swapped, with their tokens."""

    role: ClassVar[str | None] = HOUSE_SWAP
    rule: ClassVar[str] = "END-HANDYMAN"


@dataclass(frozen=True)
class SwapInFloor(PairSwap):
    """END-FLOOR-SWAP: two cards of one floor swapped, with their tokens."""

    role: ClassVar[str | None] = FLOOR_SWAP
    rule: ClassVar[str] = "END-FLOOR-SWAP"

    def text(self, card: str = "") -> str:
        return f"{card}: swap {self.a} {self.b} (one floor)"


@dataclass(frozen=True)
class TakeFromRoofDiscard(HelperAction):
    """END-ROOFER: a roof card taken from the roof discard pile."""

    role: ClassVar[str | None] = ROOF_DISCARD_TAKE
    rule: ClassVar[str] = "END-ROOFER"
    color: str
    window: bool

    def text(self, card: str = "") -> str:
        return f"{card}: take {self.color} roof" + (" with window" if self.window else "")

    @classmethod
    def from_step(cls, rules: Ruleset, step: EndAction) -> HelperAction:
        assert step.roof is not None  # a roof take names the roof card (END-ROOFER)
        return cls(step.helper, rules.roofs[step.roof[0]].id, step.roof[1])


@dataclass(frozen=True)
class EndTurn(Action):
    """END-ORDER: this player is done with the end-game helpers."""

    rule: ClassVar[str] = "END-ORDER"

    def text(self, card: str = "") -> str:
        return "done"


ACTION_CLASSES: tuple[type[Action], ...] = (
    DiscardColumn,
    TakeRoomAtRoundStart,
    PassTool,
    SwapWithTrack,
    SwapTrackRooms,
    TakeColumn,
    PlaceRoom,
    PlaceScaffold,
    DeferScaffold,
    PlaceToken,
    SwapWithRoomDiscard,
    SwapInHouse,
    TakeFromRoofDiscard,
    EndTurn,
    SwapInFloor,
)
ACTION_TYPES: dict[str, type[Action]] = {cls.__name__: cls for cls in ACTION_CLASSES}


def _checked(classes: tuple[type[Action], ...]) -> tuple[type[Action], ...]:
    """Every action class names the rule it plays; every end-game role has exactly one class."""
    for cls in classes:
        if not cls.rule:
            raise RuntimeError(f"action class {cls.__name__} names no rule")
    roles = [cls.role for cls in classes if issubclass(cls, HelperAction)]
    if sorted(r for r in roles if r) != sorted(END_ROLES):
        raise RuntimeError(f"the end-game roles {END_ROLES} need one action class each, found {roles}")
    for cls in classes:
        spec = next((r for r in END_ROLE_SPECS if r.name == cls.role), None)
        if spec is not None and (spec.rule != cls.rule or (spec.pairs is not None) != issubclass(cls, PairSwap)):
            raise RuntimeError(
                f"{cls.__name__} disagrees with its end-game role {spec.name} (rule {spec.rule}, pairs {spec.pairs})"
            )
    return classes


# Derived from the classes (never written twice): the actions that use an end-game role, by role;
# the actions whose resulting house an observation carries (`Observation.after`); the rule each breaks.
END_ACTIONS: tuple[type[HelperAction], ...] = tuple(c for c in _checked(ACTION_CLASSES) if issubclass(c, HelperAction))
END_ACTION_OF_ROLE: dict[str, type[HelperAction]] = {str(c.role): c for c in END_ACTIONS}
LOOKAHEAD_ACTIONS: tuple[type[Action], ...] = tuple(c for c in ACTION_CLASSES if c.looks_ahead)
RULE_OF_ACTION: dict[type[Action], str] = {c: c.rule for c in ACTION_CLASSES}

# dreamhome.record/1 named the actions by the base game's cards; record/2 by what they do.
RECORD1_TYPES: dict[str, str] = {
    "UseJackhammer": TakeRoomAtRoundStart.__name__,
    "UseDrill": SwapWithTrack.__name__,
    "UseMixer": SwapTrackRooms.__name__,
    "SupplierSwap": SwapWithRoomDiscard.__name__,
    "HandymanSwap": SwapInHouse.__name__,
    "RooferTake": TakeFromRoofDiscard.__name__,
    "PlaceScaffolding": PlaceScaffold.__name__,
    "DeferScaffolding": DeferScaffold.__name__,
}
RECORD1_NOTES: dict[str, str] = {"scaffolding_discarded": "scaffold_discarded"}


def action_from_dict(data: Any) -> Action:
    """An action from its record form; ValueError (one line) for anything else: an unknown type,
    an unknown or missing field (named), a field of the wrong type (a bool is no number)."""
    if not isinstance(data, dict):
        raise ValueError(f"an action must be an object, got {type(data).__name__}")
    fields = dict(data)
    name = fields.pop("type", None)
    cls = ACTION_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"unknown action type in {data}")
    known = {f.name: f for f in dataclasses.fields(cls)}
    for key, value in fields.items():
        spec = known.get(key) if isinstance(key, str) else None
        if spec is None:
            raise ValueError(f"{cls.__name__} has no field {key!r} (its fields: {', '.join(known) or 'none'})")
        kind = _FIELD_TYPES[str(spec.type)]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ValueError(f"{cls.__name__}.{key} must be {kind.__name__}, got {value!r}")
    missing = [f.name for f in known.values() if f.name not in fields and f.default is dataclasses.MISSING]
    if missing:
        raise ValueError(f"{cls.__name__} needs the field {missing[0]!r}")
    return cls(**fields)


# The types of the actions' fields, as their annotations spell them (every field is one of these).
_FIELD_TYPES: dict[str, type] = {"int": int, "str": str, "bool": bool}
