"""The HTTP client of the catalogue service: polite, complete and exact downloads.

>>> client = Client("http://127.0.0.1:8055", token="educatalog-demo-token")  # doctest: +SKIP
>>> rows = client.fetch_all("events", Query(filter=F("address.state") == 9))  # doctest: +SKIP

``fetch_all`` never trusts a single page: it asks for the ``filter_count`` first, walks the
matching rows by id (``sort=id`` and ``filter[id][_gt]=last``, which stays fast and stable on
a large, changing collection, where deep offsets are neither), splits the id range into
slices fetched concurrently, and checks at the end that it holds exactly that many rows,
without duplicates. A mismatch (the collection changed meanwhile) is retried, then reported
as :class:`~educatalog.errors.IncompleteDownload`, never returned silently.
"""

from __future__ import annotations

import os
import random
import time
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx
import orjson

from educatalog.catalogue import CATALOGUE
from educatalog.errors import (
    EducatalogError,
    IncompleteDownload,
    InvalidQuery,
    NotFoundOrForbidden,
    ServiceUnavailable,
    error_from_body,
)
from educatalog.query import F, Filter, Query, bind_fields, list_relations, walk_conditions

__all__ = ["Client", "Page"]

Row = dict[str, Any]


@dataclass
class Page:
    """One answer of a list request: its rows and the meta counts asked for."""

    data: list[Row]
    meta: dict[str, int] = field(default_factory=dict)


T = TypeVar("T")


def _identity(rows: list[Row]) -> list[Row]:
    return rows


def _converted(rows: list[Row], convert: Callable[[list[Row]], T]) -> tuple[list[Any], T]:
    return [row["id"] for row in rows], convert(rows)


