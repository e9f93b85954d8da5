"""Databases educatalog builds once and keeps in its cache folder (``$EDUCATALOG_CACHE``):
the demo catalogue's, the demo's as of a date, a served snapshot's. Each is kept with its
SHA-256 beside it, ``NAME.sha256`` in the format of ``sha256sum`` (so ``sha256sum -c``
checks it too), and checked before it is used: a cached file that does not match, or has
no checksum, is damaged (a disk, a sync tool, an interrupted build) and is built again,
with a :class:`CacheRebuilt` warning naming it. Numbers are never served from it.

>>> path = cached(folder / "demo.sqlite", lambda target: build_database(target, rows))
... # doctest: +SKIP

Why a checksum of the whole file and not SQLite's own check: ``PRAGMA integrity_check``
finds broken pages and indexes but not a changed value inside a row (SQLite keeps no
checksum of its data), and it is slower (``benchmarks/cache.py`` measures both).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from pathlib import Path

from educatalog.errors import CacheRebuilt, DataError
from educatalog.files import atomic as files

__all__ = ["CHECKSUM_SUFFIX", "CacheRebuilt", "cached", "checksum_file", "problem"]

CHECKSUM_SUFFIX = ".sha256"
"""The file beside each cached file holding its SHA-256 (``sha256sum`` format)."""

BUILD_WAIT = 3600.0
"""Seconds to wait for another process building the same file (a million events: minutes)."""


def checksum_file(path: str | os.PathLike[str]) -> Path:
    """The file holding the SHA-256 of the cached file ``path``."""
    path = Path(path)
    return path.with_name(path.name + CHECKSUM_SUFFIX)


def problem(path: str | os.PathLike[str]) -> str | None:
    """What is wrong with the cached file ``path`` (None: it matches its checksum)."""
    path = Path(path)
    beside = checksum_file(path)
    try:
        recorded = beside.read_text(encoding="utf-8").split()
    except FileNotFoundError:
        return f"{path} has no checksum beside it ({beside.name})"
    except (OSError, UnicodeDecodeError) as exc:
        return f"{beside} cannot be read ({exc})"
    if len(recorded) != 2 or recorded[1].lstrip("*") != path.name or len(recorded[0]) != 64:
        return f"{beside} is not the checksum of {path.name}"
    try:
        found = files.sha256(path)
    except OSError as exc:
        return f"{path} cannot be read ({exc})"
    if found != recorded[0]:
        return f"{path} does not match its checksum ({beside.name}): it is damaged"
    return None


def cached(
    path: str | os.PathLike[str],
    build: Callable[[Path], object],
    *,
    rebuild: bool = False,
    wait: float = BUILD_WAIT,
) -> Path:
    """The cached file ``path``, checked against its checksum; built by ``build(path)``
    (which must write it atomically) when missing, damaged or ``rebuild``, and its checksum
    written beside it. One process checks or builds a file at a time (the others wait up
    to ``wait`` seconds); a damaged file is reported by a :class:`CacheRebuilt` warning."""
    path = Path(path)

    def busy(holder: str, waited: float) -> DataError:
        return DataError(f"{path} is being built by {holder} (waited {waited:g} s).")

    path.parent.mkdir(parents=True, exist_ok=True)
    with files.locked(path.with_name(f".{path.name}.lock"), wait=wait, busy=busy):
        if path.exists() and not rebuild:
            wrong = problem(path)
            if wrong is None:
                return path
            warnings.warn(f"{wrong}; building it again.", CacheRebuilt, stacklevel=2)
        beside = checksum_file(path)
        beside.unlink(missing_ok=True)  # no checksum: never trusted until built anew
        build(path)
        files.atomic_text(beside, f"{files.sha256(path)}  {path.name}\n")
    return path
