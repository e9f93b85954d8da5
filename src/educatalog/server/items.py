"""Read items for a bound query: the root page, then each selected relation, nested.

Relations are fetched one query per relation and level (never one per item): many-to-one
targets by id, one-to-many and many-to-many rows by foreign key with a per-parent cap
(100 unless ``deep[rel][_limit]`` says otherwise), in id order.

A page is read whole (:func:`read_items`, :func:`read_items_json`) or, for a large answer,
streamed (:func:`stream_items`): the same JSON body, produced chunk by chunk in constant
memory. Every read runs under a :class:`~educatalog.server.guard.Guard` (a budget of CPU
time and a cancellation flag); ``Guard``, ``Cancelled`` and ``QueryTooLong`` are importable
from here too.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import orjson

from educatalog.errors import InvalidQuery, NotFoundOrForbidden
from educatalog.query import NESTED_LIMIT, And, BoundQuery, Condition, FieldTree, Filter
from educatalog.schema import Collection
from educatalog.server.guard import Cancelled, Guard, QueryTooLong, interruptible
from educatalog.server.sql import count_sql, page_sql, sorted_by_id_only
from educatalog.server.store import Database, json_value_sql, quote

__all__ = [
    "Cancelled",
    "Guard",
    "QueryTooLong",
    "read_item",
    "read_items",
    "read_items_json",
    "stream_items",
]

Row = dict[str, Any]


def read_items(
    db: Database,
    bound: BoundQuery,
    conn: sqlite3.Connection | None = None,
    guard: Guard | None = None,
) -> tuple[list[Row], dict[str, int]]:
    """The page of items and the requested meta counts for a list query."""
    guard = guard or Guard()
    with _lease(db, conn, guard) as conn, interruptible(guard):
        coll = bound.collection
        meta = _meta(db, conn, bound)
        if bound.limit == 0:
            return [], meta
        check_objects(db, conn, bound)
        columns = _columns(coll, bound.fields)
        rows = _rows(db, coll, columns, _page(db, conn, bound, columns, guard))
        _attach(db, conn, guard, coll, rows, bound.fields, bound.deep)
        return rows, meta


def read_items_json(
    db: Database,
    bound: BoundQuery,
    conn: sqlite3.Connection | None = None,
    guard: Guard | None = None,
) -> tuple[bytes, dict[str, int]] | None:
    """The page as a JSON array already serialized by SQLite, for a selection of plain
    columns (no relations); None for other selections (use :func:`read_items`).

    Whole-collection downloads are pages of plain columns: building a dict per row and
    serializing it in Python cost the server more than reading the rows.
    """
    if not is_flat(bound):
        return None
    guard = guard or Guard()
    with _lease(db, conn, guard) as conn, interruptible(guard):
        meta = _meta(db, conn, bound)
        if bound.limit == 0:
            return b"[]", meta
        check_objects(db, conn, bound)
        # One aggregate row: SQLite builds the whole array in a single step, without the
        # GIL. The page query has a LIMIT, so it is never flattened: rows arrive in its
        # ORDER BY, and the objects are built for the rows of the page only (not for every
        # match that a sort has to look at).
        item = _flat_item(db, bound)
        rows = _page(
            db,
            conn,
            bound,
            _columns(bound.collection, bound.fields),
            guard,
            wrap=f"SELECT json_group_array(json({item})) FROM ({{}}) AS t0",
        )
        (array,) = next(iter(rows))
        return array.encode(), meta


def is_flat(bound: BoundQuery) -> bool:
    """Whether SQLite can write the rows alone: plain columns, and list relations as their
    ids (nothing expanded)."""
    return all(sub is None for sub in bound.fields.values())


def _flat_item(db: Database, bound: BoundQuery) -> str:
    """The ``json_object`` of a flat selection over the page's columns as ``t0``, keys in
    the order the general path writes them: stored fields, then list relations (their ids,
    capped per parent as ``deep`` says, in id order)."""
    coll = bound.collection
    columns = [name for name in _columns(coll, bound.fields) if name in bound.fields]
    pairs = [
        f"'{name}', {json_value_sql(coll.field(name), f't0.{quote(name)}')}" for name in columns
    ]
    lists = [name for name in bound.fields if not coll.field(name).is_stored]
    for n, name in enumerate(lists, start=1):
        fld = coll.field(name)
        assert fld.relation is not None
        target = quote(db.catalogue.expansion_target(fld).name)
        fk = quote(fld.relation.foreign_key or "")
        limit = int(bound.deep.get(name, {}).get("_limit", NESTED_LIMIT))
        ids = (
            f"(SELECT json_group_array(l{n}.id) FROM (SELECT id FROM {target} "
            f"WHERE {fk} = t0.id ORDER BY id LIMIT {limit}) AS l{n})"
        )
        pairs.append(f"'{name}', json({ids})")
    return f"json_object({', '.join(pairs)})"


def stream_items(
    db: Database,
    bound: BoundQuery,
    conn: sqlite3.Connection,
    guard: Guard,
    chunk_rows: int = 2_000,
) -> Generator[bytes, None, None]:
    """The JSON body of a list answer in pieces, in constant memory: byte for byte what
    :func:`read_items_json` or :func:`read_items` give, serialized as the service does.

    The meta counts and the object budget are settled before the first piece (so an error
    can still be answered as such); rows then follow ``chunk_rows`` at a time, each chunk
    with its relations. Every call of ``next()`` does its work under ``guard``: run the
    pieces in worker threads, one at a time, with ``conn`` leased to this answer alone.
    """
    coll = bound.collection
    with guard.working(), interruptible(guard):
        meta = _meta(db, conn, bound)
        if bound.limit != 0:
            check_objects(db, conn, bound)
    tail = b"]" + (b',"meta":' + orjson.dumps(meta) if meta else b"") + b"}"
    if bound.limit == 0:
        yield b'{"data":[' + tail
        return
    yield b'{"data":['
    flat = is_flat(bound)
    first = True
    columns = _columns(coll, bound.fields)
    wrap = "{}"
    if flat:  # objects built by SQLite for the page's rows (see read_items_json)
        wrap = f"SELECT CAST(json({_flat_item(db, bound)}) AS BLOB) FROM ({{}}) AS t0"
    else:
        # fewer rows a chunk when each may be written as many objects
        per_row = _objects_per_row(db, conn, coll, bound.fields, bound.deep)
        chunk_rows = max(1, min(chunk_rows, CHUNK_OBJECTS // per_row))
    with guard.working(), interruptible(guard):
        cursor = _page(db, conn, bound, columns, guard, wrap=wrap)
    fetch: Callable[[int], list[Any]]
    if isinstance(cursor, list):
        rows_of = iter(cursor)

        def fetch(size: int) -> list[Any]:
            return [row for _, row in zip(range(size), rows_of, strict=False)]

    else:
        fetch = cursor.fetchmany
    try:
        while True:
            with guard.working(), interruptible(guard):
                guard.check()
                batch = fetch(chunk_rows)
                if not batch:
                    break
                if flat:
                    piece = b",".join(item for (item,) in batch)
                else:
                    rows = _rows(db, coll, columns, batch)
                    _attach(db, conn, guard, coll, rows, bound.fields, bound.deep)
                    piece = orjson.dumps(rows)[1:-1]
                guard.rows += len(batch)
            yield piece if first else b"," + piece
            first = False
    finally:
        if isinstance(cursor, sqlite3.Cursor):
            cursor.close()
    yield tail


@contextmanager
def _lease(
    db: Database, conn: sqlite3.Connection | None, guard: Guard
) -> Iterator[sqlite3.Connection]:
    if conn is not None:
        with guard.working():
            yield conn
        return
    with db.lease(guard.progress) as leased, guard.working():
        yield leased


def _meta(db: Database, conn: sqlite3.Connection, bound: BoundQuery) -> dict[str, int]:
    meta: dict[str, int] = {}
    if "total_count" in bound.meta:
        meta["total_count"] = db.total_count(bound.collection.name, conn)
    if "filter_count" in bound.meta:
        text, params = count_sql(bound, db.catalogue, db.special_text)
        meta["filter_count"] = conn.execute(text, params).fetchone()[0]
    return meta


CHUNK_OBJECTS = 100_000
"""The most objects (by the upper bound) a chunk of a streamed answer is built from."""

MAX_RESPONSE_OBJECTS = 5_000_000
"""JSON objects one answer may hold, nested ones counted each time they are written."""


def _too_many(total: int) -> InvalidQuery:
    return InvalidQuery(
        f"The answer would hold {total:,} objects, more than {MAX_RESPONSE_OBJECTS:,}: "
        "select fewer relations, or ask for fewer items with limit."
    )


def check_objects(db: Database, conn: sqlite3.Connection, bound: BoundQuery) -> None:
    """Refuse a list answer that would hold too many objects, before any of it is built.

    An upper bound from the page size and the most related rows per parent settles almost
    every query; beyond it, SQL counts the objects exactly, without building them.
    """
    coll = bound.collection
    if not any(coll.field(name).relation is not None for name in bound.fields):
        return  # flat rows are one object each: nothing to count
    total_rows = max(0, db.total_count(coll.name, conn) - bound.offset)
    rows = total_rows if bound.limit is None else min(bound.limit, total_rows)
    if rows * _objects_per_row(db, conn, coll, bound.fields, bound.deep) <= MAX_RESPONSE_OBJECTS:
        return
    counter = _ObjectCount(db)
    expression = counter.size(coll, "t0", bound.fields, bound.deep)
    select = f"{expression} AS n"
    text, params = page_sql(bound, ["id"], db.catalogue, db.special_text, select=select)
    total = conn.execute(f"SELECT total(n) FROM ({text})", params).fetchone()[0]
    if total > MAX_RESPONSE_OBJECTS:
        raise _too_many(int(total))


def _objects_per_row(
    db: Database,
    conn: sqlite3.Connection,
    coll: Collection,
    tree: FieldTree,
    deep: Mapping[str, Any],
) -> int:
    """The most objects one row of ``coll`` can be written as, with the relations of ``tree``."""
    out = 1
    for name, sub in tree.items():
        fld = coll.field(name)
        if fld.relation is None or sub is None:
            continue
        target = db.catalogue.expansion_target(fld)
        sub_deep = deep.get(name, {})
        per = _objects_per_row(db, conn, target, sub, sub_deep)
        if fld.relation.kind == "m2o":
            out += per
        else:
            limit = sub_deep.get("_limit", NESTED_LIMIT)
            most = db.most_children(target.name, fld.relation.foreign_key or "", conn)
            out += (most if limit < 0 else min(limit, most)) * per
    return out


class _ObjectCount:
    """SQL for the number of objects a row is written as (as ``_check_size`` counts)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.aliases = 0

    def size(self, coll: Collection, alias: str, tree: FieldTree, deep: Mapping[str, Any]) -> str:
        parts = ["1"]
        for name, sub in tree.items():
            fld = coll.field(name)
            if fld.relation is None or sub is None:
                continue
            target = self.db.catalogue.expansion_target(fld)
            sub_deep = deep.get(name, {})
            self.aliases += 1
            a = f"o{self.aliases}"
            inner = self.size(target, a, sub, sub_deep)
            table = quote(target.name)
            if fld.relation.kind == "m2o":
                parts.append(
                    f"coalesce((SELECT {inner} FROM {table} AS {a} "
                    f"WHERE {a}.id = {alias}.{quote(name)}), 0)"
                )
                continue
            limit = sub_deep.get("_limit", NESTED_LIMIT)
            if limit == 0:
                continue
            fk = quote(fld.relation.foreign_key or "")
            where = f"{a}.{fk} = {alias}.id"
            if limit > 0:
                b = f"{a}b"
                where += (
                    f" AND {a}.id <= coalesce((SELECT {b}.id FROM {table} AS {b} WHERE "
                    f"{b}.{fk} = {alias}.id ORDER BY {b}.id LIMIT 1 OFFSET {limit - 1}), "
                    "9223372036854775807)"
                )
            parts.append(f"coalesce((SELECT total({inner}) FROM {table} AS {a} WHERE {where}), 0)")
        return "(" + " + ".join(parts) + ")"


