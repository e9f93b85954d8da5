"""Supply by group and by state: horizontal bars (:func:`supply_bars`) and the tile map of
the 16 states (:func:`tile_map`)."""

from __future__ import annotations

import textwrap
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize, to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from educatalog import population, stats, texts
from educatalog.errors import UsageError, WrongType
from educatalog.frames.provenance import Source
from educatalog.plots._formats import (
    count_text,
    ink,
    label,
    missing_mask,
    rate_text,
    tick_formatter,
    value_axis,
)
from educatalog.plots._frames import MEASURE_COLUMNS, PER_100K, columns_of, require
from educatalog.plots._setup import (
    BAR_COLOR,
    MISSING_COLOR,
    SEQUENTIAL_CMAP,
    TEXT_COLOR,
    begin,
    category_axis,
    check_choice,
    finish,
    finish_colorbar,
    inside,
    new_axes,
    styled,
)

__all__ = ["TILE_GRID", "supply_bars", "tile_map"]

TILE_GRID: dict[str, tuple[int, int]] = {
    "DE-SH": (0, 1),
    "DE-MV": (0, 2),
    "DE-HB": (1, 0),
    "DE-HH": (1, 1),
    "DE-BE": (1, 2),
    "DE-BB": (1, 3),
    "DE-NW": (2, 0),
    "DE-NI": (2, 1),
    "DE-ST": (2, 2),
    "DE-SN": (2, 3),
    "DE-RP": (3, 0),
    "DE-HE": (3, 1),
    "DE-TH": (3, 2),
    "DE-SL": (4, 0),
    "DE-BW": (4, 1),
    "DE-BY": (4, 2),
}
"""(row, column) of each state's tile in :func:`tile_map`, north-west first."""

_UNKNOWN_MEASURE = 'Unknown measure "{value}"; choose one of {choices}.'


@styled
def supply_bars(
    offers: pd.DataFrame,
    by: str = "state",
    *,
    measure: str = "events",
    top: int | None = None,
    ax: Axes | None = None,
    title: str | None = None,
    lang: str = texts.DEFAULT_LANG,
    source: Source | str | None = None,
    population: Any = None,
) -> Figure:
    """Horizontal bars of a measure by ``by``, largest on top (levels with an order of their
    own, as durations and months, in that order), each labelled with its value.

    ``measure`` is one of :data:`educatalog.stats.MEASURES` (events, courses,
    institutions, capacity) or ``"events_per_100k"`` (only with ``by="state"``, from
    :func:`educatalog.stats.per_capita`, with ``population=`` your own figures; the
    footer names the figures and their reference date). ``top`` keeps the largest ``top``
    groups. Offers without a value of ``by`` form a grey bar of their own, always the last,
    labelled "ohne Angabe" / "not stated". Groups whose capacity nobody states have no bar; a note
    names them. ``lang`` is ``"de"`` or ``"en"``; ``source`` states the data's source
    where the frame does not know it.
    """
    what = "supply_bars()"
    lang = begin(lang, by=by)
    check_choice(measure, list(MEASURE_COLUMNS), _UNKNOWN_MEASURE)
    if top is not None and (isinstance(top, bool) or not isinstance(top, int) or top < 1):
        message = f"top must be a positive whole number of groups, got {top!r}."
        wrong_type = isinstance(top, bool) or not isinstance(top, int)
        raise WrongType(message) if wrong_type else UsageError(message)
    notes: list[str] = []
    if measure == PER_100K:
        if by != "state":
            raise UsageError(
                f'measure="{PER_100K}" is known per state only; use by="state" '
                f"(or another measure: {', '.join(stats.MEASURES)})."
            )
        require(offers, ["event_id", "state"], what)
        rates = stats.per_capita(offers, population=population)
        values = rates[PER_100K]
        notes.append(_population_note(rates, lang))
    else:
        require(offers, ["event_id", MEASURE_COLUMNS[measure], *columns_of(offers, [by])], what)
        table = stats.supply(offers, by, normalize=False)
        values = table[measure]
        if measure == "capacity":
            unknown = table.index[values.isna() & (table["events"] > 0)]
            if len(unknown):
                groups = ", ".join(label(k, lang) for k in unknown)
                notes.append(texts.text("note.capacity_unknown", lang, groups=groups))
    values = values.dropna()
    missing = missing_mask(values.index)
    values = values[~(missing & (values.to_numpy(dtype=float) == 0))]  # an empty "no value"
    # Largest first, or in their own order where the levels have one (durations, months,
    # quarters); the grey bar of offers without a value always last, not among them.
    ordered = isinstance(values.index, pd.PeriodIndex) or bool(
        getattr(values.index.dtype, "ordered", False)
    )
    largest = values.iloc[np.lexsort((-values.to_numpy(dtype=float), missing_mask(values.index)))]
    shown = largest.iloc[:top] if top is not None else largest
    if ordered:
        position = {key: i for i, key in enumerate(values.index)}
        shown = shown.iloc[np.argsort([position[k] for k in shown.index], kind="stable")]
        shown = shown.iloc[np.lexsort((np.arange(len(shown)), missing_mask(shown.index)))]
    if shown.empty:
        raise UsageError(f"{what}: the frame has no offers to count by {by}.")

    numbers = shown.to_numpy(dtype=float)
    labels = [label(key, lang) for key in shown.index]
    fig, ax = new_axes(ax, (8.0, max(2.8, 1.5 + 0.3 * len(shown))))
    colors = [MISSING_COLOR if m else BAR_COLOR for m in missing_mask(shown.index)]
    bars = ax.barh(np.arange(len(shown)), numbers, height=0.72, color=colors)
    text = rate_text if measure == PER_100K else count_text
    value_texts = [text(v, lang) for v in numbers]
    inside(ax.bar_label(bars, labels=value_texts, padding=3, fontsize=8.5, color=TEXT_COLOR))
    category_axis(ax, labels, by, lang, n=len(shown))
    ax.set_xlim(0, (numbers.max() or 1.0) * 1.14)
    value_axis(ax.xaxis, rate=measure == PER_100K, lang=lang)
    ax.set_xlabel(texts.text(f"axis.{measure}", lang))
    if title is None:
        title = _title(measure, by, lang)
        if top is not None and top < len(values):
            title = texts.text("title.top", lang, title=title, top=top)
    known = [i for i, m in enumerate(missing_mask(shown.index)) if not m] or [0]
    high = max(known, key=lambda i: (numbers[i], -i))
    low = min(known, key=lambda i: (numbers[i], -i))
    alt = texts.text(
        "alt.bars" if len(labels) > 1 else "alt.bar",
        lang,
        title=title,
        top=labels[high],
        top_value=value_texts[high],
        low=labels[low],
        low_value=value_texts[low],
        n=len(labels),
    )
    return finish(fig, ax, offers, title, notes, lang=lang, source=source, alt=alt)


