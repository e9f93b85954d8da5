"""Publication-ready charts of course supply: matplotlib figures for reports.

>>> offers = educatalog.load_catalogue().offers()                  # doctest: +SKIP
>>> fig = plots.supply_bars(offers, by="state")                    # doctest: +SKIP
>>> plots.save(fig, "supply.png")                                  # doctest: +SKIP
>>> fig, axes = plt.subplots(1, 2, layout="constrained")           # doctest: +SKIP
>>> plots.tile_map(offers, ax=axes[0]); plots.heatmap(offers, ax=axes[1])  # doctest: +SKIP

Every chart takes the frame of offers (:meth:`educatalog.Catalogue.offers`), computes its
numbers with :mod:`educatalog.stats` and returns a :class:`matplotlib.figure.Figure`: a new
one of report size, or the figure of ``ax`` when given an Axes to draw into. New figures are
made with :class:`~matplotlib.figure.Figure`, not pyplot, so nothing accumulates in pyplot's
list of open figures (in a notebook, show one with ``display(fig)``).

All charts share one look (:data:`STYLE`, applied with :func:`matplotlib.rc_context`) and
speak one language, ``lang="de"`` (default) or ``"en"`` (:mod:`educatalog.texts`): a title
that names the measure and the dimension, axis labels with units, numbers formatted by
Babel (``1.635`` / ``1,635``, ``10 %`` / ``10%``), the labels of the data as the catalogue
gives them (in English the states, categories and duration classes translated) and one
label for a missing value ("ohne Angabe" / "not stated", also for the catalogue's "Keine
Angabe"). A source line sits at the bottom left of the figure ("Quelle: " and
:meth:`educatalog.Source.text`); the source is the frame's
(:func:`educatalog.catalogue_data.source_of`: its attrs, or the catalogue whose rows it
holds after a ``merge`` or ``concat``), or
``source=`` where you state it. Where it cannot be known, the line says so. When the data
are the synthetic demo catalogue, a diagonal watermark and a corner label say so
("SYNTHETISCHE DEMODATEN" / :data:`DEMO_MARK`), so that a demo chart is never mistaken for
real data. Every chart carries a text alternative (:func:`alt_text`) that says what it
shows; the report puts it on the image. In a figure of your own, use
``layout="constrained"`` so that the source line gets room of its own.
"""

from __future__ import annotations

import functools
import math
import textwrap
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import matplotlib as mpl
import matplotlib.dates as mdates
import numpy as np
import pandas as pd
from cycler import cycler
from matplotlib import ticker
from matplotlib.axes import Axes
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize, to_rgba
from matplotlib.figure import Figure
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from matplotlib.transforms import ScaledTranslation

from educatalog import population, stats, texts
from educatalog.catalogue_data import Source, source_of
from educatalog.errors import EducatalogError

__all__ = [
    "DEMO_MARK",
    "MISSING_LABEL",
    "STYLE",
    "TILE_GRID",
    "alt_text",
    "cost_boxplot",
    "heatmap",
    "save",
    "stacked_shares",
    "starts_over_time",
    "supply_bars",
    "tile_map",
    "trend",
]

PALETTE: tuple[str, ...] = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#000000",
)
"""Colours of unordered groups (Okabe–Ito, safe for colour-blind readers)."""

BAR_COLOR = "#2F6B9A"
MISSING_COLOR = "#A6A6A6"
TEXT_COLOR = "#333333"
SEQUENTIAL_CMAP = "YlGnBu"
HEATMAP_CMAP = "Blues"

STYLE: dict[str, Any] = {
    "font.size": 10,
    "axes.titlesize": 13,
    "axes.titleweight": "bold",
    "axes.titlelocation": "left",
    "axes.titlepad": 10,
    "axes.labelsize": 10,
    "axes.labelcolor": TEXT_COLOR,
    "axes.edgecolor": "#666666",
    "axes.linewidth": 0.8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.axisbelow": True,
    "axes.prop_cycle": cycler(color=PALETTE),
    "grid.color": "#E3E3E3",
    "grid.linewidth": 0.7,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "xtick.color": TEXT_COLOR,
    "ytick.color": TEXT_COLOR,
    "legend.fontsize": 9,
    "legend.title_fontsize": 9.5,
    "legend.frameon": False,
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "svg.hashsalt": "educatalog",
}
"""The look of every chart, applied with :func:`matplotlib.rc_context` while it is drawn."""

MISSING_LABEL = texts.missing("de")
"""Label of the group of offers without a value (e.g. events whose state is unknown) in
German charts; ``texts.missing("en")`` ("not stated") in English ones."""

DEMO_MARK = texts.text("demo_mark", "en")
"""Written over every English chart of the synthetic demo catalogue (German charts:
"SYNTHETISCHE DEMODATEN")."""

PER_100K = "events_per_100k"

TILE_GRID: dict[str, tuple[int, int]] = {
    "DE-SH": (0, 1),
    "DE-MV": (0, 2),
    "DE-HB": (1, 0),
    "DE-HH": (1, 1),
    "DE-BE": (1, 2),
    "DE-BB": (1, 3),
    "DE-NW": (2, 0),
    "DE-NI": (2, 1),
    "DE-ST": (2, 2),
    "DE-SN": (2, 3),
    "DE-RP": (3, 0),
    "DE-HE": (3, 1),
    "DE-TH": (3, 2),
    "DE-SL": (4, 0),
    "DE-BW": (4, 1),
    "DE-BY": (4, 2),
}
"""(row, column) of each state's tile in :func:`tile_map`, north-west first."""

_SOURCE_GID = "educatalog-source"
_WATERMARK_GID = "educatalog-demo-watermark"
_DEMO_LABEL_GID = "educatalog-demo-label"
_FOOTER_SIZE = 7.5
_FREQUENCIES = ("month", "quarter", "year")


_MEASURES: dict[str, str] = {
    # measure: the column it needs (title and axis label: educatalog.texts)
    "events": "event_id",
    "courses": "course_id",
    "institutions": "institution",
    "capacity": "max_participants",
    PER_100K: "state",
}
_ALT_ATTR = "_educatalog_alt"

P = ParamSpec("P")
R = TypeVar("R")


