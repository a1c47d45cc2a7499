"""The rules a server plays, each compiled once for the server's life and kept by its content.

Why a module: compiling a ruleset costs 50–150 ms, and the table needs every one of them (the
start page lists each variant's players range: about thirty rulesets). A bounded cache smaller
than the catalogue (an `lru_cache` of 16 once) recompiled them all on every `GET /api/options`,
1.7–3.9 s on the event loop, stalling every table. Here each variant is compiled once (a lock a
variant: two requests asking at once share one compile) and kept for good; the set is bounded
by the catalogue, since only a name of `variants_available` of the base rules is compiled.

Why keyed by content as well: two names that compile to the same rules (the same source and
variants, hence the same `content_hash`) share one `Ruleset` object, so what is kept is one
ruleset per distinct content, whatever names led to it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from dreamhome.ruleset import Ruleset


class UnknownVariantError(ValueError):
    """A name that is no variant of the packaged base rules (never compiled, never kept)."""


class Rulesets:
    """The packaged base rules and each of their variants, compiled on first use, kept for good."""

    def __init__(self, compile_variant: Callable[[str], Ruleset] | None = None) -> None:
        """`compile_variant`: what compiles the base rules with one variant on ("" for none);
        the packaged rules' compiler by default (tests count its calls)."""
        self._compile = compile_variant or compile_packaged
        self._lock = threading.Lock()
        self._compiling: dict[str, threading.Lock] = {}
        self._by_variant: dict[str, Ruleset] = {}
        self._by_content: dict[str, Ruleset] = {}

    def get(self, variant: str) -> Ruleset:
        """The base rules with `variant` on ("" for none); `UnknownVariantError` for a name the
        base rules do not offer (checked before anything is compiled for it)."""
        kept = self._by_variant.get(variant)
        if kept is not None:
            return kept
        if variant and variant not in self.get("").variants_available:
            raise UnknownVariantError(f"unknown variant {variant[:40]!r}")
        with self._lock:
            lock = self._compiling.setdefault(variant, threading.Lock())
        with lock:  # one compile a variant: a second asker waits for the first's result
            kept = self._by_variant.get(variant)
            if kept is None:
                kept = self._keep(variant, self._compile(variant))
        return kept

    def _keep(self, variant: str, rules: Ruleset) -> Ruleset:
        with self._lock:
            rules = self._by_content.setdefault(rules.content_hash, rules)
            self._by_variant[variant] = rules
        return rules

    def warm(self) -> int:
        """Every ruleset of the catalogue compiled now (a server does it once, in a worker thread,
        as it starts); how many distinct rulesets are kept."""
        for variant in ("", *self.get("").variants_available):
            self.get(variant)
        return self.distinct()

    def distinct(self) -> int:
        """How many distinct rulesets (by content) are kept."""
        with self._lock:
            return len(self._by_content)


def compile_packaged(variant: str) -> Ruleset:
    """The packaged base rules with `variant` on, compiled now."""
    from dreamhome.dsl.compiler import compile_rules

    return compile_rules(None, [variant] if variant else [])


RULESETS = Rulesets()
"""The process's rulesets: one per distinct content, shared by every app and store of the process."""
