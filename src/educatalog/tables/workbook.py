"""The workbook of tables for readers: :func:`write_excel`.

Every sheet stands alone, so that a sheet copied into another workbook still says what it
counted: its title (with the demo mark where the data are synthetic), the table with frozen
header rows and number formats (thousands separators; percentages as numbers with a
percent format; dates and months as Excel dates, years as numbers), totals and subtotals in
bold, and
under it its notes, source, "Stand" (the date of the data), filters and, for a per-capita
table, the population figures. Numbers stay numbers; the symbols of official statistics
read as on the page (:mod:`educatalog.tables.symbols`): a number format shows an exact zero
as "–", and an unknown ("."), unreliable ("/") or meaningless ("x") figure is a text symbol
right-aligned like the numbers. Every sheet prints on A4 landscape, fit to the page's width,
its title and header rows repeated on every page. A first sheet ("Über diese Daten" / "About
these data") gives the same for the whole workbook, lists the sheets and explains the
symbols. The workbook's properties name its title, language and creator (educatalog and its
version).
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, overload

import numpy as np
import pandas as pd

from educatalog import texts
from educatalog._version import __version__
from educatalog.errors import require
from educatalog.frames.excel import check_rows, sheet_names, text_cell
from educatalog.frames.provenance import Source, source_of
from educatalog.tables import symbols
from educatalog.tables.provenance import Provenance

if TYPE_CHECKING:
    from openpyxl import Workbook
    from openpyxl.worksheet.worksheet import Worksheet

    from educatalog.tables import Table

__all__ = ["EXCEL_FORMATS", "write_excel"]

EXCEL_FORMATS: dict[str, str] = {
    kind: symbols.excel_format(base)
    for kind, base in {
        "count": "#,##0",
        "share": "0.0%",
        "rate": "#,##0.00",
        "money": "#,##0.00",
        "decimal": "#,##0.0",
    }.items()
}
"""Excel number format of each kind of column (Excel shows them in the reader's locale), an
exact zero shown as "–" (``#,##0;-#,##0;"–"``)."""

DATE_FORMATS: dict[str, str] = {"de": "DD.MM.YYYY", "en": "D MMM YYYY"}
"""Excel number format of a date, per language."""

MONTH_FORMATS: dict[str, str] = {"de": "[$-407]MMM YYYY", "en": "[$-809]MMM YYYY"}
"""Excel number format of a month (a row of a table by month: its first day, a date, so
that the rows sort and filter as months), its name in the workbook's language."""

LANGUAGE_TAGS: dict[str, str] = {"de": "de-DE", "en": "en-GB"}
"""The workbook's language property, per language."""

_RED = "B00020"


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
    """Write ``tables`` into a workbook at ``path`` (or a binary file object) whose every
    sheet stands alone; returns the path.

    The first sheet ("Über diese Daten" / "About these data") gives the ``title``, the
    source (for a service its URL without credentials; for the synthetic demo catalogue
    its seed and scale, never a passing loopback address), the retrieval time, the
    ``filters``, the demo mark, the population figures' source, basis and reference date
    (``population``, or that of a per-capita table among ``tables``), when it was written
    and the sheets. Each table gets a sheet named after its :attr:`~Table.sheet` or title
    (cut after a whole word, unique), with the title above (and the demo mark), frozen
    header rows and index columns, number formats, dates as Excel dates, column widths to
    fit, totals in bold, and under it its notes, source, "Stand", filters and population
    figures. Text starting with ``=`` stays text.
    """
    require("excel", "openpyxl", what="tables.write_excel")
    from openpyxl import Workbook

    lang = texts.check_lang(lang)
    tables = list(tables)
    found = _source(source, tables)
    if population is None:
        population = next((t.population for t in tables if t.population), None)
    provenance = Provenance(lang, found, tuple(filters), population)
    names = sheet_names(
        [
            t.sheet or t.title or f"{texts.text('excel.table', lang)} {i + 1}"
            for i, t in enumerate(tables)
        ],
        reserved=[texts.text("excel.about", lang)],
    )
    book = Workbook()
    _properties(book, title, provenance)
    _about_sheet(book, title, provenance, names)
    for table, name in zip(tables, names, strict=True):
        _table_sheet(book, table, name, provenance)
    if isinstance(path, str | os.PathLike):
        target = Path(path)
        book.save(target)
        return target
    book.save(path)
    return path


def _source(source: Source | str | None, tables: Sequence[Table]) -> Source | None:
    if isinstance(source, Source):
        return source
    if source is not None:
        return source_of(pd.DataFrame(), source)
    return next((t.source for t in tables if t.source is not None), None)


def _properties(book: Workbook, title: str | None, provenance: Provenance) -> None:
    """Title, creator ("educatalog <version>"), language and subject of the workbook."""
    lang = provenance.lang
    properties = book.properties
    properties.title = title or texts.text("excel.heading", lang)
    properties.creator = f"educatalog {__version__}"
    properties.lastModifiedBy = f"educatalog {__version__}"
    properties.language = LANGUAGE_TAGS[lang]
    if provenance.source is not None:
        properties.subject = provenance.source.text(lang)
    if provenance.demo:
        properties.keywords = texts.text("demo_mark", lang)


def _about_sheet(
    book: Workbook, title: str | None, provenance: Provenance, names: Sequence[str]
) -> None:
    from openpyxl.styles import Alignment, Font
    from openpyxl.worksheet.worksheet import Worksheet

    lang, found = provenance.lang, provenance.source
    about = book.active
    assert isinstance(about, Worksheet)  # a new workbook's only sheet
    about.title = texts.text("excel.about", lang)
    rows: list[tuple[str, str]] = []
    if title:
        rows.append((texts.text("excel.title", lang), title))
    if found is not None:
        rows.append((texts.text("excel.source", lang), found.text(lang, dated=False)))
        if found.url and not found.demo:
            rows.append((texts.text("excel.service", lang), found.url))
        rows.append((texts.text("excel.as_of", lang), texts.date(found.stand, lang)))
        rows.append((texts.text("excel.retrieved", lang), texts.datetime(found.fetched_at, lang)))
    else:
        rows.append((texts.text("excel.source", lang), texts.text("source.unknown", lang)))
    filters = "; ".join(provenance.filters) or texts.text("excel.none", lang)
    rows.append((texts.text("excel.filters", lang), filters))
    if provenance.demo:
        rows.append((texts.text("excel.note", lang), texts.text("excel.demo", lang)))
    if provenance.population:
        population = texts.population_text(provenance.population, lang, licence=True)
        rows.append((texts.text("excel.population", lang), population))
    now = dt.datetime.now(dt.UTC)
    rows.append((texts.text("excel.written", lang), texts.datetime(now, lang)))
    rows.append((texts.text("excel.sheets", lang), ", ".join(names)))
    legend = symbols.Legend(lang)
    rows.append((legend.title, ""))
    rows.extend(symbols.legend(lang))
    about.append([texts.text("excel.heading", lang)])
    about["A1"].font = Font(bold=True, size=13)
    about.append([])
    for label, value in rows:
        about.append([text_cell(about, label), text_cell(about, value)])
        about.cell(about.max_row, 1).font = Font(bold=True)
        if value == texts.text("excel.demo", lang):
            about.cell(about.max_row, 2).font = Font(bold=True, color=_RED)
        if label in symbols.SYMBOLS:  # a symbol of the legend, centred
            about.cell(about.max_row, 1).alignment = Alignment(horizontal="center")
    about.column_dimensions["A"].width = max(len(r[0]) for r in rows) + 4
    about.column_dimensions["B"].width = min(100, max(len(r[1]) for r in rows) + 4)
    for row in about.iter_rows(min_row=3):
        row[1].alignment = Alignment(wrap_text=True, vertical="top")


def _table_sheet(book: Workbook, table: Table, name: str, provenance: Provenance) -> None:
    """One sheet: title (and demo mark), header, rows, then notes and provenance."""
    from openpyxl.styles import Alignment, Font

    lines = provenance.lines(table)
    check_rows(name, len(table.frame) + 2 + len(table.notes) + len(lines))
    sheet = book.create_sheet(name)
    sheet.append([text_cell(sheet, provenance.heading(table, name))])
    sheet["A1"].font = Font(bold=True, size=12, color=_RED if provenance.demo else None)
    n_index = table.frame.index.nlevels
    header_row = _header(sheet, table, provenance.lang)
    first_total = header_row + len(table.frame) - table.totals + 1
    rows = zip(table.frame.index, table.frame.itertuples(index=False), strict=True)
    for n, (key, values) in enumerate(rows):
        keys = key if isinstance(key, tuple) else (key,)
        cells = [_key_cell(sheet, k, provenance.lang) for k in keys]
        for value, column in zip(values, table.frame.columns, strict=True):
            cells.append(_value(sheet, value, table.kinds.get(str(column), "text"), table.lang))
        sheet.append(cells)
        if sheet.max_row >= first_total or n in table.subtotals:  # totals, subtotals bold
            for cell in sheet[sheet.max_row]:
                cell.font = Font(bold=True)
    _number_formats(sheet, table, header_row, n_index)
    sheet.freeze_panes = sheet.cell(header_row + 1, n_index + 1)
    _page_setup(sheet, header_row)
    _widths(sheet, table, n_index)
    if table.notes or lines:
        sheet.append([])
    for note in table.notes:
        sheet.append([text_cell(sheet, note)])
    for label, text in lines:
        sheet.append([text_cell(sheet, f"{label}: {text}")])
        if text == texts.text("excel.demo", provenance.lang):
            sheet.cell(sheet.max_row, 1).font = Font(bold=True, color=_RED)
    for row in sheet.iter_rows(min_row=header_row, max_row=header_row):
        for cell in row:
            cell.alignment = Alignment(wrap_text=True, vertical="bottom")


def _header(sheet: Worksheet, table: Table, lang: str) -> int:
    """The header row (index names, then the column headers; dates as dates)."""
    from openpyxl.styles import Font

    index_names = [str(n) if n is not None else "" for n in table.frame.index.names]
    cells = [text_cell(sheet, h) for h in index_names]
    for header in map(str, table.frame.columns):
        cells.append(table.dates.get(header) or text_cell(sheet, header.rstrip()))
    sheet.append(cells)
    row = sheet.max_row
    for cell in sheet[row]:
        cell.font = Font(bold=True)
        if isinstance(cell.value, dt.date):
            cell.number_format = DATE_FORMATS[lang]
    return row


def _key_cell(sheet: Worksheet, key: Any, lang: str) -> Any:
    """A row's label: a date or a month as an Excel date, a year as a number (not text that
    Excel flags), anything else as the page writes it (a quarter too: Excel has no format
    for quarters)."""
    from openpyxl.cell import WriteOnlyCell

    if isinstance(key, pd.Period) and key.freqstr[0] == "M":
        cell = WriteOnlyCell(sheet, value=key.to_timestamp().to_pydatetime())
        cell.number_format = MONTH_FORMATS[lang]
        return cell
    if isinstance(key, dt.date):
        when = key if isinstance(key, dt.datetime) else dt.datetime.combine(key, dt.time())
        cell = WriteOnlyCell(sheet, value=when)
        cell.number_format = DATE_FORMATS[lang]
        return cell
    if isinstance(key, pd.Period) and key.freqstr[0] in ("Y", "A"):
        key = key.year
    if isinstance(key, int | np.integer) and not isinstance(key, bool):  # a year, a count
        cell = WriteOnlyCell(sheet, value=int(key))
        cell.number_format = "0"
        return cell
    return text_cell(sheet, key if isinstance(key, str) else texts.label(key, lang))


def _number_formats(sheet: Worksheet, table: Table, header_row: int, n_index: int) -> None:
    """Each column's format (a share below 0.05 % that is not 0 shows as "0.0%", as on the
    page); a symbol in a column of numbers right-aligned as they are."""
    from openpyxl.styles import Alignment

    for j, column in enumerate(table.frame.columns, start=n_index + 1):
        fmt = EXCEL_FORMATS.get(table.kinds.get(str(column), "text"))
        if not fmt:
            continue
        for (cell,) in sheet.iter_rows(
            min_row=header_row + 1, max_row=header_row + len(table.frame), min_col=j, max_col=j
        ):
            cell.number_format = fmt
            if isinstance(cell.value, str):  # ".", "/", "x": where the number would be
                cell.alignment = Alignment(horizontal="right")


def _page_setup(sheet: Worksheet, header_row: int) -> None:
    """A4 landscape, fit to the page's width, the title and header rows on every page."""
    from openpyxl.worksheet.properties import PageSetupProperties

    sheet.print_title_rows = f"1:{header_row}"
    sheet.page_setup.orientation = "landscape"
    sheet.page_setup.paperSize = sheet.PAPERSIZE_A4
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 0  # as many pages down as it needs
    sheet.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)


def _widths(sheet: Worksheet, table: Table, n_index: int) -> None:
    from openpyxl.utils import get_column_letter

    formatted = table.formatted()
    index_names = [str(n) if n is not None else "" for n in table.frame.index.names]
    for j in range(1, n_index + len(table.frame.columns) + 1):
        if j <= n_index:
            labels = [
                index_names[j - 1],
                *(table.key_text(_level(k, j - 1)) for k in table.frame.index),
            ]
            width = max(len(v) for v in labels) + 2
        else:
            column = table.frame.columns[j - n_index - 1]
            longest = max([len(v) for v in formatted[column]] or [0])
            width = max(longest + 3, min(len(str(column)), 40) + 2)
        sheet.column_dimensions[get_column_letter(j)].width = max(8, min(width, 60))


def _level(key: Any, level: int) -> Any:
    return key[level] if isinstance(key, tuple) else key


def _value(sheet: Any, value: Any, kind: str, lang: str) -> Any:
    if kind == "text" or isinstance(value, str):
        return text_cell(sheet, texts.missing(lang) if texts.is_missing(value) else str(value))
    if texts.is_missing(value):  # as the page shows it ("."), not a blank cell
        return text_cell(sheet, symbols.UNKNOWN)
    number = float(value)
    return int(number) if kind == "count" and number.is_integer() else number
