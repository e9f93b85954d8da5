"""What the report's counts count, and the same counted a year earlier.

A report counts either the offer **listed** on the data's date ("Bestand am 15.03.2026",
the default: every event the catalogue lists that day, whenever it starts) or the events
**starting** within a period (``educatalog report --period 2025``, a calendar year, or
``--start``/``--end``), as the catalogue listed them on its date (:class:`Period`).

>>> period = Period.of(dt.date(2026, 3, 15), start="2025-01-01", end="2025-12-31")
>>> period.counted(offers, "de")       # doctest: +SKIP
'Gezählt: Veranstaltungen mit Beginn 01.01.2025 bis 31.12.2025, wie sie der Katalog am …'
>>> before = year_before("archive/", period, ["Bayern"], "de")   # doctest: +SKIP
>>> before.beside(stats.supply(offers, "state", margins=True), stats.supply, "state",
...               margins=True)                              # doctest: +SKIP

:func:`year_before` finds in an archive the snapshot about a year older than the data's date
(:data:`YEAR_DAYS` ± :data:`YEAR_SLACK` days) and selects its offers by the same rule shifted
by a year (the same states, the period's dates a calendar year earlier); :meth:`YearBefore.beside`
puts its events beside a table's, with the change in %. Definitions:
``docs/definitions.md`` ("The period of a report", "The year before").
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from educatalog import stats, texts
from educatalog.errors import UsageError

__all__ = [
    "YEAR_DAYS",
    "YEAR_SLACK",
    "Period",
    "YearBefore",
    "check_date",
    "dates_words",
    "period_dates",
    "population_notes",
    "snapshot_a_year_before",
    "with_year_before",
    "year_before",
]

YEAR_DAYS = 365
"""How many days before the data's date the snapshot of the year before is looked for."""

YEAR_SLACK = 45
"""How many days that snapshot may lie before or after that day."""

_YEAR = re.compile(r"\d{4}")


def check_date(value: str | None, name: str) -> dt.date | None:
    """``value`` (YYYY-MM-DD) as a date, None for None; a malformed or impossible date
    (``2025-13-01``, ``2025-02-30``) fails naming ``name`` and the value."""
    if value is None:
        return None
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise UsageError(f"{name} must be a date as YYYY-MM-DD, got {value!r}.")
    try:
        return dt.date.fromisoformat(value)
    except ValueError as exc:
        raise UsageError(f"{name} {value} is no date of the calendar ({exc}).") from None


def period_dates(
    period: str | int | None, start: str | None = None, end: str | None = None
) -> tuple[str | None, str | None]:
    """The first and last start date a report keeps: those of the calendar year ``period``
    (``"2025"``: 2025-01-01 to 2025-12-31), else ``start`` and ``end`` as given (each
    checked). ``period`` with ``start`` or ``end`` fails: they say the same twice."""
    if period is not None:
        if start is not None or end is not None:
            raise UsageError(
                f"--period {period} and --start/--end both give the period of the report: "
                "give one of them (--period YYYY is --start YYYY-01-01 --end YYYY-12-31)."
            )
        year = str(period)
        if not _YEAR.fullmatch(year):
            raise UsageError(f"--period must be a calendar year such as 2025, got {year!r}.")
        return f"{year}-01-01", f"{year}-12-31"
    first, last = check_date(start, "start"), check_date(end, "end")
    if first and last and first > last:
        raise UsageError(f"start {start} is after end {end}.")
    return start, end


def dates_words(start: Any, end: Any, lang: str) -> str | None:
    """The start dates kept, in words, as the report's selection line says them: "Beginn
    01.04.2025 bis 31.03.2026", "Beginn ab 01.04.2025", "Beginn bis 31.03.2026"; None
    where neither is given."""
    first = texts.date(start, lang) if start else None
    last = texts.date(end, lang) if end else None
    if first and last:
        return texts.text("report.scope.dates", lang, start=first, end=last)
    if first:
        return texts.text("report.scope.dates_from", lang, start=first)
    if last:
        return texts.text("report.scope.dates_until", lang, end=last)
    return None


