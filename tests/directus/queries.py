"""The requests both servers answer in the Directus comparison: generated, deterministic.

``cases(rows)`` builds a few hundred requests from the catalogue model and the rows both
servers hold: every operator on every field type (allowed or not), many-to-one paths one and
two levels deep, one-to-many and many-to-many conditions with ``_some``/``_none``, ``fields``
with expansions and ``deep``, ``sort`` (relational, descending, nulls), ``search`` on text,
numbers and uuids, ``meta``, paging, ``$NOW``, the single-item route, authentication and
malformed input. Values are drawn from the rows with a seeded generator, so the same rows give
the same cases.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from global_parameters import global_parameter_cases

from educatalog.model.schema import SCHEMA, FieldType

Rows = Mapping[str, list[dict[str, Any]]]

ALL_OPERATORS = (
    "_eq",
    "_neq",
    "_lt",
    "_lte",
    "_gt",
    "_gte",
    "_in",
    "_nin",
    "_null",
    "_nnull",
    "_contains",
    "_ncontains",
    "_icontains",
    "_starts_with",
    "_nstarts_with",
    "_istarts_with",
    "_nistarts_with",
    "_ends_with",
    "_nends_with",
    "_iends_with",
    "_niends_with",
    "_between",
    "_nbetween",
    "_empty",
    "_nempty",
)
"""The spec's 25 field operators."""
NOT_OPERATORS = ("_nicontains", "_regex", "_intersects", "_json", "_like", "_eqq")
"""Operators that are not the spec's: Directus 12.4 refuses them on these fields."""


@dataclass(frozen=True)
class Case:
    """One request: a path under the service, its query parameters and who asks."""

    name: str
    path: str
    params: tuple[tuple[str, str], ...] = ()
    auth: str = "reader"  # "reader" (bearer header), "query" (access_token), "none", "bad"

    @property
    def key(self) -> str:
        """A stable identity of the request (used to match recorded answers)."""
        return json.dumps([self.path, list(map(list, self.params)), self.auth])


def _f(filter_: Any) -> tuple[str, str]:
    return ("filter", json.dumps(filter_, ensure_ascii=False))


class _Builder:
    def __init__(self, rows: Rows, seed: int) -> None:
        self.rows = rows
        self.rng = random.Random(seed)
        self.out: list[Case] = []
        self.names: set[str] = set()

    def add(self, name: str, path: str, *params: tuple[str, str], auth: str = "reader") -> None:
        if name in self.names:
            raise ValueError(f"duplicate case name {name}")
        self.names.add(name)
        self.out.append(Case(name, path, tuple(params), auth))

    def filtered(self, name: str, collection: str, filter_: Any, fields: str = "id") -> None:
        """A case that filters a whole collection and counts the matches."""
        self.add(
            name,
            f"/items/{collection}",
            _f(filter_),
            ("fields", fields),
            ("limit", "-1"),
            ("meta", "filter_count"),
        )

    def values(self, collection: str, field: str) -> list[Any]:
        return [r[field] for r in self.rows.get(collection, []) if r.get(field) is not None]

    def pick(self, collection: str, field: str) -> Any:
        values = sorted(set(self.values(collection, field)), key=str)
        return self.rng.choice(values) if values else None


# Fields that stand for each type, with the collection and a sensible projection.
TYPED_FIELDS = {
    FieldType.INTEGER: [
        ("events", "max_participants"),
        ("course_degrees", "credits"),
        ("events", "address"),
    ],
    FieldType.STRING: [
        ("addresses", "city"),
        ("courses", "title"),
        ("addresses", "remarks"),
        ("states", "code"),
    ],
    FieldType.UUID: [("events", "institution"), ("contacts", "institution")],
    FieldType.DATETIME: [("events", "event_start_date"), ("events", "registration_deadline")],
    FieldType.BOOLEAN: [("events", "education_voucher"), ("addresses", "barrier_free")],
    FieldType.DECIMAL: [("event_costs", "value")],
}


