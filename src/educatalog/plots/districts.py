"""The map of the 400 districts (:func:`district_map`): each district coloured by the class
of its events per 100,000 inhabitants (or its events, courses, institutions), the state
borders over them, the whole country or one state.

The shapes are the BKG's (:func:`educatalog.frames.districts.district_shapes`), drawn with
matplotlib alone in Lambert's azimuthal equal-area projection centred on Germany, read and
converted once a session. The colour classes follow one rule (:func:`class_bounds`).
"""

from __future__ import annotations

import itertools
import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import matplotlib as mpl
import numpy as np
import numpy.typing as npt
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from educatalog import population, stats, texts
from educatalog.errors import UsageError, WrongType, did_you_mean
from educatalog.frames.districts import STATE_CODES, district_table
from educatalog.frames.provenance import Source
from educatalog.plots._formats import count_text, rate_text
from educatalog.plots._frames import PER_100K, require
from educatalog.plots._setup import (
    SEQUENTIAL_CMAP,
    STYLE,
    begin,
    check_choice,
    finish,
    new_axes,
    styled,
    text_width,
)
from educatalog.plots._shapes import DistrictGeometry, district_geometry

__all__ = [
    "DISTRICT_MEASURES",
    "GID",
    "HATCHES",
    "NOT_SELECTED_COLOR",
    "NO_DATA_COLOR",
    "MapClasses",
    "class_bounds",
    "class_colors",
    "district_map",
]

DISTRICT_MEASURES: tuple[str, ...] = (PER_100K, "events", "courses", "institutions")
"""What :func:`district_map` colours the districts by (``measure=``)."""

NO_DATA_COLOR = "#E3E3E3"
"""The fill of a district without a value ("keine Angabe" / "no data"), under its hatch."""
NOT_SELECTED_COLOR = "#F7F7F7"
"""The fill of a district a selection left out ("nicht ausgewählt" / "not selected")."""
HATCHES = {"no_data": "////", "not_selected": "\\\\\\\\"}
"""The hatch of each kind of district without a colour: darker lines for no data, lighter
ones, the other way, for not selected."""
HATCH_COLORS = {"no_data": "#8C8C8C", "not_selected": "#C8C8C8"}
BORDER_COLOR = "#3C3C3C"
GID = "educatalog-districts"
"""The ``gid`` of the collection of the 400 districts (in key order); its hatched overlays
are ``GID + "-no-data"`` and ``GID + "-not-selected"``, the state borders
``"educatalog-state-borders"``."""

_UNKNOWN_MEASURE = 'Unknown measure "{value}"; choose one of {choices}.'
_NEEDS = {PER_100K: "event_id", "events": "event_id", "courses": "course_id"}
_NEEDS["institutions"] = "institution"


@dataclass(frozen=True)
class MapClasses:
    """The colour classes of a district map (:func:`class_bounds`): a class of its own for 0
    (``zero``), then classes split at ``bounds`` (a value is in the class whose lower bound
    it reaches and whose upper bound it stays under), written with ``decimals``."""

    zero: bool
    """Whether the values 0 form the first class."""
    bounds: tuple[float, ...]
    """The inner bounds of the classes above 0, ascending."""
    decimals: int
    """Decimals of the bounds in the legend."""
    low: float = 0.0
    high: float = 0.0

    @property
    def count(self) -> int:
        """The number of classes."""
        return int(self.zero) + (len(self.bounds) + 1 if self.high > 0 else 0)

    def of(self, values: npt.ArrayLike) -> npt.NDArray[np.intp]:
        """The class (0, 1, …) of each value (not missing)."""
        numbers = np.asarray(values, dtype=float)
        found = np.searchsorted(np.asarray(self.bounds, dtype=float), numbers, side="right")
        if self.zero:
            found = np.where(numbers == 0, 0, found + 1)
        return found.astype(np.intp)

    def labels(self, lang: str) -> list[str]:
        """Each class in words: "0", "über 0 bis unter 5,0", "5,0 bis unter 9,5", "9,5 und
        mehr" ("over 0 to under 5.0" … "9.5 and over")."""

        def shown(value: float) -> str:
            return texts.number(value, lang, self.decimals)

        words = [texts.number(0, lang)] if self.zero else []
        if self.count == len(words):
            return words
        limits: list[float | None] = [None, *self.bounds, None]
        for lower, upper in itertools.pairwise(limits):
            if lower is None and upper is None:
                words.append(
                    texts.text("map.positive", lang)
                    if self.zero
                    else shown(self.low)
                    if self.low == self.high
                    else texts.text(
                        "map.range", lang, lower=shown(self.low), upper=shown(self.high)
                    )
                )
            elif lower is None:
                key = "map.over_zero" if self.zero else "map.below"
                words.append(texts.text(key, lang, upper=shown(upper)))  # type: ignore[arg-type]
            elif upper is None:
                words.append(texts.text("map.above", lang, lower=shown(lower)))
            else:
                words.append(
                    texts.text("map.between", lang, lower=shown(lower), upper=shown(upper))
                )
        return words


