"""Snapshots: a loaded catalogue kept as files, reproducible and usable offline.

>>> from educatalog import snapshot
>>> cat = educatalog.load_catalogue()                         # doctest: +SKIP
>>> snapshot.save(cat, "catalogue-2025-06")                  # doctest: +SKIP
>>> cat = snapshot.load("catalogue-2025-06")  # same tables, dtypes, Source  # doctest: +SKIP
>>> snapshot.diff("catalogue-2025-06", "catalogue-2025-07")  # doctest: +SKIP

A snapshot is a directory holding one Parquet file per collection and link table and
``manifest.json``: the format version, where and when the data was fetched (the service's
URL, never a token), whether it is the synthetic demo catalogue, when the snapshot was made
and by which version of educatalog, and per table its file, rows, columns with dtypes and
SHA-256 checksum. The manifest carries a checksum of itself, so that an edited manifest is
detected like an edited table.

Personal data: the personal fields of contacts (names, phone numbers, e-mail addresses of
real people; ``Field.personal`` in the catalogue) are left out unless ``include_personal=True``
is passed, and the manifest records the choice and the fields left out.

A snapshot is written into a temporary sibling directory and renamed into place at the end:
an interrupted save leaves nothing behind, and an existing snapshot is never overwritten.
:func:`load` verifies every file against the manifest and names the file that does not match.
:func:`database` turns a snapshot into a database of the reference server (how
``educatalog serve --snapshot`` serves it), :func:`export` writes CSV, Excel or plain Parquet.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import os
import shutil
import socket
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from educatalog import excel
from educatalog.catalogue import COLLECTIONS, LINK_TABLES, Catalogue, Source
from educatalog.errors import SnapshotError, UsageError
from educatalog.files import atomic_write
from educatalog.frames import DATETIME_DTYPE, python_values
from educatalog.schema import CATALOGUE
from educatalog.server.snapshot_db import SERVICE_DATETIME, database_rows
from educatalog.urls import public_url

__all__ = [
    "FORMAT_VERSION",
    "MANIFEST",
    "PERSONAL_FIELDS",
    "database",
    "database_rows",
    "diff",
    "export",
    "load",
    "read_manifest",
    "save",
    "verify",
]

FORMAT = "educatalog-snapshot"
FORMAT_VERSION = 1
"""Version of the snapshot layout; :func:`load` refuses snapshots of a newer version."""

MANIFEST = "manifest.json"

PERSONAL_FIELDS: dict[str, tuple[str, ...]] = {
    c.name: tuple(f.name for f in c.stored_fields if f.personal)
    for c in CATALOGUE.values()
    if any(f.personal for f in c.stored_fields)
}
"""Collection -> its personal fields (``Field.personal``): left out of snapshots and exports
unless asked for."""

_COMPRESSION = "zstd"
_ROW_GROUP = 256 * 1024
_RESERVED = frozenset(
    {
        "format",
        "format_version",
        "educatalog_version",
        "created_at",
        "source",
        "include_personal",
        "personal_fields_omitted",
        "tables",
        "manifest_sha256",
    }
)


# ---------------------------------------------------------------------------------------
# save


def save(
    catalogue: Catalogue,
    path: str | os.PathLike[str],
    *,
    include_personal: bool = False,
    extra: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``catalogue`` as a snapshot directory at ``path``; returns its path.

    Personal fields (:data:`PERSONAL_FIELDS`) are left out unless ``include_personal``.
    ``extra`` holds further JSON-serializable facts for the manifest (the command line
    records how it fetched and, for an update, what changed). ``path`` must not exist: a
    snapshot is never overwritten (:class:`~educatalog.errors.SnapshotError`).
    """
    from educatalog import __version__

    target = Path(path)
    if target.exists():
        raise SnapshotError(f"{target} already exists; snapshots are never overwritten.")
    clash = _RESERVED & set(extra or {})
    if clash:
        raise UsageError(f"extra may not set the manifest's own keys: {sorted(clash)}")
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_abandoned(target.parent)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent))
    try:
        (tmp / _OWNER).write_text(f"{os.getpid()} {socket.gethostname()}\n", encoding="utf-8")
        tables: dict[str, Any] = {}
        omitted: dict[str, list[str]] = {}
        for name, frame in catalogue.items():
            personal = [f for f in PERSONAL_FIELDS.get(name, ()) if f in frame.columns]
            absent = [f for f in PERSONAL_FIELDS.get(name, ()) if f not in frame.columns]
            if personal and not include_personal:
                frame = frame.drop(columns=personal)
                absent = list(PERSONAL_FIELDS[name])
            if absent:
                omitted[name] = absent
            tables[name] = _write_table(tmp, name, frame)
        source = catalogue.source
        manifest: dict[str, Any] = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "educatalog_version": __version__,
            "created_at": dt.datetime.now(dt.UTC).isoformat(),
            "source": {
                "url": public_url(source.url),
                "demo": source.demo,
                "fetched_at": source.fetched_at.isoformat(),
            },
            "include_personal": include_personal,
            "personal_fields_omitted": omitted,
            "tables": tables,
            **dict(extra or {}),
        }
        manifest["manifest_sha256"] = _manifest_checksum(manifest)
        _write_file(tmp / MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False).encode())
        _fsync_directory(tmp)
        if target.exists():  # appeared while writing
            raise SnapshotError(f"{target} already exists; snapshots are never overwritten.")
        os.chmod(tmp, 0o755)  # mkdtemp makes directories readable by the owner only
        (tmp / _OWNER).unlink()
        os.rename(tmp, target)
        _fsync_directory(target.parent)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return target