def _operand(b: _Builder, coll: str, field: str, ftype: FieldType, op: str) -> Any:
    value = b.pick(coll, field)
    if value is None:
        return None
    if op in ("_null", "_nnull", "_empty", "_nempty"):
        return b.rng.choice([True, False, "true"])
    if ftype is FieldType.BOOLEAN:
        return b.rng.choice([True, False, "true", "false"])
    if op in ("_in", "_nin"):
        others = [b.pick(coll, field) for _ in range(2)]
        return [value, *others]
    if op in ("_between", "_nbetween"):
        pair = sorted(
            [value, b.pick(coll, field)], key=lambda v: float(v) if ftype.is_numeric else str(v)
        )
        return pair
    if op in (
        "_contains",
        "_ncontains",
        "_starts_with",
        "_nstarts_with",
        "_ends_with",
        "_nends_with",
    ) and isinstance(value, str):
        start = b.rng.randrange(0, max(1, len(value) - 3))
        part = value[start : start + 3]
        return part if op.endswith("contains") else (value[:3] if "starts" in op else value[-3:])
    if op.startswith(("_i", "_ni")) and isinstance(value, str):
        part = value[: 4 if "starts" in op else None][-4:]
        return part.upper() if b.rng.random() < 0.5 else part.lower()
    return value


def _typed_operators(b: _Builder) -> None:
    for ftype, fields in TYPED_FIELDS.items():
        for coll, field in fields:
            for op in (*ALL_OPERATORS, *NOT_OPERATORS[:2]):
                value = _operand(b, coll, field, ftype, op)
                if value is None:
                    continue
                b.filtered(f"op {coll}.{field} {op}", coll, {field: {op: value}}, f"id,{field}")
    # Values of the wrong kind, and values that need coercion
    odd = [
        ("events", "max_participants", "_eq", "12"),
        ("events", "max_participants", "_gt", "1e1"),
        ("events", "max_participants", "_eq", "zwölf"),
        ("events", "max_participants", "_lt", "12.5"),
        ("events", "max_participants", "_in", "10,12,14"),
        ("events", "event_start_date", "_gte", "2025-06-01"),
        ("events", "event_start_date", "_lt", "2025-06-01T12:00:00"),
        ("events", "event_start_date", "_eq", "kein Datum"),
        ("events", "event_start_date", "_between", ["2025-01-01", "2025-03-31"]),
        ("events", "education_voucher", "_eq", "1"),
        ("events", "education_voucher", "_eq", "null"),
        ("events", "education_voucher", "_neq", None),
        ("events", "institution", "_eq", "keine-uuid"),
        ("events", "institution", "_in", "keine-uuid"),
        ("addresses", "city", "_eq", 12),
        ("addresses", "city", "_in", []),
        ("addresses", "city", "_eq", ""),
        ("addresses", "city", "_between", ["A", "C"]),
        ("addresses", "city", "_contains", "%"),
        ("addresses", "city", "_icontains", "_"),
        ("event_costs", "value", "_gte", "1000"),
        ("event_costs", "value", "_between", [100, "2000.5"]),
        ("event_costs", "value", "_eq", "190.00"),
        ("events", "max_participants", "_null", "yes"),
        ("events", "max_participants", "_between", [1]),
        ("events", "max_participants", "_eq", "1e400"),  # beyond a double
        ("events", "max_participants", "_eq", "1e-400"),  # too small to tell from zero
    ]
    for i, (coll, field, op, value) in enumerate(odd):
        b.add(
            f"coerce {i} {coll}.{field} {op} {value!r}",
            f"/items/{coll}",
            _f({field: {op: value}}),
            ("fields", f"id,{field}"),
            ("limit", "-1"),
        )


M2O_PATHS = [
    ("events", ["address", "state"], FieldType.INTEGER),
    ("events", ["address", "city"], FieldType.STRING),
    ("events", ["address", "barrier_free"], FieldType.BOOLEAN),
    ("events", ["address", "state", "name"], FieldType.STRING),
    ("events", ["course", "title"], FieldType.STRING),
    ("events", ["course", "institution"], FieldType.UUID),
    ("events", ["instruction_form", "category"], FieldType.STRING),
    ("event_costs", ["course", "course_type"], FieldType.INTEGER),
    ("addresses", ["state", "code"], FieldType.STRING),
    ("systematics", ["parent", "code"], FieldType.STRING),
]


def _nest(path: list[str], leaf: Any) -> Any:
    for part in reversed(path):
        leaf = {part: leaf}
    return leaf


def _related_value(b: _Builder, coll: str, path: list[str]) -> tuple[str, str]:
    current = SCHEMA[coll]
    for part in path[:-1]:
        rel = current.field(part).relation
        assert rel is not None
        current = SCHEMA[rel.related]
    return current.name, path[-1]


