"""What both clients share: configuration, and every decision that needs no I/O.

:class:`ClientBase` holds the options, the retry policy (backoff, jitter, ``Retry-After``),
the mapping of error answers, the page decoder, page-size adaptation, the checks of the
rows a page holds, progress bars and what ``/server/info`` tells. The download plan and its
final check are in :mod:`educatalog.client._paging`; the loop that asks and waits is written
once, in :mod:`educatalog.client._async_client`, from which
:mod:`educatalog.client._sync_client` is generated.
"""

from __future__ import annotations

import os
import random
import re
import sys
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any, Protocol

import httpx
import orjson

from educatalog.client._decoding import decode_rows
from educatalog.client._paging import Page, Row, page_ids, page_of, walk_slices, window_problem
from educatalog.client.urls import public_url, split_credentials
from educatalog.errors import (
    EducatalogError,
    InvalidQuery,
    NotFoundOrForbidden,
    PassingFailure,
    ServiceUnavailable,
    UnexpectedAnswer,
    UsageError,
    error_from_body,
)
from educatalog.model.protocol import DEMO_DATA, DEMO_HEADER, REFERENCE_SERVER
from educatalog.model.schema import Collection
from educatalog.query import Filter, Query, walk_conditions

__all__ = [
    "PROGRESS_ROWS",
    "ClientBase",
    "ProgressBar",
    "ServerInfo",
    "filter_count",
    "item_of",
    "wildcard_warnings",
]

_STATED_MAXIMUM = re.compile(r"\blimit\b\D{0,40}?(\d+)")
"""The maximum page size that a refusal of a page names after the word "limit"."""

PROGRESS_ROWS = 20_000
"""A download of more rows than this shows a progress bar where someone watches (a terminal,
a notebook's kernel), unless the client or the call says otherwise (``progress=``)."""

ServerInfo = dict[str, Any]
"""What ``GET /server/info`` answered (its ``data``), as JSON."""


class ProgressBar(Protocol):
    """What a download needs of a progress bar (tqdm's, or none)."""

    def __enter__(self) -> ProgressBar: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool | None: ...

    def update(self, n: int) -> bool | None: ...


