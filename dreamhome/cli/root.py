"""The `dreamhome` command group: its global options (--rules, --variant, --lang, …), its help
and the version.

The group only records what it was given (the root context's `obj`, read back by
`common.group_settings`); each command reads the rules and the language when it runs. The
commands are added to it by the package's `__init__`.
"""

from __future__ import annotations

import click

from dreamhome.cli.common import fail


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--rules",
    "rules_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Rules file to use for every subcommand (default: the packaged base rules).",
)
@click.option("--variant", "variants", multiple=True, metavar="NAME", help="Switch on a variant of the rules (repeatable).")
@click.option(
    "--allow-absolute-includes",
    "absolute_includes",
    is_flag=True,
    help="Let rules files include other rules files by absolute path (default: beside the file or packaged).",
)
@click.option(
    "--lang",
    "lang",
    default=None,
    metavar="LANG",
    help="Language of card names and labels: en, ru, fr, hu (default: $DREAMHOME_LANG, else en).",
)
@click.version_option(package_name="dreamhome")
@click.pass_context
def main(ctx, rules_path, variants, absolute_includes, lang):
    """Dream Home as formal rules: check, score and explain houses.

    A house is a `dreamhome.house/1` JSON file (see docs/formats.md); `-` reads
    it from stdin. Input files are read up to 16 MiB (set DREAMHOME_MAX_INPUT_BYTES
    to change it). An output file is checked before the work starts and never
    replaces an input, a device or a directory. Exit status: 0 success, 1 the
    answer is "no" (an illegal house for `check`; crashed games for `whatif`),
    2 bad input, with a one-line reason on stderr.

    \b
    Examples:
      dreamhome score examples/rulebook_example.json
      dreamhome check house.json --json
      dreamhome optimize examples/endgame.json
      dreamhome rules show --assumed
      dreamhome --variant NAME rules show
      dreamhome --lang ru place house.json кухня
    """
    from dreamhome.i18n import UnknownLanguageError, check_lang, language_from_env

    try:
        chosen = check_lang(lang) if lang is not None else language_from_env()
    except UnknownLanguageError as exc:
        fail(f"--lang: {exc}" if lang is not None else f"DREAMHOME_LANG: {exc}")
    ctx.obj = {"rules_path": rules_path, "variants": variants, "absolute_includes": absolute_includes, "lang": chosen}