def _m2o_paths(b: _Builder) -> None:
    ops = (
        "_eq",
        "_neq",
        "_null",
        "_nnull",
        "_in",
        "_nin",
        "_empty",
        "_nempty",
        "_contains",
        "_ncontains",
        "_icontains",
        "_nstarts_with",
        "_lt",
        "_gte",
    )
    for coll, path, ftype in M2O_PATHS:
        target, field = _related_value(b, coll, path)
        for op in ops:
            value = _operand(b, target, field, ftype, op)
            if value is None:
                continue
            dotted = ".".join(path)
            b.filtered(f"m2o {coll}.{dotted} {op}", coll, _nest(path, {op: value}), f"id,{dotted}")
    # the foreign key itself, and an implicit _eq on a relation
    b.add("m2o fk _eq", "/items/events", _f({"course": {"_eq": 5}}), ("fields", "id,course"))
    b.add("m2o fk shorthand", "/items/events", _f({"course": 5}), ("fields", "id"))
    b.add("m2o fk null", "/items/events", _f({"address": {"_null": True}}), ("fields", "id"))
    b.add("m2o path on non-relation", "/items/events", _f({"remarks": {"x": {"_eq": 1}}}))
    b.add(
        "m2o _and inside path",
        "/items/events",
        _f({"address": {"_and": [{"city": {"_eq": "Berlin"}}, {"state": {"_nnull": True}}]}}),
        ("fields", "id"),
        ("limit", "-1"),
    )
    b.add(
        "m2o _or inside path",
        "/items/events",
        _f({"address": {"_or": [{"city": {"_eq": "Berlin"}}, {"state": {"_null": True}}]}}),
        ("fields", "id"),
        ("limit", "-1"),
    )


def _to_many(b: _Builder) -> None:
    title = b.pick("courses", "title")
    city = b.pick("addresses", "city")
    cases: list[tuple[str, str, Any]] = [
        ("o2m implicit some", "courses", {"events": {"max_participants": {"_gt": 15}}}),
        ("o2m _some", "courses", {"events": {"_some": {"education_voucher": {"_eq": True}}}}),
        ("o2m _none", "courses", {"events": {"_none": {"education_voucher": {"_eq": True}}}}),
        ("o2m _none nothing", "courses", {"events": {"_none": {"id": {"_nnull": True}}}}),
        (
            "o2m same row",
            "courses",
            {"events": {"max_participants": {"_gt": 12}, "is_part_time": {"_eq": True}}},
        ),
        (
            "o2m _and same row",
            "courses",
            {
                "_and": [
                    {"events": {"max_participants": {"_gt": 12}}},
                    {"events": {"is_part_time": {"_eq": True}}},
                ]
            },
        ),
        ("o2m through m2o", "courses", {"events": {"address": {"city": {"_eq": city}}}}),
        ("o2m costs", "courses", {"costs": {"value": {"_gt": 1000}}}),
        ("o2m keywords icontains", "courses", {"keywords": {"keyword": {"_icontains": "ex"}}}),
        (
            "o2m _or inside some",
            "courses",
            {
                "events": {
                    "_some": {
                        "_or": [{"max_participants": {"_gt": 20}}, {"min_participants": {"_lt": 3}}]
                    }
                }
            },
        ),
        ("o2m _null on alias", "courses", {"events": {"_null": True}}),
        ("o2m id _eq", "courses", {"events": {"id": {"_eq": 3}}}),
        ("m2m through junction", "events", {"contacts": {"contacts_id": {"role": {"_eq": 3}}}}),
        ("m2m _some", "events", {"contacts": {"_some": {"contacts_id": {"role": {"_eq": 1}}}}}),
        ("m2m _none", "events", {"contacts": {"_none": {"contacts_id": {"role": {"_eq": 1}}}}}),
        (
            "m2m funding",
            "courses",
            {
                "funding_types_federals": {
                    "funding_types_federals_id": {"name": {"_icontains": "bildungsgutschein"}}
                }
            },
        ),
        (
            "m2m systematics code",
            "courses",
            {"systematics": {"systematics_id": {"code": {"_starts_with": "C"}}}},
        ),
        ("m2m junction id", "courses", {"handicaps": {"handicaps_id": {"_eq": 1}}}),
        ("m2o then o2m", "events", {"course": {"events": {"is_inhouse": {"_eq": True}}}}),
        (
            "o2m then m2o two",
            "courses",
            {"events": {"address": {"state": {"code": {"_eq": "DE-BY"}}}}},
        ),
        ("_some on m2o", "events", {"course": {"_some": {"title": {"_eq": title}}}}),
        (
            "_or across relations",
            "events",
            {
                "_or": [
                    {"course": {"title": {"_icontains": "excel"}}},
                    {"address": {"city": {"_eq": city}}},
                ]
            },
        ),
    ]
    for name, coll, filter_ in cases:
        b.filtered(name, coll, filter_)


