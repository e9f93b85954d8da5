"""The ``df.edu`` accessor: the statistics and charts of educatalog on any DataFrame.

>>> offers = educatalog.load_catalogue().offers()  # doctest: +SKIP
>>> offers.edu.supply(by="state")                           # doctest: +SKIP
>>> offers.edu.supply(by=["state", "instruction_form"], normalize="index")  # doctest: +SKIP
>>> offers.edu.per_capita()                                 # doctest: +SKIP
>>> offers.edu.share("education_voucher", by="state")       # doctest: +SKIP
>>> offers.edu.plot.supply(by="state")                      # doctest: +SKIP
>>> events.edu.labels(catalogue)  # reference ids -> names  # doctest: +SKIP

Importing :mod:`educatalog` registers it. Every method is thin over :mod:`educatalog.stats`
and :mod:`educatalog.plots`, where the arguments are documented; what each number means is
defined in ``docs/definitions.md``. A wrong dimension, measure or option fails with the
valid choices and the nearest one. matplotlib is imported on the first chart only; in
IPython the charts then show inline (:func:`educatalog.plots.register_notebook_display`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from educatalog import stats
from educatalog.errors import MissingColumns, UsageError, did_you_mean
from educatalog.frames.provenance import SOURCE_ATTR, Source
from educatalog.model.schema import SCHEMA

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from educatalog.frames.catalogue import Catalogue

__all__ = ["REFERENCE_COLUMNS", "EduAccessor", "PlotAccessor"]

REFERENCE_COLUMNS: dict[str, str] = {
    f.name: f.relation.related
    for c in SCHEMA.of_kind("entity", "reference")
    for f in c.fields
    if f.relation is not None
    and f.relation.kind == "m2o"
    and SCHEMA[f.relation.related].kind == "reference"
}
"""Field name -> the reference list its ids point into (``state`` -> ``states`` ...)."""


@pd.api.extensions.register_dataframe_accessor("edu")
class EduAccessor:
    """Course-supply statistics and charts of a frame of offers (``df.edu``)."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self._frame = frame

    @property
    def plot(self) -> PlotAccessor:
        """The charts of :mod:`educatalog.plots` (``df.edu.plot.supply(by="state")``)."""
        return PlotAccessor(self._frame)

    def supply(
        self, by: str | Sequence[str] = "state", *, normalize: Any = "all", **options: Any
    ) -> pd.DataFrame:
        """Events, courses, institutions, capacity and share by ``by``; ``dropna``,
        ``margins`` (a total row) as :func:`educatalog.stats.supply` takes them."""
        return stats.supply(self._frame, by, normalize=normalize, **options)

    def select(self, **levels: Any) -> pd.DataFrame:
        """The offers of the given levels and start dates, the levels narrowed to those the
        selection admits (:func:`educatalog.stats.select`):
        ``offers.edu.select(state=["Bayern", "Sachsen"], start="2025-01-01")``."""
        return stats.select(self._frame, **levels)

    def crosstab(self, rows: str, columns: str, **options: Any) -> pd.DataFrame:
        """One measure as a wide table (:func:`educatalog.stats.crosstab`)."""
        return stats.crosstab(self._frame, rows, columns, **options)

    def per_capita(self, **options: Any) -> pd.DataFrame:
        """Offers per 100,000 inhabitants by state (:func:`educatalog.stats.per_capita`)."""
        return stats.per_capita(self._frame, **options)

    def capacity(self, by: str | Sequence[str] = "state") -> pd.DataFrame:
        """Places on offer by ``by`` (:func:`educatalog.stats.capacity`)."""
        return stats.capacity(self._frame, by)

    def costs(self, by: str | Sequence[str] | None = None, **options: Any) -> pd.DataFrame:
        """Cost quartiles per currency and ``by``, each course once (``per="course"``) or
        each event once (``per="event"``); ``currency``, ``margins``
        (:func:`educatalog.stats.costs`)."""
        return stats.costs(self._frame, by, **options)

    def share(
        self,
        column: str,
        by: str | Sequence[str] | None = None,
        *,
        unknown: stats.Unknown = "exclude",
        value: Any = True,
        dropna: bool = False,
    ) -> pd.DataFrame:
        """The share of events whose ``column`` is ``value`` (a yes/no column: True), by
        ``by``; ``unknown`` is ``"exclude"`` (default: out of the base, as ``mean()``),
        ``"as_false"`` or ``"separate"`` (:func:`educatalog.stats.share`)."""
        return stats.share(self._frame, column, by, unknown=unknown, value=value, dropna=dropna)

    def with_source(
        self,
        url: str | None = None,
        *,
        demo: bool = False,
        name: str | None = None,
        fetched_at: dt.datetime | None = None,
    ) -> pd.DataFrame:
        """State where the frame's data come from (a service ``url``, or a ``name`` in
        words such as "Eigene Erhebung 2025"; ``demo=True`` for demo data), for the source
        line and demo mark of its charts and tables; returns the frame itself. Credentials
        in the URL are never kept."""
        source = Source(
            url=url, demo=demo, name=name, fetched_at=fetched_at or dt.datetime.now(dt.UTC)
        )
        self._frame.attrs[SOURCE_ATTR] = source.to_attrs()
        return self._frame

    def dimensions(self) -> list[str]:
        """The dimensions the frame is usually grouped by (:func:`educatalog.stats.dimensions`)."""
        return stats.dimensions(self._frame)

    def quality(self, catalogue: Catalogue | None = None) -> pd.DataFrame:
        """The data-quality summary (:func:`educatalog.stats.quality`)."""
        return stats.quality(self._frame, catalogue)

    def labels(self, catalogue: Catalogue, *, columns: Sequence[str] | None = None) -> pd.DataFrame:
        """A copy whose reference-id columns hold the names instead (as categoricals).

        Columns are recognised by their field name (``state``, ``instruction_form``,
        ``course_type`` ...), also as prefixed expansions (``address_state``). Ids missing
        from the list become missing values. ``columns`` limits the conversion.

        >>> events.edu.labels(cat)["instruction_form"].head()  # doctest: +SKIP
        """
        from educatalog.frames.offers import labelled

        frame = self._frame
        targets = {}
        for column in columns if columns is not None else frame.columns:
            if column not in frame:
                raise MissingColumns(
                    f'The frame has no column "{column}" to label.'
                    f"{did_you_mean(str(column), [str(c) for c in frame.columns])}"
                )
            reference = _reference_of(str(column))
            if reference is None:
                if columns is not None:
                    raise UsageError(
                        f'"{column}" holds no ids of a reference list; labelled columns are '
                        f"{', '.join(sorted(REFERENCE_COLUMNS))} (also with a prefix)."
                    )
                continue
            targets[column] = reference
        missing = sorted({r for r in targets.values() if r not in catalogue})
        if missing:
            raise UsageError(
                f"labels() needs the reference lists {', '.join(missing)}, which the "
                "catalogue lacks; load them with educatalog.load_catalogue()."
            )
        out = frame.copy()
        for column, reference in targets.items():
            if isinstance(out[column].dtype, pd.CategoricalDtype):
                continue  # already labelled
            out[column] = labelled(out[column], catalogue.labels(reference))
        return out


