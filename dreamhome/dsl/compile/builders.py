"""The builders of the one-of-a-kind blocks: `game`, `board`, `roof_scoring` and the options.
Each checks its block's values and returns its typed record, or None with every problem
reported. The cards have their own builders (`cards`)."""

from __future__ import annotations

from collections.abc import Mapping

from dreamhome.board import Board, Floor
from dreamhome.board import build_board as board_graph
from dreamhome.dsl.ast import Field, OptionDecl, Pos
from dreamhome.dsl.compile.checks import require, suggest
from dreamhome.dsl.compile.declarations import Merged, as_int, as_pair, as_span
from dreamhome.dsl.compile.diagnostics import Diagnostics
from dreamhome.dsl.playability import MAX_SPACES, board_size_problem
from dreamhome.ruleset import GameSpec, RoofScoring, SourceRef
from dreamhome.vocabulary import FLOOR_KINDS, OPTIONS, ROOF_SCORING_FIELDS

Provenance = dict[tuple[str, str], SourceRef]
"""Where each value was declared and how sure it is: (id, field) → its source."""


def note(ident: str, merged: Merged, provenance: Provenance) -> None:
    """Record where each value was declared and how sure it is (the provenance marks of docs/language.md)."""
    for name, fld in merged.fields.items():
        provenance[(ident, name)] = SourceRef(fld.pos.file, fld.pos.line, fld.pos.column, fld.provenance or "rulebook")


def build_game(report: Diagnostics, game_decl: Merged | None, path: str, provenance: Provenance) -> GameSpec | None:
    """The `game` block: players, rounds and the deal (SETUP-1, ROUND-6, COMP-1, COMP-3)."""
    if game_decl is None:
        report.error(Pos(path, 1, 1), "no 'game' block: the rules must say players, rounds and deal")
        return None
    if not require(report, game_decl):
        return None
    f = game_decl.fields
    lo, hi = as_pair(f["players"])
    rounds = as_int(f["rounds"])
    dr, dres = as_pair(f["deal"])
    if lo < 1 or hi < lo:
        report.error(f["players"].pos, f"players {lo}..{hi} is not a range of player counts")
    if rounds < 1:
        report.error(f["rounds"].pos, "rounds must be at least 1")
    if dr < 0 or dres < 0:
        report.error(f["deal"].pos, "the deal cannot be negative")
    discard = as_pair(f["discard"]) if "discard" in f else None
    if discard is not None and (discard[0] < 1 or discard[1] < discard[0]):
        report.error(f["discard"].pos, f"discard players {discard[0]}..{discard[1]} is not a range of player counts")
    game = GameSpec(
        game_decl.id or "game", game_decl.name or game_decl.id or "game", lo, hi, rounds, dr, dres, discard_players=discard
    )
    note("game", game_decl, provenance)
    return game


def build_board(report: Diagnostics, board_decl: Merged | None, path: str) -> Board | None:
    """The `board` block: floors top to bottom and the roof pile, as a graph (COMP-2)."""
    if board_decl is None:
        report.error(Pos(path, 1, 1), "no 'board' block: the rules must declare the floors")
        return None
    floors: list[Floor] = []
    roof_pile = None
    for name, fld in board_decl.fields.items():
        if name.startswith("floor:"):
            kind, lo, hi = as_span(fld)
            if kind not in FLOOR_KINDS:
                report.error(fld.pos, f"unknown floor kind '{kind}'; expected one of {', '.join(FLOOR_KINDS)}")
            floors.append(Floor(name.split(":", 1)[1], kind, columns(report, fld, lo, hi)))
    fields = board_decl.fields
    if "roof_pile" in fields:
        under, lo, hi = as_span(fields["roof_pile"])
        if under not in {fl.name for fl in floors}:
            report.error(fields["roof_pile"].pos, f"unknown floor '{under}'" + suggest(under, [fl.name for fl in floors]))
        roof_pile = (under, columns(report, fields["roof_pile"], lo, hi))
    if not floors:
        report.error(board_decl.pos, "the board has no floors")
        return None
    too_big = board_size_problem(sum(len(fl.columns) for fl in floors))
    if too_big is not None:
        report.error(board_decl.pos, too_big)
        return None
    return board_graph(floors, roof_pile)


def columns(report: Diagnostics, fld: Field, lo: int, hi: int) -> tuple[int, ...]:
    """`columns LO..HI` (COMP-2): a range from 0 up, at most MAX_SPACES wide, checked before a
    column is made (`columns 0..1000000` must not build a million columns to refuse them)."""
    if lo < 0 or hi < lo:
        report.error(fld.pos, f"columns {lo}..{hi} is not a range (write LO..HI, 0 ≤ LO ≤ HI)")
        return ()
    if hi - lo + 1 > MAX_SPACES:
        report.error(
            fld.pos,
            f"columns {lo}..{hi} is {hi - lo + 1:,} columns, more than a house can hold: at most {MAX_SPACES:,} spaces",
        )
        return ()
    return tuple(range(lo, hi + 1))


def build_roof_scoring(report: Diagnostics, rs_decl: Merged | None, path: str, provenance: Provenance) -> RoofScoring | None:
    """The `roof_scoring` block: what complete roofs and windows score (SCORE-ROOF)."""
    if rs_decl is None:
        report.error(Pos(path, 1, 1), "no 'roof_scoring' block")
        return None
    for name, fld in rs_decl.fields.items():
        if name not in ROOF_SCORING_FIELDS:
            report.error(
                fld.pos,
                f"unknown roof scoring field '{name}'; expected one of "
                + ", ".join(ROOF_SCORING_FIELDS)
                + suggest(name, ROOF_SCORING_FIELDS),
            )
    if not require(report, rs_decl):
        return None
    vals = {k: as_int(rs_decl.fields[k]) for k in ROOF_SCORING_FIELDS}
    if vals["size"] < 1:
        report.error(rs_decl.fields["size"].pos, "a complete roof has at least 1 card")
    for k in ("uniform", "mixed", "window"):
        if vals[k] < 0:
            # Like points; the closed form of SCORE-ROOF (engine.roof.best_roof_points) takes
            # as many windows as it can, which a negative window would turn into a loss.
            report.error(rs_decl.fields[k].pos, f"roof scoring '{k}' cannot be negative (SCORE-ROOF: like points)")
    note("roof_scoring", rs_decl, provenance)
    return RoofScoring(**vals)


def build_options(report: Diagnostics, declared: Mapping[str, OptionDecl]) -> dict[str, str]:
    """Options over their defaults (docs/rules.md, Options); only the engine's options and values (vocabulary.OPTIONS)."""
    options = {name: values[0] for name, values in OPTIONS.items()}
    for name, decl in declared.items():
        if name not in OPTIONS:
            report.error(decl.pos, f"unknown option '{name}'; expected one of {', '.join(OPTIONS)}" + suggest(name, OPTIONS))
        elif str(decl.value) not in OPTIONS[name]:
            report.error(decl.pos, f"option {name} cannot be '{decl.value}'; expected one of " + ", ".join(OPTIONS[name]))
        else:
            options[name] = str(decl.value)
    return options
