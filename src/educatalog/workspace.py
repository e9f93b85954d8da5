"""The user's own folders: the shipped notebooks copied to where the user works, the rule
that nothing a notebook, the report or the explorer writes lands inside the installed package,
and the cache where educatalog keeps what it builds once (the demo's and snapshots' databases).

>>> copy_notebooks("notebooks")  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from educatalog._version import __version__
from educatalog.errors import DataError, UsageError

__all__ = [
    "NOTEBOOKS",
    "PACKAGE",
    "Copied",
    "cache_dir",
    "copy_notebooks",
    "inside_package",
    "output_folder",
]

PACKAGE = Path(__file__).resolve().parent
"""The installed ``educatalog`` package (``src/educatalog`` in the repository)."""

NOTEBOOKS = PACKAGE / "notebooks"
"""The ready-made notebooks shipped with the package; users work on copies of them."""

RECORD = ".educatalog-notebooks.json"
"""In a folder of copies: the checksum of each notebook as it was copied, so that a copy the
user never edited can be updated and an edited one is recognised and kept."""


def cache_dir() -> Path:
    """Where educatalog keeps what it builds once and reuses (the demo's databases, those of
    served snapshots): ``$EDUCATALOG_CACHE``, else ``$XDG_CACHE_HOME/educatalog``, else
    ``~/.cache/educatalog``."""
    configured = os.environ.get("EDUCATALOG_CACHE")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "educatalog"


def inside_package(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is the installed package's folder or lies inside it."""
    resolved = Path(path).expanduser().resolve()
    return resolved == PACKAGE or PACKAGE in resolved.parents


def output_folder(path: str | os.PathLike[str], *, what: str = "outputs") -> Path:
    """``path`` resolved, or a clear error when it lies inside the installed package."""
    folder = Path(path).expanduser().resolve()
    if inside_package(folder):
        raise UsageError(
            f"{folder} is inside the educatalog package; {what} belong in your own folder. "
            "Copy the notebooks with `educatalog notebooks --out DIR` and open them there."
        )
    return folder


@dataclass
class Copied:
    """What :func:`copy_notebooks` did, notebook by notebook (paths of the copies)."""

    folder: Path
    copied: list[Path] = field(default_factory=list)  # new, or an unedited older copy
    unchanged: list[Path] = field(default_factory=list)  # already the shipped version
    replaced: list[Path] = field(default_factory=list)  # edited copies, replaced by --force
    kept: list[Path] = field(default_factory=list)  # edited copies, left as they are


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def copy_notebooks(out: str | os.PathLike[str], *, force: bool = False) -> Copied:
    """Copy the shipped notebooks into the folder ``out`` (created if needed).

    A copy the user has edited is kept unless ``force`` is true; a copy that is still as
    educatalog wrote it (this version or an earlier one) is brought up to date.
    """
    folder = output_folder(out, what="the notebooks you work on")
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is a file, not a folder: choose another --out.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        record_path = folder / RECORD
        try:
            record = json.loads(record_path.read_text(encoding="utf-8")).get("notebooks", {})
        except (FileNotFoundError, ValueError, AttributeError):
            record = {}
        result = Copied(folder)
        for source in sorted(NOTEBOOKS.glob("*.ipynb")):
            target = folder / source.name
            shipped = _sha256(source)
            if not target.exists():
                outcome = result.copied
            elif (current := _sha256(target)) == shipped:
                result.unchanged.append(target)
                record[source.name] = shipped
                continue
            elif current == record.get(source.name):
                outcome = result.copied
            elif force:
                outcome = result.replaced
            else:
                result.kept.append(target)
                continue
            shutil.copyfile(source, target)
            record[source.name] = shipped
            outcome.append(target)
        record_path.write_text(
            json.dumps({"educatalog": __version__, "notebooks": record}, indent=2) + "\n",
            encoding="utf-8",
        )
    except OSError as exc:
        raise DataError(f"Cannot copy the notebooks into {folder}: {exc.strerror}.") from None
    return result
