"""Fetch the whole catalogue into a snapshot, a newer snapshot beside one, or an archive:
what ``educatalog fetch`` does, as functions.

>>> fetch_snapshot("snapshots/2025-06")  # $EDUCATALOG_URL, else the demo  # doctest: +SKIP
>>> update_snapshot("snapshots/2025-06").changes  # a NEW snapshot beside it  # doctest: +SKIP
>>> fetch_to_archive("archive/")  # today's snapshot, added  # doctest: +SKIP

Each takes an :class:`~educatalog.loading.connection.Origin` (default: the configured service, else
the embedded demo catalogue on a private server stopped afterwards) and records it, without
a token, in the snapshot's manifest, so that :func:`update_snapshot` knows where to go again.
``notify`` receives a line to show before each long step (the command prints it).
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from educatalog import snapshot
from educatalog.errors import SnapshotError, UsageError
from educatalog.frames.catalogue import Catalogue
from educatalog.loading.connection import Origin, configured_client, resolve_origin
from educatalog.loading.loaders import load_catalogue

if TYPE_CHECKING:  # the archive needs DuckDB (the 'archive' extra): imported where it is used
    from educatalog import history

__all__ = [
    "Archived",
    "Fetched",
    "fetch_catalogue",
    "fetch_snapshot",
    "fetch_to_archive",
    "update_snapshot",
]

Notify = Callable[[str], object]


def _quiet(line: str) -> None:
    """The default ``notify``: say nothing."""


@dataclass(frozen=True)
class Fetched:
    """A snapshot written by :func:`fetch_snapshot` or :func:`update_snapshot`."""

    path: Path
    catalogue: Catalogue
    include_personal: bool
    previous: Path | None = None
    """The snapshot it updates (:func:`update_snapshot`), else None."""
    changes: pd.DataFrame | None = None
    """Rows added, removed and changed per table since ``previous`` (:func:`snapshot.diff`)."""

    @property
    def rows(self) -> int:
        """Rows in all tables."""
        return sum(len(frame) for frame in self.catalogue.values())


@dataclass(frozen=True)
class Archived:
    """A snapshot added to an archive by :func:`fetch_to_archive`."""

    archive: history.Archive
    date: dt.date
    catalogue: Catalogue


def fetch_catalogue(
    origin: Origin | None = None,
    collections: Sequence[str] | None = None,
    *,
    notify: Notify = _quiet,
) -> Catalogue:
    """The whole catalogue (or ``collections``) from ``origin`` (default: the configured
    service, else the demo catalogue on a private server, stopped afterwards)."""
    origin = origin or resolve_origin()
    with configured_client(origin) as client:
        notify(f"Fetching the catalogue from {origin.label} ...")
        return load_catalogue(client, collections)


def fetch_snapshot(
    out: str | os.PathLike[str],
    *,
    origin: Origin | None = None,
    collections: Sequence[str] | None = None,
    include_personal: bool = False,
    notify: Notify = _quiet,
) -> Fetched:
    """Download the catalogue into a new snapshot at ``out`` (which must not exist).

    >>> fetch_snapshot("snaps/demo", origin=resolve_origin(demo=True))  # doctest: +SKIP
    Fetched(path=PosixPath('snaps/demo'), ...)
    """
    origin = origin or resolve_origin()
    path = Path(out)
    _check_new(path)
    catalogue = fetch_catalogue(origin, collections, notify=notify)
    path = snapshot.save(
        catalogue, path, include_personal=include_personal, extra={"origin": origin.record()}
    )
    return Fetched(path, catalogue, include_personal)


def update_snapshot(
    old: str | os.PathLike[str],
    *,
    out: str | os.PathLike[str] | None = None,
    origin: Origin | None = None,
    collections: Sequence[str] | None = None,
    include_personal: bool = False,
    notify: Notify = _quiet,
) -> Fetched:
    """Download again from where the snapshot ``old`` came from (or ``origin``) and write a
    NEW snapshot at ``out`` (default: beside it, ``<name>-<UTC time>``), with the changes.

    The same tables as ``old`` unless ``collections`` says otherwise; personal fields when
    ``old`` holds them or ``include_personal``. ``old`` is never changed.

    >>> update_snapshot("snapshots/2025-06").changes  # doctest: +SKIP
    """
    old = Path(old)
    previous = snapshot.read_manifest(old)
    origin = origin or _recorded_origin(old, previous)
    tables = list(previous["tables"]) if collections is None else list(collections)
    include_personal = include_personal or bool(previous.get("include_personal"))
    if out is None:
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
        base = re.sub(r"-\d{8}T\d{6}Z$", "", old.name)
        out = old.with_name(f"{base}-{stamp}")
    path = Path(out)
    _check_new(path)
    notify(f"Checking {old} ...")
    before = snapshot.load(old)
    catalogue = fetch_catalogue(origin, tables, notify=notify)
    changes = snapshot.diff(before, catalogue)
    extra = {
        "origin": origin.record(),
        "previous": {
            "name": old.resolve().name,
            "created_at": previous.get("created_at"),
            "manifest_sha256": previous.get("manifest_sha256"),
        },
        "changes": {
            str(name): {str(k): None if pd.isna(v) else int(v) for k, v in row.items()}
            for name, row in changes.to_dict(orient="index").items()
        },
    }
    path = snapshot.save(catalogue, path, include_personal=include_personal, extra=extra)
    return Fetched(path, catalogue, include_personal, previous=old, changes=changes)


def fetch_to_archive(
    archive: str | os.PathLike[str],
    *,
    date: dt.date | None = None,
    origin: Origin | None = None,
    collections: Sequence[str] | None = None,
    include_personal: bool = False,
    notify: Notify = _quiet,
) -> Archived:
    """Fetch the catalogue and add it to the archive at ``archive`` (:mod:`educatalog.history`)
    as of ``date``: by default the demo's ``as_of`` date, else today (UTC).

    >>> fetch_to_archive("demo-archive/", origin=resolve_origin(demo=True, as_of="2024-06-01"))
    ... # doctest: +SKIP
    """
    from educatalog import history

    origin = origin or resolve_origin()
    if date is None and origin.as_of:
        date = dt.date.fromisoformat(origin.as_of)
    catalogue = fetch_catalogue(origin, collections, notify=notify)
    date = date or dt.datetime.now(dt.UTC).date()
    added = history.add(archive, catalogue, date=date, include_personal=include_personal)
    return Archived(added, date, catalogue)


def _check_new(path: Path) -> None:
    if path.exists():
        raise SnapshotError(f"{path} already exists; snapshots are never overwritten.")


def _recorded_origin(old: Path, manifest: dict[str, object]) -> Origin:
    """Where the snapshot ``old`` came from, as its manifest says."""
    recorded = manifest.get("origin")
    if isinstance(recorded, dict) and recorded.get("kind"):
        return Origin.from_record(recorded)
    source = manifest.get("source")
    url = source.get("url") if isinstance(source, dict) else None
    if not url or (isinstance(source, dict) and source.get("demo")):
        raise UsageError(f"{old} does not say where it came from: give --url or --demo.")
    return resolve_origin(str(url))
