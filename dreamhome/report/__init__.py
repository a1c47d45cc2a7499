"""The balance report (`dreamhome report`, issue 24): seats, skill, cards, shape, assumptions.

Small modules, one job each: `plan` (which games to play), `restricted` (a bot that never
takes a column holding one card type), `play` (a chunk of games summarised for the report),
`run` (the games through the what-if engine's store and executors), `stats` (intervals, paired
by seed), `figures` (plots), `document` (report.json and the text summary) and `html`.
"""
