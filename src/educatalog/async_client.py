"""The asyncio twin of :class:`~educatalog.client.Client`, on ``httpx.AsyncClient``.

>>> async with AsyncClient("http://127.0.0.1:8055", token="...") as client:  # doctest: +SKIP
...     events, courses = await asyncio.gather(
...         client.fetch_all("events"), client.fetch_all("courses")
...     )

Everything but waiting is shared with :class:`~educatalog.client.Client` (its base class
:class:`~educatalog.client.ClientBase` and :mod:`educatalog.paging`): the same retries,
errors, id-slice downloads, count check and page-size adaptation, with ``asyncio.sleep``
between attempts and the id slices of one download walked by at most ``max_concurrency``
tasks at once.
"""

from __future__ import annotations

import asyncio
import time
import warnings
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from typing import Any, TypeVar

import httpx
import orjson

from educatalog.catalogue import CATALOGUE
from educatalog.client import (
    ClientBase,
    PassingFailure,
    filter_count,
    item_of,
    wildcard_warnings,
)
from educatalog.errors import InvalidQuery
from educatalog.paging import (
    DOWNLOAD_ATTEMPTS,
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
    top_query,
    window_query,
)
from educatalog.query import Query

__all__ = ["AsyncClient"]

T = TypeVar("T")


