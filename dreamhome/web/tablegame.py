"""A game at the table as the server holds it in memory: its settings (each seat a person or a
bot, the names, the variant, the seed), the digests of its seats' keys, its state and bots, its
version, and the end-game comparison once over.

Why apart from its stored form (`gamefile`, issue 33): what a game is and how it is written down
change for different reasons. The endpoints, the views and the bots' mover work on this value;
only `gamefile` knows the JSON of a game file (its formats, its fields, every check a file read
back must pass), and only `store` knows where the files lie.

Why seat keys: the game's id is public (the watch link, the front page's list), so the id alone
may only watch. A person's seat acts with its key (`Game.seat_of`: the digest of the key given
compared with `hmac.compare_digest`); a key is `secrets.token_urlsafe(KEY_BYTES)`, 128 random bits
or more, and only its SHA-256 is kept (`key_digest`).

Why a loaded game's bots are resumed, not made anew: a bot's random stream and plan move on at
each of its decisions, so bots made again from the seed would play differently after a restart.
Before a loaded game's bots move again, the game is replayed from its seed with each bot
choosing again at its own decisions (`playing.resume_record`), which leaves every bot exactly
where it was: a game interrupted by a restart ends as the same game played without one.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import threading
from dataclasses import dataclass, field, replace
from typing import Any

from dreamhome.errors import DreamhomeError
from dreamhome.game.phases import Phase
from dreamhome.game.record import GameResult
from dreamhome.game.state import GameState
from dreamhome.house import House
from dreamhome.players.bot import Bot
from dreamhome.players.playing import HUMAN, resume_record
from dreamhome.players.roster import make_bot
from dreamhome.ruleset import Ruleset
from dreamhome.web.errors import ForbiddenError, GameNotFoundError
from dreamhome.web.settings import PERSON, Settings, seed_of

KEY_BYTES = 16
"""Random bytes of a seat's key (`secrets.token_urlsafe`): 128 bits."""
GAME_ID = re.compile(r"[A-Za-z0-9_-]{22}")
"""What `secrets.token_urlsafe(16)` makes (128 random bits); nothing else names a game."""
log = logging.getLogger("dreamhome.web")


