"""The terminal front end, beside the browser table (`dreamhome.web`): a person's seat at this
terminal (`seat`: `play --bots human,…`, docs/seat.md). Import from the module; this package
imports nothing itself.
"""
