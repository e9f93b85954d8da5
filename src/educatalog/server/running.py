"""Running a request's reads: slots for queries (:class:`FairShare`), a quick read on the
event loop (:func:`read_quickly`), reads in worker threads that stop when the client leaves
(:func:`in_worker`), and answers streamed piece by piece (:class:`StreamedAnswer`), or sent
in the pieces they were read in (:class:`PiecewiseAnswer`)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any, TypeAlias, TypeVar

import anyio
import anyio.to_thread
import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from educatalog.errors import EducatalogError, InvalidQuery, ServiceUnavailable, error_body
from educatalog.server.context import Limits
from educatalog.server.guard import Cancelled, Guard, QueryTooLong

__all__ = [
    "QUICK_OBJECTS",
    "QUICK_ROWS",
    "FairShare",
    "PiecewiseAnswer",
    "Slot",
    "StreamedAnswer",
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

    def __init__(self, queries: int = 8, heavy: int = 2, queue: int = 32) -> None:
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


QUICK_OBJECTS = 500
"""Answers built in Python that can hold more JSON objects than this are read in a worker
thread at once (a page of 1,000 events takes several milliseconds): :func:`read_quickly`."""

QUICK_FLAT_OBJECTS = 1_500
"""The same for answers that SQLite writes alone (:func:`~educatalog.server.items.is_flat`),
about 1,500 objects a millisecond: 492 events with their address's city took 0.7 ms."""

QUICK_ROWS = 5_000
"""Reads of a collection with more rows than this are read in a worker thread at once (a
filter, a count or a page of a million events takes milliseconds): :func:`read_quickly`."""


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


class PiecewiseAnswer(Response):
    """A 200 JSON answer whose body, known in full, is sent in the pieces it was built from
    (a page's rows between its opening and its meta counts), with their total length as
    ``Content-Length``: the rows, a megabyte for a page of 1,000 events, are not copied
    again to join them."""

    def __init__(self, pieces: list[bytes], headers: dict[str, str]) -> None:
        super().__init__(media_type="application/json", headers=headers)
        self.pieces = [piece for piece in pieces if piece]
        self.headers["content-length"] = str(sum(map(len, self.pieces)))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        last = len(self.pieces) - 1
        for i, piece in enumerate(self.pieces):
            await send({"type": "http.response.body", "body": piece, "more_body": i < last})
        if not self.pieces:  # pragma: no cover - a JSON body is never empty
            await send({"type": "http.response.body", "body": b"", "more_body": False})


class StreamedAnswer(Response):
    """A 200 answer whose body is written piece by piece as worker threads produce it.

    When the client disconnects, the guard is cancelled and production stops; ``finish``
    then runs in a worker thread (it closes what produced the pieces) and ``done`` on the
    event loop (it gives back the query's slot: anyio's limiters are not thread-safe). An error
    after the status was sent (the time budget ran out) ends the body with the error
    beside the rows sent so far: ``{"data": [...], "errors": [...]}``, which clients treat
    as an error.
    """

    def __init__(
        self,
        first: list[bytes],
        pieces: Iterator[bytes],
        guard: Guard,
        finish: Callable[[], None],
        done: Callable[[], None],
        headers: dict[str, str],
    ) -> None:
        super().__init__(media_type="application/json", headers=headers)
        del self.headers["content-length"]
        self.first = first
        self.pieces = pieces
        self.guard = guard
        self.finish = finish
        self.done = done

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(watch_disconnect, receive, self.guard)
                await self._send(send)
                tasks.cancel_scope.cancel()
        finally:
            try:
                with anyio.CancelScope(shield=True):
                    await anyio.to_thread.run_sync(self.finish)
            finally:
                self.done()

    async def _send(self, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        for start in self.first:
            await send({"type": "http.response.body", "body": start, "more_body": True})
        while True:
            try:
                piece = await anyio.to_thread.run_sync(_next, self.pieces)
            except Cancelled:
                break
            except EducatalogError as exc:
                ending = b'],"errors":' + orjson.dumps(error_body(exc)["errors"]) + b"}"
                await send({"type": "http.response.body", "body": ending, "more_body": True})
                break
            except Exception:
                log.exception("internal error while streaming an answer")
                break
            if piece is None:
                break
            await send({"type": "http.response.body", "body": piece, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})


def _next(pieces: Iterator[bytes]) -> bytes | None:
    return guarded(_advance, pieces)


def _advance(pieces: Iterator[bytes]) -> bytes | None:
    return next(pieces, None)
