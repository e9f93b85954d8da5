"""What the work of one request needs, carried as one object instead of long argument
lists: the server's :class:`Limits`, and for a read the :class:`Context` (the database, the
connection leased to the request, its guard and those limits)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from educatalog.server import tuning
from educatalog.server.guard import Guard, interruptible
from educatalog.server.search_index import Prefilter
from educatalog.server.store import Database
from educatalog.server.tuning import TUNING

__all__ = ["Context", "Limits"]


@dataclass(frozen=True)
class Limits:
    """The bounds a server puts on every request.

    ``limit_max`` caps ``limit`` (None: no cap); ``query_time`` is the CPU time in seconds a
    query may take (plus 0.1 ms a row written; None: unbounded); answers that may hold more
    than ``stream_rows`` rows are streamed (None: never), unless they end within their
    first ``whole_bytes`` bytes; no answer holds more than ``max_objects`` JSON objects.
    """

    limit_max: int | None = None
    query_time: float | None = TUNING.query_time
    stream_rows: int | None = TUNING.stream_rows
    max_objects: int = TUNING.max_response_objects
    whole_bytes: int = TUNING.whole_bytes

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
    steps: int = TUNING.check_steps
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
        interruption's reason is then ``"walk"``; within one of ``walk_ticks`` parts of
        ``steps``), with a few calls from SQLite instead of a check every few thousand
        steps; the guard's checks resume after the block."""
        ticks = tuning.TUNING.walk_ticks
        self.guard.start_walk(ticks)
        self.conn.set_progress_handler(self.guard.walk_spent, max(1, steps // ticks))
        try:
            yield
        finally:
            self.conn.set_progress_handler(self.guard.progress, self.steps)
            if self.guard.reason == "walk":
                self.guard.reason = None
