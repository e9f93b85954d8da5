"""The reference server: the catalogue service's HTTP API as a Starlette application.

Routes: ``GET /items/<collection>``, ``GET /items/<collection>/<id>``, ``GET /server/ping``,
``GET /server/info`` and ``GET /server/specs/oas`` (an OpenAPI document generated from the
catalogue). Every answer is JSON, errors included, in Directus's shape and statuses.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import os
import re
import secrets
import sqlite3
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, TypeAlias, TypeVar

import anyio
import anyio.to_thread
import orjson
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from educatalog.errors import (
    AuthenticationError,
    EducatalogError,
    InvalidPayload,
    InvalidQuery,
    NotFoundOrForbidden,
    RouteNotFound,
    ServiceUnavailable,
    UsageError,
    error_body,
)
from educatalog.query import BoundQuery, Query, bind
from educatalog.server.guard import Cancelled, Guard
from educatalog.server.items import (
    is_flat,
    read_item,
    read_items,
    read_items_json,
    stream_items,
)
from educatalog.server.openapi import openapi_document
from educatalog.server.store import Database, check_database

__all__ = ["DEMO_HEADER", "create_app"]

log = logging.getLogger("educatalog.server")

DEMO_HEADER = "X-Educatalog-Data"
"""Response header that says ``synthetic-demo`` when the server serves the demo catalogue."""

# An item id as JavaScript's Number() reads it (Directus does): " 01", "+1", "1e0", "1.0"
# and "0x1" all mean item 1.
_JS_SPACE = (
    " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_JS_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", re.ASCII)
_JS_RADIX = re.compile(r"0([xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)", re.ASCII)
_UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
T = TypeVar("T")

Slot: TypeAlias = tuple[object, list[anyio.CapacityLimiter]]
"""A slot of :class:`FairShare`: its owner token and the limiters it holds."""


class JSONResponse(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


STREAM_ROWS = 5_000
"""Answers that may hold more rows than this (``limit=-1`` among them) are streamed."""

NESTED_STREAM_ROWS = 500
"""Pages with expanded relations that may hold more rows than this are streamed too."""

STREAM_CACHE_KIB = 8_192
"""SQLite's page cache while a connection streams an answer (a scan reads each page once)."""

QUERY_TIME = 10.0
"""Seconds of CPU time a query may take (plus 0.1 ms for every row it writes)."""


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


