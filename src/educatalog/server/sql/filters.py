"""Filters and ``search`` as SQL conditions.

Every value travels as a parameter; identifiers come only from the catalogue and are
quoted. The semantics are those of ``docs/query-semantics.md``:

* three-valued logic: negated operators never match null fields;
* relational filters read the related item through an outer join, as Directus does: where a
  many-to-one reference is null or points to no item, the path's fields are null (so
  ``{"address": {"state": {"_null": true}}}`` matches events without an address); a
  one-to-many / many-to-many condition means "some related row matches", and an item
  without related rows matches where the condition holds on a row of nulls. ``_some`` and
  ``_none`` are plain (non-)existence: no row of nulls. Implicit conditions on the same
  relation within one ``_and`` hold on the same row;
* a condition on a field of a many-to-one relation's item that the rows carry as a copy
  (:mod:`~educatalog.server.sql.copied_fields`) reads the copy, which holds what the outer
  join gives;
* case-insensitive operators compare Unicode-lower-cased text (``edu_lower``), literally:
  ``%`` and ``_`` are not wildcards.
"""

from __future__ import annotations

import re

from educatalog.model.schema import SCHEMA, Collection, FieldType, Schema
from educatalog.query import And, Condition, Filter, Or, Related
from educatalog.server.sql.search_index import match_sql, searched_text_fields, trigram_query
from educatalog.server.sql.terms import SPECIAL_LOWERING, Sql, quote

__all__ = ["contains_ci", "null_row_sql", "search_sql", "where_sql"]

_LIKE_MAX = 1000


def where_sql(
    f: Filter | None, coll: Collection, alias: str, sql: Sql, schema: Schema = SCHEMA
) -> str:
    """The SQL condition of a (bound) filter on ``coll`` aliased as ``alias``."""
    if f is None:
        return "1"
    if isinstance(f, And):
        parts = [where_sql(i, coll, alias, sql, schema) for i in _merge_same_relation(f, coll)]
        return _balanced(parts, "AND") if parts else "1"
    if isinstance(f, Or):
        if not f.items:
            return "1"
        return _balanced([where_sql(i, coll, alias, sql, schema) for i in f.items], "OR")
    if isinstance(f, Related):
        return _related(f, coll, alias, sql, schema)
    special = sql.is_special(coll.name, f.field)
    return _condition(f, coll.field(f.field).type, f"{alias}.{quote(f.field)}", sql, special)


def _balanced(parts: list[str], op: str) -> str:
    """``(a OP b OP ...)`` as a balanced tree, so that SQLite's expression depth (1000) and
    parser stack stay logarithmic in the number of items."""
    if len(parts) <= 8:
        return "(" + f" {op} ".join(parts) + ")"
    middle = len(parts) // 2
    return f"({_balanced(parts[:middle], op)} {op} {_balanced(parts[middle:], op)})"


def _merge_same_relation(f: And, coll: Collection) -> list[Filter]:
    """Join conditions on the same list relation into one, so they hold on the same row."""
    out: list[Filter] = []
    merged: dict[str, int] = {}
    for item in f.items:
        if isinstance(item, Related) and item.quantifier is None:
            relation = coll.field(item.field).relation
            if relation is not None and relation.is_list:
                if item.field in merged:
                    i = merged[item.field]
                    prev = out[i]
                    assert isinstance(prev, Related)
                    out[i] = Related(item.field, And((prev.filter, item.filter)))
                    continue
                merged[item.field] = len(out)
        out.append(item)
    return out


def _related(f: Related, coll: Collection, alias: str, sql: Sql, schema: Schema) -> str:
    fld = coll.field(f.field)
    assert fld.relation is not None
    target = schema.expansion_target(fld)
    inner = sql.alias()
    # Parameters are registered in the order they appear in the SQL text: the matching
    # rows first, then the row of nulls.
    if fld.relation.kind == "m2o":
        inner_condition = f.filter
        if isinstance(inner_condition, Condition):
            # the related value copied into the row is what the outer join gives
            column = sql.copied_column(coll.name, fld.name, inner_condition.field)
            if column is not None:
                return _condition(
                    inner_condition,
                    target.field(inner_condition.field).type,
                    f"{alias}.{quote(column)}",
                    sql,
                    sql.is_special(target.name, inner_condition.field),
                )
        sub = where_sql(f.filter, target, inner, sql, schema)
        test = (
            f"{alias}.{quote(fld.name)} IN (SELECT {inner}.id FROM {quote(target.name)} "
            f"AS {inner} WHERE {sub})"
        )
        missing = (
            f"NOT EXISTS (SELECT 1 FROM {quote(target.name)} AS {inner}x "
            f"WHERE {inner}x.id = {alias}.{quote(fld.name)})"
        )
    else:
        fk = quote(fld.relation.foreign_key or "")
        sub = where_sql(f.filter, target, inner, sql, schema)
        negate = "NOT " if f.quantifier == "_none" else ""
        test = (
            f"{alias}.id {negate}IN (SELECT {inner}.{fk} FROM {quote(target.name)} AS {inner} "
            f"WHERE {inner}.{fk} IS NOT NULL AND {sub})"
        )
        if f.quantifier is not None:
            return test
        missing = (
            f"NOT EXISTS (SELECT 1 FROM {quote(target.name)} AS {inner}x "
            f"WHERE {inner}x.{fk} = {alias}.id)"
        )
    on_nulls = null_row_sql(f.filter, target, sql, schema)
    if on_nulls == "0":
        return test
    if on_nulls == "1":
        return f"({test} OR {missing})"
    return f"({test} OR ({missing} AND {on_nulls}))"


