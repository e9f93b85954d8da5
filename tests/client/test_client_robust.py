"""The client never hangs, never loses the demo mark, never crashes on an answer of the wrong
shape, never accepts rows it did not ask for, adapts to a gateway that caps pages silently,
and keeps a token given in the URL out of logs."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from databases import Databases
from educatalog import AsyncClient, Client, Query
from educatalog.demodata import collect
from educatalog.errors import ServiceUnavailable, UnexpectedAnswer
from educatalog.testing import serve

TOKEN = "robust-token"


@pytest.fixture(scope="module")
def records() -> dict[str, list[dict[str, Any]]]:
    return collect(scale=0.05)


@pytest.fixture(scope="module")
def robust_url(databases: Databases) -> Iterator[str]:
    """The demo catalogue at scale 0.05 (the rows of ``records``), marked as demo data."""
    with serve(database=databases.demo(0.05), token=TOKEN) as server:
        yield server.url


class Proxy(httpx.BaseTransport):
    """Forwards to the real server; ``change`` may rewrite a request's answer."""

    def __init__(self, change: Callable[[httpx.Request, httpx.Response], httpx.Response]):
        self.inner = httpx.HTTPTransport()
        self.change = change

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        response.read()
        return self.change(request, response)


# -- the slow body ------------------------------------------------------------------------


