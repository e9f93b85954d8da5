"""``fields``: defaults, expansion of relations, junctions, nested caps and ``deep``, and the
retrieve-one endpoint.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

import pytest

from conformance import Api, assert_error
from educatalog.model.schema import SCHEMA
from oracle import OracleError

FIELD_SETS: list[Any] = [
    None,
    "*",
    "id",
    "id,remarks,course",
    "course.*",
    "course.title,course.events",
    "*,course.title",
    "course.title,*",
    "address.state.name",
    "address.state.*,id",
    "address.*.*",
    "contacts",
    "contacts.*",
    "contacts.id",
    "contacts.contacts_id",
    "contacts.contacts_id.*",
    "contacts.contacts_id.last_name,contacts.id",
    "id,contacts.contacts_id.first_name,contacts.contacts_id.last_name",
    "*.*",
    "instruction_form.name,instruction_time.*",
    "course.events.*",
    "contacts.events_id.course.title",
]


@pytest.mark.parametrize("fields", FIELD_SETS)
def test_fields_on_events(small: Api, fields: Any) -> None:
    params: dict[str, Any] = {"fields": fields, "limit": 15}
    small.check("events", params)
    small.check("events", {**params, "filter": {"id": {"_in": [1, 5, 8, 9, 11]}}})


@pytest.mark.parametrize(
    "fields",
    [
        None,
        "*",
        "events",
        "events.id,events.remarks",
        "costs.*",
        "costs.value,keywords.keyword,degrees.*",
        "handicaps",
        "handicaps.handicaps_id.name",
        "handicaps.*.*",
        "*.*",
        "course_type.name,certifier",
        "events.contacts.contacts_id.last_name",
    ],
)
def test_fields_on_courses(small: Api, fields: Any) -> None:
    small.check("courses", {"fields": fields, "limit": -1})


def test_default_fields_include_list_relations(small: Api) -> None:
    body = small.check("events", {"limit": 1})
    expected_names = set(SCHEMA["events"].field_names)
    assert set(body["data"][0]) == expected_names
    assert isinstance(body["data"][0]["contacts"], list)
    course = small.check("courses", {"limit": 1})["data"][0]
    assert set(course) == set(SCHEMA["courses"].field_names)


def test_unexpanded_relations(small: Api) -> None:
    """Many-to-one: the key; one-to-many: related ids; many-to-many: junction row ids."""
    event = small.check_item("events", 2, {"fields": "course,address,contacts"})["data"]
    assert event["course"] == 3
    junction_ids = [j["id"] for j in small.oracle.rows["events_contacts"] if j["events_id"] == 2]
    assert event["contacts"] == junction_ids
    assert event["contacts"] != [1, 2]  # the contacts' ids are not what is shown
    dangling = small.check_item("events", 10, {"fields": "course,course.title"})["data"]
    assert dangling == {"course": None}  # course 77 does not exist
    assert small.check_item("events", 10, {"fields": "course"})["data"] == {"course": 77}
    empty = small.check_item("courses", 10, {"fields": "events,handicaps"})["data"]
    assert empty == {"events": [], "handicaps": []}


def test_decimal_and_datetime_serialization(small: Api) -> None:
    body = small.check("event_costs", {"fields": "id,value", "limit": -1})
    values = [r["value"] for r in body["data"]]
    assert "1490.00" in values
    assert "12.50" in values
    assert "-5.00" in values
    assert None in values
    assert all(v is None or isinstance(v, str) for v in values)
    event = small.check_item("events", 1, {"fields": "event_start_date,is_inhouse,account"})
    assert event["data"] == {
        "event_start_date": "2025-01-01T00:00:00",
        "is_inhouse": False,
        "account": 42,
    }


def test_nested_lists_are_capped_at_100(small: Api) -> None:
    """An event with 150 contacts and a course with 120+ events show only 100 each."""
    for fields in ("contacts", "contacts.*", "contacts.contacts_id.last_name"):
        body = small.check("events", {"fields": fields, "filter": {"id": 1}})
        assert len(body["data"][0]["contacts"]) == 100
    for fields in ("events", "events.id", "events.contacts"):
        body = small.check("courses", {"fields": fields, "filter": {"id": 1}, "limit": -1})
        assert len(body["data"][0]["events"]) == 100
    body = small.check("courses", {"fields": "events.contacts", "filter": {"id": 2}})
    assert len(body["data"][0]["events"][0]["contacts"]) == 100  # event 1 under course 2


def test_nested_cap_does_not_depend_on_root_limit(small: Api) -> None:
    for limit in (1, 5, -1):
        body = small.check("events", {"fields": "id,contacts", "limit": limit})
        assert len(body["data"][0]["contacts"]) == 100


@pytest.mark.parametrize(
    ("fields", "deep"),
    [
        ("contacts", {"contacts": {"_limit": -1}}),
        ("contacts", {"contacts": {"_limit": 5}}),
        ("contacts", {"contacts": {"_limit": 0}}),
        ("contacts", {"contacts": {"_limit": 150}}),
        ("contacts", {"contacts": {"_limit": "120"}}),
        ("contacts.*", {"contacts": {"_limit": -1}}),
        ("contacts.contacts_id.*", {"contacts": {"_limit": 3}}),
        ("contacts.contacts_id.last_name", {"contacts": {"_limit": -1, "contacts_id": {}}}),
        ("course.events", {"course": {"events": {"_limit": 2}}}),
        ("course.events", {"course": {"events": {"_limit": -1}}}),
        ("id,contacts", {"course": {"_limit": 1}}),
    ],
)
def test_deep_limit(small: Api, fields: str, deep: dict[str, Any]) -> None:
    small.check("events", {"fields": fields, "deep": deep, "limit": 12})


def test_deep_on_courses(small: Api) -> None:
    body = small.check(
        "courses",
        {
            "fields": "id,events.id,events.contacts",
            "deep": {"events": {"_limit": -1, "contacts": {"_limit": 2}}},
            "limit": -1,
        },
    )
    course1 = next(c for c in body["data"] if c["id"] == 1)
    assert len(course1["events"]) == len(small.oracle.children("events", "course", 1))
    small.check("courses", {"fields": "events", "deep": {"events": {"_limit": 1}}, "limit": -1})


def test_deep_in_bracket_form(small: Api) -> None:
    params = {"fields": "contacts", "deep": {"contacts": {"_limit": -1}}, "filter": {"id": 1}}
    expected = small.expected("events", params)
    assert len(expected["data"][0]["contacts"]) == 150
    response = small.raw("/items/events?fields=contacts&deep[contacts][_limit]=-1&filter[id]=1")
    assert response.status_code == 200, response.text
    assert response.json() == expected


@pytest.mark.parametrize(
    ("item_id", "params"),
    [
        (1, None),
        (1, {"fields": "id,remarks"}),
        (1, {"fields": "contacts"}),
        (1, {"fields": "contacts", "deep": {"contacts": {"_limit": -1}}}),
        (1, {"fields": "*.*"}),
        (2, {"fields": "course.*,address.state.name"}),
        (5, {"fields": "contacts.contacts_id.*"}),
        (9, {"fields": "address.*"}),
        (101, {"fields": "course.title"}),
    ],
)
def test_retrieve_one(small: Api, item_id: int, params: dict[str, Any] | None) -> None:
    small.check_item("events", item_id, params)


def test_retrieve_one_of_other_collections(small: Api) -> None:
    small.check_item("courses", 1)
    small.check_item("courses", 1, {"fields": "*.*"})
    small.check_item("event_costs", 3)
    small.check_item("states", 4)
    small.check_item("events_contacts", 500)


def test_retrieve_one_has_no_meta(small: Api) -> None:
    for meta in ("total_count", "filter_count", "*"):
        expected = small.oracle.item("events", 1, {"fields": "id"})
        response = small.get("/items/events/1", [("fields", "id"), ("meta", meta)])
        assert response.status_code == 200
        assert response.json() == expected
        assert "meta" not in response.json()


@pytest.mark.parametrize(
    "item_id",
    [
        "99999",
        "0",
        "-1",
        "-0",
        "abc",
        "1.5",
        "1e3",
        "%20",
        "999999999999999999999999",
        "1e400",
        "Infinity",
        "0x",
        "0x1.8",
        "1_0",
        "%2B0x1",
        "1n",
        "1,0",
        "%E2%80%8B1",  # ZERO WIDTH SPACE is no white space to Number()
    ],
)
def test_retrieve_one_missing_or_not_an_integer(small: Api, item_id: str) -> None:
    with pytest.raises(OracleError) as info:
        small.oracle.item("events", unquote(item_id))
    assert info.value.status == 403
    assert_error(small.raw(f"/items/events/{item_id}"), 403, "FORBIDDEN")


@pytest.mark.parametrize(
    "item_id",
    [
        "01",
        "%201",
        "1%20",
        "%2B1",
        "+1",
        "1e0",
        "1E0",
        "1.0",
        "1.",
        ".1e1",
        "10e-1",
        "0x1",
        "0X01",
        "0o1",
        "0b1",
        "%091%0A",
        "%C2%A01",  # NO-BREAK SPACE
        "%EF%BB%BF1",  # BYTE ORDER MARK
        "0x65",
        "1.01e2",
    ],
)
def test_retrieve_one_reads_ids_as_javascript_numbers(small: Api, item_id: str) -> None:
    """An item id is read as JavaScript's ``Number()`` reads it, as Directus does."""
    expected = small.oracle.item("events", unquote(item_id), {"fields": "id,remarks"})
    response = small.raw(f"/items/events/{item_id}?fields=id,remarks")
    assert response.status_code == 200, response.text
    assert response.json() == expected


def test_retrieve_one_with_a_long_id_text(small: Api) -> None:
    item_id = "0" * 400 + "1"
    expected = small.oracle.item("events", item_id, {"fields": "id"})
    response = small.raw(f"/items/events/{item_id}?fields=id")
    assert response.status_code == 200, response.text
    assert response.json() == expected


def test_retrieve_one_errors(small: Api) -> None:
    assert_error(small.raw("/items/nope/1"), 403, "FORBIDDEN", mentions="nope")
    assert_error(small.raw("/items/events/1?fields=nope"), 403, "FORBIDDEN", mentions="nope")
    assert_error(small.raw("/items/events/1?fields=remarks.x"), 400, "INVALID_QUERY")
