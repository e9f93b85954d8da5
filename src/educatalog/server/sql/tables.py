"""The database as SQL: the tables of the catalogue, their rows and indexes, and the tables
of what is known about a database (its ``info``, its text columns with special characters)."""

from __future__ import annotations

from educatalog.model.schema import Collection, Field, FieldType
from educatalog.server.sql.terms import SPECIAL_LOWERING, quote

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
    "SPECIAL_TEXT_TABLE",
    "all_rows_sql",
    "cache_size_sql",
    "column_type_sql",
    "create_index_sql",
    "create_table_sql",
    "holds_special_text_sql",
    "ids_sql",
    "index_info_sql",
    "insert_sql",
    "most_children_sql",
    "total_count_sql",
]

INFO_TABLE = "_educatalog_info"
"""The table of a database's ``info`` (what ``GET /server/info`` shows)."""
SPECIAL_TEXT_TABLE = "_educatalog_special_text"
"""The table naming the text columns that hold a character of ``SPECIAL_LOWERING``."""


_SQL_TYPES = {
    FieldType.INTEGER: "INTEGER",
    FieldType.STRING: "TEXT",
    FieldType.UUID: "TEXT",
    FieldType.DATETIME: "TEXT",
    FieldType.BOOLEAN: "INTEGER",
    FieldType.DECIMAL: "REAL",
}


def column_type_sql(f: Field) -> str:
    """The SQL type of the column that stores ``f``."""
    return _SQL_TYPES[f.type]


def create_table_sql(coll: Collection) -> str:
    """The table of a collection: one column a stored field, ``id`` the primary key."""
    columns = ", ".join(
        f"{quote(f.name)} {column_type_sql(f)}" + (" PRIMARY KEY" if f.name == "id" else "")
        for f in coll.stored_fields
    )
    return f"CREATE TABLE {quote(coll.name)} ({columns})"


CREATE_INFO_TABLE = f"CREATE TABLE {INFO_TABLE} (key TEXT PRIMARY KEY, value TEXT)"
INSERT_INFO = f"INSERT INTO {INFO_TABLE} VALUES (?, ?)"
SELECT_INFO = f"SELECT key, value FROM {INFO_TABLE}"
CREATE_SPECIAL_TEXT_TABLE = f"CREATE TABLE {SPECIAL_TEXT_TABLE} (collection TEXT, field TEXT)"
INSERT_SPECIAL_TEXT = f"INSERT INTO {SPECIAL_TEXT_TABLE} VALUES (?, ?)"
SELECT_SPECIAL_TEXT = f"SELECT collection, field FROM {SPECIAL_TEXT_TABLE}"
SELECT_INDEX_STATISTICS = "SELECT tbl, idx, stat FROM sqlite_stat1 WHERE idx IS NOT NULL"
SELECT_TABLE_NAMES = "SELECT name FROM sqlite_master"
BUILD_PRAGMAS = ("PRAGMA journal_mode = OFF", "PRAGMA synchronous = OFF")
"""How a database is written: at once, by one writer, into a file renamed when done."""
ANALYZE = "ANALYZE"
QUERY_ONLY = "PRAGMA query_only = ON"
NO_MEMORY_MAP = "PRAGMA mmap_size = 0"


def create_index_sql(table: str, columns: tuple[str, ...]) -> str:
    name = quote(f"ix_{table}_{'_'.join(columns)}")
    return f"CREATE INDEX {name} ON {quote(table)} ({', '.join(map(quote, columns))})"


def insert_sql(coll: Collection) -> str:
    """Insert one row of ``coll``: a parameter for each stored field, in order."""
    names = [f.name for f in coll.stored_fields]
    placeholders = ", ".join("?" * len(names))
    return (
        f"INSERT INTO {quote(coll.name)} ({', '.join(map(quote, names))}) VALUES ({placeholders})"
    )


def holds_special_text_sql(coll: Collection, f: Field) -> str:
    """Whether a text column holds a character of :data:`SPECIAL_LOWERING` (the parameters)."""
    col = quote(f.name)
    test = " OR ".join(f"instr({col}, ?) > 0" for _ in SPECIAL_LOWERING)
    return f"SELECT EXISTS (SELECT 1 FROM {quote(coll.name)} WHERE {test})"


def index_info_sql(index: str) -> str:
    return f"PRAGMA index_info({quote(index)})"


def cache_size_sql(kib: int) -> str:
    """Set SQLite's page cache of a connection to ``kib`` KiB."""
    return f"PRAGMA cache_size = -{int(kib)}"


def all_rows_sql(coll: Collection) -> str:
    """Every row of a collection, its stored fields in order, by id."""
    names = ", ".join(quote(f.name) for f in coll.stored_fields)
    return f"SELECT {names} FROM {quote(coll.name)} ORDER BY id"


def total_count_sql(table: str) -> str:
    return f"SELECT count(*) FROM {quote(table)}"


def ids_sql(table: str) -> str:
    """Every id of ``table``, in no particular order (SQLite reads the narrowest index)."""
    return f"SELECT id FROM {quote(table)}"


def most_children_sql(table: str, foreign_key: str) -> str:
    """The most rows of ``table`` that point to one parent by ``foreign_key``."""
    fk = quote(foreign_key)
    return (
        f"SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM {quote(table)} "
        f"WHERE {fk} IS NOT NULL GROUP BY {fk})"
    )
