"""No silent field (issue #11, item 1): every form of the rules language means something, or is refused.

The forms are ENUMERATED, not listed by hand: the declarations, game and board fields, card kinds,
card fields, bonus items, conditions and effect flags come from the grammar
(dreamhome/dsl/grammar.lark); the fields each card kind takes from the compiler (CARD_FIELDS);
the effects with every argument, timing and flag, the options and their values, the awards, the
categories, floor kinds, roof scoring fields and provenance marks from dreamhome/vocabulary.py.
`test_every_form_has_a_case` fails when a form is added without a case here.

Each case compiles `include "base.dh"` plus one override and shows a behaviour change against a
second ruleset, through an observation computed independently of the code under test: the
difference of two scores of the same house set against the arithmetic of the override, cells
counted, legal placements, deck sizes, game event streams under the same seed, the SVG text, the
`rules show --assumed` listing. A (kind, field) pair the compiler does not allow is refused by
`rules check` with file:line:column (test_disallowed_fields_are_refused).

Effect shapes (each effect with every place, timing and flag, on a helper and on a tool): `rules check`
refuses exactly the ones docs/language.md's support matrix and RES-EFFECTS refuse (written out here by
hand, `MATRIX` and `NOT_ON`), at the effect's line. Every other one means something: a passive effect
(`score`, `tokens_keep_open`) changes the score or the placements of a house holding the card, against
the same card with a do-nothing effect (`score(bonus_plus 0)`); any other is offered, naming the card,
in a phase of its timing in seeded games, and applying it changes the game. A form accepted with no
meaning would be a silent form (`SILENT`, strict xfail with its reason): there is none left.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dreamhome.cli import main
from dreamhome.dsl.compiler import BASE_RULES, CARD_FIELDS, check_rules, compile_rules
from dreamhome.engine.placement import legal_placements
from dreamhome.errors import DreamhomeError
from dreamhome.game.state import GameState
from dreamhome.house import House, house_from_json
from dreamhome.legality import house_violations
from dreamhome.players.playing import play_game
from dreamhome.players.roster import make_bot
from dreamhome.render.house_svg import house_svg
from dreamhome.render.rules_report import rules_report
from dreamhome.ruleset import Ruleset
from dreamhome.scoring import score_total
from dreamhome.vocabulary import (
    AWARDS,
    CATEGORY_FLOOR_KIND,
    EFFECTS,
    FLOOR_KINDS,
    OPTIONS,
    PLACES,
    PROVENANCE_TAGS,
    ROOF_SCORING_FIELDS,
)
from tests.helpers.paths import ROOT

GRAMMAR = ROOT / "dreamhome" / "dsl" / "grammar.lark"
NAME_WORD = "name"
"""`name LANG "…"`: a field every card kind and a bonus take (docs/language.md), kept by the compiler apart
from CARD_FIELDS (one field per language, keyed `name:LANG`)."""
CARD_KINDS_OF_COMPILER = ("room", "roof", "furnishing", "token", "helper", "tool")


# ---- the forms, from the grammar and the vocabulary -----------------------------------------
@cache
def grammar_rules() -> dict[str, str]:
    """Rule name (without its ?/! prefix) → its body, continuation lines joined."""
    rules: dict[str, str] = {}
    name = ""
    for line in GRAMMAR.read_text(encoding="utf-8").splitlines():
        line = line.split("//", 1)[0].rstrip()
        head = re.match(r"^([?!]?)([a-z_]+)\s*:(.*)$", line)
        if head:
            name = head.group(2)
            rules[name] = head.group(3)
        elif name and line.strip().startswith("|"):
            rules[name] += " " + line.strip()
        elif not line.strip():
            name = ""
    return rules


def alternatives(rule: str) -> list[str]:
    """The alternatives of a rule whose body is `a | b | c` (names or quoted words)."""
    return [alt.strip().strip('"') for alt in grammar_rules()[rule].split("|")]


def field_word(rule: str) -> str:
    """The keyword a card field starts with in the grammar (`bonus_field: "bonus" INT …` → bonus)."""
    return re.findall(r'"([a-z_]+)"', grammar_rules()[rule])[0]


def effect_shapes() -> list[tuple[str, str, str]]:
    """(kind, effect text, trigger) for every effect call the compiler accepts: each effect with every
    combination of its positional places, and each trigger (none, each timing, each flag) alone."""
    shapes = []
    for name, shape in EFFECTS.items():
        if shape.keywords:
            calls = [f"{name}({kw} 2)" for kw in shape.keywords]
        elif shape.positional:
            calls = [f"{name}({', '.join(args)})" for args in product(*shape.positional)]
        else:
            calls = [name]
        triggers = [""] + [f"at {t}" for t in shape.timings] + list(shape.flags)
        for kind, call, trigger in product(("helper", "tool"), calls, triggers):
            shapes.append((kind, call, trigger))
    return shapes


def enumerated_forms() -> set[tuple[str, ...]]:
    """Every form of the language, derived from the grammar, the compiler and the vocabulary."""
    forms: set[tuple[str, ...]] = set()
    forms |= {("decl", d) for d in alternatives("_item")}
    forms |= {("game", f) for f in alternatives("game_field")}
    forms |= {("board", f) for f in alternatives("board_field")}
    forms |= {("bonus", f) for f in alternatives("bonus_item")}
    forms |= {("condition", c) for c in alternatives("condition")}
    forms |= {("effect_flag", f) for f in alternatives("effect_flag")}
    for kind in alternatives("card_kind"):
        required, optional = CARD_FIELDS[kind]
        forms |= {("field", kind, f) for f in required | optional | {NAME_WORD}}
    forms |= {("effect", *s) for s in effect_shapes()}
    forms |= {("option", name, value) for name, values in OPTIONS.items() for value in values}
    forms |= {("award", a) for a in AWARDS}
    forms |= {("category", c) for c in CATEGORY_FLOOR_KIND}
    forms |= {("floor_kind", k) for k in FLOOR_KINDS}
    forms |= {("roof_scoring", f) for f in ROOF_SCORING_FIELDS}
    forms |= {("provenance", t) for t in PROVENANCE_TAGS}
    return forms


# ---- compiling and observing -----------------------------------------------------------------
@cache
def rules_of(text: str, variants: tuple[str, ...] = ()) -> Ruleset:
    return compile_rules(text=text, name="case.dh", variants=list(variants))


def over_base(*lines: str) -> str:
    return 'include "base.dh"\n' + "\n".join(lines) + "\n"


BASE = over_base()

# A legal finished house of the base game (docs/formats.md), written out by hand so that every
# expected difference below is arithmetic on the override, not a value read back from the code.
HOUSE: dict[str, Any] = {
    "floors": {
        "top": [
            {"room": "bedroom"},
            {"room": "bedroom"},
            {"room": "dressing_room"},
            {"room": "childrens_room"},
            {"room": "study"},
        ],
        "middle": [
            {"room": "kitchen"},
            {"room": "kitchen"},
            {"room": "pantry"},
            {"room": "bathroom"},
            {"room": "living_room", "token": "piano"},
        ],
        "basement": [{"room": "garage"}, {"room": "storage_room"}],
    },
    "roofs": [{"color": "red", "window": True}, {"color": "red"}, {"color": "red"}, {"color": "red"}, {"color": "blue"}],
    "outside": ["treehouse"],
}


def house(rules: Ruleset, data: dict[str, Any] | None = None, **changes: Any) -> House:
    doc = dict(data or HOUSE)
    doc.update(changes)
    return house_from_json(rules, doc)


def floors_with(**cells: Any) -> dict[str, Any]:
    """HOUSE's floors with some cells replaced: floors_with(middle={4: {...}})."""
    floors = {name: list(row) for name, row in HOUSE["floors"].items()}
    for floor, changes in cells.items():
        for col, cell in changes.items():
            floors[floor][col] = cell
    return floors