def _reference_of(column: str) -> str | None:
    if column in REFERENCE_COLUMNS:
        return REFERENCE_COLUMNS[column]
    for name, reference in REFERENCE_COLUMNS.items():
        if column.endswith("_" + name):
            return reference
    return None


class PlotAccessor:
    """The charts of :mod:`educatalog.plots` for one frame of offers."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self._frame = frame

    def _check(self, *names: str | None) -> None:
        """Fail on a dimension the frame does not have, naming the ones it has."""
        for name in names:
            if isinstance(name, str) and name:
                stats.dimension(self._frame, name)

    def supply(self, by: str = "state", **options: Any) -> Figure:
        """Horizontal bars of a measure by ``by`` (:func:`educatalog.plots.supply_bars`)."""
        from educatalog import plots

        self._check(by)
        return plots.supply_bars(self._frame, by, **options)

    def shares(
        self, rows: str = "state", columns: str = "instruction_form_category", **options: Any
    ) -> Figure:
        """100 % stacked bars (:func:`educatalog.plots.stacked_shares`)."""
        from educatalog import plots

        self._check(rows, columns)
        return plots.stacked_shares(self._frame, rows, columns, **options)

    def heatmap(
        self, rows: str = "state", columns: str = "duration_class", **options: Any
    ) -> Figure:
        """An annotated heatmap (:func:`educatalog.plots.heatmap`)."""
        from educatalog import plots

        self._check(rows, columns)
        return plots.heatmap(self._frame, rows, columns, **options)

    def starts(self, **options: Any) -> Figure:
        """Events starting per period (:func:`educatalog.plots.starts_over_time`)."""
        from educatalog import plots

        self._check(options.get("by"))
        return plots.starts_over_time(self._frame, **options)

    def costs(self, by: str = "instruction_form_category", **options: Any) -> Figure:
        """Cost boxplots per group (:func:`educatalog.plots.cost_boxplot`)."""
        from educatalog import plots

        self._check(by)
        return plots.cost_boxplot(self._frame, by, **options)

    def trend(self, measure: str = "events", **options: Any) -> Figure:
        """A measure over snapshot dates, of a table of :mod:`educatalog.history`
        (:func:`educatalog.plots.trend`): ``arc.supply(by="state").edu.plot.trend()``."""
        from educatalog import plots

        return plots.trend(self._frame, measure, **options)

    def tile_map(self, **options: Any) -> Figure:
        """The 16 states as a tile map (:func:`educatalog.plots.tile_map`)."""
        from educatalog import plots

        return plots.tile_map(self._frame, **options)

    def district_map(self, **options: Any) -> Figure:
        """The 400 districts as a map, or one state's (:func:`educatalog.plots.district_map`):
        ``offers.edu.plot.district_map(state="Bayern")``."""
        from educatalog import plots

        return plots.district_map(self._frame, **options)

    def subjects(self, by: str = "subject_area", **options: Any) -> Figure:
        """The subject areas, largest first, with their share and the others
        (:func:`educatalog.plots.subject_bars`); the frame of ``offers(subjects=True)``."""
        from educatalog import plots

        self._check(by)
        return plots.subject_bars(self._frame, by, **options)
