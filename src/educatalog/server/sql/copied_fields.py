"""Fields of related items copied into the rows that point to them when the database is
built: each event carries its address's state.

The catalogue's most common question is a count of events by state and start date. The
state is the address's, so SQLite searched the index on (address, start date) once for each
address of the state: a year of Nordrhein-Westfalen's events (127,882 at a million) took
35 ms to count. With the state in the event's own row and an index on (state, start date),
the same count is one range of one index: 5 ms (SQLite alone; ``benchmarks/server.py``
measures the requests).

A copied field is a column named ``relation.field`` (:func:`~.terms.copied_column`; no
field of the catalogue has a "." in its name) holding what the relation's outer join gives:
the related item's field, or null where the reference is null or points to no item. A
condition on the column is therefore the relational condition itself, with the same
three-valued logic (:func:`~educatalog.server.sql.filters.where_sql` uses it for a single
condition). The database records the SQL that filled each column
(:data:`COPIED_FIELDS_TABLE`), and a column is used only where that is the SQL this
educatalog would use (:meth:`~.terms.Sql.copied_column`); a database built without them is
read through the relation, as before: the same rows, more slowly.
"""

from __future__ import annotations

from educatalog.model.schema import Collection
from educatalog.server.sql.tables import column_type_sql
from educatalog.server.sql.terms import copied_column, quote

__all__ = [
    "COPIED_FIELDS_TABLE",
    "CREATE_COPIED_FIELDS_TABLE",
    "INSERT_COPIED_FIELD",
    "SELECT_COPIED_FIELDS",
    "add_copied_column_sql",
    "fill_copied_column_sql",
]

COPIED_FIELDS_TABLE = "_educatalog_copied_fields"
"""The table naming each copied field, and the SQL that filled its column."""

CREATE_COPIED_FIELDS_TABLE = (
    f"CREATE TABLE {COPIED_FIELDS_TABLE} "
    "(collection TEXT, relation TEXT, field TEXT, fill_sql TEXT, "
    "PRIMARY KEY (collection, relation, field))"
)
INSERT_COPIED_FIELD = f"INSERT INTO {COPIED_FIELDS_TABLE} VALUES (?, ?, ?, ?)"
SELECT_COPIED_FIELDS = f"SELECT collection, relation, field, fill_sql FROM {COPIED_FIELDS_TABLE}"


def add_copied_column_sql(coll: Collection, relation: str, target: Collection, name: str) -> str:
    """Add to ``coll``'s table the column of field ``name`` of the ``target`` item that
    ``relation`` (many-to-one) points to."""
    column = quote(copied_column(relation, name))
    kind = column_type_sql(target.field(name))
    return f"ALTER TABLE {quote(coll.name)} ADD COLUMN {column} {kind}"


def fill_copied_column_sql(coll: Collection, relation: str, target: Collection, name: str) -> str:
    """Fill the column of :func:`add_copied_column_sql` with each row's related value
    (null where the reference is null or points to no item)."""
    table = quote(coll.name)
    return (
        f"UPDATE {table} SET {quote(copied_column(relation, name))} = "
        f"(SELECT c.{quote(name)} FROM {quote(target.name)} AS c "
        f"WHERE c.id = {table}.{quote(relation)})"
    )