def class_bounds(values: npt.ArrayLike, classes: int = 5, *, whole: bool = False) -> MapClasses:
    """The colour classes of ``values`` (missing ones left out), at most ``classes`` of them.

    The rule: where a value is 0, the zeros form a class of their own (districts without
    events), counted among the ``classes``. The values above 0 are split at their quantiles
    (for ``m`` classes at ``1/m``, ``2/m``, …: about as many districts in each class). Each
    bound is rounded to the same place, the one that keeps two significant digits of the
    smallest bound (4.67 and 12.3 to 4.7 and 12.3; 2,233 and 6,233 to 2,200 and 6,200; for
    counts, ``whole=True``, at least to whole numbers); bounds that coincide after rounding,
    or leave a class empty at either end, are dropped, so ties give fewer classes.

    >>> class_bounds([0, 0, 1.2, 3.4, 5.6, 7.8, 9.1], 3).labels("en")
    ['0', 'over 0 to under 5.6', '5.6 and over']
    """
    numbers = np.asarray(values, dtype=float)
    numbers = numbers[~np.isnan(numbers)]
    zero = bool((numbers == 0).any())
    above = np.sort(numbers[numbers != 0])
    if not len(above):
        return MapClasses(zero=zero, bounds=(), decimals=0)  # only zeros, or no value at all
    wanted = max(1, classes - int(zero))
    quantiles = np.quantile(above, np.arange(1, wanted) / wanted) if wanted > 1 else np.array([])
    positive = quantiles[quantiles > 0]
    digits = 1 - math.floor(math.log10(float(positive.min()))) if len(positive) else 0
    digits = min(digits, 0) if whole else digits
    bounds = sorted({round(float(q), digits) for q in quantiles})
    kept = tuple(b for b in bounds if above[0] < b <= above[-1])
    return MapClasses(zero, kept, max(digits, 0), low=float(above[0]), high=float(above[-1]))


def class_colors(count: int) -> list[tuple[float, float, float, float]]:
    """``count`` colours of :data:`~educatalog.plots.SEQUENTIAL_CMAP`, lightest first."""
    cmap = mpl.colormaps[SEQUENTIAL_CMAP]
    steps = np.linspace(0.1, 0.92, count) if count > 1 else np.array([0.5] * count)
    return [tuple(float(c) for c in cmap(step)) for step in steps]  # type: ignore[misc]


