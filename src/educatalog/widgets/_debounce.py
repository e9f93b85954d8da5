"""Debouncing without widgets: an action that runs once, ``delay`` seconds after the last
of a quick series of changes. When it runs is up to a scheduler given to it (a background
``threading.Timer`` by default), so that tests can run the pause by hand, without threads.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

__all__ = ["Debouncer", "Handle", "Scheduler", "thread_timer"]


class Handle(Protocol):
    """A scheduled call that can be called off."""

    def cancel(self) -> None:
        """Call it off (nothing when it ran already)."""


Scheduler = Callable[[float, Callable[[], None]], Handle]
"""Calls a function after a delay in seconds (on some thread); returns its :class:`Handle`."""


def thread_timer(delay: float, callback: Callable[[], None]) -> Handle:
    """``callback`` after ``delay`` seconds on a daemon thread (a ``threading.Timer``)."""
    timer = threading.Timer(delay, callback)
    timer.daemon = True
    timer.start()
    return timer


class Debouncer:
    """Runs ``action`` ``delay`` seconds after the last :meth:`poke` (at once when the delay
    is 0), or on :meth:`flush`. A poke while the action runs makes it due again."""

    def __init__(
        self,
        action: Callable[[], None],
        delay: float,
        *,
        scheduler: Scheduler = thread_timer,
        on_error: Callable[[Exception], None] | None = None,
    ) -> None:
        self.action = action
        self.delay = delay
        self.on_error = on_error
        """Told what a scheduled run raised (nobody waits on it to see it)."""
        self._scheduler = scheduler
        self._lock = threading.RLock()
        self._idle = threading.Condition(self._lock)
        self._handle: Handle | None = None
        self._token: object | None = None  # the scheduled run that counts
        self._due = False  # a run is waiting or running
        self._pokes = 0
        self._held = 0

    @property
    def lock(self) -> threading.RLock:
        """Held while the action runs."""
        return self._lock

    @property
    def pending(self) -> bool:
        """Whether a run is still waiting or running."""
        return self._due

    def poke(self) -> None:
        """Something changed: run the action after the pause (held: when the hold ends)."""
        self._pokes += 1
        if self._held:
            return
        if self.delay <= 0:
            self.run()
            return
        with self._lock:
            self._cancel()
            token = self._token = object()
            self._due = True
            self._handle = self._scheduler(self.delay, lambda: self._fire(token))

    def run(self) -> None:
        """Run the action now (a scheduled run is called off)."""
        with self._lock:
            self._cancel()
            pokes = self._pokes
            try:
                self.action()
            finally:
                if self._pokes == pokes:  # no change came in meanwhile
                    self._due = False
                self._idle.notify_all()

    def flush(self) -> None:
        """Run a waiting action now (nothing when none is waiting)."""
        with self._lock:
            if self._due:
                self.run()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until nothing is pending; False if ``timeout`` seconds passed."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._due, timeout)

    def close(self) -> None:
        """Call off a waiting run."""
        with self._lock:
            self._cancel()
            self._due = False
            self._idle.notify_all()

    @contextmanager
    def holding(self) -> Iterator[None]:
        """Pokes in the block count as one, at its end."""
        self._held += 1
        try:
            yield
        finally:
            self._held -= 1
        self.poke()

    def _fire(self, token: object) -> None:
        with self._lock:
            if self._token is not token:
                return  # called off or replaced meanwhile
            self._token = self._handle = None
            try:
                self.run()
            except Exception as error:  # told, as nobody waits on this thread
                self._due = False
                self._idle.notify_all()
                if self.on_error is None:
                    raise
                self.on_error(error)

    def _cancel(self) -> None:
        handle, self._handle, self._token = self._handle, None, None
        if handle is not None:
            handle.cancel()
