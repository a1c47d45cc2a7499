"""The errors of `dreamhome serve`'s games, each answered with its status and one line
(`answers.STATUS`): kept apart from the store so that a start request's settings
(`settings.Settings`) and the store name the same errors.
"""

from __future__ import annotations

from dreamhome.errors import DreamhomeError


class RequestError(DreamhomeError):
    """Bad input from the browser: answered with 400 and this one line."""


class GameNotFoundError(DreamhomeError):
    """No game of that id (or an id no server could have made): answered with 404."""


class ConflictError(DreamhomeError):
    """A request that does not fit the game now (not the person's turn, a stale page): 409."""


class DamagedGameError(DreamhomeError):
    """A game file that cannot be used (not JSON, wrong types, does not replay): 422, one line."""


class StorageError(DreamhomeError):
    """The game could not be written (read-only folder, full disk): 503; nothing was changed."""


class ForeignGameFileError(DamagedGameError):
    """A game's name in the data folder held by a symbolic link or another kind of file than
    the server's own regular file: refused (422, one line, logged), nothing read or written
    through it (`own_files`)."""


class StoreFullError(DreamhomeError):
    """The folder holds `max_games` games already: a new one is refused (429)."""


class ForbiddenError(DreamhomeError):
    """A seat's key missing or wrong, or a seat that is no person's: 403. The message never
    repeats the key."""