_OWNER = ".educatalog-partial-owner"
"""In a snapshot being written: the process writing it and its host."""


def remove_abandoned(folder: str | os.PathLike[str]) -> list[Path]:
    """Remove the half-written snapshots in ``folder`` whose writer is gone (a fetch killed
    by SIGKILL or a power cut cannot clean up after itself); returns what was removed.

    Only folders ``.NAME.*.partial`` that name their writer are touched, and only when that
    process no longer runs on this host.
    """
    removed = []
    host = socket.gethostname()
    for partial in Path(folder).glob(".*.partial"):
        try:
            pid_text, _, owner_host = (partial / _OWNER).read_text(encoding="utf-8").partition(" ")
            pid = int(pid_text)
        except (OSError, ValueError):
            continue  # not ours, or being created this very moment
        if owner_host.strip() != host or _alive(pid):
            continue
        shutil.rmtree(partial, ignore_errors=True)
        removed.append(partial)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def _write_table(folder: Path, name: str, frame: pd.DataFrame) -> dict[str, Any]:
    # pyarrow would keep DataFrame.attrs (the source, URL and all) in the file's metadata:
    # the manifest alone records the source, cleaned.
    frame = frame.copy(deep=False)
    frame.attrs = {}
    try:
        table = pa.Table.from_pandas(frame, preserve_index=None)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError) as exc:
        raise SnapshotError(f'Table "{name}" cannot be stored as Parquet: {exc}') from exc
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression=_COMPRESSION, row_group_size=_ROW_GROUP)
    data = sink.getvalue()
    file = f"{name}.parquet"
    _write_file(folder / file, data)
    return {
        "file": file,
        "kind": "link" if name in LINK_TABLES else "collection",
        "rows": len(frame),
        "bytes": data.size,
        "sha256": hashlib.sha256(data).hexdigest(),
        "columns": [_column_entry(str(c), frame[c]) for c in frame.columns],
    }


def _column_entry(name: str, column: pd.Series) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": name, "dtype": str(column.dtype)}
    if isinstance(column.dtype, pd.CategoricalDtype):
        entry["categories_dtype"] = str(column.dtype.categories.dtype)
        entry["ordered"] = bool(column.dtype.ordered)
    return entry


def _write_file(path: Path, data: bytes | pa.Buffer) -> None:
    with open(path, "wb") as out:
        out.write(memoryview(data))
        out.flush()
        os.fsync(out.fileno())


