"""How many JSON objects a list answer is written as, settled before any of it is built:
an upper bound from the page size and the most related rows per parent (:func:`most_objects`),
counted exactly in SQL where the bound is too high (:func:`check_objects`), and counted on
rows built in Python before they are serialized (:func:`check_size`). An answer over the
server's limit (``Limits.max_objects``) is refused with the reason (:func:`too_many`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from educatalog.errors import InvalidQuery
from educatalog.model.schema import Collection
from educatalog.query import NESTED_LIMIT, BoundQuery, FieldTree, expanded_relations
from educatalog.server import sql
from educatalog.server.context import Context
from educatalog.server.store import Database

__all__ = [
    "check_objects",
    "check_size",
    "most_objects",
    "objects_per_row",
    "page_objects",
    "too_many",
]


def too_many(total: int, most: int) -> InvalidQuery:
    """The error refusing an answer of ``total`` objects, over the server's limit ``most``: it
    names both and suggests fewer relations or a smaller limit."""
    return InvalidQuery(
        f"The answer would hold {total:,} objects, more than {most:,}: "
        "select fewer relations, or ask for fewer items with limit."
    )


def check_objects(ctx: Context, bound: BoundQuery) -> None:
    """Refuse a list answer that would hold too many objects, before any of it is built.

    An upper bound from the page size and the most related rows per parent settles almost
    every query; beyond it, SQL counts the objects exactly, without building them.
    """
    coll = bound.collection
    most = ctx.limits.max_objects
    if not any(coll.field(name).relation is not None for name in bound.fields):
        return  # flat rows are one object each: nothing to count
    bound_objects = most_objects(ctx.db, bound, ctx.conn)
    if bound_objects is not None and bound_objects <= most:
        return
    counter = sql.ObjectCount(ctx.db.schema)
    expression = counter.size(coll, "t0", bound.fields, bound.deep)
    text, params = sql.page_sql(
        bound,
        ["id"],
        ctx.db.schema,
        ctx.db.layout,
        select=f"{expression} AS n",
        prefilter=ctx.prefilter,
    )
    total = ctx.conn.execute(sql.objects_total_sql(text), params).fetchone()[0]
    if total > most:
        raise too_many(int(total), most)


def most_objects(
    db: Database, bound: BoundQuery, conn: sqlite3.Connection | None = None
) -> int | None:
    """The most JSON objects a list answer can hold: its most rows (its limit, or the
    collection's rows past its offset) times the most objects a row is written as. With
    no ``conn``, from the counts the database has read already: None while one is not
    known (nothing is read to tell it)."""
    coll = bound.collection
    total = db.total_count(coll.name, conn) if conn is not None else db.known_total(coll.name)
    per_row = objects_per_row(db, conn, coll, bound.fields, bound.deep)
    if total is None or per_row is None:
        return None
    return page_objects(bound, total, per_row)


def page_objects(bound: BoundQuery, total: int, per_row: int) -> int:
    """The most objects a page of ``bound`` holds in a collection of ``total`` rows: its
    most rows (its limit, or the rows past its offset) times ``per_row``."""
    rows = max(0, total - bound.offset)
    return (rows if bound.limit is None else min(bound.limit, rows)) * per_row


def objects_per_row(
    db: Database,
    conn: sqlite3.Connection | None,
    coll: Collection,
    tree: FieldTree,
    deep: Mapping[str, Any],
) -> int | None:
    """The most objects one row of ``coll`` can be written as, with the relations of
    ``tree`` (None: unknown without ``conn``, see :func:`most_objects`)."""
    out = 1
    for rel in expanded_relations(tree, coll, deep, db.schema):
        per = objects_per_row(db, conn, rel.target, rel.tree, rel.deep)
        if per is None:
            return None
        if rel.relation.kind == "m2o":
            out += per
            continue
        key = rel.relation.foreign_key or ""
        most = (
            db.most_children(rel.target.name, key, conn)
            if conn is not None
            else db.known_most_children(rel.target.name, key)
        )
        if most is None:
            return None
        limit = rel.deep.get("_limit", NESTED_LIMIT)
        out += (most if limit < 0 else min(limit, most)) * per
    return out


def check_size(rows: list[dict[str, Any]], most: int) -> None:
    """Refuse an answer that would hold more than ``most`` objects, before it is serialized.

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
    if total > most:
        raise too_many(total, most)
