"""AsyncClient over real HTTP against the reference server: the same rows as the database and
as the sync Client, concurrent downloads, retries and clear errors, with faults injected by an
asyncio transport between client and server. Coroutines run under ``asyncio.run``."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from conformance import TEST_TOKEN
from educatalog import AsyncClient, Client, F, Query
from educatalog.errors import (
    AuthenticationError,
    IncompleteDownload,
    InvalidQuery,
    NotFoundOrForbidden,
    ServiceUnavailable,
    UsageError,
)
from educatalog.model.schema import SCHEMA
from educatalog.server.store import read_rows
from faults import Fault, random_faults

TOKEN = "client-test-token"  # the token of the servers of tests/client/conftest.py
T = TypeVar("T")


class Faulty(httpx.AsyncBaseTransport):
    """Forwards to the real asyncio transport, but sometimes answers with a fault instead."""

    def __init__(self, fault: Fault) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.fault = fault
        self.calls = 0
        self.paths: list[str] = []
        self.in_flight = 0
        self.most_in_flight = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.calls += 1
        self.paths.append(request.url.path)
        injected = self.fault(request, self.calls)
        if injected is not None:
            return injected
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            return await self.inner.handle_async_request(request)
        finally:
            self.in_flight -= 1

    async def aclose(self) -> None:
        await self.inner.aclose()


def _client(url: str, transport: httpx.AsyncBaseTransport | None = None, **kw: Any) -> AsyncClient:
    options: dict[str, Any] = {"page_size": 61, "backoff": 0.0, "max_concurrency": 3}
    options.update(kw)
    return AsyncClient(url, token=TOKEN, transport=transport, **options)


def run(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    return asyncio.run(make())


def _on_items(fault: Fault, times: int) -> Fault:
    """``fault`` for the first ``times`` requests to /items, then the real answers."""
    seen = [0]

    def inject(request: httpx.Request, call: int) -> httpx.Response | None:
        if not request.url.path.startswith("/items/") or seen[0] >= times:
            return None
        seen[0] += 1
        return fault(request, call)

    return inject


# -- single requests and whole collections ------------------------------------------------


def test_get_list_and_count(url: str, database: Path) -> None:
    events = read_rows(database, "events")
    in_state_9 = Query(filter=F("address.state") == 9)

    async def main() -> tuple[Any, ...]:
        async with _client(url) as client:
            return (
                await client.get("states", 1),
                await client.get("events", events[3]["id"], fields="id,course"),
                await client.list("events", Query(fields=("id",), limit=5, meta="filter_count")),
                await client.count("events"),
                await client.count("events", in_state_9),
            )

    state, event, page, total, in_state = run(main)
    assert state == read_rows(database, "states")[0]
    assert event == {"id": events[3]["id"], "course": events[3]["course"]}
    assert [r["id"] for r in page.data] == [e["id"] for e in events[:5]]
    assert page.meta == {"filter_count": len(events)}
    assert total == len(events)
    with Client(url, token=TOKEN) as sync:
        assert in_state == sync.count("events", in_state_9)


@pytest.fixture(scope="module")
def downloads(url: str) -> dict[str, tuple[list[Any], list[Any]]]:
    """Every collection, its stored fields and ``*``, downloaded concurrently by one client."""

    async def one(client: AsyncClient, name: str) -> tuple[list[Any], list[Any]]:
        stored = Query(fields=tuple(f.name for f in SCHEMA[name].stored_fields))
        return await client.fetch_all(name, stored), await client.fetch_all(name)

    async def main() -> list[tuple[list[Any], list[Any]]]:
        async with _client(url, page_size=150) as client:
            return await asyncio.gather(*(one(client, name) for name in SCHEMA))

    return dict(zip(SCHEMA, run(main), strict=True))


@pytest.fixture(scope="module")
def sync(url: str) -> Iterator[Client]:
    with Client(url, token=TOKEN) as client:
        yield client


@pytest.mark.parametrize("collection", list(SCHEMA))
def test_fetch_all_returns_exactly_the_rows_of_the_database(
    database: Path,
    downloads: dict[str, tuple[list[Any], list[Any]]],
    sync: Client,
    collection: str,
) -> None:
    rows, everything = downloads[collection]
    assert rows == read_rows(database, collection)
    assert everything == sync.fetch_all(collection)


def test_nested_lists_beyond_100_are_complete(small_url: str, small_database: Path) -> None:
    """The hand-made catalogue: a course with 121 events, an event with 150 contacts."""
    course_events = [e["id"] for e in read_rows(small_database, "events") if e["course"] == 1]
    assert len(course_events) > 100
    query = Query(fields=("id", "title", "events"))
    junction = Query(fields=("id", "contacts.contacts_id.id"))

    async def main() -> tuple[Any, ...]:
        async with AsyncClient(small_url, token=TEST_TOKEN, page_size=5) as client:
            return (
                await client.fetch_all("courses", query),
                await client.fetch_all("events", junction),
                await client.list("courses", query.replace(filter=F("id") == 1)),
            )

    courses, events, capped = run(main)
    assert courses[0]["id"] == 1
    assert courses[0]["events"] == course_events
    assert len(events[0]["contacts"]) == 150
    assert len(capped.data[0]["events"]) == 100  # what the service gives without care
    with Client(small_url, token=TEST_TOKEN) as sync:
        assert courses == sync.fetch_all("courses", query)
        assert events == sync.fetch_all("events", junction)


def test_several_collections_concurrently(url: str, database: Path) -> None:
    names = ["events", "courses", "addresses", "events_contacts", "states"]

    async def main() -> list[Any]:
        async with _client(url, max_concurrency=2) as client:
            return await asyncio.gather(
                *(
                    client.fetch_all(n, Query(fields=tuple(f.name for f in stored(n))))
                    for n in names
                ),
                client.count("events"),
            )

    def stored(name: str) -> Any:
        return SCHEMA[name].stored_fields

    *downloads, count = run(main)
    for name, rows in zip(names, downloads, strict=True):
        assert rows == read_rows(database, name), name
    assert count == len(read_rows(database, "events"))


def test_pages_convert_and_iterate(url: str, database: Path) -> None:
    ids = [e["id"] for e in read_rows(database, "events")]
    query = Query(fields=("id",), limit=3, offset=7)  # limit and offset are ignored

    async def main() -> tuple[list[int], list[list[Any]]]:
        async with _client(url, page_size=50) as client:
            sizes = await client.fetch_pages("events", query, len, progress=False)
            pages = [page async for page in client.iter_pages("events", query)]
            return sizes, pages

    sizes, pages = run(main)
    assert sum(sizes) == len(ids)
    assert len(sizes) > 3  # several slices and pages
    assert [r["id"] for page in pages for r in page] == ids


def test_slices_are_walked_concurrently_within_max_concurrency(url: str, database: Path) -> None:
    transport = Faulty(lambda request, call: None)

    async def main() -> list[Any]:
        async with _client(url, transport, page_size=20, max_concurrency=2) as client:
            return await client.fetch_all("events", Query(fields=("id",)))

    rows = run(main)
    assert [r["id"] for r in rows] == [e["id"] for e in read_rows(database, "events")]
    assert transport.most_in_flight == 2


def test_a_slice_that_fails_fails_the_download(url: str) -> None:
    def refuse_windows(request: httpx.Request, call: int) -> httpx.Response | None:
        if "_lte" not in str(request.url):
            return None
        body = {"errors": [{"message": "refused", "extensions": {"code": "FORBIDDEN"}}]}
        return httpx.Response(403, json=body, request=request)

    transport = Faulty(refuse_windows)

    async def main() -> None:
        async with _client(url, transport, page_size=20) as client:
            await client.fetch_all("events", Query(fields=("id",)))

    with pytest.raises(NotFoundOrForbidden, match="refused"):
        run(main)
    # first page, highest id, then not all 12 slices: the other walks were cancelled
    assert transport.calls < 2 + 12


def test_page_size_adapts_to_the_service_maximum(capped_url: str, database: Path) -> None:
    async def main() -> tuple[list[Any], int]:
        async with _client(capped_url, page_size=1000) as client:
            rows = await client.fetch_all("events", Query(fields=("id",)))
            return rows, client._effective_page_size

    rows, size = run(main)
    assert [r["id"] for r in rows] == [e["id"] for e in read_rows(database, "events")]
    assert size <= 40


def test_server_info(url: str) -> None:
    transport = Faulty(lambda request, call: None)

    async def main() -> tuple[bool, bool, dict[str, Any]]:
        async with _client(url, transport) as client:
            unawaited = client.is_demo  # asks nothing until awaited
            assert transport.calls == 0
            answers = await client.is_reference_server, await unawaited, await client.server_info
            assert transport.paths == ["/server/info"]  # asked once
            return answers

    reference, is_demo, info = run(main)
    assert reference
    assert info["project"]["project_name"] == "educatalog reference server"
    with Client(url, token=TOKEN) as sync:
        assert is_demo == sync.is_demo
        assert info == sync.server_info


def test_calling_the_service_properties_still_works_and_warns(url: str) -> None:
    async def main() -> tuple[bool, bool, dict[str, Any]]:
        async with _client(url) as client:
            with pytest.warns(DeprecationWarning, match=r"`await client.is_demo`, not"):
                demo = await client.is_demo()
            with pytest.warns(DeprecationWarning, match="is_reference_server is a property"):
                reference = await client.is_reference_server()
            with pytest.warns(DeprecationWarning, match="server_info"):
                info = await client.server_info()
            return demo, reference, info

    demo, reference, info = run(main)
    assert reference
    assert demo is True  # the suite's server serves the demo catalogue, labelled as such
    assert info["project"]["project_name"] == "educatalog reference server"


def test_both_clients_have_the_same_api() -> None:
    """One loop, one API: the same public methods and properties, coroutines on one side."""

    def public(cls: type) -> dict[str, str]:
        out = {}
        for name, value in vars(cls).items():
            if name.startswith("_") or name in ("close", "aclose"):
                continue
            kind = "property" if isinstance(value, property) else "method"
            out[name] = kind
        return out

    assert public(AsyncClient) == public(Client)
    assert {"fetch_sorted", "closed", "is_demo", "server_info"} <= set(public(Client))
    for name, kind in public(Client).items():
        if kind == "method":
            sync_sig = inspect.signature(getattr(Client, name))
            async_sig = inspect.signature(getattr(AsyncClient, name))
            assert str(sync_sig).replace("Iterator", "") == str(async_sig).replace(
                "AsyncIterator", ""
            ).replace("AsyncBaseTransport", "BaseTransport"), name
    assert inspect.iscoroutinefunction(AsyncClient.fetch_sorted)
    assert inspect.isasyncgenfunction(AsyncClient.iter_pages)


def test_fetch_sorted_as_the_sync_client(url: str, database: Path) -> None:
    query = Query(fields=("id", "remarks"), filter=F("address.state") == 9)

    async def main() -> tuple[list[Any], list[int], bool]:
        async with _client(url, page_size=7) as client:
            first = await client.fetch_sorted("events", query, ["-remarks"], 20)
            sizes = await client.fetch_sorted("events", query, ["id"], 15, len, progress=False)
        return first, sizes, client.closed

    first, sizes, closed = run(main)
    assert closed
    with Client(url, token=TOKEN, page_size=7) as sync:
        assert [r for page in first for r in page] == [
            r for page in sync.fetch_sorted("events", query, ["-remarks"], 20) for r in page
        ]
    assert sizes == [7, 7, 1]


# -- retries --------------------------------------------------------------------------------


def test_retry_after_is_honoured_on_429(url: str) -> None:
    transport = Faulty(
        _on_items(
            lambda request, call: httpx.Response(
                429, headers={"Retry-After": "0.3"}, request=request
            ),
            1,
        )
    )

    async def main() -> int:
        async with _client(url, transport) as client:
            return await client.count("states")

    start = time.perf_counter()
    assert run(main) == 16
    assert time.perf_counter() - start >= 0.3  # backoff is 0: the wait is Retry-After's
    assert transport.calls == 2


def _connection_reset(request: httpx.Request, call: int) -> httpx.Response | None:
    raise httpx.ConnectError("connection reset by fault injection", request=request)


def _read_timeout(request: httpx.Request, call: int) -> httpx.Response | None:
    raise httpx.ReadTimeout("timed out by fault injection", request=request)


@pytest.mark.parametrize(
    "fault",
    [
        lambda request, call: httpx.Response(503, request=request),
        lambda request, call: httpx.Response(500, request=request),
        _connection_reset,
        _read_timeout,
        lambda request, call: httpx.Response(200, content=b'{"data": [{"id": 1', request=request),
        lambda request, call: httpx.Response(200, content=b"<html>proxy</html>", request=request),
    ],
    ids=["503", "500", "connect-error", "read-timeout", "truncated-json", "invalid-json"],
)
def test_passing_failures_are_retried(url: str, database: Path, fault: Fault) -> None:
    transport = Faulty(_on_items(fault, 3))

    async def main() -> list[Any]:
        async with _client(url, transport, retries=3) as client:
            return await client.fetch_all("courses", Query(fields=("id",)))

    rows = run(main)
    assert [r["id"] for r in rows] == [c["id"] for c in read_rows(database, "courses")]
    assert transport.paths.count("/items/courses") >= 3 + 3  # 3 faults, then the download


@pytest.mark.parametrize("seed", range(3))
def test_random_faults_never_lose_or_duplicate_rows(url: str, database: Path, seed: int) -> None:
    transport = Faulty(random_faults(seed))

    async def main() -> list[Any]:
        async with _client(url, transport, retries=8, page_size=23) as client:
            return await client.fetch_all("events", Query(fields=("id", "course")))

    rows = run(main)
    assert rows == [{"id": e["id"], "course": e["course"]} for e in read_rows(database, "events")]
    assert transport.calls > len(rows) // 23  # faults were really injected and retried


def test_a_failing_service_raises_after_retries(url: str) -> None:
    transport = Faulty(lambda request, call: httpx.Response(503, request=request))

    async def main() -> None:
        async with _client(url, transport, retries=2) as client:
            await client.list("events")

    with pytest.raises(ServiceUnavailable) as info:
        run(main)
    assert transport.calls == 3
    assert "HTTP 503" in info.value.message
    assert "after 3 attempts" in info.value.message
    assert TOKEN not in info.value.message


@pytest.mark.parametrize(
    ("status", "error"),
    [(400, InvalidQuery), (403, NotFoundOrForbidden), (401, AuthenticationError)],
)
def test_other_client_errors_are_not_retried(url: str, status: int, error: type) -> None:
    codes = {400: "INVALID_QUERY", 403: "FORBIDDEN", 401: "INVALID_CREDENTIALS"}
    body = {"errors": [{"message": "refused by fault injection", "extensions": {}}]}
    body["errors"][0]["extensions"] = {"code": codes[status]}
    transport = Faulty(
        _on_items(lambda request, call: httpx.Response(status, json=body, request=request), 99)
    )

    async def main() -> None:
        async with _client(url, transport) as client:
            await client.fetch_all("events")

    with pytest.raises(error, match="refused by fault injection"):
        run(main)
    assert transport.calls == 1


def test_a_real_refusal_is_not_retried(url: str) -> None:
    transport = Faulty(lambda request, call: None)

    async def main() -> None:
        async with _client(url, transport) as client:
            await client.list("courses", Query(fields=("titel",)))

    with pytest.raises(NotFoundOrForbidden, match='field "titel"'):
        run(main)
    assert transport.calls == 1


def test_a_collection_that_changes_while_paged_is_reported(url: str) -> None:
    def duplicate_a_row(request: httpx.Request, call: int) -> httpx.Response | None:
        if not request.url.path.startswith("/items/") or "filter_count" in str(request.url):
            return None
        real = httpx.HTTPTransport().handle_request(request)
        real.read()
        body = real.json()
        if body.get("data"):
            body["data"].append(body["data"][-1])  # the same row twice: an insert shifted it
        return httpx.Response(200, json=body, request=request)

    async def main() -> None:
        async with _client(url, Faulty(duplicate_a_row)) as client:
            await client.fetch_all("courses", Query(fields=("id",)))

    with pytest.raises(IncompleteDownload) as info:
        run(main)
    assert "expected" in info.value.message
    assert "distinct" in info.value.message
    assert "three times" in info.value.message


# -- errors and configuration ---------------------------------------------------------------


def test_unknown_collections_fail_before_any_request(url: str) -> None:
    transport = Faulty(lambda request, call: None)

    async def main() -> None:
        async with _client(url, transport) as client:
            for call in (
                client.fetch_all("event"),
                client.list("event"),
                client.count("event"),
                client.get("event", 1),
                client.fetch_pages("event"),
                client.fetch_sorted("event", None, ["id"], 5),
            ):
                with pytest.raises(NotFoundOrForbidden, match='Did you mean "events"'):
                    await call
            with pytest.raises(NotFoundOrForbidden, match='Did you mean "events"'):
                async for _ in client.iter_pages("event"):
                    pass

    run(main)
    assert transport.calls == 0


def test_the_token_never_shows(url: str) -> None:
    client = _client(url)
    assert repr(client) == f"AsyncClient({url!r}, token=set)"
    assert TOKEN not in repr(client)
    run(client.aclose)

    async def wrong() -> None:
        async with AsyncClient(url, token="wrong-token") as client:
            assert "wrong-token" not in repr(client)
            await client.list("events")

    with pytest.raises(AuthenticationError) as info:
        run(wrong)
    assert "wrong-token" not in str(info.value)

    async def anonymous() -> None:
        async with AsyncClient(url, token="") as client:
            assert repr(client) == f"AsyncClient({url!r}, token=none)"
            await client.list("events")

    with pytest.raises(NotFoundOrForbidden) as denied:
        run(anonymous)
    assert "EDUCATALOG_TOKEN" in str(denied.value)


def test_environment_configures_the_client(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EDUCATALOG_URL", url)
    monkeypatch.setenv("EDUCATALOG_TOKEN", TOKEN)

    async def main() -> str:
        async with AsyncClient() as client:
            assert client.base_url == url
            return (await client.get("states", 1))["name"]  # type: ignore[no-any-return]

    assert run(main) == "Baden-Württemberg"
    monkeypatch.delenv("EDUCATALOG_URL")
    with pytest.raises(UsageError, match="No service URL"):
        AsyncClient()
    with pytest.raises(ValueError, match="positive"):
        AsyncClient(url, max_concurrency=0)


def test_wildcards_warn_only_against_a_real_service(url: str) -> None:
    query = Query(filter=F("title").icontains("50%"))

    def not_reference(request: httpx.Request, call: int) -> httpx.Response | None:
        if request.url.path == "/server/info":
            return httpx.Response(200, json={"data": {"project": {"project_name": "KURS"}}})
        return None

    async def main() -> None:
        async with _client(url) as client:
            await client.list("courses", query)  # the reference server matches literally
        async with _client(url, Faulty(not_reference)) as client:
            with pytest.warns(UserWarning, match="wildcards"):
                await client.list("courses", query)

    run(main)
