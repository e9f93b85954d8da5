"""An interactive dashboard for exploring course supply in JupyterLab.

>>> offers = educatalog.load_catalogue().offers()  # doctest: +SKIP
>>> educatalog.widgets.explorer(offers)  # last line of a cell: shows it  # doctest: +SKIP

:func:`explorer` counts the offers by one dimension (a labelled or yes/no column of the
frame, or the ``month``, ``quarter`` or ``year`` of the start), optionally split by a
second one, in one of :data:`educatalog.stats.MEASURES`, after filtering by state,
instruction-form category, duration class, start month and voucher eligibility. It shows
the chart (:mod:`educatalog.plots`) and the table (:mod:`educatalog.stats`) side by side,
and exports the table to CSV or Excel.

Changes of the controls are debounced: the dashboard recomputes ``debounce`` seconds after
the last of a quick series of changes, in a background timer. :meth:`Explorer.refresh`
recomputes at once, and ``debounce=0`` makes every change recompute at once (for tests and
scripts). Filters are boolean masks over the categorical codes of the frame, kept per
filter and combined with numpy, so one update stays well under a second on a million
events (``benchmarks/widgets.py``).

The current state is there for code as well as for the eye: :attr:`Explorer.table` (the
table shown), :attr:`Explorer.figure` (the chart), :attr:`Explorer.mask` and
:attr:`Explorer.filtered` (the offers that pass the filters) and
:attr:`Explorer.controls` (the widgets by name, whose ``value`` can be set).
"""

from __future__ import annotations

import datetime as dt
import html
import io
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import ipywidgets as w
import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from educatalog import plots, stats
from educatalog.catalogue_data import Source
from educatalog.errors import EducatalogError
from educatalog.workspace import output_folder

__all__ = ["FORMATS", "NONE", "TIME_DIMENSIONS", "Explorer", "explorer"]

NONE = "—"
"""The value of the second-dimension control that means: no second dimension."""

TIME_DIMENSIONS: tuple[str, ...] = ("month", "quarter", "year")
"""Dimensions derived from ``event_start_date``
(:data:`educatalog.stats.DERIVED_DIMENSIONS`)."""

FORMATS: dict[str, str] = {"CSV": "csv", "Excel": "xlsx"}
"""Export formats: label of the control -> file suffix."""

MISSING_LABEL = plots.MISSING_LABEL

_EXCLUDED = frozenset({"state_code"})  # the state again, as its ISO code
_FILTERS: dict[str, tuple[str, str]] = {
    # control name: (column, description)
    "states": ("state", "States"),
    "categories": ("instruction_form_category", "Forms"),
    "durations": ("duration_class", "Durations"),
}
_MEASURE_COLUMNS: dict[str, str] = {
    "events": "event_id",
    "courses": "course_id",
    "institutions": "institution",
    "capacity": "max_participants",
}
_NAMES: dict[str, str] = {
    "state": "State",
    "instruction_form": "Instruction form",
    "instruction_form_category": "Instruction-form category",
    "instruction_time": "Instruction time",
    "duration_class": "Duration class",
    "education_type": "Education type",
    "course_type": "Course type",
    "institution_type": "Institution type",
    "funding_type": "Funding type",
    "funding_level": "Funding level",
    "barrier_free": "Barrier-free access",
    "education_voucher": "Education voucher",
    "is_part_time": "Part time",
    "has_individual_start": "Individual start",
    "is_inhouse": "In-house",
    "month": "Start month",
    "quarter": "Start quarter",
    "year": "Start year",
}
_HEADERS = {"share": "share of events"}
_NO_MONTH = np.iinfo(np.int64).min


def explorer(
    offers: pd.DataFrame,
    *,
    debounce: float = 0.3,
    export_dir: str | Path | None = None,
    dpi: int = 100,
) -> Explorer:
    """The course-supply dashboard over ``offers`` (:meth:`educatalog.Catalogue.offers`).

    ``debounce`` is the pause in seconds after the last change of a control before the
    dashboard recomputes (0: at once); ``export_dir`` the directory the export button
    writes to (default: the current directory; never a folder inside the package, where a
    notebook opened from the package itself would run); ``dpi`` the resolution of the chart.
    """
    return Explorer(offers, debounce=debounce, export_dir=export_dir, dpi=dpi)


