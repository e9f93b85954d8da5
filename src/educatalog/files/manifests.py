"""The ``manifest.json`` of a folder educatalog writes (a snapshot, an archive, a report):
read and checked for its format, version and checksum of itself, with errors that name the
file; a report's manifest and the files it lists (:func:`verify_report`).

>>> manifest = read(folder, "archive.json", what="archive", format="educatalog-archive",
...                 version=1, error=ArchiveError)  # doctest: +SKIP
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from educatalog.errors import EducatalogError, ReportError, UsageError
from educatalog.files import atomic as files

__all__ = ["as_date", "checksum", "read", "read_report", "sealed", "verify_report"]


def checksum(manifest: Mapping[str, Any]) -> str:
    """The SHA-256 of a manifest without its own ``manifest_sha256`` (canonical JSON)."""
    body = {k: v for k, v in manifest.items() if k != "manifest_sha256"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def read(
    folder: Path,
    name: str,
    *,
    what: str,
    format: str,
    version: int,
    error: type[EducatalogError],
    missing: str | None = None,
    verify: bool = True,
) -> dict[str, Any]:
    """The manifest ``name`` of the ``what`` (``"snapshot"``, ``"archive"``) at ``folder``:
    a JSON object of ``format`` in a version up to ``version``, and (``verify``) unchanged
    since it was written. Anything else raises ``error`` naming the file; ``missing`` is
    said when the file is not there."""
    file = folder / name
    if not folder.is_dir():
        raise error(f"No {what} at {folder}: it is not a directory.")
    try:
        manifest = json.loads(file.read_bytes())
    except FileNotFoundError:
        raise error(f"{file} is missing: {missing or f'{folder} is not a {what}'}.") from None
    except (OSError, ValueError) as exc:
        raise error(f"{file} cannot be read: {exc}") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != format:
        raise error(f"{file} is not the manifest of an educatalog {what}.")
    found = manifest.get("format_version")
    if not isinstance(found, int) or found > version:
        raise error(
            f"{file} has format version {found!r}; this educatalog reads versions up to "
            f"{version}: update educatalog."
        )
    if verify and manifest.get("manifest_sha256") != checksum(manifest):
        raise error(f"{file} was modified after the {what} was written (checksum).")
    return manifest


def as_date(value: dt.date | str, what: str = "A snapshot date") -> dt.date:
    """A date from a date, a datetime (its day) or ``YYYY-MM-DD``; else a
    :class:`~educatalog.errors.UsageError` saying what the date is for."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise UsageError(f"{what} must be a date as YYYY-MM-DD, got {value!r}.") from None


# ---------------------------------------------------------------------------------------
# the manifest of a report

REPORT_MANIFEST = "manifest.json"
REPORT_FORMAT = "educatalog-report"
REPORT_FORMAT_VERSION = 1


def sealed(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """``manifest`` with its checksum of itself (``manifest_sha256``), as it is written."""
    body = {k: v for k, v in manifest.items() if k != "manifest_sha256"}
    return {**body, "manifest_sha256": checksum(body)}


def read_report(folder: Path) -> dict[str, Any] | None:
    """The manifest of the report in ``folder`` (None: there is none), checked against its
    checksum of itself; a :class:`~educatalog.errors.ReportError` names it when it was
    changed or damaged. A manifest of an educatalog before 0.2 (no format, no checksum) is
    taken as it is: the checksums of the files it lists still hold."""
    file = folder / REPORT_MANIFEST
    try:
        manifest = json.loads(file.read_bytes())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise ReportError(f"{file} is damaged or cannot be read: {exc}") from exc
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        raise ReportError(f"{file} is not the manifest of an educatalog report.")
    if "format" not in manifest and "manifest_sha256" not in manifest:
        return manifest
    return read(
        folder,
        REPORT_MANIFEST,
        what="report",
        format=REPORT_FORMAT,
        version=REPORT_FORMAT_VERSION,
        error=ReportError,
    )


def verify_report(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """Check the report in ``folder``: its manifest (checksum of itself), that the report is
    complete, and every file it lists against its SHA-256; returns the manifest. Anything
    else raises :class:`~educatalog.errors.ReportError` naming the file."""
    folder = Path(folder)
    manifest = read_report(folder)
    file = folder / REPORT_MANIFEST
    if manifest is None:
        raise ReportError(f"{file} is missing: {folder} holds no report of educatalog.")
    if not manifest.get("complete", True):
        raise ReportError(f"{file}: the report in {folder} is incomplete (its run failed).")
    for name, digest in manifest["files"].items():
        path = folder / name
        if digest is None:
            continue  # a file an incomplete run did not write
        try:
            found = files.sha256(path)
        except FileNotFoundError:
            raise ReportError(f"{path} is missing from the report ({file} lists it).") from None
        except OSError as exc:
            raise ReportError(f"{path} cannot be read: {exc}") from exc
        if found != digest:
            raise ReportError(
                f"{path} is not the file the report wrote: its SHA-256 is {found[:16]}..., "
                f"{file} records {str(digest)[:16]}... (changed, damaged or replaced)."
            )
    return manifest
