"""The catalogue over time: an archive of dated snapshots, and trend statistics by DuckDB.

>>> from educatalog import history
>>> arc = history.add("archive/", educatalog.load_catalogue())  # today  # doctest: +SKIP
>>> arc = history.open("archive/")              # doctest: +SKIP
>>> arc.dates                                   # oldest first  # doctest: +SKIP
>>> arc.supply(by="state")                      # per date, as stats.supply  # doctest: +SKIP
>>> arc.flows("courses")                        # entering and leaving  # doctest: +SKIP
>>> arc.lifetimes("courses")                    # how long each stayed  # doctest: +SKIP
>>> arc.snapshot("2025-06-01")                  # rebuilt exactly  # doctest: +SKIP
>>> arc.supply(by="state").edu.plot.trend()     # a line chart over time  # doctest: +SKIP

**Layout.** An archive is a folder an engine reads as it is::

    archive.json                  the manifest: snapshots, files, checksums
    snapshots/<date>.json         per snapshot: source, tables, rows, columns and dtypes
    tables/<table>/*.parquet      row versions of each table of the catalogue
    offers/*.parquet              row versions of the offers frame (cat.offers())
    funding/*.parquet             row versions of the offers' funding types
    .archive.lock                 held by the one add() writing (others wait, then fail)

Rows are **deduplicated across snapshots**: each file holds row versions, the table's own
columns plus ``valid_from`` (the first snapshot date that holds the row as it is) and
``valid_to`` (the first snapshot date that no longer holds it; null while the newest
snapshot still does). A row belongs to the snapshot of date ``d`` when ``valid_from <= d``
and (``valid_to`` is null or ``d < valid_to``). Rows are matched by ``id`` (link tables by
pair) and are a new version as soon as any column differs; a table that cannot be matched
so (ids missing or repeated, rows out of id order, categorical or object columns) is stored
whole for that snapshot, so every snapshot can be rebuilt exactly, dtypes included
(:meth:`Archive.snapshot`; :func:`add` checks it before it commits). Files are
``open-<date>.parquet`` (rows the newest snapshot holds, rewritten by every addition),
``closed-<date>.parquet`` (rows that left at that date, never rewritten) and
``plain-<date>.parquet`` (a table stored whole). ``funding/*.parquet`` holds the funding
types of the offers' courses (course, level, type) as row versions too, so that the trend
statistics group by ``funding_type`` and ``funding_level`` as ``offers(funding=True)`` does.

**One definition, two engines.** The offers frame of every snapshot is computed once by
pandas when the snapshot is added (:func:`educatalog.frames.offers.build_offers`: states,
instruction-form categories, the calendar duration classes with the impossible-dates
fallback ...) and stored with its labels as text, the order of each label list in the
snapshot's entry. DuckDB then only groups and counts, as :func:`educatalog.stats.supply`
does (distinct events, courses, institutions, capacity that is missing where no event
states one, every level listed, missing values a group of their own), over the whole
archive without loading it into pandas; the tests check both engines give equal tables.

**Nothing wrong without an error.** ``archive.json`` records every file's size and SHA-256
and a checksum of itself. Every file is checked against it before pandas or DuckDB reads it
(:mod:`~educatalog.history.integrity`: hashed once while it stays unchanged, a ``stat``
per later read), and DuckDB's own errors while reading are turned into an
:class:`ArchiveError` naming the file: a damaged, truncated, extended or swapped file is an
error naming it, never wrong numbers. ``open(path, verify=False)`` skips the checksums
(sizes are still checked) for those who know their files are intact. :func:`add` checks the
files it rewrites, flushes the new ones to disk and moves the new manifest into place in one
rename, so that an addition killed at any point leaves the new snapshot complete or absent.

**The package.** :mod:`~educatalog.history.format` (manifest, checksums),
:mod:`~educatalog.history.versions` (deduplication into row versions),
:mod:`~educatalog.history.writer` (:func:`add`, under the lock of
:mod:`~educatalog.history.lock`), :mod:`~educatalog.history.integrity` (checking files
against the manifest), :mod:`~educatalog.history.archive` (:class:`Archive`:
reading, exact rebuilds, DuckDB views), :mod:`~educatalog.history.trends` (supply, flows,
lifetimes) and :mod:`~educatalog.history.demo` (:func:`build_demo`, :func:`demo_archive`).
"""

from __future__ import annotations

from educatalog.errors import ArchiveError
from educatalog.history.archive import Archive, open
from educatalog.history.demo import build_demo, demo_archive
from educatalog.history.format import ARCHIVE_MANIFEST, FORMAT_VERSION
from educatalog.history.trends import LEVELS
from educatalog.history.writer import add

__all__ = [
    "ARCHIVE_MANIFEST",
    "FORMAT_VERSION",
    "LEVELS",
    "Archive",
    "ArchiveError",
    "add",
    "build_demo",
    "demo_archive",
    "open",
]