def _check_size(rows: list[Row]) -> None:
    """Refuse an answer that would hold too many objects, before it is serialized.

    An expanded many-to-one item is one dict shared by all the rows pointing to it, but it
    is written out under each of them: counted with that multiplicity (memoized per dict, so
    the count costs one visit per distinct object).
    """
    sizes: dict[int, int] = {}

    def size(value: Any) -> int:
        if isinstance(value, dict):
            key = id(value)
            if key not in sizes:
                sizes[key] = 1 + sum(size(v) for v in value.values() if isinstance(v, dict | list))
            return sizes[key]
        if isinstance(value, list):
            return sum(size(v) for v in value if isinstance(v, dict | list))
        return 0

    total = size(rows)
    if total > MAX_RESPONSE_OBJECTS:
        raise _too_many(total)


ID_SCAN_BUDGET = 1_000_000
"""SQLite VM steps (about 35 ms) allowed to the walk in id order before the planner's plan."""

_BUDGET_STEP = 50_000
"""VM steps between two calls of the budget check: each call takes the GIL back from the
other requests' threads, so it must be rare for SQLite to work on several pages at once."""

SELECTIVE_ROWS = 5_000
"""An equality on an indexed column expected to match fewer rows goes straight to its index."""


def _selective(f: Filter | None, db: Database, table: str) -> bool:
    """True when ``f`` requires an equality that an index answers with few rows."""
    if isinstance(f, And):
        return any(_selective(item, db, table) for item in f.items)
    if not isinstance(f, Condition) or f.value is None:
        return False
    values = len(f.value) if isinstance(f.value, tuple) else 1
    if f.operator not in ("_eq", "_in"):
        return False
    if f.field == "id":
        return True
    rows = db.rows_per_value.get((table, f.field))
    return rows is not None and rows * values <= SELECTIVE_ROWS


