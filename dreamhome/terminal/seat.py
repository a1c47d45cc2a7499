"""A human seat in the terminal: `dreamhome play --bots human,solver,greedy`.

At each decision of a human seat the table is shown (the round, or the end game after the
last round; the track by the cards' names, the player's house drawn as the board, the other
houses in brief, both discard piles, the player's helpers and tools) with the choices
numbered (`Menu`): takes and placements first, the tool and helper uses behind one entry that
opens them (issue 22: a held tool's 20–54 uses pushed the takes off screen); a number plays
the action it names, `back` closes the uses. The other commands: `hint`
(dreamhome.players.hints: what each option keeps reachable, and the best of them with its
value and reason), `undo` (takes back the seat's last decision while no other player has
decided since: `dreamhome.game.undo`, the browser table's rule too), `save FILE` (a record
marked `"finished": false`, continued by `dreamhome play --resume FILE`), `help`, `quit`. At
the end, `show_result` shows every house with the scorer's breakdown. A person's seat is "you",
never "human" (the record's seat name). See docs/seat.md.

It reads lines (`read`, `input` by default) and prints through a rich `Console`, so it works
over a plain pipe: a console that is not a terminal prints no colour codes. Every line is a
`Text` (or a plain string), never rich markup: names from a rules file or a record (a card's,
a bot's) print as written, whatever they hold (the command line's console, render.console.
SafeConsole, also reads no markup and escapes control characters). Bad input is one
line and the prompt again; the end of the input stops the game with one line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from dreamhome.errors import DreamhomeError
from dreamhome.fileio import OutputError, check_output
from dreamhome.game.actions import Action, DiscardColumn, TakeColumn, TakeRoomAtRoundStart
from dreamhome.game.phases import Phase
from dreamhome.game.record import GameResult, write_record
from dreamhome.game.state import GameState, Resource
from dreamhome.game.undo import dealt_since, replayed_to, undo_mark
from dreamhome.house import House
from dreamhome.i18n import DEFAULT_LANG, count_text, text
from dreamhome.players import lookahead
from dreamhome.players.bots import Bot
from dreamhome.players.hints import AT_LEAST, HINT_WORK, Hint, bound_text
from dreamhome.players.playing import bot_turn
from dreamhome.render.action_text import card_used, describe, resource_text, roof_text, room_text
from dreamhome.render.hint_text import reason_text
from dreamhome.render.house_text import held_text, house_grid, house_with_score
from dreamhome.render.result_text import result_line
from dreamhome.ruleset import FACE_DOWN, ROOM0, Ruleset
from dreamhome.scoring import score_house

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
        self.saved: str | None = None
        self.lang = lang  # every line the person reads: dreamhome.i18n and Ruleset.card_name
        self._hint: tuple[tuple[int, int], Hint] | None = None  # (the decision it is for, its hint)

    # ---- the loop ------------------------------------------------------
    def run(self) -> Outcome:
        """Play until the game ends or the human quits (or the input ends)."""
        while not self.state.is_terminal():
            player = self.state.current_player()
            seat = self.seats[player]
            if seat is not None:
                action = bot_turn(self.state, seat)
                self._apply(player, action, self._t("seat.who_bot", seat=player, bot=seat.name))
                continue  # another player decided: the turn passed (`undo.undo_mark`)
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
        session stops ("quit", "eof"). The numbers are the menu's (`Menu`): takes and placements
        first, the tool and helper uses behind one entry that opens them (`back` closes it)."""
        self.show(player)
        legal = self.state.legal_actions()
        menu = Menu.of(legal)
        opened = False
        while True:
            entries = menu.uses if opened else menu.main
            try:
                line = self.read(self._prompt(player, len(entries), opened))
            except EOFError:
                return "eof"
            except UnicodeDecodeError:  # bytes that are not the terminal's encoding: one line, the prompt again
                self._say(self._t("seat.unknown_command", command="(not text)", count=len(entries)))
                continue
            words = line.strip().split(maxsplit=1)
            if not words:
                continue
            command = words[0].lower()
            if command.isascii() and command.isdigit():  # "²" is a digit to str.isdigit, not to int()
                k = int(command) if len(command) <= MAX_NUMBER_DIGITS else 0
                if not 1 <= k <= len(entries):
                    shown = command if len(command) <= MAX_NUMBER_DIGITS else command[:MAX_NUMBER_DIGITS] + "…"
                    self._say(self._t("seat.no_option", number=shown, count=len(entries)))
                    continue
                chosen = entries[k - 1]
                if chosen is None:  # the entry of the tool and helper uses: open it
                    opened = True
                    self.show_uses(legal, menu)
                    continue
                self._apply(player, legal[chosen], self._t("seat.who_you", seat=player))
                return None
            if command == "back" and len(words) == 1 and opened:
                opened = False
                self.show_options(legal, menu)
            elif command == "hint" and len(words) == 1:
                self.show_hint(legal, menu, opened)
            elif command == "undo" and len(words) == 1:
                if self._undo(player):
                    self.show(player)
                    legal = self.state.legal_actions()
                    menu = Menu.of(legal)
                    opened = False
            elif command == "save":
                self._save(words[1].strip() if len(words) > 1 else "")
            elif command == "help" and len(words) == 1:
                self._say(self._t("seat.help"))
            elif command == "quit" and len(words) == 1:
                return "quit"
            else:
                said = line.strip()
                said = said if len(said) <= 40 else said[:40] + "…"
                self._say(self._t("seat.unknown_command", command=repr(said), count=len(entries)))

    def _prompt(self, player: int, count: int, opened: bool) -> str:
        return self._t("seat.prompt_uses" if opened else "seat.prompt", seat=player, count=count)

    def _undo(self, player: int) -> bool:
        """Take back `player`'s latest decision if no other player has decided since: the rule
        of the browser table too (`dreamhome.game.undo`), the game replayed from its events."""
        mark = undo_mark(self.state.events, player)
        if mark is None:
            self._say(self._t("seat.undo_dealt" if dealt_since(self.state.events, player) else "seat.nothing_to_undo"))
            return False
        undone = self.state.events[mark]
        self.state = before = replayed_to(self.state, mark)
        self._hint = None  # keyed by the state's identity, which a dropped state's successor may reuse
        self._say(self._t("seat.took_back", decision=self._event_action(undone, before)))
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
        if obs.phase == Phase.END.value or obs.round > rules.game.rounds:  # END-ORDER: the rounds are over
            header = self._t("seat.rule_end", rounds=rules.game.rounds, seat=player)
        else:
            header = self._t("seat.rule", round=obs.round, rounds=rules.game.rounds, seat=player, phase=phase)
        console.rule(header, style="dim")
        if any(room is not None or res is not None for room, res in obs.track):
            track = Table(title=self._t("seat.track"), show_header=True, header_style="bold", box=None, padding=(0, 1))
            track.add_column(self._t("seat.column"), justify="right")
            track.add_column(self._t("seat.room"))
            track.add_column(self._t("seat.resource"))
            for k, (room, res) in enumerate(obs.track):
                track.add_row(str(k), Text(room_text(rules, room, lang)), Text(resource_text(rules, res, lang)))
            console.print(track)
        house = obs.houses[player]
        console.print(self._t("seat.your_house", points=obs.scores[player]), style="bold")
        console.print(house_grid(rules, house, lang=lang))
        console.print(held_text(rules, house, lang), end="")
        for other, h in enumerate(obs.houses):
            if other != player:
                summary = brief(rules, h, lang)
                line = self._t("seat.other", seat=other, bot=self.seat_name(other), points=obs.scores[other], brief=summary)
                console.print(Text(line))
        none = text("held.none", lang)
        rooms = ", ".join(room_text(rules, c, lang) for c in obs.room_discard) or none
        console.print(Text(self._t("seat.room_discard", cards=rooms)))
        roofs = ", ".join(roof_text(rules, rules.roofs[r].id, window, lang) for r, window in obs.roof_discard) or none
        console.print(Text(self._t("seat.roof_discard", cards=roofs)))
        self.show_options(state.legal_actions(), Menu.of(state.legal_actions()))

    def show_options(self, legal: list[Action], menu: Menu) -> None:
        """The numbered choices: takes, placements and the other plain choices, then the one
        entry that opens the tool and helper uses (`show_uses`)."""
        self.console.print(Text.assemble((self._t("seat.options"), "bold"), ":"))
        for k, index in enumerate(menu.main, 1):
            said = self._uses_entry(legal, menu) if index is None else option_text(self.state, legal[index], self.lang)
            self.console.print(Text(f"  {k:>2}. {said}"))

    def show_uses(self, legal: list[Action], menu: Menu) -> None:
        """The tool and helper uses, numbered on their own; `back` returns to the other choices."""
        self.console.print(Text.assemble((self._t("seat.uses", cards=self._uses_cards(legal, menu)), "bold"), ":"))
        for k, index in enumerate(menu.uses, 1):
            self.console.print(Text(f"  {k:>2}. {option_text(self.state, legal[index], self.lang)}"))
        self._say(self._t("seat.uses_back"))

    def _uses_cards(self, legal: list[Action], menu: Menu) -> str:
        """The names of the held cards the uses play, once each, in the order they come."""
        names: list[str] = []
        for index in menu.uses:
            card = card_used(self.state, legal[index], self.lang)
            if card not in names:
                names.append(card)
        return ", ".join(names)

    def _uses_entry(self, legal: list[Action], menu: Menu) -> str:
        return self._t("seat.uses_entry", cards=self._uses_cards(legal, menu), count=len(menu.uses))

    def seat_name(self, seat: int) -> str:
        """How a seat is named in the terminal: its bot's name, "you" for a person's seat (with
        several people at one terminal, the others are "person")."""
        if self.seats[seat] is not None:
            return self.bots[seat]
        people = sum(1 for s in self.seats if s is None)
        current = None if self.state.is_terminal() else self.state.current_player()
        return self._t("seat.you") if people == 1 or seat == current else self._t("seat.person")

    def hint_now(self) -> Hint:
        """The hint of the decision now, computed once per decision (it is the same every time:
        its work is deterministic)."""
        from dreamhome.players.hints import hint

        key = (id(self.state), len(self.state.events))
        if self._hint is None or self._hint[0] != key:
            self._hint = (key, hint(self.state, self.hint_work))
        return self._hint[1]

    def show_hint(self, legal: list[Action], menu: Menu | None = None, opened: bool = False) -> None:
        """Each choice of the menu shown with what it keeps reachable; the entry of the uses
        with the best of them; the pick (the review's best) with its value and reason."""
        menu = menu or Menu.of(legal)
        h = self.hint_now()
        by_index = {o.index: o for o in h.options}
        table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
        table.add_column("#", justify="right")
        table.add_column(self._t("seat.hint_option"))
        table.add_column(self._t("seat.hint_keeps"), justify="right")
        table.add_column("")
        pick_number = ""
        for k, index in enumerate(menu.uses if opened else menu.main, 1):
            if index is None:
                group = [by_index[i] for i in menu.uses if i in by_index]
                best = max((o for o in group if o.bound is not None), key=lambda o: o.bound or 0, default=None)
                said = self._uses_entry(legal, menu)
                bound = bound_text(best.bound if best else None, best.proven if best else True)
                picked = h.bot_choice in menu.uses
            else:
                o = by_index[index]
                said = option_text(self.state, o.action, self.lang)
                bound = bound_text(o.bound, o.proven)
                picked = index == h.bot_choice
            if picked:
                pick_number = str(k)
            table.add_row(str(k), Text(said), bound, self._t("seat.hint_pick") if picked else "")
        self.console.print(table)
        self._say(self._t("seat.hint_explain"))
        notes = sorted({note_text(self.state, o.action, o.note, self.lang) for o in h.options if o.bound is None or not o.proven})
        if notes:
            self._say(self._t("seat.hint_not_proven", notes="; ".join(notes)))
        if h.bot_choice is not None:
            pick = option_text(self.state, legal[h.bot_choice], self.lang)
            value = bound_text(h.pick_value, h.pick_proven)
            reason = reason_text(self.state, h.reason, self.lang) if h.reason is not None else ""
            where = pick_number
            if h.bot_choice in menu.uses and not opened:  # inside the closed entry: its number, then the use's
                where = f"{pick_number} → {menu.uses.index(h.bot_choice) + 1}"
            self._say(self._t("seat.hint_pick_line", number=where, option=pick, value=value, reason=reason))
        self._say(f"({h.seconds:.2f} s)")

    def show_result(self) -> None:
        """Every house at the end with its breakdown (SCORE-*, the scorer's lines in the seat's
        language), then each seat's final score and the winner(s) (SCORE-WIN)."""
        state = self.state
        rules = state.rules
        winners = state.winners() if state.is_terminal() else []
        scores = state.returns()
        self.console.rule(self._t("seat.final_scoring"), style="dim")
        for p, house in enumerate(state.houses):
            name = self.seat_name(p)
            self.console.print(Text(self._t("seat.result_house", seat=p, bot=name, points=scores[p]), style="bold"))
            self.console.print(house_with_score(rules, house, score_house(rules, house), self.console.width, self.lang))
        for p, points in enumerate(scores):
            line = self._t("seat.result", seat=p, bot=self.seat_name(p), points=points)
            mark = ("  " + self._t("seat.winner"), "bold #2e9b46") if p in winners else ""
            self.console.print(Text.assemble(line, mark))
        if state.is_terminal():  # the result in one sentence: a tie and its tie-break said (SCORE-WIN)
            names = [f"{p} ({self.seat_name(p)})" for p in range(state.n)]
            self.console.print(Text(result_line(state, names, self.lang), style="bold"))

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
        self.console.print(Text(line), soft_wrap=True)


