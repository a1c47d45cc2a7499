"""Parse rules text into the AST (grammar in grammar.lark, beside this file).

The grammar lives in its own file behind this small class, as poetry-core does
with its Lark grammars; the LALR tables are cached on disk by Lark so a fresh
process builds the parser almost for free. Valid text is read by a small
recursive-descent reader of the same grammar, about five times faster than
Lark's parse tree and Transformer; anything it does not expect goes to Lark,
which stays the authority on what is valid and on every syntax error.
"""

from __future__ import annotations

import ast as pyast
import bisect
import re
import warnings
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import cast

from lark import Lark, Token, Transformer, v_args
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
    """An INT token's value, clamped to ±INT_LIMIT (both readers use this one conversion)."""
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
        return self._field(NAME_FIELD + str(ch[0]), meta, ch, lambda c: (str(c[0]), str(c[1]), self._tpos(c[0])))

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
        return ("@uses", int(ch[0]), ch[0])

    def plain_flag(self, ch: list[Token]) -> _Flag:
        return ("@flag", str(ch[0]), ch[0])

    @v_args(meta=True)
    def effect(self, meta: Meta, ch: list[Token | _Args | _Flag]) -> Field:
        name = str(ch[0])
        args: tuple[tuple[str, int | None], ...] = ()
        timing = None
        uses = None
        flags = []
        for item in cast("list[_Args | _Flag]", ch[1:]):
            if item[0] == "@args":
                args = cast(_Args, item)[1]
                continue
            tag, value, token = cast(_Flag, item)
            if tag == "@at":
                timing = str(value)
                flags.append(("at " + timing, self._tpos(token)))
            elif tag == "@uses":
                uses = int(value)
            else:
                flags.append((str(value), self._tpos(token)))
        spec = EffectSpec(name, args, timing, tuple(flags), uses, self._pos(meta))
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
        return VariantDecl(ident, name, tuple(cast("list[VariantItem]", rest)), self._pos(meta))

    @v_args(meta=True)
    def include(self, meta: Meta, ch: list[Token]) -> Include:
        return Include(str(ch[0]), self._pos(meta), meta.start_pos, meta.end_pos)

    @v_args(meta=True)
    def inlined(self, meta: Meta, ch: list[object]) -> Inlined:
        return Inlined(str(ch[0]), tuple(cast("list[Item]", ch[1:])), self._pos(meta))

    def start(self, ch: list[Item]) -> tuple[Item, ...]:
        return tuple(ch)


# ---- the fast path -------------------------------------------------------
# Lark's parse of a large file costs about 0.2 ms a declaration (lexer, tree,
# positions, then a Transformer pass). `_FastReader` reads the same grammar
# by recursive descent straight into the AST, and gives up at the first thing
# it does not expect: Lark then parses the text, so every error message, and
# every odd-but-valid text, is still Lark's. It must never accept text Lark
# rejects, nor read text differently; tests/test_compiler.py checks it against
# Lark on every rules file of the project, on generated files and on token soup.

# One significant token after whitespace and comments (the grammar's WS and
# COMMENT): INT, a word (NAME or keyword), STRING, PROVENANCE, punctuation.
_FAST_TOKEN = re.compile(
    r"[ \t\f\r\n]*(?:#[^\n]*[ \t\f\r\n]*)*"  # WS and COMMENT, without nested repeats (no backtracking blow-up)
    r"(?:(-?[0-9]+)"  # 1: INT
    r"|([A-Za-z_][A-Za-z0-9_]*)"  # 2: NAME or a keyword
    r'|("(?:\\.|[^"\\\n])*")'  # 3: STRING
    r"|(@[A-Za-z_]+)"  # 4: PROVENANCE
    r"|(\.\.|[{}(),=])"  # 5: punctuation
    r"|\Z)"  # the end of the text
)
_INT, _WORD, _STRING, _PROV, _PUNCT = 1, 2, 3, 4, 5
_CARD_KINDS = frozenset({"room", "roof", "furnishing", "helper", "tool", "token"})
_FIELD_WORDS = frozenset(
    {"category", "points", "count", "bonus", "children", "windows", "room", "outside", "effect", "award", "colour", "name"}
)
# Where an effect's flags may stand, these words are keywords (Lark's contextual
# lexer prefers a keyword the parser accepts there over NAME); any other word is a flag.
_FLAG_KEYWORDS = _FIELD_WORDS | {"at", "uses"}


