"""Plain-Python exact searches, each checked against its CP-SAT twin in `dreamhome.solver`.

They import no ortools: a query that a few hundred thousand Python steps prove exactly answers
in a fraction of the time CP-SAT takes to load and solve, and the CP-SAT model stays the
independent check (tests, `--engine cpsat`, `--check`).
"""
