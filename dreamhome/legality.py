"""Is this house state legal, and if not, which rule does it break and where.

A state check cannot see history (PLACE-CLOSED is about the order cards came
in), so it checks what any reachable state must satisfy: support, categories,
sizes, tokens, card counts and scaffolds (TOOL-SCAFFOLDING).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from dreamhome.engine.placement import final_resource_cards, final_room_cards
from dreamhome.engine.rooms import room_runs
from dreamhome.house import House
from dreamhome.ruleset import EMPTY, FACE_DOWN, ROOM0, SCAFFOLD, Ruleset

Arg = tuple[str, object]


@dataclass(frozen=True)
class Violation:
    """One broken rule. `message` is the English sentence (JSON outputs keep it); `key` and
    `args` are the same sentence as a catalogue message (`violation.*` in dreamhome/locales,
    card arguments by id), so `dreamhome.render.violation_text` says it in any language. A
    violation with no message of the catalogue (`key` "") is shown by its English text."""

    rule: str
    cell: str | None
    message: str
    key: str = ""
    args: tuple[Arg, ...] = ()

    def to_json(self) -> dict:
        return {"rule": self.rule, "cell": self.cell, "message": self.message}

    def __str__(self) -> str:
        where = f" at {self.cell}" if self.cell else ""
        return f"{self.rule}{where}: {self.message}"


def _what(rules: Ruleset, code: int) -> str:
    if code == SCAFFOLD:
        return rules.effect_card_name("scaffold", "a scaffold")
    if code == FACE_DOWN:
        return "an empty room"
    return f"a {rules.room_of_code(code).name.lower()} card"


def _what_key(rules: Ruleset, code: int) -> tuple[str, tuple[Arg, ...]]:
    """`_what` as a catalogue message's suffix and arguments ("" when the catalogue has none:
    a scaffold cell under rules with no scaffold card)."""
    if code == SCAFFOLD:
        cards = rules.cards_with_effect("scaffold")
        return (".scaffold", (("card", cards[0].id),)) if cards else ("", ())
    if code == FACE_DOWN:
        return ".face_down", ()
    return ".room", (("room", rules.room_of_code(code).id),)


def _keyed(rule: str, cell: str | None, message: str, key: str, *args: Arg) -> Violation:
    return Violation(rule, cell, message, key, tuple(args))


def house_violations(rules: Ruleset, house: House) -> list[Violation]:
    """Every rule the house breaks, in a fixed order: cell by cell (PLACE-A, PLACE-B, FURN-TYPE),
    room by room (PLACE-C, FURN-ONE, VAR-CAR), then the counts against the deck (FURN-TYPE
    outside, COMP-5) and the scaffolds (TOOL-SCAFFOLDING)."""
    out: list[Violation] = []
    _cell_violations(rules, house, out)
    _room_violations(rules, house, out)
    _token_count_violations(rules, house, out)
    card_uses = _card_uses(rules, house)
    _card_count_violations(rules, house, card_uses, out)
    _scaffold_violations(rules, house, card_uses, out)
    return out


def _cell_violations(rules: Ruleset, house: House, out: list[Violation]) -> None:
    """PLACE-A support and PLACE-B categories, cell by cell; a token on the wrong card (FURN-TYPE)."""
    t = rules.tables
    cells = house.cells
    tokens = house.tokens
    names = rules.board.cells
    below = t.below
    allowed = t.allowed
    for i, c in enumerate(cells):
        if c == EMPTY:
            if tokens[i]:
                out.append(_keyed("FURN-TYPE", names[i], "a token lies on an empty space", "violation.token_on_empty"))
            continue
        b = below[i]
        if b >= 0 and cells[b] == EMPTY:
            suffix, what = _what_key(rules, c)
            key = "violation.over_empty" + suffix if suffix else ""
            out.append(
                _keyed(
                    "PLACE-A",
                    names[i],
                    f"{_what(rules, c)} stands over the empty space {names[b]}",
                    key,
                    *what,
                    ("below", names[b]),
                )
            )
        if c >= ROOM0:
            if not allowed[i][c]:  # PLACE-B's table (tables.py), as engine.rooms.category_ok reads it
                room = rules.room_of_code(c)
                kind = rules.board.cell_kind[i]
                out.append(
                    _keyed(
                        "PLACE-B",
                        names[i],
                        f"a {room.category} card ({room.name.lower()}) cannot go on a {kind} floor",
                        "violation.category",
                        ("room", room.id),
                        ("category", room.category),
                        ("kind", kind),
                    )
                )
            tok = tokens[i]
            if tok and t.token_room[tok] != c:
                furn = rules.furnishings[tok - 1]
                where = f"the {rules.room(furn.room).name.lower()}" if furn.room else "outside the house"
                here = rules.room_of_code(c)
                out.append(
                    _keyed(
                        "FURN-TYPE",
                        names[i],
                        f"{furn.name} belongs {'in ' if furn.room else ''}{where}, not on a {here.name.lower()} card",
                        "violation.token_room" if furn.room else "violation.token_outside",
                        ("furnishing", furn.id),
                        *((("target", furn.room),) if furn.room else ()),
                        ("room", here.id),
                    )
                )
        elif tokens[i]:
            suffix, what = _what_key(rules, c)
            key = "violation.token_on" + suffix if suffix else ""
            out.append(_keyed("FURN-TYPE", names[i], f"a token lies on {_what(rules, c)}", key, *what))


def _room_violations(rules: Ruleset, house: House, out: list[Violation]) -> None:
    """PLACE-C sizes, FURN-ONE and VAR-CAR's complete-room tokens, room by room (engine/rooms.py reads the rooms)."""
    t = rules.tables
    cells = house.cells
    tokens = house.tokens
    names = rules.board.cells
    floors = t.floor_cells
    any_token = any(tokens)
    max_size = t.max_size
    for f, start, stop, run_code in room_runs(cells, floors):
        length = stop - start
        if length > max_size[run_code]:  # PLACE-C (engine.rooms.fits, read inline on this hot path)
            room = rules.room_of_code(run_code)
            out.append(
                _keyed(
                    "PLACE-C",
                    names[floors[f][start]],
                    f"a {room.name.lower()} of {length} cards is larger than its maximum of {room.max_size}",
                    "violation.too_long",
                    ("room", room.id),
                    ("length", length),
                    ("max", room.max_size),
                )
            )
        if not any_token:
            continue
        room_cells = floors[f][start:stop]
        held = [tokens[j] for j in room_cells if tokens[j]]
        if len(held) > 1:
            out.append(
                _keyed(
                    "FURN-ONE",
                    names[room_cells[0]],
                    f"a room holds {len(held)} tokens; a room holds at most one",
                    "violation.two_tokens",
                    ("count", len(held)),
                )
            )
        full_only = [tok for tok in held if t.token_closes_full_only[tok]]
        if full_only and length != t.max_size[run_code]:
            furn = rules.furnishings[full_only[0] - 1]
            run_room = rules.room_of_code(run_code)
            out.append(
                _keyed(
                    "VAR-CAR",
                    names[room_cells[0]],
                    f"the {furn.name.lower()} goes only in a complete {run_room.name.lower()}",
                    "violation.complete_only",
                    ("furnishing", furn.id),
                    ("room", run_room.id),
                )
            )