def score_of(text: str, data: dict[str, Any] | None = None, variants: tuple[str, ...] = (), **changes: Any) -> int:
    rules = rules_of(text, variants)
    h = house(rules, data, **changes)
    assert not house_violations(rules, h), house_violations(rules, h)
    return score_total(rules, h)


def score_delta(text: str, **changes: Any) -> int:
    """Score of HOUSE (with changes) under base + override, minus under base."""
    return score_of(text, **changes) - score_of(BASE, **changes)


def violations(text: str, data: dict[str, Any], variants: tuple[str, ...] = ()) -> set[str]:
    rules = rules_of(text, variants)
    return {v.rule for v in house_violations(rules, house_from_json(rules, data))}


def game_trace(text: str, seed: int, players: int = 2, variants: tuple[str, ...] = ()) -> tuple[Any, ...]:
    """A whole game between random bots: every event and the final scores."""
    result = play_game(rules_of(text, variants), players, ["random"] * players, seed)
    return (repr(result.state.events), tuple(result.scores()))


def games_differ(a: str, b: str, seeds: range = range(1, 7), players: int = 2, variants: tuple[str, ...] = ()) -> bool:
    return any(game_trace(a, s, players, variants) != game_trace(b, s, players, variants) for s in seeds)


def placements(text: str, room: str, data: dict[str, Any] | None = None) -> set[str]:
    """The cells (by name) where `room` may go face up in the house (default: an empty one); face down
    (PLACE-EMPTY) a card goes on any supported cell."""
    rules = rules_of(text)
    h = House.empty(rules) if data is None else house_from_json(rules, data)
    return {rules.board.cells[p.cell] for p in legal_placements(rules, h, room) if not p.face_down}


def deck_sizes(text: str, variants: tuple[str, ...] = ()) -> tuple[int, int, int]:
    """Room cards, resource cards, and resource roof cards with a window, as a new game holds them."""
    state = GameState(rules_of(text, variants), 2, 0)
    windows = sum(1 for r in state.res_deck if r.kind == "roof" and r.window)
    return len(state.room_deck), len(state.res_deck), windows


def refused_at(text: str) -> list[tuple[int, int, str]]:
    """`rules check` on the text as a file: (line, column, message) of each error; [] when it passes."""
    errors, _warnings = check_rules(text=text, name="case.dh")
    return [(d.line, d.column, d.message) for d in errors]


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def winners(text: str, a: dict[str, Any], b: dict[str, Any]) -> list[int]:
    """SCORE-WIN: who wins a finished two-player game whose houses are a and b."""
    rules = rules_of(text)
    state = GameState(rules, 2, 0)
    state.houses = [house_from_json(rules, a), house_from_json(rules, b)]
    return state.winners()


# ---- the cases: each returns normally when the form shows its meaning ------------------------
Case = Callable[[], None]
CASES: dict[tuple[str, ...], Case] = {}
SILENT: dict[tuple[str, ...], str] = {}
"""Forms accepted by `rules check` that change nothing today (or not what the docs say), with the reason
(strict xfail: each flips when its form gets a meaning or a refusal). Empty since #11 items 1 and 2: a
board declared again replaces the board, an annex is the one category that takes a bonus (SCORE-ROOMS),
every effect shape the matrix lists is offered at its timing on a tool or a helper alike (TOOL-TIMING),
and the rest is refused (RES-EFFECTS and the matrix)."""


def case(*form: str) -> Callable[[Case], Case]:
    def register(func: Case) -> Case:
        assert form not in CASES, form
        CASES[form] = func
        return func

    return register


