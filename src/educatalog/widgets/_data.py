"""What every explorer over the same offers shares: :class:`ExplorerData`.

The dashboard serves many visitors from one process (:mod:`educatalog.cli.dashboard`);
each visitor has an :class:`~educatalog.widgets.ExplorerModel` of their own (their view,
their numbers), and all of them read one :class:`ExplorerData`: the frame, what is derived
from it once (dimensions, filters, months, the columns as arrays that group fast) and the
numbers of the views computed lately. Two visitors who choose the same view get the same
numbers, computed once: the first computes while the second waits for it.

>>> data = ExplorerData(offers)  # doctest: +SKIP
>>> a, b = ExplorerModel(data), ExplorerModel(data)  # doctest: +SKIP
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

import numpy as np
import pandas as pd

from educatalog import stats
from educatalog.frames.columns import require_columns
from educatalog.frames.provenance import source_of
from educatalog.widgets._choices import (
    SHOW,
    TIME_DIMENSIONS,
    Mask,
    Option,
    find_dimensions,
    find_filters,
    month_range,
    options,
    start_months,
)

__all__ = ["MASKS", "RESULTS", "ExplorerData", "Recent"]

MASKS = 64
"""How many filters' masks :class:`ExplorerData` keeps (one byte an offer each: 64 MB at
a million offers)."""

RESULTS = 64
"""How many views' numbers (table, chart, PNG) :class:`ExplorerData` keeps."""

T = TypeVar("T")


class Recent(Generic[T]):
    """The ``size`` values computed last, by key, safe for threads: :meth:`get` computes
    a missing value once while other threads that ask for the same key wait for it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[Hashable, T] = OrderedDict()
        self._computing: dict[Hashable, threading.Event] = {}
        self._lock = threading.Lock()
        self.hits = 0
        """How often a value was there (or computed by another thread meanwhile)."""
        self.misses = 0
        """How often a value was computed."""

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The value of ``key``; computed by ``compute`` when missing (an error is raised
        to the thread that computed, and the next to ask computes again)."""
        if not self.size:
            self.misses += 1
            return compute()
        while True:
            with self._lock:
                if key in self._values:
                    self._values.move_to_end(key)
                    self.hits += 1
                    return self._values[key]
                running = self._computing.get(key)
                if running is None:
                    running = self._computing[key] = threading.Event()
                    break
            running.wait()  # another thread computes it: then look again
        try:
            value = compute()
            with self._lock:
                self.misses += 1
                self._values[key] = value
                while len(self._values) > self.size:
                    self._values.popitem(last=False)
            return value
        finally:
            with self._lock:
                del self._computing[key]
            running.set()

    def __len__(self) -> int:
        return len(self._values)


class ExplorerData:
    """The offers of one or many explorers, with what is derived from them once.

    ``offers`` is :meth:`educatalog.Catalogue.offers` (one row per event, or per event and
    subject with ``subjects=True``); the frame is not copied and must not change while
    explorers read it. ``keep``: how many views' numbers to keep for the explorers to
    share (0: none, each update computes; an explorer made from a frame keeps none, so
    that its :attr:`~educatalog.widgets.Explorer.figure` is its own to change).
    """

    def __init__(self, offers: pd.DataFrame, *, keep: int = RESULTS) -> None:
        require_columns(offers, ["event_id"], "explorer()")
        self.offers = offers
        self.n = len(offers)
        self.source = source_of(offers)
        self.filters = find_filters(offers)
        self.start_months = start_months(offers)
        """Each offer's month of start as a period ordinal (None: no start dates)."""
        self.months: list[pd.Period] = month_range(self.start_months)
        """Every month from the first start to the last: the choices of the window."""
        self.voucher: Mask | None = (
            offers["education_voucher"].astype("boolean").fillna(False).to_numpy(dtype=np.bool_)
            if "education_voucher" in offers
            else None
        )
        self.has_map = "district" in offers or "district_key" in offers
        """Whether the frame has the districts to draw the map of."""
        self.show = SHOW if self.has_map else SHOW[:1]
        self.unique = bool(offers["event_id"].is_unique)
        self.total_events = self.n if self.unique else int(offers["event_id"].nunique())
        self.masks: Recent[Mask | None] = Recent(MASKS)
        """Each filter's mask by (filter, choice): shared by the explorers."""
        self.results: Recent[dict[str, Any]] = Recent(keep)
        """The numbers of a view by (view, language, resolution): shared by the explorers."""
        self.drawing = threading.Lock()
        """Held while a view's numbers are computed: matplotlib's settings (rc_context)
        are one for the process, so two charts are not drawn at once."""
        self._lock = threading.Lock()
        self._dimensions: dict[str, dict[str, str]] = {}
        self._options: dict[str, dict[str, list[Option]]] = {}
        self._columns: dict[str, Any] = {}

    def dimensions(self, lang: str) -> dict[str, str]:
        """The dimensions the frame offers, by column, named in ``lang``."""
        with self._lock:
            if lang not in self._dimensions:
                self._dimensions[lang] = find_dimensions(self.offers, lang)
            return self._dimensions[lang]

    def options(self, lang: str) -> dict[str, list[Option]]:
        """Each choice's options as (label, value) in ``lang``, in the order shown."""
        dimensions = self.dimensions(lang)
        with self._lock:
            if lang not in self._options:
                found = options(dimensions, self.filters, self.months, lang, self.show)
                self._options[lang] = found
            return self._options[lang]

    def column(self, name: str) -> Any:
        """A column of the frame as an array, in a form that groups fast (computed once)."""
        with self._lock:
            if name in self._columns:
                return self._columns[name]
        if name in TIME_DIMENSIONS and name not in self.offers:
            start = self.offers["event_start_date"]
            values = stats.DERIVED_DIMENSIONS[name](start)
        else:
            values = self.offers[name]
            if name == "institution" and not isinstance(values.dtype, pd.CategoricalDtype):
                values = values.astype("category")  # distinct counts on codes
        with self._lock:
            return self._columns.setdefault(name, values.array)

    def __repr__(self) -> str:
        return (
            f"<ExplorerData: {self.n} offers, {len(self.results)} views and "
            f"{len(self.masks)} masks kept>"
        )
