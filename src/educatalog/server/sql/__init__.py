"""Every SQL text the reference server runs, and nowhere else: bound queries
(:mod:`educatalog.query`) compiled into parameterised SQLite SQL, the reads of relations and
items, aggregates, and the statements that build a database.

``terms`` (quoted identifiers, values as JSON, :class:`Sql` with its parameters),
``filters`` (filters and ``search`` as conditions), ``reads`` (pages, counts, items,
relations, objects), ``aggregates`` (``aggregate`` and ``groupBy``) and ``tables`` (the
database's tables, rows and indexes). Import the names from ``educatalog.server.sql``.
"""

from __future__ import annotations

from educatalog.server.sql.aggregates import aggregate_sql
from educatalog.server.sql.filters import contains_ci, null_row_sql, search_sql, where_sql
from educatalog.server.sql.reads import (
    ObjectCount,
    by_ids_sql,
    children_sql,
    count_sql,
    flat_item_sql,
    item_sql,
    json_rows_sql,
    objects_total_sql,
    page_sql,
    sorted_by_id_only,
    where_and_search_sql,
)
from educatalog.server.sql.tables import (
    ANALYZE,
    BUILD_PRAGMAS,
    CREATE_INFO_TABLE,
    CREATE_SPECIAL_TEXT_TABLE,
    INFO_TABLE,
    INSERT_INFO,
    INSERT_SPECIAL_TEXT,
    NO_MEMORY_MAP,
    QUERY_ONLY,
    SELECT_INDEX_STATISTICS,
    SELECT_INFO,
    SELECT_SPECIAL_TEXT,
    SELECT_TABLE_NAMES,
    SPECIAL_TEXT_TABLE,
    all_rows_sql,
    cache_size_sql,
    create_index_sql,
    create_table_sql,
    holds_special_text_sql,
    ids_sql,
    index_info_sql,
    insert_sql,
    most_children_sql,
    total_count_sql,
)
from educatalog.server.sql.terms import SPECIAL_LOWERING, Sql, json_value_sql, quote

__all__ = [
    "ANALYZE",
    "BUILD_PRAGMAS",
    "CREATE_INFO_TABLE",
    "CREATE_SPECIAL_TEXT_TABLE",
    "INFO_TABLE",
    "INSERT_INFO",
    "INSERT_SPECIAL_TEXT",
    "NO_MEMORY_MAP",
    "QUERY_ONLY",
    "SELECT_INDEX_STATISTICS",
    "SELECT_INFO",
    "SELECT_SPECIAL_TEXT",
    "SELECT_TABLE_NAMES",
    "SPECIAL_LOWERING",
    "SPECIAL_TEXT_TABLE",
    "ObjectCount",
    "Sql",
    "aggregate_sql",
    "all_rows_sql",
    "by_ids_sql",
    "cache_size_sql",
    "children_sql",
    "contains_ci",
    "count_sql",
    "create_index_sql",
    "create_table_sql",
    "flat_item_sql",
    "holds_special_text_sql",
    "ids_sql",
    "index_info_sql",
    "insert_sql",
    "item_sql",
    "json_rows_sql",
    "json_value_sql",
    "most_children_sql",
    "null_row_sql",
    "objects_total_sql",
    "page_sql",
    "quote",
    "search_sql",
    "sorted_by_id_only",
    "total_count_sql",
    "where_and_search_sql",
    "where_sql",
]