def null_row_sql(f: Filter, coll: Collection, sql: Sql, schema: Schema = SCHEMA) -> str:
    """Whether ``f`` holds on a row of nulls of ``coll`` (what an outer join gives where
    there is no related item): ``"1"``, ``"0"`` or, rarely, an SQL condition."""
    if isinstance(f, And | Or):
        if isinstance(f, Or) and not f.items:
            return "1"  # an empty _or is no condition
        absorbing, neutral = ("0", "1") if isinstance(f, And) else ("1", "0")
        parts: list[tuple[str, Sql]] = []
        for item in f.items:  # each built apart: a part that is dropped leaves no parameters
            part = sql.child()
            parts.append((null_row_sql(item, coll, part, schema), part))
            sql.aliases = part.aliases
            if parts[-1][0] == absorbing:
                return absorbing
        rest = [(text, part) for text, part in parts if text != neutral]
        if not rest:
            return neutral
        for _, part in rest:
            sql.adopt(part)
        return "(" + f" {'AND' if isinstance(f, And) else 'OR'} ".join(t for t, _ in rest) + ")"
    if isinstance(f, Condition):
        return "1" if _matches_null(f) else "0"
    fld = coll.field(f.field)
    assert fld.relation is not None
    target = schema.expansion_target(fld)
    if f.quantifier == "_some":
        return "0"
    if f.quantifier == "_none":  # Directus: NULL NOT IN (subquery) holds only when it is empty
        inner = sql.alias()
        fk = quote(fld.relation.foreign_key or "")
        sub = where_sql(f.filter, target, inner, sql, schema)
        return (
            f"NOT EXISTS (SELECT 1 FROM {quote(target.name)} AS {inner} "
            f"WHERE {inner}.{fk} IS NOT NULL AND {sub})"
        )
    return null_row_sql(f.filter, target, sql, schema)


def _matches_null(c: Condition) -> bool:
    """Whether a condition holds on a null field (SQL's unknown counts as false)."""
    if c.operator in ("_null", "_empty"):
        return bool(c.value)
    if c.operator in ("_nnull", "_nempty"):
        return not c.value
    return c.operator == "_eq" and c.value is None


def _condition(c: Condition, ftype: FieldType, col: str, sql: Sql, special: bool) -> str:
    op, value = c.operator, c.value
    if op in ("_eq", "_neq"):
        if value is None:
            return f"{col} IS {'' if op == '_eq' else 'NOT '}NULL"
        return f"{col} {'=' if op == '_eq' else '<>'} {sql.param(value)}"
    if op in _COMPARISONS:
        return f"{col} {_COMPARISONS[op]} {sql.param(value)}"
    if op in ("_in", "_nin"):
        assert isinstance(value, tuple)
        return f"{col} {'NOT ' if op == '_nin' else ''}IN {sql.in_list(value)}"
    if op in ("_between", "_nbetween"):
        assert isinstance(value, tuple)
        low, high = sql.param(value[0]), sql.param(value[1])
        return f"{col} {'NOT ' if op == '_nbetween' else ''}BETWEEN {low} AND {high}"
    if op in ("_null", "_nnull"):
        is_null = (op == "_null") == bool(value)
        return f"{col} IS {'' if is_null else 'NOT '}NULL"
    if op in ("_empty", "_nempty"):
        if (op == "_empty") == bool(value):
            return f"({col} IS NULL OR {col} = '')"
        return f"({col} IS NOT NULL AND {col} <> '')"
    assert isinstance(value, str), (op, value)
    return _text(op, value, col, sql, special)


_COMPARISONS = {"_lt": "<", "_lte": "<=", "_gt": ">", "_gte": ">="}

_TEXT_OPERATOR = re.compile(r"_(n?)(i?)(contains|starts_with|ends_with)")


