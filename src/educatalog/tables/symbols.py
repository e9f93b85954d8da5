"""The symbols of official statistics in tables for readers, as the Federal Statistical
Office (Destatis) uses them, and the small-cell rule.

=====  ==========================================================================
``–``  nothing: exactly zero
``0``  less than half of 1 in the last digit shown, but more than nothing ("0,0 %")
``.``  figure unknown
``/``  no figure, as it is not reliable enough (fewer than :data:`MIN_CASES` cases)
``x``  no figure, as a statement would not be meaningful
=====  ==========================================================================

:func:`cell_text` writes one number of a table with them (:meth:`educatalog.tables.Table.cell`
asks it), :func:`small_cells` finds the costs and rates of a table of
:mod:`educatalog.stats` that rest on too few courses or events, :func:`excel_format` gives a
number format that shows an exact zero as "–", and :class:`Legend` is the explanation of
symbols (Zeichenerklärung) beside the tables. The statistics stay numbers: the symbols are
only how a table shows them.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from educatalog import texts
from educatalog.errors import UsageError

__all__ = [
    "COST_STATISTICS",
    "LESS_THAN_HALF",
    "MIN_CASES",
    "NOTHING",
    "NOT_MEANINGFUL",
    "SYMBOLS",
    "UNKNOWN",
    "UNRELIABLE",
    "Legend",
    "SmallCells",
    "cell_text",
    "check_min_cases",
    "excel_format",
    "small_cells",
]

NOTHING = "–"
"""Exactly zero ("nichts vorhanden")."""

LESS_THAN_HALF = "0"
"""Less than half of 1 in the last digit shown, but more than nothing: written as the zero
of the column's precision ("0,0 %", "0,00")."""

UNKNOWN = "."
"""The figure is unknown (no event states it, no population for the region)."""

UNRELIABLE = "/"
"""No figure, as it rests on fewer cases than the small-cell rule asks (:data:`MIN_CASES`)."""

NOT_MEANINGFUL = "x"
"""No figure, as a statement would not be meaningful (a median of no prices)."""

SYMBOLS: dict[str, str] = {
    NOTHING: "symbols.nothing",
    LESS_THAN_HALF: "symbols.less_than_half",
    UNKNOWN: "symbols.unknown",
    UNRELIABLE: "symbols.unreliable",
    NOT_MEANINGFUL: "symbols.not_meaningful",
}
"""Each symbol and the key of its meaning in :mod:`educatalog.texts`, in the legend's order."""

MIN_CASES = 3
"""The small-cell rule's default: costs resting on fewer courses, and rates resting on fewer
events, are shown as :data:`UNRELIABLE`."""

COST_STATISTICS: tuple[str, ...] = ("min", "q1", "median", "q3", "max", "mean")
"""The columns of :func:`educatalog.stats.costs` that the small-cell rule applies to."""

_REGIONS = ("state", "state_code", "district", "district_key")
_DIGIT = re.compile(r"[1-9]")


def check_min_cases(min_cases: Any) -> int:
    """``min_cases`` when it is a whole number of at least 1; else an error."""
    if isinstance(min_cases, bool) or not isinstance(min_cases, int) or min_cases < 1:
        raise UsageError(f"min_cases must be a whole number of at least 1, got {min_cases!r}.")
    return min_cases


def cell_text(value: Any, kind: str, lang: str = texts.DEFAULT_LANG) -> str:
    """A number of a column of ``kind`` (count, share, rate, money or decimal) as the reader
    sees it in ``lang``: unknown as ".", exactly zero as "–", a number that is not zero but
    rounds to zero as the zero of the column's precision ("0,0 %", "0,00"), never "-0"."""
    if texts.is_missing(value):
        return UNKNOWN
    number = float(value)
    if number == 0:
        return NOTHING
    if kind == "share":  # below 0,1 %: less than half of it is "0,0 %", half "0,1 %"
        if abs(number) < 0.001:
            number = 0.0 if abs(number) < 0.0005 else math.copysign(0.001, number)
        shown = texts.percent(number, lang, 1)
    elif kind == "count":
        shown = texts.number(number, lang)
    elif kind == "decimal":
        shown = texts.number(number, lang, 1)
    elif kind == "rate":
        shown = texts.rate(number, lang)
    else:
        shown = texts.number(number, lang, 2)
    if not _DIGIT.search(shown):  # rounds to zero: the zero, without a sign
        shown = shown.lstrip("-\u2212")
    return shown


def excel_format(base: str) -> str:
    """The Excel number format ``base`` (``"#,##0"``) with exactly zero shown as "–"."""
    return f'{base};-{base};"{NOTHING}"'