@styled
def district_map(
    offers: pd.DataFrame,
    *,
    measure: str = PER_100K,
    state: str | None = None,
    classes: int = 5,
    ax: Axes | None = None,
    title: str | None = None,
    lang: str = texts.DEFAULT_LANG,
    source: Source | str | None = None,
    population: Any = None,
) -> Figure:
    """The 400 districts coloured by ``measure``: ``"events_per_100k"`` (default,
    :func:`educatalog.stats.per_capita` by district, with ``population=`` your own figures)
    or ``"events"``, ``"courses"``, ``"institutions"``; state borders drawn over them.

    The colours are ``classes`` classes (2 to 9) of :data:`~educatalog.plots.SEQUENTIAL_CMAP`
    by the rule of :func:`class_bounds` (0 a class of its own, the others quantiles), the
    legend names their bounds in the reader's number format ("5,0 bis unter 9,5" / "5.0 to
    under 9.5"). A district without a value (no inhabitants) is hatched, "keine Angabe" /
    "no data"; a district a selection left out (:func:`educatalog.stats.select`: not among
    the frame's ``district`` levels) is hatched lighter, "nicht ausgewählt" / "not
    selected", never coloured as a district without offers. The frame needs ``district``
    (or ``district_key``), as ``catalogue.offers()`` gives it.

    ``state`` (a name, "Bayern" or "Bavaria", an ISO code "DE-BY" or a key "09") shows that
    state's districts alone, zoomed to them, classed among themselves; a frame a selection
    narrowed to some districts is zoomed to those. The footer names the shapes' and the
    postal codes' licences, the population figures (for rates) and the data's source; the
    text alternative (:func:`~educatalog.plots.alt_text`) the highest and lowest districts
    with their events and how many have no data. The districts are one
    :class:`~matplotlib.collections.PathCollection` (``gid`` :data:`GID`), in key order.
    """
    what = "district_map()"
    lang = begin(lang)
    check_choice(measure, list(DISTRICT_MEASURES), _UNKNOWN_MEASURE)
    if isinstance(classes, bool) or not isinstance(classes, int):
        raise WrongType(f"classes must be a whole number (2 to 9), got {classes!r}.")
    if not 2 <= classes <= 9:
        raise UsageError(f"classes must be between 2 and 9, got {classes}.")
    frame = require(offers, ["event_id"], what)
    table = district_table()
    if "district" not in frame and "district_key" in frame:  # the names from the keys
        names = frame["district_key"].astype("string").map(table["district"])
        frame = frame.assign(district=pd.Categorical(names, categories=list(table["district"])))
    require(frame, ["district", _NEEDS[measure]], what)
    selected = _selected(frame, table)
    where = None
    if state is not None:
        where = _state_key(state)
        selected = [k for k in selected if k[:2] == where]
        if not selected:
            raise UsageError(
                f'state "{state}" has no district in the frame\'s selection; its districts '
                f"lie in {_states_of(_selected(frame, table), lang)}."
            )
    rates = stats.per_capita(frame, by="district", population=population)
    values = _values(rates, measure, table)
    shown = values.reindex(selected).astype(float)
    found = class_bounds(shown.to_numpy(), classes, whole=measure != PER_100K)
    geometry = district_geometry()
    zoomed = len(selected) < len(geometry.keys)
    box = _margin(geometry.box(selected))
    title = title or _title(measure, lang, where, selected, table)
    fig, ax = new_axes(ax, _size(box, title))
    status = _draw(ax, geometry, shown, found, set(selected), zoomed)
    _legend(ax, found, status, measure, lang)
    _zoom(ax, box)
    notes = _notes(rates, _without_district(frame, where), found, status, measure, lang)
    alt = _alt(shown, rates, table, title, measure, status, lang)
    return finish(fig, ax, offers, title, notes, lang=lang, source=source, alt=alt)


def _selected(frame: pd.DataFrame, table: pd.DataFrame) -> list[str]:
    """The keys of the districts the frame admits: the levels of its ``district`` (all
    where it has none), in key order."""
    districts = frame.get("district")
    if districts is None or not isinstance(districts.dtype, pd.CategoricalDtype):
        return [str(key) for key in table.index]
    names = set(map(str, districts.cat.categories))
    return [str(key) for key, name in table["district"].items() if name in names]


def _state_key(state: Any) -> str:
    """The two-digit key of a state named by its name (German or English), ISO code (with
    or without "DE-") or key."""
    if not isinstance(state, str):
        raise WrongType(f"state must name one state, got {state!r}.")
    names = population.STATES.reset_index()
    spellings: dict[str, str] = {}
    for code, key, name in names[["code", "key", "state"]].itertuples(index=False):
        for spelling in (code, code[3:], key, name, texts.label(name, "en")):
            spellings[str(spelling).casefold()] = str(key)
    found = spellings.get(state.strip().casefold())
    if found is None:
        choices = [*names["state"], *STATE_CODES]
        raise UsageError(
            f'Unknown state "{state}"; name one by its name ("Bayern"), ISO code ("DE-BY") '
            f'or key ("09").{did_you_mean(state, choices)}'
        )
    return found


def _states_of(keys: Sequence[str], lang: str) -> str:
    names = population.STATES.set_index("key")["state"]
    return ", ".join(texts.label(names[k], lang) for k in sorted({k[:2] for k in keys}))


