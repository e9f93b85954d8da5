"""Tables for readers: headers in words with their unit, shares as percentages, counts as
whole numbers, in one language, the same in HTML and in Excel.

>>> table = tables.present(offers.edu.supply(by="state"), "de", title="Angebot nach Land")
>>> table                                   # in a notebook: an accessible HTML table
>>> tables.write_excel("tables.xlsx", [table], source=cat.source, lang="de")  # doctest: +SKIP

:func:`present` turns a table of :mod:`educatalog.stats` into a :class:`Table`: index
labels as a reader sees them (:func:`educatalog.texts.label`), index names and column
headers in words (``events`` -> "Veranstaltungen", ``share`` -> "Anteil (%)",
``population`` -> "Einwohner am 31.12.2022"), the values unchanged. :meth:`Table.to_html`
formats them with Babel (``1.635``, ``10,4 %``) in a ``<table>`` with a caption and
header cells with ``scope``; :func:`write_excel` writes the same tables into a workbook
that stands alone: a first sheet with the title, source, retrieval time, filters, the demo
mark and the population figures' source and date, then one sheet per table with number
formats (thousands separators, percent), column widths and frozen header rows. Text that
starts with ``=`` stays text.
"""

from __future__ import annotations

import datetime as dt
import html
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, overload

import pandas as pd

from educatalog import texts
from educatalog.errors import UsageError
from educatalog.excel import check_rows, sheet_names, text_cell
from educatalog.provenance import SOURCE_ATTR, Source, source_of
from educatalog.texts import population_text

__all__ = ["EXCEL_FORMATS", "Table", "population_text", "present", "write_excel"]

_KINDS = ("count", "share", "rate", "money", "decimal", "text")

EXCEL_FORMATS: dict[str, str] = {
    "count": "#,##0",
    "share": "0.0%",
    "rate": "#,##0.00",
    "money": "#,##0.00",
    "decimal": "#,##0.0",
}
"""Excel number format of each kind of column (Excel shows them in the reader's locale)."""

_COLUMNS: dict[str, tuple[str, str]] = {
    # column: (header text key, kind)
    "events": ("column.events", "count"),
    "courses": ("column.courses", "count"),
    "institutions": ("column.institutions", "count"),
    "capacity": ("column.capacity", "count"),
    "events_with_capacity": ("column.events_with_capacity", "count"),
    "mean_capacity": ("column.mean_capacity", "decimal"),
    "share": ("column.share", "share"),
    "share_no": ("column.share_no", "share"),
    "share_unknown": ("column.share_unknown", "share"),
    "yes": ("column.yes", "count"),
    "no": ("column.no", "count"),
    "unknown": ("column.unknown", "count"),
    "population": ("column.population", "count"),
    "events_per_100k": ("column.events_per_100k", "rate"),
    "count": ("column.count", "count"),
    "total": ("column.total", "count"),
    "min": ("column.min", "money"),
    "q1": ("column.q1", "money"),
    "median": ("column.median", "money"),
    "q3": ("column.q3", "money"),
    "max": ("column.max", "money"),
    "mean": ("column.mean", "money"),
    "listed": ("measure.listed", "count"),
    "entered": ("measure.entered", "count"),
    "exited": ("measure.exited", "count"),
    "net": ("measure.net", "count"),
    "median_days": ("column.median_days", "decimal"),
}


