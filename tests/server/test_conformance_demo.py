"""The demo catalogue through the real server: every collection in full, and the queries the
spec and typical analyses use.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance import Api
from educatalog.model.schema import SCHEMA


@pytest.mark.parametrize("collection", list(SCHEMA))
def test_every_collection_in_full(demo: Api, collection: str) -> None:
    """Every row of every collection, default fields, as the oracle serializes it."""
    body = demo.check(collection, {"limit": -1, "meta": "*"})
    assert body["meta"]["total_count"] == len(demo.oracle.rows[collection])
    first = demo.oracle.rows[collection][:1]
    if first:
        demo.check_item(collection, first[0]["id"])
        demo.check_item(collection, first[0]["id"], {"fields": "*.*"})


@pytest.mark.parametrize(
    "params",
    [
        {"filter": {"course": {"title": {"_icontains": "excel"}}}, "fields": "id,course.title"},
        {"filter": {"address": {"state": {"name": {"_eq": "Berlin"}}}}, "meta": "filter_count"},
        {"filter": {"address": {"state": {"name": {"_in": ["Bayern", "Berlin"]}}}}, "limit": -1},
        {"filter": {"education_voucher": True, "is_part_time": False}, "fields": "id"},
        {"filter": {"event_start_date": {"_between": ["2025-01-01", "2025-03-31"]}}},
        {"filter": {"contacts": {"contacts_id": {"last_name": {"_nnull": True}}}}, "limit": -1},
        {"filter": {"contacts": {"_none": {}}}, "fields": "id", "limit": -1},
        {"fields": "*,contacts.contacts_id.*", "limit": 30},
        {"fields": "*.*", "limit": 25, "page": 3},
        {"fields": "id,address.state.name,course.title", "sort": "-address.state.name,id"},
        {"sort": "-event_start_date", "limit": 50, "meta": "*"},
        {"search": "excel", "meta": "*", "limit": -1},
        {"page": 2},
        {"limit": -1, "fields": "id,course,instruction_form.category,instruction_time.name"},
    ],
    ids=str,
)
def test_typical_event_queries(demo: Api, params: dict[str, Any]) -> None:
    demo.check("events", params)


@pytest.mark.parametrize(
    "params",
    [
        {"fields": "id,title,events", "limit": -1},
        {"fields": "id,events.id,events.event_start_date", "limit": -1},
        {"fields": "id,events", "deep": {"events": {"_limit": -1}}, "limit": -1},
        {"fields": "*,costs.*,degrees.*,keywords.keyword", "limit": -1},
        {"fields": "id,funding_types_federals.funding_types_federals_id.name", "limit": -1},
        {"fields": "id,systematics.systematics_id.code,systematics.systematics_id.parent.code"},
        {"filter": {"events": {"education_voucher": True}}, "fields": "id", "limit": -1},
        {"filter": {"costs": {"value": {"_gt": 1000}}}, "fields": "id,costs.value"},
        {"filter": {"handicaps": {"_some": {"handicaps_id": {"id": {"_nnull": True}}}}}},
        {"filter": {"events": {"_none": {"is_part_time": True}}}, "meta": "*", "limit": 0},
        {"sort": "course_type.name,-title", "fields": "id,title,course_type.name", "limit": -1},
    ],
    ids=str,
)
def test_typical_course_queries(demo: Api, params: dict[str, Any]) -> None:
    demo.check("courses", params)


def test_nested_event_lists_are_capped(demo: Api) -> None:
    """Courses with more than 100 events show 100 under ``events`` unless deep says -1."""
    sizes = {
        c["id"]: len(demo.oracle.children("events", "course", c["id"]))
        for c in demo.oracle.rows["courses"]
    }
    big = [cid for cid, n in sizes.items() if n > 100]
    if not big:
        pytest.skip("no course with more than 100 events at this scale")
    body = demo.check("courses", {"filter": {"id": {"_in": big}}, "fields": "id,events"})
    assert all(len(c["events"]) == 100 for c in body["data"])


def test_pages_of_events_cover_everything(demo: Api) -> None:
    seen: list[int] = []
    page = 1
    while True:
        body = demo.check("events", {"fields": "id", "limit": 100, "page": page, "meta": "*"})
        if not body["data"]:
            break
        seen += [r["id"] for r in body["data"]]
        page += 1
    assert seen == [r["id"] for r in demo.oracle.rows["events"]]
