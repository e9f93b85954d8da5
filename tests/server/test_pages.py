"""Pages the server reads another way than SQL says it: pages in id order walked within a
step budget, statements shorter than the guard's interval. Each gives the rows plain SQL
gives."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from educatalog.query import Query, bind
from educatalog.server import items
from educatalog.server.context import Context
from educatalog.server.guard import Guard, QueryTooLong
from educatalog.server.items import read_items, read_items_json
from educatalog.server.store import Database


def _ids_by_sql(database: Path, where: str = "1", offset: int = 0, limit: int = -1) -> list[int]:
    with sqlite3.connect(database) as conn:
        rows = conn.execute(
            f"SELECT id FROM events WHERE {where} ORDER BY id LIMIT ? OFFSET ?", (limit, offset)
        )
        return [i for (i,) in rows]


def _ids(ctx: Context, params: list[tuple[str, str]]) -> list[int]:
    bound = bind(Query.from_params([("fields", "id"), *params]), "events")
    page = read_items_json(ctx, bound)
    assert page is not None
    return [row["id"] for row in json.loads(page[0])]


def test_a_walk_in_id_order_that_runs_out_of_steps_falls_back_to_the_planner(
    small_database: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = Database(small_database)
    params = [("filter", json.dumps({"course": {"_gt": 2}})), ("limit", "20"), ("offset", "3")]
    expected = _ids_by_sql(small_database, "course > 2", offset=3, limit=20)
    spent: list[str | None] = []
    walk_spent = Guard.walk_spent

    def spy(guard: Guard) -> int:
        spent.append(guard.reason)
        return walk_spent(guard)

    monkeypatch.setattr(Guard, "walk_spent", spy)
    with Context.lease(db) as ctx:
        assert _ids(ctx, params) == expected
        assert spent == []  # 132 rows: walked within the budget
        monkeypatch.setattr(items, "ID_SCAN_BUDGET", 10)  # the walk stops at once
        assert _ids(ctx, params) == expected
        assert spent == [None]
        assert ctx.guard.reason is None  # the walk's interruption is not the request's
        assert ctx.conn.execute("SELECT count(*) FROM events").fetchone()[0] > 0
    db.close()


def test_a_statement_shorter_than_the_guards_interval_is_checked_after_it(
    small_database: Path,
) -> None:
    db = Database(small_database)
    bound = bind(Query(fields=("id",), limit=10), "events")
    for read in (read_items_json, read_items):
        with Context.lease(db, Guard(budget=0.0, per_row=0.0)) as ctx, pytest.raises(QueryTooLong):
            read(ctx, bound)
    db.close()
