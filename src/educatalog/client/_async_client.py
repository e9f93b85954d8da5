"""The client loop, written once: requests, retries and complete downloads.

This is the source: ``scripts/unasync.py`` generates :mod:`educatalog.client._sync_client` from
:mod:`educatalog.client._async_client` (``async``/``await`` dropped, ``Async`` names made plain,
asyncio waits made thread waits) and ``make lint`` fails when the two differ; edit the
async source and run the script. The decisions that need no I/O are in
:class:`~educatalog.client._base.ClientBase` and :mod:`educatalog.client._paging`.
"""

from __future__ import annotations

import builtins
import functools
import time
import warnings
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, TypeVar, overload

import httpx
import orjson

from educatalog.client._base import (
    ClientBase,
    ProgressBar,
    ServerInfo,
    filter_count,
    item_of,
    wildcard_warnings,
)
from educatalog.client._concurrency import AsyncBackend, AsyncCall, Awaitable, awaitable
from educatalog.client._paging import (
    DOWNLOAD_ATTEMPTS,
    Ids,
    Page,
    Row,
    converted,
    count_query,
    download_problem,
    download_query,
    first_is_all,
    first_query,
    identity,
    incomplete_download,
    last_id,
    on_rows,
    sorted_pages,
    sorted_query,
    top_query,
    window_query,
)
from educatalog.errors import InvalidQuery, PassingFailure
from educatalog.model.protocol import INFO_PATH
from educatalog.model.schema import SCHEMA, Collection
from educatalog.query import Query, row_limit

__all__ = ["AsyncClient"]

T = TypeVar("T")

Part = tuple[Ids, T]
"""The ids of a page's rows (for the final check) and the page as converted."""

Download = tuple[int, builtins.list[Part[T]]]
"""The rows a download expects, and the parts it received."""


