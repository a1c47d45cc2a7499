"""`serve`: the table in the browser (dreamhome.web), its address, folder and limits checked
before it listens."""

from __future__ import annotations

import os

import click

from dreamhome.cli.common import current_lang, fail, say
from dreamhome.fileio import printable


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (anything but localhost is open to others; 0.0.0.0 is every interface).",
)
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="Port (0: a free one, printed).")
@click.option(
    "--data",
    "data_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Folder where games are kept (default: dreamhome/games in the user's data folder).",
)
@click.option(
    "--lang",
    "serve_lang",
    default=None,
    metavar="LANG",
    help="The page's language until the person picks another: en, ru, fr or hu (default: the global --lang).",
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="A Host name the table answers to besides localhost and the address bound (repeatable; no wildcards).",
)
@click.option(
    "--max-games",
    type=click.IntRange(1, 10**6),
    default=1000,
    show_default=True,
    help="Games kept in the data folder at most: past it a new game is refused (nothing is deleted for it).",
)
@click.option(
    "--rate",
    type=click.IntRange(0, 100_000),
    default=20,
    show_default=True,
    help="Requests a second one client address may send (bursts of twice that); past it 429. 0: no limit.",
)
def serve(host, port, data_dir, serve_lang, allow_hosts, max_games, rate):
    """A table in the browser: people and bots at one game, each person by their seat's link,
    anyone by the watch link (needs the `web` extra)."""
    from dreamhome.i18n import UnknownLanguageError, check_lang
    from dreamhome.web.server import default_signals

    default_signals()
    if not host.strip():
        fail("--host: an empty address listens on every interface; say so with --host 0.0.0.0, or keep 127.0.0.1")
    try:
        page_lang = check_lang(serve_lang) if serve_lang is not None else current_lang()
    except UnknownLanguageError as exc:
        fail(f"--lang: {exc}")
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        fail("serve needs the web extra: pip install 'dreamhome[web]'")
    from pathlib import Path

    from dreamhome.web.app import BadHostError, host_name
    from dreamhome.web.server import bind, default_data_dir, is_local, serve

    for name in allow_hosts:
        try:
            host_name(name)
        except BadHostError as exc:
            fail(f"--allow-host: {printable(str(exc))}")
    folder = Path(data_dir) if data_dir else default_data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"{printable(str(folder))}: cannot make the games folder: {exc.strerror or exc}")
    if not os.access(folder, os.W_OK | os.X_OK):
        fail(f"{printable(str(folder))}: the games folder is not writable")
    try:
        sock = bind(host, port)
    except (OSError, OverflowError, UnicodeError) as exc:
        fail(f"cannot listen on {printable(host)}:{port}: {getattr(exc, 'strerror', None) or exc}")
    if not is_local(host):
        say(
            f"warning: listening on {printable(host)}: anyone who can reach it can start and watch games "
            "(there is no login; a seat plays only by its link)"
        )
    serve(sock, folder, say, lang=page_lang, allow_hosts=tuple(allow_hosts), max_games=max_games, rate=rate or None)
