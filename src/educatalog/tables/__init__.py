"""Tables for readers: headers in words with their unit, shares as percentages, counts as
whole numbers, totals, in one language, the same in HTML and in Excel.

>>> table = tables.present(offers.edu.supply(by="state", margins=True), "de")
>>> table                                   # in a notebook: an accessible HTML table
>>> tables.write_excel("tables.xlsx", [table], source=cat.source, lang="de")  # doctest: +SKIP

:func:`present` turns a table of :mod:`educatalog.stats` into a :class:`Table`: index
labels as a reader sees them (:func:`educatalog.texts.label`), index names and column
headers in words (``events`` -> "Veranstaltungen", ``share`` -> "Anteil der
Veranstaltungen", ``population``
-> "Einwohner am 31.12.2024 (Zensus 2022)"), the values unchanged. The total row of
``margins=True`` is "Insgesamt" / "Total", or "Deutschland" / "Germany" where the table
lists all 16 states; states come in the order of their official keys with the key beside
the name. :meth:`Table.to_html` formats the values with Babel (``1.635``, ``10,4 %``) in a
``<table>`` with a caption and header cells with ``scope``, with the symbols of official
statistics ("–" exactly zero, "." unknown, "/" too few cases …:
:mod:`educatalog.tables.symbols`); :func:`write_excel` (:mod:`educatalog.tables.workbook`)
writes the same tables into a workbook whose every sheet stands alone. Text that starts
with ``=`` stays text. A per-capita table of districts under their states
(``per_capita(by="district", subtotals=True)``) shows the district key beside each name and
each state's subtotal as "Bayern zusammen" / "Bavaria total", set off like the total;
:func:`district_ranking` lists the districts with the most or the fewest events per
inhabitant.
"""

from __future__ import annotations

import datetime as dt
import html
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from educatalog import texts
from educatalog.errors import UsageError
from educatalog.frames.provenance import SOURCE_ATTR, Source, source_of
from educatalog.population import STATE_KEYS
from educatalog.tables import symbols
from educatalog.tables._districts import (
    district_ranking,
    district_rows,
    districts_of,
    is_district_table,
    is_subtotal,
    rate_column,
)
from educatalog.tables.workbook import EXCEL_FORMATS, write_excel
from educatalog.texts import population_text

__all__ = [
    "EXCEL_FORMATS",
    "Table",
    "district_ranking",
    "districts_of",
    "population_text",
    "present",
    "rate_column",
    "write_excel",
]

_KINDS = ("count", "share", "rate", "money", "decimal", "text")

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
    "listed": ("column.listed", "count"),
    "zero": ("column.zero", "count"),
    "entered": ("measure.entered", "count"),
    "exited": ("measure.exited", "count"),
    "net": ("measure.net", "count"),
    "median_days": ("column.median_days", "decimal"),
}

_STATE_NAMES = ("state", "state_code")


