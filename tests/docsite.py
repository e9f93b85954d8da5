"""The documentation site built once for the tests that read it (tests/product/test_docs.py,
tests/browser/test_docs_site.py): ``docs/build.py`` into ``build/docs/test-html``, every page
read afresh, under a lock, so that the workers of one test run share one build.

The gallery's notebooks (``docs/gallery.py``: every shipped notebook in both languages, run
in a fresh kernel against the embedded demo, as a reader's copy runs) are run first, under a
lock of their own, and only where a notebook or the package changed: they are also the runs
that tests/product/test_notebooks.py reads (:func:`rendered_gallery`), so that each notebook
runs once per language in a test run, not once for the site and once for the tests.
"""

from __future__ import annotations

import fcntl
import importlib
import os
import subprocess
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]
SITE = REPO / "build" / "docs" / "test-html"
GALLERY = REPO / "docs" / "gallery"
_rendered: list[bool] = []


@dataclass
class Site:
    root: Path
    stderr: str
    error: str | None  # the failure of the build, if it failed


def _this_run() -> str:
    return os.environ.get("PYTEST_XDIST_TESTRUNUID", f"pid-{os.getpid()}")


def _docs_module(name: str) -> ModuleType:
    if str(REPO / "docs") not in sys.path:
        sys.path.insert(0, str(REPO / "docs"))
    return importlib.import_module(name)  # docs/gallery.py, docs/build.py


def rendered_gallery() -> Path:
    """``docs/gallery/``: the executed notebooks of ``<lang>/<name>.ipynb``, run where they
    are not up to date (once a test run: the workers wait for it under a lock); raises
    AssertionError with the failure where running them failed, in this run or earlier."""
    if _rendered:
        return GALLERY
    SITE.parent.mkdir(parents=True, exist_ok=True)
    with open(SITE.parent / ".test-gallery.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        failed = SITE.parent / ".test-gallery.failed"
        if failed.exists():
            run, _, why = failed.read_text(encoding="utf-8").partition("\n")
            if run == _this_run():
                raise AssertionError(f"the gallery's notebooks failed to run:\n{why}")
            failed.unlink()
        try:
            _docs_module("gallery").render()
        except Exception:
            why = traceback.format_exc()
            failed.write_text(f"{_this_run()}\n{why}", encoding="utf-8")
            raise AssertionError(f"the gallery's notebooks failed to run:\n{why}") from None
    _rendered.append(True)  # once a process: the check reads every file of src/
    return GALLERY


def built_site() -> Site:
    rendered_gallery()  # first, under its own lock: the notebook tests read it too
    run = _this_run()
    with open(SITE.parent / ".test-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp, log = SITE.parent / ".test-build.run", SITE.parent / ".test-build.log"
        if stamp.exists() and stamp.read_text() == run and log.exists():
            text = log.read_text(encoding="utf-8")
            failed = text.startswith("FAILED\n")
            return Site(SITE, text.removeprefix("FAILED\n"), text if failed else None)
        try:
            stderr, error = _docs_module("build").build(SITE, fresh=True), None
        except subprocess.CalledProcessError as failure:
            stderr, error = failure.stderr or "", f"FAILED\n{failure.stderr}"
        log.write_text(error or stderr, encoding="utf-8")
        stamp.write_text(run)
        return Site(SITE, stderr, error)
