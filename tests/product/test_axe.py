"""The axe-core check of the tests themselves (``tests/accessibility.py``): any violation of
a WCAG A or AA rule fails, whatever axe-core calls its impact, and best practices do not;
the script is the pinned release or none (a tarball or a cached copy that is not the one
pinned is refused, and the reason is said)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import accessibility
from accessibility import AXE_VERSION, wcag_failures


def violation(rule: str, impact: str, tags: list[str], target: str) -> dict[str, Any]:
    node = {"target": target, "impact": impact, "summary": "Fix this", "html": "<p>"}
    return {"id": rule, "impact": impact, "help": f"help of {rule}", "tags": tags, "nodes": [node]}


def test_any_wcag_violation_fails_whatever_its_impact_and_best_practices_do_not() -> None:
    advice = violation("region", "moderate", ["cat.keyboard", "best-practice"], "main > p")
    assert wcag_failures([advice], "a page") == ""
    for tag in accessibility.WCAG_TAGS:
        minor = violation("some-rule", "minor", ["cat.aria", tag], "#here")
        message = wcag_failures([advice, minor], "a page")
        assert "some-rule (minor): help of some-rule [1 nodes]" in message, tag
        assert "#here  --  Fix this" in message
        assert "region" not in message


def test_axe_core_that_is_not_the_pinned_release_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EDUCATALOG_CACHE", str(tmp_path))
    monkeypatch.setattr(accessibility, "_npm_pack", lambda: (None, "no npm to try instead"))
    monkeypatch.setattr(accessibility, "_download", lambda: (b"a tarball of another", ""))
    script, why = accessibility.axe_script()
    assert script is None
    assert f"axe-core-{AXE_VERSION}.tgz has SHA-256" in why
    # a cached axe.min.js that is not the pinned one is not used; offline, nothing is
    cached = tmp_path / f"axe-core-{AXE_VERSION}" / "axe.min.js"
    cached.parent.mkdir()
    cached.write_text("window.axe = {run: async () => ({violations: []})};", encoding="utf-8")
    monkeypatch.setattr(accessibility, "_download", lambda: (None, "GET failed (ConnectError)"))
    script, why = accessibility.axe_script()
    assert script is None
    assert why == (
        f"axe-core {AXE_VERSION} could not be fetched: GET failed (ConnectError); "
        "no npm to try instead"
    )
