"""The explorer's controls and filters: the dimensions a frame is counted by, the widgets
that choose them, and the filters as boolean masks over a categorical column's codes."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as w
import numpy as np
import numpy.typing as npt
import pandas as pd

from educatalog import stats, texts
from educatalog.errors import MissingColumns
from educatalog.widgets.display import MISSING_LABEL, ui_text
from educatalog.widgets.export import FORMATS

__all__ = ["NONE", "TIME_DIMENSIONS"]

Mask = npt.NDArray[np.bool_]
"""Which rows of the frame pass (a boolean array)."""

NONE = "—"
"""The value of the second-dimension control that means: no second dimension."""

TIME_DIMENSIONS: tuple[str, ...] = ("month", "quarter", "year")
"""Dimensions derived from ``event_start_date``
(:data:`educatalog.stats.DERIVED_DIMENSIONS`)."""

_EXCLUDED = frozenset({"state_code"})  # the state again, as its ISO code
FILTERS: dict[str, tuple[str, str]] = {
    # control name: (column, description)
    "states": ("state", "States"),
    "categories": ("instruction_form_category", "Forms"),
    "durations": ("duration_class", "Durations"),
}

_NO_MONTH = np.iinfo(np.int64).min


class CategoryFilter:
    """A filter on a categorical column: the labels to offer and the rows' codes."""

    def __init__(
        self, labels: list[str], codes: npt.NDArray[np.integer[Any]], has_missing: bool
    ) -> None:
        self.labels = labels + ([MISSING_LABEL] if has_missing else [])
        self.codes = codes  # -1 for a missing value
        self._position = {label: i for i, label in enumerate(labels)}
        self._categories = len(labels)

    @classmethod
    def of(cls, column: pd.Series) -> CategoryFilter:
        codes: npt.NDArray[np.integer[Any]] = np.asarray(column.cat.codes.to_numpy())
        labels = [str(c) for c in column.cat.categories]
        return cls(labels, codes, bool((codes < 0).any()))

    def mask(self, selected: Sequence[str]) -> Mask | None:
        """Rows whose value is one of ``selected``; None (no filter) when none is."""
        if not selected:
            return None
        keep = np.zeros(self._categories + 1, dtype=np.bool_)  # the last slot: -1, missing
        for label in selected:
            if label == MISSING_LABEL:
                keep[-1] = True
            elif label in self._position:
                keep[self._position[label]] = True
        return np.take(keep, self.codes)  # code -1 takes the last slot


