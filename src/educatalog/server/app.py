"""The reference server: the catalogue service's HTTP API as a Starlette application.

Routes, each answered by a handler of this module: ``GET /items/<collection>``
(:func:`list_items`), ``GET /items/<collection>/<id>`` (:func:`get_item`), ``GET
/server/ping`` (:func:`ping`), ``GET /server/info`` (:func:`info`) and ``GET
/server/specs/oas`` (:func:`specs`, an OpenAPI document generated from the catalogue). Every
answer is JSON, errors included, in Directus's shape and statuses. What the handlers share
is the application's :class:`Service` (``app.state.service``).
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import os
import re
import secrets
from collections.abc import Callable, Generator, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import anyio
import anyio.to_thread
import orjson
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from educatalog.errors import (
    AuthenticationError,
    EducatalogError,
    InvalidPayload,
    InvalidQuery,
    NotFoundOrForbidden,
    RouteNotFound,
    UsageError,
    error_body,
)
from educatalog.model.schema import Collection
from educatalog.query import BoundQuery, Query, bind
from educatalog.server.context import (
    FLAT_WHOLE_FACTOR,
    MAX_RESPONSE_OBJECTS,
    NESTED_STREAM_ROWS,
    QUERY_TIME,
    STREAM_CACHE_KIB,
    STREAM_ROWS,
    WHOLE_BYTES,
    Context,
    Limits,
)
from educatalog.server.guard import Cancelled, Guard
from educatalog.server.items import (
    is_flat,
    lists_ids,
    meta_tail,
    read_groups,
    read_item,
    read_items,
    read_items_json,
    stream_items,
)
from educatalog.server.objects import most_objects, objects_per_row
from educatalog.server.openapi import openapi_document
from educatalog.server.running import (
    QUICK_FLAT_OBJECTS,
    QUICK_OBJECTS,
    QUICK_ROWS,
    FairShare,
    PiecewiseAnswer,
    Slot,
    StreamedAnswer,
    read_quickly,
)
from educatalog.server.store import Database, check_database

__all__ = [
    "DEMO_HEADER",
    "QUERY_TIME",
    "STREAM_ROWS",
    "FairShare",
    "Service",
    "create_app",
    "get_item",
    "info",
    "list_items",
    "ping",
    "specs",
]

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


class JSONResponse(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


@dataclass
class Service:
    """What every request to one server shares: the database, the accepted tokens, the
    limits, the clock ``$NOW`` stands for, the slots for queries, the headers of every
    answer and the OpenAPI document."""

    db: Database
    tokens: list[bytes]
    limits: Limits
    clock: Callable[[], dt.datetime]
    share: FairShare
    headers: dict[str, str]
    spec: dict[str, Any]

    def respond(self, content: Any, status: int = 200) -> JSONResponse:
        """A JSON answer with the server's headers."""
        return JSONResponse(content, status_code=status, headers=self.headers)

    def authenticate(self, request: Request) -> None:
        """Accept a request with one valid token (``Authorization: Bearer`` or
        ``access_token``); raise the service's error otherwise."""
        headers = request.headers.getlist("authorization")
        if len(headers) > 1:
            raise InvalidPayload("The request has more than one Authorization header.")
        given = _bearer(headers[0]) if headers else None
        query_tokens = [t for t in request.query_params.getlist("access_token") if t]
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
        if not any(secrets.compare_digest(candidate, t) for t in self.tokens):
            raise AuthenticationError("Invalid user credentials.")

    def bind(self, request: Request, collection: str) -> BoundQuery:
        """The request's list query, bound to ``collection``."""
        query = Query.from_params(request.query_params.multi_items())
        return bind(
            query,
            collection,
            schema=self.db.schema,
            limit_max=self.limits.limit_max,
            now=self.clock(),
        )

    def quick(self, bound: BoundQuery) -> bool:
        """Whether a read of ``bound`` is tried on the event loop first: one of a collection
        of at most ``QUICK_ROWS`` rows that writes at most ``QUICK_OBJECTS`` objects built in
        Python, or ``QUICK_FLAT_OBJECTS`` written by SQLite without lists of ids (a
        subquery a row; groups: one a group). Any read of a larger collection may scan it
        (a page of 100 of a million events took 2.4 ms): on the loop it would run out of
        the quick guard and start over, its first attempt wasted."""
        rows = self.db.known_total(bound.collection.name)
        if rows is None or rows > QUICK_ROWS:
            return False
        if bound.aggregate is not None:
            return True
        most = most_objects(self.db, bound)
        coll, schema = bound.collection, self.db.schema
        flat = is_flat(bound, schema) and not lists_ids(coll, bound.fields, schema)
        return most is not None and most <= (QUICK_FLAT_OBJECTS if flat else QUICK_OBJECTS)

    def streams(self, bound: BoundQuery) -> tuple[bool, bool]:
        """Whether the answer to ``bound`` is streamed, and whether it may be large (a
        slot for heavy answers). A list's rows are at most its collection's: ``limit=-1``
        of a reference list, or of a small catalogue, is a page like any other (read whole
        in one statement: a streamed answer is read a Python object a row)."""
        stream_rows = self.limits.stream_rows
        if stream_rows is None:
            return False, False
        limit = bound.limit
        if bound.aggregate is None:  # no page holds more items than its collection
            total = self.db.known_total(bound.collection.name)
            if total is not None and (limit is None or limit > total):
                limit = total
        large = limit is None or limit > stream_rows
        if bound.aggregate is not None:  # groups: read whole (heavy when there may be many)
            return False, large
        if is_flat(bound, self.db.schema):  # written by SQLite in one piece
            # up to FLAT_WHOLE_FACTOR times the threshold's objects (nested ones count)
            per_row = objects_per_row(self.db, None, bound.collection, bound.fields, bound.deep)
            most = None if limit is None else limit * (per_row or 1)
            whole = most is not None and most <= stream_rows * FLAT_WHOLE_FACTOR
            return not whole, large
        # Expanded relations are streamed from fewer rows on, chunk by chunk: a page of
        # them can be large (small pages are built whole, faster).
        threshold = min(stream_rows, NESTED_STREAM_ROWS)
        return large or limit is None or limit > threshold, large


