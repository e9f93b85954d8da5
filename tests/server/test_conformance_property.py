"""Property tests over the demo catalogue: random valid queries answer exactly the oracle's
rows; random invalid ones a 400/403 with an error body; nothing is ever a 500.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance import Api, assert_error
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
    bracket_pairs,
    encode_params,
)

ROOTS = ("events", "courses", "addresses")
MAX_RELATION_DEPTH = 3

# CONFORMANCE_EXAMPLES=2000 for a thorough run; the default keeps the suite fast.
EXAMPLES = int(os.environ.get("CONFORMANCE_EXAMPLES", "200"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

Draw = Callable[[st.SearchStrategy[Any]], Any]
Obj = dict[str, Any]


# ---------------------------------------------------------------------------------------
# Values drawn from the data


_COLUMNS: dict[tuple[int, str, str], tuple[Any, ...]] = {}


def column(oracle: Oracle, collection: str, name: str) -> tuple[Any, ...]:
    """Distinct non-empty values of a column, in id order (cached)."""
    key = (id(oracle), collection, name)
    if key not in _COLUMNS:
        seen: dict[Any, None] = {}
        for row in oracle.rows[collection]:
            value = row.get(name)
            if value is not None and value != "":
                seen.setdefault(value, None)
        _COLUMNS[key] = tuple(seen)
    return _COLUMNS[key]


TEXT_EDGES = ["%", "_", "ß", "ä", "null", "true", "a b", "-", "e", "STRASSE", "straße", "0"]
UUID_EDGES = ["FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "{12345678123456781234567812345678}"]
NOW_VALUES = [
    "$NOW",
    "$NOW(-1 year)",
    "$NOW(+6 months)",
    "$NOW(-2 mo)",
    "$NOW(+3 weeks)",
    "$NOW(-10 days)",
    "$NOW(45)",
    "$NOW(-36 hours)",
    "$NOW(+90 min)",
    "$NOW(-1.5 d)",
    "$NOW(+0.5 years)",
    "$NOW()",
]


def uuid_forms(value: str) -> list[str]:
    """The same UUID as PostgreSQL reads it: any case, braces, fewer or more hyphens."""
    digits = value.replace("-", "")
    grouped = "-".join(digits[i : i + 4] for i in range(0, 32, 4))
    return [value, value, value.upper(), "{" + value + "}", digits, grouped.upper()]


def scalar(draw: Draw, oracle: Oracle, collection: str, f: Field, op: str) -> Any:
    """One operand value for ``op`` on ``f``: from the data, varied, or an edge value."""
    data = column(oracle, collection, f.name)
    if f.type is FieldType.UUID:
        if not data or draw(st.integers(0, 5)) == 0:
            return draw(st.sampled_from(["00000000-0000-0000-0000-000000000000", *UUID_EDGES]))
        return draw(st.sampled_from(uuid_forms(draw(st.sampled_from(data)))))
    if f.type is FieldType.STRING:
        if not data or draw(st.integers(0, 4)) == 0:
            edges = [e for e in TEXT_EDGES if op not in LIST_OPS or e != "null"]
            return draw(st.sampled_from(edges))
        text = draw(st.sampled_from(data))
        if op in TEXT_OPS:
            start = draw(st.integers(0, max(len(text) - 1, 0)))
            end = draw(st.integers(start + 1, max(len(text), start + 1)))
            text = text[start:end] or text
        variants = [text, text, text.upper(), text.lower(), text.swapcase()]
        return draw(st.sampled_from(variants))
    if f.type is FieldType.INTEGER:
        base = draw(st.sampled_from(data)) if data else 0
        return draw(
            st.sampled_from([base, base, base + 1, base - 1, str(base), 0, -1, 2.5, "1e1", " 3 "])
        )
    if f.type is FieldType.DECIMAL:
        base = draw(st.sampled_from(data)) if data else "0.00"
        return draw(st.sampled_from([base, float(base), base.rstrip("0"), 0, "100", 99.5]))
    if f.type is FieldType.DATETIME:
        if draw(st.integers(0, 3)) == 0:
            return draw(st.sampled_from(NOW_VALUES))
        base = draw(st.sampled_from(data)) if data else "2025-01-01T00:00:00"
        return draw(
            st.sampled_from(
                [base, base, base[:10], base.replace("T", " "), "2025-01-31", "2025-06-01T12:00"]
            )
        )
    if f.type is FieldType.BOOLEAN:
        return draw(st.sampled_from([True, False, "true", "false", "1", "0", 1, 0]))
    raise AssertionError(f.type)


def operand(draw: Draw, oracle: Oracle, collection: str, f: Field, op: str) -> Any:
    if op in FLAG_OPS:
        return draw(st.sampled_from([True, False, "true", "false"]))
    if op in ("_eq", "_neq") and draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from([None, "null", "NULL"]))
    if op in LIST_OPS:
        values = [scalar(draw, oracle, collection, f, op) for _ in range(draw(st.integers(1, 4)))]
        if draw(st.booleans()) and all("," not in str(v) for v in values):
            return ",".join(str(v) for v in values)
        return values
    if op in RANGE_OPS:
        low = scalar(draw, oracle, collection, f, op)
        high = scalar(draw, oracle, collection, f, op)
        if draw(st.booleans()):
            return f"{low},{high}" if "," not in f"{low}{high}" else [low, high]
        return [low, high]
    return scalar(draw, oracle, collection, f, op)


# ---------------------------------------------------------------------------------------
# Valid filters


def condition(draw: Draw, oracle: Oracle, collection: str, depth: int) -> Obj:
    coll = SCHEMA[collection]
    fields = list(coll.fields) if depth < MAX_RELATION_DEPTH else list(coll.stored_fields)
    f: Field = draw(st.sampled_from(fields))
    relational = f.relation is not None and depth < MAX_RELATION_DEPTH
    if relational and (not f.is_stored or draw(st.integers(0, 2)) == 0):
        assert f.relation is not None
        target = SCHEMA.expansion_target(f).name
        if f.relation.is_list and draw(st.integers(0, 4)) == 0:
            # an operator on the list field: on the related (junction) rows' ids
            return condition_on(draw, oracle, target, SCHEMA[target].field("id"), f.name)
        inner = filter_object(draw, oracle, target, depth + 1)
        if f.relation.is_list:
            quantifier = draw(st.sampled_from([None, None, "_some", "_none"]))
            return {f.name: inner if quantifier is None else {quantifier: inner}}
        if draw(st.integers(0, 3)) == 0:  # operators on the key and the related item's filter
            own = condition_on(draw, oracle, collection, f, f.name)[f.name]
            if isinstance(own, dict) and not set(own) & set(inner):
                return {f.name: {**own, **inner}}
        return {f.name: inner}
    if not f.is_stored:
        f = draw(st.sampled_from(coll.stored_fields))
    return condition_on(draw, oracle, collection, f, f.name)


def condition_on(draw: Draw, oracle: Oracle, collection: str, f: Field, key: str) -> Obj:
    """A condition with a random operator on the values of ``f`` of ``collection``, written
    under ``key`` (``f``'s name, or the list field whose related rows ``f`` belongs to)."""
    op = draw(st.sampled_from(sorted(ALLOWED_OPS[f.type])))
    value = operand(draw, oracle, collection, f, op)
    if op == "_eq" and not isinstance(value, list) and draw(st.booleans()):
        return {key: value}
    return {key: {op: value}}


def filter_object(draw: Draw, oracle: Oracle, collection: str, depth: int = 0) -> Obj:
    kind = draw(st.sampled_from(["cond", "cond", "cond", "and", "or", "implicit"]))
    if kind == "cond" or depth >= MAX_RELATION_DEPTH + 1:
        return condition(draw, oracle, collection, depth)
    if kind == "implicit":
        merged: Obj = {}
        for _ in range(draw(st.integers(2, 3))):
            merged.update(condition(draw, oracle, collection, depth))
        return merged
    items = [
        filter_object(draw, oracle, collection, depth + 1) for _ in range(draw(st.integers(0, 3)))
    ]
    return {f"_{kind}": items}


@st.composite
def valid_filters(draw: Draw, oracle: Oracle) -> tuple[str, Obj]:
    collection = draw(st.sampled_from(ROOTS))
    return collection, filter_object(draw, oracle, collection)


def _ids(body: Any) -> Any:
    if isinstance(body, dict) and "data" in body:
        return [r.get("id") for r in body["data"]]
    return body


@SETTINGS
@given(data=st.data())
def test_valid_filters_match_the_oracle(demo: Api, data: st.DataObject) -> None:
    collection, flt = data.draw(valid_filters(demo.oracle))
    params = {"filter": flt, "fields": "id", "limit": -1, "meta": "filter_count"}
    expected = demo.expected(collection, params)
    response = demo.get(f"/items/{collection}", encode_params(params))
    assert response.status_code == 200, response.text
    body = response.json()
    assert _ids(body) == _ids(expected), json.dumps(flt, ensure_ascii=False)
    assert body == expected


@settings(
    max_examples=max(EXAMPLES // 2, 1), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(data=st.data())
def test_valid_filters_in_bracket_form(demo: Api, data: st.DataObject) -> None:
    collection, flt = data.draw(valid_filters(demo.oracle))
    if _has_empty_list(flt):
        return  # an empty list has no bracket form
    params = {"filter": flt, "fields": "id", "limit": -1}
    expected = demo.expected(collection, params)
    pairs = [*bracket_pairs(flt), ("fields", "id"), ("limit", "-1")]
    response = demo.get(f"/items/{collection}", pairs)
    assert response.status_code == 200, response.text
    assert _ids(response.json()) == _ids(expected), json.dumps(flt, ensure_ascii=False)


def _has_empty_list(obj: Any) -> bool:
    if isinstance(obj, dict):
        return not obj or any(_has_empty_list(v) for v in obj.values())
    if isinstance(obj, list):
        return not obj or any(_has_empty_list(v) for v in obj)
    return False


# ---------------------------------------------------------------------------------------
# Invalid queries: a valid filter with exactly one defect


def defect(draw: Draw, oracle: Oracle, collection: str) -> tuple[Obj, int]:
    """A filter object with one defect, and the status it must be refused with."""
    coll = SCHEMA[collection]
    stored = list(coll.stored_fields)
    kind = draw(
        st.sampled_from(
            [
                "unknown_field",
                "unknown_operator",
                "operator_for_type",
                "bad_number",
                "bad_date",
                "bad_boolean",
                "empty_value",
                "empty_list",
                "range_arity",
                "bad_flag",
                "logical_not_array",
                "quantifier_on_m2o",
                "operator_on_list",
                "null_in_list",
                "nested_unknown",
                "bad_uuid",
                "mixed_quantifier",
            ]
        )
    )
    by_type = {t: [f for f in stored if f.type is t] for t in FieldType}

    def some(t: FieldType) -> Field:
        fields = by_type[t] or by_type[FieldType.INTEGER]
        return draw(st.sampled_from(fields))

    if kind == "unknown_field":
        name = draw(st.sampled_from(["nope", "titel", "Id", "contacts_id", "event_start"]))
        if name in coll:
            name = "nope"
        return {name: {"_eq": 1}}, 403
    if kind == "unknown_operator":
        f = draw(st.sampled_from(stored))
        op = draw(st.sampled_from(["_like", "_foo", "_EQ", "_regex", "_nicontains"]))
        return {f.name: {op: "x"}}, 400
    if kind == "operator_for_type":
        f = draw(st.sampled_from(stored))
        op = draw(st.sampled_from(sorted(ALL_OPS - ALLOWED_OPS[f.type])))
        return {f.name: {op: "1"}}, 400
    if kind == "bad_number":
        f = some(FieldType.INTEGER)
        op = draw(st.sampled_from(["_eq", "_lt", "_in", "_between"]))
        bad = draw(st.sampled_from(["abc", "1a", "--1", "0x1", "1,5", "NaN", True]))
        value: Any = bad if op in ("_eq", "_lt") else [bad, 1] if op == "_between" else [bad]
        if op in ("_eq", "_lt") and bad == "1,5":
            value = "1,5"
        return {f.name: {op: value}}, 400
    if kind == "bad_date":
        if not by_type[FieldType.DATETIME]:
            return {"id": {"_eq": "x"}}, 400
        f = some(FieldType.DATETIME)
        bad = draw(st.sampled_from(["yesterday", "2025-13-01", "2025-02-30", "31.01.2025", 5]))
        return {f.name: {draw(st.sampled_from(["_eq", "_gte"])): bad}}, 400
    if kind == "bad_boolean":
        if not by_type[FieldType.BOOLEAN]:
            return {"id": {"_eq": "x"}}, 400
        f = some(FieldType.BOOLEAN)
        return {f.name: draw(st.sampled_from(["yes", "TRUE", 2, "no", "t"]))}, 400
    if kind == "empty_value":
        f = draw(st.sampled_from(stored))
        op = draw(st.sampled_from(sorted(ALLOWED_OPS[f.type] - FLAG_OPS)))
        value = [""] if op in LIST_OPS else ["", ""] if op in RANGE_OPS else ""
        return {f.name: {op: value}}, 400
    if kind == "empty_list":
        f = some(FieldType.INTEGER)
        return {f.name: {draw(st.sampled_from(["_in", "_nin"])): []}}, 400
    if kind == "range_arity":
        f = some(FieldType.INTEGER)
        value = draw(st.sampled_from([[1], [1, 2, 3], "1", "1,2,3", []]))
        return {f.name: {draw(st.sampled_from(["_between", "_nbetween"])): value}}, 400
    if kind == "bad_flag":
        f = draw(st.sampled_from(stored))
        op = draw(st.sampled_from(["_null", "_nnull"]))
        return {f.name: {op: draw(st.sampled_from(["maybe", 1, 0, None, "yes"]))}}, 400
    if kind == "logical_not_array":
        key = draw(st.sampled_from(["_and", "_or"]))
        return {key: draw(st.sampled_from([{"id": 1}, 1, "x", None]))}, 400
    if kind == "quantifier_on_m2o":
        m2o = [f for f in stored if f.is_many_to_one]
        f = draw(st.sampled_from(m2o))
        return {f.name: {draw(st.sampled_from(["_some", "_none"])): {"id": {"_eq": 1}}}}, 400
    if kind == "operator_on_list":
        lists = [f for f in coll.fields if not f.is_stored]
        if not lists:
            return {"id": {"_in": []}}, 400
        f = draw(st.sampled_from(lists))
        bad = [{"_empty": True}, {"_nempty": False}, {"_contains": "1"}, {"_eq": "one"}, "x"]
        return {f.name: draw(st.sampled_from(bad))}, 400
    if kind == "bad_uuid":
        f = some(FieldType.UUID)
        if f.type is not FieldType.UUID:
            return {"id": {"_eq": "x"}}, 400
        value = draw(
            st.sampled_from(
                [
                    "x",
                    "1234",
                    "0" * 31,
                    "0" * 33,
                    "g" * 32,
                    "0000-0000-0000-0000-0000-0000-0000-00000",
                    5,
                    True,
                ]
            )
        )
        op = draw(st.sampled_from(["_eq", "_neq", "_in", "_nin"]))
        return {f.name: {op: [value] if op in LIST_OPS else value}}, 400
    if kind == "mixed_quantifier":
        lists = [f for f in coll.fields if not f.is_stored]
        if not lists:
            return {"id": {"_in": []}}, 400
        f = draw(st.sampled_from(lists))
        return {f.name: {"_nnull": True, draw(st.sampled_from(["_some", "_none"])): {}}}, 400
    if kind == "null_in_list":
        f = some(FieldType.INTEGER)
        return {f.name: {draw(st.sampled_from(["_in", "_nin"])): draw(
            st.sampled_from([[1, None], "1,null", ["NULL"]])
        )}}, 400  # fmt: skip
    # nested_unknown: an unknown field under a relation
    rels = [f for f in coll.fields if f.relation is not None]
    f = draw(st.sampled_from(rels))
    inner: Obj = {"nope": {"_eq": 1}}
    return {f.name: inner}, 403


@st.composite
def invalid_filters(draw: Draw, oracle: Oracle) -> tuple[str, Obj, int]:
    collection = draw(st.sampled_from(ROOTS))
    bad, status = defect(draw, oracle, collection)
    shape = draw(st.sampled_from(["alone", "and", "or", "implicit"]))
    if shape == "alone":
        return collection, bad, status
    good = filter_object(draw, oracle, collection)
    if shape == "implicit" and not set(bad) & set(good):
        return collection, {**good, **bad}, status
    items = [good, bad] if draw(st.booleans()) else [bad, good]
    return collection, {"_and" if shape == "and" else "_or": items}, status


@SETTINGS
@given(data=st.data())
def test_invalid_filters_are_refused(demo: Api, data: st.DataObject) -> None:
    collection, flt, status = data.draw(invalid_filters(demo.oracle))
    code = "FORBIDDEN" if status == 403 else "INVALID_QUERY"
    with pytest.raises(OracleError) as info:
        demo.expected(collection, {"filter": flt})
    assert (info.value.status, info.value.code) == (status, code), (flt, info.value)
    response = demo.get(f"/items/{collection}", encode_params({"filter": flt}))
    assert_error(response, status, code)


@st.composite
def invalid_parameters(draw: Draw) -> tuple[str, Obj, int]:
    collection = draw(st.sampled_from(ROOTS))
    name = draw(st.sampled_from(["limit", "offset", "page", "meta", "fields", "sort", "deep"]))
    if name in ("limit", "offset", "page"):
        value: Any = draw(st.sampled_from(["x", "1.5", "-2", "--1", "1e2", "", "one"]))
        if value == "" or (name != "limit" and value == "-2"):
            value = "-5"
        return collection, {name: value}, 400
    if name == "meta":
        value = draw(st.sampled_from(["count", "total", "*,x", "TOTAL_COUNT"]))
        return collection, {name: value}, 400
    if name == "fields":
        return collection, {name: draw(st.sampled_from(["nope", "id,nope", "*,x_y"]))}, 403
    if name == "sort":
        return collection, {name: draw(st.sampled_from(["nope", "-nope", "id,titel"]))}, 403
    return collection, {name: draw(st.sampled_from([{"nope": {"_limit": 1}}]))}, 403


@settings(max_examples=max(EXAMPLES // 3, 1), deadline=None)
@given(case=invalid_parameters())
def test_invalid_parameters_are_refused(demo: Api, case: tuple[str, Obj, int]) -> None:
    collection, params, status = case
    demo.check_error(
        collection, params, status=status, code="FORBIDDEN" if status == 403 else "INVALID_QUERY"
    )


# ---------------------------------------------------------------------------------------
# Bracket leaves: any text for any operator, the server and the oracle agree


LEAF_TEXT = st.text(alphabet=st.sampled_from(list("0123456789-.,eE :T%_aßäZ+")), max_size=12) | (
    st.sampled_from(["null", "true", "false", "NULL", "2025-01-31", "1,2", "12.5", " "])
)


@SETTINGS
@given(data=st.data())
def test_bracket_leaves_of_any_text(demo: Api, data: st.DataObject) -> None:
    collection = data.draw(st.sampled_from(ROOTS))
    coll = SCHEMA[collection]
    f = data.draw(st.sampled_from(coll.stored_fields))
    op = data.draw(st.sampled_from(sorted(ALL_OPS)))
    _agree_on_a_bracket_leaf(demo, collection, f.name, op, data.draw(LEAF_TEXT))


@pytest.mark.parametrize("op", ["_eq", "_gt", "_in", "_between"])
@pytest.mark.parametrize("text", ["1E400", "-1e400", "1e-400", "1e308", "0e5", "1e400,1"])
def test_bracket_leaves_beyond_a_double(demo: Api, op: str, text: str) -> None:
    """Numbers a double cannot hold: too large (Directus answers 500) or too small to tell
    from zero are refused as bad values; hypothesis once drew ``1E400`` above."""
    for field in ("id", "max_participants"):
        if op == "_between":
            text = text if "," in text else f"0,{text}"
        _agree_on_a_bracket_leaf(demo, "events", field, op, text)


def _agree_on_a_bracket_leaf(demo: Api, collection: str, field: str, op: str, text: str) -> None:
    params = {"filter": {field: {op: text}}, "fields": "id", "limit": -1}
    pairs = [(f"filter[{field}][{op}]", text), ("fields", "id"), ("limit", "-1")]
    response = demo.get(f"/items/{collection}", pairs)
    try:
        expected = demo.expected(collection, params)
    except OracleError as exc:
        assert_error(response, exc.status, exc.code)
    else:
        assert response.status_code == 200, (params, response.text)
        assert _ids(response.json()) == _ids(expected), params


# ---------------------------------------------------------------------------------------
# Sort, pagination, search and fields


def sort_key(draw: Draw, collection: str, depth: int = 0) -> str:
    coll = SCHEMA[collection]
    f = draw(st.sampled_from(coll.stored_fields))
    if f.is_many_to_one and depth < 2 and draw(st.booleans()):
        assert f.relation is not None
        return f"{f.name}.{sort_key(draw, f.relation.related, depth + 1)}"
    return f.name


@SETTINGS
@given(data=st.data())
def test_sort_and_pagination(demo: Api, data: st.DataObject) -> None:
    collection = data.draw(st.sampled_from(ROOTS))
    keys = [
        ("-" if data.draw(st.booleans()) else "") + sort_key(data.draw, collection)
        for _ in range(data.draw(st.integers(1, 3)))
    ]
    params: Obj = {"sort": keys, "fields": "id", "meta": "*"}
    params["limit"] = data.draw(st.sampled_from([None, -1, 0, 1, 7, 50, 100, 1000]))
    params["offset"] = data.draw(st.sampled_from([None, 0, 3, 99, 600]))
    params["page"] = data.draw(st.sampled_from([None, None, 0, 1, 2, 5]))
    if data.draw(st.booleans()):
        params["filter"] = filter_object(data.draw, demo.oracle, collection)
    demo.check(collection, params)


@SETTINGS
@given(data=st.data())
def test_search(demo: Api, data: st.DataObject) -> None:
    collection = data.draw(st.sampled_from(ROOTS))
    coll = SCHEMA[collection]
    f = data.draw(st.sampled_from(coll.stored_fields))
    values = column(demo.oracle, collection, f.name)
    if values and data.draw(st.integers(0, 3)):
        text = str(data.draw(st.sampled_from(values)))
        start = data.draw(st.integers(0, max(len(text) - 1, 0)))
        text = text[start : start + data.draw(st.integers(1, 12))]
        text = data.draw(st.sampled_from([text, text.upper(), text.lower()]))
    else:
        text = data.draw(LEAF_TEXT)
    params: Obj = {"search": text, "fields": "id", "limit": -1, "meta": "filter_count"}
    if data.draw(st.booleans()):
        params["filter"] = filter_object(data.draw, demo.oracle, collection)
    demo.check(collection, params)


def field_path(draw: Draw, collection: str, depth: int = 0) -> str:
    coll = SCHEMA[collection]
    choice = draw(st.sampled_from(["*", "field", "field", "relation"]))
    if choice == "*":
        return "*"
    rels = [f for f in coll.fields if f.relation is not None]
    if choice == "relation" and depth < 2 and rels:
        f = draw(st.sampled_from(rels))
        return f"{f.name}.{field_path(draw, SCHEMA.expansion_target(f).name, depth + 1)}"
    return draw(st.sampled_from(coll.field_names))


@settings(
    max_examples=max(EXAMPLES // 2, 1), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(data=st.data())
def test_fields(demo: Api, data: st.DataObject) -> None:
    collection = data.draw(st.sampled_from(ROOTS))
    fields = [field_path(data.draw, collection) for _ in range(data.draw(st.integers(1, 4)))]
    params: Obj = {"fields": fields, "limit": data.draw(st.sampled_from([3, 20]))}
    params["offset"] = data.draw(st.sampled_from([0, 40, 100]))
    if data.draw(st.booleans()):
        deep_rel = data.draw(st.sampled_from(list(SCHEMA[collection].relations)))
        params["deep"] = {deep_rel.name: {"_limit": data.draw(st.sampled_from([-1, 0, 2]))}}
    demo.check(collection, params)
