"""Relational filters: many-to-one (one and two levels), one-to-many, many-to-many through
the junction, explicit ``_some``/``_none``, and "the same related row" within one ``_and``.
All of them outer joins: where a relation leads nowhere, the condition is taken on a row of
nulls (``_some``/``_none`` excepted).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from conformance import Api

WEBER = {"contacts": {"contacts_id": {"last_name": {"_eq": "Weber"}}}}
ANNA = {"contacts": {"contacts_id": {"first_name": {"_eq": "Anna"}}}}


def ids(body: dict[str, Any]) -> list[int]:
    return [r["id"] for r in body["data"]]


def check(api: Api, collection: str, flt: dict[str, Any]) -> list[int]:
    return ids(api.check(collection, {"filter": flt, "fields": "id", "limit": -1}))


MANY_TO_ONE = [
    {"course": {"title": {"_icontains": "excel"}}},
    {"course": {"title": {"_null": True}}},
    {"course": {"title": {"_empty": True}}},
    {"course": {"title": {"_neq": "Leer"}}},
    {"course": {"id": {"_nnull": True}}},
    {"course": {"_eq": 1}},
    {"course": 1},
    {"course": {"_null": True}},
    {"course": {"_in": [77, 1]}},
    {"course": {"course_type": {"name": {"_eq": "Bildungsangebot"}}}},
    {"address": {"state": {"name": {"_eq": "Berlin"}}}},
    {"address": {"state": {"name": {"_icontains": "STRASSE"}}}},
    {"address": {"state": {"name": {"_null": True}}}},
    {"address": {"state": {"code": {"_empty": True}}}},
    {"address": {"state": {"_null": True}}},
    {"address": {"state": {"id": {"_gt": 0}}}},
    {"address": {"city": {"_istarts_with": "k"}}, "course": {"_nnull": True}},
    {"address": {"barrier_free": {"_eq": False}}},
    {"instruction_form": {"category": {"_eq": "Digital"}}},
    {"instruction_form": {"name": {"_nnull": True}}},
    {"instruction_form": {"name": {"_null": True}}},
    {"address": {"state": {"code": {"_nempty": True}}}},
    {"address": {"state": {"code": {"_nin": ["DE-BE", "DE-BY"]}}}},
    {"address": {"state": {"name": {"_ncontains": "a"}}}},
    {"address": {"state": {"id": {"_neq": 3}}}},
    {"address": {"state": {"id": {"_eq": None}}}},
    {"address": {"_null": True}},
    {"address": {"id": {"_null": True}}},
    {"address": {"institution": {"_eq": None}}},
    {"course": {"_eq": 1, "title": {"_nnull": True}}},
    {"course": {"_nnull": True, "title": {"_null": True}}},
    {"course": {"_in": [1, 2, 77], "course_type": {"name": {"_null": True}}}},
    {"course": {"events": {"_none": {"max_participants": {"_gt": 20}}}}},
    {"course": {"events": {"_none": {"max_participants": {"_gt": 1000}}}}},
    {"course": {"events": {"_some": {"max_participants": {"_null": True}}}}},
    {"course": {"events": {"remarks": {"_null": True}}}},
]


@pytest.mark.parametrize("flt", MANY_TO_ONE, ids=lambda f: json.dumps(f, ensure_ascii=False))
def test_many_to_one(small: Api, flt: dict[str, Any]) -> None:
    check(small, "events", flt)


def test_null_and_missing_references_are_rows_of_nulls(small: Api) -> None:
    """Where a reference is null or points nowhere, every field along the path is null:
    null tests match, other conditions do not (three-valued logic)."""
    events = small.oracle.rows["events"]
    courses = {c["id"] for c in small.oracle.rows["courses"]}
    no_course = {e["id"] for e in events if e["course"] is None or e["course"] not in courses}
    assert {e["id"] for e in events if e["course"] is None} < no_course  # one dangles
    for cond in ({"_null": True}, {"_empty": True}, {"_nnull": False}, {"_eq": None}):
        matched = set(check(small, "events", {"course": {"title": cond}}))
        assert no_course <= matched, cond
    for cond in ({"_nnull": True}, {"_neq": "x"}, {"_nempty": True}, {"_ncontains": "x"}):
        matched = set(check(small, "events", {"course": {"title": cond}}))
        assert not matched & no_course, cond
    addresses = small.oracle.by_id["addresses"]
    states = small.oracle.by_id["states"]

    def state(event: dict[str, Any]) -> dict[str, Any] | None:
        address = addresses.get(event["address"]) if event["address"] is not None else None
        if address is None or address["state"] is None:
            return None
        return states.get(address["state"])

    stateless = {e["id"] for e in events if state(e) is None}
    assert {e["id"] for e in events if e["address"] == 5}  # address 5: state 99 is missing
    assert {e["id"] for e in events if e["address"] is None}
    assert {e["id"] for e in events if e["address"] not in (None, *addresses)}
    matched = set(check(small, "events", {"address": {"state": {"name": {"_null": True}}}}))
    named = {e["id"] for e in events if (s := state(e)) is not None and s["name"] is None}
    assert matched == stateless | named
    matched = set(check(small, "events", {"address": {"state": {"_null": True}}}))
    assert matched == {
        e["id"]
        for e in events
        if e["address"] not in addresses or addresses[e["address"]]["state"] is None
    }


ONE_TO_MANY = [
    {"events": {"max_participants": {"_gt": 20}}},
    {"events": {"max_participants": {"_gt": 15}}},
    {"events": {"remarks": {"_null": True}}},
    {"events": {"remarks": {"_nnull": True}}},
    {"events": {"id": {"_null": True}}},
    {"events": {"address": {"state": {"_null": True}}}},
    {"events": {"contacts": {"_none": {"contacts_id": {"last_name": {"_eq": "Weber"}}}}}},
    {"events": {"contacts": {"_none": {"id": {"_gt": 10000}}}}},
    {"events": {"contacts": {"_some": {"id": {"_nnull": True}}}}},
    {"events": {"contacts": {"contacts_id": {"_null": True}}}},
    {"events": {"_none": {"remarks": {"_null": True}}}},
    {"events": {"_some": {"remarks": {"_null": True}}}},
    {"costs": {"remarks": {"_empty": True}}},
    {"degrees": {"degree_title": {"_null": True}}, "keywords": {"keyword": {"_null": True}}},
    {"handicaps": {"handicaps_id": {"name": {"_null": True}}}},
    {"events": {"remarks": {"_icontains": "straße"}}},
    {"events": {"_some": {"is_inhouse": True}}},
    {"events": {"_none": {"is_inhouse": True}}},
    {"events": {"_none": {"id": {"_nnull": True}}}},
    {"events": {"_some": {"id": {"_nnull": True}}}},
    {"events": {"_some": {}}},
    {"events": {"_none": {}}},
    {"events": {"address": {"state": {"name": {"_eq": "Berlin"}}}}},
    {"events": {"contacts": {"contacts_id": {"last_name": {"_eq": "Weber"}}}}},
    {"costs": {"value": {"_gte": 100}}},
    {"costs": {"value": {"_null": True}}},
    {"costs": {"_none": {"currency": {"_eq": "EUR"}}}},
    {"keywords": {"keyword": {"_in": ["Excel", "Rabatt"]}}},
    {"degrees": {"credits": {"_between": [1, 5]}}},
    {"handicaps": {"handicaps_id": {"name": {"_icontains": "hör"}}}},
    {"handicaps": {"_none": {"handicaps_id": {"name": {"_eq": "Sehbehinderung"}}}}},
    {"handicaps": {"handicaps_id": {"_eq": 2}}},
    {"events": {"_and": [{"is_inhouse": True}, {"max_participants": {"_null": True}}]}},
    {"events": {"_or": [{"max_participants": 12}, {"remarks": {"_null": True}}]}},
    {"_or": [{"events": {"max_participants": 12}}, {"costs": {"value": 0}}]},
    {"title": {"_nnull": True}, "events": {"_none": {"course": {"_nnull": True}}}},
]


@pytest.mark.parametrize("flt", ONE_TO_MANY, ids=lambda f: json.dumps(f, ensure_ascii=False))
def test_one_to_many_and_many_to_many(small: Api, flt: dict[str, Any]) -> None:
    check(small, "courses", flt)


@pytest.mark.parametrize(
    "flt",
    [
        WEBER,
        ANNA,
        {"contacts": {"contacts_id": {"last_name": {"_icontains": "müller"}}}},
        {"contacts": {"contacts_id": {"last_name": {"_null": True}}}},
        {"contacts": {"contacts_id": {"_null": True}}},
        {"contacts": {"contacts_id": {"_eq": 999}}},
        {"contacts": {"contacts_id": {"id": {"_gt": 140}}}},
        {"contacts": {"_none": {"contacts_id": {"id": {"_lt": 1000}}}}},
        {"contacts": {"_none": {}}},
        {"contacts": {"id": {"_nnull": True}}},
        {"contacts": {"events_id": {"remarks": {"_null": True}}}},
    ],
    ids=lambda f: json.dumps(f, ensure_ascii=False),
)
def test_many_to_many_through_the_junction(small: Api, flt: dict[str, Any]) -> None:
    check(small, "events", flt)


def test_items_without_related_rows_match_on_a_row_of_nulls(small: Api) -> None:
    """Without a quantifier, an item without related rows matches where the condition holds
    on a row of nulls; ``_some`` never matches it, ``_none`` always does."""
    courses = small.oracle.rows["courses"]
    with_events = {e["course"] for e in small.oracle.rows["events"]}
    lonely = {c["id"] for c in courses if c["id"] not in with_events}
    assert lonely
    matched = set(check(small, "courses", {"events": {"remarks": {"_null": True}}}))
    assert lonely <= matched
    matched = set(check(small, "courses", {"events": {"max_participants": {"_gt": 15}}}))
    assert not lonely & matched
    matched = set(check(small, "courses", {"events": {"_some": {"remarks": {"_null": True}}}}))
    assert not lonely & matched
    matched = set(check(small, "courses", {"events": {"_none": {"remarks": {"_nnull": True}}}}))
    assert lonely <= matched
    assert set(check(small, "courses", {"events": {"_null": True}})) == lonely


def test_none_matches_items_without_related_rows(small: Api) -> None:
    matched = set(check(small, "events", {"contacts": {"_none": {"id": {"_nnull": True}}}}))
    linked = {j["events_id"] for j in small.oracle.rows["events_contacts"]}
    assert matched
    assert not matched & linked
    courses = set(check(small, "courses", {"events": {"_none": {}}}))
    assert 10 in courses  # course 10 ("Leer") has no events


def test_same_related_row_within_one_and(small: Api) -> None:
    """Conditions on the same relation inside ``_and`` hold on the same related row."""
    weber, anna = set(check(small, "events", WEBER)), set(check(small, "events", ANNA))
    both = set(check(small, "events", {"_and": [WEBER, ANNA]}))
    assert 7 in weber & anna  # event 7: a Berta Weber and an Anna Schmidt ...
    assert 7 not in both  # ... but no Anna Weber
    assert 8 in both
    same_object = {"contacts": {"contacts_id": {"last_name": "Weber", "first_name": "Anna"}}}
    assert set(check(small, "events", same_object)) == both
    # explicit _some conditions are tests of their own: they do not merge
    explicit = {
        "_and": [
            {"contacts": {"_some": {"contacts_id": {"last_name": {"_eq": "Weber"}}}}},
            {"contacts": {"_some": {"contacts_id": {"first_name": {"_eq": "Anna"}}}}},
        ]
    }
    assert set(check(small, "events", explicit)) == weber & anna
    mixed = {"_and": [WEBER, {"contacts": {"_some": ANNA["contacts"]}}]}
    assert set(check(small, "events", mixed)) == weber & anna
    # `_or` does not merge: each branch on its own
    assert set(check(small, "events", {"_or": [WEBER, ANNA]})) == weber | anna


def test_same_row_on_one_to_many(small: Api) -> None:
    inhouse = {"events": {"is_inhouse": True}}
    big = {"events": {"max_participants": {"_gte": 20}}}
    separately = set(check(small, "courses", inhouse)) & set(check(small, "courses", big))
    together = set(check(small, "courses", {"_and": [inhouse, big]}))
    assert together <= separately
    assert 1 in separately - together  # course 1: in-house events, a big one, not the same
    one_object = {"events": {"is_inhouse": True, "max_participants": {"_gte": 20}}}
    assert set(check(small, "courses", one_object)) == together
    check(small, "courses", {"_and": [inhouse, {"events": {"_none": {"remarks": "ÄÖÜß"}}}]})
    check(small, "courses", {"_and": [{"title": {"_nnull": True}}, inhouse, big]})


def test_none_does_not_merge(small: Api) -> None:
    no_weber = {"contacts": {"_none": {"contacts_id": {"last_name": {"_eq": "Weber"}}}}}
    no_anna = {"contacts": {"_none": {"contacts_id": {"first_name": {"_eq": "Anna"}}}}}
    neither = set(check(small, "events", {"_and": [no_weber, no_anna]}))
    assert neither == set(check(small, "events", no_weber)) & set(check(small, "events", no_anna))


@pytest.mark.parametrize(
    ("flt", "status"),
    [
        ({"course": {"_some": {"id": 1}}}, 400),
        ({"course": {"_none": {"id": 1}}}, 400),
        ({"contacts": {"_some": {"id": 1}, "id": 2}}, 400),
        ({"contacts": {"_some": {"id": 1}, "_eq": 2}}, 400),
        ({"course": {"_eq": 1, "nope": 1}}, 403),
        ({"course": {"_eq": "x", "nope": 1}}, 400),
        ({"remarks": {"_eq": "x", "title": "x"}}, 400),
        ({"contacts": {"_some": 5}}, 400),
        ({"contacts": {"last_name": "Weber"}}, 403),
        ({"remarks": {"title": "x"}}, 400),
        ({"course": {"nope": 1}}, 403),
        ({"address": {"state": {"nope": {"_eq": 1}}}}, 403),
        ({"address": {"state": {"name": {"_gt": "a"}}}}, 400),
        ({"contacts": {"_any": {"id": 1}}}, 400),
    ],
    ids=lambda v: json.dumps(v) if isinstance(v, dict) else str(v),
)
def test_invalid_relational_filters(small: Api, flt: dict[str, Any], status: int) -> None:
    code = "FORBIDDEN" if status == 403 else "INVALID_QUERY"
    small.check_error("events", {"filter": flt}, status=status, code=code)