@styled
def tile_map(
    offers: pd.DataFrame,
    *,
    measure: str = PER_100K,
    ax: Axes | None = None,
    title: str | None = None,
    lang: str = texts.DEFAULT_LANG,
    source: Source | str | None = None,
    population: Any = None,
) -> Figure:
    """The 16 German states as a grid of equal tiles (:data:`TILE_GRID`), each coloured by
    ``measure`` and labelled with its name and value; ``"events_per_100k"``
    (:func:`educatalog.stats.per_capita`) or one of :data:`educatalog.stats.MEASURES`.

    States are matched by name through :data:`educatalog.population.STATE_POPULATION` or
    by the frame's ``state_code``; a frame with ``state_code`` only works as well. A state
    that a selection left out (:func:`educatalog.stats.select`: no level of the frame's
    ``state``) is hatched and "nicht ausgewählt" / "not selected", never coloured as a
    state without offers. ``population=`` takes your own figures
    (:func:`educatalog.stats.per_capita`); the footer names the figures used, their census
    basis and reference date.
    """
    what = "tile_map()"
    lang = begin(lang)
    check_choice(measure, list(MEASURE_COLUMNS), _UNKNOWN_MEASURE)
    frame = _with_state(offers, what)
    require(frame, ["event_id", MEASURE_COLUMNS[measure]], what)
    code_of = _state_codes(frame)
    values, notes = _tile_values(frame, measure, code_of, population, lang)
    selected = _selected_codes(frame, code_of)
    fig, ax = new_axes(ax, (6.4, 7.4))
    norm = Normalize(vmin=0, vmax=max(values.values(), default=0.0) or 1.0)
    text = rate_text if measure == PER_100K else count_text
    for code in TILE_GRID:
        _tile(ax, code, values.get(code), code in selected, norm, text, lang)
    if len(selected) < len(TILE_GRID):
        notes.append(texts.text("note.not_selected", lang))
    ax.set_xlim(-0.55, 3.55)
    ax.set_ylim(-4.55, 0.55)
    ax.set_aspect("equal")
    ax.set_axis_off()
    colorbar = fig.colorbar(
        ScalarMappable(norm=norm, cmap=mpl.colormaps[SEQUENTIAL_CMAP]),
        ax=ax,
        orientation="horizontal",
        location="bottom",
        shrink=0.75,
        aspect=30,
        pad=0.02,
    )
    finish_colorbar(
        colorbar,
        texts.text(f"axis.{measure}", lang),
        tick_formatter(rate=measure == PER_100K, lang=lang),
    )
    title = title or _title(measure, "state", lang)
    alt = _tile_alt(values, code_of, title, text, lang)
    if len(selected) < len(TILE_GRID):
        alt += " " + texts.text("alt.not_selected", lang, n=len(TILE_GRID) - len(selected))
    return finish(fig, ax, offers, title, notes, lang=lang, source=source, alt=alt)


