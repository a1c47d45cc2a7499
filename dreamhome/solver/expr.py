"""Type aliases shared by the solver's CP-SAT models."""

from __future__ import annotations

from typing import TypeAlias

from ortools.sat.python import cp_model

Expr: TypeAlias = cp_model.LinearExpr | int
"""A linear expression over a model's variables (a variable is one), or a constant: a sum of no literals is 0."""

PairLits: TypeAlias = dict[tuple[int, int], cp_model.IntVar]
"""Boolean variables keyed by two indexes: (cell, cell) for moves, (cell, class) for cards that arrive."""

__all__ = ["Expr", "PairLits"]