def _styled(function: Callable[P, R]) -> Callable[P, R]:
    """Run a chart function under :data:`STYLE`."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with mpl.rc_context(STYLE):
            return function(*args, **kwargs)

    return wrapper


# -- charts ----------------------------------------------------------------------------


@_styled
def supply_bars(
    offers: pd.DataFrame,
    by: str = "state",
    *,
    measure: str = "events",
    top: int | None = None,
    ax: Axes | None = None,
    title: str | None = None,
    lang: str = texts.DEFAULT_LANG,
    source: Source | str | None = None,
    population: Any = None,
) -> Figure:
    """Horizontal bars of a measure by ``by``, largest on top, each labelled with its value.

    ``measure`` is one of :data:`educatalog.stats.MEASURES` (events, courses,
    institutions, capacity) or ``"events_per_100k"`` (only with ``by="state"``, from
    :func:`educatalog.stats.per_capita`, with ``population=`` your own figures; the
    footer names the figures and their reference date). ``top`` keeps the largest ``top``
    groups. Offers without a value of ``by`` form a bar of their own, labelled
    "ohne Angabe" / "not stated". Groups whose capacity nobody states have no bar; a note
    names them. ``lang`` is ``"de"`` or ``"en"``; ``source`` states the data's source
    where the frame does not know it.
    """
    what = "supply_bars()"
    lang = texts.check_lang(lang)
    _check_dimension(by, "by")
    if measure not in _MEASURES:
        raise EducatalogError(f'Unknown measure "{measure}"; choose one of {", ".join(_MEASURES)}.')
    if top is not None and (isinstance(top, bool) or not isinstance(top, int) or top < 1):
        raise EducatalogError(f"top must be a positive whole number of groups, got {top!r}.")
    notes: list[str] = []
    if measure == PER_100K:
        if by != "state":
            raise EducatalogError(
                f'measure="{PER_100K}" is known per state only; use by="state" '
                f"(or another measure: {', '.join(stats.MEASURES)})."
            )
        _require(offers, ["event_id", "state"], what)
        rates = stats.per_capita(offers, population=population)
        values = rates[PER_100K]
        notes.append(_population_note(rates, lang))
    else:
        _require(offers, ["event_id", _MEASURES[measure], *_columns_of(offers, [by])], what)
        table = stats.supply(offers, by, normalize=False)
        values = table[measure]
        if measure == "capacity":
            unknown = table.index[values.isna() & (table["events"] > 0)]
            if len(unknown):
                groups = ", ".join(_label(k, lang) for k in unknown)
                notes.append(texts.text("note.capacity_unknown", lang, groups=groups))
    values = values.dropna()
    missing = _missing_mask(values.index)
    values = values[~(missing & (values.to_numpy(dtype=float) == 0))]  # an empty "no value"
    values = values.iloc[np.argsort(-values.to_numpy(dtype=float), kind="stable")]
    shown = values.iloc[:top] if top is not None else values
    if shown.empty:
        raise EducatalogError(f"{what}: the frame has no offers to count by {by}.")

    numbers = shown.to_numpy(dtype=float)
    labels = [_label(key, lang) for key in shown.index]
    fig, ax = _axes(ax, (8.0, max(2.8, 1.5 + 0.3 * len(shown))))
    positions = np.arange(len(shown))
    colors = [MISSING_COLOR if m else BAR_COLOR for m in _missing_mask(shown.index)]
    bars = ax.barh(positions, numbers, height=0.72, color=colors)
    text = _rate_text if measure == PER_100K else _count_text
    value_texts = [text(v, lang) for v in numbers]
    _inside(ax.bar_label(bars, labels=value_texts, padding=3, fontsize=8.5, color=TEXT_COLOR))
    ax.set_yticks(positions, labels)
    ax.set_ylim(len(shown) - 0.5, -0.5)  # the first, largest bar on top
    ax.set_xlim(0, (numbers.max() or 1.0) * 1.14)
    _value_axis(ax.xaxis, rate=measure == PER_100K, lang=lang)
    _grid(ax.xaxis)
    ax.tick_params(axis="y", length=0)
    ax.set_xlabel(texts.text(f"axis.{measure}", lang))
    ax.set_ylabel(texts.capitalized(texts.dimension(by, lang)))
    if title is None:
        title = texts.text(
            "title.by",
            lang,
            measure=texts.text(f"measure.{measure}", lang),
            dimension=texts.dimension(by, lang),
        )
        if top is not None and top < len(values):
            title = texts.text("title.top", lang, title=title, top=top)
    known = [i for i, m in enumerate(_missing_mask(shown.index)) if not m] or [0]
    alt = texts.text(
        "alt.bars",
        lang,
        title=title,
        top=labels[known[0]],
        top_value=value_texts[known[0]],
        low=labels[known[-1]],
        low_value=value_texts[known[-1]],
        n=len(labels),
    )
    return _finish(fig, ax, offers, title, notes, lang=lang, source=source, alt=alt)


@_styled
def stacked_shares(
    offers: pd.DataFrame,
    rows: str = "state",
    columns: str = "instruction_form_category",
    *,
    ax: Axes | None = None,
    title: str | None = None,
    lang: str = texts.DEFAULT_LANG,
    source: Source | str | None = None,
) -> Figure:
    """100 % stacked horizontal bars: the shares of ``columns`` among the events of each
    value of ``rows`` (:func:`educatalog.stats.crosstab` with ``normalize="index"``).

    Each bar's tick label gives its number of events (``n``); values of ``rows`` without
    events have no shares and are left out, as are values of ``columns`` that no event has.
    """
    what = "stacked_shares()"
    lang = texts.check_lang(lang)
    _check_dimension(rows, "rows")
    _check_dimension(columns, "columns")
    if rows == columns:
        raise EducatalogError(f"{what} needs two different dimensions, got {rows!r} twice.")
    _require(offers, ["event_id", *_columns_of(offers, [rows, columns])], what)
    shares = stats.crosstab(offers, rows, columns, normalize="index")
    events = stats.supply(offers, rows, normalize=False)["events"]
    n_of = {_key(key): int(n) for key, n in events.items()}
    shares = shares.iloc[[i for i, k in enumerate(shares.index) if n_of.get(_key(k), 0) > 0]]
    if shares.empty:
        raise EducatalogError(f"{what}: the frame has no offers to count by {rows}.")
    values = shares.to_numpy(dtype=float, na_value=np.nan) * 100
    used = np.nansum(values, axis=0) > 0
    values, keys = values[:, used], shares.columns[used]

    n_rows = len(shares)
    fig, ax = _axes(ax, (9.0, max(2.8, 1.6 + 0.3 * n_rows)))
    positions = np.arange(n_rows)
    colors = _group_colors(list(keys), offers, columns)
    left = np.zeros(n_rows)
    for j, key in enumerate(keys):
        width = np.nan_to_num(values[:, j])
        bars = ax.barh(
            positions,
            width,
            left=left,
            height=0.72,
            color=colors[j],
            edgecolor="white",
            linewidth=0.6,
            label=_label(key, lang),
        )
        inside = [texts.percent(v / 100, lang, 0) if v >= 7 else "" for v in width]
        _inside(
            ax.bar_label(
                bars, labels=inside, label_type="center", fontsize=7.5, color=_ink(colors[j])
            )
        )
        left += width
    labels = [
        texts.text("n", lang, label=_label(k, lang), n=texts.number(n_of[_key(k)], lang))
        for k in shares.index
    ]
    ax.set_yticks(positions, labels)
    ax.set_ylim(n_rows - 0.5, -0.5)
    ax.set_xlim(0, 100)
    ax.xaxis.set_major_formatter(_percent_formatter(lang))
    ax.xaxis.set_major_locator(ticker.MultipleLocator(20))
    ax.tick_params(axis="y", length=0)
    ax.set_xlabel(texts.text("axis.share", lang))
    ax.set_ylabel(texts.capitalized(texts.dimension(rows, lang)))
    ax.legend(
        title=texts.capitalized(texts.dimension(columns, lang)),
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        borderaxespad=0.0,
        frameon=False,
    )
    if title is None:
        title = texts.text(
            "title.shares",
            lang,
            columns=texts.dimension(columns, lang),
            rows=texts.dimension(rows, lang),
        )
    parts = ", ".join(_label(k, lang) for k in keys)
    alt = texts.text("alt.stacked", lang, title=title, n=n_rows, parts=parts)
    return _finish(fig, ax, offers, title, lang=lang, source=source, alt=alt)


@_styled
def heatmap(
    offers: pd.DataFrame,
    rows: str = "state",
    columns: str = "duration_class",
    *,
    normalize: bool | str | None = "index",
    measure: str = "events",
    ax: Axes | None = None,
    title: str | None = None,
    lang: str = texts.DEFAULT_LANG,
    source: Source | str | None = None,
) -> Figure:
    """An annotated heatmap of the events (or another ``measure`` of
    :data:`educatalog.stats.MEASURES`, for counts) by ``rows`` and ``columns``
    (:func:`educatalog.stats.crosstab`).

    ``normalize`` as in :func:`~educatalog.stats.crosstab`: ``"index"`` shares within each
    row, ``"columns"`` within each column, ``"all"`` of the total (cells in percent), or
    False/None for counts. Empty cells show "–"; cells of unknown capacity stay blank.
    """
    what = "heatmap()"
    lang = texts.check_lang(lang)
    _check_dimension(rows, "rows")
    _check_dimension(columns, "columns")
    if rows == columns:
        raise EducatalogError(f"{what} needs two different dimensions, got {rows!r} twice.")
    mode = "all" if normalize is True else (normalize or False)
    if mode not in ("index", "columns", "all", False):
        raise EducatalogError(
            f"normalize must be index, columns, all or False (counts), got {normalize!r}."
        )
    if measure not in stats.MEASURES:
        raise EducatalogError(
            f'Unknown measure "{measure}"; choose one of {", ".join(stats.MEASURES)}.'
        )
    needed = ["event_id", _MEASURES[measure], *_columns_of(offers, [rows, columns])]
    _require(offers, needed, what)
    table = stats.crosstab(offers, rows, columns, measure=measure, normalize=mode)
    if table.size == 0:
        raise EducatalogError(f"{what}: the frame has no offers to count.")
    data = table.to_numpy(dtype=float, na_value=np.nan)
    share = mode is not False
    if share:
        data = data * 100
    n_rows, n_cols = data.shape
    col_width = 0.66  # inches per column
    fig, ax = _axes(ax, (max(6.5, 3.2 + col_width * n_cols + 1.2), max(3.2, 2.0 + 0.32 * n_rows)))
    vmax = float(np.nanmax(data)) if np.isfinite(data).any() else 0.0
    cmap = mpl.colormaps[HEATMAP_CMAP].with_extremes(bad="#F2F2F2")
    mesh = ax.pcolormesh(
        np.arange(n_cols + 1),
        np.arange(n_rows + 1),
        np.ma.masked_invalid(data),
        cmap=cmap,
        vmin=0,
        vmax=vmax or 1.0,
        edgecolors="white",
        linewidth=0.8,
    )
    size = 8.5 if n_cols <= 8 else 7.5
    for i in range(n_rows):
        for j in range(n_cols):
            value = data[i, j]
            if math.isnan(value):
                continue
            color = "white" if vmax and value / vmax > 0.55 else TEXT_COLOR
            ax.text(
                j + 0.5,
                i + 0.5,
                _share_text(value, lang) if share else _cell_count_text(value, lang),
                ha="center",
                va="center",
                fontsize=size,
                color=color,
                in_layout=False,  # inside the axes; keeps the layout fast
            )
    row_labels = [_label(k, lang) for k in table.index]
    column_labels = [_label(k, lang) for k in table.columns]
    ax.set_xlim(0, n_cols)
    ax.set_ylim(n_rows, 0)
    ax.set_yticks(np.arange(n_rows) + 0.5, row_labels)
    _column_labels(ax, column_labels, col_width)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_xlabel(texts.capitalized(texts.dimension(columns, lang)))
    ax.set_ylabel(texts.capitalized(texts.dimension(rows, lang)))
    row_name, col_name = texts.dimension(rows, lang), texts.dimension(columns, lang)
    unit = {
        "index": texts.text("axis.share_within", lang, name=row_name),
        "columns": texts.text("axis.share_within", lang, name=col_name),
        "all": texts.text("axis.share_all", lang),
        False: texts.text(f"axis.{measure}", lang),
    }[mode]
    colorbar = fig.colorbar(mesh, ax=ax, pad=0.02, fraction=0.05, aspect=25)
    colorbar.set_label(unit)
    colorbar.outline.set_visible(False)
    if share:
        colorbar.formatter = _percent_formatter(lang)
    else:
        colorbar.locator = ticker.MaxNLocator(nbins=6, integer=True)
        colorbar.formatter = ticker.FuncFormatter(lambda v, _p=None: _count_tick(v, lang=lang))
    colorbar.update_ticks()
    if title is None:
        names = {"rows": row_name, "columns": col_name}
        title = {
            "index": texts.text("title.shares", lang, **names),
            "columns": texts.text("title.shares_columns", lang, **names),
            "all": texts.text("title.shares_all", lang, **names),
            False: texts.text(
                "title.measure_by_2d", lang, measure=texts.text(f"measure.{measure}", lang), **names
            ),
        }[mode]
    alt = title
    if np.isfinite(data).any():
        i, j = np.unravel_index(np.nanargmax(data), data.shape)
        top_value = _share_text(data[i, j], lang) if share else _count_text(data[i, j], lang)
        alt = texts.text(
            "alt.heatmap",
            lang,
            title=title,
            rows=n_rows,
            row_name=row_name,
            columns=n_cols,
            column_name=col_name,
            top_value=top_value,
            top=f"{row_labels[i]} / {column_labels[j]}",
        )
    return _finish(fig, ax, offers, title, lang=lang, source=source, alt=alt)


@_styled
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
    lang = texts.check_lang(lang)
    if freq not in _FREQUENCIES:
        raise EducatalogError(f"freq must be month, quarter or year, got {freq!r}.")
    if by is not None:
        _check_dimension(by, "by")
    _require(
        offers, ["event_id", "event_start_date", *_columns_of(offers, [by] if by else [])], what
    )
    totals = stats.supply(offers, freq, normalize=False)["events"]
    dated = ~_missing_mask(totals.index)
    undated = int(totals[~dated].sum())
    if not dated.any() or totals[dated].sum() == 0:
        raise EducatalogError(f"{what}: no event in the frame has a start date.")
    periods = totals.index[dated]
    if freq == "year":
        full = pd.Index(range(int(min(periods)), int(max(periods)) + 1), name=freq)
    else:
        full = pd.period_range(min(periods), max(periods), freq="M" if freq == "month" else "Q")
    if by is None:
        series = {None: totals[dated]}
    else:
        wide = stats.crosstab(offers, freq, by)
        wide = wide.iloc[~_missing_mask(wide.index)]
        series = {key: wide[key] for key in wide.columns if wide[key].sum() > 0}
    x = list(full) if freq == "year" else list(full.to_timestamp())

    fig, ax = _axes(ax, (9.0, 4.6))
    colors = _group_colors(list(series), offers, by) if by else [BAR_COLOR]
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
            label=_label(key, lang) if by else texts.text("title.line", lang),
        )
    _time_axis(ax, freq, full, x, lang)
    ax.set_ylim(0, peak * 1.08 or 1.0)
    _value_axis(ax.yaxis, rate=False, lang=lang)
    _grid(ax.yaxis)
    period_name = texts.text(f"freq.{freq}", lang)
    ax.set_xlabel(texts.text("axis.start", lang, freq=period_name))
    ax.set_ylabel(texts.text("axis.starts", lang, freq=period_name))
    if by:
        ax.legend(
            title=texts.capitalized(texts.dimension(by, lang)),
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
            borderaxespad=0.0,
            frameon=False,
        )
    notes = [texts.text("note.without_start", lang, events=_events(undated, lang))]
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
        first=_label(full[0], lang),
        last=_label(full[-1], lang),
        top_value=_count_text(totals_all[peak_at], lang),
        top=_label(full[peak_at], lang),
    )
    return _finish(fig, ax, offers, title, notes, lang=lang, source=source, alt=alt)


@_styled
def cost_boxplot(
    offers: pd.DataFrame,
    by: str = "instruction_form_category",
    *,
    currency: str = "EUR",
    ax: Axes | None = None,
    title: str | None = None,
    lang: str = texts.DEFAULT_LANG,
    source: Source | str | None = None,
) -> Figure:
    """Boxplots of the events' costs per value of ``by``, in one ``currency``
    (:func:`educatalog.stats.costs`): box from the first to the third quartile, the median
    as a line, the mean as a diamond, whiskers from the minimum to the maximum. The tick
    labels give the number of events with a cost (``n``); groups without one are left out.
    """
    what = "cost_boxplot()"
    lang = texts.check_lang(lang)
    _check_dimension(by, "by")
    _require(offers, ["event_id", "cost", "cost_currency", *_columns_of(offers, [by])], what)
    table = stats.costs(offers, by, currency=currency)
    if table.empty:
        known = stats.costs(offers)["events"]
        given = ", ".join(f"{cur} ({int(n):,} events)" for cur, n in known.items())
        raise EducatalogError(
            f"No event in the frame has a cost in {currency}; "
            + (
                f"costs are given in {given}: pass currency=... accordingly."
                if given
                else "the frame has no costs at all."
            )
        )
    table = table.droplevel("currency")
    boxes = [
        {
            "label": texts.text(
                "n", lang, label=_label(key, lang), n=texts.number(row["events"], lang)
            ),
            "med": float(row["median"]),
            "q1": float(row["q1"]),
            "q3": float(row["q3"]),
            "whislo": float(row["min"]),
            "whishi": float(row["max"]),
            "mean": float(row["mean"]),
            "fliers": [],
        }
        for key, row in table.iterrows()
    ]
    n = len(boxes)
    fig, ax = _axes(ax, (8.0, max(2.8, 1.6 + 0.55 * n)))
    ax.bxp(
        boxes,
        positions=np.arange(n),
        orientation="horizontal",
        widths=0.55,
        patch_artist=True,
        showmeans=True,
        boxprops={"facecolor": "#CFE0EE", "edgecolor": BAR_COLOR, "linewidth": 1.0},
        medianprops={"color": "#0B3C5D", "linewidth": 2.0},
        meanprops={
            "marker": "D",
            "markerfacecolor": "white",
            "markeredgecolor": "#0B3C5D",
            "markersize": 5,
        },
        whiskerprops={"color": BAR_COLOR, "linewidth": 1.0},
        capprops={"color": BAR_COLOR, "linewidth": 1.0},
    )
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlim(left=0 if table["min"].min() >= 0 else None)
    _value_axis(ax.xaxis, rate=True, lang=lang)
    _grid(ax.xaxis)
    ax.tick_params(axis="y", length=0)
    ax.set_xlabel(texts.text("axis.cost", lang, currency=currency))
    ax.set_ylabel(texts.capitalized(texts.dimension(by, lang)))
    notes = [texts.text("note.box", lang)]
    if title is None:
        title = texts.text(
            "title.costs", lang, dimension=texts.dimension(by, lang), currency=currency
        )
    medians = "; ".join(
        f"{_label(key, lang)}: {texts.number(row['median'], lang, 0)} {currency}"
        for key, row in table.iterrows()
    )
    alt = texts.text("alt.boxes", lang, title=title, medians=medians)
    return _finish(fig, ax, offers, title, notes, lang=lang, source=source, alt=alt)


@_styled
def tile_map(
    offers: pd.DataFrame,
    *,
    measure: str = PER_100K,
    ax: Axes | None = None,
    title: str | None = None,
    lang: str = texts.DEFAULT_LANG,
    source: Source | str | None = None,
    population: Any = None,
) -> Figure:
    """The 16 German states as a grid of equal tiles (:data:`TILE_GRID`), each coloured by
    ``measure`` and labelled with its ISO code and value; ``"events_per_100k"``
    (:func:`educatalog.stats.per_capita`) or one of :data:`educatalog.stats.MEASURES`.

    States are matched by name through :data:`educatalog.population.STATE_POPULATION` or
    by the frame's ``state_code``; a frame with ``state_code`` only works as well.
    ``population=`` takes your own figures (:func:`educatalog.stats.per_capita`); the
    footer names the figures used and their reference date.
    """
    what = "tile_map()"
    lang = texts.check_lang(lang)
    if measure not in _MEASURES:
        raise EducatalogError(f'Unknown measure "{measure}"; choose one of {", ".join(_MEASURES)}.')
    frame = _with_state(offers, what)
    _require(frame, ["event_id", _MEASURES[measure]], what)
    code_of = _state_codes(frame)
    notes: list[str] = []
    if measure == PER_100K:
        rates = stats.per_capita(frame, population=population)
        table = rates[PER_100K]
        notes.append(_population_note(rates, lang))
    else:
        table = stats.supply(frame, "state", normalize=False, dropna=True)[measure]
    values: dict[str, float] = {}
    for name, value in table.items():
        code = code_of.get(str(name))
        if code in TILE_GRID and not pd.isna(value):
            values[code] = float(value)
    events = stats.supply(frame, "state", normalize=False)["events"]
    stateless = int(events[_missing_mask(events.index)].sum())
    if stateless:
        notes.insert(0, texts.text("note.without_state", lang, events=_events(stateless, lang)))

    fig, ax = _axes(ax, (6.4, 7.4))
    vmax = max(values.values(), default=0.0) or 1.0
    cmap = mpl.colormaps[SEQUENTIAL_CMAP]
    norm = Normalize(vmin=0, vmax=vmax)
    text = _rate_text if measure == PER_100K else _count_text
    for code, (row, column) in TILE_GRID.items():
        value = values.get(code)
        face = cmap(norm(value)) if value is not None else to_rgba("#E6E6E6")
        ax.add_patch(
            Rectangle(
                (column - 0.47, -row - 0.47),
                0.94,
                0.94,
                facecolor=face,
                edgecolor="white",
                linewidth=1.5,
                gid=f"tile-{code}",
            )
        )
        ink = _ink(face)
        ax.text(
            column,
            -row + 0.13,
            code,
            ha="center",
            va="center",
            fontsize=10.5,
            fontweight="bold",
            color=ink,
            in_layout=False,
        )
        ax.text(
            column,
            -row - 0.17,
            text(value, lang) if value is not None else "–",
            ha="center",
            va="center",
            fontsize=9.5,
            color=ink,
            in_layout=False,
        )
    ax.set_xlim(-0.55, 3.55)
    ax.set_ylim(-4.55, 0.55)
    ax.set_aspect("equal")
    ax.set_axis_off()
    colorbar = fig.colorbar(
        ScalarMappable(norm=norm, cmap=cmap),
        ax=ax,
        orientation="horizontal",
        location="bottom",
        shrink=0.75,
        aspect=30,
        pad=0.02,
    )
    colorbar.set_label(texts.text(f"axis.{measure}", lang))
    colorbar.outline.set_visible(False)
    tick = _rate_tick if measure == PER_100K else _count_tick
    colorbar.formatter = ticker.FuncFormatter(lambda v, _p=None: tick(v, lang=lang))
    colorbar.update_ticks()
    if title is None:
        title = texts.text(
            "title.by",
            lang,
            measure=texts.text(f"measure.{measure}", lang),
            dimension=texts.dimension("state", lang),
        )
    alt = texts.text("alt.chart", lang, title=title)
    if values:
        name_of = {code: name for name, code in code_of.items()}
        high = max(values, key=lambda c: values[c])
        low = min(values, key=lambda c: values[c])
        alt = texts.text(
            "alt.tiles",
            lang,
            title=title,
            top=_label(name_of.get(high, high), lang),
            top_value=text(values[high], lang),
            low=_label(name_of.get(low, low), lang),
            low_value=text(values[low], lang),
        )
    return _finish(fig, ax, offers, title, notes, lang=lang, source=source, alt=alt)


@_styled
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
    (``arc.flows()``). ``top`` keeps the groups largest on the newest date. ``lang`` is
    ``"de"`` or ``"en"``; ``source`` states the data's source where the table does not
    know it.

    >>> plots.trend(history.open("archive/").supply(by="state"), top=6)  # doctest: +SKIP
    """
    lang = texts.check_lang(lang)
    if kind not in ("line", "area"):
        raise EducatalogError(f"kind must be line or area, got {kind!r}.")
    if not isinstance(table, pd.DataFrame) or "snapshot_date" not in table.index.names:
        raise EducatalogError(
            "trend() draws a table indexed by snapshot_date, such as "
            "history.open(DIR).supply(by=...) or .flows()."
        )
    if measure not in table.columns:
        raise EducatalogError(
            f"The table has no measure {measure!r}; its columns: {', '.join(map(str, table))}."
        )
    values = table[measure].astype("Float64")
    dimension = None
    if isinstance(table.index, pd.MultiIndex):
        if table.index.nlevels != 2:
            raise EducatalogError("trend() draws a table of one dimension over time.")
        dimension = str(table.index.names[1])
        wide = values.unstack(dimension)
        wide = wide.reindex(columns=table.index.get_level_values(1).unique())
    else:
        wide = values.to_frame(measure)
    wide = wide.astype("float64").fillna(0.0)
    wide = wide.loc[:, wide.abs().sum() > 0] if dimension else wide
    if top is not None and dimension:
        wide = wide[wide.iloc[-1].sort_values(ascending=False).index[:top]]
    x = pd.to_datetime(wide.index).to_pydatetime()
    fig, ax = _axes(ax, (9.0, 4.6))
    keys = list(wide.columns)
    frame = pd.DataFrame({dimension: table.index.get_level_values(1)}) if dimension else table
    colors = _group_colors(keys, frame, dimension) if dimension else [BAR_COLOR]
    name = texts.measure(measure, lang)
    labels = [_label(k, lang) for k in keys] if dimension else [name]
    if kind == "area":
        ax.stackplot(x, wide.to_numpy().T, labels=labels, colors=colors, alpha=0.9, linewidth=0)
    else:
        marker = "o" if len(x) <= 36 else None
        for key, label, color in zip(keys, labels, colors, strict=True):
            ax.plot(
                x, wide[key], marker=marker, markersize=3, linewidth=1.8, color=color, label=label
            )
    ax.set_ylim(bottom=0)
    locator = mdates.AutoDateLocator(minticks=4, maxticks=14)
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(
        ticker.FuncFormatter(lambda value, _pos: texts.date(mdates.num2date(value).date(), lang))
    )
    _value_axis(ax.yaxis, rate=measure == "share", lang=lang)
    _grid(ax.yaxis)
    ax.set_xlabel(texts.text("axis.snapshot_date", lang))
    axis_key = f"axis.{measure}"
    ax.set_ylabel(texts.text(axis_key, lang) if texts.has_text(axis_key) else name)
    if dimension:
        ax.legend(
            title=texts.capitalized(texts.dimension(dimension, lang)),
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
            borderaxespad=0.0,
            frameon=False,
        )
    if title is None:
        if dimension:
            title = texts.text(
                "title.trend_by", lang, measure=name, dimension=texts.dimension(dimension, lang)
            )
        else:
            title = texts.text("title.trend", lang, measure=name)
    notes = []
    if len(x):
        first, last = texts.date(x[0].date(), lang), texts.date(x[-1].date(), lang)
        notes.append(texts.text("note.snapshots", lang, n=len(x), first=first, last=last))
    return _finish(fig, ax, table, title, notes, lang=lang, source=source)


