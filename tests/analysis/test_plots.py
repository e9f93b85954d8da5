"""Charts of educatalog.plots: their numbers are those of educatalog.stats, their labels
those of the data, and every chart carries a title, units, a source line and, exactly for
demo data, the demo mark. These tests read the English charts (lang="en");
tests/analysis/test_language.py holds the German default and one language per chart."""

from __future__ import annotations

import html

import matplotlib

matplotlib.use("Agg")

import datetime as dt
import functools
import os
import struct
import subprocess
import sys
import textwrap
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import PathPatch, Rectangle
from matplotlib.text import Text

import educatalog
from educatalog import plots as _plots
from educatalog import stats, texts
from educatalog.errors import EducatalogError, MissingColumns, UsageError, WrongType
from educatalog.frames.provenance import SOURCE_ATTR, Source
from educatalog.population import STATE_POPULATION


class _English:
    """:mod:`educatalog.plots` whose charts are drawn with ``lang="en"``."""

    CHARTS = frozenset(
        {"supply_bars", "stacked_shares", "heatmap", "starts_over_time", "cost_boxplot", "tile_map"}
    )

    def __getattr__(self, name: str) -> Any:
        value = getattr(_plots, name)
        return functools.partial(value, lang="en") if name in self.CHARTS else value


plots: Any = _English()
CODE_OF = {str(name): str(code) for code, name in STATE_POPULATION["state"].items()}
STATES = list(CODE_OF)
DURATIONS = ["bis 3 Tage", "mehr als 3 Tage bis 1 Woche", "Keine Angabe"]
UNKNOWN = texts.text("source.unknown", "en")
REAL = Source(url="https://kurse.example.org", demo=False, fetched_at=dt.datetime(2025, 3, 1))


@pytest.fixture(scope="module")
def offers() -> pd.DataFrame:
    """The offers of the embedded demo catalogue (about 530 events)."""
    with educatalog.demo(scale=0.05, seed=0) as client:
        return educatalog.load_catalogue(client).offers()


def tiny(
    states: list[str | None],
    *,
    starts: list[str | None] | None = None,
    costs: list[float | None] | None = None,
    source: Source | None = REAL,
) -> pd.DataFrame:
    """A hand-made frame of offers, one event per entry of ``states``."""
    n = len(states)
    frame = pd.DataFrame(
        {
            "event_id": pd.array(range(1, n + 1), dtype="Int64"),
            "course_id": pd.array([i % 7 for i in range(n)], dtype="Int64"),
            "institution": pd.array([f"inst-{i % 3}" for i in range(n)], dtype="string"),
            "max_participants": pd.array([10] * n, dtype="Int64"),
            "state": pd.Categorical(states, categories=STATES),
            "state_code": pd.Categorical(
                [CODE_OF.get(s or "") for s in states], categories=list(CODE_OF.values())
            ),
            "event_start_date": pd.to_datetime(starts or ["2025-01-15"] * n),
            "instruction_form_category": pd.Categorical(
                ["Präsenz" if i % 2 else "Digital" for i in range(n)],
                categories=["Präsenz", "Digital"],
            ),
            "duration_class": pd.Categorical(
                [DURATIONS[i % 3] for i in range(n)], categories=DURATIONS, ordered=True
            ),
            "cost": pd.array(costs or [100.0 + i for i in range(n)], dtype="Float64"),
            "cost_currency": pd.array(["EUR"] * n, dtype="string"),
        }
    )
    if source is not None:
        frame.attrs[SOURCE_ATTR] = source.to_attrs()
    return frame


# -- helpers -------------------------------------------------------------------------


def label(key: Any) -> str:
    return texts.label(key, "en")


def demo_marks(fig: Figure) -> list[Text]:
    return [t for t in fig.texts if t.get_text() == plots.DEMO_MARK]


def footer(fig: Figure) -> Text:
    starts = ("Source", "Not", "Inhabitants", "Box", "No bar", "Grey")
    (text,) = [t for t in fig.texts if t.get_text().startswith(starts)]
    return text