def create_app(
    database: str | os.PathLike[str],
    *,
    tokens: Iterable[str] = (),
    limit_max: int | None = None,
    clock: Callable[[], dt.datetime] = dt.datetime.now,
    query_time: float | None = QUERY_TIME,
    share: FairShare | None = None,
    stream_rows: int | None = STREAM_ROWS,
) -> Starlette:
    """The service's application over a database file built by :mod:`~.store`.

    ``tokens`` are the accepted bearer tokens (at least one: the service has no public
    access); ``limit_max`` caps ``limit`` (``-1`` then means that maximum); ``clock`` gives
    the time that ``$NOW`` in filters stands for (the server's local time, as in Directus).
    ``query_time`` is the CPU time in seconds a query may take (plus 0.1 ms a row written;
    None: unbounded); ``share`` bounds the queries running at once; answers that may hold
    more than ``stream_rows`` rows are streamed in constant memory (None: never).
    """
    token_list = [t.encode() for t in tokens]
    if not token_list:
        raise UsageError("the server needs at least one access token")
    if limit_max is not None and limit_max < 1:
        raise UsageError("limit_max must be a positive integer")
    problem = check_database(database)
    if problem is not None:
        raise (UsageError if os.path.isfile(database) else FileNotFoundError)(problem)
    db = Database(database)
    demo = bool(db.info.get("demo"))
    extra_headers = {DEMO_HEADER: "synthetic-demo"} if demo else {}
    share = share or FairShare()

    def respond(content: Any, status: int = 200) -> JSONResponse:
        return JSONResponse(content, status_code=status, headers=extra_headers)

    def authenticate(request: Request) -> None:
        headers = request.headers.getlist("authorization")
        if len(headers) > 1:
            raise InvalidPayload("The request has more than one Authorization header.")
        header = headers[0] if headers else None
        query_tokens = [t for t in request.query_params.getlist("access_token") if t]
        given: str | None = None
        if header is not None:
            scheme, _, value = header.strip().partition(" ")
            if scheme.lower() == "bearer" and value.strip():
                given = value.strip()
        if given is not None and query_tokens:
            raise InvalidPayload(
                "The request uses more than one method of including an access token."
            )
        if given is None and query_tokens:
            if len(query_tokens) > 1:
                raise InvalidPayload("access_token given more than once.")
            given = query_tokens[0]
        if not given:
            raise NotFoundOrForbidden("You don't have permission to access this.")
        candidate = given.encode()
        if not any(secrets.compare_digest(candidate, t) for t in token_list):
            raise AuthenticationError("Invalid user credentials.")

    async def list_items(request: Request) -> Response:
        authenticate(request)
        collection = request.path_params["collection"]
        db.catalogue[collection]  # unknown collection: 403 before the query is looked at
        query = Query.from_params(request.query_params.multi_items())
        bound = bind(query, collection, catalogue=db.catalogue, limit_max=limit_max, now=clock())
        large = bound.limit is None or bound.limit > (stream_rows or 0)
        # Expanded relations are streamed from fewer rows on, chunk by chunk: a page of
        # them can be large (small pages are built whole, faster).
        threshold = min(stream_rows or 0, NESTED_STREAM_ROWS)
        nested = not is_flat(bound) and (bound.limit is None or bound.limit > threshold)
        streamed = stream_rows is not None and (large or nested)
        acquired = await share.acquire(heavy=stream_rows is not None and large)
        slot: Slot | None = acquired
        try:
            if streamed:
                response: Response = await _streamed(request, bound, acquired)
                slot = None  # released by the response when it is done
                return response
            guard = Guard(query_time)
            flat = await _watched(request, guard, read_items_json, db, bound, None, guard)
            if flat is not None:  # rows serialized by SQLite: splice them into the body
                data, meta = flat
                tail = b',"meta":' + orjson.dumps(meta) if meta else b""
                body = b'{"data":' + data + tail + b"}"
                return Response(body, media_type="application/json", headers=extra_headers)
            rows, meta = await _watched(request, guard, read_items, db, bound, None, guard)
            content: dict[str, Any] = {"data": rows}
            if meta:
                content["meta"] = meta
            return respond(content)
        finally:
            if slot is not None:
                share.release(slot)

    async def _streamed(request: Request, bound: BoundQuery, slot: Slot) -> Response:
        """A streamed answer; its first piece of rows is read before the status is sent, so
        that a refused or too long query is still answered with its error."""
        guard = Guard(query_time)
        lease = db.lease(guard.progress, cache_kib=STREAM_CACHE_KIB)
        opened: list[sqlite3.Connection] = []
        produced: list[Generator[bytes, None, None]] = []

        def start() -> list[bytes]:
            opened.append(lease.__enter__())
            produced.append(pieces := stream_items(db, bound, opened[0], guard))
            return [piece for _, piece in zip(range(2), pieces, strict=False)]

        def finish() -> None:
            if produced:
                produced[0].close()
            if opened:
                lease.__exit__(None, None, None)
            share.release(slot)

        try:
            first = await _watched(request, guard, start)
        except BaseException:
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(finish)
            raise
        return StreamedAnswer(first, produced[0], guard, finish, extra_headers)

    async def get_item(request: Request) -> Response:
        authenticate(request)
        collection = request.path_params["collection"]
        coll = db.catalogue[collection]
        raw_id = request.path_params["id"]
        item_id = _item_id(raw_id)
        if item_id is None:
            raise NotFoundOrForbidden(
                f'You don\'t have permission to access item "{raw_id[:80]}" of collection '
                f'"{collection}" or it does not exist (ids are integers).'
            )
        query = Query.from_params(request.query_params.multi_items())
        bound = bind(
            Query(fields=query.fields, deep=query.deep), collection, catalogue=db.catalogue
        )
        guard = Guard(query_time)
        slot = await share.acquire(heavy=False)
        try:
            row = await _watched(
                request, guard, read_item, db, coll, item_id, bound.fields, bound.deep, None, guard
            )
        finally:
            share.release(slot)
        return respond({"data": row})

    async def ping(request: Request) -> Response:
        return respond("pong")

    async def info(request: Request) -> Response:
        return respond(
            {
                "data": {
                    "project": {"project_name": "educatalog reference server"},
                    "educatalog": {**db.info, "limit_max": limit_max},
                }
            }
        )

    spec = openapi_document(db.catalogue)

    async def specs(request: Request) -> Response:
        return respond(spec)

    async def educatalog_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, EducatalogError)
        response = respond(error_body(exc), exc.status)
        if exc.status == 503:
            response.headers["Retry-After"] = "1"
        return response

    async def cancelled(request: Request, exc: Exception) -> Response:
        return Response(status_code=499)  # the client has gone: nobody reads this

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if exc.status_code == 405 and request.method in _UNSAFE:
            error: EducatalogError = NotFoundOrForbidden(
                "You don't have permission to access this."
            )
        elif exc.status_code in (404, 405):
            error = RouteNotFound(f"Route {request.url.path} doesn't exist.")
        else:
            error = InvalidQuery(str(exc.detail))
        return respond(error_body(error), error.status)

    async def server_error(request: Request, exc: Exception) -> Response:
        log.exception("internal error on %s", request.url.path)
        body = {
            "errors": [
                {
                    "message": "An unexpected error occurred.",
                    "extensions": {"code": "INTERNAL_SERVER_ERROR"},
                }
            ]
        }
        return respond(body, 500)

    app = Starlette(
        routes=[
            Route("/items/{collection}", list_items, methods=["GET"]),
            Route("/items/{collection}/", list_items, methods=["GET"]),
            Route("/items/{collection}/{id}", get_item, methods=["GET"]),
            Route("/items/{collection}/{id}/", get_item, methods=["GET"]),
            Route("/server/ping", ping, methods=["GET"]),
            Route("/server/info", info, methods=["GET"]),
            Route("/server/specs/oas", specs, methods=["GET"]),
        ],
        exception_handlers={
            EducatalogError: educatalog_error,
            Cancelled: cancelled,
            HTTPException: http_error,
            Exception: server_error,
        },
    )
    # No redirects to the slash-less path: they would answer without a JSON body and echo
    # the query string (an access_token among it) to a host taken from the request.
    app.router.redirect_slashes = False
    app.state.database = db
    return app