class AsyncClient(ClientBase):
    """An asyncio client of the catalogue service, with the options of ``Client``.

    ``base_url`` and ``token`` default to ``$EDUCATALOG_URL`` and ``$EDUCATALOG_TOKEN``.
    Requests that fail for a passing reason (connection errors, timeouts, 429, 5xx, a
    truncated or invalid body) are retried ``retries`` times with exponential backoff and
    jitter, honouring ``Retry-After``; other 4xx answers raise at once. ``page_size`` rows
    are asked per request (lowered automatically when the service has a smaller maximum),
    ``max_concurrency`` id slices of a download are walked at once. The token never appears
    in a repr, a log line or an error message. Close it with ``await client.aclose()`` or
    use it as ``async with AsyncClient(...) as client``.
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
                await asyncio.sleep(self._retry_delay(attempt, failure))
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
        CATALOGUE[collection]  # unknown names fail here, with a suggestion
        params = {"fields": fields} if fields else None
        body = await self.request(f"/items/{collection}/{item_id}", params)
        return item_of(body, f"GET /items/{collection}/{item_id}")

    async def list(self, collection: str, query: Query | None = None) -> Page:
        """One page of ``collection`` as the service answers ``query``."""
        CATALOGUE[collection]
        query = query or Query()
        await self._warn_wildcards(query)
        decode = self._page_decoder(collection, query)
        return await self.request(f"/items/{collection}", query.to_params(), decode=decode)  # type: ignore[no-any-return]

    async def count(self, collection: str, query: Query | None = None) -> int:
        """Rows matching the query's filter and search (``meta=filter_count``)."""
        return filter_count(await self.list(collection, count_query(query)), collection)

    # -- whole collections --------------------------------------------------------------

    async def fetch_all(self, collection: str, query: Query | None = None) -> list[Row]:
        """Every row matching ``query`` (its limit, offset and page are ignored), in id order.

        Nested lists come complete (``deep[rel][_limit]=-1``). The count is checked at the
        end; a download that does not add up is fetched again (twice), then raises
        :class:`IncompleteDownload`.
        """
        return [row for page in await self.fetch_pages(collection, query) for row in page]

    async def iter_pages(
        self, collection: str, query: Query | None = None
    ) -> AsyncIterator[list[Row]]:
        """The rows of :meth:`fetch_all` page by page (checked before the first is yielded)."""
        for page in await self.fetch_pages(collection, query):
            yield page

    async def fetch_pages(
        self,
        collection: str,
        query: Query | None = None,
        convert: Callable[[list[Row]], T] = identity,  # type: ignore[assignment]
        *,
        progress: bool | None = None,
    ) -> list[T]:
        """The pages of :meth:`fetch_all`, each passed through ``convert`` as it arrives.

        Only the ids of the rows are kept for the final check, so ``convert`` (say, to a
        DataFrame) bounds the memory a large download needs. ``progress`` overrides the
        client's setting for this download.
        """
        base = download_query(collection, query)
        problem = None
        for _ in range(DOWNLOAD_ATTEMPTS):
            expected, parts = await self._download(collection, base, convert, progress)
            problem = download_problem(expected, parts)
            if problem is None:
                return [page for _, page in parts]
        raise incomplete_download(collection, problem)

    async def _download(
        self,
        collection: str,
        base: Query,
        convert: Callable[[list[Row]], T],
        progress: bool | None,
    ) -> tuple[int, list[tuple[list[Any], T]]]:
        size = self._effective_page_size
        first = await self._page(collection, first_query(base))
        expected = filter_count(first, collection)
        self._check_window(collection, first, None, None)
        self._notice_cap(first, size, expected)
        pages = [converted(first.data, convert)]
        if first_is_all(first, expected):
            return expected, pages
        top = await self._page(collection, top_query(base))
        slices = self._walk_slices(first, top, expected)
        workers = asyncio.Semaphore(self.max_concurrency)
        with self._progress(collection, expected, progress) as bar:
            bar.update(len(first.data))
            parts = await _all_or_none(
                self._walk(collection, base, low, high, bar, convert, workers)
                for low, high in slices
            )
        for part in parts:
            pages.extend(part)
        return expected, pages

    async def _walk(
        self,
        collection: str,
        base: Query,
        low: int,
        high: int,
        bar: Any,
        convert: Callable[[list[Row]], T],
        workers: asyncio.Semaphore,
    ) -> list[tuple[list[Any], T]]:
        """Converted pages of the ids in (low, high], by keyset: id > last seen."""
        async with workers:
            out = []
            last = low
            while True:
                page = await self._page(collection, window_query(base, last, high))
                self._check_window(collection, page, last, high)
                if page.data:
                    last = last_id(page.data)
                    bar.update(len(page.data))
                    out.append(converted(page.data, convert))
                if self._slice_done(page) or last == high:
                    return out

    async def _page(self, collection: str, query: Query) -> Page:
        """A list request at the current page size, lowering it when the service refuses."""
        while True:
            size = self._page_limit(query)
            try:
                return await self.list(collection, query.replace(limit=size))
            except InvalidQuery as exc:
                if not self._shrink_page(query, size, exc):
                    raise

    async def _warn_wildcards(self, query: Query) -> None:
        if (query.filter is None and query.search is None) or await self.is_reference_server():
            return
        for message in wildcard_warnings(query.filter, query.search):
            warnings.warn(message, stacklevel=4)

    # -- the service ----------------------------------------------------------------------

    async def server_info(self) -> dict[str, Any]:
        """What ``GET /server/info`` says of the service (empty when it says nothing)."""
        if self._server_info is None:
            for attempt in range(self.retries + 1):
                try:
                    response: httpx.Response | None = await self._get("/server/info")
                except httpx.HTTPError:
                    response = None
                info = self._remember_server_info(response)
                if self._server_info is not None:
                    return info
                if attempt < self.retries:  # a passing failure: ask again
                    await asyncio.sleep(self._retry_delay(attempt, None))
            return {}
        return self._server_info

    async def is_reference_server(self) -> bool:
        """True when the service is educatalog's own reference server."""
        return self._is_reference(await self.server_info())

    async def is_demo(self) -> bool:
        """True when the service serves educatalog's synthetic demo catalogue."""
        return self._is_demo(await self.server_info())


async def _all_or_none(coroutines: Iterable[Coroutine[Any, Any, T]]) -> list[T]:
    """The results of ``coroutines``, run concurrently.

    On the first error the others are cancelled and awaited before it is raised, so that no
    walk outlives its download.
    """
    tasks = [asyncio.ensure_future(c) for c in coroutines]
    try:
        return await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