def find_dimensions(offers: pd.DataFrame, lang: str) -> dict[str, str]:
    """The dimensions one can count by, each with its name in ``lang``."""
    dims: dict[str, str] = {}
    for column in offers.columns:
        dtype = offers[column].dtype
        if column in _EXCLUDED or not isinstance(column, str):
            continue
        if isinstance(dtype, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(dtype):
            dims[column] = texts.capitalized(texts.dimension(column, lang))
    if "event_start_date" in offers:
        for name in TIME_DIMENSIONS:
            if name not in dims:
                dims[name] = texts.capitalized(texts.dimension(name, lang))
    if not dims:
        raise MissingColumns(
            "The frame has no labelled column to count by; build the frame of offers "
            "with educatalog.load_catalogue().offers()."
        )
    return dims


def start_months(offers: pd.DataFrame) -> npt.NDArray[np.int64] | None:
    """The month of each row's start as a month ordinal (:data:`_NO_MONTH` for none)."""
    if "event_start_date" not in offers:
        return None
    start = offers["event_start_date"]
    values = start.to_numpy(dtype="datetime64[ns]", na_value=np.datetime64("NaT"))
    return values.astype("datetime64[M]").astype(np.int64)  # NaT -> int64 minimum


def make_controls(
    dimensions: Mapping[str, str],
    filters: Mapping[str, CategoryFilter],
    months: npt.NDArray[np.int64] | None,
    voucher: bool,
    lang: str,
) -> dict[str, w.Widget]:
    """The controls by name: ``by``, ``by2``, ``measure``, a list per filter, ``start`` (a
    range of months), ``voucher``, ``reset`` and ``format``."""
    wide = {"description_width": "initial"}
    options = [(label, name) for name, label in dimensions.items()]
    first = "state" if "state" in dimensions else options[0][1]
    measures = ui_text("measures", lang).split("|")
    controls: dict[str, w.Widget] = {
        "by": w.Dropdown(options=options, value=first, description=ui_text("by", lang), style=wide),
        "by2": w.Dropdown(
            options=[(NONE, NONE), *options],
            value=NONE,
            description=ui_text("by2", lang),
            style=wide,
        ),
        "measure": w.ToggleButtons(
            options=list(zip(measures, stats.MEASURES, strict=True)),
            value="events",
            description=ui_text("measure", lang),
            style={"button_width": "auto", **wide},
            # label and buttons on one line (ipywidgets 8 puts the buttons under the label)
            layout=w.Layout(width="auto", display="flex", align_items="center"),
        ),
    }
    for name, (column, _description) in FILTERS.items():
        if name in filters:
            labels = filters[name].labels
            shown = [
                (texts.label(v, lang) if v != MISSING_LABEL else texts.missing(lang), v)
                for v in labels
            ]
            if name == "states":  # alphabetical in the reader's language, "not stated" last
                shown.sort(key=lambda o: (o[1] == MISSING_LABEL, locale_key(o[0])))
            controls[name] = w.SelectMultiple(
                options=shown,
                value=(),
                rows=min(8, max(3, len(labels))),
                description=ui_text(name, lang),
                style=wide,
                layout=w.Layout(width="auto", min_width="250px"),
                tooltip=ui_text("all", lang, name=texts.capitalized(texts.dimension(column, lang))),
            )
    if months is not None:
        known = months[months != _NO_MONTH]
        if known.size:
            periods = pd.period_range(
                pd.Period(ordinal=int(known.min()), freq="M"),
                pd.Period(ordinal=int(known.max()), freq="M"),
                freq="M",
            )
            controls["start"] = w.SelectionRangeSlider(
                options=[(texts.label(p, lang), p) for p in periods],
                index=(0, len(periods) - 1),
                description=ui_text("start", lang),
                continuous_update=False,
                layout=w.Layout(width="420px"),
            )
    if voucher:
        controls["voucher"] = w.Checkbox(
            value=False, description=ui_text("voucher", lang), indent=False
        )
    controls["reset"] = w.Button(description=ui_text("reset", lang), layout=w.Layout(width="auto"))
    controls["format"] = w.ToggleButtons(
        options=list(FORMATS), value="CSV", style={"button_width": "70px"}
    )
    return controls


def control_layout(
    controls: Mapping[str, w.Widget],
    outputs: Mapping[str, w.Widget],
    lang: str,
    *,
    heading: bool = True,
) -> w.Widget:
    """The dashboard: heading, controls, status, chart beside table, download link."""
    c = controls
    dims = w.HBox([c["by"], c["by2"]])
    filters = [c[name] for name in FILTERS if name in c]
    # a list box's way of choosing several is not obvious to everyone: said under the lists
    hint = [w.HTML(f"<small>{ui_text('choose', lang)}</small>")] if filters else []
    extra = [c[name] for name in ("start", "voucher", "reset") if name in c]
    top = [w.HTML(f"<b>{ui_text('heading', lang)}</b>")] if heading else []
    return w.VBox(
        [
            *top,
            dims,
            c["measure"],
            w.HBox(filters),
            *hint,
            w.HBox(extra, layout=w.Layout(align_items="center")),
            outputs["status"],
            w.HBox(
                [outputs["chart"], outputs["table"]],
                layout=w.Layout(align_items="flex-start", width="100%", flex_flow="row wrap"),
            ),
            w.HBox([c["format"], outputs["download"]], layout=w.Layout(align_items="center")),
        ]
    )


def locale_key(text: str) -> str:
    """A sort key that puts umlauts beside their vowels (Baden-Württemberg before Bavaria)."""
    return unicodedata.normalize("NFKD", text).casefold()


def filter_notes(controls: Mapping[str, Any], lang: str) -> list[str]:
    """The filters in effect, in words (one entry per filter)."""
    notes = []
    for name in FILTERS:
        if name in controls and controls[name].value:
            notes.append(
                ", ".join(
                    texts.missing(lang) if v == MISSING_LABEL else texts.label(v, lang)
                    for v in controls[name].value
                )
            )
    if "start" in controls:
        slider = controls["start"]
        if tuple(slider.index) != (0, len(slider.options) - 1):
            low, high = (texts.label(p, lang) for p in slider.value)
            notes.append(ui_text("range", lang, low=low, high=high))
    if controls.get("voucher") is not None and controls["voucher"].value:
        notes.append(ui_text("voucher_only", lang))
    return notes
