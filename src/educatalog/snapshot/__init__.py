"""Snapshots: a loaded catalogue kept as files, reproducible and usable offline.

>>> from educatalog import snapshot
>>> cat = educatalog.load_catalogue()                         # doctest: +SKIP
>>> snapshot.save(cat, "catalogue-2025-06")                  # doctest: +SKIP
>>> cat = snapshot.load("catalogue-2025-06")  # same tables, dtypes, Source  # doctest: +SKIP
>>> snapshot.diff("catalogue-2025-06", "catalogue-2025-07")  # doctest: +SKIP

A snapshot is a directory holding one Parquet file per collection and link table and
``manifest.json``: the format version, where and when the data was fetched (the service's
URL, never a token), whether it is the synthetic demo catalogue, when the snapshot was made
and by which version of educatalog, and per table its file, rows, columns with dtypes and
SHA-256 checksum. The manifest carries a checksum of itself, so that an edited manifest is
detected like an edited table.

Personal data: the personal fields of contacts (names, phone numbers, e-mail addresses of
real people; ``Field.personal`` in the catalogue) are left out unless ``include_personal=True``
is passed, and the manifest records the choice and the fields left out.

A snapshot is written into a temporary sibling directory and renamed into place at the end:
an interrupted save leaves nothing behind, and an existing snapshot is never overwritten.
:func:`load` verifies every file against the manifest and names the file that does not match.
:func:`database` turns a snapshot into a database of the reference server (how
``educatalog serve --snapshot`` serves it), :func:`export` writes CSV, Excel or plain Parquet.
"""

from __future__ import annotations

from educatalog.snapshot.comparing import diff
from educatalog.snapshot.exporting import ExportFormat, export, sheet_names
from educatalog.snapshot.layout import (
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    PERSONAL_FIELDS,
)
from educatalog.snapshot.loading import database, load, read_manifest, verify
from educatalog.snapshot.saving import remove_abandoned, save
from educatalog.snapshot.serving import database_rows

# An archive (educatalog.history) stores tables the way a snapshot does: it imports the names
# it shares from the modules (saving.column_entry, loading.restore_dtype,
# comparing.values_differ).

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MANIFEST",
    "PERSONAL_FIELDS",
    "ExportFormat",
    "database",
    "database_rows",
    "diff",
    "export",
    "load",
    "read_manifest",
    "remove_abandoned",
    "save",
    "sheet_names",
    "verify",
]