def check_furniture(fig: Figure, frame: pd.DataFrame, title: str) -> None:
    """Title, hidden top and right spines, the source line at the bottom left, demo mark."""
    ax = fig.axes[0]
    assert ax.get_title(loc="left") == title
    assert not ax.spines["top"].get_visible()
    assert not ax.spines["right"].get_visible()
    source = Source.from_attrs(frame.attrs)
    line = footer(fig)
    expected = f"Source: {source.text('en')}" if source else f"Source: {UNKNOWN}"
    assert line.get_text().splitlines()[-1] == expected
    x, y = line.get_transform().transform((0, 0))
    assert (line.get_ha(), line.get_va()) == ("left", "bottom")
    assert 0 < x < 0.05 * fig.bbox.width
    assert 0 < y < 0.05 * fig.bbox.height
    marks = demo_marks(fig)
    if source is not None and source.demo:
        assert len(marks) == 2  # the watermark and the corner label
        assert any(t.get_rotation() > 10 for t in marks)
    else:
        assert marks == []


def check_png(path: Path, fig: Figure, dpi: int = 150) -> None:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    inches_w, inches_h = fig.get_size_inches()
    assert 0.7 * inches_w * dpi <= width <= 1.15 * inches_w * dpi
    assert 0.7 * inches_h * dpi <= height <= 1.15 * inches_h * dpi
    assert width >= 600


def bar_labels(ax: Any) -> list[str]:
    return [t.get_text() for t in ax.texts]


# -- supply_bars ---------------------------------------------------------------------


def test_supply_bars_by_state(offers: pd.DataFrame, tmp_path: Path) -> None:
    fig = plots.supply_bars(offers)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    table = stats.supply(offers, "state", normalize=False)["events"]
    # Largest first; the grey bar of the events without a state last, never among them.
    expected = sorted(
        ((label(k), int(v)) for k, v in table.items()),
        key=lambda kv: (kv[0] == "not stated", -kv[1]),
    )
    assert expected[-1][0] == "not stated"
    assert expected[-1][1] > min(v for _, v in expected[:-1])  # it would sort among them
    bars = ax.containers[0].patches
    assert len(bars) == len(expected) == 17  # 16 states and the events without one
    assert [b.get_width() for b in bars] == [v for _, v in expected]
    assert [t.get_text() for t in ax.get_yticklabels()] == [k for k, _ in expected]
    assert bar_labels(ax) == [f"{v:,}" for _, v in expected]
    assert bars[0].get_y() < bars[-1].get_y()  # the largest bar on top (y axis inverted)
    assert ax.yaxis_inverted()
    ticks = [t.get_text() for t in ax.get_yticklabels()]
    assert {"North Rhine-Westphalia", "Baden-Württemberg", "Thuringia", "not stated"} <= set(ticks)
    missing = bars[ticks.index("not stated")]
    assert missing.get_facecolor() == to_rgba(plots.MISSING_COLOR)
    assert ax.get_xlabel() == "Number of events"
    assert ax.get_ylabel() == "State"
    check_furniture(fig, offers, "Events by state")
    check_png(plots.save(fig, tmp_path / "bars.png", dpi=150), fig)


def test_supply_bars_per_capita(offers: pd.DataFrame) -> None:
    fig = plots.supply_bars(offers, measure="events_per_100k")
    ax = fig.axes[0]
    rates = (
        stats.per_capita(offers)["events_per_100k"]
        .astype(float)
        .sort_values(ascending=False, kind="stable")
    )
    bars = ax.containers[0].patches
    assert len(bars) == 16  # rates exist per state only
    np.testing.assert_allclose([b.get_width() for b in bars], rates.to_numpy())
    assert [t.get_text() for t in ax.get_yticklabels()] == [label(k) for k in rates.index]
    assert bar_labels(ax) == [f"{v:.2f}" for v in rates]
    assert ax.get_xlabel() == "Events per 100,000 inhabitants"
    assert "Inhabitants: Federal Statistical Office (Destatis)" in footer(fig).get_text()
    assert (
        "population update based on the 2022 census (table 12411-0010), as of 31 Dec 2024"
        in footer(fig).get_text().replace("\n", " ")
    )
    check_furniture(fig, offers, "Events per 100,000 inhabitants by state")
    with pytest.raises(EducatalogError, match='by="state"'):
        plots.supply_bars(offers, "instruction_form", measure="events_per_100k")


def test_supply_bars_other_measure_and_top(offers: pd.DataFrame) -> None:
    fig = plots.supply_bars(offers, "instruction_form", measure="courses", top=5)
    ax = fig.axes[0]
    courses = stats.supply(offers, "instruction_form", normalize=False)["courses"].dropna()
    expected = sorted((int(v) for v in courses), reverse=True)[:5]
    assert [b.get_width() for b in ax.containers[0].patches] == expected
    assert ax.get_xlabel() == "Number of courses"
    assert ax.get_title(loc="left") == "Courses by instruction form (top 5)"
    with pytest.raises(EducatalogError, match="Unknown measure"):
        plots.supply_bars(offers, measure="share")
    with pytest.raises(EducatalogError, match="top"):
        plots.supply_bars(offers, top=0)


