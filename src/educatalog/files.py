"""Writing files so that a reader never sees half of one: each is written beside its target
under a temporary name and moved over it only when complete.

>>> atomic_text(Path("manifest.json"), "{}")  # doctest: +SKIP
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["atomic_path", "atomic_text", "atomic_write"]


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