@dataclass
class Table:
    """A table for readers: ``frame`` with headers in words and the values as numbers
    (index labels in words, dates kept as dates), ``kinds`` (per column: count, share,
    rate, money, decimal or text), ``title``, ``notes`` (lines under it), ``lang``, its
    ``source``, the ``population`` figures of a per-capita table, ``totals`` (how many of
    its last rows are totals), ``sheet`` (a short name for its sheet in a workbook),
    ``stand`` (what its "Stand" line says; default: the source's retrieval date),
    ``dates`` (header -> date, for columns headed by a date), ``filtered`` (whether the
    workbook's filters apply to it), ``selection`` (those filters in words, the last line
    under it on the page; in a workbook its own "Filter" line says them), ``subtotals``
    (the positions of rows that are subtotals, set off as totals are: a state's districts)
    and ``legend`` (whether the page shows the explanation of symbols under it)."""

    frame: pd.DataFrame
    kinds: dict[str, str]
    lang: str = texts.DEFAULT_LANG
    title: str | None = None
    notes: list[str] = field(default_factory=list)
    source: Source | None = None
    population: dict[str, Any] | None = None
    """The origin of the population figures of a per-capita table (source, date ...)."""
    totals: int = 0
    sheet: str | None = None
    stand: str | None = None
    dates: dict[str, dt.date] = field(default_factory=dict)
    filtered: bool = True
    selection: str | None = None
    subtotals: list[int] = field(default_factory=list)
    legend: bool = False

    def cell(self, value: Any, column: str) -> str:
        """One value as the reader sees it, in :attr:`lang`, with the symbols of official
        statistics (:mod:`educatalog.tables.symbols`)."""
        kind = self.kinds.get(column, "text")
        if kind == "text" or isinstance(value, str):
            return texts.missing(self.lang) if texts.is_missing(value) else str(value)
        return symbols.cell_text(value, kind, self.lang)  # "–" for 0, "." unknown …

    def key_text(self, key: Any) -> str:
        """An index label (or header) as the reader sees it: dates in the language."""
        return key if isinstance(key, str) else texts.label(key, self.lang)

    def formatted(self) -> pd.DataFrame:
        """The table with every value as text, as :meth:`to_html` shows it."""
        return pd.DataFrame(
            {c: [self.cell(v, str(c)) for v in self.frame[c]] for c in self.frame.columns},
            index=self.frame.index,
        )

    def to_html(self) -> str:
        """An accessible HTML table: the title as ``<caption>``, header cells with
        ``scope``, numbers right-aligned in the language's format, totals in bold, notes
        below (and with :attr:`legend` the explanation of symbols)."""
        frame = self.frame
        names = [n for n in frame.index.names if n is not None]
        caption = f"<caption>{html.escape(self.title)}</caption>" if self.title else ""
        corner = "".join(
            f'<th scope="col" class="educatalog-index">{html.escape(str(n))}</th>' for n in names
        ) or ('<td aria-hidden="true"></td>')
        head = "".join(f'<th scope="col">{html.escape(str(c))}</th>' for c in frame.columns)
        rows = []
        first_total = len(frame) - self.totals
        for n, (key, values) in enumerate(
            zip(frame.index, frame.itertuples(index=False), strict=True)
        ):
            keys = key if isinstance(key, tuple) else (key,)
            th = "".join(f'<th scope="row">{html.escape(self.key_text(k))}</th>' for k in keys)
            cells = "".join(
                f'<td class="{self.kinds.get(str(c), "text")}">'
                f"{html.escape(self.cell(v, str(c)))}</td>"
                for v, c in zip(values, frame.columns, strict=True)
            )
            total = ' class="educatalog-total"' if n >= first_total or n in self.subtotals else ""
            rows.append(f"<tr{total}>{th}{cells}</tr>")
        lines = [*self.notes, *([self.selection] if self.selection else [])]
        notes = "".join(f"<p class='educatalog-note'>{html.escape(n)}</p>" for n in lines)
        notes += symbols.Legend(self.lang).to_html() if self.legend else ""
        return (
            f"{_STYLE}<table class='educatalog-table' lang='{self.lang}'>{caption}"
            f"<thead><tr>{corner}{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
            f"{notes}"
        )

    def _repr_html_(self) -> str:
        return self.to_html()


# Row labels may wrap and cells keep little padding, so that a table with long labels
# ("mehr als 3 Monate bis 6 Monate") and several columns fits a notebook's output area at
# 1,400 pixels with JupyterLab's file browser open, instead of being cut off at the right.
_STYLE = (
    "<style>table.educatalog-table{border-collapse:collapse;font-variant-numeric:tabular-nums;"
    "margin:0.4em 0 0.6em}table.educatalog-table caption{text-align:left;font-weight:bold;"
    "padding:0 0 0.3em;color:#1a1a1a}table.educatalog-table th,table.educatalog-table td"
    "{padding:2px 6px;border-bottom:1px solid #d0d0d0;color:#1a1a1a}"
    "table.educatalog-table thead th{text-align:right!important;vertical-align:bottom;"
    "border-bottom:1px solid #555}table.educatalog-table thead th:first-child"
    "{text-align:left!important}table.educatalog-table thead th.educatalog-index"
    "{text-align:left!important}table.educatalog-table tbody th{text-align:left!important;"
    "font-weight:normal}table.educatalog-table td{text-align:right!important}"
    "table.educatalog-table td.text{text-align:left!important}"
    "table.educatalog-table tr.educatalog-total th,table.educatalog-table tr.educatalog-total td"
    "{font-weight:bold;border-top:1px solid #555}"
    ".educatalog-note{font-size:0.9em;color:#333}</style>"
)


