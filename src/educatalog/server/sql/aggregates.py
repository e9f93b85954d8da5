"""``aggregate`` and ``groupBy`` as SQL: one JSON object a group, written by SQLite as
Directus on PostgreSQL writes it (counts and sums as text, averages with PostgreSQL's
scale through ``edu_average``, minima and maxima as the field's own values)."""

from __future__ import annotations

from typing import Any

from educatalog.model.schema import SCHEMA, Collection, Field, FieldType, Schema
from educatalog.query import AggregateKey, BoundQuery
from educatalog.server.sql.reads import where_and_search_sql
from educatalog.server.sql.terms import Layout, SearchPrefilter, Sql, json_value_sql, quote

__all__ = ["aggregate_sql"]


def aggregate_sql(
    bound: BoundQuery,
    schema: Schema = SCHEMA,
    layout: Layout | None = None,
    *,
    prefilter: SearchPrefilter | None = None,
) -> tuple[str, list[Any]]:
    """The groups of an aggregate query (``bound.aggregate``) as one JSON array: filter and
    search, then the groups with their values, sorted, limited and offset."""
    aggregate = bound.aggregate
    assert aggregate is not None
    coll = bound.collection
    sql = Sql(layout or Layout(), prefilter=prefilter)
    where = where_and_search_sql(bound, sql, schema)
    pairs = [
        f"'{name}', {json_value_sql(coll.field(name), f't0.{quote(name)}')}"
        for name in aggregate.group_by
    ]
    by_function: dict[str, list[str]] = {}
    for function, name in aggregate.functions:
        by_function.setdefault(function, []).append(name)
    for function, names in by_function.items():
        if function == "count" and names == ["*"] * len(names):
            pairs.append(f"'count', {_value(function, '*', coll)}")
            continue
        # Directus nests a function's values by field; `count=*` beside fields is lost
        shown = [n for n in names if n != "*"] if function == "count" else names
        inner = ", ".join(f"'{n}', {_value(function, n, coll)}" for n in dict.fromkeys(shown))
        pairs.append(f"'{function}', json_object({inner})")
    text = f"SELECT json_object({', '.join(pairs)}) AS item FROM {quote(coll.name)} AS t0"
    text += f" WHERE {where}"
    if aggregate.group_by:
        columns = ", ".join(f"t0.{quote(name)}" for name in aggregate.group_by)
        ties = [AggregateKey(n) for n in aggregate.group_by]
        keys = list(dict.fromkeys([*aggregate.sort, *ties]))
        order = ", ".join(_order(key, coll) for key in keys)
        text += f" GROUP BY {columns} ORDER BY {order}"
    limit = sql.param(-1 if bound.limit is None else bound.limit)
    text += f" LIMIT {limit} OFFSET {sql.param(bound.offset)}"
    return f"SELECT json_group_array(json(item)) FROM ({text})", sql.params


def _units(f: Field, distinct: str) -> str:
    """A decimal field's values as whole units of its scale (exact sums), or an integer's."""
    column = f"t0.{quote(f.name)}"
    if f.type is FieldType.DECIMAL:
        return f"{distinct}CAST(round({column} * {10 ** (f.scale or 2)}) AS INTEGER)"
    return f"{distinct}{column}"


def _value(function: str, name: str, coll: Collection) -> str:
    """SQL for one function's value in the service's JSON representation."""
    if name == "*":
        return "CAST(count(*) AS TEXT)"
    f = coll.field(name)
    column = f"t0.{quote(name)}"
    distinct = "DISTINCT " if function.endswith("Distinct") else ""
    scale = (f.scale or 2) if f.type is FieldType.DECIMAL else 0
    if function in ("count", "countDistinct"):
        return f"CAST(count({distinct}{column}) AS TEXT)"
    if function in ("sum", "sumDistinct"):
        return f"edu_numeric(sum({_units(f, distinct)}), {scale})"
    if function in ("avg", "avgDistinct"):
        units = _units(f, distinct)
        return f"edu_average(sum({units}), count({units}), {scale})"
    return json_value_sql(f, f"{function}({column})")  # min, max


def _order(key: AggregateKey, coll: Collection) -> str:
    """An ORDER BY term: PostgreSQL's order, nulls last ascending and first descending."""
    direction = "DESC NULLS FIRST" if key.descending else "ASC NULLS LAST"
    column = "*" if key.field == "*" else f"t0.{quote(key.field)}"
    if key.function is None:
        return f"{column} {direction}"
    function = key.function.removesuffix("Distinct")
    distinct = "DISTINCT " if key.function.endswith("Distinct") and column != "*" else ""
    return f"{function}({distinct}{column}) {direction}"
