"""The explorer dashboard: :func:`explorer` and :class:`Explorer`, which filter the offers,
count them with :mod:`educatalog.stats` and draw them with :mod:`educatalog.plots` on every
(debounced) change of a control."""

from __future__ import annotations

import functools
import html
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import ipywidgets as w
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from educatalog import plots, stats, tables, texts
from educatalog.errors import EducatalogError, UsageError
from educatalog.files.workspace import output_folder
from educatalog.frames.columns import require_columns
from educatalog.frames.provenance import source_of
from educatalog.stats.selection import narrow
from educatalog.widgets.controls import (
    FILTERS,
    NONE,
    TIME_DIMENSIONS,
    CategoryFilter,
    Mask,
    control_layout,
    filter_notes,
    find_dimensions,
    make_controls,
    start_months,
)
from educatalog.widgets.display import (
    MISSING_LABEL,
    empty_figure,
    image_html,
    png_bytes,
    status_html,
    table_html,
    title_of,
    ui_text,
)
from educatalog.widgets.export import (
    csv_bytes,
    download_link,
    file_suffix,
    new_path,
    presented,
    xlsx_bytes,
)
from educatalog.widgets.url_state import State, apply_state, from_query, state_of

__all__ = ["Explorer", "explorer"]

_MEASURE_COLUMNS: dict[str, str] = {
    "events": "event_id",
    "courses": "course_id",
    "institutions": "institution",
    "capacity": "max_participants",
}