@dataclass
class Table:
    """A table for readers: ``frame`` with headers in words and the values as numbers,
    ``kinds`` (per column: count, share, rate, money, decimal or text), ``title``,
    ``notes`` (lines under it) and ``lang``."""

    frame: pd.DataFrame
    kinds: dict[str, str]
    lang: str = texts.DEFAULT_LANG
    title: str | None = None
    notes: list[str] = field(default_factory=list)
    source: Source | None = None
    population: dict[str, Any] | None = None
    """The origin of the population figures of a per-capita table (source, date ...)."""

    def cell(self, value: Any, column: str) -> str:
        """One value as the reader sees it, in :attr:`lang`."""
        kind = self.kinds.get(column, "text")
        if kind == "text" or isinstance(value, str):
            return texts.missing(self.lang) if texts.is_missing(value) else str(value)
        if texts.is_missing(value):
            return "–"
        if kind == "count":
            return texts.number(value, self.lang)
        if kind == "share":
            return texts.percent(value, self.lang, 1)
        if kind == "decimal":
            return texts.number(value, self.lang, 1)
        if kind == "rate":
            return texts.rate(value, self.lang)
        return texts.number(value, self.lang, 2)

    def formatted(self) -> pd.DataFrame:
        """The table with every value as text, as :meth:`to_html` shows it."""
        return pd.DataFrame(
            {c: [self.cell(v, str(c)) for v in self.frame[c]] for c in self.frame.columns},
            index=self.frame.index,
        )

    def to_html(self) -> str:
        """An accessible HTML table: the title as ``<caption>``, header cells with
        ``scope``, numbers right-aligned in the language's format, notes below."""
        frame = self.frame
        names = [n for n in frame.index.names if n is not None]
        caption = f"<caption>{html.escape(self.title)}</caption>" if self.title else ""
        corner = "".join(f'<th scope="col">{html.escape(str(n))}</th>' for n in names) or (
            '<td aria-hidden="true"></td>'
        )
        head = "".join(f'<th scope="col">{html.escape(str(c))}</th>' for c in frame.columns)
        rows = []
        for key, values in zip(frame.index, frame.itertuples(index=False), strict=True):
            keys = key if isinstance(key, tuple) else (key,)
            th = "".join(f'<th scope="row">{html.escape(str(k))}</th>' for k in keys)
            cells = "".join(
                f'<td class="{self.kinds.get(str(c), "text")}">'
                f"{html.escape(self.cell(v, str(c)))}</td>"
                for v, c in zip(values, frame.columns, strict=True)
            )
            rows.append(f"<tr>{th}{cells}</tr>")
        notes = "".join(f"<p class='educatalog-note'>{html.escape(n)}</p>" for n in self.notes)
        return (
            f"{_STYLE}<table class='educatalog-table' lang='{self.lang}'>{caption}"
            f"<thead><tr>{corner}{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
            f"{notes}"
        )

    def _repr_html_(self) -> str:
        return self.to_html()


_STYLE = (
    "<style>table.educatalog-table{border-collapse:collapse;font-variant-numeric:tabular-nums;"
    "margin:0.4em 0 0.6em}table.educatalog-table caption{text-align:left;font-weight:bold;"
    "padding:0 0 0.3em;color:#1a1a1a}table.educatalog-table th,table.educatalog-table td"
    "{padding:2px 10px;border-bottom:1px solid #d0d0d0;color:#1a1a1a}"
    "table.educatalog-table thead th{text-align:right!important;vertical-align:bottom;"
    "border-bottom:1px solid #555}table.educatalog-table thead th:first-child"
    "{text-align:left!important}table.educatalog-table tbody th{text-align:left!important;"
    "font-weight:normal}table.educatalog-table td{text-align:right!important}"
    "table.educatalog-table td.text{text-align:left!important}"
    ".educatalog-note{font-size:0.9em;color:#333}</style>"
)


def present(
    table: pd.DataFrame,
    lang: str = texts.DEFAULT_LANG,
    *,
    title: str | None = None,
    kinds: Mapping[str, str] | None = None,
    source: Source | str | None = None,
) -> Table:
    """``table`` (of :mod:`educatalog.stats`, or any frame) for readers in ``lang``.

    Columns of the statistics get headers in words with their unit and a kind that says
    how to show them; other columns keep their name (categories of a crosstab as labels)
    and are counts when whole numbers, else decimals (``kinds`` overrides, by the original
    column name: ``"count"``, ``"share"``, ``"rate"``, ``"money"``, ``"decimal"``,
    ``"text"``). A quality table shows its checks in words. The per-capita table's
    population column names the figures' reference date.
    """
    lang = texts.check_lang(lang)
    frame = table.copy()
    chosen = dict(kinds or {})
    for name, kind in chosen.items():
        if kind not in _KINDS:
            raise UsageError(f"Unknown kind {kind!r} for {name!r}; choose one of {_KINDS}.")
    attrs = table.attrs.get(SOURCE_ATTR, {}) if isinstance(table.attrs, dict) else {}
    notes: list[str] = []
    if "check" in (frame.index.names or []) or (
        "description" in frame.columns and "count" in frame.columns
    ):
        frame = frame.drop(columns=[c for c in ("description",) if c in frame.columns])
        frame.index = pd.Index(
            [
                texts.text(f"check.{k}", lang) if texts.has_text(f"check.{k}") else str(k)
                for k in frame.index
            ],
            name=texts.capitalized(texts.dimension("check", lang)),
        )
    else:
        frame.index = _labels(frame.index, lang)
    unit = _currency_unit(table, lang)
    population = attrs.get("population") if isinstance(attrs, Mapping) else None
    headers: dict[str, str] = {}
    result_kinds: dict[str, str] = {}
    for column in frame.columns:
        name = str(column)
        if name in _COLUMNS:
            key, kind = _COLUMNS[name]
            if name == "population":
                date = (population or {}).get("date")
                header = (
                    texts.text(key, lang, date=texts.date(date, lang))
                    if date
                    else texts.text("column.population_nodate", lang)
                )
            else:
                header = texts.text(key, lang, unit=unit)
        else:
            header = texts.label(column, lang)
            kind = "count" if _whole(frame[column]) else "decimal"
        kind = chosen.get(name, kind)
        while header in headers.values():
            header += " "
        headers[name] = header
        result_kinds[header] = kind
    frame.columns = pd.Index([headers[str(c)] for c in frame.columns])
    if population:
        notes.append(texts.text("population", lang, source=texts.population_text(population, lang)))
    found = source_of(table, source)
    origin = dict(population) if isinstance(population, Mapping) else None
    return Table(frame, result_kinds, lang, title, notes, found, origin)


