"""The answers of a list read: a body known in full, sent in the pieces it was read in
(:class:`PiecewiseAnswer`), and one streamed piece by piece as worker threads read it
(:class:`StreamedAnswer`)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

import anyio
import anyio.to_thread
import orjson
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from educatalog.errors import EducatalogError, error_body
from educatalog.server.guard import Cancelled, Guard
from educatalog.server.scheduling import guarded, watch_disconnect

__all__ = ["PiecewiseAnswer", "StreamedAnswer"]

log = logging.getLogger("educatalog.server")


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