def explorer(
    offers: pd.DataFrame,
    *,
    debounce: float = 0.3,
    export_dir: str | Path | None = None,
    dpi: int = 100,
    lang: str = texts.DEFAULT_LANG,
    heading: bool = True,
) -> Explorer:
    """The course-supply dashboard over ``offers`` (:meth:`educatalog.Catalogue.offers`).

    ``debounce`` is the pause in seconds after the last change of a control before the
    dashboard recomputes (0: at once); ``export_dir`` the directory :meth:`Explorer.export`
    writes to (default: the current directory; never a folder inside the package, where a
    notebook opened from the package itself would run); ``dpi`` the resolution of the chart;
    ``lang`` the language of everything shown, ``"de"`` (default) or ``"en"``; ``heading``
    whether the dashboard shows its heading (a page with its own title leaves it out).
    """
    return Explorer(
        offers, debounce=debounce, export_dir=export_dir, dpi=dpi, lang=lang, heading=heading
    )


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
    mask: Mask
    """Which rows of the frame pass the filters (a boolean array)."""
    recomputes: int
    """How often the table and chart were computed."""
    seconds: float
    """How long the last update took (filter, table, chart and its PNG)."""
    error: str | None
    """Why the last update failed, or None."""
    png: bytes
    """The chart shown, as PNG."""
    alt_text: str
    """What the chart shows, in words: the ``alt`` text of its image
    (:func:`educatalog.plots.alt_text`)."""
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
        lang: str = texts.DEFAULT_LANG,
        heading: bool = True,
    ) -> None:
        self.lang = texts.check_lang(lang)
        require_columns(offers, ["event_id"], "explorer()")
        if debounce < 0:
            raise UsageError(f"debounce must be 0 or more seconds, got {debounce!r}.")
        self._offers = offers
        self._n = len(offers)
        self.debounce = float(debounce)
        self.export_dir = Path(export_dir) if export_dir is not None else Path.cwd()
        self.dpi = dpi
        self.source = source_of(offers)
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
        self._mask_cache: dict[str, tuple[Any, Mask | None]] = {}
        self._columns: dict[str, Any] = {}  # column arrays for the statistics, by name
        self._unique = bool(offers["event_id"].is_unique)
        self._total_events = self._n if self._unique else _distinct_events(offers["event_id"])
        self._matched = self._total_events
        # The filters and view of the table shown, taken as its update began (status, export)
        self._notes: list[str] = []
        self._shown: tuple[list[str], str, bool] = (["state"], "events", False)
        self._totals: dict[str, Any] | None = None
        self._full = pd.DataFrame()  # the table with its totals (margins)
        self.mask = np.ones(self._n, dtype=np.bool_)
        self.table = pd.DataFrame()
        self.figure = empty_figure(self.lang)
        self.figure_title: str | None = None
        self.png = b""
        self.alt_text = ""

        self._dimensions = find_dimensions(offers, self.lang)
        self._filters = {
            name: CategoryFilter.of(offers[column])
            for name, (column, _) in FILTERS.items()
            if column in offers and isinstance(offers[column].dtype, pd.CategoricalDtype)
        }
        self._months = start_months(offers)
        self._voucher: Mask | None = (
            offers["education_voucher"].astype("boolean").fillna(False).to_numpy(dtype=np.bool_)
            if "education_voucher" in offers
            else None
        )
        self.controls = make_controls(
            self._dimensions, self._filters, self._months, self._voucher is not None, self.lang
        )
        # The chart as an <img> in HTML, not an ipywidgets Image: a browser reads its alt
        # text, and an Image with a tooltip fails to render (ipywidgets 8.1).
        # Chart and table side by side where both fit, the table below the chart where not;
        # the table at its own width (at most the page's, scrolling within), the chart the rest.
        self._chart = w.HTML(layout=w.Layout(flex="3 1 420px", min_width="320px"))
        self._table_html = w.HTML(
            layout=w.Layout(flex="2 1 320px", min_width="min-content", max_width="100%")
        )
        self._status = w.HTML()
        self._download = w.HTML()
        self.outputs: dict[str, w.Widget] = {
            "chart": self._chart,
            "table": self._table_html,
            "status": self._status,
            "download": self._download,
        }
        """The output widgets by name: ``chart`` (HTML: the PNG in an ``<img>`` with its
        alt text), ``table`` and
        ``status`` (HTML), ``download`` (HTML: the link that downloads the table in the
        chosen format)."""
        self.widget = control_layout(self.controls, self.outputs, self.lang, heading=heading)
        # Stable names for style sheets and browser tests: educatalog-explorer, and
        # educatalog-explorer-<name> on every control and output (-states, -chart, ...).
        self.widget.add_class("educatalog-explorer")
        for name, part in (*self.controls.items(), *self.outputs.items()):
            part.add_class(f"educatalog-explorer-{name}")
        for name, control in self.controls.items():
            if name not in ("format", "reset"):
                control.observe(self._on_change, names="value")
        self.controls["format"].observe(lambda _change: self._update_download(), names="value")
        self.controls["reset"].on_click(lambda _button: self.reset())
        self.refresh()

    # -- display ---------------------------------------------------------------------

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        bundle: object = self.widget._repr_mimebundle_(**kwargs)
        if isinstance(bundle, dict):
            return {**bundle, "text/plain": repr(self)}
        return None

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)  # type: ignore[no-untyped-call]  # IPython's display is unannotated

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
                self._status.value = status_html(
                    f"<span style='color:#B00020'>{html.escape(str(error))}</span>",
                    self.source,
                    self.lang,
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
        with self.holding():
            for name in ("states", "categories", "durations"):
                if name in self.controls:
                    self.controls[name].value = ()
            if "start" in self.controls:
                slider = self.controls["start"]
                slider.index = (0, len(slider.options) - 1)
            if "voucher" in self.controls:
                self.controls["voucher"].value = False

    @property
    def state(self) -> State:
        """The view the controls show, without their defaults: ``{"by": "duration_class",
        "states": ["Bayern"], ...}`` (:mod:`educatalog.widgets.url_state`)."""
        return state_of(self)

    def set_state(self, state: Mapping[str, Any] | str) -> list[str]:
        """Show the view ``state`` (a mapping like :attr:`state`, or a URL query string):
        controls it leaves out go back to their defaults, and the dashboard updates once.
        Returns what it could not use (an unknown state, a month outside the data), in
        words; the rest is applied."""
        return apply_state(self, from_query(state) if isinstance(state, str) else state)

    def export(self, format: str | None = None, directory: str | Path | None = None) -> Path:
        """Write the current table to a new file in ``directory`` (default: ``export_dir``)
        on the kernel's disk, as ``"csv"`` or ``"xlsx"`` (default: the format control's
        choice); returns its path. The same bytes as the download link (:meth:`payload`).
        """
        self.flush()
        suffix = self._suffix(format)
        folder = Path(directory) if directory is not None else self.export_dir
        folder = output_folder(folder, what="exported tables")
        folder.mkdir(parents=True, exist_ok=True)
        path = new_path(folder, self._file_stem(), suffix)
        path.write_bytes(self.payload(suffix))
        self.exported = path
        return path

    def payload(self, format: str | None = None) -> bytes:
        """The current table as a file's bytes: ``"csv"`` (UTF-8 with BOM; in German with
        ``;`` between fields and a decimal comma, as German Excel reads it; shares in
        percent) or ``"xlsx"`` (:func:`educatalog.tables.write_excel`: a sheet on the source,
        measure, filters and demo mark, then the table with number formats). Headers and
        labels are in words, in the explorer's language."""
        suffix = self._suffix(format)
        table = self._presented()
        if suffix == "csv":
            return csv_bytes(table)
        return xlsx_bytes(table, self.source, self._notes)

    def _suffix(self, format: str | None) -> str:
        return file_suffix(format, self.controls["format"].value)

    def _presented(self) -> tables.Table:
        """The table with its totals for readers, the measure named under it."""
        title = self.figure_title or self._file_stem()
        measure = f"{texts.text('excel.measure', self.lang)}: {self._measure_name()}"
        return presented(self._full, self.lang, title, self.source, measure)

    def _measure_name(self) -> str:
        return texts.text(f"measure.{self.controls['measure'].value}", self.lang)

    def _update_download(self) -> None:
        """The link that downloads the table in the chosen format, made anew."""
        if self.table.empty:
            self._download.value = ""
            return
        suffix = self._suffix(None)
        try:
            data = self.payload(suffix)
        except Exception as error:  # shown in place of the link
            message = ui_text("failed", self.lang, error=html.escape(str(error)))
            self._download.value = f"<span style='color:#B00020'>{message}</span>"
            return
        name = f"{self._file_stem()}.{suffix}"
        label = ui_text("download", self.lang, format=self.controls["format"].value)
        self._download.value = download_link(data, name, suffix, label)

    def close(self) -> None:
        """Stop a pending update and close the widgets."""
        with self._lock:
            self._cancel_timer()
            self._due = False
            self._idle.notify_all()
        self._close_widgets()

    def _close_widgets(self) -> None:
        for control in self.controls.values():
            control.close()
        for widget in (self._chart, self._table_html, self._status, self._download):
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
                self._status.value = status_html(
                    f"<span style='color:#B00020'>{html.escape(self.error)}</span>",
                    self.source,
                    self.lang,
                )

    def _cancel_timer(self) -> None:
        timer, self._timer = self._timer, None
        if timer is not None and timer is not threading.current_thread():
            timer.cancel()

    @contextmanager
    def holding(self) -> Iterator[None]:
        """Change several controls in the block, then update once (debounced as usual).

        >>> with explorer.holding():  # doctest: +SKIP
        ...     explorer.controls["by"].value = "duration_class"
        ...     explorer.controls["states"].value = ("Bayern",)
        """
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
        dims = self._dims()
        measure = self.controls["measure"].value
        ignored = self.controls["by2"].value not in (NONE, None, "") and len(dims) == 1
        self._notes, self._shown = self._filter_notes(), (dims, measure, ignored)
        self.mask = self._mask()
        frame = self._frame(self.mask, dims, measure)
        self._matched = (
            int(self.mask.sum()) if self._unique else _distinct_events(frame["event_id"])
        )
        t1 = clock()
        # With its totals (stats' margins): shown below the table, and in the export.
        if len(dims) == 1:
            full = stats.supply(frame, dims[0], normalize="all", margins=True)
            covered = ["events_with_capacity"] if measure == "capacity" else []  # places' cover
            full = full[["events", *([measure] if measure != "events" else []), *covered, "share"]]
            self.table = full.iloc[:-1]
            self._totals = {str(k): v for k, v in full.iloc[-1].items()}
        else:
            full = stats.crosstab(frame, dims[0], dims[1], measure=measure, margins=True)
            self.table, self._totals = full.iloc[:-1, :-1], None
        self._full = full
        t2 = clock()
        self.figure = self._draw(frame, dims, measure)
        self.figure_title = title_of(self.figure)
        t3 = clock()
        self.png = png_bytes(self.figure, self.dpi)
        self.alt_text = plots.alt_text(self.figure) or self.figure_title or ""
        self._chart.value = image_html(self.png, self.alt_text)
        t4 = clock()
        self._table_html.value = table_html(
            self.table, self._totals, lang=self.lang, title=self.figure_title
        )
        self._update_download()
        self.timings = {"filter": t1 - t0, "table": t2 - t1, "chart": t3 - t2, "png": t4 - t3}

    def _mask(self) -> Mask:
        parts: list[Mask | None] = []
        for name, flt in self._filters.items():
            selected = tuple(self.controls[name].value)
            parts.append(self._cached(name, selected, functools.partial(flt.mask, selected)))
        if "start" in self.controls and self._months is not None:
            slider = self.controls["start"]
            index = tuple(slider.index)
            parts.append(self._cached("start", index, lambda: self._start_mask(index)))
        if "voucher" in self.controls:
            voucher = bool(self.controls["voucher"].value)
            parts.append(self._voucher if voucher else None)
        mask = np.ones(self._n, dtype=np.bool_)
        for part in parts:
            if part is not None:
                mask &= part
        return mask

    def _cached(self, name: str, key: Any, compute: Callable[[], Mask | None]) -> Mask | None:
        cached = self._mask_cache.get(name)
        if cached is not None and cached[0] == key:
            return cached[1]
        mask = compute()
        self._mask_cache[name] = (key, mask)
        return mask

    def _start_mask(self, index: tuple[int, int]) -> Mask | None:
        slider = self.controls["start"]
        if index == (0, len(slider.options) - 1):
            return None  # the whole time, also events without a start date
        values: list[pd.Period] = [value for _label, value in slider.options]
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

    def _frame(self, mask: Mask, dims: Sequence[str], measure: str) -> pd.DataFrame:
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
        for name, (column, _description) in FILTERS.items():
            chosen = self.controls[name].value if name in self.controls else ()
            if chosen and column in frame:  # a filter narrows the levels: no zero rows
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
        if not self._matched:
            return empty_figure(lang)
        # by one dimension the table has a column per measure, by two the measure's cells
        shown = self.table[[measure]] if by2 is None else self.table
        if measure == "capacity" and shown.isna().all(axis=None):
            return empty_figure(lang, texts.text("empty.capacity", lang))
        if by2 is None and not (by in TIME_DIMENSIONS and measure == "events"):
            return plots.supply_bars(frame, by, measure=measure, lang=lang, source=self.source)
        if (
            by in TIME_DIMENSIONS
            and measure == "events"
            and (by2 is None or len(self.table.columns) <= 8)
        ):
            return plots.starts_over_time(frame, freq=by, by=by2, lang=lang, source=self.source)
        assert by2 is not None
        return plots.heatmap(
            frame, by, by2, normalize=False, measure=measure, lang=lang, source=self.source
        )

    # -- text ------------------------------------------------------------------------

    def _filter_notes(self) -> list[str]:
        return filter_notes(self.controls, self.lang)

    def _status_text(self) -> str:
        lang = self.lang
        matched = texts.number(self._matched, lang)
        total = texts.number(self._total_events, lang)
        parts = [
            ui_text("match", lang, n=matched, total=total),
            *(html.escape(note) for note in self._notes),
        ]
        if self._shown[2]:  # the second dimension was the first one
            parts.append(ui_text("ignored", lang))
        parts.append(ui_text("updated", lang, seconds=texts.number(self.seconds, lang, 2)))
        return status_html(" · ".join(parts), self.source, lang)

    def _file_stem(self) -> str:
        dims, measure, _ignored = self._shown
        return f"educatalog-{measure}-by-{'-by-'.join(dims)}"


def _distinct_events(event_ids: pd.Series) -> int:
    return int(event_ids.nunique())