def save(fig: Figure, path: str | Path, *, dpi: int = 200) -> Path:
    """Write ``fig`` to ``path`` as PNG, SVG or PDF (by its suffix) at ``dpi`` (150 or
    more), cropped to its content; returns the path. SVG and PDF carry no timestamp, so the
    same chart gives the same file."""
    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in ("png", "svg", "pdf"):
        raise EducatalogError(f"save() writes .png, .svg or .pdf files, not {path.name!r}.")
    if dpi < 150:
        raise EducatalogError(f"Charts for reports need at least 150 dpi, got {dpi}.")
    alt = alt_text(fig)
    metadata = {
        "png": {"Description": alt} if alt else None,
        "svg": {"Date": None, "Description": alt} if alt else {"Date": None},
        "pdf": {"CreationDate": None, "Subject": alt} if alt else {"CreationDate": None},
    }[fmt]
    with mpl.rc_context(STYLE):
        fig.savefig(
            path, format=fmt, dpi=dpi, bbox_inches="tight", pad_inches=0.1, metadata=metadata
        )
    return path


def alt_text(fig: Figure) -> str | None:
    """What the chart shows, in words, for readers who cannot see it (the ``alt`` text of
    its image): kind of chart, title, the largest and smallest values, the demo mark and the
    source. None for a figure no chart function drew."""
    return getattr(fig, _ALT_ATTR, None)


