"""Build the documentation site: ``make docs`` (or ``python docs/build.py [OUT]``).

The gallery's notebooks are run first where they changed (``docs/gallery.py``); then Sphinx
builds ``docs/`` into ``build/docs/html`` (or OUT), offline, every warning an error
(``-W --keep-going``: all of them are reported before it fails).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
OUT = ROOT / "build" / "docs" / "html"


def build(out: Path = OUT, *, fresh: bool = False) -> str:
    """Build the site into ``out`` (``fresh``: every page read again, so that every warning
    is reported); return what Sphinx printed on stderr. Raises CalledProcessError on a
    warning."""
    sys.path.insert(0, str(DOCS))
    import gallery

    if gallery.render():
        print("The gallery's notebooks were run again.")
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q"]
    if fresh:
        command.append("-E")
    done = subprocess.run(
        [*command, str(DOCS), str(out)], stderr=subprocess.PIPE, text=True, check=False
    )
    sys.stderr.write(done.stderr)
    if done.returncode:
        raise subprocess.CalledProcessError(done.returncode, command, stderr=done.stderr)
    return done.stderr


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    started = time.monotonic()
    try:
        build(out)
    except subprocess.CalledProcessError:
        return 1
    print(f"The site is in {out / 'index.html'} ({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
