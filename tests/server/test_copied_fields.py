"""Fields of related items copied into rows when the database is built (``sql.copied_fields``):
each event carries its address's state. A condition on ``address.state`` reads the copy, and
answers, over HTTP, exactly what reading through the relation answers: for events whose
address is missing, dangling or without a state too. A database without the copies, or with
copies filled otherwise, is read through the relation."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest

from databases import Databases
from educatalog.model.schema import Collection, Field, FieldType, Schema
from educatalog.query import Query, bind
from educatalog.server import sql
from educatalog.server.store import Database
from educatalog.testing import TEST_TOKEN, serve

EVENTS = [
    {"id": 1, "address": 10, "course": 1, "event_start_date": "2025-03-01T09:00:00"},  # BE (3)
    {"id": 2, "address": 11, "course": 1, "event_start_date": "2025-06-01T09:00:00"},  # BY (2)
    {"id": 3, "address": 12, "course": 2, "event_start_date": "2025-06-01T09:00:00"},  # no state
    {"id": 4, "address": 99, "course": 2, "event_start_date": "2025-09-01T09:00:00"},  # no 99
    {"id": 5, "address": None, "course": 4, "event_start_date": "2025-09-01T09:00:00"},
    {"id": 6, "address": 10, "course": 5, "event_start_date": "2026-01-01T09:00:00"},
    {"id": 7, "address": 13, "course": 5, "event_start_date": None},  # Thüringen (16)
]
COURSES = [{"id": n, "title": f"Kurs {n}"} for n in range(1, 6)]  # course 3 has no event
CONTACTS = [{"id": n, "last_name": f"Kontakt {n}"} for n in range(1, 5)]  # 4 has no event
EVENTS_CONTACTS = [
    {"id": 1, "events_id": 1, "contacts_id": 1},
    {"id": 2, "events_id": 3, "contacts_id": 1},
    {"id": 3, "events_id": 5, "contacts_id": 2},
    {"id": 4, "events_id": 7, "contacts_id": 3},
    {"id": 5, "events_id": 98, "contacts_id": 3},  # no event 98
]
ADDRESSES = [
    {"id": 10, "city": "Berlin", "state": 3},
    {"id": 11, "city": "München", "state": 2},
    {"id": 12, "city": "Nirgendwo", "state": None},
    {"id": 13, "city": "Jena", "state": 16},
]
STATE_OF = {10: 3, 11: 2, 12: None, 13: 16}  # what the outer join gives; else null

CONDITIONS: list[dict[str, Any]] = [
    {"_eq": 3},
    {"_eq": None},
    {"_neq": 3},
    {"_null": True},
    {"_null": False},
    {"_nnull": True},
    {"_in": [2, 3]},
    {"_nin": [2, 3]},
    {"_gt": 2},
    {"_lte": 3},
    {"_between": [2, 16]},
    {"_nbetween": [3, 15]},
]


@pytest.fixture(scope="module")
def with_copies(databases: Databases) -> Path:
    rows = {
        "events": EVENTS,
        "addresses": ADDRESSES,
        "courses": COURSES,
        "contacts": CONTACTS,
        "events_contacts": EVENTS_CONTACTS,
    }
    return databases.of("copied", rows)


def _without_copies(built: Path, folder: Path, change: str) -> Path:
    """A copy of ``built`` whose copied states are all wrong (8), recorded as filled
    otherwise, or not recorded at all."""
    copy = folder / f"{change}.sqlite"
    shutil.copyfile(built, copy)
    with closing(sqlite3.connect(copy)) as conn:
        conn.execute('UPDATE events SET "address.state" = 8')
        if change == "filled otherwise":
            conn.execute(f"UPDATE {sql.COPIED_FIELDS_TABLE} SET fill_sql = 'UPDATE events'")
        else:
            conn.execute(f"DROP TABLE {sql.COPIED_FIELDS_TABLE}")
        conn.commit()
    return copy


@pytest.fixture(scope="module", params=["filled otherwise", "not recorded"])
def without_copies(
    with_copies: Path, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Path:
    return _without_copies(with_copies, tmp_path_factory.mktemp("copies"), request.param)


def _served(database: Path) -> Iterator[httpx.Client]:
    with serve(database=database) as server:
        headers = {"Authorization": f"Bearer {TEST_TOKEN}"}
        with httpx.Client(base_url=server.url, headers=headers, timeout=30) as client:
            yield client


@pytest.fixture(scope="module")
def copying(with_copies: Path) -> Iterator[httpx.Client]:
    yield from _served(with_copies)


@pytest.fixture(scope="module")
def joining(without_copies: Path) -> Iterator[httpx.Client]:
    yield from _served(without_copies)


def _answer(client: httpx.Client, condition: dict[str, Any], **params: str) -> dict[str, Any]:
    filter_ = {"address": {"state": condition}}
    query = {"filter": json.dumps(filter_), "fields": "id", "meta": "filter_count", **params}
    response = client.get("/items/events", params=query)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _expected(condition: dict[str, Any]) -> list[int]:
    """The events whose state (null where the outer join finds none) meets ``condition``,
    three-valued: only the null tests hold on a null."""
    ((operator, value),) = condition.items()
    out = []
    for event in EVENTS:
        state = STATE_OF.get(event["address"]) if event["address"] is not None else None
        if state is None:
            holds = (
                (operator == "_eq" and value is None)
                or (operator == "_null" and value)
                or (operator == "_nnull" and not value)
            )
        else:
            holds = _holds_on(state, operator, value)
        if holds:
            out.append(event["id"])
    return out


def _holds_on(state: int, operator: str, value: Any) -> bool:
    match operator:
        case "_eq" | "_neq":
            return (state == value) == (operator == "_eq")
        case "_null" | "_nnull":
            return bool(value) == (operator == "_nnull")
        case "_in" | "_nin":
            return (state in value) == (operator == "_in")
        case "_gt":
            return bool(state > value)
        case "_lte":
            return bool(state <= value)
        case "_between" | "_nbetween":
            return (value[0] <= state <= value[1]) == (operator == "_between")
    raise AssertionError(operator)


@pytest.mark.parametrize("condition", CONDITIONS, ids=json.dumps)
def test_a_condition_on_the_copied_state_answers_what_the_relation_answers(
    copying: httpx.Client, joining: httpx.Client, condition: dict[str, Any]
) -> None:
    copied = _answer(copying, condition)
    assert [row["id"] for row in copied["data"]] == _expected(condition)
    assert copied["meta"]["filter_count"] == len(copied["data"])
    assert _answer(joining, condition) == copied  # read through the relation


@pytest.mark.parametrize("condition", [{"_eq": 3}, {"_null": True}, {"_nin": [3]}], ids=json.dumps)
def test_with_other_conditions_sorted_and_paged(
    copying: httpx.Client, joining: httpx.Client, condition: dict[str, Any]
) -> None:
    window = [
        {"address": {"state": condition}},
        {"event_start_date": {"_gte": "2025-04-01"}},
    ]
    for params in [
        {"filter": json.dumps({"_and": window})},
        {"filter": json.dumps({"_or": window}), "sort": "-event_start_date", "limit": "2"},
        {"filter": json.dumps({"_and": window}), "limit": "1", "page": "2"},
    ]:
        query = {"fields": "id,address.state", "meta": "filter_count", **params}
        copied = copying.get("/items/events", params=query)
        assert copied.status_code == 200, copied.text
        assert copied.json() == joining.get("/items/events", params=query).json()


NESTED = [  # (collection, filter around the condition on an event's state)
    ("courses", lambda c: {"events": {"address": {"state": c}}}),
    ("courses", lambda c: {"events": {"_some": {"address": {"state": c}}}}),
    ("courses", lambda c: {"events": {"_none": {"address": {"state": c}}}}),
    ("courses", lambda c: {"events": {"_or": [{"address": {"state": c}}, {"id": {"_eq": 6}}]}}),
    ("events_contacts", lambda c: {"events_id": {"address": {"state": c}}}),
    ("events_contacts", lambda c: {"events_id": {"course": {"events": {"address": {"state": c}}}}}),
    ("events", lambda c: {"course": {"events": {"address": {"state": c}}}}),
]


@pytest.mark.parametrize("condition", CONDITIONS, ids=json.dumps)
@pytest.mark.parametrize(("collection", "around"), NESTED, ids=lambda x: "" if callable(x) else x)
def test_the_copy_read_from_another_collection_answers_what_the_relation_answers(
    copying: httpx.Client,
    joining: httpx.Client,
    collection: str,
    around: Any,
    condition: dict[str, Any],
) -> None:
    """Events as the inner rows of a list relation (with and without a quantifier), as a
    junction's target, and as the rows of a list inside a many-to-one path."""
    query = {"filter": json.dumps(around(condition)), "fields": "id", "meta": "filter_count"}
    copied = copying.get(f"/items/{collection}", params=query)
    assert copied.status_code == 200, copied.text
    assert copied.json() == joining.get(f"/items/{collection}", params=query).json()


