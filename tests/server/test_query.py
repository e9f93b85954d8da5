"""The query grammar: parsing, serialization, round trips and validation against the catalogue."""

from __future__ import annotations

import datetime as dt
from typing import Any
from urllib.parse import parse_qsl

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from educatalog.errors import InvalidQuery, NotFoundOrForbidden
from educatalog.query import (
    OPERATORS,
    And,
    Condition,
    F,
    Filter,
    Or,
    Query,
    Related,
    SortKey,
    bind,
    filter_from_json,
    filter_to_json,
)

# ---------------------------------------------------------------------------------------
# Strategies

names = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
values = st.one_of(scalars, st.lists(scalars, max_size=4).map(tuple))


def filters() -> st.SearchStrategy[Filter]:
    leaves = st.builds(Condition, names, st.sampled_from(sorted(OPERATORS)), values)
    return st.recursive(
        leaves,
        lambda children: st.one_of(
            st.builds(Related, names, children, st.sampled_from([None, "_some", "_none"])),
            st.builds(And, st.lists(children, max_size=3).map(tuple)),
            st.builds(Or, st.lists(children, max_size=3).map(tuple)),
        ),
        max_leaves=8,
    )


paths = st.lists(st.one_of(names, st.just("*")), min_size=1, max_size=3).map(".".join)
deeps = st.recursive(
    st.fixed_dictionaries({}, optional={"_limit": st.integers(min_value=-1, max_value=500)}),
    lambda children: st.dictionaries(names, children, max_size=2),
    max_leaves=4,
)
queries = st.builds(
    Query,
    # an empty list is not sent at all (`fields=` is "not given")
    fields=st.none() | st.lists(paths, min_size=1, max_size=4).map(tuple),
    filter=st.none() | filters(),
    sort=st.none()
    | st.lists(st.one_of(paths, paths.map("-".__add__), st.just("?")), min_size=1, max_size=3).map(
        tuple
    ),
    search=st.none() | st.text(min_size=1, max_size=20),
    limit=st.none() | st.integers(min_value=-1, max_value=10**6),
    offset=st.none() | st.integers(min_value=0, max_value=10**6),
    page=st.none() | st.integers(min_value=0, max_value=10**4),
    meta=st.none()
    | st.sampled_from([("total_count",), ("filter_count",), ("total_count", "filter_count")]),
    deep=st.none() | deeps,
)


# ---------------------------------------------------------------------------------------
# Round trips


@settings(max_examples=300, deadline=None)
@given(queries)
def test_parse_of_serialize_is_identity(q: Query) -> None:
    assert Query.from_params(q.to_params()) == q


@settings(max_examples=200, deadline=None)
@given(queries)
def test_round_trip_through_a_real_query_string(q: Query) -> None:
    """What the client sends over the wire, the server parses back to the same query."""
    encoded = str(httpx.QueryParams(q.to_params()))
    assert Query.from_params(parse_qsl(encoded, keep_blank_values=True)) == q


@settings(max_examples=200, deadline=None)
@given(filters())
def test_filter_json_round_trip(f: Filter) -> None:
    assert filter_from_json(filter_to_json(f)) == f


def _brackets(obj: Any, prefix: str = "filter") -> list[tuple[str, str]]:
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in _brackets(v, f"{prefix}[{k}]")]
    if isinstance(obj, list):
        return [p for i, v in enumerate(obj) for p in _brackets(v, f"{prefix}[{i}]")]
    return [(prefix, obj)]


text_filters = st.recursive(
    st.builds(
        Condition,
        names,
        st.sampled_from(["_eq", "_icontains", "_starts_with", "_gt"]),
        st.text(min_size=1, max_size=8),
    ),
    lambda children: st.one_of(
        st.builds(Related, names, children),
        st.builds(And, st.lists(children, min_size=1, max_size=3).map(tuple)),
        st.builds(Or, st.lists(children, min_size=1, max_size=3).map(tuple)),
    ),
    max_leaves=6,
)


@settings(max_examples=200, deadline=None)
@given(text_filters)
def test_bracket_form_equals_json_form(f: Filter) -> None:
    pairs = _brackets(filter_to_json(f))
    encoded = str(httpx.QueryParams(pairs))
    assert Query.from_params(parse_qsl(encoded, keep_blank_values=True)).filter == f


# ---------------------------------------------------------------------------------------
# Parsing rules


def test_shorthand_and_implicit_and() -> None:
    f = filter_from_json({"state": 3, "city": {"_eq": "Köln", "_neq": "Bonn"}})
    assert f == And(
        (
            Condition("state", "_eq", 3),
            And((Condition("city", "_eq", "Köln"), Condition("city", "_neq", "Bonn"))),
        )
    )


