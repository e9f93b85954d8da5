"""Run a Python module as a child process that ends when its parent does.

``python -m educatalog.tethered [--grace SECONDS] MODULE [ARG ...]`` runs ``python -m MODULE
ARG ...`` with one addition: a thread waits for the end of standard input, which the parent
keeps open and never writes to. The pipe ends when the parent does, however it ends (killed
included); the child then stops itself as a service manager would, with SIGTERM, and if it is
still there ``--grace`` seconds later, at once.

:func:`educatalog.dashboard.serve` starts Voilà like this, in a session of its own: Ctrl+C
then reaches the dashboard alone, which stops Voilà itself, and a dashboard that is killed
leaves no Voilà behind.

>>> import subprocess, sys
>>> child = subprocess.Popen(  # doctest: +SKIP
...     [sys.executable, "-m", "educatalog.tethered", "http.server", "--bind", "127.0.0.1"],
...     stdin=subprocess.PIPE,
... )
"""

from __future__ import annotations

import argparse
import os
import runpy
import signal
import sys
import threading
import time

__all__ = ["DEFAULT_GRACE", "main"]

DEFAULT_GRACE = 20.0
"""Seconds between the parent's end and the child's forced end, if SIGTERM did not stop it."""


def _follow_parent(grace: float) -> None:
    try:
        while os.read(0, 4096):  # the parent never writes: this waits for the pipe's end
            pass
    except OSError:
        pass
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(grace)
    os._exit(1)  # the module did not stop on SIGTERM


def main(argv: list[str] | None = None) -> None:
    """Run the module named in ``argv`` (default: the command line) tethered to the parent."""
    parser = argparse.ArgumentParser(prog="python -m educatalog.tethered")
    parser.add_argument("--grace", type=float, default=DEFAULT_GRACE, metavar="SECONDS")
    parser.add_argument("module")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if options.grace < 0:
        parser.error(f"--grace must not be negative, got {options.grace}")
    threading.Thread(
        target=_follow_parent, args=(options.grace,), name="tethered", daemon=True
    ).start()
    sys.argv = [options.module, *options.args]
    runpy.run_module(options.module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