def _values(rates: pd.DataFrame, measure: str, table: pd.DataFrame) -> pd.Series:
    """The measure of each district of ``per_capita(by="district")``, by key (NaN where it
    has no value)."""
    column = rates[measure].astype("Float64").astype(float)
    key_of = pd.Series(table.index, index=table["district"].to_numpy())
    column.index = pd.Index([key_of.get(str(name)) for name in column.index])
    return column[column.index.notna()]


def _draw(
    ax: Axes,
    geometry: DistrictGeometry,
    shown: pd.Series,
    found: MapClasses,
    selected: set[str],
    zoomed: bool,
) -> dict[str, list[str]]:
    """The districts, their hatches and the state borders; returns the keys of the
    districts without data and of those not selected."""
    colors = class_colors(found.count)
    faces = np.empty((len(geometry.keys), 4))
    status: dict[str, list[str]] = {"no_data": [], "not_selected": []}
    known = shown.dropna()
    index = dict(zip(known.index, found.of(known.to_numpy()), strict=True))
    for row, key in enumerate(geometry.keys):
        if key not in selected:
            faces[row] = to_rgba(NOT_SELECTED_COLOR)
            status["not_selected"].append(key)
        elif key in index:
            faces[row] = colors[index[key]]
        else:
            faces[row] = to_rgba(NO_DATA_COLOR)
            status["no_data"].append(key)
    width = 0.6 if zoomed else 0.3
    districts = PathCollection(
        list(geometry.paths), facecolors=faces, edgecolors="white", linewidths=width, gid=GID
    )
    ax.add_collection(districts, autolim=False)
    rows = {key: row for row, key in enumerate(geometry.keys)}
    for kind, keys in status.items():
        if keys:
            ax.add_collection(
                PathCollection(
                    [geometry.paths[rows[k]] for k in keys],
                    facecolors="none",
                    edgecolors=HATCH_COLORS[kind],
                    linewidths=0,
                    hatch=HATCHES[kind],
                    gid=f"{GID}-{kind.replace('_', '-')}",
                ),
                autolim=False,
            )
    borders = LineCollection(
        geometry.border_lines({key[:2] for key in selected}),
        colors=BORDER_COLOR,
        linewidths=1.3 if zoomed else 0.8,
        capstyle="round",
        joinstyle="round",
        gid="educatalog-state-borders",
    )
    ax.add_collection(borders, autolim=False)
    return status


def _legend(
    ax: Axes, found: MapClasses, status: dict[str, list[str]], measure: str, lang: str
) -> None:
    """The classes, lowest first, then the hatched districts; right of the map."""
    handles = [
        Patch(facecolor=color, edgecolor="#BDBDBD", linewidth=0.5, label=label)
        for color, label in zip(class_colors(found.count), found.labels(lang), strict=True)
    ]
    for kind, words, face in (
        ("no_data", texts.text("map.no_data", lang), NO_DATA_COLOR),
        ("not_selected", texts.text("not_selected", lang), NOT_SELECTED_COLOR),
    ):
        if status[kind]:
            handles.append(
                Patch(
                    facecolor=face,
                    edgecolor=HATCH_COLORS[kind],
                    linewidth=0.5,
                    hatch=HATCHES[kind],
                    label=words,
                )
            )
    ax.legend(
        handles=handles,
        title="\n".join(textwrap.wrap(texts.text(f"axis.{measure}", lang), 22)),
        loc="upper left",
        bbox_to_anchor=(1.0, 1.0),
        borderaxespad=0.0,
        frameon=False,
        handlelength=1.6,
        handleheight=1.1,
        alignment="left",
    )