# Declarations.
@case("decl", "include")
def _include() -> None:
    """Without the include a lone card is not a game (refused); with it the base cards are all there."""
    assert refused_at("room attic { category normal  points 1  count 0 }\n")
    rules = rules_of(over_base("room attic { category normal  points 1  count 0 }"))
    assert {r.id for r in rules.rooms} == {r.id for r in rules_of(BASE).rooms} | {"attic"}


@case("decl", "inlined")
def _inlined() -> None:
    """An include expanded in place (game records): the same game without following any include."""
    text = f'inlined "base.dh" {{\n{BASE_RULES.read_text(encoding="utf-8")}\n}}\nroom kitchen {{ points 1 7 }}\n'
    rules = compile_rules(text=text, name="record.dh", allow_includes=False)
    assert score_total(rules, house(rules)) == score_of(BASE) + 1  # kitchen of two: 6 → 7
    assert refused_at('inlined "base.dh" {\n}\n')  # nothing inside: no game


@case("decl", "game")
def _decl_game() -> None:
    """A `game` declaration merges field by field: changing the rounds alone keeps the rest."""
    g = rules_of(over_base("game dream_home { rounds 10 }")).game
    b = rules_of(BASE).game
    assert (g.rounds, g.min_players, g.max_players, g.deal_rooms) == (10, b.min_players, b.max_players, b.deal_rooms)


@case("decl", "board")
def _decl_board() -> None:
    """A `board` declared again replaces the whole board (docs/language.md): the base board's 12 spaces
    under new floor names are 12 spaces, none of base's top, middle or basement left (a merge would give 24)."""
    rules = rules_of(
        over_base(
            "board {\n floor upstairs upper columns 0..4\n floor downstairs upper columns 0..4\n"
            " floor cellar basement columns 3..4\n roof_pile under downstairs columns 0..2\n}"
        )
    )
    assert rules.board.size == 12
    assert {name.split("/")[0] for name in rules.board.cells} == {"upstairs", "downstairs", "cellar"}


@case("decl", "card")
def _decl_card() -> None:
    """A new card id adds a card: the new room may be placed in an empty house."""
    text = over_base("room attic { category normal  points 1  count 1 }")
    assert placements(text, "attic") == placements(text, "bedroom") != set()


@case("decl", "bonus")
def _decl_bonus() -> None:
    """A new bonus scores when its condition holds (HOUSE has a study): +4."""
    assert score_delta(over_base("bonus quiet { points 4  when has study }")) == 4


@case("decl", "roof_scoring")
def _decl_roof_scoring() -> None:
    """HOUSE's best roof is four red cards, one window: uniform 8 → 11 adds 3."""
    assert score_delta(over_base("roof_scoring { size 4  uniform 11  mixed 3  window 1 }")) == 3


@case("decl", "option")
def _decl_option() -> None:
    """An option declared changes its value; undeclared it takes the default (first of vocabulary.OPTIONS)."""
    assert rules_of(over_base("option tiebreak = none")).options["tiebreak"] == "none"
    assert (
        compile_rules(text=BASE_RULES.read_text().replace("option tiebreak = children", ""), name="b.dh").options["tiebreak"]
        == (OPTIONS["tiebreak"][0])
    )


@case("decl", "variant")
def _decl_variant() -> None:
    """A variant block changes nothing until switched on, then merges over the rules."""
    text = over_base("variant k7 { room kitchen { points 1 7 } }")
    assert score_of(text) == score_of(BASE)
    assert score_of(text, variants=("k7",)) == score_of(BASE) + 1


# Game fields.
@case("game", "players")
def _players() -> None:
    with pytest.raises(DreamhomeError):
        GameState(rules_of(BASE), 5, 0)
    assert len(GameState(rules_of(over_base("game dream_home { players 2..5 }")), 5, 0).houses) == 5


def _deals(text: str, players: int = 2, seed: int = 3) -> list[dict[str, Any]]:
    result = play_game(rules_of(text), players, ["random"] * players, seed)
    return [e for e in result.state.events if e.get("event") == "deal"]


def _actions(text: str, kind: str, players: int, seed: int = 3) -> int:
    result = play_game(rules_of(text), players, ["random"] * players, seed)
    return sum(1 for e in result.state.events if isinstance(e.get("action"), dict) and e["action"].get("type") == kind)


@case("game", "rounds")
def _rounds() -> None:
    """ROUND-6: a game deals once per round."""
    assert len(_deals(over_base("game dream_home { rounds 9 }"), seed=0)) == 9
    assert len(_deals(BASE)) == 12


@case("game", "deal")
def _deal() -> None:
    """COMP-1, COMP-3: the first deal puts `rooms` room cards and `resources` resource cards on the track."""
    first = _deals(over_base("game dream_home { deal rooms 4 resources 3 }"))[0]
    assert (len(first["rooms"]), sum(1 for r in first["resources"] if r is not None)) == (4, 3)


@case("game", "discard")
def _discard() -> None:
    """ROUND-1: with 4 players nobody discards a column in the base game; `discard players 2..4` makes them."""
    assert _actions(BASE, "DiscardColumn", 4) == 0
    assert _actions(over_base("game dream_home { discard players 2..4 }"), "DiscardColumn", 4) == 12


# Board fields.
@case("board", "floor")
def _floor() -> None:
    """A floor adds its columns to the board (count: 5 + 5 + 5 + 2)."""
    text = over_base(
        "board {\n floor attic upper columns 0..4\n floor top upper columns 0..4\n floor middle upper columns 0..4\n"
        " floor basement basement columns 3..4\n roof_pile under middle columns 0..2\n}"
    )
    assert rules_of(text).board.size == rules_of(BASE).board.size + 5 == 17


