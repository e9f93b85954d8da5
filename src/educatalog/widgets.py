"""An interactive dashboard for exploring course supply in JupyterLab.

>>> offers = educatalog.load_catalogue().offers()  # doctest: +SKIP
>>> educatalog.widgets.explorer(offers)  # last line of a cell: shows it  # doctest: +SKIP

:func:`explorer` counts the offers by one dimension (a labelled or yes/no column of the
frame, or the ``month``, ``quarter`` or ``year`` of the start), optionally split by a
second one, in one of :data:`educatalog.stats.MEASURES`, after filtering by state,
instruction-form category, duration class, start month and voucher eligibility. It shows
the chart (:mod:`educatalog.plots`) and the table (:mod:`educatalog.stats`) side by side,
in one language (``lang="de"``, the default, or ``"en"``). By two dimensions the chart is a
heatmap of the measure, which stays readable with many groups. A link under the table
downloads it as CSV or Excel through the browser (a ``data:`` URI made in the kernel, so it
works in JupyterLab, Voila and JupyterHub alike, where the kernel's disk is not the user's);
:meth:`Explorer.export` writes the same file on the kernel's disk from code.

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

import base64
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

from educatalog import plots, stats, tables, texts
from educatalog.catalogue_data import Source, source_of
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
"""The value of a filter's entry for rows without a value (shown as "ohne Angabe" or
"not stated")."""

_MIME = {
    "csv": "text/csv;charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
_UI: dict[str, tuple[str, str]] = {
    # control or message: (German, English)
    "heading": ("Kursangebot erkunden", "Course supply explorer"),
    "by": ("Zählen nach", "Count by"),
    "by2": ("und nach", "and by"),
    "measure": ("Maß", "Measure"),
    "states": ("Bundesländer", "States"),
    "categories": ("Lernformen", "Forms"),
    "durations": ("Dauer", "Durations"),
    "all": ("{name}: keine Auswahl heißt alle", "{name}: none selected means all"),
    "start": ("Beginn", "Start"),
    "voucher": ("nur mit Bildungsgutschein", "Voucher only"),
    "reset": ("Filter zurücksetzen", "Clear filters"),
    "download": ("Tabelle herunterladen ({format})", "Download the table ({format})"),
    "match": (
        "<b>{n}</b> von {total} Veranstaltungen passen",
        "<b>{n}</b> of {total} events match",
    ),
    "ignored": (
        "zweite Dimension ignoriert: dieselbe wie die erste",
        "second dimension ignored: the same as the first",
    ),
    "updated": ("aktualisiert in {seconds} s", "updated in {seconds} s"),
    "voucher_only": ("nur mit Bildungsgutschein", "voucher only"),
    "range": ("Beginn {low} bis {high}", "start {low} to {high}"),
    "demo": ("synthetische Demodaten", "synthetic demo data"),
    "failed": ("Export fehlgeschlagen: {error}", "Export failed: {error}"),
    "measures": ("Veranstaltungen|Kurse|Anbieter|Plätze", "Events|Courses|Institutions|Places"),
}

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
_NO_MONTH = np.iinfo(np.int64).min


def explorer(
    offers: pd.DataFrame,
    *,
    debounce: float = 0.3,
    export_dir: str | Path | None = None,
    dpi: int = 100,
    lang: str = texts.DEFAULT_LANG,
) -> Explorer:
    """The course-supply dashboard over ``offers`` (:meth:`educatalog.Catalogue.offers`).

    ``debounce`` is the pause in seconds after the last change of a control before the
    dashboard recomputes (0: at once); ``export_dir`` the directory :meth:`Explorer.export`
    writes to (default: the current directory; never a folder inside the package, where a
    notebook opened from the package itself would run); ``dpi`` the resolution of the chart;
    ``lang`` the language of everything shown, ``"de"`` (default) or ``"en"``.
    """
    return Explorer(offers, debounce=debounce, export_dir=export_dir, dpi=dpi, lang=lang)


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
        lang: str = texts.DEFAULT_LANG,
    ) -> None:
        self.lang = texts.check_lang(lang)
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
        self._mask_cache: dict[str, tuple[Any, np.ndarray | None]] = {}
        self._columns: dict[str, Any] = {}  # column arrays for the statistics, by name
        self._unique = bool(offers["event_id"].is_unique)
        self._total_events = self._n if self._unique else _distinct_events(offers["event_id"])
        self._matched = self._total_events
        self._totals: dict[str, Any] | None = None
        self.mask = np.ones(self._n, dtype=bool)
        self.table = pd.DataFrame()
        self.figure = _empty_figure(self.lang)
        self.figure_title: str | None = None

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
        self._download = w.HTML()
        self.outputs: dict[str, w.Widget] = {
            "chart": self._chart,
            "table": self._table_html,
            "status": self._status,
            "download": self._download,
        }
        """The output widgets by name: ``chart`` (an Image of the PNG), ``table`` and
        ``status`` (HTML), ``download`` (HTML: the link that downloads the table in the
        chosen format)."""
        self.widget = self._layout()
        for name, control in self.controls.items():
            if name not in ("format", "reset"):
                control.observe(self._on_change, names="value")
        self.controls["format"].observe(lambda _change: self._update_download(), names="value")
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
        on the kernel's disk, as ``"csv"`` or ``"xlsx"`` (default: the format control's
        choice); returns its path. The same bytes as the download link (:meth:`payload`).
        """
        self.flush()
        suffix = self._suffix(format)
        folder = Path(directory) if directory is not None else self.export_dir
        folder = output_folder(folder, what="exported tables")
        folder.mkdir(parents=True, exist_ok=True)
        path = _new_path(folder, self._file_stem(), suffix)
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
            frame = table.frame.copy()
            for column, kind in table.kinds.items():
                if kind == "share":
                    frame[column] = (frame[column].astype("Float64") * 100).round(2)
            german = self.lang == "de"
            text = frame.to_csv(sep=";" if german else ",", decimal="," if german else ".")
            return ("\ufeff" + text).encode("utf-8")
        buffer = io.BytesIO()
        filters = [
            f"{texts.text('excel.measure', self.lang)}: {self._measure_name()}",
            *self._filter_notes(),
        ]
        tables.write_excel(
            buffer,
            [table],
            lang=self.lang,
            title=table.title,
            source=self.source,
            filters=filters,
        )
        return buffer.getvalue()

    def _suffix(self, format: str | None) -> str:
        suffix = format or FORMATS[self.controls["format"].value]
        suffix = FORMATS.get(suffix, suffix).lower().lstrip(".")
        if suffix not in FORMATS.values():
            raise EducatalogError(f"export() writes csv or xlsx files, not {format!r}.")
        return suffix

    def _presented(self) -> tables.Table:
        title = self.figure_title or self._file_stem()
        return tables.present(self.table, self.lang, title=title, source=self.source)

    def _measure_name(self) -> str:
        return texts.text(f"measure.{self.controls['measure'].value}", self.lang)

    def _update_download(self) -> None:
        """The link that downloads the table in the chosen format, made anew."""
        if self.table.empty:
            self._download.value = ""
            return
        suffix = self._suffix(None)
        try:
            data = base64.b64encode(self.payload(suffix)).decode("ascii")
        except Exception as error:  # shown in place of the link
            message = _ui("failed", self.lang, error=html.escape(str(error)))
            self._download.value = f"<span style='color:#B00020'>{message}</span>"
            return
        name = f"{self._file_stem()}.{suffix}"
        label = _ui("download", self.lang, format=self.controls["format"].value)
        self._download.value = (
            f'<a download="{html.escape(name)}" href="data:{_MIME[suffix]};base64,{data}" '
            f"style='font-weight:bold'>⬇ {html.escape(label)}</a>"
        )

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
                dims[column] = texts.capitalized(texts.dimension(column, self.lang))
        if "event_start_date" in self._offers:
            for name in TIME_DIMENSIONS:
                if name not in dims:
                    dims[name] = texts.capitalized(texts.dimension(name, self.lang))
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
        lang = self.lang
        measures = _ui("measures", lang).split("|")
        controls: dict[str, w.Widget] = {
            "by": w.Dropdown(options=options, value=first, description=_ui("by", lang), style=wide),
            "by2": w.Dropdown(
                options=[(NONE, NONE), *options],
                value=NONE,
                description=_ui("by2", lang),
                style=wide,
            ),
            "measure": w.ToggleButtons(
                options=list(zip(measures, stats.MEASURES, strict=True)),
                value="events",
                description=_ui("measure", lang),
                style={"button_width": "104px", **wide},
            ),
        }
        for name, (column, _description) in _FILTERS.items():
            if name in self._filters:
                labels = self._filters[name].labels
                controls[name] = w.SelectMultiple(
                    options=[
                        (texts.label(v, lang) if v != MISSING_LABEL else texts.missing(lang), v)
                        for v in labels
                    ],
                    value=(),
                    rows=min(8, max(3, len(labels))),
                    description=_ui(name, lang),
                    layout=w.Layout(width="290px"),
                    tooltip=_ui("all", lang, name=texts.capitalized(texts.dimension(column, lang))),
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
                    options=[(texts.label(p, lang), p) for p in periods],
                    index=(0, len(periods) - 1),
                    description=_ui("start", lang),
                    continuous_update=False,
                    layout=w.Layout(width="420px"),
                )
        if self._voucher is not None:
            controls["voucher"] = w.Checkbox(
                value=False, description=_ui("voucher", lang), indent=False
            )
        controls["reset"] = w.Button(description=_ui("reset", lang), icon="filter")
        controls["format"] = w.ToggleButtons(
            options=list(FORMATS), value="CSV", style={"button_width": "70px"}
        )
        return controls

    def _layout(self) -> w.Widget:
        c = self.controls
        dims = w.HBox([c["by"], c["by2"]])
        filters = [c[name] for name in _FILTERS if name in c]
        extra = [c[name] for name in ("start", "voucher", "reset") if name in c]
        return w.VBox(
            [
                w.HTML(f"<b>{_ui('heading', self.lang)}</b>"),
                dims,
                c["measure"],
                w.HBox(filters),
                w.HBox(extra, layout=w.Layout(align_items="center")),
                self._status,
                w.HBox([self._chart, self._table_html], layout=w.Layout(align_items="flex-start")),
                w.HBox([c["format"], self._download], layout=w.Layout(align_items="center")),
            ]
        )

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
                self._status.value = _status_html(
                    f"<span style='color:#B00020'>{html.escape(self.error)}</span>",
                    self.source,
                    self.lang,
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
        t2 = clock()
        self.figure = self._draw(frame, dims, measure)
        self.figure_title = _title(self.figure)
        t3 = clock()
        self._chart.value = _png(self.figure, self.dpi)
        self._chart.tooltip = plots.alt_text(self.figure) or self.figure_title or ""
        t4 = clock()
        self._table_html.value = table_html(
            self.table, self._totals, lang=self.lang, title=self.figure_title
        )
        self._update_download()
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
            stated = events[column].dropna()
            # No event states a maximum: the capacity is unknown, not 0.
            totals[measure] = int(stated.sum()) if len(stated) else pd.NA
        return totals

    def _draw(self, frame: pd.DataFrame, dims: Sequence[str], measure: str) -> Figure:
        """Bars by one dimension; lines of starts over time; by two dimensions a heatmap
        of the measure (the table's numbers), readable also with many groups."""
        by = dims[0]
        by2 = dims[1] if len(dims) > 1 else None
        lang = self.lang
        if not self._matched:
            return _empty_figure(lang)
        if measure == "capacity" and self.table[measure].isna().all():
            return _empty_figure(lang, texts.text("empty.capacity", lang))
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
        notes = []
        lang = self.lang
        for name in _FILTERS:
            if name in self.controls and self.controls[name].value:
                notes.append(
                    ", ".join(
                        texts.missing(lang) if v == MISSING_LABEL else texts.label(v, lang)
                        for v in self.controls[name].value
                    )
                )
        if "start" in self.controls:
            slider = self.controls["start"]
            if tuple(slider.index) != (0, len(slider.options) - 1):
                low, high = (texts.label(p, lang) for p in slider.value)
                notes.append(_ui("range", lang, low=low, high=high))
        if self.controls.get("voucher") is not None and self.controls["voucher"].value:
            notes.append(_ui("voucher_only", lang))
        return notes

    def _status_text(self) -> str:
        lang = self.lang
        matched = texts.number(self._matched, lang)
        total = texts.number(self._total_events, lang)
        parts = [
            _ui("match", lang, n=matched, total=total),
            *(html.escape(note) for note in self._filter_notes()),
        ]
        dims = self._dims()
        by2 = self.controls["by2"].value
        if by2 not in (NONE, None, "") and len(dims) == 1:
            parts.append(_ui("ignored", lang))
        parts.append(_ui("updated", lang, seconds=texts.number(self.seconds, lang, 2)))
        return _status_html(" · ".join(parts), self.source, lang)

    def _file_stem(self) -> str:
        dims = "-by-".join(self._dims())
        return f"educatalog-{self.controls['measure'].value}-by-{dims}"


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
    """The table with its labels as text (missing ones as
    :data:`educatalog.plots.MISSING_LABEL`), the values as they are."""
    out = table.copy()
    out.index = pd.Index([_label(k) for k in table.index], name=table.index.name)
    out.columns = pd.Index([_label(k) for k in table.columns], name=table.columns.name)
    return out


def table_html(
    table: pd.DataFrame,
    totals: Mapping[str, Any] | None = None,
    *,
    lang: str = texts.DEFAULT_LANG,
    title: str | None = None,
) -> str:
    """The table as accessible HTML in ``lang`` (:func:`educatalog.tables.present`):
    headers in words, counts with the language's thousands separators, shares in percent,
    missing groups as "ohne Angabe" / "not stated", an optional total row (a capacity
    nobody states is "–", not 0)."""
    presented = tables.present(table, lang, title=title)
    page = presented.to_html()
    if totals is not None:
        cells = "".join(
            f"<td>{html.escape(presented.cell(totals.get(str(c), pd.NA), h))}</td>"
            for c, h in zip(table.columns, presented.frame.columns, strict=True)
        )
        total = html.escape(texts.text("total", lang))
        foot = f'<tfoot><tr><th scope="row">{total}</th>{cells}</tr></tfoot>'
        page = page.replace("</tbody></table>", f"</tbody>{foot}</table>", 1)
    return f"<div style='max-height:560px;overflow:auto'>{page}</div>"


def _ui(key: str, lang: str, **fields: Any) -> str:
    template = _UI[key][texts.LANGS.index(texts.check_lang(lang))]
    return template.format(**fields) if fields else template


def _label(key: Any) -> str:
    if key is None or (not isinstance(key, str) and bool(pd.isna(key))):
        return MISSING_LABEL
    return str(key)


def _title(fig: Figure) -> str | None:
    axes = fig.axes
    return (axes[0].get_title(loc="left") or None) if axes else None


def _status_html(text: str, source: Source | None, lang: str = texts.DEFAULT_LANG) -> str:
    described = source.text(lang) if source is not None else texts.text("source.unknown", lang)
    origin = html.escape(texts.text("source", lang, source=described))
    if source is not None and source.demo:
        mark = html.escape(_ui("demo", lang))
        origin = f"<span style='color:#B00020;font-weight:bold'>{mark}</span> · {origin}"
    return f"<div style='font-size:12px'>{text}<br>{origin}</div>"


def _png(fig: Figure, dpi: int) -> bytes:
    buffer = io.BytesIO()
    with mpl.rc_context(plots.STYLE):
        fig.savefig(buffer, format="png", dpi=dpi)  # not "tight": a second layout, +30 %
    return buffer.getvalue()


def _empty_figure(lang: str = texts.DEFAULT_LANG, title: str | None = None) -> Figure:
    fig = Figure(figsize=(8.0, 2.8))
    title = title or texts.text("empty.title", lang)
    fig.text(0.5, 0.55, title, ha="center", fontsize=13)
    hint = texts.text("empty.hint", lang)
    fig.text(0.5, 0.4, hint, ha="center", fontsize=10, color="#555555")
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
