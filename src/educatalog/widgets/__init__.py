"""An interactive dashboard for exploring course supply in JupyterLab.

>>> offers = educatalog.load_catalogue().offers()  # doctest: +SKIP
>>> educatalog.widgets.explorer(offers)  # last line of a cell: shows it  # doctest: +SKIP

:func:`explorer` counts the offers by one dimension (a labelled or yes/no column of the
frame, or the ``month``, ``quarter`` or ``year`` of the start), optionally split by a
second one, in one of :data:`educatalog.stats.MEASURES`, after filtering by state,
district (those of the states chosen), instruction-form category, duration class, start
month and voucher eligibility. It shows the chart (:mod:`educatalog.plots`) and the table
(:mod:`educatalog.stats`) side by side, in one language (``lang="de"``, the default, or
``"en"``). By two dimensions the chart is a heatmap of the measure, which stays readable
with many groups; a dimension of many groups (the 400 districts) is charted by its largest,
the table lists all. In place of the chart, the map of the districts
(:func:`educatalog.plots.district_map`) shows the offers that pass the filters. A link
under the table downloads it as CSV or Excel through the browser (a ``data:`` URI made in
the kernel, so it works in JupyterLab, Voila and JupyterHub alike, where the kernel's disk
is not the user's); :meth:`Explorer.export` writes the same file on the kernel's disk from
code.

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

The explorer is a model and a view. :class:`ExplorerModel` holds the filters, the view
chosen (a :class:`View`), the caches and the numbers, without widgets; :class:`Explorer`
is the widgets over one (:attr:`Explorer.model`): a control's change changes the model's
view, the model recomputes (debounced) and the widgets render what it holds.

The package's modules (private ones underscored, their public names exported here):
``_explorer`` (:class:`Explorer` and :func:`explorer`, the widgets), ``_model``
(:class:`ExplorerModel`), ``_data`` (:class:`ExplorerData`: the offers and what many
explorers share, as the dashboard's visitors do; :class:`Recent`, the values computed
last), ``_choices`` (the dimensions, filters, options and
:class:`View`), ``_debounce`` (the pause before an update, its clock given),
:mod:`~educatalog.widgets.controls` (the controls and their layout),
:mod:`~educatalog.widgets.aria` (what a screen reader hears of the controls, the style
sheet: a focus ring, rows that wrap),
:mod:`~educatalog.widgets.url_state` (a view as a link),
:mod:`~educatalog.widgets.export` (the table as a file) and
:mod:`~educatalog.widgets.display` (HTML, PNG and the dashboard's words). The widgets are
imported on first use of :class:`Explorer` or :func:`explorer`: the model needs none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from educatalog.widgets._choices import NONE, TIME_DIMENSIONS, View
from educatalog.widgets._data import ExplorerData, Recent
from educatalog.widgets._model import ExplorerModel
from educatalog.widgets.display import MISSING_LABEL as MISSING_LABEL
from educatalog.widgets.display import export_frame as export_frame
from educatalog.widgets.display import table_html as table_html
from educatalog.widgets.export import FORMATS

if TYPE_CHECKING:
    from educatalog.widgets._explorer import Explorer, explorer

__all__ = [
    "FORMATS",
    "NONE",
    "TIME_DIMENSIONS",
    "Explorer",
    "ExplorerData",
    "ExplorerModel",
    "Recent",
    "View",
    "explorer",
]

_WIDGETS = ("Explorer", "explorer")
"""The names that need ipywidgets, imported on first use."""


def __getattr__(name: str) -> Any:
    if name in _WIDGETS:
        import importlib

        return getattr(importlib.import_module("educatalog.widgets._explorer"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_WIDGETS})