def _bearer(header: str) -> str | None:
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


def _service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


# ---------------------------------------------------------------------------------------
# The routes


async def list_items(request: Request) -> Response:
    """``GET /items/<collection>``: a page of items (whole, or streamed when large)."""
    service = _service(request)
    service.authenticate(request)
    collection = request.path_params["collection"]
    service.db.schema[collection]  # unknown collection: 403 before the query is looked at
    bound = service.bind(request, collection)
    streamed, heavy = service.streams(bound)
    slot = await service.share.acquire(heavy=heavy)
    if streamed:
        return await _streamed(request, service, bound, slot)
    try:
        read = partial(_page_body, service, bound)
        body = await read_quickly(request, service.limits, read, quick=service.quick(bound))
    finally:
        service.share.release(slot)
    return PiecewiseAnswer(body, service.headers)


def _page_body(service: Service, bound: BoundQuery, guard: Guard) -> list[bytes]:
    """The JSON body of a page read whole (in a worker thread), in pieces to be sent one
    after the other: rows serialized by SQLite are not copied once more to be spliced in."""
    with Context.lease(service.db, guard, service.limits) as ctx:
        if bound.aggregate:
            groups, meta = read_groups(ctx, bound)
            return [b'{"data":', groups, meta_tail(meta)]
        flat = read_items_json(ctx, bound)
        if flat is not None:
            objects, meta = flat
            return [b'{"data":[', objects, b"]" + meta_tail(meta)]
        rows, meta = read_items(ctx, bound)
    content: dict[str, Any] = {"data": rows}
    if meta:
        content["meta"] = meta
    return [orjson.dumps(content)]


