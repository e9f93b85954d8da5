"""List answers of the service decoded by pyarrow, without pandas (the transport layer).

:func:`decode_rows` parses a page of plain fields straight into an Arrow table with
pyarrow's JSON reader (in C++, without the GIL, so decoding overlaps the other downloads).
The clients try it on every page and hand the table on in a :class:`~educatalog.client._paging.Page`
(``Page.from_arrow``); :mod:`educatalog.frames.typed` turns such tables into typed DataFrames.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa

from educatalog.model.schema import Collection, FieldType

__all__ = ["ARROW_TYPES", "decode_rows"]

ARROW_TYPES: dict[FieldType, pa.DataType] = {
    FieldType.INTEGER: pa.int64(),
    FieldType.STRING: pa.string(),
    FieldType.UUID: pa.string(),
    FieldType.BOOLEAN: pa.bool_(),
    FieldType.DATETIME: pa.string(),  # parsed later (frames.page_table)
    FieldType.DECIMAL: pa.string(),  # money arrives as text: cast later
}
"""The Arrow type of each stored field type, in the JSON representation of its values."""

_META = pa.struct([("filter_count", pa.int64()), ("total_count", pa.int64())])


def decode_rows(
    content: bytes, coll: Collection, names: Sequence[str]
) -> tuple[pa.Table, dict[str, int]] | None:
    """A list answer (``{"data": [...], "meta": {...}}``) of plain fields ``names`` of
    ``coll``, parsed by pyarrow: its rows as a table of their JSON values, and its meta
    counts. None when the answer is not that simple case (other or nested fields, values of
    other types, a pretty-printed body, a field left out), which the caller then decodes
    the general way."""
    import pyarrow.json as pj  # imported on first use

    if b"\n" in content or not names:
        return None
    fields = [coll.field(n) for n in names if n in coll]
    if len(fields) != len(names) or any(not f.is_stored for f in fields):
        return None
    item = pa.struct([(f.name, ARROW_TYPES[f.type]) for f in fields])
    schema = pa.schema([("data", pa.list_(item)), ("meta", _META)])
    options = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error")
    try:
        table = pj.read_json(
            pa.BufferReader(content),  # the body itself, not a copy read through Python
            read_options=pj.ReadOptions(use_threads=False, block_size=max(1 << 20, len(content))),
            parse_options=options,
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if table.num_rows != 1:
        return None
    column = table.column("data")  # one chunk: the body is one block (combine_chunks copies)
    data = column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()
    if data.null_count:
        return None
    rows = data.flatten()
    if len(rows) and any(f'"{f.name}":'.encode() not in content for f in fields):
        return None  # a requested field the service left out: absent, not null
    columns = rows.flatten() if len(rows) else [pa.array([], f.type) for f in item]
    meta_value = table.column("meta")[0].as_py() or {}
    meta = {k: int(v) for k, v in meta_value.items() if v is not None}
    return pa.Table.from_arrays(columns, names=[f.name for f in fields]), meta
