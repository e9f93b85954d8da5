"""Run a Python module as a child process that ends when its parent does.

``python -m educatalog.jupyter.tethered [--grace SECONDS] MODULE [ARG ...]`` runs ``python -m MODULE
ARG ...`` with one addition: a thread waits for the end of standard input, a pipe that the
parent keeps open and never writes to (anything else is refused). The pipe ends when the
parent does, however it ends (killed included); the child then stops itself as a service
manager would, with SIGTERM, and if it is still there ``--grace`` seconds later, at once.
:func:`command` gives the command line, which runs this file without importing the
``educatalog`` package (pandas and all) into the child.

:func:`educatalog.cli.dashboard.serve` starts Voilà like this, in a session of its own: Ctrl+C
then reaches the dashboard alone, which stops Voilà itself, and a dashboard that is killed
leaves no Voilà behind. POSIX only: on Windows, SIGTERM ends a process at once.

>>> import subprocess
>>> child = subprocess.Popen(  # doctest: +SKIP
...     command("http.server", "--bind", "127.0.0.1"), stdin=subprocess.PIPE
... )
"""

from __future__ import annotations

import argparse
import os
import runpy
import signal
import stat
import sys
import threading
import time

__all__ = ["DEFAULT_GRACE", "command", "main"]

DEFAULT_GRACE = 20.0
"""Seconds between the parent's end and the child's forced end, if SIGTERM did not stop it."""


def command(module: str, *args: str, grace: float = DEFAULT_GRACE) -> list[str]:
    """The command line that runs ``python -m module args`` tethered to its parent (give
    it ``stdin=subprocess.PIPE``). It runs this file by its path: ``-m educatalog.jupyter.tethered``
    would import the whole package into the child first."""
    bootstrap = f"import runpy; runpy.run_path({os.path.abspath(__file__)!r}, run_name='__main__')"
    return [sys.executable, "-c", bootstrap, "--grace", repr(grace), module, *args]


def _is_pipe(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _follow_parent(grace: float) -> None:
    try:
        while os.read(0, 4096):  # the parent never writes: this waits for the pipe's end
            pass
    except OSError:
        pass
    main = threading.main_thread().ident
    if hasattr(signal, "pthread_kill") and main is not None:
        # to the main thread, where Python runs signal handlers: it wakes at once
        signal.pthread_kill(main, signal.SIGTERM)
    else:
        os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(grace)
    os._exit(1)  # the module did not stop on SIGTERM


def main(argv: list[str] | None = None) -> None:
    """Run the module named in ``argv`` (default: the command line) tethered to the parent."""
    parser = argparse.ArgumentParser(prog="python -m educatalog.jupyter.tethered")
    parser.add_argument("--grace", type=float, default=DEFAULT_GRACE, metavar="SECONDS")
    parser.add_argument("module")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if options.grace < 0:
        parser.error(f"--grace must not be negative, got {options.grace}")
    if not _is_pipe(0):
        parser.error(
            "standard input must be a pipe that the parent holds open (its end ends the "
            f"child): run {options.module} with stdin=subprocess.PIPE"
        )
    threading.Thread(
        target=_follow_parent, args=(options.grace,), name="tethered", daemon=True
    ).start()
    sys.argv = [options.module, *options.args]
    runpy.run_module(options.module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
