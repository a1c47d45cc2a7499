"""Games played by seats: a game between bots (`play_game`), the seats of a table with people
at it (`make_seats`, `bot_turn`), and an unfinished record continued with its bots
(`resume_record`).

Above the rules of play: the game (`dreamhome.game`) deals, checks and records; this module
builds the bots by name (`players.roster.make_bot`) and asks them for their decisions. A game's
record and its replay are `dreamhome.game.record`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import Action
from dreamhome.game.record import GameResult, open_unfinished, replay_unfinished
from dreamhome.game.state import GameState
from dreamhome.players.bot import Bot
from dreamhome.players.roster import make_bot
from dreamhome.ruleset import Ruleset

HUMAN = "human"
"""The seat name of a person at the table (dreamhome.terminal.seat): no bot, the record's actions."""


def play_game(rules: Ruleset, players: int, bots: list[str], seed: int, first_player: int | None = None) -> GameResult:
    """A whole game between bots named as `make_bot` reads them, one a seat, from `seed`."""
    if len(bots) != players:
        raise DreamhomeError(f"--bots names {len(bots)} bot(s) for {players} players; give one per seat")
    seats = [make_bot(name, seed, i) for i, name in enumerate(bots)]
    state = GameState(rules, players, seed, first_player)
    while not state.is_terminal():
        state.apply_action(bot_turn(state, seats[state.current_player()]))
    return GameResult(state, tuple(bots))


def make_seats(bots: list[str] | tuple[str, ...], seed: int) -> list[Bot | None]:
    """One bot per seat, seeded from the game seed and the seat (`make_bot`); None for a human."""
    return [None if name == HUMAN else make_bot(name, seed, i) for i, name in enumerate(bots)]


def bot_turn(state: GameState, seat: Bot) -> Action:
    """The bot's decision for the player to act (its random stream moves on)."""
    return seat.choose(state.observation(lookahead=seat.looks_ahead), state.legal_actions())


@dataclass(frozen=True)
class Resumed:
    """An unfinished game read back from its record: the state where it stopped, the seat names,
    and the bots, whose random streams and plans are where they were when it was saved."""

    state: GameState
    bots: tuple[str, ...]
    seats: tuple[Bot | None, ...]


def resume_record(data: Any, source: str = "record") -> Resumed:
    """Continue an unfinished record (`"finished": false`): the game is replayed from its seed,
    each bot choosing again at each of its decisions (so its random stream and its plan move on
    exactly as in the game that was saved), every event checked as `replay_record` does, and a
    bot's choice that differs from the record's is refused. A game resumed this way ends as the
    uninterrupted game would with the same inputs."""
    opened = open_unfinished(data, source)
    seats = make_seats(opened.bots, opened.state.seed)

    def same_choice(state: GameState, action: Action, index: int) -> None:
        seat = seats[state.current_player()]
        if seat is None:
            return
        mine = bot_turn(state, seat)
        if mine != action:
            raise DreamhomeError(
                f"{source}: event {index}: the {seat.name} bot at seat {state.current_player()} plays "
                f"'{state.action_text(mine)}', the record says '{opened.events[index].get('text', '?')}'"
            )

    replay_unfinished(opened, data, source, same_choice)
    return Resumed(opened.state, opened.bots, tuple(seats))
