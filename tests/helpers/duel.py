"""One 2-player game between two bots, scored for the first: the game `benchmarks/bench_levels.py`
measures the levels by and `tests/test_levels.py` checks the easy bot with (one copy, here: a
test never imports benchmarks/, the benchmark imports the tests' helpers)."""

from __future__ import annotations


def duel(args: tuple[str, str, int, int] | tuple[str, str, int, int, float]) -> float:
    """One 2-player game of bot `a` (in seat `seat`) against bot `b`: 1 for a win of `a`, ½ for a
    tie, 0 for a loss. (`bench_strength.play` seats four players; this is the 2-player game.)
    A fifth value is the easy bot's `greedy_share` for `a` (the tuning run, `--easy-shares`)."""
    from dreamhome.dsl.compiler import compile_rules
    from dreamhome.game.state import GameState
    from dreamhome.players.roster import make_bot

    a, b, seed, seat = args[:4]
    names = [b, b]
    names[seat] = a
    bots = [make_bot(n, seed, s) for s, n in enumerate(names)]
    if len(args) == 5:
        bots[seat].greedy_share = args[4]  # type: ignore[attr-defined]  # the easy bot's one knob
    state = GameState(compile_rules(), 2, seed)
    while not state.is_terminal():
        bot = bots[state.current_player()]
        state.apply_action(bot.choose(state.observation(lookahead=bot.looks_ahead), state.legal_actions()))
    winners = state.winners()
    return 0.0 if seat not in winners else 1.0 / len(winners)
