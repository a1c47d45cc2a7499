"""Every card explains itself: what a card is worth, where it goes and what it does, read from
the ruleset, in a language.

Why from the ruleset and not from a text per card: a variant or a house rule that changes a
card's points, its size, its bonus or a tool's effect changes the explanation with it, and a
card a rules file adds explains itself without a line of Python. The words around the values
are the catalogue's `cardtext.*` entries (one per category, effect, place, timing and flag of
the engine's fixed vocabulary, `dreamhome.vocabulary`); names are `Ruleset.card_name`.

What each kind says (the rule ids of docs/rules.md):

* a room card: its category and the floors it goes on (PLACE-B), its points by size and its
  maximum size (PLACE-C, SCORE-ROOMS), an annex's bonus beside another room (SCORE-ROOMS, with
  the `annex_adjacency` option), the children it hides where they break ties (SCORE-WIN), the
  functionality bonuses it counts towards (SCORE-FUNC) and the tokens it can take (FURN-TYPE);
* a roof card: where it goes (RES-ROOF), how many have a window, the roof scoring (SCORE-ROOF);
* a furnishing: where its token goes (FURN-TYPE, FURN-CLOSES), its points (SCORE-FURN), or how
  a card-less token is earned (VAR-CAR);
* a helper or a tool: how it is kept or used (RES-HELPER, RES-TOOL, TOOL-LAST), and each effect
  with when it acts (TOOL-TIMING) and what it costs (`skip_turn`).
"""

from __future__ import annotations

from dataclasses import dataclass

from dreamhome.i18n import DEFAULT_LANG, has_text, text
from dreamhome.ruleset import Effect, Furnishing, HeldCard, RoofType, RoomType, Ruleset

FILL = {"normal": "#d7ecd0", "annex": "#eadcf3", "basement": "#f6e6bd"}
"""The colour a room card of each category is drawn in (the same as the houses' pictures)."""
FALLBACK_FILL = "#eeeeee"


@dataclass(frozen=True)
class CardText:
    """One card as the table explains it: what to draw (kind, name, colour, points) and the
    sentences of its explanation, in one language."""

    id: str
    kind: str  # room, roof, furnishing, helper or tool
    name: str
    colour: str
    points: tuple[int, ...]
    category: str
    category_text: str
    lines: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "colour": self.colour,
            "points": list(self.points),
            "category": self.category,
            "category_text": self.category_text,
            "lines": list(self.lines),
        }


def _t(key: str, lang: str, **args: object) -> str:
    return text(f"cardtext.{key}", lang, **args)


def _word(group: str, value: str, lang: str) -> str:
    """A word of the vocabulary (`cardtext.GROUP.VALUE`), the value itself if the catalogue has none."""
    key = f"cardtext.{group}.{value}"
    return text(key, lang) if has_text(key) else value.replace("_", " ")


def _joined(items: list[str]) -> str:
    return ", ".join(items)


def _room_lines(rules: Ruleset, room: RoomType, lang: str) -> list[str]:
    name = rules.card_name(room.id, lang)
    lines = [
        _t(
            "room.kind",
            lang,
            category=_word("category", room.category, lang),
            floors=_word("floor_kind", room.floor_kind, lang),
        )
    ]
    table = _joined([_t("size_points", lang, size=k + 1, points=p) for k, p in enumerate(room.points)])
    lines.append(_t("room.points", lang, table=table, size=room.max_size))
    if room.bonus is not None:  # SCORE-ROOMS: only an annex has one
        value, beside = room.bonus
        lines.append(_t("room.bonus", lang, points=value, room=rules.card_name(beside, lang)))
        lines.append(_word("adjacency", rules.option("annex_adjacency"), lang))
    if room.children and rules.option("tiebreak") == "children":  # SCORE-WIN
        lines.append(_t("room.children", lang, children=room.children))
    for bonus in rules.bonuses:  # SCORE-FUNC: the bonuses whose condition names this room
        if any(clause.room == room.id for clause in bonus.clauses):
            lines.append(_t("room.in_bonus", lang, bonus=rules.card_name(bonus.id, lang), points=bonus.points))
    tokens = [rules.card_name(f.id, lang) for f in rules.furnishings if f.room == room.id]
    if tokens:  # FURN-TYPE
        lines.append(_t("room.tokens", lang, tokens=_joined(tokens)))
    lines.append(_t("count", lang, count=room.count, name=name))
    return lines


def _roof_lines(rules: Ruleset, roof: RoofType, lang: str) -> list[str]:
    scoring = rules.roof_scoring
    return [
        _t("roof.kind", lang),
        _t("roof.count", lang, count=roof.count, windows=roof.windows),
        _t(
            "roof.scoring",
            lang,
            size=scoring.size,
            uniform=scoring.uniform,
            mixed=scoring.mixed,
            window=scoring.window,
        ),
    ]