class ClientBase:
    """Configuration and every I/O-free decision of ``Client`` and ``AsyncClient``."""

    base_url: str
    deadline: float
    max_concurrency: int
    page_size: int
    retries: int
    backoff: float
    progress: bool | None
    _has_token: bool
    _demo_seen: bool
    _server_info: ServerInfo | None
    _effective_page_size: int

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
            raise UsageError(
                "No service URL: pass base_url, set EDUCATALOG_URL, or use "
                "educatalog.connect() for the embedded demo server."
            )
        if max_concurrency < 1 or page_size < 1 or retries < 0:
            raise UsageError("max_concurrency and page_size must be positive, retries >= 0")
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
        self._server_info = None
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
        if response.headers.get(DEMO_HEADER) == DEMO_DATA:
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
    def _page_decoder(coll: Collection, query: Query) -> Callable[[bytes], Page | ServerInfo]:
        """How to decode a list answer to ``query``: pyarrow's JSON reader for plain fields
        (in C++, without the GIL, so decoding overlaps the other downloads), orjson for
        anything else or whatever pyarrow declines. An error body is returned as it is, for
        :meth:`_answer` to raise its error."""
        grouped = query.aggregate or query.group_by  # rows of groups: not the fields
        names = query.fields if query.fields and "*" not in query.fields and not grouped else None

        def decode(content: bytes) -> Page | ServerInfo:
            # pyarrow only for a body that starts as a list answer: it never returns from
            # some others (a body of "null").
            simple = names is not None and content.startswith(b'{"data":[')
            fast = decode_rows(content, coll, names) if simple and names else None
            if fast is not None:
                return Page.from_arrow(*fast)
            body = orjson.loads(content)
            if isinstance(body, dict) and "errors" in body:
                return body
            return page_of(body, f"GET /items/{coll.name}")

        return decode

    def _retry_delay(self, attempt: int, failure: Exception | None) -> float:
        """Seconds to wait after failed ``attempt`` (from 0): backoff, jitter, Retry-After."""
        delay = self.backoff * 2.0**attempt * (0.5 + random.random())
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
        """Lower the page size when ``exc`` refuses it: to the maximum the refusal names
        (Directus: '"limit" must be less than or equal to 200'), else by half; False when
        ``exc`` is another error."""
        if query.limit is not None or "limit" not in exc.message or size <= 1:
            return False
        named = _STATED_MAXIMUM.search(exc.message)
        most = int(named.group(1)) if named else 0
        self._effective_page_size = most if 0 < most < size else max(1, size // 2)
        return True

    @staticmethod
    def _check_window(coll: Collection, page: Page, low: int | None, high: int | None) -> None:
        """The rows of a page asked for ids in (low, high] must hold just such ids (so that
        every page moves the walk on)."""
        problem = window_problem(page_ids(page), low, high)
        if problem is None:  # (repeated rows are left to the count at the end)
            return
        if "integer" in problem:
            raise UnexpectedAnswer(f"GET /items/{coll.name}: {problem}.")
        raise UnexpectedAnswer(
            f"GET /items/{coll.name}: asked for ids in ({low}, {high}], {problem}; a proxy "
            "or cache in between may answer for another request."
        )

    def _notice_cap(self, first: Page, size: int, expected: int) -> None:
        """A first page shorter than asked, though more rows match, means a gateway caps
        pages silently: ask for that many from now on."""
        if 0 < first.num_rows < min(size, expected) and first.num_rows < self._effective_page_size:
            self._effective_page_size = first.num_rows

    def _walk_slices(self, first: Page, top: Page, expected: int) -> list[tuple[int, int]]:
        return walk_slices(first, top, expected, self._effective_page_size, self.max_concurrency)

    def _slice_done(self, page: Page) -> bool:
        return page.num_rows < self._effective_page_size

    def _progress(self, coll: Collection, total: int, show: bool | None) -> ProgressBar:
        show = self.progress if show is None else show
        if show is None:
            show = total > PROGRESS_ROWS and _interactive()
        if not show:
            return _NoBar()
        from tqdm.auto import tqdm

        bar: ProgressBar = tqdm(total=total, desc=coll.name, unit=" rows", leave=False)
        return bar

    # -- the service ----------------------------------------------------------------------

    def _remember_server_info(self, response: httpx.Response | None) -> ServerInfo | None:
        """Keep what ``GET /server/info`` answered and return it. No answer, or a passing
        failure (5xx, 429), is not remembered (None): the next call asks again, so that one
        hiccup never hides, say, the demo mark for the rest of a session."""
        if response is None or response.status_code >= 500 or response.status_code == 429:
            return None
        self._note_demo(response)
        try:
            data = orjson.loads(response.content)["data"] if response.is_success else {}
            self._server_info = data if isinstance(data, dict) else {}
        except (orjson.JSONDecodeError, KeyError, TypeError):
            self._server_info = {}
        return self._server_info

    @staticmethod
    def _is_reference(info: ServerInfo) -> bool:
        project = info.get("project") or {}
        return project.get("project_name") == REFERENCE_SERVER

    def _is_demo(self, info: ServerInfo) -> bool:
        """Demo data: ``/server/info`` says so, or an answer carried the demo header."""
        own = info.get("educatalog") or {}
        return self._demo_seen or (ClientBase._is_reference(info) and bool(own.get("demo")))


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


def filter_count(page: Page, coll: Collection) -> int:
    """The ``filter_count`` a page of ``coll`` was asked to carry."""
    count = page.meta.get("filter_count")
    if not isinstance(count, int) or count < 0:
        raise UnexpectedAnswer(
            f"GET /items/{coll.name}: the answer has no filter_count, though asked for one."
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
    """No progress bar."""

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int) -> None:
        return None
