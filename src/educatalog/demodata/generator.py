"""The whole demo catalogue, institution by institution, streamed in chunks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from educatalog.demodata.distributions import (
    _ENTITY_ORDER,
    CHUNK_SIZE,
    DEFAULT_SEED,
)
from educatalog.demodata.institutions import _InstitutionRows
from educatalog.demodata.reference import reference_rows
from educatalog.errors import UsageError
from educatalog.schema import CATALOGUE


class _Generator(_InstitutionRows):
    """Generates the entity and junction rows institution by institution into buffers."""

    # -- driving

    def chunks(self) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        """Yield ``(collection, rows)`` chunks; every generated collection at least once."""
        seen: set[str] = set()
        for i in range(self.n_institutions):
            self.institution(i)
            if any(len(b) >= self.chunk_size for b in self.buffers.values()):
                yield from self._flush(seen)
        yield from self._flush(seen)
        for name in _ENTITY_ORDER:
            if name not in seen:
                yield name, []


# ---------------------------------------------------------------------------------------
# Public interface


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
    yield from _Generator(int(seed), float(scale), chunk_size).chunks()


def collect(seed: int = DEFAULT_SEED, scale: float = 1.0) -> dict[str, list[dict[str, Any]]]:
    """The whole demo catalogue in memory: rows by collection (all collections), ordered by id."""
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in CATALOGUE}
    for name, rows in iter_rows(seed, scale):
        out[name].extend(rows)
    return out
