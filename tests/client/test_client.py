"""The client over real HTTP against the reference server: complete downloads, retries,
page-size adaptation and clear errors, with faults injected between client and server."""

from __future__ import annotations

import ast
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from educatalog import Client, F, Query
from educatalog.client import _base as client_base
from educatalog.errors import (
    AuthenticationError,
    IncompleteDownload,
    NotFoundOrForbidden,
    ServiceUnavailable,
    UsageError,
)
from educatalog.model.schema import SCHEMA
from educatalog.server.store import read_rows
from faults import random_faults

TOKEN = "client-test-token"  # the token of the servers of tests/client/conftest.py


class Faulty(httpx.BaseTransport):
    """Forwards to the real transport, but sometimes answers with a fault instead."""

    def __init__(self, fault: Callable[[httpx.Request, int], httpx.Response | None]) -> None:
        self.inner = httpx.HTTPTransport()
        self.fault = fault
        self.calls = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.calls += 1
        injected = self.fault(request, self.calls)
        return injected if injected is not None else self.inner.handle_request(request)


def _client(url: str, transport: httpx.BaseTransport | None = None, **kw: object) -> Client:
    options: dict[str, object] = {"page_size": 97, "backoff": 0.0, "max_concurrency": 3}
    options.update(kw)
    return Client(url, token=TOKEN, transport=transport, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("collection", list(SCHEMA))
def test_fetch_all_returns_exactly_the_rows_of_the_database(
    url: str, database: Path, collection: str
) -> None:
    stored = [f.name for f in SCHEMA[collection].stored_fields]
    with _client(url) as client:
        rows = client.fetch_all(collection, Query(fields=tuple(stored)))
    assert rows == read_rows(database, collection)


def test_pages_of_plain_fields_are_arrow_and_give_row_dicts(url: str, database: Path) -> None:
    stored = read_rows(database, "states")
    query = Query(fields=("id", "name"))
    with _client(url) as client:
        page = client.list("states", query)
        # the converter of fetch_pages gets a list of row dicts, not Arrow posing as one
        (kind,) = client.fetch_pages("states", query, type)
        (rows,) = client.fetch_pages("states", query)
    assert page.arrow is not None  # decoded by pyarrow
    assert page.num_rows == len(stored)
    assert page.data == [{"id": s["id"], "name": s["name"]} for s in stored]
    assert kind is list
    assert rows == page.data


def test_filters_and_search_pass_through(url: str, database: Path) -> None:
    addresses = {a["id"]: a for a in read_rows(database, "addresses")}
    expected = [
        e["id"]
        for e in read_rows(database, "events")
        if e["address"] in addresses
        and addresses[e["address"]]["state"] == 9
        and (e["event_start_date"] or "") >= "2025-06-01"
    ]
    query = Query(
        fields=("id",), filter=(F("address.state") == 9) & (F("event_start_date") >= "2025-06-01")
    )
    with _client(url, page_size=13) as client:
        assert [r["id"] for r in client.fetch_all("events", query)] == expected
        assert client.count("events", query) == len(expected)
        found = client.fetch_all("courses", Query(fields=("id", "title"), search="excel"))
    assert found
    assert all("excel" in r["title"].lower() for r in found if r["title"])


def test_nested_lists_are_never_truncated(url: str, database: Path) -> None:
    events = read_rows(database, "events")
    per_course: dict[int, list[int]] = {}
    for e in events:
        per_course.setdefault(e["course"], []).append(e["id"])
    big = max(per_course, key=lambda c: len(per_course[c]))
    assert len(per_course[big]) > 100
    with _client(url) as client:
        (row,) = client.fetch_all("courses", Query(fields=("id", "events"), filter=F("id") == big))
        assert row["events"] == per_course[big]
        # without the client's care, the service caps nested lists at 100
        page = client.list("courses", Query(fields=("id", "events"), filter=F("id") == big))
        assert len(page.data[0]["events"]) == 100


def _refused(request: httpx.Request, most: int, words: str) -> httpx.Response | None:
    """A service that refuses pages of more than ``most`` rows, in ``words``."""
    limit = int(request.url.params.get("limit", "0"))
    if limit <= most:
        return None
    error = {"message": f"Invalid query. {words}", "extensions": {"code": "INVALID_QUERY"}}
    return httpx.Response(400, json={"errors": [error]})


@pytest.mark.parametrize(
    ("words", "refusals"),
    [
        ('"limit" must be less than or equal to 40.', 1),  # Directus: the maximum, at once
        ("Too large a limit.", 5),  # named nowhere: halved, 1000 -> 500 -> ... -> 31
    ],
)
def test_page_size_adapts_to_the_service_maximum(
    url: str, database: Path, words: str, refusals: int
) -> None:
    statuses: list[int] = []

    def refuse(request: httpx.Request, calls: int) -> httpx.Response | None:
        refused = _refused(request, 40, words)
        statuses.append(400 if refused else 200)
        return refused

    with _client(url, Faulty(refuse), page_size=1000) as client:
        rows = client.fetch_all("events", Query(fields=("id",)))
    assert [r["id"] for r in rows] == [e["id"] for e in read_rows(database, "events")]
    assert statuses.count(400) == refusals


def test_page_size_adapts_to_the_reference_server_s_maximum(
    capped_url: str, database: Path
) -> None:
    with _client(capped_url, page_size=1000) as client:
        rows = client.fetch_all("events", Query(fields=("id",)))
    assert [r["id"] for r in rows] == [e["id"] for e in read_rows(database, "events")]


@pytest.mark.parametrize("seed", range(8))
def test_random_faults_never_lose_or_duplicate_rows(url: str, database: Path, seed: int) -> None:
    transport = Faulty(random_faults(seed))
    with _client(url, transport, retries=8, page_size=61) as client:
        rows = client.fetch_all("events", Query(fields=("id", "course")))
    assert rows == [{"id": e["id"], "course": e["course"]} for e in read_rows(database, "events")]
    assert transport.calls > len(rows) // 61  # faults were really injected and retried


def test_a_failing_service_raises_after_retries(url: str) -> None:
    transport = Faulty(lambda request, call: httpx.Response(503, request=request))
    with _client(url, transport, retries=2) as client, pytest.raises(ServiceUnavailable) as info:
        client.list("events")
    assert transport.calls == 3
    assert "HTTP 503" in info.value.message
    assert TOKEN not in info.value.message


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

    with _client(url, Faulty(duplicate_a_row)) as client, pytest.raises(IncompleteDownload) as info:
        client.fetch_all("events", Query(fields=("id",)))
    assert "expected" in info.value.message
    assert "distinct" in info.value.message


def test_errors_are_clear_and_never_show_the_token(url: str) -> None:
    transport = Faulty(lambda request, call: None)
    with _client(url, transport) as client:
        with pytest.raises(NotFoundOrForbidden, match='Did you mean "events"'):
            client.fetch_all("event")
        assert transport.calls == 0  # unknown names fail before any request
        with pytest.raises(NotFoundOrForbidden, match='field "titel"'):
            client.list("courses", Query(fields=("titel",)))
        assert TOKEN not in repr(client)
    with Client(url, token="wrong-token") as client, pytest.raises(AuthenticationError) as info:
        client.list("events")
    assert "wrong-token" not in str(info.value)
    with Client(url, token="") as client, pytest.raises(NotFoundOrForbidden) as denied:
        client.list("events")
    assert "EDUCATALOG_TOKEN" in str(denied.value)


def test_environment_configures_the_client(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EDUCATALOG_URL", url)
    monkeypatch.setenv("EDUCATALOG_TOKEN", TOKEN)
    with Client() as client:
        assert client.base_url == url
        assert client.get("states", 1)["name"] == "Baden-Württemberg"
    monkeypatch.delenv("EDUCATALOG_URL")
    with pytest.raises(UsageError, match="No service URL"):
        Client()
    with pytest.raises(ValueError, match="positive"):  # a UsageError is a ValueError
        Client(url, page_size=0)


def test_wildcards_warn_only_against_a_real_service(url: str) -> None:
    query = Query(filter=F("title").icontains("50%"))
    with _client(url) as client:
        assert client.is_reference_server
        client.list("courses", query)  # no warning: the reference server matches literally

    def not_reference(request: httpx.Request, call: int) -> httpx.Response | None:
        if request.url.path == "/server/info":
            return httpx.Response(200, json={"data": {"project": {"project_name": "KURS"}}})
        return None

    with (
        _client(url, Faulty(not_reference)) as client,
        pytest.warns(UserWarning, match="wildcards"),
    ):
        client.list("courses", query)
    # `search` goes through LIKE on Directus too (the deviation `literal-wildcards`)
    with (
        _client(url, Faulty(not_reference)) as client,
        pytest.warns(UserWarning, match="The search '50%' contains % or _"),
    ):
        client.list("courses", Query(search="50%"))


def test_credentials_in_the_url_are_never_shown() -> None:
    from educatalog.frames.catalogue import Source

    url = "http://reader:s3cret@127.0.0.1:9/api?access_token=s3cret"
    client = Client(url, token="s3cret", retries=0)
    assert "s3cret" not in repr(client)
    with pytest.raises(ServiceUnavailable) as caught:
        client.list("states")
    assert "s3cret" not in str(caught.value)
    assert "http://127.0.0.1:9/api" in str(caught.value)
    source = Source(url=url, demo=False)
    assert source.url == "http://127.0.0.1:9/api"
    assert "s3cret" not in source.label
    client.close()


def test_a_failed_server_info_is_asked_again(small_url: str) -> None:
    """One 503 must not hide what the service is (and the demo mark) for good."""
    failures = [1]

    class OnceUnavailable(httpx.BaseTransport):
        def __init__(self) -> None:
            self.inner = httpx.HTTPTransport()

        def handle_request(self, request: httpx.Request) -> httpx.Response:
            if request.url.path == "/server/info" and failures:
                failures.pop()
                return httpx.Response(503)
            return self.inner.handle_request(request)

    with Client(small_url, token="t", transport=OnceUnavailable(), backoff=0) as client:
        assert client.is_reference_server  # the 503 was answered by asking again
        assert not failures


# -- one loop, in the transport layer ----------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
TRANSPORT = [
    "client/__init__.py",
    "client/_async_client.py",
    "client/_sync_client.py",
    "client/_concurrency.py",
    "client/_base.py",
    "client/_paging.py",
    "client/_decoding.py",
    "client/urls.py",
]


def test_the_sync_client_is_generated_from_the_async_one() -> None:
    """``scripts/unasync.py --check`` (also in ``make lint``) passes: the committed sync
    client is what the script makes of the async source."""
    check = subprocess.run(
        [sys.executable, "scripts/unasync.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr


def test_the_generated_client_says_where_it_comes_from() -> None:
    from educatalog.client import _async_client, _sync_client

    assert "This is the source" in (_async_client.__doc__ or "")
    doc = _sync_client.__doc__ or ""
    assert "Generated by ``scripts/unasync.py`` from :mod:`educatalog.client._async_client`" in doc
    assert "This is the source" not in doc


def test_the_unasync_check_fails_when_the_two_differ(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import unasync
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    source = tmp_path / "_async_client.py"
    target = tmp_path / "_sync_client.py"
    source.write_text((ROOT / "src/educatalog/client/_async_client.py").read_text(encoding="utf-8"))
    generated = (ROOT / "src/educatalog/client/_sync_client.py").read_text(encoding="utf-8")
    target.write_text(generated + "# edited by hand\n")
    files = unasync.FILES
    unasync.FILES = {source: target}
    try:
        assert unasync.main(["--check"]) == 1
        assert unasync.main([]) == 0  # written anew
        assert target.read_text(encoding="utf-8") == generated
        assert unasync.main(["--check"]) == 0
    finally:
        unasync.FILES = files


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("name", TRANSPORT)
def test_the_clients_never_import_the_pandas_layer(name: str) -> None:
    imported = _imports(ROOT / "src/educatalog" / name)
    higher = {
        "pandas",
        "educatalog.frames.typed",
        "educatalog.loading.loaders",
        "educatalog.catalogue_data",
    }
    assert not imported & higher, name
    assert "educatalog" not in imported  # the package __init__: everything


@pytest.mark.parametrize("page_size", [97, 250])
def test_a_large_download_shows_a_bar_in_an_interactive_session_whatever_the_page_size(
    url: str, page_size: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """More rows than ``PROGRESS_ROWS`` (lowered here) show a bar where someone watches
    (a terminal, a notebook's kernel), fewer do not; the page size changes neither (it
    decided once: 20 pages)."""
    monkeypatch.setitem(sys.modules, "ipykernel", types.ModuleType("ipykernel"))
    monkeypatch.setattr(client_base, "PROGRESS_ROWS", 200)
    with _client(url, page_size=page_size) as client:
        assert client.fetch_all("events", Query(fields=("id",)))  # more than 200 events
        assert "events" in capsys.readouterr().err
        client.fetch_all("states", Query(fields=("id",)))  # 16
        assert "states" not in capsys.readouterr().err