# -- furniture: title, source line, demo mark ------------------------------------------


def _axes(ax: Axes | None, size: tuple[float, float]) -> tuple[Figure, Axes]:
    """A new figure of ``size`` inches with one Axes, or the root figure of ``ax``."""
    if ax is None:
        fig = Figure(figsize=size, layout="constrained")
        return fig, fig.add_subplot()
    if not isinstance(ax, Axes):
        raise EducatalogError(f"ax must be a matplotlib Axes, got {type(ax).__name__}.")
    return ax.get_figure(root=True), ax


def _finish(
    fig: Figure,
    ax: Axes,
    offers: pd.DataFrame,
    title: str,
    notes: Sequence[str] = (),
    *,
    lang: str,
    source: Source | str | None = None,
    alt: str | None = None,
) -> Figure:
    """Title, spines, the source line (with ``notes`` above it), the demo mark and the
    text alternative."""
    ax.set_title(title, loc="left", fontsize=STYLE["axes.titlesize"], fontweight="bold")
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    ax.set_axisbelow(True)
    found = source_of(offers, source)
    described = found.text(lang) if found is not None else texts.text("source.unknown", lang)
    source_line = texts.text("source", lang, source=described)
    demo = found is not None and found.demo
    if demo:
        _demo_mark(fig, lang)
    _footer(fig, notes, source_line)
    parts = [alt or texts.text("alt.chart", lang, title=title)]
    if demo:
        parts.append(texts.text("alt.demo", lang))
    parts.append(source_line + ".")
    earlier = alt_text(fig)
    setattr(fig, _ALT_ATTR, " ".join([*([earlier] if earlier else []), *parts]))
    return fig