def _tile_values(
    frame: pd.DataFrame, measure: str, code_of: dict[str, str], population: Any, lang: str
) -> tuple[dict[str, float], list[str]]:
    """The value of each state's tile by ISO code, and the notes under the map."""
    notes: list[str] = []
    if measure == PER_100K:
        rates = stats.per_capita(frame, population=population)
        table = rates[PER_100K]
        notes.append(_population_note(rates, lang))
    else:
        table = stats.supply(frame, "state", normalize=False, dropna=True)[measure]
    values: dict[str, float] = {}
    for name, value in table.items():
        code = code_of.get(str(name))
        if code in TILE_GRID and not pd.isna(value):
            values[code] = float(value)
    events = stats.supply(frame, "state", normalize=False)["events"]
    stateless = int(events[missing_mask(events.index)].sum())
    if stateless:
        notes.insert(0, texts.text("note.without_state", lang, events=texts.count(stateless, lang)))
    return values, notes


def _selected_codes(frame: pd.DataFrame, code_of: dict[str, str]) -> set[str]:
    """The states the frame admits: the levels of its ``state`` (all where it has none)."""
    states = frame["state"]
    if not isinstance(states.dtype, pd.CategoricalDtype):
        return set(TILE_GRID)
    return {code_of.get(str(name), "") for name in states.cat.categories} & set(TILE_GRID)


def _tile(
    ax: Axes,
    code: str,
    value: float | None,
    selected: bool,
    norm: Normalize,
    text: Any,
    lang: str,
) -> None:
    """One state's tile: its colour (hatched grey when not selected), name and value."""
    row, column = TILE_GRID[code]
    cmap = mpl.colormaps[SEQUENTIAL_CMAP]
    if not selected:
        face, shown = to_rgba("#F4F4F4"), texts.text("not_selected", lang)
    elif value is None:
        face, shown = to_rgba("#E6E6E6"), texts.unknown(lang)
    else:
        face, shown = cmap(norm(value)), text(value, lang)
    ax.add_patch(
        Rectangle(
            (column - 0.47, -row - 0.47),
            0.94,
            0.94,
            facecolor=face,
            edgecolor="#BDBDBD" if not selected else "white",
            hatch="///" if not selected else None,
            linewidth=1.5 if selected else 0.8,
            gid=f"tile-{code}",
        )
    )
    color = ink(face) if selected else "#595959"
    name = _tile_name(population.STATES["state"].get(code, code), lang)
    for y, words, size, weight in (
        (-row + 0.12, name, 7.6, "bold"),
        (-row - 0.24, shown, 9.5 if selected else 7.5, "normal"),
    ):
        ax.text(
            column,
            y,
            words,
            ha="center",
            va="center",
            fontsize=size,
            fontweight=weight,
            color=color,
            linespacing=1.05,
            in_layout=False,
            bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.2} if not selected else None,
        )


def _tile_name(name: str, lang: str) -> str:
    """A state's name in ``lang`` broken into lines that fit a tile (after a hyphen or at a
    space)."""
    words = texts.label(name, lang).replace("-", "-\n").split("\n")
    lines: list[str] = []
    for part in words:
        lines.extend(textwrap.wrap(part, 13, break_long_words=False) or [part])
    return "\n".join(lines)


def _tile_alt(
    values: dict[str, float], code_of: dict[str, str], title: str, text: Any, lang: str
) -> str:
    if not values:
        return texts.text("alt.chart", lang, title=title)
    name_of = {code: name for name, code in code_of.items()}
    high = max(values, key=lambda c: values[c])
    low = min(values, key=lambda c: values[c])
    return texts.text(
        "alt.tiles",
        lang,
        title=title,
        top=label(name_of.get(high, high), lang),
        top_value=text(values[high], lang),
        low=label(name_of.get(low, low), lang),
        low_value=text(values[low], lang),
    )


def _title(measure: str, by: str, lang: str) -> str:
    """The title that names the measure and the dimension: "Events by state"."""
    measure_name = texts.text(f"measure.{measure}", lang)
    return texts.text("title.by", lang, measure=measure_name, dimension=texts.dimension(by, lang))


def _population_note(rates: pd.DataFrame, lang: str) -> str:
    """The population figures behind a per-capita chart, with their reference date."""
    origin = rates.attrs.get("educatalog", {}).get("population", {})
    return texts.text("population", lang, source=texts.population_text(origin, lang))


def _with_state(offers: Any, what: str) -> pd.DataFrame:
    """The frame with a ``state`` column, named from ``state_code`` where it has none."""
    frame = require(offers, ["event_id"], what)
    if "state" in frame:
        return frame
    if "state_code" not in frame:
        require(frame, ["state"], what)
    names = population.STATE_POPULATION["state"]
    return frame.assign(state=frame["state_code"].map(lambda c: names.get(c, None)))


def _state_codes(frame: pd.DataFrame) -> dict[str, str]:
    """State name -> ISO code: the frame's own ``state_code``, else the population table."""
    codes = {str(name): str(code) for code, name in population.STATE_POPULATION["state"].items()}
    if "state_code" in frame:
        pairs = frame[["state", "state_code"]].dropna().drop_duplicates()
        codes.update({str(n): str(c) for n, c in pairs.itertuples(index=False)})
    return codes
