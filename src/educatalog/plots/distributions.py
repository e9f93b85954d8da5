"""How the offers spread over two dimensions: 100 % stacked bars (:func:`stacked_shares`) and
the annotated heatmap (:func:`heatmap`)."""

from __future__ import annotations

import math
import textwrap
from typing import Literal

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib import ticker
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from educatalog import stats, texts
from educatalog.errors import UsageError
from educatalog.frames.provenance import Source
from educatalog.plots._formats import (
    cell_count_text,
    count_text,
    group_colors,
    ink,
    key_of,
    label,
    percent_formatter,
    share_text,
    tick_formatter,
)
from educatalog.plots._frames import MEASURE_COLUMNS, columns_of, require
from educatalog.plots._setup import (
    HEATMAP_CMAP,
    STYLE,
    TEXT_COLOR,
    begin,
    category_axis,
    check_choice,
    finish,
    finish_colorbar,
    inside,
    legend_right,
    new_axes,
    styled,
    text_width,
    two_dimensions,
)

__all__ = ["heatmap", "stacked_shares"]

Normalization = Literal["index", "columns", "all", False]


@styled
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
    lang = begin(lang, rows=rows, columns=columns)
    two_dimensions(what, rows, columns)
    require(offers, ["event_id", *columns_of(offers, [rows, columns])], what)
    shares = stats.crosstab(offers, rows, columns, normalize="index")
    events = stats.supply(offers, rows, normalize=False)["events"]
    n_of = {key_of(key): int(n) for key, n in events.items()}
    shares = shares.iloc[[i for i, k in enumerate(shares.index) if n_of.get(key_of(k), 0) > 0]]
    if shares.empty:
        raise UsageError(f"{what}: the frame has no offers to count by {rows}.")
    values = shares.to_numpy(dtype=float, na_value=np.nan) * 100
    used = np.nansum(values, axis=0) > 0
    values, keys = values[:, used], shares.columns[used]

    n_rows = len(shares)
    fig, ax = new_axes(ax, (9.0, max(2.8, 1.6 + 0.3 * n_rows)))
    colors = group_colors(list(keys), offers, columns)
    left = np.zeros(n_rows)
    for j, key in enumerate(keys):
        width = np.nan_to_num(values[:, j])
        bars = ax.barh(
            np.arange(n_rows),
            width,
            left=left,
            height=0.72,
            color=colors[j],
            edgecolor="white",
            linewidth=0.6,
            label=label(key, lang),
        )
        shown = [texts.percent(v / 100, lang, 0) if v >= 7 else "" for v in width]
        inside(
            ax.bar_label(
                bars, labels=shown, label_type="center", fontsize=7.5, color=ink(colors[j])
            )
        )
        left += width
    labels = [
        texts.text("n", lang, label=label(k, lang), n=texts.number(n_of[key_of(k)], lang))
        for k in shares.index
    ]
    category_axis(ax, labels, rows, lang, n=n_rows)
    ax.set_xlim(0, 100)
    ax.xaxis.set_major_formatter(percent_formatter(lang))
    ax.xaxis.set_major_locator(ticker.MultipleLocator(20))
    ax.set_xlabel(texts.text("axis.share", lang))
    legend_right(ax, columns, lang)
    if title is None:
        title = texts.text(
            "title.shares",
            lang,
            columns=texts.dimension(columns, lang),
            rows=texts.dimension(rows, lang),
        )
    parts = ", ".join(label(k, lang) for k in keys)
    alt = texts.text("alt.stacked", lang, title=title, n=n_rows, parts=parts)
    return finish(fig, ax, offers, title, lang=lang, source=source, alt=alt)