def _token_count_violations(rules: Ruleset, house: House, out: list[Violation]) -> None:
    """Outside tokens that belong in a room (FURN-TYPE), and tokens against the game's count (COMP-5)."""
    t = rules.tables
    tokens = house.tokens
    token_uses = [0] * len(t.token_count)
    for tok in tokens:
        if tok:
            token_uses[tok] += 1
    for fid in house.outside:
        furn = rules.furnishing(fid)
        token_uses[furn.code] += 1
        if furn.room is not None:
            out.append(
                _keyed(
                    "FURN-TYPE",
                    None,
                    f"{furn.name} goes in a {rules.room(furn.room).name.lower()}, not outside",
                    "violation.not_outside",
                    ("furnishing", furn.id),
                    ("room", furn.room),
                )
            )
    for code, n in enumerate(token_uses):
        if n > t.token_count[code]:
            furn = rules.furnishings[code - 1]
            out.append(
                _keyed(
                    "COMP-5",
                    None,
                    f"{n} {furn.name.lower()} tokens; the game has {furn.count}",
                    "violation.count.tokens",
                    ("count", n),
                    ("furnishing", furn.id),
                    ("limit", furn.count),
                )
            )


def _card_uses(rules: Ruleset, house: House) -> list[int]:
    """How many of each card code the house holds: its cells, the cards under them and its discards."""
    t = rules.tables
    card_uses = [0] * t.n_codes
    for c in house.cells:
        card_uses[c] += 1
    for u in house.under:
        if u:
            card_uses[u] += 1
    for rid in house.discard_rooms:
        card_uses[rules.room(rid).code] += 1
    return card_uses


