"""What every command of the ``educatalog`` command line shares: argument types, how a
command fails and speaks, and SIGTERM taken as Ctrl+C."""

from __future__ import annotations

import argparse
import sys

__all__ = ["fail", "interrupt_on_sigterm", "positive_float", "positive_int", "say"]


def positive_int(text: str) -> int:
    """An argument that must be a whole number above 0 (argparse ``type=``)."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def positive_float(text: str) -> float:
    """An argument that must be a number above 0 (argparse ``type=``)."""
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


def fail(command: str, message: str, status: int = 1) -> int:
    """Say on standard error why ``educatalog COMMAND`` failed; returns its exit status."""
    print(f"educatalog {command}: {message}", file=sys.stderr)
    return status


def say(line: str) -> None:
    """One line of progress to standard output, at once (not buffered)."""
    print(line, flush=True)


def interrupt_on_sigterm(*, bound: float | None = None) -> None:
    """Turn SIGTERM into KeyboardInterrupt, so that clean-ups run as on Ctrl+C.

    With ``bound``, a process still running ``bound`` seconds after the first Ctrl+C or
    SIGTERM prints where each of its threads waits (to standard error) and exits with
    status 1: a clean-up that hangs cannot keep it, and says where it hung.
    """
    import faulthandler
    import signal

    armed = False

    def interrupt(signum: int, frame: object) -> None:
        nonlocal armed
        if bound is not None and not armed:
            armed = True
            faulthandler.dump_traceback_later(bound, exit=True)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    if bound is not None:
        signal.signal(signal.SIGINT, interrupt)
