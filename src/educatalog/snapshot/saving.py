"""Writing a snapshot: into a temporary sibling folder, renamed into place when complete;
folders left by an interrupted save are removed by the next one."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
import socket
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from educatalog._version import __version__
from educatalog.client.urls import public_url
from educatalog.errors import SnapshotError, UsageError
from educatalog.files import manifests
from educatalog.frames.catalogue import LINK_TABLES, Catalogue
from educatalog.snapshot.layout import (
    COMPRESSION,
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    PERSONAL_FIELDS,
    RESERVED,
    ROW_GROUP,
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
    target = Path(path)
    if target.exists():
        raise SnapshotError(f"{target} already exists; snapshots are never overwritten.")
    clash = RESERVED & set(extra or {})
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
        manifest["manifest_sha256"] = manifests.checksum(manifest)
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
    pq.write_table(table, sink, compression=COMPRESSION, row_group_size=ROW_GROUP)
    data = sink.getvalue()
    file = f"{name}.parquet"
    _write_file(folder / file, data)
    return {
        "file": file,
        "kind": "link" if name in LINK_TABLES else "collection",
        "rows": len(frame),
        "bytes": data.size,
        "sha256": hashlib.sha256(data).hexdigest(),
        "columns": [column_entry(str(c), frame[c]) for c in frame.columns],
    }


def column_entry(name: str, column: pd.Series) -> dict[str, Any]:
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
