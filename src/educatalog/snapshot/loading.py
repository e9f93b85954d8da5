"""Reading a snapshot: the manifest and every file verified, the tables in their dtypes;
and the reference server's database of a snapshot, built once and cached."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from educatalog.errors import SnapshotError
from educatalog.files import manifests
from educatalog.frames.catalogue import COLLECTIONS, LINK_TABLES, Catalogue, Source
from educatalog.frames.typed import DATETIME_DTYPE
from educatalog.snapshot.layout import (
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
)
from educatalog.snapshot.serving import database_rows

# ---------------------------------------------------------------------------------------
# load and verify


def read_manifest(path: str | os.PathLike[str], *, verify: bool = True) -> dict[str, Any]:
    """The manifest of the snapshot at ``path``, checked for form and (``verify``) checksum."""
    folder = Path(path)
    file = folder / MANIFEST
    manifest = manifests.read(
        folder,
        MANIFEST,
        what="snapshot",
        format=FORMAT,
        version=FORMAT_VERSION,
        error=SnapshotError,
        missing=f"{folder} is not a complete snapshot",
        verify=verify,
    )
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
    manifest = folder / MANIFEST
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise SnapshotError(f"{file} is missing ({manifest} lists it).") from None
    except OSError as exc:
        raise SnapshotError(f"{file} cannot be read: {exc}") from exc
    if verify:
        expected = entry.get("bytes")
        if isinstance(expected, int) and len(data) != expected:
            raise SnapshotError(
                f"{file} is {len(data):,} bytes long; {manifest} says {expected:,} "
                f"(truncated, appended to or replaced)."
            )
        found = hashlib.sha256(data).hexdigest()
        if found != entry.get("sha256"):
            raise SnapshotError(
                f"{file} is corrupted: its SHA-256 ({found[:16]}...) is not the one {manifest} "
                f"records ({str(entry.get('sha256'))[:16]}...; changed or replaced)."
            )
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
        frame[spec["name"]] = restore_dtype(frame[spec["name"]], spec, file)
    return frame


def restore_dtype(column: pd.Series, spec: Mapping[str, Any], file: Path) -> pd.Series:
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


def as_catalogue(value: Catalogue | str | os.PathLike[str]) -> Catalogue:
    return value if isinstance(value, Catalogue) else load(value)


# ---------------------------------------------------------------------------------------
# the reference server's database


def database(
    path: str | os.PathLike[str], *, directory: str | os.PathLike[str] | None = None
) -> Path:
    """A reference-server database of the snapshot at ``path``, built once and cached.

    The snapshot is verified first. The database is kept in ``directory`` (default: the
    ``snapshots`` folder of the cache, see :func:`educatalog.files.workspace.cache_dir`),
    named by the manifest's checksum, so a snapshot is converted only once; before every
    use it is checked against the checksum kept beside it (:func:`educatalog.files.cache.cached`),
    and built again from the snapshot when damaged.
    """
    from educatalog.files.cache import cached
    from educatalog.files.workspace import cache_dir
    from educatalog.server.store import build_database

    folder = Path(path)
    manifest = verify(folder)
    where = Path(directory) if directory is not None else cache_dir() / "snapshots"
    key = f"{manifest['manifest_sha256'][:20]}-{_code_fingerprint()}"

    def build(target: Path) -> None:
        catalogue = load(folder)  # verified again: the bytes read are those checked
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

    return cached(where / f"snapshot-{key}.sqlite", build)


def _code_fingerprint() -> str:
    """A short hash of the code that turns a snapshot into a database."""
    from educatalog.server import store
    from educatalog.snapshot import serving

    digest = hashlib.sha256()
    for module_file in (store.__file__, serving.__file__, __file__):
        digest.update(Path(module_file or "").read_bytes())
    return digest.hexdigest()[:10]
