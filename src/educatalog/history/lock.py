"""One writer at a time: :func:`~educatalog.history.add` holds an operating-system lock on
the archive's ``.archive.lock`` while it writes (:func:`educatalog.files.atomic.locked`), so that
two concurrent additions (two ``educatalog fetch --archive`` runs, two cron jobs) never
write over each other's files. The second waits for the first, up to a timeout, then fails
with :class:`ArchiveError`.

The lock is released when the process ends, however it ends: a crashed writer never leaves
the archive locked.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from educatalog.errors import ArchiveError
from educatalog.files import atomic as files
from educatalog.history.format import LOCK_FILE

__all__ = ["locked"]


@contextmanager
def locked(folder: Path, *, wait: float) -> Iterator[None]:
    """Hold the archive's lock for the block; wait up to ``wait`` seconds for another
    writer, then raise :class:`ArchiveError` naming it."""

    def busy(holder: str, waited: float) -> ArchiveError:
        return ArchiveError(
            f"The archive {folder} is busy: {holder} is adding a snapshot to it "
            f"(waited {waited:g} s). Try again when it is done, or pass a longer wait."
        )

    with files.locked(folder / LOCK_FILE, wait=wait, busy=busy):
        yield