def test_supply_bars_keep_the_order_of_ordered_levels(offers: pd.DataFrame) -> None:
    """Durations and months in their own order, not by size (the grey bar still last);
    ``top`` keeps the largest, shown in that order; the alt text names the largest."""
    table = stats.supply(offers, "duration_class", normalize=False)["institutions"].dropna()
    table = table[~(table.index.isna() & (table == 0))]
    ax = plots.supply_bars(offers, "duration_class", measure="institutions").axes[0]
    ticks = [t.get_text() for t in ax.get_yticklabels()]
    assert ticks == [label(k) for k in table.index]  # class order, "not stated" last
    assert [b.get_width() for b in ax.containers[0].patches] == list(table)
    months = stats.supply(offers, "month", normalize=False)["events"]
    fig = plots.supply_bars(offers, "month", top=3)
    largest = months.sort_values(ascending=False, kind="stable").index[:3]
    shown = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert shown == [label(k) for k in sorted(largest)]
    high = label(largest[0])
    assert f"Largest: {high} ({int(months.max()):,})" in plots.alt_text(fig)


def test_supply_bars_of_one_group_say_so(offers: pd.DataFrame) -> None:
    bremen = stats.select(offers, state=["Bremen"])  # the filter narrows the levels
    fig = plots.supply_bars(bremen, "state", title="Bremen")
    text = plots.alt_text(fig)
    assert f"One bar: Bremen ({len(bremen):,})" in text
    assert "groups" not in text


def test_supply_bars_thousands_and_missing_state() -> None:
    frame = tiny(["Berlin"] * 1500 + ["Bremen"] * 3 + [None] * 2)
    fig = plots.supply_bars(frame, title="Angebote je Land")
    ax = fig.axes[0]
    assert len(ax.containers[0].patches) == 17  # every state, also those without offers
    assert bar_labels(ax) == ["1,500", "3"] + ["0"] * 14 + ["2"]
    ticks = [t.get_text() for t in ax.get_yticklabels()]
    assert ticks[:2] == ["Berlin", "Bremen"]
    assert ticks[-1] == "not stated"  # last, below the states without offers
    assert ax.xaxis.get_major_formatter()(1000, 0) == "1,000"
    check_furniture(fig, frame, "Angebote je Land")  # a real source: no demo mark


# -- stacked_shares ------------------------------------------------------------------


def test_stacked_shares(offers: pd.DataFrame, tmp_path: Path) -> None:
    fig = plots.stacked_shares(offers)
    ax = fig.axes[0]
    shares = stats.crosstab(offers, "state", "instruction_form_category", normalize="index")
    events = stats.supply(offers, "state", normalize=False)["events"]
    assert len(ax.containers) == shares.shape[1] == 5  # four categories and "ohne Angabe"
    for j, container in enumerate(ax.containers):
        assert len(container.patches) == 17
        np.testing.assert_allclose(
            [p.get_width() for p in container.patches],
            shares.iloc[:, j].to_numpy(dtype=float) * 100,
        )
    totals = sum(np.array([p.get_width() for p in c.patches]) for c in ax.containers)
    np.testing.assert_allclose(totals, 100)
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == [label(k) for k in shares.columns]
    assert legend.get_texts()[0].get_text() == "In person"  # Präsenz
    anchor = legend.get_bbox_to_anchor().transformed(ax.transAxes.inverted())
    assert anchor.x0 >= 1  # outside the axes
    ticks = [t.get_text() for t in ax.get_yticklabels()]
    assert ticks == [f"{label(k)} (n = {int(n):,})" for k, n in events.items()]
    assert f"Baden-Württemberg (n = {int(events['Baden-Württemberg']):,})" in ticks
    assert ax.xaxis.get_major_formatter()(50, 0) == "50%"
    assert ax.get_xlim() == (0, 100)
    assert ax.get_xlabel() == "Share of events (%)"
    title = "Share of events by instruction form category within each state"
    check_furniture(fig, offers, title)
    check_png(plots.save(fig, tmp_path / "shares.png", dpi=150), fig)


# -- heatmap -------------------------------------------------------------------------


