"""`play`: a game between bots, or with human seats at this terminal, from its start or from a
saved game (`--resume`); and `print_game`, a finished game's scores, which `replay` prints too."""

from __future__ import annotations

import click

from dreamhome.cli.common import current_lang, emit_json, fail, load_rules, new_console, outputs_or_fail, say
from dreamhome.cli.options import (
    DEFAULT_PLAYERS,
    bot_names,
    bots_option,
    json_option,
    players_option,
    rules_options,
    seed_option,
)
from dreamhome.errors import DreamhomeError
from dreamhome.interrupt import Interrupted


@click.command()
@players_option("Number of players (2–4 in the base rules; default: one per name of --bots, else 4).")
@bots_option(
    "One seat each, comma-separated: a level — easy (a newcomer wins about half the time), medium (the "
    "solver bot), hard (the strongest) — or "
    "random, greedy, solver, mcts[@N] or ismcts[@N] (OpenSpiel's searches, N simulations), module:Class "
    "for a bot of your own, or human for you at the terminal (default: greedy for every seat)."
)
@seed_option("Seed of the shuffle (and of the bots).")
@click.option("--first-player", type=int, default=None, help="Seat holding the first-player marker (default: by seed).")
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the game record (dreamhome.record/2) to this file.",
)
@json_option("Print one JSON object instead of the summary.")
@click.option(
    "--resume",
    "resume_path",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Continue a game saved by a human seat (`save FILE`), with its own players, bots, seed and rules"
    " (a game with a module:Class bot needs --bots naming its bots).",
)
@click.option(
    "--review/--no-review",
    default=True,
    show_default=True,
    help="After a game with a human seat, print the game review's summary (docs/REVIEW.md: accuracy, "
    "points lost and luck a player; a few seconds of solving).",
)
@rules_options
def play(players, bots, seed, first_player, record_path, as_json, resume_path, review, rules_spec):
    """Play a full game between bots (or with human seats); the same seed gives the same game.

    A `human` seat is you at this terminal: at each of your decisions the table is shown and
    you type an option's number (the tool and helper uses wait behind one entry; `back` closes
    them), `hint`, `undo`, `save FILE`, `help` or `quit`. The number of players is the number
    of names of --bots.

    \b
    Examples:
      dreamhome play --bots human,hard,hard
      dreamhome play --bots human,easy
      dreamhome play --bots human,greedy,greedy --seed 7 --lang fr
      dreamhome play --players 3 --seed 4 --json
    """
    from dreamhome.game.record import write_record
    from dreamhome.players.playing import HUMAN, play_game
    from dreamhome.players.roster import make_bot

    if resume_path:
        _resume_game(resume_path, record_path, as_json, rules_spec, review)
        return
    outputs_or_fail([record_path], [rules_spec[0]])
    named = bot_names(bots)
    for name in named or ():
        if name != HUMAN:
            try:
                make_bot(name, seed, 0)  # an unknown name is named as such, before any count is checked
            except DreamhomeError as exc:
                fail(str(exc))
    if named is not None and players is None and len(named) < 2:
        fail(f"--bots names {len(named)} seat; name one per seat, you included, e.g. --bots human,hard,hard")
    if players is None:
        players = len(named) if named else DEFAULT_PLAYERS  # --bots names one seat each: its count is the players'
    elif named is not None and len(named) != players:
        fail(f"--players {players} disagrees with --bots, which names {len(named)} seat(s); name one per seat, or drop --players")
    rules = load_rules(rules_spec)
    game = rules.game
    if not game.min_players <= players <= game.max_players:
        fail(f"players must be {game.min_players}–{game.max_players} under these rules, got {players}")
    names = named or ["greedy"] * players
    if HUMAN in names:
        from dreamhome.game.state import GameState
        from dreamhome.players.playing import make_seats

        try:
            seats = make_seats(names, seed)
            state = GameState(rules, players, seed, first_player)
        except DreamhomeError as exc:
            fail(str(exc))
        _play_with_humans(state, tuple(names), tuple(seats), record_path, as_json, rules_spec[0], review)
        return
    try:
        result = play_game(rules, players, names, seed, first_player)
    except DreamhomeError as exc:
        fail(str(exc))
    if record_path:
        try:
            write_record(result, record_path)
        except DreamhomeError as exc:
            fail(str(exc))
    print_game(result, as_json)


