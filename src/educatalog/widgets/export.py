"""The explorer's table as a file: CSV as German or English Excel reads it, or a workbook
(:func:`educatalog.tables.write_excel`), written on the kernel's disk or offered as a
download link that carries the file in a ``data:`` URI."""

from __future__ import annotations

import base64
import csv
import datetime as dt
import html
import io
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from educatalog import tables
from educatalog.errors import UsageError
from educatalog.frames.provenance import Source
from educatalog.tables.provenance import Provenance

__all__ = ["FORMATS"]

FORMATS: dict[str, str] = {"CSV": "csv", "Excel": "xlsx"}
"""Export formats: label of the control -> file suffix."""

_MIME = {
    "csv": "text/csv;charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def file_suffix(format: str | None, chosen: str) -> str:
    """The file suffix of ``format`` (a suffix or a control's label), else of ``chosen``
    (the format control's label)."""
    suffix = format or FORMATS[chosen]
    suffix = FORMATS.get(suffix, suffix).lower().lstrip(".")
    if suffix not in FORMATS.values():
        raise UsageError(f"export() writes csv or xlsx files, not {format!r}.")
    return suffix


def presented(
    table: pd.DataFrame, lang: str, title: str, source: Source | None, measure: str
) -> tables.Table:
    """The explorer's table with its totals (``margins``) for readers: "Insgesamt" (for all
    16 states "Deutschland"), headers in words, the measure named in a note."""
    presented = tables.present(table, lang, title=title, source=source)
    presented.notes.append(measure)
    return presented


def csv_bytes(
    table: tables.Table, source: Source | None = None, filters: Sequence[str] = ()
) -> bytes:
    """UTF-8 with BOM; in German with ``;`` between fields and a decimal comma, as German
    Excel reads it; shares in percent, their header marked "(%)". As on the workbook's
    sheet, the first line is the title (with the demo mark for synthetic data) and, after
    the rows and an empty line, the notes, source, "Stand", ``filters`` and the demo mark
    follow, one a line: read the rows back with
    ``pd.read_csv(path, sep=";", decimal=",", skiprows=1, nrows=rows)``."""
    frame = table.frame.copy()
    for column, kind in table.kinds.items():
        if kind == "share":  # a number in percent: the header says so
            frame[column] = (frame[column].astype("Float64") * 100).round(2)
            frame = frame.rename(columns={column: f"{column.rstrip()} (%)"})
    german = table.lang == "de"
    separator = ";" if german else ","
    provenance = Provenance(table.lang, source or table.source, tuple(filters), None)
    text = io.StringIO()
    lines = csv.writer(text, delimiter=separator, lineterminator="\n")
    lines.writerow([provenance.heading(table)])
    frame.to_csv(text, sep=separator, decimal="," if german else ".", lineterminator="\n")
    lines.writerow([])
    for line in [*table.notes, *(f"{label}: {said}" for label, said in provenance.lines(table))]:
        lines.writerow([line])
    return ("\ufeff" + text.getvalue()).encode("utf-8")


def xlsx_bytes(table: tables.Table, source: Source | None, filters: Sequence[str]) -> bytes:
    """A workbook: a sheet on the source, ``filters`` and demo mark, then the table."""
    buffer = io.BytesIO()
    tables.write_excel(
        buffer,
        [table],
        lang=table.lang,
        title=table.title,
        source=source,
        filters=filters,
    )
    return buffer.getvalue()


def download_link(data: bytes, name: str, suffix: str, label: str) -> str:
    """An ``<a download>`` whose ``data:`` URI holds the file."""
    encoded = base64.b64encode(data).decode("ascii")
    return (
        f'<a download="{html.escape(name)}" href="data:{_MIME[suffix]};base64,{encoded}" '
        f"style='font-weight:bold'>⬇ {html.escape(label)}</a>"
    )


def new_path(folder: Path, stem: str, suffix: str) -> Path:
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / f"{stem}-{stamp}.{suffix}"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{stamp}-{n}.{suffix}"
        n += 1
    return path
