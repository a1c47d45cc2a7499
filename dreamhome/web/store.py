"""The games of `dreamhome serve`: one JSON file per game, named by an unguessable id.

Why a file per game, rewritten whole after each decision (`fileio.write_atomic`): a server
stopped at any moment leaves each game as it was before or after the last click, never half
written, and a new server over the same folder carries on. Why the id is checked against
`GAME_ID` before any path is built: the id comes from the browser, and only a name the
server could have made itself (`secrets.token_urlsafe`) may ever become a file name, so no
request can open another path or reach another game's file.

A game file holds the settings (each seat a person or a bot, the variant, the seed), each
person seat's key as a SHA-256 digest (the secret itself is shown once, in the seat's link, and
never stored), `GameState.to_dict()` (every event so far, the decks included: the file stays on
the server) and, once the game is over, the end-game comparison of `best_final_score`.

Why seat keys: the game's id is public (the watch link, the front page's list), so the id alone
may only watch. A person's seat acts with its key (`Game.seat_of`: the digest of the key given
compared with `hmac.compare_digest`); a key is `secrets.token_urlsafe(KEY_BYTES)`, 128 random bits
or more. A file of the first format (`dreamhome.webgame/1`: one person, at `seat`) loads with no
key at any seat: its game can be watched and replayed, never acted on.

Why a loaded game's bots are resumed, not made anew: a bot's random stream and plan move on at
each of its decisions, so bots made again from the seed would play differently after a restart.
Before a loaded game's bots move again, the game is replayed from its seed with each bot
choosing again at its own decisions (`playing.resume_record`), which leaves every bot exactly
where it was: a game interrupted by a restart ends as the same game played without one.

Why a move counts only once it is stored (`GameStore.change`): a move applied in memory but not
written (a read-only folder, a full disk) was shown to the person and then lost at the next
restart. A change whose file cannot be written is undone in memory (the game is rebuilt from the
text last stored) and answered as a server fault, so what the page shows is always what a
restart would show.

Why a file is replayed when it is loaded (`_check_replay`): the file is the server's, but
anybody with access to the folder can edit it. The saved state must be the replay of its own
events from its seed, so no edited field (a card moved, a score raised) survives; a file that
does not replay, or whose fields have the wrong types, is a `DamagedGameError` (a 4xx answer).

Why the caps: a request costs nothing to send, a game costs a file and memory. At most
`max_games` files are kept (a start beyond that is refused with `StoreFullError`, 429) and at most
`cached` games are held in memory, the least recently used dropped first (a dropped game still
in use by a request stays the one object for its id, so two requests never hold two copies).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from dreamhome import fileio
from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import action_from_dict
from dreamhome.game.phases import Phase
from dreamhome.game.record import GameResult
from dreamhome.game.state import GameState
from dreamhome.house import House, house_from_json, house_to_json
from dreamhome.players.bot import Bot
from dreamhome.players.playing import HUMAN, resume_record
from dreamhome.players.roster import make_bot
from dreamhome.ruleset import Ruleset
from dreamhome.web import own_files
from dreamhome.web.errors import (
    ConflictError,
    DamagedGameError,
    ForbiddenError,
    ForeignGameFileError,
    GameNotFoundError,
    RequestError,
    StorageError,
    StoreFullError,
)
from dreamhome.web.settings import (
    BOT_NAMES,
    DRAWN_SEED_BITS,
    MAX_NAME,
    MAX_SEED,
    PERSON,
    Settings,
    players_range,
    rules_for,
    seed_of,
    variant_catalogue,
)

FORMAT = "dreamhome.webgame/2"
OLD_FORMAT = "dreamhome.webgame/1"
"""The first format: one person at `settings.seat`, no keys; loaded watch-only."""
KEY_BYTES = 16
"""Random bytes of a seat's key (`secrets.token_urlsafe`): 128 bits."""
DIGEST = re.compile(r"[0-9a-f]{64}")
GAME_ID = re.compile(r"[A-Za-z0-9_-]{22}")
"""What `secrets.token_urlsafe(16)` makes (128 random bits); nothing else names a game."""
DEFAULT_MAX_GAMES = 1000
"""Games kept on disk unless `dreamhome serve --max-games` says otherwise."""
DEFAULT_CACHED = 64
"""Games held in memory at most (least recently used dropped first); the rest wait on disk."""
STALE_TEMP = re.compile(r"\.[A-Za-z0-9_-]{22}\.(?:json|review)\..+\.tmp|\.dreamhome-probe-.+\.tmp")
"""Temp files of `fileio.write_atomic` (and its writability probe) in a games folder: a process
killed mid-write leaves one; nothing reads them, and a new store removes them."""