def _furnishing_lines(rules: Ruleset, furn: Furnishing, lang: str) -> list[str]:
    lines = []
    if furn.award is not None:  # VAR-CAR: a token no card deals
        key = f"cardtext.award.{furn.award}"
        room = rules.card_name(furn.room, lang) if furn.room else ""
        lines.append(text(key, lang, room=room) if has_text(key) else furn.award)
    elif furn.outside:
        lines.append(_t("furnishing.outside", lang))
    else:
        assert furn.room is not None  # not outside: it names its room (FURN-TYPE)
        lines.append(_t("furnishing.room", lang, room=rules.card_name(furn.room, lang)))
    if furn.room is not None:  # FURN-CLOSES, FURN-ONE
        lines.append(_t("furnishing.closes", lang))
    lines.append(_t("furnishing.points", lang, points=furn.points))
    return lines


def effect_text(rules: Ruleset, effect: Effect, lang: str = DEFAULT_LANG) -> str:
    """One effect of a helper or tool in words: what it does, then when (TOOL-TIMING) and what
    it costs (`skip_turn`)."""
    places = [_word("place", p, lang) for p in effect.places()]
    if effect.name == "swap" and len(places) == 2:
        what = (
            _t("effect.swap_same", lang, a=places[0])
            if places[0] == places[1]
            else _t("effect.swap", lang, a=places[0], b=places[1])
        )
    elif effect.name == "take" and len(places) == 2:
        what = _t("effect.take", lang, a=places[0], b=places[1])
    elif effect.name == "take_room" and places:
        what = _t("effect.take_room", lang, a=places[0])
    elif effect.name == "score":
        parts = [_t(f"score.{kw}", lang, n=v) for kw, v in effect.args if has_text(f"cardtext.score.{kw}")]
        what = _t("effect.score", lang, parts=_joined(parts))
    elif has_text(f"cardtext.effect.{effect.name}"):
        what = _t(f"effect.{effect.name}", lang)
    else:  # an effect the catalogue does not know yet: the rules file's own spelling
        what = effect.describe()
    timing = effect.timing or ("before_take" if "before_take" in effect.flags else "once")
    out = _t("effect.when", lang, when=_word("timing", timing, lang), what=what)
    if "skip_turn" in effect.flags:
        out += " " + _t("flag.skip_turn", lang)
    if effect.uses != 1:
        out += " " + _t("uses", lang, uses=effect.uses)
    return out


def _held_lines(rules: Ruleset, card: HeldCard, lang: str) -> list[str]:
    lines = [_t(f"{card.kind}.kind", lang)]  # RES-HELPER, RES-TOOL (TOOL-LAST)
    lines += [effect_text(rules, e, lang) for e in card.effects]
    lines.append(_t("count", lang, count=card.count, name=rules.card_name(card.id, lang)))
    return lines


def card_text(rules: Ruleset, ident: str, lang: str = DEFAULT_LANG) -> CardText:
    """Card `ident` of `rules` explained in `lang`; KeyError for an id the rules do not know."""
    item = rules.item(ident)
    name = rules.card_name(ident, lang)
    if isinstance(item, RoomType):
        return CardText(
            ident,
            "room",
            name,
            FILL.get(item.category, FALLBACK_FILL),
            item.points,
            item.category,
            _word("category", item.category, lang),
            tuple(_room_lines(rules, item, lang)),
        )
    if isinstance(item, RoofType):
        return CardText(ident, "roof", name, item.colour, (), "", "", tuple(_roof_lines(rules, item, lang)))
    if isinstance(item, Furnishing):
        return CardText(ident, "furnishing", name, "#2b7bb9", (item.points,), "", "", tuple(_furnishing_lines(rules, item, lang)))
    if isinstance(item, HeldCard):
        return CardText(
            ident,
            item.kind,
            name,
            "#fdf2d0" if item.kind == "tool" else "#e3eefb",
            (),
            "",
            _word("kind", item.kind, lang),
            tuple(_held_lines(rules, item, lang)),
        )
    raise KeyError(ident)


def all_card_texts(rules: Ruleset, lang: str = DEFAULT_LANG) -> dict[str, CardText]:
    """Every card of `rules` (rooms, roofs, furnishings, helpers, tools) explained in `lang`, by id."""
    groups = (rules.rooms, rules.roofs, rules.furnishings, rules.helpers, rules.tools)
    return {item.id: card_text(rules, item.id, lang) for group in groups for item in group}