def present(
    table: pd.DataFrame,
    lang: str = texts.DEFAULT_LANG,
    *,
    title: str | None = None,
    kinds: Mapping[str, str] | None = None,
    source: Source | str | None = None,
    sheet: str | None = None,
    stand: str | None = None,
    total_row: Mapping[str, Any] | None = None,
    min_cases: int = symbols.MIN_CASES,
) -> Table:
    """``table`` (of :mod:`educatalog.stats`, or any frame) for readers in ``lang``.

    Columns of the statistics get headers in words with their unit and a kind that says
    how to show them; other columns keep their name (categories of a crosstab as labels)
    and are counts when whole numbers, else decimals (``kinds`` overrides, by the original
    column name: ``"count"``, ``"share"``, ``"rate"``, ``"money"``, ``"decimal"``,
    ``"text"``). A quality table shows its checks in words. The per-capita table's
    population column names the figures' reference date and census basis, and a note their
    source. The total row and column of ``margins=True`` (``attrs["margins"]``) are
    "Insgesamt" / "Total", for all 16 states "Deutschland" / "Germany". A table by state
    lists the states in the order of their official keys (01 Schleswig-Holstein … 16
    Thüringen), the key beside the name, unknown states and totals last. A cost table
    says whether it counts each course or each event once. ``sheet`` and ``stand`` go to
    the :class:`Table` (its sheet's name and "Stand" line in a workbook). ``total_row``,
    by column, is the table's total row where it is shown apart from ``table`` (the
    explorer's footer): the notes on sums read it, not the sum of the rows.

    Numbers show the symbols of official statistics (:mod:`educatalog.tables.symbols`):
    "–" exactly zero, "0,0" more than zero but less than half the last digit, "." unknown,
    "x" not meaningful, and "/" for costs resting on fewer than ``min_cases`` courses and
    rates resting on fewer than ``min_cases`` events, a rule the notes state. A cost table's
    count of courses (events) at a cost of 0 stands beside the courses (events) it counts.
    """
    lang = texts.check_lang(lang)
    chosen = dict(kinds or {})
    for name, kind in chosen.items():
        if kind not in _KINDS:
            raise UsageError(f"Unknown kind {kind!r} for {name!r}; choose one of {_KINDS}.")
    attrs = table.attrs.get(SOURCE_ATTR, {}) if isinstance(table.attrs, dict) else {}
    population = attrs.get("population") if isinstance(attrs, Mapping) else None
    margins = table.attrs.get("margins") if isinstance(table.attrs, dict) else None
    rates = bool(population and table.attrs.get("without_state"))
    subtotals: list[int] = []
    small = symbols.small_cells(table, min_cases)
    marked = small.mark(_marked(_zero_beside(table)))
    if is_district_table(table, margins):  # districts under their states, with subtotals
        without = bool(population and table.attrs.get("without_district"))
        frame, subtotals = district_rows(marked, lang, margins, without=without)
        totals = 1
    else:
        frame, totals = _rows(marked, lang, margins, rates=rates)
    headers, result_kinds, dates = _headers(table, frame, lang, population, chosen, margins)
    frame.columns = pd.Index([headers[str(c)] for c in frame.columns])
    total = frame.index[-1] if totals else None
    named = [str(k) for k in (total if isinstance(total, tuple) else (total,)) if k]
    total_words = named[0] if named else ""
    notes = _notes(table, lang, population)
    notes += [str(n) for n in table.attrs.get("notes", [])]
    notes += _sum_notes(table, lang, margins, total_words, headers, total_row)
    notes += small.notes(lang)
    found = source_of(table, source)
    origin = dict(population) if isinstance(population, Mapping) else None
    shown = Table(
        frame, result_kinds, lang, title, notes, found, origin, totals, sheet, stand, dates
    )
    shown.subtotals = subtotals
    return shown