def _card_count_violations(rules: Ruleset, house: House, card_uses: list[int], out: list[Violation]) -> None:
    """Room, roof and held cards against the deck's counts (COMP-5)."""
    t = rules.tables
    room_count = t.room_count
    for code in range(ROOM0, t.n_codes):
        if card_uses[code] > room_count[code]:
            room = rules.room_of_code(code)
            out.append(
                _keyed(
                    "COMP-5",
                    None,
                    f"{card_uses[code]} {room.name.lower()} cards; the deck holds {room.count}",
                    "violation.count.rooms",
                    ("count", card_uses[code]),
                    ("room", room.id),
                    ("limit", room.count),
                )
            )
    if house.roofs or house.discard_roofs:
        roof_uses = [0] * t.n_roof_colours
        window_uses = [0] * t.n_roof_colours
        for colour, window in house.roofs + house.discard_roofs:
            roof_uses[colour] += 1
            if window:
                window_uses[colour] += 1
        for roof in rules.roofs:
            n_roofs, w = roof_uses[roof.index], window_uses[roof.index]
            if n_roofs > roof.count or w > roof.windows:
                out.append(
                    _keyed(
                        "COMP-5",
                        None,
                        f"{n_roofs} {roof.name.lower()} roof cards ({w} with a window); the deck "
                        f"holds {roof.count} ({roof.windows} with a window)",
                        "violation.count.roofs",
                        ("count", n_roofs),
                        ("roof", roof.id),
                        ("windows", w),
                        ("limit", roof.count),
                        ("limit_windows", roof.windows),
                    )
                )
    held_cards = house.helpers + house.tools
    if held_cards:
        for cid, n_held in Counter(held_cards).items():
            if n_held > t.held_count[cid]:
                out.append(
                    _keyed(
                        "COMP-5",
                        None,
                        f"{n_held} {rules.held(cid).name.lower()} cards; the deck holds {t.held_count[cid]}",
                        "violation.count.held",
                        ("count", n_held),
                        ("card", cid),
                        ("limit", t.held_count[cid]),
                    )
                )


def _scaffold_violations(rules: Ruleset, house: House, card_uses: list[int], out: list[Violation]) -> None:
    """TOOL-SCAFFOLDING: no more scaffold than the deck's scaffold cards."""
    t = rules.tables
    cells = house.cells
    names = rules.board.cells
    scaffolds = card_uses[SCAFFOLD]
    if scaffolds > t.scaffold_limit:
        first = cells.index(SCAFFOLD)
        cards = rules.cards_with_effect("scaffold")
        out.append(
            _keyed(
                "TOOL-SCAFFOLDING",
                names[first],
                f"{scaffolds} × {rules.effect_card_name('scaffold', 'scaffold')}; the game has {t.scaffold_limit}",
                "violation.scaffolds" if cards else "",
                ("count", scaffolds),
                *((("card", cards[0].id),) if cards else ()),
                ("limit", t.scaffold_limit),
            )
        )


def _rounds(n: int) -> str:
    return "1 round" if n == 1 else f"{n} rounds"


