"""Queries over the house graph: legal placements now, CP-SAT models later."""