def _footer(fig: Figure, notes: Sequence[str], source_line: str) -> None:
    """One text at the bottom left of the figure: notes, then the source lines of every
    chart drawn into it; the constrained layout keeps room for it."""
    text = _figure_text(fig, _SOURCE_GID)
    if text is None:
        offset = ScaledTranslation(6 / 72, 5 / 72, fig.dpi_scale_trans)
        text = fig.text(
            0,
            0,
            "",
            transform=fig.transFigure + offset,
            ha="left",
            va="bottom",
            fontsize=_FOOTER_SIZE,
            color="#555555",
            linespacing=1.35,
            gid=_SOURCE_GID,
        )
        text._educatalog_parts = ([], [])  # type: ignore[attr-defined]
    kept_notes, sources = text._educatalog_parts  # type: ignore[attr-defined]
    kept_notes += [n for n in notes if n not in kept_notes]
    if source_line not in sources:
        sources.append(source_line)
    room = fig.get_figwidth() * 72 - 12 - (120 if _figure_text(fig, _DEMO_LABEL_GID) else 0)
    width = max(40, int(room / (_FOOTER_SIZE * 0.55)))
    lines = [line for part in (*kept_notes, *sources) for line in textwrap.wrap(part, width)]
    text.set_text("\n".join(lines))
    engine = fig.get_layout_engine()
    if isinstance(engine, ConstrainedLayoutEngine):
        bottom = (len(lines) * _FOOTER_SIZE * 1.35 + 12) / 72 / fig.get_figheight()
        engine.set(rect=(0, bottom, 1, 1 - bottom))