def test_heatmap_shares(offers: pd.DataFrame) -> None:
    fig = plots.heatmap(offers)
    ax = fig.axes[0]
    table = stats.crosstab(offers, "state", "duration_class", normalize="index")
    values = table.to_numpy(dtype=float) * 100
    mesh = ax.collections[0]
    np.testing.assert_allclose(np.asarray(mesh.get_array()).reshape(values.shape), values)
    cells = {
        (round(t.get_position()[1] - 0.5), round(t.get_position()[0] - 0.5)): t.get_text()
        for t in ax.texts
    }
    assert len(cells) == values.size
    i = list(table.index).index("Nordrhein-Westfalen")
    j = list(table.columns).index("mehr als 1 Woche bis 1 Monat")
    assert cells[i, j] == f"{values[i, j]:.0f}%"
    assert cells[list(table.index).index("Bremen"), 0] == "0%"  # no such events: 0, no dash
    columns = [t.get_text() for t in ax.get_xticklabels()]
    assert [c.replace("\n", " ") for c in columns] == [label(k) for k in table.columns]
    assert "over 3 months to 6 months" in [c.replace("\n", " ") for c in columns]
    assert all(len(line) <= 12 for c in columns for line in c.split("\n"))  # wrapped
    # Each row names its number of events, the base of its shares.
    events = stats.supply(offers, "state", normalize=False)["events"]
    rows = [t.get_text() for t in ax.get_yticklabels()]
    assert rows == [f"{label(k)} (n = {int(n):,})" for k, n in events.items()]
    assert rows[-1].startswith("not stated (n = ")
    colorbar = fig.axes[1]
    assert colorbar.get_ylabel() == "Share of events within each state (%)"
    check_furniture(fig, offers, "Share of events by duration class within each state")


def test_heatmap_counts(offers: pd.DataFrame, tmp_path: Path) -> None:
    fig = plots.heatmap(offers, "instruction_form_category", "duration_class", normalize=False)
    ax = fig.axes[0]
    table = stats.crosstab(offers, "instruction_form_category", "duration_class")
    values = table.to_numpy(dtype=float)
    np.testing.assert_allclose(
        np.asarray(ax.collections[0].get_array()).reshape(values.shape), values
    )
    expected = [f"{v:,.0f}" for v in values.ravel()]  # 0 as 0: a dash reads as "nothing"
    assert [t.get_text() for t in ax.texts] == expected
    assert fig.axes[1].get_ylabel() == "Number of events"
    title = "Events by instruction form category and duration class"
    check_furniture(fig, offers, title)
    check_png(plots.save(fig, tmp_path / "heatmap.png", dpi=150), fig)
    with pytest.raises(EducatalogError, match="normalize"):
        plots.heatmap(offers, normalize="rows")


def test_heatmap_title_fits_and_n_says_what_it_counts(offers: pd.DataFrame) -> None:
    """Two columns and long row labels: the title (which starts where the cells start) ends
    inside the figure; n beside a row counts events, and a note says so where the cells
    count courses."""
    two = stats.select(offers, state=["Bremen", "Saarland"])
    for lang, measure in [(lang, m) for lang in ("de", "en") for m in ("events", "courses")]:
        fig = plots.heatmap(
            two, "duration_class", "state", normalize=False, measure=measure, lang=lang
        )
        fig.canvas.draw()
        ax = fig.axes[0]
        title = ax.get_title(loc="left")
        (shown,) = [t for t in ax.findobj(Text) if t.get_text() == title]
        assert shown.get_window_extent().x1 <= fig.bbox.x1 - 2, (lang, measure)
        note = texts.text("note.n_events", lang)
        noted = any(note in t.get_text().replace("\n", " ") for t in fig.texts)
        assert noted == (measure != "events"), (lang, measure)  # events: n is the cells' sum


# -- starts_over_time ----------------------------------------------------------------


def test_starts_per_month(offers: pd.DataFrame, tmp_path: Path) -> None:
    fig = plots.starts_over_time(offers)
    ax = fig.axes[0]
    (line,) = ax.get_lines()
    months = stats.supply(offers, "month", normalize=False)["events"]
    dated = months[months.index.notna()]
    full = pd.period_range(dated.index.min(), dated.index.max(), freq="M")
    assert list(line.get_ydata()) == [float(dated.get(p, 0)) for p in full]
    assert sum(line.get_ydata()) == offers["event_start_date"].notna().sum()
    assert ax.get_ylabel() == "Events starting per month"
    assert ax.get_xlabel() == "Start month"
    assert ax.yaxis.get_major_formatter()(2000, 0) == "2,000"
    check_furniture(fig, offers, "Events by start month")
    check_png(plots.save(fig, tmp_path / "starts.png", dpi=150), fig)


