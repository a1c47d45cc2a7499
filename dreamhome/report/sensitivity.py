"""Which assumed values matter (issue 35, `report --sensitivity`): every value of the rules
marked `@assumed` (the compiler's provenance, as `dreamhome rules show --assumed` lists it),
varied one at a time by one step down and one step up, each change a rules override (the
rules wrapped whole and the card's field declared again after them, as a file that includes
the rules and overrides a field would) and never an edit of Python or of the user's file.

A step: a count (`count`, `children`) by 1; points (`points`, a single value or a table by
size) by 1 point at every entry; nothing below 0. A value that is not a number (a
furnishing's room) is listed and not varied; a change the compiler refuses (a table no longer
monotone, decks that cannot fill the rounds) is listed with its reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dreamhome.dsl.compiler import compile_rules
from dreamhome.errors import DreamhomeError, RulesError
from dreamhome.ruleset import Ruleset
from dreamhome.whatif.experiment import RulesetSpec

KINDS = ("room", "roof", "furnishing", "helper", "tool")
NUMERIC_FIELDS = ("count", "children", "points")
STEPS = (-1, 1)


@dataclass(frozen=True)
class Variation:
    """One assumed value moved by one step: `value` is where it is declared (file:line)."""

    value: str
    ident: str
    field: str
    current: str
    step: int
    changed: str | None
    """The value after the step (None: not varied, `why` says why)."""
    spec: RulesetSpec | None
    why: str | None = None

    @property
    def change(self) -> str:
        return f"{self.field} {self.current} → {self.changed}" if self.changed is not None else f"{self.field} {self.current}"

    def to_dict(self) -> dict:
        out = {"value": self.value, "id": self.ident, "field": self.field, "step": self.step, "change": self.change}
        if self.why is not None:
            out["why"] = self.why
        return out


def kind_of(rules: Ruleset, ident: str) -> str | None:
    return next((k for k in KINDS if ident in rules.ids(k)), None)


def stepped(value: object, step: int) -> tuple[int, ...] | None:
    """A count or a points table one step on (every entry by `step`, none below 0); None
    when the value is not a number or a table of numbers."""
    numbers = value if isinstance(value, tuple) else (value,)
    if not numbers or not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        return None
    return tuple(max(0, n + step) for n in numbers if isinstance(n, int))


def override(source: str, name: str, kind: str, ident: str, field: str, values: tuple[int, ...]) -> str:
    """The rules text with one field of one card declared again after it (DSL: a later
    declaration overrides an earlier one field by field; the rules are wrapped as the
    compiler inlines an included file, so the card is not declared twice in one file)."""
    return f'inlined "{name}" {{\n{source}\n}}\n{kind} {ident} {{ {field} {" ".join(map(str, values))} }}\n'


def variations(rules: Ruleset, label: str, own_file: str | None = None) -> list[Variation]:
    """Every assumed value of `rules` one step down and one up, each compiled (its spec) or
    with the reason it is not varied. `own_file`: only the values declared in that file (a
    user's own assumptions, not those of the rules it includes)."""
    out = []
    name = Path(label).name if label.endswith(".dh") else f"{label}.dh"
    own = Path(own_file).resolve() if own_file is not None else None
    for ident, field, ref in rules.assumed_values():
        if own is not None and Path(ref.file).resolve() != own:
            continue
        where = f"{Path(ref.file).name}:{ref.line}"
        kind = kind_of(rules, ident)
        value = getattr(rules.item(ident), field, None)
        current = " ".join(map(str, value)) if isinstance(value, tuple) else str(value)
        for step in STEPS:
            new = stepped(value, step) if field in NUMERIC_FIELDS and kind is not None else None
            if new is None or kind is None:
                out.append(Variation(where, ident, field, current, step, None, None, "not a number: not varied"))
                continue
            shown = " ".join(map(str, new))
            if new == (value if isinstance(value, tuple) else (value,)):
                out.append(Variation(where, ident, field, current, step, shown, None, "already 0: no step down"))
                continue
            text = override(rules.source, name, kind, ident, field, new)
            try:
                changed = compile_rules(text=text, name=name, variants=list(rules.variants_on))
            except (RulesError, DreamhomeError) as exc:
                first = exc.diagnostics[0].message if isinstance(exc, RulesError) and exc.diagnostics else str(exc)
                out.append(Variation(where, ident, field, current, step, shown, None, f"refused by the compiler: {first}"))
                continue
            spec = RulesetSpec(f"{ident}.{field}{step:+d}", text, tuple(rules.variants_on), changed.content_hash)
            out.append(Variation(where, ident, field, current, step, shown, spec))
    return out
