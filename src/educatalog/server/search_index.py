"""The search index of a database (:mod:`~educatalog.server.sql.search_index`): built with
it, found when it is opened, and asked by a request when it narrows a search enough.

A search for a word that few rows hold (or none) is then answered from the rows the index
names (a million events: 0.6 s to 1 ms); a search for a word that most rows hold, for a
page of them, still reads the table in id order and stops after one page.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable

from educatalog.model.schema import Collection, Schema
from educatalog.server import sql

__all__ = ["PAGE_CANDIDATES", "Prefilter", "create_search_indexes", "usable_search_indexes"]

log = logging.getLogger("educatalog.server")

PAGE_CANDIDATES = 10_000
"""A page of a search is read from the index's rows when it names at most this many (a scan
in id order finds a page of a word that most rows hold after a few hundred rows)."""

ALL_CANDIDATES_SHARE = 4
"""A statement that reads every match (a count, a sort) is read from the index's rows when
it names at most a quarter of the collection's rows (or :data:`PAGE_CANDIDATES`)."""


def create_search_indexes(conn: sqlite3.Connection, schema: Schema) -> None:
    """The search index of every collection with text fields, filled from its rows. An
    SQLite without FTS5's trigram tokenizer (before 3.34) gets none: searches then read
    every row, as before (:func:`usable_search_indexes` finds which were built)."""
    for coll in schema.values():
        if not sql.searched_text_fields(coll):
            continue
        try:
            conn.execute(sql.create_search_table_sql(coll))
        except sqlite3.OperationalError as exc:  # no fts5, or no trigram tokenizer
            log.info("no search index: this SQLite cannot build one (%s)", exc)
            return
        conn.execute(sql.fill_search_table_sql(coll))


def usable_search_indexes(conn: sqlite3.Connection, schema: Schema) -> frozenset[str]:
    """The collections of the database on ``conn`` whose search index this SQLite can read."""
    found = set()
    for coll in schema.values():
        if not sql.searched_text_fields(coll):
            continue
        try:
            conn.execute(sql.probe_search_table_sql(coll)).fetchall()
        except sqlite3.OperationalError:  # not built, or this SQLite has no fts5
            continue
        found.add(coll.name)
    return frozenset(found)


class Prefilter:
    """Whether a collection's search index narrows a search enough to be read first
    (:class:`~educatalog.server.sql.SearchPrefilter`), for the requests of one connection:
    the index counts the rows it names, up to the most that are worth it."""

    def __init__(
        self, conn: sqlite3.Connection, indexed: frozenset[str], total: Callable[[str], int]
    ) -> None:
        """``indexed`` names the collections with a usable index, ``total`` gives the rows
        of a collection."""
        self.conn = conn
        self.indexed = indexed
        self.total = total
        self._answers: dict[tuple[str, str, int], bool] = {}

    def __call__(self, coll: Collection, query: str, reads_all: bool) -> bool:
        if coll.name not in self.indexed:
            return False
        most = PAGE_CANDIDATES
        if reads_all:
            most = max(most, self.total(coll.name) // ALL_CANDIDATES_SHARE)
        key = (coll.name, query, most)
        if key not in self._answers:
            named = self.conn.execute(sql.candidates_sql(coll), (query, most + 1)).fetchone()[0]
            self._answers[key] = named <= most
        return self._answers[key]
