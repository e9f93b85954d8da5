"""Read items for a bound query: the root page, then each selected relation, nested.

Relations are fetched one query per relation and level (never one per item): many-to-one
targets by id, one-to-many and many-to-many rows by foreign key with a per-parent cap
(100 unless ``deep[rel][_limit]`` says otherwise), in id order.

A page is read whole (:func:`read_items`, :func:`read_items_json`) or, for a large answer,
streamed (:func:`stream_items`): the same JSON body, produced chunk by chunk in constant
memory. Every read gets a :class:`~educatalog.server.context.Context`: the database, the
connection leased to the request, its guard (a budget of CPU time and a cancellation flag)
and the server's limits. The SQL texts are :mod:`educatalog.server.sql`'s.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import orjson

from educatalog.errors import NotFoundOrForbidden
from educatalog.model.schema import SCHEMA, Collection, Field, Schema
from educatalog.query import NESTED_LIMIT, And, BoundQuery, Condition, FieldTree, Filter
from educatalog.server import sql
from educatalog.server.context import Context
from educatalog.server.objects import check_objects, check_size, objects_per_row
from educatalog.server.store import Database

__all__ = [
    "CHUNK_OBJECTS",
    "FLAT_DEPTH",
    "ID_SCAN_BUDGET",
    "SEARCH_SCAN_BUDGET",
    "SELECTIVE_ROWS",
    "is_flat",
    "known_count",
    "lists_ids",
    "meta_tail",
    "read_groups",
    "read_item",
    "read_items",
    "read_items_json",
    "stream_items",
]

Row = dict[str, Any]

CHUNK_OBJECTS = 100_000
"""The most objects (by the upper bound) a chunk of a streamed answer is built from."""

ID_SCAN_BUDGET = 1_000_000
"""SQLite VM steps (about 50 ms) allowed to the walk in id order before the planner's plan."""

SEARCH_SCAN_BUDGET = 250_000
"""SQLite VM steps allowed to a search's walk in id order when its collection has a search
index (about 10 ms: a page of a word that one row in a hundred holds); beyond them, the
index's rows are read."""

FLAT_DEPTH = 4
"""The most levels of many-to-one objects that SQLite writes nested in a row
(:func:`is_flat`); a deeper selection is built in Python. Each level is a subquery in the
statement, and SQLite's parser refused eight of them ("parser stack overflow")."""

SELECTIVE_ROWS = 5_000
"""An equality on an indexed column expected to match fewer rows goes straight to its index."""


def read_items(ctx: Context, bound: BoundQuery) -> tuple[list[Row], dict[str, int]]:
    """The page of items and the requested meta counts for a list query."""
    with ctx.working():
        coll = bound.collection
        if bound.limit == 0:
            return [], _meta(ctx, bound)
        check_objects(ctx, bound)
        columns = _columns(coll, bound.fields)
        rows = _rows(ctx.db, coll, columns, _page(ctx, bound, columns))
        meta = _meta(ctx, bound, len(rows))
        _attach(ctx, coll, rows, bound.fields, bound.deep)
        ctx.guard.check()
        return rows, meta


def read_items_json(ctx: Context, bound: BoundQuery) -> tuple[bytes, dict[str, int]] | None:
    """The page's JSON objects already serialized by SQLite and joined by commas (the
    members of its JSON array, without the brackets: the answer's body puts them around
    without copying the page), for a selection that SQLite can write alone (:func:`is_flat`:
    plain columns, list relations as ids, many-to-one relations expanded); None for other
    selections (use :func:`read_items`).

    Whole-collection downloads are pages of plain columns: building a dict per row and
    serializing it in Python cost the server more than reading the rows. So did nested
    objects: 492 events with their address's city, 1.2 ms in Python, 0.7 ms so.
    """
    if not is_flat(bound, ctx.db.schema):
        return None
    with ctx.working():
        if bound.limit == 0:
            return b"", _meta(ctx, bound)
        check_objects(ctx, bound)
        # One aggregate row: SQLite joins the whole page in a single step, without the
        # GIL. The page query has a LIMIT, so it is never flattened: rows arrive in its
        # ORDER BY, and the objects are built for the rows of the page only (not for every
        # match that a sort has to look at).
        item, columns = _flat_selection(ctx.db, bound)
        (objects, rows) = next(iter(_page(ctx, bound, columns, _page_sql(item, joined=True))))
        meta = _meta(ctx, bound, rows)
        ctx.guard.check()  # a statement shorter than the guard's interval is checked here
        return objects or b"", meta


