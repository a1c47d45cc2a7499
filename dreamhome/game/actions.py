"""Game actions: small frozen values with a readable str() (OpenSpiel-style).

Cells are named as in FORMATS.md (`top/2`), columns are track columns (0–4),
cards are ids of the rules in use; actions never carry objects of the engine,
so `str(action)` reads as a player would say it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Action:
    def to_dict(self) -> dict:
        return {"type": type(self).__name__, **asdict(self)}

    def text(self) -> str:  # overridden
        return repr(self)

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class DiscardColumn(Action):
    """ROUND-1: the first player discards both cards of a column (2–3 players)."""

    column: int

    def text(self):
        return f"discard column {self.column}"


@dataclass(frozen=True)
class UseJackhammer(Action):
    """TOOL-JACKHAMMER: take the room card of a column at the round's start."""

    column: int

    def text(self):
        return f"jackhammer: take track {self.column}"


@dataclass(frozen=True)
class PassTool(Action):
    def text(self):
        return "pass tool"


@dataclass(frozen=True)
class UseDrill(Action):
    """TOOL-DRILL: swap a face-up card of the house with the track's room card."""

    cell: str
    column: int
    face_down: bool = False

    def text(self):
        return f"drill: swap {self.cell} with track {self.column}" + (" face down" if self.face_down else "")


@dataclass(frozen=True)
class UseMixer(Action):
    """TOOL-MIXER: swap two room cards on the track."""

    a: int
    b: int

    def text(self):
        return f"mixer: swap track {self.a} and {self.b}"


@dataclass(frozen=True)
class TakeColumn(Action):
    column: int

    def text(self):
        return f"take column {self.column}"


@dataclass(frozen=True)
class PlaceRoom(Action):
    """PLACE-*: put the room card in hand on a cell, face up or face down."""

    room: str
    cell: str
    face_down: bool = False

    def text(self):
        return f"place {self.room} at {self.cell}" + (" face down" if self.face_down else "")


@dataclass(frozen=True)
class PlaceScaffolding(Action):
    cell: str

    def text(self):
        return f"scaffolding at {self.cell}"


@dataclass(frozen=True)
class DeferScaffolding(Action):
    def text(self):
        return "scaffolding after the room card"


@dataclass(frozen=True)
class PlaceToken(Action):
    """RES-FURN: the furnishing's token on a card of a room of its type."""

    token: str
    cell: str

    def text(self):
        return f"token {self.token} on {self.cell}"


@dataclass(frozen=True)
class SupplierSwap(Action):
    helper: str
    cell: str
    room: str
    face_down: bool = False

    def text(self):
        return f"supplier: {self.cell} takes {self.room} from the discard pile" + (" face down" if self.face_down else "")


@dataclass(frozen=True)
class HandymanSwap(Action):
    helper: str
    a: str
    b: str

    def text(self):
        return f"handyman: swap {self.a} {self.b}"


@dataclass(frozen=True)
class RooferTake(Action):
    helper: str
    color: str
    window: bool

    def text(self):
        return f"roofer: take {self.color} roof" + (" with window" if self.window else "")


@dataclass(frozen=True)
class EndTurn(Action):
    """END-ORDER: this player is done with the end-game helpers."""

    def text(self):
        return "done"


ACTION_TYPES = {
    cls.__name__: cls
    for cls in (
        DiscardColumn,
        UseJackhammer,
        PassTool,
        UseDrill,
        UseMixer,
        TakeColumn,
        PlaceRoom,
        PlaceScaffolding,
        DeferScaffolding,
        PlaceToken,
        SupplierSwap,
        HandymanSwap,
        RooferTake,
        EndTurn,
    )
}


def action_from_dict(data: dict) -> Action:
    data = dict(data)
    cls = ACTION_TYPES.get(data.pop("type", None))
    if cls is None:
        raise ValueError(f"unknown action type in {data}")
    return cls(**data)
