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
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import orjson
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
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
    error_body,
)
from educatalog.query import Query, bind
from educatalog.server.items import read_item, read_items, read_items_json
from educatalog.server.openapi import openapi_document
from educatalog.server.store import Database

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


class JSONResponse(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def create_app(
    database: str | os.PathLike[str],
    *,
    tokens: Iterable[str] = (),
    limit_max: int | None = None,
    clock: Callable[[], dt.datetime] = dt.datetime.now,
) -> Starlette:
    """The service's application over a database file built by :mod:`~.store`.

    ``tokens`` are the accepted bearer tokens (at least one: the service has no public
    access); ``limit_max`` caps ``limit`` (``-1`` then means that maximum); ``clock`` gives
    the time that ``$NOW`` in filters stands for (the server's local time, as in Directus).
    """
    token_list = [t.encode() for t in tokens]
    if not token_list:
        raise ValueError("the server needs at least one access token")
    if limit_max is not None and limit_max < 1:
        raise ValueError("limit_max must be a positive integer")
    db = Database(database)
    demo = bool(db.info.get("demo"))
    extra_headers = {DEMO_HEADER: "synthetic-demo"} if demo else {}

    def respond(content: Any, status: int = 200) -> JSONResponse:
        return JSONResponse(content, status_code=status, headers=extra_headers)

    def authenticate(request: Request) -> None:
        header = request.headers.get("authorization")
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
        flat = await run_in_threadpool(_guarded, read_items_json, db, bound)
        if flat is not None:  # rows serialized by SQLite: splice them into the body
            data, meta = flat
            tail = b',"meta":' + orjson.dumps(meta) if meta else b""
            body = b'{"data":' + data + tail + b"}"
            return Response(body, media_type="application/json", headers=extra_headers)
        rows, meta = await run_in_threadpool(_guarded, read_items, db, bound)
        content: dict[str, Any] = {"data": rows}
        if meta:
            content["meta"] = meta
        return respond(content)

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
        row = await run_in_threadpool(
            _guarded, read_item, db, coll, item_id, bound.fields, bound.deep
        )
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
        return respond(error_body(exc), exc.status)

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