@styled
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
    False/None for counts. Each row's label gives its number of events (``n``), the base
    of its shares. Every cell shows its number, 0 too; a cell without one (places no event
    of it states, a share of a row or column without events) is grey, and a line under the
    chart says why.
    """
    what = "heatmap()"
    lang = begin(lang, rows=rows, columns=columns)
    two_dimensions(what, rows, columns)
    mode = _mode(normalize)
    check_choice(measure, stats.MEASURES, 'Unknown measure "{value}"; choose one of {choices}.')
    needed = ["event_id", MEASURE_COLUMNS[measure], *columns_of(offers, [rows, columns])]
    require(offers, needed, what)
    table = stats.crosstab(offers, rows, columns, measure=measure, normalize=mode)
    if table.size == 0:
        raise UsageError(f"{what}: the frame has no offers to count.")
    data = table.to_numpy(dtype=float, na_value=np.nan)
    share = mode is not False
    if share:
        data = data * 100
    n_rows, n_cols = data.shape
    col_width = 0.66  # inches per column
    row_labels = _row_labels(offers, rows, table.index, lang)
    title = title or _title(mode, measure, _names(rows, columns, lang), lang)
    # Wide enough for the title, which starts where the cells start (after the row labels)
    # and must end before the colour bar's right edge: a short heatmap cut it off.
    labels_width = max(text_width(t, STYLE["ytick.labelsize"]) for t in row_labels) + 0.5
    title_width = text_width(title, STYLE["axes.titlesize"], bold=True)
    width = max(6.5, 3.2 + col_width * n_cols + 1.2, labels_width + title_width + 0.4)
    fig, ax = new_axes(ax, (width, max(3.2, 2.0 + 0.32 * n_rows)))
    vmax = float(np.nanmax(data)) if np.isfinite(data).any() else 0.0
    mesh = ax.pcolormesh(
        np.arange(n_cols + 1),
        np.arange(n_rows + 1),
        np.ma.masked_invalid(data),
        cmap=mpl.colormaps[HEATMAP_CMAP].with_extremes(bad="#F2F2F2"),
        vmin=0,
        vmax=vmax or 1.0,
        edgecolors="white",
        linewidth=0.8,
    )
    _cell_texts(ax, data, share, vmax, lang)
    column_labels = [label(k, lang) for k in table.columns]
    ax.set_xlim(0, n_cols)
    ax.set_yticks(np.arange(n_rows) + 0.5, row_labels)
    ax.set_ylim(n_rows, 0)
    _column_labels(ax, column_labels, col_width)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_xlabel(texts.capitalized(texts.dimension(columns, lang)))
    ax.set_ylabel(texts.capitalized(texts.dimension(rows, lang)))
    names = _names(rows, columns, lang)
    # The colour bar's label in lines that fit its height (a heatmap of two rows is short).
    room = max(16, int(fig.get_figheight() * 0.6 * 72 / (10 * 0.6)))
    finish_colorbar(
        fig.colorbar(mesh, ax=ax, pad=0.02, fraction=0.05, aspect=25),
        textwrap.fill(_unit(mode, measure, names, lang), room),
        percent_formatter(lang) if share else tick_formatter(rate=False, lang=lang),
        None if share else ticker.MaxNLocator(nbins=6, integer=True),
    )
    labels = ([label(k, lang) for k in table.index], column_labels)
    alt = _heatmap_alt(data, share, title, names, labels, lang)
    # n beside each row counts its events; where the cells count something else, say so
    notes = [texts.text("note.n_events", lang)] if measure != "events" else []
    if np.isnan(data).any():  # the grey cells without a number: why they have none
        blank = "unknown" if measure == "capacity" else f"no_base.{mode}"
        notes.append(texts.text(f"note.heatmap.{blank}", lang))
    if _several_per_event(offers, rows, columns):
        notes.append(texts.text("note.multiple_assignment", lang))
    return finish(fig, ax, offers, title, notes, lang=lang, source=source, alt=alt)


def _several_per_event(offers: pd.DataFrame, *dimensions: str) -> bool:
    """Whether an event has several values of one of ``dimensions`` (a course in two
    subject areas, with two funding types): its shares then add up to more than 100 %."""
    if offers["event_id"].is_unique:
        return False
    for name in dimensions:
        if name in offers:
            pairs = offers[["event_id", name]].drop_duplicates()
            if not pairs["event_id"].is_unique:
                return True
    return False


def _names(rows: str, columns: str, lang: str) -> dict[str, str]:
    """The two dimensions' names, for the heatmap's title, colour bar and alt text."""
    return {"rows": texts.dimension(rows, lang), "columns": texts.dimension(columns, lang)}


def _row_labels(offers: pd.DataFrame, rows: str, keys: pd.Index, lang: str) -> list[str]:
    """Each row's label with its number of events: "Bayern (n = 801)"."""
    events = stats.supply(offers, rows, normalize=False)["events"]
    n_of = {key_of(key): int(n) for key, n in events.items()}
    return [
        texts.text("n", lang, label=label(k, lang), n=texts.number(n_of.get(key_of(k), 0), lang))
        for k in keys
    ]


