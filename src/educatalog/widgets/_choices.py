"""What the explorer offers to choose from and what is chosen (:class:`View`), without
widgets: the dimensions a frame is
counted by, the filters as boolean masks over a categorical column's codes, the months of
the start, and each choice's options as (label, value) pairs in the reader's language. The
districts offered are those of the states chosen (:func:`offered`). A frame of
``offers(subjects=True)`` (one row per event and subject) adds the subject area as a
dimension and a filter; every count stays one of distinct events."""

from __future__ import annotations

import dataclasses
import functools
import unicodedata
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from educatalog import stats, texts
from educatalog.errors import MissingColumns, UsageError
from educatalog.frames.districts import district_table
from educatalog.population import STATE_KEYS
from educatalog.widgets.display import MISSING_LABEL, ui_text
from educatalog.widgets.export import FORMATS

__all__ = [
    "FILTERS",
    "LONG",
    "NONE",
    "SHOW",
    "TIME_DIMENSIONS",
    "TOP",
    "CategoryFilter",
    "Mask",
    "Option",
    "View",
    "district_keys",
    "districts_in",
    "offered",
]

Mask = npt.NDArray[np.bool_]
"""Which rows of the frame pass (a boolean array)."""

Option = tuple[str, Any]
"""A choice as a control offers it: (label in the reader's language, value)."""

NONE = "—"
"""The value of the second dimension that means: no second dimension."""

TIME_DIMENSIONS: tuple[str, ...] = ("month", "quarter", "year")
"""Dimensions derived from ``event_start_date``
(:data:`educatalog.stats.DERIVED_DIMENSIONS`)."""

_EXCLUDED = frozenset(
    # the state again, as its ISO code; the subjects again, as their systematics codes
    {"state_code", "subject_code", "subject_area_code", "subject_group_code"}
)
FILTERS: dict[str, tuple[str, str]] = {
    # filter name: (column, description)
    "states": ("state", "States"),
    "districts": ("district", "Districts"),
    "categories": ("instruction_form_category", "Forms"),
    "durations": ("duration_class", "Durations"),
    "subject_areas": ("subject_area", "Subject areas"),
}
"""The filters on a categorical column, by name."""

SHOW = ("chart", "map")
"""What the explorer draws beside its table (:attr:`View.show`): ``chart``, the chart of
the dimensions (bars, lines, a heatmap), or ``map``, the map of the districts
(:func:`educatalog.plots.district_map`) in the measure, of the offers that pass the
filters."""

LONG = 40
"""A dimension of more levels than this (the 400 districts) is charted by its :data:`TOP`
largest; the table lists every level."""

TOP = {"rows": 20, "columns": 10}
"""How many levels of a :data:`LONG` dimension a chart shows: bars, and rows of a
heatmap; columns of a heatmap."""

_NO_MONTH = np.iinfo(np.int64).min


@dataclasses.dataclass(frozen=True)
class View:
    """What the explorer shows, as chosen: dimensions, measure, chart or map, filters,
    format."""

    by: str
    """The dimension counted by (a column name, or ``month``, ``quarter``, ``year``)."""
    by2: str = NONE
    """The second dimension, or :data:`NONE`."""
    measure: str = "events"
    """One of :data:`educatalog.stats.MEASURES`."""
    show: str = "chart"
    """``"chart"``, the chart of the dimensions, or ``"map"``, the map of the districts."""
    states: tuple[str, ...] = ()
    districts: tuple[str, ...] = ()
    """Districts chosen, among those of the :attr:`states` chosen."""
    categories: tuple[str, ...] = ()
    durations: tuple[str, ...] = ()
    subject_areas: tuple[str, ...] = ()
    """Subject areas chosen (a frame of ``offers(subjects=True)``): the events with a
    subject in one of them."""
    window: tuple[int, int] | None = None
    """The first and last month of the start (positions in :attr:`ExplorerModel.months`);
    None: the whole time, events without a start date included."""
    voucher: bool = False
    """Only offers eligible for an education voucher."""
    format: str = "CSV"
    """The export format's label (:data:`educatalog.widgets.FORMATS`)."""

    @property
    def dims(self) -> list[str]:
        """The dimensions counted by: one, or two that differ."""
        return [self.by] if self.by2 in (NONE, None, "", self.by) else [self.by, self.by2]

    @property
    def ignored(self) -> bool:
        """Whether the second dimension is ignored, being the first one."""
        return self.by2 not in (NONE, None, "") and len(self.dims) == 1

    def chosen(self, name: str) -> tuple[str, ...]:
        """The values chosen in the filter ``name`` (``FILTERS``)."""
        values: tuple[str, ...] = getattr(self, name)
        return values


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
        """The filter on a categorical ``column``."""
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


def find_filters(offers: pd.DataFrame) -> dict[str, CategoryFilter]:
    """The filters the frame allows (its categorical columns among ``FILTERS``)."""
    return {
        name: CategoryFilter.of(offers[column])
        for name, (column, _) in FILTERS.items()
        if column in offers and isinstance(offers[column].dtype, pd.CategoricalDtype)
    }


def start_months(offers: pd.DataFrame) -> npt.NDArray[np.int64] | None:
    """The month of each row's start as a month ordinal (:data:`_NO_MONTH` for none)."""
    if "event_start_date" not in offers:
        return None
    start = offers["event_start_date"]
    values = start.to_numpy(dtype="datetime64[ns]", na_value=np.datetime64("NaT"))
    return values.astype("datetime64[M]").astype(np.int64)  # NaT -> int64 minimum


