"""Parse rules text into the AST (grammar in grammar.lark, beside this file).

The grammar lives in its own file behind this small class, as poetry-core does
with its Lark grammars; the LALR tables are cached on disk by Lark so a fresh
process builds the parser almost for free. Lark is the one reader of the
language (issue 20): its parse tree goes through `_ToAst`, so a grammar change
is made in grammar.lark and in the callback of the rule it touches, nowhere else.
"""

from __future__ import annotations

import ast as pyast
import re
import warnings
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import cast

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.tree import Meta

from dreamhome.dsl.ast import (
    NAME_FIELD,
    Condition,
    Decl,
    EffectSpec,
    Field,
    Include,
    Inlined,
    Item,
    NameValue,
    OptionDecl,
    Pos,
    RulesFile,
    VariantDecl,
    VariantItem,
)
from dreamhome.errors import Diagnostic, RulesError
from dreamhome.fileio import printable

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


INT_LIMIT = 10**18
"""An integer literal longer than this is read as ±INT_LIMIT: far beyond every bound the compiler
checks (which then refuses it with its own message), and never a 5,000-digit `int()` (Python's
digit limit raises ValueError) or a number CP-SAT cannot hold."""
BOM = "\ufeff"


def int_literal(text: str) -> int:
    """An INT token's value, clamped to ±INT_LIMIT (the one conversion of a number literal)."""
    digits = text.lstrip("-")
    if len(digits) > 18:
        return -INT_LIMIT if text.startswith("-") else INT_LIMIT
    return int(text)


_ESCAPE = re.compile(r"\\(N\{[^}\n]*\}?|x[0-9a-fA-F]{0,2}|u[0-9a-fA-F]{0,4}|U[0-9a-fA-F]{0,8}|[0-7]{1,3}|.)")


def string_literal(token: str) -> str | int:
    """A STRING token's value; for a bad escape (`\\x4`, `\\N{nope}`, `\\u12`), the offset
    of its backslash in the token instead, so the error points at it."""
    try:
        value = _literal(token)
    except (SyntaxError, ValueError):
        value = None
    if isinstance(value, str):
        return value
    for m in _ESCAPE.finditer(token):
        try:
            _literal('"' + m.group(0) + '"')
        except (SyntaxError, ValueError):
            return m.start()
    # No bad escape: a character Python's reader refuses (a NUL byte).
    return next((k for k, char in enumerate(token) if char == "\x00"), 0)


def _literal(text: str) -> object:
    """`ast.literal_eval`, with an unknown escape (`\\ `, `\\q`) refused as a bad escape: Python
    keeps its backslash with a warning today and will refuse it later, so a rules file reads the
    same under every Python."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        warnings.simplefilter("error", SyntaxWarning)
        try:
            return pyast.literal_eval(text)
        except (DeprecationWarning, SyntaxWarning) as exc:
            raise ValueError(str(exc)) from None


MAX_NESTING = 100
"""The deepest `inlined` blocks may nest in one file, and includes in one compile (issue 34,
item 8). A game record nests one block per include level, a handful; a file nested deeper is
refused at the first block (or `include`) past the bound, with its line, before any step that
recurses over the nesting (the tree's transformer, the compiler's expansion of the blocks, the
following of includes) could run out of Python's stack and answer "maximum recursion depth"."""


def nesting_problem(what: str) -> str:
    """The message for `what` ("'inlined' blocks", "includes") nested past `MAX_NESTING`."""
    return f"{what} nest more than {MAX_NESTING} deep here; at most {MAX_NESTING} levels are read"


class TooDeepError(Exception):
    """`inlined` blocks nested past `MAX_NESTING`: one diagnostic at the first block too deep."""

    def __init__(self, line: int, column: int) -> None:
        super().__init__(line, column)
        self.line, self.column = line, column


