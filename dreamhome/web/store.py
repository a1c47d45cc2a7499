"""The games of `dreamhome serve`: one JSON file per game, named by an unguessable id.

Why a file per game, rewritten whole after each decision (`fileio.write_atomic`): a server
stopped at any moment leaves each game as it was before or after the last click, never half
written, and a new server over the same folder carries on. Why the id is checked against
`GAME_ID` before any path is built: the id comes from the browser, and only a name the
server could have made itself (`secrets.token_urlsafe`) may ever become a file name, so no
request can open another path or reach another game's file.

What a game is in memory is `tablegame.Game`; what its file holds, and how a file read back is
checked, is `gamefile`'s (the stored form apart from the game, issue 33). The names of both
are still reachable through `store`, as before they had their modules.

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

import json
import logging
import os
import re
import secrets
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from dreamhome import fileio
from dreamhome.errors import DreamhomeError
from dreamhome.game.state import GameState
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
from dreamhome.web.gamefile import FORMAT, OLD_FORMAT, OPTIONAL_FIELDS, game_json, game_text, read_game, table_record
from dreamhome.web.gate import ComputeGate
from dreamhome.web.settings import (
    BOT_NAMES,
    DRAWN_SEED_BITS,
    MAX_NAME,
    MAX_SEED,
    PERSON,
    Settings,
    players_range,
    rules_for,
    variant_catalogue,
)
from dreamhome.web.tablegame import GAME_ID, KEY_BYTES, Game, check_game_id, key_digest, new_bots

DEFAULT_MAX_GAMES = 1000
"""Games kept on disk unless `dreamhome serve --max-games` says otherwise."""
DEFAULT_CACHED = 64
"""Games held in memory at most (least recently used dropped first); the rest wait on disk."""
STALE_TEMP = re.compile(r"\.[A-Za-z0-9_-]{22}\.(?:json|review)\..+\.tmp|\.dreamhome-probe-.+\.tmp")
"""Temp files of `fileio.write_atomic` (and its writability probe) in a games folder: a process
killed mid-write leaves one; nothing reads them, and a new store removes them."""


__all__ = [  # the names of the modules split from `store`, named through it as before
    "BOT_NAMES",
    "ConflictError",
    "DRAWN_SEED_BITS",
    "DamagedGameError",
    "FORMAT",
    "ForbiddenError",
    "ForeignGameFileError",
    "GAME_ID",
    "Game",
    "GameNotFoundError",
    "KEY_BYTES",
    "MAX_NAME",
    "MAX_SEED",
    "OLD_FORMAT",
    "OPTIONAL_FIELDS",
    "PERSON",
    "RequestError",
    "Settings",
    "StorageError",
    "StoreFullError",
    "check_game_id",
    "game_json",
    "key_digest",
    "players_range",
    "read_game",
    "rules_for",
    "table_record",
    "variant_catalogue",
]
log = logging.getLogger("dreamhome.web")
T = TypeVar("T")


class GameStore:
    """The games kept in one folder (at most `max_games`), the ones in use cached in memory
    (at most `cached`, least recently used dropped first)."""

    def __init__(
        self, folder: Path, max_games: int = DEFAULT_MAX_GAMES, cached: int = DEFAULT_CACHED, gate: ComputeGate | None = None
    ):
        self.folder = Path(folder)
        self.gate = gate if gate is not None else ComputeGate()
        """The server's places to compute (`gate.ComputeGate`): a save gives its place up while
        the file is written."""
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
        game = Game(secrets.token_urlsafe(16), settings, digests, state, new_bots(settings))
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
        text = game_text(game)
        try:
            with self.gate.waiting():  # the disk's time is no computing: another change takes the place
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