def _demo_mark(fig: Figure, lang: str) -> None:
    """A light diagonal watermark across the figure and a label in its bottom right corner."""
    if _figure_text(fig, _WATERMARK_GID) is not None:
        return
    mark = texts.text("demo_mark", lang)
    width, height = fig.get_figwidth(), fig.get_figheight()
    diagonal = math.hypot(width, height) * 72
    watermark = fig.text(
        0.5,
        0.5,
        mark,
        ha="center",
        va="center",
        rotation=min(45.0, math.degrees(math.atan2(height, width))),
        rotation_mode="anchor",
        fontsize=min(60.0, diagonal * 0.55 / (len(mark) * 0.62)),
        fontweight="bold",
        color="#7F7F7F",
        alpha=0.16,
        zorder=100,
        gid=_WATERMARK_GID,
    )
    watermark.set_in_layout(False)
    offset = ScaledTranslation(-6 / 72, 5 / 72, fig.dpi_scale_trans)
    fig.text(
        1,
        0,
        mark,
        transform=fig.transFigure + offset,
        ha="right",
        va="bottom",
        fontsize=8,
        fontweight="bold",
        color="#B00020",
        zorder=100,
        gid=_DEMO_LABEL_GID,
    )


def _inside(texts: Sequence[Text]) -> None:
    """Labels drawn within the axes stay out of the layout's sums (which they do not change
    but would slow down)."""
    for text in texts:
        text.set_in_layout(False)