@pytest.fixture
def trickle() -> Iterator[str]:
    """A server that answers every request with a body of one byte every 0.2 s, forever."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    stop = threading.Event()

    def serve(conn: socket.socket) -> None:
        with conn:
            conn.recv(65536)
            conn.sendall(
                b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                b"content-length: 1000000\r\n\r\n{"
            )
            while not stop.wait(0.2):
                try:
                    conn.sendall(b" ")
                except OSError:
                    return

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    listener.close()


def test_a_trickled_body_ends_at_the_deadline(trickle: str) -> None:
    with (
        Client(trickle, token=TOKEN, timeout=3, deadline=1, retries=1, backoff=0) as client,
        pytest.raises(ServiceUnavailable, match="kept failing"),
    ):
        client.list("states")


def test_a_trickled_body_ends_at_the_deadline_async(trickle: str) -> None:
    async def run() -> None:
        async with AsyncClient(trickle, token=TOKEN, timeout=3, deadline=1, retries=0) as c:
            await c.list("states")

    with pytest.raises(ServiceUnavailable):
        asyncio.run(run())


def test_the_deadline_defaults_to_a_multiple_of_the_timeout() -> None:
    assert Client("http://127.0.0.1:9", timeout=3).deadline == 30
    assert Client("http://127.0.0.1:9", timeout=60).deadline == 300


# -- the demo flag --------------------------------------------------------------------------


def _failing_info(always: bool) -> Proxy:
    failures = [1]

    def change(request: httpx.Request, response: httpx.Response) -> httpx.Response:
        if request.url.path == "/server/info" and (always or failures):
            if failures:
                failures.pop()
            return httpx.Response(503, request=request)
        return response

    return Proxy(change)


def test_a_transient_failure_never_loses_the_demo_flag(robust_url: str) -> None:
    with Client(robust_url, token=TOKEN, transport=_failing_info(False), backoff=0) as client:
        assert client.is_demo
    # /server/info never answers: every answer of a demo server carries the header
    with Client(
        robust_url, token=TOKEN, transport=_failing_info(True), backoff=0, retries=1
    ) as client:
        client.list("states", Query(limit=1))
        assert client.is_demo


def test_the_demo_flag_reaches_the_frames(robust_url: str) -> None:
    import educatalog

    with Client(
        robust_url, token=TOKEN, transport=_failing_info(True), backoff=0, retries=1
    ) as client:
        frame = educatalog.load("states", client=client)
    assert frame.attrs["educatalog"]["demo"] is True


# -- answers of the wrong shape ---------------------------------------------------------------

WRONG = [
    b"[1, 2]",
    b'"pong"',
    b"null",
    b'{"data": 5}',
    b'{"data": [1, 2]}',
    b'{"data": {"id": 1}}',
    b'{"data": [], "meta": {"filter_count": "many"}}',
    b'{"data": [], "meta": []}',
    b'{"nothing": true}',
]


@pytest.mark.parametrize("body", WRONG)
def test_answers_of_the_wrong_shape_raise_an_educatalog_error(body: bytes) -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"content-type": "application/json"})

    with Client("http://service", token=TOKEN, transport=httpx.MockTransport(answer)) as client:
        for call in (
            lambda: client.list("states"),
            lambda: client.count("states"),
            lambda: client.fetch_all("states"),
            lambda: client.list("events", Query(fields=("id", "remarks"))),
        ):
            with pytest.raises(UnexpectedAnswer):
                call()
        if body != b'{"data": {"id": 1}}':
            with pytest.raises(UnexpectedAnswer):
                client.get("states", 1)

    async def run() -> None:
        transport = httpx.MockTransport(answer)
        async with AsyncClient("http://service", token=TOKEN, transport=transport) as client:
            with pytest.raises(UnexpectedAnswer):
                await client.fetch_all("states")
            with pytest.raises(UnexpectedAnswer):
                await client.count("states")

    asyncio.run(run())


def test_an_error_at_the_end_of_a_streamed_answer_raises_it() -> None:
    error = {"message": "too long", "extensions": {"code": "INVALID_QUERY"}}
    body = orjson.dumps({"data": [{"id": 1}], "errors": [error]})

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body)

    from educatalog.errors import InvalidQuery

    with (
        Client("http://service", token=TOKEN, transport=httpx.MockTransport(answer)) as client,
        pytest.raises(InvalidQuery, match="too long"),
    ):
        client.list("states")


# -- the window check -----------------------------------------------------------------------


def test_a_page_outside_the_requested_window_is_refused(robust_url: str) -> None:
    def change(request: httpx.Request, response: httpx.Response) -> httpx.Response:
        if "_lte" not in str(request.url):  # not a window page
            return response
        body = orjson.loads(response.content)
        body["data"] = [{**row, "id": row["id"] + 100_000} for row in body["data"]]
        return httpx.Response(200, content=orjson.dumps(body), request=request)

    with (
        Client(robust_url, token=TOKEN, transport=Proxy(change), page_size=50) as client,
        pytest.raises(UnexpectedAnswer, match="asked for ids in"),
    ):
        client.fetch_all("events", Query(fields=("id",)))


# -- a gateway that caps pages silently -------------------------------------------------------


def _capping(cap: int) -> Proxy:
    def change(request: httpx.Request, response: httpx.Response) -> httpx.Response:
        if not request.url.path.startswith("/items/"):
            return response
        body = orjson.loads(response.content)
        body["data"] = body["data"][:cap]
        return httpx.Response(200, content=orjson.dumps(body), request=request)

    return Proxy(change)


def test_page_size_adapts_to_a_gateway_that_caps_silently(
    robust_url: str, records: dict[str, list[dict[str, Any]]]
) -> None:
    expected = sorted(row["id"] for row in records["events"])
    assert len(expected) > 200
    with Client(robust_url, token=TOKEN, transport=_capping(30), page_size=100) as client:
        rows = client.fetch_all("events", Query(fields=("id",)))
    assert [row["id"] for row in rows] == expected

    async def run() -> list[dict[str, Any]]:
        transport = httpx.AsyncHTTPTransport()

        class Capped(httpx.AsyncBaseTransport):
            async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
                response = await transport.handle_async_request(request)
                await response.aread()
                if not request.url.path.startswith("/items/"):
                    return response
                body = orjson.loads(response.content)
                body["data"] = body["data"][:30]
                return httpx.Response(200, content=orjson.dumps(body), request=request)

        async with AsyncClient(robust_url, token=TOKEN, transport=Capped(), page_size=100) as c:
            return await c.fetch_all("events", Query(fields=("id",)))

    assert [row["id"] for row in asyncio.run(run())] == expected


# -- tokens and base URLs ---------------------------------------------------------------------


def test_a_token_in_the_url_is_used_and_never_logged(
    robust_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    host = robust_url.removeprefix("http://")
    caplog.set_level(logging.DEBUG)
    for url in (
        f"http://:{TOKEN}@{host}",
        f"http://{TOKEN}@{host}",
        f"{robust_url}?access_token={TOKEN}",
    ):
        with Client(url) as client:
            assert client.list("states", Query(limit=2)).data
            assert TOKEN not in repr(client)
            assert TOKEN not in client.base_url
    assert caplog.records  # httpx logged the requests ...
    assert TOKEN not in caplog.text  # ... without the token


def test_a_base_url_keeps_its_path_and_query() -> None:
    seen: list[httpx.URL] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.url)
        return httpx.Response(200, json={"data": [{"id": 1, "name": "x"}]})

    with Client(
        "http://service/api/v1?lang=de", token=TOKEN, transport=httpx.MockTransport(answer)
    ) as client:
        client.list("states")
    assert seen[0].path == "/api/v1/items/states"
    assert seen[0].params["lang"] == "de"


def test_tokens_from_a_file_and_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from educatalog.cli import _server_tokens, build_parser

    file = tmp_path / "tokens"
    file.write_text("# team tokens\nalpha\n\n beta  # the second\n")
    monkeypatch.setenv("EDUCATALOG_SERVER_TOKENS", "gamma, delta")
    args = build_parser().parse_args(["serve", "--db", "x", "--token-file", str(file)])
    assert _server_tokens(args) == ["alpha", "beta", "gamma", "delta"]
    monkeypatch.delenv("EDUCATALOG_SERVER_TOKENS")
    file.write_text("# nothing\n")
    with pytest.raises(ValueError, match="holds no token"):
        _server_tokens(args)
    args = build_parser().parse_args(["serve", "--db", "x"])
    assert _server_tokens(args) is None
