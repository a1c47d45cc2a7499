"""`check`, `score` and `render`: the commands that read one house and say what it is (legal or
not, its score, its picture), with no search."""

from __future__ import annotations

import click

from dreamhome.cli.common import (
    EXIT_NO,
    current_lang,
    emit_json,
    fail,
    load_house_or_fail,
    load_rules,
    new_console,
    outputs_or_fail,
    require_legal,
    write_picture,
)
from dreamhome.cli.options import house_argument, json_option, rules_options


@click.command()
@house_argument
@json_option("Print one JSON object instead of the picture.")
@click.option("--final", is_flag=True, help="Also check the game's end (ROUND-6): a card per round, no scaffold left.")
@rules_options
def check(house_path, as_json, final, rules_spec):
    """Is HOUSE legal? Lists each broken rule by id and cell (exit 1 if not)."""
    from rich.text import Text

    from dreamhome.i18n import count_text, text
    from dreamhome.legality import final_state_violations, house_violations
    from dreamhome.render.house_text import held_text, house_grid
    from dreamhome.render.violation_text import violation_text

    lang = current_lang()
    rules = load_rules(rules_spec)
    house = load_house_or_fail(rules, house_path)
    violations = (final_state_violations if final else house_violations)(rules, house)
    if as_json:
        emit_json({"legal": not violations, "violations": [v.to_json() for v in violations]})
    else:
        console = new_console()
        console.print(house_grid(rules, house, violations, lang=lang))
        console.print(held_text(rules, house, lang))
        if violations:
            count = count_text("check.violations", len(violations), lang)
            console.print(Text.assemble((text("check.illegal", lang), "bold #d0312d"), f": {count}"))
            for v in violations:  # the sentence in the language, names as written (the console reads no markup)
                console.print(Text.assemble("  ", (v.rule, "bold"), f" {v.cell or ''}: {violation_text(rules, v, lang)}"))
        else:
            console.print(text("check.legal", lang), style="bold #2e9b46")
    if violations:
        raise click.exceptions.Exit(EXIT_NO)


@click.command()
@house_argument
@json_option("Print one JSON object instead of the picture.")
@click.option("--final", is_flag=True, help="Score it as a game's result: refuse a house a finished game cannot leave (ROUND-6).")
@rules_options
def score(house_path, as_json, final, rules_spec):
    """Score HOUSE as it stands, line by line (best 4 roofs, no helper action taken)."""
    from dreamhome.render.house_text import house_with_score
    from dreamhome.scoring import FinalStateError, final_score, score_house

    rules = load_rules(rules_spec)
    house = load_house_or_fail(rules, house_path)
    require_legal(rules, house, house_path)
    if final:
        try:
            final_score(rules, house)
        except FinalStateError as exc:
            fail(f"{house_path}: {exc}")
    result = score_house(rules, house)
    if as_json:
        emit_json(result.to_json(rules))
    else:
        console = new_console()
        console.print(house_with_score(rules, house, result, console.width, current_lang()))


def plain_title(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A title is text like a card's name (dsl.compiler.name_problem): no control, bidi or
    surrogate characters, which would make the SVG not well-formed XML or reach a terminal."""
    from dreamhome.dsl.compiler import name_problem

    problem = name_problem(value)
    if problem is not None:
        raise click.BadParameter(problem.replace("a name cannot", "a title cannot").replace("names are", "titles are"))
    return value


@click.command()
@house_argument
@click.option(
    "-o",
    "--output",
    "output",
    type=click.Path(dir_okay=False),
    required=True,
    help="The SVG file to write (or .png when cairosvg is installed; - prints the SVG).",
)
@click.option("--title", default="", callback=plain_title, help="A title above the house (plain text).")
@rules_options
def render(house_path, output, title, rules_spec):
    """Draw HOUSE as the board looks, with its rooms, tokens, roof and score breakdown (SVG)."""
    from dreamhome.render.house_svg import house_svg

    outputs_or_fail([output], [house_path, rules_spec[0]], stdout_ok=True)
    rules = load_rules(rules_spec)
    house = load_house_or_fail(rules, house_path)
    require_legal(rules, house, house_path)
    write_picture(output, house_svg(rules, house, title, current_lang()))
