"""Sorting (incl. through many-to-one and random), search, meta counts and pagination,
including a configured ``limit_max``.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance import LIMIT_MAX, Api, assert_error
from oracle import encode_params

SORTS: list[Any] = [
    None,
    "id",
    "-id",
    "max_participants",
    "-max_participants",
    "max_participants,-id",
    "-max_participants,remarks",
    "remarks",
    "-remarks",
    "is_inhouse,-event_start_date",
    "event_start_date",
    "-event_start_date",
    "course",
    "course.title",
    "-course.title",
    "course.title,-id",
    "address.state.name",
    "-address.state.name,max_participants",
    "address.city,-course.course_type.name",
    "instruction_form.category,instruction_time.name",
    ["-is_inhouse", "account"],
    "duration_unit,-min_participants",
]


@pytest.mark.parametrize("sort", SORTS, ids=str)
def test_sort(small: Api, sort: Any) -> None:
    small.check("events", {"sort": sort, "fields": "id", "limit": -1})
    small.check("events", {"sort": sort, "fields": "id,remarks", "limit": 7, "offset": 3})


@pytest.mark.parametrize(
    ("collection", "sort"),
    [
        ("event_costs", "value"),
        ("event_costs", "-value"),
        ("event_costs", "currency,-value"),
        ("event_costs", "course.title"),
        ("states", "name"),
        ("states", "-code"),
        ("addresses", "barrier_free,city"),
        ("addresses", "-state.name"),
        ("contacts", "last_name,first_name"),
        ("contacts", "-role,last_name"),
        ("courses", "-title"),
        ("courses", "course_type.name,-certifier.name"),
        ("events_contacts", "-contacts_id.last_name"),
    ],
)
def test_sort_other_collections(small: Api, collection: str, sort: str) -> None:
    small.check(collection, {"sort": sort, "fields": "id", "limit": -1})


def test_nulls_last_ascending_first_descending(small: Api) -> None:
    up = small.check("events", {"sort": "max_participants", "fields": "max_participants"})
    values = [r["max_participants"] for r in up["data"]]
    assert values[-1] is None
    assert values[0] is not None
    down = small.check("events", {"sort": "-max_participants", "fields": "max_participants"})
    assert down["data"][0]["max_participants"] is None


def test_decimals_sort_as_numbers(small: Api) -> None:
    body = small.check("event_costs", {"sort": "value", "fields": "value"})
    values = [r["value"] for r in body["data"] if r["value"] is not None]
    assert values[:3] == ["-5.00", "0.00", "12.50"]
    assert values[-1] == "1000000.00"


def test_random_sort(small: Api) -> None:
    """``?``: the same rows in some order; with a limit, valid distinct rows."""
    flt = {"max_participants": {"_nnull": True}}
    everything = small.expected("events", {"filter": flt, "fields": "id", "limit": -1})["data"]
    wanted = sorted(r["id"] for r in everything)
    for query in ("sort=?", "sort=%3F"):
        response = small.get(
            f"/items/events?{query}", encode_params({"filter": flt, "fields": "id", "limit": -1})
        )
        assert response.status_code == 200, response.text
        got = [r["id"] for r in response.json()["data"]]
        assert sorted(got) == wanted
    response = small.get(
        "/items/events",
        encode_params({"filter": flt, "fields": "id", "limit": 5, "sort": "?", "meta": "*"}),
    )
    assert response.status_code == 200, response.text
    body = response.json()
    got = [r["id"] for r in body["data"]]
    assert len(got) == len(set(got)) == 5
    assert set(got) <= set(wanted)
    total = len(small.oracle.rows["events"])
    assert body["meta"] == {"total_count": total, "filter_count": len(wanted)}


SEARCHES = [
    "excel",
    "EXCEL",
    "Straße",
    "STRASSE",
    "strasse",
    "äöü",
    "50%_off",
    "%",
    "_",
    "100%",
    "42",
    "-3",
    "12.5",
    "12.50",
    "1490",
    "1490.00",
    "42.0",
    "1e3",
    "0",
    "-0",
    "7",
    "2025",
    "2025-01-31",
    "true",
    "null",
    "kiel",
    "\u212a",
    " ",
    "   ",
    "a b",
    "example.org/e/1",
    "00000000-0000-4000-8000-000000000001",
    "00000000-0000-4000-8000-000000000002",
    "00000000-0000-4000-8000-00000000000",
    "00000000-0000-4000-8000",
    "00000000000040008000000000000001",
    "{00000000-0000-4000-8000-000000000001}",
    "00000000-0000-0000-0000-000000000000",
    "00000000-0000-4000-C000-000000000001",
    "-4000-",
    "99999999999999999999",
]


@pytest.mark.parametrize("search", SEARCHES)
def test_search(small: Api, search: str) -> None:
    for collection in ("events", "courses", "addresses", "event_costs", "contacts"):
        small.check(collection, {"search": search, "fields": "id", "limit": -1})


def test_search_rules(small: Api) -> None:
    def found(collection: str, search: str, **extra: Any) -> set[int]:
        params = {"search": search, "fields": "id", "limit": -1, **extra}
        return {r["id"] for r in small.check(collection, params)["data"]}

    assert found("events", "   ") == set()
    assert len(found("events", "")) == len(small.oracle.rows["events"])
    assert 5 in found("events", "42")  # own_offer_number "X-42" (text)
    assert 2 in found("events", "-3")  # account -3 (number)
    assert found("event_costs", "12.5") == {3}
    assert found("event_costs", "12.50") == set()
    assert 1 in found("events", "2")  # a foreign key: event 1's course is 2
    # uuids: equal to a whole hyphenated UUID (any case), never a part of one
    institution = small.oracle.rows["events"][0]["institution"]
    same = {e["id"] for e in small.oracle.rows["events"] if e["institution"] == institution}
    assert same
    assert found("events", institution) == same
    assert found("events", institution.upper()) == same
    assert found("events", institution[:-1]) == set()
    assert found("events", institution[:8]) == set()
    assert found("events", institution.replace("-", "")) == set()
    # dates and booleans are never searched
    assert found("events", "2025-01-31T10:00:00") == set()
    assert found("addresses", "True") == set()
    # search and filter are AND-ed
    both = found("events", "excel", filter={"max_participants": {"_nnull": True}})
    assert both == found("events", "excel") & found(
        "events", "", filter={"max_participants": {"_nnull": True}}
    )


def test_search_in_query_string(small: Api) -> None:
    small.check_query("events", "search=Excel+am&fields=id", {"search": "Excel am", "fields": "id"})
    small.check_query("events", "search=&fields=id", {"fields": "id"})
    small.check_query("events", "search=%2B&fields=id", {"search": "+", "fields": "id"})
    assert_error(small.raw("/items/events?search=a&search=b"), 400, "INVALID_QUERY")


def test_search_with_nul_byte_is_not_a_500(small: Api) -> None:
    response = small.raw("/items/events?search=%00&fields=id")
    assert response.status_code in (200, 400)
    if response.status_code == 200:
        assert response.json() == small.expected("events", {"search": "\0", "fields": "id"})


@pytest.mark.parametrize(
    "meta", ["total_count", "filter_count", "*", "total_count,filter_count", "filter_count,*"]
)
def test_meta(small: Api, meta: str) -> None:
    flt = {"remarks": {"_nnull": True}}
    small.check("events", {"meta": meta, "fields": "id", "filter": flt, "limit": 3})
    small.check("events", {"meta": meta, "fields": "id", "search": "excel", "limit": 0})
    small.check("events", {"meta": meta, "fields": "id", "page": 2, "limit": 5, "filter": flt})
    small.check("states", {"meta": meta})


def test_meta_counts(small: Api) -> None:
    body = small.check(
        "events", {"meta": "*", "filter": {"course": 1}, "limit": 2, "offset": 5, "fields": "id"}
    )
    assert body["meta"]["total_count"] == len(small.oracle.rows["events"])
    assert body["meta"]["filter_count"] == len(small.oracle.matching_ids("events", {"course": 1}))
    assert isinstance(body["meta"]["filter_count"], int)
    assert "meta" not in small.check("events", {"fields": "id"})
    query = "meta[]=total_count&meta[]=filter_count&filter[course]=1&fields=id&limit=1"
    response = small.raw(f"/items/events?{query}")
    assert response.json()["meta"] == body["meta"]


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"limit": 10},
        {"limit": -1},
        {"limit": 0},
        {"limit": 0, "meta": "*"},
        {"offset": 100},
        {"offset": 130},
        {"offset": 500},
        {"limit": 10, "offset": 125},
        {"limit": 10, "page": 1},
        {"limit": 10, "page": 3},
        {"limit": 10, "page": 14},
        {"limit": 10, "page": 99},
        {"page": 2},
        {"limit": 10, "page": 2, "offset": 3},
        {"limit": 10, "page": 0, "offset": 3},
        {"limit": -1, "page": 2},
        {"limit": -1, "offset": 7},
        {"limit": "20", "offset": " 2 "},
        {"limit": 0, "page": 3},
    ],
    ids=str,
)
def test_pagination(small: Api, params: dict[str, Any]) -> None:
    small.check("events", {"fields": "id", **params})


def test_default_limit_is_100(small: Api) -> None:
    body = small.check("events", {"fields": "id"})
    assert len(body["data"]) == 100
    page2 = small.check("events", {"fields": "id", "page": 2})
    assert page2["data"][0]["id"] == small.oracle.rows["events"][100]["id"]


def test_pages_cover_everything_once(small: Api) -> None:
    seen: list[int] = []
    for page in range(1, 20):
        params = {"fields": "id", "limit": 25, "page": page, "sort": "-remarks"}
        body = small.check("events", params)
        if not body["data"]:
            break
        seen += [r["id"] for r in body["data"]]
    assert sorted(seen) == [r["id"] for r in small.oracle.rows["events"]]


@pytest.mark.parametrize(
    "params",
    [
        {"limit": -1},
        {"limit": LIMIT_MAX},
        {"limit": 5},
        {},
        {"limit": -1, "page": 2},
        {"limit": -1, "offset": 10},
        {"limit": LIMIT_MAX, "page": 2},
        {"limit": -1, "meta": "*"},
    ],
    ids=str,
)
def test_limit_max(capped: Api, params: dict[str, Any]) -> None:
    body = capped.check("events", {"fields": "id", **params})
    if params.get("limit") == -1 and not params.get("offset") and not params.get("page"):
        assert len(body["data"]) == LIMIT_MAX


@pytest.mark.parametrize("limit", [LIMIT_MAX + 1, 1000])
def test_limit_above_max_is_refused(capped: Api, limit: int) -> None:
    capped.check_error("events", {"limit": limit}, status=400, code="INVALID_QUERY")


def test_contacts_with_limit_max(capped: Api) -> None:
    body = capped.check("contacts", {"fields": "id", "limit": -1, "meta": "*"})
    assert len(body["data"]) == LIMIT_MAX
    assert body["meta"]["filter_count"] == 150