def _margin(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """``box`` (x0, y0, x1, y1) with a margin of 3 % of its larger side, at least 8 km."""
    x0, y0, x1, y1 = box
    margin = max(8.0, 0.03 * max(x1 - x0, y1 - y0))
    return (x0 - margin, y0 - margin, x1 + margin, y1 + margin)


def _zoom(ax: Axes, box: tuple[float, float, float, float]) -> None:
    """The limits of ``box`` (x0, y0, x1, y1) at true aspect, the map at the top left of
    its Axes (the legend beside it), no axis lines."""
    ax.set_xlim(box[0], box[2])
    ax.set_ylim(box[1], box[3])
    ax.set_aspect("equal", adjustable="box", anchor="NW")
    ax.set_axis_off()


def _without_district(frame: pd.DataFrame, where: str | None) -> int:
    """How many events of the frame (of the state ``where``, a key) have no district."""
    rows = frame["district"].isna() if "district" in frame else frame["district_key"].isna()
    if where is not None:
        code = next(c for c, k in STATE_CODES.items() if k == where)
        if "state_code" in frame:
            rows &= (frame["state_code"].astype("string") == code).fillna(False)
        elif "state" in frame:
            name = population.STATES.at[code, "state"]
            rows &= (frame["state"].astype("string") == name).fillna(False)
    return int(frame.loc[rows.to_numpy(), "event_id"].nunique())


def _size(box: tuple[float, float, float, float], title: str) -> tuple[float, float]:
    """A figure for the map of ``box``: the map about 5.8 inches high (less where it would
    be wider than 7.6), the legend beside it, room for the title."""
    x0, y0, x1, y1 = box
    aspect = (x1 - x0) / max(y1 - y0, 1.0)
    height = min(5.8, 7.6 / aspect)
    width = max(aspect * height + 2.7, text_width(title, STYLE["axes.titlesize"], bold=True) + 0.4)
    return (min(width, 11.0), height + 2.3)


def _title(
    measure: str, lang: str, where: str | None, selected: Sequence[str], table: pd.DataFrame
) -> str:
    measure_name = texts.text(f"measure.{measure}", lang)
    title = texts.text(
        "title.by", lang, measure=measure_name, dimension=texts.dimension("district", lang)
    )
    states = sorted({k[:2] for k in selected})
    if where is not None or len(states) == 1:
        names = population.STATES.set_index("key")["state"]
        place = texts.label(names[where or states[0]], lang)
        title = texts.text("title.in", lang, title=title, where=place)
    return title


def _notes(
    rates: pd.DataFrame,
    without: int,
    found: MapClasses,
    status: dict[str, list[str]],
    measure: str,
    lang: str,
) -> list[str]:
    """What the footer says above the source: events left out (``without`` a district),
    the classes, the inhabitants, the shapes' and postal codes' licences."""
    notes = []
    if without:
        notes.append(texts.text("note.without_district", lang, events=texts.count(without, lang)))
    if found.count > 1:
        notes.append(
            texts.text("note.map_classes_zero" if found.zero else "note.map_classes", lang)
        )
    if status["not_selected"]:
        notes.append(texts.text("note.districts_not_selected", lang))
    if measure == PER_100K:
        origin = rates.attrs.get("educatalog", {}).get("population", {})
        notes.append(texts.text("population", lang, source=texts.population_text(origin, lang)))
    notes.append(texts.text("note.map_shapes", lang))
    return notes


def _alt(
    shown: pd.Series,
    rates: pd.DataFrame,
    table: pd.DataFrame,
    title: str,
    measure: str,
    status: dict[str, list[str]],
    lang: str,
) -> str:
    """The text alternative: the highest and lowest districts (with their events), the
    districts without data and those not selected."""
    known = shown.dropna()
    if known.empty:
        alt = texts.text("alt.chart", lang, title=title)
    else:
        events = _values(rates, "events", table)
        parts = {}
        for end, value in (("top", known.max()), ("low", known.min())):
            keys = list(known.index[known.to_numpy() == value])
            name = texts.label(str(table.at[keys[0], "district"]), lang)  # "Passau, city"
            if len(keys) > 1:
                more = len(keys) - 1
                key = "alt.districts_one_more" if more == 1 else "alt.districts_more"
                name = texts.text(key, lang, name=name, more=texts.number(more, lang))
            number = rate_text(value, lang) if measure == PER_100K else count_text(value, lang)
            if measure != "events":
                number = texts.text(
                    "alt.districts_value",
                    lang,
                    value=number,
                    events=texts.count(events.get(keys[0], 0), lang),
                )
            parts[end], parts[f"{end}_value"] = name, number
        alt = texts.text("alt.districts", lang, title=title, **parts)
    alt += " " + texts.text("alt.districts_no_data", lang, n=len(status["no_data"]))
    if status["not_selected"]:
        n = len(status["not_selected"])
        alt += " " + texts.text("alt.districts_not_selected", lang, n=n)
    return alt
