"""The explorer's model, without widgets: :class:`View` (what is chosen) and
:class:`ExplorerModel`, which filters the offers, counts them with :mod:`educatalog.stats`,
draws them with :mod:`educatalog.plots` (a chart, or the map of the districts) and writes
the table as a file, once per (debounced) change of the view. A view
(:class:`educatalog.widgets.Explorer`) observes it with :meth:`ExplorerModel.subscribe` and
renders what it holds."""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from educatalog import plots, stats, tables, texts
from educatalog.errors import EducatalogError, UsageError
from educatalog.files.names import file_words
from educatalog.files.workspace import output_folder
from educatalog.plots.districts import DISTRICT_MEASURES
from educatalog.stats.selection import narrow
from educatalog.widgets._choices import (
    FILTERS,
    LONG,
    TIME_DIMENSIONS,
    TOP,
    Mask,
    Option,
    View,
    checked,
    districts_in,
    filter_notes,
    follow_states,
    offered,
)
from educatalog.widgets._data import ExplorerData
from educatalog.widgets._debounce import Debouncer, Scheduler, thread_timer
from educatalog.widgets.display import MISSING_LABEL, empty_figure, png_bytes, title_of, ui_text
from educatalog.widgets.export import (
    csv_bytes,
    file_suffix,
    new_path,
    presented,
    xlsx_bytes,
)
from educatalog.widgets.url_state import State, from_query, state_of, view_of

__all__ = ["ExplorerModel", "View"]

_MEASURE_COLUMNS: dict[str, str] = {
    "events": "event_id",
    "courses": "course_id",
    "institutions": "institution",
    "capacity": "max_participants",
}


_RESULT = (
    *("notes", "mask", "matched", "table", "totals", "_full", "table_note"),
    *("chart_note", "_shown_top", "figure", "figure_title", "table_title", "_png"),
    *("alt_text", "timings"),
)
"""What an update sets: the numbers of a view, as :attr:`ExplorerModel.data` keeps them."""

Listener = Callable[[str], None]
"""Told ``"view"`` when the view changed, ``"result"`` when the numbers were computed."""