__all__ = [  # the errors and the settings, named through `store` as before they had their modules
    "BOT_NAMES",
    "ConflictError",
    "DRAWN_SEED_BITS",
    "DamagedGameError",
    "ForbiddenError",
    "ForeignGameFileError",
    "GameNotFoundError",
    "MAX_NAME",
    "MAX_SEED",
    "PERSON",
    "RequestError",
    "Settings",
    "StorageError",
    "StoreFullError",
    "players_range",
    "rules_for",
    "variant_catalogue",
]
log = logging.getLogger("dreamhome.web")
T = TypeVar("T")


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


OPTIONAL_FIELDS = {"undone", "rematch"}
"""Fields of a game file written only when they hold something: the events taken back by undos
(`Game.undone`) and the id of the rematch (`Game.rematch`); a file without them is as before."""


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

    def to_json(self) -> dict[str, Any]:
        s = self.settings
        rules = self.rules
        return {
            "format": FORMAT,
            "settings": {
                "seats": list(s.seats),
                "variant": s.variant,
                "seed": s.seed,
                **({"names": list(s.names)} if s.names else {}),
            },
            "keys": list(self.keys),
            "state": self.state.to_dict(),
            "end_houses": None if self.end_houses is None else [house_to_json(rules, h) for h in self.end_houses],
            "best": self.best,
            **({"undone": self.undone} if self.undone else {}),
            **({"rematch": self.rematch} if self.rematch else {}),
        }

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


def _bots(settings: Settings) -> dict[int, Bot]:
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
        return _bots(settings)
    return {p: seat for p, seat in enumerate(resumed.seats) if seat is not None}


