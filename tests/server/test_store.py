"""The database store: schema from the catalogue, faithful round trip, atomic builds."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from educatalog.errors import UsageError
from educatalog.model.schema import SCHEMA
from educatalog.server.store import Database, build_database, database_info, read_rows


def test_every_collection_becomes_a_table_with_its_stored_fields(tmp_path: Path) -> None:
    path = build_database(tmp_path / "empty.sqlite", [])
    conn = sqlite3.connect(path)
    copied = {"events": ["address.state"]}  # then the related fields rows carry
    for coll in SCHEMA.values():
        columns = [r[1] for r in conn.execute(f'PRAGMA table_info("{coll.name}")')]
        assert columns == [f.name for f in coll.stored_fields] + copied.get(coll.name, [])
    indexed = {r[0] for r in conn.execute("SELECT tbl_name FROM sqlite_master WHERE type='index'")}
    assert {"events", "events_contacts", "addresses", "event_costs"} <= indexed
    conn.close()


def test_rows_round_trip_in_the_json_representation(tmp_path: Path) -> None:
    costs = [
        {"id": 1, "course": 3, "value": "1490.00", "currency": "EUR", "remarks": None},
        {"id": 2, "course": None, "value": "0.50", "currency": "EUR", "remarks": "Ä ß"},
        {"id": 3, "course": 4, "value": None, "currency": None, "remarks": ""},
    ]
    addresses = [{"id": 7, "institution": "u", "barrier_free": False, "state": None}]
    path = build_database(
        tmp_path / "db.sqlite",
        [("event_costs", costs), ("addresses", addresses)],
        info={"demo": True, "seed": 3},
    )
    assert read_rows(path, "event_costs") == costs
    (address,) = read_rows(path, "addresses")
    assert address["barrier_free"] is False
    assert address["street"] is None
    assert database_info(path) == {"demo": True, "seed": 3}
    db = Database(path)
    assert db.total_count("event_costs") == 3
    db.close()


def test_unknown_fields_fail_the_build_and_leave_nothing_behind(tmp_path: Path) -> None:
    target = tmp_path / "db.sqlite"
    with pytest.raises(UsageError, match=r"events carry fields it does not store: \['colour'"):
        build_database(target, [("events", [{"id": 1, "colour": "red"}])])
    with pytest.raises(ValueError, match="contacts"):  # alias fields are not columns
        build_database(target, [("events", [{"id": 1, "contacts": [1]}])])
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_build_keeps_the_previous_file(tmp_path: Path) -> None:
    target = build_database(tmp_path / "db.sqlite", [("states", [{"id": 1, "name": "Berlin"}])])

    def broken() -> object:
        yield ("states", [{"id": 2, "name": "Hamburg"}])
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_database(target, broken())  # type: ignore[arg-type]
    assert read_rows(target, "states") == [{"id": 1, "name": "Berlin", "code": None}]
    assert [p.name for p in tmp_path.iterdir()] == ["db.sqlite"]
    assert target.stat().st_mode & 0o777 == 0o644  # readable by the server's other users


def test_a_server_is_created_with_tokens_a_positive_limit_and_a_database(tmp_path: Path) -> None:
    from educatalog.server.app import create_app

    path = build_database(tmp_path / "db.sqlite", [])
    with pytest.raises(UsageError, match="at least one access token"):
        create_app(path)
    with pytest.raises(ValueError, match="limit_max must be a positive integer"):
        create_app(path, tokens=["t"], limit_max=0)
    (tmp_path / "notes.txt").write_text("not a database")
    with pytest.raises(UsageError, match="not an SQLite database"):
        create_app(tmp_path / "notes.txt", tokens=["t"])
    with pytest.raises(FileNotFoundError, match="no database file"):
        create_app(tmp_path / "missing.sqlite", tokens=["t"])


def test_database_is_opened_read_only(tmp_path: Path) -> None:
    db = Database(build_database(tmp_path / "db.sqlite", []))
    with pytest.raises(sqlite3.OperationalError):
        db.connection().execute("INSERT INTO states (id, name) VALUES (1, 'x')")
    assert db.connection().execute("SELECT edu_lower('ÄÖÜ STRASSE')").fetchone() == ("äöü strasse",)
    db.close()


def test_missing_database_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no database at"):
        Database(tmp_path / "nope.sqlite")


def test_decimals_read_the_same_on_every_path(tmp_path: Path) -> None:
    """A page of plain columns (serialized by SQLite) and an item (by Python) agree."""
    from educatalog.query import Query, bind
    from educatalog.server.context import Context
    from educatalog.server.items import read_item, read_items_json

    values = ["0.015", "19.995", "2.675", "1.005", "100", "0.1", None]
    costs = [{"id": i + 1, "value": v, "currency": "EUR"} for i, v in enumerate(values)]
    path = build_database(tmp_path / "money.sqlite", [("event_costs", costs)])
    db = Database(path)
    bound = bind(Query(fields=("id", "value"), limit=-1), "event_costs")
    with Context.lease(db) as ctx:
        page, _ = read_items_json(ctx, bound)  # type: ignore[misc]
        listed = [row["value"] for row in json.loads(b"[" + page + b"]")]
        coll = bound.collection
        single = [read_item(ctx, coll, i + 1, bound.fields, {})["value"] for i in range(7)]
    assert listed == single
    assert listed[4:] == ["100.00", "0.10", None]
    db.close()


def test_every_connection_keeps_the_statements_of_many_query_shapes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Prepared statements are kept beyond Python's 128 (``STATEMENT_CACHE``): preparing
    one again cost as much as a small read (``benchmarks/server.py``, the battery)."""
    from educatalog.server import store
    from educatalog.server.context import Context

    asked: list[object] = []
    connect = sqlite3.connect

    def spy(*args: object, **kwargs: object) -> sqlite3.Connection:
        asked.append(kwargs.get("cached_statements"))
        return connect(*args, **kwargs)  # type: ignore[arg-type]

    path = build_database(tmp_path / "shapes.sqlite", [])
    monkeypatch.setattr(store.sqlite3, "connect", spy)
    db = Database(path)
    with Context.lease(db) as ctx:
        assert ctx.conn.execute("SELECT 1").fetchone() == (1,)
    db.close()
    assert asked
    assert set(asked) == {store.STATEMENT_CACHE}
    assert store.STATEMENT_CACHE >= 1_000
