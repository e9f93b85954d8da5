"""The catalogue over time: an archive of dated snapshots, and trend statistics by DuckDB.

>>> from educatalog import history
>>> arc = history.add("archive/", educatalog.load_catalogue())  # today  # doctest: +SKIP
>>> arc = history.open("archive/")              # doctest: +SKIP
>>> arc.dates                                   # oldest first  # doctest: +SKIP
>>> arc.supply(by="state")                      # per date, as stats.supply  # doctest: +SKIP
>>> arc.flows("courses")                        # entering and leaving  # doctest: +SKIP
>>> arc.lifetimes("courses")                    # how long each stayed  # doctest: +SKIP
>>> arc.snapshot("2025-06-01")                  # rebuilt exactly  # doctest: +SKIP
>>> arc.supply(by="state").edu.plot.trend()     # a line chart over time  # doctest: +SKIP

**Layout.** An archive is a folder an engine reads as it is::

    archive.json                  the manifest: snapshots, files, checksums
    snapshots/<date>.json         per snapshot: source, tables, rows, columns and dtypes
    tables/<table>/*.parquet      row versions of each table of the catalogue
    offers/*.parquet              row versions of the offers frame (cat.offers())

Rows are **deduplicated across snapshots**: each file holds row versions, the table's own
columns plus ``valid_from`` (the first snapshot date that holds the row as it is) and
``valid_to`` (the first snapshot date that no longer holds it; null while the newest
snapshot still does). A row belongs to the snapshot of date ``d`` when ``valid_from <= d``
and (``valid_to`` is null or ``d < valid_to``). Rows are matched by ``id`` (link tables by
pair) and are a new version as soon as any column differs; a table that cannot be matched
so (ids missing or repeated, rows out of id order, categorical or object columns) is stored
whole for that snapshot, so every snapshot can be rebuilt exactly, dtypes included
(:meth:`Archive.snapshot`; :func:`add` checks it before it commits). Files are
``open-<date>.parquet`` (rows the newest snapshot holds, rewritten by every addition),
``closed-<date>.parquet`` (rows that left at that date, never rewritten) and
``plain-<date>.parquet`` (a table stored whole).

**One definition, two engines.** The offers frame of every snapshot is computed once by
pandas when the snapshot is added (:func:`educatalog.offers.build_offers`: states,
instruction-form categories, the calendar duration classes with the impossible-dates
fallback ...) and stored with its labels as text, the order of each label list in the
snapshot's entry. DuckDB then only groups and counts, as :func:`educatalog.stats.supply`
does (distinct events, courses, institutions, capacity that is missing where no event
states one, every level listed, missing values a group of their own), over the whole
archive without loading it into pandas; the tests check both engines give equal tables.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from educatalog import snapshot as _snapshot
from educatalog import stats
from educatalog.catalogue_data import LINK_TABLES, SOURCE_ATTR, Catalogue, Source
from educatalog.errors import ArchiveError, EducatalogError
from educatalog.offers import OFFER_COLUMNS

if TYPE_CHECKING:
    import duckdb

__all__ = [
    "ARCHIVE_MANIFEST",
    "FORMAT_VERSION",
    "LEVELS",
    "Archive",
    "ArchiveError",
    "add",
    "build_demo",
    "open",
]

FORMAT = "educatalog-archive"
FORMAT_VERSION = 1
ARCHIVE_MANIFEST = "archive.json"
LEVELS: tuple[str, ...] = ("events", "courses", "institutions")
"""What :meth:`Archive.flows` and :meth:`Archive.lifetimes` follow over time."""

_LEVEL_KEY = {"events": "event_id", "courses": "course_id", "institutions": "institution"}
_VALID_FROM, _VALID_TO = "valid_from", "valid_to"
_COMPRESSION = "zstd"
_ROW_GROUP = 256 * 1024
_PANDAS_TYPES = {
    pa.int64(): pd.Int64Dtype(),
    pa.string(): pd.StringDtype(),
    pa.large_string(): pd.StringDtype(),
    pa.bool_(): pd.BooleanDtype(),
    pa.float64(): pd.Float64Dtype(),
}


# ---------------------------------------------------------------------------------------
# open and add


def open(path: str | os.PathLike[str]) -> Archive:
    """The archive at ``path`` (made by :func:`add` or ``educatalog fetch --archive``)."""
    return Archive(path)


def add(
    path: str | os.PathLike[str],
    catalogue: Catalogue | str | os.PathLike[str],
    *,
    date: dt.date | str | None = None,
    include_personal: bool = False,
    verify: bool = True,
) -> Archive:
    """Add ``catalogue`` (or the snapshot directory at that path) to the archive at
    ``path`` as the snapshot of ``date``; creates the archive if need be. Returns it.

    ``date`` defaults to the day the catalogue was fetched (UTC) and must be later than
    every snapshot of the archive. Personal fields of contacts are left out unless
    ``include_personal`` (a snapshot directory keeps what it holds). With ``verify`` the
    new snapshot is rebuilt from the files written and compared with ``catalogue`` before
    the archive's manifest takes it.
    """
    folder = Path(path)
    original: dict[str, Any] | None = None
    if not isinstance(catalogue, Catalogue):
        original = _snapshot.read_manifest(catalogue)
        include_personal = bool(original.get("include_personal"))
        catalogue = _snapshot.load(catalogue)
    when = _as_date(date) if date is not None else catalogue.source.fetched_at.date()
    writer = _Writer(folder)
    writer.add(catalogue, when, include_personal=include_personal, original=original)
    archive = Archive(folder)
    if verify:
        rebuilt = archive.snapshot(when)
        expected = _without_personal(catalogue, include_personal)
        for name, frame in expected.items():
            try:
                pd.testing.assert_frame_equal(
                    rebuilt[name], frame.reset_index(drop=True), check_exact=True
                )
            except AssertionError as exc:  # pragma: no cover - a bug, never data
                writer.rollback()
                raise ArchiveError(
                    f'The archive does not rebuild table "{name}" of {when} exactly: {exc}'
                ) from None
    writer.commit()
    return archive


def _as_date(value: dt.date | str) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise ArchiveError(f"A snapshot date is YYYY-MM-DD, got {value!r}.") from None


def _without_personal(catalogue: Catalogue, include_personal: bool) -> dict[str, pd.DataFrame]:
    out = {}
    for name, frame in catalogue.items():
        personal = [f for f in _snapshot.PERSONAL_FIELDS.get(name, ()) if f in frame.columns]
        out[name] = frame.drop(columns=personal) if personal and not include_personal else frame
    return out


def _sha256(file: Path) -> str:
    digest = hashlib.sha256()
    with file.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _manifest_checksum(manifest: Mapping[str, Any]) -> str:
    body = {k: v for k, v in manifest.items() if k != "manifest_sha256"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _read_manifest(folder: Path) -> dict[str, Any]:
    file = folder / ARCHIVE_MANIFEST
    if not folder.is_dir():
        raise ArchiveError(f"No archive at {folder}: it is not a directory.")
    try:
        manifest = json.loads(file.read_bytes())
    except FileNotFoundError:
        raise ArchiveError(
            f"{file} is missing: {folder} is not an archive (make one with "
            "`educatalog fetch --archive DIR` or educatalog.history.add)."
        ) from None
    except (OSError, ValueError) as exc:
        raise ArchiveError(f"{file} cannot be read: {exc}") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ArchiveError(f"{file} is not the manifest of an educatalog archive.")
    version = manifest.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise ArchiveError(
            f"{file} has format version {version!r}; this educatalog reads versions up to "
            f"{FORMAT_VERSION}: update educatalog."
        )
    if manifest.get("manifest_sha256") != _manifest_checksum(manifest):
        raise ArchiveError(f"{file} was modified after the archive was written (checksum).")
    return manifest


# ---------------------------------------------------------------------------------------
# writing: row versions


@dataclass
class _Versions:
    """The row versions of one table (or of the offers frame) in the archive."""

    open: str | None
    closed: list[str]
    plain: list[str]
    schema: str | None  # fingerprint of the open rows' columns and dtypes

    @classmethod
    def of(cls, entry: Mapping[str, Any] | None) -> _Versions:
        entry = entry or {}
        return cls(
            entry.get("open"),
            list(entry.get("closed", [])),
            list(entry.get("plain", [])),
            entry.get("schema"),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "open": self.open,
            "closed": self.closed,
            "plain": self.plain,
            "schema": self.schema,
        }

    def files(self) -> list[str]:
        return [*self.closed, *self.plain, *([self.open] if self.open else [])]


class _Writer:
    """Adds one snapshot: writes new files, then swaps the manifest (:meth:`commit`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.written: list[Path] = []
        self.superseded: list[Path] = []
        self.manifest: dict[str, Any] = {}

    def add(
        self,
        catalogue: Catalogue,
        when: dt.date,
        *,
        include_personal: bool,
        original: Mapping[str, Any] | None,
    ) -> None:
        from educatalog import __version__

        folder = self.folder
        if (folder / ARCHIVE_MANIFEST).is_file():
            manifest = _read_manifest(folder)
            _remove_strays(folder, manifest)
        elif folder.exists() and any(folder.iterdir()):
            raise ArchiveError(f"{folder} is neither an archive nor an empty folder.")
        else:
            folder.mkdir(parents=True, exist_ok=True)
            manifest = {
                "format": FORMAT,
                "format_version": FORMAT_VERSION,
                "snapshots": [],
                "tables": {},
                "offers": {},
                "files": {},
            }
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
        tables = _without_personal(catalogue, include_personal)
        entry["personal_fields_omitted"] = {
            name: list(fields)
            for name, fields in _snapshot.PERSONAL_FIELDS.items()
            if name in catalogue
            and (not include_personal or any(f not in catalogue[name] for f in fields))
        }
        for name, frame in tables.items():
            versions = _Versions.of(manifest["tables"].get(name))
            stored, versions = self._table(f"tables/{name}", name, frame, versions, stamp)
            manifest["tables"][name] = versions.to_json()
            entry["tables"][name] = {
                "rows": len(frame),
                "storage": stored,
                "columns": [_snapshot._column_entry(str(c), frame[c]) for c in frame.columns],
            }
        # tables of earlier snapshots that this one lacks: their rows leave the archive now
        for name, raw in manifest["tables"].items():
            if name not in tables and raw.get("open"):
                versions = _Versions.of(raw)
                self._close_all(f"tables/{name}", versions, stamp)
                manifest["tables"][name] = versions.to_json()
        entry["offers"] = self._offers(catalogue, manifest, stamp)
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
        manifest["educatalog_version"] = __version__
        manifest["demo"] = all(s["demo"] for s in manifest["snapshots"])
        manifest["updated_at"] = dt.datetime.now(dt.UTC).isoformat()
        files = manifest["files"]
        for path in self.superseded:
            files.pop(path.relative_to(folder).as_posix(), None)
        for path in self.written:
            files[path.relative_to(folder).as_posix()] = {
                "bytes": path.stat().st_size,
                "sha256": _sha256(path),
            }
        manifest["manifest_sha256"] = _manifest_checksum(manifest)
        self.manifest = manifest
        # The manifest goes in place now (readers need it to verify); rollback() restores.
        self._backup = (folder / ARCHIVE_MANIFEST).read_bytes() if previous else None
        _atomic_text(folder / ARCHIVE_MANIFEST, json.dumps(manifest, indent=1, ensure_ascii=False))

    def commit(self) -> None:
        for path in self.superseded:
            path.unlink(missing_ok=True)

    def rollback(self) -> None:  # pragma: no cover - only after a failed verification
        if self._backup is None:
            (self.folder / ARCHIVE_MANIFEST).unlink(missing_ok=True)
        else:
            _atomic_text(self.folder / ARCHIVE_MANIFEST, self._backup.decode())
        for path in self.written:
            path.unlink(missing_ok=True)

    # -- one table ----------------------------------------------------------------------

    def _table(
        self, where: str, name: str, frame: pd.DataFrame, versions: _Versions, stamp: str
    ) -> tuple[str, _Versions]:
        key = _key(name, frame)
        schema = _schema(frame)
        if key is None:
            self._close_all(where, versions, stamp)
            file = self._write(f"{where}/plain-{stamp}.parquet", _plain_table(frame))
            versions.plain.append(file)
            versions.schema = None
            return "plain", versions
        if versions.open is None or versions.schema != schema:
            self._close_all(where, versions, stamp)
            opened = _versioned(_arrow(frame), stamp)
            versions.open = self._write(f"{where}/open-{stamp}.parquet", opened)
            versions.schema = schema
            return "versioned", versions
        previous = pq.read_table(self.folder / versions.open)
        old = _frame(previous.drop_columns([_VALID_FROM, _VALID_TO]))
        unchanged_old, unchanged_new = _unchanged(old, frame, key)
        closed = _closed(previous.filter(pa.array(~unchanged_old)), stamp)
        if closed.num_rows:
            versions.closed.append(self._write(f"{where}/closed-{stamp}.parquet", closed))
        kept = previous.filter(pa.array(unchanged_old))
        fresh = _versioned(_arrow(frame.loc[~unchanged_new]), stamp)
        opened = pa.concat_tables([kept, fresh.cast(kept.schema)])
        if len(key) and opened.num_rows:
            opened = opened.sort_by([(k, "ascending") for k in key])
        self.superseded.append(self.folder / versions.open)
        versions.open = self._write(f"{where}/open-{stamp}.parquet", opened)
        return "versioned", versions

    def _close_all(self, where: str, versions: _Versions, stamp: str) -> None:
        if versions.open is None:
            return
        table = _closed(pq.read_table(self.folder / versions.open), stamp)
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

    # -- the offers frame ---------------------------------------------------------------

    def _offers(self, catalogue: Catalogue, manifest: dict[str, Any], stamp: str) -> Any:
        versions = _Versions.of(manifest.get("offers"))
        try:
            offers = catalogue.offers()
        except EducatalogError as exc:  # a partial catalogue (fetch --collections)
            if versions.open:
                self._close_all("offers", versions, stamp)
                manifest["offers"] = versions.to_json()
            return {"rows": None, "reason": str(exc)}
        if not offers["event_id"].is_unique or offers["event_id"].isna().any():
            raise ArchiveError(f"The offers frame of {stamp} has missing or repeated event ids.")
        categories = {
            str(c): [str(v) for v in offers[c].cat.categories]
            for c in offers.columns
            if isinstance(offers[c].dtype, pd.CategoricalDtype)
        }
        flat = _offers_storage(offers)
        stored, versions = self._table("offers", "offers", flat, versions, stamp)
        if stored != "versioned":  # pragma: no cover - the offers frame always has a key
            raise ArchiveError(f"The offers frame of {stamp} cannot be stored as row versions.")
        manifest["offers"] = versions.to_json()
        return {"rows": len(offers), "categories": categories}


def _offers_storage(offers: pd.DataFrame) -> pd.DataFrame:
    """The offers frame with its labels as text (one schema for every engine and file)."""
    flat = offers.sort_values("event_id", kind="stable").reset_index(drop=True)
    for column in flat.columns:
        if isinstance(flat[column].dtype, pd.CategoricalDtype):
            flat[column] = flat[column].astype("string")
    flat.attrs = {}
    return flat


def _key(name: str, frame: pd.DataFrame) -> list[str] | None:
    """The columns rows are matched by across snapshots, or None: store the table whole."""
    for column in frame.columns:
        dtype = frame[column].dtype
        if isinstance(dtype, pd.CategoricalDtype) or dtype is np.dtype(object):
            return None
    if name in LINK_TABLES:
        key = [str(c) for c in frame.columns]
    elif "id" in frame.columns or "event_id" in frame.columns:
        key = ["id"] if "id" in frame.columns else ["event_id"]
    else:
        return None
    keys = frame[key]
    if keys.isna().any().any() or keys.duplicated().any():
        return None
    if len(frame) > 1:
        ordered = keys.sort_values(key, kind="stable")
        if not ordered.index.equals(frame.index):
            return None
    return key


def _schema(frame: pd.DataFrame) -> str:
    text = json.dumps([[str(c), str(frame[c].dtype)] for c in frame.columns])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _arrow(frame: pd.DataFrame) -> pa.Table:
    frame = frame.reset_index(drop=True)
    frame.attrs = {}
    table = pa.Table.from_pandas(frame, preserve_index=False)
    return table.replace_schema_metadata(None)


def _plain_table(frame: pd.DataFrame) -> pa.Table:
    frame = frame.copy(deep=False)
    frame.attrs = {}
    return pa.Table.from_pandas(frame, preserve_index=None)


def _frame(table: pa.Table) -> pd.DataFrame:
    return table.to_pandas(types_mapper=_PANDAS_TYPES.get)


def _versioned(table: pa.Table, stamp: str) -> pa.Table:
    """Rows first listed at ``stamp`` and still listed: ``valid_from``, ``valid_to`` null."""
    for name in (_VALID_FROM, _VALID_TO):
        if name in table.column_names:
            raise ArchiveError(f'A table of the catalogue has a column "{name}" of its own.')
    table = table.append_column(_VALID_FROM, _dates(stamp, table.num_rows))
    return table.append_column(_VALID_TO, pa.nulls(table.num_rows, pa.date32()))


def _closed(table: pa.Table, stamp: str) -> pa.Table:
    """Row versions no longer listed from ``stamp`` on."""
    position = table.column_names.index(_VALID_TO)
    return table.set_column(position, _VALID_TO, _dates(stamp, table.num_rows))


def _dates(stamp: str, n: int) -> pa.Array:
    return pa.array([dt.date.fromisoformat(stamp)] * n, type=pa.date32())


def _unchanged(
    old: pd.DataFrame, new: pd.DataFrame, key: list[str]
) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``old`` and of ``new``: the other holds the same row (by key, every column
    equal, a null equal to a null)."""
    same_old = np.zeros(len(old), dtype=bool)
    same_new = np.zeros(len(new), dtype=bool)
    if not len(old) or not len(new):
        return same_old, same_new
    if len(key) == 1:
        left, right = pd.Index(old[key[0]]), pd.Index(new[key[0]])
    else:
        left, right = pd.MultiIndex.from_frame(old[key]), pd.MultiIndex.from_frame(new[key])
    common = left.intersection(right)
    po, pn = left.get_indexer(common), right.get_indexer(common)
    differs = np.zeros(len(common), dtype=bool)
    for column in new.columns:
        if column in key:
            continue
        if column not in old.columns:
            differs[:] = True
            break
        differs |= _snapshot._differs(old[column].iloc[po], new[column].iloc[pn])
    same_old[po[~differs]] = True
    same_new[pn[~differs]] = True
    return same_old, same_new


def _atomic_text(target: Path, text: str) -> None:
    tmp = target.with_name(f".{target.name}.partial")
    with tmp.open("w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, target)


def _remove_strays(folder: Path, manifest: Mapping[str, Any]) -> None:
    """Files an interrupted :func:`add` left behind (not in the manifest): removed, so that
    an engine reading the folders sees the archive's rows only."""
    listed = set(manifest.get("files", {}))
    for sub in ("tables", "offers", "snapshots"):
        for file in (folder / sub).rglob("*"):
            if file.is_file() and file.relative_to(folder).as_posix() not in listed:
                file.unlink()


# ---------------------------------------------------------------------------------------
# reading


class Archive:
    """An archive of dated snapshots (see the module docstring); open with :func:`open`."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.manifest = _read_manifest(self.path)
        self._entries: dict[str, dict[str, Any]] = {}
        self._con: duckdb.DuckDBPyConnection | None = None

    def __repr__(self) -> str:
        what = "synthetic demo data" if self.demo else "catalogue snapshots"
        dates = self.dates
        span = f"{dates[0]} to {dates[-1]}" if dates else "empty"
        return f"<Archive {self.path}: {len(dates)} snapshots of {what}, {span}>"

    # -- what it holds ------------------------------------------------------------------

    @property
    def dates(self) -> list[dt.date]:
        """The snapshot dates, oldest first."""
        return [dt.date.fromisoformat(s["date"]) for s in self.manifest["snapshots"]]

    @property
    def demo(self) -> bool:
        """Whether every snapshot is of the synthetic demo catalogue."""
        return bool(self.manifest.get("demo"))

    @property
    def source(self) -> Source:
        """The newest snapshot's source (what charts of trends name)."""
        if not self.manifest["snapshots"]:
            return Source(demo=False)
        raw = self.entry(self.dates[-1])["source"]
        return Source(
            url=raw.get("url"),
            demo=bool(raw.get("demo")),
            fetched_at=dt.datetime.fromisoformat(raw["fetched_at"]),
        )

    def entry(self, date: dt.date | str) -> dict[str, Any]:
        """The stored description of the snapshot of ``date``: source, tables, columns."""
        stamp = self._stamp(date)
        if stamp not in self._entries:
            file = self.path / "snapshots" / f"{stamp}.json"
            self._check_file(file)
            self._entries[stamp] = json.loads(file.read_bytes())
        return self._entries[stamp]

    def _stamp(self, date: dt.date | str) -> str:
        stamp = _as_date(date).isoformat()
        known = [s["date"] for s in self.manifest["snapshots"]]
        if stamp not in known:
            raise ArchiveError(
                f"The archive has no snapshot of {stamp}; its dates: {', '.join(known) or 'none'}."
            )
        return stamp

    def _check_file(self, file: Path, *, checksum: bool = False) -> None:
        relative = file.relative_to(self.path).as_posix()
        info = self.manifest["files"].get(relative)
        if info is None:
            raise ArchiveError(f"{file} is not listed in the archive's manifest.")
        if not file.is_file():
            raise ArchiveError(f"{file} is missing from the archive.")
        if file.stat().st_size != info["bytes"]:
            raise ArchiveError(f"{file} has changed size since it was written (truncated?).")
        if checksum and _sha256(file) != info["sha256"]:
            raise ArchiveError(f"{file} is corrupted: its checksum does not match the manifest.")

    def verify(self) -> None:
        """Check every file of the archive against the manifest's sizes and checksums."""
        for relative in self.manifest["files"]:
            self._check_file(self.path / relative, checksum=True)

    def files(self, table: str = "offers") -> list[Path]:
        """The Parquet files of ``table``'s row versions (``"offers"``: the offers frame)."""
        raw = self.manifest["offers"] if table == "offers" else self.manifest["tables"].get(table)
        if raw is None:
            raise ArchiveError(
                f'The archive has no table "{table}"; its tables: '
                f"{', '.join(self.manifest['tables'])}, offers."
            )
        versions = _Versions.of(raw)
        return [self.path / f for f in [*versions.closed, versions.open] if f]

    # -- snapshots back -----------------------------------------------------------------

    def snapshot(self, date: dt.date | str) -> Catalogue:
        """The snapshot of ``date`` rebuilt: the same tables, rows, order and dtypes as the
        catalogue that was added, with its :class:`~educatalog.Source`."""
        stamp = self._stamp(date)
        entry = self.entry(stamp)
        frames = {name: self._rebuild(name, stamp, spec) for name, spec in entry["tables"].items()}
        raw = entry["source"]
        source = Source(
            url=raw.get("url"),
            demo=bool(raw.get("demo")),
            fetched_at=dt.datetime.fromisoformat(raw["fetched_at"]),
        )
        return Catalogue(frames, source=source)

    def _rebuild(self, name: str, stamp: str, spec: Mapping[str, Any]) -> pd.DataFrame:
        versions = _Versions.of(self.manifest["tables"][name])
        if spec["storage"] == "plain":
            file = self.path / f"tables/{name}/plain-{stamp}.parquet"
            self._check_file(file)
            frame = pq.read_table(file).to_pandas()
        else:
            frame = self._as_of(versions, stamp)
        if len(frame) != spec["rows"]:
            raise ArchiveError(
                f'The archive holds {len(frame)} rows of "{name}" for {stamp}; it recorded '
                f"{spec['rows']}."
            )
        for column in spec["columns"]:
            frame[column["name"]] = _snapshot._restore_dtype(
                frame[column["name"]], column, self.path / "tables" / name
            )
        return frame

    def _as_of(self, versions: _Versions, stamp: str) -> pd.DataFrame:
        day = dt.date.fromisoformat(stamp)
        parts = []
        for relative in [*versions.closed, *([versions.open] if versions.open else [])]:
            name = Path(relative).stem
            if name.startswith("closed-") and name[len("closed-") :] <= stamp:
                continue  # rows that left by this date
            file = self.path / relative
            self._check_file(file)
            table = pq.read_table(file)
            mask = pc.less_equal(table[_VALID_FROM], pa.scalar(day, pa.date32()))
            later = pc.greater(table[_VALID_TO], pa.scalar(day, pa.date32()))
            mask = pc.and_(mask, pc.fill_null(later, True))
            table = table.filter(mask)
            if table.num_rows:
                parts.append(table.drop_columns([_VALID_FROM, _VALID_TO]))
        if not parts:
            file = self.path / (versions.open or versions.closed[-1])
            schema = pq.read_schema(file)
            names = [n for n in schema.names if n not in (_VALID_FROM, _VALID_TO)]
            return _frame(schema.empty_table().select(names))
        table = pa.concat_tables(parts) if len(parts) > 1 else parts[0]
        key = table.column_names if len(table.column_names) == 2 else None
        sort = [c for c in ("id", "event_id") if c in table.column_names][:1] or key or []
        table = table.sort_by([(c, "ascending") for c in sort])
        return _frame(table)

    def restore(self, date: dt.date | str, path: str | os.PathLike[str]) -> Path:
        """Write the snapshot of ``date`` as a snapshot directory (:mod:`educatalog.snapshot`)."""
        entry = self.entry(date)
        return _snapshot.save(
            self.snapshot(date),
            path,
            include_personal=bool(entry.get("include_personal")),
            extra={"restored_from_archive": {"path": str(self.path), "date": entry["date"]}},
        )

    def offers(self, date: dt.date | str) -> pd.DataFrame:
        """The offers frame of the snapshot of ``date`` as archived (labels as categoricals
        in their list's order), the frame pandas computed when the snapshot was added."""
        stamp = self._stamp(date)
        entry = self.entry(stamp)
        if not entry.get("offers", {}).get("rows") and entry.get("offers", {}).get("reason"):
            raise ArchiveError(f"The snapshot of {stamp} has no offers frame: {entry['offers']}")
        frame = self._as_of(_Versions.of(self.manifest["offers"]), stamp)
        for column, categories in entry["offers"]["categories"].items():
            ordered = column == "duration_class"
            frame[column] = pd.Categorical(frame[column], categories=categories, ordered=ordered)
        frame.attrs[SOURCE_ATTR] = self._source_of(entry).to_attrs()
        return frame

    def _source_of(self, entry: Mapping[str, Any]) -> Source:
        raw = entry["source"]
        return Source(
            url=raw.get("url"),
            demo=bool(raw.get("demo")),
            fetched_at=dt.datetime.fromisoformat(raw["fetched_at"]),
        )

    # -- DuckDB -------------------------------------------------------------------------

    def connection(self) -> duckdb.DuckDBPyConnection:
        """A DuckDB connection with the views ``offers`` (one row per snapshot date and
        event: ``snapshot_date`` and the offers frame's columns, labels as text),
        ``offer_versions`` (the stored row versions) and ``snapshots``."""
        if self._con is None:
            import duckdb

            con = duckdb.connect(config={"threads": min(4, os.cpu_count() or 1)})
            con.execute("SET preserve_insertion_order = false")
            con.execute("SET enable_progress_bar = false")
            files = [str(f) for f in self.files("offers")]
            if not files:
                raise ArchiveError("The archive holds no offers frame (no snapshot with events).")
            for file in files:
                self._check_file(Path(file))
            listed = ", ".join(_literal(f) for f in files)
            con.execute(f"CREATE VIEW offer_versions AS SELECT * FROM read_parquet([{listed}])")
            dates = pd.DataFrame(
                {
                    "snapshot_date": pd.to_datetime([d.isoformat() for d in self.dates]),
                    "snapshot_index": np.arange(len(self.dates), dtype="int32"),
                }
            )
            con.register("_dates", dates)
            con.execute(
                "CREATE TABLE snapshots AS SELECT CAST(snapshot_date AS DATE) AS snapshot_date, "
                "snapshot_index FROM _dates"
            )
            con.unregister("_dates")
            con.execute(
                f"""CREATE VIEW offers AS
                SELECT s.snapshot_date, s.snapshot_index, v.* EXCLUDE ({_VALID_FROM}, {_VALID_TO})
                FROM offer_versions v JOIN snapshots s
                  ON v.{_VALID_FROM} <= s.snapshot_date
                 AND (v.{_VALID_TO} IS NULL OR s.snapshot_date < v.{_VALID_TO})"""
            )
            self._con = con
        return self._con

    def sql(self, query: str, parameters: Sequence[Any] | None = None) -> pd.DataFrame:
        """Run SQL over the archive's views (:meth:`connection`) and return a DataFrame."""
        return self.connection().execute(query, parameters or []).fetchdf()

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- trend statistics ---------------------------------------------------------------

    def supply(
        self,
        by: str | Sequence[str] = "state",
        *,
        normalize: stats.Normalize = "all",
        dropna: bool = False,
        dates: Iterable[dt.date | str] | None = None,
    ) -> pd.DataFrame:
        """:func:`educatalog.stats.supply` for every snapshot date, computed by DuckDB.

        The index is ``snapshot_date`` followed by the levels of ``by``; the columns and
        every rule are those of ``stats.supply`` on the snapshot's offers frame (``share``
        is of each snapshot's events). ``dates`` limits the snapshots.
        """
        keys = stats._keys(by)
        if normalize is not False and normalize is not True:
            stats._choice(normalize, stats._NORMALIZE_CHOICES, "normalize")
        columns = set(self._offer_columns())
        expressions = [self._dimension_sql(key, columns) for key in keys]
        chosen = self._chosen_dates(dates)
        group = ", ".join(f"{expr} AS {_quote(f'k{i}')}" for i, expr in enumerate(expressions))
        query = f"""
            SELECT snapshot_date, {group},
                   count(*) AS events,
                   count(DISTINCT course_id) AS courses,
                   count(DISTINCT institution) AS institutions,
                   coalesce(sum(max_participants), 0) AS capacity,
                   count(max_participants) AS events_with_capacity
            FROM offers {_where_dates(chosen, self.dates)}
            GROUP BY ALL"""
        partial = self.sql(query)
        when = pd.to_datetime(partial["snapshot_date"])
        parts = []
        for day in chosen:
            rows = partial[(when == pd.Timestamp(day)).to_numpy()]
            table = self._supply_table(rows, keys, day, normalize, dropna)
            parts.append(table)
        stamps = pd.DatetimeIndex([pd.Timestamp(d) for d in chosen]).as_unit("us")
        out = pd.concat(parts, keys=list(stamps), names=["snapshot_date"])
        out.index = out.index.set_levels(stamps, level=0)
        out.attrs[SOURCE_ATTR] = {**self.source.to_attrs(), "archive": self._describe(chosen)}
        out.attrs["trend"] = {"by": keys, "measure_columns": list(out.columns)}
        return out

    def _describe(self, chosen: Sequence[dt.date]) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "snapshots": len(chosen),
            "first": chosen[0].isoformat() if chosen else None,
            "last": chosen[-1].isoformat() if chosen else None,
        }

    def _chosen_dates(self, dates: Iterable[dt.date | str] | None) -> list[dt.date]:
        if dates is None:
            chosen = self.dates
        else:
            chosen = sorted({dt.date.fromisoformat(self._stamp(d)) for d in dates})
        with_offers = [d for d in chosen if self.entry(d).get("offers", {}).get("rows") is not None]
        return with_offers

    def _offer_columns(self) -> list[str]:
        return list(self.connection().execute("SELECT * FROM offer_versions LIMIT 0").fetchdf())

    def _dimension_sql(self, key: str, columns: set[str]) -> str:
        if key in columns and key not in (_VALID_FROM, _VALID_TO):
            return _quote(key)
        if key == "year":
            return "CAST(year(event_start_date) AS BIGINT)"
        if key == "quarter":
            return (
                "strftime(event_start_date, '%Y') || 'Q' || "
                "CAST(quarter(event_start_date) AS VARCHAR)"
            )
        if key == "month":
            return "strftime(event_start_date, '%Y-%m')"
        if key in stats._HINTS:
            raise EducatalogError(
                f'The archive has no column "{key}" to group by: it keeps the offers frame '
                "without funding types (one row per event)."
            )
        known = [c for c in OFFER_COLUMNS if c in columns] + list(stats.DERIVED_DIMENSIONS)
        raise EducatalogError(
            f'The archive\'s offers have no dimension "{key}".{stats._suggest(key, known)} '
            f"Its dimensions: {', '.join(known)}."
        )

    def _supply_table(
        self,
        rows: pd.DataFrame,
        keys: list[str],
        day: dt.date,
        normalize: stats.Normalize,
        dropna: bool,
    ) -> pd.DataFrame:
        """The partial sums of one snapshot as the table ``stats.supply`` gives: every level
        listed (by grouping the few observed groups the way it groups the events)."""
        categories = self.entry(day)["offers"]["categories"]
        data = pd.DataFrame(index=range(len(rows)))
        for i, key in enumerate(keys):
            data[key] = _levels(rows[f"k{i}"].reset_index(drop=True), key, categories)
        for measure in ("events", "courses", "institutions", "capacity", "events_with_capacity"):
            data[measure] = rows[measure].to_numpy(dtype="int64")
        data = data.assign(**{k: stats._levelled(data[k].rename(k)) for k in keys})
        groups = data.groupby(keys, observed=False, dropna=dropna, sort=True)
        sums = groups[["events", "courses", "institutions", "capacity", "events_with_capacity"]]
        table = sums.sum().astype("Int64")
        table["capacity"] = table["capacity"].mask(
            (table["events_with_capacity"] == 0) & (table["events"] > 0)
        )
        table = table[["events", "courses", "institutions", "capacity", "events_with_capacity"]]
        if normalize is not False:
            counts = table["events"].astype("Float64")
            base = data if not dropna else data.dropna(subset=keys)
            if normalize in (True, "all"):
                table["share"] = (counts / base["events"].sum()).astype("Float64")
            else:
                if len(keys) < 2:
                    raise EducatalogError(
                        f'normalize="{normalize}" needs two dimensions in by; use "all".'
                    )
                level = 0 if normalize == "index" else 1
                totals = base.groupby(keys[level], observed=False, dropna=dropna)["events"].sum()
                denominator = counts.index.get_level_values(level).map(totals)
                table["share"] = (counts / pd.array(denominator, dtype="Float64")).astype("Float64")
        return stats._restore_levels(table, data, keys)

    def flows(self, level: str = "events") -> pd.DataFrame:
        """Entries and exits between consecutive snapshots, computed by DuckDB.

        ``level`` is ``"events"``, ``"courses"`` or ``"institutions"`` (those of the
        listed events, as ``supply`` counts them). One row per snapshot date: ``listed``
        (distinct ids), ``entered`` (listed now, not in the previous snapshot), ``exited``
        (in the previous snapshot, not now) and ``net``; the first snapshot has no
        previous one, so its flows are missing (NA).
        """
        key = _quote(_LEVEL_KEY[stats._choice(level, LEVELS, "level")])
        query = f"""
            WITH present AS (
                SELECT DISTINCT snapshot_index, {key} AS id FROM offers WHERE {key} IS NOT NULL
            ),
            listed AS (SELECT snapshot_index, count(*) AS n FROM present GROUP BY 1),
            entered AS (
                SELECT p.snapshot_index, count(*) AS n FROM present p
                LEFT JOIN present q ON q.id = p.id AND q.snapshot_index = p.snapshot_index - 1
                WHERE q.id IS NULL GROUP BY 1
            ),
            exited AS (
                SELECT p.snapshot_index + 1 AS snapshot_index, count(*) AS n FROM present p
                LEFT JOIN present q ON q.id = p.id AND q.snapshot_index = p.snapshot_index + 1
                WHERE q.id IS NULL GROUP BY 1
            )
            SELECT s.snapshot_date, coalesce(l.n, 0) AS listed, coalesce(e.n, 0) AS entered,
                   coalesce(x.n, 0) AS exited
            FROM snapshots s
            LEFT JOIN listed l USING (snapshot_index)
            LEFT JOIN entered e USING (snapshot_index)
            LEFT JOIN exited x USING (snapshot_index)
            ORDER BY s.snapshot_date"""
        out = self.sql(query)
        out["snapshot_date"] = pd.to_datetime(out["snapshot_date"])
        out = out.set_index("snapshot_date").astype("Int64")
        first = out.index.min()
        out.loc[first, ["entered", "exited"]] = pd.NA
        out["net"] = out["entered"] - out["exited"]
        out.attrs[SOURCE_ATTR] = {**self.source.to_attrs(), "flows": level}
        return out

    def lifetimes(self, level: str = "courses") -> pd.DataFrame:
        """How long each course (event, institution) stayed listed, computed by DuckDB.

        One row per id: ``first_seen`` and ``last_seen`` (snapshot dates), ``snapshots``
        (how many snapshots list it), ``days`` (from first to last seen),
        ``left_censored`` (listed in the archive's first snapshot: it may be older) and
        ``right_censored`` (still listed in the newest).
        """
        column = _LEVEL_KEY[stats._choice(level, LEVELS, "level")]
        key = _quote(column)
        query = f"""
            SELECT {key} AS id, min(snapshot_date) AS first_seen,
                   max(snapshot_date) AS last_seen,
                   count(DISTINCT snapshot_index) AS snapshots
            FROM offers WHERE {key} IS NOT NULL GROUP BY 1 ORDER BY 1"""
        out = self.sql(query)
        out = out.rename(columns={"id": column}).set_index(column)
        for seen in ("first_seen", "last_seen"):
            out[seen] = pd.to_datetime(out[seen])
        out["days"] = (out["last_seen"] - out["first_seen"]).dt.days.astype("Int64")
        out["snapshots"] = out["snapshots"].astype("Int64")
        dates = self.dates
        out["left_censored"] = out["first_seen"] == pd.Timestamp(dates[0])
        out["right_censored"] = out["last_seen"] == pd.Timestamp(dates[-1])
        if column == "institution":
            out.index = out.index.astype("string")
        else:
            out.index = out.index.astype("Int64")
        out.attrs[SOURCE_ATTR] = self.source.to_attrs()
        return out


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _where_dates(chosen: Sequence[dt.date], every: Sequence[dt.date]) -> str:
    if list(chosen) == list(every):
        return ""
    listed = ", ".join(f"DATE '{d.isoformat()}'" for d in chosen) or "NULL"
    return f"WHERE snapshot_date IN ({listed})"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _levels(values: pd.Series, key: str, categories: Mapping[str, list[str]]) -> pd.Series:
    """Observed group values from DuckDB in the dtype of the offers frame's dimension."""
    if key in categories:
        return pd.Series(
            pd.Categorical(
                values.astype("object").where(values.notna(), None),
                categories=categories[key],
                ordered=key == "duration_class",
            ),
            name=key,
        )
    if key == "year":
        return values.astype("Int64").rename(key)
    known = values.dropna()
    if values.dtype == object and len(known) and all(isinstance(v, bool) for v in known):
        return values.astype("boolean").rename(key)  # older DuckDB: object with NaN for NULL
    if key in ("quarter", "month"):
        freq = "Q" if key == "quarter" else "M"
        periods = pd.PeriodIndex(
            [None if pd.isna(v) else pd.Period(v, freq=freq) for v in values], freq=freq
        )
        return pd.Series(periods, name=key)
    return values.rename(key)


# ---------------------------------------------------------------------------------------
# the demo over time


def build_demo(
    path: str | os.PathLike[str],
    *,
    months: int | None = None,
    start: dt.date | str | None = None,
    scale: float = 1.0,
    seed: int | None = None,
    progress: bool = False,
) -> Archive:
    """An archive of monthly snapshots of the synthetic demo catalogue over time
    (:mod:`educatalog.server.demo_history`), built offline and deterministically.

    >>> arc = history.build_demo("demo-archive/", months=6, scale=0.05)  # doctest: +SKIP
    """
    from educatalog.server import demo
    from educatalog.server.demo_history import HISTORY_MONTHS, HISTORY_START, DemoTimeline

    timeline = DemoTimeline(demo.DEFAULT_SEED if seed is None else seed, scale)
    dates = timeline.monthly_dates(start or HISTORY_START, months or HISTORY_MONTHS)
    archive = None
    for day in dates:
        archive = add(path, timeline.catalogue(day), date=day)
        if progress:
            print(f"  {day}: added", flush=True)
    assert archive is not None
    return archive
