"""The HTTP client of the catalogue service: polite, complete and exact downloads.

>>> client = Client("http://127.0.0.1:8055", token="educatalog-demo-token")  # doctest: +SKIP
>>> rows = client.fetch_all("events", Query(filter=F("address.state") == 9))  # doctest: +SKIP

``fetch_all`` never trusts a single page: it asks for the ``filter_count`` first, walks the
matching rows by id (``sort=id`` and ``filter[id][_gt]=last``, which stays fast and stable on
a large, changing collection, where deep offsets are neither), splits the id range into
slices fetched concurrently, and checks at the end that it holds exactly that many rows,
without duplicates. A mismatch (the collection changed meanwhile) is retried, then reported
as :class:`~educatalog.errors.IncompleteDownload`, never returned silently.

:class:`ClientBase` holds what :class:`Client` and its asyncio twin
:class:`~educatalog.async_client.AsyncClient` share: configuration, the retry policy, the
mapping of error answers, page-size adaptation and progress bars (the download plan and its
check are in :mod:`educatalog.paging`). The two clients differ only in their I/O loops.
"""

from __future__ import annotations

import os
import random
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import httpx
import orjson

from educatalog.catalogue import CATALOGUE
from educatalog.errors import (
    EducatalogError,
    InvalidQuery,
    NotFoundOrForbidden,
    PassingFailure,
    ServiceUnavailable,
    UnexpectedAnswer,
    error_from_body,
)
from educatalog.frames import decode_rows
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
    page_of,
    row_ids,
    sorted_pages,
    sorted_query,
    top_query,
    walk_slices,
    window_query,
)
from educatalog.query import Filter, Query, walk_conditions
from educatalog.urls import public_url, split_credentials

__all__ = ["Client", "ClientBase", "Page", "PassingFailure"]

T = TypeVar("T")

REFERENCE_SERVER = "educatalog reference server"

DEMO_HEADER = "X-Educatalog-Data"
"""The header every answer of a reference server on the demo catalogue carries."""


