"""Every filter operator on every field type it allows, with null rows present, against the
oracle; every forbidden operator/type combination answered with 400 INVALID_QUERY.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

import pytest

from conformance import Api
from educatalog.model.schema import SCHEMA, Field, FieldType
from oracle import (
    ALL_OPS,
    ALLOWED_OPS,
    FLAG_OPS,
    LIST_OPS,
    RANGE_OPS,
    TEXT_OPS,
    Oracle,
    OracleError,
    encode_params,
)

COLLECTIONS = ("events", "addresses", "courses", "event_costs", "contacts", "states")


def _distinct(oracle: Oracle, collection: str, name: str) -> list[Any]:
    seen: list[Any] = []
    for row in oracle.rows[collection]:
        value = row.get(name)
        if value is not None and value not in seen:
            seen.append(value)
    return seen


def _pick(values: list[Any], n: int = 3) -> list[Any]:
    if len(values) <= n:
        return values
    step = (len(values) - 1) / (n - 1)
    return [values[round(i * step)] for i in range(n)]


def scalar_values(oracle: Oracle, collection: str, f: Field, op: str) -> list[Any]:
    """Operands to try for ``op`` on ``f``: values of the data and edge values."""
    data = _pick(_distinct(oracle, collection, f.name), 2)
    if op in FLAG_OPS:
        return [True, False, "true", "false"]
    if f.type is FieldType.UUID:
        out = [form for v in data for form in uuid_forms(v)]
        return [*out, "ffffffff-ffff-ffff-ffff-ffffffffffff", "null"]
    if f.type is FieldType.STRING:
        out: list[Any] = []
        for v in data:
            out += [v, v.upper()]
            if op in TEXT_OPS and len(v) > 2:
                out += [v[1:-1], v[:2], v[-2:].swapcase()]
        out += ["%", "_", "ß", "k", "null", "true", 5]
        return _unique(v for v in out if v != "")
    if f.type is FieldType.INTEGER:
        out = [x for v in data for x in (v, v + 1)]
        return [*out, *(f" {v} " for v in data[:1]), 2.5, "2.5", -1, 0, "1e1", "-3", 42]
    if f.type is FieldType.DECIMAL:
        return [*data, "12.5", 12.5, "1490", 0, "-5", 99.99, "1e6"]
    if f.type is FieldType.DATETIME:
        out = []
        for v in data:
            out += [v, v[:10], v.replace("T", " ")]
        edges = ["2025-01-31", "2025-01-31T10:00:00", "2025-01-01T00:00:00+01:00"]
        now = ["$NOW", "$NOW(-2 months)", "$NOW(+1 year)", "$NOW(-59 days)", "$NOW(-1430 h)"]
        return [*out, *edges, "2025-01-31T09:59:59.999", "2025-01-31T10:00:00.5", *now]
    if f.type is FieldType.BOOLEAN:
        return [True, False, "true", "false", "1", "0", 1, 0]
    raise AssertionError(f.type)


def uuid_forms(value: str) -> list[str]:
    """Ways PostgreSQL reads the same UUID: any case, braces, without or with more hyphens."""
    digits = value.replace("-", "")
    return [
        value,
        value.upper(),
        "{" + value + "}",
        digits,
        "{" + digits.upper() + "}",
        "-".join(digits[i : i + 4] for i in range(0, 32, 4)),
    ]


def _unique(values: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    for v in values:
        if not any(v == o and type(v) is type(o) for o in out):
            out.append(v)
    return out


def operands(oracle: Oracle, collection: str, f: Field, op: str) -> list[Any]:
    if op in ("_eq", "_neq"):
        return [*scalar_values(oracle, collection, f, op), None, "null", "NULL"]
    values = scalar_values(oracle, collection, f, op)
    if op in LIST_OPS:
        if f.type is FieldType.BOOLEAN:
            return []
        pairs = [values[i : i + 2] for i in range(0, len(values), 2)]
        texts = [",".join(str(v) for v in pair) for pair in pairs]
        return [[values[0]], *pairs, *texts]
    if op in RANGE_OPS:
        out = []
        for a, b in itertools.pairwise(values):
            if f.type in (FieldType.INTEGER, FieldType.DECIMAL):
                a, b = str(a).strip(), str(b).strip()
            out += [[a, b], [b, a], f"{a},{b}"]
        return out
    return values


def _cases(collection: str) -> list[tuple[str, str]]:
    """(field, operator) pairs: up to three fields of each type, incl. foreign keys."""
    coll = SCHEMA[collection]
    by_type: dict[FieldType, list[Field]] = {}
    for f in coll.stored_fields:
        by_type.setdefault(f.type, []).append(f)
    chosen = [f for fields in by_type.values() for f in fields[:2]]
    chosen += [f for f in coll.stored_fields if f.is_many_to_one and f not in chosen]
    return [(f.name, op) for f in chosen for op in sorted(ALLOWED_OPS[f.type])]


@pytest.mark.parametrize("collection", COLLECTIONS)
def test_every_allowed_operator(small: Api, collection: str) -> None:
    """Each operator on each field of each type matches exactly the oracle's rows."""
    failures: list[str] = []
    tried = 0
    for name, op in _cases(collection):
        f = SCHEMA[collection].field(name)
        for operand in _pick(operands(small.oracle, collection, f, op), 10):
            params = {"filter": {name: {op: operand}}, "fields": "id", "limit": -1}
            try:
                expected = small.expected(collection, params)
            except OracleError:  # an operand this operator refuses: tested elsewhere
                continue
            tried += 1
            response = small.get(f"/items/{collection}", encode_params(params))
            if response.status_code != 200 or response.json() != expected:
                got = response.json()
                got_ids = [r.get("id") for r in got["data"]] if "data" in got else got
                want = [r["id"] for r in expected["data"]]
                failures.append(f"{name} {op} {operand!r}: expected {want}, got {got_ids}")
    assert tried > 20
    assert not failures, "\n".join(failures[:40])