@dataclass(frozen=True)
class Period:
    """What a report counts: with neither ``start`` nor ``end``, the offer listed on
    ``stand`` (the data's date); else the events starting from ``start`` to ``end`` (both
    included; one may be open), as the catalogue listed them on ``stand``."""

    stand: dt.date
    start: dt.date | None = None
    end: dt.date | None = None

    @classmethod
    def of(cls, stand: dt.date | str, *, start: Any = None, end: Any = None) -> Period:
        """The period of a report on data of ``stand`` with these start dates."""
        return cls(_day(stand), _day(start) if start else None, _day(end) if end else None)

    @property
    def listed(self) -> bool:
        """Whether the period is the offer listed on ``stand`` (no start dates)."""
        return self.start is None and self.end is None

    def select(self, offers: pd.DataFrame, states: Sequence[str] | None = None) -> pd.DataFrame:
        """``offers`` of ``states`` (all where None) starting in the period
        (:func:`educatalog.stats.select`)."""
        chosen = {"state": list(states)} if states else {}
        return stats.select(offers, start=self.start, end=self.end, **chosen)

    def a_year_before(self, stand: dt.date) -> Period:
        """The same rule a year earlier, on data of ``stand``: the start dates a calendar
        year earlier (29 February: 28 February)."""
        return replace(
            self, stand=stand, start=_year_earlier(self.start), end=_year_earlier(self.end)
        )

    def words(self, lang: str) -> str:
        """The period in a few words: "Bestand am 15.03.2026" / "listed on 15 Mar 2026",
        or the start dates as the selection line says them."""
        found = dates_words(self.start, self.end, lang)
        return found or texts.text("period.listed", lang, stand=texts.date(self.stand, lang))

    def counted(self, offers: pd.DataFrame, lang: str) -> str:
        """What a count of ``offers`` (selected by the period) counts, in one sentence, the
        note under every per-capita rate: the period to the day as the selection line
        names it, and the data's date."""
        stand = texts.date(self.stand, lang)
        if not self.listed:
            period = dates_words(self.start, self.end, lang)
            return texts.text("note.counted.window", lang, period=period, stand=stand)
        missing = int(offers.drop_duplicates("event_id")["event_start_date"].isna().sum())
        undated = (
            texts.text("note.counted.undated", lang, events=texts.count(missing, lang))
            if missing
            else ""
        )
        return texts.text("note.counted.listed", lang, stand=stand, undated=undated)


def _day(value: Any) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    checked = check_date(str(value)[:10], "date")
    assert checked is not None
    return checked


def _year_earlier(day: dt.date | None) -> dt.date | None:
    if day is None:
        return None
    shifted: pd.Timestamp = pd.Timestamp(day) - pd.DateOffset(years=1)
    return shifted.date()


def snapshot_a_year_before(dates: Sequence[dt.date], stand: dt.date) -> dt.date | None:
    """Of the snapshot ``dates``, the one closest to :data:`YEAR_DAYS` days before
    ``stand``, within :data:`YEAR_SLACK` days of it (of two as close, the later); None
    where there is none."""
    target = stand - dt.timedelta(days=YEAR_DAYS)
    near = [d for d in dates if abs((d - target).days) <= YEAR_SLACK]
    if not near:
        return None
    return min(near, key=lambda d: (abs((d - target).days), -d.toordinal()))


