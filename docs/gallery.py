"""The gallery's notebooks: the shipped notebooks in one language each, run with their outputs.

``educatalog notebooks --out DIR --lang de|en`` writes the one-language copies; each runs top
to bottom in a fresh kernel (:func:`educatalog.report.execute_notebook`) against the embedded
demo server, as a reader's copy does without a service configured, in a scratch folder
under ``build/docs/`` (what a notebook writes stays there), and the executed copy goes to
``docs/gallery/<lang>/``, which Sphinx renders (MyST-NB) without running it again.

Running them takes a minute or two, so the executed copies are kept and made again only when
a notebook, the package or what is installed changed (the key: a checksum of ``notebooks/``,
``src/`` and the installed versions).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
GALLERY = DOCS / "gallery"
SCRATCH = ROOT / "build" / "docs" / "gallery-run"
LANGS = ("de", "en")


def key() -> str:
    """A checksum of the notebooks, the package and the versions installed beside it."""
    from importlib import metadata

    digest = hashlib.sha256()
    installed = sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions())
    digest.update("\n".join(installed).encode())
    for folder in (ROOT / "notebooks", ROOT / "src"):
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(ROOT).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def _run(source: Path, target: Path) -> None:
    import nbformat

    from educatalog.report import execute_notebook

    folder = SCRATCH / target.parent.name / source.stem
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    notebook = execute_notebook(source, cwd=folder, timeout=600)  # no service: the demo
    if not any(
        cell.cell_type == "markdown" and cell.source.startswith("# ") for cell in notebook.cells
    ):  # the report notebook writes its headings as outputs: a title for its page
        title = TITLES[target.parent.name].format(name=source.stem)
        notebook.cells.insert(0, nbformat.v4.new_markdown_cell(title))  # type: ignore[no-untyped-call]
    nbformat.write(notebook, target)  # type: ignore[no-untyped-call]


TITLES = {
    "de": "# {name}: der Bericht\n\nDas Notebook, das `educatalog report` ausführt.",
    "en": "# {name}: the report\n\nThe notebook `educatalog report` runs.",
}


def render(workers: int = 2) -> bool:
    """Run the notebooks into docs/gallery/<lang>/ unless they are up to date; True if run."""
    stamp = GALLERY / ".executed"
    wanted = key()
    if stamp.exists() and stamp.read_text(encoding="utf-8") == wanted:
        return False
    jobs = []
    for lang in LANGS:
        copies = SCRATCH / f"copies-{lang}"
        shutil.rmtree(copies, ignore_errors=True)
        command = ["notebooks", "--out", str(copies), "--lang", lang]
        subprocess.run(
            [sys.executable, "-m", "educatalog", *command],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        out = GALLERY / lang
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        jobs += [(source, out / source.name) for source in sorted(copies.glob("*.ipynb"))]
    for name in ("EDUCATALOG_URL", "EDUCATALOG_TOKEN"):
        os.environ.pop(name, None)
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(lambda job: _run(*job), jobs))
    stamp.write_text(wanted, encoding="utf-8")
    return True
