"""Every bot by name: the levels (`easy`, `medium`, `hard`), the packaged bots, OpenSpiel's
searches and `module:Class` bots of your own — one `make_bot` for every entry point that
takes a bot's name (`play --bots`, whatif and report, records, the browser table).

Its own module because the hard level's bot (`players.hard_bot`) builds on `players.bots`: the
table of levels can live neither there nor in `players.bots` without an import circle.

A level is a name for a bot class, resolved where the bot is made; a record keeps the name as
given (`medium`, not `solver`), since it says what the player chose. The medium level *is*
the solver bot (same class, same `name`, so the same random stream): `--bots medium` and
`--bots solver` play the same game for a seed.
"""

from __future__ import annotations

from dreamhome.errors import DreamhomeError
from dreamhome.players.bot import Bot
from dreamhome.players.bots import BOTS, SEARCH_BOTS, SolverBot
from dreamhome.players.bots import make_bot as _packaged_bot
from dreamhome.players.easy_bot import EasyBot
from dreamhome.players.hard_bot import HardBot
from dreamhome.seeds import check_seed

LEVELS: dict[str, type[Bot]] = {"easy": EasyBot, "medium": SolverBot, "hard": HardBot}
"""The levels, weakest first (issue 25; strength and time a decision in docs/PERFORMANCE.md)."""

BOT_NAMES: tuple[str, ...] = (*LEVELS, *BOTS)
"""Every packaged bot that needs no extra: the levels first, then random, greedy, solver."""

MENU_BOTS: tuple[str, ...] = tuple(name for name in BOT_NAMES if name in LEVELS or BOTS[name] not in LEVELS.values())
"""The bots a seat menu offers, each once: a bot that is also a level (the solver bot is the
medium level) is offered as its level only; its own name is still accepted (`BOT_NAMES`)."""


def make_bot(name: str, seed: int, seat: int) -> Bot:
    """The bot for one seat: a level, a packaged bot (`random`, `greedy`, `solver`), one of
    OpenSpiel's searches (`mcts@N`, `ismcts@N`, the `openspiel` extra) or `module:Class`.

    Built with the game seed and its seat, so its games replay. An unknown name is one
    `DreamhomeError` line listing the levels, since names come from command lines and records.
    A negative seed is refused (`seeds.check_seed`): a bot's seed is its game's, a whole number
    from 0 everywhere."""
    check_seed(seed, f"bot '{name}'")
    if name in LEVELS:
        return LEVELS[name](seed, seat)
    if ":" not in name and name.partition("@")[0] not in SEARCH_BOTS and name not in BOTS:
        raise DreamhomeError(
            f"unknown bot '{name}'; levels: {', '.join(LEVELS)}; other bots: "
            f"{', '.join((*BOTS, *SEARCH_BOTS))}, or module:Class for a bot of your own"
        )
    return _packaged_bot(name, seed, seat)