def test_starts_by_group_per_quarter(offers: pd.DataFrame) -> None:
    by = "instruction_form_category"
    fig = plots.starts_over_time(offers, freq="quarter", by=by)
    ax = fig.axes[0]
    wide = stats.crosstab(offers, "quarter", by)
    wide = wide[wide.index.notna()]
    lines = ax.get_lines()
    assert len(lines) == 5
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [label(k) for k in wide.columns]
    for line, key in zip(lines, wide.columns, strict=True):
        assert list(line.get_ydata()) == list(wide[key].astype(float))
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks[0] == "Q1\n2025"
    assert ax.get_title(loc="left") == "Events by start quarter and instruction form category"


def test_starts_fill_missing_periods_and_count_undated() -> None:
    frame = tiny(
        ["Berlin"] * 4,
        starts=["2025-01-03", "2025-01-20", "2025-04-02", None],
    )
    fig = plots.starts_over_time(frame)
    (line,) = fig.axes[0].get_lines()
    assert list(line.get_ydata()) == [2, 0, 0, 1]  # February and March without starts
    assert "Not shown: 1 event without a start date." in footer(fig).get_text()
    years = plots.starts_over_time(frame, freq="year")
    assert list(years.axes[0].get_lines()[0].get_xdata()) == [2025]
    with pytest.raises(EducatalogError, match="freq"):
        plots.starts_over_time(frame, freq="week")


# -- cost_boxplot --------------------------------------------------------------------


def test_cost_boxplot(offers: pd.DataFrame, tmp_path: Path) -> None:
    fig = plots.cost_boxplot(offers)
    ax = fig.axes[0]
    table = stats.costs(offers, "instruction_form_category", currency="EUR").droplevel("currency")
    boxes = [p for p in ax.patches if isinstance(p, PathPatch)]
    assert len(boxes) == len(table) >= 4  # and "not stated" where an unknown form has costs
    for box, (_, row) in zip(boxes, table.iterrows(), strict=True):
        xs = box.get_path().vertices[:, 0]
        assert (xs.min(), xs.max()) == pytest.approx((row["q1"], row["q3"]))
        assert any(list(line.get_xdata()) == [row["median"]] * 2 for line in ax.get_lines())
    ticks = [t.get_text() for t in ax.get_yticklabels()]
    # Each course once: n counts courses, and the footer says so.
    assert ticks == [f"{label(k)} (n = {int(n):,})" for k, n in table["courses"].items()]
    assert ticks[0].startswith("In person (n = ")
    assert "Per course: each course counts once" in footer(fig).get_text().replace("\n", " ")
    assert ax.get_xlabel() == "Cost (EUR)"
    assert ax.xaxis.get_major_formatter()(10000, 0) == "10,000"
    check_furniture(fig, offers, "Costs per course by instruction form category (EUR)")
    per_event = plots.cost_boxplot(offers, per="event")
    events = stats.costs(offers, "instruction_form_category", per="event")["events"]
    assert per_event.axes[0].get_yticklabels()[0].get_text() == (
        f"In person (n = {int(events.iloc[0]):,})"
    )
    assert per_event.axes[0].get_title(loc="left") == (
        "Costs per event by instruction form category (EUR)"
    )
    check_png(plots.save(fig, tmp_path / "costs.png", dpi=150), fig)


def test_cost_boxplot_leaves_out_a_level_without_costs(offers: pd.DataFrame) -> None:
    """A filter that leaves a form without priced courses (Thüringen: no distance learning)
    draws the other forms; the table of stats.costs() keeps the level with n = 0."""
    level = "Fernunterricht"
    without = offers[offers["instruction_form_category"] != level]
    table = stats.costs(without, "instruction_form_category").droplevel("currency")
    assert table.loc[level, "courses"] == 0
    ax = plots.cost_boxplot(without).axes[0]
    ticks = [t.get_text() for t in ax.get_yticklabels()]
    assert ticks == [f"{label(k)} (n = {int(n):,})" for k, n in table["courses"].items() if n > 0]
    assert len([p for p in ax.patches if isinstance(p, PathPatch)]) == len(ticks) == len(table) - 1


