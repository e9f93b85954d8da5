"""Build and open the reference server's SQLite database.

Tables, columns and indexes come from the catalogue: one table a collection, one column a
stored field. Rows go in and come out in the service's JSON representation (booleans as
``bool``, datetimes as ``"YYYY-MM-DDTHH:MM:SS"``, decimals as strings such as ``"1490.00"``);
in the database booleans are integers and decimals are REALs so that they compare as numbers.

A database is served as it was built: opened read-only, never written, and what the build
derived from its rows (each row's written object, the copied fields, the search index, the
text columns with special characters) holds for those rows only, as do the counts that
:class:`Database` caches. A database whose rows change is built again.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from educatalog.errors import UsageError
from educatalog.files.atomic import atomic_path
from educatalog.model.schema import SCHEMA, Collection, Field, FieldType, Schema
from educatalog.server import sql
from educatalog.server.numbers import average_text, numeric_text
from educatalog.server.search_index import create_search_indexes, usable_search_indexes

__all__ = [
    "Database",
    "build_database",
    "check_database",
    "copied_fields",
    "database_info",
    "read_rows",
    "write_rows",
    "written_rows",
]

# Fields of related items each row carries as a column of its own (sql.copied_fields):
# events their address's state, the catalogue's most common filter.
_COPIED_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {"events": (("address", "state"),)}
# Every foreign key is indexed; these indexes lead with one and serve it too. Events by
# state and start date (the most common count) then read an index alone.
_COMPOSITE_INDEXES: dict[str, tuple[tuple[str, ...], ...]] = {
    "events": (
        ("address", "event_start_date"),
        (sql.copied_column("address", "state"), "event_start_date"),
    )
}
# Besides the foreign keys: columns that typical analysis queries filter or sort on.
_EXTRA_INDEXES: dict[str, tuple[str, ...]] = {
    "events": ("event_start_date",),
    "courses": ("institution",),
}


def _to_sql(f: Field) -> Callable[[Any], Any] | None:
    if f.type is FieldType.BOOLEAN:
        return lambda v: None if v is None else int(v)
    if f.type is FieldType.DECIMAL:
        # Stored rounded to the field's scale, so that every way of writing it out (Python
        # here, SQLite's printf for whole pages) gives the same digits.
        scale = f.scale or 2
        return lambda v: None if v is None else round(float(v), scale)
    return None


def _from_sql(f: Field) -> Callable[[Any], Any] | None:
    """Converter from a column value to the JSON representation (None: unchanged), as
    ``sql.json_value_sql`` converts it in SQL."""
    if f.type is FieldType.BOOLEAN:
        return lambda v: None if v is None else bool(v)
    if f.type is FieldType.DECIMAL:
        fmt = f"{{:.{f.scale or 2}f}}"
        return lambda v: None if v is None else fmt.format(v)
    return None


def create_schema(conn: sqlite3.Connection, schema: Schema = SCHEMA) -> None:
    """Create one table per collection (indexes come after loading, see ``create_indexes``)."""
    for coll in schema.values():
        conn.execute(sql.create_table_sql(coll))
    conn.execute(sql.CREATE_INFO_TABLE)


def copy_fields(conn: sqlite3.Connection, schema: Schema = SCHEMA) -> None:
    """Copy the fields of related items that rows carry (``_COPIED_FIELDS``) into columns
    of their own, and record how (:mod:`educatalog.server.sql.copied_fields`)."""
    conn.execute(sql.CREATE_COPIED_FIELDS_TABLE)
    for coll, relation, target, name in _copied_fields(schema):
        conn.execute(sql.add_copied_column_sql(coll, relation, target, name))
        fill = sql.fill_copied_column_sql(coll, relation, target, name)
        conn.execute(fill)
        conn.execute(sql.INSERT_COPIED_FIELD, (coll.name, relation, name, fill))


def copied_fields(
    conn: sqlite3.Connection, schema: Schema = SCHEMA
) -> frozenset[tuple[str, str, str]]:
    """The fields of related items that the rows of the database on ``conn`` carry, filled
    as this educatalog fills them, as ``(collection, relation, field)`` (none for a database
    built without them)."""
    try:
        recorded = {(c, r, f): fill for c, r, f, fill in conn.execute(sql.SELECT_COPIED_FIELDS)}
    except sqlite3.OperationalError:  # built before fields were copied
        return frozenset()
    return frozenset(
        (coll.name, relation, name)
        for coll, relation, target, name in _copied_fields(schema)
        if recorded.get((coll.name, relation, name))
        == sql.fill_copied_column_sql(coll, relation, target, name)
    )


def _copied_fields(schema: Schema) -> Iterator[tuple[Collection, str, Collection, str]]:
    """``_COPIED_FIELDS`` that ``catalogue`` has: (collection, its many-to-one relation,
    the related collection, the related field)."""
    for name, pairs in _COPIED_FIELDS.items():
        coll = schema.get(name)
        for relation, field in pairs:
            if coll is None or relation not in coll or not coll.field(relation).is_many_to_one:
                continue
            target = schema.expansion_target(coll.field(relation))
            if field in target and target.field(field).is_stored:
                yield coll, relation, target, field


def create_indexes(conn: sqlite3.Connection, schema: Schema = SCHEMA) -> None:
    copied = {(c.name, sql.copied_column(r, name)) for c, r, _, name in _copied_fields(schema)}
    for coll in schema.values():
        composite = tuple(
            columns
            for columns in _COMPOSITE_INDEXES.get(coll.name, ())
            if all(c in coll or (coll.name, c) in copied for c in columns)
        )
        leading = {columns[0] for columns in composite}
        indexes: list[tuple[str, ...]] = [(f.name,) for f in coll.stored_fields if f.is_many_to_one]
        indexes = [c for c in indexes if c[0] not in leading] + list(composite)
        indexes += [(c,) for c in _EXTRA_INDEXES.get(coll.name, ())]
        for columns in indexes:
            conn.execute(sql.create_index_sql(coll.name, columns))


def insert_rows(
    conn: sqlite3.Connection, coll: Collection, rows: Iterable[Mapping[str, Any]]
) -> int:
    """Insert rows given in the JSON representation; missing fields are null."""
    fields = coll.stored_fields
    names = [f.name for f in fields]
    convert = [(i, c) for i, f in enumerate(fields) if (c := _to_sql(f)) is not None]
    stored = frozenset(names)
    unknown: set[str] = set()

    def tuples() -> Iterable[list[Any]]:
        for row in rows:
            if not row.keys() <= stored:
                unknown.update(row.keys() - stored)
            values = [row.get(n) for n in names]
            for i, c in convert:
                values[i] = c(values[i])
            yield values

    cursor = conn.executemany(sql.insert_sql(coll), tuples())
    if unknown:
        raise UsageError(f"rows of {coll.name} carry fields it does not store: {sorted(unknown)}")
    return cursor.rowcount


def build_database(
    path: str | os.PathLike[str],
    chunks: Iterable[tuple[str, Sequence[Mapping[str, Any]]]],
    *,
    info: Mapping[str, Any] | None = None,
    schema: Schema = SCHEMA,
) -> Path:
    """Build a database file from ``(collection, rows)`` chunks; returns its path.

    The file is written under a temporary name and renamed at the end, so an interrupted
    build never leaves a half-written database behind. ``info`` (JSON-serializable) is kept
    in the database and shown by ``GET /server/info``.

    >>> build_database(tmp / "tiny.sqlite", [("states", [{"id": 1, "name": "Berlin"}])])
    ... # doctest: +SKIP
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(target) as tmp:
        conn = sqlite3.connect(tmp)
        try:
            for pragma in sql.BUILD_PRAGMAS:
                conn.execute(pragma)
            create_schema(conn, schema)
            for name, rows in chunks:
                insert_rows(conn, schema[name], rows)
            copy_fields(conn, schema)
            create_indexes(conn, schema)
            create_search_indexes(conn, schema)
            write_rows(conn, schema)
            _record_special_text_columns(conn, schema)
            conn.executemany(sql.INSERT_INFO, [(k, json.dumps(v)) for k, v in (info or {}).items()])
            conn.commit()
            conn.execute(sql.ANALYZE)
            conn.commit()
        finally:
            conn.close()
    return target


