"""Parsing of the query string: JSON and bracket filters, form encoding, keywords, lists,
and the 400s of invalid parameters.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote, urlencode

import pytest

from conformance import Api, assert_error
from oracle import bracket_pairs, encode_params

FILTERS: list[dict[str, Any]] = [
    {"max_participants": {"_gt": 10}},
    {"max_participants": 12},
    {"max_participants": {"_in": [12, 20]}},
    {"max_participants": {"_between": [10, 20]}},
    {"remarks": {"_icontains": "excel"}},
    {"remarks": {"_null": True}},
    {"is_inhouse": {"_eq": True}},
    {"is_inhouse": False},
    {"event_start_date": {"_gte": "2025-01-31"}},
    {"_or": [{"max_participants": {"_eq": 12}}, {"remarks": {"_contains": "%"}}]},
    {"_and": [{"course": {"_nnull": True}}, {"_or": [{"is_inhouse": True}, {"account": 42}]}]},
    {"course": {"title": {"_icontains": "excel"}}},
    {"address": {"state": {"name": {"_eq": "Berlin"}}}},
    {"contacts": {"contacts_id": {"last_name": {"_eq": "Weber"}}}},
    {"contacts": {"_none": {"contacts_id": {"last_name": {"_eq": "Weber"}}}}},
    {"remarks": {"_eq": "null"}},
    {"max_participants": {"_null": "false"}, "remarks": {"_nempty": True}},
    {"course": {"_eq": 1, "title": {"_icontains": "excel"}}},
    {"course": {"_nnull": True, "events": {"_none": {"is_inhouse": True}}}},
    {"event_start_date": {"_gte": "$NOW(-3 months)", "_lt": "$NOW"}},
    {"event_start_date": {"_between": "$NOW(-1 year),$NOW(+1 year)"}},
    {
        "institution": {
            "_in": ["00000000-0000-4000-8000-000000000002", "{00000000000040008000000000000003}"]
        }
    },
]


@pytest.mark.parametrize("flt", FILTERS, ids=lambda f: json.dumps(f, ensure_ascii=False))
def test_bracket_form_equals_json_form(small: Api, flt: dict[str, Any]) -> None:
    params = {"filter": flt, "fields": "id", "limit": -1}
    expected = small.check("events", params)
    pairs = [*bracket_pairs(flt), ("fields", "id"), ("limit", "-1")]
    response = small.get("/items/events", pairs)
    assert response.status_code == 200, response.text
    assert response.json() == expected


def test_bracket_list_forms(small: Api) -> None:
    """``[_in][]=a&[_in][]=b``, ``[_in][0]=...``, comma strings and JSON arrays agree."""
    params = {"filter": {"max_participants": {"_in": [12, 25]}}, "fields": "id", "limit": -1}
    expected = small.expected("events", params)
    assert expected["data"]
    for query in (
        "filter[max_participants][_in][]=12&filter[max_participants][_in][]=25",
        "filter[max_participants][_in][0]=12&filter[max_participants][_in][1]=25",
        "filter[max_participants][_in]=12,25",
        "filter[max_participants][_in]=12%2C25",
        "filter=" + quote('{"max_participants":{"_in":"12,25"}}'),
        "filter=" + quote('{"max_participants":{"_in":["12","25"]}}'),
    ):
        small.check_query("events", f"{query}&fields=id&limit=-1", params)


def test_bracket_or_with_index(small: Api) -> None:
    query = (
        "filter[_or][0][max_participants][_eq]=12"
        "&filter[_or][1][remarks][_icontains]=STRASSE&fields=id&limit=-1"
    )
    flt = {"_or": [{"max_participants": {"_eq": 12}}, {"remarks": {"_icontains": "STRASSE"}}]}
    body = small.check_query("events", query, {"filter": flt, "fields": "id", "limit": -1})
    assert body["data"]


def test_plus_is_a_space_everywhere(small: Api) -> None:
    """Form encoding: ``+`` is a space in every parameter, JSON ones included."""
    cases = [
        (
            'filter={"remarks":+{"_eq":+"Excel+am+Abend"}}&fields=id,+remarks',
            {"filter": {"remarks": {"_eq": "Excel am Abend"}}, "fields": ["id", "remarks"]},
        ),
        (
            "filter[remarks][_eq]=Excel+am+Abend&fields=id",
            {"filter": {"remarks": "Excel am Abend"}, "fields": "id"},
        ),
        ("search=Excel+am&fields=id&limit=-1", {"search": "Excel am", "fields": "id", "limit": -1}),
        (
            "sort=-max_participants,+id&fields=id,max_participants&limit=-1",
            {"sort": ["-max_participants", "id"], "fields": "id,max_participants", "limit": -1},
        ),
        (
            "filter[remarks][_icontains]=excel+EXCEL&fields=id",
            {"filter": {"remarks": {"_icontains": "excel excel"}}, "fields": "id"},
        ),
        ("filter[remarks][_contains]=%2B&fields=id", {"filter": {"remarks": {"_contains": "+"}}}),
    ]
    for query, params in cases:
        params = {"fields": "id", **params}
        small.check_query("events", query, params)
    body = small.check_query(
        "events",
        "filter[remarks][_eq]=Excel+am+Abend&fields=id",
        {"filter": {"remarks": "Excel am Abend"}, "fields": "id"},
    )
    assert body["data"] == [{"id": 1}]


def test_content_type_json_on_get_is_ignored(small: Api) -> None:
    params = {"filter": {"max_participants": {"_gte": 20}}, "fields": "id"}
    expected = small.expected("events", params)
    response = small.client.get(
        "/items/events",
        params=encode_params(params),
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 200
    assert response.json() == expected


@pytest.mark.parametrize(
    ("flt", "note"),
    [
        ({"remarks": "null"}, "null keyword: IS NULL, not the text"),
        ({"remarks": "NULL"}, "NULL keyword"),
        ({"remarks": {"_neq": "null"}}, "IS NOT NULL"),
        ({"remarks": {"_contains": "null"}}, "text operators see the text"),
        ({"remarks": "true"}, "true on a text field compares with the text"),
        ({"comment": {"_eq": True}}, "JSON true on a text field"),
        ({"comment": {"_in": [True, "TRUE"]}}, "true in a list"),
        ({"is_inhouse": "true"}, "boolean keyword"),
        ({"is_inhouse": "false"}, "boolean keyword"),
        ({"is_inhouse": "null"}, "null keyword on a boolean"),
        ({"is_inhouse": {"_eq": "1"}}, "1 on a boolean"),
        ({"max_participants": "null"}, "null keyword on an integer"),
        ({"max_participants": {"_eq": "12"}}, "numeric text"),
        ({"max_participants": {"_lt": "12.5"}}, "decimal text on an integer"),
        ({"max_participants": {"_in": "12, 20"}}, "comma list with a space"),
        ({"max_participants": {"_nin": "12,20"}}, "comma list"),
        ({"max_participants": {"_between": "10,20"}}, "comma range"),
        ({"event_start_date": {"_between": "2025-01-01,2025-01-31"}}, "comma date range"),
        ({"event_start_date": "null"}, "null keyword on a datetime"),
        ({"remarks": {"_in": "Straße,STRASSE"}}, "text list"),
    ],
    ids=lambda v: v if isinstance(v, str) else json.dumps(v),
)
def test_keywords_and_lists(small: Api, flt: dict[str, Any], note: str) -> None:
    params = {"filter": flt, "fields": "id", "limit": -1}
    expected = small.check("events", params)
    response = small.get("/items/events", [*bracket_pairs(flt), ("fields", "id"), ("limit", "-1")])
    assert response.status_code == 200, response.text
    assert response.json() == expected


def test_null_item_in_list_is_refused(small: Api) -> None:
    response = small.raw("/items/events?filter[remarks][_nin][0]=a&filter[remarks][_nin][1]=null")
    assert_error(response, 400, "INVALID_QUERY")
    small.check_error(
        "events",
        {"filter": {"remarks": {"_nin": ["Straße", "null"]}}},
        status=400,
        code="INVALID_QUERY",
    )


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ("filter={bad json}", 400, "INVALID_QUERY"),
        ("filter=" + quote('{"remarks": '), 400, "INVALID_QUERY"),
        ("filter=" + quote("[1, 2]"), 400, "INVALID_QUERY"),
        ("filter=" + quote('"remarks"'), 400, "INVALID_QUERY"),
        ("filter=" + quote('{"_and": {"id": 1}}'), 400, "INVALID_QUERY"),
        ("filter=" + quote('{"_or": 5}'), 400, "INVALID_QUERY"),
        ("filter=" + quote('{"_and": [1]}'), 400, "INVALID_QUERY"),
        ("filter=" + quote('{"_eq": 1}'), 400, "INVALID_QUERY"),
        ("filter=" + quote('{"remarks": {}}'), 400, "INVALID_QUERY"),
        ("filter=" + quote('{"remarks": {"_eq": {"a": 1}}}'), 400, "INVALID_QUERY"),
        ("filter=" + quote('{"remarks": {"_eq": "a", "x": 1}}'), 400, "INVALID_QUERY"),
        ("filter=" + quote('{"nope": {"_eq": 1}}'), 403, "FORBIDDEN"),
        ("filter=" + quote('{"course": {"nope": 1}}'), 403, "FORBIDDEN"),
        ("filter=" + quote('{"remarks": {"length": 1}}'), 400, "INVALID_QUERY"),
        ("filter[remarks][_eq]=", 400, "INVALID_QUERY"),
        ("filter[remarks]=", 400, "INVALID_QUERY"),
        ("filter[nope][_eq]=1", 403, "FORBIDDEN"),
        ("filter[remarks][_bogus]=1", 400, "INVALID_QUERY"),
        ("limit=abc", 400, "INVALID_QUERY"),
        ("limit=-2", 400, "INVALID_QUERY"),
        ("limit=1.5", 400, "INVALID_QUERY"),
        ("offset=-1", 400, "INVALID_QUERY"),
        ("offset=x", 400, "INVALID_QUERY"),
        ("page=-1", 400, "INVALID_QUERY"),
        ("page=one", 400, "INVALID_QUERY"),
        ("meta=count", 400, "INVALID_QUERY"),
        ("meta=total_count,bogus", 400, "INVALID_QUERY"),
        ("fields=nope", 403, "FORBIDDEN"),
        ("fields=id,course.nope", 403, "FORBIDDEN"),
        ("fields=remarks.id", 400, "INVALID_QUERY"),
        ("sort=nope", 403, "FORBIDDEN"),
        ("sort=-course.nope", 403, "FORBIDDEN"),
        ("sort=contacts", 400, "INVALID_QUERY"),
        ("sort=contacts.id", 400, "INVALID_QUERY"),
        ("deep=" + quote('{"nope": {"_limit": 1}}'), 403, "FORBIDDEN"),
        ("deep=" + quote('{"contacts": {"_limit": "x"}}'), 400, "INVALID_QUERY"),
        ("deep=" + quote('{"contacts": {"_limit": -5}}'), 400, "INVALID_QUERY"),
        ("deep=" + quote('{"remarks": {"_limit": 1}}'), 400, "INVALID_QUERY"),
    ],
)
def test_invalid_parameters(small: Api, query: str, status: int, code: str) -> None:
    assert_error(small.raw(f"/items/events?{query}"), status, code)


def test_unknown_field_messages_name_the_field(small: Api) -> None:
    for query in ("fields=id,nonexistent_field", "sort=nonexistent_field"):
        response = small.raw(f"/items/events?{query}")
        assert_error(response, 403, "FORBIDDEN", mentions="nonexistent_field")
    response = small.raw("/items/nonexistent_collection")
    assert_error(response, 403, "FORBIDDEN", mentions="nonexistent_collection")
    flt = quote('{"nonexistent_field": 1}')
    assert_error(
        small.raw(f"/items/events?filter={flt}"), 403, "FORBIDDEN", mentions="nonexistent_field"
    )


def test_invalid_json_message(small: Api) -> None:
    response = small.raw("/items/events?filter={nope")
    assert_error(response, 400, "INVALID_QUERY", mentions="Invalid JSON")


def test_fields_and_sort_lists(small: Api) -> None:
    """Comma lists and repeated ``name[]=`` entries, each trimmed."""
    params = {"fields": ["id", "remarks", "course"], "sort": ["-course", "id"], "limit": 20}
    expected = small.expected("events", params)
    for query in (
        "fields=id,remarks,course&sort=-course,id&limit=20",
        "fields[]=id&fields[]=remarks&fields[]=course&sort[]=-course&sort[]=id&limit=20",
        "fields=id, remarks ,course&sort= -course , id&limit=20",
    ):
        response = small.raw("/items/events?" + query.replace(" ", "%20"))
        assert response.status_code == 200, (query, response.text)
        assert response.json() == expected, query


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("fields=id,", '"fields[1]" is not allowed to be empty'),
        ("fields=,id", '"fields[0]" is not allowed to be empty'),
        ("fields=id,%20,remarks", '"fields[1]" is not allowed to be empty'),
        ("fields[]=id&fields[]=", '"fields[1]" is not allowed to be empty'),
        ("fields[]=", '"fields[0]" is not allowed to be empty'),
        ("sort=id,,remarks", '"sort[1]" is not allowed to be empty'),
        ("sort=-id,", '"sort[1]" is not allowed to be empty'),
        ("meta=total_count,", '"meta[1]" is not allowed to be empty'),
    ],
)
def test_empty_list_entries_are_refused(small: Api, query: str, message: str) -> None:
    """An empty entry in ``fields``/``sort``/``meta`` is a 400 that says which one."""
    assert_error(small.raw(f"/items/events?{query}"), 400, "INVALID_QUERY", mentions=message)


def test_empty_list_parameters_are_not_given(small: Api) -> None:
    for query, params in (
        ("fields=&limit=3", {"limit": 3}),
        ("sort=&fields=id&limit=-1", {"fields": "id", "limit": -1}),
        ("fields=&sort=&meta=&limit=2", {"limit": 2}),
    ):
        small.check_query("events", query, params)
    for params in ({"fields": "id,"}, {"sort": ["id", ""]}, {"meta": "*,"}):
        small.check_error("events", params, status=400, code="INVALID_QUERY")


def test_empty_filters_match_everything(small: Api) -> None:
    for flt in ({}, {"_and": []}, {"_or": []}, {"_and": [{"_or": []}]}):
        body = small.check("events", {"filter": flt, "fields": "id", "limit": -1})
        assert len(body["data"]) == len(small.oracle.rows["events"])
    body = small.check(
        "events",
        {"filter": {"_or": [{"_or": []}, {"max_participants": 12}]}, "fields": "id", "limit": -1},
    )
    assert len(body["data"]) == len(small.oracle.rows["events"])
    small.check(
        "events",
        {"filter": {"_and": [{"_or": []}, {"max_participants": 12}]}, "fields": "id", "limit": -1},
    )


def test_unknown_parameters_are_ignored(small: Api) -> None:
    expected = small.expected("events", {"fields": "id"})
    response = small.raw("/items/events?fields=id&foo=bar&versionRaw=true&export=")
    assert response.status_code == 200
    assert response.json() == expected


def test_query_string_of_urlencode(small: Api) -> None:
    """Python's urlencode (spaces as ``+``) of a JSON filter, as many clients send it."""
    flt = {"remarks": {"_in": ["Excel am Abend", "100% sicher"]}}
    query = urlencode({"filter": json.dumps(flt), "fields": "id, remarks"})
    small.check_query("events", query, {"filter": flt, "fields": "id,remarks"})
