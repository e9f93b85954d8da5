"""Rows written as JSON once, when the database is built: a table a collection of its rows'
objects (every stored field, as a page of them writes them), by id.

A whole collection is downloaded as pages of every stored field (``educatalog.load``,
``load_catalogue``, the careful user's loop). SQLite's ``json_object`` wrote their objects
for every request at some 50 to 110 MB/s, the largest share of the server's time in a
download; read from this table, the same bytes come at several hundred MB/s
(``benchmarks/load.py``). The price is space: the table is about as large as its
collection's own.

What a row's object is depends on how this educatalog writes JSON
(:func:`~educatalog.server.sql.terms.json_value_sql`), so the database records the
expression that wrote each table (:data:`WRITTEN_ROWS_TABLE`), and a table is read only
where that is the expression this educatalog would use (:func:`written_object_sql`). A
database built without the tables, or by an educatalog that wrote its rows otherwise, has
its objects written per request, as before: the same bytes, more slowly.
"""

from __future__ import annotations

from educatalog.model.schema import Collection
from educatalog.server.sql.reads import RowObject, flat_item_sql
from educatalog.server.sql.terms import quote

__all__ = [
    "CREATE_WRITTEN_ROWS_TABLE",
    "INSERT_WRITTEN_ROWS",
    "SELECT_WRITTEN_ROWS",
    "WRITTEN_ROWS_PREFIX",
    "WRITTEN_ROWS_TABLE",
    "create_rows_table_sql",
    "fill_rows_table_sql",
    "row_object_sql",
    "rows_table",
    "written_object_sql",
]

WRITTEN_ROWS_PREFIX = "_educatalog_rows_"
"""The prefix of the name of a collection's table of written rows."""
WRITTEN_ROWS_TABLE = "_educatalog_written_rows"
"""The table naming each collection whose rows are written, and the SQL that wrote them."""

CREATE_WRITTEN_ROWS_TABLE = (
    f"CREATE TABLE {WRITTEN_ROWS_TABLE} (collection TEXT PRIMARY KEY, object_sql TEXT)"
)
INSERT_WRITTEN_ROWS = f"INSERT INTO {WRITTEN_ROWS_TABLE} VALUES (?, ?)"
SELECT_WRITTEN_ROWS = f"SELECT collection, object_sql FROM {WRITTEN_ROWS_TABLE}"


def rows_table(coll: Collection) -> str:
    """The name of the table of ``coll``'s written rows."""
    return WRITTEN_ROWS_PREFIX + coll.name


def row_object_sql(coll: Collection, alias: str = "t0") -> str:
    """The ``json_object`` of a row of ``coll`` with every stored field, ``id`` first, as
    a page that selects them all writes it (``items.is_flat``), read from ``alias``."""
    names = [f.name for f in coll.stored_fields if f.name != "id"]
    return flat_item_sql(RowObject(coll, ["id", *names], []), alias)


def create_rows_table_sql(coll: Collection) -> str:
    return f"CREATE TABLE {quote(rows_table(coll))} (id INTEGER PRIMARY KEY, object BLOB)"


def fill_rows_table_sql(coll: Collection) -> str:
    """Every row of ``coll`` as its object (:func:`row_object_sql`), under its id."""
    return (
        f"INSERT INTO {quote(rows_table(coll))} (id, object) "
        f"SELECT t0.id, CAST({row_object_sql(coll)} AS BLOB) FROM {quote(coll.name)} AS t0"
    )


def written_object_sql(coll: Collection, alias: str = "t0") -> str:
    """The written object of the row of ``coll`` aliased ``alias``: a lookup by id."""
    return f"(SELECT w.object FROM {quote(rows_table(coll))} AS w WHERE w.id = {alias}.id)"