class Client:
    """A client of the catalogue service.

    ``base_url`` and ``token`` default to ``$EDUCATALOG_URL`` and ``$EDUCATALOG_TOKEN``.
    Requests that fail for a passing reason (connection errors, timeouts, 429, 5xx, a
    truncated or invalid body) are retried ``retries`` times with exponential backoff and
    jitter, honouring ``Retry-After``; other 4xx answers raise at once. ``page_size`` rows
    are asked per request (lowered automatically when the service has a smaller maximum),
    ``max_concurrency`` requests run at once. The token never appears in a repr, a log line
    or an error message.
    """

    def __init__(
        self,
        base_url: str | None = None,
        token: str | None = None,
        *,
        timeout: float = 60.0,
        max_concurrency: int = 4,
        page_size: int = 1000,
        retries: int = 5,
        backoff: float = 0.25,
        progress: bool | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        url = base_url or os.environ.get("EDUCATALOG_URL")
        if not url:
            raise EducatalogError(
                "No service URL: pass base_url, set EDUCATALOG_URL, or use "
                "educatalog.connect() for the embedded demo server."
            )
        if max_concurrency < 1 or page_size < 1 or retries < 0:
            raise ValueError("max_concurrency and page_size must be positive, retries >= 0")
        self.base_url = url.rstrip("/")
        token = token if token is not None else os.environ.get("EDUCATALOG_TOKEN") or None
        self._has_token = bool(token)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.Client(
            base_url=self.base_url,
            headers=headers,
            # Waiting for a free connection is not a failure: only the request itself times out.
            timeout=httpx.Timeout(timeout, pool=None),
            transport=transport,
            limits=httpx.Limits(max_connections=max_concurrency + 2),
        )
        self.max_concurrency = max_concurrency
        self.page_size = page_size
        self.retries = retries
        self.backoff = backoff
        self.progress = progress
        self._server_info: dict[str, Any] | None = None
        self._effective_page_size = page_size

    def __repr__(self) -> str:
        token = "set" if self._has_token else "none"
        return f"Client({self.base_url!r}, token={token})"

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- single requests ----------------------------------------------------------------

    def request(self, path: str, params: dict[str, str] | None = None) -> Any:
        """GET ``path`` and decode the JSON body, retrying passing failures."""
        context = f"GET {path}"
        last = "no answer"
        for attempt in range(self.retries + 1):
            retry_after: float | None = None
            try:
                response = self._http.get(path, params=params)
            except httpx.TransportError as exc:  # connect, timeouts, resets, truncated bodies
                last = type(exc).__name__
            else:
                if response.status_code == 429 or response.status_code >= 500:
                    last = f"HTTP {response.status_code}"
                    retry_after = _retry_after(response)
                elif response.is_success:
                    try:
                        return orjson.loads(response.content)
                    except orjson.JSONDecodeError:
                        last = "an invalid JSON body"
                else:
                    raise self._error(response, context)
            if attempt < self.retries:
                delay = self.backoff * 2**attempt * (0.5 + random.random())
                time.sleep(max(delay, retry_after or 0.0))
        raise ServiceUnavailable(
            f"{context}: the service at {self.base_url} kept failing ({last}) after "
            f"{self.retries + 1} attempts."
        )

    def _error(self, response: httpx.Response, context: str) -> EducatalogError:
        try:
            body = orjson.loads(response.content)
        except orjson.JSONDecodeError:
            body = None
        error = error_from_body(response.status_code, body, context)
        if isinstance(error, NotFoundOrForbidden) and not self._has_token:
            error.message += (
                " No token is configured: set EDUCATALOG_TOKEN or pass token=... "
                "(the service has no public access)."
            )
            error.args = (error.message,)
        return error

    def get(self, collection: str, item_id: int, *, fields: str | None = None) -> Row:
        """One item by id."""
        CATALOGUE[collection]  # unknown names fail here, with a suggestion
        params = {"fields": fields} if fields else None
        body = self.request(f"/items/{collection}/{item_id}", params)
        return body["data"]  # type: ignore[no-any-return]

    def list(self, collection: str, query: Query | None = None) -> Page:
        """One page of ``collection`` as the service answers ``query``."""
        CATALOGUE[collection]
        query = query or Query()
        self._warn_wildcards(query.filter)
        body = self.request(f"/items/{collection}", query.to_params())
        return Page(list(body.get("data") or []), dict(body.get("meta") or {}))

    def count(self, collection: str, query: Query | None = None) -> int:
        """Rows matching the query's filter and search (``meta=filter_count``)."""
        query = (query or Query()).replace(limit=0, offset=None, page=None, meta="filter_count")
        return int(self.list(collection, query).meta["filter_count"])

    # -- whole collections --------------------------------------------------------------

    def fetch_all(self, collection: str, query: Query | None = None) -> list[Row]:
        """Every row matching ``query`` (its limit, offset and page are ignored), in id order.

        Nested lists come complete (``deep[rel][_limit]=-1``). The count is checked at the
        end; a download that does not add up is fetched again (twice), then raises
        :class:`IncompleteDownload`.
        """
        return [row for page in self.fetch_pages(collection, query) for row in page]

    def iter_pages(self, collection: str, query: Query | None = None) -> Iterator[list[Row]]:
        """The rows of :meth:`fetch_all` page by page (checked before the first is yielded)."""
        yield from self.fetch_pages(collection, query)

    def fetch_pages(
        self,
        collection: str,
        query: Query | None = None,
        convert: Callable[[list[Row]], T] = _identity,  # type: ignore[assignment]
        *,
        progress: bool | None = None,
    ) -> list[T]:
        """The pages of :meth:`fetch_all`, each passed through ``convert`` as it arrives.

        Only the ids of the rows are kept for the final check, so ``convert`` (say, to a
        DataFrame) bounds the memory a large download needs. ``progress`` overrides the
        client's setting for this download.
        """
        coll = CATALOGUE[collection]
        query = query or Query()
        if query.sort and any(key.lstrip("-") != "id" for key in query.sort):
            raise InvalidQuery(
                "fetch_all returns rows in id order; sort the result instead "
                f"(sort={','.join(query.sort)})."
            )
        fields = query.fields
        if fields is not None and "id" not in fields and "*" not in fields:
            fields = (*fields, "id")
        deep = list_relations(bind_fields(fields or ("*",), coll, CATALOGUE), coll)
        base = Query(
            fields=fields,
            filter=query.filter,
            search=query.search,
            deep=_merge(deep, query.deep) or None,
        )
        problem = ""
        for _ in range(3):
            expected, parts = self._download(collection, base, convert, progress)
            ids = [i for page_ids, _ in parts for i in page_ids]
            if len(ids) == expected and len(set(ids)) == len(ids):
                return [page for _, page in parts]
            problem = (
                f"expected {expected:,} rows, received {len(ids):,} ({len(set(ids)):,} distinct)"
            )
        raise IncompleteDownload(
            f"GET /items/{collection}: {problem}, three times; the collection is changing "
            "faster than it can be downloaded, or the service's counts are wrong."
        )

    def _download(
        self,
        collection: str,
        base: Query,
        convert: Callable[[list[Row]], T],
        progress: bool | None,
    ) -> tuple[int, list[tuple[list[Any], T]]]:
        first = self._page(collection, base.replace(sort=("id",), meta="filter_count"))
        expected = int(first.meta["filter_count"])
        if len(first.data) >= expected or not first.data:
            return expected, [_converted(first.data, convert)]
        last = first.data[-1]["id"]
        pages = [_converted(first.data, convert)]
        top = self._page(collection, base.replace(sort=("-id",), limit=1, fields=("id",)))
        high = top.data[0]["id"] if top.data else last
        slices = _slices(
            last, high, expected - len(first.data), self.page_size, self.max_concurrency
        )
        with self._progress(collection, expected, progress) as bar:
            bar.update(len(first.data))
            with ThreadPoolExecutor(self.max_concurrency) as pool:
                parts = list(
                    pool.map(lambda s: self._walk(collection, base, *s, bar, convert), slices)
                )
        for part in parts:
            pages.extend(part)
        return expected, pages

    def _walk(
        self,
        collection: str,
        base: Query,
        low: int,
        high: int,
        bar: Any,
        convert: Callable[[list[Row]], T],
    ) -> list[tuple[list[Any], T]]:
        """Converted pages of the ids in (low, high], by keyset: id > last seen."""
        out = []
        last = low
        while True:
            window = (F("id") > last) & (F("id") <= high)
            f = window if base.filter is None else base.filter & window
            page = self._page(collection, base.replace(filter=f, sort=("id",)))
            if page.data:
                last = page.data[-1]["id"]
                bar.update(len(page.data))
                out.append(_converted(page.data, convert))
            if len(page.data) < self._effective_page_size:
                return out

    def _page(self, collection: str, query: Query) -> Page:
        """A list request at the current page size, lowering it when the service refuses."""
        while True:
            size = query.limit if query.limit is not None else self._effective_page_size
            try:
                return self.list(collection, query.replace(limit=size))
            except InvalidQuery as exc:
                if query.limit is not None or "limit" not in exc.message or size <= 1:
                    raise
                self._effective_page_size = max(1, size // 2)

    def _progress(self, collection: str, total: int, show: bool | None) -> Any:
        show = self.progress if show is None else show
        if show is None:
            show = total > 20 * self.page_size and _interactive()
        if not show:
            return _NoBar()
        from tqdm.auto import tqdm

        return tqdm(total=total, desc=collection, unit=" rows", leave=False)

    def _warn_wildcards(self, f: Filter | None) -> None:
        if f is None or self.is_reference_server:
            return
        for condition in walk_conditions(f):
            value = condition.value
            if condition.operator.endswith(("contains", "starts_with", "ends_with")) and (
                isinstance(value, str) and ("%" in value or "_" in value)
            ):
                warnings.warn(
                    f'The filter value {value!r} of "{condition.field}" contains % or _, '
                    "which a Directus service treats as wildcards, not as literal text.",
                    stacklevel=4,
                )

    @property
    def server_info(self) -> dict[str, Any]:
        """What ``GET /server/info`` says of the service (empty when it says nothing)."""
        if self._server_info is None:
            try:
                response = self._http.get("/server/info")
                data = orjson.loads(response.content)["data"]
                self._server_info = data if isinstance(data, dict) else {}
            except (httpx.HTTPError, orjson.JSONDecodeError, KeyError, TypeError):
                self._server_info = {}
        return self._server_info

    @property
    def is_reference_server(self) -> bool:
        """True when the service is educatalog's own reference server."""
        project = self.server_info.get("project") or {}
        return project.get("project_name") == "educatalog reference server"

    @property
    def is_demo(self) -> bool:
        """True when the service serves educatalog's synthetic demo catalogue."""
        own = self.server_info.get("educatalog") or {}
        return self.is_reference_server and bool(own.get("demo"))


def _merge(a: dict[str, Any], b: Any) -> dict[str, Any]:
    """``a`` overlaid with ``b`` (the user's own deep options win)."""
    out = dict(a)
    for key, value in (b or {}).items():
        out[key] = _merge(out.get(key, {}), value) if isinstance(value, dict) else value
    return out


def _slices(low: int, high: int, rows: int, page_size: int, workers: int) -> list[tuple[int, int]]:
    """Split the ids (low, high] into ranges, a few per worker, none smaller than a page."""
    count = max(1, min(workers * 4, rows // page_size))
    step = max(1, -(-(high - low) // count))
    out = []
    start = low
    while start < high:
        end = min(high, start + step)
        out.append((start, end))
        start = end
    return out or [(low, high)]


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return min(float(value), 120.0)
    except ValueError:
        return None


def _interactive() -> bool:
    import sys

    return sys.stderr.isatty() or "ipykernel" in sys.modules


class _NoBar:
    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int) -> None:
        return None