class ClientBase:
    """Configuration and every I/O-free decision of :class:`Client` and ``AsyncClient``."""

    base_url: str
    _has_token: bool

    def _configure(
        self,
        base_url: str | None,
        token: str | None,
        *,
        timeout: float,
        max_concurrency: int,
        page_size: int,
        retries: int,
        backoff: float,
        progress: bool | None,
        deadline: float | None = None,
    ) -> dict[str, Any]:
        """Set the client's options; returns the options of its httpx client.

        The token goes only into those options' headers, never into an attribute. A token
        in the URL (``https://:TOKEN@host`` or ``?access_token=TOKEN``) is taken out of it
        before anything sees the URL; other query parameters of the URL are sent with
        every request.
        """
        url = base_url or os.environ.get("EDUCATALOG_URL")
        if not url:
            raise EducatalogError(
                "No service URL: pass base_url, set EDUCATALOG_URL, or use "
                "educatalog.connect() for the embedded demo server."
            )
        if max_concurrency < 1 or page_size < 1 or retries < 0:
            raise ValueError("max_concurrency and page_size must be positive, retries >= 0")
        url, url_token, params = split_credentials(url)
        self.base_url = url.rstrip("/")
        token = token if token is not None else os.environ.get("EDUCATALOG_TOKEN") or None
        token = token or url_token
        self._has_token = bool(token)
        self.deadline = deadline if deadline is not None else max(5 * timeout, 30.0)
        self._demo_seen = False
        self.max_concurrency = max_concurrency
        self.page_size = page_size
        self.retries = retries
        self.backoff = backoff
        self.progress = progress
        self._server_info: dict[str, Any] | None = None
        self._effective_page_size = page_size
        return {
            "base_url": self.base_url,
            "params": params,
            "headers": {"Authorization": f"Bearer {token}"} if token else {},
            # Waiting for a free connection is not a failure: only the request itself times out.
            "timeout": httpx.Timeout(timeout, pool=None),
            "limits": httpx.Limits(max_connections=max_concurrency + 2),
        }

    def __repr__(self) -> str:
        token = "set" if self._has_token else "none"
        return f"{type(self).__name__}({public_url(self.base_url)!r}, token={token})"

    # -- answers and retries ------------------------------------------------------------

    def _answer(
        self,
        response: httpx.Response,
        context: str,
        decode: Callable[[bytes], Any] = orjson.loads,
    ) -> Any:
        """The decoded body of a successful answer.

        Raises :class:`PassingFailure` for an answer to retry, the mapped error for others.
        """
        self._note_demo(response)
        status = response.status_code
        if status == 429 or status >= 500:
            raise PassingFailure(f"HTTP {status}", _retry_after(response))
        if not response.is_success:
            raise self._error(response, context)
        try:
            body = decode(response.content)
        except orjson.JSONDecodeError:
            raise PassingFailure("an invalid JSON body") from None
        if isinstance(body, dict) and "errors" in body:  # an answer cut short by an error
            raise error_from_body(400, body, context)
        return body

    def _note_demo(self, response: httpx.Response) -> None:
        if response.headers.get(DEMO_HEADER) == "synthetic-demo":
            self._demo_seen = True

    def _bounded(self, response: httpx.Response, chunks: Sequence[bytes]) -> httpx.Response:
        """The answer whose body arrived in ``chunks`` (already decoded), as a response."""
        headers = [
            (k, v)
            for k, v in response.headers.multi_items()
            if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")
        ]
        return httpx.Response(
            response.status_code,
            headers=headers,
            content=b"".join(chunks),
            request=response.request,
        )

    def _late(self, response: httpx.Response) -> httpx.ReadTimeout:
        return httpx.ReadTimeout(
            f"no complete answer within {self.deadline:g} s (deadline)", request=response.request
        )

    @staticmethod
    def _page_decoder(collection: str, query: Query) -> Callable[[bytes], Page]:
        """How to decode a list answer to ``query``: pyarrow's JSON reader for plain fields
        (in C++, without the GIL, so decoding overlaps the other downloads), orjson for
        anything else or whatever pyarrow declines."""
        coll = CATALOGUE[collection]
        names = query.fields if query.fields and "*" not in query.fields else None

        def decode(content: bytes) -> Page:
            # pyarrow only for a body that starts as a list answer: it never returns from
            # some others (a body of "null").
            simple = names is not None and content.startswith(b'{"data":[')
            fast = decode_rows(content, coll, names) if simple and names else None
            if fast is not None:
                return Page(*fast)
            body = orjson.loads(content)
            if isinstance(body, dict) and "errors" in body:
                return body  # type: ignore[no-any-return]  # _answer raises its error
            return page_of(body, f"GET /items/{collection}")

        return decode

    def _retry_delay(self, attempt: int, failure: Exception | None) -> float:
        """Seconds to wait after failed ``attempt`` (from 0): backoff, jitter, Retry-After."""
        delay = self.backoff * 2**attempt * (0.5 + random.random())
        retry_after = failure.retry_after if isinstance(failure, PassingFailure) else None
        return max(delay, retry_after or 0.0)

    def _gave_up(self, context: str, failure: Exception | None) -> ServiceUnavailable:
        if isinstance(failure, PassingFailure):
            last = failure.reason
        else:  # connect, timeouts, resets, truncated bodies
            last = type(failure).__name__ if failure is not None else "no answer"
        return ServiceUnavailable(
            f"{context}: the service at {public_url(self.base_url)} kept failing ({last}) after "
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

    # -- downloads ------------------------------------------------------------------------

    def _page_limit(self, query: Query) -> int:
        return query.limit if query.limit is not None else self._effective_page_size

    def _shrink_page(self, query: Query, size: int, exc: InvalidQuery) -> bool:
        """Halve the page size when ``exc`` refuses it; False when ``exc`` is another error."""
        if query.limit is not None or "limit" not in exc.message or size <= 1:
            return False
        self._effective_page_size = max(1, size // 2)
        return True

    @staticmethod
    def _check_window(collection: str, page: Page, low: Any, high: Any) -> None:
        """The rows of a page asked for ids in (low, high] must hold just such ids (so that
        every page moves the walk on)."""
        ids = row_ids(page.data)
        if any(not isinstance(i, int) or isinstance(i, bool) for i in ids):
            raise UnexpectedAnswer(f"GET /items/{collection}: rows without an integer id.")
        outside = [
            i for i in ids if (low is not None and i <= low) or (high is not None and i > high)
        ]
        if outside:  # (repeated rows are left to the count at the end)
            raise UnexpectedAnswer(
                f"GET /items/{collection}: asked for ids in ({low}, {high}], the answer "
                f"holds id {outside[0]}; a proxy or cache in between may answer for another "
                "request."
            )

    def _notice_cap(self, first: Page, size: int, expected: int) -> None:
        """A first page shorter than asked, though more rows match, means a gateway caps
        pages silently: ask for that many from now on."""
        if (
            0 < len(first.data) < min(size, expected)
            and len(first.data) < self._effective_page_size
        ):
            self._effective_page_size = len(first.data)

    def _walk_slices(self, first: Page, top: Page, expected: int) -> list[tuple[int, int]]:
        return walk_slices(first, top, expected, self._effective_page_size, self.max_concurrency)

    def _slice_done(self, page: Page) -> bool:
        return len(page.data) < self._effective_page_size

    def _progress(self, collection: str, total: int, show: bool | None) -> Any:
        show = self.progress if show is None else show
        if show is None:
            show = total > 20 * self.page_size and _interactive()
        if not show:
            return _NoBar()
        from tqdm.auto import tqdm

        return tqdm(total=total, desc=collection, unit=" rows", leave=False)

    # -- the service ----------------------------------------------------------------------

    def _remember_server_info(self, response: httpx.Response | None) -> dict[str, Any]:
        """Keep what ``GET /server/info`` answered and return it. No answer, or a passing
        failure (5xx, 429), is not remembered: the next call asks again, so that one
        hiccup never hides, say, the demo mark for the rest of a session."""
        if response is None or response.status_code >= 500 or response.status_code == 429:
            return {}
        self._note_demo(response)
        try:
            data = orjson.loads(response.content)["data"] if response.is_success else {}
            self._server_info = data if isinstance(data, dict) else {}
        except (orjson.JSONDecodeError, KeyError, TypeError):
            self._server_info = {}
        return self._server_info

    @staticmethod
    def _is_reference(info: dict[str, Any]) -> bool:
        project = info.get("project") or {}
        return project.get("project_name") == REFERENCE_SERVER

    def _is_demo(self, info: dict[str, Any]) -> bool:
        """Demo data: ``/server/info`` says so, or an answer carried the demo header."""
        own = info.get("educatalog") or {}
        return self._demo_seen or (ClientBase._is_reference(info) and bool(own.get("demo")))


class Client(ClientBase):
    """A client of the catalogue service.

    ``base_url`` and ``token`` default to ``$EDUCATALOG_URL`` and ``$EDUCATALOG_TOKEN``.
    Requests that fail for a passing reason (connection errors, timeouts, 429, 5xx, a
    truncated or invalid body) are retried ``retries`` times with exponential backoff and
    jitter, honouring ``Retry-After``; other 4xx answers raise at once. ``page_size`` rows
    are asked per request (lowered automatically when the service has a smaller maximum,
    or a gateway caps pages silently), ``max_concurrency`` requests run at once. ``timeout``
    bounds each wait for the service; ``deadline`` (default: 5 × timeout, at least 30 s)
    bounds each whole answer, however slowly it trickles in. Answers of the wrong shape, or
    holding rows other than those asked for, raise :class:`UnexpectedAnswer`. The token
    never appears in a repr, a log line or an error message.
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
        self._http = httpx.Client(transport=transport, **options)

    def close(self) -> None:
        self._http.close()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called (or the ``with`` block left)."""
        return self._http.is_closed

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- single requests ----------------------------------------------------------------

    def request(
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
                return self._answer(self._get(path, params), context, decode)
            except (httpx.TransportError, PassingFailure) as exc:
                failure = exc
            if attempt < self.retries:
                time.sleep(self._retry_delay(attempt, failure))
        raise self._gave_up(context, failure)

    def _get(self, path: str, params: dict[str, str] | None = None) -> httpx.Response:
        """GET ``path``, the whole answer within the deadline."""
        deadline = time.monotonic() + self.deadline
        with self._http.stream("GET", path, params=params) as response:
            chunks = []
            for chunk in response.iter_bytes():
                chunks.append(chunk)
                if time.monotonic() > deadline:
                    raise self._late(response)
        return self._bounded(response, chunks)

    def get(self, collection: str, item_id: int, *, fields: str | None = None) -> Row:
        """One item by id."""
        CATALOGUE[collection]  # unknown names fail here, with a suggestion
        params = {"fields": fields} if fields else None
        body = self.request(f"/items/{collection}/{item_id}", params)
        return item_of(body, f"GET /items/{collection}/{item_id}")

    def list(self, collection: str, query: Query | None = None) -> Page:
        """One page of ``collection`` as the service answers ``query``."""
        CATALOGUE[collection]
        query = query or Query()
        self._warn_wildcards(query)
        decode = self._page_decoder(collection, query)
        return self.request(f"/items/{collection}", query.to_params(), decode=decode)  # type: ignore[no-any-return]

    def count(self, collection: str, query: Query | None = None) -> int:
        """Rows matching the query's filter and search (``meta=filter_count``)."""
        return filter_count(self.list(collection, count_query(query)), collection)

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
            expected, parts = self._download(collection, base, convert, progress)
            problem = download_problem(expected, parts)
            if problem is None:
                return [page for _, page in parts]
        raise incomplete_download(collection, problem)

    def fetch_sorted(
        self,
        collection: str,
        query: Query | None,
        sort: Sequence[str],
        limit: int,
        convert: Callable[[list[Row]], T] = identity,  # type: ignore[assignment]
        *,
        progress: bool | None = None,
    ) -> list[T]:
        """The first ``limit`` rows matching ``query`` in the order ``sort`` (then by id),
        each page passed through ``convert``; the service sorts and limits, so no more rows
        than that are downloaded.

        The first page asks for the ``filter_count`` as well; the rest (only when ``limit``
        is above the page size) are fetched concurrently by offset. The result is checked
        as :meth:`fetch_pages` checks its own: exactly ``min(limit, filter_count)`` rows,
        no duplicate, else fetched again, then :class:`IncompleteDownload`.
        """
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise InvalidQuery(f"limit must be a whole number of rows, 0 or more: {limit!r}")
        base = sorted_query(collection, query, sort)
        problem = None
        for _ in range(DOWNLOAD_ATTEMPTS):
            expected, parts = self._download_sorted(collection, base, limit, convert, progress)
            problem = download_problem(expected, parts)
            if problem is None:
                return [page for _, page in parts]
        raise incomplete_download(collection, problem)

    def _download_sorted(
        self,
        collection: str,
        base: Query,
        limit: int,
        convert: Callable[[list[Row]], T],
        progress: bool | None,
    ) -> tuple[int, list[tuple[list[Any], T]]]:
        size = min(limit, self._effective_page_size)
        while True:
            try:
                first = self.list(collection, base.replace(limit=size, meta="filter_count"))
                break
            except InvalidQuery as exc:
                if "limit" not in exc.message or size <= 1:
                    raise
                size = max(1, size // 2)
                self._effective_page_size = min(self._effective_page_size, size)
        expected = min(limit, int(first.meta["filter_count"]))
        pages = [converted(first.data, convert)]
        rest = sorted_pages(expected, size) if size and len(first.data) == size else []
        if not rest:
            return expected, pages

        def fetch(offset: int, rows: int) -> tuple[list[Any], T]:
            page = self.list(collection, base.replace(limit=rows, offset=offset))
            bar.update(len(page.data))
            return converted(page.data, convert)

        with self._progress(collection, expected, progress) as bar:
            bar.update(len(first.data))
            with ThreadPoolExecutor(self.max_concurrency) as pool:
                pages += list(pool.map(lambda part: fetch(*part), rest))
        return expected, pages

    def _download(
        self,
        collection: str,
        base: Query,
        convert: Callable[[list[Row]], T],
        progress: bool | None,
    ) -> tuple[int, list[tuple[list[Any], T]]]:
        size = self._effective_page_size
        first = self._page(collection, first_query(base))
        expected = filter_count(first, collection)
        self._check_window(collection, first, None, None)
        self._notice_cap(first, size, expected)
        pages = [converted(first.data, convert)]
        if first_is_all(first, expected):
            return expected, pages
        slices = self._walk_slices(first, self._page(collection, top_query(base)), expected)
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
            page = self._page(collection, window_query(base, last, high))
            self._check_window(collection, page, last, high)
            if page.data:
                last = last_id(page.data)
                bar.update(len(page.data))
                out.append(converted(page.data, convert))
            if self._slice_done(page) or last == high:
                return out

    def _page(self, collection: str, query: Query) -> Page:
        """A list request at the current page size, lowering it when the service refuses."""
        while True:
            size = self._page_limit(query)
            try:
                return self.list(collection, query.replace(limit=size))
            except InvalidQuery as exc:
                if not self._shrink_page(query, size, exc):
                    raise

    def _warn_wildcards(self, query: Query) -> None:
        if (query.filter is None and query.search is None) or self.is_reference_server:
            return
        for message in wildcard_warnings(query.filter, query.search):
            warnings.warn(message, stacklevel=4)

    # -- the service ----------------------------------------------------------------------

    @property
    def server_info(self) -> dict[str, Any]:
        """What ``GET /server/info`` says of the service (empty when it says nothing)."""
        if self._server_info is None:
            for attempt in range(self.retries + 1):
                try:
                    response: httpx.Response | None = self._get("/server/info")
                except httpx.HTTPError:
                    response = None
                info = self._remember_server_info(response)
                if self._server_info is not None:
                    return info
                if attempt < self.retries:  # a passing failure: ask again
                    time.sleep(self._retry_delay(attempt, None))
            return {}
        return self._server_info

    @property
    def is_reference_server(self) -> bool:
        """True when the service is educatalog's own reference server."""
        return self._is_reference(self.server_info)

    @property
    def is_demo(self) -> bool:
        """True when the service serves educatalog's synthetic demo catalogue."""
        return self._is_demo(self.server_info)


def wildcard_warnings(f: Filter | None, search: str | None = None) -> list[str]:
    """Warnings for text filter values and a search with ``%`` or ``_``: a Directus service
    reads them as wildcards (``LIKE``), the reference server as literal text."""
    out = []
    if search is not None and ("%" in search or "_" in search):
        out.append(
            f"The search {search!r} contains % or _, which a Directus service treats as "
            "wildcards, not as literal text."
        )
    for condition in walk_conditions(f) if f is not None else ():
        value = condition.value
        if condition.operator.endswith(("contains", "starts_with", "ends_with")) and (
            isinstance(value, str) and ("%" in value or "_" in value)
        ):
            out.append(
                f'The filter value {value!r} of "{condition.field}" contains % or _, '
                "which a Directus service treats as wildcards, not as literal text."
            )
    return out


def item_of(body: Any, context: str) -> Row:
    """The item of a single-item answer; :class:`UnexpectedAnswer` when it is none."""
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, dict):
        raise UnexpectedAnswer(f'{context}: the answer is not an item ({{"data": {{...}}}}).')
    return data


def filter_count(page: Page, collection: str) -> int:
    """The ``filter_count`` a page was asked to carry."""
    count = page.meta.get("filter_count")
    if not isinstance(count, int) or count < 0:
        raise UnexpectedAnswer(
            f"GET /items/{collection}: the answer has no filter_count, though asked for one."
        )
    return count


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return min(float(value), 120.0)
    except ValueError:
        return None


def _interactive() -> bool:
    return sys.stderr.isatty() or "ipykernel" in sys.modules


class _NoBar:
    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int) -> None:
        return None