def write_rows(conn: sqlite3.Connection, schema: Schema = SCHEMA) -> None:
    """Write every collection's rows as JSON objects into their own table, and record how
    (:mod:`educatalog.server.sql.written_rows`): a page of every stored field is then read,
    not written, by SQLite."""
    conn.execute(sql.CREATE_WRITTEN_ROWS_TABLE)
    for coll in schema.values():
        conn.execute(sql.create_rows_table_sql(coll))
        conn.execute(sql.fill_rows_table_sql(coll))
        conn.execute(sql.INSERT_WRITTEN_ROWS, (coll.name, sql.row_object_sql(coll)))


def written_rows(conn: sqlite3.Connection, schema: Schema = SCHEMA) -> frozenset[str]:
    """The collections whose rows the database on ``conn`` holds written as this
    educatalog writes them (none for a database built without them)."""
    try:
        recorded = dict(conn.execute(sql.SELECT_WRITTEN_ROWS))
    except sqlite3.OperationalError:  # built before rows were written
        return frozenset()
    return frozenset(
        c.name for c in schema.values() if recorded.get(c.name) == sql.row_object_sql(c)
    )


def _record_special_text_columns(conn: sqlite3.Connection, schema: Schema) -> None:
    conn.execute(sql.CREATE_SPECIAL_TEXT_TABLE)
    for coll in schema.values():
        for f in coll.stored_fields:
            if not f.type.is_text:
                continue
            test = sql.holds_special_text_sql(coll, f)
            if conn.execute(test, sql.SPECIAL_LOWERING).fetchone()[0]:
                conn.execute(sql.INSERT_SPECIAL_TEXT, (coll.name, f.name))