class AsyncClient(ClientBase):
    """A client of the catalogue service.

    ``base_url`` and ``token`` default to ``$EDUCATALOG_URL`` and ``$EDUCATALOG_TOKEN``.
    Requests that fail for a passing reason (connection errors, timeouts, 429, 5xx, a
    truncated or invalid body) are retried ``retries`` times with exponential backoff and
    jitter, honouring ``Retry-After``; other 4xx answers raise at once. ``page_size`` rows
    are asked per request (lowered automatically when the service has a smaller maximum,
    or a gateway caps pages silently; fewer, larger pages cost the service and the client
    less per row), ``max_concurrency`` requests run at once. ``progress`` shows a tqdm bar
    for each download (None: for more than 20,000 rows, where someone watches). ``timeout``
    bounds each wait for the service; ``deadline`` (default: 5 × timeout, at least 30 s)
    bounds each whole answer, however slowly it trickles in. Answers of the wrong shape, or
    holding rows other than those asked for, raise :class:`UnexpectedAnswer`. The token
    never appears in a repr, a log line or an error message.

    Close it with ``await client.aclose()``, or use it as ``async with AsyncClient(...)``.
    The properties that need an answer of the service (``server_info``,
    ``is_reference_server``, ``is_demo``) ask for it once (again after a passing failure)
    and are the same on both clients; on this one they are awaited: ``await client.is_demo``.
    """

    def __init__(
        self,
        base_url: str | None = None,
        token: str | None = None,
        *,
        timeout: float = 60.0,
        max_concurrency: int = 4,
        page_size: int = 5000,
        retries: int = 5,
        backoff: float = 0.25,
        progress: bool | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        deadline: float | None = None,
    ) -> None:
        options = self._configure(
            base_url,
            token,
            timeout=timeout,
            max_concurrency=max_concurrency,
            page_size=page_size,
            retries=retries,
            backoff=backoff,
            progress=progress,
            deadline=deadline,
        )
        self._http = httpx.AsyncClient(transport=transport, **options)

    async def aclose(self) -> None:
        await self._http.aclose()

    @property
    def closed(self) -> bool:
        """True once :meth:`aclose` was called (or the ``async with`` block left)."""
        return self._http.is_closed

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- single requests ----------------------------------------------------------------

    async def request(
        self,
        path: str,
        params: dict[str, str] | None = None,
        *,
        decode: Callable[[bytes], Any] = orjson.loads,
    ) -> Any:
        """GET ``path`` and decode the JSON body, retrying passing failures."""
        context = f"GET {path}"
        failure: Exception | None = None
        for attempt in range(self.retries + 1):
            try:
                return self._answer(await self._get(path, params), context, decode)
            except (httpx.TransportError, PassingFailure) as exc:
                failure = exc
            if attempt < self.retries:
                await AsyncBackend.sleep(self._retry_delay(attempt, failure))
        raise self._gave_up(context, failure)

    async def _get(self, path: str, params: dict[str, str] | None = None) -> httpx.Response:
        """GET ``path``, the whole answer within the deadline."""
        deadline = time.monotonic() + self.deadline
        async with self._http.stream("GET", path, params=params) as response:
            chunks = []
            async for chunk in response.aiter_bytes():
                chunks.append(chunk)
                if time.monotonic() > deadline:
                    raise self._late(response)
        return self._bounded(response, chunks)

    async def get(self, collection: str, item_id: int, *, fields: str | None = None) -> Row:
        """One item by id."""
        SCHEMA[collection]  # unknown names fail here, with a suggestion
        params = {"fields": fields} if fields else None
        body = await self.request(f"/items/{collection}/{item_id}", params)
        return item_of(body, f"GET /items/{collection}/{item_id}")

    async def list(self, collection: str, query: Query | None = None) -> Page:
        """One page of ``collection`` as the service answers ``query``."""
        return await self._list(SCHEMA[collection], query)

    async def _list(self, coll: Collection, query: Query | None = None) -> Page:
        """:meth:`list`, of a collection looked up already."""
        query = query or Query()
        await self._warn_wildcards(query)
        decode = self._page_decoder(coll, query)
        page: Page = await self.request(f"/items/{coll.name}", query.to_params(), decode=decode)
        return page

    async def count(self, collection: str, query: Query | None = None) -> int:
        """Rows matching the query's filter and search (``meta=filter_count``)."""
        coll = SCHEMA[collection]
        return filter_count(await self._list(coll, count_query(query)), coll)

    # -- whole collections --------------------------------------------------------------

    async def fetch_all(self, collection: str, query: Query | None = None) -> builtins.list[Row]:
        """Every row matching ``query`` (its limit, offset and page are ignored), in id order.

        Nested lists come complete (``deep[rel][_limit]=-1``). The count is checked at the
        end; a download that does not add up is fetched again (twice), then raises
        :class:`IncompleteDownload`.
        """
        return [row for page in await self.fetch_pages(collection, query) for row in page]

    async def iter_pages(
        self, collection: str, query: Query | None = None
    ) -> AsyncIterator[builtins.list[Row]]:
        """The rows of :meth:`fetch_all` page by page (checked before the first is yielded)."""
        for page in await self.fetch_pages(collection, query):
            yield page

    @overload
    async def fetch_pages(
        self, collection: str, query: Query | None = None, *, progress: bool | None = None
    ) -> builtins.list[builtins.list[Row]]: ...

    @overload
    async def fetch_pages(
        self,
        collection: str,
        query: Query | None,
        convert: Callable[[builtins.list[Row]], T],
        *,
        progress: bool | None = None,
    ) -> builtins.list[T]: ...

    async def fetch_pages(
        self,
        collection: str,
        query: Query | None = None,
        convert: Callable[[builtins.list[Row]], Any] = identity,
        *,
        progress: bool | None = None,
    ) -> builtins.list[Any]:
        """The pages of :meth:`fetch_all`, each passed through ``convert`` as it arrives.

        Only the ids of the rows are kept for the final check, so ``convert`` (say, to a
        DataFrame) bounds the memory a large download needs. ``progress`` overrides the
        client's setting for this download.
        """
        return await self._fetch_pages(SCHEMA[collection], query, on_rows(convert), progress)

    async def _fetch_pages(
        self,
        coll: Collection,
        query: Query | None,
        convert: Callable[[Page], T],
        progress: bool | None = None,
    ) -> builtins.list[T]:
        """:meth:`fetch_pages`, each :class:`Page` passed through ``convert`` as it is."""
        base = download_query(coll, query)
        download = functools.partial(self._download, coll, base, convert, progress)
        return await self._complete(coll, download)

    @overload
    async def fetch_sorted(
        self,
        collection: str,
        query: Query | None,
        sort: Sequence[str],
        limit: int,
        *,
        progress: bool | None = None,
    ) -> builtins.list[builtins.list[Row]]: ...

    @overload
    async def fetch_sorted(
        self,
        collection: str,
        query: Query | None,
        sort: Sequence[str],
        limit: int,
        convert: Callable[[builtins.list[Row]], T],
        *,
        progress: bool | None = None,
    ) -> builtins.list[T]: ...

    async def fetch_sorted(
        self,
        collection: str,
        query: Query | None,
        sort: Sequence[str],
        limit: int,
        convert: Callable[[builtins.list[Row]], Any] = identity,
        *,
        progress: bool | None = None,
    ) -> builtins.list[Any]:
        """The first ``limit`` rows matching ``query`` in the order ``sort`` (then by id),
        each page passed through ``convert``; the service sorts and limits, so no more rows
        than that are downloaded.

        The first page asks for the ``filter_count`` as well; the rest (only when ``limit``
        is above the page size) are fetched concurrently by offset. The result is checked
        as :meth:`fetch_pages` checks its own: exactly ``min(limit, filter_count)`` rows,
        no duplicate, else fetched again, then :class:`IncompleteDownload`.
        """
        limit = row_limit(limit)
        coll = SCHEMA[collection]
        return await self._fetch_sorted(coll, query, sort, limit, on_rows(convert), progress)

    async def _fetch_sorted(
        self,
        coll: Collection,
        query: Query | None,
        sort: Sequence[str],
        limit: int,
        convert: Callable[[Page], T],
        progress: bool | None = None,
    ) -> builtins.list[T]:
        """:meth:`fetch_sorted` of ``coll`` (``limit`` already checked), each :class:`Page`
        passed through ``convert`` as it is."""
        base = sorted_query(coll, query, sort)
        download = functools.partial(self._download_sorted, coll, base, limit, convert, progress)
        return await self._complete(coll, download)

    async def _complete(
        self, coll: Collection, download: AsyncCall[Download[T]]
    ) -> builtins.list[T]:
        """The converted pages of ``download``, run again while its rows do not add up."""
        problem = None
        for _ in range(DOWNLOAD_ATTEMPTS):
            expected, parts = await download()
            problem = download_problem(expected, parts)
            if problem is None:
                return [page for _, page in parts]
        raise incomplete_download(coll, problem)

    async def _download_sorted(
        self,
        coll: Collection,
        base: Query,
        limit: int,
        convert: Callable[[Page], T],
        progress: bool | None,
    ) -> Download[T]:
        size = min(limit, self._effective_page_size)
        while True:
            try:
                first = await self._list(coll, base.replace(limit=size, meta="filter_count"))
                break
            except InvalidQuery as exc:
                if "limit" not in exc.message or size <= 1:
                    raise
                size = max(1, size // 2)
                self._effective_page_size = min(self._effective_page_size, size)
        expected = min(limit, int(first.meta["filter_count"]))
        pages = [converted(first, convert)]
        rest = sorted_pages(expected, size) if size and first.num_rows == size else []
        if not rest:
            return expected, pages

        async def fetch(offset: int, rows: int) -> Part[T]:
            page = await self._list(coll, base.replace(limit=rows, offset=offset))
            bar.update(page.num_rows)
            return converted(page, convert)

        with self._progress(coll, expected, progress) as bar:
            bar.update(first.num_rows)
            calls = [functools.partial(fetch, offset, rows) for offset, rows in rest]
            pages += await AsyncBackend.run_all(calls, self.max_concurrency)
        return expected, pages

    async def _download(
        self,
        coll: Collection,
        base: Query,
        convert: Callable[[Page], T],
        progress: bool | None,
    ) -> Download[T]:
        size = self._effective_page_size
        first = await self._page(coll, first_query(base))
        expected = filter_count(first, coll)
        self._check_window(coll, first, None, None)
        self._notice_cap(first, size, expected)
        pages = [converted(first, convert)]
        if first_is_all(first, expected):
            return expected, pages
        top = await self._page(coll, top_query(base))
        slices = self._walk_slices(first, top, expected)
        with self._progress(coll, expected, progress) as bar:
            bar.update(first.num_rows)
            calls = [
                functools.partial(self._walk, coll, base, low, high, bar, convert)
                for low, high in slices
            ]
            for part in await AsyncBackend.run_all(calls, self.max_concurrency):
                pages.extend(part)
        return expected, pages

    async def _walk(
        self,
        coll: Collection,
        base: Query,
        low: int,
        high: int,
        bar: ProgressBar,
        convert: Callable[[Page], T],
    ) -> builtins.list[Part[T]]:
        """Converted pages of the ids in (low, high], by keyset: id > last seen."""
        out = []
        last = low
        while True:
            page = await self._page(coll, window_query(base, last, high))
            self._check_window(coll, page, last, high)
            if page.num_rows:
                last = last_id(page)
                bar.update(page.num_rows)
                out.append(converted(page, convert))
            if self._slice_done(page) or last == high:
                return out

    async def _page(self, coll: Collection, query: Query) -> Page:
        """A list request at the current page size, lowering it when the service refuses."""
        while True:
            size = self._page_limit(query)
            try:
                return await self._list(coll, query.replace(limit=size))
            except InvalidQuery as exc:
                if not self._shrink_page(query, size, exc):
                    raise

    async def _warn_wildcards(self, query: Query) -> None:
        if (query.filter is None and query.search is None) or await self.is_reference_server:
            return
        for message in wildcard_warnings(query.filter, query.search):
            warnings.warn(message, stacklevel=4)

    # -- the service ----------------------------------------------------------------------

    @property
    def server_info(self) -> Awaitable[ServerInfo]:
        """What ``GET /server/info`` says of the service (empty when it says nothing)."""
        return awaitable(self._ask_server_info, "server_info")

    @property
    def is_reference_server(self) -> Awaitable[bool]:
        """True when the service is educatalog's own reference server."""
        return awaitable(self._ask_is_reference_server, "is_reference_server")

    @property
    def is_demo(self) -> Awaitable[bool]:
        """True when the service serves educatalog's synthetic demo catalogue."""
        return awaitable(self._ask_is_demo, "is_demo")

    async def _ask_server_info(self) -> ServerInfo:
        if self._server_info is not None:
            return self._server_info
        for attempt in range(self.retries + 1):
            try:
                response: httpx.Response | None = await self._get(INFO_PATH)
            except httpx.HTTPError:
                response = None
            info = self._remember_server_info(response)
            if info is not None:
                return info
            if attempt < self.retries:  # a passing failure: ask again
                await AsyncBackend.sleep(self._retry_delay(attempt, None))
        return {}

    async def _ask_is_reference_server(self) -> bool:
        return self._is_reference(await self._ask_server_info())

    async def _ask_is_demo(self) -> bool:
        return self._is_demo(await self._ask_server_info())