def test_cost_boxplot_currency_without_costs(offers: pd.DataFrame) -> None:
    with pytest.raises(EducatalogError, match=r"No event in the frame has a cost in USD.*EUR"):
        plots.cost_boxplot(offers, currency="USD")
    frame = tiny(["Berlin", "Bremen"], costs=[None, None])  # type: ignore[list-item]
    frame["cost"] = pd.array([None, None], dtype="Float64")
    with pytest.raises(EducatalogError, match="no costs at all"):
        plots.cost_boxplot(frame)


# -- tile_map ------------------------------------------------------------------------


def luminance(color: Any) -> float:
    r, g, b, _ = to_rgba(color)
    return 0.299 * r + 0.587 * g + 0.114 * b


def tile_texts(ax: Any) -> dict[str, tuple[str, str]]:
    """Each tile's name and value by ISO code (drawn in the order of TILE_GRID)."""
    words = [t.get_text() for t in ax.texts]
    return dict(zip(plots.TILE_GRID, zip(words[::2], words[1::2], strict=True), strict=True))


def test_tile_map_per_capita(offers: pd.DataFrame, tmp_path: Path) -> None:
    fig = plots.tile_map(offers)
    ax = fig.axes[0]
    tiles = {p.get_gid().removeprefix("tile-"): p for p in ax.patches if isinstance(p, Rectangle)}
    assert set(tiles) == set(plots.TILE_GRID)
    assert len(tiles) == 16
    rates = stats.per_capita(offers)["events_per_100k"]
    by_code = {CODE_OF[str(name)]: float(v) for name, v in rates.items()}
    tiles_text = tile_texts(ax)
    assert {c: v for c, (_, v) in tiles_text.items()} == {
        code: f"{by_code[code]:.2f}" for code in plots.TILE_GRID
    }
    # The states by name, in English, broken to fit their tile; no ISO codes.
    names = {c: n.replace("-\n", "-").replace("\n", " ") for c, (n, _) in tiles_text.items()}
    assert names["DE-NW"] == "North Rhine-Westphalia"
    assert names["DE-BY"] == "Bavaria"
    assert not any("DE-" in n for n in names.values())
    ordered = sorted(plots.TILE_GRID, key=by_code.__getitem__)
    shades = [luminance(tiles[code].get_facecolor()) for code in ordered]
    assert shades == sorted(shades, reverse=True)  # darker for more events per inhabitant
    assert fig.axes[1].get_xlabel() == "Events per 100,000 inhabitants"  # the colorbar
    stateless = int(offers["state"].isna().sum())
    assert f"Not shown: {stateless} events without a state." in footer(fig).get_text()
    check_furniture(fig, offers, "Events per 100,000 inhabitants by state")
    check_png(plots.save(fig, tmp_path / "tiles.png", dpi=150), fig)


def test_tile_map_counts_from_state_codes() -> None:
    frame = tiny(["Berlin"] * 3 + ["Bayern"] * 1200).drop(columns="state")
    fig = plots.tile_map(frame, measure="events")
    pairs = {c: v for c, (_, v) in tile_texts(fig.axes[0]).items()}
    assert pairs["DE-BE"] == "3"
    assert pairs["DE-BY"] == "1,200"
    assert pairs["DE-HB"] == "0"
    assert fig.axes[1].get_xlabel() == "Number of events"
    assert fig.axes[0].get_title(loc="left") == "Events by state"
    check_furniture(fig, frame, "Events by state")


# -- every chart ---------------------------------------------------------------------

CHARTS: dict[str, Callable[..., Figure]] = {
    "supply_bars": plots.supply_bars,
    "stacked_shares": plots.stacked_shares,
    "heatmap": plots.heatmap,
    "starts_over_time": plots.starts_over_time,
    "cost_boxplot": plots.cost_boxplot,
    "tile_map": plots.tile_map,
}


@pytest.mark.parametrize("name", CHARTS)
def test_no_source_no_demo_mark(name: str) -> None:
    frame = tiny(["Berlin", "Bremen", None, "Bayern"], source=None)
    fig = CHARTS[name](frame)
    check_furniture(fig, frame, fig.axes[0].get_title(loc="left"))
    assert footer(fig).get_text().endswith(f"Source: {UNKNOWN}")
    real = tiny(["Berlin", "Bremen"])
    assert (
        footer(CHARTS[name](real))
        .get_text()
        .endswith("Source: https://kurse.example.org, retrieved 1 Mar 2025")
    )