BOARD_NO_PILE = (
    "board {\n floor top upper columns 0..4\n floor middle upper columns 0..4\n floor basement basement columns 3..4\n"
)
"""base.dh's board without its closing brace and its roof pile line (the floors are lines 3 to 5 of a case)."""


@case("board", "roof_pile")
def _roof_pile() -> None:
    """COMP-2, PLACE-A: the roof pile is what holds up the middle floor's columns 0-2, which have no floor
    under them. Without the pile line the board is refused at the middle floor, naming the columns that
    would float; a pile under 0..1 leaves column 2 floating; under 0..2 those spaces take a room card in
    an empty house."""
    assert [(line, m) for line, _c, m in refused_at(over_base(BOARD_NO_PILE + "}"))] == [
        (4, "floor middle: columns 0, 1, 2 have no floor and no roof pile below (PLACE-A, COMP-2)")
    ]
    short = refused_at(over_base(BOARD_NO_PILE + " roof_pile under middle columns 0..1\n}"))
    assert [(line, m) for line, _c, m in short] == [
        (4, "floor middle: column 2 has no floor and no roof pile below (PLACE-A, COMP-2)")
    ]
    with_pile = over_base(BOARD_NO_PILE + " roof_pile under middle columns 0..2\n}")
    assert {"middle/0", "middle/1", "middle/2"} <= placements(with_pile, "bedroom")


# Floor kinds and categories (PLACE-B).
@case("floor_kind", "upper")
def _upper() -> None:
    """A basement floor redeclared as upper takes normal rooms and no longer the garage."""
    text = over_base(
        "board {\n floor top upper columns 0..4\n floor middle upper columns 0..4\n floor basement upper columns 3..4\n"
        " roof_pile under middle columns 0..2\n}\nroom garage { category normal }\nroom storage_room { category normal }"
        "\nroom laundry { category normal }\nroom workshop { category normal }\nroom wine_cellar { category normal }"
    )
    assert "basement/3" in placements(text, "bedroom")
    assert "basement/3" not in placements(BASE, "bedroom")


@case("floor_kind", "basement")
def _basement() -> None:
    assert placements(BASE, "garage") == {"basement/3", "basement/4"}


@case("category", "normal")
def _normal() -> None:
    """The garage as a normal room goes where a bedroom goes."""
    assert placements(over_base("room garage { category normal }"), "garage") == placements(BASE, "bedroom")


@case("category", "basement")
def _category_basement() -> None:
    assert placements(over_base("room kitchen { category basement }"), "kitchen") == {"basement/3", "basement/4"}


@case("category", "annex")
def _annex() -> None:
    """SCORE-ROOMS: only an annex scores a bonus. HOUSE's study (top/4, one card beside the children's
    room) made an annex with `bonus 3 beside childrens_room` scores 3 instead of 1; the same bonus on the
    study as a normal room is refused at the bonus, and the pantry made normal at its category (the field
    each override wrote)."""
    assert score_delta(over_base("room study { category annex  bonus 3 beside childrens_room }")) == 2
    assert [(line, col) for line, col, _m in refused_at(over_base("room study { bonus 3 beside childrens_room }"))] == [(2, 14)]
    refused = refused_at(over_base("room pantry { category normal }"))
    assert [(line, col) for line, col, _m in refused] == [(2, 15)]
    assert "only an annex" in refused[0][2]


# Room fields.
@case("field", "room", "category")
def _room_category() -> None:
    _category_basement()


@case("field", "room", "points")
def _room_points() -> None:
    """SCORE-ROOMS: HOUSE's kitchen room has 2 cards: 6 → 7."""
    assert score_delta(over_base("room kitchen { points 1 7 }")) == 1


@case("field", "room", "count")
def _room_count() -> None:
    a, b = deck_sizes(over_base("room kitchen { count 9 }")), deck_sizes(BASE)
    assert (a[0] - b[0], a[1] - b[1]) == (2, 0)


@case("field", "room", "bonus")
def _room_bonus() -> None:
    """The pantry stands beside a kitchen in HOUSE: bonus 3 → 5."""
    assert score_delta(over_base("room pantry { bonus 5 beside kitchen }")) == 2
    assert score_delta(over_base("room pantry { bonus 5 beside study }")) == -2  # no study beside it: points 1
    assert [(line, col) for line, col, _m in refused_at(over_base("room pantry { bonus -1 beside kitchen }"))] == [(2, 15)]


@case("field", "room", "children")
def _children() -> None:
    """SCORE-WIN: a bathroom alone and a storage room alone score 1 each; children on the bathroom break the tie."""
    a = {"floors": {"middle": [{"room": "bathroom"}, None, None, None, None]}}
    b = {"floors": {"basement": [{"room": "storage_room"}, None]}}
    assert winners(BASE, a, b) == [0, 1]
    assert winners(over_base("room bathroom { children 1 }"), a, b) == [0]


# Roof fields.
@case("field", "roof", "count")
def _roof_count() -> None:
    a, b = deck_sizes(over_base("roof red { count 8 }")), deck_sizes(BASE)
    assert (a[0] - b[0], a[1] - b[1]) == (0, 2)


@case("field", "roof", "windows")
def _windows() -> None:
    """The deck's red cards with a window: 1 → 3. A roof of four red cards with two windows is then legal
    (COMP-5 refuses it in the base game) and scores one window point more than HOUSE's (SCORE-ROOF)."""
    assert deck_sizes(over_base("roof red { windows 3 }"))[2] - deck_sizes(BASE)[2] == 2
    two = [{"color": "red", "window": True}, {"color": "red", "window": True}, {"color": "red"}, {"color": "red"}]
    assert "COMP-5" in violations(BASE, dict(HOUSE, roofs=two))
    assert score_of(over_base("roof red { windows 3 }"), roofs=two) - score_of(BASE) == 1