def read_groups(ctx: Context, bound: BoundQuery) -> tuple[bytes, dict[str, int]]:
    """The groups of an ``aggregate``/``groupBy`` query as a JSON array written by SQLite,
    and the requested meta counts (of items, as Directus counts them)."""
    with ctx.working():
        meta = _meta(ctx, bound)
        text, params = sql.aggregate_sql(
            bound, ctx.db.schema, ctx.db.layout, prefilter=ctx.prefilter
        )
        (array,) = ctx.conn.execute(text, params).fetchone()
        ctx.guard.check()
        return array.encode(), meta


def is_flat(bound: BoundQuery, schema: Schema = SCHEMA) -> bool:
    """Whether SQLite can write the rows alone: plain columns, list relations as their
    ids, and many-to-one relations expanded into rows it can write alone (nested objects,
    one lookup by id each). An expanded list (one-to-many, many-to-many) is built in
    Python (:func:`read_items`)."""
    return _flat(bound.collection, bound.fields, schema, FLAT_DEPTH)


def lists_ids(coll: Collection, tree: FieldTree, schema: Schema) -> bool:
    """Whether a row of ``coll`` written with ``tree`` lists a relation's ids (at any level
    of its many-to-one objects): a subquery a row, which costs SQLite more than an object."""
    for name, sub in tree.items():
        fld = coll.field(name)
        if not fld.is_stored:
            return True
        if sub is not None and lists_ids(schema.expansion_target(fld), sub, schema):
            return True
    return False


def _flat(coll: Collection, tree: FieldTree, schema: Schema, levels: int) -> bool:
    for name, sub in tree.items():
        if sub is None:
            continue
        fld = coll.field(name)
        if fld.relation is None or fld.relation.kind != "m2o" or levels == 0:
            return False
        if not _flat(schema.expansion_target(fld), sub, schema, levels - 1):
            return False
    return True


def _flat_selection(db: Database, bound: BoundQuery) -> tuple[str, list[str]]:
    """What SQLite gives as each row of a flat selection (:func:`is_flat`), and the columns
    of the page it is given from: every stored field is the row's object as written when
    the database was built (:mod:`~educatalog.server.sql.written_rows`), by id; any other
    selection, or a database without them, its ``json_object``."""
    coll = bound.collection
    if coll.name in db.written_rows and _every_stored_field(coll, bound.fields):
        return sql.written_object_sql(coll), ["id"]
    return _flat_item(db, bound), _columns(coll, bound.fields)


def _every_stored_field(coll: Collection, tree: FieldTree) -> bool:
    stored = [f.name for f in coll.stored_fields]
    return len(tree) == len(stored) and all(n in tree and tree[n] is None for n in stored)


def _flat_item(db: Database, bound: BoundQuery) -> str:
    """The ``json_object`` of a flat selection (:func:`is_flat`), keys in the order the
    general path writes them."""
    return sql.flat_item_sql(_row_object(db.schema, bound.collection, bound.fields, bound.deep))


def _row_object(
    schema: Schema, coll: Collection, tree: FieldTree, deep: Mapping[str, Any]
) -> sql.RowObject:
    """What a row of ``coll`` is written as: stored fields (a many-to-one expanded as its
    row's object), then list relations (their ids, capped per parent as ``deep`` says, in
    id order), as :func:`_attach` writes them."""
    columns = [name for name in _columns(coll, tree) if name in tree]
    lists = [
        (
            coll.field(name),
            schema.expansion_target(coll.field(name)).name,
            int(deep.get(name, {}).get("_limit", NESTED_LIMIT)),
        )
        for name in tree
        if not coll.field(name).is_stored
    ]
    related = {
        name: _row_object(
            schema, schema.expansion_target(coll.field(name)), sub, deep.get(name, {})
        )
        for name, sub in tree.items()
        if sub is not None
    }
    return sql.RowObject(coll, columns, lists, related)