def test_bracket_lists_and_appends() -> None:
    q = Query.from_params(
        [
            ("filter[_or][1][title][_in][]", "a"),
            ("filter[_or][1][title][_in][]", "b"),
            ("filter[_or][0][address][state][_eq]", "9"),
        ]
    )
    assert q.filter == Or(
        (
            Related("address", Condition("state", "_eq", "9")),
            Condition("title", "_in", ("a", "b")),
        )
    )


def test_quantifiers_parse() -> None:
    f = filter_from_json({"events": {"_none": {"instruction_form": {"_eq": 101}}}})
    assert f == Related("events", Condition("instruction_form", "_eq", 101), "_none")


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({"filter": "{not json"}, "Invalid JSON for filter object"),
        ({"filter": '{"_and": {"a": 1}}'}, '"_and" must hold an array'),
        ({"filter": '{"a": {"_foo": 1}}'}, '"_foo"'),
        ({"filter": '{"a": {"_nicontains": "x"}}'}, 'Unknown filter operator "_nicontains"'),
        ({"filter": '{"a": {"_eq": 1, "_some": {}}}'}, "mixes operators with _some/_none"),
        ({"fields": "id,"}, '"fields[1]" is not allowed to be empty'),
        ({"sort": "id,,title"}, '"sort[1]" is not allowed to be empty'),
        ({"fields[]": ""}, '"fields[0]" is not allowed to be empty'),
        ({"meta": "*,"}, '"meta[1]" is not allowed to be empty'),
        ({"filter": '{"a": {"_some": {}, "b": 2}}'}, "must be its only key"),
        ({"filter": '{"_eq": 1}'}, '"_eq" is not a field'),
        ({"filter": "[1, 2]"}, "expected an object"),
        ({"filter": '{"a": {"_eq": {"x": 1}}}'}, "expected a plain value"),
        ({"filter": '{"a": {}}'}, "empty condition"),
        ({"limit": "-2"}, '"limit" must be an integer from -1 to'),
        ({"limit": "99999999999999999999"}, "'99999999999999999999'"),
        ({"limit": "ten"}, "'ten'"),
        ({"offset": "-1"}, '"offset"'),
        ({"page": "1.5"}, '"page"'),
        ({"meta": "everything"}, 'Invalid meta value "everything"'),
        ({"deep": '{"events": {"_sort": "id"}}'}, 'Unsupported deep parameter "_sort"'),
        ({"deep": '{"events": {"_limit": "x"}}'}, "deep.events._limit"),
    ],
)
def test_parse_errors_name_the_problem(params: dict[str, str], needle: str) -> None:
    with pytest.raises(InvalidQuery) as info:
        Query.from_params(params)
    assert needle in info.value.message


def test_operators_and_a_relational_filter_on_one_field() -> None:
    assert filter_from_json({"course": {"_eq": 1, "title": "x"}}) == And(
        (Condition("course", "_eq", 1), Related("course", Condition("title", "_eq", "x")))
    )
    assert filter_from_json({"course": {"_nnull": True, "_or": [{"id": 1}]}}) == And(
        (Condition("course", "_nnull", True), Related("course", Or((Condition("id", "_eq", 1),))))
    )


def test_empty_list_parameters_are_not_given() -> None:
    q = Query.from_params([("fields", ""), ("sort", ""), ("meta", "")])
    assert (q.fields, q.sort, q.meta) == (None, None, None)


def test_json_and_bracket_forms_together_are_rejected() -> None:
    with pytest.raises(InvalidQuery, match="both as JSON and in bracket form"):
        Query.from_params([("filter", "{}"), ("filter[a][_eq]", "1")])


def test_list_parameters() -> None:
    q = Query.from_params(
        [("fields[]", " id "), ("fields[]", "title,course.title"), ("sort", "-id, title")]
    )
    assert q.fields == ("id", "title", "course.title")
    assert q.sort == ("-id", "title")
    assert Query.from_params({"meta": "*"}).meta == ("total_count", "filter_count")
    assert Query.from_params({"search": ""}).search is None
    assert Query.from_params({"search": "   "}).search == "   "


def test_builder() -> None:
    f = (F("address.state.name") == "Berlin") & F("course").some(F("title").icontains("x"))
    assert f == And(
        (
            Related("address", Related("state", Condition("name", "_eq", "Berlin"))),
            Related("course", Condition("title", "_icontains", "x"), "_some"),
        )
    )
    assert (F("a") > 1) | (F("b").isin([1, 2])) == Or(
        (Condition("a", "_gt", 1), Condition("b", "_in", (1, 2)))
    )
    assert F("a").between("2025-01-01", "2025-12-31").value == ("2025-01-01", "2025-12-31")


# ---------------------------------------------------------------------------------------
# Binding to the catalogue


def _bound_filter(collection: str, obj: dict[str, Any]) -> Filter | None:
    return bind(Query(filter=filter_from_json(obj)), collection).filter