def special_text_columns(conn: sqlite3.Connection) -> frozenset[tuple[str, str]] | None:
    """Text columns holding a character of ``sql.SPECIAL_LOWERING`` (None: not recorded)."""
    try:
        return frozenset(conn.execute(sql.SELECT_SPECIAL_TEXT))
    except sqlite3.OperationalError:
        return None


def index_selectivity(conn: sqlite3.Connection) -> dict[tuple[str, str], float]:
    """Average rows per value of each index's leading column, from ``ANALYZE``'s statistics."""
    out: dict[tuple[str, str], float] = {}
    try:
        stats = conn.execute(sql.SELECT_INDEX_STATISTICS)
        for table, index, stat in stats.fetchall():
            info = conn.execute(sql.index_info_sql(index)).fetchall()
            parts = stat.split()
            if info and len(parts) > 1:
                out[(table, info[0][2])] = float(parts[1])
    except sqlite3.OperationalError:  # no statistics
        pass
    return out


def database_info(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The ``info`` a database was built with (empty for a database without it)."""
    with closing(_connect_readonly(Path(path))) as conn:
        try:
            return {k: json.loads(v) for k, v in conn.execute(sql.SELECT_INFO)}
        except sqlite3.OperationalError:
            return {}


def read_rows(
    path: str | os.PathLike[str], collection: str, *, schema: Schema = SCHEMA
) -> list[dict[str, Any]]:
    """Every row of a collection, ordered by id, in the JSON representation."""
    coll = schema[collection]
    fields = coll.stored_fields
    converters = [_from_sql(f) for f in fields]
    names = [f.name for f in fields]
    with closing(_connect_readonly(Path(path))) as conn:
        cursor = conn.execute(sql.all_rows_sql(coll))
        return [
            {n: (c(v) if c else v) for n, c, v in zip(names, converters, row, strict=True)}
            for row in cursor
        ]


def check_database(path: str | os.PathLike[str], schema: Schema = SCHEMA) -> str | None:
    """What is wrong with ``path`` as a database to serve (None: nothing): missing, not
    readable, not SQLite, or without the catalogue's tables."""
    file = Path(path)
    if not file.is_file():
        return f"no database file at {file}"
    try:
        with open(file, "rb") as handle:
            header = handle.read(16)
    except OSError as exc:
        return f"cannot read {file}: {exc.strerror}"
    if not header:
        return f"{file} is empty, not a database built by educatalog"
    if header != b"SQLite format 3\x00":
        return f"{file} is not an SQLite database"
    try:
        with closing(_connect_readonly(file)) as conn:
            tables = {name for (name,) in conn.execute(sql.SELECT_TABLE_NAMES)}
    except sqlite3.DatabaseError as exc:
        return f"{file} cannot be read as an SQLite database ({exc})"
    missing = [name for name in schema if name not in tables]
    if missing:
        shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
        return (
            f"{file} is not a database of the catalogue: it has no table {shown} "
            "(build one with educatalog.server.store.build_database)"
        )
    return None


STATEMENT_CACHE = 1_024
"""Prepared statements a connection keeps (Python's default: 128). Queries of one shape
share their SQL text (values are parameters), and preparing a statement again cost up to
70 us, as much as a small read: the comparison's 859 queries, asked again, took 7 % less
of the server's time with this cache than with the default, and about 2 MB more memory."""


def _connect_readonly(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise FileNotFoundError(f"no database at {path}")
    conn = sqlite3.connect(
        f"{path.resolve().as_uri()}?mode=ro",
        uri=True,
        check_same_thread=False,
        cached_statements=STATEMENT_CACHE,
    )
    conn.execute(sql.QUERY_ONLY)
    return conn


def _lower(value: str | None) -> str | None:
    return value.lower() if isinstance(value, str) else value


class Database:
    """A read-only database. ``edu_lower()`` lower-cases the whole of Unicode in SQL, where
    SQLite's own ``lower()`` only knows ASCII; ``edu_numeric()`` and ``edu_average()`` write
    sums and averages as the service does (:mod:`~educatalog.server.numbers`).

    :meth:`lease` lends a connection to one request for as long as it needs it (a streamed
    answer keeps its cursor open across threads, and a progress handler belongs to one
    query); :meth:`connection` is one connection per thread, for quick lookups.
    """

    IDLE_CONNECTIONS = 8
    """Connections kept open for the next lease; more are opened on demand, then closed."""

    def __init__(self, path: str | os.PathLike[str], *, schema: Schema = SCHEMA) -> None:
        self.path = Path(path)
        self.schema = schema
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[sqlite3.Connection] = []
        self._idle: list[sqlite3.Connection] = []
        self.info = database_info(self.path)
        self.converters: dict[str, dict[str, Callable[[Any], Any] | None]] = {
            c.name: {f.name: _from_sql(f) for f in c.stored_fields} for c in schema.values()
        }
        self._counts: dict[str, int] = {}
        self._ranks: dict[str, list[int]] = {}
        self._ranks_lock = threading.Lock()
        self._most_children: dict[tuple[str, str], int] = {}
        with closing(_connect_readonly(self.path)) as conn:
            self.layout = sql.Layout(special_text_columns(conn), copied_fields(conn, schema))
            self.rows_per_value = index_selectivity(conn)
            self.search_indexes = usable_search_indexes(conn, schema)
            self.written_rows = written_rows(conn, schema)

    def _open(self) -> sqlite3.Connection:
        conn = _connect_readonly(self.path)
        # No memory map: its pages would count as the server's memory, once per connection,
        # for every page a large answer touched; reads cost the same CPU without it.
        conn.execute(sql.NO_MEMORY_MAP)
        conn.execute(sql.cache_size_sql(self.PAGE_CACHE_KIB))
        conn.create_function("edu_lower", 1, _lower, deterministic=True)
        conn.create_function("edu_numeric", 2, numeric_text, deterministic=True)
        conn.create_function("edu_average", 3, average_text, deterministic=True)
        with self._lock:
            self._connections.append(conn)
        return conn

    def connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._open()
            self._local.conn = conn
        return conn

    PAGE_CACHE_KIB = 65_536
    """SQLite's page cache per connection (the database is read without a memory map)."""

    @contextmanager
    def lease(
        self,
        progress: Callable[[], int] | None = None,
        steps: int = 1_000_000,
        *,
        cache_kib: int | None = None,
    ) -> Iterator[sqlite3.Connection]:
        """A connection of this request alone, with ``progress`` called every ``steps``
        SQLite VM steps (a true result interrupts the running statement); ``cache_kib``
        sets a smaller page cache for the lease (a scan gains nothing from a large one)."""
        with self._lock:
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            conn = self._open()
        if progress is not None:
            conn.set_progress_handler(progress, steps)
        if cache_kib is not None:
            conn.execute(sql.cache_size_sql(cache_kib))
        try:
            yield conn
        finally:
            if cache_kib is not None:
                conn.execute(sql.cache_size_sql(self.PAGE_CACHE_KIB))
            conn.set_progress_handler(None, 0)
            with self._lock:
                keep = len(self._idle) < self.IDLE_CONNECTIONS and conn in self._connections
                if keep:
                    self._idle.append(conn)
                elif conn in self._connections:
                    self._connections.remove(conn)
            if not keep:
                conn.close()

    def total_count(self, collection: str, conn: sqlite3.Connection | None = None) -> int:
        """Rows of a collection (cached: the database is read-only)."""
        if collection not in self._counts:
            conn = conn or self.connection()
            self._counts[collection] = conn.execute(sql.total_count_sql(collection)).fetchone()[0]
        return self._counts[collection]

    def known_total(self, collection: str) -> int | None:
        """The rows of a collection, if :meth:`total_count` has read them already."""
        return self._counts.get(collection)

    def known_most_children(self, table: str, foreign_key: str) -> int | None:
        """:meth:`most_children`, if it has been read already."""
        return self._most_children.get((table, foreign_key))

    RANK_STEP = 1024
    """Every this many rows of a table in id order, :meth:`rank_start` knows the id."""

    def rank_start(
        self, table: str, offset: int, conn: sqlite3.Connection
    ) -> tuple[int, int] | None:
        """Where the row at ``offset`` of ``table`` in id order is found without walking the
        rows before it: ``(id, skip)``, the row being the ``skip``-th from the one with that
        id (the last sampled id and the rows past it for an offset beyond the end); None for
        an empty table.

        ``OFFSET`` makes SQLite step over every row it skips (the page at offset 800,000:
        1.6 million steps and every page of the table read); the ids at every
        :attr:`RANK_STEP`-th position, read once (the database is read-only), leave fewer
        than that many to skip.
        """
        ranks = self._ranks.get(table)
        if ranks is None:
            with self._ranks_lock:
                ranks = self._ranks.get(table)
                if ranks is None:
                    ids = sorted(i for (i,) in conn.execute(sql.ids_sql(table)))
                    ranks = self._ranks[table] = ids[:: self.RANK_STEP]
        if not ranks:
            return None
        index = min(offset // self.RANK_STEP, len(ranks) - 1)
        return ranks[index], offset - index * self.RANK_STEP

    def most_children(self, table: str, foreign_key: str, conn: sqlite3.Connection) -> int:
        """The most rows of ``table`` that point to one parent by ``foreign_key`` (cached)."""
        key = (table, foreign_key)
        if key not in self._most_children:
            text = sql.most_children_sql(table, foreign_key)
            self._most_children[key] = conn.execute(text).fetchone()[0]
        return self._most_children[key]

    def close(self) -> None:
        with self._lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
            self._idle.clear()
        self._local = threading.local()