class SmallCells:
    """What :func:`small_cells` found in a table: the cells to show as :data:`UNRELIABLE`
    (``unreliable``) and as :data:`NOT_MEANINGFUL` (``not_meaningful``), by row position
    the columns; which rule applies (``rule``: ``"costs"``, ``"costs_events"`` or
    ``"rates"``, None for another table), ``min_cases``, why a cell has no meaningful figure
    (``why``, a key of :mod:`educatalog.texts`) and how many districts a ranking
    (:func:`educatalog.tables.district_ranking`) left out for too few events
    (``unranked``)."""

    def __init__(self, min_cases: int = MIN_CASES) -> None:
        self.unreliable: dict[int, list[str]] = {}
        self.not_meaningful: dict[int, list[str]] = {}
        self.rule: str | None = None
        self.min_cases = min_cases
        self.why: str | None = None
        self.unranked = 0

    def mark(self, table: pd.DataFrame) -> pd.DataFrame:
        """``table`` with its cells shown as symbols (a copy; ``table`` itself where none)."""
        if not self.unreliable and not self.not_meaningful:
            return table
        frame = table.copy()
        for cells, sign in ((self.unreliable, UNRELIABLE), (self.not_meaningful, NOT_MEANINGFUL)):
            for row, columns in cells.items():
                for column in columns:
                    if frame[column].dtype != object:
                        frame[column] = frame[column].astype(object)
                    values = frame[column].to_numpy(copy=True)
                    values[row] = sign
                    frame[column] = values
        return frame

    def notes(self, lang: str) -> list[str]:
        """The small-cell rule in words under a table it applies to, and why a cell is "x"."""
        if self.rule is None:
            return []
        notes = [texts.text(f"note.small_cells.{self.rule}", lang, n=self.min_cases)]
        if self.unranked:
            count = texts.number(self.unranked, lang)
            key = "note.small_cells.unranked" + ("_one" if self.unranked == 1 else "")
            notes.append(texts.text(key, lang, districts=count))
        if self.not_meaningful and self.why:
            why = texts.text(self.why, lang)
            notes.append(texts.text("note.not_meaningful", lang, why=why))
        return notes


def small_cells(table: pd.DataFrame, min_cases: int = MIN_CASES) -> SmallCells:
    """The cells of ``table`` (of :mod:`educatalog.stats`) below the small-cell rule: of
    :func:`~educatalog.stats.costs`, the costs of a row with 1 to ``min_cases`` - 1 courses
    (where it counts no courses, events) are unreliable and those of a row with none have no
    meaning; of :func:`~educatalog.stats.per_capita` (or a ranking of its rows), the rate of
    a row with 1 to ``min_cases`` - 1 events is unreliable (with none it is exactly 0) and
    that of a row without a region has no meaning. Other tables have none."""
    min_cases = check_min_cases(min_cases)
    columns = [str(c) for c in table.columns]
    rates = [c for c in columns if c.startswith("events_per_")]
    costs = isinstance(table.attrs.get("costs"), Mapping) or "median" in columns
    found = SmallCells(min_cases=min_cases)
    if costs and ("courses" in columns or "events" in columns):
        cases = "courses" if "courses" in columns and table["courses"].notna().any() else "events"
        found.rule = "costs" if cases == "courses" else "costs_events"
        found.why = "note.not_meaningful.no_costs"
        measured = [c for c in COST_STATISTICS if c in columns]
        for i, n in enumerate(pd.to_numeric(table[cases], errors="coerce")):
            if pd.isna(n):
                continue
            target = found.not_meaningful if n == 0 else found.unreliable
            if n < min_cases:
                target[i] = measured
    elif rates and "events" in columns:
        found.rule = "rates"
        found.why = "note.not_meaningful.no_region"
        ranking = table.attrs.get("ranking")
        if isinstance(ranking, Mapping):  # a list of districts: those left out, and the rule
            found.unranked = int(ranking.get("unreliable") or 0)
            found.min_cases = int(ranking.get("min_cases") or min_cases)
        levels = [n for n in table.index.names if n in _REGIONS]
        for i, n in enumerate(pd.to_numeric(table["events"], errors="coerce")):
            key = table.index[i] if isinstance(table.index[i], tuple) else (table.index[i],)
            regions = [key[table.index.names.index(level)] for level in levels]
            if any(texts.is_missing(r) for r in regions):
                found.not_meaningful[i] = rates
            elif not pd.isna(n) and 0 < n < min_cases:
                found.unreliable[i] = rates
    return found


def legend(lang: str = texts.DEFAULT_LANG) -> list[tuple[str, str]]:
    """The explanation of symbols in ``lang``: (symbol, meaning) in the order Destatis
    lists them."""
    return [(symbol, texts.text(key, lang)) for symbol, key in SYMBOLS.items()]


@dataclass(frozen=True)
class Legend:
    """The explanation of symbols (Zeichenerklärung / "Explanation of symbols") in ``lang``:
    as HTML beside a table (in a notebook it shows itself), as lines of a workbook or as one
    line under a dashboard's table."""

    lang: str = texts.DEFAULT_LANG

    @property
    def title(self) -> str:
        """ "Zeichenerklärung" / "Explanation of symbols"."""
        return texts.text("symbols.title", self.lang)

    def lines(self) -> list[str]:
        """One line a symbol: "– = nichts vorhanden (genau null)"."""
        return [
            texts.text("symbols.entry", self.lang, symbol=s, meaning=m)
            for s, m in legend(self.lang)
        ]

    def line(self) -> str:
        """The whole legend in one line: "Zeichenerklärung: – = nichts vorhanden … · x = …"."""
        return f"{self.title}: {' · '.join(self.lines())}"

    def to_html(self) -> str:
        """The legend as a titled list of symbols and their meanings."""
        items = "".join(
            f"<dt>{html.escape(s)}</dt><dd>{html.escape(m)}</dd>" for s, m in legend(self.lang)
        )
        return (
            f"{_STYLE}<div class='educatalog-legend' lang='{texts.check_lang(self.lang)}' "
            f"role='note'><p><strong>{html.escape(self.title)}</strong></p><dl>{items}</dl></div>"
        )

    def _repr_html_(self) -> str:
        return self.to_html()


_STYLE = (
    "<style>.educatalog-legend{font-size:0.9em;color:#333;margin:0.4em 0 0.8em}"
    ".educatalog-legend p{margin:0 0 0.2em}.educatalog-legend dl{display:grid;"
    "grid-template-columns:max-content auto;gap:0 0.8em;margin:0}.educatalog-legend dt"
    "{font-weight:bold;text-align:center;min-width:1em}.educatalog-legend dd{margin:0}</style>"
)