@case("field", "roof", "colour")
def _colour() -> None:
    """Pictures only: the SVG of a house with a red roof card draws it in the declared colour."""
    rules = rules_of(over_base('roof red { colour "#123abc" }'))
    assert "#123abc" in house_svg(rules, house(rules)).lower()
    assert "#123abc" not in house_svg(rules_of(BASE), house(rules_of(BASE))).lower()


# Furnishing fields.
@case("field", "furnishing", "points")
def _furn_points() -> None:
    """SCORE-FURN: the piano on HOUSE's living room: 3 → 5."""
    assert score_delta(over_base("furnishing piano { points 5 }")) == 2


@case("field", "furnishing", "count")
def _furn_count() -> None:
    a, b = deck_sizes(over_base("furnishing piano { count 3 }")), deck_sizes(BASE)
    assert a[1] - b[1] == 2


@case("field", "furnishing", "room")
def _furn_room() -> None:
    """FURN-TYPE: the piano on a kitchen is illegal in the base game, legal once its room is the kitchen."""
    data = dict(HOUSE, floors=floors_with(middle={0: {"room": "kitchen", "token": "piano"}, 4: {"room": "living_room"}}))
    assert "FURN-TYPE" in violations(BASE, data)
    assert violations(over_base("furnishing piano { room kitchen }"), data) == set()


@case("field", "furnishing", "outside")
def _furn_outside() -> None:
    """FURN-TYPE: a token outside the house is legal only for an `outside` furnishing."""
    data = dict(HOUSE, outside=["treehouse", "lamp"])
    assert violations(over_base("furnishing lamp { outside  points 2  count 1 }"), data) == set()
    assert violations(over_base("furnishing lamp { room study  points 2  count 1 }"), data)


# Token fields: a card-less token of this file (the car of VAR-CAR is one).
def _flag_house(**cells: Any) -> dict[str, Any]:
    return dict(HOUSE, floors=floors_with(**cells))


FLAG_ON_GARAGE = _flag_house(basement={0: {"room": "garage", "token": "flag"}})


@case("field", "token", "points")
def _token_points() -> None:
    """SCORE-FURN: a token on HOUSE's garage scores its points: 2 → 5."""
    two = over_base("token flag { room garage  points 2 }")
    five = over_base("token flag { room garage  points 5 }")
    assert score_of(five, FLAG_ON_GARAGE) - score_of(two, FLAG_ON_GARAGE) == 3


@case("field", "token", "room")
def _token_room() -> None:
    """FURN-TYPE: the token may sit only on a room of its type."""
    on_study = _flag_house(top={4: {"room": "study", "token": "flag"}})
    assert "FURN-TYPE" in violations(over_base("token flag { room garage  points 1 }"), on_study)
    assert violations(over_base("token flag { room study  points 1 }"), on_study) == set()


@case("field", "token", "outside")
def _token_outside() -> None:
    data = dict(HOUSE, outside=["treehouse", "flag"])
    assert violations(over_base("token flag { outside  points 1 }"), data) == set()
    assert violations(over_base("token flag { room study  points 1 }"), data)


@case("field", "token", "award")
def _award_field() -> None:
    """VAR-CAR: with the award the car is given during play; without it the token is never given."""
    with_award = over_base("token prize { room garage  points 1  award first_complete }")
    without = over_base("token prize { room garage  points 1 }")
    assert games_differ(with_award, without)


@case("award", "first_complete")
def _first_complete() -> None:
    _award_field()


@case("field", "token", "count")
def _token_count() -> None:
    """COMP-5 for tokens: two flags in a house are legal when there are two, not when there is one."""
    two_flags = _flag_house(middle={0: {"room": "kitchen", "token": "flag"}}, top={4: {"room": "kitchen", "token": "flag"}})
    assert violations(over_base("token flag { room kitchen  points 1  count 2 }"), two_flags) == set()
    assert violations(over_base("token flag { room kitchen  points 1  count 1 }"), two_flags) != set()


# Helper and tool fields.
@case("field", "helper", "count")
def _helper_count() -> None:
    a, b = deck_sizes(over_base("helper architect { count 4 }")), deck_sizes(BASE)
    assert a[1] - b[1] == 2


@case("field", "tool", "count")
def _tool_count() -> None:
    a, b = deck_sizes(over_base("tool drill { count 3 }")), deck_sizes(BASE)
    assert a[1] - b[1] == 2


@case("field", "helper", "effect")
def _helper_effect() -> None:
    """HELP-ARCHITECT: a held helper with score(bonus_plus 2) adds 2 per bonus met (HOUSE meets one: full_service)."""
    text = over_base("helper probe { count 1  effect score(bonus_plus 2) }")
    assert score_of(text, helpers=["probe"]) - score_of(BASE) == 2


@case("field", "tool", "effect")
def _tool_effect() -> None:
    """TOOL-DRILL: a tool whose effect swaps a house card with the track changes what games offer
    (against the same card swapping two track cards instead; a second scaffold card is refused)."""
    assert games_differ(
        over_base("tool drill { effect swap(house, track) before_take }"),
        over_base("tool drill { effect swap(track, track) before_take }"),
    )


# Names in other languages: `name LANG "…"` on every card kind and on a bonus.
NAMED = {
    "room": ("kitchen", ""),
    "roof": ("red", ""),
    "furnishing": ("piano", ""),
    "token": ("flag", "room garage  points 1"),
    "helper": ("architect", ""),
    "tool": ("drill", ""),
    "bonus": ("full_service", ""),
}
"""A card (or bonus) of each kind and the fields it needs when new (the token is card-less, so new)."""