def test_some_nested_answers_are_the_ones_expected(copying: httpx.Client) -> None:
    """A few of the nested answers, worked out by hand (the comparison above could agree on
    a wrong answer only if both paths were wrong the same way)."""

    def ids(collection: str, filter_: dict[str, Any]) -> list[int]:
        answer = copying.get(
            f"/items/{collection}", params={"filter": json.dumps(filter_), "fields": "id"}
        )
        assert answer.status_code == 200, answer.text
        return [row["id"] for row in answer.json()["data"]]

    berlin = {"address": {"state": {"_eq": 3}}}
    assert ids("courses", {"events": berlin}) == [1, 5]
    assert ids("courses", {"events": {"_none": berlin}}) == [2, 3, 4]
    # course 3 has no event: a row of nulls, whose state is null
    assert ids("courses", {"events": {"address": {"state": {"_null": True}}}}) == [2, 3, 4]
    assert ids("events_contacts", {"events_id": berlin}) == [1]
    assert ids("events_contacts", {"events_id": {"address": {"state": {"_null": True}}}}) == [
        2,
        3,
        5,
    ]


def test_the_database_knows_which_copies_it_may_read(
    with_copies: Path, without_copies: Path
) -> None:
    copies = Database(with_copies)
    others = Database(without_copies)
    assert copies.layout.copied == {("events", "address", "state")}
    assert others.layout.copied == frozenset()
    copies.close()
    others.close()