class GameStore:
    """The games kept in one folder (at most `max_games`), the ones in use cached in memory
    (at most `cached`, least recently used dropped first)."""

    def __init__(self, folder: Path, max_games: int = DEFAULT_MAX_GAMES, cached: int = DEFAULT_CACHED):
        self.folder = Path(folder)
        self.max_games = max_games
        self.cached = max(1, cached)
        self._games: OrderedDict[str, Game] = OrderedDict()
        self._live: weakref.WeakValueDictionary[str, Game] = weakref.WeakValueDictionary()
        self._lock = threading.Lock()
        self._create_lock = threading.Lock()
        self._summaries: dict[str, tuple[tuple[int, int], dict[str, Any]]] = {}
        self.removed_temps = self._remove_stale_temps()

    def _remove_stale_temps(self) -> int:
        """Temp files a killed writer left (`STALE_TEMP`): removed, so none piles up; how many."""
        removed = 0
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return 0
        for entry in entries:
            if STALE_TEMP.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                try:
                    os.unlink(entry.path)
                    removed += 1
                except OSError:
                    pass
        return removed

    def _path(self, game_id: str) -> Path:
        return self.folder / f"{check_game_id(game_id)}.json"

    def count(self) -> int:
        """The games on disk: files named as the server names them (temp files are not games)."""
        try:
            return sum(1 for e in os.scandir(self.folder) if e.name.endswith(".json") and GAME_ID.fullmatch(e.name[:-5]))
        except OSError:
            return 0

    def _check_room(self) -> None:
        if self.count() >= self.max_games:
            raise StoreFullError(
                f"the table keeps at most {self.max_games} games (dreamhome serve --max-games); "
                "remove old ones from its data folder"
            )

    def create(self, settings: Settings, keyed: bool = True) -> tuple[Game, dict[int, str]]:
        """A new game under a fresh id, and the key of each person's seat (only its digest is
        kept); a bot in the first seat moves when the server moves the bots after a change
        (`bots.BotMover.after_change`), never here. It exists once stored: a file that
        cannot be written leaves no game (`StorageError`). `keyed=False`: no seat has a key yet
        (a rematch's seats get theirs when their people ask: `web.rematch`)."""
        self._check_room()
        rules = rules_for(settings.variant)
        state = GameState(rules, settings.players, settings.seed)
        keys = {p: secrets.token_urlsafe(KEY_BYTES) for p in settings.persons()} if keyed else {}
        digests = tuple(key_digest(keys[p]) if p in keys else None for p in range(settings.players))
        game = Game(secrets.token_urlsafe(16), settings, digests, state, _bots(settings))
        game.note_end()
        with self._create_lock:
            self._check_room()
            self.save(game)
        with self._lock:
            self._remember(game)
        return game, keys

    def change(self, game: Game, work: Callable[[], T]) -> T:
        """`work()` (which changes `game`), then the game stored; if either fails, the game is
        put back as last stored, so a change counts only once it is on disk. Call with
        `game.lock` held."""
        try:
            result = work()
            self.save(game)
        except BaseException:
            self._restore(game)
            raise
        return result

    def _restore(self, game: Game) -> None:
        """`game` as its last stored text says (its bots resumed when they next move)."""
        back = self._from_data(game.id, json.loads(game.saved))
        game.state, game.bots, game.end_houses, game.best = back.state, None, back.end_houses, back.best
        game.keys, game.undone, game.rematch = back.keys, back.undone, back.rematch

    def save(self, game: Game) -> None:
        """Write the game's file whole (`fileio.write_atomic`); `StorageError` (one line, no path) if it cannot be."""
        path = self._path(game.id)
        text = json.dumps(game.to_json(), ensure_ascii=False, separators=(",", ":"))
        try:
            self.write_own(game.id, ".json", text)
        except OSError as exc:
            reason = exc.strerror if exc.strerror else str(exc)
            reason = reason.replace(str(path), "").replace(str(self.folder), "").lstrip(": ")
            log.error("game %s: cannot store it in %s: %s", game.id, self.folder, exc)
            raise StorageError(
                f"the game could not be stored on the server ({reason or 'write failed'}); nothing was changed"
            ) from None
        game.saved = text
        self._note_summary(game, path)

    def _note_summary(self, game: Game, path: Path) -> None:
        """Keep the listing's line of `game` beside the file's stamp (`listing` reads no file
        whose stamp it knows)."""
        try:
            st = os.stat(path)
        except OSError:
            return
        with self._lock:
            self._summaries[game.id] = ((st.st_mtime_ns, st.st_size), game.summary())

    def listing(self, limit: int = 100) -> list[dict[str, Any]]:
        """The games kept, the most recently changed first, at most `limit`: each game's
        `Game.summary`. A file that does not load is left out (and logged), never shown."""
        stamped: list[tuple[int, str, tuple[int, int]]] = []
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return []
        for entry in entries:
            if entry.name.endswith(".json") and GAME_ID.fullmatch(entry.name[:-5]):
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                stamped.append((st.st_mtime_ns, entry.name[:-5], (st.st_mtime_ns, st.st_size)))
        stamped.sort(key=lambda t: (-t[0], t[1]))
        with self._lock:  # the lines of games no longer on disk go
            present = {game_id for _, game_id, _ in stamped}
            for gone in [g for g in self._summaries if g not in present]:
                del self._summaries[gone]
        out = []
        for _, game_id, stamp in stamped[:limit]:
            with self._lock:
                known = self._summaries.get(game_id)
                held = self._live.get(game_id)
            if known is not None and known[0] == stamp:
                out.append(known[1])
                continue
            try:
                game = held if held is not None else self._load(game_id)  # not cached: the games in play stay
            except DreamhomeError as exc:
                log.warning("game %s left out of the list: %s", game_id, str(exc).splitlines()[0][:200])
                continue
            with game.lock:
                line = game.summary()
            with self._lock:
                self._summaries[game_id] = (stamp, line)
            out.append(line)
        return out

    def get(self, game_id: str) -> Game:
        """The game of that id, from memory or its file (`GameNotFoundError` for anything else)."""
        check_game_id(game_id)
        with self._lock:
            game = self._games.get(game_id) or self._live.get(game_id)
            if game is not None:
                self._remember(game)
                return game
        loaded = self._load(game_id)  # outside the lock: a replay takes a moment
        with self._lock:
            game = self._live.get(game_id) or loaded  # another request may have loaded it meanwhile
            self._remember(game)
            return game

    def _remember(self, game: Game) -> None:
        """Hold `game` as the most recently used, dropping the least recently used beyond the cap
        (held by the lock)."""
        self._games[game.id] = game
        self._games.move_to_end(game.id)
        self._live[game.id] = game
        while len(self._games) > self.cached:
            self._games.popitem(last=False)

    def in_memory(self) -> int:
        """How many games the store holds in memory (at most `cached`)."""
        return len(self._games)

    def _load(self, game_id: str) -> Game:
        source = f"game {game_id}"
        text = fileio.decode_text(self.read_own(game_id, ".json"), source, "game", error=DamagedGameError)
        game = self._from_data(game_id, fileio.parse_json(text, source, error=DamagedGameError))
        game.saved = text
        return game

    def read_own(self, game_id: str, suffix: str) -> bytes:
        """The bytes of the store's own file `<id><suffix>` (`own_files.read_own`): no such file
        is `GameNotFoundError`; a link or another kind of file under the name is refused with one
        line (`ForeignGameFileError`, logged), nothing read through it."""
        path = self.folder / f"{check_game_id(game_id)}{suffix}"
        try:
            return own_files.read_own(path, fileio.max_input_bytes())
        except own_files.OwnFileMissingError:
            raise GameNotFoundError("no such game") from None
        except own_files.ForeignFileError as exc:
            log.warning("game %s: refused: %s", game_id, exc)
            raise ForeignGameFileError(f"game {game_id}: refused: {exc}") from None
        except (OSError, fileio.InputError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise DamagedGameError(f"game {game_id}: cannot read its file ({reason})") from None

    def write_own(self, game_id: str, suffix: str, text: str) -> None:
        """`text` as the store's own file `<id><suffix>`, replaced whole within the folder
        (`own_files.replace_own`). A link or another kind of file under the name is refused
        (`ForeignGameFileError`, logged), nothing written through it; `OSError` if the folder
        cannot be written."""
        path = self.folder / f"{check_game_id(game_id)}{suffix}"
        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            own_files.replace_own(path, text.encode("utf-8"))
        except own_files.ForeignFileError as exc:
            log.warning("game %s: refused to write: %s", game_id, exc)
            raise ForeignGameFileError(f"game {game_id}: refused: {exc}") from None

    def _from_data(self, game_id: str, data: Any) -> Game:
        return read_game(game_id, data, f"game {game_id}")


def read_game(game_id: str, data: Any, source: str) -> Game:
    """A game from its file's JSON (`source` names it in messages), every part checked;
    `DamagedGameError` (one line) for any flaw."""
    try:
        return _read_game(game_id, data, source)
    except DamagedGameError:
        raise
    except DreamhomeError as exc:
        raise DamagedGameError(f"{source}: the saved game is damaged: {exc}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError, RecursionError) as exc:
        raise DamagedGameError(f"{source}: the saved game is damaged ({type(exc).__name__})") from None


def table_record(data: Any, source: str) -> dict[str, Any] | None:
    """The `dreamhome.record/2` of a finished table game from its file's JSON as it lies in the
    data folder, checked as the server checks it (`read_game`); None if `data` is no table game
    file (`FORMAT`, `OLD_FORMAT`); `DamagedGameError` (one line) for a damaged file or a game
    not over (its record would be an unfinished one, which only a terminal seat's save makes).
    `dreamhome replay` and `analyze` read a table's game file through it (`record.load_record`)."""
    if not (isinstance(data, dict) and data.get("format") in (FORMAT, OLD_FORMAT)):
        return None
    game = read_game("-", data, source)
    if not game.state.is_terminal():
        raise DamagedGameError(f"{source}: the table's game is not over yet; its record is made when it ends")
    return game.record()


def _whole(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _read_settings(data: Any) -> Settings:
    """The settings as saved, checked as strictly as a start request's (`Settings.parse`, with
    every field present and the variant written out)."""
    if not isinstance(data, dict) or not {"seats", "variant", "seed"} <= set(data) <= {"seats", "variant", "seed", "names"}:
        raise ValueError("settings")
    if not isinstance(data["variant"], str):
        raise ValueError("unknown variant")
    try:
        return Settings.parse(data, stored=True)
    except RequestError as exc:
        raise ValueError(str(exc)) from None


def _read_old_settings(data: Any) -> Settings:
    """The settings of a first-format file (`OLD_FORMAT`): one person at `seat`, the bots in
    the other seats in order."""
    if not isinstance(data, dict) or set(data) != {"players", "bots", "variant", "seed", "seat"}:
        raise ValueError("settings")
    if not isinstance(data["variant"], str):
        raise ValueError("unknown variant")
    try:
        settings = Settings.parse({k: v for k, v in data.items() if k != "seat"}, stored=True)
    except RequestError as exc:
        raise ValueError(str(exc)) from None
    if not _whole(data["seat"], 0, settings.players - 1):
        raise ValueError("seat")
    bots = list(settings.seats[1:])
    bots.insert(data["seat"], PERSON)
    return replace(settings, seats=tuple(bots))


def _read_keys(keys: Any, settings: Settings) -> tuple[str | None, ...]:
    """Each person's seat a SHA-256 digest (or none: a seat of a first-format game, watch-only),
    each bot's seat none: any other shape is damage (a key given to a bot's seat, a key that
    is no digest)."""
    if not isinstance(keys, list) or len(keys) != settings.players:
        raise ValueError("keys")
    for p, key in enumerate(keys):
        person = settings.seats[p] == PERSON
        if key is not None and not (person and isinstance(key, str) and DIGEST.fullmatch(key)):
            raise ValueError(f"seat {p}'s key")
    return tuple(keys)


def _read_game(game_id: str, data: Any, source: str) -> Game:
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, OLD_FORMAT):
        raise DamagedGameError(f"{source}: not a {FORMAT} file")
    old = data["format"] == OLD_FORMAT
    fields = {"format", "settings", "state", "end_houses", "best"} | (set() if old else {"keys"})
    if not fields <= set(data) <= fields | (set() if old else OPTIONAL_FIELDS):
        raise DamagedGameError(f"{source}: the saved game is damaged (expected {', '.join(sorted(fields))})")
    try:
        if old:  # the first format's person has no key: the game is watched, never acted on
            settings = _read_old_settings(data["settings"])
            keys: tuple[str | None, ...] = (None,) * settings.players
        else:
            settings = _read_settings(data["settings"])
            keys = _read_keys(data["keys"], settings)
    except ValueError as exc:
        raise DamagedGameError(f"{source}: the saved settings are damaged ({exc})") from None
    rules = rules_for(settings.variant)
    saved = data["state"]
    if not isinstance(saved, dict) or saved.get("rules_hash") != rules.content_hash:
        raise DamagedGameError(f"{source}: saved under other rules than this version's")
    state = GameState.from_dict(rules, saved)
    if state.n != settings.players or state.seed != settings.seed:
        raise DamagedGameError(f"{source}: the saved state does not match its settings")
    _check_replay(source, state, saved)
    ends = data["end_houses"]
    if ends is not None and (not isinstance(ends, list) or len(ends) != state.n):
        raise DamagedGameError(f"{source}: the saved end houses are damaged")
    end_houses = None if ends is None else [house_from_json(rules, h, f"{source}") for h in ends]
    best = data["best"]
    if best is not None:
        _check_best(source, rules, best, state.n)
    undone, rematch = data.get("undone", 0), data.get("rematch")
    if not _whole(undone, 1 if "undone" in data else 0, 10**9) or not (rematch is None or _game_id(rematch)):
        raise DamagedGameError(f"{source}: the saved undo count or rematch is damaged")
    return Game(game_id, settings, keys, state, None, end_houses, best, undone=undone, rematch=rematch)


def _game_id(value: Any) -> bool:
    return isinstance(value, str) and GAME_ID.fullmatch(value) is not None


def _check_replay(source: str, state: GameState, saved: dict[str, Any]) -> None:
    """The saved state must be the replay of its own decisions from its seed and first player
    (SETUP-*, ROUND-*): an edited field, event or deck makes the file refused."""
    fresh = GameState(state.rules, state.n, state.seed, state.initial_first)
    for index, event in enumerate(state.events):
        if len(fresh.events) > index or "action" not in event or event.get("forced"):
            continue
        try:
            fresh.apply_action(action_from_dict(event["action"]))
        except (DreamhomeError, ValueError, TypeError, KeyError) as exc:
            raise DamagedGameError(f"{source}: the saved event {index} does not replay ({str(exc)[:120]})") from None
    if json.loads(json.dumps(fresh.to_dict())) != saved:
        raise DamagedGameError(f"{source}: the saved state is not the replay of its events (edited?)")


def _check_best(source: str, rules: Ruleset, best: Any, n: int) -> None:
    """The end-game comparison as `view.final_view` wrote it: one entry per seat, each field typed."""
    ok = isinstance(best, list) and len(best) == n
    for p, b in enumerate(best if ok else []):
        ok = ok and isinstance(b, dict) and b.get("seat") == p
        ok = ok and all(type(b.get(k)) is int for k in ("total", "start")) and type(b.get("optimal")) is bool
        ok = ok and isinstance(b.get("actions"), list) and all(isinstance(a, str) for a in b["actions"])
        if ok:
            house_from_json(rules, b.get("house"), f"{source}")
    if not ok:
        raise DamagedGameError(f"{source}: the saved end-game comparison is damaged")
