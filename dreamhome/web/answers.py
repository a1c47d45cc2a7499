"""How `dreamhome serve` reads a request body and answers an error: one line of JSON, never a
traceback. A body is JSON or nothing (`json_body`: a cross-site form cannot send
`Content-Type: application/json` without a CORS preflight the server never grants), capped at
`MAX_BODY` bytes; a number in a header or a query is read by `whole_number` before any
conversion; each of the project's errors has its status (`STATUS`), answered by the app's
`exception_handlers` (`EXCEPTION_HANDLERS`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from dreamhome.errors import DreamhomeError
from dreamhome.game.state import IllegalAction
from dreamhome.web.reviews import ReviewBusyError, ReviewLateError
from dreamhome.web.store import (
    ConflictError,
    DamagedGameError,
    ForbiddenError,
    GameNotFoundError,
    RequestError,
    StorageError,
    StoreFullError,
)

log = logging.getLogger("dreamhome.web")

MAX_BODY = 4096
"""Largest request body read (bytes): a start or act request is under 200."""


def error_response(status: int, message: str) -> JSONResponse:
    """An error as every answer of the server says one: `{"error": message}`."""
    return JSONResponse({"error": message}, status_code=status)


async def json_body(request: Request) -> Any:
    """The request's JSON object (400 for anything else, 415 for another content type)."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise HTTPException(415, "send JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length")
    if declared is not None and not whole_number(declared, MAX_BODY):
        raise HTTPException(413, f"the request body is larger than {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise HTTPException(413, f"the request body is larger than {MAX_BODY} bytes")
    try:
        return json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except _NotJSONNumberError as exc:
        raise HTTPException(400, f"the request body holds {exc.args[0]}, which is no JSON number") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise HTTPException(400, "the request body is not valid JSON") from None


class _NotJSONNumberError(ValueError):
    """NaN, Infinity or -Infinity in a request body: Python's reader takes them, JSON has none."""


def _no_constant(name: str) -> Any:
    raise _NotJSONNumberError(name)


def whole_number(text: str, high: int) -> bool:
    """Whether `text` is a whole number from 0 to `high` in ASCII digits, checked before any
    conversion: a number of thousands of digits (past Python's conversion limit) or a digit of
    another script is refused here, never a fault of `int()`."""
    return text.isascii() and text.isdigit() and len(text) <= len(str(high)) and int(text) <= high


STATUS: tuple[tuple[type[DreamhomeError], int], ...] = (
    (GameNotFoundError, 404),
    (ForbiddenError, 403),
    (ConflictError, 409),
    (RequestError, 400),
    (IllegalAction, 400),
    (DamagedGameError, 422),
    (StorageError, 503),
    (StoreFullError, 429),
    (ReviewBusyError, 429),
    (ReviewLateError, 503),
    (DreamhomeError, 422),  # any other file that does not load, and the like
)
"""Each of the project's errors with its status (the first that matches)."""


def scrubbed(request: Request, text: str) -> str:
    """`text` with the server's paths taken out (`app.state.scrub`, a `guards.Scrubber`)."""
    scrub: Callable[[str], str] = request.app.state.scrub
    return scrub(text)


async def on_project_error(request: Request, exc: Exception) -> Response:
    """The app's handler of the project's errors (`exception_handlers`): the error's status
    (`STATUS`) with its first line, scrubbed."""
    assert isinstance(exc, DreamhomeError)
    status = next(code for kind, code in STATUS if isinstance(exc, kind))
    first = (str(exc).splitlines() or [type(exc).__name__])[0]
    return error_response(status, scrubbed(request, first)[:500])


async def on_http_error(request: Request, exc: Exception) -> Response:
    """The app's handler of Starlette's `HTTPException` (404 for an unknown path, 413, 415 …)."""
    assert isinstance(exc, HTTPException)
    return error_response(exc.status_code, scrubbed(request, str(exc.detail)))


async def on_crash(request: Request, exc: Exception) -> Response:
    """The app's handler of anything else: logged, answered 500 in one line without its detail."""
    log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, "internal error (logged by the server)")


EXCEPTION_HANDLERS = {DreamhomeError: on_project_error, HTTPException: on_http_error, Exception: on_crash}
"""What the app answers for an error raised by an endpoint (Starlette's `exception_handlers`)."""
