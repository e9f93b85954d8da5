"""The explorer dashboard: :func:`explorer` and :class:`Explorer`, the widgets over an
:class:`~educatalog.widgets._model.ExplorerModel`. A change of a control changes the
model's view; the model recomputes (debounced) and the widgets render what it holds."""

from __future__ import annotations

import html
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from educatalog.errors import require

require("widgets", "ipywidgets", "IPython", what="The explorer (educatalog.widgets.explorer)")

import ipywidgets as w
import pandas as pd
from matplotlib.figure import Figure

from educatalog import texts
from educatalog.frames.provenance import Source
from educatalog.widgets._choices import FILTERS, NONE, Mask
from educatalog.widgets._data import ExplorerData
from educatalog.widgets._debounce import Scheduler, thread_timer
from educatalog.widgets._model import ExplorerModel
from educatalog.widgets.controls import control_layout, make_controls, make_outputs, show_view
from educatalog.widgets.display import (
    image_html,
    status_html,
    status_text,
    table_output,
    ui_text,
)
from educatalog.widgets.export import download_link
from educatalog.widgets.url_state import State

__all__ = ["Explorer", "explorer"]

_FIELDS = ("by", "by2", "measure", "show", *FILTERS, "voucher", "format")
"""The controls whose value is the view's field of the same name."""


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
    ("Bayern",)``) to change it from code; :meth:`refresh` recomputes at once. The numbers
    and the view chosen live in :attr:`model`, which the widgets follow. ``scheduler``
    runs the debounced updates (:class:`educatalog.widgets.ExplorerModel`).
    """

    def __init__(
        self,
        offers: pd.DataFrame | ExplorerData,
        *,
        debounce: float = 0.3,
        export_dir: str | Path | None = None,
        dpi: int = 100,
        lang: str = texts.DEFAULT_LANG,
        heading: bool = True,
        scheduler: Scheduler = thread_timer,
    ) -> None:
        self.model = ExplorerModel(
            offers,
            debounce=debounce,
            export_dir=export_dir,
            dpi=dpi,
            lang=lang,
            scheduler=scheduler,
        )
        """The filters, the view chosen and its numbers, without widgets."""
        model = self.model
        self.controls = make_controls(model.choices(), model.view, model.has_voucher, model.lang)
        """The controls by name (``states``, ``measure``, ...), whose ``value`` can be set."""
        self.outputs: dict[str, w.Widget] = make_outputs()
        """The output widgets by name: ``chart`` (HTML: the PNG in an ``<img>`` with its
        alt text), ``table`` and ``status`` (HTML), ``download`` (HTML: the link that
        downloads the table in the chosen format)."""
        self._download = self.outputs["download"]  # tests/product/test_workspace.py reads it
        start = model.options.get("start", [])  # the months, for a screen reader
        self.widget = control_layout(self.controls, self.outputs, model.lang, heading, start)
        """The dashboard's widget, to display."""
        # Stable names for style sheets and browser tests: educatalog-explorer, and
        # educatalog-explorer-<name> on every control and output (-states, -chart, ...).
        self.widget.add_class("educatalog-explorer")
        for name, part in (*self.controls.items(), *self.outputs.items()):
            part.add_class(f"educatalog-explorer-{name}")
        self._syncing = False  # the controls are being set to the model's view
        self._format = ""  # the format of the download link shown
        for name, control in self.controls.items():
            if name != "reset":
                control.observe(self._on_change, names="value")
        self.controls["reset"].on_click(lambda _button: self.reset())
        model.subscribe(self._on_model)
        self._render()

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
        view, m = self.model.view, self.model
        what = f"{view.measure} by {view.by}" + (f" and {view.by2}" if view.by2 != NONE else "")
        return f"<Explorer: {what}; {m.matched:,} of {m.total_events:,} events match>"

    # -- the model's state, for code -------------------------------------------------

    @property
    def table(self) -> pd.DataFrame:
        """The table shown (:attr:`ExplorerModel.table`)."""
        return self.model.table

    @property
    def figure(self) -> Figure:
        """The chart shown."""
        return self.model.figure

    @property
    def figure_title(self) -> str | None:
        """The chart's title, or None."""
        return self.model.figure_title

    @property
    def png(self) -> bytes:
        """The chart shown, as PNG."""
        return self.model.png

    @property
    def alt_text(self) -> str:
        """What the chart shows, in words: the ``alt`` text of its image."""
        return self.model.alt_text

    @property
    def mask(self) -> Mask:
        """Which rows of the frame pass the filters (a boolean array)."""
        return self.model.mask

    @property
    def filtered(self) -> pd.DataFrame:
        """The offers that pass the filters (all columns of the frame)."""
        return self.model.filtered

    @property
    def dimensions(self) -> list[str]:
        """The dimensions one can count by: labelled and yes/no columns, month, quarter, year."""
        return list(self.model.dimensions)

    @property
    def recomputes(self) -> int:
        """How often the table and chart were computed."""
        return self.model.recomputes

    @property
    def seconds(self) -> float:
        """How long the last update took (filter, table, chart and its PNG)."""
        return self.model.seconds

    @property
    def timings(self) -> dict[str, float]:
        """Seconds of the last update's steps: ``filter``, ``table``, ``chart``, ``png``."""
        return self.model.timings

    @property
    def error(self) -> str | None:
        """Why the last update failed, or None."""
        return self.model.error

    @property
    def lang(self) -> str:
        """The language of everything shown."""
        return self.model.lang

    @property
    def source(self) -> Source | None:
        """Where the offers come from (:func:`educatalog.frames.provenance.source_of`)."""
        return self.model.source

    @property
    def dpi(self) -> int:
        """The chart's resolution."""
        return self.model.dpi

    @property
    def debounce(self) -> float:
        """The pause in seconds after the last change of a control before it recomputes."""
        return self.model.debounce

    @debounce.setter
    def debounce(self, seconds: float) -> None:
        self.model.debounce = seconds

    @property
    def export_dir(self) -> Path:
        """Where :meth:`export` writes by default."""
        return self.model.export_dir

    @export_dir.setter
    def export_dir(self, folder: str | Path) -> None:
        self.model.export_dir = Path(folder)

    @property
    def exported(self) -> Path | None:
        """The file :meth:`export` wrote last, or None."""
        return self.model.exported

    @property
    def pending(self) -> bool:
        """Whether a debounced update is still waiting to run or running."""
        return self.model.pending

    @property
    def state(self) -> State:
        """The view the controls show, without their defaults: ``{"by": "duration_class",
        "states": ["Bayern"], ...}`` (:mod:`educatalog.widgets.url_state`)."""
        return self.model.state

    # -- actions ---------------------------------------------------------------------

    def refresh(self) -> None:
        """Filter, compute the table and draw the chart now, from the controls' values."""
        self.model.refresh()

    def flush(self) -> None:
        """Run a pending debounced update now (nothing when none is waiting)."""
        self.model.flush()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until no debounced update is pending; False if ``timeout`` seconds passed."""
        return self.model.wait(timeout)

    def reset(self) -> None:
        """Clear every filter (all states, districts, forms, durations, subject areas, the
        whole time, every offer)."""
        self.model.reset()

    def set_state(self, state: Mapping[str, Any] | str) -> list[str]:
        """Show the view ``state`` (a mapping like :attr:`state`, or a URL query string):
        controls it leaves out go back to their defaults, and the dashboard updates once.
        Returns what it could not use (an unknown state, a month outside the data), in
        words; the rest is applied."""
        return self.model.set_state(state)

    def export(self, format: str | None = None, directory: str | Path | None = None) -> Path:
        """Write the current table to a new file in ``directory`` (default: ``export_dir``)
        on the kernel's disk, as ``"csv"`` or ``"xlsx"`` (default: the format control's
        choice); returns its path. The same bytes as the download link (:meth:`payload`).
        """
        return self.model.export(format, directory)

    def payload(self, format: str | None = None) -> bytes:
        """The current table as a file's bytes, ``"csv"`` or ``"xlsx"``
        (:meth:`ExplorerModel.payload`), in the explorer's language."""
        return self.model.payload(format)

    @contextmanager
    def holding(self) -> Iterator[None]:
        """Change several controls in the block, then update once (debounced as usual).

        >>> with explorer.holding():  # doctest: +SKIP
        ...     explorer.controls["by"].value = "duration_class"
        ...     explorer.controls["states"].value = ("Bayern",)
        """
        with self.model.holding():
            yield

    def close(self) -> None:
        """Stop a pending update and close the widgets."""
        self.model.close()
        for part in (*self.controls.values(), *self.outputs.values()):
            part.close()
        self.widget.close()

    # -- controls to the model, the model to the widgets -----------------------------

    def _on_change(self, _change: Mapping[str, Any]) -> None:
        """A control changed: the model's view with its value."""
        if self._syncing:
            return
        c = self.controls
        changes = {name: c[name].value for name in _FIELDS if name in c}
        for name in FILTERS:
            if name in changes:
                changes[name] = tuple(changes[name])
        if "start" in c:
            changes["window"] = tuple(c["start"].index)
        self.model.update(**changes)

    def _on_model(self, event: str) -> None:
        if event == "view":
            self._show_view()
            if self.model.view.format != self._format:
                self._update_download()
        else:
            self._render()

    def _show_view(self) -> None:
        """Set the controls to the model's view (without telling the model again)."""
        self._syncing = True
        try:
            show_view(self.controls, self.model.view, self.model.choices(), _FIELDS)
        finally:
            self._syncing = False

    def _render(self) -> None:
        """The outputs for the model's numbers (the status only, when they failed)."""
        m = self.model
        if m.error is not None:
            failed = f"<span style='color:#B00020'>{html.escape(m.error)}</span>"
            self.outputs["status"].value = status_html(
                failed, m.source, m.lang, updates=m.recomputes
            )
            return
        self.outputs["chart"].value = image_html(m.png, m.alt_text)
        self.outputs["table"].value = table_output(m)
        self._update_download()
        self.outputs["status"].value = status_text(self.model)

    def _update_download(self) -> None:
        """The link that downloads the table in the chosen format, made anew."""
        self._format = self.model.view.format
        self.outputs["download"].value = download_html(self.model)


def download_html(model: ExplorerModel) -> str:
    """The link that downloads the model's table in its view's format (none for no table;
    in its place why the file failed)."""
    if model.table.empty:
        return ""
    suffix = model.suffix()
    try:
        data = model.payload(suffix)
    except Exception as error:  # shown in place of the link
        message = ui_text("failed", model.lang, error=html.escape(str(error)))
        return f"<span style='color:#B00020'>{message}</span>"
    label = ui_text("download", model.lang, format=model.view.format)
    return download_link(data, f"{model.file_stem}.{suffix}", suffix, label)
