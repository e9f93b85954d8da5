"""A snapshot's tables as CSV, Excel or plain Parquet files, for other tools."""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from educatalog.errors import UsageError
from educatalog.files.atomic import atomic_write
from educatalog.frames import excel
from educatalog.frames.typed import python_values
from educatalog.snapshot.layout import COMPRESSION, PERSONAL_FIELDS
from educatalog.snapshot.loading import load
from educatalog.snapshot.serving import SERVICE_DATETIME

# ---------------------------------------------------------------------------------------
# export

ExportFormat = Literal["csv", "xlsx", "parquet"]


def export(
    path: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    format: ExportFormat,
    include_personal: bool = False,
) -> list[Path]:
    """Write the tables of the snapshot at ``path`` into the folder ``out``; returns the files.

    ``csv`` and ``parquet``: one file per table (``events.csv``, ...); ``xlsx``: one workbook
    named after the snapshot, with one sheet per table. Personal fields are left out unless
    ``include_personal`` (a snapshot saved without them has none to give). Existing files
    are never overwritten.
    """
    if format not in ("csv", "xlsx", "parquet"):
        raise UsageError(f"format must be csv, xlsx or parquet, got {format!r}")
    catalogue = load(path)
    tables: dict[str, pd.DataFrame] = {}
    for name, frame in catalogue.items():
        personal = [f for f in PERSONAL_FIELDS.get(name, ()) if f in frame.columns]
        tables[name] = frame.drop(columns=personal) if personal and not include_personal else frame
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    if format == "xlsx":
        targets = {"": folder / f"{Path(path).resolve().name}.xlsx"}
    else:
        targets = {name: folder / f"{name}.{format}" for name in tables}
    existing = [str(t) for t in targets.values() if t.exists()]
    if existing:
        raise UsageError(f"Not overwriting existing files: {', '.join(existing)}.")
    if format == "xlsx":
        atomic_write(targets[""], lambda tmp: _write_workbook(tmp, tables))
    else:
        for name, frame in tables.items():
            atomic_write(targets[name], functools.partial(_write_flat, frame=frame, format=format))
    return list(targets.values())


def _write_flat(file: Path, *, frame: pd.DataFrame, format: str) -> None:
    if format == "csv":
        frame.to_csv(file, index=False, date_format=SERVICE_DATETIME, encoding="utf-8")
    else:
        frame = frame.copy(deep=False)
        frame.attrs = {}
        table = pa.Table.from_pandas(frame, preserve_index=False)
        pq.write_table(table, file, compression=COMPRESSION)


def sheet_names(tables: Sequence[str]) -> dict[str, str]:
    """Excel sheet names for table names: at most 31 characters, unique (case-blind)."""
    names = excel.sheet_names(tables, replace="_", fallback="table", suffix="~{n}")
    return dict(zip(tables, names, strict=True))


def _write_workbook(file: Path, tables: Mapping[str, pd.DataFrame]) -> None:
    from openpyxl import Workbook

    for name, frame in tables.items():
        excel.check_rows(name, len(frame))
    book = Workbook(write_only=True)
    for table, sheet_name in sheet_names(list(tables)).items():
        frame = tables[table]
        sheet = book.create_sheet(sheet_name)
        sheet.append([str(c) for c in frame.columns])
        columns = []
        for c in frame.columns:
            column = frame[c]
            if pd.api.types.is_datetime64_any_dtype(column.dtype):
                values = [None if pd.isna(v) else v.to_pydatetime() for v in column]
            else:
                values = python_values(column)
            columns.append(values)
        for row in zip(*columns, strict=True):
            sheet.append([excel.cell_value(sheet, v) for v in row])
    book.save(file)
