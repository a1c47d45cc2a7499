"""Dream Home for OpenSpiel (the `openspiel` extra): importing `dreamhome.openspiel.game`
registers `python_dream_home` with `pyspiel`; docs/openspiel.md says how to use it."""
