"""The search index as SQL: one trigram table a collection, over the text fields that
``search`` reads, which names the rows that may hold a search's text.

``search`` matches a text field holding its text in any case (``LIKE '%…%'`` in Directus),
so a search that matches nothing read every row of every text field: 0.6 s at a million
events. An FTS5 table with the ``trigram`` tokenizer indexes every three characters of
those fields, case folded; the rows holding all the trigrams of a search's text are a
superset of its matches, found in milliseconds, and the search's own condition then
decides among them (:func:`~educatalog.server.sql.filters.search_sql`). The table is
contentless (``content=''``) and keeps no positions (``detail=none``): it names rows, it
does not hold their text.

Only trigrams of ASCII characters are asked: there SQLite's case folding and Python's
``str.lower()`` agree, except for the two characters of ``SPECIAL_LOWERING``, and a
collection whose columns hold one of them is not prefiltered at all.
"""

from __future__ import annotations

from educatalog.model.schema import Collection, Field, FieldType
from educatalog.server.sql.terms import quote

__all__ = [
    "MAX_TRIGRAMS",
    "SEARCH_TABLE_PREFIX",
    "candidates_sql",
    "create_search_table_sql",
    "fill_search_table_sql",
    "match_sql",
    "probe_search_table_sql",
    "search_table",
    "searched_text_fields",
    "trigram_query",
]

SEARCH_TABLE_PREFIX = "_educatalog_search_"
"""A collection's search index is the table of this prefix and the collection's name."""

MAX_TRIGRAMS = 12
"""At most this many trigrams of a search's text are asked (spread over its length): more
narrow the candidates little and cost a merge each."""


def searched_text_fields(coll: Collection) -> list[Field]:
    """The fields ``search`` reads as text (by substring): its text fields but uuids."""
    return [f for f in coll.stored_fields if f.type.is_text and f.type is not FieldType.UUID]


def search_table(coll: Collection) -> str:
    """The name of a collection's search index."""
    return SEARCH_TABLE_PREFIX + coll.name


def create_search_table_sql(coll: Collection) -> str:
    """The search index of a collection (which has text fields)."""
    columns = ", ".join(quote(f.name) for f in searched_text_fields(coll))
    return (
        f"CREATE VIRTUAL TABLE {quote(search_table(coll))} USING fts5({columns}, "
        "content='', detail='none', tokenize='trigram')"
    )


def fill_search_table_sql(coll: Collection) -> str:
    """Every row's text fields into its search index, under the row's id."""
    names = [quote(f.name) for f in searched_text_fields(coll)]
    return (
        f"INSERT INTO {quote(search_table(coll))} (rowid, {', '.join(names)}) "
        f"SELECT id, {', '.join(names)} FROM {quote(coll.name)}"
    )


def trigram_query(text: str) -> str | None:
    """The FTS5 query of the rows holding every ASCII trigram of ``text`` lower-cased (at
    most :data:`MAX_TRIGRAMS` of them), each a quoted string; None when ``text`` has no
    three ASCII characters in a row (a search for ``ab``, or for ``Öl``).

    >>> trigram_query("Ölkurs")
    '"lku" AND "kur" AND "urs"'
    """
    lowered = text.lower()
    trigrams = list(
        dict.fromkeys(
            lowered[i : i + 3]
            for i in range(len(lowered) - 2)
            if lowered[i : i + 3].isascii() and "\x00" not in lowered[i : i + 3]
        )
    )
    if not trigrams:
        return None
    if len(trigrams) > MAX_TRIGRAMS:
        step = (len(trigrams) - 1) / (MAX_TRIGRAMS - 1)
        trigrams = [trigrams[round(i * step)] for i in range(MAX_TRIGRAMS)]
    return " AND ".join('"' + t.replace('"', '""') + '"' for t in trigrams)


def candidates_sql(coll: Collection) -> str:
    """How many rows of ``coll`` a trigram query (the first parameter) names, counted up to
    the second parameter: whether the index narrows a search enough to be used."""
    table = quote(search_table(coll))
    return f"SELECT count(*) FROM (SELECT 1 FROM {table} WHERE {table} MATCH ? LIMIT ?)"


def match_sql(coll: Collection, column: str, query: str) -> str:
    """``column`` (an id) is one of the rows a trigram query names; ``query`` is the SQL of
    the query's text (a parameter)."""
    table = quote(search_table(coll))
    return f"{column} IN (SELECT rowid FROM {table} WHERE {table} MATCH {query})"


def probe_search_table_sql(coll: Collection) -> str:
    """A read of no row of a collection's search index: an error when this SQLite cannot
    read it (no such table, or no FTS5)."""
    return f"SELECT rowid FROM {quote(search_table(coll))} LIMIT 0"
