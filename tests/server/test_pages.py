"""Pages the server reads another way than SQL says it: deep pages of a whole collection
from a sampled id, pages in id order walked within a step budget, statements shorter than
the guard's interval. Each gives the rows plain SQL gives."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from educatalog.query import Query, bind
from educatalog.server import items
from educatalog.server.context import Context
from educatalog.server.guard import Guard, QueryTooLong
from educatalog.server.items import read_items, read_items_json, stream_items
from educatalog.server.store import Database
from educatalog.server.tuning import TUNING


def _ids_by_sql(database: Path, where: str = "1", offset: int = 0, limit: int = -1) -> list[int]:
    with sqlite3.connect(database) as conn:
        rows = conn.execute(
            f"SELECT id FROM events WHERE {where} ORDER BY id LIMIT ? OFFSET ?", (limit, offset)
        )
        return [i for (i,) in rows]


def _ids(ctx: Context, params: list[tuple[str, str]], streamed: bool = False) -> list[int]:
    bound = bind(Query.from_params([("fields", "id"), *params]), "events")
    if streamed:
        body = b"".join(stream_items(ctx, bound))
        return [row["id"] for row in json.loads(body)["data"]]
    page = read_items_json(ctx, bound)
    assert page is not None
    return [row["id"] for row in json.loads(b"[" + page[0] + b"]")]


def test_deep_pages_of_a_whole_collection_are_the_rows_sql_skips_to(
    small_database: Path, monkeypatch: pytest.MonkeyPatch, tune: Callable[..., None]
) -> None:
    tune(rank_step=8)  # a sampled id every 8 rows of 132
    db = Database(small_database)
    with Context.lease(db) as ctx:
        total = db.total_count("events", ctx.conn)
        for offset in (0, 7, 8, 9, 63, 64, 127, total - 1, total, total + 50):
            for limit in (1, 5, 100):
                params = [("limit", str(limit)), ("offset", str(offset))]
                expected = _ids_by_sql(small_database, offset=offset, limit=limit)
                assert _ids(ctx, params) == expected, (offset, limit)
            expected = _ids_by_sql(small_database, offset=offset)
            assert _ids(ctx, [("limit", "-1"), ("offset", str(offset))], True) == expected
        # pages by number, the naive loop's way
        assert _ids(ctx, [("limit", "10"), ("page", "4")]) == _ids_by_sql(
            small_database, offset=30, limit=10
        )
        # the meta counts are the collection's, not the sampled start's
        bound = bind(Query(fields=("id",), limit=3, offset=40, meta="*"), "events")
        _, meta = read_items(ctx, bound)
        assert meta == {"total_count": total, "filter_count": total}
        # descending and filtered pages skip the plain way, to the same rows
        bound = bind(Query(fields=("id",), limit=4, offset=20, sort=("-id",)), "events")
        rows, _ = read_items(ctx, bound)
        assert [r["id"] for r in rows] == sorted(_ids_by_sql(small_database), reverse=True)[20:24]
    db.close()


def test_a_walk_in_id_order_that_runs_out_of_steps_falls_back_to_the_planner(
    small_database: Path, monkeypatch: pytest.MonkeyPatch, tune: Callable[..., None]
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
        tune(id_scan_budget=10)  # the walk stops at once
        assert _ids(ctx, params) == expected
        assert spent == [None] * TUNING.walk_ticks  # its ticks, the last of which stopped it
        assert ctx.guard.reason is None  # the walk's interruption is not the request's
        assert ctx.conn.execute("SELECT count(*) FROM events").fetchone()[0] > 0
    db.close()


def test_a_walk_repeated_on_one_connection_gets_its_whole_budget_each_time(
    small_database: Path,
) -> None:
    """SQLite counts a statement's steps across its runs, and Python reuses the statement
    of the same text: one progress call at the whole budget cut the second run short."""
    db = Database(small_database)
    text = "SELECT count(*) FROM events AS a, events AS b WHERE a.id < 40"
    with Context.lease(db) as ctx:
        counted = [0]

        def count() -> int:
            counted[0] += 1
            return 0

        ctx.conn.set_progress_handler(count, 1)
        expected = ctx.conn.execute(text).fetchone()
        steps = counted[0]
    db.close()
    db = Database(small_database)
    with Context.lease(db) as ctx:
        for _ in range(10):
            with ctx.walk_budget(steps * 5 // 4):
                assert ctx.conn.execute(text).fetchone() == expected
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


@pytest.mark.parametrize(
    ("sort", "order"),
    [
        ("max_participants", "t0.max_participants ASC NULLS LAST, t0.id"),
        ("-event_start_date", "t0.event_start_date DESC NULLS FIRST, t0.id"),
        ("course.title,-id", "c.title ASC NULLS LAST, t0.id DESC"),
    ],
)
def test_sorted_pages_are_the_rows_of_a_sort_of_whole_rows(
    small_database: Path, sort: str, order: str
) -> None:
    """Sorted by other keys than id, the page's ids are sorted alone and its rows read
    after: the same rows in the same order as a sort of whole rows, ties and nulls too."""
    db = Database(small_database)
    with sqlite3.connect(small_database) as conn:
        every = [
            list(row)
            for row in conn.execute(
                "SELECT t0.id, t0.max_participants, t0.event_start_date FROM events AS t0 "
                f"LEFT JOIN courses AS c ON c.id = t0.course ORDER BY {order}"
            )
        ]
    fields = "id,max_participants,event_start_date"
    with Context.lease(db) as ctx:
        for offset, limit in ((0, 7), (5, 20), (120, 100), (0, -1)):
            bound = bind(
                Query.from_params(
                    [
                        ("fields", fields),
                        ("sort", sort),
                        ("offset", str(offset)),
                        ("limit", str(limit)),
                    ]
                ),
                "events",
            )
            page = read_items_json(ctx, bound)
            assert page is not None
            rows = [list(r.values()) for r in json.loads(b"[" + page[0] + b"]")]
            assert rows == every[offset : None if limit < 0 else offset + limit], (offset, limit)
            streamed = json.loads(b"".join(stream_items(ctx, bound)))["data"]
            assert [list(r.values()) for r in streamed] == rows
    db.close()


@pytest.mark.parametrize(
    ("params", "counts"),
    [
        ({"limit": "-1"}, False),  # every match: the rows are the count
        ({"limit": "-1", "offset": "5"}, False),
        ({"limit": "100000"}, False),  # a page that ends before its limit
        ({"limit": "3"}, True),  # a full page: counted
        ({"limit": "-1", "offset": "100000"}, True),  # empty past its offset: counted
        ({"limit": "0"}, True),
    ],
)
@pytest.mark.parametrize("fields", ["id", "id,course.id"])
@pytest.mark.parametrize("streamed", [False, True])
def test_filter_count_is_the_rows_when_the_page_holds_the_last_match(
    small_database: Path,
    monkeypatch: pytest.MonkeyPatch,
    params: dict[str, str],
    counts: bool,
    fields: str,
    streamed: bool,
) -> None:
    db = Database(small_database)
    where = json.dumps({"course": {"_gt": 2}})
    query = [("filter", where), ("meta", "filter_count,total_count"), ("fields", fields)]
    bound = bind(Query.from_params([*query, *params.items()]), "events")
    expected = len(_ids_by_sql(small_database, "course > 2", offset=0, limit=-1))
    counted: list[str] = []
    count_sql = items.sql.count_sql

    def spy(*args: object, **kwargs: object) -> tuple[str, list[object]]:
        counted.append("count")
        return count_sql(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(items.sql, "count_sql", spy)
    with Context.lease(db) as ctx:
        if streamed:
            meta = json.loads(b"".join(stream_items(ctx, bound)))["meta"]
        elif fields == "id":
            page = read_items_json(ctx, bound)
            assert page is not None
            meta = page[1]
        else:
            meta = read_items(ctx, bound)[1]
    db.close()
    assert meta["filter_count"] == expected
    assert meta["total_count"] > expected
    # a streamed answer counts before its first piece, unless it streams every match
    every = params["limit"] == "-1" and params.get("offset", "0") == "0"
    would_count = counts or (streamed and not every)
    assert counted == (["count"] if would_count else [])
