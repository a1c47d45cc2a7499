"""The house as a grid in the terminal, with its score breakdown beside it."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from dreamhome.house import House
from dreamhome.legality import Violation
from dreamhome.ruleset import EMPTY, FACE_DOWN, SCAFFOLD, Ruleset
from dreamhome.scoring import Score

# Terminal styles as hex colours: the engine's Python never spells a word a rules file uses as an id.
BAD = "#d0312d"
CATEGORY_STYLE = {"normal": "bold #2e9b46", "annex": "bold magenta", "basement": "bold #c9a227"}


def _cell_text(rules: Ruleset, house: House, cell: int, bad: set[str]) -> Text:
    code = house.cells[cell]
    name = rules.board.cells[cell]
    if code == EMPTY:
        text = Text("·", style="dim")
    elif code == SCAFFOLD:
        text = Text(rules.effect_card_name("scaffold", "scaffold"), style=f"bold {BAD}")
    elif code == FACE_DOWN:
        text = Text("empty room", style="dim italic")
    else:
        room = rules.room_of_code(code)
        text = Text(room.name, style=CATEGORY_STYLE.get(room.category, ""))
    if house.tokens[cell]:
        text.append("\n+ " + rules.furnishings[house.tokens[cell] - 1].name, style="cyan")
    if name in bad:
        text.append("\n✗", style=f"bold {BAD}")
    return text


def house_grid(rules: Ruleset, house: House, violations: list[Violation] | None = None) -> Table:
    board = rules.board
    columns = sorted({c for fl in board.floors for c in fl.columns})
    bad = {v.cell for v in violations or () if v.cell}
    grid = Table(show_header=True, show_lines=True, header_style="dim", padding=(0, 1))
    grid.add_column("", style="dim", no_wrap=True)
    for col in columns:
        grid.add_column(str(col), justify="center", min_width=10, max_width=13)
    for fi, floor in enumerate(board.floors):
        row: list[Text | str] = [floor.name]
        for col in columns:
            if col in floor.columns:
                row.append(_cell_text(rules, house, board.index[f"{floor.name}/{col}"], bad))
            elif board.roof_pile and col in board.roof_pile[1] and fi == len(board.floors) - 1:
                row.append(Text("roof pile" if col == board.roof_pile[1][0] else "", style="dim"))
            else:
                row.append("")
        grid.add_row(*row)
    return grid


def held_text(rules: Ruleset, house: House) -> Text:
    text = Text()
    roofs = ", ".join(rules.roofs[c].name.lower() + ("*" if w else "") for c, w in house.roofs)
    parts = [
        ("roofs", roofs or "none"),
        ("outside", ", ".join(rules.furnishing(f).name for f in house.outside) or "none"),
        ("helpers", ", ".join(rules.held(h).name for h in house.helpers) or "none"),
        ("tools", ", ".join(rules.held(x).name for x in house.tools) or "none"),
    ]
    for label, value in parts:
        text.append(f"{label}: ", style="dim")
        text.append(value + "\n")
    if house.roofs:
        text.append("(* roof with a window)\n", style="dim")
    return text


def score_table(score: Score) -> Table:
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
    table.add_column("points", justify="right")
    table.add_column("why")
    for line in score.lines:
        where = f" [{', '.join(line.cells)}]" if line.cells else ""
        table.add_row(str(line.points), Text(line.text) + Text(where, style="dim"))
    table.add_section()
    for name, value in score.components().items():
        table.add_row(str(value), Text(name.replace("_", " "), style="dim"))
    table.add_row(Text(str(score.total), style="bold"), Text("total", style="bold"))
    return table


def house_with_score(rules: Ruleset, house: House, score: Score, width: int = 160):
    """Side by side on a wide terminal, one above the other on a narrow one."""
    left = Group(house_grid(rules, house), held_text(rules, house))
    if width < 150:
        return Group(left, score_table(score))
    layout = Table.grid(padding=(0, 3))
    layout.add_column()
    layout.add_column()
    layout.add_row(left, score_table(score))
    return layout
