"""What is offered: the subject areas as sorted bars with their share, the largest and
"the others" (:func:`subject_bars`). The state × area heatmap is
:func:`educatalog.plots.heatmap` with ``columns="subject_area"``."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from educatalog import stats, texts
from educatalog.errors import UsageError, WrongType
from educatalog.frames.provenance import Source
from educatalog.plots._formats import count_text, label, share_text, value_axis
from educatalog.plots._frames import require
from educatalog.plots._setup import (
    BAR_COLOR,
    MISSING_COLOR,
    TEXT_COLOR,
    begin,
    category_axis,
    check_choice,
    finish,
    inside,
    new_axes,
    styled,
)

__all__ = ["SUBJECT_LEVELS", "subject_bars"]

SUBJECT_LEVELS = ("subject_area", "subject_group", "subject")
"""The levels of the systematics :func:`subject_bars` counts by (``offers(subjects=True)``)."""

OTHERS_COLOR = "#8c96a8"
"""The bar of the other areas: a group of its own, neither a subject nor "not stated"."""


@styled
def subject_bars(
    offers: pd.DataFrame,
    by: str = "subject_area",
    *,
    top: int = 10,
    ax: Axes | None = None,
    title: str | None = None,
    lang: str = texts.DEFAULT_LANG,
    source: Source | str | None = None,
) -> Figure:
    """Events by subject area (``by``: one of :data:`SUBJECT_LEVELS`), largest first, each
    bar labelled with its events and their share of all events; the ``top`` largest, then
    one bar of the others ("übrige" / "others": the distinct events of the areas not shown)
    and one of the events without a subject ("ohne Angabe"). A course in two areas counts in
    each, so the bars add up to more than all events: a note says so.

    >>> plots.subject_bars(catalogue.offers(subjects=True), top=8)  # doctest: +SKIP
    """
    what = "subject_bars()"
    lang = begin(lang, by=by)
    check_choice(by, list(SUBJECT_LEVELS), 'Unknown level "{value}"; choose one of {choices}.')
    if isinstance(top, bool) or not isinstance(top, int):
        raise WrongType(f"top must be a positive whole number of areas, got {top!r}.")
    if top < 1:
        raise UsageError(f"top must be a positive whole number of areas, got {top!r}.")
    if by not in offers:
        raise UsageError(
            f'{what} needs the column "{by}"; build the frame with catalogue.offers(subjects=True).'
        )
    require(offers, ["event_id", by], what)
    table = stats.supply(offers, by, normalize=False)
    total = int(offers["event_id"].nunique())
    counts = table["events"]
    named = counts[counts.index.notna()]
    named = named[named > 0].sort_values(ascending=False, kind="stable")
    shown = named.iloc[:top]
    rest = named.index[top:]
    labels = [label(k, lang) for k in shown.index]
    numbers = [float(v) for v in shown]
    colors = [BAR_COLOR] * len(shown)
    if len(rest):
        others = offers.loc[offers[by].isin(list(rest)).to_numpy(), "event_id"].nunique()
        labels.append(texts.text("label.others", lang, n=len(rest)))
        numbers.append(float(others))
        colors.append(OTHERS_COLOR)
    unstated = counts[counts.index.isna()]
    if len(unstated) and int(unstated.iloc[0]):
        labels.append(texts.missing(lang))
        numbers.append(float(unstated.iloc[0]))
        colors.append(MISSING_COLOR)
    if not numbers:
        raise UsageError(f"{what}: the frame has no offers to count by {by}.")
    values = np.array(numbers)
    fig, ax = new_axes(ax, (8.0, max(2.8, 1.5 + 0.3 * len(values))))
    bars = ax.barh(np.arange(len(values)), values, height=0.72, color=colors)
    value_texts = [
        f"{count_text(v, lang)} ({share_text(100 * v / total if total else np.nan, lang)})"
        for v in values
    ]
    inside(ax.bar_label(bars, labels=value_texts, padding=3, fontsize=8.5, color=TEXT_COLOR))
    category_axis(ax, labels, by, lang, n=len(values))
    ax.set_xlim(0, (values.max() or 1.0) * 1.25)
    value_axis(ax.xaxis, rate=False, lang=lang)
    ax.set_xlabel(texts.text("axis.events", lang))
    if title is None:
        measure = texts.text("measure.events", lang)
        title = texts.text("title.by", lang, measure=measure, dimension=texts.dimension(by, lang))
    # The note on multiple assignment only where an event is in several groups: the rows
    # (with the events without a subject) then add up to more than the events.
    several = int(counts.sum()) > total
    key = "note.multiple_subjects" if several else "note.subject_shares"
    notes = [texts.text(key, lang, total=count_text(total, lang))]
    alt = texts.text(
        "alt.subjects",
        lang,
        title=title,
        top=labels[0],
        top_value=value_texts[0],
        n=len(named),
    )
    return finish(fig, ax, offers, title, notes, lang=lang, source=source, alt=alt)