def _text(op: str, value: str, col: str, sql: Sql, special: bool) -> str:
    match = _TEXT_OPERATOR.fullmatch(op)
    assert match, op
    negated, insensitive, kind = bool(match[1]), bool(match[2]), match[3]
    if kind == "contains" and insensitive:
        test = contains_ci(col, value, sql, special)
        return f"NOT {test}" if negated else test
    subject = f"edu_lower({col})" if insensitive else col
    needle = value.lower() if insensitive else value
    if kind == "contains":
        return f"instr({subject}, {sql.param(needle)}) {'=' if negated else '>'} 0"
    start = "1" if kind == "starts_with" else f"-{len(needle)}"
    compare = "<>" if negated else "="
    return f"substr({subject}, {start}, {len(needle)}) {compare} {sql.param(needle)}"


def contains_ci(col: str, text: str, sql: Sql, special: bool = True) -> str:
    """``col`` contains ``text``, case-insensitively (null when ``col`` is null).

    Exact Unicode lower-casing needs a Python call per row (``edu_lower``). SQLite's ``LIKE``
    folds ASCII letters only, but runs in C: with each non-ASCII character of the needle as
    the one-character wildcard ``_``, it is a cheap necessary condition, and for an ASCII
    needle a sufficient one, unless the text holds one of the two characters whose lower
    case is ASCII. In a ``special`` column, that is tested row by row.
    """
    needle = text.lower()
    if len(needle) > _LIKE_MAX:
        return f"(instr(edu_lower({col}), {sql.param(needle)}) > 0)"
    # Parameters are registered in the order they appear in the SQL text.
    guard = exact_then = ""
    if special:
        guard = " OR ".join(f"instr({col}, {sql.param(ch)}) > 0" for ch in SPECIAL_LOWERING)
        exact_then = f"(instr(edu_lower({col}), {sql.param(needle)}) > 0)"
    pattern = "".join(_like_char(ch) for ch in needle)
    test = f"{col} LIKE {sql.param('%' + pattern + '%')} ESCAPE '\\'"
    if not needle.isascii():
        test = f"({test} AND instr(edu_lower({col}), {sql.param(needle)}) > 0)"
    return f"(CASE WHEN {guard} THEN {exact_then} ELSE {test} END)" if special else test


def _like_char(ch: str) -> str:
    if not ch.isascii():
        return "_"
    return "\\" + ch if ch in "\\%_" else ch


_CANONICAL_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?")
# What Directus's search takes for a UUID (the `uuid` package's validate): the hyphenated
# form, version 1-8 and the RFC variant, or the nil and max UUIDs; any case.
_SEARCH_UUID = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"
    r"|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff",
    re.IGNORECASE | re.ASCII,
)


def search_sql(text: str, coll: Collection, alias: str, sql: Sql, *, reads_all: bool = True) -> str:
    """Full-text ``search`` over the root item's own fields: text fields by substring,
    numeric fields by equality with a canonical number, uuid fields by equality with a
    whole valid UUID (never a part of one).

    The text fields' condition is asked only of the rows that the collection's search index
    names, when ``sql.prefilter`` finds that it narrows the search (``reads_all``: the
    statement reads every match, not a page of them)."""
    if not text.strip():
        return "0"
    number: int | float | None = None
    if _CANONICAL_NUMBER.fullmatch(text) and text != "-0" and ("." in text or len(text) <= 20):
        number = float(text) if "." in text else int(text)
        if isinstance(number, int) and not -(2**63) <= number < 2**63:
            number = None  # no stored integer is that large
    # Parameters are registered in the order they appear in the SQL text.
    texts = searched_text_fields(coll)
    prefilter = sql.prefilter
    narrowed = ""
    if (
        texts
        and prefilter is not None
        and not any(sql.is_special(coll.name, f.name) for f in texts)
    ):
        query = trigram_query(text)
        if query is not None and prefilter(coll, query, reads_all):
            narrowed = match_sql(coll, f"{alias}.id", sql.param(query))
    text_parts = [
        contains_ci(f"{alias}.{quote(f.name)}", text, sql, sql.is_special(coll.name, f.name))
        for f in texts
    ]
    parts = []
    if text_parts:
        either = " OR ".join(text_parts)
        parts.append(f"({narrowed} AND ({either}))" if narrowed else either)
    for f in coll.stored_fields:
        col = f"{alias}.{quote(f.name)}"
        if f.type is FieldType.UUID:
            if _SEARCH_UUID.fullmatch(text):
                parts.append(f"{col} = {sql.param(text.lower())}")
        elif f.type.is_numeric and number is not None:
            parts.append(f"{col} = {sql.param(number)}")
    return "(" + " OR ".join(parts) + ")" if parts else "0"
