"""Authentication, error bodies and statuses, routes, content types, and "never a 500"."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, unquote

import httpx
import pytest

from conformance import TEST_TOKEN, Api, assert_error


def test_bearer_header(small_url: str, small: Api) -> None:
    expected = small.expected("states")
    for header in (f"Bearer {TEST_TOKEN}", f"bearer {TEST_TOKEN}", f"BEARER {TEST_TOKEN}"):
        response = httpx.get(f"{small_url}/items/states", headers={"Authorization": header})
        assert response.status_code == 200, header
        assert response.json() == expected


def test_access_token_query_parameter(small_url: str, small: Api) -> None:
    response = httpx.get(f"{small_url}/items/states", params={"access_token": TEST_TOKEN})
    assert response.status_code == 200
    assert response.json() == small.expected("states")
    response = httpx.get(
        f"{small_url}/items/events/1", params={"access_token": TEST_TOKEN, "fields": "id"}
    )
    assert response.json() == {"data": {"id": 1}}


def test_token_in_header_and_query_is_invalid_payload(small_url: str) -> None:
    for query_token in (TEST_TOKEN, "other"):
        response = httpx.get(
            f"{small_url}/items/states",
            params={"access_token": query_token},
            headers={"Authorization": f"Bearer {TEST_TOKEN}"},
        )
        assert_error(response, 400, "INVALID_PAYLOAD")


@pytest.mark.parametrize("path", ["/items/states", "/items/events/1", "/items/nope"])
def test_no_token_is_forbidden(anonymous: httpx.Client, path: str) -> None:
    assert_error(anonymous.get(path), 403, "FORBIDDEN")


@pytest.mark.parametrize(
    "headers",
    [
        {"Authorization": "Bearer wrong-token"},
        {"Authorization": f"Bearer {TEST_TOKEN}x"},
    ],
)
def test_unknown_token_is_invalid_credentials(anonymous: httpx.Client, headers: Any) -> None:
    assert_error(anonymous.get("/items/states", headers=headers), 401, "INVALID_CREDENTIALS")


def test_unknown_query_token_is_invalid_credentials(anonymous: httpx.Client) -> None:
    response = anonymous.get("/items/states", params={"access_token": "wrong"})
    assert_error(response, 401, "INVALID_CREDENTIALS")


def test_ping(anonymous: httpx.Client, small: Api) -> None:
    for client in (anonymous, small.client):
        response = client.get("/server/ping")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/json")
        assert response.json() == "pong"


@pytest.mark.parametrize(
    "path",
    ["/", "/nope", "/items", "/items/", "/items/events/1/extra", "/server", "/server/pong"],
)
def test_unknown_route(small: Api, path: str) -> None:
    assert_error(small.client.get(path), 404, "ROUTE_NOT_FOUND")


def test_unknown_collection_is_forbidden(small: Api) -> None:
    for collection in ("nope", "Events", "directus_users", "events_contact"):
        assert_error(small.raw(f"/items/{collection}"), 403, "FORBIDDEN", mentions=collection)


@pytest.mark.parametrize(
    "query",
    [
        "search=" + quote("\x00"),
        "search=" + quote("%_\\'\""),
        "filter=" + quote('{"remarks": {"_icontains": 5}}'),
        "filter=" + quote('{"remarks": {"_icontains": true}}'),
        "filter=" + quote('{"remarks": {"_icontains": "\\u0000"}}'),
        "filter=" + quote('{"remarks": {"_contains": "\'; DROP TABLE events; --"}}'),
        "filter=" + quote('{"id": {"_eq": 1e400}}'),
        "filter=" + quote('{"id": {"_eq": 1.5e308}}'),
        "filter=" + quote('{"id": {"_eq": "1e400"}}'),
        "filter=" + quote('{"id": {"_in": [' + ",".join(str(i) for i in range(500)) + "]}}"),
        "filter=" + quote('{"remarks": {"_in": [' + ",".join(f'"{i}"' for i in range(99)) + "]}}"),
        "filter=" + quote('{"event_start_date": {"_eq": "2025-01-01T00:00:00+99:00"}}'),
        "filter=" + quote('{"event_start_date": {"_eq": "9999-12-31T23:59:59-12:00"}}'),
        "filter=" + quote('{"event_start_date": {"_eq": "0001-01-01T00:00:00+01:00"}}'),
        "filter[_and][0][_or][0][id]=1&filter[_and][1]=x",
        "filter[id][_in][][]=1",
        "filter[id]=1&filter=" + quote('{"id": 1}'),
        "filter[id][_eq]=1&filter[id]=2",
        "filter[" + "a" * 5000 + "]=1",
        "fields=" + ",".join(["id"] * 2000),
        "fields=*.*.*.*",
        "fields=.",
        "fields=*.",
        "sort=-",
        "sort=?,-id",
        "sort=" + quote("-?"),
        "limit=99999999999999999999999",
        "offset=99999999999999999999999",
        "page=99999999999999999999999",
        "limit=10&page=99999999999999999",
        "deep=" + quote('{"contacts": {"_limit": 99999999999999999999999}}'),
        "deep=" + quote('{"contacts": {"_sort": "id"}}'),
        "deep=" + quote("[1]"),
        "deep[contacts][_limit]=x",
        "meta=",
        "fields=",
        "sort=",
        "filter=",
        "filter=null",
        "filter=" + quote('{"_and": [{"_and": [{"_and": [{"_and": [{"id": 1}]}]}]}]}'),
        "filter=" + quote('{"id": {"_eq": true}}'),
        "filter=" + quote('{"is_inhouse": {"_eq": 1.0}}'),
        "filter=" + quote('{"remarks": {"_eq": 1.0}}'),
        "filter=" + quote('{"remarks": {"_contains": 1.0}}'),
        "filter=" + quote('{"event_start_date": {"_gt": "$NOW(+99999999999 years)"}}'),
        "filter=" + quote('{"event_start_date": {"_gt": "$NOW(-' + "9" * 400 + ' ms)"}}'),
        "filter=" + quote('{"event_start_date": {"_gt": "$NOW(-1e400 days)"}}'),
        "filter=" + quote('{"event_start_date": {"_gt": "$NOW((((1))))"}}'),
        "filter=" + quote('{"event_start_date": {"_in": ["$NOW", "$NOW(1)", "$NOW("]}}'),
        "filter=" + quote('{"institution": {"_eq": "' + "0" * 5000 + '"}}'),
        "filter=" + quote('{"institution": {"_in": "' + ",".join(["{" * 40] * 3) + '"}}'),
        "filter=" + quote('{"institution": {"_eq": 12345678901234567890123456789012}}'),
        "filter=" + quote('{"contacts": {"_eq": 99999999999999999999999}}'),
        "search=" + quote("00000000-0000-4000-8000-000000000001\x00"),
    ],
    ids=lambda q: unquote(q)[:60],
)
def test_never_a_500(small: Api, query: str) -> None:
    response = small.raw(f"/items/events?{query}")
    assert response.status_code in (200, 400, 403), response.text
    body = response.json()
    if response.status_code == 200:
        assert isinstance(body["data"], list)
    else:
        assert body["errors"][0]["extensions"]["code"] in ("INVALID_QUERY", "FORBIDDEN")


@pytest.mark.parametrize(
    ("flt", "note"),
    [
        ({"id": {"_eq": 18446744073709551615}}, "an integer past SQLite's range"),
        ({"id": {"_gt": -9223372036854775809}}, "an integer below SQLite's range"),
        ({"max_participants": {"_lt": 99999999999999999999}}, "a huge integer"),
        ({"max_participants": {"_in": [1, 99999999999999999999]}}, "a huge integer in a list"),
        ({"max_participants": {"_eq": "99999999999999999999"}}, "huge numeric text"),
        ({"remarks": {"_eq": 99999999999999999999}}, "a huge integer on a text field"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_huge_numbers_are_numbers(small: Api, flt: dict[str, Any], note: str) -> None:
    """Values for numeric fields are cast to numbers: a huge one compares like any other."""
    small.check("events", {"filter": flt, "fields": "id", "limit": -1})


def test_methods_other_than_get(small: Api) -> None:
    for method in ("POST", "PATCH", "DELETE", "PUT"):
        response = small.client.request(method, "/items/events")
        assert response.status_code in (403, 404, 405), method
        assert response.headers["content-type"].startswith("application/json")
        assert response.json()["errors"][0]["extensions"]["code"]


def test_errors_are_json_with_one_error(small: Api, anonymous: httpx.Client) -> None:
    responses = [
        small.raw("/items/events?limit=x"),
        small.raw("/items/nope"),
        small.raw("/items/events/abc"),
        small.raw("/nope"),
        anonymous.get("/items/events"),
        anonymous.get("/items/events", headers={"Authorization": "Bearer nope"}),
    ]
    for response in responses:
        assert response.headers["content-type"].startswith("application/json")
        body = response.json()
        assert list(body) == ["errors"]
        assert body["errors"][0]["extensions"]["code"]