class _Reading:
    """An answer that may be large, being read: its lease, guard and pieces (one attempt;
    :meth:`start` begins anew)."""

    def __init__(self, service: Service, bound: BoundQuery) -> None:
        self.service = service
        self.bound = bound
        self.guard: Guard | None = None
        self.lease: AbstractContextManager[Context] | None = None
        self.pieces: Generator[bytes, None, None] | None = None

    def start(self, guard: Guard) -> tuple[list[bytes], bool]:
        """The answer's first pieces, and whether they are all of it (then it is finished).
        An attempt under a quick guard does not stream: a longer answer is its QueryTooLong."""
        self.finish()
        self.guard = guard
        limits = self.service.limits
        self.lease = Context.lease(self.service.db, guard, limits, cache_kib=STREAM_CACHE_KIB)
        try:
            self.pieces = stream_items(self.lease.__enter__(), self.bound)
            first: list[bytes] = []
            size = 0
            for piece in self.pieces:
                first.append(piece)
                size += len(piece)
                if len(first) > 1 and size > limits.whole_bytes:
                    if guard.on_loop:
                        raise guard.too_long()
                    return first, False
        except BaseException:
            self.finish()
            raise
        self.finish()
        return first, True

    def finish(self) -> None:
        """Close the pieces and give the connection back (in the thread that read them)."""
        pieces, lease = self.pieces, self.lease
        self.pieces = self.lease = None
        if pieces is not None:
            pieces.close()
        if lease is not None:
            lease.__exit__(None, None, None)


async def _streamed(request: Request, service: Service, bound: BoundQuery, slot: Slot) -> Response:
    """An answer that may be large, read piece by piece; its first pieces are read before
    the status is sent, so that a refused or too long query is still answered with its
    error. One that ends within its first ``whole_bytes`` is sent whole, with its length;
    any other is streamed. ``slot`` is released when the answer is done."""
    reading = _Reading(service, bound)
    try:
        quick = service.quick(bound)
        first, whole = await read_quickly(request, service.limits, reading.start, quick=quick)
    except BaseException:
        with anyio.CancelScope(shield=True):
            await anyio.to_thread.run_sync(reading.finish)
        service.share.release(slot)
        raise
    if whole:
        service.share.release(slot)
        return PiecewiseAnswer(first, service.headers)
    assert reading.pieces is not None
    assert reading.guard is not None

    def done() -> None:
        service.share.release(slot)

    return StreamedAnswer(
        first, reading.pieces, reading.guard, reading.finish, done, service.headers
    )


async def get_item(request: Request) -> Response:
    """``GET /items/<collection>/<id>``: one item (a missing one is a 403)."""
    service = _service(request)
    service.authenticate(request)
    collection = request.path_params["collection"]
    coll = service.db.schema[collection]
    raw_id = request.path_params["id"]
    item_id = _item_id(raw_id)
    if item_id is None:
        raise NotFoundOrForbidden(
            f'You don\'t have permission to access item "{raw_id[:80]}" of collection '
            f'"{collection}" or it does not exist (ids are integers).'
        )
    query = Query.from_params(request.query_params.multi_items())
    if query.aggregate or query.group_by:
        raise InvalidQuery(
            f"aggregate and groupBy count a list of items: ask /items/{collection} with "
            f"filter[id][_eq]={item_id} instead of one item's route."
        )
    only = Query(fields=query.fields, deep=query.deep, backlink=query.backlink)
    bound = bind(only, collection, schema=service.db.schema)
    slot = await service.share.acquire(heavy=False)
    try:
        read = partial(_item, service, coll, item_id, bound)
        quick = service.quick(replace(bound, limit=1))
        row = await read_quickly(request, service.limits, read, quick=quick)
    finally:
        service.share.release(slot)
    return service.respond({"data": row})


def _item(
    service: Service, coll: Collection, item_id: int, bound: BoundQuery, guard: Guard
) -> dict[str, Any]:
    with Context.lease(service.db, guard, service.limits) as ctx:
        return read_item(ctx, coll, item_id, bound.fields, bound.deep)


async def ping(request: Request) -> Response:
    """``GET /server/ping``: ``pong``, whether the database is busy or not."""
    return _service(request).respond("pong")


