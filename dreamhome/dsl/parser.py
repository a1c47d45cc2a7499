"""Parse rules text into the AST (grammar in grammar.lark, beside this file).

The grammar lives in its own file behind this small class, as poetry-core does
with its Lark grammars; the LALR tables are cached on disk by Lark so a fresh
process builds the parser almost for free.
"""

from __future__ import annotations

import ast as pyast
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from dreamhome.dsl.ast import Condition, Decl, EffectSpec, Field, Include, Inlined, OptionDecl, Pos, RulesFile, VariantDecl
from dreamhome.errors import Diagnostic, RulesError

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")

# How Lark's terminal names read in an error message.
_TERMINAL_WORDS = {
    "INT": "a number",
    "NAME": "a name",
    "STRING": 'a quoted string ("…")',
    "PROVENANCE": "a provenance tag such as @assumed",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "COMMA": "','",
    "EQUAL": "'='",
    "$END": "the end of the file",
}


@lru_cache(maxsize=1)
def _lark() -> Lark:
    return Lark(
        GRAMMAR_PATH.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        strict=True,
        propagate_positions=True,
        maybe_placeholders=False,
        cache=True,
    )


def _describe_expected(parser: Lark, names: set[str]) -> str:
    words = []
    by_name = {t.name: t for t in parser.terminals}
    for name in sorted(names):
        if name in _TERMINAL_WORDS:
            words.append(_TERMINAL_WORDS[name])
            continue
        term = by_name.get(name)
        if term is not None and term.pattern.type == "str":
            words.append(f"'{term.pattern.value}'")
        else:
            words.append(name.lower())
    words = sorted(set(words))
    if len(words) > 8:
        words = words[:8] + ["…"]
    return ", ".join(words)