def final_state_violations(rules: Ruleset, house: House) -> list[Violation]:
    """What a house must satisfy when the game is over and is scored (ROUND-6): every rule of a
    legal state, exactly one room card for each round (every round's turn takes one, or a
    round-start take stands for it), and at most one more per round-start take that costs no turn
    (TOOL-TIMING; `engine.placement.final_room_cards`), so every space when the board has one
    space per round (the base game's 12); and no scaffold left, since a room card must replace it
    before the end (TOOL-SCAFFOLDING). A state check cannot know the round a house is in, so
    `house_violations` allows a house in play; this is the check for the end."""
    out = house_violations(rules, house)
    cells = house.cells
    names = rules.board.cells
    placed = sum(1 for c in cells if c >= FACE_DOWN)
    rounds = rules.game.rounds
    allowed = final_room_cards(rules)
    if placed < allowed.start:
        empty = [names[i] for i, c in enumerate(cells) if c == EMPTY]
        listed = f"{', '.join(empty[:4])}{', …' if len(empty) > 4 else ''}"
        where = f"; empty: {listed}" if empty else ""
        every = rounds == len(cells)
        key = "violation.too_few" + (".every" if every else "") + (".empty" if empty else "")
        out.append(
            _keyed(
                "ROUND-6",
                None,
                f"the house holds {placed} room cards at the end; {_rounds(rounds)} "
                f"give{'s' if rounds == 1 else ''} it at least {rounds}, one a round"
                + (" on every space" if every else "")
                + where,
                key if rounds > 1 else "",
                ("placed", placed),
                ("rounds", rounds),
                *((("cells", listed),) if empty else ()),
            )
        )
    elif placed > allowed[-1]:
        more = f" (and {allowed[-1] - rounds} round-start takes without skip_turn)" if allowed[-1] > rounds else ""
        out.append(
            _keyed(
                "ROUND-6",
                None,
                f"the house holds {placed} room cards at the end; {_rounds(rounds)}{more} "
                f"give{'s' if rounds == 1 and not more else ''} it at most "
                f"{allowed[-1]}, one a round",
                ("violation.too_many.takes" if more else "violation.too_many") if rounds > 1 else "",
                ("placed", placed),
                ("rounds", rounds),
                *((("takes", allowed[-1] - rounds),) if more else ()),
                ("most", allowed[-1]),
            )
        )
    furnishings = rules.furnishings
    resources = len(house.roofs) + len(house.helpers) + len(house.tools)
    resources += sum(1 for tok in house.tokens if tok and furnishings[tok - 1].is_card)
    resources += sum(1 for fid in house.outside if rules.furnishing(fid).is_card)
    most = final_resource_cards(rules)
    if resources > most:
        out.append(
            _keyed(
                "ROUND-3",
                None,
                f"the house shows {resources} resource cards at the end; {_rounds(rounds)} and the end's roof takes give it "
                f"at most {most}, one a round",
                "violation.too_many_resources" if rounds > 1 else "",
                ("resources", resources),
                ("rounds", rounds),
                ("most", most),
            )
        )
    scaffold_cards = rules.cards_with_effect("scaffold") if SCAFFOLD in cells else ()
    for i, c in enumerate(cells):
        if c == SCAFFOLD:
            out.append(
                _keyed(
                    "TOOL-SCAFFOLDING",
                    names[i],
                    f"{rules.effect_card_name('scaffold', 'scaffold')} is left at the end; a room card must replace it (ROUND-6)",
                    "violation.scaffold_left" if scaffold_cards else "",
                    *((("card", scaffold_cards[0].id),) if scaffold_cards else ()),
                )
            )
    return out


def summarize_violations(violations: list[Violation], limit: int = 3) -> str:
    """The first few violations on one line, for error messages that must stay one line."""
    listed = "; ".join(str(v) for v in violations[:limit])
    more = f"; +{len(violations) - limit} more" if len(violations) > limit else ""
    return listed + more


def is_legal(rules: Ruleset, house: House) -> bool:
    return not house_violations(rules, house)
