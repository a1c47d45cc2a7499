"""`rules check`, `rules show` and `rules variants`: the commands about rules files themselves —
do they compile, what do they say, which variants are there."""

from __future__ import annotations

import os

import click

from dreamhome.cli.common import (
    EXIT_BAD,
    absolute_includes,
    current_lang,
    emit_json,
    fail,
    group_settings,
    load_rules,
    new_console,
    rules_file_or_fail,
)
from dreamhome.cli.options import json_option, rules_options
from dreamhome.fileio import printable


@click.group()
def rules():
    """Check and show rules files."""


def _no_global_rules(what: str) -> None:
    """A command that reads no `--rules`/`--variant` of the group refuses them in one line rather
    than ignoring them (`--variant nosuch rules check f.dh` said "ok")."""
    parent = group_settings()
    given = [*(["--rules"] if parent.get("rules_path") else []), *(["--variant"] if parent.get("variants") else [])]
    if given:
        fail(f"{what}; {' and '.join(given)} before the command {'do' if len(given) > 1 else 'does'} not apply to it")


@rules.command("check")
@click.argument("rules_file", metavar="FILE", type=click.Path(dir_okay=False))
@json_option("Print one JSON object.")
def rules_check(rules_file, as_json):
    """Compile FILE (with each of its variants) and report every error."""
    from dreamhome.dsl.compiler import check_rules

    _no_global_rules("rules check FILE compiles FILE and each of its variants")
    rules_file_or_fail(rules_file)
    errors, warnings = check_rules(rules_file, allow_absolute_includes=absolute_includes())
    if as_json:
        emit_json({"ok": not errors, "errors": [d.to_json() for d in errors], "warnings": [d.to_json() for d in warnings]})
    else:
        for d in errors + warnings:
            click.echo("\n".join(printable(line) for line in d.long().split("\n")), err=True)
        if not errors:
            click.echo(f"{printable(rules_file)}: ok" + (f" ({len(warnings)} warning(s))" if warnings else ""))
        else:
            click.echo(f"{printable(rules_file)}: {len(errors)} error(s)", err=True)
    if errors:
        raise click.exceptions.Exit(EXIT_BAD)


@rules.command("show")
@click.argument("rules_file", metavar="[FILE]", required=False, type=click.Path(dir_okay=False))
@click.option("--assumed", is_flag=True, help="List only the values marked @assumed.")
@json_option("Print one JSON object.")
@rules_options
def rules_show(rules_file, assumed, as_json, rules_spec):
    """List a ruleset's cards, points and options, and which values are assumed."""
    from dreamhome.render.rules_report import rules_report, rules_tables

    if rules_file:
        rules_spec = (rules_file, rules_spec[1])
    ruleset = load_rules(rules_spec)
    report = rules_report(ruleset)
    if as_json:
        emit_json(report)
        return
    console = new_console()
    for table in rules_tables(ruleset, assumed_only=assumed, lang=current_lang()):
        console.print(table)


def _variant_question(path: os.PathLike[str]) -> str:
    """A variant file's question: its first line, a `# comment` (the catalogue's convention).

    Read from the file each time, so a new file in rules/variants/ is listed with no list in Python.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            first = handle.readline().strip()
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{printable(str(path))}: cannot read the variant file ({exc.__class__.__name__})")
    return first.lstrip("#").strip() if first.startswith("#") else ""


@rules.command("variants")
@json_option("Print one JSON object.")
@rules_options
def rules_variants(as_json, rules_spec):
    """List the variants: the packaged variant files (each with its question) and the
    `variant` blocks of the rules in use (each with its title). Switch one on with `--variant NAME`."""
    from dreamhome.dsl.compiler import VARIANTS_DIR
    from dreamhome.variant_menu import variant_question

    if rules_spec[1]:
        fail("rules variants lists every variant of the rules in use; --variant does not apply to it")
    ruleset = load_rules((rules_spec[0], ()))
    files = [
        {"name": path.stem, "question": _variant_question(path), "file": f"rules/variants/{path.name}"}
        for path in sorted(VARIANTS_DIR.glob("*.dh"))
    ]
    # variants_available holds the file's own blocks (by title), then the packaged files (by "rules file X").
    own = [(name, label) for name, label in ruleset.variants_available.items() if not label.startswith("rules file ")]
    blocks = [{"name": name, "title": label} for name, label in own]
    if as_json:
        emit_json({"files": files, "blocks": blocks})
        return
    width = max((len(v["name"]) for v in files + blocks), default=0)
    click.echo(f"Variant files ({len(files)}), applied over the rules in use:")
    lang = current_lang()  # each question or title in the reader's language where the file gives one
    for v in files:
        click.echo(f"  {v['name']:<{width}}  {printable(variant_question(ruleset, v['name'], lang))}")
    where = printable(rules_spec[0]) if rules_spec[0] else "base.dh"
    click.echo(f"Variant blocks of {where} ({len(blocks)}):")
    for v in blocks:
        click.echo(f"  {v['name']:<{width}}  {printable(variant_question(ruleset, v['name'], lang))}")