def _item_id(raw: str) -> int | None:
    """The integer an item id in the path stands for, read as JavaScript's ``Number()``
    reads it; None when that is not a whole number (no item has such an id)."""
    text = raw.strip(_JS_SPACE)
    if len(text) > 10_000:  # beyond any URL a server takes
        return None
    if _JS_RADIX.fullmatch(text):
        number = int(text[2:], {"x": 16, "o": 8, "b": 2}[text[1].lower()])
    elif _JS_DECIMAL.fullmatch(text):
        value = float(text)
        if not math.isfinite(value) or value != int(value):
            return None
        number = int(value)
    else:
        return None
    return number if -(2**63) <= number < 2**63 else None


async def _watched(request: Request, guard: Guard, work: Callable[..., T], *args: Any) -> T:
    """Run ``work(*args)`` in a worker thread; cancel its guard when the client leaves."""
    outcome: list[T | Exception] = []

    async def run() -> None:
        try:
            outcome.append(await anyio.to_thread.run_sync(_guarded, work, *args))
        except Exception as exc:
            outcome.append(exc)
        tasks.cancel_scope.cancel()

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(_watch_disconnect, request.receive, guard)
        tasks.start_soon(run)
    if not outcome:  # pragma: no cover - cancelled from outside
        raise Cancelled
    if isinstance(outcome[0], Exception):
        raise outcome[0]
    return outcome[0]


async def _watch_disconnect(receive: Receive, guard: Guard) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
    guard.cancel()


class StreamedAnswer(Response):
    """A 200 answer whose body is written piece by piece as worker threads produce it.

    When the client disconnects, the guard is cancelled and production stops. An error
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
        headers: dict[str, str],
    ) -> None:
        super().__init__(media_type="application/json", headers=headers)
        del self.headers["content-length"]
        self.first = first
        self.pieces = pieces
        self.guard = guard
        self.finish = finish

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(_watch_disconnect, receive, self.guard)
                await self._send(send)
                tasks.cancel_scope.cancel()
        finally:
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(self.finish)

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
    return _guarded(_advance, pieces)


def _advance(pieces: Iterator[bytes]) -> bytes | None:
    return next(pieces, None)


def _guarded(read: Callable[..., T], *args: Any) -> T:
    """Run a read; a query beyond what the database can evaluate is the client's 400."""
    try:
        return read(*args)
    except RecursionError:
        raise InvalidQuery("The query is nested too deeply to be evaluated.") from None
    except sqlite3.OperationalError as exc:
        if "interrupted" in str(exc):
            raise
        raise InvalidQuery(f"The query is too complex to be evaluated ({exc}).") from None
