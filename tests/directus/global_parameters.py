"""Comparison cases for Directus's global query parameters beyond the spec's: ``aggregate``
and ``groupBy`` (answered as Directus answers them), ``backlink``, ``version``, ``export``,
``alias`` and functions such as ``year()`` (refused, see docs/directus.md), and the depth
limit of relational paths in fields, filter and sort."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

Add = Callable[..., None]


def _f(filter_: Any) -> tuple[str, str]:
    return ("filter", json.dumps(filter_, ensure_ascii=False))


def _chain(key: str, n: int, leaf: Any) -> Any:
    for _ in range(n):
        leaf = {key: leaf}
    return leaf


def global_parameter_cases(add: Add) -> None:
    """Add every case of this module through ``add(name, path, *params)``."""
    _aggregates(add)
    _aggregate_orders_and_pages(add)
    _aggregate_errors(add)
    _other_parameters(add)
    _depth(add)


def _aggregates(add: Add) -> None:
    events, costs = "/items/events", "/items/event_costs"
    count = ("aggregate[count]", "*")
    add("aggregate count by form", events, count, ("groupBy[]", "instruction_form"))
    add("aggregate count by two", events, count, ("groupBy", "instruction_form,instruction_time"))
    add("aggregate count by boolean", events, count, ("groupBy[]", "is_inhouse"))
    add("aggregate count by m2o key", events, count, ("groupBy[]", "address"), ("limit", "7"))
    add("aggregate count by decimal", costs, count, ("groupBy[]", "value"), ("limit", "7"))
    add("aggregate count by datetime", events, count, ("groupBy[]", "event_start_date"))
    add("aggregate count all", events, count)
    add("aggregate countDistinct", events, ("aggregate[countDistinct]", "course"))
    add("aggregate countDistinct star", events, ("aggregate[countDistinct]", "*"))
    add("aggregate count fields", events, ("aggregate[count]", "id,remarks"))
    add(
        "aggregate count bracket list",
        events,
        ("aggregate[count][]", "id"),
        ("aggregate[count][]", "remarks"),
    )
    add("aggregate json form", events, ("aggregate", '{"count": ["*"], "max": "id"}'))
    add(
        "aggregate sum avg integer",
        events,
        ("aggregate[sum]", "max_participants"),
        ("aggregate[avg]", "max_participants,min_participants"),
    )
    add(
        "aggregate sum avg decimal by currency",
        costs,
        ("aggregate[sum]", "value"),
        ("aggregate[avg]", "value"),
        ("aggregate[countDistinct]", "value"),
        ("groupBy[]", "currency"),
    )
    add(
        "aggregate distinct sum avg",
        events,
        ("aggregate[sumDistinct]", "max_participants"),
        ("aggregate[avgDistinct]", "max_participants"),
    )
    add(
        "aggregate min max",
        events,
        ("aggregate[min]", "event_start_date,remarks,max_participants"),
        ("aggregate[max]", "event_end_date,remarks"),
    )
    add(
        "aggregate min max decimal", costs, ("aggregate[min]", "value"), ("aggregate[max]", "value")
    )
    add(
        "aggregate of nothing",
        events,
        count,
        ("aggregate[sum]", "max_participants"),
        ("aggregate[avg]", "max_participants"),
        ("aggregate[min]", "event_start_date"),
        _f({"id": {"_lt": 0}}),
    )
    add("aggregate filter meta", events, count, ("meta", "*"), _f({"instruction_form": 102}))
    add("aggregate search", "/items/courses", count, ("search", "Excel"))
    add(
        "aggregate relational filter",
        "/items/courses",
        count,
        ("aggregate[countDistinct]", "id"),
        _f({"events": {"instruction_form": {"_eq": 102}}}),
    )
    add(
        "aggregate grouped relational filter",
        events,
        count,
        ("groupBy[]", "instruction_time"),
        _f({"address": {"state": {"_eq": 9}}}),
    )
    add("groupBy alone", events, ("groupBy[]", "instruction_form"))
    add("aggregate ignores fields", events, count, ("fields", "nope,id"))
    add("aggregate ignores sort without groups", events, count, ("sort", "nope"))


def _aggregate_orders_and_pages(add: Add) -> None:
    events = "/items/events"
    count = ("aggregate[count]", "*")
    form = ("groupBy[]", "instruction_form")
    for sort in ("-count", "count,-instruction_form", "-instruction_form", "-count.*"):
        add(f"aggregate sort {sort}", events, count, form, ("sort", sort), ("limit", "5"))
    add(
        "aggregate sort -sum",
        events,
        form,
        ("aggregate[sum]", "max_participants"),
        ("sort", "-sum.max_participants"),
        ("limit", "4"),
    )
    add(
        "aggregate sort avg",
        events,
        form,
        ("aggregate[avg]", "max_participants"),
        ("sort", "avg.max_participants"),
        ("limit", "4"),
    )
    add(
        "aggregate sort min nulls",
        events,
        ("groupBy[]", "course"),
        ("aggregate[min]", "event_end_date"),
        ("sort", "-min.event_end_date"),
        ("limit", "3"),
    )
    add("aggregate limit 0", events, count, ("limit", "0"))
    add("aggregate offset 1", events, count, ("offset", "1"))
    add("aggregate groups page 2", events, count, form, ("page", "2"), ("limit", "5"))
    add("aggregate groups offset", events, count, form, ("limit", "-1"), ("offset", "3"))


def _aggregate_errors(add: Add) -> None:
    events = "/items/events"
    count = ("aggregate[count]", "*")
    add("aggregate unknown field", events, ("aggregate[count]", "nope"))
    add("aggregate empty field", events, ("aggregate[count]", ""))
    add("aggregate groupBy unknown field", events, count, ("groupBy[]", "nope"))
    add("aggregate sort unknown field", events, count, ("groupBy[]", "course"), ("sort", "nope"))
    # Directus answers these with a 500 (PostgreSQL refuses the SQL it writes)
    add("aggregate 500 sort not grouped", events, count, ("groupBy[]", "course"), ("sort", "id"))
    add("aggregate 500 max uuid", events, ("aggregate[max]", "institution"))
    add("aggregate 500 min boolean", events, ("aggregate[min]", "is_inhouse"))
    add("aggregate 500 sum star", events, ("aggregate[sum]", "*"))
    add("aggregate 500 sum text", events, ("aggregate[sum]", "remarks"))
    add("aggregate 500 avg datetime", events, ("aggregate[avg]", "event_start_date"))
    add("aggregate 500 groupBy list", "/items/courses", count, ("groupBy[]", "events"))
    add("aggregate 500 groupBy path", events, count, ("groupBy[]", "address.state"))
    add("aggregate 500 path", events, ("aggregate[count]", "address.state"))
    add("aggregate 500 bad json", events, ("aggregate", "{nope"))
    # what Directus answers with rows of nothing
    add("aggregate function countAll", events, ("aggregate[countAll]", "*"))
    add("aggregate function unknown", events, ("aggregate[total]", "id"))
    add("aggregate on item route", "/items/events/1", count)


def _other_parameters(add: Add) -> None:
    events = "/items/events"
    for coll in ("events", "courses"):
        add(
            f"backlink false {coll}",
            f"/items/{coll}",
            ("fields", "*.*.*"),
            ("limit", "2"),
            ("backlink", "false"),
        )
    add("backlink true", events, ("fields", "*.*.*"), ("limit", "2"), ("backlink", "true"))
    add(
        "backlink false junction",
        events,
        ("fields", "id,contacts.*.*"),
        ("limit", "3"),
        ("backlink", "false"),
    )
    courses = "/items/courses"
    nested = ("fields", "id,events")
    add(
        "deep subquery _filter",
        courses,
        nested,
        ("deep[events][_filter][instruction_form][_eq]", "102"),
    )
    add("deep subquery _sort", courses, nested, ("deep[events][_sort]", "-id"), ("limit", "3"))
    add("deep subquery _offset", courses, nested, ("deep[events][_offset]", "1"), ("limit", "3"))
    add("version draft", events, ("version", "draft"), ("fields", "id"), ("limit", "2"))
    add("version main", events, ("version", "main"), ("fields", "id"), ("limit", "2"))
    add("version on item route", "/items/events/1", ("version", "draft"))
    add("versionRaw alone", events, ("versionRaw", "true"), ("fields", "id"), ("limit", "2"))
    for kind in ("csv", "json", "xml"):
        add(f"export {kind}", events, ("export", kind), ("fields", "id"), ("limit", "3"))
    add("export unknown kind", events, ("export", "pdf"), ("fields", "id"), ("limit", "3"))
    add("export empty", events, ("export", ""), ("fields", "id"), ("limit", "3"))
    add("alias", events, ("alias[title]", "remarks"), ("fields", "title"), ("limit", "3"))
    add("alias empty", events, ("alias", ""), ("fields", "id"), ("limit", "3"))
    add("function in fields", events, ("fields", "id,year(event_start_date)"), ("limit", "3"))
    add(
        "function in filter",
        events,
        ("filter[year(event_start_date)][_eq]", "2025"),
        ("fields", "id"),
    )
    add("function in sort", events, ("sort", "year(event_start_date)"), ("fields", "id"))
    add(
        "function in groupBy",
        events,
        ("aggregate[count]", "*"),
        ("groupBy[]", "year(event_start_date)"),
    )


def _depth(add: Add) -> None:
    """Directus counts a path's fields, relations and the last one: at most 10."""
    systematics = "/items/systematics"
    for n in (9, 10):  # relations crossed, then the field `id`
        add(
            f"depth filter {n} relations",
            systematics,
            _f(_chain("parent", n, {"id": {"_nnull": True}})),
            ("fields", "id"),
        )
    for parts in (10, 11):
        path = ".".join(["parent"] * (parts - 1) + ["id"])
        add(f"depth fields {parts} parts", systematics, ("fields", path), ("limit", "2"))
        add(
            f"depth sort {parts} parts",
            systematics,
            ("sort", path),
            ("fields", "id"),
            ("limit", "2"),
        )
    deep: Any = {"_limit": 1}
    for i in range(11):  # courses.events.course.events... : 11 relations
        deep = {("events", "course")[i % 2]: deep}
    add("depth deep 11 relations", "/items/courses", ("fields", "id"), ("deep", json.dumps(deep)))