def _check_nesting(tree: Tree[Token]) -> None:
    """Raise `TooDeepError` at the first `inlined` block (in the text's order) nested past
    `MAX_NESTING`. Walks the tree with its own stack: the check itself cannot recurse too deep."""
    stack: list[tuple[Tree[Token], int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        for child in reversed(node.children):  # reversed onto the stack: popped in the text's order
            if isinstance(child, Tree):
                inner = depth + (child.data == "inlined")
                if inner > MAX_NESTING:  # a pre-order walk: the first found is the first written
                    raise TooDeepError(getattr(child.meta, "line", 1), getattr(child.meta, "column", 1))
                stack.append((child, inner))


class BadStringError(Exception):
    """A string literal with an escape Python cannot read: one diagnostic at the escape."""

    def __init__(self, line: int, column: int, escape: str) -> None:
        super().__init__(line, column, escape)
        self.line, self.column, self.escape = line, column, escape


# What the callbacks below hand up for the small rules: (tag, value, token).
_Prov = tuple[str, str, Token]  # ("@prov", tag without "@", token)
_Flag = tuple[str, "str | int", Token]  # ("@at" | "@uses" | "@flag", value, token)
_Args = tuple[str, tuple[tuple[str, "int | None"], ...]]  # ("@args", args)


class _ToAst(Transformer[Token, "tuple[Item, ...]"]):
    """Tree → AST, keeping every position.

    Each callback's children are what the grammar puts there: terminals (Lark's
    `Token`, a `str`) and what the callbacks of sub-rules returned.
    """

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def _pos(self, meta: Meta) -> Pos:
        return Pos(self.path, getattr(meta, "line", 1), getattr(meta, "column", 1))

    def _tpos(self, tok: Token) -> Pos:
        return Pos(self.path, tok.line or 1, tok.column or 1)  # lexed tokens always carry both

    # ---- terminals -------------------------------------------------
    def INT(self, tok: Token) -> Token:  # noqa: N802 - Lark names callbacks after terminals
        return Token.new_borrow_pos("INT", int_literal(tok), tok)

    def STRING(self, tok: Token) -> Token:  # noqa: N802
        value = string_literal(tok)
        if isinstance(value, int):
            m = _ESCAPE.match(tok, value)
            raise BadStringError(tok.line or 1, (tok.column or 1) + value, m.group(0) if m else tok[value : value + 1])
        return Token.new_borrow_pos("STRING", value, tok)

    # ---- fields ----------------------------------------------------
    @staticmethod
    def _split_prov(children: Sequence[Token | _Prov]) -> tuple[list[Token], str | None]:
        """The terminals of a field, and its provenance tag if it ends with one."""
        last = children[-1] if children else None
        if isinstance(last, tuple) and last[0] == "@prov":
            return cast("list[Token]", list(children[:-1])), last[1]
        return cast("list[Token]", list(children)), None

    def provenance(self, children: list[Token]) -> _Prov:
        return ("@prov", str(children[0])[1:], children[0])

    def _field(self, name: str, meta: Meta, children: Sequence[Token | _Prov], convert: Callable[[list[Token]], object]) -> Field:
        tokens, prov = self._split_prov(children)
        return Field(name, convert(tokens), prov, self._pos(meta))

    @v_args(meta=True)
    def players(self, meta: Meta, ch: list[Token | _Prov]) -> Field:
        return self._field("players", meta, ch, lambda c: (int(c[0]), int(c[1])))

    @v_args(meta=True)
    def rounds(self, meta: Meta, ch: list[Token | _Prov]) -> Field:
        return self._field("rounds", meta, ch, lambda c: int(c[0]))

    @v_args(meta=True)
    def deal(self, meta: Meta, ch: list[Token | _Prov]) -> Field:
        return self._field("deal", meta, ch, lambda c: (int(c[0]), int(c[1])))

    @v_args(meta=True)
    def category(self, meta: Meta, ch: list[Token | _Prov]) -> Field:
        return self._field("category", meta, ch, lambda c: str(c[0]))

    @v_args(meta=True)
    def points(self, meta: Meta, ch: list[Token | _Prov]) -> Field:
        return self._field("points", meta, ch, lambda c: tuple(int(x) for x in c))

    @v_args(meta=True)
    def count(self, meta: Meta, ch: list[Token | _Prov]) -> Field:
        return self._field("count", meta, ch, lambda c: int(c[0]))

    @v_args(meta=True)
    def bonus_field(self, meta: Meta, ch: list[Token | _Prov]) -> Field:
        return self._field("bonus", meta, ch, lambda c: (int(c[0]), str(c[1]), self._tpos(c[1])))

    @v_args(meta=True)
    def children(self, meta: Meta, ch: list[Token | _Prov]) -> Field:
        return self._field("children", meta, ch, lambda c: int(c[0]))

    @v_args(meta=True)
    def windows(self, meta: Meta, ch: list[Token | _Prov]) -> Field:
        return self._field("windows", meta, ch, lambda c: int(c[0]))

    @v_args(meta=True)
    def colour(self, meta: Meta, ch: list[Token | _Prov]) -> Field:
        return self._field("colour", meta, ch, lambda c: str(c[0]))

    @v_args(meta=True)
    def discard(self, meta: Meta, ch: list[Token | _Prov]) -> Field:
        return self._field("discard", meta, ch, lambda c: (int(c[0]), int(c[1])))

    @v_args(meta=True)
    def room_ref(self, meta: Meta, ch: list[Token | _Prov]) -> Field:
        return self._field("room", meta, ch, lambda c: (str(c[0]), self._tpos(c[0])))

    @v_args(meta=True)
    def outside(self, meta: Meta, ch: list[Token | _Prov]) -> Field:
        return self._field("outside", meta, ch, lambda c: True)

    @v_args(meta=True)
    def award(self, meta: Meta, ch: list[Token | _Prov]) -> Field:
        return self._field("award", meta, ch, lambda c: (str(c[0]), self._tpos(c[0])))

    @v_args(meta=True)
    def name_field(self, meta: Meta, ch: list[Token | _Prov]) -> Field:
        return self._field(NAME_FIELD + str(ch[0]), meta, ch, self._name_value)

    def _name_value(self, c: list[Token]) -> NameValue:
        gender = c[2] if len(c) > 2 else None
        return NameValue(
            str(c[0]), str(c[1]), self._tpos(c[0]), str(gender) if gender else None, self._tpos(gender) if gender else None
        )

    @v_args(meta=True)
    def roof_field(self, meta: Meta, ch: list[Token | _Prov]) -> Field:
        tokens, prov = self._split_prov(ch)
        return Field(str(tokens[0]), int(tokens[1]), prov, self._pos(meta))

    # ---- effects ---------------------------------------------------
    def effect_arg(self, ch: list[Token]) -> tuple[str, int | None]:
        return (str(ch[0]), int(ch[1]) if len(ch) > 1 else None)

    def effect_args(self, ch: list[tuple[str, int | None] | None]) -> _Args:
        return ("@args", tuple(c for c in ch if c is not None))

    def at_flag(self, ch: list[Token]) -> _Flag:
        return ("@at", str(ch[0]), ch[0])

    def uses_flag(self, ch: list[Token]) -> _Flag:
        return ("@uses", int(ch[0]), ch[0])  # the number's position: a repeated `uses` is shown there

    def plain_flag(self, ch: list[Token]) -> _Flag:
        return ("@flag", str(ch[0]), ch[0])

    @v_args(meta=True)
    def effect(self, meta: Meta, ch: list[Token | _Args | _Flag]) -> Field:
        name = str(ch[0])
        args: tuple[tuple[str, int | None], ...] = ()
        timing = None
        uses = None
        flags = []
        seen: set[str] = set()
        repeats = []
        for item in cast("list[_Args | _Flag]", ch[1:]):
            if item[0] == "@args":
                args = cast(_Args, item)[1]
                continue
            tag, value, token = cast(_Flag, item)
            word = "uses" if tag == "@uses" else str(value) if tag == "@flag" else f"at {value}"
            if word in seen:
                repeats.append((word, self._tpos(token)))
            seen.add(word)
            if tag == "@at":
                timing = str(value)
                flags.append(("at " + timing, self._tpos(token)))
            elif tag == "@uses":
                uses = int(value)
            else:
                flags.append((str(value), self._tpos(token)))
        spec = EffectSpec(name, args, timing, tuple(flags), uses, self._pos(meta), tuple(repeats))
        return Field("effect", spec, None, self._pos(meta))

    # ---- bonuses ---------------------------------------------------
    @v_args(meta=True)
    def has_cond(self, meta: Meta, ch: list[Token]) -> Condition:
        return Condition(str(ch[0]), None, self._tpos(ch[0]))

    @v_args(meta=True)
    def every_cond(self, meta: Meta, ch: list[Token]) -> Condition:
        return Condition(str(ch[1]), str(ch[0]), self._tpos(ch[1]))

    @v_args(meta=True)
    def when(self, meta: Meta, ch: list[Condition]) -> Field:
        return Field("when", tuple(ch), None, self._pos(meta))

    # ---- board -----------------------------------------------------
    @v_args(meta=True)
    def floor(self, meta: Meta, ch: list[Token]) -> Field:
        return Field("floor:" + str(ch[0]), (str(ch[1]), int(ch[2]), int(ch[3])), None, self._pos(meta))

    @v_args(meta=True)
    def roof_pile(self, meta: Meta, ch: list[Token]) -> Field:
        return Field("roof_pile", (str(ch[0]), int(ch[1]), int(ch[2])), None, self._pos(meta))

    # ---- declarations ----------------------------------------------
    @staticmethod
    def _head(ch: Sequence[object]) -> tuple[str, str | None, list[object]]:
        """Split `NAME STRING? fields…` into id, display name, fields."""
        ident = str(ch[0])
        rest = list(ch[1:])
        name = None
        if rest and isinstance(rest[0], Token) and rest[0].type == "STRING":
            name = str(rest[0])
            rest = rest[1:]
        return ident, name, rest

    @staticmethod
    def _group_effects(fields: list[Field]) -> tuple[Field, ...]:
        """A card's `effect` lines become one field holding them all, placed last."""
        effects = [f for f in fields if f.name == "effect"]
        out = [f for f in fields if f.name != "effect"]
        if effects:
            out.append(Field("effect", tuple(f.value for f in effects), None, effects[0].pos))
        return tuple(out)

    @v_args(meta=True)
    def game(self, meta: Meta, ch: list[object]) -> Decl:
        ident, name, rest = self._head(ch)
        return Decl("game", ident, name, tuple(cast("list[Field]", rest)), self._pos(meta))

    @v_args(meta=True)
    def board(self, meta: Meta, ch: list[Field]) -> Decl:
        return Decl("board", None, None, tuple(ch), self._pos(meta))

    def card_kind(self, ch: list[Token]) -> str:
        return str(ch[0])

    @v_args(meta=True)
    def card(self, meta: Meta, ch: list[object]) -> Decl:
        kind = str(ch[0])
        ident, name, rest = self._head(ch[1:])
        return Decl(kind, ident, name, self._group_effects(cast("list[Field]", rest)), self._pos(meta))

    @v_args(meta=True)
    def bonus(self, meta: Meta, ch: list[object]) -> Decl:
        ident, name, rest = self._head(ch)
        return Decl("bonus", ident, name, tuple(cast("list[Field]", rest)), self._pos(meta))

    @v_args(meta=True)
    def roof_scoring(self, meta: Meta, ch: list[Field]) -> Decl:
        return Decl("roof_scoring", None, None, tuple(ch), self._pos(meta))

    @v_args(meta=True)
    def option(self, meta: Meta, ch: list[Token]) -> OptionDecl:
        token = ch[1]
        value: str | int = int(token) if token.type == "INT" else str(token)
        return OptionDecl(str(ch[0]), value, self._pos(meta))

    @v_args(meta=True)
    def variant(self, meta: Meta, ch: list[object]) -> VariantDecl:
        ident, name, rest = self._head(ch)
        titles = tuple(f for f in rest if isinstance(f, Field))
        items = [item for item in rest if not isinstance(item, Field)]
        return VariantDecl(ident, name, tuple(cast("list[VariantItem]", items)), self._pos(meta), titles)

    @v_args(meta=True)
    def include(self, meta: Meta, ch: list[Token]) -> Include:
        return Include(str(ch[0]), self._pos(meta), meta.start_pos, meta.end_pos)

    @v_args(meta=True)
    def inlined(self, meta: Meta, ch: list[object]) -> Inlined:
        return Inlined(str(ch[0]), tuple(cast("list[Item]", ch[1:])), self._pos(meta))

    def start(self, ch: list[Item]) -> tuple[Item, ...]:
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

    def _diagnostic(
        self, exc: UnexpectedInput, path: str, lines: list[str], end: tuple[int, int], line_offset: int = 0
    ) -> Diagnostic:
        """`exc` from parsing text that starts `line_offset` lines into `lines`; `end` is `_end_of_text(lines)`."""
        line = getattr(exc, "line", None) or 0
        column = getattr(exc, "column", None) or 0
        at_end = isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END")
        if at_end or line <= 0:
            # Point just past the last non-blank line: where the missing text belongs.
            line, column = end
        else:
            line += line_offset
        source = lines[line - 1] if 0 < line <= len(lines) else ""
        if isinstance(exc, UnexpectedToken):
            token = str(exc.token)
            got = "the end of the file" if exc.token.type == "$END" else f"'{token[:40]}{'…' if len(token) > 40 else ''}'"
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

    def _parse_once(self, text: str, path: str) -> tuple[Item, ...]:
        tree = self._parser.parse(text)
        _check_nesting(tree)
        return _ToAst(path).transform(tree)

    def parse(self, text: str, path: str = "<string>") -> RulesFile:
        if text.startswith(BOM):  # a UTF-8 byte order mark some editors write: not part of the rules
            text = text[1:]
        try:
            return RulesFile(path, text, self._parse_once(text, path))
        except UnexpectedInput as exc:
            raise RulesError(self._recover(exc, text, path)) from None
        except TooDeepError as exc:
            raise RulesError([self._too_deep(exc, text.split("\n"), path)]) from None
        except VisitError as exc:
            if isinstance(exc.orig_exc, BadStringError):
                raise RulesError([self._bad_string(exc.orig_exc, text, path)]) from None
            raise RulesError([Diagnostic(path, 1, 1, f"cannot parse: {_first_line(exc.orig_exc)}")]) from None
        except LarkError as exc:  # defensive: any other Lark failure is still a rules error
            raise RulesError([Diagnostic(path, 1, 1, f"cannot parse: {_first_line(exc)}")]) from None

    @staticmethod
    def _too_deep(exc: TooDeepError, lines: list[str], path: str, line_offset: int = 0) -> Diagnostic:
        line = exc.line + line_offset
        source = lines[line - 1] if 0 < line <= len(lines) else ""
        return Diagnostic(path, line, exc.column, nesting_problem("'inlined' blocks"), source)

    @staticmethod
    def _bad_string(bad: BadStringError, text: str, path: str) -> Diagnostic:
        lines = text.split("\n")
        source = lines[bad.line - 1] if 0 < bad.line <= len(lines) else ""
        if bad.escape.startswith("\\"):
            message = f"bad escape '{bad.escape}' in a string; write a backslash as \\\\"
        else:
            message = f"a string cannot hold the character {printable(repr(bad.escape))}"
        return Diagnostic(path, bad.line, bad.column, message, source)

    def _recover(self, exc: UnexpectedInput, text: str, path: str) -> list[Diagnostic]:
        """The first error, then each later one: every top-level declaration is
        re-parsed alone so one typo does not hide the errors after it. Linear in
        the text: a chunk is parsed as it stands and its error moved down by its
        line offset."""
        lines = text.split("\n")
        end = _end_of_text(lines)
        first = self._diagnostic(exc, path, lines, end)
        found: dict[Diagnostic, None] = {first: None}
        for offset, chunk in _top_level_chunks(text):
            try:
                self._parse_once(chunk, path)
            except UnexpectedInput as inner:
                diag = self._diagnostic(inner, path, lines, end, offset)
                if diag.line > first.line:
                    found[diag] = None
            except TooDeepError as deep:
                diag = self._too_deep(deep, lines, path, offset)
                if diag.line > first.line:
                    found[diag] = None
            except LarkError:
                pass
        return list(found)


def _first_line(exc: BaseException) -> str:
    """An exception's message, one line of it: diagnostics never spill over several lines."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _end_of_text(lines: list[str]) -> tuple[int, int]:
    """Just past the last non-blank line: where text missing at the end belongs."""
    line = max((k + 1 for k, text in enumerate(lines) if text.strip()), default=1)
    column = len(lines[line - 1].rstrip()) + 2 if lines and lines[line - 1].strip() else 1
    return line, column
