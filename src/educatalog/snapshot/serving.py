"""A loaded catalogue (a snapshot, the demo as of a date) as rows of the reference server's
database: the service's JSON values, chunk by chunk, for
:func:`~educatalog.server.store.build_database`.

>>> build_database(path, database_rows(educatalog.snapshot.load("snap")))  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pandas as pd

from educatalog.frames.catalogue import LINK_TABLES, Catalogue
from educatalog.frames.typed import python_values
from educatalog.model.schema import SCHEMA, Field, FieldType

__all__ = ["SERVICE_DATETIME", "database_rows"]

SERVICE_DATETIME = "%Y-%m-%dT%H:%M:%S"
"""How the service writes a datetime: no zone, no fraction."""


def database_rows(
    catalogue: Catalogue, *, chunk_size: int = 50_000
) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """The catalogue as ``(collection, rows)`` chunks in the service's JSON representation,
    for :func:`educatalog.server.store.build_database` (how ``educatalog serve --snapshot``
    and :func:`educatalog.snapshot.database` serve a snapshot).

    Ids and integers as ``int``, datetimes as ``"YYYY-MM-DDTHH:MM:SS"``, decimals as strings
    such as ``"1490.00"``; fields a table lacks (personal fields left out) are null. Link
    tables become the rows of their junction collections, numbered from 1 in pair order (the
    service's own junction ids are not part of a link table).
    """
    for name in catalogue.collections:
        coll = SCHEMA[name]
        frame = catalogue[name]
        fields = [f for f in coll.stored_fields if f.name in frame.columns]
        for start in range(0, len(frame), chunk_size):
            part = frame.iloc[start : start + chunk_size]
            names = [f.name for f in fields]
            values = [_json_values(part[f.name], f) for f in fields]
            yield name, [dict(zip(names, row, strict=True)) for row in zip(*values, strict=True)]
    for link in catalogue.links:
        owner, relation = LINK_TABLES[link]
        rel = SCHEMA[owner].field(relation).relation
        assert rel is not None
        assert rel.foreign_key
        assert rel.junction_field
        frame = catalogue[link]
        left, right = frame.columns[:2]
        for start in range(0, len(frame), chunk_size):
            part = frame.iloc[start : start + chunk_size]
            pairs = zip(
                python_values(part[left]),
                python_values(part[right]),
                strict=True,
            )
            yield (
                link,
                [
                    {"id": start + i, rel.foreign_key: _int(p), rel.junction_field: _int(q)}
                    for i, (p, q) in enumerate(pairs, start=1)
                ],
            )


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def _json_values(column: pd.Series, f: Field) -> list[Any]:
    """One column as the service's JSON values (None for nulls)."""
    if f.type is FieldType.DATETIME:
        if not pd.api.types.is_datetime64_any_dtype(column.dtype):
            column = pd.to_datetime(column, errors="coerce")
        return python_values(column.dt.strftime(SERVICE_DATETIME))
    if f.type is FieldType.DECIMAL:
        fmt = f"{{:.{f.scale or 2}f}}"
        return [None if v is None else fmt.format(v) for v in python_values(column)]
    values = python_values(column)
    if f.type is FieldType.INTEGER:
        return [None if v is None else int(v) for v in values]
    if f.type is FieldType.BOOLEAN:
        return [None if v is None else bool(v) for v in values]
    return [None if v is None else str(v) for v in values]
