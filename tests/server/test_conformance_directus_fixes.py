"""Regression tests for where the reference server used to differ from Directus 12.4 on
PostgreSQL (``docs/query-semantics.md``, corrected 2026-11-23):

(a) ``$NOW`` and ``$NOW(<offset>)`` in comparisons on datetime fields, on the server's clock;
(b) many-to-one paths in filters are outer joins: along a null or dangling reference every
    field is null, for every operator, one and two levels deep;
(c) ``search`` matches a uuid field only by a whole UUID, never a part of one;
(d) uuid fields take only ``_eq _neq _in _nin _null _nnull`` and only UUIDs as values;
(e) there is no ``_nicontains``.

Expected rows come from plain Python over the records (and, where noted, the oracle).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest

from conformance import TEST_TOKEN, Api, assert_error, small_records
from educatalog.model.schema import SCHEMA, FieldType
from oracle import Oracle

Row = dict[str, Any]


def ids_of(response: httpx.Response) -> list[int]:
    assert response.status_code == 200, f"{response.request.url}: {response.text[:500]}"
    return [r["id"] for r in response.json()["data"]]


def listed(client: httpx.Client, collection: str, flt: Any, **params: Any) -> httpx.Response:
    query = {"filter": json.dumps(flt), "fields": "id", "limit": "-1", **params}
    return client.get(f"/items/{collection}", params=query)


# ---------------------------------------------------------------------------------------
# (a) $NOW on a server with a clock the test sets


@dataclass
class Clock:
    now: dt.datetime = dt.datetime(2025, 1, 31, 10, 0, 0)

    def __call__(self) -> dt.datetime:
        return self.now


@dataclass
class Clocked:
    client: httpx.Client
    clock: Clock


@pytest.fixture(scope="module")
def clocked(small_database: Path) -> Iterator[Clocked]:
    from educatalog.testing import serve

    clock = Clock()
    with serve(database=small_database, token=TEST_TOKEN, clock=clock) as server:
        headers = {"Authorization": f"Bearer {TEST_TOKEN}"}
        with httpx.Client(base_url=server.url, headers=headers, timeout=30) as client:
            yield Clocked(client, clock)


RECORDS = small_records()
EVENTS: list[Row] = sorted(RECORDS["events"], key=lambda r: r["id"])
COURSES: list[Row] = sorted(RECORDS["courses"], key=lambda r: r["id"])


def start(event: Row) -> dt.datetime | None:
    value = event.get("event_start_date")
    return None if value is None else dt.datetime.fromisoformat(value)


COMPARE = {
    "_eq": lambda a, b: a == b,
    "_neq": lambda a, b: a != b,
    "_lt": lambda a, b: a < b,
    "_lte": lambda a, b: a <= b,
    "_gt": lambda a, b: a > b,
    "_gte": lambda a, b: a >= b,
}

# (clock, $NOW expression, the moment it stands for): worked out by hand from the rules of
# the document (a month from 31 January is the last day of February, and so on)
C1 = dt.datetime(2025, 1, 31, 10, 0, 0)
C2 = dt.datetime(2025, 1, 31, 10, 0, 0, 250_600)  # a JavaScript Date has milliseconds
C3 = dt.datetime(2024, 2, 29, 12, 0, 0)
NOW_CASES = [
    (C1, "$NOW", C1),
    (C1, "$NOW(+1 month)", dt.datetime(2025, 2, 28, 10, 0, 0)),
    (C1, "$NOW(-1 month)", dt.datetime(2024, 12, 31, 10, 0, 0)),
    (C1, "$NOW(-2 mo)", dt.datetime(2024, 11, 30, 10, 0, 0)),
    (C1, "$NOW(-10 hours)", dt.datetime(2025, 1, 31, 0, 0, 0)),
    (C1, "$NOW(-36000000 ms)", dt.datetime(2025, 1, 31, 0, 0, 0)),
    (C1, "$NOW(+50399 s)", dt.datetime(2025, 1, 31, 23, 59, 59)),
    (C1, "$NOW(+839 min)", dt.datetime(2025, 1, 31, 23, 59, 0)),
    (C1, "$NOW(-30 days)", dt.datetime(2025, 1, 1, 10, 0, 0)),
    (C1, "$NOW(-30)", dt.datetime(2025, 1, 1, 10, 0, 0)),
    (C1, "$NOW(-1 week)", dt.datetime(2025, 1, 24, 10, 0, 0)),
    (C1, "$NOW(+1 year)", dt.datetime(2026, 1, 31, 10, 0, 0)),
    (C1, "$NOW(+1.5 days)", dt.datetime(2025, 2, 1, 10, 0, 0)),
    (C1, "$NOW(-0.5 d)", dt.datetime(2025, 1, 30, 10, 0, 0)),
    (C1, "$NOW(+2 WEEKS)", dt.datetime(2025, 2, 14, 10, 0, 0)),
    (C1, "$NOW()", C1),
    (C1, "$NOW(soon)", C1),
    (C1, "$NOW(+1 fortnight)", C1),
    (C2, "$NOW", dt.datetime(2025, 1, 31, 10, 0, 0, 250_000)),
    (C2, "$NOW(-250 ms)", dt.datetime(2025, 1, 31, 10, 0, 0)),
    (C2, "$NOW(-10 h)", dt.datetime(2025, 1, 31, 0, 0, 0, 250_000)),
    (C3, "$NOW(+1 year)", dt.datetime(2025, 2, 28, 12, 0, 0)),
    (C3, "$NOW(-1 y)", dt.datetime(2023, 2, 28, 12, 0, 0)),
    (C3, "$NOW(+10 months)", dt.datetime(2024, 12, 29, 12, 0, 0)),
    (C3, "$NOW(-47 days)", dt.datetime(2024, 1, 13, 12, 0, 0)),
]


@pytest.mark.parametrize(
    ("clock", "expression", "moment"), NOW_CASES, ids=lambda v: str(v).replace(" ", "_")
)
def test_now_in_comparisons(
    clocked: Clocked, clock: dt.datetime, expression: str, moment: dt.datetime
) -> None:
    starts = {start(e) for e in EVENTS}  # the records hold starts at several of the moments
    assert {C1, dt.datetime(2025, 1, 31), dt.datetime(2025, 1, 31, 23, 59, 59), None} <= starts
    clocked.clock.now = clock
    for op, compare in COMPARE.items():
        flt = {"event_start_date": {op: expression}}
        expected = [e["id"] for e in EVENTS if (s := start(e)) is not None and compare(s, moment)]
        assert ids_of(listed(clocked.client, "events", flt)) == expected, (op, expression)
    # inside _in and _between, and on a one-to-many relation (outer join: a course without
    # events holds no start, which no comparison matches)
    flt = {"event_start_date": {"_in": [expression, "2025-01-31T00:00:00"]}}
    wanted = {moment, dt.datetime(2025, 1, 31)}
    expected = [e["id"] for e in EVENTS if start(e) in wanted]
    assert ids_of(listed(clocked.client, "events", flt)) == expected
    low = "2025-01-15T00:00:00"
    flt = {"event_start_date": {"_between": f"{low},{expression}"}}
    expected = [
        e["id"]
        for e in EVENTS
        if (s := start(e)) is not None and dt.datetime.fromisoformat(low) <= s <= moment
    ]
    assert ids_of(listed(clocked.client, "events", flt)) == expected
    flt = {"events": {"event_start_date": {"_gte": expression}}}
    expected = [
        c["id"]
        for c in COURSES
        if any(
            (s := start(e)) is not None and s >= moment for e in EVENTS if e["course"] == c["id"]
        )
    ]
    assert ids_of(listed(clocked.client, "courses", flt)) == expected
    # the oracle, told the same clock, agrees
    oracle = Oracle(RECORDS, now=clock)
    flt = {"event_start_date": {"_lt": expression}, "course": {"events": {"_nnull": True}}}
    response = listed(clocked.client, "events", flt)
    assert ids_of(response) == oracle.matching_ids("events", flt)


def test_now_follows_the_clock(clocked: Clocked) -> None:
    """Each request reads the clock anew; ``$NOW`` is only dynamic on datetime fields."""
    flt = {"event_start_date": {"_lte": "$NOW"}}
    seen = []
    for clock in (dt.datetime(2024, 1, 1), C1, dt.datetime(2030, 1, 1)):
        clocked.clock.now = clock
        seen.append(ids_of(listed(clocked.client, "events", flt)))
        assert seen[-1] == [e["id"] for e in EVENTS if (s := start(e)) is not None and s <= clock]
    assert len(seen[0]) < len(seen[1]) < len(seen[2])
    # on a text field "$NOW" is the text itself; on a number it is no number
    assert ids_of(listed(clocked.client, "events", {"remarks": "$NOW"})) == []
    assert_error(
        listed(clocked.client, "events", {"max_participants": {"_lt": "$NOW"}}),
        400,
        "INVALID_QUERY",
    )


def test_now_with_a_negative_fraction_of_a_millisecond(clocked: Clocked) -> None:
    clocked.clock.now = C1  # 10:00:00.000; minus half a millisecond is 09:59:59.999
    flt = {"event_start_date": {"_gt": "$NOW(-0.5 ms)"}}
    moment = dt.datetime(2025, 1, 31, 9, 59, 59, 999_000)
    expected = [e["id"] for e in EVENTS if (s := start(e)) is not None and s > moment]
    assert C1 in {start(e) for e in EVENTS}  # the event at 10:00:00 tells them apart
    assert ids_of(listed(clocked.client, "events", flt)) == expected


# ---------------------------------------------------------------------------------------
# (b) many-to-one paths are outer joins, for every operator

TEXT = {
    "_eq": "Berlin",
    "_neq": "Berlin",
    "_in": ["Berlin", "Bayern"],
    "_nin": ["Berlin", "Bayern"],
    "_null": True,
    "_nnull": True,
    "_empty": True,
    "_nempty": True,
    "_contains": "e",
    "_ncontains": "e",
    "_icontains": "E",
    "_starts_with": "B",
    "_nstarts_with": "B",
    "_istarts_with": "b",
    "_nistarts_with": "b",
    "_ends_with": "n",
    "_nends_with": "n",
    "_iends_with": "N",
    "_niends_with": "N",
}
NUMBER = {
    "_eq": 3,
    "_neq": 3,
    "_lt": 3,
    "_lte": 3,
    "_gt": 3,
    "_gte": 3,
    "_between": [2, 3],
    "_nbetween": [2, 3],
    "_in": [1, 3],
    "_nin": [1, 3],
    "_null": True,
    "_nnull": True,
}
UUID = {
    "_eq": "00000000-0000-4000-8000-000000000001",
    "_neq": "00000000-0000-4000-8000-000000000001",
    "_in": ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000003"],
    "_nin": ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000003"],
    "_null": True,
    "_nnull": True,
}
BOOLEAN = {"_eq": True, "_neq": True, "_null": True, "_nnull": True}
# the variants that look at null: false flags and comparisons with null
NULL_VARIANTS = [
    ("_null", False),
    ("_nnull", False),
    ("_empty", False),
    ("_nempty", False),
    ("_eq", None),
    ("_neq", None),
    ("_eq", "null"),
]


def conditions(ftype: FieldType) -> list[tuple[str, Any]]:
    table = {
        FieldType.STRING: TEXT,
        FieldType.INTEGER: NUMBER,
        FieldType.UUID: UUID,
        FieldType.BOOLEAN: BOOLEAN,
    }[ftype]
    extra = [(op, v) for op, v in NULL_VARIANTS if op in table]
    return [*table.items(), *extra]


def holds_on_null(op: str, operand: Any) -> bool:
    """Whether a condition holds on a null field: only the null tests (and ``_eq`` null)."""
    flag = {"true": True, "false": False}.get(operand) if isinstance(operand, str) else operand
    if op in ("_null", "_empty"):
        return flag is True
    if op in ("_nnull", "_nempty"):
        return flag is False
    return op == "_eq" and operand in (None, "null", "NULL")


def follow(row: Row | None, collection: str, name: str) -> Row | None:
    """The row a many-to-one field points to, None where it is null or dangles."""
    if row is None or row.get(name) is None:
        return None
    target = SCHEMA[collection].field(name).relation
    assert target is not None
    return next((r for r in RECORDS[target.related] if r["id"] == row[name]), None)


PATHS = [
    ("events", ["course"], ["title", "id", "institution", "course_type"]),
    ("events", ["address"], ["city", "zip", "barrier_free", "institution", "state"]),
    ("events", ["address", "state"], ["name", "code", "id"]),
    ("events", ["course", "course_type"], ["name", "id"]),
    ("courses", ["course_type"], ["name", "id"]),
]


def _null_first(collection: str, path: list[str]) -> set[int]:
    return {row["id"] for row in RECORDS[collection] if row.get(path[0]) is None}


@pytest.mark.parametrize(
    ("collection", "path", "names"), PATHS, ids=lambda v: ".".join(v) if isinstance(v, list) else v
)
def test_many_to_one_paths_are_outer_joins(
    small: Api, collection: str, path: list[str], names: list[str]
) -> None:
    """Along a null or dangling reference every field of the path is null: a condition
    matches there exactly when it holds on a null field."""
    target = collection
    for name in path:
        relation = SCHEMA[target].field(name).relation
        assert relation is not None
        target = relation.related
    ends: dict[int, Row | None] = {}
    for row in RECORDS[collection]:
        current: Row | None = row
        source = collection
        for name in path:
            current = follow(current, source, name)
            relation = SCHEMA[source].field(name).relation
            assert relation is not None
            source = relation.related
        ends[row["id"]] = current
    # some paths end at no row: through a null reference, or one that points nowhere
    first_steps = [row.get(path[0]) for row in RECORDS[collection]]
    assert None in first_steps
    assert any(end is None for i, end in ends.items() if i not in _null_first(collection, path))
    failures = []
    tried = 0
    for name in names:
        ftype = SCHEMA[target].field(name).type
        for op, operand in conditions(ftype):
            leaf = {name: {op: operand}}
            matching = set(small.oracle.matching_ids(target, leaf))  # rows of the target
            on_null = holds_on_null(op, operand)
            expected = sorted(
                i for i, end in ends.items() if (end["id"] in matching if end else on_null)
            )
            flt: Any = leaf
            for step in reversed(path):
                flt = {step: flt}
            tried += 1
            got = ids_of(listed(small.client, collection, flt))
            if got != expected:
                failures.append(f"{json.dumps(flt)}: expected {expected}, got {got}")
            else:  # the oracle evaluates the whole path the same way
                small.check(collection, {"filter": flt, "fields": "id", "limit": -1})
    assert tried > 40
    assert not failures, "\n".join(failures[:20])


def test_the_doc_example_state_null(small: Api) -> None:
    """``{"address": {"state": {"_null": true}}}`` matches events without an address, with an
    address that does not exist, or with an address without a state."""
    addresses = {a["id"]: a for a in RECORDS["addresses"]}
    expected = [
        e["id"]
        for e in EVENTS
        if e["address"] not in addresses or addresses[e["address"]]["state"] is None
    ]
    assert any(e["address"] is None for e in EVENTS)
    assert any(e["address"] is not None and e["address"] not in addresses for e in EVENTS)
    got = ids_of(listed(small.client, "events", {"address": {"state": {"_null": True}}}))
    assert got == expected
    flt = {"address": {"state": {"_nnull": True}}}
    assert ids_of(listed(small.client, "events", flt)) == sorted(
        {e["id"] for e in EVENTS} - set(expected)
    )


NONE_BESIDE_A_DECIDED_CONDITION = [
    ("events", {"course": {"id": {"_eq": 1}, "events": {"_none": {"id": {"_gt": 1}}}}}),
    (
        "events",
        {
            "course": {
                "_or": [{"events": {"_none": {"id": {"_gt": 1}}}}, {"title": {"_null": True}}]
            }
        },
    ),
    ("courses", {"events": {"remarks": {"_nnull": True}, "contacts": {"_none": {"id": 1}}}}),
]


@pytest.mark.parametrize(("collection", "flt"), NONE_BESIDE_A_DECIDED_CONDITION, ids=str)
def test_none_beside_a_decided_condition_in_a_row_of_nulls(
    small: Api, collection: str, flt: dict[str, Any]
) -> None:
    """A nested ``_none`` next to a condition that is already true or false on the row of
    nulls (here: the course's id on a null course, the event's remarks on a course without
    events)."""
    small.check(collection, {"filter": flt, "fields": "id", "limit": -1})


# ---------------------------------------------------------------------------------------
# (c) search matches uuids only as whole UUIDs


CANONICAL_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?")


def _search_expected(oracle: Oracle, collection: str, text: str) -> tuple[list[int], list[int]]:
    """Rows that match ``text`` by a text field or a number, and the other rows that hold a
    uuid containing ``text`` (what a substring search on uuids would add)."""
    coll = SCHEMA[collection]
    number = Decimal(text) if CANONICAL_NUMBER.fullmatch(text) and text != "-0" else None
    matched, uuid_only = [], []
    for row in oracle.rows[collection]:
        by_text = any(
            isinstance(v := row.get(f.name), str) and text.lower() in v.lower()
            for f in coll.stored_fields
            if f.type is FieldType.STRING
        )
        by_number = number is not None and any(
            row.get(f.name) is not None and Decimal(str(row[f.name])) == number
            for f in coll.stored_fields
            if f.type in (FieldType.INTEGER, FieldType.DECIMAL)
        )
        if by_text or by_number:
            matched.append(row["id"])
        elif any(
            text.lower() in (row.get(f.name) or "").lower()
            for f in coll.stored_fields
            if f.type is FieldType.UUID
        ):
            uuid_only.append(row["id"])
    return matched, uuid_only


def _search(text: str) -> dict[str, str]:
    return {"search": text, "fields": "id", "limit": "-1"}


def test_search_never_matches_a_part_of_a_uuid(demo: Api) -> None:
    """``search=-3`` finds a -3 in numbers and text, never in a uuid; nor does a piece of
    a uuid."""
    left_out = 0
    for collection in ("events", "courses", "addresses", "contacts"):
        first = demo.oracle.rows[collection][0]["institution"]
        for text in ("-3", first[:8], first[9:23], first[-12:], first[:-1]):
            expected, uuid_only = _search_expected(demo.oracle, collection, text)
            left_out += len(uuid_only)
            got = ids_of(demo.client.get(f"/items/{collection}", params=_search(text)))
            assert got == expected, (collection, text)
            assert not set(got) & set(uuid_only)
    assert left_out  # rows a substring search on uuids would have found


def test_search_matches_only_a_whole_valid_uuid(small: Api, demo: Api) -> None:
    """A whole hyphenated UUID (any case) finds the rows holding it; a UUID without an RFC
    version (1-8) and variant is no UUID to search, though filters read it."""
    events = demo.oracle.rows["events"]
    institution = events[0]["institution"]
    expected = [e["id"] for e in events if e["institution"] == institution]
    for text in (institution, institution.upper()):
        assert ids_of(demo.client.get("/items/events", params=_search(text))) == expected
    for text in (institution.replace("-", ""), "{" + institution + "}", institution[1:]):
        assert ids_of(demo.client.get("/items/events", params=_search(text))) == []
    versionless = "3f2504e0-4f89-01d3-3a0c-0305e82c3301"
    holders = [a["id"] for a in RECORDS["addresses"] if a["institution"] == versionless]
    assert holders
    assert ids_of(listed(small.client, "addresses", {"institution": versionless})) == holders
    for text in (versionless, "-3"):
        expected, uuid_only = _search_expected(small.oracle, "addresses", text)
        assert set(holders) <= set(uuid_only)
        assert ids_of(small.client.get("/items/addresses", params=_search(text))) == expected


# ---------------------------------------------------------------------------------------
# (d) uuid fields: their operators and values

UUID_FIELDS = [
    (name, f.name)
    for name, coll in SCHEMA.items()
    for f in coll.stored_fields
    if f.type is FieldType.UUID
]
NOT_ON_UUID = [
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
    "_empty",
    "_nempty",
    "_lt",
    "_lte",
    "_gt",
    "_gte",
    "_between",
    "_nbetween",
]


def test_text_operators_and_empty_on_uuid_are_refused(small: Api) -> None:
    assert UUID_FIELDS
    for collection, name in UUID_FIELDS:
        for op in NOT_ON_UUID:
            value: Any = True if op.endswith("empty") else "0000"
            if op.endswith("between"):
                value = ["00000000-0000-4000-8000-000000000001"] * 2
            response = listed(small.client, collection, {name: {op: value}})
            assert_error(response, 400, "INVALID_QUERY", mentions=op)
            assert "uuid" in response.json()["errors"][0]["message"], (collection, op)


@pytest.mark.parametrize(
    "value",
    [
        "abc",
        "0000",
        "1",
        "00000000-0000-4000-8000-00000000000",
        "00000000-0000-4000-8000-0000000000010",
        "00000000-0000-4000-8000-00000000000g",
        "00000000_0000_4000_8000_000000000001",
        "urn:uuid:00000000-0000-4000-8000-000000000001",
        "true",
        5,
        True,
        12345678901234567890123456789012,
    ],
    ids=str,
)
def test_values_that_are_not_uuids_are_refused(small: Api, value: Any) -> None:
    for op in ("_eq", "_neq"):
        assert_error(
            listed(small.client, "events", {"institution": {op: value}}), 400, "INVALID_QUERY"
        )
    for op in ("_in", "_nin"):
        flt = {"institution": {op: ["00000000-0000-4000-8000-000000000001", value]}}
        assert_error(listed(small.client, "events", flt), 400, "INVALID_QUERY")


def test_uuids_are_compared_as_uuids(small: Api) -> None:
    """Any case, braces, no hyphens or a hyphen after each four digits: the same UUID."""
    canonical = "00000000-0000-4000-8000-000000000002"
    digits = canonical.replace("-", "")
    expected = [e["id"] for e in EVENTS if e["institution"] == canonical]
    others = [e["id"] for e in EVENTS if e["institution"] not in (None, canonical)]
    assert expected
    for form in (
        canonical,
        canonical.upper(),
        "{" + canonical + "}",
        digits,
        "{" + digits.upper() + "}",
        "-".join(digits[i : i + 4] for i in range(0, 32, 4)),
        "-".join(digits[i : i + 8] for i in range(0, 32, 8)),
    ):
        assert ids_of(listed(small.client, "events", {"institution": form})) == expected, form
        got = ids_of(listed(small.client, "events", {"institution": {"_neq": form}}))
        assert got == others, form
        flt = {"institution": {"_in": f"{form},00000000-0000-4000-8000-000000000099"}}
        assert ids_of(listed(small.client, "events", flt)) == expected, form


NOT_UUIDS_TO_POSTGRESQL = [
    " 00000000-0000-4000-8000-000000000001",
    "00000000-0000-4000-8000-000000000001 ",
    "{00000000-0000-4000-8000-000000000001",
    "00000000-0000-4000-8000-000000000001}",
    "{{00000000-0000-4000-8000-000000000001}}",
    "uuid:00000000-0000-4000-8000-000000000001",
    "0-0000000-0000-4000-8000-000000000001",
    "000000000000400080000000000000-01",
    "+0000000000000000000000000000001",
    "0x000000000000000000000000000001",
    "0000_000000000000000000000000001",
]


@pytest.mark.parametrize("value", NOT_UUIDS_TO_POSTGRESQL)
def test_forms_postgresql_does_not_read_are_refused(small: Api, value: str) -> None:
    assert_error(listed(small.client, "events", {"institution": value}), 400, "INVALID_QUERY")


def test_a_uuid_list_with_spaces_is_refused(small: Api) -> None:
    flt = {
        "institution": {
            "_in": "00000000-0000-4000-8000-000000000001, 00000000-0000-4000-8000-000000000002"
        }
    }
    assert_error(listed(small.client, "events", flt), 400, "INVALID_QUERY")


# ---------------------------------------------------------------------------------------
# (e) no _nicontains


def test_nicontains_is_an_unknown_operator(small: Api) -> None:
    for collection, name in (("events", "remarks"), ("courses", "title"), ("states", "name")):
        response = listed(small.client, collection, {name: {"_nicontains": "a"}})
        assert_error(response, 400, "INVALID_QUERY", mentions="_nicontains")
        flt = {"_or": [{name: {"_icontains": "a"}}, {name: {"_nicontains": "a"}}]}
        assert_error(listed(small.client, collection, flt), 400, "INVALID_QUERY")
    # the operators that do exist on text fields are all still there
    for op in TEXT:
        if op not in ("_in", "_nin"):
            assert listed(small.client, "events", {"remarks": {op: TEXT[op]}}).status_code == 200
