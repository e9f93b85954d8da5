"""What a snapshot folder is: the manifest's format, the personal fields left out, the
Parquet settings, and the manifest's checksum of itself."""

from __future__ import annotations

from educatalog.model.schema import SCHEMA

FORMAT = "educatalog-snapshot"
FORMAT_VERSION = 1
"""Version of the snapshot layout; :func:`load` refuses snapshots of a newer version."""

MANIFEST = "manifest.json"

PERSONAL_FIELDS: dict[str, tuple[str, ...]] = {
    c.name: tuple(f.name for f in c.stored_fields if f.personal)
    for c in SCHEMA.values()
    if any(f.personal for f in c.stored_fields)
}
"""Collection -> its personal fields (``Field.personal``): left out of snapshots and exports
unless asked for."""

COMPRESSION = "zstd"
ROW_GROUP = 256 * 1024
RESERVED = frozenset(
    {
        "format",
        "format_version",
        "educatalog_version",
        "created_at",
        "source",
        "include_personal",
        "personal_fields_omitted",
        "tables",
        "manifest_sha256",
    }
)