class _ToAst(Transformer):
    """Tree → AST, keeping every position."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def _pos(self, meta) -> Pos:
        return Pos(self.path, getattr(meta, "line", 1), getattr(meta, "column", 1))

    def _tpos(self, tok: Token) -> Pos:
        return Pos(self.path, tok.line, tok.column)

    # ---- terminals -------------------------------------------------
    def INT(self, tok):  # noqa: N802 - Lark names callbacks after terminals
        return Token.new_borrow_pos("INT", int(tok), tok)

    def STRING(self, tok):  # noqa: N802
        return Token.new_borrow_pos("STRING", pyast.literal_eval(tok), tok)

    # ---- fields ----------------------------------------------------
    @staticmethod
    def _split_prov(children):
        prov = None
        if children and isinstance(children[-1], tuple) and children[-1][0] == "@prov":
            prov = children[-1][1]
            children = children[:-1]
        return children, prov

    def provenance(self, children):
        return ("@prov", str(children[0])[1:], children[0])

    def _field(self, name, meta, children, convert):
        children, prov = self._split_prov(list(children))
        return Field(name, convert(children), prov, self._pos(meta))

    @v_args(meta=True)
    def players(self, meta, ch):
        return self._field("players", meta, ch, lambda c: (int(c[0]), int(c[1])))

    @v_args(meta=True)
    def rounds(self, meta, ch):
        return self._field("rounds", meta, ch, lambda c: int(c[0]))

    @v_args(meta=True)
    def deal(self, meta, ch):
        return self._field("deal", meta, ch, lambda c: (int(c[0]), int(c[1])))

    @v_args(meta=True)
    def category(self, meta, ch):
        return self._field("category", meta, ch, lambda c: str(c[0]))

    @v_args(meta=True)
    def points(self, meta, ch):
        return self._field("points", meta, ch, lambda c: tuple(int(x) for x in c))

    @v_args(meta=True)
    def count(self, meta, ch):
        return self._field("count", meta, ch, lambda c: int(c[0]))

    @v_args(meta=True)
    def bonus_field(self, meta, ch):
        return self._field("bonus", meta, ch, lambda c: (int(c[0]), str(c[1]), self._tpos(c[1])))

    @v_args(meta=True)
    def children(self, meta, ch):
        return self._field("children", meta, ch, lambda c: int(c[0]))

    @v_args(meta=True)
    def windows(self, meta, ch):
        return self._field("windows", meta, ch, lambda c: int(c[0]))

    @v_args(meta=True)
    def room_ref(self, meta, ch):
        return self._field("room", meta, ch, lambda c: (str(c[0]), self._tpos(c[0])))

    @v_args(meta=True)
    def outside(self, meta, ch):
        return self._field("outside", meta, ch, lambda c: True)

    @v_args(meta=True)
    def award(self, meta, ch):
        return self._field("award", meta, ch, lambda c: (str(c[0]), self._tpos(c[0])))

    @v_args(meta=True)
    def roof_field(self, meta, ch):
        ch, prov = self._split_prov(list(ch))
        return Field(str(ch[0]), int(ch[1]), prov, self._pos(meta))

    # ---- effects ---------------------------------------------------
    def effect_arg(self, ch):
        return (str(ch[0]), int(ch[1]) if len(ch) > 1 else None)

    def effect_args(self, ch):
        return ("@args", tuple(c for c in ch if c is not None))

    def at_flag(self, ch):
        return ("@at", str(ch[0]), ch[0])

    def uses_flag(self, ch):
        return ("@uses", int(ch[0]), ch[0])

    def plain_flag(self, ch):
        return ("@flag", str(ch[0]), ch[0])

    @v_args(meta=True)
    def effect(self, meta, ch):
        name = str(ch[0])
        args: tuple = ()
        timing = None
        uses = None
        flags = []
        for item in ch[1:]:
            tag = item[0]
            if tag == "@args":
                args = item[1]
            elif tag == "@at":
                timing = item[1]
                flags.append(("at " + item[1], self._tpos(item[2])))
            elif tag == "@uses":
                uses = item[1]
            else:
                flags.append((item[1], self._tpos(item[2])))
        spec = EffectSpec(name, args, timing, tuple(flags), uses, self._pos(meta))
        return Field("effect", spec, None, self._pos(meta))

    # ---- bonuses ---------------------------------------------------
    @v_args(meta=True)
    def has_cond(self, meta, ch):
        return Condition(str(ch[0]), None, self._tpos(ch[0]))

    @v_args(meta=True)
    def every_cond(self, meta, ch):
        return Condition(str(ch[1]), str(ch[0]), self._tpos(ch[1]))

    @v_args(meta=True)
    def when(self, meta, ch):
        return Field("when", tuple(ch), None, self._pos(meta))

    # ---- board -----------------------------------------------------
    @v_args(meta=True)
    def floor(self, meta, ch):
        return Field("floor:" + str(ch[0]), (str(ch[1]), int(ch[2]), int(ch[3])), None, self._pos(meta))

    @v_args(meta=True)
    def roof_pile(self, meta, ch):
        return Field("roof_pile", (str(ch[0]), int(ch[1]), int(ch[2])), None, self._pos(meta))

    # ---- declarations ----------------------------------------------
    @staticmethod
    def _head(ch):
        """Split `NAME STRING? fields…` into id, display name, fields."""
        ident = str(ch[0])
        rest = list(ch[1:])
        name = None
        if rest and isinstance(rest[0], Token) and rest[0].type == "STRING":
            name = str(rest[0])
            rest = rest[1:]
        return ident, name, rest

    @staticmethod
    def _group_effects(fields):
        effects = [f for f in fields if f.name == "effect"]
        out = [f for f in fields if f.name != "effect"]
        if effects:
            out.append(Field("effect", tuple(f.value for f in effects), None, effects[0].pos))
        return tuple(out)

    @v_args(meta=True)
    def game(self, meta, ch):
        ident, name, rest = self._head(ch)
        return Decl("game", ident, name, tuple(rest), self._pos(meta))

    @v_args(meta=True)
    def board(self, meta, ch):
        return Decl("board", None, None, tuple(ch), self._pos(meta))

    def card_kind(self, ch):
        return str(ch[0])

    @v_args(meta=True)
    def card(self, meta, ch):
        kind = ch[0]
        ident, name, rest = self._head(ch[1:])
        return Decl(kind, ident, name, self._group_effects(rest), self._pos(meta))

    @v_args(meta=True)
    def bonus(self, meta, ch):
        ident, name, rest = self._head(ch)
        return Decl("bonus", ident, name, tuple(rest), self._pos(meta))

    @v_args(meta=True)
    def roof_scoring(self, meta, ch):
        return Decl("roof_scoring", None, None, tuple(ch), self._pos(meta))

    @v_args(meta=True)
    def option(self, meta, ch):
        value = ch[1]
        value = int(value) if value.type == "INT" else str(value)
        return OptionDecl(str(ch[0]), value, self._pos(meta))

    @v_args(meta=True)
    def variant(self, meta, ch):
        ident, name, rest = self._head(ch)
        return VariantDecl(ident, name, tuple(rest), self._pos(meta))

    @v_args(meta=True)
    def include(self, meta, ch):
        return Include(str(ch[0]), self._pos(meta), meta.start_pos, meta.end_pos)

    @v_args(meta=True)
    def inlined(self, meta, ch):
        return Inlined(str(ch[0]), tuple(ch[1:]), self._pos(meta))

    def start(self, ch):
        return tuple(ch)


def _top_level_chunks(text: str) -> list[tuple[int, str]]:
    """Split text into top-level declarations by brace depth, for error recovery.

    Returns (line offset, chunk text) pairs; each chunk starts at a line start,
    so positions inside a chunk re-parsed after `offset` newlines stay true.
    """
    chunks: list[tuple[int, list[str]]] = []
    depth = 0
    current: list[str] = []
    start_line = 0
    for lineno, line in enumerate(text.split("\n")):
        if depth == 0 and line.strip() and not line.lstrip().startswith("#") and current:
            chunks.append((start_line, current))
            current = []
        if not current:
            start_line = lineno
        current.append(line)
        in_string = False
        for i, char in enumerate(line):
            if char == '"' and (i == 0 or line[i - 1] != "\\"):
                in_string = not in_string
            elif not in_string:
                if char == "#":
                    break
                if char == "{":
                    depth += 1
                elif char == "}":
                    depth = max(0, depth - 1)
    if current:
        chunks.append((start_line, current))
    return [(offset, "\n".join(lines)) for offset, lines in chunks]


class RulesParser:
    """Parses rules text; every failure is a `RulesError` with positions."""

    def __init__(self) -> None:
        self._parser = _lark()

    def _diagnostic(self, exc: UnexpectedInput, path: str, lines: list[str]) -> Diagnostic:
        line = getattr(exc, "line", None) or 0
        column = getattr(exc, "column", None) or 0
        at_end = isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END")
        if at_end or line <= 0:
            # Point just past the last non-blank line: where the missing text belongs.
            line = max((k + 1 for k, text in enumerate(lines) if text.strip()), default=1)
            column = len(lines[line - 1].rstrip()) + 2 if lines and lines[line - 1].strip() else 1
        source = lines[line - 1] if 0 < line <= len(lines) else ""
        if isinstance(exc, UnexpectedToken):
            got = "the end of the file" if exc.token.type == "$END" else f"'{exc.token}'"
            expected = _describe_expected(self._parser, set(exc.accepts or exc.expected))
            message = f"unexpected {got}; expected {expected}"
        elif isinstance(exc, UnexpectedCharacters):
            char = source[column - 1] if 0 < column <= len(source) else "?"
            expected = _describe_expected(self._parser, set(exc.allowed or ()))
            message = f"unexpected character {char!r}; expected {expected}"
        else:
            expected = _describe_expected(self._parser, set(getattr(exc, "expected", ()) or ()))
            message = f"unexpected end of the file; expected {expected}"
        return Diagnostic(path, line, column, message, source)

    def _parse_once(self, text: str, path: str):
        tree = self._parser.parse(text)
        return _ToAst(path).transform(tree)

    def parse(self, text: str, path: str = "<string>") -> RulesFile:
        lines = text.split("\n")
        try:
            items = self._parse_once(text, path)
        except UnexpectedInput as exc:
            first = self._diagnostic(exc, path, lines)
            diagnostics = [first]
            # Recover: re-parse each top-level declaration alone, so one typo
            # does not hide the errors after it.
            for offset, chunk in _top_level_chunks(text):
                try:
                    self._parse_once("\n" * offset + chunk, path)
                except UnexpectedInput as inner:
                    diag = self._diagnostic(inner, path, lines)
                    if diag.line > first.line and diag not in diagnostics:
                        diagnostics.append(diag)
                except LarkError:
                    pass
            raise RulesError(diagnostics) from None
        except LarkError as exc:  # defensive: any other Lark failure is still a rules error
            raise RulesError([Diagnostic(path, 1, 1, f"cannot parse: {exc}")]) from None
        return RulesFile(path, text, items)
