"""Files that a reader never finds half-written or silently changed: each is written beside
its target under a temporary name and moved over it only when complete (:func:`atomic_path`),
made durable before whatever points to it (:func:`durable`), checked by its SHA-256
(:func:`sha256`), and written by one process at a time (:func:`locked`).

>>> atomic_text(Path("manifest.json"), "{}")  # doctest: +SKIP
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

__all__ = ["atomic_path", "atomic_text", "atomic_write", "durable", "locked", "sha256"]

_BLOCK = 1 << 20
_POLL = 0.05


@contextmanager
def atomic_path(target: str | os.PathLike[str], *, mode: int = 0o644) -> Iterator[Path]:
    """A temporary path beside ``target`` to write to; moved over ``target`` when the block
    ends without an error (with the permissions ``mode``), removed when it fails.

    The temporary file is a hidden ``.NAME.*.partial`` in the same folder, so the move is
    atomic and nothing half-written is ever found under the target's name.
    """
    target = Path(target)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, mode)  # mkstemp creates files readable by the owner only
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write(target: str | os.PathLike[str], write: Callable[[Path], object]) -> Path:
    """Call ``write(path)`` on a temporary path and move it over ``target``; returns target."""
    with atomic_path(target) as tmp:
        write(tmp)
    return Path(target)


def atomic_text(target: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``target`` atomically and durably (flushed to disk)."""

    def write(tmp: Path) -> None:
        with tmp.open("w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())

    return atomic_write(target, write)


def sha256(file: str | os.PathLike[str]) -> str:
    """The SHA-256 of the file's bytes (hex), read in blocks of 1 MiB."""
    digest = hashlib.sha256()
    with Path(file).open("rb") as handle:
        for block in iter(lambda: handle.read(_BLOCK), b""):
            digest.update(block)
    return digest.hexdigest()


def durable(files: Iterable[str | os.PathLike[str]]) -> None:
    """Flush ``files`` and the folders holding them to disk, so that a manifest written
    after them never points to data a power cut lost (a killed process loses nothing)."""
    folders: set[Path] = set()
    for file in map(Path, files):
        with file.open("rb") as handle:
            os.fsync(handle.fileno())
        folders.add(file.parent)
    if sys.platform == "win32":  # pragma: no cover - folders cannot be opened there
        return
    for folder in folders:
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# ---------------------------------------------------------------------------------------
# one writer at a time


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
def locked(
    file: str | os.PathLike[str], *, wait: float, busy: Callable[[str, float], BaseException]
) -> Iterator[None]:
    """Hold an operating-system lock on ``file`` for the block (created if need be; it says
    which process holds it). Another holder is waited for up to ``wait`` seconds, then
    ``busy(holder, wait)`` is raised, ``holder`` being e.g. ``"process 123 (since ...)"``.
    The lock is released when the process ends, however it ends."""
    file = Path(file)
    file.parent.mkdir(parents=True, exist_ok=True)
    with file.open("a+", encoding="utf-8") as handle:
        deadline = time.monotonic() + max(wait, 0.0)
        while not _try_lock(handle):
            if time.monotonic() >= deadline:
                handle.seek(0)
                raise busy(handle.read().strip() or "another process", wait)
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
