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
    changed = set()
    for case, digests in expected.items():
        if isinstance(digests, dict):  # collection by collection
            changed |= {
                f"{case} {name}" for name in digests if got[case].get(name) != digests[name]
            }
        elif got[case] != digests:
            changed.add(case)
    assert not changed, (
        f"the demo's output changed for: {', '.join(sorted(changed))}. If that is meant, bump "
        "GENERATOR_VERSION (or HISTORY_VERSION) and run tests/demo/golden.py"
    )