def key_digest(key: str) -> str:
    """What the game file keeps of a seat's key: its SHA-256, hex. A key read from JSON may hold
    a lone surrogate (`"\\ud800"`), which strict UTF-8 cannot encode: it is hashed as it came
    (`surrogatepass`), so it is a wrong key like any other (403), never a server error."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def check_game_id(game_id: str) -> str:
    """The id itself if it is one the server could have made, else `GameNotFoundError` (no path is built)."""
    if not isinstance(game_id, str) or GAME_ID.fullmatch(game_id) is None:
        raise GameNotFoundError("no such game")
    return game_id


@dataclass
class Game:
    """One game in play: its settings, the digests of its seats' keys, its state and bots, and
    the end-game comparison once over."""

    id: str
    settings: Settings
    keys: tuple[str | None, ...]  # per seat: the SHA-256 of a person's key; None for a bot (or a watch-only seat)
    state: GameState
    bots: dict[int, Bot] | None  # None: a loaded game's bots, resumed when they next move
    end_houses: list[House] | None = None  # each house with the piles when the end game began
    best: list[dict[str, Any]] | None = None  # best_final_score per house, once computed
    lock: threading.Lock = field(default_factory=threading.Lock)
    final_lock: threading.Lock = field(default_factory=threading.Lock)  # the end comparison's, apart from `lock`
    saved: str = ""  # the text last stored: what a change that cannot be stored goes back to
    advancing: bool = False  # a thread is moving the bots (`bots.BotMover`), one step at a time
    undone: int = 0  # events taken back by undos over the game's life (`version`)
    rematch: str | None = None  # the id of the game this one's Rematch started, once started

    @property
    def version(self) -> int:
        """What a page knows the game by: it grows at every stored change, an undo included.
        The number of events alone would not do: a take undone and another take made leaves as
        many events as before, and a page that saw the first would act on the second's list.
        `len(events) + 2 * undone` grows by the events an act adds, and by the events an undo
        removes (each removes k and adds k to `undone`); with no undo it is the number of events,
        as pages and tests have always read it. A rematch started adds one (it is set once, on a
        game over), so the pages of the finished game are told and offer their seats in it."""
        return len(self.state.events) + 2 * self.undone + (self.rematch is not None)

    @property
    def rules(self) -> Ruleset:
        return self.state.rules

    def seat_of(self, seat: Any, key: Any) -> int:
        """`seat` if `key` is its key (compared in constant time), else `ForbiddenError`."""
        ok = type(seat) is int and 0 <= seat < self.state.n and isinstance(key, str) and 0 < len(key) <= 200
        stored = self.keys[seat] if ok else None
        given = key_digest(key) if ok else ""
        if not hmac.compare_digest(given, stored or "-") or stored is None:
            raise ForbiddenError("this link does not act for that seat (a wrong or missing seat key)")
        return int(seat)

    def to_move(self) -> int | None:
        """The seat whose decision it is, None once the game is over."""
        return None if self.state.is_terminal() else self.state.current_player()

    def is_person(self, seat: int) -> bool:
        return self.settings.seats[seat] == PERSON

    def bot_to_move(self) -> bool:
        seat = self.to_move()
        return seat is not None and not self.is_person(seat)

    def rematch_settings(self) -> Settings:
        """The settings of this game's rematch: the same seats, names and variant, a new seed
        drawn as a start request without one draws it (`DRAWN_SEED_BITS`)."""
        return replace(self.settings, seed=seed_of(None, stored=False))

    def set_key(self, seat: int, key: str) -> None:
        """Give the person's `seat` the key `key` (its digest kept): a rematch's seat, claimed."""
        if not self.is_person(seat):
            raise ForbiddenError("that seat is no person's")
        self.keys = tuple(key_digest(key) if p == seat else k for p, k in enumerate(self.keys))

    def note_end(self) -> None:
        """END-ORDER: keep each house as the end game starts (before any helper), for `optimize`."""
        if self.end_houses is None and self.state.phase in (Phase.END, Phase.DONE):
            self.end_houses = [self.state.house_with_piles(p) for p in range(self.state.n)]

    def bot_step(self) -> None:
        """One decision of the bot to move (its random stream and plan move on)."""
        if self.bots is None:
            self.bots = _resumed_bots(self)
        state = self.state
        bot = self.bots[state.current_player()]
        state.apply_action(bot.choose(state.observation(lookahead=bot.looks_ahead), state.legal_actions()))
        self.note_end()

    def record(self) -> dict[str, Any]:
        """The game's `dreamhome.record/2` (each person's seat named `PERSON`). It holds the seed,
        which decides the decks' order (SEE-1): answered only once the game is over."""
        return GameResult(self.state, tuple(self.settings.seat_names()), self.settings.names or None).record()

    def _seat_summary(self, seat: int) -> dict[str, Any]:
        """A seat as the front page lists it: its kind, and its person's name if one was given."""
        given = self.settings.name_of(seat)
        return {"seat": seat, "kind": self.settings.seats[seat], **({"name": given} if given else {})}

    def is_rematch_of(self, other: Game) -> bool:
        """Whether this game could be `other`'s rematch: the same seats, names and variant
        (`rematch_settings`). A seat's key is given through `other` only to such a game."""
        mine, theirs = self.settings, other.settings
        return (mine.seats, mine.names, mine.variant) == (theirs.seats, theirs.names, theirs.variant)

    def summary(self) -> dict[str, Any]:
        """The game as the front page lists it: public facts only, never a key."""
        state, rules = self.state, self.rules
        return {
            "game": self.id,
            "seats": [self._seat_summary(p) for p in range(self.state.n)],
            "round": min(state.round, rules.game.rounds),  # the engine counts one past the last round
            "rounds": rules.game.rounds,
            "to_move": self.to_move(),
            "over": state.is_terminal(),
            "variant": self.settings.variant,
            "players": state.n,
        }


def new_bots(settings: Settings) -> dict[int, Bot]:
    return {p: make_bot(name, settings.seed, p) for p, name in enumerate(settings.seats) if name != PERSON}


def _resumed_bots(game: Game) -> dict[int, Bot]:
    """The bots of a loaded game where they were when it was saved: the game replayed from its
    seed, each bot choosing again at its own decisions (`resume_record`, which also checks that
    each bot's choice is the one saved). A game whose bots would now play otherwise (saved by a
    server that made its bots anew after a restart) keeps bots made from the seed, as then."""
    settings = game.settings
    seats = tuple(HUMAN if name == PERSON else name for name in settings.seats)
    try:
        resumed = resume_record(GameResult(game.state, seats).record(), f"game {game.id}")
    except DreamhomeError as exc:
        log.warning("game %s: bots made anew from the seed (%s)", game.id, exc)
        return new_bots(settings)
    return {p: seat for p, seat in enumerate(resumed.seats) if seat is not None}


__all__ = ["GAME_ID", "KEY_BYTES", "Game", "check_game_id", "key_digest", "new_bots"]