class _FallBackError(Exception):
    """The fast reader met something it does not expect; Lark decides."""


class _FastReader:
    """Recursive descent over grammar.lark, building the same AST as `_ToAst`."""

    def __init__(self, text: str, path: str) -> None:
        self.path = path
        self.kinds: list[int | None] = []
        self.values: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        match = _FAST_TOKEN.match  # at each position, not finditer: a bad character must not trigger a search
        at = 0
        while True:
            m = match(text, at)
            if m is None:
                raise _FallBackError
            kind = m.lastindex
            self.kinds.append(kind)
            if kind is None:  # \Z: only trivia was left
                self.values.append("")
                self.starts.append(m.end())
                self.ends.append(m.end())
                break
            self.values.append(m.group(kind))
            self.starts.append(m.start(kind))
            at = m.end()
            self.ends.append(at)
        self.newlines = [m.start() for m in re.finditer("\n", text)]
        self.i = 0

    # ---- tokens ------------------------------------------------------
    def pos(self, i: int) -> Pos:
        start = self.starts[i]
        line = bisect.bisect_left(self.newlines, start)
        line_start = self.newlines[line - 1] + 1 if line else 0
        return Pos(self.path, line + 1, start - line_start + 1)

    def peek_word(self) -> str | None:
        """The next token if it is a word, else None."""
        return self.values[self.i] if self.kinds[self.i] == _WORD else None

    def keyword(self, word: str) -> int:
        """Consume the keyword `word`; its token index (for positions)."""
        i = self.i
        if self.kinds[i] != _WORD or self.values[i] != word:
            raise _FallBackError
        self.i = i + 1
        return i

    def punct(self, mark: str) -> None:
        if self.kinds[self.i] != _PUNCT or self.values[self.i] != mark:
            raise _FallBackError
        self.i += 1

    def at_punct(self, mark: str) -> bool:
        return self.kinds[self.i] == _PUNCT and self.values[self.i] == mark

    def name(self) -> tuple[str, int]:
        """A NAME where no keyword is accepted: any word."""
        i = self.i
        if self.kinds[i] != _WORD:
            raise _FallBackError
        self.i = i + 1
        return self.values[i], i

    def integer(self) -> int:
        if self.kinds[self.i] != _INT:
            raise _FallBackError
        self.i += 1
        return int_literal(self.values[self.i - 1])

    def string(self) -> str:
        if self.kinds[self.i] != _STRING:
            raise _FallBackError
        self.i += 1
        value = string_literal(self.values[self.i - 1])
        if not isinstance(value, str):
            raise _FallBackError  # Lark's reading reports the bad escape
        return value

    def provenance(self) -> str | None:
        if self.kinds[self.i] != _PROV:
            return None
        self.i += 1
        return self.values[self.i - 1][1:]

    # ---- items -------------------------------------------------------
    def file(self) -> tuple[Item, ...]:
        items = self.items(top=True)
        if self.kinds[self.i] is not None:
            raise _FallBackError
        return items

    def items(self, top: bool) -> tuple[Item, ...]:
        """`_item*` (or `_variant_item*` when not `top`) up to `}` or the end."""
        out: list[Item] = []
        while True:
            word = self.peek_word()
            if word is None:
                return tuple(out)
            if word in _CARD_KINDS:
                out.append(self.card())
            elif word == "bonus":
                out.append(self.bonus())
            elif word == "game":
                out.append(self.game())
            elif word == "board":
                out.append(self.board())
            elif word == "roof_scoring":
                out.append(self.roof_scoring())
            elif word == "option":
                out.append(self.option())
            elif top and word == "include":
                out.append(self.include())
            elif top and word == "inlined":
                out.append(self.inlined())
            elif top and word == "variant":
                out.append(self.variant())
            else:
                raise _FallBackError

    def head(self) -> tuple[str, str | None]:
        """`NAME STRING? {`: the id and the display name."""
        ident, _ = self.name()
        name = self.string() if self.kinds[self.i] == _STRING else None
        self.punct("{")
        return ident, name

    def include(self) -> Include:
        at = self.keyword("include")
        path = self.string()
        return Include(path, self.pos(at), self.starts[at], self.ends[self.i - 1])

    def inlined(self) -> Inlined:
        at = self.keyword("inlined")
        path = self.string()
        self.punct("{")
        items = self.items(top=True)
        self.punct("}")
        return Inlined(path, items, self.pos(at))

    def variant(self) -> VariantDecl:
        at = self.keyword("variant")
        ident, name = self.head()
        items = cast("tuple[VariantItem, ...]", self.items(top=False))
        self.punct("}")
        return VariantDecl(ident, name, items, self.pos(at))

    def option(self) -> OptionDecl:
        at = self.keyword("option")
        name, _ = self.name()
        self.punct("=")
        value: str | int = self.integer() if self.kinds[self.i] == _INT else self.name()[0]
        return OptionDecl(name, value, self.pos(at))

    def game(self) -> Decl:
        at = self.keyword("game")
        ident, name = self.head()
        fields: list[Field] = []
        while (word := self.peek_word()) is not None:
            start = self.i
            if word == "players":
                self.i += 1
                lo = self.integer()
                self.punct("..")
                value: object = (lo, self.integer())
            elif word == "rounds":
                self.i += 1
                value = self.integer()
            elif word == "discard":
                self.i += 1
                self.keyword("players")
                lo = self.integer()
                self.punct("..")
                value = (lo, self.integer())
            elif word == "deal":
                self.i += 1
                self.keyword("rooms")
                rooms = self.integer()
                self.keyword("resources")
                value = (rooms, self.integer())
            else:
                raise _FallBackError
            fields.append(Field(word, value, self.provenance(), self.pos(start)))
        self.punct("}")
        return Decl("game", ident, name, tuple(fields), self.pos(at))

    def board(self) -> Decl:
        at = self.keyword("board")
        self.punct("{")
        fields: list[Field] = []
        while (word := self.peek_word()) is not None:
            start = self.i
            self.i += 1
            if word == "floor":
                floor, _ = self.name()
                kind, _ = self.name()
                label = "floor:" + floor
            elif word == "roof_pile":
                self.keyword("under")
                kind, _ = self.name()
                label = "roof_pile"
            else:
                raise _FallBackError
            self.keyword("columns")
            lo = self.integer()
            self.punct("..")
            fields.append(Field(label, (kind, lo, self.integer()), None, self.pos(start)))
        self.punct("}")
        return Decl("board", None, None, tuple(fields), self.pos(at))

    def roof_scoring(self) -> Decl:
        at = self.keyword("roof_scoring")
        self.punct("{")
        fields: list[Field] = []
        while self.kinds[self.i] == _WORD:
            name, start = self.name()
            value = self.integer()
            fields.append(Field(name, value, self.provenance(), self.pos(start)))
        self.punct("}")
        return Decl("roof_scoring", None, None, tuple(fields), self.pos(at))

    def card(self) -> Decl:
        at = self.i
        kind, _ = self.name()
        ident, name = self.head()
        fields: list[Field] = []
        effects: list[Field] = []
        while (word := self.peek_word()) is not None:
            if word == "effect":
                effects.append(self.effect())
            else:
                fields.append(self.card_field(word))
        self.punct("}")
        if effects:  # `_ToAst._group_effects`: one field holding every effect, last
            fields.append(Field("effect", tuple(f.value for f in effects), None, effects[0].pos))
        return Decl(kind, ident, name, tuple(fields), self.pos(at))

    def card_field(self, word: str) -> Field:
        start = self.i
        self.i += 1
        value: object
        if word in ("count", "children", "windows"):
            value = self.integer()
        elif word == "points":
            value = self.points()
        elif word == "category":
            value = self.name()[0]
        elif word == "room" or word == "award":
            name, at = self.name()
            value = (name, self.pos(at))
        elif word == "bonus":
            amount = self.integer()
            self.keyword("beside")
            name, at = self.name()
            value = (amount, name, self.pos(at))
        elif word == "outside":
            value = True
        elif word == "colour":
            value = self.string()
        elif word == "name":
            return self.name_field(start)
        else:
            raise _FallBackError
        return Field(word, value, self.provenance(), self.pos(start))

    def name_field(self, start: int) -> Field:
        """`name LANG "text"` after its keyword (token `start`): keyed `name:LANG` (NAME_FIELD)."""
        lang, at = self.name()
        text = self.string()
        return Field(NAME_FIELD + lang, (lang, text, self.pos(at)), self.provenance(), self.pos(start))

    def points(self) -> tuple[int, ...]:
        values = [self.integer()]
        while self.kinds[self.i] == _INT:
            values.append(self.integer())
        return tuple(values)

    def effect(self) -> Field:
        at = self.keyword("effect")
        name, _ = self.name()
        args: tuple[tuple[str, int | None], ...] = ()
        if self.at_punct("("):
            args = self.effect_args()
        timing: str | None = None
        uses: int | None = None
        flags: list[tuple[str, Pos]] = []
        while (word := self.peek_word()) is not None:
            if word == "at":
                self.i += 1
                timing, where = self.name()
                flags.append(("at " + timing, self.pos(where)))
            elif word == "uses":
                self.i += 1
                uses = self.integer()
            elif word in _FLAG_KEYWORDS:
                break  # the next field of the card
            else:
                self.i += 1
                flags.append((word, self.pos(self.i - 1)))
        pos = self.pos(at)
        return Field("effect", EffectSpec(name, args, timing, tuple(flags), uses, pos), None, pos)

    def effect_args(self) -> tuple[tuple[str, int | None], ...]:
        self.punct("(")
        args: list[tuple[str, int | None]] = []
        if not self.at_punct(")"):
            while True:
                arg, _ = self.name()
                args.append((arg, self.integer() if self.kinds[self.i] == _INT else None))
                if not self.at_punct(","):
                    break
                self.i += 1
        self.punct(")")
        return tuple(args)

    def bonus(self) -> Decl:
        at = self.keyword("bonus")
        ident, name = self.head()
        fields: list[Field] = []
        while (word := self.peek_word()) is not None:
            start = self.i
            if word == "points":
                self.i += 1
                fields.append(Field("points", self.points(), self.provenance(), self.pos(start)))
            elif word == "name":
                self.i += 1
                fields.append(self.name_field(start))
            elif word == "when":
                self.i += 1
                conditions = [self.condition()]
                while self.peek_word() == "and":
                    self.i += 1
                    conditions.append(self.condition())
                fields.append(Field("when", tuple(conditions), None, self.pos(start)))
            else:
                raise _FallBackError
        self.punct("}")
        return Decl("bonus", ident, name, tuple(fields), self.pos(at))

    def condition(self) -> Condition:
        word = self.peek_word()
        scope = None
        if word == "every":
            self.i += 1
            scope, _ = self.name()
            self.keyword("floor")
        elif word != "has":
            raise _FallBackError
        self.keyword("has")
        room, at = self.name()
        return Condition(room, scope, self.pos(at))


