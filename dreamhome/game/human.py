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
from dreamhome.game.actions import Action, DiscardColumn, TakeColumn, TakeRoomAtRoundStart
from dreamhome.game.bots import Bot
from dreamhome.game.record import GameResult, bot_turn, write_record
from dreamhome.game.state import GameState, Resource
from dreamhome.house import House
from dreamhome.render_text import held_text, house_grid
from dreamhome.ruleset import FACE_DOWN, ROOM0, Ruleset

HINT_SECONDS = 1.0
HELP = """commands:
  N          play option N (a number of the list)
  hint       what each option keeps reachable (solver bound) and the solver bot's pick
  undo       take back your last decision (while no other player has acted since)
  save FILE  write the game so far; continue it with `dreamhome play --resume FILE`
  help       this list
  quit       stop now (nothing is asked; save first to continue later)"""


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
        hint_seconds: float = HINT_SECONDS,
    ):
        self.state = state
        self.bots = bots
        self.seats = seats
        self.console = console
        self.read = read
        self.hint_seconds = hint_seconds
        self.undo_stack: list[tuple[int, GameState]] = []  # (seat, the game before its decision)
        self.saved: str | None = None

    # ---- the loop ------------------------------------------------------
    def run(self) -> Outcome:
        """Play until the game ends or the human quits (or the input ends)."""
        while not self.state.is_terminal():
            player = self.state.current_player()
            seat = self.seats[player]
            if seat is not None:
                action = bot_turn(self.state, seat)
                self._apply(player, action, f"seat {player} ({seat.name})")
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
        text = state.action_text(action)
        state.apply_action(action)
        self._say(f"{who}: {text}")
        for event in state.events[before + 1 :]:
            if event.get("forced") and "text" in event:
                self._say(f"  seat {event.get('player')} (only choice): {event['text']}")
            elif event.get("event") == "deal":
                self._say(f"— round {event.get('round')} is dealt")

    def _human_turn(self, player: int) -> str | None:
        """Show the table, then read commands until one decision is played (None) or the
        session stops ("quit", "eof")."""
        self.show(player)
        legal = self.state.legal_actions()
        while True:
            try:
                line = self.read(f"seat {player} [1-{len(legal)}, hint, undo, save FILE, help, quit]> ")
            except EOFError:
                return "eof"
            words = line.strip().split(maxsplit=1)
            if not words:
                continue
            command = words[0].lower()
            if command.isdigit():
                k = int(command)
                if not 1 <= k <= len(legal):
                    self._say(f"no option {k}: choose 1–{len(legal)} (or help)")
                    continue
                if self.undo_stack and self.undo_stack[-1][0] != player:
                    self.undo_stack.clear()
                self.undo_stack.append((player, self.state.clone()))
                self._apply(player, legal[k - 1], f"seat {player} (you)")
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
                self._say(HELP)
            elif command == "quit" and len(words) == 1:
                return "quit"
            else:
                self._say(f"unknown command {line.strip()!r}: a number 1–{len(legal)}, hint, undo, save FILE, help or quit")

    def _undo(self, player: int) -> bool:
        if not self.undo_stack or self.undo_stack[-1][0] != player:
            self._say("nothing to undo: no decision of yours since another player acted")
            return False
        _, before = self.undo_stack.pop()
        undone = self.state.events[len(before.events)] if len(before.events) < len(self.state.events) else None
        self.state = before
        self._say("took back: " + (undone.get("text", "your decision") if undone else "your decision"))
        return True

    def _save(self, path: str) -> None:
        if not path:
            self._say("save needs a file name: save FILE")
            return
        try:
            write_record(self._result(), path)
        except (DreamhomeError, OSError) as exc:
            self._say(f"not saved: {exc}")
            return
        self.saved = path
        self._say(f"saved to {path}; continue with `dreamhome play --resume {path}`")

    # ---- what the human sees -------------------------------------------
    def show(self, player: int) -> None:
        """The table as `player` sees it (SEE-1): the observation, never the decks."""
        state = self.state
        obs = state.observation(player, lookahead=False)
        rules = state.rules
        console = self.console
        console.rule(f"round {obs.round} of {rules.game.rounds} · seat {player} (you) · {obs.phase}", style="dim")
        track = Table(title="track", show_header=True, header_style="bold", box=None, padding=(0, 1))
        track.add_column("column", justify="right")
        track.add_column("room")
        track.add_column("resource")
        for k, (room, res) in enumerate(obs.track):
            track.add_row(str(k), _room_name(rules, room), resource_name(rules, res))
        console.print(track)
        house = obs.houses[player]
        console.print(f"[bold]your house[/] — {obs.scores[player]} points so far")
        console.print(house_grid(rules, house))
        console.print(held_text(rules, house), end="")
        for other, h in enumerate(obs.houses):
            if other != player:
                console.print(
                    f"seat {other} ({escape(self.bots[other])}): {obs.scores[other]} points · {escape(brief(rules, h))}"
                )
        if obs.room_discard:
            console.print("room discard pile: " + escape(", ".join(_room_name(rules, c) for c in obs.room_discard)))
        console.print("[bold]your options[/]:")
        for k, action in enumerate(state.legal_actions(), 1):
            console.print(f"  {k:>2}. {escape(option_text(state, action))}")

    def show_hint(self, legal: list[Action]) -> None:
        from dreamhome.game.hints import hint

        h = hint(self.state, self.hint_seconds)
        table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
        table.add_column("#", justify="right")
        table.add_column("option")
        table.add_column("keeps reachable", justify="right")
        table.add_column("")
        for o in h.options:
            bound = "—" if o.bound is None else (str(o.bound) if o.proven else f"≥{o.bound}")
            mark = "← solver bot" if o.index == h.bot_choice else ""
            table.add_row(str(o.index + 1), escape(option_text(self.state, o.action)), bound, mark)
        self.console.print(table)
        self._say(
            "keeps reachable: the best final score the solver finds after the option, with the room cards still "
            "unseen and no further resource card"
        )
        notes = sorted({o.note for o in h.options if o.bound is None or not o.proven})
        if notes:
            self._say(f"≥N or —: not proven within {self.hint_seconds:g} s; " + "; ".join(notes))
        self._say(f"({h.seconds:.2f} s)")

    def _say(self, text: str) -> None:
        self.console.print(escape(text), highlight=False, soft_wrap=True)