@pytest.mark.parametrize(
    ("name", "dropped"),
    [
        ("supply_bars", "state"),
        ("stacked_shares", "instruction_form_category"),
        ("heatmap", "duration_class"),
        ("starts_over_time", "event_start_date"),
        ("cost_boxplot", "cost_currency"),
        ("tile_map", "event_id"),
    ],
)
def test_missing_columns(offers: pd.DataFrame, name: str, dropped: str) -> None:
    frame = offers.drop(columns=dropped)
    with pytest.raises(MissingColumns, match=rf"needs the column\(s\) {dropped}.*offers\(\)"):
        CHARTS[name](frame)


def test_tile_map_without_any_state(offers: pd.DataFrame) -> None:
    with pytest.raises(EducatalogError, match=r"state.*catalogue\.offers\(\)"):
        plots.tile_map(offers.drop(columns=["state", "state_code"]))


def test_draw_into_given_axes(offers: pd.DataFrame) -> None:
    fig = Figure(figsize=(14, 6), layout="constrained")
    left, right = fig.subplots(1, 2)
    assert plots.supply_bars(offers, ax=left, top=5) is fig
    assert plots.tile_map(offers, ax=right) is fig
    assert left.get_title(loc="left") == "Events by state (top 5)"
    assert right.get_title(loc="left") == "Events per 100,000 inhabitants by state"
    assert len(demo_marks(fig)) == 2  # once per figure
    assert footer(fig).get_text().count("Source:") == 1  # same source, one line
    assert plt.get_fignums() == []  # nothing left in pyplot
    assert matplotlib.rcParams["axes.spines.top"]  # the style does not leak
    with pytest.raises(WrongType, match="Axes"):
        plots.supply_bars(offers, ax="left")  # type: ignore[arg-type]


def test_save_formats(tmp_path: Path) -> None:
    fig = plots.supply_bars(tiny(["Berlin", "Bremen"]), by="instruction_form_category")
    png = plots.save(fig, tmp_path / "chart.png")  # 200 dpi by default
    check_png(png, fig, dpi=200)
    assert plots.save(fig, tmp_path / "chart.svg").read_text().lstrip().startswith("<?xml")
    assert plots.save(fig, str(tmp_path / "chart.pdf")).read_bytes()[:5] == b"%PDF-"
    with pytest.raises(UsageError, match="png"):
        plots.save(fig, tmp_path / "chart.jpg")
    with pytest.raises(EducatalogError, match="150 dpi"):
        plots.save(fig, tmp_path / "chart.png", dpi=72)


# -- the package: errors, names, IPython -----------------------------------------------


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda f: _plots.supply_bars(f, measure="visits"), UsageError),
        (lambda f: _plots.supply_bars(f, top=0), UsageError),
        (lambda f: _plots.supply_bars(f, top="5"), WrongType),
        (lambda f: _plots.supply_bars(f, by=3), WrongType),
        (lambda f: _plots.supply_bars(f, by=""), UsageError),
        (lambda f: _plots.supply_bars(f.to_dict()), WrongType),
        (lambda f: _plots.supply_bars(f, lang="fr"), UsageError),
        (lambda f: _plots.stacked_shares(f, "state", "state"), UsageError),
        (lambda f: _plots.heatmap(f, normalize="rows"), UsageError),
        (lambda f: _plots.starts_over_time(f, freq="week"), UsageError),
        (lambda f: _plots.cost_boxplot(f, currency="USD"), UsageError),
        (lambda f: _plots.tile_map(f, measure="visits"), UsageError),
        (lambda f: _plots.trend(f), UsageError),
        (lambda f: _plots.trend([1, 2]), WrongType),
    ],
)
def test_usage_mistakes_raise_the_tree_s_classes(
    call: Callable[[pd.DataFrame], Figure], error: type[EducatalogError]
) -> None:
    frame = tiny(["Berlin", "Bremen"])
    with pytest.raises(error) as caught:
        call(frame)
    assert isinstance(caught.value, TypeError if error is WrongType else ValueError)


def test_every_public_name_stays_importable() -> None:
    names = [
        *_plots.__all__,
        "BAR_COLOR",
        "MISSING_COLOR",
        "PALETTE",
        "PER_100K",
        "population_text",
    ]
    for name in names:
        assert getattr(_plots, name) is not None, name
    assert _plots.population_text is texts.population_text
    assert plots.MISSING_LABEL == "ohne Angabe"
    from educatalog.plots import population_text, supply_bars

    assert (population_text, supply_bars) == (texts.population_text, _plots.supply_bars)
    assert tiny(["Berlin", "Bremen"]).edu.plot.supply(by="state", lang="en").axes