def _fields(b: _Builder) -> None:
    selections = [
        ("events", "*"),
        ("courses", "*"),
        ("event_costs", "*"),
        ("contacts", "*"),
        ("events", "id,course.*"),
        ("events", "id,address.state.*"),
        ("events", "*.*"),
        ("courses", "id,events"),
        ("courses", "id,events.id,events.event_start_date"),
        ("courses", "id,costs.*,degrees.degree_title"),
        ("events", "id,contacts"),
        ("events", "id,contacts.*"),
        ("events", "id,contacts.contacts_id.*"),
        ("courses", "id,funding_types_federals.funding_types_federals_id.name"),
        ("systematics", "id,code,parent.code,parent.parent.code"),
        ("events", "id, course.title ,address.city"),
        ("events", "id,nope"),
        ("events", "id,course.nope"),
        ("events", "id,remarks.x"),
        ("states", "*.*.*"),
        ("events", "course,course.title"),
        ("addresses", "id,state.name"),
        ("courses_systematics", "*"),
        ("funding_types_regions", "*,state.*"),
    ]
    for i, (coll, fields) in enumerate(selections):
        b.add(
            f"fields {i} {coll} {fields}",
            f"/items/{coll}",
            ("fields", fields),
            ("limit", "7"),
            ("offset", str(i)),
        )
    b.add(
        "fields[] form", "/items/events", ("fields[]", "id"), ("fields[]", "course"), ("limit", "3")
    )
    b.add("nested cap 100", "/items/courses", ("fields", "id,events"), ("filter[id][_eq]", "1"))
    for limit in ("5", "-1", "0", "150"):
        b.add(
            f"deep limit {limit}",
            "/items/courses",
            ("fields", "id,events"),
            ("filter[id][_eq]", "1"),
            ("deep", json.dumps({"events": {"_limit": int(limit)}})),
        )
    b.add(
        "deep bracket",
        "/items/courses",
        ("fields", "id,events.id"),
        ("filter[id][_in]", "1,2"),
        ("deep[events][_limit]", "3"),
    )
    b.add(
        "deep nested",
        "/items/courses",
        ("fields", "id,events.id,events.contacts"),
        ("limit", "2"),
        ("deep", json.dumps({"events": {"_limit": 2, "contacts": {"_limit": 1}}})),
    )


def _sort(b: _Builder) -> None:
    sorts = [
        ("events", "event_start_date"),
        ("events", "-event_start_date"),
        ("events", "max_participants,-id"),
        ("events", "-max_participants,id"),
        ("events", "registration_deadline,id"),
        ("events", "-registration_deadline,id"),
        ("events", "course.title,id"),
        ("events", "-address.city,id"),
        ("events", "address.state.name,id"),
        ("courses", "title"),
        ("courses", "-title"),
        ("addresses", "remarks,id"),
        ("event_costs", "value,id"),
        ("event_costs", "-value,id"),
        ("events", "education_voucher,id"),
        ("events", "-institution,id"),
        ("states", "-code"),
        ("events", "nope"),
        ("events", "contacts"),
        ("events", "course.nope"),
        ("events", "?"),
        ("locations", "city,zip,id"),
    ]
    for i, (coll, sort) in enumerate(sorts):
        keys = [s.lstrip("-") for s in sort.split(",") if s not in ("?", "id", "-id")]
        # A sort that may tie reads every row: the order within ties is left open, and a
        # page boundary inside a run of ties would pick different rows.
        paging = (("limit", "40"), ("offset", str(i * 3)))
        b.add(
            f"sort {i} {coll} {sort}",
            f"/items/{coll}",
            ("sort", sort),
            ("fields", ",".join(["id", *keys])),
            *(paging if sort.endswith("id") else (("limit", "-1"),)),
        )
    b.add(
        "sort[] form",
        "/items/courses",
        ("sort[]", "-course_type"),
        ("sort[]", "id"),
        ("fields", "id,course_type"),
        ("limit", "20"),
    )