def _figure_text(fig: Figure, gid: str) -> Text | None:
    return next((t for t in fig.texts if t.get_gid() == gid), None)


def _population_note(rates: pd.DataFrame, lang: str) -> str:
    """The population figures behind a per-capita chart, with their reference date."""
    origin = rates.attrs.get("educatalog", {}).get("population", {})
    return texts.text("population", lang, source=population_text(origin, lang))


def population_text(origin: Mapping[str, Any], lang: str = texts.DEFAULT_LANG) -> str:
    """The population figures named in words, with their reference date: "Statistisches
    Bundesamt (Destatis), Fortschreibung des Bevölkerungsstandes (Tabelle 12411-0010), Stand
    31.12.2022"."""
    date = origin.get("date")
    if origin.get("table") and origin.get("publisher") and date:
        english = lang == "en"
        return texts.text(
            "population.source",
            lang,
            publisher=origin.get("publisher_en" if english else "publisher", origin["publisher"]),
            statistic=origin.get(
                "statistic_en" if english else "statistic", origin.get("statistic", "")
            ),
            table=origin["table"],
            date=texts.date(date, lang),
        )
    name = origin.get("source") or texts.text("population.caller", lang)
    if str(name).startswith("given by the caller"):
        name = texts.text("population.caller", lang)
    if date:
        return texts.text("population.own", lang, source=name, date=texts.date(date, lang))
    if origin.get("year"):
        return texts.text("population.own", lang, source=name, date=str(origin["year"]))
    return texts.text("population.own_nodate", lang, source=name)


# -- axes ------------------------------------------------------------------------------


def _value_axis(axis: Any, *, rate: bool, lang: str) -> None:
    """Ticks with the language's thousands separators (whole numbers only for counts)."""
    if not rate:
        axis.set_major_locator(ticker.MaxNLocator(integer=True, min_n_ticks=3))
    tick = _rate_tick if rate else _count_tick
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _p=None: tick(v, lang=lang)))


def _percent_formatter(lang: str) -> ticker.Formatter:
    """Ticks of a 0–100 axis as whole percentages in the language's format."""
    return ticker.FuncFormatter(lambda v, _p=None: texts.percent(v / 100, lang, 0))


def _grid(axis: Any) -> None:
    """Light grid lines along a value axis (explicit, for Axes made outside the style)."""
    axis.grid(True, color=STYLE["grid.color"], linewidth=STYLE["grid.linewidth"])


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
            f"Q{full[i].quarter}\n{full[i].year}"
            if full[i].quarter == 1 or i == chosen[0]
            else f"Q{full[i].quarter}"
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


def _column_labels(ax: Axes, labels: list[str], col_width: float) -> None:
    """Column labels wrapped to the column width; rotated where a word does not fit."""
    size = 8.5
    chars = max(6, int(col_width * 72 / (size * 0.58)))
    wrapped = [textwrap.fill(label, chars, break_long_words=False) for label in labels]
    fits = all(len(line) <= chars for w in wrapped for line in w.split("\n"))
    fits = fits and all(w.count("\n") < 4 for w in wrapped)
    positions = np.arange(len(labels)) + 0.5
    if fits:
        ax.set_xticks(positions, wrapped, fontsize=size)
    else:
        wrapped = [textwrap.fill(label, 24, break_long_words=False) for label in labels]
        ax.set_xticks(
            positions, wrapped, fontsize=size, rotation=35, ha="right", rotation_mode="anchor"
        )


# -- values and labels -----------------------------------------------------------------


def _month_label(period: pd.Period, lang: str, *, year: bool) -> str:
    from babel.dates import format_date

    day = period.to_timestamp().date()
    month = format_date(day, "MMM", locale=texts.LOCALES[lang])
    return f"{month}\n{period.year}" if year else month


def _label(key: Any, lang: str = texts.DEFAULT_LANG) -> str:
    """The label of a group as a reader sees it (:func:`educatalog.texts.label`): missing
    values, also the catalogue's "Keine Angabe", as the one missing label."""
    return texts.label(key, lang)


