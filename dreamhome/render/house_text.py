"""The house as a grid in the terminal, with its score breakdown beside it.

Every card name goes through `Ruleset.card_name(ident, lang)` and every label through
`dreamhome.i18n.text(key, lang)`, so `dreamhome --lang ru score` draws the Russian rulebook's
names; `lang` defaults to English for callers that do not choose one. The floors are named by
`i18n.floor_name` (a house rule's own floor by its id) and the score lines by
`score_text.line_text`, in the same language."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from dreamhome.house import House
from dreamhome.i18n import DEFAULT_LANG, floor_name, has_text
from dreamhome.i18n import text as ui
from dreamhome.legality import Violation
from dreamhome.render.score_text import line_text
from dreamhome.ruleset import EMPTY, FACE_DOWN, SCAFFOLD, Ruleset
from dreamhome.scoring import Score

# Terminal styles as hex colours: the engine's Python never spells a word a rules file uses as an id.
BAD = "#d0312d"
CATEGORY_STYLE = {"normal": "bold #2e9b46", "annex": "bold magenta", "basement": "bold #c9a227"}


def _cell_text(rules: Ruleset, house: House, cell: int, bad: set[str], lang: str) -> Text:
    code = house.cells[cell]
    name = rules.board.cells[cell]
    if code == EMPTY:
        text = Text("·", style="dim")
    elif code == SCAFFOLD:
        text = Text(rules.effect_card_name("scaffold", "scaffold", lang), style=f"bold {BAD}")
    elif code == FACE_DOWN:
        text = Text(ui("grid.empty_room", lang), style="dim italic")
    else:
        room = rules.room_of_code(code)
        text = Text(rules.card_name(room.id, lang), style=CATEGORY_STYLE.get(room.category, ""))
    if house.tokens[cell]:
        text.append("\n+ " + rules.card_name(rules.furnishings[house.tokens[cell] - 1].id, lang), style="cyan")
    if name in bad:
        text.append("\n✗", style=f"bold {BAD}")
    return text


def house_grid(rules: Ruleset, house: House, violations: list[Violation] | None = None, lang: str = DEFAULT_LANG) -> Table:
    board = rules.board
    columns = sorted({c for fl in board.floors for c in fl.columns})
    bad = {v.cell for v in violations or () if v.cell}
    grid = Table(show_header=True, show_lines=True, header_style="dim", padding=(0, 1))
    grid.add_column(ui("grid.floor", lang), style="dim", max_width=10)  # a long floor name wraps: 80 columns hold the grid
    for col in columns:
        grid.add_column(str(col), justify="center", min_width=10, max_width=13, overflow="fold")
    for fi, floor in enumerate(board.floors):
        said = floor_name(floor.name, lang)
        # The options name a cell by its id ("middle/2"): a translated floor shows its id under it.
        row: list[Text | str] = [said if said == floor.name else f"{said}\n({floor.name})"]
        for col in columns:
            if col in floor.columns:
                row.append(_cell_text(rules, house, board.index[f"{floor.name}/{col}"], bad, lang))
            elif board.roof_pile and col in board.roof_pile[1] and fi == len(board.floors) - 1:
                row.append(Text(ui("grid.roof_pile", lang) if col == board.roof_pile[1][0] else "", style="dim"))
            else:
                row.append("")
        grid.add_row(*row)
    return grid


def held_text(rules: Ruleset, house: House, lang: str = DEFAULT_LANG) -> Text:
    text = Text()
    none = ui("held.none", lang)
    roofs = ", ".join(rules.card_name(rules.roofs[c].id, lang).lower() + ("*" if w else "") for c, w in house.roofs)
    parts = [
        (ui("held.roofs", lang), roofs or none),
        (ui("held.outside", lang), ", ".join(rules.card_name(f, lang) for f in house.outside) or none),
        (ui("held.helpers", lang), ", ".join(rules.card_name(h, lang) for h in house.helpers) or none),
        (ui("held.tools", lang), ", ".join(rules.card_name(x, lang) for x in house.tools) or none),
    ]
    for label, value in parts:
        text.append(f"{label}: ", style="dim")
        text.append(value + "\n")
    if house.roofs:
        text.append(ui("held.window_note", lang) + "\n", style="dim")
    return text


def score_table(score: Score, lang: str = DEFAULT_LANG, rules: Ruleset | None = None) -> Table:
    """The breakdown, one line per reason (in `lang` when `rules` are given to name the cards,
    else the scorer's English), then the parts and the total."""
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
    table.add_column(ui("score.points", lang), justify="right")
    table.add_column(ui("score.why", lang))
    for line in score.lines:
        where = f" [{', '.join(line.cells)}]" if line.cells else ""
        said = line_text(rules, line, lang) if rules is not None else line.text
        table.add_row(str(line.points), Text(said) + Text(where, style="dim"))
    table.add_section()
    for name, value in score.components().items():
        key = "score.part." + name
        table.add_row(str(value), Text(ui(key, lang) if has_text(key) else name.replace("_", " "), style="dim"))
    table.add_row(Text(str(score.total), style="bold"), Text(ui("score.total", lang), style="bold"))
    return table


def house_with_score(rules: Ruleset, house: House, score: Score, width: int = 160, lang: str = DEFAULT_LANG):
    """Side by side on a wide terminal, one above the other on a narrow one."""
    left = Group(house_grid(rules, house, lang=lang), held_text(rules, house, lang))
    if width < 150:
        return Group(left, score_table(score, lang, rules))
    layout = Table.grid(padding=(0, 3))
    layout.add_column()
    layout.add_column()
    layout.add_row(left, score_table(score, lang, rules))
    return layout
