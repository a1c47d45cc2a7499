"""The report page's words and numbers in the reader's language (en, ru, fr, hu).

The sentences are catalogue entries (`report.*` in dreamhome/locales/*.json, `i18n.text`);
the numbers are formatted by Babel with each language's own decimal sign, grouping and
percent sign (58.3% in English, 58,3 % in French, 1 234,5 in Russian), because a designer
reads a page of intervals in the conventions of their language, and those conventions (the
CLDR data Babel ships) are not ours to hand-write.
"""

from __future__ import annotations

from babel.numbers import format_decimal, format_percent

from dreamhome.i18n import count_text, decimal_text, has_text, text


def say(key: str, lang: str, **args: object) -> str:
    return text(f"report.{key}", lang, **args)


def players(n: int, lang: str) -> str:
    """ "2 players", "2 игрока", "5 игроков": the count with its noun in the language's plural
    form (Babel's CLDR plural rules pick the form: one, few, many or other)."""
    return count_text("report.n_players", n, lang)


def row(count: int, bot: str, lang: str) -> str:
    """A table row's label: a player count and a bot."""
    return say("row", lang, players=players(count, lang), bot=bot)


def kind(name: str, lang: str) -> str:
    """A card kind as report.json names it ("furnishing"), said in `lang`; a kind the catalogue
    does not know (a user's own ruleset) is shown as it is named."""
    return say(f"kind.{name}", lang) if has_text(f"report.kind.{name}") else name


def flag(name: str, lang: str) -> str:
    """A card's flag as report.json names it ("costly_to_lose"), said in `lang`."""
    return say(f"flag.{name}", lang) if has_text(f"report.flag.{name}") else name.replace("_", " ")


def number(value: float | int | None, lang: str, digits: int = 2) -> str:
    return "—" if value is None else decimal_text(value, lang, fixed=digits)


def plain(value: float, lang: str) -> str:
    """A number as the user gave it (0.3, not 0.300), in `lang`'s format (Babel's default
    pattern: at most three decimals)."""
    return format_decimal(value, locale=lang)


def percent(value: float | None, lang: str, digits: int = 1) -> str:
    if value is None:
        return "—"
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "") + "%"
    return format_percent(value, format=pattern, locale=lang)


def interval(ci: dict | None, lang: str, as_percent: bool = False, digits: int = 2) -> str:
    """A figure and its 95% interval, as text in `lang` ("—" when there is none)."""
    if not ci:
        return "—"
    value = ci.get("rate", ci.get("mean", ci.get("worth", ci.get("share"))))
    if value is None:
        return "—"
    show = (lambda v: percent(v, lang, digits if digits < 2 else 1)) if as_percent else (lambda v: number(v, lang, digits))
    if ci.get("low") is None:
        return show(value)
    return f"{show(value)} [{show(ci['low'])}, {show(ci['high'])}]"


def clear_of(ci: dict, line: float) -> int:
    """+1 when the interval lies above `line`, −1 below it, 0 when it holds it (or is none):
    what a verdict may say."""
    if ci.get("low") is None:
        return 0
    if ci["low"] > line:
        return 1
    if ci["high"] < line:
        return -1
    return 0
