"""The reads of a request as SQL: the root page, counts, items by id, the rows of relations
and the number of objects an answer is written as."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from educatalog.model.schema import SCHEMA, Collection, Field, Schema
from educatalog.query import NESTED_LIMIT, BoundQuery, expanded_relations
from educatalog.server.sql.filters import search_sql, where_sql
from educatalog.server.sql.terms import Layout, SearchPrefilter, Sql, json_value_sql, quote

__all__ = [
    "ObjectCount",
    "RowObject",
    "by_ids_sql",
    "children_sql",
    "count_sql",
    "flat_item_sql",
    "item_sql",
    "json_rows_sql",
    "objects_total_sql",
    "page_sql",
    "sorted_by_id_only",
    "where_and_search_sql",
]


def where_and_search_sql(
    bound: BoundQuery, sql: Sql, schema: Schema, *, reads_all: bool = True
) -> str:
    """The condition of a query's filter and search on its collection as ``t0``
    (``reads_all``: the statement reads every match, not the first page of them)."""
    where = where_sql(bound.filter, bound.collection, "t0", sql, schema)
    if bound.search is not None:
        search = search_sql(bound.search, bound.collection, "t0", sql, reads_all=reads_all)
        where = f"{where} AND {search}"
    return where


def count_sql(
    bound: BoundQuery,
    schema: Schema = SCHEMA,
    layout: Layout | None = None,
    *,
    prefilter: SearchPrefilter | None = None,
) -> tuple[str, list[Any]]:
    """``SELECT count(*)`` of the rows matching filter and search (``filter_count``)."""
    sql = Sql(layout or Layout(), prefilter=prefilter)
    where = where_and_search_sql(bound, sql, schema)
    return f"SELECT count(*) FROM {quote(bound.collection.name)} AS t0 WHERE {where}", sql.params


def sorted_by_id_only(bound: BoundQuery) -> bool:
    """True when the query's order is the primary key's (the default)."""
    return not bound.random and all(key.path == ("id",) for key in bound.sort)


def page_sql(
    bound: BoundQuery,
    columns: list[str],
    schema: Schema = SCHEMA,
    layout: Layout | None = None,
    *,
    scan_in_id_order: bool = False,
    select: str | None = None,
    prefilter: SearchPrefilter | None = None,
    reads_all: bool | None = None,
) -> tuple[str, list[Any]]:
    """The root ``SELECT`` of a list query: filter, search, sort, limit and offset.

    ``select`` replaces the list of ``columns`` of the root table ``t0`` by an expression;
    ``prefilter`` decides whether a search is narrowed by its search index first, knowing
    whether the statement reads every match (``reads_all``; None: unless it reads the
    first ``limit`` in id order; True also when the matches are known to be few).

    ``scan_in_id_order`` forbids indexes on the root table (lookups by id still work), so
    that a page in id order is read by walking the table in that order and stops after
    ``limit`` matches, where SQLite's planner would collect and sort every match.
    Otherwise a filtered or sorted page is read in two steps: its ids, then its rows.
    """
    sql = Sql(layout or Layout(), prefilter=prefilter)
    if reads_all is None:
        reads_all = bound.limit is None or not sorted_by_id_only(bound)
    where = where_and_search_sql(bound, sql, schema, reads_all=reads_all)
    joins: dict[tuple[str, ...], str] = {}
    join_sql: list[str] = []
    order: list[str] = []
    for key in bound.sort:
        alias, coll = "t0", bound.collection
        for depth, part in enumerate(key.path[:-1], start=1):
            prefix = key.path[:depth]
            fld = coll.field(part)
            target = schema.expansion_target(fld)
            if prefix not in joins:
                joins[prefix] = f"s{len(joins) + 1}"
                join_sql.append(
                    f"LEFT JOIN {quote(target.name)} AS {joins[prefix]} "
                    f"ON {joins[prefix]}.id = {alias}.{quote(part)}"
                )
            alias, coll = joins[prefix], target
        direction = "DESC NULLS FIRST" if key.descending else "ASC NULLS LAST"
        order.append(f"{alias}.{quote(key.path[-1])} {direction}")
    if bound.random:
        order.append("random()")
    if not any(key.path == ("id",) for key in bound.sort):
        order.append("t0.id ASC")
    ids_alone = select is None and columns == ["id"]  # nothing to read by id afterwards
    if select is None:
        select = ", ".join(f"t0.{quote(c)}" for c in columns)
    table = quote(bound.collection.name)
    source = f"{table} AS t0" + (" NOT INDEXED" if scan_in_id_order else "")
    limit = sql.param(-1 if bound.limit is None else bound.limit)
    rows = (
        f"FROM {source} {' '.join(join_sql)} WHERE {where} "
        f"ORDER BY {', '.join(order)} LIMIT {limit} OFFSET {sql.param(bound.offset)}"
    )
    whole = bound.filter is None and bound.search is None
    if bound.random or scan_in_id_order or (whole and sorted_by_id_only(bound)) or ids_alone:
        return f"SELECT {select} {rows}", sql.params
    # Sorted by other keys than id, or filtered: the ids of the page first, sorted with
    # their keys alone (from an index that covers the filter, where there is one), then the
    # page's rows by id, in that order (the left side of a CROSS JOIN is SQLite's outer
    # loop). A sort of full rows carried every column of every match. A page of ids alone
    # is read in one step: the rows' lookup by id was a third of a state's fields=id.
    return (
        f"SELECT {select} FROM (SELECT t0.id AS _k {rows}) AS _p "
        f"CROSS JOIN {table} AS t0 ON t0.id = _p._k",
        sql.params,
    )


def json_rows_sql(page: str, item: str, *, joined: bool) -> str:
    """The rows of ``page`` (aliased ``t0``) as JSON objects built by SQLite from ``item``
    (a ``json_object``), as bytes: one text of all of them joined by commas (``joined``:
    the members of the page's JSON array, without its brackets; NULL for no rows) and how
    many they are, or one JSON text a row (a streamed answer's pieces).

    The objects are joined as text, not re-read as JSON (``json_group_array(json(...))``
    parsed every object once more: 40 % of the time of a page), and come out as a BLOB,
    which Python takes as bytes without decoding UTF-8 (and the server without encoding
    it again). The brackets are the caller's: ``'[' || ... || ']'`` copied the whole text
    twice more (a third of a page of 1,000 events)."""
    if joined:
        return f"SELECT CAST(group_concat({item}, ',') AS BLOB), count(*) FROM ({page}) AS t0"
    return f"SELECT CAST({item} AS BLOB) FROM ({page}) AS t0"


@dataclass(frozen=True)
class RowObject:
    """What SQLite writes a row of ``coll`` as (:func:`flat_item_sql`): its stored
    ``columns`` in order, a many-to-one column named in ``related`` as the related row's
    object (null where there is none), then each list relation ``(field, target
    collection, cap per parent)`` in ``lists`` as its ids, in id order."""

    coll: Collection
    columns: list[str]
    lists: list[tuple[Field, str, int]]
    related: dict[str, RowObject] = field(default_factory=dict)


def flat_item_sql(row: RowObject, alias: str = "t0") -> str:
    """The ``json_object`` of ``row`` read from the table aliased ``alias``.

    A related row is the object of a subquery by id, re-read with ``json()``: a JSON value
    that comes out of a subquery is text to ``json_object`` in SQLite since 3.39, which
    would write it as a string. Its alias extends its parent's (``t0_2``, ``t0_2_1``), so
    that every table of the statement has a name of its own."""
    coll = row.coll
    pairs: list[str] = []
    for position, name in enumerate(row.columns, start=1):
        column = f"{alias}.{quote(name)}"
        sub = row.related.get(name)
        if sub is None:
            pairs.append(f"'{name}', {json_value_sql(coll.field(name), column)}")
            continue
        inner = f"{alias}_{position}"
        obj = flat_item_sql(sub, inner)
        target = quote(sub.coll.name)
        pairs.append(
            f"'{name}', json((SELECT {obj} FROM {target} AS {inner} WHERE {inner}.id = {column}))"
        )
    for n, (fld, target, limit) in enumerate(row.lists, start=1):
        assert fld.relation is not None
        fk = quote(fld.relation.foreign_key or "")
        ids = f"{alias}_l{n}"
        listed = (
            f"(SELECT json_group_array({ids}.id) FROM (SELECT id FROM {quote(target)} "
            f"WHERE {fk} = {alias}.id ORDER BY id LIMIT {int(limit)}) AS {ids})"
        )
        pairs.append(f"'{fld.name}', json({listed})")
    return f"json_object({', '.join(pairs)})"


def item_sql(coll: Collection, columns: list[str]) -> str:
    """One item by its id (the parameter)."""
    select = ", ".join(f"t0.{quote(c)}" for c in columns)
    return f"SELECT {select} FROM {quote(coll.name)} AS t0 WHERE t0.id = ?"


def by_ids_sql(coll: Collection, columns: list[str]) -> str:
    """The items whose ids are in the parameter (a JSON array): many-to-one targets."""
    select = ", ".join(f"t.{quote(c)}" for c in columns)
    return (
        f"SELECT {select} FROM {quote(coll.name)} AS t "
        "WHERE t.id IN (SELECT value FROM json_each(?))"
    )


def children_sql(coll: Collection, columns: list[str], foreign_key: str, capped: bool) -> str:
    """The rows of ``coll`` whose ``foreign_key`` is in the first parameter (a JSON array of
    parent ids), ordered by parent and id; ``capped``: at most the second parameter a
    parent (a window function numbers each parent's rows)."""
    fk = quote(foreign_key)
    select = ", ".join(f"t.{quote(c)}" for c in columns)
    source = (
        f"SELECT {select} FROM {quote(coll.name)} AS t "
        f"WHERE t.{fk} IN (SELECT value FROM json_each(?))"
    )
    if capped:
        names = ", ".join(quote(c) for c in columns)
        source = (
            f"SELECT {names} FROM (SELECT {select}, ROW_NUMBER() OVER "
            f"(PARTITION BY t.{fk} ORDER BY t.id) AS _n FROM {quote(coll.name)} AS t "
            f"WHERE t.{fk} IN (SELECT value FROM json_each(?))) WHERE _n <= ?"
        )
    return f"{source} ORDER BY {fk}, id"


def objects_total_sql(page: str) -> str:
    """The sum of the column ``n`` over the rows of ``page``."""
    return f"SELECT total(n) FROM ({page})"


class ObjectCount:
    """SQL for the number of JSON objects a row is written as, with the relations of a
    field tree expanded (each nested object counted every time it is written)."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.aliases = 0

    def size(self, coll: Collection, alias: str, tree: Any, deep: Any) -> str:
        """The count for the row of ``coll`` aliased ``alias``, with the selection ``tree``
        (a :data:`~educatalog.query.FieldTree`) and its ``deep``."""
        parts = ["1"]
        for rel in expanded_relations(tree, coll, deep, self.schema):
            self.aliases += 1
            a = f"o{self.aliases}"
            inner = self.size(rel.target, a, rel.tree, rel.deep)
            table = quote(rel.target.name)
            if rel.relation.kind == "m2o":
                parts.append(
                    f"coalesce((SELECT {inner} FROM {table} AS {a} "
                    f"WHERE {a}.id = {alias}.{quote(rel.name)}), 0)"
                )
                continue
            limit = rel.deep.get("_limit", NESTED_LIMIT)
            if limit == 0:
                continue
            fk = quote(rel.relation.foreign_key or "")
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