def _search(b: _Builder) -> None:
    uuid = b.pick("events", "institution")
    terms = [
        "excel",
        "EXCEL",
        "berlin",
        "Straße",
        "-3",
        "25",
        "3",
        "12.5",
        "42.0",
        "1e3",
        uuid,
        uuid[:8],
        uuid.upper(),
        "   ",
        "%",
        "_",
        "2025",
        "true",
        "ä",
        "kurs manager",
        "+49",
        "DE-BY",
    ]
    for i, term in enumerate(terms):
        for coll in ("events", "courses", "addresses", "contacts"):
            b.add(
                f"search {i} {coll} {term!r}",
                f"/items/{coll}",
                ("search", term),
                ("fields", "id"),
                ("limit", "-1"),
                ("meta", "*"),
            )
    b.add(
        "search with filter",
        "/items/courses",
        ("search", "kurs"),
        _f({"course_type": {"_eq": 1}}),
        ("fields", "id"),
        ("meta", "*"),
    )
    b.add("search empty", "/items/courses", ("search", ""), ("fields", "id"), ("limit", "5"))
    b.add("search plus", "/items/courses", ("search", "Digital+Marketing"), ("fields", "id"))


def _meta_paging(b: _Builder) -> None:
    for meta in ("total_count", "filter_count", "*", "total_count,filter_count", "nope", ""):
        b.add(
            f"meta {meta!r}",
            "/items/events",
            ("meta", meta),
            ("limit", "2"),
            ("fields", "id"),
            _f({"course": {"_lt": 10}}),
        )
    b.add(
        "meta[] form", "/items/events", ("meta[]", "total_count"), ("limit", "1"), ("fields", "id")
    )
    paging = [
        {"limit": "10"},
        {"limit": "10", "offset": "517"},
        {"limit": "10", "page": "3"},
        {"limit": "10", "page": "3", "offset": "4"},
        {"limit": "10", "page": "0"},
        {"limit": "-1", "page": "2"},
        {"limit": "0"},
        {"offset": "520"},
        {"page": "2"},
        {"limit": "-2"},
        {"limit": "abc"},
        {"offset": "-1"},
        {"page": "-1"},
        {"limit": "1.5"},
        {"limit": " 3"},
        {"offset": "100000"},
        {"limit": "1000000"},
    ]
    for i, params in enumerate(paging):
        b.add(f"paging {i} {params}", "/items/events", ("fields", "id"), *params.items())


def _now(b: _Builder) -> None:
    values = [
        "$NOW",
        "$NOW(-1 year)",
        "$NOW(+2 weeks)",
        "$NOW(-18 months)",
        "$NOW(-3)",
        "$NOW(+1.5 days)",
        "$NOW(-2 hours)",
        "$NOW(nonsense)",
        "$NOW(-1 y)",
        "$NOW()",
        "$NOWHERE",
    ]
    for i, value in enumerate(values):
        for op in ("_lt", "_gte"):
            b.add(
                f"now {i} {op} {value}",
                "/items/events",
                _f({"event_start_date": {op: value}}),
                ("fields", "id"),
                ("limit", "-1"),
                ("meta", "filter_count"),
            )
    b.add(
        "now between",
        "/items/events",
        _f({"event_start_date": {"_between": ["$NOW(-1 year)", "$NOW"]}}),
        ("fields", "id"),
        ("limit", "-1"),
    )
    b.add("now on text", "/items/addresses", _f({"city": {"_eq": "$NOW"}}), ("fields", "id"))
    b.add(
        "now on integer",
        "/items/events",
        _f({"max_participants": {"_lt": "$NOW"}}),
        ("fields", "id"),
    )
    b.add(
        "now through m2o",
        "/items/event_costs",
        _f({"course": {"events": {"event_end_date": {"_gt": "$NOW(-6 months)"}}}}),
        ("fields", "id"),
        ("limit", "-1"),
    )