def _key(key: Any) -> Any:
    """A group key usable in a dict: missing values as None."""
    return None if texts.is_missing(key) and not isinstance(key, str) else key


def _missing_mask(index: pd.Index) -> np.ndarray:
    return np.asarray([texts.is_missing(k) for k in index], dtype=bool)


def _events(n: int, lang: str) -> str:
    return texts.count(n, lang)


def _count_text(value: float, lang: str = texts.DEFAULT_LANG) -> str:
    return texts.number(value, lang)


def _rate_text(value: float, lang: str = texts.DEFAULT_LANG) -> str:
    """Two decimals for small rates, fewer for large ones."""
    return texts.rate(value, lang)


def _share_text(value: float, lang: str = texts.DEFAULT_LANG) -> str:
    """A cell of percent (0–100) as a whole percentage; "<1 %" for a small one."""
    if value == 0:
        return "–"
    if value < 0.5:
        return texts.text("less_than_1", lang)
    return texts.percent(value / 100, lang, 0)


def _cell_count_text(value: float, lang: str = texts.DEFAULT_LANG) -> str:
    return "–" if value == 0 else _count_text(value, lang)


def _count_tick(value: float, _position: Any = None, *, lang: str = texts.DEFAULT_LANG) -> str:
    return texts.number(value, lang)


def _rate_tick(value: float, _position: Any = None, *, lang: str = texts.DEFAULT_LANG) -> str:
    if float(value).is_integer():
        return texts.number(value, lang)
    decimals = min(6, max(1, len(f"{abs(value):.6g}".partition(".")[2])))
    return texts.number(value, lang, decimals)


def _reindex(values: pd.Series, full: pd.Index) -> np.ndarray:
    """Counts on every period of ``full``, 0 where ``values`` has none."""
    by_key = {k: float(v) for k, v in values.items() if not pd.isna(v)}
    return np.asarray([by_key.get(p, 0.0) for p in full], dtype=float)


def _ink(color: Any) -> str:
    """White or dark text, whichever reads better on ``color``."""
    r, g, b, _ = to_rgba(color)
    return "white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.58 else TEXT_COLOR


def _group_colors(keys: Sequence[Any], offers: pd.DataFrame, dimension: str) -> list[Any]:
    """Qualitative colours; a sequential scale for ordered categories (duration classes);
    grey for missing values and "Keine Angabe"."""
    dtype = getattr(offers.get(dimension), "dtype", None)
    ordered = isinstance(dtype, pd.CategoricalDtype) and bool(dtype.ordered)
    plain = [i for i, key in enumerate(keys) if not texts.is_missing(key)]
    labels = list(keys)
    colors: list[Any] = [MISSING_COLOR] * len(labels)
    if ordered:
        cmap = mpl.colormaps[SEQUENTIAL_CMAP]
        for i, step in zip(plain, np.linspace(0.3, 0.95, max(len(plain), 1)), strict=False):
            colors[i] = cmap(step)
    else:
        palette = (
            list(PALETTE) if len(plain) <= len(PALETTE) else list(mpl.colormaps["tab20"].colors)
        )
        for n, i in enumerate(plain):
            colors[i] = palette[n % len(palette)]
    return colors


# -- the frame -------------------------------------------------------------------------


def _check_dimension(name: Any, argument: str) -> None:
    if not isinstance(name, str) or not name:
        raise EducatalogError(f"{argument} must name one column of the frame, got {name!r}.")


def _columns_of(offers: pd.DataFrame, dimensions: Sequence[str]) -> list[str]:
    """The columns the dimensions need (``event_start_date`` for year, quarter, month)."""
    return [
        "event_start_date" if d not in offers and d in stats.DERIVED_DIMENSIONS else d
        for d in dimensions
    ]


def _require(offers: Any, columns: Sequence[str], what: str) -> None:
    if not isinstance(offers, pd.DataFrame):
        raise EducatalogError(
            f"{what} needs the frame of offers, a pandas DataFrame, not "
            f"{type(offers).__name__}; build it with catalogue.offers()."
        )
    missing = [c for c in dict.fromkeys(columns) if c not in offers]
    if missing:
        how = (
            "catalogue.offers(funding=True)"
            if any(c.startswith("funding_") for c in missing)
            else "catalogue.offers()"
        )
        raise EducatalogError(
            f"{what} needs the column(s) {', '.join(missing)}, which the frame lacks; build "
            f"the frame of offers with {how}, catalogue = educatalog.load_catalogue()."
        )


def _with_state(offers: Any, what: str) -> pd.DataFrame:
    """The frame with a ``state`` column, named from ``state_code`` where it has none."""
    _require(offers, ["event_id"], what)
    if "state" in offers:
        return offers
    if "state_code" not in offers:
        _require(offers, ["state"], what)
    names = population.STATE_POPULATION["state"]
    return offers.assign(state=offers["state_code"].map(lambda c: names.get(c, None)))


def _state_codes(frame: pd.DataFrame) -> dict[str, str]:
    """State name -> ISO code: the frame's own ``state_code``, else the population table."""
    codes = {str(name): str(code) for code, name in population.STATE_POPULATION["state"].items()}
    if "state_code" in frame:
        pairs = frame[["state", "state_code"]].dropna().drop_duplicates()
        codes.update({str(n): str(c) for n, c in pairs.itertuples(index=False)})
    return codes


def _png(figure: Figure) -> bytes | tuple[bytes, dict[str, str]]:
    """The figure as PNG for IPython, with its text alternative as the output's ``alt``
    metadata (which the report puts on the image)."""
    from IPython.core.pylabtools import print_figure

    data = print_figure(figure, "png", bbox_inches="tight")
    alt = alt_text(figure)
    return (data, {"alt": alt}) if alt else data


def _register_notebook_display() -> None:
    """Show the charts inline in IPython and Jupyter.

    The figures are made without pyplot, whose inline backend would otherwise be what tells
    IPython how to display a figure; without it a chart shows as ``<Figure ...>`` text.
    """
    import sys

    if "IPython" not in sys.modules:
        return
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        return
    formatter = shell.display_formatter.formatters["image/png"]
    try:
        formatter.lookup_by_type(Figure)
    except KeyError:
        formatter.for_type(Figure, _png)


_register_notebook_display()
