"""Read items for a bound query: the root page, then each selected relation, nested.

Relations are fetched one query per relation and level (never one per item): many-to-one
targets by id, one-to-many and many-to-many rows by foreign key with a per-parent cap
(100 unless ``deep[rel][_limit]`` says otherwise), in id order.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

import orjson

from educatalog.catalogue import Collection
from educatalog.errors import InvalidQuery, NotFoundOrForbidden
from educatalog.query import NESTED_LIMIT, And, BoundQuery, Condition, FieldTree, Filter
from educatalog.server.sql import count_sql, page_sql, sorted_by_id_only
from educatalog.server.store import Database, json_value_sql, quote

__all__ = ["read_item", "read_items", "read_items_json"]

Row = dict[str, Any]


def read_items(db: Database, bound: BoundQuery) -> tuple[list[Row], dict[str, int]]:
    """The page of items and the requested meta counts for a list query."""
    coll = bound.collection
    meta = _meta(db, bound)
    conn = db.connection()
    if bound.limit == 0:
        return [], meta
    columns = _columns(coll, bound.fields)
    rows = _rows(db, coll, columns, _page(db, conn, bound, columns))
    _attach(db, coll, rows, bound.fields, bound.deep)
    if any(coll.field(name).relation is not None for name in bound.fields):
        _check_size(rows)  # flat rows are one object each: nothing to count
    return rows, meta


def read_items_json(db: Database, bound: BoundQuery) -> tuple[bytes, dict[str, int]] | None:
    """The page as a JSON array already serialized by SQLite, for a selection of plain
    columns (no relations); None for other selections (use :func:`read_items`).

    Whole-collection downloads are pages of plain columns: building a dict per row and
    serializing it in Python cost the server more than reading the rows.
    """
    coll = bound.collection
    for name, sub in bound.fields.items():
        if sub is not None or not coll.field(name).is_stored:
            return None  # an expanded or a list relation
    meta = _meta(db, bound)
    if bound.limit == 0:
        return b"[]", meta
    columns = [name for name in _columns(coll, bound.fields) if name in bound.fields]
    pairs = ", ".join(
        f"'{name}', {json_value_sql(coll.field(name), f't0.{quote(name)}')}" for name in columns
    )
    # One aggregate row: SQLite builds the whole array in a single step, without the GIL.
    # The page query has a LIMIT, so it is never flattened: rows arrive in its ORDER BY.
    rows = _page(
        db,
        db.connection(),
        bound,
        columns,
        select=f"json_object({pairs}) AS item",
        wrap="SELECT json_group_array(json(item)) FROM ({})",
    )
    (array,) = next(iter(rows))
    return array.encode(), meta


def _meta(db: Database, bound: BoundQuery) -> dict[str, int]:
    meta: dict[str, int] = {}
    if "total_count" in bound.meta:
        meta["total_count"] = db.total_count(bound.collection.name)
    if "filter_count" in bound.meta:
        text, params = count_sql(bound, db.catalogue, db.special_text)
        meta["filter_count"] = db.connection().execute(text, params).fetchone()[0]
    return meta


MAX_RESPONSE_OBJECTS = 5_000_000
"""JSON objects one answer may hold, nested ones counted each time they are written."""


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
        raise InvalidQuery(
            f"The answer would hold {total:,} objects, more than {MAX_RESPONSE_OBJECTS:,}: "
            "select fewer relations, or ask for fewer items with limit."
        )


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
    *,
    select: str | None = None,
    wrap: str = "{}",
) -> Any:
    """The root rows of a page.

    SQLite's planner ignores ``LIMIT`` when it picks an index: for a wide filter in id order
    (a state, a year) it collects and sorts every match, where walking the table in id order
    stops after one page. For a narrow filter (one course) the index wins by far. So a page
    in id order goes straight to the planner when an equality on an indexed column promises
    few rows (``_selective``); otherwise it first walks the table within a step budget and
    falls back to the planner's plan when the budget runs out (the matches are then few).
    """
    walk = bound.limit is not None and sorted_by_id_only(bound) and (bound.filter or bound.search)
    if walk and not _selective(bound.filter, db, bound.collection.name):
        text, params = page_sql(
            bound, columns, db.catalogue, db.special_text, scan_in_id_order=True, select=select
        )
        text = wrap.format(text)
        steps = 0

        def budget() -> int:
            nonlocal steps
            steps += 1
            return steps > ID_SCAN_BUDGET // _BUDGET_STEP

        conn.set_progress_handler(budget, _BUDGET_STEP)
        try:
            return conn.execute(text, params).fetchall()
        except sqlite3.OperationalError as exc:
            if "interrupted" not in str(exc):
                raise
        finally:
            conn.set_progress_handler(None, 0)
    text, params = page_sql(bound, columns, db.catalogue, db.special_text, select=select)
    return conn.execute(wrap.format(text), params)


def read_item(
    db: Database, coll: Collection, item_id: int, fields: FieldTree, deep: Mapping[str, Any]
) -> Row:
    """One item by id; a missing item is a 403, as the service answers."""
    columns = _columns(coll, fields)
    select = ", ".join(f"t0.{quote(c)}" for c in columns)
    cursor = db.connection().execute(
        f"SELECT {select} FROM {quote(coll.name)} AS t0 WHERE t0.id = ?", (item_id,)
    )
    rows = _rows(db, coll, columns, cursor)
    if not rows:
        raise NotFoundOrForbidden(
            f'You don\'t have permission to access item {item_id} of collection "{coll.name}" '
            "or it does not exist."
        )
    _attach(db, coll, rows, fields, deep)
    _check_size(rows)
    return rows[0]


def _columns(coll: Collection, tree: FieldTree) -> list[str]:
    """Stored columns to select for a field tree: the selected ones, and always ``id``."""
    return ["id", *(f.name for f in coll.stored_fields if f.name in tree and f.name != "id")]


def _rows(db: Database, coll: Collection, columns: list[str], cursor: Any) -> list[Row]:
    converters = db.converters[coll.name]
    pairs = [(c, converters[c]) for c in columns]
    if not any(conv for _, conv in pairs):
        return [dict(zip(columns, row, strict=True)) for row in cursor]
    return [
        {c: (conv(v) if conv else v) for (c, conv), v in zip(pairs, row, strict=True)}
        for row in cursor
    ]


def _attach(
    db: Database, coll: Collection, rows: list[Row], tree: FieldTree, deep: Mapping[str, Any]
) -> None:
    """Fill in the relations of ``tree`` on ``rows``, then drop columns not asked for."""
    if rows:
        for name, sub in tree.items():
            fld = coll.field(name)
            if fld.relation is None:
                continue
            target = db.catalogue.expansion_target(fld)
            sub_deep = deep.get(name, {})
            if fld.relation.kind == "m2o":
                if sub is not None:
                    _attach_many_to_one(db, target, rows, name, sub, sub_deep)
            else:
                limit = sub_deep.get("_limit", NESTED_LIMIT)
                fk = fld.relation.foreign_key or ""
                _attach_list(db, target, rows, name, fk, sub, sub_deep, limit)
    if "id" not in tree:
        for row in rows:
            del row["id"]


def _json_ids(values: set[Any]) -> str:
    return orjson.dumps(sorted(values)).decode()


def _attach_many_to_one(
    db: Database,
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
        cursor = db.connection().execute(
            f"SELECT {select} FROM {quote(target.name)} AS t "
            "WHERE t.id IN (SELECT value FROM json_each(?))",
            (_json_ids(keys),),
        )
        found = _rows(db, target, columns, cursor)
        ids = [r["id"] for r in found]
        _attach(db, target, found, tree, deep)
        related = dict(zip(ids, found, strict=True))
    for row in rows:
        row[name] = related.get(row[name])  # a missing target is null


def _attach_list(
    db: Database,
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
    cursor = db.connection().execute(f"{source} ORDER BY {quote(fk)}, id", params)
    groups: dict[Any, list[Any]] = {row["id"]: [] for row in rows}
    if tree is None:
        for item_id, parent in cursor:
            groups[parent].append(item_id)
    else:
        found = _rows(db, target, columns, cursor)
        parents = [r[fk] for r in found]
        _attach(db, target, found, tree, deep)
        if fk not in tree:
            for r in found:
                r.pop(fk, None)
        for parent, item in zip(parents, found, strict=True):
            groups[parent].append(item)
    for row in rows:
        row[name] = groups[row["id"]]