def _read_fast(text: str, path: str) -> tuple[Item, ...] | None:
    """The AST by the fast reader, or None where Lark must decide."""
    try:
        return _FastReader(text, path).file()
    except (_FallBackError, IndexError):
        return None


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
    """Parses rules text; every failure is a `RulesError` with positions.

    `fast` (the default) reads by `_FastReader` first and falls back to Lark;
    `fast=False` parses with Lark only (the reference the fast reader is tested on).
    """

    def __init__(self, fast: bool = True) -> None:
        self._parser = _lark()
        self._fast = fast

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
        return _ToAst(path).transform(tree)

    def parse(self, text: str, path: str = "<string>") -> RulesFile:
        if text.startswith(BOM):  # a UTF-8 byte order mark some editors write: not part of the rules
            text = text[1:]
        if self._fast:
            items = _read_fast(text, path)
            if items is not None:
                return RulesFile(path, text, items)
        try:
            return RulesFile(path, text, self._parse_once(text, path))
        except UnexpectedInput as exc:
            raise RulesError(self._recover(exc, text, path)) from None
        except VisitError as exc:
            if isinstance(exc.orig_exc, BadStringError):
                raise RulesError([self._bad_string(exc.orig_exc, text, path)]) from None
            raise RulesError([Diagnostic(path, 1, 1, f"cannot parse: {_first_line(exc.orig_exc)}")]) from None
        except LarkError as exc:  # defensive: any other Lark failure is still a rules error
            raise RulesError([Diagnostic(path, 1, 1, f"cannot parse: {_first_line(exc)}")]) from None

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
        line offset, and a chunk the fast reader accepts has no error to find."""
        lines = text.split("\n")
        end = _end_of_text(lines)
        first = self._diagnostic(exc, path, lines, end)
        found: dict[Diagnostic, None] = {first: None}
        for offset, chunk in _top_level_chunks(text):
            if self._fast and _read_fast(chunk, path) is not None:
                continue
            try:
                self._parse_once(chunk, path)
            except UnexpectedInput as inner:
                diag = self._diagnostic(inner, path, lines, end, offset)
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
