"""Large answers are streamed in constant memory, byte for byte as they were built whole;
the object budget is settled before any work; every query runs under a time budget, is
stopped when its client leaves, and waits for a bounded slot (or gets a 503)."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import orjson
import pytest

from educatalog.query import Query, bind
from educatalog.server import items, sql
from educatalog.server.app import FairShare, create_app
from educatalog.server.context import Context
from educatalog.server.guard import Cancelled, Guard, QueryTooLong
from educatalog.server.items import stream_items
from educatalog.server.plan import plan_list
from educatalog.server.store import Database
from educatalog.server.uvicorn_server import ServerThread

TOKEN = "streaming-token"
HEADERS = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def servers(small_database: Path) -> Iterator[tuple[httpx.Client, httpx.Client]]:
    """The same database served whole and with every answer streamed."""
    whole = create_app(small_database, tokens=[TOKEN], stream_rows=None)
    streamed = create_app(small_database, tokens=[TOKEN], stream_rows=0, whole_bytes=0)
    with (
        ServerThread(whole) as a,
        ServerThread(streamed) as b,
        httpx.Client(base_url=a.url, headers=HEADERS, timeout=30) as ca,
        httpx.Client(base_url=b.url, headers=HEADERS, timeout=30) as cb,
    ):
        yield ca, cb


QUERIES = [
    ("events", {}),
    ("events", {"limit": "-1"}),
    ("events", {"limit": "-1", "fields": "id,remarks,is_inhouse"}),
    ("event_costs", {"limit": "-1", "fields": "id,value,currency", "meta": "*"}),
    ("events", {"limit": "-1", "fields": "*.*", "meta": "filter_count"}),
    (
        "events",
        {"limit": "-1", "fields": "id,contacts.contacts_id.*", "deep[contacts][_limit]": "-1"},
    ),
    ("courses", {"limit": "-1", "fields": "id,events.id,events.contacts", "sort": "-title"}),
    ("courses", {"limit": "-1", "fields": "*,events.*", "deep[events][_limit]": "3"}),
    ("courses", {"limit": "7", "offset": "2", "fields": "id,title", "search": "excel"}),
    ("states", {"limit": "-1", "filter": '{"name": {"_icontains": "ß"}}', "meta": "*"}),
    ("states", {"limit": "-1", "filter": '{"id": {"_gt": 1000}}'}),
    ("states", {"limit": "0", "meta": "*"}),
    ("states", {"limit": "-1", "filter": '{"id": {"_gt": 1000}}', "fields": "*.*"}),
    ("addresses", {"limit": "-1", "fields": "*,state.*", "filter[state][_nnull]": "true"}),
    ("events", {"limit": "200", "filter": '{"remarks": {"_nnull": true}}', "fields": "id"}),
]


@pytest.mark.parametrize(("collection", "params"), QUERIES)
def test_streamed_answers_are_byte_identical(
    servers: tuple[httpx.Client, httpx.Client],
    small_database: Path,
    collection: str,
    params: dict[str, str],
) -> None:
    whole, streamed = servers
    a = whole.get(f"/items/{collection}", params=params)
    b = streamed.get(f"/items/{collection}", params=params)
    assert a.status_code == b.status_code == 200, (a.text[:200], b.text[:200])
    assert "content-length" in a.headers
    if params.get("limit") != "0":  # nothing to stream in an answer without rows
        assert b.headers.get("transfer-encoding") == "chunked"  # really streamed
    assert a.content == b.content
    assert b.headers["content-type"] == "application/json"
    # and both are what the general path (row dicts serialized by orjson) writes
    db = Database(small_database)
    bound = bind(Query.from_params(params), collection)
    with Context.lease(db) as ctx:
        rows, meta = items.read_items(ctx, bound)
    assert a.content == orjson.dumps({"data": rows, **({"meta": meta} if meta else {})})
    db.close()


def test_a_streamed_answer_that_ends_early_is_sent_whole(
    servers: tuple[httpx.Client, httpx.Client], small_database: Path
) -> None:
    """Answers chosen to be streamed (``limit=-1``) are sent whole, with their length, when
    they end within their first ``whole_bytes``; longer ones are streamed, the same bytes."""
    whole, _ = servers
    params = {"limit": "-1", "fields": "id,title", "sort": "id"}
    expected = whole.get("/items/courses", params=params).content
    size = len(expected)
    for whole_bytes, chunked in [(size, False), (size // 4, True)]:
        share = FairShare(queries=1, heavy=1, queue=1)  # a slot not given back: a timeout
        app = create_app(
            small_database, tokens=[TOKEN], stream_rows=0, whole_bytes=whole_bytes, share=share
        )
        with (
            ServerThread(app) as server,
            httpx.Client(base_url=server.url, headers=HEADERS, timeout=5) as c,
        ):
            answer = c.get("/items/courses", params=params)
            assert (answer.headers.get("transfer-encoding") == "chunked") is chunked
            assert ("content-length" in answer.headers) is not chunked
            assert answer.content == expected
            # the slot is given back each time
            assert all(c.get("/items/courses", params=params).content == expected for _ in range(3))
        app.state.database.close()


def test_stream_pieces_are_small_and_join_to_the_answer(small_database: Path) -> None:
    db = Database(small_database)
    bound = bind(Query(fields=("id", "course.title"), limit=-1), "events")
    with Context.lease(db) as ctx:
        pieces = list(stream_items(ctx, bound, chunk_rows=10))
    rows = json.loads(b"".join(pieces))["data"]
    assert len(rows) > 100
    assert len(pieces) == 1 + -(-len(rows) // 10) + 1  # head, chunks of 10 rows, tail
    db.close()


def test_the_object_budget_is_settled_before_the_work(
    small_database: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    attached: list[int] = []
    original = items._attach

    def spy(*args: object) -> None:
        attached.append(1)
        original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(items, "_attach", spy)
    for stream_rows in (None, 0):
        app = create_app(small_database, tokens=[TOKEN], stream_rows=stream_rows, max_objects=150)
        with ServerThread(app) as server, httpx.Client(base_url=server.url, headers=HEADERS) as c:
            response = c.get("/items/events", params={"fields": "id,course.id", "limit": -1})
        app.state.database.close()
        assert response.status_code == 400
        assert "more than 150" in response.json()["errors"][0]["message"]
    assert attached == []  # refused before any row was read or expanded


def test_objects_are_counted_in_sql_as_they_are_written(small_database: Path) -> None:
    db = Database(small_database)
    with Context.lease(db) as ctx:
        for fields, deep in [
            (("id", "course.id"), None),
            (("*", "events.*", "events.course.*"), {"events": {"_limit": 2}}),
            (("id", "contacts.contacts_id.*"), None),
        ]:
            coll = "courses" if "events.*" in fields else "events"
            bound = bind(Query(fields=fields, deep=deep, limit=-1), coll)
            rows, _ = items.read_items(ctx, bound)
            counter = sql.ObjectCount(db.schema)
            expression = counter.size(bound.collection, "t0", bound.fields, bound.deep)
            text = f"SELECT total({expression}) FROM {coll} AS t0"
            sizes: dict[int, int] = {}
            assert ctx.conn.execute(text).fetchone()[0] == _objects(rows, sizes)
    db.close()


def _objects(value: object, sizes: dict[int, int]) -> int:
    if isinstance(value, dict):
        return 1 + sum(_objects(v, sizes) for v in value.values())
    if isinstance(value, list):
        return sum(_objects(v, sizes) for v in value)
    return 0


def test_a_query_beyond_its_time_budget_gets_a_json_400(small_database: Path) -> None:
    app = create_app(small_database, tokens=[TOKEN], query_time=0.0)
    wide = {"_or": [{"remarks": {"_icontains": f"x{i}ä"}} for i in range(300)]}
    with ServerThread(app) as server, httpx.Client(base_url=server.url, headers=HEADERS) as c:
        for limit in ("-1", "100"):
            response = c.get(
                "/items/events", params={"filter": json.dumps(wide), "limit": limit, "meta": "*"}
            )
            assert response.status_code == 400, response.text[:200]
            assert response.headers["content-type"] == "application/json"
            assert "server's time" in response.json()["errors"][0]["message"]
        assert c.get("/server/ping").status_code == 200


def test_the_guard_stops_sqlite_when_cancelled_or_out_of_time(small_database: Path) -> None:
    db = Database(small_database)
    bound = bind(Query(filter=None, limit=-1, search="a"), "events")
    guard = Guard()
    guard.cancel()
    with db.lease(guard.progress, steps=100) as conn, pytest.raises(Cancelled):
        list(stream_items(Context(db, conn, guard), bound))
    guard = Guard(budget=0.0, per_row=0.0)
    with db.lease(guard.progress, steps=100) as conn, pytest.raises(QueryTooLong):
        list(stream_items(Context(db, conn, guard), bound))
    db.close()


def test_work_stops_when_the_client_leaves(small_database: Path) -> None:
    share = FairShare(queries=2, heavy=1, queue=8)
    # answers of more than 10 rows are large (heavy): the small catalogue's 132 events
    app = create_app(small_database, tokens=[TOKEN], share=share, stream_rows=10)
    with ServerThread(app) as server:
        for _ in range(3):
            sock = socket.create_connection(("127.0.0.1", server.port))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.sendall(
                b"GET /items/events?limit=-1&fields=*.*.*&deep[contacts][_limit]=-1 HTTP/1.1\r\n"
                b"Host: x\r\nAuthorization: Bearer " + TOKEN.encode() + b"\r\n\r\n"
            )
            assert sock.recv(12).startswith(b"HTTP/1.1 200")
            sock.close()
        # the slot of every abandoned answer comes back (waiting at most 30 s)
        deadline = time.monotonic() + 30
        while share.heavy.borrowed_tokens and time.monotonic() < deadline:
            time.sleep(0.05)
        assert share.heavy.borrowed_tokens == 0
        with httpx.Client(base_url=server.url, headers=HEADERS) as client:
            assert client.get("/items/events", params={"limit": -1}).status_code == 200


def test_past_the_bound_a_json_503_with_retry_after(small_database: Path) -> None:
    share = FairShare(queries=1, heavy=1, queue=0)
    # answers of more than 10 rows are large (heavy): the small catalogue's 132 events
    app = create_app(small_database, tokens=[TOKEN], share=share, stream_rows=10)
    with ServerThread(app) as server:
        # hold the one slot: a streamed answer the client does not read
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        sock.connect(("127.0.0.1", server.port))
        sock.sendall(
            b"GET /items/events?limit=-1&fields=*.*.*.*&deep[contacts][_limit]=-1 HTTP/1.1\r\n"
            b"Host: x\r\nAuthorization: Bearer " + TOKEN.encode() + b"\r\n\r\n"
        )
        deadline = time.monotonic() + 30
        while not share.heavy.borrowed_tokens and time.monotonic() < deadline:
            time.sleep(0.01)
        with httpx.Client(base_url=server.url, headers=HEADERS) as client:
            busy = client.get("/items/events", params={"limit": -1})
            small = client.get("/server/ping")
        sock.close()
        assert busy.status_code == 503
        assert busy.headers["retry-after"] == "1"
        assert busy.json()["errors"][0]["extensions"]["code"] == "SERVICE_UNAVAILABLE"
        assert small.status_code == 200


def test_a_budget_that_runs_out_while_streaming_ends_the_body_with_the_error(
    small_database: Path, monkeypatch: pytest.MonkeyPatch, tune: Callable[..., None]
) -> None:
    from educatalog import Client
    from educatalog.errors import InvalidQuery

    app = create_app(small_database, tokens=[TOKEN], stream_rows=0, whole_bytes=0)
    # the budget runs out once rows were written: after the first chunk
    monkeypatch.setattr(Guard, "_over", lambda self: self.rows > 0)
    tune(chunk_objects=20)  # chunks of 10 rows (2 objects each)
    tune(flat_depth=0)  # the course's object built in Python
    with ServerThread(app) as server:
        with httpx.Client(base_url=server.url, headers=HEADERS) as client:
            response = client.get("/items/events", params={"fields": "id,course.id"})
        assert response.status_code == 200  # sent before the budget ran out
        body = response.json()
        assert len(body["data"]) == 10
        assert body["errors"][0]["extensions"]["code"] == "INVALID_QUERY"
        assert "server's time" in body["errors"][0]["message"]
        with (
            Client(server.url, token=TOKEN, retries=0) as client,
            pytest.raises(InvalidQuery, match="server's time"),
        ):
            client.list("events", Query(fields=("id", "course.id")))


def test_no_answer_is_taken_for_larger_than_its_collection(small_database: Path) -> None:
    """``limit=-1`` of a collection of few rows is a page of those rows: read whole, with
    its length, in a light slot; only a collection that holds more rows streams."""
    app = create_app(small_database, tokens=[TOKEN], stream_rows=100, whole_bytes=0)
    service = app.state.service

    def streams(collection: str, **params: str) -> tuple[bool, bool]:
        query = Query.from_params(list(params.items()))
        plan = plan_list(service.db, service.limits, bind(query, collection))
        return plan.streamed, plan.heavy

    assert service.db.known_total("states") < 100
    assert streams("states", limit="-1") == (False, False)
    assert streams("states", limit="100000", fields="*.*") == (False, False)
    assert service.db.known_total("events") == 132
    # more than 100 rows, so heavy; plain fields are read whole up to 400
    assert streams("events", limit="-1") == (False, True)
    assert streams("events", limit="-1", fields="*.*") == (True, True)  # contacts expanded
    assert streams("events", limit="50", fields="*.*") == (False, False)
    # written by SQLite: whole up to 4 x 100 objects, nested ones counted (4 a row here)
    nested = "id,address.id,course.id,instruction_form.id"
    assert streams("events", limit="-1", fields=nested) == (True, True)  # 528 objects
    assert streams("events", limit="90", fields=nested) == (False, False)  # 360
    with ServerThread(app) as server, httpx.Client(base_url=server.url, headers=HEADERS) as c:
        answer = c.get("/items/states", params={"limit": "-1", "meta": "filter_count"})
        assert "content-length" in answer.headers
        states = service.db.known_total("states")
        assert answer.json()["meta"]["filter_count"] == len(answer.json()["data"]) == states
        answer = c.get("/items/events", params={"limit": "-1", "fields": "*.*"})
        assert "content-length" not in answer.headers  # streamed: chunked
        assert len(answer.json()["data"]) == 132