def _labels(index: pd.Index, lang: str) -> pd.Index:
    if isinstance(index, pd.MultiIndex):
        tuples = [tuple(texts.label(v, lang) for v in key) for key in index]
        names = [_index_name(n, lang) for n in index.names]
        return pd.MultiIndex.from_tuples(tuples, names=names)
    return pd.Index([texts.label(v, lang) for v in index], name=_index_name(index.name, lang))


def _index_name(name: Any, lang: str) -> str | None:
    if name is None:
        return None
    return texts.capitalized(texts.dimension(str(name), lang))


def _whole(column: pd.Series) -> bool:
    if pd.api.types.is_integer_dtype(column.dtype):
        return True
    if not pd.api.types.is_numeric_dtype(column.dtype) or pd.api.types.is_bool_dtype(column):
        return False
    values = pd.to_numeric(column, errors="coerce").dropna()
    return bool(((values % 1) == 0).all())


def _currency_unit(table: pd.DataFrame, lang: str) -> str:
    names = list(table.index.names or [])
    if "currency" not in names:
        return ""
    currencies = sorted({str(c) for c in table.index.get_level_values("currency").dropna()})
    return currencies[0] if len(currencies) == 1 else texts.text("unit.currency", lang)


# -- Excel -------------------------------------------------------------------------------


@overload
def write_excel(
    path: str | os.PathLike[str],
    tables: Iterable[Table],
    *,
    lang: str = ...,
    title: str | None = ...,
    source: Source | str | None = ...,
    filters: Sequence[str] = ...,
    population: Mapping[str, Any] | None = ...,
) -> Path: ...


@overload
def write_excel(
    path: IO[bytes],
    tables: Iterable[Table],
    *,
    lang: str = ...,
    title: str | None = ...,
    source: Source | str | None = ...,
    filters: Sequence[str] = ...,
    population: Mapping[str, Any] | None = ...,
) -> IO[bytes]: ...


