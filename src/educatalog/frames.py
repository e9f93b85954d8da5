"""Records of the service to typed pandas DataFrames, with dtypes from the catalogue.

* integers and reference ids: nullable ``Int64``; booleans: nullable ``boolean``;
  text: ``string``; datetimes: ``datetime64[us]`` (:data:`DATETIME_DTYPE`, naive, as the
  service writes them); decimals (which arrive as strings): ``Float64``;
* an expanded many-to-one object becomes prefixed columns: ``address: {state: 9}`` gives
  ``address_state``, typed from the target collection (nested objects recurse);
* list relations stay lists (object columns): use :func:`educatalog.load_links` for tables;
* fields the catalogue does not know pass through as pandas infers them; fields it knows
  but the rows lack are absent, not invented.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from educatalog.catalogue import CATALOGUE, Collection, Field, FieldType, Schema

__all__ = [
    "DATETIME_DTYPE",
    "DATETIME_UNIT",
    "DTYPES",
    "arrow_table",
    "arrow_to_frame",
    "to_frame",
    "typed_column",
]

DATETIME_UNIT = "us"
"""The one resolution of every datetime column educatalog makes: ``load``,
``load_catalogue``, ``offers`` and ``snapshot.load``. Microseconds are what pyarrow parses
(no conversion of a million dates), what Parquet keeps, what pandas 3 infers from text, and
they hold any date a service may send (nanoseconds end in the year 2262)."""

DATETIME_DTYPE = f"datetime64[{DATETIME_UNIT}]"
"""The dtype of every datetime column (:data:`DATETIME_UNIT`)."""

DTYPES: dict[FieldType, str] = {
    FieldType.INTEGER: "Int64",
    FieldType.STRING: "string",
    FieldType.UUID: "string",
    FieldType.BOOLEAN: "boolean",
    FieldType.DECIMAL: "Float64",
}
"""The pandas dtype of each field type (datetimes: :data:`DATETIME_DTYPE`)."""


def typed_column(values: Sequence[Any], f: Field, name: str | None = None) -> pd.Series:
    """One column of values in the JSON representation, typed for field ``f``."""
    name = name or f.name
    if f.type is FieldType.DATETIME:
        raw = pd.Series(values, dtype="string", name=name)
        parsed = pd.to_datetime(raw, format="ISO8601", errors="coerce").astype(DATETIME_DTYPE)
        bad = int((raw.notna() & parsed.isna()).sum())
        if bad:
            warnings.warn(
                f'{bad} value(s) of "{name}" are not datetimes and became NaT.', stacklevel=3
            )
        return parsed
    if f.type is FieldType.DECIMAL:
        return pd.to_numeric(pd.Series(values, dtype="string", name=name)).astype("Float64")
    if f.type is FieldType.ALIAS:
        return pd.Series(values, dtype="object", name=name)
    return pd.Series(values, dtype=DTYPES[f.type], name=name)


def to_frame(
    rows: Sequence[dict[str, Any]],
    collection: str | Collection,
    *,
    catalogue: Schema = CATALOGUE,
) -> pd.DataFrame:
    """A typed DataFrame of ``rows`` of ``collection`` (see the module docstring)."""
    coll = catalogue[collection] if isinstance(collection, str) else collection
    fast = _arrow_frame(rows, coll)
    if fast is not None:
        return fast
    columns: dict[str, pd.Series] = {}
    _add_columns(columns, rows, coll, "", catalogue)
    frame = pd.DataFrame(columns)
    if frame.empty and not columns:
        frame = pd.DataFrame(
            {f.name: typed_column([], f) for f in coll.stored_fields}, index=pd.RangeIndex(0)
        )
    return frame


def _add_columns(
    out: dict[str, pd.Series],
    rows: Sequence[dict[str, Any]],
    coll: Collection,
    prefix: str,
    catalogue: Schema,
) -> None:
    names: dict[str, None] = {}
    for row in rows:
        names.update(dict.fromkeys(row))
    ordered = [f.name for f in coll.fields if f.name in names]
    ordered += [n for n in names if n not in coll]
    for name in ordered:
        values = [row.get(name) for row in rows]
        label = f"{prefix}{name}"
        if name not in coll:
            out[label] = pd.Series(values, name=label)
            continue
        f = coll.field(name)
        if f.is_many_to_one and any(isinstance(v, dict) for v in values):
            target = catalogue.expansion_target(f)
            nested = [v if isinstance(v, dict) else {} for v in values]
            _add_columns(out, nested, target, f"{label}_", catalogue)
            continue
        out[label] = typed_column(values, f, label)


_ARROW_TYPES = {
    FieldType.INTEGER: pa.int64(),
    FieldType.STRING: pa.string(),
    FieldType.UUID: pa.string(),
    FieldType.BOOLEAN: pa.bool_(),
    FieldType.DATETIME: pa.string(),  # parsed by _typed
    FieldType.DECIMAL: pa.string(),  # money arrives as text: cast by _typed
}
_PANDAS_TYPES = {
    pa.int64(): pd.Int64Dtype(),
    pa.string(): pd.StringDtype(),
    pa.bool_(): pd.BooleanDtype(),
    pa.float64(): pd.Float64Dtype(),
}


def _arrow_frame(rows: Sequence[dict[str, Any]], coll: Collection) -> pd.DataFrame | None:
    """The frame of flat rows of known fields, decoded by pyarrow in C (None: not that case)."""
    table = arrow_table(rows, coll)
    return None if table is None else arrow_to_frame(table)


def arrow_table(rows: Sequence[dict[str, Any]], coll: Collection) -> pa.Table | None:
    """Flat rows of known fields as an Arrow table typed from the catalogue, or None when
    the rows are not that simple case (a nested object, an unknown or missing field, a value
    of the wrong type, a malformed datetime): :func:`to_frame` then takes the general path.

    Columns are built one at a time from the rows' values, which costs pyarrow far less
    than converting row dictionaries.
    """
    if not rows:
        return None
    names = list(rows[0])
    if any(name not in coll or not coll.field(name).is_stored for name in names):
        return None
    if any(len(row) != len(names) for row in rows):
        return None  # rows with other keys: keep "absent" apart from null
    try:
        columns = [
            pa.array([row[name] for row in rows], type=_ARROW_TYPES[coll.field(name).type])
            for name in names
        ]
        return _typed(pa.Table.from_arrays(columns, names=names), coll)
    except (KeyError, pa.ArrowInvalid, pa.ArrowTypeError, TypeError, OverflowError):
        return None


def arrow_to_frame(table: pa.Table) -> pd.DataFrame:
    """An Arrow table of :func:`arrow_table` as a DataFrame with the catalogue's dtypes."""
    return table.to_pandas(types_mapper=_PANDAS_TYPES.get)


