"""The user's own folders: the shipped notebooks copied to where the user works, in the
reader's language, the rule that nothing a notebook, the report or the explorer writes lands
inside the installed package, and the cache where educatalog keeps what it builds once (the
demo's and snapshots' databases).

>>> copy_notebooks("notebooks")              # German (the default)  # doctest: +SKIP
>>> copy_notebooks("notebooks-en", lang="en")  # doctest: +SKIP

The notebooks have one source in both languages (the repository's top-level ``notebooks/``,
shipped in the package as ``educatalog/notebooks``): a cell that speaks to the reader comes
twice, tagged ``lang:de`` and ``lang:en``, one after the other; every other cell is shared.
:func:`localize` keeps the cells of one language, so a copy speaks one language, and the
German and English copies run the same code (``tests/product/test_notebook_languages.py``
compares them cell by cell).
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from educatalog import texts
from educatalog._version import __version__
from educatalog.errors import DataError, UsageError, require

__all__ = [
    "NOTEBOOKS",
    "PACKAGE",
    "Copied",
    "cache_dir",
    "copy_notebooks",
    "inside_package",
    "localize",
    "notebook",
    "output_folder",
]

PACKAGE = Path(__file__).resolve().parent.parent
"""The installed ``educatalog`` package (``src/educatalog`` in the repository)."""


def _shipped_notebooks() -> Path:
    """``educatalog/notebooks`` in an installed package; in a source checkout (an editable
    install), the repository's top-level ``notebooks/``, their one source."""
    installed = PACKAGE / "notebooks"
    if installed.is_dir() or PACKAGE.parent.name != "src":
        return installed
    return PACKAGE.parent.parent / "notebooks"


NOTEBOOKS = _shipped_notebooks()
"""The ready-made notebooks shipped with the package, German and English cells side by side;
users work on copies of them in one language
(:func:`~educatalog.files.workspace.copy_notebooks`)."""

LANG_TAG = "lang:{lang}"
"""The tag of a cell that speaks one language: ``lang:de`` or ``lang:en``."""

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
    """Whether ``path`` is the installed package's folder or lies inside it, or in the
    shipped notebooks' folder (in a source checkout, the repository's ``notebooks/``)."""
    resolved = Path(path).expanduser().resolve()
    return any(
        resolved == folder or folder in resolved.parents
        for folder in (PACKAGE, NOTEBOOKS.resolve())
    )


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


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def cell_lang(cell: Any) -> str | None:
    """The language a cell is tagged with (``lang:de`` -> ``"de"``), or None for a shared
    cell."""
    tags = [t for t in cell.get("metadata", {}).get("tags", []) if t.startswith("lang:")]
    return tags[0].removeprefix("lang:") if tags else None


def localize(nb: Any, lang: str = texts.DEFAULT_LANG) -> Any:
    """A copy of the bilingual notebook ``nb`` that speaks ``lang`` only: its shared cells
    and the cells tagged ``lang:<lang>`` (their tag removed), in order; the language in
    the notebook's metadata (``educatalog.lang``)."""
    lang = texts.check_lang(lang)
    out = copy.deepcopy(nb)
    cells = []
    for cell in out.cells:
        spoken = cell_lang(cell)
        if spoken not in (None, lang):
            continue
        if spoken is not None:
            tags = [t for t in cell.metadata["tags"] if t != LANG_TAG.format(lang=lang)]
            if tags:
                cell.metadata["tags"] = tags
            else:
                del cell.metadata["tags"]
        cell.pop("id", None)  # ids are made anew below: unique in the copy
        cells.append(cell)
    out.cells = cells
    out.metadata["educatalog"] = {"lang": lang}
    for index, cell in enumerate(out.cells):
        cell["id"] = f"{lang}-{index:02d}"
    return out


def notebook(name: str, lang: str = texts.DEFAULT_LANG) -> Any:
    """The shipped notebook called ``name`` (with or without ``.ipynb``) in ``lang``."""
    stem = name.removesuffix(".ipynb")
    path = NOTEBOOKS / f"{stem}.ipynb"
    if not path.is_file():
        available = ", ".join(sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")))
        raise UsageError(f'No notebook "{name}"; the shipped notebooks are: {available}.')
    require("report", "nbformat", what="A notebook")
    import nbformat  # here, not at the top: it imports jsonschema, seconds of start-up

    return localize(nbformat.read(path, as_version=4), lang)  # type: ignore[no-untyped-call]


def _notebook_bytes(nb: Any) -> bytes:
    import nbformat

    text: str = nbformat.writes(nb)  # type: ignore[no-untyped-call]
    return (text + "\n").encode("utf-8")


def copy_notebooks(
    out: str | os.PathLike[str], *, force: bool = False, lang: str = texts.DEFAULT_LANG
) -> Copied:
    """Copy the shipped notebooks into the folder ``out`` (created if needed), in ``lang``
    (``"de"``, the default, or ``"en"``): prose, tables and charts in that language.

    A copy the user has edited is kept unless ``force`` is true; a copy that is still as
    educatalog wrote it (this version or an earlier one, in either language) is brought up
    to date.
    """
    lang = texts.check_lang(lang)
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
            data = _notebook_bytes(notebook(source.stem, lang))
            shipped = _sha256(data)
            if not target.exists():
                outcome = result.copied
            elif (current := _sha256(target.read_bytes())) == shipped:
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
            target.write_bytes(data)
            record[source.name] = shipped
            outcome.append(target)
        record_path.write_text(
            json.dumps({"educatalog": __version__, "lang": lang, "notebooks": record}, indent=2)
            + "\n",
            encoding="utf-8",
        )
    except OSError as exc:
        raise DataError(f"Cannot copy the notebooks into {folder}: {exc.strerror}.") from None
    return result
