"""Adding a snapshot to an archive, under the archive's lock (:mod:`educatalog.history.lock`):
the new row-version files are written (the files they supersede read and checked against
the manifest first), flushed to disk, rebuilt and compared, and only then does the new
manifest replace the old one (one atomic rename); superseded files are removed last.
Killed at any point, the archive holds the new snapshot completely or not at all, and the
next :func:`add` removes what the killed one left (``format.remove_strays``)."""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from educatalog import snapshot as _snapshot
from educatalog._version import __version__
from educatalog.errors import ArchiveError, EducatalogError
from educatalog.files import atomic as files
from educatalog.files import manifests
from educatalog.files.atomic import atomic_text
from educatalog.frames.catalogue import Catalogue
from educatalog.frames.districts import DISTRICT_COLUMNS
from educatalog.history import versions as _v
from educatalog.history.archive import Archive
from educatalog.history.format import (
    ARCHIVE_MANIFEST,
    FUNDING,
    LOCK_FILE,
    VALID_FROM,
    VALID_TO,
    Versions,
    as_date,
    frame_of,
    new_manifest,
    read_manifest,
    remove_strays,
    without_personal,
)
from educatalog.history.integrity import Checker
from educatalog.history.lock import locked
from educatalog.snapshot.saving import column_entry

__all__ = ["add"]

_COMPRESSION = "zstd"
_ROW_GROUP = 256 * 1024


def add(
    path: str | os.PathLike[str],
    catalogue: Catalogue | str | os.PathLike[str],
    *,
    date: dt.date | str | None = None,
    include_personal: bool = False,
    verify: bool = True,
    wait: float = 60.0,
) -> Archive:
    """Add ``catalogue`` (or the snapshot directory at that path) to the archive at
    ``path`` as the snapshot of ``date``; creates the archive if need be. Returns it.

    ``date`` defaults to the day the catalogue was fetched (UTC) and must be later than
    every snapshot of the archive. Personal fields of contacts are left out unless
    ``include_personal`` (a snapshot directory keeps what it holds). The archive's files
    it rewrites are checked against the manifest first (always). With ``verify`` the new
    snapshot is rebuilt from the files written and compared with ``catalogue`` before the
    archive's manifest takes it. Killed at any point, the archive holds the new snapshot
    completely or not at all. One addition writes at a time: another waits up to
    ``wait`` seconds for it, then fails with :class:`~educatalog.errors.ArchiveError`.
    """
    folder = Path(path)
    original: dict[str, Any] | None = None
    if not isinstance(catalogue, Catalogue):
        original = _snapshot.read_manifest(catalogue)
        include_personal = bool(original.get("include_personal"))
        catalogue = _snapshot.load(catalogue)
    when = as_date(date) if date is not None else catalogue.source.fetched_at.date()
    _check_folder(folder)
    with locked(folder, wait=wait):
        writer = _Writer(folder)
        try:
            writer.add(catalogue, when, include_personal=include_personal, original=original)
            if verify:
                unsaved = Archive(folder, _manifest=writer.manifest)
                _verify(unsaved, catalogue, when, include_personal)
        except BaseException:
            writer.rollback()
            raise
        writer.commit()
    return Archive(folder)


def _check_folder(folder: Path) -> None:
    if (folder / ARCHIVE_MANIFEST).is_file() or not folder.exists():
        return
    if not folder.is_dir() or any(f.name != LOCK_FILE for f in folder.iterdir()):
        raise ArchiveError(f"{folder} is neither an archive nor an empty folder.")


def _verify(archive: Archive, catalogue: Catalogue, when: dt.date, personal: bool) -> None:
    rebuilt = archive.snapshot(when)
    for name, frame in without_personal(catalogue, personal).items():
        try:
            pd.testing.assert_frame_equal(
                rebuilt[name], frame.reset_index(drop=True), check_exact=True
            )
        except AssertionError as exc:  # pragma: no cover - a bug, never data
            raise ArchiveError(
                f'The archive does not rebuild table "{name}" of {when} exactly: {exc}'
            ) from None