def test_coercion_to_field_types() -> None:
    assert _bound_filter("events", {"max_participants": {"_gt": "12"}}) == Condition(
        "max_participants", "_gt", 12
    )
    assert _bound_filter("events", {"is_inhouse": "true"}) == Condition("is_inhouse", "_eq", True)
    assert _bound_filter("events", {"remarks": {"_eq": "null"}}) == Condition(
        "remarks", "_eq", None
    )
    assert _bound_filter("events", {"event_start_date": {"_gte": "2025-03-01"}}) == Condition(
        "event_start_date", "_gte", "2025-03-01T00:00:00"
    )
    assert _bound_filter("events", {"id": {"_in": "1,2,3"}}) == Condition("id", "_in", (1, 2, 3))
    assert _bound_filter("event_costs", {"value": {"_between": ["0", "99.5"]}}) == Condition(
        "value", "_between", (0, 99.5)
    )
    assert _bound_filter("events", {"remarks": {"_contains": 42}}) == Condition(
        "remarks", "_contains", "42"
    )


@pytest.mark.parametrize(
    ("collection", "obj", "needles"),
    [
        ("events", {"remarks": {"_gt": "a"}}, ['"_gt"', '"remarks"', "string"]),
        ("events", {"is_inhouse": {"_in": [True]}}, ['"_in"', "boolean"]),
        ("events", {"max_participants": {"_eq": "many"}}, ['"many"', "number"]),
        ("events", {"event_start_date": {"_lt": "soon"}}, ['"soon"', "date"]),
        ("events", {"id": {"_in": []}}, ["at least one value"]),
        ("events", {"id": {"_between": [1, 2, 3]}}, ["exactly two values"]),
        ("events", {"remarks": {"_eq": ""}}, ["_empty"]),
        ("events", {"remarks": {"_null": "maybe"}}, ["true or false"]),
        ("events", {"id": {"_in": [1, None]}}, ["cannot compare with null; use _null"]),
        ("events", {"remarks": {"_contains": "a\x00b"}}, ["NUL"]),
        ("events", {"address": {"_some": {"id": 1}}}, ["many-to-one"]),
        ("events", {"contacts": {"_empty": True}}, ['"_empty"', "integer"]),
        ("events", {"remarks": {"id": 1}}, ["not a relation"]),
        ("events", {"remarks": {"_eq": "a", "id": 1}}, ["not a relation"]),
        ("events", {"institution": {"_contains": "a"}}, ['"_contains"', '"institution"', "uuid"]),
        ("events", {"institution": {"_empty": True}}, ['"_empty"', "uuid"]),
        ("events", {"institution": "abc"}, ['"abc"', "UUID"]),
        ("events", {"institution": {"_in": ["abc"]}}, ['"abc"', "UUID"]),
        ("events", {"max_participants": {"_lt": "$NOW"}}, ['"$NOW"', "number"]),
    ],
)
def test_bind_errors_name_field_operator_and_value(
    collection: str, obj: dict[str, Any], needles: list[str]
) -> None:
    with pytest.raises(InvalidQuery) as info:
        _bound_filter(collection, obj)
    for needle in needles:
        assert needle in info.value.message


def test_binding_of_the_new_rules() -> None:
    uuid = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
    for form in (uuid.upper(), "{" + uuid + "}", uuid.replace("-", "")):
        assert _bound_filter("events", {"institution": form}) == Condition(
            "institution", "_eq", uuid
        )
    assert _bound_filter("courses", {"events": {"_eq": 3}}) == Related(
        "events", Condition("id", "_eq", 3)
    )
    assert _bound_filter("events", {"contacts": {"_null": True}}) == Related(
        "contacts", Condition("id", "_null", True)
    )
    now = dt.datetime(2025, 1, 31, 10, 0, 0, 250_999)
    bound = bind(
        Query(filter=filter_from_json({"event_start_date": {"_gte": "$NOW(+1 month)"}})),
        "events",
        now=now,
    ).filter
    assert bound == Condition("event_start_date", "_gte", "2025-02-28T10:00:00.250")


def test_unknown_names_are_forbidden_with_suggestions() -> None:
    with pytest.raises(NotFoundOrForbidden, match=r'"evnts".*Did you mean "events"'):
        bind(Query(), "evnts")
    with pytest.raises(NotFoundOrForbidden, match=r'field "titel" in collection "courses"'):
        bind(Query(fields=("titel",)), "courses")
    with pytest.raises(NotFoundOrForbidden, match='field "nme"'):
        bind(Query(sort=("address.state.nme",)), "events")
    with pytest.raises(NotFoundOrForbidden, match='field "x" in collection "contacts"'):
        _bound_filter("events", {"contacts": {"contacts_id": {"x": 1}}})