def _page_sql(item: str, *, joined: bool) -> Callable[[str], str]:
    def wrap(page: str) -> str:
        return sql.json_rows_sql(page, item, joined=joined)

    return wrap


def stream_items(
    ctx: Context, bound: BoundQuery, chunk_rows: int = 2_000
) -> Generator[bytes, None, None]:
    """The JSON body of a list answer in pieces, in constant memory: byte for byte what
    :func:`read_items_json` or :func:`read_items` give, serialized as the service does.

    The meta counts and the object budget are settled before the first piece (so an error
    can still be answered as such), but for an answer of every match, whose count is the
    rows it streamed (:func:`known_count`); rows then follow ``chunk_rows`` at a time, each chunk
    with its relations. Every call of ``next()`` does its work under the context's guard:
    run the pieces in worker threads, one at a time, with the context's connection leased
    to this answer alone.
    """
    coll = bound.collection
    # every match from the first on: the count is the rows streamed (known_count)
    counted = bound.limit is None and bound.offset == 0
    with ctx.working():
        meta = {} if counted else _meta(ctx, bound)
        if bound.limit != 0:
            check_objects(ctx, bound)
    if bound.limit == 0:
        yield b'{"data":[' + b"]" + meta_tail(meta)
        return
    yield b'{"data":['
    flat = is_flat(bound, ctx.db.schema)
    wrap: Callable[[str], str] | None = None
    if flat:  # objects built by SQLite for the page's rows (see read_items_json)
        item, columns = _flat_selection(ctx.db, bound)
        wrap = _page_sql(item, joined=False)
    else:
        columns = _columns(coll, bound.fields)
        # fewer rows a chunk when each may be written as many objects
        per_row = objects_per_row(ctx.db, ctx.conn, coll, bound.fields, bound.deep) or 1
        chunk_rows = max(1, min(chunk_rows, CHUNK_OBJECTS // per_row))
    with ctx.working():
        cursor = _page(ctx, bound, columns, wrap)
    fetch = _fetcher(cursor)
    first = True
    streamed = 0
    try:
        while True:
            with ctx.working():
                ctx.guard.check()
                batch = fetch(chunk_rows)
                if not batch:
                    break
                if flat:
                    piece = b",".join(item for (item,) in batch)
                else:
                    rows = _rows(ctx.db, coll, columns, batch)
                    _attach(ctx, coll, rows, bound.fields, bound.deep)
                    piece = orjson.dumps(rows)[1:-1]
                ctx.guard.rows += len(batch)
                streamed += len(batch)
            yield piece if first else b"," + piece
            first = False
    finally:
        if isinstance(cursor, sqlite3.Cursor):
            cursor.close()
    if counted:
        with ctx.working():
            meta = _meta(ctx, bound, streamed)
    yield b"]" + meta_tail(meta)


def meta_tail(meta: dict[str, int]) -> bytes:
    """The end of a list answer's body after its data: the meta counts, if any, and ``}``."""
    return b',"meta":' + orjson.dumps(meta) + b"}" if meta else b"}"


def _fetcher(cursor: list[Any] | sqlite3.Cursor) -> Callable[[int], list[Any]]:
    """``fetchmany`` of the page's rows, a cursor's or a list's."""
    if not isinstance(cursor, list):
        return cursor.fetchmany
    rows_of = iter(cursor)

    def fetch(size: int) -> list[Any]:
        return [row for _, row in zip(range(size), rows_of, strict=False)]

    return fetch


def _meta(ctx: Context, bound: BoundQuery, rows: int | None = None) -> dict[str, int]:
    """The requested meta counts; ``filter_count`` without counting when the page's
    ``rows`` (read already) tell it (:func:`known_count`)."""
    meta: dict[str, int] = {}
    if "total_count" in bound.meta:
        meta["total_count"] = ctx.db.total_count(bound.collection.name, ctx.conn)
    if "filter_count" in bound.meta:
        known = None if rows is None else known_count(bound, rows)
        if known is None:
            text, params = sql.count_sql(
                bound, ctx.db.schema, ctx.db.layout, prefilter=ctx.prefilter
            )
            known = ctx.conn.execute(text, params).fetchone()[0]
        meta["filter_count"] = known
    return meta


def known_count(bound: BoundQuery, rows: int) -> int | None:
    """The number of matches (``filter_count``) when a page of ``rows`` tells it: a page
    that ends before its limit (or has none) holds the last match, so the matches are its
    offset and its rows; None when the page is full, or empty past its offset.

    ``limit=-1&meta=filter_count``, the most common way to ask for a whole list and its
    count, then reads the matches once, not twice."""
    if bound.limit is not None and rows >= bound.limit:
        return None
    if rows == 0 and bound.offset > 0:
        return None
    return bound.offset + rows


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
    ctx: Context,
    bound: BoundQuery,
    columns: list[str],
    wrap: Callable[[str], str] | None = None,
) -> list[Any] | sqlite3.Cursor:
    """The root rows of a page (``wrap`` turns the page's SQL into what is read of it): a
    list, or a cursor to read them from.

    SQLite's planner ignores ``LIMIT`` when it picks an index: for a wide filter in id order
    (a state, a year) it collects and sorts every match, where walking the table in id order
    stops after one page. For a narrow filter (one course) the index wins by far. So a page
    in id order goes straight to the planner when an equality on an indexed column promises
    few rows (``_selective``); otherwise it first walks the table within a step budget and
    falls back to the planner's plan when the budget runs out (the matches are then few).
    """
    db, conn, guard = ctx.db, ctx.conn, ctx.guard
    wrap = wrap or _unchanged
    bound = _from_rank(ctx, bound)
    walk = (
        bound.limit is not None and sql.sorted_by_id_only(bound) and (bound.filter or bound.search)
    )
    few = False  # the walk ran out of steps: the matches are few
    if walk and not _selective(bound.filter, db, bound.collection.name):
        # A search with an index walks a shorter way: a word that a page's worth of rows
        # hold is found within it; a rarer one is found faster from the index's rows.
        indexed = bound.search is not None and bound.collection.name in db.search_indexes
        text, params = sql.page_sql(bound, columns, db.schema, db.layout, scan_in_id_order=True)
        with ctx.walk_budget(SEARCH_SCAN_BUDGET if indexed else ID_SCAN_BUDGET):
            try:
                return conn.execute(wrap(text), params).fetchall()
            except sqlite3.OperationalError as exc:
                if "interrupted" not in str(exc) or guard.reason != "walk":
                    raise
        few = True
    text, params = sql.page_sql(
        bound,
        columns,
        db.schema,
        db.layout,
        prefilter=ctx.prefilter,
        reads_all=True if few else None,
    )
    return conn.execute(wrap(text), params)


def _from_rank(ctx: Context, bound: BoundQuery) -> BoundQuery:
    """A deep page of a whole collection in id order, as the same rows from a known id on
    (:meth:`~educatalog.server.store.Database.rank_start`): the page at offset 800,000
    without stepping over 800,000 rows. Other queries stay as they are."""
    plain = bound.filter is None and bound.search is None and sql.sorted_by_id_only(bound)
    if not plain or bound.offset < ctx.db.RANK_STEP or any(k.descending for k in bound.sort):
        return bound
    start = ctx.db.rank_start(bound.collection.name, bound.offset, ctx.conn)
    if start is None:
        return bound
    first, skip = start
    return replace(bound, filter=Condition("id", "_gte", first), offset=skip)


def _unchanged(text: str) -> str:
    return text


def read_item(
    ctx: Context, coll: Collection, item_id: int, fields: FieldTree, deep: Mapping[str, Any]
) -> Row:
    """One item by id; a missing item is a 403, as the service answers."""
    with ctx.working():
        columns = _columns(coll, fields)
        cursor = ctx.conn.execute(sql.item_sql(coll, columns), (item_id,))
        rows = _rows(ctx.db, coll, columns, cursor)
        if not rows:
            raise NotFoundOrForbidden(
                f"You don't have permission to access item {item_id} of collection "
                f'"{coll.name}" or it does not exist.'
            )
        _attach(ctx, coll, rows, fields, deep)
        check_size(rows, ctx.limits.max_objects)
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


@dataclass(frozen=True)
class _Expansion:
    """One selected relation of a level: its field, the collection it expands into, what
    is selected there (None: only ids, for a list) and its part of ``deep``."""

    field: Field
    target: Collection
    tree: FieldTree | None
    deep: Mapping[str, Any]

    @property
    def name(self) -> str:
        return self.field.name

    @property
    def foreign_key(self) -> str:
        assert self.field.relation is not None
        return self.field.relation.foreign_key or ""

    @property
    def cap(self) -> int:
        """Related rows per parent (-1: all)."""
        return int(self.deep.get("_limit", NESTED_LIMIT))


def _attach(
    ctx: Context, coll: Collection, rows: list[Row], tree: FieldTree, deep: Mapping[str, Any]
) -> None:
    """Fill in the relations of ``tree`` on ``rows``, then drop columns not asked for."""
    if rows:
        for name, sub in tree.items():
            ctx.guard.check()
            fld = coll.field(name)
            if fld.relation is None:
                continue
            step = _Expansion(fld, ctx.db.schema.expansion_target(fld), sub, deep.get(name, {}))
            if fld.relation.kind != "m2o":
                _attach_list(ctx, rows, step)
            elif sub is not None:
                _attach_many_to_one(ctx, rows, step)
    if "id" not in tree:
        for row in rows:
            del row["id"]


def _json_ids(values: set[Any]) -> str:
    return orjson.dumps(sorted(values)).decode()


def _attach_many_to_one(ctx: Context, rows: list[Row], step: _Expansion) -> None:
    name = step.name
    keys = {row[name] for row in rows if row[name] is not None}
    related: dict[Any, Row] = {}
    if keys and step.tree is not None:
        columns = _columns(step.target, step.tree)
        cursor = ctx.conn.execute(sql.by_ids_sql(step.target, columns), (_json_ids(keys),))
        found = _rows(ctx.db, step.target, columns, cursor)
        ids = [r["id"] for r in found]
        _attach(ctx, step.target, found, step.tree, step.deep)
        related = dict(zip(ids, found, strict=True))
    for row in rows:
        row[name] = related.get(row[name])  # a missing target is null


def _attach_list(ctx: Context, rows: list[Row], step: _Expansion) -> None:
    fk, tree = step.foreign_key, step.tree
    columns = (
        ["id", fk] if tree is None else list(dict.fromkeys([*_columns(step.target, tree), fk]))
    )
    params: list[Any] = [_json_ids({row["id"] for row in rows})]
    if step.cap >= 0:
        params.append(step.cap)
    cursor = ctx.conn.execute(sql.children_sql(step.target, columns, fk, step.cap >= 0), params)
    groups: dict[Any, list[Any]] = {row["id"]: [] for row in rows}
    if tree is None:
        for item_id, parent in cursor:
            groups[parent].append(item_id)
    else:
        found = _rows(ctx.db, step.target, columns, cursor)
        parents = [r[fk] for r in found]
        _attach(ctx, step.target, found, tree, step.deep)
        if fk not in tree:
            for r in found:
                r.pop(fk, None)
        for parent, item in zip(parents, found, strict=True):
            groups[parent].append(item)
    for row in rows:
        row[step.name] = groups[row["id"]]
