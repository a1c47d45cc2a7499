"""A human seat in the terminal: `dreamhome play --bots human,solver,greedy`.

At each decision of a human seat the table is shown (the round, the track by the cards'
names, the player's house drawn as the board, the other houses in brief, the player's
helpers and tools) with the legal actions numbered; a number plays that action. The other
commands: `hint` (dreamhome.game.hints: what each option keeps reachable, and the solver
bot's pick), `undo` (takes back the seat's last decision while no other player has acted
since), `save FILE` (a record marked `"finished": false`, continued by
`dreamhome play --resume FILE`), `help`, `quit`.

It reads lines (`read`, `input` by default) and prints through a rich `Console`, so it works
over a plain pipe: a console that is not a terminal prints no colour codes. Bad input is one
line and the prompt again; the end of the input stops the game with one line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from dreamhome.errors import DreamhomeError
from dreamhome.fileio import OutputError, check_output
from dreamhome.game.action_text import describe, resource_text, room_text
from dreamhome.game.actions import Action, DiscardColumn, TakeColumn, TakeRoomAtRoundStart
from dreamhome.game.bots import Bot
from dreamhome.game.hints import HINT_WORK
from dreamhome.game.record import GameResult, bot_turn, write_record
from dreamhome.game.state import GameState, Resource
from dreamhome.house import House
from dreamhome.i18n import DEFAULT_LANG, text
from dreamhome.render.house_text import held_text, house_grid
from dreamhome.ruleset import FACE_DOWN, ROOM0, Ruleset

MAX_NUMBER_DIGITS = 6
"""Longer numbers at the prompt are no option (and are never handed to int(): Python refuses
to convert a 5,000-digit string)."""
HELP = text("seat.help")
"""The commands in English (`text("seat.help", lang)` in the seat's language)."""


@dataclass(frozen=True)
class Outcome:
    """How the session ended: `"end"` (the game is over), `"quit"` or `"eof"` (end of input);
    `result` is the game as it stands, `saved` the last file it was saved to (if any)."""

    how: str
    result: GameResult
    saved: str | None


class HumanGame:
    """One game with human seats (None in `seats`) and bots; `run()` plays it to its end."""

    def __init__(
        self,
        state: GameState,
        bots: tuple[str, ...],
        seats: tuple[Bot | None, ...],
        console: Console,
        read: Callable[[str], str] = input,
        hint_work: float = HINT_WORK,
        lang: str = DEFAULT_LANG,
        inputs: tuple[str, ...] = (),
        outputs: tuple[str, ...] = (),
    ):
        self.state = state
        self.inputs = inputs  # the files the command read (the rules): `save` never writes over them
        self.outputs = outputs  # the command's own outputs (the --record file): `save` keeps off them
        self.bots = bots
        self.seats = seats
        self.console = console
        self.read = read
        self.hint_work = hint_work  # CP-SAT deterministic time a hint's options share (hints.hint)
        self.undo_stack: list[tuple[int, GameState]] = []  # (seat, the game before its decision)
        self.saved: str | None = None
        self.lang = lang  # every line the person reads: dreamhome.i18n and Ruleset.card_name

    # ---- the loop ------------------------------------------------------
    def run(self) -> Outcome:
        """Play until the game ends or the human quits (or the input ends)."""
        while not self.state.is_terminal():
            player = self.state.current_player()
            seat = self.seats[player]
            if seat is not None:
                action = bot_turn(self.state, seat)
                self._apply(player, action, self._t("seat.who_bot", seat=player, bot=seat.name))
                self.undo_stack.clear()  # another player acted: nothing of before can be taken back
                continue
            stop = self._human_turn(player)
            if stop is not None:
                return Outcome(stop, self._result(), self.saved)
        return Outcome("end", self._result(), self.saved)

    def _result(self) -> GameResult:
        return GameResult(self.state, self.bots)

    def _apply(self, player: int, action: Action, who: str) -> None:
        """Apply one decision and print it with the forced steps that followed."""
        state = self.state
        before = len(state.events)
        said = describe(state, action, self.lang)
        state.apply_action(action)
        self._say(f"{who}: {said}")
        for event in state.events[before + 1 :]:
            if event.get("forced") and "text" in event:
                forced = self._event_action(event)
                self._say(self._t("seat.forced", seat=event.get("player"), action=forced))
            elif event.get("event") == "deal":
                self._say(self._t("seat.dealt", round=event.get("round")))

    def _human_turn(self, player: int) -> str | None:
        """Show the table, then read commands until one decision is played (None) or the
        session stops ("quit", "eof")."""
        self.show(player)
        legal = self.state.legal_actions()
        while True:
            try:
                line = self.read(self._t("seat.prompt", seat=player, count=len(legal)))
            except EOFError:
                return "eof"
            except UnicodeDecodeError:  # bytes that are not the terminal's encoding: one line, the prompt again
                self._say(self._t("seat.unknown_command", command="(not text)", count=len(legal)))
                continue
            words = line.strip().split(maxsplit=1)
            if not words:
                continue
            command = words[0].lower()
            if command.isascii() and command.isdigit():  # "²" is a digit to str.isdigit, not to int()
                k = int(command) if len(command) <= MAX_NUMBER_DIGITS else 0
                if not 1 <= k <= len(legal):
                    shown = command if len(command) <= MAX_NUMBER_DIGITS else command[:MAX_NUMBER_DIGITS] + "…"
                    self._say(self._t("seat.no_option", number=shown, count=len(legal)))
                    continue
                if self.undo_stack and self.undo_stack[-1][0] != player:
                    self.undo_stack.clear()
                self.undo_stack.append((player, self.state.clone()))
                self._apply(player, legal[k - 1], self._t("seat.who_you", seat=player))
                return None
            if command == "hint" and len(words) == 1:
                self.show_hint(legal)
            elif command == "undo" and len(words) == 1:
                if self._undo(player):
                    self.show(player)
                    legal = self.state.legal_actions()
            elif command == "save":
                self._save(words[1].strip() if len(words) > 1 else "")
            elif command == "help" and len(words) == 1:
                self._say(self._t("seat.help"))
            elif command == "quit" and len(words) == 1:
                return "quit"
            else:
                said = line.strip()
                said = said if len(said) <= 40 else said[:40] + "…"
                self._say(self._t("seat.unknown_command", command=repr(said), count=len(legal)))

    def _undo(self, player: int) -> bool:
        if not self.undo_stack or self.undo_stack[-1][0] != player:
            self._say(self._t("seat.nothing_to_undo"))
            return False
        _, before = self.undo_stack.pop()
        undone = self.state.events[len(before.events)] if len(before.events) < len(self.state.events) else None
        self.state = before
        decision = self._t("seat.your_decision")
        if undone is not None and "action" in undone:
            decision = self._event_action(undone, before)
        self._say(self._t("seat.took_back", decision=decision))
        return True

    def _save(self, path: str) -> None:
        if not path:
            self._say(self._t("seat.save_needs_file"))
            return
        problem = save_path_problem(path)
        if problem is None:
            try:
                check_output(path, inputs=self.inputs, others=self.outputs)
            except OutputError as exc:
                problem = str(exc)
        if problem is not None:
            self._say(self._t("seat.not_saved", error=problem))
            return
        try:
            write_record(self._result(), path)
        except (DreamhomeError, OSError, ValueError) as exc:
            self._say(self._t("seat.not_saved", error=exc))
            return
        self.saved = path
        self._say(self._t("seat.saved", path=path))

    # ---- what the human sees -------------------------------------------
    def show(self, player: int) -> None:
        """The table as `player` sees it (SEE-1): the observation, never the decks."""
        state = self.state
        lang = self.lang
        obs = state.observation(player, lookahead=False)
        rules = state.rules
        console = self.console
        phase = text(f"phase.{obs.phase}", lang)
        console.rule(
            escape(self._t("seat.rule", round=obs.round, rounds=rules.game.rounds, seat=player, phase=phase)), style="dim"
        )
        track = Table(title=self._t("seat.track"), show_header=True, header_style="bold", box=None, padding=(0, 1))
        track.add_column(self._t("seat.column"), justify="right")
        track.add_column(self._t("seat.room"))
        track.add_column(self._t("seat.resource"))
        for k, (room, res) in enumerate(obs.track):
            track.add_row(str(k), escape(room_text(rules, room, lang)), escape(resource_text(rules, res, lang)))
        console.print(track)
        house = obs.houses[player]
        console.print(f"[bold]{escape(self._t('seat.your_house', points=obs.scores[player]))}[/]")
        console.print(house_grid(rules, house, lang=lang))
        console.print(held_text(rules, house, lang), end="")
        for other, h in enumerate(obs.houses):
            if other != player:
                summary = brief(rules, h, lang)
                line = self._t("seat.other", seat=other, bot=self.bots[other], points=obs.scores[other], brief=summary)
                console.print(escape(line), highlight=False)
        if obs.room_discard:
            cards = ", ".join(room_text(rules, c, lang) for c in obs.room_discard)
            console.print(escape(self._t("seat.room_discard", cards=cards)), highlight=False)
        console.print(f"[bold]{escape(self._t('seat.options'))}[/]:")
        for k, action in enumerate(state.legal_actions(), 1):
            console.print(f"  {k:>2}. {escape(option_text(state, action, lang))}", highlight=False)

    def show_hint(self, legal: list[Action]) -> None:
        from dreamhome.game.hints import hint

        h = hint(self.state, self.hint_work)
        table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
        table.add_column("#", justify="right")
        table.add_column(self._t("seat.hint_option"))
        table.add_column(self._t("seat.hint_keeps"), justify="right")
        table.add_column("")
        for o in h.options:
            bound = "—" if o.bound is None else (str(o.bound) if o.proven else f"≥{o.bound}")
            mark = self._t("seat.hint_pick") if o.index == h.bot_choice else ""
            table.add_row(str(o.index + 1), escape(option_text(self.state, o.action, self.lang)), bound, mark)
        self.console.print(table)
        self._say(self._t("seat.hint_explain"))
        notes = sorted({note_text(self.state, o.action, o.note, self.lang) for o in h.options if o.bound is None or not o.proven})
        if notes:
            self._say(self._t("seat.hint_not_proven", notes="; ".join(notes)))
        self._say(f"({h.seconds:.2f} s)")

    def show_result(self) -> None:
        """Each seat's final score (the scorer's, SCORE-*) and the winner(s) (SCORE-WIN)."""
        state = self.state
        winners = state.winners() if state.is_terminal() else []
        for p, points in enumerate(state.returns()):
            line = escape(self._t("seat.result", seat=p, bot=self.bots[p], points=points))
            mark = f"  [bold #2e9b46]{escape(self._t('seat.winner'))}[/]" if p in winners else ""
            self.console.print(line + mark, highlight=False)

    def _event_action(self, event: dict[str, object], state: GameState | None = None) -> str:
        """A recorded decision in the seat's language (its English text if it cannot be read back)."""
        from dreamhome.game.actions import action_from_dict

        try:
            action = action_from_dict(event.get("action"))
        except ValueError:
            return str(event.get("text", ""))
        return describe(state or self.state, action, self.lang)

    def _t(self, key: str, **args: object) -> str:
        return text(key, self.lang, **args)

    def _say(self, line: str) -> None:
        self.console.print(escape(line), highlight=False, soft_wrap=True)


def save_path_problem(path: str) -> str | None:
    """Why `save PATH` cannot be a file that `dreamhome play --resume PATH` reads back, or None:
    `-` (and any name starting with `-`) is an option or stdin to the command line, and a
    control character (NUL) is no file name."""
    if path.startswith("-"):
        return f"{path!r} is not a file name `--resume` can take (it starts with '-'); name a file, e.g. save ./{path}"
    if any(ord(c) < 32 or ord(c) == 127 or 0xD800 <= ord(c) <= 0xDFFF for c in path):
        return f"{path!r} holds a control character or an unpaired surrogate; name a file"
    return None


def option_text(state: GameState, action: Action, lang: str = DEFAULT_LANG) -> str:
    """The action's text in `lang` (`action_text.describe`), with the cards of its column if it names one."""
    said = describe(state, action, lang)
    if isinstance(action, (TakeColumn, TakeRoomAtRoundStart, DiscardColumn)):
        obs = state.observation(lookahead=False)
        if 0 <= action.column < len(obs.track_rooms):
            room, res = obs.track_rooms[action.column], obs.track_res[action.column]
            cards = [room_text(state.rules, room, lang)]
            if not isinstance(action, TakeRoomAtRoundStart):
                cards.append(resource_text(state.rules, res, lang))
            said += " (" + " + ".join(c for c in cards if c != "—") + ")"
    return said


HINT_NOTES = {
    "the house as it stands": "seat.note.as_it_stands",
    "at least: the score right after it": "seat.note.at_least",
    "the solver's end-game plan": "seat.note.end_plan",
    "no room card in that column": "seat.note.no_room",
    "the room card has no legal space": "seat.note.no_space",
    "the house after it, completed at best": "seat.note.completed",
    "no completion found within the hint's work": "seat.note.no_completion",
}
"""The notes of `dreamhome.game.hints` (English, as its API gives them) by their catalogue keys."""
BEST_SPACE_NOTE = " placed at its best space; resource card not counted"
"""The end of the note of a take's bound, after the room card's English name."""


def note_text(state: GameState, action: Action, note: str, lang: str = DEFAULT_LANG) -> str:
    """A hint's note in `lang`: how its bound was read, or why there is none (the English note
    for one this table does not know)."""
    key = HINT_NOTES.get(note)
    if key is not None:
        return text(key, lang)
    if note.endswith(BEST_SPACE_NOTE) and isinstance(action, (TakeColumn, TakeRoomAtRoundStart)):
        rooms = state.observation(lookahead=False).track_rooms
        if 0 <= action.column < len(rooms) and rooms[action.column] is not None:
            return text("seat.note.best_space", lang, room=room_text(state.rules, rooms[action.column], lang))
    return note


def resource_name(rules: Ruleset, res: Resource | None, lang: str = DEFAULT_LANG) -> str:
    """A resource card by its name in the rules file (a roof with a window says so)."""
    return resource_text(rules, res, lang)


def brief(rules: Ruleset, house: House, lang: str = DEFAULT_LANG) -> str:
    """Another house in one line: its room cards, roofs, helpers and tools by name."""
    rooms = [rules.card_name(rules.room_of_code(c).id, lang) for c in house.cells if c >= ROOM0]
    down = sum(1 for c in house.cells if c == FACE_DOWN)
    if down:
        rooms.append(text("seat.brief_empty", lang, count=down))
    parts = [
        text("seat.brief_rooms", lang, cards=", ".join(rooms) or text("held.none", lang)),
        text("seat.brief_roofs", lang, count=len(house.roofs)),
    ]
    if house.helpers:
        parts.append(text("seat.brief_helpers", lang, cards=", ".join(rules.card_name(h, lang) for h in house.helpers)))
    if house.tools:
        parts.append(text("seat.brief_tools", lang, cards=", ".join(rules.card_name(t, lang) for t in house.tools)))
    return " · ".join(parts)


def resume_hint(path: str | Path | None, lang: str = DEFAULT_LANG) -> str:
    """The line that says how to continue a saved game (quit, end of input)."""
    if path is None:
        return text("seat.not_saved_game", lang)
    return text("seat.resume_from", lang, path=path)


def quit_line(path: str | Path | None, lang: str = DEFAULT_LANG) -> str:
    """What `quit` prints: how to continue (or that the game was not saved)."""
    return text("seat.quit", lang, resume=resume_hint(path, lang))


def eof_line(path: str | Path | None, lang: str = DEFAULT_LANG) -> str:
    """The one error line when the input ends before the game does."""
    return text("seat.eof", lang, resume=resume_hint(path, lang))


__all__ = [
    "HELP",
    "HumanGame",
    "Outcome",
    "brief",
    "eof_line",
    "note_text",
    "option_text",
    "quit_line",
    "resource_name",
    "resume_hint",
    "save_path_problem",
]
