"""The whole demo catalogue, institution by institution, streamed in chunks.

The generator is three writers over one :class:`~educatalog.demodata.rows.RowBuffers`: the
institutions' (with their addresses and contacts) hands each course to the courses' writer,
which hands the course's events to the events' writer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from educatalog.demodata.courses import CourseWriter
from educatalog.demodata.distributions import (
    CHUNK_SIZE,
    DEFAULT_SEED,
    ENTITY_ORDER,
    INSTITUTIONS_PER_SCALE,
)
from educatalog.demodata.events import EventWriter
from educatalog.demodata.institutions import InstitutionWriter
from educatalog.demodata.reference import reference_rows
from educatalog.demodata.rows import RowBuffers
from educatalog.errors import UsageError
from educatalog.model.schema import SCHEMA

__all__ = ["collect", "generated_rows", "iter_rows"]


def generated_rows(
    seed: int, scale: float, chunk_size: int = CHUNK_SIZE
) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """The generated collections (not the reference lists) as ``(collection, rows)`` chunks;
    every generated collection at least once."""
    rows = RowBuffers(chunk_size)
    institutions = InstitutionWriter(rows, CourseWriter(rows, EventWriter(rows), seed), seed)
    for i in range(max(3, round(INSTITUTIONS_PER_SCALE * scale))):
        institutions.write(i)
        if rows.full():
            yield from rows.flush()
    yield from rows.flush()
    for name in ENTITY_ORDER:
        if name not in rows.seen:
            yield name, []


def iter_rows(
    seed: int = DEFAULT_SEED, scale: float = 1.0, *, chunk_size: int = CHUNK_SIZE
) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Stream the whole demo catalogue as ``(collection, rows)`` chunks.

    Reference lists come first, then the generated collections in an order where referenced
    rows precede the rows that refer to them; every collection of the catalogue appears at
    least once (possibly with an empty list), a collection's rows arrive in increasing ``id``
    order, and no chunk holds more than ``chunk_size`` rows (:data:`CHUNK_SIZE`).
    """
    if not scale > 0:
        raise UsageError(f"scale must be positive, got {scale!r}")
    if chunk_size < 1:
        raise UsageError(f"chunk_size must be at least 1, got {chunk_size!r}")
    references = reference_rows()
    for name in ("states", *(n for n in references if n != "states")):
        rows = references[name]
        for k in range(0, len(rows), chunk_size):
            yield name, rows[k : k + chunk_size]
    yield from generated_rows(int(seed), float(scale), chunk_size)


def collect(seed: int = DEFAULT_SEED, scale: float = 1.0) -> dict[str, list[dict[str, Any]]]:
    """The whole demo catalogue in memory: rows by collection (all collections), ordered by id."""
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in SCHEMA}
    for name, rows in iter_rows(seed, scale):
        out[name].extend(rows)
    return out