def write_excel(
    path: str | os.PathLike[str] | IO[bytes],
    tables: Iterable[Table],
    *,
    lang: str = texts.DEFAULT_LANG,
    title: str | None = None,
    source: Source | str | None = None,
    filters: Sequence[str] = (),
    population: Mapping[str, Any] | None = None,
) -> Path | IO[bytes]:
    """Write ``tables`` into a workbook at ``path`` (or a binary file object) that stands
    alone; returns the path.

    The first sheet ("Über diese Daten" / "About these data") gives the ``title``, the
    source (URL without credentials), the retrieval time, the ``filters``, the demo mark
    where the data are the synthetic demo catalogue, the population figures' source and
    reference date (``population``, or that of a per-capita table among ``tables``), when
    it was written and the sheets. Each table gets a sheet named after its title, with the
    title above, frozen header rows and index columns, number formats (thousands
    separators, percent), column widths to fit, and notes below. Text starting with ``=``
    stays text.
    """
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.worksheet import Worksheet

    lang = texts.check_lang(lang)
    tables = list(tables)
    found = source if isinstance(source, Source) else None
    if found is None:
        found = source_of(pd.DataFrame(), source) if source is not None else None
    if found is None:
        found = next((t.source for t in tables if t.source is not None), None)
    if population is None:
        population = next((t.population for t in tables if t.population), None)
    names = sheet_names(
        [t.title or f"{texts.text('excel.table', lang)} {i + 1}" for i, t in enumerate(tables)],
        reserved=[texts.text("excel.about", lang)],
    )
    book = Workbook()
    about = book.active
    assert isinstance(about, Worksheet)  # a new workbook's only sheet
    about.title = texts.text("excel.about", lang)
    bold = Font(bold=True)
    rows: list[tuple[str, str]] = []
    if title:
        rows.append((texts.text("excel.title", lang), title))
    if found is not None:
        rows.append((texts.text("excel.source", lang), found.text(lang)))
        if found.url:
            rows.append((texts.text("excel.service", lang), found.url))
        rows.append((texts.text("excel.retrieved", lang), texts.datetime(found.fetched_at, lang)))
    else:
        rows.append((texts.text("excel.source", lang), texts.text("source.unknown", lang)))
    rows.append(
        (texts.text("excel.filters", lang), "; ".join(filters) or texts.text("excel.none", lang))
    )
    if found is not None and found.demo:
        rows.append((texts.text("excel.note", lang), texts.text("excel.demo", lang)))
    if population:
        rows.append((texts.text("excel.population", lang), texts.population_text(population, lang)))
    now = dt.datetime.now(dt.UTC)
    rows.append((texts.text("excel.written", lang), texts.datetime(now, lang)))
    rows.append((texts.text("excel.sheets", lang), ", ".join(names)))
    about.append([texts.text("excel.heading", lang)])
    about["A1"].font = Font(bold=True, size=13)
    about.append([])
    for label, value in rows:
        about.append([text_cell(about, label), text_cell(about, value)])
        about.cell(about.max_row, 1).font = bold
        if found is not None and found.demo and value == texts.text("excel.demo", lang):
            about.cell(about.max_row, 2).font = Font(bold=True, color="B00020")
    about.column_dimensions["A"].width = max(len(r[0]) for r in rows) + 4
    about.column_dimensions["B"].width = min(100, max(len(r[1]) for r in rows) + 4)
    for row in about.iter_rows(min_row=3):
        row[1].alignment = Alignment(wrap_text=True, vertical="top")

    for table, name in zip(tables, names, strict=True):
        frame = table.frame
        check_rows(name, len(frame) + 1 + 2 * len(table.notes))  # the title row, the notes
        sheet = book.create_sheet(name)
        n_index = frame.index.nlevels
        sheet.append([text_cell(sheet, table.title or name)])
        sheet["A1"].font = Font(bold=True, size=12)
        index_names = [str(n) if n is not None else "" for n in frame.index.names]
        sheet.append([text_cell(sheet, h) for h in [*index_names, *map(str, frame.columns)]])
        header_row = sheet.max_row
        for cell in sheet[header_row]:
            cell.font = bold
            cell.alignment = Alignment(wrap_text=True, vertical="bottom")
        for key, values in zip(frame.index, frame.itertuples(index=False), strict=True):
            keys = key if isinstance(key, tuple) else (key,)
            cells = [text_cell(sheet, str(k)) for k in keys]
            for value, column in zip(values, frame.columns, strict=True):
                kind = table.kinds.get(str(column), "text")
                cells.append(_value(sheet, value, kind, table.lang))
            sheet.append(cells)
        for j, column in enumerate(frame.columns, start=n_index + 1):
            fmt = EXCEL_FORMATS.get(table.kinds.get(str(column), "text"))
            if fmt:
                for (cell,) in sheet.iter_rows(
                    min_row=header_row + 1, max_row=sheet.max_row, min_col=j, max_col=j
                ):
                    cell.number_format = fmt
        sheet.freeze_panes = sheet.cell(header_row + 1, n_index + 1)
        formatted = table.formatted()
        for j in range(1, n_index + len(frame.columns) + 1):
            if j <= n_index:
                labels = [index_names[j - 1], *(str(_level(k, j - 1)) for k in frame.index)]
                width = max(len(v) for v in labels) + 2
            else:
                column = frame.columns[j - n_index - 1]
                longest = max([len(v) for v in formatted[column]] or [0])
                width = max(longest + 3, min(len(str(column)), 40) + 2)
            sheet.column_dimensions[get_column_letter(j)].width = max(8, min(width, 60))
        for note in table.notes:
            sheet.append([])
            sheet.append([text_cell(sheet, note)])
    if isinstance(path, str | os.PathLike):
        target = Path(path)
        book.save(target)
        return target
    book.save(path)
    return path


def _level(key: Any, level: int) -> Any:
    return key[level] if isinstance(key, tuple) else key


def _value(sheet: Any, value: Any, kind: str, lang: str) -> Any:
    if kind == "text" or isinstance(value, str):
        return text_cell(sheet, texts.missing(lang) if texts.is_missing(value) else str(value))
    if texts.is_missing(value):
        return None
    number = float(value)
    return int(number) if kind == "count" and number.is_integer() else number
