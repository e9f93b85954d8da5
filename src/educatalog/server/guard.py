"""The budget and cancellation of one request's work on the database: a :class:`Guard`
checked by SQLite's progress handler and between chunks, and the errors it raises."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from educatalog.errors import QueryTooLong
from educatalog.server import tuning
from educatalog.server.tuning import TUNING

__all__ = [
    "Cancelled",
    "Guard",
    "QueryTooLong",
    "interruptible",
]


class Cancelled(Exception):
    """The client went away: the work of its request was stopped."""


class Guard:
    """The budget and cancellation of one request's work on the database.

    The budget is CPU time of the threads doing the work (so that waiting for a core or for
    a slow client costs nothing): ``budget`` seconds, plus ``per_row`` seconds for every row
    already written, so that a large answer may take its time while a query that burns CPU
    without producing rows is stopped. SQLite calls :meth:`progress` every ``steps`` VM
    steps; Python code calls :meth:`check` between chunks.
    """

    def __init__(
        self,
        budget: float | None = None,
        per_row: float = 1e-4,
        steps: int = TUNING.check_steps,
        *,
        on_loop: bool = False,
    ) -> None:
        self.budget = budget
        self.per_row = per_row
        self.steps = steps
        self.on_loop = on_loop
        """A quick attempt on the event loop (:meth:`quick`), started over elsewhere when
        it runs out."""
        self.rows = 0
        self.spent = 0.0
        self._since: float | None = None
        self._cancelled = threading.Event()
        self.reason: str | None = None
        self._walk_left = 0

    @classmethod
    def quick(cls) -> Guard:
        """The guard of a read tried on the event loop: ``quick_time`` of CPU, checked every
        ``quick_steps`` (:class:`~.tuning.Tuning`); its :class:`QueryTooLong` means "run it
        in a worker"."""
        numbers = tuning.TUNING
        return cls(numbers.quick_time, per_row=0.0, steps=numbers.quick_steps, on_loop=True)

    def cancel(self) -> None:
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    @contextmanager
    def working(self) -> Iterator[None]:
        """Count the CPU time of this thread while the block runs."""
        self._since = time.thread_time()
        try:
            yield
        finally:
            self.spent += time.thread_time() - self._since
            self._since = None

    def _over(self) -> bool:
        if self.budget is None:
            return False
        now = self.spent + (time.thread_time() - self._since if self._since is not None else 0)
        return now > self.budget + self.per_row * self.rows

    def progress(self) -> int:
        """SQLite's progress handler: nonzero interrupts the statement."""
        if self._cancelled.is_set():
            self.reason = "cancelled"
            return 1
        if self._over():
            self.reason = "time"
            return 1
        return 0

    def check(self) -> None:
        """Raise when the request was cancelled or its time is up."""
        if self._cancelled.is_set():
            raise Cancelled
        if self._over():
            raise self.too_long()

    def too_long(self) -> QueryTooLong:
        return QueryTooLong(
            f"The query needed more than {self.budget:g} s of the server's time "
            "(and more for each row written): narrow the filter or the search, or ask for "
            "fewer rows or relations."
        )

    def interrupted(self, exc: sqlite3.OperationalError) -> Exception:
        """The error to raise for an interrupted statement."""
        if self.reason == "cancelled" or self._cancelled.is_set():
            return Cancelled()
        if self.reason == "time":
            return self.too_long()
        return exc

    def start_walk(self, ticks: int) -> None:
        """Begin a walk with a step budget of ``ticks`` calls of :meth:`walk_spent`."""
        self._walk_left = ticks

    def walk_spent(self) -> int:
        """The progress handler of a walk with a step budget (:meth:`Context.walk_budget
        <educatalog.server.context.Context.walk_budget>`): its last tick interrupts the
        statement; any tick does when the request is cancelled or out of time.

        SQLite counts a prepared statement's steps across its runs, and Python reuses a
        statement of the same text: the first call comes after fewer steps than the others
        (those left of the last run's count). Ticks keep that error to one tick of many;
        one call at the whole budget left a repeated page a random part of it."""
        if self.progress():
            return 1
        self._walk_left -= 1
        if self._walk_left > 0:
            return 0
        self.reason = "walk"
        return 1


@contextmanager
def interruptible(guard: Guard) -> Iterator[None]:
    """Turn an interrupted statement of the block into the guard's error."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        if "interrupted" in str(exc):
            raise guard.interrupted(exc) from None
        raise
