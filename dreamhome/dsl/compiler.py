"""Rules files → one compiled, immutable `Ruleset`.

Pipeline: load (parse, follow includes, detect cycles) → merge (later
declarations override earlier ones field by field; variants apply last) →
check (every static error of DSL.md, all of them, each with a position) →
build (typed records, the board graph, scoring terms, compiled effects).
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from dreamhome.board import Floor, build_board
from dreamhome.dsl.ast import Condition, Decl, EffectSpec, Field, Include, Inlined, OptionDecl, Pos, RulesFile, VariantDecl
from dreamhome.dsl.parser import RulesParser
from dreamhome.errors import Diagnostic, RulesError
from dreamhome.ruleset import (
    Bonus,
    Clause,
    Effect,
    Furnishing,
    GameSpec,
    HeldCard,
    RoofScoring,
    RoofType,
    RoomType,
    Ruleset,
    SourceRef,
)
from dreamhome.vocabulary import (
    AWARDS,
    CATEGORY_FLOOR_KIND,
    EFFECTS,
    FLOOR_KINDS,
    OPTIONS,
    PROVENANCE_TAGS,
    ROOF_SCORING_FIELDS,
)

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
BASE_RULES = RULES_DIR / "base.dh"
VARIANTS_DIR = RULES_DIR / "variants"

SINGLETONS = ("game", "board", "roof_scoring")
CARD_FIELDS = {
    "room": ({"category", "points", "count"}, {"bonus", "children"}),
    "roof": ({"count"}, {"windows"}),
    "furnishing": ({"points", "count"}, {"room", "outside"}),
    "token": ({"points"}, {"room", "outside", "award", "count"}),
    "helper": ({"count", "effect"}, set()),
    "tool": ({"count", "effect"}, set()),
    "bonus": ({"points", "when"}, set()),
    "game": ({"players", "rounds", "deal"}, set()),
    "roof_scoring": (set(ROOF_SCORING_FIELDS), set()),
}
KIND_WORDS = {
    "room": "a room",
    "roof": "a roof",
    "furnishing": "a furnishing",
    "token": "a token",
    "helper": "a helper",
    "tool": "a tool",
    "bonus": "a bonus",
}


def _suggest(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


@dataclass
class _Merged:
    kind: str
    id: str | None
    name: str | None
    fields: dict[str, Field]
    pos: Pos


@dataclass
class _State:
    decls: dict[str, _Merged] = field(default_factory=dict)
    options: dict[str, OptionDecl] = field(default_factory=dict)
    variants: dict[str, tuple[VariantDecl, str]] = field(default_factory=dict)


class _Compiler:
    def __init__(self) -> None:
        self.parser = RulesParser()
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.texts: dict[str, list[str]] = {}

    # ---- diagnostics -------------------------------------------------
    def error(self, pos: Pos, message: str, severity: str = "error") -> None:
        lines = self.texts.get(pos.file, [])
        source = lines[pos.line - 1] if 0 < pos.line <= len(lines) else ""
        diag = Diagnostic(pos.file, pos.line, pos.column, message, source, severity)
        target = self.errors if severity == "error" else self.warnings
        if diag not in target:
            target.append(diag)

    # ---- loading -----------------------------------------------------
    def read(self, path: Path, at: Pos | None) -> RulesFile | None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            if at is None:
                raise RulesError([Diagnostic(str(path), 0, 0, f"cannot read rules file: {reason}")]) from None
            self.error(at, f"cannot read included file '{path}': {reason}")
            return None
        return self.parse_text(text, str(path))

    def parse_text(self, text: str, name: str) -> RulesFile | None:
        self.texts[name] = text.split("\n")
        try:
            return self.parser.parse(text, name)
        except RulesError as exc:
            for d in exc.diagnostics:
                if d not in self.errors:
                    self.errors.append(d)
            return None

    @staticmethod
    def resolve_include(base_dir: Path | None, target: str) -> Path | None:
        candidate = Path(target)
        options = []
        if candidate.is_absolute():
            options.append(candidate)
        else:
            if base_dir is not None:
                options.append(base_dir / candidate)
            options.append(RULES_DIR / candidate)
        return next((p for p in options if p.is_file()), None)

    def flatten(self, rules_file: RulesFile, stack: tuple[str, ...]) -> tuple[list[tuple[str, object]], str]:
        """Items in order with includes expanded, and the source with includes inlined."""
        items: list[tuple[str, object]] = []
        pieces: list[str] = []
        cursor = 0
        base_dir = Path(rules_file.path).parent if not rules_file.path.startswith("<") else None

        def expand(segment: str, inlined_items) -> None:
            for sub in inlined_items:
                if isinstance(sub, Inlined):
                    expand(f"{segment}::{sub.path}", sub.items)
                else:
                    items.append((segment, sub))

        for item in rules_file.items:
            if isinstance(item, Inlined):
                expand(f"{rules_file.path}::{item.path}", item.items)
                continue
            if not isinstance(item, Include):
                items.append((rules_file.path, item))
                continue
            pieces.append(rules_file.text[cursor : item.start])
            cursor = item.end
            path = self.resolve_include(base_dir, item.path)
            if path is None:
                self.error(
                    item.pos, f"cannot find included file '{item.path}' (looked beside this file and in the packaged rules)"
                )
                continue
            key = str(path.resolve())
            if key in stack:
                chain = " → ".join(Path(p).name for p in stack[stack.index(key) :] + (key,))
                self.error(item.pos, f"include cycle: {chain}")
                continue
            included = self.read(path, item.pos)
            if included is None:
                continue
            sub_items, sub_text = self.flatten(included, stack + (key,))
            items.extend(sub_items)
            pieces.append(f'inlined "{item.path}" {{\n{sub_text}\n}}')
        pieces.append(rules_file.text[cursor:])
        return items, "".join(pieces)

    # ---- merging -----------------------------------------------------
    def merge_decl(self, state: _State, decl: Decl, seen_in_file: dict[str, Pos] | None) -> None:
        key = decl.kind if decl.kind in SINGLETONS else decl.id
        seen_fields: dict[str, Pos] = {}
        for fld in decl.fields:
            if fld.name in seen_fields and fld.name != "effect":
                self.error(fld.pos, f"'{fld.name.split(':')[-1]}' is given twice in this declaration")
            seen_fields[fld.name] = fld.pos
            if fld.provenance is not None and fld.provenance not in PROVENANCE_TAGS:
                self.error(
                    fld.pos,
                    f"unknown provenance '@{fld.provenance}'; expected one of " + ", ".join("@" + t for t in PROVENANCE_TAGS),
                )
        if seen_in_file is not None and decl.kind not in SINGLETONS:
            if key in seen_in_file:
                first = seen_in_file[key]
                self.error(decl.pos, f"'{key}' is declared twice in this file (first at line {first.line})")
            seen_in_file[key] = decl.pos
        existing = state.decls.get(key)
        if existing is None:
            state.decls[key] = _Merged(decl.kind, decl.id, decl.name, {f.name: f for f in decl.fields}, decl.pos)
            return
        if existing.kind != decl.kind:
            self.error(
                decl.pos,
                f"'{key}' is already {KIND_WORDS.get(existing.kind, existing.kind)} "
                f"({existing.pos.file}:{existing.pos.line}); ids share one namespace",
            )
            return
        if decl.name is not None:
            existing.name = decl.name
        for fld in decl.fields:
            existing.fields[fld.name] = fld

    def merge_item(self, state: _State, file: str, item: object, seen: dict[str, Pos] | None) -> None:
        if isinstance(item, Decl):
            self.merge_decl(state, item, seen)
        elif isinstance(item, OptionDecl):
            state.options[item.name] = item
        elif isinstance(item, VariantDecl):
            state.variants[item.id] = (item, file)

    # ---- checks and building -----------------------------------------
    def prov(self, fld: Field | None) -> str:
        return fld.provenance if fld is not None and fld.provenance else "rulebook"

    def require(self, merged: _Merged) -> bool:
        required, optional = CARD_FIELDS.get(merged.kind, (set(), set()))
        ok = True
        for name in sorted(required - merged.fields.keys()):
            what = KIND_WORDS.get(merged.kind, f"the {merged.kind} block")
            label = f"'{merged.id}'" if merged.id and merged.kind not in SINGLETONS else what
            self.error(merged.pos, f"{label} has no '{name}'" + (f" ({what})" if merged.kind not in SINGLETONS else ""))
            ok = False
        if merged.kind != "board":
            for name, fld in merged.fields.items():
                if name not in required | optional:
                    self.error(
                        fld.pos,
                        f"'{name}' does not belong in {KIND_WORDS.get(merged.kind, merged.kind)}"
                        + (f"; expected one of {', '.join(sorted(required | optional))}"),
                    )
                    ok = False
        return ok

    def build(self, state: _State, variants_on: tuple[str, ...], source: str, path: str) -> Ruleset | None:
        decls = state.decls
        provenance: dict[tuple[str, str], SourceRef] = {}

        def note(ident: str, merged: _Merged) -> None:
            for name, fld in merged.fields.items():
                provenance[(ident, name)] = SourceRef(fld.pos.file, fld.pos.line, fld.pos.column, self.prov(fld))

        # game
        game_decl = decls.get("game")
        game = None
        if game_decl is None:
            self.error(Pos(path, 1, 1), "no 'game' block: the rules must say players, rounds and deal")
        elif self.require(game_decl):
            f = game_decl.fields
            lo, hi = f["players"].value
            rounds = f["rounds"].value
            dr, dres = f["deal"].value
            if lo < 1 or hi < lo:
                self.error(f["players"].pos, f"players {lo}..{hi} is not a range of player counts")
            if rounds < 1:
                self.error(f["rounds"].pos, "rounds must be at least 1")
            if dr < 0 or dres < 0:
                self.error(f["deal"].pos, "the deal cannot be negative")
            game = GameSpec(game_decl.id or "game", game_decl.name or game_decl.id or "game", lo, hi, rounds, dr, dres)
            note("game", game_decl)

        # board
        board = None
        board_decl = decls.get("board")
        if board_decl is None:
            self.error(Pos(path, 1, 1), "no 'board' block: the rules must declare the floors")
        else:
            floors, roof_pile = [], None
            for name, fld in board_decl.fields.items():
                if name.startswith("floor:"):
                    kind, lo, hi = fld.value
                    if kind not in FLOOR_KINDS:
                        self.error(fld.pos, f"unknown floor kind '{kind}'; expected one of {', '.join(FLOOR_KINDS)}")
                    if lo < 0 or hi < lo:
                        self.error(fld.pos, f"columns {lo}..{hi} is not a range")
                    floors.append(Floor(name.split(":", 1)[1], kind, tuple(range(lo, hi + 1))))
            fields = board_decl.fields
            if "roof_pile" in fields:
                under, lo, hi = fields["roof_pile"].value
                if under not in {fl.name for fl in floors}:
                    self.error(fields["roof_pile"].pos, f"unknown floor '{under}'" + _suggest(under, [fl.name for fl in floors]))
                roof_pile = (under, tuple(range(lo, hi + 1)))
            if not floors:
                self.error(board_decl.pos, "the board has no floors")
            else:
                board = build_board(floors, roof_pile)

        floor_kinds = {fl.kind for fl in board.floors} if board else set(FLOOR_KINDS)
        room_ids = [k for k, d in decls.items() if d.kind == "room"]

        def check_room_ref(name: str, pos: Pos) -> bool:
            if name in room_ids:
                return True
            other = decls.get(name)
            if other is not None:
                self.error(pos, f"'{name}' is {KIND_WORDS.get(other.kind, other.kind)}, not a room")
            else:
                self.error(pos, f"unknown room '{name}'" + _suggest(name, room_ids))
            return False

        rooms, roofs, furnishings, helpers, tools, bonuses = [], [], [], [], [], []
        for ident, merged in decls.items():
            if merged.kind in SINGLETONS:
                continue
            note(ident, merged)
            if not self.require(merged):
                continue
            f = merged.fields
            name = merged.name or ident
            if merged.kind == "room":
                category = f["category"].value
                if category not in CATEGORY_FLOOR_KIND:
                    self.error(
                        f["category"].pos,
                        f"unknown category '{category}'; expected one of "
                        + ", ".join(CATEGORY_FLOOR_KIND)
                        + _suggest(category, CATEGORY_FLOOR_KIND),
                    )
                    continue
                points = f["points"].value
                self.check_points(f["points"], points)
                if CATEGORY_FLOOR_KIND[category] not in floor_kinds:
                    self.error(f["category"].pos, f"no floor of the board takes {category} rooms")
                bonus = None
                if "bonus" in f:
                    value, target, tpos = f["bonus"].value
                    if check_room_ref(target, tpos):
                        bonus = (value, target)
                children = f["children"].value if "children" in f else 0
                self.check_count(f["count"])
                rooms.append(
                    RoomType(
                        ident,
                        name,
                        category,
                        CATEGORY_FLOOR_KIND[category],
                        points,
                        f["count"].value,
                        children,
                        bonus,
                        len(rooms),
                    )
                )
            elif merged.kind == "roof":
                self.check_count(f["count"])
                windows = f["windows"].value if "windows" in f else 0
                if windows < 0 or windows > f["count"].value:
                    self.error(f["windows"].pos, f"windows must be between 0 and the count ({f['count'].value})")
                roofs.append(RoofType(ident, name, f["count"].value, windows, len(roofs)))
            elif merged.kind in ("furnishing", "token"):
                room = None
                if ("room" in f) == ("outside" in f):
                    self.error(merged.pos, f"'{ident}' needs exactly one of 'room ROOM' or 'outside'")
                    continue
                if "room" in f:
                    room, rpos = f["room"].value
                    if not check_room_ref(room, rpos):
                        continue
                award = None
                if "award" in f:
                    award, apos = f["award"].value
                    if award not in AWARDS:
                        self.error(apos, f"unknown award '{award}'; expected one of {', '.join(AWARDS)}")
                points = f["points"].value
                if len(points) != 1:
                    self.error(f["points"].pos, "a token has one points value")
                if points[0] < 0:
                    self.error(f["points"].pos, "points cannot be negative")
                count = f["count"].value if "count" in f else 1
                if "count" in f:
                    self.check_count(f["count"])
                furnishings.append(
                    Furnishing(ident, name, room, points[0], count, award, merged.kind == "furnishing", len(furnishings))
                )
            elif merged.kind in ("helper", "tool"):
                self.check_count(f["count"])
                effects = tuple(self.compile_effect(spec) for spec in f["effect"].value)
                card = HeldCard(ident, name, merged.kind, f["count"].value, tuple(e for e in effects if e))
                (helpers if merged.kind == "helper" else tools).append(card)
            elif merged.kind == "bonus":
                points = f["points"].value
                if len(points) != 1:
                    self.error(f["points"].pos, "a bonus has one points value")
                clauses = []
                for cond in f["when"].value:
                    if not check_room_ref(cond.room, cond.pos):
                        continue
                    if cond.scope is None:
                        scope = tuple(fl.name for fl in board.floors) if board else ()
                        clauses.append(Clause(cond.room, scope))
                    elif cond.scope not in floor_kinds:
                        self.error(
                            cond.pos, f"no floor of kind '{cond.scope}'; expected one of " + ", ".join(sorted(floor_kinds))
                        )
                    elif board is not None:
                        for fl in board.floors:
                            if fl.kind == cond.scope:
                                clauses.append(Clause(cond.room, (fl.name,)))
                bonuses.append(Bonus(ident, name, points[0], tuple(clauses), self.describe_when(f["when"].value)))

        # roof scoring
        roof_scoring = None
        rs_decl = decls.get("roof_scoring")
        if rs_decl is None:
            self.error(Pos(path, 1, 1), "no 'roof_scoring' block")
        else:
            for name, fld in rs_decl.fields.items():
                if name not in ROOF_SCORING_FIELDS:
                    self.error(
                        fld.pos,
                        f"unknown roof scoring field '{name}'; expected one of "
                        + ", ".join(ROOF_SCORING_FIELDS)
                        + _suggest(name, ROOF_SCORING_FIELDS),
                    )
            if self.require(rs_decl):
                vals = {k: rs_decl.fields[k].value for k in ROOF_SCORING_FIELDS}
                if vals["size"] < 1:
                    self.error(rs_decl.fields["size"].pos, "a complete roof has at least 1 card")
                roof_scoring = RoofScoring(**vals)
                note("roof_scoring", rs_decl)

        # options
        options = {name: values[0] for name, values in OPTIONS.items()}
        for name, decl in state.options.items():
            if name not in OPTIONS:
                self.error(decl.pos, f"unknown option '{name}'; expected one of {', '.join(OPTIONS)}" + _suggest(name, OPTIONS))
            elif str(decl.value) not in OPTIONS[name]:
                self.error(decl.pos, f"option {name} cannot be '{decl.value}'; expected one of " + ", ".join(OPTIONS[name]))
            else:
                options[name] = str(decl.value)

        # deck totals
        if game is not None and game_decl is not None:
            deal_pos = game_decl.fields["deal"].pos
            self.check_total("room cards", sum(r.count for r in rooms), game.rounds, game.deal_rooms, deal_pos)
            resources = (
                sum(r.count for r in roofs)
                + sum(x.count for x in furnishings if x.is_card)
                + sum(h.count for h in helpers)
                + sum(t.count for t in tools)
            )
            self.check_total("resource cards", resources, game.rounds, game.deal_resources, deal_pos)

        if self.errors:
            return None
        variants_available = {vid: (v.name or vid) for vid, (v, _f) in state.variants.items()}
        for vpath in sorted(VARIANTS_DIR.glob("*.dh")):
            variants_available.setdefault(vpath.stem, f"rules file {vpath.name}")
        content_hash = hashlib.sha256((source + "\n#variants:" + ",".join(variants_on)).encode("utf-8")).hexdigest()
        return Ruleset(
            game=game,
            board=board,
            rooms=tuple(rooms),
            roofs=tuple(roofs),
            furnishings=tuple(furnishings),
            helpers=tuple(helpers),
            tools=tuple(tools),
            bonuses=tuple(bonuses),
            roof_scoring=roof_scoring,
            options=MappingProxyType(options),
            variants_on=variants_on,
            variants_available=MappingProxyType(variants_available),
            provenance=MappingProxyType(provenance),
            source=source,
            content_hash=content_hash,
            warnings=tuple(self.warnings),
            path=path,
        )

    @staticmethod
    def describe_when(conditions: Sequence[Condition]) -> str:
        parts = []
        for c in conditions:
            parts.append(f"every {c.scope} floor has {c.room}" if c.scope else f"has {c.room}")
        return " and ".join(parts)

    def check_points(self, fld: Field, points: tuple[int, ...]) -> None:
        if not points:
            self.error(fld.pos, "a points table needs at least one value")
        if any(p < 0 for p in points):
            self.error(fld.pos, "points cannot be negative")
        for a, b in zip(points, points[1:]):
            if b < a:
                self.error(fld.pos, f"points must not fall as a room grows ({b} after {a})")
                break

    def check_count(self, fld: Field) -> None:
        if fld.value < 0:
            self.error(fld.pos, "a count cannot be negative")

    def check_total(self, what: str, have: int, rounds: int, deal: int, pos: Pos) -> None:
        need = rounds * deal
        if have < need:
            self.error(pos, f"{what}: {have}, fewer than the game deals: {rounds} × {deal} = {need}")
        elif have > need:
            self.error(
                pos,
                f"{what}: {have}, the game deals {rounds} × {deal} = {need}; {have - need} will never be dealt",
                severity="warning",
            )

    def compile_effect(self, spec: EffectSpec) -> Effect | None:
        shape = EFFECTS.get(spec.name)
        if shape is None:
            self.error(
                spec.pos,
                f"unknown effect '{spec.name}'; the engine implements " + ", ".join(EFFECTS) + _suggest(spec.name, EFFECTS),
            )
            return None
        ok = True
        if shape.keywords:
            for arg, value in spec.args:
                if arg not in shape.keywords:
                    self.error(
                        spec.pos,
                        f"{spec.name}() does not take '{arg}'; expected "
                        + ", ".join(shape.keywords)
                        + _suggest(arg, shape.keywords),
                    )
                    ok = False
                elif value is None:
                    self.error(spec.pos, f"expected a number after '{arg}' in {spec.name}()")
                    ok = False
        else:
            if len(spec.args) != len(shape.positional):
                self.error(spec.pos, f"{spec.name} takes {len(shape.positional)} argument(s), got {len(spec.args)}")
                ok = False
            else:
                for (arg, value), allowed in zip(spec.args, shape.positional):
                    if arg not in allowed or value is not None:
                        self.error(spec.pos, f"{spec.name}() cannot use '{arg}' there; expected one of " + ", ".join(allowed))
                        ok = False
        flags = set()
        for flag, fpos in spec.flags:
            if flag.startswith("at "):
                when = flag[3:]
                if when not in shape.timings:
                    allowed_t = ", ".join("at " + t for t in shape.timings) or "no timing"
                    self.error(fpos, f"{spec.name} cannot act '{flag}'; expected {allowed_t}")
                    ok = False
            elif flag not in shape.flags:
                allowed_f = ", ".join(shape.flags) or "no flags"
                self.error(fpos, f"unknown flag '{flag}' for {spec.name}; expected {allowed_f}" + _suggest(flag, shape.flags))
                ok = False
            else:
                flags.add(flag)
        if spec.uses is not None and spec.uses < 1:
            self.error(spec.pos, "uses must be at least 1")
            ok = False
        if not ok:
            return None
        return Effect(spec.name, spec.args, spec.timing, frozenset(flags), spec.uses or 1)


@dataclass(frozen=True)
class _Loaded:
    items: list
    source: str
    path: str


def _load(compiler: _Compiler, path: Path | None, text: str | None, name: str | None) -> _Loaded | None:
    if text is None:
        path = Path(path) if path is not None else BASE_RULES
        rules_file = compiler.read(path, None)
        key = str(path.resolve())
        display = str(path)
    else:
        display = name or "<string>"
        rules_file = compiler.parse_text(text, display)
        key = display
    if rules_file is None:
        return None
    items, source = compiler.flatten(rules_file, (key,))
    return _Loaded(items, source, display)


def _merge_all(compiler: _Compiler, loaded: _Loaded) -> _State:
    state = _State()
    seen_per_file: dict[str, dict[str, Pos]] = {}
    for file, item in loaded.items:
        compiler.merge_item(state, file, item, seen_per_file.setdefault(file, {}))
    return state


def _variant_file_items(compiler: _Compiler, name: str) -> tuple[list, str] | None:
    """A variant given as `rules/variants/NAME.dh`: its own declarations, applied
    on top of the rules in use (its includes stand for those rules)."""
    vpath = VARIANTS_DIR / f"{name}.dh"
    if not vpath.is_file():
        return None
    vfile = compiler.read(vpath, None)
    if vfile is None:
        return [], ""
    items = [(vfile.path, it) for it in vfile.items if not isinstance(it, (Include, VariantDecl))]
    body, cursor = [], 0
    for it in vfile.items:
        if isinstance(it, Include):
            body.append(vfile.text[cursor : it.start])
            cursor = it.end
    body.append(vfile.text[cursor:])
    return items, "".join(body)


def compile_rules(
    path: str | Path | None = None,
    variants: Sequence[str] = (),
    *,
    text: str | None = None,
    name: str | None = None,
) -> Ruleset:
    """Compile a rules file (default: the packaged base rules) with variants on.

    Raises `RulesError` carrying every error found.
    """
    compiler = _Compiler()
    loaded = _load(compiler, Path(path) if path is not None else None, text, name)
    if loaded is None or compiler.errors:
        raise RulesError(compiler.errors)
    state = _merge_all(compiler, loaded)
    source = loaded.source
    for vname in variants:
        if vname in state.variants:
            vdecl, vfile = state.variants[vname]
            for item in vdecl.items:
                compiler.merge_item(state, vfile, item, None)
            continue
        from_file = _variant_file_items(compiler, vname)
        if from_file is None:
            known = sorted(set(state.variants) | {p.stem for p in VARIANTS_DIR.glob("*.dh")})
            raise RulesError(
                [
                    Diagnostic(
                        loaded.path,
                        0,
                        0,
                        f"unknown variant '{vname}'" + _suggest(vname, known) + f"; known variants: {', '.join(known)}",
                    )
                ]
            )
        items, body = from_file
        for file, item in items:
            compiler.merge_item(state, file, item, None)
        source += f"\n\nvariant {vname} {{\n{body}\n}}\n"
    ruleset = compiler.build(state, tuple(variants), source, loaded.path)
    if ruleset is None:
        raise RulesError(compiler.errors)
    return ruleset


def check_rules(
    path: str | Path | None = None, *, text: str | None = None, name: str | None = None
) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """Every error and warning of a rules file, with each of its variants tried on.

    Returns (errors, warnings); never raises for a bad file.
    """
    errors: list[Diagnostic] = []
    warnings: list[Diagnostic] = []

    def absorb(diags):
        for d in diags:
            target = errors if d.severity == "error" else warnings
            if d not in target:
                target.append(d)

    try:
        rules = compile_rules(path, text=text, name=name)
    except RulesError as exc:
        absorb(exc.diagnostics)
        return errors, warnings
    absorb(rules.warnings)
    own_variants = [v for v, label in rules.variants_available.items() if not label.startswith("rules file ")]
    for variant in own_variants:
        try:
            absorb(compile_rules(path, [variant], text=text, name=name).warnings)
        except RulesError as exc:
            absorb(exc.diagnostics)
    return errors, warnings