class _Writer:
    """Adds one snapshot: writes new files (:meth:`add`), then swaps the manifest
    (:meth:`commit`), or removes them again (:meth:`rollback`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.written: list[Path] = []
        self.superseded: list[Path] = []
        self.manifest: dict[str, Any] = {}
        self.checker = Checker(folder, {"files": {}}, verify=True)

    def add(
        self,
        catalogue: Catalogue,
        when: dt.date,
        *,
        include_personal: bool,
        original: Mapping[str, Any] | None,
    ) -> None:
        folder = self.folder
        if not (folder / ARCHIVE_MANIFEST).is_file():
            # An empty archive first: what an interrupted first addition leaves is in an
            # archive, whose next addition removes it.
            empty = new_manifest()
            empty["manifest_sha256"] = manifests.checksum(empty)
            atomic_text(folder / ARCHIVE_MANIFEST, json.dumps(empty, indent=1))
        manifest = read_manifest(folder)
        remove_strays(folder, manifest)
        self.checker = Checker(folder, manifest, verify=True)
        dates = [s["date"] for s in manifest["snapshots"]]
        stamp = when.isoformat()
        if dates and stamp <= dates[-1]:
            raise ArchiveError(
                f"The archive's newest snapshot is of {dates[-1]}; a snapshot added to it must "
                f"be of a later date, got {stamp} (pass date=... / --date)."
            )
        previous = dates[-1] if dates else None
        entry: dict[str, Any] = {
            "date": stamp,
            "source": {
                "url": catalogue.source.url,
                "demo": catalogue.source.demo,
                "fetched_at": catalogue.source.fetched_at.isoformat(),
            },
            "include_personal": include_personal,
            "tables": {},
        }
        tables = without_personal(catalogue, include_personal)
        entry["personal_fields_omitted"] = {
            name: list(fields)
            for name, fields in _snapshot.PERSONAL_FIELDS.items()
            if name in catalogue
            and (not include_personal or any(f not in catalogue[name] for f in fields))
        }
        for name, frame in tables.items():
            versions = Versions.of(manifest["tables"].get(name))
            stored, versions = self._table(f"tables/{name}", name, frame, versions, stamp)
            manifest["tables"][name] = versions.to_json()
            entry["tables"][name] = {
                "rows": len(frame),
                "storage": stored,
                "columns": [column_entry(str(c), frame[c]) for c in frame.columns],
            }
        # tables of earlier snapshots that this one lacks: their rows leave the archive now
        for name, raw in manifest["tables"].items():
            if name not in tables and raw.get("open"):
                versions = Versions.of(raw)
                self._close_all(f"tables/{name}", versions, stamp)
                manifest["tables"][name] = versions.to_json()
        entry["offers"] = self._offers(catalogue, manifest, stamp)
        entry[FUNDING] = self._funding(catalogue, manifest, stamp)
        if original is not None:
            entry["snapshot_manifest"] = original
        snap_file = folder / "snapshots" / f"{stamp}.json"
        snap_file.parent.mkdir(parents=True, exist_ok=True)
        snap_file.write_text(json.dumps(entry, indent=1, ensure_ascii=False), encoding="utf-8")
        self.written.append(snap_file)
        manifest["snapshots"].append(
            {
                "date": stamp,
                "entry": f"snapshots/{stamp}.json",
                "demo": catalogue.source.demo,
                "previous": previous,
            }
        )
        self._finish(manifest)

    def _finish(self, manifest: dict[str, Any]) -> None:
        """The new manifest (not yet in place), the files it adds flushed to disk."""
        folder = self.folder
        manifest["educatalog_version"] = __version__
        manifest["demo"] = all(s["demo"] for s in manifest["snapshots"])
        manifest["updated_at"] = dt.datetime.now(dt.UTC).isoformat()
        listed = manifest["files"]
        for path in self.superseded:
            listed.pop(path.relative_to(folder).as_posix(), None)
        for path in self.written:
            listed[path.relative_to(folder).as_posix()] = {
                "bytes": path.stat().st_size,
                "sha256": files.sha256(path),
            }
        manifest["manifest_sha256"] = manifests.checksum(manifest)
        files.durable(self.written)
        self.manifest = manifest

    def commit(self) -> None:
        """The new manifest in place (atomically, durably); then the superseded files go."""
        text = json.dumps(self.manifest, indent=1, ensure_ascii=False)
        atomic_text(self.folder / ARCHIVE_MANIFEST, text)
        for path in self.superseded:
            path.unlink(missing_ok=True)

    def rollback(self) -> None:
        """Remove the files written: the archive stays as its manifest says."""
        for path in self.written:
            path.unlink(missing_ok=True)

    def _table(
        self, where: str, name: str, frame: pd.DataFrame, versions: Versions, stamp: str
    ) -> tuple[str, Versions]:
        key = _v.key_of(name, frame)
        schema = _v.schema_of(frame)
        if key is None:
            self._close_all(where, versions, stamp)
            file = self._write(f"{where}/plain-{stamp}.parquet", _v.plain_table(frame))
            versions.plain.append(file)
            versions.schema = None
            return "plain", versions
        if versions.open is None or versions.schema != schema:
            self._close_all(where, versions, stamp)
            opened = _v.versioned(_v.arrow(frame), stamp)
            versions.open = self._write(f"{where}/open-{stamp}.parquet", opened)
            versions.schema = schema
            return "versioned", versions
        previous = self.checker.parquet(self.folder / versions.open)
        old = frame_of(previous.drop_columns([VALID_FROM, VALID_TO]))
        unchanged_old, unchanged_new = _v.unchanged(old, frame, key)
        closed = _v.closed(previous.filter(pa.array(~unchanged_old)), stamp)
        if closed.num_rows:
            versions.closed.append(self._write(f"{where}/closed-{stamp}.parquet", closed))
        kept = previous.filter(pa.array(unchanged_old))
        fresh = _v.versioned(_v.arrow(frame.loc[~unchanged_new]), stamp)
        opened = pa.concat_tables([kept, fresh.cast(kept.schema)])
        if len(key) and opened.num_rows:
            opened = opened.sort_by([(k, "ascending") for k in key])
        self.superseded.append(self.folder / versions.open)
        versions.open = self._write(f"{where}/open-{stamp}.parquet", opened)
        return "versioned", versions

    def _close_all(self, where: str, versions: Versions, stamp: str) -> None:
        if versions.open is None:
            return
        table = _v.closed(self.checker.parquet(self.folder / versions.open), stamp)
        if table.num_rows:
            versions.closed.append(self._write(f"{where}/closed-{stamp}.parquet", table))
        self.superseded.append(self.folder / versions.open)
        versions.open = None

    def _write(self, relative: str, table: pa.Table) -> str:
        target = self.folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists():
            raise ArchiveError(f"{target} exists already; the archive is not consistent.")
        pq.write_table(table, target, compression=_COMPRESSION, row_group_size=_ROW_GROUP)
        self.written.append(target)
        return relative

    # -- the offers frame and its funding types ---------------------------------------

    def _offers(self, catalogue: Catalogue, manifest: dict[str, Any], stamp: str) -> Any:
        versions = Versions.of(manifest.get("offers"))
        try:
            offers = catalogue.offers()
        except EducatalogError as exc:  # a partial catalogue (fetch --collections)
            self._leave("offers", manifest, stamp)
            return {"rows": None, "reason": str(exc)}
        if not offers["event_id"].is_unique or offers["event_id"].isna().any():
            raise ArchiveError(f"The offers frame of {stamp} has missing or repeated event ids.")
        flat = _v.offers_storage(offers)
        stored, versions = self._table("offers", "offers", flat, versions, stamp)
        if stored != "versioned":  # pragma: no cover - the offers frame always has a key
            raise ArchiveError(f"The offers frame of {stamp} cannot be stored as row versions.")
        manifest["offers"] = versions.to_json()
        kept = offers.drop(columns=list(DISTRICT_COLUMNS))  # derived when read
        return {"rows": len(offers), "categories": _categories(kept)}

    def _funding(self, catalogue: Catalogue, manifest: dict[str, Any], stamp: str) -> Any:
        """The funding types of the offers' courses (``offers(funding=True)``), so that the
        trend statistics group by ``funding_type`` and ``funding_level`` too."""
        try:
            funded = catalogue.offers(funding=True)
        except EducatalogError as exc:  # a partial catalogue (fetch --collections)
            self._leave(FUNDING, manifest, stamp)
            return {"rows": None, "reason": str(exc)}
        categories = {c: v for c, v in _categories(funded).items() if c.startswith("funding_")}
        flat = _v.funding_storage(funded)
        del funded
        versions = Versions.of(manifest.get(FUNDING))
        stored, versions = self._table(FUNDING, FUNDING, flat, versions, stamp)
        if stored != "versioned":  # pragma: no cover - every column is the key
            raise ArchiveError(f"The funding types of {stamp} cannot be stored as row versions.")
        manifest[FUNDING] = versions.to_json()
        return {"rows": len(flat), "categories": categories}

    def _leave(self, part: str, manifest: dict[str, Any], stamp: str) -> None:
        """``part`` is missing from this snapshot: its rows leave the archive now."""
        versions = Versions.of(manifest.get(part))
        if versions.open:
            self._close_all(part, versions, stamp)
            manifest[part] = versions.to_json()


def _categories(frame: pd.DataFrame) -> dict[str, list[str]]:
    """The categories of the frame's categorical columns, in order, as text."""
    return {
        str(c): [str(v) for v in frame[c].cat.categories]
        for c in frame.columns
        if isinstance(frame[c].dtype, pd.CategoricalDtype)
    }
