"""Rows that SQLite writes as JSON itself (``items.is_flat``): plain columns, list relations
as ids, and many-to-one relations expanded into nested objects. Every such page is byte for
byte what the general path (rows built in Python, serialized by orjson) writes, read whole
and streamed; a target that is missing is null on both. A page of every stored field is read
from the rows the database wrote when it was built, byte for byte the same again."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import orjson
import pytest

from databases import Databases
from educatalog.query import Query, bind
from educatalog.server.context import Context
from educatalog.server.items import is_flat, read_items, read_items_json, stream_items
from educatalog.server.store import Database
from educatalog.server.tuning import TUNING

SELECTIONS = [
    ("events", "id,address.city"),
    ("events", "address.city,address.zip"),  # no id, nested or not
    ("events", "address.*"),
    ("events", "*,address.*,course.*,instruction_form.*"),  # lists as ids, at each level
    ("events", "id,address.state.name"),
    ("events", "id,address.state.*,course.certifier.name"),
    ("events", "course.*,course.events"),  # a list's ids inside an object
    ("events", "id,course.title,course.events,course.keywords"),
    ("courses", "*,course_type.*,certifier.*"),
    ("addresses", "*.*.*"),
    ("systematics", ".".join(["parent"] * (TUNING.flat_depth + 1))),  # objects flat_depth deep
    ("systematics", "id,parent.parent.*"),
]


@pytest.fixture(scope="module")
def demo(demo_database: Path) -> Database:
    return Database(demo_database)


def _bound(db: Database, collection: str, *params: tuple[str, str]) -> object:
    return bind(Query.from_params(list(params)), collection, schema=db.schema)


def _python(ctx: Context, bound: object) -> bytes:
    rows, _ = read_items(ctx, bound)  # type: ignore[arg-type]
    return orjson.dumps(rows)


@pytest.mark.parametrize(("collection", "fields"), SELECTIONS)
@pytest.mark.parametrize("limit", ["7", "-1"])
def test_a_page_written_by_sqlite_is_the_page_python_writes(
    demo: Database, collection: str, fields: str, limit: str
) -> None:
    bound = _bound(demo, collection, ("fields", fields), ("limit", limit), ("sort", "-id"))
    assert is_flat(bound, demo.schema)  # type: ignore[arg-type]
    with Context.lease(demo) as ctx:
        expected = _python(ctx, bound)
        page = read_items_json(ctx, bound)  # type: ignore[arg-type]
        assert page is not None
        assert b"[" + page[0] + b"]" == expected
        streamed = b"".join(stream_items(ctx, bound))  # type: ignore[arg-type]
    assert streamed == b'{"data":' + expected + b"}"
    assert json.loads(expected), "the selection is empty: it tests nothing"


def test_lists_inside_an_object_are_capped_as_deep_says(demo: Database) -> None:
    params = [("fields", "id,course.events,course.title"), ("limit", "20")]
    for cap in ("1", "2", "-1"):
        bound = _bound(demo, "events", *params, ("deep[course][events][_limit]", cap))
        with Context.lease(demo) as ctx:
            page = read_items_json(ctx, bound)  # type: ignore[arg-type]
            assert page is not None
            assert b"[" + page[0] + b"]" == _python(ctx, bound)
        events = [row["course"]["events"] for row in json.loads(b"[" + page[0] + b"]")]
        if cap != "-1":
            assert max(map(len, events)) == int(cap)
        else:
            assert max(map(len, events)) > 2


def test_deeper_objects_and_expanded_lists_are_built_in_python(demo: Database) -> None:
    for collection, fields in [
        ("systematics", ".".join(["parent"] * (TUNING.flat_depth + 2))),
        ("events", "*.*"),  # its contacts expanded
        ("events", "id,contacts.*"),
        ("events", "course.events.id"),
    ]:
        bound = _bound(demo, collection, ("fields", fields))
        assert not is_flat(bound, demo.schema)  # type: ignore[arg-type]
        with Context.lease(demo) as ctx:
            assert read_items_json(ctx, bound) is None  # type: ignore[arg-type]


def test_a_missing_or_unset_target_is_null(databases: Databases) -> None:
    events = [
        {"id": 1, "address": 10},  # there
        {"id": 2, "address": 99},  # no address 99
        {"id": 3, "address": None},
    ]
    addresses = [{"id": 10, "city": "Jena", "state": 16}, {"id": 11, "city": "Kiel"}]
    db = Database(databases.of("dangling", {"events": events, "addresses": addresses}))
    bound = _bound(db, "events", ("fields", "id,address.city,address.state.name"))
    with Context.lease(db) as ctx:
        page = read_items_json(ctx, bound)  # type: ignore[arg-type]
        assert page is not None
        assert b"[" + page[0] + b"]" == _python(ctx, bound)
    rows = json.loads(b"[" + page[0] + b"]")
    assert [row["address"] for row in rows] == [
        {"city": "Jena", "state": {"name": "Thüringen"}},
        None,
        None,
    ]
    db.close()


# ---------------------------------------------------------------------------------------
# Rows written when the database was built (sql.written_rows)


def _every_stored_field(db: Database, collection: str) -> str:
    """Every stored field of ``collection``, listed backwards: the order asked for is not
    the order written."""
    return ",".join(reversed([f.name for f in db.schema[collection].stored_fields]))


def _statements(ctx: Context) -> list[str]:
    seen: list[str] = []
    ctx.conn.set_trace_callback(seen.append)
    return seen


@pytest.mark.parametrize(
    "params",
    [
        [("limit", "-1")],
        [("limit", "7"), ("sort", "-id")],
        [("limit", "50"), ("offset", "3"), ("filter[id][_gt]", "5")],
    ],
    ids=["whole", "sorted", "filtered"],
)
def test_a_page_of_every_stored_field_is_read_as_written_when_the_database_was_built(
    demo: Database, params: list[tuple[str, str]]
) -> None:
    assert demo.written_rows == frozenset(demo.schema)
    for collection in demo.schema:
        fields = ("fields", _every_stored_field(demo, collection))
        bound = _bound(demo, collection, fields, *params)
        with Context.lease(demo) as ctx:
            expected = _python(ctx, bound)
            statements = _statements(ctx)
            page = read_items_json(ctx, bound)  # type: ignore[arg-type]
            streamed = b"".join(stream_items(ctx, bound))  # type: ignore[arg-type]
            ctx.conn.set_trace_callback(None)
        assert page is not None
        assert b"[" + page[0] + b"]" == expected, collection
        assert streamed == b'{"data":' + expected + b"}", collection
        read = [s for s in statements if "_educatalog_rows_" in s]
        assert len(read) == 2, f"{collection}: its written rows were not read"
        assert not any("json_object" in s for s in statements), collection
        if collection == "events":  # numbers, text, booleans and nulls among them
            kinds = {type(v) for row in json.loads(expected) for v in row.values()}
            assert kinds >= {int, str, bool, type(None)}


def test_another_selection_of_fields_is_written_per_request(demo: Database) -> None:
    stored = _every_stored_field(demo, "events").split(",")
    for fields in [",".join(stored[1:]), "*", f"{','.join(stored)},address.city"]:
        bound = _bound(demo, "events", ("fields", fields), ("limit", "20"))
        with Context.lease(demo) as ctx:
            statements = _statements(ctx)
            page = read_items_json(ctx, bound)  # type: ignore[arg-type]
            ctx.conn.set_trace_callback(None)
            assert page is not None
            assert b"[" + page[0] + b"]" == _python(ctx, bound)
        assert not any("_educatalog_rows_" in s for s in statements), fields


@pytest.mark.parametrize("change", ["written otherwise", "not written"])
def test_rows_written_otherwise_or_not_at_all_are_written_per_request(
    demo_database: Path, tmp_path: Path, change: str
) -> None:
    """A database built by an educatalog that wrote its rows otherwise (or not at all)
    answers as this one writes them, never with what its tables hold."""
    copy = tmp_path / "other.sqlite"
    shutil.copyfile(demo_database, copy)
    with closing(sqlite3.connect(copy)) as conn:
        conn.execute('UPDATE "_educatalog_rows_events" SET object = \'{"stale":true}\'')
        if change == "written otherwise":
            conn.execute(
                "UPDATE _educatalog_written_rows SET object_sql = 'json_object(''id'', id)' "
                "WHERE collection = 'events'"
            )
        else:
            conn.execute("DROP TABLE _educatalog_written_rows")
        conn.commit()
    db = Database(copy)
    expected = frozenset() if change == "not written" else frozenset(db.schema) - {"events"}
    assert db.written_rows == expected
    bound = _bound(db, "events", ("fields", _every_stored_field(db, "events")), ("limit", "30"))
    with Context.lease(db) as ctx:
        page = read_items_json(ctx, bound)  # type: ignore[arg-type]
        assert page is not None
        assert b"[" + page[0] + b"]" == _python(ctx, bound)
    assert b"stale" not in page[0]
    db.close()
