"""The demo's output is pinned: the generator and the timeline give, value for value, what
``golden_hashes.json`` records (``golden.py`` says how to write it anew on purpose)."""

from __future__ import annotations

from typing import Any

import golden
import pytest


@pytest.fixture(scope="module")
def current() -> dict[str, dict[str, Any]]:
    return golden.compute()


@pytest.mark.parametrize("section", ["catalogues", "streams", "timelines"])
def test_the_demo_output_matches_its_golden_hashes(
    current: dict[str, dict[str, Any]], section: str
) -> None:
    expected = golden.pinned()[section]
    got = current[section]
    assert sorted(got) == sorted(expected), "the pinned cases differ from golden.py's"
    changed = {
        f"{case} {name}" if isinstance(digest, dict) else case
        for case, digests in expected.items()
        for name, digest in (digests.items() if isinstance(digests, dict) else [("", digests)])
        if (got[case].get(name) if isinstance(digests, dict) else got[case]) != digest
    }
    assert not changed, (
        f"the demo's output changed for: {', '.join(sorted(changed))}. If that is meant, bump "
        "GENERATOR_VERSION (or HISTORY_VERSION) and run tests/demo/golden.py"
    )
