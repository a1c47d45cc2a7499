"""The server compiles each ruleset once and answers `GET /api/options` without compiling
(issue 33, item 5: a bounded cache recompiled ~29 rulesets on every call, on the event loop)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from dreamhome.ruleset import Ruleset
from dreamhome.web.app import create_app
from dreamhome.web.rulesets import RULESETS, Rulesets, UnknownVariantError, compile_packaged


class Counting:
    """The packaged compiler, each call counted by variant (and slowed, so that two askers overlap)."""

    def __init__(self, delay: float = 0.0) -> None:
        self.calls: list[str] = []
        self.delay = delay
        self.lock = threading.Lock()

    def __call__(self, variant: str) -> Ruleset:
        with self.lock:
            self.calls.append(variant)
        time.sleep(self.delay)
        return compile_packaged(variant)


def test_each_variant_is_compiled_once_even_when_asked_at_once() -> None:
    counting = Counting(delay=0.2)
    rulesets = Rulesets(counting)
    variant = next(iter(RULESETS.get("").variants_available))
    got: list[Ruleset] = []
    threads = [threading.Thread(target=lambda: got.append(rulesets.get(variant))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(got) == 4 and all(r is got[0] for r in got)
    assert counting.calls.count(variant) == 1
    assert rulesets.get(variant) is got[0] and counting.calls.count(variant) == 1
    assert got[0].variants_on == (variant,)


def test_warming_keeps_every_variant_of_the_catalogue_and_compiles_nothing_after() -> None:
    counting = Counting()
    rulesets = Rulesets(counting)
    catalogue = ("", *RULESETS.get("").variants_available)
    distinct = rulesets.warm()
    assert sorted(counting.calls) == sorted(catalogue)  # each exactly once
    assert distinct == len({rulesets.get(v).content_hash for v in catalogue})
    rulesets.warm()
    assert len(counting.calls) == len(catalogue)


def test_an_unknown_variant_is_refused_before_any_compile() -> None:
    counting = Counting()
    rulesets = Rulesets(counting)
    try:
        rulesets.get("no-such-variant")
    except UnknownVariantError as exc:
        assert "no-such-variant" in str(exc)
    else:
        raise AssertionError("an unknown variant was accepted")
    assert counting.calls == [""]  # the base rules, read for their catalogue; nothing else


def test_options_compile_nothing_once_warm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the first answer, `GET /api/options` (any language) compiles no ruleset."""
    import dreamhome.dsl.compiler as compiler

    RULESETS.warm()
    calls: list[object] = []
    real = compiler.compile_rules

    def counted(*args: object, **kwargs: object) -> Ruleset:
        calls.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(compiler, "compile_rules", counted)
    with TestClient(create_app(tmp_path, rate=None), base_url="http://127.0.0.1") as c:
        first = c.get("/api/options")
        assert first.status_code == 200
        catalogue = first.json()["variant_players"]
        assert len(catalogue) == 1 + len(RULESETS.get("").variants_available)
        for lang in ("en", "fr", "ru", "en"):
            assert c.get(f"/api/options?lang={lang}").status_code == 200
    assert calls == []
