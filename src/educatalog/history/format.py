"""The archive's format: its manifest (``archive.json``), checksums, and the row-version
bookkeeping of each table (:class:`Versions`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from educatalog import snapshot as _snapshot
from educatalog.errors import ArchiveError
from educatalog.files import manifests
from educatalog.files.manifests import as_date as as_date
from educatalog.frames.catalogue import Catalogue

__all__ = ["ARCHIVE_MANIFEST", "FORMAT", "FORMAT_VERSION", "LOCK_FILE", "Versions"]

FORMAT = "educatalog-archive"
"""The ``format`` an archive's manifest names: ``"educatalog-archive"``; ``read_manifest``
refuses a folder whose manifest names another."""
FORMAT_VERSION = 1
"""Version of the archive's layout, written into its manifest (``format_version``);
``read_manifest`` refuses archives of a newer version."""
ARCHIVE_MANIFEST = "archive.json"
"""The file name of an archive's manifest, in the archive's folder: its snapshots, tables, offers
and files with their checksums."""
LOCK_FILE = ".archive.lock"
"""Held (``flock``) by the one :func:`~educatalog.history.add` writing to the archive."""

VALID_FROM, VALID_TO = "valid_from", "valid_to"
FUNDING = "funding"
"""The folder (and manifest key) of the funding types of the offers' courses."""

_PANDAS_TYPES: dict[pa.DataType, Any] = {
    pa.int64(): pd.Int64Dtype(),
    pa.string(): pd.StringDtype(),
    pa.large_string(): pd.StringDtype(),
    pa.bool_(): pd.BooleanDtype(),
    pa.float64(): pd.Float64Dtype(),
}


@dataclass
class Versions:
    """The row versions of one table (or of the offers frame) in the archive."""

    open: str | None
    closed: list[str]
    plain: list[str]
    schema: str | None  # fingerprint of the open rows' columns and dtypes

    @classmethod
    def of(cls, entry: Mapping[str, Any] | None) -> Versions:
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


def without_personal(catalogue: Catalogue, include_personal: bool) -> dict[str, pd.DataFrame]:
    """The catalogue's tables, personal fields left out unless ``include_personal``."""
    out = {}
    for name, frame in catalogue.items():
        personal = [f for f in _snapshot.PERSONAL_FIELDS.get(name, ()) if f in frame.columns]
        out[name] = frame.drop(columns=personal) if personal and not include_personal else frame
    return out


def frame_of(table: pa.Table) -> pd.DataFrame:
    """An Arrow table of row versions as pandas, with nullable dtypes."""
    frame: pd.DataFrame = table.to_pandas(types_mapper=_PANDAS_TYPES.get)
    return frame


def new_manifest() -> dict[str, Any]:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "snapshots": [],
        "tables": {},
        "offers": {},
        "files": {},
    }


def read_manifest(folder: Path, *, verify: bool = True) -> dict[str, Any]:
    """The manifest of the archive at ``folder``, checked for format, version and (with
    ``verify``) its checksum of itself."""
    manifest = manifests.read(
        folder,
        ARCHIVE_MANIFEST,
        what="archive",
        format=FORMAT,
        version=FORMAT_VERSION,
        error=ArchiveError,
        missing=f"{folder} is not an archive (make one with `educatalog fetch --archive DIR` "
        "or educatalog.history.add)",
        verify=verify,
    )
    file = folder / ARCHIVE_MANIFEST
    for key, kind in (("snapshots", list), ("tables", dict), ("files", dict)):
        if not isinstance(manifest.get(key), kind):
            raise ArchiveError(f'{file} is malformed: "{key}" is missing or not a {kind.__name__}.')
    return manifest


def remove_strays(folder: Path, manifest: Mapping[str, Any]) -> None:
    """Files an interrupted :func:`~educatalog.history.add` left behind (not in the
    manifest, or a manifest half-written): removed, so that an engine reading the folders
    sees the archive's rows only."""
    for partial in folder.glob(f".{ARCHIVE_MANIFEST}.*.partial"):
        partial.unlink(missing_ok=True)
    listed = set(manifest.get("files", {}))
    for sub in ("tables", "offers", FUNDING, "snapshots"):
        for file in (folder / sub).rglob("*"):
            if file.is_file() and file.relative_to(folder).as_posix() not in listed:
                file.unlink()