def _name_case(kind: str) -> Case:
    def run() -> None:
        """The Russian name a rules file gives is the card's name in Russian, and a player may type it
        (any case) for the card; the same card without it has another Russian name and no card is so named."""
        ident, body = NAMED[kind]
        named = rules_of(over_base(f'{kind} {ident} {{ {body}  name ru "Пробник" }}'))
        plain = rules_of(over_base(f"{kind} {ident} {{ {body} }}") if body else BASE)
        assert named.card_name(ident, "ru") == "Пробник" != plain.card_name(ident, "ru")
        assert named.find_card("пРОБНИК") == ident
        assert plain.find_card("Пробник") is None

    return run


for _kind in NAMED:
    CASES[("bonus", "name_field") if _kind == "bonus" else ("field", _kind, "name")] = _name_case(_kind)


# Bonuses and conditions.
@case("bonus", "points")
def _bonus_points() -> None:
    """SCORE-FUNC-B: HOUSE has a bathroom, a kitchen and a bedroom: full_service 3 → 5."""
    assert score_delta(over_base("bonus full_service { points 5 }")) == 2


@case("bonus", "when")
def _bonus_when() -> None:
    """The condition decides: HOUSE has no wine cellar."""
    assert score_delta(over_base("bonus full_service { when has wine_cellar }")) == -3


@case("condition", "has_cond")
def _has() -> None:
    assert score_delta(over_base("bonus quiet { points 4  when has bedroom }")) == 4


@case("condition", "every_cond")
def _every() -> None:
    """SCORE-FUNC-A: HOUSE's bedrooms are all on the top floor, so not on every upper floor."""
    assert score_delta(over_base("bonus quiet { points 4  when every upper floor has bedroom }")) == 0
    assert score_delta(over_base("bonus quiet { points 4  when every basement floor has garage }")) == 4


# Roof scoring (SCORE-ROOF): HOUSE's roofs are four red cards (one window) and a blue one.
MIXED = [{"color": "red", "window": True}, {"color": "blue"}, {"color": "green"}, {"color": "yellow"}]


@case("roof_scoring", "size")
def _size() -> None:
    """size 5: the five roof cards make one mixed roof (3 + 1 window) instead of four red (8 + 1)."""
    assert score_delta(over_base("roof_scoring { size 5  uniform 8  mixed 3  window 1 }")) == -5


@case("roof_scoring", "uniform")
def _uniform() -> None:
    _decl_roof_scoring()


@case("roof_scoring", "mixed")
def _mixed() -> None:
    text = over_base("roof_scoring { size 4  uniform 8  mixed 6  window 1 }")
    assert score_of(text, roofs=MIXED) - score_of(BASE, roofs=MIXED) == 3


@case("roof_scoring", "window")
def _window() -> None:
    assert score_delta(over_base("roof_scoring { size 4  uniform 8  mixed 3  window 4 }")) == 3


# Effect flags.
@case("effect_flag", "uses_flag")
def _uses() -> None:
    """END-HANDYMAN: uses 3 gives the handyman more swaps; the end game offers them."""
    assert games_differ(
        over_base("helper handyman { count 6  effect swap(house, house) at end uses 3 }"),
        over_base("helper handyman { count 6  effect swap(house, house) at end }"),
    )


@case("effect_flag", "at_flag")
def _at_flag() -> None:
    """TOOL-JACKHAMMER: the jackhammer acts at the start of a round."""
    _effect_case("tool", "take_room(track)", "at round_start")()


@case("effect_flag", "plain_flag")
def _plain_flag() -> None:
    _effect_case("tool", "swap(house, track)", "before_take")()


# Options.
@case("option", "round_discard", "on")
def _round_discard_on() -> None:
    assert _actions(BASE, "DiscardColumn", 2) == 12


@case("option", "round_discard", "off")
def _round_discard_off() -> None:
    """VAR-NODISCARD."""
    assert _actions(over_base("option round_discard = off"), "DiscardColumn", 2) == 0


ABOVE_KITCHEN = dict(
    HOUSE,
    floors=floors_with(top={0: {"room": "pantry"}, 2: {"room": "bedroom"}}, middle={2: {"room": "study"}}),
)
"""HOUSE with the pantry moved to top/0: above a kitchen, beside a bedroom, and no other annex."""


@case("option", "annex_adjacency", "horizontal")
def _horizontal() -> None:
    """Beside means left and right: the pantry at top/0 gets a bonus aimed at the bedroom on its right
    (3 instead of 1), not one aimed at the kitchen under it (test_orthogonal)."""
    assert score_of(over_base("room pantry { bonus 3 beside bedroom }"), ABOVE_KITCHEN) - score_of(BASE, ABOVE_KITCHEN) == 2


@case("option", "annex_adjacency", "orthogonal")
def _orthogonal() -> None:
    """The same pantry gets its bonus (3 instead of 1) when above counts as beside."""
    assert score_of(over_base("option annex_adjacency = orthogonal"), ABOVE_KITCHEN) - score_of(BASE, ABOVE_KITCHEN) == 2


@case("option", "swap_face_down", "allowed")
def _face_down_allowed() -> None:
    _face_down_forbidden()


@case("option", "swap_face_down", "forbidden")
def _face_down_forbidden() -> None:
    """TOOL-DRILL, END-SUPPLIER: forbidding face-down swaps changes what games offer."""
    many = "tool drill { count 6 }\nhelper supplier { count 6 }"
    assert games_differ(over_base(many, "option swap_face_down = forbidden"), over_base(many))


@case("option", "tiebreak", "children")
def _tiebreak_children() -> None:
    _children()


@case("option", "tiebreak", "none")
def _tiebreak_none() -> None:
    a = {"floors": {"middle": [{"room": "bathroom"}, None, None, None, None]}}
    b = {"floors": {"basement": [{"room": "storage_room"}, None]}}
    assert winners(over_base("room bathroom { children 1 }", "option tiebreak = none"), a, b) == [0, 1]