class Explorer:
    """The dashboard: :attr:`widget` to display, and the current state for code.

    Displaying the object (the last line of a notebook cell, or ``display(explorer)``)
    shows :attr:`widget`. Set a control's ``value`` (``explorer.controls["states"].value =
    ("Bayern",)``) to change it from code; :meth:`refresh` recomputes at once.
    """

    table: pd.DataFrame
    """The table shown: :func:`educatalog.stats.supply` by one dimension (``events``, the
    measure, ``share`` of the events), or :func:`educatalog.stats.crosstab` of the measure by
    two."""
    figure: Figure
    """The chart shown."""
    mask: np.ndarray
    """Which rows of the frame pass the filters (a boolean array)."""
    recomputes: int
    """How often the table and chart were computed."""
    seconds: float
    """How long the last update took (filter, table, chart and its PNG)."""
    error: str | None
    """Why the last update failed, or None."""
    timings: dict[str, float]
    """Seconds of the last update's steps: ``filter``, ``table``, ``chart`` (drawing) and
    ``png`` (rendering it)."""

    def __init__(
        self,
        offers: pd.DataFrame,
        *,
        debounce: float = 0.3,
        export_dir: str | Path | None = None,
        dpi: int = 100,
    ) -> None:
        if not isinstance(offers, pd.DataFrame):
            raise EducatalogError(
                f"explorer() needs the frame of offers, a pandas DataFrame, not "
                f"{type(offers).__name__}; build it with educatalog.load_catalogue().offers()."
            )
        if "event_id" not in offers:
            raise EducatalogError(
                "explorer() needs the column event_id, which the frame lacks; build the frame "
                "of offers with educatalog.load_catalogue().offers()."
            )
        if debounce < 0:
            raise EducatalogError(f"debounce must be 0 or more seconds, got {debounce!r}.")
        self._offers = offers
        self._n = len(offers)
        self.debounce = float(debounce)
        self.export_dir = Path(export_dir) if export_dir is not None else Path.cwd()
        self.dpi = dpi
        self.source = Source.from_attrs(offers.attrs)
        self.recomputes = 0
        self.seconds = 0.0
        self.error = None
        self.timings = {}
        self.exported: Path | None = None
        self._lock = threading.RLock()
        self._idle = threading.Condition(self._lock)
        self._timer: threading.Timer | None = None
        self._due = False  # a debounced update is waiting or running
        self._held = 0
        self._mask_cache: dict[str, tuple[Any, np.ndarray | None]] = {}
        self._columns: dict[str, Any] = {}  # column arrays for the statistics, by name
        self._unique = bool(offers["event_id"].is_unique)
        self._total_events = self._n if self._unique else _distinct_events(offers["event_id"])
        self._matched = self._total_events
        self._totals: dict[str, Any] | None = None
        self.mask = np.ones(self._n, dtype=bool)
        self.table = pd.DataFrame()
        self.figure = _empty_figure()

        self._dimensions = self._find_dimensions()
        self._filters = {
            name: _CategoryFilter.of(offers[column])
            for name, (column, _) in _FILTERS.items()
            if column in offers and isinstance(offers[column].dtype, pd.CategoricalDtype)
        }
        self._months = self._start_months()
        self._voucher = (
            offers["education_voucher"].astype("boolean").fillna(False).to_numpy(dtype=bool)
            if "education_voucher" in offers
            else None
        )
        self.controls = self._make_controls()
        self._chart = w.Image(format="png", layout=w.Layout(max_width="58%", height="auto"))
        self._table_html = w.HTML(layout=w.Layout(flex="1 1 auto", overflow="auto"))
        self._status = w.HTML()
        self._export_status = w.HTML()
        self.outputs: dict[str, w.Widget] = {
            "chart": self._chart,
            "table": self._table_html,
            "status": self._status,
            "export": self._export_status,
        }
        """The output widgets by name: ``chart`` (an Image of the PNG), ``table`` and
        ``status`` (HTML), ``export`` (HTML: the path last written)."""
        self.widget = self._layout()
        for name, control in self.controls.items():
            if name not in ("format", "export", "reset"):
                control.observe(self._on_change, names="value")
        self.controls["export"].on_click(lambda _button: self._export_clicked())
        self.controls["reset"].on_click(lambda _button: self.reset())
        self.refresh()

    # -- display ---------------------------------------------------------------------

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        bundle = self.widget._repr_mimebundle_(**kwargs)
        if isinstance(bundle, dict):
            bundle = {**bundle, "text/plain": repr(self)}
        return bundle

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    def __repr__(self) -> str:
        by = self.controls["by"].value
        by2 = self.controls["by2"].value
        what = f"{self.controls['measure'].value} by {by}" + (f" and {by2}" if by2 != NONE else "")
        return f"<Explorer: {what}; {self._matched:,} of {self._total_events:,} events match>"

    # -- state -----------------------------------------------------------------------

    @property
    def filtered(self) -> pd.DataFrame:
        """The offers that pass the filters (all columns of the frame)."""
        if self.mask.all():
            return self._offers
        return self._offers.loc[self.mask]

    @property
    def dimensions(self) -> list[str]:
        """The dimensions one can count by: labelled and yes/no columns, month, quarter, year."""
        return list(self._dimensions)

    @property
    def pending(self) -> bool:
        """Whether a debounced update is still waiting to run or running."""
        return self._due

    def refresh(self) -> None:
        """Filter, compute the table and draw the chart now, from the controls' values."""
        with self._lock:
            self._cancel_timer()
            started = time.perf_counter()
            self.recomputes += 1
            try:
                self._update()
            except EducatalogError as error:
                self.error = str(error)
                self._status.value = _status_html(
                    f"<span style='color:#B00020'>{html.escape(str(error))}</span>", self.source
                )
                return
            finally:
                self._due = False
                self._idle.notify_all()
            self.error = None
            self.seconds = time.perf_counter() - started
            self._status.value = self._status_text()

    def flush(self) -> None:
        """Run a pending debounced update now (nothing when none is waiting)."""
        with self._lock:
            if self._due:
                self.refresh()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until no debounced update is pending; False if ``timeout`` seconds passed."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._due, timeout)

    def reset(self) -> None:
        """Clear every filter (all states, forms, durations, the whole time, every offer)."""
        with self._holding():
            for name in ("states", "categories", "durations"):
                if name in self.controls:
                    self.controls[name].value = ()
            if "start" in self.controls:
                slider = self.controls["start"]
                slider.index = (0, len(slider.options) - 1)
            if "voucher" in self.controls:
                self.controls["voucher"].value = False

    def export(self, format: str | None = None, directory: str | Path | None = None) -> Path:
        """Write the current table to a new file in ``directory`` (default: ``export_dir``)
        as ``"csv"`` or ``"xlsx"`` (default: the format control's choice); returns its path.

        Groups without a value are labelled :data:`educatalog.plots.MISSING_LABEL`. The Excel
        workbook has the table on its first sheet and the source and filters on a second.
        """
        self.flush()
        suffix = format or FORMATS[self.controls["format"].value]
        suffix = FORMATS.get(suffix, suffix).lower().lstrip(".")
        if suffix not in FORMATS.values():
            raise EducatalogError(f"export() writes csv or xlsx files, not {format!r}.")
        folder = Path(directory) if directory is not None else self.export_dir
        folder = output_folder(folder, what="exported tables")
        folder.mkdir(parents=True, exist_ok=True)
        path = _new_path(folder, self._file_stem(), suffix)
        table = export_frame(self.table)
        if suffix == "csv":
            table.to_csv(path, encoding="utf-8")
        else:
            about = pd.DataFrame(
                {
                    "item": ["source", "measure", "dimensions", "filters", "events", "written"],
                    "value": [
                        self.source.label if self.source is not None else "unknown",
                        self.controls["measure"].value,
                        ", ".join(self._dims()),
                        "; ".join(self._filter_notes()) or "none",
                        f"{self._matched:,} of {self._total_events:,}",
                        dt.datetime.now().isoformat(timespec="seconds"),
                    ],
                }
            )
            with pd.ExcelWriter(path, engine="openpyxl") as writer:
                table.to_excel(writer, sheet_name="table")
                about.to_excel(writer, sheet_name="about", index=False)
        self.exported = path
        return path

    def close(self) -> None:
        """Stop a pending update and close the widgets."""
        with self._lock:
            self._cancel_timer()
            self._due = False
            self._idle.notify_all()
        self._close_widgets()

    # -- controls --------------------------------------------------------------------

    def _find_dimensions(self) -> dict[str, str]:
        dims: dict[str, str] = {}
        for column in self._offers.columns:
            dtype = self._offers[column].dtype
            if column in _EXCLUDED or not isinstance(column, str):
                continue
            if isinstance(dtype, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(dtype):
                dims[column] = _NAMES.get(column, column.replace("_", " ").capitalize())
        if "event_start_date" in self._offers:
            for name in TIME_DIMENSIONS:
                if name not in dims:
                    dims[name] = _NAMES[name]
        if not dims:
            raise EducatalogError(
                "The frame has no labelled column to count by; build the frame of offers "
                "with educatalog.load_catalogue().offers()."
            )
        return dims

    def _start_months(self) -> np.ndarray | None:
        if "event_start_date" not in self._offers:
            return None
        start = self._offers["event_start_date"]
        values = start.to_numpy(dtype="datetime64[ns]", na_value=np.datetime64("NaT"))
        months = values.astype("datetime64[M]").astype(np.int64)  # NaT -> int64 minimum
        return months

    def _make_controls(self) -> dict[str, w.Widget]:
        wide = {"description_width": "initial"}
        options = [(label, name) for name, label in self._dimensions.items()]
        first = "state" if "state" in self._dimensions else options[0][1]
        controls: dict[str, w.Widget] = {
            "by": w.Dropdown(options=options, value=first, description="Count by", style=wide),
            "by2": w.Dropdown(
                options=[(NONE, NONE), *options], value=NONE, description="and by", style=wide
            ),
            "measure": w.ToggleButtons(
                options=[(m.capitalize(), m) for m in stats.MEASURES],
                value="events",
                description="Measure",
                style={"button_width": "92px", **wide},
            ),
        }
        for name, (column, description) in _FILTERS.items():
            if name in self._filters:
                controls[name] = w.SelectMultiple(
                    options=self._filters[name].labels,
                    value=(),
                    rows=min(8, max(3, len(self._filters[name].labels))),
                    description=description,
                    layout=w.Layout(width="290px"),
                    tooltip=f"{_NAMES.get(column, column)}: none selected means all",
                )
        if self._months is not None:
            known = self._months[self._months != _NO_MONTH]
            if known.size:
                periods = pd.period_range(
                    pd.Period(ordinal=int(known.min()), freq="M"),
                    pd.Period(ordinal=int(known.max()), freq="M"),
                    freq="M",
                )
                controls["start"] = w.SelectionRangeSlider(
                    options=[(str(p), p) for p in periods],
                    index=(0, len(periods) - 1),
                    description="Start",
                    continuous_update=False,
                    layout=w.Layout(width="420px"),
                )
        if self._voucher is not None:
            controls["voucher"] = w.Checkbox(value=False, description="Voucher only", indent=False)
        controls["reset"] = w.Button(description="Clear filters", icon="filter")
        controls["format"] = w.ToggleButtons(
            options=list(FORMATS), value="CSV", style={"button_width": "70px"}
        )
        controls["export"] = w.Button(
            description="Export table", icon="download", button_style="primary"
        )
        return controls

    def _layout(self) -> w.Widget:
        c = self.controls
        dims = w.HBox([c["by"], c["by2"]])
        filters = [c[name] for name in _FILTERS if name in c]
        extra = [c[name] for name in ("start", "voucher", "reset") if name in c]
        return w.VBox(
            [
                w.HTML("<b>Course supply explorer</b>"),
                dims,
                c["measure"],
                w.HBox(filters),
                w.HBox(extra, layout=w.Layout(align_items="center")),
                self._status,
                w.HBox([self._chart, self._table_html], layout=w.Layout(align_items="flex-start")),
                w.HBox(
                    [c["format"], c["export"], self._export_status],
                    layout=w.Layout(align_items="center"),
                ),
            ]
        )

    def _close_widgets(self) -> None:
        for control in self.controls.values():
            control.close()
        for widget in (self._chart, self._table_html, self._status, self._export_status):
            widget.close()
        self.widget.close()

    # -- updates ---------------------------------------------------------------------

    def _on_change(self, _change: Mapping[str, Any]) -> None:
        if self._held:
            return
        if self.debounce <= 0:
            self.refresh()
            return
        with self._lock:
            self._cancel_timer()
            timer = threading.Timer(self.debounce, self._refresh_later)
            timer.daemon = True
            self._timer = timer
            self._due = True
            timer.start()

    def _refresh_later(self) -> None:
        with self._lock:
            if self._timer is not threading.current_thread():
                return  # cancelled or replaced meanwhile
            self._timer = None
            try:
                self.refresh()
            except Exception as error:  # shown, as nobody waits on this thread
                self._due = False
                self._idle.notify_all()
                self.error = f"{type(error).__name__}: {error}"
                self._status.value = _status_html(
                    f"<span style='color:#B00020'>{html.escape(self.error)}</span>", self.source
                )

    def _cancel_timer(self) -> None:
        timer, self._timer = self._timer, None
        if timer is not None and timer is not threading.current_thread():
            timer.cancel()

    @contextmanager
    def _holding(self) -> Iterator[None]:
        """Change several controls, then update once."""
        self._held += 1
        try:
            yield
        finally:
            self._held -= 1
        self._on_change({})

    def _dims(self) -> list[str]:
        by, by2 = self.controls["by"].value, self.controls["by2"].value
        return [by] if by2 in (NONE, None, "", by) else [by, by2]

    def _update(self) -> None:
        clock = time.perf_counter
        t0 = clock()
        self.mask = self._mask()
        dims = self._dims()
        measure = self.controls["measure"].value
        frame = self._frame(self.mask, dims, measure)
        self._matched = (
            int(self.mask.sum()) if self._unique else _distinct_events(frame["event_id"])
        )
        t1 = clock()
        if len(dims) == 1:
            table = stats.supply(frame, dims[0], normalize="all")
            columns = ["events", *([measure] if measure != "events" else []), "share"]
            table = table[columns]
        else:
            table = stats.crosstab(frame, dims[0], dims[1], measure=measure)
        self.table = table
        self._totals = self._total_row(frame, measure) if len(dims) == 1 else None
        self._table_html.value = table_html(self.table, self._totals)
        t2 = clock()
        self.figure = self._draw(frame, dims, measure)
        t3 = clock()
        self._chart.value = _png(self.figure, self.dpi)
        t4 = clock()
        self.timings = {"filter": t1 - t0, "table": t2 - t1, "chart": t3 - t2, "png": t4 - t3}

    def _mask(self) -> np.ndarray:
        parts = []
        for name, flt in self._filters.items():
            selected = tuple(self.controls[name].value)
            parts.append(self._cached(name, selected, lambda f=flt, s=selected: f.mask(s)))
        if "start" in self.controls and self._months is not None:
            slider = self.controls["start"]
            index = tuple(slider.index)
            parts.append(self._cached("start", index, lambda: self._start_mask(index)))
        if "voucher" in self.controls:
            voucher = bool(self.controls["voucher"].value)
            parts.append(self._voucher if voucher else None)
        mask = np.ones(self._n, dtype=bool)
        for part in parts:
            if part is not None:
                mask &= part
        return mask

    def _cached(
        self, name: str, key: Any, compute: Callable[[], np.ndarray | None]
    ) -> np.ndarray | None:
        cached = self._mask_cache.get(name)
        if cached is not None and cached[0] == key:
            return cached[1]
        mask = compute()
        self._mask_cache[name] = (key, mask)
        return mask

    def _start_mask(self, index: tuple[int, int]) -> np.ndarray | None:
        slider = self.controls["start"]
        if index == (0, len(slider.options) - 1):
            return None  # the whole time, also events without a start date
        values = [value for _label, value in slider.options]
        low, high = values[index[0]].ordinal, values[index[1]].ordinal
        assert self._months is not None
        return (self._months >= low) & (self._months <= high)

    def _column(self, name: str) -> Any:
        """A column of the frame as an array, in a form that groups fast (cached)."""
        if name not in self._columns:
            if name in TIME_DIMENSIONS and name not in self._offers:
                start = self._offers["event_start_date"]
                values = stats.DERIVED_DIMENSIONS[name](start)
            else:
                values = self._offers[name]
                if name == "institution" and not isinstance(values.dtype, pd.CategoricalDtype):
                    values = values.astype("category")  # distinct counts on codes
            self._columns[name] = values.array
        return self._columns[name]

    def _frame(self, mask: np.ndarray, dims: Sequence[str], measure: str) -> pd.DataFrame:
        """The filtered columns that the table and chart need, no others."""
        names = ["event_id", _MEASURE_COLUMNS[measure], *dims]
        if any(d in TIME_DIMENSIONS for d in dims):
            names.append("event_start_date")
        names = [n for n in dict.fromkeys(names) if n in self._offers or n in TIME_DIMENSIONS]
        every = bool(mask.all())
        rows = None if every else np.flatnonzero(mask)
        data = {}
        for name in names:
            values = self._column(name)
            data[name] = values if rows is None else values.take(rows)
        frame = pd.DataFrame(data, copy=False)
        frame.attrs = {
            k: (dict(v) if isinstance(v, dict) else v) for k, v in self._offers.attrs.items()
        }
        return frame

    def _total_row(self, frame: pd.DataFrame, measure: str) -> dict[str, Any]:
        column = _MEASURE_COLUMNS[measure]
        totals: dict[str, Any] = {"events": self._matched, "share": 1.0 if self._matched else pd.NA}
        if measure in ("courses", "institutions") and column in frame:
            totals[measure] = int(frame[column].nunique())
        elif measure == "capacity" and column in frame:
            # Each event once, also on a frame that repeats events (offers(funding=True)).
            events = frame.drop_duplicates("event_id") if "event_id" in frame else frame
            totals[measure] = int(events[column].sum())
        return totals

    def _draw(self, frame: pd.DataFrame, dims: Sequence[str], measure: str) -> Figure:
        by = dims[0]
        by2 = dims[1] if len(dims) > 1 else None
        if not self._matched:
            return _empty_figure()
        if by2 is None and not (by in TIME_DIMENSIONS and measure == "events"):
            return plots.supply_bars(frame, by, measure=measure)
        # These charts count events: the measure's column would only cost time.
        measured = _MEASURE_COLUMNS[measure]
        if measured != "event_id" and measured not in dims:
            frame = frame.drop(columns=measured)
        if by in TIME_DIMENSIONS and measure == "events":
            return plots.starts_over_time(frame, freq=by, by=by2)
        # The default title runs past the right edge for long names; this one fits.
        title = f"Share of events by {_name(by2)}, per {_name(by)}"
        return plots.stacked_shares(frame, by, by2, title=title)

    # -- text ------------------------------------------------------------------------

    def _filter_notes(self) -> list[str]:
        notes = []
        for name in _FILTERS:
            if name in self.controls and self.controls[name].value:
                notes.append(", ".join(self.controls[name].value))
        if "start" in self.controls:
            slider = self.controls["start"]
            if tuple(slider.index) != (0, len(slider.options) - 1):
                low, high = slider.value
                notes.append(f"start {low} to {high}")
        if self.controls.get("voucher") is not None and self.controls["voucher"].value:
            notes.append("voucher only")
        return notes

    def _status_text(self) -> str:
        parts = [
            f"<b>{self._matched:,}</b> of {self._total_events:,} events match",
            *(html.escape(note) for note in self._filter_notes()),
        ]
        dims = self._dims()
        measure = self.controls["measure"].value
        by2 = self.controls["by2"].value
        if by2 not in (NONE, None, "") and len(dims) == 1:
            parts.append("second dimension ignored: the same as the first")
        elif len(dims) == 2 and measure != "events":
            parts.append(f"chart: shares of events; table: {measure}")
        parts.append(f"updated in {self.seconds:.2f} s")
        return _status_html(" · ".join(parts), self.source)

    def _file_stem(self) -> str:
        dims = "-by-".join(self._dims())
        return f"educatalog-{self.controls['measure'].value}-by-{dims}"

    def _export_clicked(self) -> None:
        try:
            path = self.export()
        except Exception as error:  # shown beside the button
            self._export_status.value = (
                f"<span style='color:#B00020'>Export failed: {html.escape(str(error))}</span>"
            )
            return
        self._export_status.value = f"Written: <code>{html.escape(str(path))}</code>"


# -- filters ---------------------------------------------------------------------------


class _CategoryFilter:
    """A filter on a categorical column: the labels to offer and the rows' codes."""

    def __init__(self, labels: list[str], codes: np.ndarray, has_missing: bool) -> None:
        self.labels = labels + ([MISSING_LABEL] if has_missing else [])
        self.codes = codes  # -1 for a missing value
        self._position = {label: i for i, label in enumerate(labels)}
        self._categories = len(labels)

    @classmethod
    def of(cls, column: pd.Series) -> _CategoryFilter:
        codes = np.asarray(column.cat.codes.to_numpy())
        labels = [str(c) for c in column.cat.categories]
        return cls(labels, codes, bool((codes < 0).any()))

    def mask(self, selected: Sequence[str]) -> np.ndarray | None:
        """Rows whose value is one of ``selected``; None (no filter) when none is."""
        if not selected:
            return None
        keep = np.zeros(self._categories + 1, dtype=bool)  # the last slot: code -1, missing
        for label in selected:
            if label == MISSING_LABEL:
                keep[-1] = True
            elif label in self._position:
                keep[self._position[label]] = True
        return keep[self.codes]


# -- rendering -------------------------------------------------------------------------


def export_frame(table: pd.DataFrame) -> pd.DataFrame:
    """The table as written to files: labels as text (missing ones as
    :data:`educatalog.plots.MISSING_LABEL`), the values as they are."""
    out = table.copy()
    out.index = pd.Index([_label(k) for k in table.index], name=table.index.name)
    out.columns = pd.Index([_label(k) for k in table.columns], name=table.columns.name)
    return out


def table_html(table: pd.DataFrame, totals: Mapping[str, Any] | None = None) -> str:
    """The table as HTML: counts with thousands separators, shares in percent, missing
    groups as :data:`educatalog.plots.MISSING_LABEL`, an optional total row."""
    corner = " / ".join(
        html.escape(_NAMES.get(str(n), str(n))) for n in (table.index.name, table.columns.name) if n
    )
    head = "".join(
        f"<th>{html.escape(_HEADERS.get(_label(c), _label(c)))}</th>" for c in table.columns
    )
    body = []
    for key, row in zip(table.index, table.itertuples(index=False), strict=True):
        cells = "".join(
            f"<td>{_cell(value, column)}</td>"
            for value, column in zip(row, table.columns, strict=True)
        )
        body.append(f"<tr><th>{html.escape(_label(key))}</th>{cells}</tr>")
    foot = ""
    if totals is not None:
        cells = "".join(f"<td>{_cell(totals.get(c, pd.NA), c)}</td>" for c in table.columns)
        foot = f"<tfoot><tr><th>Total</th>{cells}</tr></tfoot>"
    style = (
        "<style>.educatalog-table{border-collapse:collapse;font-size:12px;"
        "font-variant-numeric:tabular-nums}"
        ".educatalog-table th,.educatalog-table td{padding:2px 8px;"
        "border-bottom:1px solid #e3e3e3}"
        ".educatalog-table td{text-align:right}.educatalog-table tbody th{text-align:left;"
        "font-weight:normal}.educatalog-table tfoot th,.educatalog-table tfoot td"
        "{font-weight:bold;border-top:1px solid #999}</style>"
    )
    return (
        f"{style}<div style='max-height:560px;overflow:auto'><table class='educatalog-table'>"
        f"<thead><tr><th>{corner}</th>{head}</tr></thead><tbody>{''.join(body)}</tbody>"
        f"{foot}</table></div>"
    )


def _cell(value: Any, column: Any) -> str:
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return "–"
    if column == "share":
        return f"{float(value) * 100:,.1f} %"
    number = float(value)
    return f"{number:,.0f}" if number.is_integer() else f"{number:,.2f}"


def _name(dimension: str) -> str:
    name = _NAMES.get(dimension, dimension.replace("_", " "))
    return name[0].lower() + name[1:]


def _label(key: Any) -> str:
    if key is None or (not isinstance(key, str) and bool(pd.isna(key))):
        return MISSING_LABEL
    return str(key)


def _status_html(text: str, source: Source | None) -> str:
    if source is None:
        origin = "Source: unknown"
    elif source.demo:
        origin = (
            "<span style='color:#B00020;font-weight:bold'>synthetic demo data</span> "
            f"({html.escape(source.label)})"
        )
    else:
        origin = f"Source: {html.escape(source.label)}"
    return f"<div style='font-size:12px'>{text}<br>{origin}</div>"


def _png(fig: Figure, dpi: int) -> bytes:
    buffer = io.BytesIO()
    with mpl.rc_context(plots.STYLE):
        fig.savefig(buffer, format="png", dpi=dpi)  # not "tight": a second layout, +30 %
    return buffer.getvalue()


def _empty_figure() -> Figure:
    fig = Figure(figsize=(8.0, 2.8))
    fig.text(0.5, 0.55, "No offers match the filters.", ha="center", fontsize=13)
    fig.text(0.5, 0.4, "Change or clear them.", ha="center", fontsize=10, color="#555555")
    return fig


def _distinct_events(event_ids: pd.Series) -> int:
    return int(event_ids.nunique())


def _new_path(folder: Path, stem: str, suffix: str) -> Path:
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / f"{stem}-{stamp}.{suffix}"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{stamp}-{n}.{suffix}"
        n += 1
    return path