def _page(
    db: Database,
    conn: sqlite3.Connection,
    bound: BoundQuery,
    columns: list[str],
    guard: Guard,
    *,
    select: str | None = None,
    wrap: str = "{}",
) -> list[Any] | sqlite3.Cursor:
    """The root rows of a page: a list, or a cursor to read them from.

    SQLite's planner ignores ``LIMIT`` when it picks an index: for a wide filter in id order
    (a state, a year) it collects and sorts every match, where walking the table in id order
    stops after one page. For a narrow filter (one course) the index wins by far. So a page
    in id order goes straight to the planner when an equality on an indexed column promises
    few rows (``_selective``); otherwise it first walks the table within a step budget and
    falls back to the planner's plan when the budget runs out (the matches are then few).
    ``conn`` must have ``guard.progress`` as its progress handler (see ``Database.lease``).
    """
    walk = bound.limit is not None and sorted_by_id_only(bound) and (bound.filter or bound.search)
    if walk and not _selective(bound.filter, db, bound.collection.name):
        text, params = page_sql(
            bound, columns, db.catalogue, db.special_text, scan_in_id_order=True, select=select
        )
        with guard.walk_budget(ID_SCAN_BUDGET // _BUDGET_STEP):
            try:
                return conn.execute(wrap.format(text), params).fetchall()
            except sqlite3.OperationalError as exc:
                if "interrupted" not in str(exc) or guard.reason != "walk":
                    raise
    text, params = page_sql(bound, columns, db.catalogue, db.special_text, select=select)
    return conn.execute(wrap.format(text), params)


def read_item(
    db: Database,
    coll: Collection,
    item_id: int,
    fields: FieldTree,
    deep: Mapping[str, Any],
    conn: sqlite3.Connection | None = None,
    guard: Guard | None = None,
) -> Row:
    """One item by id; a missing item is a 403, as the service answers."""
    guard = guard or Guard()
    with _lease(db, conn, guard) as conn, interruptible(guard):
        columns = _columns(coll, fields)
        select = ", ".join(f"t0.{quote(c)}" for c in columns)
        cursor = conn.execute(
            f"SELECT {select} FROM {quote(coll.name)} AS t0 WHERE t0.id = ?", (item_id,)
        )
        rows = _rows(db, coll, columns, cursor)
        if not rows:
            raise NotFoundOrForbidden(
                f"You don't have permission to access item {item_id} of collection "
                f'"{coll.name}" or it does not exist.'
            )
        _attach(db, conn, guard, coll, rows, fields, deep)
        _check_size(rows)
        return rows[0]


def _columns(coll: Collection, tree: FieldTree) -> list[str]:
    """Stored columns to select for a field tree: the selected ones, and always ``id``."""
    return ["id", *(f.name for f in coll.stored_fields if f.name in tree and f.name != "id")]


def _rows(
    db: Database, coll: Collection, columns: list[str], cursor: Iterable[Sequence[Any]]
) -> list[Row]:
    converters = db.converters[coll.name]
    pairs = [(c, converters[c]) for c in columns]
    if not any(conv for _, conv in pairs):
        return [dict(zip(columns, row, strict=True)) for row in cursor]
    return [
        {c: (conv(v) if conv else v) for (c, conv), v in zip(pairs, row, strict=True)}
        for row in cursor
    ]


def _attach(
    db: Database,
    conn: sqlite3.Connection,
    guard: Guard,
    coll: Collection,
    rows: list[Row],
    tree: FieldTree,
    deep: Mapping[str, Any],
) -> None:
    """Fill in the relations of ``tree`` on ``rows``, then drop columns not asked for."""
    if rows:
        for name, sub in tree.items():
            guard.check()
            fld = coll.field(name)
            if fld.relation is None:
                continue
            target = db.catalogue.expansion_target(fld)
            sub_deep = deep.get(name, {})
            if fld.relation.kind == "m2o":
                if sub is not None:
                    _attach_many_to_one(db, conn, guard, target, rows, name, sub, sub_deep)
            else:
                limit = sub_deep.get("_limit", NESTED_LIMIT)
                fk = fld.relation.foreign_key or ""
                _attach_list(db, conn, guard, target, rows, name, fk, sub, sub_deep, limit)
    if "id" not in tree:
        for row in rows:
            del row["id"]


def _json_ids(values: set[Any]) -> str:
    return orjson.dumps(sorted(values)).decode()


def _attach_many_to_one(
    db: Database,
    conn: sqlite3.Connection,
    guard: Guard,
    target: Collection,
    rows: list[Row],
    name: str,
    tree: FieldTree,
    deep: Mapping[str, Any],
) -> None:
    keys = {row[name] for row in rows if row[name] is not None}
    related: dict[Any, Row] = {}
    if keys:
        columns = _columns(target, tree)
        select = ", ".join(f"t.{quote(c)}" for c in columns)
        cursor = conn.execute(
            f"SELECT {select} FROM {quote(target.name)} AS t "
            "WHERE t.id IN (SELECT value FROM json_each(?))",
            (_json_ids(keys),),
        )
        found = _rows(db, target, columns, cursor)
        ids = [r["id"] for r in found]
        _attach(db, conn, guard, target, found, tree, deep)
        related = dict(zip(ids, found, strict=True))
    for row in rows:
        row[name] = related.get(row[name])  # a missing target is null


def _attach_list(
    db: Database,
    conn: sqlite3.Connection,
    guard: Guard,
    target: Collection,
    rows: list[Row],
    name: str,
    fk: str,
    tree: FieldTree | None,
    deep: Mapping[str, Any],
    limit: int,
) -> None:
    columns = ["id", fk] if tree is None else list(dict.fromkeys([*_columns(target, tree), fk]))
    select = ", ".join(f"t.{quote(c)}" for c in columns)
    source = (
        f"SELECT {select} FROM {quote(target.name)} AS t "
        f"WHERE t.{quote(fk)} IN (SELECT value FROM json_each(?))"
    )
    params: list[Any] = [_json_ids({row["id"] for row in rows})]
    if limit >= 0:
        names = ", ".join(quote(c) for c in columns)
        source = (
            f"SELECT {names} FROM (SELECT {select}, ROW_NUMBER() OVER "
            f"(PARTITION BY t.{quote(fk)} ORDER BY t.id) AS _n FROM {quote(target.name)} AS t "
            f"WHERE t.{quote(fk)} IN (SELECT value FROM json_each(?))) WHERE _n <= ?"
        )
        params.append(limit)
    cursor = conn.execute(f"{source} ORDER BY {quote(fk)}, id", params)
    groups: dict[Any, list[Any]] = {row["id"]: [] for row in rows}
    if tree is None:
        for item_id, parent in cursor:
            groups[parent].append(item_id)
    else:
        found = _rows(db, target, columns, cursor)
        parents = [r[fk] for r in found]
        _attach(db, conn, guard, target, found, tree, deep)
        if fk not in tree:
            for r in found:
                r.pop(fk, None)
        for parent, item in zip(parents, found, strict=True):
            groups[parent].append(item)
    for row in rows:
        row[name] = groups[row["id"]]