def _count_statement(db: Database, filter_: dict[str, Any]) -> str:
    bound = bind(Query.from_params([("filter", json.dumps(filter_))]), "events")
    text, _ = sql.count_sql(bound, db.catalogue, db.layout)
    return text


def test_a_count_by_state_and_start_reads_one_index(databases: Databases) -> None:
    db = Database(databases.demo())
    by_state_and_start = {
        "_and": [
            {"address": {"state": {"_eq": 9}}},
            {"event_start_date": {"_gte": "2025-01-01"}},
            {"event_start_date": {"_lt": "2026-01-01"}},
        ]
    }
    text = _count_statement(db, by_state_and_start)
    assert "addresses" not in text
    conn = db.connection()
    plan = " ".join(row[-1] for row in conn.execute(f"EXPLAIN QUERY PLAN {text}", [9, "a", "b"]))
    assert plan.startswith(
        "SEARCH t0 USING COVERING INDEX ix_events_address.state_event_start_date"
    )
    assert "addresses" not in plan, plan
    # another field of the address still goes through the relation
    assert "addresses" in _count_statement(db, {"address": {"city": {"_eq": "Jena"}}})
    assert "addresses" in _count_statement(
        db, {"address": {"state": {"_eq": 9}, "city": {"_eq": "Jena"}}}
    )
    db.close()


def test_a_catalogue_without_the_relation_copies_nothing(tmp_path: Path) -> None:
    """A catalogue of one's own (``build_database(catalogue=...)``) whose events have no
    address is built and served without copies."""
    from educatalog.server.store import build_database

    events = Collection(
        "events",
        "entity",
        (Field("id", FieldType.INTEGER), Field("event_start_date", FieldType.DATETIME)),
    )
    catalogue = Schema([events])
    path = build_database(tmp_path / "own.sqlite", [("events", [{"id": 1}])], catalogue=catalogue)
    db = Database(path, catalogue=catalogue)
    assert db.layout.copied == frozenset()
    columns = [row[1] for row in db.connection().execute('PRAGMA table_info("events")')]
    assert columns == ["id", "event_start_date"]
    db.close()


def test_no_field_of_a_catalogue_holds_a_dot() -> None:
    """A copied column is named ``relation.field``: no field can have that name."""
    with pytest.raises(ValueError, match=r"address\.state"):
        Schema(
            [
                Collection(
                    "x",
                    "entity",
                    (Field("id", FieldType.INTEGER), Field("address.state", FieldType.INTEGER)),
                )
            ]
        )
