"""Publication-ready charts of course supply: matplotlib figures for reports.

>>> offers = educatalog.load_catalogue().offers()                  # doctest: +SKIP
>>> fig = plots.supply_bars(offers, by="state")                    # doctest: +SKIP
>>> plots.save(fig, "supply.png")                                  # doctest: +SKIP
>>> fig, axes = plt.subplots(1, 2, layout="constrained")           # doctest: +SKIP
>>> plots.tile_map(offers, ax=axes[0]); plots.heatmap(offers, ax=axes[1])  # doctest: +SKIP
>>> plots.district_map(offers, state="Bayern", lang="en")          # doctest: +SKIP

Every chart takes the frame of offers (:meth:`educatalog.Catalogue.offers`), computes its
numbers with :mod:`educatalog.stats` and returns a :class:`matplotlib.figure.Figure`: a new
one of report size, or the figure of ``ax`` when given an Axes to draw into. New figures are
made with :class:`~matplotlib.figure.Figure`, not pyplot, so nothing accumulates in pyplot's
list of open figures (in a notebook, show one with ``display(fig)``).

All charts share one look (:data:`STYLE`, applied with :func:`matplotlib.rc_context`) and
speak one language, ``lang="de"`` (default) or ``"en"`` (:mod:`educatalog.texts`): a title
that names the measure and the dimension, axis labels with units, numbers formatted by
Babel (``1.635`` / ``1,635``, ``10 %`` / ``10%``), the labels of the data as the catalogue
gives them (in English the states, categories and duration classes translated) and one
label for a missing value ("ohne Angabe" / "not stated", also for the catalogue's "Keine
Angabe"). A source line sits at the bottom left of the figure ("Quelle: " and
:meth:`educatalog.Source.text`); the source is the frame's
(:func:`educatalog.frames.provenance.source_of`: its attrs, or the catalogue whose rows it
holds after a ``merge`` or ``concat``), or
``source=`` where you state it. Where it cannot be known, the line says so. When the data
are the synthetic demo catalogue, a diagonal watermark and a corner label say so
("SYNTHETISCHE DEMODATEN" / :data:`DEMO_MARK`), so that a demo chart is never mistaken for
real data. Every chart carries a text alternative (:func:`alt_text`) that says what it
shows; the report puts it on the image. In a figure of your own, use
``layout="constrained"`` so that the source line gets room of its own.

The charts by family: :mod:`~educatalog.plots.supply` (bars, the tile map of the states),
:mod:`~educatalog.plots.districts` (the map of the 400 districts),
:mod:`~educatalog.plots.distributions` (stacked shares, heatmap),
:mod:`~educatalog.plots.costs` (boxplots),
:mod:`~educatalog.plots.subjects` (subject areas), :mod:`~educatalog.plots.trends` (starts per
period, trends over snapshots); what they share (look, figure, source line, demo mark, text
alternative, saving) is in ``_setup``. Importing the package leaves IPython alone; a chart
registers its inline display there when drawn (:func:`register_notebook_display`).
"""

from __future__ import annotations

from educatalog.plots._frames import PER_100K
from educatalog.plots._setup import (
    BAR_COLOR,
    DEMO_MARK,
    HEATMAP_CMAP,
    LINE_PALETTE,
    MISSING_COLOR,
    MISSING_LABEL,
    PALETTE,
    SEQUENTIAL_CMAP,
    STYLE,
    TEXT_COLOR,
    add_note,
    alt_text,
    save,
)
from educatalog.plots.costs import cost_boxplot
from educatalog.plots.display import register_notebook_display
from educatalog.plots.distributions import heatmap, stacked_shares
from educatalog.plots.districts import district_map
from educatalog.plots.subjects import subject_bars
from educatalog.plots.supply import TILE_GRID, supply_bars, tile_map
from educatalog.plots.trends import starts_over_time, trend
from educatalog.texts import population_text

__all__ = [
    "BAR_COLOR",
    "DEMO_MARK",
    "HEATMAP_CMAP",
    "LINE_PALETTE",
    "MISSING_COLOR",
    "MISSING_LABEL",
    "PALETTE",
    "PER_100K",
    "SEQUENTIAL_CMAP",
    "STYLE",
    "TEXT_COLOR",
    "TILE_GRID",
    "add_note",
    "alt_text",
    "cost_boxplot",
    "district_map",
    "heatmap",
    "population_text",
    "register_notebook_display",
    "save",
    "stacked_shares",
    "starts_over_time",
    "subject_bars",
    "supply_bars",
    "tile_map",
    "trend",
]