# Provenance marks: they change no rule, and `rules show --assumed` lists exactly the @assumed values.
def _provenance_case(tag: str) -> Case:
    def run() -> None:
        text = over_base(f"room kitchen {{ points 1 6 @{tag} }}")
        rules = rules_of(text)
        assert score_total(rules, house(rules)) == score_of(BASE)
        assert rules_report(rules)["rooms"][[r.id for r in rules.rooms].index("kitchen")]["provenance"]["points"] == tag
        listed = {(ident, fld) for ident, fld, _ref in rules.assumed_values()}
        assert (("kitchen", "points") in listed) == (tag == "assumed")

    return run


for _tag in PROVENANCE_TAGS:
    CASES[("provenance", _tag)] = _provenance_case(_tag)


# Effect shapes: the same card with a do-nothing effect, same seed, same deal.
NULL_EFFECT = "score(bonus_plus 0)"
KEPT_OPEN = {"floors": {"middle": [{"room": "living_room", "token": "piano"}, None, None, None, None]}}
"""A living room of one card with its token: closed (FURN-CLOSES) unless tokens keep rooms open."""


def held_differs(kind: str, probe: str, null: str) -> bool:
    """The probe card held by a house (HOUSE, and a house with a closed room): its score or where a card
    may go changes."""
    held = {"helpers" if kind == "helper" else "tools": ["probe"]}
    if score_of(probe, **held) != score_of(null, **held):
        return True
    face_down = dict(HOUSE, floors=floors_with(top={4: {"face_down": True}}))
    if score_of(probe, face_down, **held) != score_of(null, face_down, **held):
        return True
    return placements(probe, "living_room", dict(KEPT_OPEN, **held)) != placements(null, "living_room", dict(KEPT_OPEN, **held))


MATRIX = {
    "swap(house, track)": ("before_take", "round_start"),
    "swap(track, track)": ("before_take", "round_start"),
    "swap(house, house)": ("end", "before_take"),
    "swap(floor, floor)": ("end",),
    "swap(house, room_discard)": ("end", "before_take"),
    "take(roof_discard, roof_pile)": ("end", "before_take"),
    "take_room(track)": ("round_start",),
    "score(bonus_plus 2)": ("once",),
    "score(empty_room 2)": ("once",),
    "score(token_plus 2)": ("once",),
    "tokens_keep_open": ("once",),
    "scaffold": ("once",),
}
"""docs/language.md's support matrix, written out by hand: each shape and its timings, the default first.
A shape missing here (swap(track, house), swap(track, room_discard)) has no timing at all."""
NOT_ON = {"tool": ("score(", "tokens_keep_open"), "helper": ("scaffold",)}
"""RES-EFFECTS (docs/rules.md): a tool carries no lasting effect, a helper no scaffold."""
PASSIVE = ("score(", "tokens_keep_open")
"""The `at once` effects that change scoring or legality for as long as the card is held (no action)."""
SPARE_SPACES = "game dream_home { rounds 10 }"
"""Two spaces to spare on base's board of 12: a round-start take that costs no turn needs room for the
card it adds (TOOL-TIMING), which base's 12 rounds never leave before a turn was skipped."""
PHASES_OF_TIMING = {
    "round_start": {"round_start"},
    "before_take": {"turn"},
    "end": {"end"},
    "once": {"scaffold_before", "scaffold_after"},
}
"""The game phases (dreamhome.game.phases) in which a use at each timing is a decision."""


def timing_of(call: str, trigger: str) -> str:
    """When the form acts, read from its trigger as docs/language.md says (`skip_turn` goes with
    `at round_start`, the only timing it allows), else the matrix's default."""
    if trigger.startswith("at "):
        return trigger[3:]
    if trigger == "before_take":
        return "before_take"
    return MATRIX[call][0]


def expected_refused(kind: str, call: str, trigger: str) -> bool:
    """Whether docs/language.md and RES-EFFECTS refuse the form: a shape outside the matrix, a timing the
    shape does not support, `skip_turn` but on take_room, an effect the card kind may not carry."""
    if call not in MATRIX or call.startswith(NOT_ON[kind]):
        return True
    if trigger == "skip_turn" and not call.startswith("take_room"):
        return True
    return timing_of(call, trigger) not in MATRIX[call]


def _changed(state: GameState, action: Any) -> bool:
    """Applying the action changes what it acts on: the actor's house (cards, roofs), the track or the
    discard piles."""
    p = state.current_player()
    after = state.child(action)
    seen = lambda st: (st.houses[p], tuple(st.track_rooms), tuple(st.room_discard), tuple(st.roof_discard))  # noqa: E731
    return seen(after) != seen(state)


def use_offered(text: str, timing: str, seeds: range = range(1, 9)) -> bool:
    """In seeded three-player games between random bots, the probe card's use is among the legal actions
    in a phase of its timing (the action names the card, "Probe"), and applying it changes the game."""
    rules = rules_of(text)
    for seed in seeds:
        state = GameState(rules, 3, seed)
        bots = [make_bot("random", seed, seat) for seat in range(3)]
        while not state.is_terminal():
            actions = state.legal_actions()
            if state.phase.value in PHASES_OF_TIMING[timing]:
                firsts = {type(a): a for a in reversed(actions) if a.role is not None}  # one of each kind of use
                for action in firsts.values():
                    if "Probe" in state.action_text(action) and _changed(state, action):
                        return True
            bot = bots[state.current_player()]
            state.apply_action(bot.choose(state.observation(lookahead=bot.looks_ahead), actions))
    return False