@dataclass(frozen=True)
class Menu:
    """The numbered choices of one decision (issue 22: holding a track tool listed 20–54 numbered
    options and pushed the takes off screen). `main` is what the numbers 1… play at first: the
    plain choices (takes, placements, discards, tokens, "done"), by their position in the legal
    actions, then None, the one entry that opens `uses`, the choices that use a tool or a helper
    (an action with a role). With no plain choice, or no use, nothing is grouped. The numbers
    change, never the actions: each still plays the legal action it names."""

    main: tuple[int | None, ...]
    uses: tuple[int, ...]

    @property
    def grouped(self) -> bool:
        return None in self.main

    @classmethod
    def of(cls, legal: list[Action]) -> Menu:
        plain = tuple(i for i, a in enumerate(legal) if a.role is None)
        uses = tuple(i for i, a in enumerate(legal) if a.role is not None)
        if not plain or not uses:
            return cls(tuple(range(len(legal))), ())
        return cls((*plain, None), uses)


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
    lookahead.AS_IT_STANDS: "seat.note.as_it_stands",
    AT_LEAST: "seat.note.at_least",
    lookahead.END_PLAN: "seat.note.end_plan",
    lookahead.COMPLETED: "seat.note.completed",
    lookahead.IN_HAND: "seat.note.in_hand",
    lookahead.BEST_TAKE: "seat.note.best_take",
    lookahead.FINAL: "seat.note.final",
    lookahead.MARGIN_NOTE: "seat.note.margin",
}
"""The notes of the hints (`dreamhome.players.lookahead`, English, as its API gives them) by their catalogue keys."""


def note_text(state: GameState, action: Action, note: str, lang: str = DEFAULT_LANG) -> str:
    """A hint's note in `lang`: how its bound was read, or why there is none (the English note
    for one this table does not know)."""
    key = HINT_NOTES.get(note)
    return note if key is None else text(key, lang)


def resource_name(rules: Ruleset, res: Resource | None, lang: str = DEFAULT_LANG) -> str:
    """A resource card by its name in the rules file (a roof with a window says so)."""
    return resource_text(rules, res, lang)


def brief(rules: Ruleset, house: House, lang: str = DEFAULT_LANG) -> str:
    """Another house in one line: its room cards, roofs, helpers and tools by name."""
    rooms = [rules.card_name(rules.room_of_code(c).id, lang) for c in house.cells if c >= ROOM0]
    down = sum(1 for c in house.cells if c == FACE_DOWN)
    if down:
        rooms.append(count_text("seat.brief_empty", down, lang))
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
    "Menu",
    "Outcome",
    "bound_text",
    "card_used",
    "brief",
    "eof_line",
    "note_text",
    "option_text",
    "quit_line",
    "resource_name",
    "resume_hint",
    "save_path_problem",
]