class ArrowRows(Sequence[dict[str, Any]]):
    """The rows of a list answer decoded straight into an Arrow table by pyarrow's JSON
    reader (in C++, without the GIL), still in their JSON representation: a sequence of
    row dicts to whoever iterates it, a table to :func:`typed_table`."""

    def __init__(self, table: pa.Table) -> None:
        self.table = table
        self._rows: list[dict[str, Any]] | None = None

    def __len__(self) -> int:
        return self.table.num_rows

    def __getitem__(self, index: Any) -> Any:
        if self._rows is None:
            self._rows = self.table.to_pylist()
        return self._rows[index]

    @property
    def ids(self) -> list[Any]:
        return self.table.column("id").to_pylist()  # type: ignore[no-any-return]


_META = pa.struct([("filter_count", pa.int64()), ("total_count", pa.int64())])


def decode_rows(
    content: bytes, coll: Collection, names: Sequence[str]
) -> tuple[ArrowRows, dict[str, int]] | None:
    """A list answer (``{"data": [...], "meta": {...}}``) of plain fields ``names`` of
    ``coll``, parsed by pyarrow; None when the answer is not that simple case (other or
    nested fields, values of other types, a pretty-printed body, a field left out), which
    the caller then decodes the general way."""
    import io

    import pyarrow.json as pj

    if b"\n" in content or not names:
        return None
    fields = [coll.field(n) for n in names if n in coll]
    if len(fields) != len(names) or any(not f.is_stored for f in fields):
        return None
    item = pa.struct([(f.name, _ARROW_TYPES[f.type]) for f in fields])
    schema = pa.schema([("data", pa.list_(item)), ("meta", _META)])
    options = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error")
    try:
        table = pj.read_json(
            io.BytesIO(content),
            read_options=pj.ReadOptions(use_threads=False, block_size=max(1 << 20, len(content))),
            parse_options=options,
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if table.num_rows != 1:
        return None
    data = table.column("data").combine_chunks()
    if data.null_count:
        return None
    rows = data.flatten()
    if len(rows) and any(f'"{f.name}":'.encode() not in content for f in fields):
        return None  # a requested field the service left out: absent, not null
    columns = rows.flatten() if len(rows) else [pa.array([], f.type) for f in item]
    meta_value = table.column("meta")[0].as_py() or {}
    meta = {k: int(v) for k, v in meta_value.items() if v is not None}
    return ArrowRows(pa.Table.from_arrays(columns, names=[f.name for f in fields])), meta


def typed_table(rows: ArrowRows, coll: Collection) -> pa.Table:
    """The table of :class:`ArrowRows` with datetimes parsed and decimals as numbers."""
    return _typed(rows.table, coll)


def _typed(table: pa.Table, coll: Collection) -> pa.Table:
    """Columns in their JSON representation made typed: datetimes parsed (a malformed one
    raises ``ArrowInvalid``), decimals, which arrive as text, cast to numbers."""
    for i, name in enumerate(table.column_names):
        f = coll.field(name)
        if f.type is FieldType.DATETIME:
            parsed = pc.strptime(table.column(i), "%Y-%m-%dT%H:%M:%S", DATETIME_UNIT)
            table = table.set_column(i, name, parsed)
        elif f.type is FieldType.DECIMAL:
            table = table.set_column(i, name, table.column(i).cast(pa.float64()))
    return table
