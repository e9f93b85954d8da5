"""The documentation site built once for the tests that read it (tests/product/test_docs.py,
tests/browser/test_docs_site.py): ``docs/build.py`` into ``build/docs/test-html``, every page
read afresh, under a lock, so that the workers of one test run share one build."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SITE = REPO / "build" / "docs" / "test-html"


@dataclass
class Site:
    root: Path
    stderr: str
    error: str | None  # the failure of the build, if it failed


def built_site() -> Site:
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", f"pid-{os.getpid()}")
    SITE.parent.mkdir(parents=True, exist_ok=True)
    with open(SITE.parent / ".test-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp, log = SITE.parent / ".test-build.run", SITE.parent / ".test-build.log"
        if stamp.exists() and stamp.read_text() == run and log.exists():
            text = log.read_text(encoding="utf-8")
            failed = text.startswith("FAILED\n")
            return Site(SITE, text.removeprefix("FAILED\n"), text if failed else None)
        sys.path.insert(0, str(REPO / "docs"))
        import build  # docs/build.py

        try:
            stderr, error = build.build(SITE, fresh=True), None
        except subprocess.CalledProcessError as failure:
            stderr, error = failure.stderr or "", f"FAILED\n{failure.stderr}"
        log.write_text(error or stderr, encoding="utf-8")
        stamp.write_text(run)
        return Site(SITE, stderr, error)