def _resume_game(resume_path: str, record_path: str | None, as_json: bool, rules_spec, review: bool = True) -> None:
    """`play --resume FILE`: the saved game's own players, bots, seed and rules; none may be given,
    except `--bots` naming the record's bots exactly, which a record with a `module:Class` bot
    needs: a save file is data, and it runs no code the user did not name (checked before any
    import, which comes last, in `resume_record`)."""
    from click.core import ParameterSource

    from dreamhome.fileio import display_name, printable
    from dreamhome.game.record import load_record, record_digest
    from dreamhome.players.playing import resume_record

    ctx = click.get_current_context()
    given = [
        f"--{name.replace('_', '-')}"
        for name in ("players", "seed", "first_player")
        if ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE
    ]
    if rules_spec[0] or rules_spec[1]:
        given.append("--rules/--variant")
    if given:
        fail(f"--resume continues the saved game with its own players, bots, seed and rules; drop {', '.join(given)}")
    if resume_path == "-":
        fail("--resume needs a file: stdin is where the moves are read")
    outputs_or_fail([record_path], [resume_path])
    source = display_name(resume_path)
    try:
        data = load_record(resume_path)
    except DreamhomeError as exc:
        fail(str(exc))
    saved = data.get("bots")
    if not isinstance(saved, list) or not all(isinstance(b, str) for b in saved):
        fail(f"{source}: bots: expected a list of bot names")
    named = [b.strip() for b in ctx.params["bots"].split(",")] if ctx.params.get("bots") else None
    if named is not None and named != saved:
        fail(f"{source}: --bots must name the saved game's bots exactly ({printable(','.join(saved))}), or be left out")
    own = [b for b in saved if ":" in b]
    if own and named is None:
        fail(
            f"{source}: the saved game seats bot(s) of your own code ({printable(', '.join(own))}); "
            f"a save file runs no code by itself: to run it, name the bots: --bots {printable(','.join(saved))}"
        )
    if own and data.get("digest") != record_digest(data):  # checked before the import
        fail(f"{source}: the record's digest does not match its contents (edited?)")
    try:
        resumed = resume_record(data, source)
    except DreamhomeError as exc:
        fail(str(exc))
    click.echo(f"{source}: resumed in round {resumed.state.round}")
    _play_with_humans(resumed.state, resumed.bots, resumed.seats, record_path, as_json, review=review)


def _play_with_humans(
    state, names, seats, record_path: str | None, as_json: bool, rules_path: str | None = None, review: bool = True
) -> None:
    """The game with human seats at the terminal (dreamhome.terminal.seat) to its end, a quit or
    the end of the input (one line, exit 2; a saved game says how to continue it). The seat's
    `save` keeps off the rules file and the --record file, as every output of the CLI does."""
    from dreamhome.game.record import write_record
    from dreamhome.terminal.seat import HumanGame, eof_line, quit_line, resume_hint

    if as_json:
        fail("--json cannot be used with a human seat (the terminal is the game's)")
    outputs_or_fail([record_path])
    lang = current_lang()
    game = HumanGame(
        state,
        names,
        seats,
        new_console(),
        lang=lang,
        inputs=tuple(p for p in (rules_path,) if p),
        outputs=tuple(p for p in (record_path,) if p),
    )
    try:
        outcome = game.run()
    except Interrupted as exc:  # Ctrl-C at the prompt: one line, and how to continue a saved game
        say(f"{exc}: {resume_hint(game.saved, lang)}")
        raise click.exceptions.Exit(exc.exit_code) from None
    if outcome.how == "quit":
        click.echo(quit_line(outcome.saved, lang))
        return
    if outcome.how == "eof":
        fail(eof_line(outcome.saved, lang))
    if record_path:
        try:
            write_record(outcome.result, record_path)
        except DreamhomeError as exc:
            fail(str(exc))
    game.show_result()  # the final scores in the seat's language (as print_game prints them in English)
    if review:
        _print_review(outcome.result, lang, {p: game.seat_name(p) for p in range(state.n) if game.seats[p] is None})


def _print_review(result, lang: str, names: dict[int, str]) -> None:
    """The game review's summary at the end of a terminal game (issue 23): each player's
    accuracy, points lost and luck by dreamhome.review's one evaluation (deterministic)."""
    from rich.text import Text

    from dreamhome.i18n import text as ui
    from dreamhome.render.review_text import summary_for_game

    console = new_console()
    console.rule(ui("seat.review", lang), style="dim")
    with console.status(Text(ui("seat.reviewing", lang))):  # a Text: a spinner's string is read as markup
        try:
            lines = summary_for_game(result, lang, names)
        except DreamhomeError as exc:
            fail(str(exc))
    for line in lines:
        console.print(line)
    console.print(ui("seat.review_more", lang), style="dim")


def print_game(result, as_json: bool) -> None:
    from rich.text import Text

    summary = result.summary()
    if as_json:
        emit_json(summary)
        return
    console = new_console()
    for p, (bot, score) in enumerate(zip(summary["bots"] or ["?"] * len(summary["scores"]), summary["scores"])):
        mark = ("  winner", "bold #2e9b46") if p in summary["winners"] else ""
        console.print(Text.assemble(f"seat {p} ({bot}): {score}", mark))  # a bot's name as written
