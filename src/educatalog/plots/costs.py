"""What the events cost: boxplots per group (:func:`cost_boxplot`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from educatalog import stats, texts
from educatalog.errors import UsageError
from educatalog.frames.provenance import Source
from educatalog.plots._formats import label, value_axis
from educatalog.plots._frames import columns_of, require
from educatalog.plots._setup import BAR_COLOR, begin, category_axis, finish, new_axes, styled

__all__ = ["cost_boxplot"]

_DARK = "#0B3C5D"


@styled
def cost_boxplot(
    offers: pd.DataFrame,
    by: str = "instruction_form_category",
    *,
    currency: str = "EUR",
    per: str = "course",
    ax: Axes | None = None,
    title: str | None = None,
    lang: str = texts.DEFAULT_LANG,
    source: Source | str | None = None,
) -> Figure:
    """Boxplots of the costs per value of ``by``, in one ``currency``
    (:func:`educatalog.stats.costs`), each course once (``per="course"``, the default) or
    each event once with its course's cost (``per="event"``): box from the first to the
    third quartile, the median as a line, the mean as a diamond, whiskers from the minimum
    to the maximum. The tick labels give the number of courses (events) with a cost
    (``n``), a note says which; groups without one are left out.
    """
    what = "cost_boxplot()"
    lang = begin(lang, by=by)
    require(offers, ["event_id", "cost", "cost_currency", *columns_of(offers, [by])], what)
    table = stats.costs(offers, by, currency=currency, per=per)
    if table.empty:
        known = stats.costs(offers)["events"]
        given = ", ".join(f"{cur} ({int(n):,} events)" for cur, n in known.items())
        raise UsageError(
            f"No event in the frame has a cost in {currency}; "
            + (
                f"costs are given in {given}: pass currency=... accordingly."
                if given
                else "the frame has no costs at all."
            )
        )
    table = table.droplevel("currency")
    # A level with no cost in this currency (a form a filter left without priced courses)
    # has no box: its row in stats.costs() says n = 0.
    table = table[table[f"{per}s"] > 0]
    boxes: list[dict[str, Any]] = [
        {
            "label": texts.text(
                "n", lang, label=label(key, lang), n=texts.number(row[f"{per}s"], lang)
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
    fig, ax = new_axes(ax, (8.0, max(2.8, 1.6 + 0.55 * n)))
    ax.bxp(
        boxes,
        positions=np.arange(n),
        orientation="horizontal",
        widths=0.55,
        patch_artist=True,
        showmeans=True,
        boxprops={"facecolor": "#CFE0EE", "edgecolor": BAR_COLOR, "linewidth": 1.0},
        medianprops={"color": _DARK, "linewidth": 2.0},
        meanprops={
            "marker": "D",
            "markerfacecolor": "white",
            "markeredgecolor": _DARK,
            "markersize": 5,
        },
        whiskerprops={"color": BAR_COLOR, "linewidth": 1.0},
        capprops={"color": BAR_COLOR, "linewidth": 1.0},
    )
    category_axis(ax, None, by, lang, n=n)
    ax.set_xlim(left=0 if table["min"].min() >= 0 else None)
    value_axis(ax.xaxis, rate=True, lang=lang)
    ax.set_xlabel(texts.text("axis.cost", lang, currency=currency))
    notes = [texts.text("note.box", lang), texts.text(f"note.costs_per_{per}", lang)]
    if title is None:
        title = texts.text(
            f"title.costs_per_{per}",
            lang,
            dimension=texts.dimension(by, lang),
            currency=currency,
        )
    medians = "; ".join(
        f"{label(key, lang)}: {texts.number(row['median'], lang, 0)} {currency}"
        for key, row in table.iterrows()
    )
    alt = texts.text("alt.boxes", lang, title=title, medians=medians)
    return finish(fig, ax, offers, title, notes, lang=lang, source=source, alt=alt)
