"""The games of `dreamhome serve`: one JSON file per game, named by an unguessable id.

Why a file per game, rewritten whole after each decision (`fileio.write_atomic`): a server
stopped at any moment leaves each game as it was before or after the last click, never half
written, and a new server over the same folder carries on. Why the id is checked against
`GAME_ID` before any path is built: the id comes from the browser, and only a name the
server could have made itself (`secrets.token_urlsafe`) may ever become a file name, so no
request can open another path or reach another game's file.

A game file holds the settings (players, the person's seat, the bots, the variant, the seed),
`GameState.to_dict()` (every event so far, the decks included: the file stays on the server)
and, once the game is over, the end-game comparison of `best_final_score`.

Why a loaded game's bots are resumed, not made anew: a bot's random stream and plan move on at
each of its decisions, so bots made again from the seed would play differently after a restart.
Before a loaded game's bots move again, the game is replayed from its seed with each bot
choosing again at its own decisions (`record.resume_record`), which leaves every bot exactly
where it was: a game interrupted by a restart ends as the same game played without one.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from dreamhome.errors import DreamhomeError
from dreamhome.game.bots import Bot, make_bot
from dreamhome.game.phases import Phase
from dreamhome.game.record import HUMAN, GameResult, resume_record
from dreamhome.game.state import GameState
from dreamhome.house import House, house_from_json, house_to_json
from dreamhome.ruleset import Ruleset

FORMAT = "dreamhome.webgame/1"
GAME_ID = re.compile(r"[A-Za-z0-9_-]{22}")
"""What `secrets.token_urlsafe(16)` makes (128 random bits); nothing else names a game."""
BOT_NAMES = ("random", "greedy", "solver")
"""The packaged bots a seat may get; `module:Class` bots are never taken from a request."""
PERSON = "person"
"""The seat's name in the game record (the replay page shows it beside the bots)."""
MAX_SEED = 2**31 - 1
log = logging.getLogger("dreamhome.web")


class RequestError(DreamhomeError):
    """Bad input from the browser: answered with 400 and this one line."""


class GameNotFoundError(DreamhomeError):
    """No game of that id (or an id no server could have made): answered with 404."""


class ConflictError(DreamhomeError):
    """A request that does not fit the game now (not the person's turn, a stale page): 409."""


@lru_cache(maxsize=16)
def rules_for(variant: str) -> Ruleset:
    """The packaged base rules with `variant` on ("" for none); compiled once per variant."""
    from dreamhome.dsl.compiler import compile_rules

    return compile_rules(None, [variant] if variant else [])


def variant_catalogue() -> dict[str, str]:
    """VAR-*: the variants a game may use: the base rules' `variant` blocks and the packaged
    files of rules/variants/, each with its title (as `Ruleset.variants_available` lists them)."""
    return dict(rules_for("").variants_available)


def check_game_id(game_id: str) -> str:
    """The id itself if it is one the server could have made, else `GameNotFoundError` (no path is built)."""
    if not isinstance(game_id, str) or GAME_ID.fullmatch(game_id) is None:
        raise GameNotFoundError("no such game")
    return game_id


@dataclass(frozen=True)
class Settings:
    """What a person chooses when starting a game (checked by `Settings.parse`)."""

    players: int
    bots: tuple[str, ...]  # one per other seat, in seat order after the person's
    variant: str
    seed: int
    seat: int = 0

    @classmethod
    def parse(cls, data: Any) -> Settings:
        """The settings of a start request, every field checked (`RequestError`, one line)."""
        if not isinstance(data, dict):
            raise RequestError("the request body must be a JSON object")
        unknown = sorted(set(data) - {"players", "bots", "variant", "seed"})
        if unknown:
            raise RequestError(f"unknown field {unknown[0]!r} (expected players, bots, variant, seed)")
        rules = rules_for("")
        players = data.get("players", 2)
        if type(players) is not int or not rules.game.min_players <= players <= rules.game.max_players:
            raise RequestError(f"players must be a whole number from {rules.game.min_players} to {rules.game.max_players}")
        bots = data.get("bots", ["greedy"] * (players - 1))
        if not isinstance(bots, list) or len(bots) != players - 1:
            raise RequestError(f"bots must be a list of {players - 1} bot name(s), one per other seat")
        for name in bots:
            if name not in BOT_NAMES:
                raise RequestError(f"unknown bot {str(name)[:40]!r}; known bots: {', '.join(BOT_NAMES)}")
        variant = data.get("variant", "")
        variant = "" if variant is None else variant
        if not isinstance(variant, str) or (variant and variant not in variant_catalogue()):
            raise RequestError(f"unknown variant {str(variant)[:40]!r}; known: {', '.join(variant_catalogue())}")
        seed = data.get("seed", 0)
        if type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise RequestError(f"seed must be a whole number from 0 to {MAX_SEED}")
        return cls(players, tuple(bots), variant, seed)

    def seat_names(self) -> list[str]:
        names = list(self.bots)
        names.insert(self.seat, PERSON)
        return names


