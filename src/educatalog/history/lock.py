"""One writer at a time: :func:`~educatalog.history.add` holds an operating-system lock on
the archive's ``.archive.lock`` while it writes, so that two concurrent additions (two
``educatalog fetch --archive`` runs, two cron jobs) never write over each other's files.
The second waits for the first, up to a timeout, then fails with :class:`ArchiveError`.

The lock is released when the process ends, however it ends: a crashed writer never leaves
the archive locked.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from educatalog.errors import ArchiveError
from educatalog.history.format import LOCK_FILE

__all__ = ["locked"]

_POLL = 0.05


def _try_lock(handle: IO[str]) -> bool:
    """Take the lock without waiting; False when another process holds it."""
    if sys.platform == "win32":  # pragma: no cover - tested on Linux
        import msvcrt

        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _unlock(handle: IO[str]) -> None:
    if sys.platform == "win32":  # pragma: no cover - tested on Linux
        import msvcrt

        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


@contextmanager
def locked(folder: Path, *, wait: float) -> Iterator[None]:
    """Hold the archive's lock for the block; wait up to ``wait`` seconds for another
    writer, then raise :class:`ArchiveError` naming it."""
    folder.mkdir(parents=True, exist_ok=True)
    file = folder / LOCK_FILE
    with file.open("a+", encoding="utf-8") as handle:
        deadline = time.monotonic() + max(wait, 0.0)
        while not _try_lock(handle):
            if time.monotonic() >= deadline:
                handle.seek(0)
                holder = handle.read().strip() or "another process"
                raise ArchiveError(
                    f"The archive {folder} is busy: {holder} is adding a snapshot to it "
                    f"(waited {wait:g} s). Try again when it is done, or pass a longer wait."
                )
            time.sleep(_POLL)
        try:
            handle.seek(0)
            handle.truncate()
            now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
            handle.write(f"process {os.getpid()} (since {now})")
            handle.flush()
            yield
        finally:
            handle.seek(0)
            handle.truncate()
            handle.flush()
            _unlock(handle)
