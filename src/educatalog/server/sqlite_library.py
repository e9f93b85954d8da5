"""The process's SQLite library set up for reads in parallel threads
(:func:`serve_reads_in_parallel`).

SQLite counts every allocation it makes under one mutex for the whole process unless it is
told otherwise before it starts (``SQLITE_CONFIG_MEMSTATUS``). Reads in several threads
then queue for that mutex: two threads building pages of events took twice the CPU time of
one, and were slower than one thread alone; without the counting they take half the time
of one (``benchmarks/sqlite_threads.py``). Python's :mod:`sqlite3` starts SQLite
when it is imported and offers no ``sqlite3_config``, so a process about to serve shuts
SQLite down, turns the counting off and starts it again, through the very library the
:mod:`sqlite3` module is linked with. That is only safe while the process holds no SQLite
connection at all, which SQLite's own count of the memory in use tells (zero).
"""

from __future__ import annotations

import ctypes
import logging
import sys
from typing import Any

__all__ = ["memory_in_use", "serve_reads_in_parallel"]

log = logging.getLogger("educatalog.server")

SQLITE_OK = 0
SQLITE_CONFIG_MEMSTATUS = 9  # sqlite3.h; the same in every release since 3.6


def _library() -> Any | None:
    """The SQLite library :mod:`sqlite3` uses (its symbols looked up through the extension
    module, so a copy linked into it statically is found too); None where it cannot be
    reached: other systems than Linux, a library whose symbols are hidden."""
    if sys.platform != "linux":
        return None
    import _sqlite3

    try:
        lib = ctypes.CDLL(_sqlite3.__file__)
        lib.sqlite3_memory_used.restype = ctypes.c_int64
        lib.sqlite3_config.argtypes = [ctypes.c_int, ctypes.c_int]
    except (OSError, AttributeError):
        return None
    return lib


def memory_in_use() -> int | None:
    """Bytes SQLite has allocated in this process, as it counts them: 0 when it holds no
    connection, or when it counts nothing (after :func:`serve_reads_in_parallel`); None
    where the library cannot be reached."""
    lib = _library()
    return None if lib is None else int(lib.sqlite3_memory_used())


def serve_reads_in_parallel() -> bool:
    """Turn SQLite's count of its memory off for this process, so that reads in several
    threads do not queue for its mutex; True when done.

    Does nothing (False) where the library cannot be reached, or when the process holds a
    SQLite connection (the count is not zero), because SQLite may only be shut down without
    one. The server's command calls it first thing, before it opens any database; call it
    so, in a process with no other thread using SQLite.
    """
    lib = _library()
    if lib is None or lib.sqlite3_memory_used() != 0:
        log.debug("SQLite's memory statistics stay on (a connection is open, or no library)")
        return False
    if lib.sqlite3_shutdown() != SQLITE_OK:
        return False
    done = lib.sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK
    if lib.sqlite3_initialize() != SQLITE_OK:  # pragma: no cover - SQLite cannot start
        raise RuntimeError("SQLite could not be started again after its configuration.")
    return bool(done)