def _cell_texts(ax: Axes, data: np.ndarray, share: bool, vmax: float, lang: str) -> None:
    """Each cell's value written into it (0 as 0, "<1 %%" for a small share)."""
    size = 8.5 if data.shape[1] <= 8 else 7.5
    for (i, j), value in np.ndenumerate(data):
        if math.isnan(value):
            continue
        ax.text(
            j + 0.5,
            i + 0.5,
            share_text(value, lang) if share else cell_count_text(value, lang),
            ha="center",
            va="center",
            fontsize=size,
            color="white" if vmax and value / vmax > 0.55 else TEXT_COLOR,
            in_layout=False,  # inside the axes; keeps the layout fast
        )


def _heatmap_alt(
    data: np.ndarray,
    share: bool,
    title: str,
    names: dict[str, str],
    labels: tuple[list[str], list[str]],
    lang: str,
) -> str:
    if not np.isfinite(data).any():
        return title
    i, j = np.unravel_index(np.nanargmax(data), data.shape)
    top_value = share_text(data[i, j], lang) if share else count_text(data[i, j], lang)
    return texts.text(
        "alt.heatmap",
        lang,
        title=title,
        rows=data.shape[0],
        row_name=names["rows"],
        columns=data.shape[1],
        column_name=names["columns"],
        top_value=top_value,
        top=f"{labels[0][i]} / {labels[1][j]}",
    )


def _mode(normalize: bool | str | None) -> Normalization:
    """``normalize`` as one of the modes of :func:`educatalog.stats.crosstab`."""
    mode = "all" if normalize is True else (normalize or False)
    if mode == "index" or mode == "columns" or mode == "all" or mode is False:
        return mode
    raise UsageError(f"normalize must be index, columns, all or False (counts), got {normalize!r}.")


def _unit(mode: Normalization, measure: str, names: dict[str, str], lang: str) -> str:
    """The label of the colour bar: the share and its base, or the measure."""
    if mode == "index" or mode == "columns":
        name = names["rows" if mode == "index" else "columns"]
        return texts.text("axis.share_within", lang, name=name)
    if mode == "all":
        return texts.text("axis.share_all", lang)
    return texts.text(f"axis.{measure}", lang)


def _title(mode: Normalization, measure: str, names: dict[str, str], lang: str) -> str:
    if mode is False:
        what = texts.text(f"measure.{measure}", lang)
        return texts.text("title.measure_by_2d", lang, measure=what, **names)
    key = {"index": "title.shares", "columns": "title.shares_columns", "all": "title.shares_all"}
    return texts.text(key[mode], lang, **names)


def _column_labels(ax: Axes, labels: list[str], col_width: float) -> None:
    """Column labels wrapped to the column width; rotated where a word does not fit."""
    size = 8.5
    chars = max(6, int(col_width * 72 / (size * 0.58)))
    wrapped = [textwrap.fill(words, chars, break_long_words=False) for words in labels]
    fits = all(len(line) <= chars for w in wrapped for line in w.split("\n"))
    fits = fits and all(w.count("\n") < 4 for w in wrapped)
    positions = np.arange(len(labels)) + 0.5
    if fits:
        ax.set_xticks(positions, wrapped, fontsize=size)
    else:
        wrapped = [textwrap.fill(words, 24, break_long_words=False) for words in labels]
        ax.set_xticks(
            positions, wrapped, fontsize=size, rotation=35, ha="right", rotation_mode="anchor"
        )
