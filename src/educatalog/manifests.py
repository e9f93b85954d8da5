"""The ``manifest.json`` of a folder educatalog writes (a snapshot, an archive): read and
checked for its format, version and checksum of itself, with errors that name the file.

>>> manifest = read(folder, "archive.json", what="archive", format="educatalog-archive",
...                 version=1, error=ArchiveError)  # doctest: +SKIP
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from educatalog.errors import EducatalogError, UsageError

__all__ = ["as_date", "checksum", "read"]


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
        raise UsageError(f"{what} is YYYY-MM-DD, got {value!r}.") from None
