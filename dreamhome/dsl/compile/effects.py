"""A helper's or tool's effect call checked against the engine's vocabulary
(vocabulary.EFFECTS): its name, its arguments, its flags, its one timing (TOOL-TIMING) and
its uses; the compiled `Effect`, or None with every problem reported."""

from __future__ import annotations

from collections.abc import Iterable

from dreamhome.dsl.ast import EffectSpec, Pos
from dreamhome.dsl.compile.checks import suggest
from dreamhome.dsl.compile.diagnostics import Diagnostics
from dreamhome.ruleset import Effect
from dreamhome.vocabulary import (
    EFFECTS,
    MAX_USES,
    SKIP_TURN_SHAPES,
    SKIP_TURN_TIMINGS,
    TIMINGS,
    EffectShape,
    supported_timings,
)


def compile_effect(report: Diagnostics, spec: EffectSpec) -> Effect | None:
    """One effect call checked against the engine's vocabulary (vocabulary.EFFECTS)."""
    shape = EFFECTS.get(spec.name)
    if shape is None:
        report.error(
            spec.pos,
            f"unknown effect '{spec.name}'; the engine implements " + ", ".join(EFFECTS) + suggest(spec.name, EFFECTS),
        )
        return None
    for word, where in spec.repeats:  # `uses 2 uses 3`, `skip_turn skip_turn`: as a field given twice
        shown = "uses" if word == "uses" else word
        report.error(where, f"'{shown}' is given twice in this effect ({spec.name})")
    if spec.repeats:
        return None
    ok = check_effect_args(report, spec, shape)
    flags: dict[str, Pos] = {}
    given: list[tuple[str, Pos]] = []  # the timings written: `at NAME`, or the flag `before_take`
    for flag, fpos in spec.flags:
        if flag.startswith("at "):
            when = flag[3:]
            if when not in TIMINGS:
                report.error(
                    fpos,
                    f"unknown timing '{flag}' for {spec.name}; expected " + timing_words(TIMINGS) + suggest(when, TIMINGS),
                )
                ok = False
            else:
                given.append((when, fpos))
        elif flag == "before_take":  # the form base.dh uses: a timing written as a flag
            flags[flag] = fpos
            given.append((flag, fpos))
        elif flag not in shape.flags:
            allowed_f = ", ".join(shape.flags) or "no flags"
            report.error(fpos, f"unknown flag '{flag}' for {spec.name}; expected {allowed_f}" + suggest(flag, shape.flags))
            ok = False
        else:
            flags[flag] = fpos
    if len(given) > 1:
        report.error(given[1][1], f"{spec.name} has two timings ({given[0][0]}, {given[1][0]}); give one")
        ok = False
    if ok:
        ok = check_effect_timing(report, spec, shape, given[0] if given else None, flags)
    if spec.uses is not None and spec.uses < 1:
        report.error(spec.pos, "uses must be at least 1")
        ok = False
    elif spec.uses is not None and spec.uses > MAX_USES:
        report.error(spec.pos, f"uses {spec.uses} is out of range (at most {MAX_USES}; see TOOL-TIMING)")
        ok = False
    if not ok:
        return None
    return Effect(spec.name, spec.args, spec.timing, frozenset(flags), spec.uses or 1)


def timing_words(timings: Iterable[str]) -> str:
    """Timings as a rules file writes them: `before_take` bare (as base.dh does), the others `at …`."""
    return ", ".join(t if t == "before_take" else "at " + t for t in timings)


def check_effect_timing(
    report: Diagnostics, spec: EffectSpec, shape: EffectShape, given: tuple[str, Pos] | None, flags: dict[str, Pos]
) -> bool:
    """TOOL-TIMING: the effect's shape supports its timing (vocabulary.TIMING_SUPPORT), `skip_turn`
    only before the round's turns, `uses` only for effects that are used (not passive ones)."""
    places = tuple(a for a, _ in spec.args) if shape.positional else ()
    shown = f"{spec.name}({', '.join(places)})" if places else spec.name
    supported = supported_timings(spec.name, places)
    words = timing_words(supported)
    if not supported:
        report.error(spec.pos, f"{shown} has no timing the engine can play (TOOL-TIMING); see docs/language.md")
        return False
    when, pos = given if given is not None else (supported[0], spec.pos)
    if when not in supported:
        report.error(pos, f"{shown} cannot act {timing_words([when])} (TOOL-TIMING); it supports {words}")
        return False
    if "skip_turn" in flags and when not in SKIP_TURN_TIMINGS:
        report.error(
            flags["skip_turn"],
            f"skip_turn needs {timing_words(SKIP_TURN_TIMINGS)}; {shown} acts {timing_words([when])}",
        )
        return False
    if "skip_turn" in flags and (spec.name, places) not in SKIP_TURN_SHAPES:
        report.error(
            flags["skip_turn"],
            f"skip_turn is for an effect that takes a room card instead of the turn's take (take_room); "
            f"{shown} brings none, so the skipped turn's space would stay empty (ROUND-6)",
        )
        return False
    if spec.uses is not None and when == "once":
        report.error(spec.pos, f"{shown} acts once, from the moment the card is taken: 'uses' does not apply")
        return False
    return True


def check_effect_args(report: Diagnostics, spec: EffectSpec, shape: EffectShape) -> bool:
    """Keyword effects take known keywords with numbers; positional ones one place per slot."""
    ok = True
    if shape.keywords:
        given: set[str] = set()
        for arg, value in spec.args:
            if arg in given:
                report.error(spec.pos, f"{spec.name}() is given '{arg}' twice")
                ok = False
            given.add(arg)
            if arg not in shape.keywords:
                report.error(
                    spec.pos,
                    f"{spec.name}() does not take '{arg}'; expected " + ", ".join(shape.keywords) + suggest(arg, shape.keywords),
                )
                ok = False
            elif value is None:
                report.error(spec.pos, f"expected a number after '{arg}' in {spec.name}()")
                ok = False
            elif value < 0:
                # Like points: the solvers' models bound each amount from above (HELP-ARCHITECT,
                # HELP-DESIGNER), so a penalty would be read as nothing by some of them.
                report.error(spec.pos, f"{spec.name}({arg} {value}): an amount cannot be negative")
                ok = False
    elif len(spec.args) != len(shape.positional):
        report.error(spec.pos, f"{spec.name} takes {len(shape.positional)} argument(s), got {len(spec.args)}")
        ok = False
    else:
        for (arg, value), allowed in zip(spec.args, shape.positional):
            if arg not in allowed or value is not None:
                report.error(spec.pos, f"{spec.name}() cannot use '{arg}' there; expected one of " + ", ".join(allowed))
                ok = False
    return ok
