"""A "How to play" made from the ruleset, and a line per phase saying why it is there.

Why generated: the table plays any variant of the packaged catalogue, and a variant changes the
rounds, the deal, the 2–3 player discard, the floors, the roof scoring, the bonuses, the tools.
A fixed text would explain the base game on a variant's table; this one reads every number and
name from the `Ruleset` the game is played under, in the page's language (`howto.*` entries of
the catalogue, card names by `Ruleset.card_name`). Rule ids are those of docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from dreamhome.i18n import DEFAULT_LANG, has_text, text
from dreamhome.ruleset import Ruleset
from dreamhome.variant_menu import variant_question

PHASES = ("discard", "round_start", "turn", "scaffold_before", "place", "scaffold_after", "token", "end", "done")
"""The engine's phases (`GameState.phase`), each with a `howto.why.*` line."""


@dataclass(frozen=True)
class Section:
    """One part of the panel: a heading and its paragraphs."""

    title: str
    paragraphs: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {"title": self.title, "paragraphs": list(self.paragraphs)}


def _t(key: str, lang: str, **args: object) -> str:
    return text(f"howto.{key}", lang, **args)


def _names(rules: Ruleset, ids: tuple[str, ...] | list[str], lang: str) -> str:
    return ", ".join(rules.card_name(i, lang) for i in ids)


def discards(rules: Ruleset, players: int | None = None) -> bool:
    """ROUND-1 / VAR-NODISCARD: whether the first player discards a column after the deal (at
    `players`, or at some player count when None)."""
    spec = rules.game.discard_players
    if spec is None or rules.option("round_discard") != "on":
        return False
    return players is None or rules.game.discards_at_round_start(players)


def _round(rules: Ruleset, lang: str) -> Section:
    game = rules.game
    paragraphs = [_t("round.deal", lang, rooms=game.deal_rooms, resources=game.deal_resources)]
    if discards(rules):  # ROUND-1
        assert game.discard_players is not None
        low, high = game.discard_players
        paragraphs.append(_t("round.discard", lang, low=low, high=high))
    elif game.discard_players is not None:  # VAR-NODISCARD
        paragraphs.append(_t("round.no_discard", lang))
    jackhammers = [c.id for c in rules.helpers + rules.tools if any(e.timing == "round_start" for e in c.effects)]
    if jackhammers:  # ROUND-2
        paragraphs.append(_t("round.round_start", lang, cards=_names(rules, jackhammers, lang)))
    paragraphs += [_t("round.turns", lang), _t("round.leftovers", lang)]  # ROUND-3, ROUND-4, ROUND-5
    return Section(_t("title.round", lang), tuple(paragraphs))


def _placing(rules: Ruleset, lang: str) -> Section:
    floors = rules.board.floors
    upper = ", ".join(f.name for f in floors if f.kind == "upper")
    lower = ", ".join(f.name for f in floors if f.kind == "basement")
    paragraphs = [
        _t("place.floors", lang, upper=upper, basement=lower or "—"),  # PLACE-B
        _t("place.support", lang),  # PLACE-A
        _t("place.rooms", lang),  # PLACE-C, PLACE-CLOSED, PLACE-MERGE
        _t("place.face_down", lang),  # PLACE-EMPTY
    ]
    return Section(_t("title.place", lang), tuple(paragraphs))


def _resources(rules: Ruleset, lang: str) -> Section:
    paragraphs = [_t("res.roof", lang)]  # RES-ROOF
    cards = [f.id for f in rules.furnishings if f.is_card]
    if cards:  # RES-FURN
        paragraphs.append(_t("res.furnishing", lang, cards=_names(rules, cards, lang)))
    for token in (f for f in rules.furnishings if f.award is not None):  # VAR-CAR
        room = rules.card_name(token.room, lang) if token.room else ""
        key = f"cardtext.award.{token.award}"
        award = text(key, lang, room=room) if has_text(key) else str(token.award)
        paragraphs.append(f"{rules.card_name(token.id, lang)}: {award}")
    if rules.tools:  # RES-TOOL, TOOL-LAST
        paragraphs.append(_t("res.tools", lang, cards=_names(rules, [c.id for c in rules.tools], lang), rounds=rules.game.rounds))
    if rules.helpers:  # RES-HELPER
        paragraphs.append(_t("res.helpers", lang, cards=_names(rules, [c.id for c in rules.helpers], lang)))
    paragraphs.append(_t("res.explain", lang))
    return Section(_t("title.resources", lang), tuple(paragraphs))


def _scoring(rules: Ruleset, lang: str) -> Section:
    roof = rules.roof_scoring
    paragraphs = [_t("score.rooms", lang)]  # SCORE-ROOMS, SCORE-EMPTY, SCORE-FURN
    for bonus in rules.bonuses:  # SCORE-FUNC
        paragraphs.append(_t("score.bonus", lang, bonus=rules.card_name(bonus.id, lang), points=bonus.points))
    paragraphs.append(  # SCORE-ROOF
        _t("score.roof", lang, size=roof.size, uniform=roof.uniform, mixed=roof.mixed, window=roof.window)
    )
    paragraphs.append(_t(f"score.tie.{rules.option('tiebreak')}", lang))  # SCORE-WIN
    return Section(_t("title.score", lang), tuple(paragraphs))


def how_to_play(rules: Ruleset, lang: str = DEFAULT_LANG) -> tuple[Section, ...]:
    """The panel for a table played under `rules`, in `lang`: the goal, a round, placing room
    cards, the resource cards, the end and the scoring."""
    game = rules.game
    goal = Section(
        _t("title.goal", lang),
        (_t("goal", lang, rounds=game.rounds, low=game.min_players, high=game.max_players),),
    )
    sections = [goal, _round(rules, lang), _placing(rules, lang), _resources(rules, lang)]
    end_helpers = [c.id for c in rules.helpers + rules.tools if any(e.timing == "end" for e in c.effects)]
    end = _t("end", lang, cards=_names(rules, end_helpers, lang) or "—")  # END-ORDER
    scoring = _scoring(rules, lang)
    sections.append(Section(scoring.title, (end, *scoring.paragraphs)))
    if rules.variants_on:  # VAR-*: the variant's own question or title, in `lang` where it has one
        titles = ", ".join(f"{v} ({variant_question(rules, v, lang)})" for v in rules.variants_on)
        sections.append(Section(_t("title.variant", lang), (_t("variant", lang, variants=titles),)))
    return tuple(sections)


def phase_reason(rules: Ruleset, phase: str, players: int, lang: str = DEFAULT_LANG) -> str:
    """Why the game is in `phase` now, in `lang` (the page shows it beside the phase's name)."""
    if phase == "discard" and rules.game.discard_players is not None:  # ROUND-1
        low, high = rules.game.discard_players
        return _t("why.discard", lang, players=players, low=low, high=high)
    key = f"howto.why.{phase}"
    return text(key, lang) if has_text(key) else ""


def phase_reasons(rules: Ruleset, players: int, lang: str = DEFAULT_LANG) -> dict[str, str]:
    """`phase_reason` for every phase of the engine."""
    return {phase: phase_reason(rules, phase, players, lang) for phase in PHASES}