class ExplorerModel:
    """The explorer without widgets: the offers, the :attr:`view` chosen and the numbers
    of the view last computed (``shown``), recomputed ``debounce`` seconds after the last
    change of the view (0: at once), when ``scheduler`` calls (default: a timer thread).
    Built, it has computed the default view."""

    table: pd.DataFrame
    """The table: :func:`educatalog.stats.supply` by one dimension (``events``, the
    measure, ``share``), or :func:`educatalog.stats.crosstab` of the measure by two;
    without its totals (:attr:`totals`, :attr:`full`)."""
    figure: Figure
    """The chart."""
    mask: Mask
    """Which rows of the frame pass the filters (a boolean array)."""

    def __init__(
        self,
        offers: pd.DataFrame | ExplorerData,
        *,
        debounce: float = 0.3,
        export_dir: str | Path | None = None,
        dpi: int = 100,
        lang: str = texts.DEFAULT_LANG,
        scheduler: Scheduler = thread_timer,
        draw: bool = True,
    ) -> None:
        self.lang = texts.check_lang(lang)
        self.draw = draw
        """Whether an update renders the chart as PNG; False: on first use of :attr:`png`
        (a page that loads its chart apart shows its numbers first)."""
        if debounce < 0:
            raise UsageError(f"debounce must be 0 or more seconds, got {debounce!r}.")
        data = offers if isinstance(offers, ExplorerData) else ExplorerData(offers, keep=0)
        self.data = data
        """The offers and what every explorer over them shares (:class:`ExplorerData`:
        give one to many models, and each view's numbers are computed once for all)."""
        self._offers = data.offers
        self._n = data.n
        self.export_dir = Path(export_dir) if export_dir is not None else Path.cwd()
        self.dpi = dpi
        self.source = data.source
        self.dimensions = data.dimensions(self.lang)
        self.filters = data.filters
        self._months = data.start_months
        self.months: list[pd.Period] = data.months
        """Every month from the first start to the last: the choices of the window."""
        self._voucher: Mask | None = data.voucher
        self.has_map = data.has_map
        """Whether the frame has the districts to draw the map of."""
        self._show = data.show
        self.options = data.options(self.lang)
        """Each choice's options as (label, value), in the order shown: every one (the
        districts of every state; :meth:`choices` those the view offers)."""
        first = "state" if "state" in self.dimensions else next(iter(self.dimensions))
        self.view = self.shown = View(by=first)
        """The view chosen; ``shown``: the view of the numbers (as its update began)."""
        self._listeners: list[Listener] = []
        self._debouncer = Debouncer(
            self._refresh, float(debounce), scheduler=scheduler, on_error=self._failed
        )
        self.recomputes = 0
        """How often the table and chart were computed."""
        self.seconds = 0.0
        """How long the last update took (filter, table, chart and its PNG)."""
        self.error: str | None = None
        """Why the last update failed, or None."""
        self.timings: dict[str, float] = {}
        """Seconds of the last update's steps: ``filter``, ``table``, ``chart``, ``png``."""
        self.exported: Path | None = None
        self._unique = data.unique
        self.total_events = data.total_events
        self.matched = self.total_events
        self.notes: list[str] = []
        """The filters of the numbers, in words (one entry per filter)."""
        self.totals: dict[str, Any] | None = None
        """The total row of a table by one dimension, by column; None by two."""
        self._full = pd.DataFrame()  # the table with its totals (margins)
        self.mask = np.ones(self._n, dtype=np.bool_)
        self.table = pd.DataFrame()
        self.figure = empty_figure(self.lang)
        self.figure_title: str | None = None
        self.table_title: str | None = None
        """The table's title: the chart's, without "(top 20)" where the chart shows fewer
        groups than the table."""
        self._png: bytes | None = b""
        self._result: dict[str, Any] = {}  # the numbers of the view shown, as kept
        self.alt_text = ""
        """What the chart shows, in words (:func:`educatalog.plots.alt_text`)."""
        self._shown_top: int | None = None  # how many groups the chart shows, if not all
        self.chart_note = ""
        """What the chart leaves out of the table, in words (a dimension of more than
        40 levels, such as the 400 districts: its largest), or empty."""
        self.table_note = ""
        """The note under a table of two dimensions when events count in several of its
        cells (a course in two subject areas, ``offers(subjects=True)``), else empty; a
        table of one dimension says so itself, beside its total row."""
        self.refresh()

    # -- the view --------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener("view")`` on every change of the view, ``listener("result")``
        after every update of the numbers (also a failed one: :attr:`error`)."""
        self._listeners.append(listener)

    def update(self, **changes: Any) -> None:
        """Change fields of the :attr:`view` (``model.update(states=("Bayern",))``); the
        numbers follow after the pause (a change of the format alone needs none)."""
        self._set(dataclasses.replace(self.view, **changes))

    def reset(self) -> None:
        """Clear every filter (all states, districts, forms, durations, subject areas, the
        whole time, every offer)."""
        cleared: dict[str, Any] = dict.fromkeys(FILTERS, ())
        self._set(
            dataclasses.replace(self.view, **cleared, window=None, voucher=False), always=True
        )

    @property
    def state(self) -> State:
        """The view without its defaults, as a link holds it
        (:mod:`educatalog.widgets.url_state`)."""
        return state_of(self)

    def set_state(self, state: Mapping[str, Any] | str) -> list[str]:
        """Choose the view ``state`` (a mapping like :attr:`state`, or a URL query string;
        what it leaves out: the default) and update once; returns what it could not use,
        in words."""
        view, problems = view_of(self, from_query(state) if isinstance(state, str) else state)
        self._set(view, always=True)
        return problems

    def options_in(self, lang: str) -> dict[str, list[Option]]:
        """The :attr:`options` as a page in ``lang`` names them (a link may use either
        language's labels)."""
        if texts.check_lang(lang) == self.lang:
            return self.options
        return self.data.options(lang)

    def choices(self, view: View | None = None) -> dict[str, list[Option]]:
        """The options that ``view`` (default: the :attr:`view`) offers: the districts of
        its states (all where it chooses none), the rest as :attr:`options`."""
        return offered(self.options, (view or self.view).states)

    def _set(self, view: View, *, always: bool = False) -> None:
        view = follow_states(view, self.view)  # districts of states no longer chosen: gone
        view = checked(view, self.options, self.months, self.has_voucher)
        before, self.view = self.view, view
        if view != before:
            self._emit("view")
        if always or dataclasses.replace(before, format=view.format) != view:
            self._debouncer.poke()

    def _emit(self, event: str) -> None:
        for listener in self._listeners:
            listener(event)

    # -- updates ---------------------------------------------------------------------

    @property
    def debounce(self) -> float:
        """The pause in seconds after the last change before the numbers follow."""
        return self._debouncer.delay

    @debounce.setter
    def debounce(self, seconds: float) -> None:
        self._debouncer.delay = float(seconds)

    @property
    def has_voucher(self) -> bool:
        """Whether the frame has the voucher column to filter by."""
        return self._voucher is not None

    @property
    def pending(self) -> bool:
        """Whether a debounced update is still waiting to run or running."""
        return self._debouncer.pending

    def refresh(self) -> None:
        """Filter, compute the table and draw the chart now, for the :attr:`view`."""
        self._debouncer.run()

    def flush(self) -> None:
        """Run a pending debounced update now (nothing when none is waiting)."""
        self._debouncer.flush()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until no debounced update is pending; False if ``timeout`` seconds passed."""
        return self._debouncer.wait(timeout)

    def holding(self) -> AbstractContextManager[None]:
        """Changes of the view in the block update the numbers once, at its end."""
        return self._debouncer.holding()

    def close(self) -> None:
        """Stop a pending update."""
        self._debouncer.close()

    def _refresh(self) -> None:
        started = time.perf_counter()
        self.recomputes += 1
        try:
            self._update(self.view)
        except EducatalogError as error:
            self.error = str(error)
        else:
            self.error = None
            self.seconds = time.perf_counter() - started
        self._emit("result")

    def _failed(self, error: Exception) -> None:
        """What a debounced update raised: said, as nobody waits on its thread."""
        self.error = f"{type(error).__name__}: {error}"
        self._emit("result")

    # -- the numbers -----------------------------------------------------------------

    @property
    def full(self) -> pd.DataFrame:
        """The :attr:`table` with its totals (:mod:`educatalog.stats`' margins): by one
        dimension the total row, by two the total row and column, each counting distinct
        events (courses, institutions) as stats does; what the page shows and the file
        holds."""
        return self._full

    @property
    def png(self) -> bytes:
        """The chart as PNG: rendered by the update, or (``draw=False``) now, once for
        every explorer that shares the view's numbers."""
        if self._png is None:
            with self.data.drawing:  # matplotlib draws one figure at a time
                if self._result.get("_png") is None:
                    self._result["_png"] = png_bytes(self.figure, self.dpi)
            self._png = self._result["_png"]
        assert self._png is not None
        return self._png

    @property
    def filtered(self) -> pd.DataFrame:
        """The offers that pass the filters (all columns of the frame)."""
        if self.mask.all():
            return self._offers
        return self._offers.loc[self.mask]

    def _update(self, view: View) -> None:
        """The numbers of ``view``: those :attr:`data` keeps for it (computed by another
        explorer over the same data), else computed now and kept."""
        key = (dataclasses.replace(view, format=View.format), self.lang, self.dpi)
        self._result = self.data.results.get(key, lambda: self._compute(view))
        self.__dict__.update(self._result)
        self.shown = view

    def _compute(self, view: View) -> dict[str, Any]:
        with self.data.drawing:
            self._numbers(view)
        return {name: getattr(self, name) for name in _RESULT}

    def _numbers(self, view: View) -> None:
        clock = time.perf_counter
        t0 = clock()
        dims, measure = view.dims, view.measure
        self.shown, self.notes = view, filter_notes(view, self.months, self.lang)
        self.mask = self._mask(view)
        frame = self._frame(self.mask, view)
        self.matched = int(self.mask.sum()) if self._unique else _distinct_events(frame["event_id"])
        t1 = clock()
        # With its totals (stats' margins): shown below the table, and in the export.
        if len(dims) == 1:
            full = stats.supply(frame, dims[0], normalize="all", margins=True)
            covered = ["events_with_capacity"] if measure == "capacity" else []  # places' cover
            full = full[["events", *([measure] if measure != "events" else []), *covered, "share"]]
            self.table = full.iloc[:-1]
            self.totals = {str(k): v for k, v in full.iloc[-1].items()}
        else:
            full = stats.crosstab(frame, dims[0], dims[1], measure=measure, margins=True)
            self.table, self.totals = full.iloc[:-1, :-1], None
        self._full = full
        self.table_note = self._multiple(frame, dims)
        t2 = clock()
        if view.show == "map":
            self.chart_note, self._shown_top = "", None  # the map shows every district
            self.figure = self._map(view)
        else:
            self.figure = self._draw(frame, dims, measure)
        self.figure_title = self.table_title = title_of(self.figure)
        if view.show == "map":  # the map is by district, the table by the dimensions
            self.table_title = _title(measure, dims, self.lang)
        elif self._shown_top is not None and self.figure_title is not None:
            suffix = texts.text("title.top", self.lang, title="", top=self._shown_top)
            self.table_title = self.figure_title.removesuffix(suffix)
        t3 = clock()
        self._png = png_bytes(self.figure, self.dpi) if self.draw else None
        # an empty chart: the words it shows in place of one
        words = " ".join(t.get_text() for t in self.figure.texts)
        self.alt_text = plots.alt_text(self.figure) or self.figure_title or words
        t4 = clock()
        self.timings = {"filter": t1 - t0, "table": t2 - t1, "chart": t3 - t2}
        if self._png is not None:
            self.timings["png"] = t4 - t3

    def _multiple(self, frame: pd.DataFrame, dims: Sequence[str]) -> str:
        """The note on multiple assignment when an event of ``frame`` lies in several rows
        (cells) of the table, else empty (a frame of one row per event: at once)."""
        if self._unique or not self.matched:
            return ""
        lang = self.lang
        if len(dims) == 1:  # the table says it itself, beside its total row
            return ""  # (educatalog.tables: "note.multiple_assignment_rows")
        pairs = len(frame[["event_id", *dims]].drop_duplicates())
        return texts.text("note.multiple_assignment", lang) if pairs > self.matched else ""

    def _mask(self, view: View) -> Mask:
        parts: list[Mask | None] = []
        for name, flt in self.filters.items():
            selected = view.chosen(name)
            parts.append(self._cached(name, selected, functools.partial(flt.mask, selected)))
        if self.months:
            window = view.window
            parts.append(self._cached("start", window, lambda: self._start_mask(window)))
        if self._voucher is not None and view.voucher:
            parts.append(self._voucher)
        mask = np.ones(self._n, dtype=np.bool_)
        for part in parts:
            if part is not None:
                mask &= part
        return mask

    def _cached(self, name: str, key: Any, compute: Callable[[], Mask | None]) -> Mask | None:
        return self.data.masks.get((name, key), compute)

    def _start_mask(self, window: tuple[int, int] | None) -> Mask | None:
        if window is None:
            return None  # the whole time, also events without a start date
        low, high = (self.months[i].ordinal for i in window)
        assert self._months is not None
        return (self._months >= low) & (self._months <= high)

    def _column(self, name: str) -> Any:
        """A column of the frame as an array, in a form that groups fast (computed once)."""
        return self.data.column(name)

    def _frame(self, mask: Mask, view: View, more: Sequence[str] = ()) -> pd.DataFrame:
        """The filtered columns that the table and chart need (and ``more``), no others."""
        dims = view.dims
        names = ["event_id", _MEASURE_COLUMNS[view.measure], *dims, *more]
        if any(d in TIME_DIMENSIONS for d in dims):
            names.append("event_start_date")
        names = [n for n in dict.fromkeys(names) if n in self._offers or n in TIME_DIMENSIONS]
        rows = None if bool(mask.all()) else np.flatnonzero(mask)
        data = {}
        for name in names:
            values = self._column(name)
            data[name] = values if rows is None else values.take(rows)
        frame = pd.DataFrame(data, copy=False)
        for name, (column, _description) in FILTERS.items():
            chosen = view.chosen(name)
            kept = districts_in(view.states) if name == "districts" and not chosen else None
            if kept is not None and column in frame:  # the districts of the states chosen
                frame[column] = narrow(frame[column], sorted(kept))
            elif chosen and column in frame:  # a filter narrows the levels: no zero rows
                values = [None if v == MISSING_LABEL else v for v in chosen]
                frame[column] = narrow(frame[column], values)
        frame.attrs = {
            k: (dict(v) if isinstance(v, dict) else v) for k, v in self._offers.attrs.items()
        }
        return frame

    def _draw(self, frame: pd.DataFrame, dims: Sequence[str], measure: str) -> Figure:
        """Bars by one dimension; lines of starts over time; by two dimensions a heatmap
        of the measure (the table's numbers), readable also with many groups."""
        by = dims[0]
        by2 = dims[1] if len(dims) > 1 else None
        lang = self.lang
        self.chart_note, self._shown_top = "", None  # the chart shows every group
        if not self.matched:
            return empty_figure(lang)
        # by one dimension the table has a column per measure, by two the measure's cells
        shown = self.table[[measure]] if by2 is None else self.table
        if measure == "capacity" and shown.isna().all(axis=None):
            return empty_figure(lang, texts.text("empty.capacity", lang))
        if by2 is None and not (by in TIME_DIMENSIONS and measure == "events"):
            top = self._top(by, len(self.table), "rows")
            return plots.supply_bars(
                frame, by, measure=measure, top=top, lang=lang, source=self.source
            )
        if (
            by in TIME_DIMENSIONS
            and measure == "events"
            and (by2 is None or len(self.table.columns) <= 8)
        ):
            return plots.starts_over_time(frame, freq=by, by=by2, lang=lang, source=self.source)
        assert by2 is not None
        title = None
        for dim, where, levels in (
            (by, "rows", len(self.table)),
            (by2, "columns", len(self.table.columns)),
        ):
            top = self._top(dim, levels, where)
            if top is not None:
                frame = _largest(frame, dim, measure, top)
                whole = _title(measure, [by, by2], lang)
                title = texts.text("title.top", lang, title=whole, top=top)
        return plots.heatmap(
            frame,
            by,
            by2,
            normalize=False,
            measure=measure,
            lang=lang,
            source=self.source,
            title=title,
        )

    def _map(self, view: View) -> Figure:
        """The map of the districts (:func:`educatalog.plots.district_map`) in the view's
        measure, of the offers that pass the filters; zoomed to the state chosen, where one
        is, or to the districts the filters leave."""
        lang = self.lang
        if not self.matched:
            return empty_figure(lang)
        if view.measure not in DISTRICT_MEASURES:  # places per district: no map
            return empty_figure(lang, ui_text("map.capacity", lang), ui_text("map.other", lang))
        columns = [c for c in ("course_id", "institution") if c in self._offers]
        region = "district" if "district" in self._offers else "district_key"
        frame = self._frame(self.mask, view, [region, *columns])
        if "district" in frame and not len(frame["district"].cat.categories):
            # the states "not stated" alone: select() leaves them no district
            return empty_figure(lang, ui_text("map.none", lang), ui_text("map.states", lang))
        named = [s for s in view.states if s != MISSING_LABEL]
        state = named[0] if len(named) == 1 else None
        return plots.district_map(
            frame, measure=view.measure, state=state, lang=lang, source=self.source
        )

    def _top(self, dim: str, levels: int, where: str) -> int | None:
        """How many of the ``levels`` of ``dim`` the chart shows (its largest), None for
        all; the :attr:`chart_note` says so."""
        if levels <= LONG or dim in TIME_DIMENSIONS:
            return None
        top = self._shown_top = TOP[where]
        self.chart_note = ui_text("top", self.lang, top=top, levels=levels)
        if dim == "district" and self.has_map:  # the map shows all of them
            self.chart_note += "; " + ui_text("map.hint", self.lang)
        return top

    # -- the table as a file ---------------------------------------------------------

    @property
    def file_stem(self) -> str:
        """The name of the table's file, without a suffix: its title in the model's language
        ("educatalog-kurse-nach-bundesland", "educatalog-courses-by-state")."""
        return f"educatalog-{file_words(_title(self.shown.measure, self.shown.dims, self.lang))}"

    def suffix(self, format: str | None = None) -> str:
        """The file suffix of ``format`` (``csv``, ``xlsx`` or a label), else of the view's."""
        return file_suffix(format, self.view.format)

    def payload(self, format: str | None = None) -> bytes:
        """The table as a file's bytes: ``"csv"`` (UTF-8 with BOM; in German with ``;``
        between fields and a decimal comma, as German Excel reads it; shares in percent)
        or ``"xlsx"`` (:func:`educatalog.tables.write_excel`: a sheet on the source,
        measure, filters and demo mark, then the table with number formats). Headers and
        labels are in words, in the model's language."""
        suffix = self.suffix(format)
        table = self._presented()
        if suffix == "csv":
            return csv_bytes(table, self.source, self.notes)
        return xlsx_bytes(table, self.source, self.notes)

    def export(self, format: str | None = None, directory: str | Path | None = None) -> Path:
        """Write the table to a new file in ``directory`` (default: ``export_dir``) as
        ``"csv"`` or ``"xlsx"`` (default: the view's format); returns its path. The bytes
        of :meth:`payload`, after a pending update."""
        self.flush()
        suffix = self.suffix(format)
        folder = Path(directory) if directory is not None else self.export_dir
        folder = output_folder(folder, what="exported tables")
        folder.mkdir(parents=True, exist_ok=True)
        path = new_path(folder, self.file_stem, suffix)
        path.write_bytes(self.payload(suffix))
        self.exported = path
        return path

    def _presented(self) -> tables.Table:
        """The table with its totals for readers, the measure named under it."""
        title = self.table_title or self.file_stem
        name = texts.text(f"measure.{self.shown.measure}", self.lang)
        measure = f"{texts.text('excel.measure', self.lang)}: {name}"
        table = presented(self._full, self.lang, title, self.source, measure)
        if self.table_note:
            table.notes.append(self.table_note)
        return table


def _title(measure: str, dims: Sequence[str], lang: str) -> str:
    """A title that names the measure and the dimensions, as the charts' do: "Events by
    state", "Events by state and duration class"."""
    what = texts.text(f"measure.{measure}", lang)
    if len(dims) == 1:
        return texts.text("title.by", lang, measure=what, dimension=texts.dimension(dims[0], lang))
    rows, columns = (texts.dimension(d, lang) for d in dims)
    return texts.text("title.measure_by_2d", lang, measure=what, rows=rows, columns=columns)


def _largest(frame: pd.DataFrame, dim: str, measure: str, top: int) -> pd.DataFrame:
    """The rows of ``frame`` in the ``top`` levels of ``dim`` of the largest ``measure``,
    those levels alone and largest first (``frame`` where no level has any)."""
    values = stats.supply(frame, dim, normalize=False)[measure]
    ranked = values[values.index.notna() & (values.fillna(0) > 0).to_numpy()]
    ranked = ranked.sort_values(ascending=False, kind="stable")
    kept = list(ranked.index[:top])
    if not kept:
        return frame
    out = frame.loc[frame[dim].isin(kept).to_numpy()].copy()
    out[dim] = out[dim].cat.set_categories(kept)
    out.attrs = frame.attrs
    return out


def _distinct_events(event_ids: pd.Series) -> int:
    return int(event_ids.nunique())
