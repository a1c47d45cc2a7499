"""The players above the rules of play: the `Bot` base class (`bot`), the packaged bots (`bots`:
random, greedy, solver), the levels (`roster`, `easy_bot`, `hard_bot`), the hints a person is
offered (`hints`), the review's evaluation of a decision (`evaluation`) and the one look-ahead
they all value options by (`lookahead`).

Each reads the game through `dreamhome.game`'s public API (an observation and the legal
actions, or a copy of the state for a look-ahead); `dreamhome.game` never imports this package.
Import from the modules; this package imports nothing itself.
"""
