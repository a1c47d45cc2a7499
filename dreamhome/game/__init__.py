"""The rules of play: a game as a state with its legal actions (OpenSpiel's model), what one
player may see of it, and the states and records written and read exactly.

Nothing here plays or shows: the bots, the levels, the hints and the look-ahead are
`dreamhome.players`, the terminal seat `dreamhome.terminal`, the texts of actions and events
`dreamhome.render`. Import from the modules (`dreamhome.game.state`, `.record`, …); this package
imports nothing itself, so `import dreamhome.game.actions` does not load the rest.
"""
