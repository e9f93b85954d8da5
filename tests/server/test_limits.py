"""Queries beyond what a server should evaluate get a clear 400, never a 500, a hang or an
exhausted memory; and the smaller review findings (slashes, digits, duplicates) stay fixed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from educatalog.errors import NotFoundOrForbidden, error_from_body
from educatalog.server.app import create_app
from educatalog.server.uvicorn_server import ServerThread
from educatalog.testing import serve

TOKEN = "limits-token"
HEADERS = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def api(demo_database: Path) -> Iterator[httpx.Client]:
    with serve(database=demo_database, token=TOKEN) as server:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        with httpx.Client(base_url=server.url, headers=headers, timeout=60) as client:
            yield client


def _error(response: httpx.Response, status: int, needle: str) -> None:
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"] == "application/json"
    assert needle in response.json()["errors"][0]["message"]


def _nested(key: str, depth: int, leaf: dict) -> dict:
    out = leaf
    for _ in range(depth):
        out = {key: out}
    return out


def test_exploding_field_selections_are_refused(api: httpx.Client) -> None:
    _error(
        api.get("/items/courses", params={"fields": "*.*.*.*.*.*", "limit": 1}),
        400,
        "more than 1000 fields",
    )
    deep = ".".join(["course", "events"] * 6) + ".id"
    _error(api.get("/items/events", params={"fields": deep}), 400, "Max relational depth")
    _error(
        api.get("/items/events", params={"fields": ".".join(["course"] * 1000)}),
        400,
        "Max relational depth",
    )
    ok = api.get("/items/courses", params={"fields": "*.*", "limit": 2})
    assert ok.status_code == 200


def test_answers_with_too_many_objects_are_refused(demo_database: Path) -> None:
    app = create_app(demo_database, tokens=[TOKEN], max_objects=150)
    with ServerThread(app) as server, httpx.Client(base_url=server.url, headers=HEADERS) as api:
        # 100 events, each with its course written out again: 200 objects, counted as written
        fields = {"fields": "id,course.id"}
        _error(api.get("/items/events", params=fields), 400, "more than 150")
        assert api.get("/items/events", params={**fields, "limit": 50}).status_code == 200
    app.state.database.close()


def test_deep_and_wide_filters(api: httpx.Client, demo_records: dict[str, list[dict]]) -> None:
    deep = {"id": {"_eq": 1}}
    for _ in range(40):
        deep = {"_and": [deep]}
    _error(api.get("/items/events", params={"filter": json.dumps(deep)}), 400, "30 levels deep")
    brackets = "filter" + "[_and][0]" * 300 + "[id][_eq]=1"
    response = api.get(f"/items/events?{brackets}")
    assert response.status_code == 400
    wide = {"_or": [{"id": i} for i in range(1, 1000)]}
    response = api.get(
        "/items/events", params={"filter": json.dumps(wide), "fields": "id", "limit": -1}
    )
    assert response.status_code == 200
    expected = [e["id"] for e in demo_records["events"] if e["id"] < 1000]
    assert [r["id"] for r in response.json()["data"]] == expected
    too_wide = {"_or": [{"id": i} for i in range(1, 1100)]}
    _error(
        api.get("/items/events", params={"filter": json.dumps(too_wide)}),
        400,
        "more than 1000 conditions",
    )


def test_relational_depth_of_filters_sorts_and_deep(api: httpx.Client) -> None:
    ten = _nested("parent", 9, {"parent": {"_null": True}})
    assert api.get("/items/systematics", params={"filter": json.dumps(ten)}).status_code == 200
    eleven = _nested("parent", 11, {"id": {"_eq": 1}})
    _error(
        api.get("/items/systematics", params={"filter": json.dumps(eleven)}),
        400,
        "Max relational depth",
    )
    _error(
        api.get("/items/systematics", params={"sort": ".".join(["parent"] * 11) + ".id"}),
        400,
        "Max relational depth",
    )
    assert api.get("/items/events", params={"sort": ",".join(["id"] * 2001)}).status_code == 200
    many = ",".join(
        f"{'-' if i % 2 else ''}{f}"
        for i, f in enumerate(
            [
                "id",
                "remarks",
                "link",
                "institution",
                "address",
                "course",
                "comment",
                "account",
                "event_start_date",
                "event_end_date",
                "is_inhouse",
                "instruction_form",
                "max_participants",
                "min_participants",
                "duration_in_days",
                "duration_unit",
                "measure_number",
                "own_offer_number",
                "execution_form",
                "instruction_time",
                "education_voucher",
            ]
        )
    )
    _error(api.get("/items/events", params={"sort": many}), 400, "At most 20 sort fields")
    deep = _nested("events", 1, {"_limit": 1})
    for _ in range(6):
        deep = {"events": {"course": deep}}
    _error(
        api.get("/items/courses", params={"deep": json.dumps(deep)}), 400, "Max relational depth"
    )


def test_trailing_slashes_are_served_not_redirected(api: httpx.Client) -> None:
    plain = api.get("/items/states", params={"fields": "id"})
    slashed = api.get("/items/states/", params={"fields": "id", "access_token": ""})
    assert slashed.status_code == 200
    assert slashed.json() == plain.json()
    assert api.get("/items/states/1/").json()["data"]["id"] == 1


def test_only_ascii_digits_are_numbers(api: httpx.Client) -> None:
    _error(api.get("/items/states/\u0661"), 403, "ids are integers")  # ARABIC-INDIC DIGIT ONE
    _error(api.get("/items/states", params={"limit": "\u0661"}), 400, '"limit"')
    response = api.get("/items/states", params={"filter": json.dumps({"id": {"_eq": "\u0661"}})})
    _error(response, 400, "needs a number")


def test_huge_item_ids_are_no_items(api: httpx.Client) -> None:
    """Ids are read as JavaScript's Number() reads them: huge ones are no items, not 500s."""
    for raw in ("9" * 5000, "0x" + "f" * 5000, "1e" + "9" * 400, "-" + "9" * 400, "9" * 19):
        _error(api.get(f"/items/states/{raw}"), 403, "ids are integers")


def test_extreme_now_offsets_are_not_500s(api: httpx.Client) -> None:
    for offset in ("+99999999999 years", "-" + "9" * 400 + " ms", "9" * 400, "+1e400 days"):
        flt = {"event_start_date": {"_gt": f"$NOW({offset})"}}
        response = api.get("/items/events", params={"filter": json.dumps(flt), "limit": 1})
        assert response.status_code in (200, 400), (offset, response.text[:300])
        if response.status_code == 400:
            assert response.json()["errors"][0]["extensions"]["code"] == "INVALID_QUERY"


def test_query_string_forms(api: httpx.Client) -> None:
    _error(api.get("/items/states?filter[id][_eq]=1&filter[id][_eq]=2"), 400, "more than once")
    only_ids = api.get("/items/states?fields[0]=id&fields[1]=code&limit=1").json()["data"]
    assert only_ids == [{"id": 1, "code": "DE-BW"}]
    assert len(api.get("/items/states?filter=&deep=&limit=-1").json()["data"]) == 16


def test_a_refused_query_leaves_the_connection_usable(api: httpx.Client) -> None:
    for _ in range(3):
        assert api.get("/items/courses", params={"fields": "*.*.*.*.*.*"}).status_code == 400
        assert api.get("/items/states/1").status_code == 200


def test_odd_error_bodies_map_without_crashing() -> None:
    error = error_from_body(403, {"errors": [{"extensions": "x"}]}, "GET /items/x")
    assert isinstance(error, NotFoundOrForbidden)
    assert error_from_body(502, "<html>", "GET /").status == 503
