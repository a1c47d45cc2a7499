"""Houses as SVG pictures, written directly as text: no fonts to ship, no network.

The board as it looks: the two upper floors, the ground row with the roof pile
on the left and the basement on the right; each card a tile coloured by its
category with its name, tokens on their cards, empty rooms face down, spaces
held by a scaffold tool (labelled with the card's name), each room outlined as
one shape with its score, the roof cards chosen, and the score breakdown beside
the house. Card names and labels are in the language `lang` (`Ruleset.card_name`,
`dreamhome.i18n.text`), and so are the score lines (`score_text.line_text`); floors and cells
keep the ids the rules file gives them (see render/house_text.py).
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from dreamhome.house import House
from dreamhome.i18n import DEFAULT_LANG, floor_name, has_text
from dreamhome.i18n import text as ui
from dreamhome.render.score_text import line_text
from dreamhome.ruleset import EMPTY, FACE_DOWN, SCAFFOLD, Ruleset
from dreamhome.scoring import Score, rooms_of, score_house

CELL_W, CELL_H, GAP = 128, 84, 6
LEFT, TOP = 90, 56
FILL = {"normal": "#d7ecd0", "annex": "#eadcf3", "basement": "#f6e6bd"}


def _scaffold_name(rules: Ruleset, lang: str) -> str:
    """TOOL-SCAFFOLDING: the name the rules file gives its scaffold tool."""
    cards = rules.cards_with_effect("scaffold", "tool")
    return rules.card_name(cards[0].id, lang) if cards else "scaffold"


def _text(
    x: float, y: float, text: str, size: int = 13, weight: str = "normal", anchor: str = "middle", fill: str = "#222"
) -> str:
    return (
        f'<text x="{x:.0f}" y="{y:.0f}" font-family="sans-serif" font-size="{size}" font-weight="{weight}" '
        f'text-anchor="{anchor}" fill="{fill}">{escape(text)}</text>'
    )


def house_svg_parts(
    rules: Ruleset, house: House, score: Score, x0: float, y0: float, title: str = "", lang: str = DEFAULT_LANG
) -> tuple[list[str], float, float]:
    """SVG elements of one house with its breakdown at (x0, y0); returns (elements, width, height)."""
    board = rules.board
    columns = sorted({c for fl in board.floors for c in fl.columns})
    col_x = {c: x0 + LEFT + i * (CELL_W + GAP) for i, c in enumerate(columns)}
    row_y = {fi: y0 + TOP + fi * (CELL_H + GAP) for fi in range(len(board.floors))}
    out: list[str] = []
    if title:
        out.append(_text(x0 + 10, y0 + 30, title, 18, "bold", "start"))
    for fi, floor in enumerate(board.floors):
        out.append(_text(x0 + LEFT - 12, row_y[fi] + CELL_H / 2 + 5, floor_name(floor.name, lang), 13, "normal", "end", "#666"))
    out += _roof_pile_parts(rules, house, score, col_x, row_y, lang)
    out += _card_parts(rules, house, col_x, row_y, lang)
    out += _room_parts(rules, house, score, col_x, row_y)
    bx = x0 + LEFT + len(columns) * (CELL_W + GAP) + 30
    by = y0 + TOP + 4
    breakdown, rows = _breakdown_parts(rules, house, score, bx, by, lang)
    out += breakdown
    height = max(TOP + len(board.floors) * (CELL_H + GAP), 40 + (rows + 2) * 17) + 20
    width = bx - x0 + 600
    return out, width, height


def _roof_pile_parts(
    rules: Ruleset, house: House, score: Score, col_x: dict[int, float], row_y: dict[int, float], lang: str
) -> list[str]:
    """The roof pile, in the left part of the lowest row: the house's roof cards, the chosen ones outlined."""
    board = rules.board
    out: list[str] = []
    if board.roof_pile is None:
        return out
    pile_cols = [c for c in board.roof_pile[1] if c in col_x]
    if pile_cols:
        fi = len(board.floors) - 1
        x, y = col_x[pile_cols[0]], row_y[fi]
        w: float = len(pile_cols) * (CELL_W + GAP) - GAP
        out.append(
            f'<rect x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{CELL_H}" rx="6" fill="#f3f3f3" '
            f'stroke="#bbb" stroke-dasharray="4 3"/>'
        )
        out.append(_text(x + 8, y + 16, f"{ui('grid.roof_pile', lang)} ({len(house.roofs)})", 11, "normal", "start", "#666"))
        chosen = list(score.roof_choice)
        for k, (colour, window) in enumerate(house.roofs[:12]):
            rx = x + 10 + (k % 6) * 38
            ry = y + 28 + (k // 6) * 28
            name = rules.roofs[colour].id
            picked = (colour, window) in chosen
            if picked:
                chosen.remove((colour, window))
            out.append(
                f'<polygon points="{rx:.0f},{ry + 20:.0f} {rx + 16:.0f},{ry:.0f} {rx + 32:.0f},{ry + 20:.0f}" '
                f'fill="{rules.roofs[colour].colour}" stroke="{"#000" if picked else "#fff"}" '
                f'stroke-width="{2 if picked else 1}" class="roof"><title>{escape(name)}'
                f"{' with window' if window else ''}{' (chosen)' if picked else ''}</title></polygon>"
            )
            if window:
                out.append(f'<rect x="{rx + 12:.0f}" y="{ry + 9:.0f}" width="8" height="8" fill="#fff"/>')
    return out


def _card_parts(rules: Ruleset, house: House, col_x: dict[int, float], row_y: dict[int, float], lang: str) -> list[str]:
    """One card per space: empty, scaffold, face down, or a room card with its token."""
    board = rules.board
    out: list[str] = []
    for i, code in enumerate(house.cells):
        fi, col = board.cell_floor[i], board.cell_column[i]
        x, y = col_x[col], row_y[fi]
        name = board.cells[i]
        if code == EMPTY:
            out.append(
                f'<rect x="{x:.0f}" y="{y:.0f}" width="{CELL_W}" height="{CELL_H}" rx="6" fill="none" '
                f'stroke="#ccc" stroke-dasharray="5 4" class="cell empty" data-cell="{name}"/>'
            )
            continue
        if code == SCAFFOLD:
            out.append(
                f'<rect x="{x:.0f}" y="{y:.0f}" width="{CELL_W}" height="{CELL_H}" rx="6" fill="#f9d2cf" '
                f'stroke="#c0392b" class="cell scaffold" data-cell="{name}"/>'
            )
            out.append(_text(x + CELL_W / 2, y + CELL_H / 2 + 5, _scaffold_name(rules, lang), 13, "bold", fill="#c0392b"))
            continue
        if code == FACE_DOWN:
            out.append(
                f'<rect x="{x:.0f}" y="{y:.0f}" width="{CELL_W}" height="{CELL_H}" rx="6" fill="#d5d5d5" '
                f'stroke="#999" class="cell face-down" data-cell="{name}"/>'
            )
            out.append(_text(x + CELL_W / 2, y + CELL_H / 2 + 5, ui("grid.empty_room", lang), 13, "normal", fill="#555"))
            continue
        room = rules.room_of_code(code)
        out.append(
            f'<rect x="{x:.0f}" y="{y:.0f}" width="{CELL_W}" height="{CELL_H}" rx="6" '
            f'fill="{FILL.get(room.category, "#eee")}" stroke="#888" class="cell card" data-cell="{name}" '
            f'data-room="{escape(room.id)}"/>'
        )
        out.append(_text(x + CELL_W / 2, y + 24, rules.card_name(room.id, lang), 13, "bold"))
        category = ui(f"svg.category.{room.category}", lang) if has_text(f"svg.category.{room.category}") else room.category
        out.append(_text(x + CELL_W / 2, y + 41, f"{category} · " + "/".join(map(str, room.points)), 10, fill="#555"))
        if house.tokens[i]:
            furn = rules.furnishings[house.tokens[i] - 1]
            out.append(f'<circle cx="{x + 16:.0f}" cy="{y + CELL_H - 16:.0f}" r="9" fill="#2b7bb9" class="token"/>')
            out.append(_text(x + 30, y + CELL_H - 12, rules.card_name(furn.id, lang), 11, "normal", "start", "#2b7bb9"))
    return out


def _room_parts(rules: Ruleset, house: House, score: Score, col_x: dict[int, float], row_y: dict[int, float]) -> list[str]:
    """One outline per room, with its score."""
    board = rules.board
    out: list[str] = []
    room_points = {tuple(line.cells): line.points for line in score.lines if line.part == "rooms"}
    for _code, cells in rooms_of(rules, house):
        first, last = cells[0], cells[-1]
        x = col_x[board.cell_column[first]] - 3
        y = row_y[board.cell_floor[first]] - 3
        w = col_x[board.cell_column[last]] + CELL_W + 3 - x
        pts = room_points.get(tuple(board.cells[c] for c in cells), 0)
        out.append(
            f'<rect x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{CELL_H + 6}" rx="9" fill="none" '
            f'stroke="#333" stroke-width="2.5" class="room"/>'
        )
        out.append(f'<circle cx="{x + w - 14:.0f}" cy="{y + 15:.0f}" r="11" fill="#333"/>')
        out.append(_text(x + w - 14, y + 20, str(pts), 12, "bold", fill="#fff"))
    return out


def _breakdown_parts(rules: Ruleset, house: House, score: Score, bx: float, by: float, lang: str) -> tuple[list[str], int]:
    """The score's breakdown beside the house at (bx, by): its total, one line per score line and
    per part, the held cards; and how many lines it holds (below the total)."""
    out: list[str] = []
    out.append(_text(bx, by, f"{ui('score.total', lang)} {score.total}", 18, "bold", "start"))
    lines = [f"{line.points:>3}  {line_text(rules, line, lang)}" for line in score.lines]
    lines.append("")
    parts = {k: ui(f"score.part.{k}", lang) if has_text(f"score.part.{k}") else k.replace("_", " ") for k in score.components()}
    lines += [f"{v:>3}  {parts[k]}" for k, v in score.components().items()]
    extra = []
    if house.helpers:
        extra.append(ui("held.helpers", lang) + ": " + ", ".join(rules.card_name(h, lang) for h in house.helpers))
    if house.outside:
        extra.append(ui("held.outside", lang) + ": " + ", ".join(rules.card_name(f, lang) for f in house.outside))
    for k, text in enumerate(lines + ([""] + extra if extra else [])):
        out.append(_text(bx, by + 24 + k * 17, text, 12, "normal", "start"))
    return out, len(lines) + len(extra)


def _document(parts: list[str], width: float, height: float) -> str:
    body = "\n".join(parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}">\n<rect width="100%" height="100%" fill="#fff"/>\n{body}\n</svg>\n'
    )


def house_svg(rules: Ruleset, house: House, title: str = "", lang: str = DEFAULT_LANG) -> str:
    parts, width, height = house_svg_parts(rules, house, score_house(rules, house), 0, 0, title, lang)
    return _document(parts, width, height)


def before_after_svg(rules: Ruleset, before: House, after: House, actions: list[str], lang: str = DEFAULT_LANG) -> str:
    """`optimize --svg`: the house before and after the end-game actions, the actions listed."""
    top, w1, h1 = house_svg_parts(rules, before, score_house(rules, before), 0, 0, "before", lang)
    y = h1 + 10
    listing = [_text(20, y + 18, "end-game actions", 16, "bold", "start")]
    for k, text in enumerate(actions or ["no helper action improves this house"]):
        listing.append(_text(30, y + 42 + k * 18, f"{k + 1}. {text}", 13, "normal", "start"))
    y += 50 + 18 * max(1, len(actions))
    bottom, w2, h2 = house_svg_parts(rules, after, score_house(rules, after), 0, y, "after", lang)
    return _document(top + listing + bottom, max(w1, w2), y + h2)