async def info(request: Request) -> Response:
    """``GET /server/info``: what the server serves (the database's info, the limit)."""
    service = _service(request)
    about = {**service.db.info, "limit_max": service.limits.limit_max}
    return service.respond(
        {"data": {"project": {"project_name": "educatalog reference server"}, "educatalog": about}}
    )


async def specs(request: Request) -> Response:
    """``GET /server/specs/oas``: the OpenAPI document of the service."""
    service = _service(request)
    return service.respond(service.spec)


# ---------------------------------------------------------------------------------------
# Errors


async def educatalog_error(request: Request, exc: Exception) -> Response:
    """The service's errors in Directus's shape; a 503 says when to try again."""
    assert isinstance(exc, EducatalogError)
    response = _service(request).respond(error_body(exc), exc.status)
    if exc.status == 503:
        response.headers["Retry-After"] = "1"
    return response


async def cancelled(request: Request, exc: Exception) -> Response:
    return Response(status_code=499)  # the client has gone: nobody reads this


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors (unknown route, method) as the service answers them."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 405 and request.method in _UNSAFE:
        error: EducatalogError = NotFoundOrForbidden("You don't have permission to access this.")
    elif exc.status_code in (404, 405):
        error = RouteNotFound(f"Route {request.url.path} doesn't exist.")
    else:
        error = InvalidQuery(str(exc.detail))
    return _service(request).respond(error_body(error), error.status)


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
    return _service(request).respond(body, 500)


ROUTES = [
    Route("/items/{collection}", list_items, methods=["GET"]),
    Route("/items/{collection}/", list_items, methods=["GET"]),
    Route("/items/{collection}/{id}", get_item, methods=["GET"]),
    Route("/items/{collection}/{id}/", get_item, methods=["GET"]),
    Route("/server/ping", ping, methods=["GET"]),
    Route("/server/info", info, methods=["GET"]),
    Route("/server/specs/oas", specs, methods=["GET"]),
]

ERROR_HANDLERS: dict[Any, Callable[[Request, Exception], Any]] = {
    EducatalogError: educatalog_error,
    Cancelled: cancelled,
    HTTPException: http_error,
    Exception: server_error,
}


def create_app(
    database: str | os.PathLike[str],
    *,
    tokens: Iterable[str] = (),
    limit_max: int | None = None,
    clock: Callable[[], dt.datetime] = dt.datetime.now,
    query_time: float | None = QUERY_TIME,
    share: FairShare | None = None,
    stream_rows: int | None = STREAM_ROWS,
    max_objects: int = MAX_RESPONSE_OBJECTS,
    whole_bytes: int = WHOLE_BYTES,
) -> Starlette:
    """The service's application over a database file built by :mod:`~.store`.

    ``tokens`` are the accepted bearer tokens (at least one: the service has no public
    access); ``limit_max`` caps ``limit`` (``-1`` then means that maximum); ``clock`` gives
    the time that ``$NOW`` in filters stands for (the server's local time, as in Directus).
    ``query_time`` is the CPU time in seconds a query may take (plus 0.1 ms a row written;
    None: unbounded); ``share`` bounds the queries running at once; answers that may hold
    more than ``stream_rows`` rows are streamed in constant memory (None: never), unless they
    end within their first ``whole_bytes`` bytes; an answer that would hold more than
    ``max_objects`` JSON objects is refused.
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
    for name in db.schema:  # known from the start (Service.quick): 80 ms at 1M events
        db.total_count(name)
    service = Service(
        db=db,
        tokens=token_list,
        limits=Limits(limit_max, query_time, stream_rows, max_objects, whole_bytes),
        clock=clock,
        share=share or FairShare(),
        headers={DEMO_HEADER: "synthetic-demo"} if db.info.get("demo") else {},
        spec=openapi_document(db.schema),
    )
    app = Starlette(routes=ROUTES, exception_handlers=ERROR_HANDLERS)
    # No redirects to the slash-less path: they would answer without a JSON body and echo
    # the query string (an access_token among it) to a host taken from the request.
    app.router.redirect_slashes = False
    app.state.service = service
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