def month_range(months: npt.NDArray[np.int64] | None) -> list[pd.Period]:
    """Every month from the first start to the last (none without a known start)."""
    if months is None:
        return []
    known = months[months != _NO_MONTH]
    if not known.size:
        return []
    periods = pd.period_range(
        pd.Period(ordinal=int(known.min()), freq="M"),
        pd.Period(ordinal=int(known.max()), freq="M"),
        freq="M",
    )
    return list(periods)


def options(
    dimensions: dict[str, str],
    filters: dict[str, CategoryFilter],
    periods: Sequence[pd.Period],
    lang: str,
    show: Sequence[str] = SHOW,
) -> dict[str, list[Option]]:
    """Each choice's options in the order shown: ``by``, ``by2``, ``measure``, ``show``
    (of ``show``), a list per filter (states and districts alphabetical in ``lang``, "not
    stated" last) and ``start`` (months)."""
    by: list[Option] = [(label, name) for name, label in dimensions.items()]
    choices: dict[str, list[Option]] = {
        "by": by,
        "by2": [(NONE, NONE), *by],
        "measure": [(texts.text(f"measure.{m}", lang), m) for m in stats.MEASURES],
        "show": [(ui_text(f"show.{shown}", lang), shown) for shown in show],
    }
    for name in FILTERS:
        if name in filters:
            shown: list[Option] = [
                (texts.label(v, lang) if v != MISSING_LABEL else texts.missing(lang), v)
                for v in filters[name].labels
            ]
            if name in ("states", "districts"):  # alphabetical, "not stated" last
                shown.sort(key=lambda o: (o[1] == MISSING_LABEL, locale_key(o[0])))
            choices[name] = shown
    if periods:
        choices["start"] = [(texts.label(p, lang), p) for p in periods]
    return choices


@functools.cache
def _district_states() -> dict[str, str]:
    """Each district's name with the key of its state (the first two digits of its own)."""
    table = district_table()
    return dict(zip(table["district"], table["state_key"], strict=True))


@functools.cache
def district_keys() -> dict[str, str]:
    """Each district's name by its 5-digit key (``"09162"`` -> ``"München, Stadt"``)."""
    table = district_table()
    return dict(zip(table.index, table["district"], strict=True))


def districts_in(states: Sequence[str]) -> frozenset[str] | None:
    """The districts of the ``states`` chosen (as the frame names them; "not stated"
    adds none), as :func:`educatalog.stats.select` narrows them; None when no state is
    chosen: every district."""
    if not states:
        return None
    keys = {STATE_KEYS[state] for state in states if state in STATE_KEYS}
    return frozenset(d for d, key in _district_states().items() if key in keys)


def offered(options: dict[str, list[Option]], states: Sequence[str]) -> dict[str, list[Option]]:
    """``options`` as a view with the ``states`` chosen offers them: the districts of
    those states (and "not stated"), the rest as they are."""
    kept = districts_in(states)
    if kept is None or "districts" not in options:
        return options
    narrowed = [o for o in options["districts"] if o[1] in kept or o[1] == MISSING_LABEL]
    return {**options, "districts": narrowed}


def follow_states(view: View, before: View) -> View:
    """``view`` without the districts chosen that lie outside its states, when the states
    changed since ``before`` (a district the new states do not hold is no longer offered)."""
    kept = districts_in(view.states)
    if view.states == before.states or kept is None or not view.districts:
        return view
    districts = tuple(d for d in view.districts if d in kept or d == MISSING_LABEL)
    return dataclasses.replace(view, districts=districts)


def locale_key(text: str) -> str:
    """A sort key that puts umlauts beside their vowels (Baden-Württemberg before Bavaria)."""
    return unicodedata.normalize("NFKD", text).casefold()


def checked(
    view: View, choices: dict[str, list[Option]], months: Sequence[pd.Period], voucher: bool
) -> View:
    """``view`` with the whole time as None; a choice not among ``choices`` (the options;
    districts those of the view's states), a window outside ``months`` or a voucher filter
    without the column is a UsageError."""
    choices = offered(choices, view.states)
    for name in ("by", "by2", "measure", "show"):
        allowed = [value for _label, value in choices[name]]
        if getattr(view, name) not in allowed:
            raise UsageError(f"{name} is one of {allowed}, not {getattr(view, name)!r}.")
    for name in FILTERS:
        allowed = [value for _label, value in choices.get(name, [])]
        unknown = [v for v in view.chosen(name) if v not in allowed]
        if unknown:
            raise UsageError(f"{name} offers {allowed}, not {unknown}.")
    if view.format not in FORMATS:
        raise UsageError(f"format is one of {list(FORMATS)}, not {view.format!r}.")
    if view.voucher and not voucher:
        raise UsageError("The frame has no column education_voucher to filter by.")
    if view.window is not None:
        low, high = view.window
        if not 0 <= low <= high < len(months):
            raise UsageError(f"window {view.window} is not within the months of the data.")
        if (low, high) == (0, len(months) - 1):
            view = dataclasses.replace(view, window=None)
    return view


def filter_notes(view: View, months: Sequence[pd.Period], lang: str) -> list[str]:
    """The filters of ``view`` in effect, in words (one entry per filter)."""
    notes = [
        # "; " between districts, whose names may hold a comma ("München, Stadt")
        ("; " if name == "districts" else ", ").join(
            texts.missing(lang) if v == MISSING_LABEL else texts.label(v, lang)
            for v in view.chosen(name)
        )
        for name in FILTERS
        if view.chosen(name)
    ]
    if view.window is not None:
        low, high = (texts.label(months[i], lang) for i in view.window)
        notes.append(ui_text("range", lang, low=low, high=high))
    if view.voucher:
        notes.append(ui_text("voucher_only", lang))
    return notes
