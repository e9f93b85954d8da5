"""Hostile and careless requests: the server never answers 5xx (other than a busy 503) and
every answer it gives is JSON in the service's shape, down to malformed HTTP; idle
connections are closed and their number is capped; tokens can stay out of ``ps``.

The generated battery is bounded (a few thousand requests from a fixed seed, seconds).
"""

from __future__ import annotations

import json
import random
import socket
import string
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pytest

from educatalog.server.app import create_app
from educatalog.server.uvicorn_server import ServerThread

TOKEN = "hostile-token"
BIG = "9" * 4400  # beyond Python's int-string limit (4,300 digits)


@pytest.fixture(scope="module", params=["httptools", "h11"])
def server(small_database: Path, request: pytest.FixtureRequest) -> Iterator[ServerThread]:
    """The server with each of uvicorn's HTTP implementations (h11 when httptools, an
    optional dependency, is not installed)."""
    app = create_app(small_database, tokens=[TOKEN], query_time=5.0)
    options = {"header_timeout": 1.0, "max_connections": 50, "http": request.param}
    with ServerThread(app, **options) as running:
        yield running


def _raw(server: ServerThread, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` as raw bytes; the status, headers and body of the answer."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(request)
        data = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            data += chunk
            if b"\r\n\r\n" in data:
                head, _, body = data.partition(b"\r\n\r\n")
                length = [
                    int(line.split(b":")[1])
                    for line in head.lower().split(b"\r\n")
                    if line.startswith(b"content-length:")
                ]
                if length and len(body) >= length[0]:
                    break
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:] if ": " in line)
    if "content-length" in headers:  # the first answer only (a pipelined one may follow)
        body = body[: int(headers["content-length"])]
    return int(lines[0].split()[1]), headers, body


def _assert_json_error(status: int, headers: dict[str, str], body: bytes) -> dict:
    assert status < 500 or status == 503, (status, body[:300])
    assert headers.get("content-type") == "application/json", (status, headers, body[:200])
    parsed = orjson.loads(body)
    if status >= 400:
        assert parsed["errors"][0]["extensions"]["code"], parsed
    return parsed


AUTH = f"Authorization: Bearer {TOKEN}\r\n".encode()

RAW_REQUESTS = {
    "long URL": b"GET /items/events?search=" + b"x" * 200_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    "long header": b"GET /server/ping HTTP/1.1\r\nHost: x\r\nX-Long: "
    + b"y" * 200_000
    + b"\r\n\r\n",
    "many headers": b"GET /server/ping HTTP/1.1\r\nHost: x\r\n"
    + b"".join(b"X-%d: 1\r\n" % i for i in range(20_000))
    + b"\r\n",
    "raw non-ASCII path": b"GET /items/\xff\xfe\xc3 HTTP/1.1\r\nHost: x\r\n\r\n",
    "raw non-ASCII query": b"GET /items/events?search=\xff\xfe HTTP/1.1\r\nHost: x\r\n"
    + AUTH
    + b"\r\n",
    "unknown method": b"FOO /items/events HTTP/1.1\r\nHost: x\r\n\r\n",
    "lower-case method": b"get /items/events HTTP/1.1\r\nHost: x\r\n\r\n",
    "NUL in method": b"GE\x00T / HTTP/1.1\r\nHost: x\r\n\r\n",
    "junk": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(256)) + b"\r\n\r\n",
    "HTTP/2 preface": b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    "bad version": b"GET / HTTP/9.9\r\nHost: x\r\n\r\n",
    "space in target": b"GET /items/ev ents HTTP/1.1\r\nHost: x\r\n\r\n",
    "bad header line": b"GET / HTTP/1.1\r\nHost x\r\n\r\n",
    "bad chunked body": b"GET /server/ping HTTP/1.1\r\nHost: x\r\n"
    b"Transfer-Encoding: chunked\r\n\r\nzz\r\n",
    "conflicting lengths": b"GET /server/ping HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n"
    b"Content-Length: 2\r\n\r\nab",
    "two Authorization headers": b"GET /items/states HTTP/1.1\r\nHost: x\r\n"
    + AUTH
    + AUTH
    + b"\r\n",
    "bad percent-encoding": b"GET /items/events?filter=%zz%C3%28&search=%ff HTTP/1.1\r\nHost: x\r\n"
    + AUTH
    + b"\r\n",
    "NUL in path": b"GET /items/events%00/1 HTTP/1.1\r\nHost: x\r\n" + AUTH + b"\r\n",
    "absolute URI": b"GET http://evil.example/items/events HTTP/1.1\r\nHost: x\r\n"
    + AUTH
    + b"\r\n",
    "CONNECT": b"CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example\r\n\r\n",
    "OPTIONS *": b"OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n",
    "DELETE": b"DELETE /items/events/1 HTTP/1.1\r\nHost: x\r\n" + AUTH + b"\r\n",
    "HEAD": b"HEAD /server/ping HTTP/1.1\r\nHost: x\r\n\r\n",
}


@pytest.mark.parametrize("name", list(RAW_REQUESTS))
def test_malformed_http_gets_a_json_error(server: ServerThread, name: str) -> None:
    status, headers, body = _raw(server, RAW_REQUESTS[name])
    if name == "HEAD":
        assert status in (200, 404, 405), status  # no body to a HEAD
        return
    parsed = _assert_json_error(status, headers, body)
    if name == "two Authorization headers":
        assert status == 400
        assert parsed["errors"][0]["extensions"]["code"] == "INVALID_PAYLOAD"
    if name in ("long URL", "long header", "raw non-ASCII path"):
        assert status == 400
    if name == "unknown method":  # httptools refuses it; h11 passes it on to the routes
        assert status in (400, 404)


HUGE_INPUTS = [
    ("search", BIG),
    ("filter[id][_eq]", BIG),
    ("filter[max_participants][_gt]", "1" + "0" * 400),
    ("filter[id][_in]", f"1,{BIG}"),
    (f"filter[_or][{BIG}][id]", "1"),
    ("filter[_or][²][id]", "1"),
    ("filter", '{"id": {"_eq": ' + BIG + "}}"),
    ("filter", '{"id": {"_eq": 1e400}}'),
    ("limit", BIG),
    ("offset", BIG),
    ("page", BIG),
    ("deep[contacts][_limit]", BIG),
    ("sort", "-" * 5000),
    ("fields", "," * 5000),
    ("meta", "*," * 5000),
]


@pytest.mark.parametrize(("key", "value"), HUGE_INPUTS)
def test_huge_numbers_and_strings_give_json_errors(
    server: ServerThread, key: str, value: str
) -> None:
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        r = c.get(
            "/items/events",
            params={key: value, "fields": "id"} if key != "fields" else {key: value},
        )
        _assert_json_error(r.status_code, dict(r.headers), r.content)
        r = c.get(f"/items/events/{BIG}")
        assert r.status_code == 403


def test_ten_relations_in_deep_are_allowed(server: ServerThread) -> None:
    deep: dict = {"_limit": 1}
    for name in ["events", "course"] * 5:
        deep = {name: deep}
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        assert c.get("/items/events", params={"deep": json.dumps(deep)}).status_code == 200
        r = c.get("/items/courses", params={"deep": json.dumps({"events": deep})})
        assert r.status_code == 400
        assert "Max relational depth" in r.json()["errors"][0]["message"]


# -- the generated battery ---------------------------------------------------------------

_PIECES = [
    "",
    " ",
    "0",
    "-1",
    "1",
    "-0",
    "1.5",
    "1e3",
    "NaN",
    "Infinity",
    "null",
    "true",
    "false",
    "NULL",
    BIG,
    "-" + BIG,
    "0x10",
    "$NOW",
    "$NOW(-1 year)",
    "$NOW(" + "9" * 400 + " y)",
    "ä",
    "ß",
    "İ",
    "K",
    "\u212a",
    "😀",
    "\u0000",
    "\x7f",
    "%",
    "_",
    "\\",
    "'",
    '"',
    "[",
    "]",
    "{",
    "}",
    ",",
    ".",
    "*",
    "*.*",
    "*.*.*",
    "?",
    "-id",
    "id",
    "title",
    "course",
    "course.title",
    "contacts.contacts_id.*",
    "address.state.name",
    "events",
    "_eq",
    "_in",
    "_or",
    "_and",
    "_some",
    "_none",
    "_icontains",
    "_between",
    "_null",
    "_empty",
    "_limit",
    "2025-01-01",
    "2025-13-45T99:99:99",
    "e8e74ccd-ea99-4828-8c34-a8da2058951f",
    "x" * 3000,
    "é" * 2000,
]
_KEYS = [
    "filter",
    "fields",
    "sort",
    "search",
    "limit",
    "offset",
    "page",
    "meta",
    "deep",
    "access_token",
    "fields[]",
    "sort[]",
    "unknown",
    "filter[]",
    "deep[]",
]
_FIELDS = [
    "id",
    "title",
    "course",
    "remarks",
    "max_participants",
    "event_start_date",
    "contacts",
    "events",
    "address",
    "state",
    "name",
    "institution",
    "is_inhouse",
    "value",
    "nope",
    "_and",
    "_or",
    "_some",
    "_none",
]
_OPS = [
    "_eq",
    "_neq",
    "_lt",
    "_gte",
    "_in",
    "_nin",
    "_between",
    "_null",
    "_empty",
    "_contains",
    "_icontains",
    "_starts_with",
    "_nends_with",
    "_some",
    "_none",
    "_x",
    "",
]
_COLLECTIONS = [
    "events",
    "courses",
    "contacts",
    "states",
    "addresses",
    "event_costs",
    "events_contacts",
    "nope",
    "",
    "events/1",
    "events/" + BIG,
    "courses/x",
]


def _json_value(rng: random.Random, depth: int = 0) -> object:
    roll = rng.random()
    if depth > 4 or roll < 0.35:
        return rng.choice(
            [
                rng.choice(_PIECES),
                rng.randint(-(2**70), 2**70),
                rng.random() * 1e300,
                None,
                True,
                [],
                {},
            ]
        )
    if roll < 0.55:
        return [_json_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = _FIELDS + _OPS
    return {rng.choice(keys): _json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def _bracket_key(rng: random.Random, base: str) -> str:
    parts = [
        rng.choice([*_FIELDS, *_OPS, str(rng.randint(0, 30)), BIG[: rng.randint(1, 4400)], ""])
        for _ in range(rng.randint(1, 5))
    ]
    return base + "".join(f"[{p}]" for p in parts)


def _text(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.5:
        return rng.choice(_PIECES)
    if roll < 0.7:
        return ",".join(rng.choice(_PIECES + _FIELDS) for _ in range(rng.randint(1, 6)))
    if roll < 0.85:
        return json.dumps(_json_value(rng))
    return "".join(rng.choice(string.printable + "äß€\u0000") for _ in range(rng.randint(0, 40)))


def _request(rng: random.Random) -> str:
    collection = rng.choice(_COLLECTIONS)
    params = []
    for _ in range(rng.randint(0, 5)):
        roll = rng.random()
        if roll < 0.3:
            key = _bracket_key(rng, rng.choice(["filter", "deep", "fields", "sort", "meta"]))
        else:
            key = rng.choice(_KEYS)
        params.append((key, _text(rng)))
    query = urllib.parse.urlencode(params, quote_via=urllib.parse.quote)
    if rng.random() < 0.1:  # raw, not quite encoded
        query = query.replace("%5B", "[").replace("%5D", "]").replace("%2C", ",")
    return f"/items/{collection}" + (f"?{query}" if query else "")


def test_generated_hostile_queries_never_fail_the_server(server: ServerThread) -> None:
    if server.options["http"] == "h11":
        pytest.skip("the HTTP implementation does not matter here: once is enough")
    rng = random.Random(12)
    statuses: dict[int, int] = {}
    with httpx.Client(
        base_url=server.url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60
    ) as client:
        for _ in range(3000):
            url = _request(rng)
            response = client.get(url)
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
            try:
                _assert_json_error(response.status_code, dict(response.headers), response.content)
            except AssertionError as exc:
                raise AssertionError(f"GET {url[:500]}: {exc}") from None
    assert statuses.get(200, 0) > 100, statuses  # valid queries are reached too
    assert statuses.get(400, 0) > 100, statuses


# -- connections ------------------------------------------------------------------------


def test_connections_that_never_finish_their_headers_are_closed(server: ServerThread) -> None:
    socks = []
    for _ in range(20):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        sock.sendall(b"GET /server/ping HTTP/1.1\r\nHost: x\r\n")  # never finished
        socks.append(sock)
    for sock in socks:
        assert sock.recv(1) == b""  # closed by the server after its header timeout (1 s)
        sock.close()
    # and a keep-alive connection that idles after a request is closed too
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(b"GET /server/ping HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = b""
        while not answer.endswith(b'"pong"'):
            answer += sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /server/ping HTTP/1.1\r\n")
        assert sock.recv(1) == b""


def test_connections_beyond_the_cap_get_a_json_503(small_database: Path) -> None:
    app = create_app(small_database, tokens=[TOKEN])
    with ServerThread(app, max_connections=5, header_timeout=30) as server:
        socks = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(5)]
        time.sleep(0.2)  # let the server accept them
        status, headers, body = _raw(server, b"GET /server/ping HTTP/1.1\r\nHost: x\r\n\r\n")
        assert status == 503
        assert headers["retry-after"] == "1"
        _assert_json_error(status, headers, body)
        for sock in socks:
            sock.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if _raw(server, b"GET /server/ping HTTP/1.1\r\nHost: x\r\n\r\n")[0] == 200:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the server did not answer again once connections closed")


def test_a_dropped_null_row_condition_drops_its_parameters(server: ServerThread) -> None:
    """Was a 500: a condition on a row of nulls that an _and made false kept its SQL
    parameters (more bindings than placeholders)."""
    from conformance import small_records

    records = small_records()
    flt = {"events": {"_and": [{"contacts": {"_none": {"id": {"_gt": 1}}}}, {"id": {"_gt": 1}}]}}
    linked = {row["events_id"] for row in records["events_contacts"] if row["id"] > 1}
    expected = sorted(
        {e["course"] for e in records["events"] if e["id"] > 1 and e["id"] not in linked} - {None}
    )
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        r = c.get(
            "/items/courses",
            params={"filter": json.dumps(flt), "fields": "id", "limit": -1, "meta": "*"},
        )
    assert r.status_code == 200, r.text[:300]
    ids = [row["id"] for row in r.json()["data"]]
    known = {c["id"] for c in records["courses"]}
    assert ids == [i for i in expected if i in known]
    assert r.json()["meta"]["filter_count"] == len(ids)