def test_importing_plots_registers_no_ipython_formatter(tmp_path: Path) -> None:
    code = textwrap.dedent(
        """
        import matplotlib
        matplotlib.use("Agg")
        from IPython.core.interactiveshell import InteractiveShell
        from matplotlib.figure import Figure

        shell = InteractiveShell.instance()
        bundle = shell.display_formatter.mimebundle_formatter

        def registered():
            try:
                bundle.lookup_by_type(Figure)
            except KeyError:
                return False
            return True

        import educatalog
        import educatalog.plots as plots

        assert not registered(), "importing plots registered a formatter"
        assert plots.register_notebook_display() and registered()
        first = bundle.lookup_by_type(Figure)
        assert plots.register_notebook_display()
        assert bundle.lookup_by_type(Figure) is first
        fig = plots.supply_bars(
            __import__("pandas").DataFrame({"event_id": [1], "state": ["Berlin"]})
        )
        data, metadata = shell.display_formatter.format(fig)
        assert data["image/png"][:8] == b"\\x89PNG\\r\\n\\x1a\\n"
        assert metadata["image/png"]["alt"] == plots.alt_text(fig)
        assert f'alt="{plots.alt_text(fig)}"' in data["text/html"]
        """
    )
    env = {**os.environ, "IPYTHONDIR": str(tmp_path)}  # the shell's profile, not the user's
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


class _Formatter:
    """An IPython mime-bundle formatter as far as registration needs one."""

    def __init__(self) -> None:
        self.printers: dict[type, Callable[..., Any]] = {}
        self.calls = 0

    def lookup_by_type(self, kind: type) -> Callable[..., Any]:
        return self.printers[kind]

    def for_type(self, kind: type, printer: Callable[..., Any]) -> None:
        self.calls += 1
        self.printers[kind] = printer


def test_a_chart_registers_the_display_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import IPython

    formatter = _Formatter()
    shell = types.SimpleNamespace(
        display_formatter=types.SimpleNamespace(mimebundle_formatter=formatter)
    )
    monkeypatch.setattr(IPython, "get_ipython", lambda: shell)
    fig = plots.supply_bars(tiny(["Berlin", "Bremen"]))
    plots.heatmap(tiny(["Berlin", "Bremen"]))
    assert _plots.register_notebook_display()
    assert formatter.calls == 1  # idempotent
    data, metadata = formatter.printers[Figure](fig)
    assert data["image/png"][:8] == b"\x89PNG\r\n\x1a\n"
    alt = _plots.alt_text(fig)
    assert metadata == {"image/png": {"alt": alt}}
    # JupyterLab puts no alt on a PNG output: the HTML image carries it
    assert data["text/html"].startswith('<img src="data:image/png;base64,')
    assert f'alt="{html.escape(alt)}"' in data["text/html"]
    monkeypatch.setattr(IPython, "get_ipython", lambda: None)
    assert not _plots.register_notebook_display()  # outside a shell: nothing to do


def test_a_saved_chart_is_shown_from_its_file_without_drawing_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report saves each chart at 200 dpi and shows the same image at the figure's
    resolution (the size the notebook display would draw), with its SVG and alt text."""
    import io

    import IPython.display
    from IPython.core.pylabtools import print_figure
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    fig = plots.supply_bars(tiny(["Berlin", "Bremen", "Hamburg"]))
    drawn = Image.open(io.BytesIO(print_figure(fig, "png", bbox_inches="tight")))
    saved = _plots.save(fig, tmp_path / "chart.png", dpi=200)
    renders: list[object] = []
    original = FigureCanvasAgg.print_png

    def counted(self: FigureCanvasAgg, *args: Any, **kwargs: Any) -> None:
        renders.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(FigureCanvasAgg, "print_png", counted)
    shown: list[tuple[Any, Any]] = []
    monkeypatch.setattr(
        IPython.display, "display", lambda b, raw, metadata: shown.append((b, metadata))
    )
    _plots.display.display_chart(fig, png=saved, dpi=200)
    assert renders == []  # the PNG is the file's, not drawn once more
    [(bundle, metadata)] = shown
    image = Image.open(io.BytesIO(bundle["image/png"]))
    assert abs(image.width - drawn.width) <= 1
    assert abs(image.height - drawn.height) <= 1
    assert bundle["image/svg+xml"].lstrip().startswith("<?xml")
    alt = _plots.alt_text(fig)
    assert metadata["image/png"] == {"alt": alt}
    assert metadata["image/svg+xml"]["alt"] == alt
    plt.close(fig)