def _effect_case(kind: str, call: str, trigger: str) -> Case:
    def run() -> None:
        """Refused exactly where the docs refuse it, with the effect's line; else it means something: a
        passive effect changes a held house's score or placements, any other is offered at its timing in
        seeded games and changes the game when applied."""
        extra = ()
        if call == "scaffold" and kind == "tool":  # one kind of card carries scaffold (TOOL-SCAFFOLDING): the probe's
            extra = tuple(f"tool {c.id} {{ count 0 }}" for c in rules_of(BASE).tools if c.effect("scaffold"))
        probe = over_base(f'{kind} probe "Probe" {{ count 8  effect {call} {trigger} }}', SPARE_SPACES, *extra)
        errors = refused_at(probe)
        assert bool(errors) == expected_refused(kind, call, trigger), errors
        if errors:
            assert all(line == 2 and column > 0 for line, column, _m in errors), errors
            return
        if call.startswith(PASSIVE):
            null = over_base(f'{kind} probe "Probe" {{ count 8  effect {NULL_EFFECT} }}')
            assert held_differs(kind, over_base(f'{kind} probe "Probe" {{ count 8  effect {call} {trigger} }}'), null)
        else:
            assert use_offered(probe, timing_of(call, trigger)), f"{kind} {call} {trigger}: never offered at its timing"

    return run


for _kind, _call, _trigger in effect_shapes():
    CASES[("effect", _kind, _call, _trigger)] = _effect_case(_kind, _call, _trigger)


# ---- the tests --------------------------------------------------------------------------------
def test_every_form_has_a_case() -> None:
    """Each form of the grammar and the vocabulary has a case, and every case is a form."""
    forms = enumerated_forms()
    assert forms - set(CASES) == set(), "forms with no case"
    assert set(CASES) - forms == set(), "cases for forms that do not exist"
    effect_calls = [form[2] for form in forms if form[0] == "effect"]
    assert {p for p in PLACES if any(p in call for call in effect_calls)} == set(PLACES), "a place no effect case uses"


def test_grammar_fields_are_the_compilers() -> None:
    """The card fields of the grammar are exactly the fields the compiler gives the card kinds, and the
    grammar's card kinds exactly the compiler's."""
    grammar = {field_word(f) for f in alternatives("field")}
    compiler = set().union(*(req | opt for k, (req, opt) in CARD_FIELDS.items() if k in CARD_KINDS_OF_COMPILER)) | {NAME_WORD}
    assert grammar == compiler
    assert set(alternatives("card_kind")) == set(CARD_KINDS_OF_COMPILER)


FIELD_SAMPLES = {
    "category": "category normal",
    "points": "points 1",
    "count": "count 1",
    "bonus": "bonus 1 beside kitchen",
    "children": "children 1",
    "windows": "windows 1",
    "room": "room kitchen",
    "outside": "outside",
    "effect": "effect scaffold",
    "award": "award first_complete",
    "colour": 'colour "#000000"',
}
MINIMAL = {
    "room": "category normal  points 1  count 0",
    "roof": "count 0",
    "furnishing": "outside  points 1  count 0",
    "token": "outside  points 1",
    "helper": "count 0  effect score(bonus_plus 0)",
    "tool": "count 0  effect scaffold",
}


def disallowed_pairs() -> list[tuple[str, str]]:
    fields = sorted(field_word(f) for f in alternatives("field"))
    taken = {k: CARD_FIELDS[k][0] | CARD_FIELDS[k][1] | {NAME_WORD} for k in CARD_KINDS_OF_COMPILER}
    return [(k, f) for k in CARD_KINDS_OF_COMPILER for f in fields if f not in taken[k]]


@pytest.mark.parametrize("kind, fld", disallowed_pairs())
def test_disallowed_fields_are_refused(kind: str, fld: str, tmp_path: Path) -> None:
    """A field a kind does not take: `rules check` exits 2 naming file:line:column of the field."""
    line = f"{kind} newcard {{ {MINIMAL[kind]}  {FIELD_SAMPLES[fld]} }}"
    path = tmp_path / "case.dh"
    path.write_text(over_base(line), encoding="utf-8")
    code, output = cli("rules", "check", str(path))
    assert code == 2
    column = line.index(FIELD_SAMPLES[fld]) + 1
    assert f"{path}:2:{column}:" in output, output


def test_minimal_cards_are_accepted() -> None:
    """The cards the refusal test builds on pass alone, so each refusal is the field's."""
    for kind, body in MINIMAL.items():
        assert refused_at(over_base(f"{kind} newcard {{ {body} }}")) == [], kind


def _marks(form: tuple[str, ...]) -> list[pytest.MarkDecorator]:
    reason = SILENT.get(form)
    return [pytest.mark.xfail(strict=True, reason=reason)] if reason else []


@pytest.mark.parametrize("form", [pytest.param(f, id=" ".join(f), marks=_marks(f)) for f in sorted(CASES)])
def test_form_has_a_meaning(form: tuple[str, ...]) -> None:
    CASES[form]()


def test_assumed_listing_on_the_command_line(tmp_path: Path) -> None:
    """`rules show --assumed` (the command) lists a value marked @assumed and not one marked @printed."""
    path = tmp_path / "marks.dh"
    path.write_text(over_base("room kitchen { points 1 6 @assumed }"), encoding="utf-8")
    code, assumed = cli("rules", "show", "--assumed", str(path))
    path.write_text(over_base("room kitchen { points 1 6 @printed }"), encoding="utf-8")
    code2, printed = cli("rules", "show", "--assumed", str(path))
    assert code == code2 == 0
    rows = lambda text: {tuple(line.split("│")[1:3]) for line in text.splitlines() if "kitchen" in line}  # noqa: E731
    assert any("points" in fld for _id, fld in rows(assumed))
    assert not any("points" in fld for _id, fld in rows(printed))