@dataclass
class Game:
    """One game in play: its settings, state, bots, and the end-game comparison once over."""

    id: str
    settings: Settings
    state: GameState
    bots: dict[int, Bot] | None  # None: a loaded game's bots, resumed when they next move
    end_houses: list[House] | None = None  # each house with the piles when the end game began
    best: list[dict[str, Any]] | None = None  # best_final_score per house, once computed
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def rules(self) -> Ruleset:
        return self.state.rules

    def to_json(self) -> dict[str, Any]:
        s = self.settings
        rules = self.rules
        return {
            "format": FORMAT,
            "settings": {"players": s.players, "bots": list(s.bots), "variant": s.variant, "seed": s.seed, "seat": s.seat},
            "state": self.state.to_dict(),
            "end_houses": None if self.end_houses is None else [house_to_json(rules, h) for h in self.end_houses],
            "best": self.best,
        }

    def person_to_act(self) -> bool:
        return not self.state.is_terminal() and self.state.current_player() == self.settings.seat

    def note_end(self) -> None:
        """END-ORDER: keep each house as the end game starts (before any helper), for `optimize`."""
        if self.end_houses is None and self.state.phase in (Phase.END, Phase.DONE):
            self.end_houses = [self.state.house_with_piles(p) for p in range(self.state.n)]

    def run_bots(self) -> None:
        """The bots' decisions until it is the person's turn again or the game is over."""
        state = self.state
        while not state.is_terminal() and state.current_player() != self.settings.seat:
            if self.bots is None:
                self.bots = _resumed_bots(self)
            bot = self.bots[state.current_player()]
            state.apply_action(bot.choose(state.observation(lookahead=bot.looks_ahead), state.legal_actions()))
            self.note_end()


def _bots(settings: Settings) -> dict[int, Bot]:
    names = settings.seat_names()
    return {p: make_bot(name, settings.seed, p) for p, name in enumerate(names) if p != settings.seat}


def _resumed_bots(game: Game) -> dict[int, Bot]:
    """The bots of a loaded game where they were when it was saved: the game replayed from its
    seed, each bot choosing again at its own decisions (`resume_record`, which also checks that
    each bot's choice is the one saved). A game whose bots would now play otherwise (saved by a
    server that made its bots anew after a restart) keeps bots made from the seed, as then."""
    settings = game.settings
    seats = tuple(HUMAN if p == settings.seat else name for p, name in enumerate(settings.seat_names()))
    try:
        resumed = resume_record(GameResult(game.state, seats).record(), f"game {game.id}")
    except DreamhomeError as exc:
        log.warning("game %s: bots made anew from the seed (%s)", game.id, exc)
        return _bots(settings)
    return {p: seat for p, seat in enumerate(resumed.seats) if seat is not None}


class GameStore:
    """The games kept in one folder, with the ones in use cached in memory."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._games: dict[str, Game] = {}
        self._lock = threading.Lock()

    def _path(self, game_id: str) -> Path:
        return self.folder / f"{check_game_id(game_id)}.json"

    def create(self, settings: Settings) -> Game:
        """A new game under a fresh id; the bots move at once if the person is not first."""
        rules = rules_for(settings.variant)
        state = GameState(rules, settings.players, settings.seed)
        game = Game(secrets.token_urlsafe(16), settings, state, _bots(settings))
        game.note_end()
        game.run_bots()
        self.save(game)
        with self._lock:
            self._games[game.id] = game
        return game

    def save(self, game: Game) -> None:
        from dreamhome.fileio import write_atomic

        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomic(self._path(game.id), json.dumps(game.to_json(), ensure_ascii=False, separators=(",", ":")))

    def get(self, game_id: str) -> Game:
        """The game of that id, from memory or its file (`GameNotFoundError` for anything else)."""
        check_game_id(game_id)
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                game = self._load(game_id)
                self._games[game_id] = game
            return game

    def _load(self, game_id: str) -> Game:
        from dreamhome.fileio import read_json

        path = self._path(game_id)
        if not path.is_file():
            raise GameNotFoundError("no such game")
        data = read_json(path, "game")
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise DreamhomeError(f"game {game_id}: not a {FORMAT} file")
        try:
            s = data["settings"]
            settings = Settings(int(s["players"]), tuple(map(str, s["bots"])), str(s["variant"]), int(s["seed"]), int(s["seat"]))
            if any(name not in BOT_NAMES for name in settings.bots) or settings.variant not in ("", *variant_catalogue()):
                raise ValueError("unknown bot or variant")
        except (KeyError, TypeError, ValueError) as exc:
            raise DreamhomeError(f"game {game_id}: the saved settings are damaged ({exc})") from None
        rules = rules_for(settings.variant)
        if not isinstance(data.get("state"), dict) or data["state"].get("rules_hash") != rules.content_hash:
            raise DreamhomeError(f"game {game_id}: saved under other rules than this version's")
        state = GameState.from_dict(rules, data["state"])
        ends = data.get("end_houses")
        end_houses = None if ends is None else [house_from_json(rules, h, f"game {game_id}") for h in ends]
        return Game(game_id, settings, state, None, end_houses, data.get("best"))