def option_text(state: GameState, action: Action) -> str:
    """The action's text (`GameState.action_text`), with the cards of its column if it names one."""
    text = state.action_text(action)
    if isinstance(action, (TakeColumn, TakeRoomAtRoundStart, DiscardColumn)):
        obs = state.observation(lookahead=False)
        if 0 <= action.column < len(obs.track_rooms):
            room, res = obs.track_rooms[action.column], obs.track_res[action.column]
            cards = (
                [_room_name(state.rules, room)]
                if isinstance(action, TakeRoomAtRoundStart)
                else [
                    _room_name(state.rules, room),
                    resource_name(state.rules, res),
                ]
            )
            text += " (" + " + ".join(c for c in cards if c != "—") + ")"
    return text


def _room_name(rules: Ruleset, code: int | None) -> str:
    return "—" if code is None or code < ROOM0 else rules.room_of_code(code).name


def resource_name(rules: Ruleset, res: Resource | None) -> str:
    """A resource card by its name in the rules file (a roof with a window says so)."""
    if res is None:
        return "—"
    if res.kind == "roof":
        return rules.roof(res.id).name.lower() + " roof" + (" with window" if res.window else "")
    if res.kind == "furnishing":
        return rules.furnishing(res.id).name
    return f"{rules.held(res.id).name} ({res.kind})"


def brief(rules: Ruleset, house: House) -> str:
    """Another house in one line: its room cards, roofs, helpers and tools by name."""
    rooms = [rules.room_of_code(c).name for c in house.cells if c >= ROOM0]
    down = sum(1 for c in house.cells if c == FACE_DOWN)
    if down:
        rooms.append(f"{down} empty room(s)")
    parts = ["rooms: " + (", ".join(rooms) or "none"), f"roofs: {len(house.roofs)}"]
    if house.helpers:
        parts.append("helpers: " + ", ".join(rules.held(h).name for h in house.helpers))
    if house.tools:
        parts.append("tools: " + ", ".join(rules.held(t).name for t in house.tools))
    return " · ".join(parts)


def resume_hint(path: str | Path | None) -> str:
    """The line that says how to continue a saved game (quit, end of input)."""
    if path is None:
        return "the game was not saved"
    return f"continue from your last save with `dreamhome play --resume {path}`"


__all__ = ["HELP", "HumanGame", "Outcome", "brief", "option_text", "resource_name", "resume_hint"]
