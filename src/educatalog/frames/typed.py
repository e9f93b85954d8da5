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
from typing import Any, Final, cast

import pandas as pd
import pyarrow as pa

from educatalog.client import Page
from educatalog.client._decoding import ARROW_TYPES

# The page decoder moved to the transport layer; its name stays importable from here.
from educatalog.client._decoding import decode_rows as decode_rows
from educatalog.model.schema import SCHEMA, Collection, Field, FieldType, Schema

__all__ = [
    "DATETIME_DTYPE",
    "DATETIME_UNIT",
    "DTYPES",
    "arrow_table",
    "arrow_to_frame",
    "page_table",
    "python_values",
    "to_frame",
    "typed_column",
]

DATETIME_UNIT: Final = "us"
"""The one resolution of every datetime column educatalog makes: ``load``,
``load_catalogue``, ``offers`` and ``snapshot.load``. Microseconds are what pyarrow parses
(no conversion of a million dates), what Parquet keeps, what pandas 3 infers from text, and
they hold any date a service may send (nanoseconds end in the year 2262)."""

DATETIME_DTYPE: Final = "datetime64[us]"
"""The dtype of every datetime column (of :data:`DATETIME_UNIT`)."""

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
    schema: Schema = SCHEMA,
) -> pd.DataFrame:
    """A typed DataFrame of ``rows`` of ``collection`` (see the module docstring)."""
    coll = schema[collection] if isinstance(collection, str) else collection
    fast = _arrow_frame(rows, coll)
    if fast is not None:
        return fast
    columns: dict[str, pd.Series] = {}
    _add_columns(columns, rows, coll, "", schema)
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
    schema: Schema,
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
            target = schema.expansion_target(f)
            nested = [v if isinstance(v, dict) else {} for v in values]
            _add_columns(out, nested, target, f"{label}_", schema)
            continue
        out[label] = typed_column(values, f, label)


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
            pa.array([row[name] for row in rows], type=ARROW_TYPES[coll.field(name).type])
            for name in names
        ]
        return _typed(pa.Table.from_arrays(columns, names=names), coll)
    except (KeyError, pa.ArrowInvalid, pa.ArrowTypeError, TypeError, OverflowError):
        return None


def arrow_to_frame(table: pa.Table, *, release: bool = False) -> pd.DataFrame:
    """An Arrow table of :func:`arrow_table` as a DataFrame with the catalogue's dtypes.

    ``release=True`` frees each column's Arrow memory as soon as it is converted, and keeps
    the columns in blocks of their own (not copied into one block a dtype): the table must
    not be used afterwards, and memory is only freed where nothing else holds it."""
    frame: pd.DataFrame = table.to_pandas(
        types_mapper=_PANDAS_TYPES.get, split_blocks=release, self_destruct=release
    )
    return frame


def page_table(page: Page, coll: Collection) -> pa.Table | None:
    """A page of ``coll`` as an Arrow table typed from the catalogue, however it was decoded:
    the table pyarrow parsed, typed, or :func:`arrow_table` of its row dicts. None when the
    rows are not that simple case (for an Arrow page: a malformed datetime), which
    :func:`to_frame` then takes the general way (and warns of a malformed value).
    """
    if page.arrow is None:
        return arrow_table(page.data, coll)
    try:
        return _typed(page.arrow, coll)
    except pa.ArrowInvalid:
        return None


def _typed(table: pa.Table, coll: Collection) -> pa.Table:
    """Columns in their JSON representation made typed: datetimes parsed (a malformed one
    raises ``ArrowInvalid``), decimals, which arrive as text, cast to numbers.

    Datetimes are read by Arrow's ISO 8601 parser (a cast), which takes what
    ``pd.to_datetime(format="ISO8601")`` takes on the general path, refuses impossible
    dates (``strptime`` made 30 February into 2 March) and is twice as fast."""
    for i, name in enumerate(table.column_names):
        f = coll.field(name)
        if f.type is FieldType.DATETIME:
            parsed = table.column(i).cast(pa.timestamp(DATETIME_UNIT))
            table = table.set_column(i, name, parsed)
        elif f.type is FieldType.DECIMAL:
            table = table.set_column(i, name, table.column(i).cast(pa.float64()))
    return table


def python_values(column: pd.Series) -> list[Any]:
    """The values of ``column`` as Python objects, ``None`` where one is missing (``NA``,
    ``NaN``, ``NaT``): what a JSON body, a database row or a spreadsheet cell takes."""
    # pandas-stubs allow no None as na_value, which pandas documents and accepts.
    values = cast(Any, column).to_numpy(dtype=object, na_value=None)
    return list(values)
