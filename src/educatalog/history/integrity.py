"""Nothing read from an archive that its manifest does not vouch for: every file is checked
against ``archive.json`` (listed, present, its size and its SHA-256) before pandas or DuckDB
reads it, and an error of either while reading is turned into an :class:`ArchiveError`
naming the file (:class:`Checker`).

A file is hashed the first time an open archive reads it, and again whenever it is no
longer the file that was hashed (another inode, size, modification or change time: written
in place, replaced, synced anew); otherwise a later read costs one ``stat``. Files read into
memory (:meth:`Checker.read`) are hashed from the very bytes that are then parsed.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from educatalog.errors import ArchiveError
from educatalog.files import atomic as files
from educatalog.history.format import ARCHIVE_MANIFEST

__all__ = ["Checker"]

_Stamp = tuple[int, int, int, int]


def _stamp(stat: os.stat_result) -> _Stamp:
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)


class Checker:
    """Checks the files of the archive at ``folder`` against its ``manifest``: always that
    a file is listed, present and of the recorded size; with ``verify`` its SHA-256 too."""

    def __init__(self, folder: Path, manifest: Mapping[str, Any], *, verify: bool) -> None:
        self.folder = folder
        self.manifest = manifest
        self.verify = verify
        self.manifest_file = folder / ARCHIVE_MANIFEST
        self._hashed: dict[str, _Stamp] = {}

    def _info(self, file: Path) -> tuple[str, Mapping[str, Any]]:
        relative = file.relative_to(self.folder).as_posix()
        info = self.manifest["files"].get(relative)
        if not isinstance(info, Mapping):
            raise ArchiveError(f"{file} is not listed in {self.manifest_file}.")
        return relative, info

    def _size(self, file: Path, found: int, info: Mapping[str, Any]) -> None:
        if found != info["bytes"]:
            how = "truncated" if found < info["bytes"] else "appended to"
            raise ArchiveError(
                f"{file} is {found:,} bytes long; {self.manifest_file} records "
                f"{info['bytes']:,} (the file was {how} or replaced since it was written)."
            )

    def _digest(self, file: Path, found: str, info: Mapping[str, Any]) -> None:
        if found != info["sha256"]:
            raise ArchiveError(
                f"{file} is damaged: its content differs from what was written (SHA-256 "
                f"{found[:16]}..., {self.manifest_file} records {info['sha256'][:16]}...; "
                "changed in place or replaced by another file of the same size)."
            )

    def _missing(self, file: Path) -> ArchiveError:
        """The error for a listed file that is not there: removed by a later addition
        (the manifest on disk is no longer the one read), or lost."""
        try:
            now = json.loads(self.manifest_file.read_bytes()).get("manifest_sha256")
        except (OSError, ValueError, AttributeError):
            now = None
        if now is not None and now != self.manifest.get("manifest_sha256"):
            return ArchiveError(
                f"{file} is gone: a snapshot was added to the archive since it was opened "
                f"({self.manifest_file} changed); open it again."
            )
        return ArchiveError(f"{file} is missing ({self.manifest_file} lists it).")

    def check(self, file: Path, *, force: bool = False) -> None:
        """Check ``file`` before an engine reads it; ``force``: hash it again (and also
        without ``verify``)."""
        relative, info = self._info(file)
        try:
            stat = file.stat()
        except FileNotFoundError:
            raise self._missing(file) from None
        self._size(file, stat.st_size, info)
        if not (self.verify or force) or (not force and self._hashed.get(relative) == _stamp(stat)):
            return
        try:
            digest = files.sha256(file)
        except OSError as exc:
            raise ArchiveError(f"{file} cannot be read: {exc}") from exc
        self._digest(file, digest, info)
        self._hashed[relative] = _stamp(stat)

    def check_all(self, paths: Iterable[Path]) -> None:
        for path in paths:
            self.check(path)

    def read(self, file: Path) -> bytes:
        """The bytes of ``file``, checked (the checksum of these very bytes)."""
        _, info = self._info(file)
        try:
            data = file.read_bytes()
        except FileNotFoundError:
            raise self._missing(file) from None
        except OSError as exc:
            raise ArchiveError(f"{file} cannot be read: {exc}") from exc
        self._size(file, len(data), info)
        if self.verify:
            self._digest(file, hashlib.sha256(data).hexdigest(), info)
        return data

    def parquet(self, file: Path) -> pa.Table:
        """The Parquet file ``file`` as an Arrow table, checked first."""
        data = self.read(file)
        try:
            return pq.read_table(pa.BufferReader(data))
        except (pa.ArrowException, OSError, ValueError) as exc:
            raise ArchiveError(f"{file} is not a readable Parquet file: {exc}") from exc

    def schema(self, file: Path) -> pa.Schema:
        data = self.read(file)
        try:
            return pq.read_schema(pa.BufferReader(data))
        except (pa.ArrowException, OSError, ValueError) as exc:
            raise ArchiveError(f"{file} is not a readable Parquet file: {exc}") from exc

    def json(self, file: Path) -> dict[str, Any]:
        """The JSON object in ``file``, checked first."""
        data = self.read(file)
        try:
            value = json.loads(data)
        except ValueError as exc:
            raise ArchiveError(f"{file} is not valid JSON: {exc}") from exc
        if not isinstance(value, dict):
            raise ArchiveError(f"{file} does not hold a snapshot's description.")
        return value

    def culprit(self, paths: Iterable[Path], error: Exception) -> ArchiveError | None:
        """After ``error`` of an engine reading ``paths``: the file to blame, as an
        :class:`ArchiveError` naming it (a file that no longer matches the manifest, else
        one the error names), or None when no file is to blame."""
        paths = list(paths)
        for path in paths:
            try:
                self.check(path, force=True)
            except ArchiveError as damaged:
                return damaged
        text = str(error)
        for path in paths:
            if str(path) in text:  # the path as DuckDB was given it
                return ArchiveError(f"{path} could not be read: {text}")
        return None
