"""The game driver: a game as a state with its legal actions (OpenSpiel's model), the bots that
choose among them, and the records that replay a game exactly.

Import from the modules (`dreamhome.game.state`, `.bots`, `.record`, …); this package imports
nothing itself, so `import dreamhome.game.bots` does not load the rest.
"""
