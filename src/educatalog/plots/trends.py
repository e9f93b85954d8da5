"""Offers over time: events starting per period (:func:`starts_over_time`) and a measure
over the snapshot dates of an archive (:func:`trend`)."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

import matplotlib.dates as mdates
import numpy as np
import numpy.typing as npt
import pandas as pd
from matplotlib import ticker
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from educatalog import stats, texts
from educatalog.errors import UsageError, WrongType
from educatalog.frames.provenance import Source
from educatalog.plots._formats import count_text, group_colors, label, missing_mask, value_axis
from educatalog.plots._frames import columns_of, require
from educatalog.plots._setup import (
    BAR_COLOR,
    begin,
    check_choice,
    finish,
    legend_right,
    new_axes,
    styled,
)

__all__ = ["starts_over_time", "trend"]

_FREQUENCIES = ("month", "quarter", "year")


@styled
def starts_over_time(
    offers: pd.DataFrame,
    *,
    freq: str = "month",
    by: str | None = None,
    ax: Axes | None = None,
    title: str | None = None,
    lang: str = texts.DEFAULT_LANG,
    source: Source | str | None = None,
) -> Figure:
    """Events starting per ``freq`` (``"month"``, ``"quarter"`` or ``"year"``) from the first
    to the last period with starts; periods without starts count 0. With ``by`` (e.g.
    ``"instruction_form_category"``) one line per value. Events without a start date are
    not shown; a note under the chart counts them.
    """
    what = "starts_over_time()"
    lang = begin(lang)
    check_choice(freq, _FREQUENCIES, "freq must be month, quarter or year, got {value!r}.")
    if by is not None:
        begin(lang, by=by)
    require(offers, ["event_id", "event_start_date", *columns_of(offers, [by])], what)
    totals = stats.supply(offers, freq, normalize=False)["events"]
    dated = ~missing_mask(totals.index)
    undated = int(totals[~dated].sum())
    if not dated.any() or totals[dated].sum() == 0:
        raise UsageError(f"{what}: no event in the frame has a start date.")
    full = _periods(totals.index[dated], freq)
    series: dict[Hashable, pd.Series] = {None: totals[dated]}
    if by is not None:
        wide = stats.crosstab(offers, freq, by)
        wide = wide.iloc[~missing_mask(wide.index)]
        series = {key: wide[key] for key in wide.columns if wide[key].sum() > 0}
    x: list[Any] = list(full) if isinstance(full, pd.RangeIndex) else list(full.to_timestamp())

    fig, ax = new_axes(ax, (9.0, 4.6))
    colors = group_colors(list(series), offers, by, lines=True) if by else [BAR_COLOR]
    marker = "o" if len(full) <= 60 else None
    peak = 0.0
    for (key, values), color in zip(series.items(), colors, strict=True):
        counts = _reindex(values, full)
        peak = max(peak, float(counts.max()))
        ax.plot(
            x,
            counts,
            marker=marker,
            markersize=3.5,
            linewidth=1.8,
            color=color,
            label=label(key, lang) if by else texts.text("title.line", lang),
        )
    _time_axis(ax, freq, full, x, lang)
    ax.set_ylim(0, peak * 1.08 or 1.0)
    value_axis(ax.yaxis, rate=False, lang=lang)
    period_name = texts.text(f"freq.{freq}", lang)
    ax.set_xlabel(texts.text("axis.start", lang, freq=period_name))
    ax.set_ylabel(texts.text("axis.starts", lang, freq=period_name))
    if by:
        legend_right(ax, by, lang)
    notes = [texts.text("note.without_start", lang, events=texts.count(undated, lang))]
    notes = notes if undated else []
    start_name = texts.dimension(freq, lang)
    if title is None:
        title = (
            texts.text(
                "title.starts_by", lang, freq=start_name, dimension=texts.dimension(by, lang)
            )
            if by
            else texts.text("title.starts", lang, freq=start_name)
        )
    totals_all = _reindex(totals[dated], full)
    peak_at = int(np.argmax(totals_all))
    alt = texts.text(
        "alt.lines",
        lang,
        title=title,
        first=label(full[0], lang),
        last=label(full[-1], lang),
        top_value=count_text(totals_all[peak_at], lang),
        top=label(full[peak_at], lang),
    )
    return finish(fig, ax, offers, title, notes, lang=lang, source=source, alt=alt)


@styled
def trend(
    table: pd.DataFrame,
    measure: str = "events",
    *,
    kind: str = "line",
    top: int | None = None,
    ax: Axes | None = None,
    title: str | None = None,
    lang: str = texts.DEFAULT_LANG,
    source: Source | str | None = None,
) -> Figure:
    """A measure over snapshot dates: one line per group (``kind="area"``: stacked areas).

    ``table`` is a trend table of :mod:`educatalog.history`: indexed by ``snapshot_date``
    and at most one dimension (``arc.supply(by="state")``), or by the date alone
    (``arc.flows()``). ``top`` keeps the groups largest on the newest date (the title
    says so: "(die 8 größten)", where it leaves groups out). Lines take
    colours that stand out from white (:data:`~educatalog.plots.LINE_PALETTE`). ``lang``
    is ``"de"`` or ``"en"``; ``source`` states the data's source where the table does not
    know it.

    >>> plots.trend(history.open("archive/").supply(by="state"), top=6)  # doctest: +SKIP
    """
    lang = begin(lang)
    check_choice(kind, ("line", "area"), "kind must be line or area, got {value!r}.")
    wide, dimension = _trend_wide(table, measure, top)
    x = pd.to_datetime(wide.index).to_pydatetime()
    fig, ax = new_axes(ax, (9.0, 4.6))
    keys = list(wide.columns)
    name = texts.measure(measure, lang)
    colors: Sequence[Any] = [BAR_COLOR]
    labels = [name]
    if dimension:
        frame = pd.DataFrame({dimension: table.index.get_level_values(1)})
        colors = group_colors(keys, frame, dimension, lines=True)
        labels = [label(k, lang) for k in keys]
    if kind == "area":
        ax.stackplot(x, wide.to_numpy().T, labels=labels, colors=colors, alpha=0.9, linewidth=0)
    else:
        marker = "o" if len(x) <= 36 else None
        for key, words, color in zip(keys, labels, colors, strict=True):
            ax.plot(
                x, wide[key], marker=marker, markersize=3, linewidth=1.8, color=color, label=words
            )
    ax.set_ylim(bottom=0)
    _date_axis(ax, lang, list(x))
    value_axis(ax.yaxis, rate=measure == "share", lang=lang)
    ax.set_xlabel(texts.text("axis.snapshot_date", lang))
    axis_key = f"axis.{measure}"
    ax.set_ylabel(texts.text(axis_key, lang) if texts.has_text(axis_key) else name)
    if dimension:
        legend_right(ax, dimension, lang)
        if title is None:
            dimension_name = texts.dimension(dimension, lang)
            title = texts.text("title.trend_by", lang, measure=name, dimension=dimension_name)
    if title is None:
        title = texts.text("title.trend", lang, measure=name)
    if dimension and top is not None and _groups(table, measure) > len(keys):
        title = texts.text("title.top", lang, title=title, top=len(keys))  # says it leaves out
    notes, alt = _trend_words(wide, x, labels, measure, kind, title, lang)
    return finish(fig, ax, table, title, notes, lang=lang, source=source, alt=alt)


def _groups(table: pd.DataFrame, measure: str) -> int:
    """How many groups of a trend table have a value on some date."""
    values = table[measure].astype("Float64").fillna(0)
    return int((values.groupby(level=1, observed=True).sum().abs() > 0).sum())


def _trend_wide(
    table: pd.DataFrame, measure: str, top: int | None
) -> tuple[pd.DataFrame, str | None]:
    """The measure with one column per group (or one column) and one row per date."""
    if not isinstance(table, pd.DataFrame) or "snapshot_date" not in table.index.names:
        message = (
            "trend() draws a table indexed by snapshot_date, such as "
            "history.open(DIR).supply(by=...) or .flows()."
        )
        raise UsageError(message) if isinstance(table, pd.DataFrame) else WrongType(message)
    if measure not in table.columns:
        raise UsageError(
            f"The table has no measure {measure!r}; its columns: {', '.join(map(str, table))}."
        )
    values = table[measure].astype("Float64")
    if not isinstance(table.index, pd.MultiIndex):
        # A measure not defined on a date (entries on the first snapshot) is left out.
        return values.to_frame(measure).astype("float64").dropna(), None
    if table.index.nlevels != 2:
        raise UsageError("trend() draws a table of one dimension over time.")
    dimension = str(table.index.names[1])
    wide = values.unstack(dimension)
    wide = wide.reindex(columns=table.index.get_level_values(1).unique())
    wide = wide.astype("float64").fillna(0.0)  # a group missing on a date has no offers then
    wide = wide.loc[:, wide.abs().sum() > 0]
    if top is not None:
        wide = wide[wide.iloc[-1].sort_values(ascending=False).index[:top]]
    return wide, dimension


def _trend_words(
    wide: pd.DataFrame,
    x: Any,
    labels: Sequence[str],
    measure: str,
    kind: str,
    title: str,
    lang: str,
) -> tuple[list[str], str | None]:
    """The note of the snapshot dates and the text alternative of a trend chart."""
    if not len(x):
        return [], None
    first, last = texts.date(x[0].date(), lang), texts.date(x[-1].date(), lang)
    notes = [texts.text("note.snapshots", lang, n=len(x), first=first, last=last)]
    ends = wide.iloc[-1]

    def shown(value: float) -> str:
        return texts.percent(value, lang) if measure == "share" else count_text(value, lang)

    alt = texts.text(
        "alt.trend" if kind == "line" else "alt.trend_area",
        lang,
        title=title,
        first=first,
        last=last,
        lines=", ".join(
            f"{words} {shown(ends[key])}" for key, words in zip(wide.columns, labels, strict=True)
        ),
    )
    return notes, alt


def _periods(periods: pd.Index, freq: str) -> pd.RangeIndex | pd.PeriodIndex:
    """Every period from the first to the last of ``periods``: years as numbers, else
    months or quarters."""
    if freq == "year":
        return pd.RangeIndex(int(min(periods)), int(max(periods)) + 1, name=freq)
    return pd.period_range(min(periods), max(periods), freq="M" if freq == "month" else "Q")


def _reindex(values: pd.Series, full: pd.Index) -> npt.NDArray[np.float64]:
    """Counts on every period of ``full``, 0 where ``values`` has none."""
    by_key = {k: float(v) for k, v in values.items() if not pd.isna(v)}
    return np.asarray([by_key.get(p, 0.0) for p in full], dtype=float)


def _date_axis(ax: Axes, lang: str, days: Sequence[Any] = ()) -> None:
    """Snapshot dates on the x axis, in the language's format: a month's first day by its
    month ("Jan. 2025" / "Jan 2025"), other days as dates; few enough not to overlap (up to
    seven snapshots: a tick on each date, none between them)."""
    # matplotlib.dates leaves AutoDateLocator and num2date unannotated
    locator = mdates.AutoDateLocator(minticks=3, maxticks=7)  # type: ignore[no-untyped-call]
    ax.xaxis.set_major_locator(locator)

    def date_tick(value: float, _position: Any = None) -> str:
        day = mdates.num2date(value).date()  # type: ignore[no-untyped-call]
        if day.day == 1:
            return texts.period(pd.Period(day, freq="M"), lang)
        return texts.date(day, lang)

    ax.xaxis.set_major_formatter(ticker.FuncFormatter(date_tick))
    if 1 < len(days) <= 7:  # few snapshots: a tick on each date, none between them
        ax.set_xticks(mdates.date2num(list(days)))  # type: ignore[no-untyped-call]


def _time_axis(ax: Axes, freq: str, full: pd.Index, x: list[Any], lang: str) -> None:
    """Ticks of periods: years; quarters as "Q1" with the year under the first of a year;
    months by their name in ``lang`` with the year under the first tick and each January."""
    if freq == "year":
        step = max(1, math.ceil(len(x) / 12))
        ax.set_xticks(x[::step], [str(v) for v in x[::step]])
    elif freq == "quarter":
        step = 1 if len(x) <= 16 else 4
        chosen = [i for i, p in enumerate(full) if step == 1 or p.quarter == 1]
        labels = [
            texts.text("tick.quarter", lang, quarter=full[i].quarter)
            + (f"\n{full[i].year}" if full[i].quarter == 1 or i == chosen[0] else "")
            for i in chosen
        ]
        ax.set_xticks([x[i] for i in chosen], labels)
    else:
        step = next(s for s in (1, 2, 3, 4, 6, 12, 24, 60) if len(x) / s <= 14 or s == 60)
        chosen = [i for i, p in enumerate(full) if (p.month - 1) % step == 0]
        labels = [
            _month_label(full[i], lang, year=n == 0 or full[i].month <= step)
            for n, i in enumerate(chosen)
        ]
        ax.set_xticks([x[i] for i in chosen], labels)
    if len(x) == 1:
        ax.margins(x=0.5)


def _month_label(period: pd.Period, lang: str, *, year: bool) -> str:
    from babel.dates import format_date

    day = period.to_timestamp().date()
    month = format_date(day, "MMM", locale=texts.LOCALES[lang])
    return f"{month}\n{period.year}" if year else month