def _fsync_directory(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _manifest_checksum(manifest: Mapping[str, Any]) -> str:
    body = {k: v for k, v in manifest.items() if k != "manifest_sha256"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


# ---------------------------------------------------------------------------------------
# load and verify


def read_manifest(path: str | os.PathLike[str], *, verify: bool = True) -> dict[str, Any]:
    """The manifest of the snapshot at ``path``, checked for form and (``verify``) checksum."""
    folder = Path(path)
    file = folder / MANIFEST
    if not folder.is_dir():
        raise SnapshotError(f"No snapshot at {folder}: it is not a directory.")
    try:
        manifest = json.loads(file.read_bytes())
    except FileNotFoundError:
        raise SnapshotError(f"{file} is missing: {folder} is not a complete snapshot.") from None
    except (OSError, ValueError) as exc:
        raise SnapshotError(f"{file} cannot be read: {exc}") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise SnapshotError(f"{file} is not the manifest of an educatalog snapshot.")
    version = manifest.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise SnapshotError(
            f"{file} has format version {version!r}; this educatalog reads versions up to "
            f"{FORMAT_VERSION}: update educatalog."
        )
    if verify and manifest.get("manifest_sha256") != _manifest_checksum(manifest):
        raise SnapshotError(f"{file} was modified after the snapshot was written (checksum).")
    tables = manifest.get("tables")
    if not isinstance(tables, dict):
        raise SnapshotError(f"{file} lists no tables.")
    for name, entry in tables.items():
        if (name not in COLLECTIONS and name not in LINK_TABLES) or not isinstance(entry, dict):
            raise SnapshotError(f'{file} lists an unknown table "{name}".')
        if entry.get("file") != f"{name}.parquet" or not isinstance(entry.get("rows"), int):
            raise SnapshotError(f'{file}: the entry of table "{name}" is malformed.')
        columns = entry.get("columns")
        if not isinstance(columns, list):
            raise SnapshotError(f'{file}: table "{name}" lists no columns.')
        for spec in columns:
            problem = _column_problem(spec)
            if problem is not None:
                raise SnapshotError(f'{file}: table "{name}": {problem}.')
    return manifest


def _column_problem(spec: Any) -> str | None:
    """What is wrong with a column entry of a manifest (None: nothing)."""
    if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
        return f"a column entry is malformed ({str(spec)[:60]})"
    for key in ("dtype", "categories_dtype"):
        if key not in spec and key == "categories_dtype":
            continue
        value = spec.get(key)
        try:
            if not isinstance(value, str):
                raise TypeError(value)
            pd.api.types.pandas_dtype(value)
        except Exception:  # pandas raises many kinds for an unknown dtype
            return f'column "{spec["name"]}" has an unknown {key} {str(value)[:40]!r}'
    if "ordered" in spec and not isinstance(spec["ordered"], bool):
        return f'column "{spec["name"]}": "ordered" must be true or false'
    return None


def load(path: str | os.PathLike[str], *, verify: bool = True) -> Catalogue:
    """The catalogue saved at ``path``, with the same tables, dtypes and :class:`Source`.

    Every file is checked against the manifest (row counts and columns always; with
    ``verify``, the checksums of the files and of the manifest too). A missing, corrupted or
    truncated file raises :class:`~educatalog.errors.SnapshotError` naming it.
    """
    folder = Path(path)
    manifest = read_manifest(folder, verify=verify)
    # One table after the other: pyarrow decodes the columns of each in parallel already
    # (reading several tables at once was slower, by oversubscribing the cores).
    frames = {
        name: _read_table(folder, entry, verify=verify)
        for name, entry in manifest["tables"].items()
    }
    return Catalogue(frames, source=_source(manifest))


def verify(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Check a snapshot without building its frames; returns its manifest.

    The manifest's checksum, and every file's presence, size, checksum and row count.
    """
    folder = Path(path)
    manifest = read_manifest(folder, verify=True)
    for entry in manifest["tables"].values():
        data = _read_bytes(folder, entry, verify=True)
        file = folder / entry["file"]
        try:
            rows = pq.ParquetFile(pa.BufferReader(data)).metadata.num_rows
        except (pa.ArrowException, OSError) as exc:
            raise SnapshotError(f"{file} is not a readable Parquet file: {exc}") from exc
        if rows != entry["rows"]:
            raise SnapshotError(f"{file} holds {rows} rows; the manifest says {entry['rows']}.")
    return manifest


def _source(manifest: Mapping[str, Any]) -> Source:
    raw = manifest.get("source") or {}
    try:
        when = dt.datetime.fromisoformat(raw["fetched_at"])
    except (KeyError, TypeError, ValueError):
        raise SnapshotError(f"{MANIFEST}: the source has no valid fetched_at time.") from None
    return Source(url=raw.get("url"), demo=bool(raw.get("demo")), fetched_at=when)


def _read_bytes(folder: Path, entry: Mapping[str, Any], *, verify: bool) -> pa.Buffer:
    file = folder / entry["file"]
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise SnapshotError(f"{file} is missing from the snapshot.") from None
    except OSError as exc:
        raise SnapshotError(f"{file} cannot be read: {exc}") from exc
    if verify:
        expected = entry.get("bytes")
        if isinstance(expected, int) and len(data) != expected:
            raise SnapshotError(
                f"{file} is {len(data):,} bytes long; the manifest says {expected:,} "
                f"(truncated or replaced)."
            )
        if hashlib.sha256(data).hexdigest() != entry.get("sha256"):
            raise SnapshotError(f"{file} is corrupted: its checksum does not match the manifest.")
    return pa.py_buffer(data)


def _read_table(folder: Path, entry: Mapping[str, Any], *, verify: bool) -> pd.DataFrame:
    data = _read_bytes(folder, entry, verify=verify)
    file = folder / entry["file"]
    try:
        table = pq.read_table(pa.BufferReader(data))
        frame: pd.DataFrame = table.to_pandas()
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise SnapshotError(f"{file} is not a readable Parquet file: {exc}") from exc
    if len(frame) != entry["rows"]:
        raise SnapshotError(f"{file} holds {len(frame)} rows; the manifest says {entry['rows']}.")
    columns = entry.get("columns") or []
    names = [c.get("name") for c in columns]
    if [str(c) for c in frame.columns] != names:
        raise SnapshotError(f"{file} has columns {list(frame.columns)}; the manifest: {names}.")
    for spec in columns:
        frame[spec["name"]] = _restore_dtype(frame[spec["name"]], spec, file)
    return frame


def _restore_dtype(column: pd.Series, spec: Mapping[str, Any], file: Path) -> pd.Series:
    """The column in the dtype the manifest records (Parquet keeps almost every dtype; the
    categories of a categorical may come back as another text dtype)."""
    wanted = spec.get("dtype")
    if isinstance(column.dtype, pd.CategoricalDtype) and "categories_dtype" in spec:
        cats = column.dtype.categories
        if str(cats.dtype) != spec["categories_dtype"]:
            new = pd.CategoricalDtype(
                pd.Index(cats, dtype=spec["categories_dtype"]), ordered=spec.get("ordered", False)
            )
            column = pd.Series(
                pd.Categorical.from_codes(column.cat.codes, dtype=new),
                index=column.index,
                name=column.name,
            )
    if str(column.dtype) != wanted:
        try:
            column = column.astype(pd.api.types.pandas_dtype(wanted))
        except Exception as exc:  # TypeError, ValueError, OverflowError, ...
            raise SnapshotError(
                f'{file}: column "{spec["name"]}" has dtype {column.dtype}, the manifest says '
                f"{wanted}."
            ) from exc
    if pd.api.types.is_datetime64_dtype(column.dtype) and str(column.dtype) != DATETIME_DTYPE:
        column = column.astype(DATETIME_DTYPE)  # a snapshot of an older version: one unit
    return column


def _as_catalogue(value: Catalogue | str | os.PathLike[str]) -> Catalogue:
    return value if isinstance(value, Catalogue) else load(value)


# ---------------------------------------------------------------------------------------
# diff


def diff(
    old: Catalogue | str | os.PathLike[str], new: Catalogue | str | os.PathLike[str]
) -> pd.DataFrame:
    """Rows added, removed and changed per table from ``old`` to ``new``.

    Catalogues or snapshot paths. Collections are matched by ``id``; a row counts as changed
    when a column both have differs (nulls equal nulls). Link tables are matched by pair, so
    their rows are only added or removed. One row per table, in catalogue order, with the
    columns ``rows_before``, ``rows_after``, ``added``, ``removed``, ``changed``; a table that
    only one side holds has nulls (``<NA>``) where the other side would be.
    """
    before, after = _as_catalogue(old), _as_catalogue(new)
    order = [n for n in (*COLLECTIONS, *LINK_TABLES) if n in before or n in after]
    records = []
    for name in order:
        a, b = before.get(name), after.get(name)
        record: dict[str, Any] = {
            "table": name,
            "rows_before": None if a is None else len(a),
            "rows_after": None if b is None else len(b),
        }
        if a is not None and b is not None:
            record.update(_table_changes(name, a, b))
        records.append(record)
    columns = ["table", "rows_before", "rows_after", "added", "removed", "changed"]
    frame = pd.DataFrame.from_records(records, columns=columns).set_index("table")
    return frame.astype("Int64")


def _table_changes(name: str, a: pd.DataFrame, b: pd.DataFrame) -> dict[str, int]:
    if a.empty or b.empty:
        return {"added": len(b), "removed": len(a), "changed": 0}
    by_id = name not in LINK_TABLES and "id" in a and "id" in b
    if by_id and a["id"].is_unique and b["id"].is_unique:
        ia, ib = pd.Index(a["id"]), pd.Index(b["id"])
        common = ia.intersection(ib)
        changed = 0
        if len(common):
            x = a.set_index("id").loc[common]
            y = b.set_index("id").loc[common]
            differs = np.zeros(len(common), dtype=bool)
            for column in (c for c in x.columns if c in y.columns):
                differs |= _differs(x[column], y[column])
            changed = int(differs.sum())
        return {
            "added": len(ib.difference(ia)),
            "removed": len(ia.difference(ib)),
            "changed": changed,
        }
    keys = [c for c in a.columns if c in b.columns]
    ka = pd.MultiIndex.from_frame(a[keys]) if len(keys) > 1 else pd.Index(a[keys[0]])
    kb = pd.MultiIndex.from_frame(b[keys]) if len(keys) > 1 else pd.Index(b[keys[0]])
    return {"added": len(kb.difference(ka)), "removed": len(ka.difference(kb)), "changed": 0}


def _differs(x: pd.Series, y: pd.Series) -> np.ndarray:
    """Per row: the values differ (a null equals a null, and only a null)."""
    if x.dtype != y.dtype:
        x, y = x.astype("string"), y.astype("string")
    x_na, y_na = x.isna().to_numpy(), y.isna().to_numpy()
    try:
        unequal = (x.reset_index(drop=True) != y.reset_index(drop=True)).fillna(False)
        values = unequal.to_numpy(dtype=bool)
    except TypeError:  # values pandas cannot compare (lists, mixed objects)
        values = np.array([repr(p) != repr(q) for p, q in zip(x, y, strict=True)], dtype=bool)
    return (values & ~x_na & ~y_na) | (x_na ^ y_na)


# ---------------------------------------------------------------------------------------
# the reference server's database


def database(
    path: str | os.PathLike[str], *, directory: str | os.PathLike[str] | None = None
) -> Path:
    """A reference-server database of the snapshot at ``path``, built once and cached.

    The snapshot is verified first. The database is kept in ``directory`` (default: the
    ``snapshots`` folder of the cache, see :func:`educatalog.server.embedded.cache_dir`),
    named by the manifest's checksum, so a snapshot is converted only once.
    """
    from educatalog.server.embedded import cache_dir
    from educatalog.server.store import build_database

    folder = Path(path)
    manifest = verify(folder)
    where = Path(directory) if directory is not None else cache_dir() / "snapshots"
    key = f"{manifest['manifest_sha256'][:20]}-{_code_fingerprint()}"
    target = where / f"snapshot-{key}.sqlite"
    if not target.is_file():
        catalogue = load(folder, verify=False)  # verified above
        source = manifest["source"]
        info = {
            "demo": bool(source.get("demo")),
            "snapshot": {
                "name": folder.resolve().name,
                "created_at": manifest.get("created_at"),
                "source_url": source.get("url"),
                "fetched_at": source.get("fetched_at"),
                "include_personal": manifest.get("include_personal"),
                "manifest_sha256": manifest["manifest_sha256"],
            },
        }
        build_database(target, database_rows(catalogue), info=info)
    return target


def _code_fingerprint() -> str:
    """A short hash of the code that turns a snapshot into a database."""
    from educatalog.server import snapshot_db, store

    digest = hashlib.sha256()
    for module_file in (store.__file__, snapshot_db.__file__, __file__):
        digest.update(Path(module_file or "").read_bytes())
    return digest.hexdigest()[:10]


# ---------------------------------------------------------------------------------------
# export

ExportFormat = Literal["csv", "xlsx", "parquet"]


def export(
    path: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    format: ExportFormat,
    include_personal: bool = False,
) -> list[Path]:
    """Write the tables of the snapshot at ``path`` into the folder ``out``; returns the files.

    ``csv`` and ``parquet``: one file per table (``events.csv``, ...); ``xlsx``: one workbook
    named after the snapshot, with one sheet per table. Personal fields are left out unless
    ``include_personal`` (a snapshot saved without them has none to give). Existing files
    are never overwritten.
    """
    if format not in ("csv", "xlsx", "parquet"):
        raise UsageError(f"format must be csv, xlsx or parquet, got {format!r}")
    catalogue = load(path)
    tables: dict[str, pd.DataFrame] = {}
    for name, frame in catalogue.items():
        personal = [f for f in PERSONAL_FIELDS.get(name, ()) if f in frame.columns]
        tables[name] = frame.drop(columns=personal) if personal and not include_personal else frame
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    if format == "xlsx":
        targets = {"": folder / f"{Path(path).resolve().name}.xlsx"}
    else:
        targets = {name: folder / f"{name}.{format}" for name in tables}
    existing = [str(t) for t in targets.values() if t.exists()]
    if existing:
        raise UsageError(f"Not overwriting existing files: {', '.join(existing)}.")
    if format == "xlsx":
        atomic_write(targets[""], lambda tmp: _write_workbook(tmp, tables))
    else:
        for name, frame in tables.items():
            atomic_write(targets[name], functools.partial(_write_flat, frame=frame, format=format))
    return list(targets.values())


def _write_flat(file: Path, *, frame: pd.DataFrame, format: str) -> None:
    if format == "csv":
        frame.to_csv(file, index=False, date_format=SERVICE_DATETIME, encoding="utf-8")
    else:
        frame = frame.copy(deep=False)
        frame.attrs = {}
        table = pa.Table.from_pandas(frame, preserve_index=False)
        pq.write_table(table, file, compression=_COMPRESSION)


def sheet_names(tables: Sequence[str]) -> dict[str, str]:
    """Excel sheet names for table names: at most 31 characters, unique (case-blind)."""
    names = excel.sheet_names(tables, replace="_", fallback="table", suffix="~{n}")
    return dict(zip(tables, names, strict=True))


def _write_workbook(file: Path, tables: Mapping[str, pd.DataFrame]) -> None:
    from openpyxl import Workbook

    for name, frame in tables.items():
        excel.check_rows(name, len(frame))
    book = Workbook(write_only=True)
    for table, sheet_name in sheet_names(list(tables)).items():
        frame = tables[table]
        sheet = book.create_sheet(sheet_name)
        sheet.append([str(c) for c in frame.columns])
        columns = []
        for c in frame.columns:
            column = frame[c]
            if pd.api.types.is_datetime64_any_dtype(column.dtype):
                values = [None if pd.isna(v) else v.to_pydatetime() for v in column]
            else:
                values = python_values(column)
            columns.append(values)
        for row in zip(*columns, strict=True):
            sheet.append([excel.cell_value(sheet, v) for v in row])
    book.save(file)
