"""Where and when a request's reads run: slots for queries (:class:`FairShare`), a quick
read on the event loop (:func:`read_quickly`), and reads in worker threads that stop when
the client leaves (:func:`in_worker`)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from typing import Any, TypeAlias, TypeVar

import anyio
import anyio.to_thread
from starlette.requests import Request
from starlette.types import Receive

from educatalog.errors import InvalidQuery, ServiceUnavailable
from educatalog.server.context import Limits
from educatalog.server.guard import Guard, QueryTooLong
from educatalog.server.tuning import TUNING

__all__ = [
    "FairShare",
    "Slot",
    "guarded",
    "in_worker",
    "read_quickly",
]

log = logging.getLogger("educatalog.server")

T = TypeVar("T")

Slot: TypeAlias = tuple[object, list[anyio.CapacityLimiter]]
"""A slot of :class:`FairShare`: its owner token and the limiters it holds."""


class FairShare:
    """Bounded slots for queries, so that small requests (and ``/server/ping``) stay fast
    while expensive ones run: ``queries`` at once in all, of which ``heavy`` streamed
    answers; up to ``queue`` requests wait for a slot, any more get a 503 with
    ``Retry-After`` (which clients honour)."""

    def __init__(
        self,
        queries: int = TUNING.slots,
        heavy: int = TUNING.heavy_slots,
        queue: int = TUNING.slot_queue,
    ) -> None:
        self.queries = anyio.CapacityLimiter(queries)
        self.heavy = anyio.CapacityLimiter(heavy)
        self.queue = queue
        self.waiting = 0

    async def acquire(self, heavy: bool) -> Slot:
        """A slot (released by :meth:`release`); raises ServiceUnavailable when full."""
        token = object()
        taken: list[anyio.CapacityLimiter] = []
        try:
            for limiter in [self.heavy, self.queries] if heavy else [self.queries]:
                if limiter.available_tokens < 1 and self.waiting >= self.queue:
                    raise ServiceUnavailable(
                        "The server is busy with other queries; try again in a moment."
                    )
                self.waiting += 1
                try:
                    await limiter.acquire_on_behalf_of(token)
                finally:
                    self.waiting -= 1
                taken.append(limiter)
        except BaseException:
            self.release((token, taken))
            raise
        return token, taken

    @staticmethod
    def release(slot: Slot) -> None:
        token, taken = slot
        for limiter in taken:
            limiter.release_on_behalf_of(token)
        taken.clear()


async def read_quickly(
    request: Request, limits: Limits, read: Callable[[Guard], T], *, quick: bool = True
) -> T:
    """``read(guard)`` on the event loop under a quick guard (:meth:`Guard.quick`); when it
    needs more, again in a worker thread (:func:`in_worker`) under the server's budget.
    ``quick=False`` (an answer that may be large) goes to the worker thread at once.

    Handing a read to a worker thread and its answer back costs about 0.15 ms, a third of
    a small page's whole read: most reads are done on the loop before that. A longer one
    holds the loop for a few milliseconds at most, then starts over where it may take its
    time (reads change nothing, so doing one again is safe)."""
    if quick:
        try:
            return guarded(read, Guard.quick())
        except QueryTooLong:  # the quick guard's: not the request's error
            pass
    guard = limits.guard()
    return await in_worker(request, guard, read, guard)


async def in_worker(request: Request, guard: Guard, work: Callable[..., T], *args: Any) -> T:
    """Run ``work(*args)`` in a worker thread (see :func:`guarded`); cancel its guard when
    the client leaves.

    The watch for the client's leaving is a plain asyncio task (uvicorn's loop), cancelled
    when the work is done: an anyio task group around the two cost each request 0.2 ms
    more, most of it in formatting the reason of its cancel scope's cancellation."""
    watch = asyncio.get_running_loop().create_task(watch_disconnect(request.receive, guard))
    try:
        return await anyio.to_thread.run_sync(guarded, work, *args)
    finally:
        watch.cancel()


async def watch_disconnect(receive: Receive, guard: Guard) -> None:
    """Cancel ``guard`` when the client disconnects (or its connection fails)."""
    try:
        while (await receive())["type"] != "http.disconnect":
            pass
    except Exception:  # the connection broke: nobody waits for the answer either
        log.debug("receiving from a client failed; its query is cancelled", exc_info=True)
    guard.cancel()


def guarded(read: Callable[..., T], *args: Any) -> T:
    """Run a read; a query beyond what the database can evaluate is the client's 400."""
    try:
        return read(*args)
    except RecursionError:
        raise InvalidQuery("The query is nested too deeply to be evaluated.") from None
    except sqlite3.OperationalError as exc:
        if "interrupted" in str(exc):
            raise
        raise InvalidQuery(f"The query is too complex to be evaluated ({exc}).") from None