def test_fields_resolution() -> None:
    tree = bind(Query(fields=("title", "events.address.*", "funding_types_regions.*.*")), "courses")
    assert tree.fields["title"] is None
    events = tree.fields["events"]
    assert events is not None
    address = events["address"]
    assert address is not None
    assert "barrier_free" in address
    junction = tree.fields["funding_types_regions"]
    assert junction is not None
    assert set(junction) == {"id", "courses_id", "funding_types_regions_id"}
    target = junction["funding_types_regions_id"]
    assert target is not None
    assert target["state"] is None
    star = bind(Query(fields=("*.*",)), "events").fields
    assert star["remarks"] is None
    assert star["address"] is not None
    with pytest.raises(InvalidQuery, match='"title" of collection "courses" is not a relation'):
        bind(Query(fields=("title.x",)), "courses")


def test_sort_resolution() -> None:
    b = bind(Query(sort=("-address.state.name", "?", "id")), "events")
    assert b.sort == (SortKey(("address", "state", "name"), True), SortKey(("id",)))
    assert b.random
    with pytest.raises(InvalidQuery, match="not a many-to-one"):
        bind(Query(sort=("events.title",)), "courses")
    with pytest.raises(InvalidQuery, match="is a list"):
        bind(Query(sort=("events",)), "courses")


def test_numbers_beyond_64_bits_and_floats_out_of_range() -> None:
    assert _bound_filter("events", {"id": {"_eq": 2**64 - 1}}) == Condition(
        "id", "_eq", float(2**64 - 1)
    )
    assert _bound_filter("events", {"id": {"_gt": "123456789012345678901234"}}) == Condition(
        "id", "_gt", 1.2345678901234568e23
    )
    assert _bound_filter("events", {"id": {"_eq": "0e5"}}) == Condition("id", "_eq", 0.0)
    with pytest.raises(InvalidQuery, match="too close to zero to compare"):
        _bound_filter("events", {"id": {"_eq": "1e-400"}})
    with pytest.raises(InvalidQuery, match="too large a number"):
        _bound_filter("events", {"id": {"_eq": "1e400"}})
    with pytest.raises(InvalidQuery, match="outside the years 1 to 9999"):
        _bound_filter("events", {"event_start_date": {"_eq": "9999-12-31T23:59:59-12:00"}})
    with pytest.raises(InvalidQuery, match='"page" 9223372036854775807 is beyond'):
        bind(Query(limit=10, page=2**63 - 1), "events")


def test_pagination_defaults() -> None:
    assert bind(Query(), "events").limit == 100
    assert bind(Query(limit=-1), "events").limit is None
    assert bind(Query(limit=-1), "events", limit_max=500).limit == 500
    assert bind(Query(), "events", limit_max=50).limit == 50  # the default is capped too
    with pytest.raises(InvalidQuery, match="at most 500"):
        bind(Query(limit=501), "events", limit_max=500)
    paged = bind(Query(limit=25, page=3, offset=7), "events")
    assert (paged.limit, paged.offset) == (25, 50)
    assert bind(Query(limit=25, page=0, offset=7), "events").offset == 7
    assert bind(Query(page=2), "events").offset == 100
    assert bind(Query(limit=-1, page=3), "events").offset == 0


def test_deep_resolution() -> None:
    b = bind(Query(deep={"events": {"_limit": -1, "contacts": {"_limit": 5}}}), "courses")
    assert b.deep == {"events": {"_limit": -1, "contacts": {"_limit": 5}}}
    with pytest.raises(InvalidQuery, match='"title" of "courses" is not a relation'):
        bind(Query(deep={"title": {"_limit": 1}}), "courses")


# ---------------------------------------------------------------------------------------
# The package


def test_the_package_re_exports_its_modules_names() -> None:
    """``from educatalog.query import X`` works for every public name of every part, and is
    the part's own object: one grammar, wherever it is imported from."""
    import importlib
    from pathlib import Path

    import educatalog.query as package

    parts = ["limits", "operators", "tree", "query", "values", "binding"]
    exported = set(package.__all__)
    for name in parts:
        module = importlib.import_module(f"educatalog.query.{name}")
        assert module.__file__ is not None
        assert len(Path(module.__file__).read_text(encoding="utf-8").splitlines()) < 600
        for public in module.__all__:
            if public in ("coerce", "shown"):  # the parts' shared helpers, not the language's
                continue
            assert public in exported, public
            assert getattr(package, public) is getattr(module, public)
    for public in exported:
        assert getattr(package, public) is not None


def test_a_query_built_wrong_is_also_a_value_error() -> None:
    with pytest.raises(ValueError, match="Invalid field path"):
        F("course..title")
    with pytest.raises(ValueError, match="Unknown filter operator"):
        F("title").op("_nicontains", "x")
