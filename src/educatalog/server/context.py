"""What the work of one request needs, carried as one object instead of long argument
lists: the server's :class:`Limits`, and for a read the :class:`Context` (the database, the
connection leased to the request, its guard and those limits)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from educatalog.server.guard import CHECK_STEPS, Guard, interruptible
from educatalog.server.search_index import Prefilter
from educatalog.server.store import Database

__all__ = [
    "FLAT_WHOLE_FACTOR",
    "MAX_RESPONSE_OBJECTS",
    "NESTED_STREAM_ROWS",
    "QUERY_TIME",
    "STREAM_CACHE_KIB",
    "STREAM_ROWS",
    "WALK_TICKS",
    "WHOLE_BYTES",
    "Context",
    "Limits",
]

QUERY_TIME = 10.0
"""Seconds of CPU time a query may take (plus 0.1 ms for every row it writes)."""

STREAM_ROWS = 5_000
"""Answers that may hold more rows than this (``limit=-1`` among them) are streamed."""

FLAT_WHOLE_FACTOR = 4
"""Pages that SQLite writes alone are read whole up to this many times the streaming
threshold in objects (20,000 events with every field: at most about 16 MB; nested
many-to-one objects count, so fewer rows with them): SQLite writes their array in one
statement, where a streamed page takes a Python bytes object a row (``limit=10000`` of
three fields 8.8 ms instead of 20 ms, one process)."""

NESTED_STREAM_ROWS = 500
"""Pages with expanded relations that may hold more rows than this are streamed too."""

WHOLE_BYTES = 1 << 20
"""An answer chosen to be streamed that ends within its first this many bytes (``limit=-1``
over a reference list, or a filter that matches little) is sent whole, with its length: read
in one worker call, not one a piece."""

STREAM_CACHE_KIB = 8_192
"""SQLite's page cache while a connection streams an answer (a scan reads each page once)."""

WALK_TICKS = 16
"""A walk's step budget is counted in this many calls of SQLite's progress handler."""

MAX_RESPONSE_OBJECTS = 5_000_000
"""JSON objects one answer may hold, nested ones counted each time they are written."""


@dataclass(frozen=True)
class Limits:
    """The bounds a server puts on every request.

    ``limit_max`` caps ``limit`` (None: no cap); ``query_time`` is the CPU time in seconds a
    query may take (plus 0.1 ms a row written; None: unbounded); answers that may hold more
    than ``stream_rows`` rows are streamed (None: never), unless they end within their
    first ``whole_bytes`` bytes; no answer holds more than ``max_objects`` JSON objects.
    """

    limit_max: int | None = None
    query_time: float | None = QUERY_TIME
    stream_rows: int | None = STREAM_ROWS
    max_objects: int = MAX_RESPONSE_OBJECTS
    whole_bytes: int = WHOLE_BYTES

    def guard(self) -> Guard:
        """A new guard for one request, with this server's time budget."""
        return Guard(self.query_time)


@dataclass
class Context:
    """What one read needs: the database, the connection leased to it, its guard, the
    server's limits and whether a search is narrowed by its index. Make one with
    :meth:`lease`."""

    db: Database
    conn: sqlite3.Connection
    guard: Guard
    limits: Limits = field(default_factory=Limits)
    steps: int = CHECK_STEPS
    """SQLite VM steps between two checks of the guard on this connection."""
    prefilter: Prefilter | None = None

    @classmethod
    @contextmanager
    def lease(
        cls,
        db: Database,
        guard: Guard | None = None,
        limits: Limits | None = None,
        *,
        cache_kib: int | None = None,
    ) -> Iterator[Context]:
        """A context with a connection of the database leased to it for the block (its
        progress handler is the guard's, every ``guard.steps``); ``cache_kib`` sets a
        smaller page cache."""
        guard = guard or Guard()
        with db.lease(guard.progress, guard.steps, cache_kib=cache_kib) as conn:
            prefilter = Prefilter(conn, db.search_indexes, lambda name: db.total_count(name, conn))
            yield cls(db, conn, guard, limits or Limits(), guard.steps, prefilter)

    @contextmanager
    def working(self) -> Iterator[None]:
        """Count this thread's CPU time against the guard, and turn an interrupted statement
        into the guard's error."""
        with self.guard.working(), interruptible(self.guard):
            yield

    @contextmanager
    def walk_budget(self, steps: int) -> Iterator[None]:
        """Interrupt the statements of the block after ``steps`` SQLite VM steps (the
        interruption's reason is then ``"walk"``; within one of :data:`WALK_TICKS` parts of
        ``steps``), with a few calls from SQLite instead of a check every few thousand
        steps; the guard's checks resume after the block."""
        self.guard.start_walk(WALK_TICKS)
        self.conn.set_progress_handler(self.guard.walk_spent, max(1, steps // WALK_TICKS))
        try:
            yield
        finally:
            self.conn.set_progress_handler(self.guard.progress, self.steps)
            if self.guard.reason == "walk":
                self.guard.reason = None
