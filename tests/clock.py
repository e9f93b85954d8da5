"""A scheduler for debounced updates (:mod:`educatalog.widgets._debounce`) whose time
passes only when a test says so: the pause runs by hand, without threads or sleeps."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Call", "Clock"]


class Clock:
    """A scheduler whose time passes when a test says so (:meth:`advance`)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.calls: list[Call] = []

    def __call__(self, delay: float, callback: Callable[[], None]) -> Call:
        call = Call(self.now + delay, callback)
        self.calls.append(call)
        return call

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for call in list(self.calls):
            if not call.cancelled and not call.ran and call.due <= self.now:
                call.ran = True
                call.callback()


class Call:
    def __init__(self, due: float, callback: Callable[[], None]) -> None:
        self.due, self.callback = due, callback
        self.cancelled = self.ran = False

    def cancel(self) -> None:
        self.cancelled = True
