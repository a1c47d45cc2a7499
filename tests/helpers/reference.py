"""A plain reference scorer and placement check, written straight from docs/rules.md.

Deliberately slow and simple: it works on the JSON form of a house, reads only
card data from the Ruleset, and shares no code with dreamhome.scoring or
dreamhome.solver, so the fast paths are checked against an independent reading.
"""

from __future__ import annotations

from itertools import combinations


def _grid(rules, data):
    """(floor name, column) -> cell dict or None."""
    grid = {}
    for floor in rules.board.floors:
        for col, cell in zip(floor.columns, data["floors"][floor.name]):
            grid[(floor.name, col)] = cell
    return grid


def _face_up(cell):
    return cell is not None and "room" in cell and not cell.get("face_down") and not cell.get("scaffolding")


def reference_rooms(rules, data):
    """SCORE-ROOMS / PLACE-C: maximal horizontal runs of one face-up type."""
    grid = _grid(rules, data)
    rooms = []
    for floor in rules.board.floors:
        current = []
        for col in floor.columns:
            cell = grid[(floor.name, col)]
            if _face_up(cell) and current and grid[current[-1]]["room"] == cell["room"] and current[-1][1] == col - 1:
                current.append((floor.name, col))
            else:
                if current:
                    rooms.append(current)
                current = [(floor.name, col)] if _face_up(cell) else []
        if current:
            rooms.append(current)
    return rooms


class UnknownRuleError(AssertionError):
    """A rules word this reference has no reading of: a new option value or effect shape must get
    its reading here before a test can trust the comparison (never read as an old one)."""


def _beside(rules, where, adjacency: str):
    """SCORE-ROOMS' "beside", per the `annex_adjacency` word: the spaces left and right on the
    floor (`horizontal`), and above and below too (`orthogonal`)."""
    floor, col = where
    names = [f.name for f in rules.board.floors]
    out = [(floor, col - 1), (floor, col + 1)]
    if adjacency == "horizontal":
        return out
    if adjacency != "orthogonal":
        raise UnknownRuleError(f"reference scorer: no reading of annex_adjacency = {adjacency}")
    i = names.index(floor)
    if i > 0:
        out.append((names[i - 1], col))
    if i + 1 < len(names):
        out.append((names[i + 1], col))
    return out


SCORE_KEYWORDS = ("bonus_plus", "empty_room", "token_plus")  # HELP-ARCHITECT, HELP-DESIGNER: read below


def reference_roof(rules, roofs):
    rs = rules.roof_scoring
    best = 0
    for choice in combinations(range(len(roofs)), rs.size):
        cards = [roofs[i] for i in choice]
        colours = {c["color"] for c in cards}
        value = (rs.uniform if len(colours) == 1 else rs.mixed) + rs.window * sum(1 for c in cards if c["window"])
        best = max(best, value)
    return best


def reference_score(rules, data) -> dict:
    grid = _grid(rules, data)
    adjacency = rules.options["annex_adjacency"]
    helpers = data.get("helpers", [])
    for h in helpers:
        for effect in rules.held(h).effects:
            unknown = [a for a, _ in effect.args if a not in SCORE_KEYWORDS] if effect.name == "score" else []
            if unknown:
                raise UnknownRuleError(f"reference scorer: no reading of score({unknown[0]} ...)")

    def helper_amount(key):
        total = 0
        for h in helpers:
            for effect in rules.held(h).effects:
                if effect.name == "score":
                    total += sum(v for a, v in effect.args if a == key)
        return total

    rooms = 0
    for run in reference_rooms(rules, data):
        room = rules.room(grid[run[0]]["room"])
        value = room.points[len(run) - 1]
        if room.bonus:
            for where in run:
                for other in _beside(rules, where, adjacency):
                    cell = grid.get(other)
                    if _face_up(cell) and cell["room"] == room.bonus[1]:
                        value = room.bonus[0]
        rooms += value
    tokens = [c["token"] for c in grid.values() if c is not None and c.get("token")] + list(data.get("outside", []))
    furnishings = sum(rules.furnishing(t).points + helper_amount("token_plus") for t in tokens)
    functionality = 0
    for bonus in rules.bonuses:
        if all(
            any(
                _face_up(grid[(f, col)]) and grid[(f, col)]["room"] == clause.room
                for f in clause.floors
                for col in rules.board.floors[rules.board.floor_index(f)].columns
            )
            for clause in bonus.clauses
        ):
            functionality += bonus.points + helper_amount("bonus_plus")
    empties = sum(1 for c in grid.values() if c is not None and c.get("face_down"))
    roof = reference_roof(rules, data.get("roofs", []))
    empty_rooms = empties * helper_amount("empty_room")
    return {
        "rooms": rooms,
        "furnishings": furnishings,
        "functionality": functionality,
        "roof": roof,
        "empty_rooms": empty_rooms,
        "total": rooms + furnishings + functionality + roof + empty_rooms,
    }