@dataclass
class YearBefore:
    """The year before a report's ``period``: the ``offers`` of the archive's snapshot
    of ``date`` (in ``folder``) selected by :attr:`YearBefore.then` (the period a year earlier) and
    the report's states; without such a snapshot ``offers`` and ``date`` are None and
    ``folder`` names the archive searched (None: no archive). Its words are in ``lang``."""

    period: Period
    offers: pd.DataFrame | None = None
    date: dt.date | None = None
    folder: str | None = None
    lang: str = texts.DEFAULT_LANG

    @property
    def then(self) -> Period | None:
        """The period a year earlier, on the snapshot's date (None without one)."""
        return self.period.a_year_before(self.date) if self.date is not None else None

    def sentence(self) -> str:
        """What the report says of the year before: which tables compare with it and
        what it counts, or, in one sentence, that no earlier stand exists to compare with."""
        lang = self.lang
        if self.offers is None:
            if self.folder is None:
                return texts.text("report.year_before.no_archive", lang)
            return texts.text(
                "report.year_before.none",
                lang,
                folder=self.folder,
                days=texts.number(YEAR_DAYS, lang),
                slack=texts.number(YEAR_SLACK, lang),
                stand=texts.date(self.period.stand, lang),
            )
        return texts.text("report.year_before.found", lang, then=self.note())

    def note(self) -> str:
        """The note under a table with the year before: its period, its date, the archive."""
        then, lang = self.then, self.lang
        if then is None:
            return ""
        day = texts.date(then.stand, lang)
        if then.listed:
            return texts.text("note.year_before.listed", lang, date=day, folder=self.folder)
        period = dates_words(then.start, then.end, lang)
        return texts.text(
            "note.year_before.window", lang, period=period, date=day, folder=self.folder
        )

    def beside(
        self,
        table: pd.DataFrame,
        count: Callable[..., pd.DataFrame],
        *args: Any,
        **options: Any,
    ) -> pd.DataFrame:
        """``table`` (``count(offers, *args, **options)`` of the report's offers) with the
        events of the year before (``count`` of ``offers``, the same call) and the
        change in % after its ``events`` (one decimal on the page; "x" where the year before
        had none): :func:`with_year_before`. Without a year before, ``table``."""
        if self.offers is None:
            return table
        then = count(self.offers, *args, **options)["events"]
        return with_year_before(table, then, self.lang, notes=[self.note()])


def with_year_before(
    table: pd.DataFrame, then: pd.Series, lang: str, *, notes: Sequence[str] = ()
) -> pd.DataFrame:
    """``table`` with two columns after its ``events``: the events of ``then`` (by the same
    row labels; a row ``then`` lacks had none) and the change of ``events`` on them in %
    ("x" where ``then`` is 0), headed in ``lang``, ``notes`` under it."""
    previous = {_row(k): v for k, v in then.items()}
    counts = [int(previous.get(_row(k), 0)) for k in table.index]
    before = pd.Series(counts, index=table.index, dtype="Int64")
    now = table["events"].astype("Int64")
    x = texts.text("not_meaningful", lang)
    change: list[Any] = [
        x if int(b) == 0 else (int(n) - int(b)) / int(b) * 100
        for n, b in zip(now, before, strict=True)
    ]
    out = table.copy()  # beside the events, where a wide table shows them without scrolling
    at = list(out.columns).index("events") + 1
    out.insert(at, texts.text("column.year_before", lang), before)
    column = texts.text("column.change_year_before", lang)
    out.insert(at + 1, column, pd.Series(change, index=out.index, dtype=object))
    added = [*notes, *([texts.text("note.year_before.zero", lang)] if x in change else [])]
    out.attrs = {**table.attrs, "notes": [*table.attrs.get("notes", []), *added]}
    return out


def _row(key: Any) -> tuple[str | None, ...]:
    """A row label compared across two tables: missing values alike, categories as text."""
    keys = key if isinstance(key, tuple) else (key,)
    return tuple(None if texts.is_missing(k) else str(k) for k in keys)


def year_before(
    archive: str | os.PathLike[str] | None,
    period: Period,
    states: Sequence[str] | None = None,
    lang: str = texts.DEFAULT_LANG,
) -> YearBefore:
    """The year before ``period`` from the archive at ``archive`` (None: no archive): the
    offers of its snapshot about a year older than the data's date
    (:func:`snapshot_a_year_before`), selected by the period a year earlier and ``states``
    exactly as the report selects its own; its words in ``lang``."""
    lang = texts.check_lang(lang)
    if archive is None:
        return YearBefore(period, lang=lang)
    from educatalog import history

    arc = history.open(archive)
    folder = Path(arc.path).name
    day = snapshot_a_year_before(arc.dates, period.stand)
    if day is None:
        return YearBefore(period, folder=folder, lang=lang)
    then = period.a_year_before(day)
    offers = then.select(arc.offers(day), states)
    return YearBefore(period, offers, day, folder, lang)


def population_notes(origin: Mapping[str, Any], stand: dt.date, lang: str) -> list[str]:
    """A warning where the population figures (``origin``, as
    :func:`educatalog.population.origin` gives it) are dated after the data's date
    ``stand``; else nothing."""
    when = origin.get("date")
    if not when or dt.date.fromisoformat(str(when)[:10]) <= stand:
        return []
    date, day = texts.date(str(when), lang), texts.date(stand, lang)
    return [texts.text("note.population_later", lang, date=date, stand=day)]