TYPE_SAMPLES = {
    FieldType.STRING: ("events", "remarks"),
    FieldType.UUID: ("events", "institution"),
    FieldType.INTEGER: ("events", "max_participants"),
    FieldType.DECIMAL: ("event_costs", "value"),
    FieldType.DATETIME: ("events", "event_start_date"),
    FieldType.BOOLEAN: ("events", "is_inhouse"),
}


@pytest.mark.parametrize(
    ("ftype", "op"),
    [(t, op) for t in TYPE_SAMPLES for op in sorted(ALL_OPS - ALLOWED_OPS[t])],
    ids=lambda v: str(v),
)
def test_forbidden_operator_for_type(small: Api, ftype: FieldType, op: str) -> None:
    """An operator not allowed on a field's type: 400 INVALID_QUERY naming it and the type."""
    collection, name = TYPE_SAMPLES[ftype]
    value: Any = ["a", "b"] if op in LIST_OPS | RANGE_OPS else "abc"
    if op in FLAG_OPS:
        value = True
    params = {"filter": {name: {op: value}}}
    small.check_error(collection, params, status=400, code="INVALID_QUERY", mentions=op)
    response = small.get(f"/items/{collection}", encode_params(params))
    message = response.json()["errors"][0]["message"]
    assert str(ftype) in message, message


@pytest.mark.parametrize(
    "op", ["_foo", "_like", "_regex", "_eqq", "_EQ", "_icontain", "_nicontains"]
)
def test_unknown_operator(small: Api, op: str) -> None:
    for name in ("remarks", "max_participants", "institution"):
        small.check_error(
            "events", {"filter": {name: {op: "x"}}}, status=400, code="INVALID_QUERY", mentions=op
        )


@pytest.mark.parametrize(
    ("collection", "flt"),
    [
        ("events", {"contacts": {"_null": True}}),
        ("events", {"contacts": {"_nnull": True}}),
        ("events", {"contacts": 5}),
        ("events", {"contacts": {"_eq": 5}}),
        ("events", {"contacts": {"_neq": 5}}),
        ("events", {"contacts": {"_in": [1, 151, 500]}}),
        ("events", {"contacts": {"_gt": 150}}),
        ("courses", {"events": {"_null": True}}),
        ("courses", {"events": {"_nnull": "true"}}),
        ("courses", {"events": {"_eq": 3}}),
        ("courses", {"events": {"_nin": "1,2,3"}}),
        ("courses", {"events": {"_between": [100, 150]}}),
        ("courses", {"events": {"_lt": 5}, "costs": {"_null": False}}),
        ("courses", {"_and": [{"events": {"_gte": 200}}, {"events": {"_lte": 101}}]}),
        ("courses", {"handicaps": {"_null": True}}),
        ("courses", {"keywords": {"_eq": 4}}),
    ],
    ids=str,
)
def test_operator_on_list_relation(small: Api, collection: str, flt: dict[str, Any]) -> None:
    """An operator on a one-to-many / many-to-many field applies to the related (junction)
    rows' ids; an item without related rows matches where a null id does."""
    small.check(collection, {"filter": flt, "fields": "id", "limit": -1})


@pytest.mark.parametrize(
    "flt",
    [
        {"contacts": {"_empty": True}},
        {"contacts": {"_nempty": True}},
        {"contacts": {"_contains": "1"}},
        {"contacts": {"_eq": "one"}},
        {"contacts": {"_some": {"id": 1}, "_eq": 1}},
    ],
    ids=str,
)
def test_invalid_operator_on_list_relation(small: Api, flt: dict[str, Any]) -> None:
    small.check_error("events", {"filter": flt}, status=400, code="INVALID_QUERY")


