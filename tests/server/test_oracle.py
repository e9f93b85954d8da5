"""Unit checks of the oracle itself on tiny hand-made records, independent of the server."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from oracle import Oracle, OracleError, bracket_pairs, dynamic_now, encode_params

RECORDS: dict[str, list[dict[str, Any]]] = {
    "states": [{"id": 1, "name": "Berlin", "code": "DE-BE"}, {"id": 2, "name": "Bayern"}],
    "addresses": [
        {"id": 1, "institution": "u1", "city": "Berlin", "state": 1, "barrier_free": True},
        {"id": 2, "institution": "u1", "city": "MÜNCHEN", "state": 2, "barrier_free": False},
        {"id": 3, "institution": "u2", "city": None, "state": None, "barrier_free": None},
        {"id": 4, "institution": "u2", "city": "", "state": 9},
    ],
    "courses": [
        {"id": 1, "institution": "u1", "title": "Excel 50%_off"},
        {"id": 2, "institution": "u1", "title": "Straße"},
        {"id": 3, "institution": "u2", "title": None},
    ],
    "events": [
        {"id": 1, "institution": "u1", "course": 1, "address": 1, "max_participants": 10,
         "event_start_date": "2025-01-31T10:00:00", "is_inhouse": True},
        {"id": 2, "institution": "u1", "course": 1, "address": 3, "max_participants": None,
         "event_start_date": "2025-01-31T00:00:00", "is_inhouse": False},
        {"id": 3, "institution": "u2", "course": 2, "address": None, "max_participants": 42,
         "event_start_date": None, "is_inhouse": None},
        {"id": 4, "institution": "u2", "course": None, "address": 4, "max_participants": 5,
         "event_start_date": "2024-12-01T08:00:00"},
    ],
    "contacts": [
        {"id": 1, "institution": "u1", "first_name": "Anna", "last_name": "Weber"},
        {"id": 2, "institution": "u1", "first_name": "Berta", "last_name": "Weber"},
        {"id": 3, "institution": "u1", "first_name": "Anna", "last_name": "Schmidt"},
    ],
    "events_contacts": [
        {"id": 10, "events_id": 1, "contacts_id": 2},
        {"id": 11, "events_id": 1, "contacts_id": 3},
        {"id": 12, "events_id": 2, "contacts_id": 1},
    ],
    "event_costs": [
        {"id": 1, "course": 1, "value": "1490.00", "currency": "EUR"},
        {"id": 2, "course": 2, "value": "12.50", "currency": "EUR"},
        {"id": 3, "course": 2, "value": None, "currency": None},
    ],
}  # fmt: skip


@pytest.fixture(scope="module")
def o() -> Oracle:
    return Oracle(RECORDS)


def ids(o: Oracle, collection: str, flt: Any = None, search: str | None = None) -> list[int]:
    return o.matching_ids(collection, flt, search)


def test_shorthand_and_implicit_and(o: Oracle) -> None:
    assert ids(o, "events", {"course": 1}) == [1, 2]
    assert ids(o, "events", {"course": 1, "max_participants": {"_gte": 10}}) == [1]
    assert ids(o, "events", {}) == [1, 2, 3, 4]
    assert ids(o, "events", {"_and": []}) == [1, 2, 3, 4]
    assert ids(o, "events", {"_or": []}) == [1, 2, 3, 4]
    assert ids(o, "events", {"_and": [{"_or": []}, {"course": 2}]}) == [3]


def test_three_valued_logic(o: Oracle) -> None:
    assert ids(o, "events", {"max_participants": {"_neq": 10}}) == [3, 4]
    assert ids(o, "events", {"max_participants": {"_nin": [10]}}) == [3, 4]
    assert ids(o, "events", {"max_participants": {"_nbetween": [1, 9]}}) == [1, 3]
    assert ids(o, "events", {"max_participants": {"_eq": None}}) == [2]
    assert ids(o, "events", {"max_participants": {"_neq": "null"}}) == [1, 3, 4]
    assert ids(o, "events", {"max_participants": {"_null": False}}) == [1, 3, 4]
    assert ids(o, "events", {"max_participants": {"_nnull": "false"}}) == [2]
    assert ids(o, "courses", {"title": {"_ncontains": "z"}}) == [1, 2]


def test_numbers_are_cast(o: Oracle) -> None:
    assert ids(o, "events", {"max_participants": "42"}) == [3]
    assert ids(o, "events", {"max_participants": {"_in": "5,42"}}) == [3, 4]
    assert ids(o, "events", {"max_participants": {"_lt": 10.5}}) == [1, 4]
    assert ids(o, "event_costs", {"value": {"_gt": "12.5"}}) == [1]
    assert ids(o, "event_costs", {"value": 12.5}) == [2]
    with pytest.raises(OracleError) as info:
        ids(o, "events", {"max_participants": "ten"})
    assert info.value.status == 400


def test_text_operators(o: Oracle) -> None:
    assert ids(o, "courses", {"title": {"_contains": "%_"}}) == [1]
    assert ids(o, "courses", {"title": {"_contains": "%"}}) == [1]
    assert ids(o, "courses", {"title": {"_icontains": "STRASSE"}}) == []
    assert ids(o, "courses", {"title": {"_icontains": "STRAßE"}}) == [2]
    assert ids(o, "addresses", {"city": {"_istarts_with": "mü"}}) == [2]
    assert ids(o, "addresses", {"city": {"_starts_with": "mü"}}) == []
    assert ids(o, "addresses", {"city": {"_empty": True}}) == [3, 4]
    assert ids(o, "addresses", {"city": {"_nempty": True}}) == [1, 2]
    assert ids(o, "addresses", {"city": {"_empty": False}}) == [1, 2]
    assert ids(o, "addresses", {"city": {"_niends_with": "N"}}) == [4]


def test_datetimes(o: Oracle) -> None:
    between = {"event_start_date": {"_between": ["2025-01-01", "2025-01-31"]}}
    assert ids(o, "events", between) == [2]
    assert ids(o, "events", {"event_start_date": {"_gte": "2025-01-31 10:00"}}) == [1]
    assert ids(o, "events", {"event_start_date": {"_lt": "2025-01-01T00:00:00Z"}}) == [4]
    with pytest.raises(OracleError):
        ids(o, "events", {"event_start_date": {"_eq": 5}})


def test_booleans(o: Oracle) -> None:
    assert ids(o, "events", {"is_inhouse": True}) == [1]
    assert ids(o, "events", {"is_inhouse": {"_neq": "true"}}) == [2]
    assert ids(o, "events", {"is_inhouse": {"_eq": "0"}}) == [2]
    with pytest.raises(OracleError):
        ids(o, "events", {"is_inhouse": {"_in": [True]}})


def test_many_to_one(o: Oracle) -> None:
    assert ids(o, "events", {"address": {"state": {"name": {"_eq": "Berlin"}}}}) == [1]
    # an outer join: event 3 has no address, so its address's city is null
    assert ids(o, "events", {"address": {"city": {"_null": True}}}) == [2, 3]
    # event 2's address has no state, event 3 no address, event 4's address points at a
    # missing state: along each path the state's name is null
    assert ids(o, "events", {"address": {"state": {"name": {"_null": True}}}}) == [2, 3, 4]
    assert ids(o, "events", {"address": {"state": {"_null": True}}}) == [2, 3]
    assert ids(o, "events", {"address": {"state": {"id": {"_null": True}}}}) == [2, 3, 4]
    # three-valued logic along the path: a null never matches a negated operator
    assert ids(o, "events", {"address": {"state": {"name": {"_neq": "Berlin"}}}}) == []
    assert ids(o, "events", {"address": {"city": {"_nempty": True}}}) == [1]
    assert ids(o, "events", {"address": {"city": {"_empty": True}}}) == [2, 3, 4]
    assert ids(o, "events", {"course": {"title": {"_icontains": "excel"}}}) == [1, 2]
    assert ids(o, "events", {"course": {"title": {"_null": True}}}) == [4]


def test_operators_and_a_relational_filter_on_one_field(o: Oracle) -> None:
    assert ids(o, "events", {"course": {"_eq": 1, "title": {"_contains": "Excel"}}}) == [1, 2]
    assert ids(o, "events", {"course": {"_eq": 2, "title": {"_contains": "Excel"}}}) == []
    assert ids(o, "events", {"course": {"_null": True, "title": {"_null": True}}}) == [4]


def test_many_to_many_same_row(o: Oracle) -> None:
    weber = {"contacts": {"contacts_id": {"last_name": {"_eq": "Weber"}}}}
    anna = {"contacts": {"contacts_id": {"first_name": {"_eq": "Anna"}}}}
    assert ids(o, "events", weber) == [1, 2]
    assert ids(o, "events", anna) == [1, 2]
    # same related row within one _and: event 1 has a Weber and an Anna, not an Anna Weber
    assert ids(o, "events", {"_and": [weber, anna]}) == [2]
    # nested one level deeper, the _and is not direct: each holds separately
    assert ids(o, "events", {"_and": [{"_and": [weber]}, anna]}) == [1, 2]
    assert ids(o, "events", {"_or": [weber, anna]}) == [1, 2]
    # _some is a test of its own: it does not merge
    some_anna = {"contacts": {"_some": anna["contacts"]}}
    assert ids(o, "events", {"_and": [weber, some_anna]}) == [1, 2]
    none = {"contacts": {"_none": {"contacts_id": {"last_name": {"_eq": "Weber"}}}}}
    assert ids(o, "events", none) == [3, 4]


def test_one_to_many(o: Oracle) -> None:
    assert ids(o, "courses", {"events": {"max_participants": {"_gt": 20}}}) == [2]
    assert ids(o, "courses", {"events": {"_none": {"id": {"_nnull": True}}}}) == [3]
    assert ids(o, "courses", {"costs": {"_some": {"value": {"_null": True}}}}) == [2]
    # without a quantifier, course 3 (no events) matches where a row of nulls does
    assert ids(o, "courses", {"events": {"max_participants": {"_null": True}}}) == [1, 3]
    assert ids(o, "courses", {"events": {"id": {"_null": True}}}) == [3]
    assert ids(o, "courses", {"events": {"_some": {"max_participants": {"_null": True}}}}) == [1]
    assert ids(o, "events", {"contacts": {"contacts_id": {"_null": True}}}) == [3, 4]


def test_operators_on_list_fields_apply_to_the_related_ids(o: Oracle) -> None:
    assert ids(o, "courses", {"events": {"_null": True}}) == [3]
    assert ids(o, "courses", {"events": {"_nnull": True}}) == [1, 2]
    assert ids(o, "courses", {"events": {"_eq": 3}}) == [2]
    assert ids(o, "courses", {"events": 2}) == [1]
    assert ids(o, "courses", {"events": {"_in": [1, 3]}}) == [1, 2]
    assert ids(o, "events", {"contacts": {"_eq": 12}}) == [2]  # the junction row's id
    assert ids(o, "events", {"contacts": {"_null": True}}) == [3, 4]
    with pytest.raises(OracleError) as info:
        ids(o, "courses", {"events": {"_empty": True}})
    assert info.value.status == 400


def test_none_inside_a_row_of_nulls(o: Oracle) -> None:
    # event 4 has no course: in its row of nulls, _none holds only if no event anywhere
    # (with a course) matches; _some never holds
    nobody = {"course": {"events": {"_none": {"max_participants": {"_gt": 100}}}}}
    assert ids(o, "events", nobody) == [1, 2, 3, 4]
    somebody = {"course": {"events": {"_none": {"max_participants": {"_gt": 40}}}}}
    assert ids(o, "events", somebody) == [1, 2]
    assert ids(o, "events", {"course": {"events": {"_some": {"id": {"_nnull": True}}}}}) == [
        1,
        2,
        3,
    ]


def test_uuids(o: Oracle) -> None:
    records = {"courses": [{"id": 1, "institution": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"}]}
    u = Oracle(records)
    for form in (
        "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
        "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11",
        "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}",
        "a0eebc999c0b4ef8bb6d6bb9bd380a11",
        "a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11",
        "{a0eebc999c0b4ef8bb6d6bb9bd380a11}",
    ):
        assert ids(u, "courses", {"institution": form}) == [1], form
        assert ids(u, "courses", {"institution": {"_neq": form}}) == [], form
    for bad in (
        "a0eebc99",
        "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1",
        " a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
        "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
        "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}",
        "a-0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
        "+a0eebc999c0b4ef8bb6d6bb9bd380a1",
        "uuid:a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
        "g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
        5,
        True,
    ):
        with pytest.raises(OracleError):
            ids(u, "courses", {"institution": bad})
    for op in ("_contains", "_empty", "_nempty", "_starts_with", "_lt"):
        with pytest.raises(OracleError):
            ids(u, "courses", {"institution": {op: "a"}})
    # search: a whole hyphenated UUID of version 1-8, never a part of one
    assert ids(u, "courses", None, "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11") == [1]
    assert ids(u, "courses", None, "a0eebc99") == []
    assert ids(u, "courses", None, "a0eebc999c0b4ef8bb6d6bb9bd380a11") == []


def test_dynamic_now() -> None:
    now = dt.datetime(2025, 1, 31, 10, 0, 0, 250_400)
    cases = {
        "$NOW": dt.datetime(2025, 1, 31, 10, 0, 0, 250_000),
        "$NOW(+1 month)": dt.datetime(2025, 2, 28, 10, 0, 0, 250_000),
        "$NOW(-1 month)": dt.datetime(2024, 12, 31, 10, 0, 0, 250_000),
        "$NOW(1 year)": dt.datetime(2026, 1, 31, 10, 0, 0, 250_000),
        "$NOW(-2 weeks)": dt.datetime(2025, 1, 17, 10, 0, 0, 250_000),
        "$NOW(-31)": dt.datetime(2024, 12, 31, 10, 0, 0, 250_000),
        "$NOW(+1.9 days)": dt.datetime(2025, 2, 1, 10, 0, 0, 250_000),
        "$NOW(-36h)": dt.datetime(2025, 1, 29, 22, 0, 0, 250_000),
        "$NOW(90 MINUTES)": dt.datetime(2025, 1, 31, 11, 30, 0, 250_000),
        "$NOW(-250 ms)": dt.datetime(2025, 1, 31, 10, 0, 0),
        "$NOW(-0.5 ms)": dt.datetime(2025, 1, 31, 10, 0, 0, 249_000),
        "$NOW(1.5s)": dt.datetime(2025, 1, 31, 10, 0, 1, 750_000),
        "$NOW()": dt.datetime(2025, 1, 31, 10, 0, 0, 250_000),
        "$NOW(soon)": dt.datetime(2025, 1, 31, 10, 0, 0, 250_000),
        "$NOW(+1 fortnight)": dt.datetime(2025, 1, 31, 10, 0, 0, 250_000),
        "$NOWADAYS": dt.datetime(2025, 1, 31, 10, 0, 0, 250_000),
    }
    for text, moment in cases.items():
        assert dynamic_now(text, now) == moment, text
    leap = dt.datetime(2024, 2, 29, 12, 0)
    assert dynamic_now("$NOW(-1 year)", leap) == dt.datetime(2023, 2, 28, 12, 0)
    assert dynamic_now("$NOW(+4 y)", leap) == dt.datetime(2028, 2, 29, 12, 0)
    # fractions of days and months are cut as Date's setters cut them
    assert dynamic_now("$NOW(-0.5 d)", dt.datetime(2025, 3, 1)) == dt.datetime(2025, 2, 28)
    assert dynamic_now("$NOW(-0.5 d)", dt.datetime(2025, 3, 15)) == dt.datetime(2025, 3, 14)
    assert dynamic_now("$NOW(+0.5 d)", dt.datetime(2025, 3, 15)) == dt.datetime(2025, 3, 15)
    assert dynamic_now("$NOW(-0.5 mo)", dt.datetime(2025, 3, 15)) == dt.datetime(2025, 2, 15)
    assert dynamic_now("$NOW(+0.5 mo)", dt.datetime(2025, 3, 15)) == dt.datetime(2025, 3, 15)


def test_now_in_filters(o: Oracle) -> None:
    clocked = Oracle(RECORDS, now=dt.datetime(2025, 1, 31, 10, 0, 0))
    assert ids(clocked, "events", {"event_start_date": {"_gte": "$NOW"}}) == [1]
    assert ids(clocked, "events", {"event_start_date": {"_eq": "$NOW"}}) == [1]
    assert ids(clocked, "events", {"event_start_date": {"_lt": "$NOW(-10 hours)"}}) == [4]
    between = {"event_start_date": {"_between": ["$NOW(-2 months)", "$NOW(-1 h)"]}}
    assert ids(clocked, "events", between) == [2, 4]
    assert ids(clocked, "events", {"event_start_date": {"_in": "$NOW,$NOW(-10h)"}}) == [1, 2]
    assert ids(clocked, "courses", {"events": {"event_start_date": {"_gt": "$NOW(-1d)"}}}) == [1]
    with_ms = Oracle(RECORDS, now=dt.datetime(2025, 1, 31, 10, 0, 0, 1000))
    assert ids(with_ms, "events", {"event_start_date": {"_eq": "$NOW"}}) == []
    with pytest.raises(OracleError):  # only on datetime fields
        ids(clocked, "events", {"max_participants": {"_lt": "$NOW"}})
    assert ids(clocked, "courses", {"title": "$NOW"}) == []  # text: just the text


def test_list_parameters(o: Oracle) -> None:
    assert o.list("states", {"fields": "", "sort": ""}) == o.list("states")
    assert o.list("states", {"fields": " id , name", "sort": ["-id"]})["data"][0] == {
        "id": 2,
        "name": "Bayern",
    }
    for params in (
        {"fields": "id,"},
        {"fields": ["id", ""]},
        {"sort": "id,,name"},
        {"sort": " "},
        {"meta": "total_count,"},
    ):
        with pytest.raises(OracleError) as info:
            o.list("states", params)
        assert info.value.status == 400, params
    with pytest.raises(OracleError) as info:
        o.list("states", {"fields": "id,"})
    assert '"fields[1]" is not allowed to be empty' in info.value.message


def test_item_ids_read_as_javascript_numbers(o: Oracle) -> None:
    one = o.item("events", 1, {"fields": "id"})
    for text in ("01", " 1", "1 ", "+1", "1e0", "1.0", "1.", ".1e1", "0x1", "0B1", "0o1", "\t1"):
        assert o.item("events", text, {"fields": "id"}) == one, text
    assert o.item("events", "4e0", {"fields": "id"}) == {"data": {"id": 4}}
    for text in ("1.5", "abc", "0x", "Infinity", "1e400", "", " ", "-0", "1_0", "+0x1", "1n"):
        with pytest.raises(OracleError) as info:
            o.item("events", text)
        assert info.value.status == 403, text


def test_errors(o: Oracle) -> None:
    def status(flt: Any) -> tuple[int, str]:
        with pytest.raises(OracleError) as info:
            ids(o, "events", flt)
        return info.value.status, info.value.code

    assert status({"nope": 1}) == (403, "FORBIDDEN")
    assert status({"remarks": {"_gt": "a"}}) == (400, "INVALID_QUERY")
    assert status({"remarks": {"_foo": "a"}}) == (400, "INVALID_QUERY")
    assert status({"remarks": ""}) == (400, "INVALID_QUERY")
    assert status({"id": {"_in": []}}) == (400, "INVALID_QUERY")
    assert status({"id": {"_in": [1, None]}}) == (400, "INVALID_QUERY")
    assert status({"id": {"_between": [1]}}) == (400, "INVALID_QUERY")
    assert status({"_and": {"id": 1}}) == (400, "INVALID_QUERY")
    assert status({"course": {"_some": {"id": 1}}}) == (400, "INVALID_QUERY")
    assert status({"contacts": {"_empty": True}}) == (400, "INVALID_QUERY")
    assert status({"contacts": {"_eq": "x"}}) == (400, "INVALID_QUERY")
    assert status({"remarks": {"_nicontains": "a"}}) == (400, "INVALID_QUERY")
    assert status({"course": {"_eq": 1, "_some": {"id": 1}}}) == (400, "INVALID_QUERY")
    assert status({"course": {"_eq": 1, "nope": 1}}) == (403, "FORBIDDEN")
    assert status({"course": {"_eq": "x", "nope": 1}}) == (400, "INVALID_QUERY")
    assert status({"remarks": {"_eq": "a", "x": 1}}) == (400, "INVALID_QUERY")
    assert status({"contacts": {"last_name": "Weber"}}) == (403, "FORBIDDEN")
    assert status({"remarks": {"_null": "maybe"}}) == (400, "INVALID_QUERY")


def test_search(o: Oracle) -> None:
    assert ids(o, "courses", None, "STRAßE") == [2]
    assert ids(o, "courses", None, "50%") == [1]
    assert ids(o, "events", None, "42") == [3]
    assert ids(o, "events", None, "42.0") == []
    assert ids(o, "events", None, "   ") == []
    assert ids(o, "events", None, "") == [1, 2, 3, 4]
    assert ids(o, "event_costs", None, "12.5") == [2]
    assert ids(o, "event_costs", None, "2") == [2, 3]  # course 2 (a foreign key)


def test_fields_and_relations(o: Oracle) -> None:
    body = o.item("events", 1, {"fields": ["id", "contacts", "course.title", "address.state.*"]})
    assert body == {
        "data": {
            "id": 1,
            "contacts": [10, 11],
            "course": {"title": "Excel 50%_off"},
            "address": {"state": {"id": 1, "name": "Berlin", "code": "DE-BE"}},
        }
    }
    body = o.item("events", 1, {"fields": "contacts.contacts_id.last_name"})
    names = [{"contacts_id": {"last_name": "Weber"}}, {"contacts_id": {"last_name": "Schmidt"}}]
    assert body == {"data": {"contacts": names}}
    body = o.item("events", 4, {"fields": "address.state"})
    assert body == {"data": {"address": {"state": 9}}}
    body = o.item("events", 4, {"fields": "address.state.name"})
    assert body == {"data": {"address": {"state": None}}}
    body = o.item("courses", 2, {"fields": "*"})
    assert body["data"]["events"] == [3]
    assert body["data"]["costs"] == [2, 3]
    assert body["data"]["handicaps"] == []
    cost = o.item("event_costs", 2)["data"]
    assert cost["value"] == "12.50"
    with pytest.raises(OracleError) as info:
        o.item("events", 99)
    assert info.value.status == 403
    with pytest.raises(OracleError) as info:
        o.item("events", "abc")
    assert info.value.status == 403


def test_deep_limit(o: Oracle) -> None:
    body = o.item("events", 1, {"fields": "contacts", "deep": {"contacts": {"_limit": 1}}})
    assert body == {"data": {"contacts": [10]}}
    body = o.item("events", 1, {"fields": "contacts", "deep": {"contacts": {"_limit": 0}}})
    assert body == {"data": {"contacts": []}}


def test_sort(o: Oracle) -> None:
    def order(sort: Any, collection: str = "events") -> list[int]:
        data = o.list(collection, {"sort": sort, "fields": "id"})["data"]
        return [r["id"] for r in data]

    assert order("max_participants") == [4, 1, 3, 2]
    assert order("-max_participants") == [2, 3, 1, 4]
    assert order("course,-id") == [2, 1, 3, 4]
    assert order("-course.title") == [4, 3, 1, 2]  # null first, then Straße, Excel (ties: id)
    assert order("address.state.name") == [1, 2, 3, 4]  # Berlin, then nulls by id
    assert order("-address.state.name") == [2, 3, 4, 1]
    assert order(["event_start_date"]) == [4, 2, 1, 3]
    assert order("-value", "event_costs") == [3, 1, 2]


def test_pagination_and_meta(o: Oracle) -> None:
    def page(**params: Any) -> list[int]:
        return [r["id"] for r in o.list("events", {"fields": "id", **params})["data"]]

    assert page(limit=2) == [1, 2]
    assert page(limit=2, page=2) == [3, 4]
    assert page(limit=2, page=2, offset=3) == [3, 4]
    assert page(limit=2, page=0, offset=3) == [4]
    assert page(limit=-1, page=2) == [1, 2, 3, 4]
    assert page(limit=0) == []
    assert page(offset=1) == [2, 3, 4]
    body = o.list("events", {"filter": {"course": 1}, "meta": "*", "limit": 1})
    assert body["meta"] == {"total_count": 4, "filter_count": 2}
    assert "meta" not in o.list("events")
    assert o.list("events", {"limit": -1}, limit_max=3)["data"][-1]["id"] == 3
    with pytest.raises(OracleError):
        o.list("events", {"limit": 4}, limit_max=3)
    with pytest.raises(OracleError):
        o.list("events", {"meta": "count"})


def test_encoding_helpers() -> None:
    flt = {"_or": [{"a": {"_eq": 1}}, {"b": {"_in": [True, None]}}]}
    assert bracket_pairs(flt) == [
        ("filter[_or][0][a][_eq]", "1"),
        ("filter[_or][1][b][_in][0]", "true"),
        ("filter[_or][1][b][_in][1]", "null"),
    ]
    assert encode_params({"fields": ["a", "b"], "limit": 5, "filter": {"a": "ä"}}) == [
        ("fields", "a,b"),
        ("limit", "5"),
        ("filter", '{"a": "ä"}'),
    ]