def _zero_beside(table: pd.DataFrame) -> pd.DataFrame:
    """A cost table with its courses (events) at a cost of 0 beside the courses (events)."""
    costs = table.attrs.get("costs")
    if "zero" not in table or not isinstance(costs, Mapping):
        return table
    beside = "events" if costs.get("per") == "event" else "courses"
    columns = [str(c) for c in table.columns if c != "zero"]
    if beside in columns:
        columns.insert(columns.index(beside) + 1, "zero")
    return table[columns]


def _marked(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with its cells that have no meaningful value (``attrs["not_meaningful"]
    ["cells"]``: row and column, or row and None for all its numbers) as "x"."""
    marks = table.attrs.get("not_meaningful") if isinstance(table.attrs, dict) else None
    if not isinstance(marks, Mapping) or not marks.get("cells"):
        return table
    frame = table.copy()
    sign = texts.text("not_meaningful")
    for row, column in marks["cells"]:
        if row not in frame.index:
            continue
        columns = [column] if column is not None else list(frame.select_dtypes("number"))
        for name in columns:
            if name in frame.columns:
                if frame[name].dtype != object:
                    frame[name] = frame[name].astype(object)
                frame.loc[row, name] = sign
    return frame


def _rows(
    table: pd.DataFrame, lang: str, margins: Any, *, rates: bool = False
) -> tuple[pd.DataFrame, int]:
    """The rows with their labels in words (states in key order, the key beside them),
    and how many of the last rows are totals (``rates``: a total of rates, which leaves
    out the events without a state, says so)."""
    frame = table.copy()
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
        return frame, 0
    totals = int(sum(_is_total(k, margins) for k in frame.index))
    if frame.index.nlevels == 1 and frame.index.name in _STATE_NAMES:
        return _by_state(frame, lang, margins, rates=rates), totals
    frame.index = _labels(frame.index, lang, margins, national=False)
    return frame, totals


def _is_total(key: Any, margins: Any) -> bool:
    """Whether a row is a total of ``margins=True`` (its first level is the margins' name)."""
    first = key[0] if isinstance(key, tuple) else key
    return margins is not None and isinstance(first, str) and first == margins


def _by_state(frame: pd.DataFrame, lang: str, margins: Any, *, rates: bool) -> pd.DataFrame:
    """A table by state in the order of the states' official keys, the key beside each
    name; unknown and missing states, then the total, last."""
    keys = [STATE_KEYS.get(str(k), "") if not _is_total(k, margins) else "" for k in frame.index]
    national = set(STATE_KEYS.values()) <= set(keys) if keys else False
    order = sorted(
        range(len(keys)),
        key=lambda i: (_is_total(frame.index[i], margins), keys[i] == "", keys[i], i),
    )
    frame = frame.iloc[order]
    labels = _labels(frame.index, lang, margins, national=national, rates=rates)
    frame.index = pd.MultiIndex.from_arrays(
        [[keys[i] for i in order], list(labels)],
        names=[texts.capitalized(texts.dimension("key", lang)), labels.name],
    )
    return frame


# Dimensions whose missing value has a meaning of its own: an event of a course without any
# funding type has no funding type (not an unstated one).
_NONE_LABELS = {"funding_type": "no_funding", "funding_level": "no_funding"}


def _kept(value: Any) -> bool:
    """Whether an index label stays a value of its own in a :class:`Table` (a month, a year:
    :meth:`Table.key_text` words it), as dates do."""
    if isinstance(value, pd.Period):
        return value.freqstr[0] in ("M", "Y", "A")
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def _labels(
    index: pd.Index, lang: str, margins: Any, *, national: bool, rates: bool = False
) -> pd.Index:
    def word(value: Any, name: Any) -> Any:
        if margins is not None and isinstance(value, str) and value == margins:
            total = texts.total_label(national, lang)
            return texts.text("total.with_state", lang, total=total) if rates else total
        if isinstance(value, dt.date):  # kept as a date: an Excel date in a workbook
            return value.date() if isinstance(value, dt.datetime) else value
        if _kept(value):  # a month or a year, kept: an Excel date or number in a workbook
            return value
        if str(name) in _NONE_LABELS and texts.is_missing(value):
            return texts.text(_NONE_LABELS[str(name)], lang)
        return texts.label(value, lang)

    if isinstance(index, pd.MultiIndex):
        tuples = [tuple(word(v, n) for v, n in zip(key, index.names, strict=True)) for key in index]
        names = [_index_name(n, lang) for n in index.names]
        labelled: pd.Index = pd.MultiIndex.from_tuples(tuples, names=names)
        return labelled
    plain: pd.Index = pd.Index(
        [word(v, index.name) for v in index], name=_index_name(index.name, lang), dtype=object
    )
    return plain


def _headers(
    table: pd.DataFrame,
    frame: pd.DataFrame,
    lang: str,
    population: Mapping[str, Any] | None,
    chosen: Mapping[str, str],
    margins: Any,
) -> tuple[dict[str, str], dict[str, str], dict[str, dt.date]]:
    """Per column: its header in words, its kind, and its date where a date heads it."""
    unit = _currency_unit(table, lang)
    headers: dict[str, str] = {}
    kinds: dict[str, str] = {}
    dates: dict[str, dt.date] = {}
    for column in frame.columns:
        value: Any = column  # a label of the data: also a date, a number, a Period
        name = str(column)
        if name in _COLUMNS:
            key, kind = _COLUMNS[name]
            if name == "population":
                header = texts.population_header(population, lang)
            elif name == "share" and "share" not in table.attrs and "events" in frame:
                header = _supply_share_header(table, lang)  # supply's: of which events
            elif name == "zero" and (table.attrs.get("costs") or {}).get("per") == "event":
                header = texts.text("column.zero_events", lang, unit=unit)
            elif name == "share" and isinstance(table.attrs.get("share"), Mapping):
                exclude = table.attrs["share"].get("unknown") == "exclude"
                header = texts.text(f"column.share_yes_{'stated' if exclude else 'all'}", lang)
            else:
                header = texts.text(key, lang, unit=unit)
        elif margins is not None and isinstance(column, str) and column == margins:
            header = texts.total_label(False, lang)
            kind = "share" if table.attrs.get("normalize") else "count"
        else:
            header = texts.label(column, lang)
            kind = "count" if _whole(frame[column]) else "decimal"
            if table.attrs.get("normalize"):  # a crosstab of shares
                kind = "share"
            if isinstance(value, pd.Timestamp | dt.datetime):
                dates[header] = value.date()
            elif isinstance(value, dt.date):
                dates[header] = value
        kind = chosen.get(name, kind)
        while header in headers.values():
            header += " "
        headers[name] = header
        kinds[header] = kind
    return headers, kinds, dates


def _supply_share_header(table: pd.DataFrame, lang: str) -> str:
    """The header of :func:`educatalog.stats.supply`'s share, naming its base: all events,
    the events of each value of a dimension, or the events that state the dimension."""
    info = table.attrs.get("supply_share")
    if not isinstance(info, Mapping):
        return texts.text("column.share_of_events", lang)
    keys = [str(k) for k in info.get("by", [])]
    normalize = info.get("normalize")
    if normalize in ("index", "columns") and len(keys) >= 2:
        name = keys[0 if normalize == "index" else 1]
        return texts.text("column.share_within", lang, dimension=texts.dimension(name, lang))
    if info.get("dropna") and info.get("events") is not None and keys:
        dimension = texts.text("and", lang).join(texts.dimension(k, lang) for k in keys)
        return texts.text(
            "column.share_of_stated",
            lang,
            n=texts.number(info["events"], lang),
            dimension=dimension,
            article="an" if dimension[:1].lower() in "aeiou" else "a",
        )
    return texts.text("column.share_of_events", lang)


def _notes(table: pd.DataFrame, lang: str, population: Mapping[str, Any] | None) -> list[str]:
    notes = []
    if population:
        named = texts.population_text(population, lang, licence=True)
        notes.append(texts.text("population", lang, source=named))
    for attr, key in (
        ("without_state", "note.rates_without_state"),
        ("without_district", "note.rates_without_district"),
        ("districts_without_state", "note.districts_without_state"),
    ):
        if population and table.attrs.get(attr):
            notes.append(texts.text(key, lang, events=texts.count(table.attrs[attr], lang)))
    costs = table.attrs.get("costs") if isinstance(table.attrs, dict) else None
    if isinstance(costs, Mapping) and costs.get("per") in ("course", "event"):
        notes.append(texts.text(f"note.costs_per_{costs['per']}", lang))
        if costs.get("zero") and "zero" not in table.columns:  # else the column says it
            key = "note.costs_zero" if costs["per"] == "course" else "note.costs_zero_events"
            n, total = texts.number(costs["zero"], lang), texts.number(costs["priced"], lang)
            notes.append(texts.text(key, lang, n=n, total=total))
    return notes


def _sum_notes(
    table: pd.DataFrame,
    lang: str,
    margins: Any,
    total: str,
    headers: Mapping[str, str],
    apart: Mapping[str, Any] | None = None,
) -> list[str]:
    """Notes that say how to read the sums: a total of distinct counts that is not the sum
    of its rows (a course with events in two states is one course), places as far as
    events state them, courses at a cost of 0, cells marked "x". ``apart``: the total row
    shown apart from ``table``."""
    notes = []
    subtotals = is_district_table(table, margins)  # the sums: of the districts alone
    rows = [
        k
        for k in table.index
        if not _is_total(k, margins) and not (subtotals and is_subtotal(k, margins))
    ]
    totals = [k for k in table.index if _is_total(k, margins)]

    def whole(column: str) -> Any:
        if apart is not None:
            return pd.to_numeric(pd.Series([apart.get(column)]), errors="coerce").sum()
        return pd.to_numeric(table.loc[totals or rows, column], errors="coerce").sum()

    if totals or apart is not None:
        if apart is not None:
            total = total or texts.text("total", lang)
        distinct = []
        for column in ("events", "courses", "institutions"):
            if column in table and pd.api.types.is_numeric_dtype(table[column].dtype):
                parts = pd.to_numeric(table.loc[rows, column], errors="coerce").sum()
                if parts != whole(column):
                    distinct.append(headers[column])
        if distinct:
            words = ", ".join(distinct)
            key = "note.distinct_subtotals" if subtotals else "note.distinct_totals"
            if not subtotals and distinct[0] == headers.get("events"):
                # an event in several rows: a dimension with several values an event
                # (subject areas, funding types), not only the providers of several states
                key = "note.multiple_assignment_rows"
                words = words.lower() if lang == "en" else words  # within the sentence
            notes.append(texts.text(key, lang, columns=words, total=total))
    if {"capacity", "events_with_capacity", "events"} <= set(table.columns):
        stated = whole("events_with_capacity")
        events = whole("events")
        notes.append(
            texts.text(
                "note.capacity",
                lang,
                stated=texts.number(stated, lang),
                events=texts.count(events, lang),
            )
        )
    if "zero" in table.columns:  # what the column counts: courses, or events (per="event")
        costs = table.attrs.get("costs")
        per = costs.get("per") if isinstance(costs, Mapping) else "course"
        key = "note.cost_zero_events" if per == "event" else "note.cost_zero"
        notes.append(texts.text(key, lang, unit=_currency_unit(table, lang)))
    marks = table.attrs.get("not_meaningful")
    if isinstance(marks, Mapping) and marks.get("cells"):
        why = marks.get("why")
        if why == "flows":
            reason = texts.text("note.not_meaningful.flows", lang)
        else:
            what = texts.text("or", lang).join(
                texts.text(f"note.not_meaningful.{w}", lang) for w in (why or [])
            )
            reason = texts.text("note.not_meaningful.selection", lang, what=what)
        notes.append(texts.text("note.not_meaningful", lang, why=reason))
    return notes


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