def test_text_operators_on_tricky_text(small: Api) -> None:
    """Literal matching (no wildcards) and Unicode case-insensitivity."""
    cases: list[tuple[str, Any]] = [
        ("_contains", "%"),
        ("_contains", "_"),
        ("_contains", "50%_"),
        ("_icontains", "%_OFF"),
        ("_starts_with", "a_"),
        ("_istarts_with", "A_B"),
        ("_ends_with", "%_off"),
        ("_icontains", "äöü"),
        ("_icontains", "ÄÖÜSS"),
        ("_icontains", "strasse"),
        ("_icontains", "straße"),
        ("_icontains", "STRAẞE"),
        ("_ncontains", "a"),
        ("_nstarts_with", "S"),
        ("_nistarts_with", "s"),
        ("_nends_with", "e"),
        ("_niends_with", "E"),
        ("_iends_with", "SSE"),
        ("_icontains", "kiel"),
        ("_icontains", "KIEL"),
        ("_istarts_with", "k"),
        ("_icontains", "i"),
        ("_icontains", "izmir"),
        ("_icontains", "zmir"),
        ("_istarts_with", "i"),
        ("_icontains", "İ"),
        ("_niends_with", "i"),
        ("_iends_with", "i̇"),
        ("_contains", "Excel"),
        ("_icontains", "excel excel"),
        ("_contains", 100),
        ("_contains", "null"),
        ("_icontains", True),
        ("_contains", 12.5),
    ]
    for collection, name in (("events", "remarks"), ("addresses", "remarks"), ("courses", "title")):
        for op, value in cases:
            small.check(collection, {"filter": {name: {op: value}}, "fields": "id", "limit": -1})
    for op, value in cases:
        small.check("addresses", {"filter": {"city": {op: value}}, "fields": "id", "limit": -1})


@pytest.mark.parametrize(
    ("op", "value"),
    [
        ("_null", True),
        ("_null", False),
        ("_nnull", True),
        ("_nnull", False),
        ("_empty", True),
        ("_empty", False),
        ("_nempty", True),
        ("_nempty", False),
        ("_null", "true"),
        ("_nempty", "false"),
    ],
)
def test_null_and_empty_flags(small: Api, op: str, value: Any) -> None:
    for name in ("remarks", "instruction_time_comment", "comment"):
        body = small.check(
            "events", {"filter": {name: {op: value}}, "fields": "id,remarks", "limit": -1}
        )
        assert body["data"] or op in ("_nnull", "_null", "_nempty", "_empty")


@pytest.mark.parametrize("value", ["maybe", 1, None, "null", "", ["true"]])
def test_flag_operators_need_true_or_false(small: Api, value: Any) -> None:
    small.check_error(
        "events", {"filter": {"remarks": {"_null": value}}}, status=400, code="INVALID_QUERY"
    )


def test_negated_operators_never_match_null(small: Api) -> None:
    """SQL three-valued logic: _neq, _nin, _ncontains, ... skip rows where the field is null."""
    null_ids = {r["id"] for r in small.oracle.rows["events"] if r["max_participants"] is None}
    assert null_ids
    for flt in (
        {"max_participants": {"_neq": 12}},
        {"max_participants": {"_nin": [12, 20]}},
        {"max_participants": {"_nbetween": [100, 200]}},
    ):
        body = small.check("events", {"filter": flt, "fields": "id", "limit": -1})
        assert not null_ids & {r["id"] for r in body["data"]}
    null_remarks = {r["id"] for r in small.oracle.rows["events"] if r["remarks"] is None}
    negated = ("_ncontains", "_nstarts_with", "_nistarts_with", "_nends_with", "_niends_with")
    for op in negated:
        body = small.check(
            "events", {"filter": {"remarks": {op: "zzz"}}, "fields": "id", "limit": -1}
        )
        assert not null_remarks & {r["id"] for r in body["data"]}


def test_between_is_inclusive_and_bare_date_is_midnight(small: Api) -> None:
    body = small.check(
        "events",
        {
            "filter": {"event_start_date": {"_between": ["2025-01-01", "2025-01-31"]}},
            "fields": "id,event_start_date",
            "limit": -1,
        },
    )
    dates = {r["event_start_date"] for r in body["data"]}
    assert "2025-01-01T00:00:00" in dates
    assert "2025-01-31T00:00:00" in dates
    assert "2025-01-31T10:00:00" not in dates
    body = small.check(
        "events", {"filter": {"max_participants": {"_between": [12, 20]}}, "fields": "id"}
    )
    assert body["data"]
    small.check("events", {"filter": {"event_start_date": {"_eq": "2025-01-31"}}, "fields": "id"})
    small.check("events", {"filter": {"event_start_date": {"_lte": "2025-01-31"}}, "fields": "id"})
    small.check("events", {"filter": {"event_start_date": {"_gt": "2025-01-31"}}, "fields": "id"})


