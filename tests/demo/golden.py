"""The demo catalogue's golden hashes: SHA-256 digests of what the generator and the
timeline give for a few seeds, scales and dates, kept in ``golden_hashes.json`` beside this
file, the one place they are pinned.

``test_golden.py`` compares the code's output with them, so that a refactoring of the
generator that changes a single value fails. Whoever changes the demo's output on purpose
(and bumps ``GENERATOR_VERSION`` or ``HISTORY_VERSION``) writes them anew::

    .venv/bin/python tests/demo/golden.py            # rewrite golden_hashes.json
    .venv/bin/python tests/demo/golden.py --check    # compare only (exit 1 on a difference)
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).with_name("golden_hashes.json")

CATALOGUES: tuple[tuple[int, float], ...] = ((0, 0.05), (1, 0.05), (0, 1.0), (7, 2.5))
"""``(seed, scale)`` of the demo catalogues hashed collection by collection."""

STREAMS: tuple[tuple[int, float, int], ...] = ((0, 1.0, 20_000), (3, 0.3, 250))
"""``(seed, scale, chunk_size)`` of the chunk streams hashed whole (order and chunking)."""

TIMELINES: tuple[tuple[int, float, str], ...] = (
    (0, 0.05, "2024-06-01"),
    (0, 0.05, "2025-06-01"),
    (1, 0.3, "2025-01-01"),
)
"""``(seed, scale, date)`` of the demo catalogues over time hashed collection by collection."""


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def _by_collection(chunks: Iterable[tuple[str, list[dict[str, Any]]]]) -> dict[str, str]:
    rows: dict[str, list[dict[str, Any]]] = {}
    for name, part in chunks:
        rows.setdefault(name, []).extend(part)
    return {name: _digest(rows[name]) for name in sorted(rows)}


def _stream(chunks: Iterable[tuple[str, list[dict[str, Any]]]]) -> str:
    digest = hashlib.sha256()
    for name, part in chunks:
        digest.update(name.encode() + b"\0" + json.dumps(part, sort_keys=True).encode() + b"\n")
    return digest.hexdigest()


def compute() -> dict[str, dict[str, Any]]:
    """The digests of the code as it is now."""
    from educatalog import demodata
    from educatalog.demodata.timeline import DemoTimeline

    out: dict[str, dict[str, Any]] = {"catalogues": {}, "streams": {}, "timelines": {}}
    for seed, scale in CATALOGUES:
        out["catalogues"][f"seed={seed} scale={scale:g}"] = _by_collection(
            demodata.iter_rows(seed=seed, scale=scale)
        )
    for seed, scale, size in STREAMS:
        key = f"seed={seed} scale={scale:g} chunk_size={size}"
        out["streams"][key] = _stream(demodata.iter_rows(seed=seed, scale=scale, chunk_size=size))
    timelines: dict[tuple[int, float], DemoTimeline] = {}
    for seed, scale, day in TIMELINES:
        timeline = timelines.setdefault((seed, scale), DemoTimeline(seed, scale))
        out["timelines"][f"seed={seed} scale={scale:g} as_of={day}"] = _by_collection(
            timeline.rows(day)
        )
    return out


def pinned() -> dict[str, dict[str, Any]]:
    """The digests pinned in ``golden_hashes.json``."""
    result: dict[str, dict[str, Any]] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return result


def main(argv: list[str]) -> int:
    current = compute()
    if "--check" in argv:
        same = current == pinned()
        print("the demo's output matches the golden hashes" if same else "the output differs")
        return 0 if same else 1
    GOLDEN.write_text(json.dumps(current, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