def _items_and_errors(b: _Builder) -> None:
    for coll, item in (
        ("events", "1"),
        ("courses", "5"),
        ("states", "9"),
        ("events", "999999"),
        ("events", "abc"),
        ("events", "-1"),
        ("events", "1.0"),
    ):
        b.add(f"item {coll}/{item}", f"/items/{coll}/{item}")
    b.add("item fields", "/items/courses/1", ("fields", "id,title,events,costs.value"))
    b.add("item deep", "/items/courses/1", ("fields", "id,events"), ("deep[events][_limit]", "2"))
    b.add("item ignores filter", "/items/events/1", _f({"id": {"_eq": 2}}), ("fields", "id"))
    b.add("item meta", "/items/events/1", ("meta", "*"), ("fields", "id"))
    b.add("unknown collection", "/items/nope")
    b.add("unknown collection item", "/items/nope/1")
    b.add("system collection", "/items/directus_users")
    b.add("no token", "/items/events", ("limit", "1"), auth="none")
    b.add("bad token", "/items/events", ("limit", "1"), auth="bad")
    b.add("token in query", "/items/events", ("limit", "1"), ("fields", "id"), auth="query")
    b.add("unknown route", "/nope")
    b.add("unknown filter field", "/items/events", _f({"nope": {"_eq": 1}}))
    b.add("unknown operator", "/items/events", _f({"id": {"_foo": 1}}))
    b.add("invalid json", "/items/events", ("filter", "{nope"))
    b.add("filter array", "/items/events", ("filter", "[1,2]"))
    b.add("filter scalar", "/items/events", ("filter", "5"))
    b.add("_and not array", "/items/events", _f({"_and": {"id": {"_eq": 1}}}))
    b.add("empty filter", "/items/events", _f({}), ("fields", "id"), ("limit", "3"))
    b.add("empty _and", "/items/events", _f({"_and": []}), ("fields", "id"), ("limit", "3"))
    b.add("empty _or", "/items/events", _f({"_or": []}), ("fields", "id"), ("limit", "3"))
    b.add("bracket filter", "/items/events", ("filter[course][_eq]", "3"), ("fields", "id"))
    b.add(
        "bracket _or",
        "/items/events",
        ("filter[_or][0][course][_eq]", "3"),
        ("filter[_or][1][course][_eq]", "4"),
        ("fields", "id"),
        ("limit", "-1"),
    )
    b.add(
        "bracket _in",
        "/items/events",
        ("filter[course][_in]", "3,4"),
        ("fields", "id"),
        ("limit", "-1"),
    )
    b.add(
        "keywords true",
        "/items/events",
        _f({"is_inhouse": "true"}),
        ("fields", "id"),
        ("limit", "-1"),
    )
    b.add(
        "keyword null",
        "/items/events",
        _f({"registration_deadline": "null"}),
        ("fields", "id"),
        ("limit", "-1"),
    )
    b.add("operator at root", "/items/events", _f({"_eq": 1}))
    b.add("mixed operator and field", "/items/events", _f({"course": {"_eq": 1, "title": "x"}}))
    b.add("_some on plain field", "/items/events", _f({"remarks": {"_some": {"x": 1}}}))
    b.add("junction collection", "/items/events_contacts", ("limit", "5"), ("sort", "-id"))
    b.add(
        "contacts junction filter",
        "/items/events_contacts",
        _f({"contacts_id": {"last_name": {"_istarts_with": "k"}}}),
        ("limit", "-1"),
    )


def _global_parameters(b: _Builder) -> None:
    global_parameter_cases(b.add)


def cases(rows: Rows, seed: int = 20261123) -> list[Case]:
    """Every comparison case over ``rows`` (deterministic for the same rows and seed)."""
    b = _Builder(rows, seed)
    for part in (
        _typed_operators,
        _m2o_paths,
        _to_many,
        _fields,
        _sort,
        _search,
        _meta_paging,
        _now,
        _items_and_errors,
        _global_parameters,
    ):
        part(b)
    return b.out


def iter_operators(found: list[Case]) -> Iterator[str]:
    """The operators the cases use (for the coverage check)."""
    for case in found:
        for key, value in case.params:
            if key == "filter":
                try:
                    yield from _operators(json.loads(value))
                except ValueError:  # the malformed filters of the error cases
                    continue


def _operators(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key.startswith("_"):
                yield key
            yield from _operators(value)
    elif isinstance(node, list):
        for item in node:
            yield from _operators(item)