def test_decimal_comparisons_are_numeric(small: Api) -> None:
    """Money compares as numbers, not as text ("99.99" < "1490.00")."""
    body = small.check("event_costs", {"filter": {"value": {"_gt": 100}}, "fields": "id,value"})
    assert {r["value"] for r in body["data"]} == {"1490.00", "1000000.00"}
    small.check("event_costs", {"filter": {"value": {"_lt": "99.99"}}, "fields": "id,value"})
    small.check("event_costs", {"filter": {"value": {"_eq": "12.50"}}, "fields": "id,value"})
    small.check("event_costs", {"filter": {"value": {"_in": "0,42,12.5"}}, "fields": "id"})
    small.check("event_costs", {"filter": {"value": {"_between": ["-10", "12.5"]}}})


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("max_participants", "ten"),
        ("max_participants", True),
        ("max_participants", "1,2"),
        ("max_participants", "0x10"),
        ("max_participants", "Infinity"),
        ("max_participants", ""),
        ("event_start_date", "yesterday"),
        ("event_start_date", 20250101),
        ("event_start_date", True),
        ("event_start_date", "2025-13-01"),
        ("event_start_date", "9999-12-31T23:59:59-12:00"),
        ("event_start_date", "0001-01-01T00:00:00+01:00"),
        ("is_inhouse", "yes"),
        ("is_inhouse", 2),
        ("is_inhouse", "TRUE"),
        ("remarks", ""),
        ("remarks", ["a", "b"]),
        ("institution", "abc"),
        ("institution", 5),
        ("institution", True),
        ("institution", "00000000-0000-4000-8000-00000000001"),
        ("institution", "00000000-0000-4000-8000-0000000000011"),
        ("institution", "x0000000-0000-4000-8000-000000000001"),
        ("institution", "$NOW"),
    ],
)
def test_bad_values(small: Api, name: str, value: Any) -> None:
    small.check_error("events", {"filter": {name: value}}, status=400, code="INVALID_QUERY")


@pytest.mark.parametrize(
    ("op", "value"),
    [
        ("_in", []),
        ("_nin", []),
        ("_in", [1, None]),
        ("_in", "1,null"),
        ("_nin", [None]),
        ("_in", "1,,2"),
        ("_between", [1]),
        ("_between", [1, 2, 3]),
        ("_between", "1"),
        ("_nbetween", "1,2,3"),
        ("_between", [1, None]),
        ("_lt", None),
        ("_gte", "null"),
        ("_in", 5),
        ("_eq", [1, 2]),
    ],
)
def test_bad_list_operands(small: Api, op: str, value: Any) -> None:
    small.check_error(
        "events", {"filter": {"max_participants": {op: value}}}, status=400, code="INVALID_QUERY"
    )


@pytest.mark.parametrize("size", [63, 64, 65, 200])
def test_long_value_lists(small: Api, size: int) -> None:
    """Long ``_in``/``_nin`` lists (the server may pass them differently past a size)."""
    numbers = list(range(-5, size - 5))
    texts = [f"Filiale {i}" for i in range(100, 100 + size)]
    dates = [f"2025-{(i % 12) + 1:02d}-{(i % 28) + 1:02d}T08:00:00" for i in range(size)]
    for op in ("_in", "_nin"):
        for name, values in (
            ("min_participants", numbers),
            ("id", [str(n) for n in numbers]),
            ("remarks", texts),
            ("event_start_date", dates),
            ("max_participants", [*numbers[:-1], 12.5]),
        ):
            small.check("events", {"filter": {name: {op: values}}, "fields": "id", "limit": -1})
        small.check(
            "event_costs", {"filter": {"value": {op: [*numbers, "12.5", 1490]}}, "fields": "id"}
        )


def test_backslashes_and_like_characters(small: Api) -> None:
    assert any(c["labels"] == "C:\\Kurse\\100%_x" for c in small.oracle.rows["contacts"])
    for op in sorted(TEXT_OPS):
        for value in ("\\", "\\K", "\\100%_", "KURSE\\1", "%_x", "c:\\", "\\%", "_"):
            params = {"filter": {"labels": {op: value}}, "fields": "id", "limit": -1}
            small.check("contacts", params)
    for search in ("\\", "\\kurse\\100%_", "%_X", "\\%"):
        small.check("contacts", {"search": search, "fields": "id", "limit": -1})
