"""The map of the districts (educatalog.plots.district_map): each district's colour is the
class of its value in educatalog.stats.per_capita, read back from the figure; hatching of
districts without data and of those a selection left out; the legend in both languages;
the zoom to a state; the footer's licences; the text alternative; the shapes and the state
borders drawn from them."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import itertools
import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure

from educatalog import plots, population, stats, texts
from educatalog.errors import MissingColumns, MissingDependency, UsageError, WrongType
from educatalog.frames.districts import district_shapes, district_table
from educatalog.frames.provenance import SOURCE_ATTR, Source
from educatalog.plots.districts import GID, class_bounds

KEYS = [str(k) for k in district_table().index]
NAMES = dict(zip(district_table()["district"], KEYS, strict=True))
LICENCES = ("© GeoBasis-DE / BKG 2021 (Daten verändert)", "© OpenStreetMap contributors")


# -- reading the figure back -----------------------------------------------------------


def collection(fig: Figure, gid: str = GID) -> PathCollection:
    (found,) = [c for c in fig.axes[0].collections if c.get_gid() == gid]
    assert isinstance(found, PathCollection)
    return found


def faces(fig: Figure) -> dict[str, tuple[float, ...]]:
    """Each district's fill colour, by key (the collection holds them in key order)."""
    colors = collection(fig).get_facecolor()
    assert len(colors) == len(KEYS) == 400
    return {key: tuple(np.round(color, 6)) for key, color in zip(KEYS, colors, strict=True)}


def hatched(fig: Figure, kind: str) -> list[str]:
    """The keys of the districts under the overlay ``kind`` ("no-data", "not-selected")."""
    found = [c for c in fig.axes[0].collections if c.get_gid() == f"{GID}-{kind}"]
    if not found:
        return []
    paths = collection(fig).get_paths()
    overlay = found[0]
    assert overlay.get_hatch()
    return sorted(KEYS[next(i for i, p in enumerate(paths) if p is q)] for q in overlay.get_paths())


def legend(fig: Figure) -> list[tuple[str, tuple[float, ...], str | None]]:
    """Each legend entry: its words, its colour and its hatch."""
    box = fig.axes[0].get_legend()
    assert box is not None
    return [
        (t.get_text(), tuple(np.round(to_rgba(h.get_facecolor()), 6)), h.get_hatch())
        for t, h in zip(box.get_texts(), box.legend_handles, strict=True)
    ]


def footer(fig: Figure) -> str:
    return " ".join(t.get_text() for t in fig.texts).replace("\n", " ")


NUMBER = r"([\d.,]+)"


def interval(words: str, lang: str) -> tuple[float, float, bool]:
    """A legend entry as (lower, upper, lower included); the upper bound never is, except
    for the single class "a to b"."""

    def number(text: str) -> float:
        if lang == "de":
            return float(text.replace(".", "").replace(",", "."))
        return float(text.replace(",", ""))

    de = lang == "de"
    patterns = [
        (r"0", lambda: (0.0, 0.0, True)),
        ((r"über 0" if de else r"over 0"), lambda: (0.0, np.inf, False)),
        ((r"über 0 bis unter " if de else r"over 0 to under ") + NUMBER, lambda a: (0.0, a, False)),
        ((r"unter " if de else r"under ") + NUMBER, lambda a: (-np.inf, a, True)),
        (NUMBER + (r" bis unter " if de else r" to under ") + NUMBER, lambda a, b: (a, b, True)),
        (NUMBER + (r" und mehr" if de else r" and over"), lambda a: (a, np.inf, True)),
    ]
    for pattern, make in patterns:
        found = re.fullmatch(pattern, words)
        if found:
            return make(*(number(g) for g in found.groups()))  # type: ignore[operator]
    raise AssertionError(f"not a class of the legend: {words!r}")


def expected_faces(fig: Figure, values: pd.Series, lang: str) -> dict[str, tuple[float, ...]]:
    """The colour each district must have by the legend's classes and its value."""
    entries = legend(fig)
    classes = [(interval(w, lang), color) for w, color, hatch in entries if hatch is None]
    expected = {}
    for key, value in values.items():
        if pd.isna(value):
            continue
        fits = [
            color
            for (low, high, closed), color in classes
            if (low == high == value)
            or ((value >= low if closed else value > low) and value < high and low != high)
        ]
        assert len(fits) == 1, (key, value, classes)
        expected[str(key)] = fits[0]
    return expected


def rates_by_key(
    offers: pd.DataFrame, measure: str = "events_per_100k", **options: Any
) -> pd.Series:
    table = stats.per_capita(offers, by="district", **options)
    values = table[measure].astype("Float64").astype(float)
    values.index = [NAMES[str(name)] for name in values.index]
    return values


# -- colours -----------------------------------------------------------------------------


def test_the_paths_are_the_districts_in_key_order() -> None:
    features = sorted(district_shapes()["features"], key=lambda f: f["properties"]["ags"])
    fig = plots.district_map(_tiny())
    paths = collection(fig).get_paths()
    sizes = [
        sum(len(ring) for polygon in _polygons(f["geometry"]) for ring in polygon) for f in features
    ]
    assert [len(p.vertices) for p in paths] == sizes


@pytest.mark.parametrize(("measure", "lang"), [("events_per_100k", "en"), ("events", "de")])
def test_each_district_has_the_colour_of_its_class(
    offers: pd.DataFrame, measure: str, lang: str
) -> None:
    fig = plots.district_map(offers, measure=measure, lang=lang)
    values = rates_by_key(offers, measure)
    assert values.notna().all()
    assert len(values) == 400
    expected = expected_faces(fig, values, lang)
    drawn = faces(fig)
    assert {k: drawn[k] for k in KEYS} == {k: expected[k] for k in KEYS}
    colors = [color for _, color, _ in legend(fig)]
    shades = [0.299 * r + 0.587 * g + 0.114 * b for r, g, b, _ in colors]
    assert shades == sorted(shades, reverse=True)  # darker for higher classes
    # As many classes as the rule gives (ties of small counts merge classes), never fewer
    # than three: 0, the lower and the upper districts.
    rule = class_bounds(values.to_numpy(), 5, whole=measure == "events")
    assert len(set(colors)) == len(colors) == rule.count >= 3
    # Every class holds districts; the zeros are a class of their own.
    assert {drawn[k] for k in KEYS} == set(colors)
    assert legend(fig)[0][0] == "0"
    zeros = [k for k in KEYS if values[k] == 0]
    assert zeros
    assert {drawn[k] for k in zeros} == {colors[0]}


def test_the_classes_are_quantiles_of_the_values_above_zero(offers: pd.DataFrame) -> None:
    values = rates_by_key(offers)
    above = np.sort(values[values > 0].to_numpy())
    found = class_bounds(values.to_numpy(), 5)
    quantiles = np.quantile(above, [0.25, 0.5, 0.75])
    decimals = max(0, 1 - int(np.floor(np.log10(quantiles.min()))))
    assert found.zero
    assert found.bounds == tuple(round(float(q), decimals) for q in quantiles)
    counts = np.bincount(found.of(above), minlength=5)[1:]
    assert counts.min() >= 0.2 * len(above)  # about a quarter each
    # Ties give fewer classes, never empty ones.
    assert class_bounds([0, 0, 3, 3, 3, 3], 5, whole=True).count == 2
    assert class_bounds([2.5, 2.5, 2.5], 4).labels("de") == ["2,5"]
    assert class_bounds([1, 1, 1, 2], 2).labels("de") == ["1,0 bis 2,0"]
    assert class_bounds([0, 0], 5).labels("en") == ["0"]
    assert class_bounds([1.0, 2.0, 3.0, 4.0], 2).labels("en") == ["under 2.5", "2.5 and over"]


def test_bounds_in_the_reader_s_number_format() -> None:
    found = class_bounds([0, 1200, 1500, 2600, 3100, 12500, 14000], 4, whole=True)
    # Quantiles 2,233 and 6,233 of the six values above 0, to two significant digits.
    assert found.labels("de") == [
        "0",
        "über 0 bis unter 2.200",
        "2.200 bis unter 6.200",
        "6.200 und mehr",
    ]
    assert found.labels("en") == [
        "0",
        "over 0 to under 2,200",
        "2,200 to under 6,200",
        "6,200 and over",
    ]
    rates = class_bounds([0.12, 0.5, 1.25, 2.5, 7.75, 12.5, 20.0], 3)
    # Quantiles 1.25 and 7.75 (no zeros: three classes of all values), two digits.
    assert rates.labels("de") == ["unter 1,2", "1,2 bis unter 7,8", "7,8 und mehr"]
    assert rates.labels("en") == ["under 1.2", "1.2 to under 7.8", "7.8 and over"]


def test_legend_in_both_languages(offers: pd.DataFrame) -> None:
    german = [w for w, _, _ in legend(plots.district_map(offers))]
    english = [w for w, _, _ in legend(plots.district_map(offers, lang="en"))]
    assert german[0] == english[0] == "0"
    assert re.fullmatch(r"über 0 bis unter \d+,\d+", german[1])
    assert re.fullmatch(r"\d+,\d+ bis unter \d+,\d+", german[2])
    assert re.fullmatch(r"\d+,\d+ und mehr", german[-1])
    assert re.fullmatch(r"over 0 to under \d+\.\d+", english[1])
    assert re.fullmatch(r"\d+\.\d+ to under \d+\.\d+", english[2])
    assert re.fullmatch(r"\d+\.\d+ and over", english[-1])
    decimals = {len(n) for n in re.findall(r",(\d+)", " ".join(german))}
    assert len(decimals) == 1  # every bound with the same decimals
    assert [g.replace(",", ".") for g in re.findall(r"[\d,]+", " ".join(german))] == re.findall(
        r"[\d.]+", " ".join(english)
    )
    box = plots.district_map(offers, lang="en").axes[0].get_legend()
    assert box is not None
    assert box.get_title().get_text().replace("\n", " ") == "Events per 100,000 inhabitants"


def test_a_deliberately_swapped_colour_is_caught(offers: pd.DataFrame) -> None:
    """The check above reads the figure: two districts' colours swapped fail it."""
    fig = plots.district_map(offers, lang="en")
    values = rates_by_key(offers)
    drawn = collection(fig).get_facecolor()
    low, high = int(np.argmin(values.to_numpy())), int(np.argmax(values.to_numpy()))
    drawn[[low, high]] = drawn[[high, low]]
    collection(fig).set_facecolor(drawn)
    expected = expected_faces(fig, values, "en")
    assert faces(fig) != {k: expected[k] for k in KEYS}


# -- hatching ------------------------------------------------------------------------------


def test_districts_without_inhabitants_are_hatched_as_no_data(offers: pd.DataFrame) -> None:
    figures = population.district_population()["population"]
    known = {str(k): int(v) for k, v in figures.items() if not str(k).startswith("05")}
    fig = plots.district_map(offers, population=known, lang="en")
    nrw = sorted(k for k in KEYS if k.startswith("05"))
    assert hatched(fig, "no-data") == nrw
    assert len(nrw) == 53
    assert hatched(fig, "not-selected") == []
    drawn = faces(fig)
    assert {drawn[k] for k in nrw} == {tuple(np.round(to_rgba(plots.districts.NO_DATA_COLOR), 6))}
    values = rates_by_key(offers, population=known)
    expected = expected_faces(fig, values, "en")
    assert {k: drawn[k] for k in expected} == expected
    words, _, hatch = legend(fig)[-1]
    assert (words, hatch) == ("no data", plots.districts.HATCHES["no_data"])
    assert "Districts without data (hatched): 53." in (plots.alt_text(fig) or "")
    german = plots.district_map(offers, population=known)
    assert legend(german)[-1][0] == "keine Angabe"
    assert "Kreise ohne Angabe (schraffiert): 53." in (plots.alt_text(german) or "")


def test_districts_a_selection_left_out_are_hatched_as_not_selected(offers: pd.DataFrame) -> None:
    two = stats.select(offers, state=["Bayern", "Sachsen"])
    fig = plots.district_map(two, lang="en")
    chosen = [k for k in KEYS if k[:2] in ("09", "14")]
    assert len(chosen) == 96 + 13
    assert hatched(fig, "not-selected") == sorted(set(KEYS) - set(chosen))
    assert hatched(fig, "no-data") == []
    assert legend(fig)[-1][0] == "not selected"
    drawn = faces(fig)
    values = rates_by_key(two)
    assert set(values.index) == set(chosen)  # per_capita lists the selection's districts
    expected = expected_faces(fig, values, "en")
    assert {k: drawn[k] for k in chosen} == expected
    assert "Hatched: districts not selected (not part of the selection, not 0)." in footer(fig)
    assert "Districts not selected (hatched): 291." in (plots.alt_text(fig) or "")
    # Zoomed to the two states: all of their districts, and not all of Germany.
    x0, x1 = fig.axes[0].get_xlim()
    y0, y1 = fig.axes[0].get_ylim()
    box = _box(fig, chosen)
    assert x0 <= box[0]
    assert y0 <= box[1]
    assert x1 >= box[2]
    assert y1 >= box[3]
    assert (x1 - x0) < 1.1 * (box[2] - box[0])
    assert (y1 - y0) < 1.1 * (box[3] - box[1])


# -- the zoom to a state ---------------------------------------------------------------------


def _box(fig: Figure, keys: list[str]) -> tuple[float, float, float, float]:
    paths = collection(fig).get_paths()
    points = np.concatenate([paths[KEYS.index(k)].vertices for k in keys])
    return (*points.min(axis=0), *points.max(axis=0))  # type: ignore[return-value]


@pytest.mark.parametrize("state", ["Bayern", "Bavaria", "DE-BY", "BY", "09", " bayern "])
def test_state_zooms_to_its_districts(offers: pd.DataFrame, state: str) -> None:
    fig = plots.district_map(offers, state=state, lang="en")
    ax = fig.axes[0]
    bavaria = [k for k in KEYS if k.startswith("09")]
    x0, y0, x1, y1 = _box(fig, bavaria)
    margin = max(8.0, 0.03 * max(x1 - x0, y1 - y0))
    assert ax.get_xlim() == pytest.approx((x0 - margin, x1 + margin))
    assert ax.get_ylim() == pytest.approx((y0 - margin, y1 + margin))
    assert ax.get_aspect() == 1.0
    assert ax.get_title(loc="left") == "Events per 100,000 inhabitants by district: Bavaria"
    assert hatched(fig, "not-selected") == [k for k in KEYS if not k.startswith("09")]
    # Classed among Bavaria's districts alone.
    values = rates_by_key(offers)[bavaria]
    expected = expected_faces(fig, values, "en")
    assert {k: faces(fig)[k] for k in bavaria} == expected
    whole = plots.district_map(offers, lang="en")
    assert whole.axes[0].get_xlim()[1] - whole.axes[0].get_xlim()[0] > 1.5 * (x1 - x0)


def test_a_frame_narrowed_to_one_state_zooms_as_state_does(offers: pd.DataFrame) -> None:
    narrowed = plots.district_map(stats.select(offers, state="Bayern"), lang="en")
    asked = plots.district_map(offers, state="Bayern", lang="en")
    assert narrowed.axes[0].get_xlim() == asked.axes[0].get_xlim()
    assert narrowed.axes[0].get_title(loc="left") == asked.axes[0].get_title(loc="left")
    with pytest.raises(UsageError, match=r'state "Berlin" has no district.*Bavaria'):
        plots.district_map(stats.select(offers, state="Bayern"), state="Berlin", lang="en")


# -- footer, alt text --------------------------------------------------------------------


def test_the_footer_names_the_licences_the_inhabitants_and_the_source(offers: pd.DataFrame) -> None:
    for lang, inhabitants, source in (
        ("de", "Einwohner: Statistische Ämter des Bundes und der Länder, Regionaldatenbank "
         "Deutschland, Fortschreibung des Bevölkerungsstandes auf Basis des Zensus 2022 "
         "(Tabelle 12411-01-01-4), Stand 31.12.2024", "Quelle: synthetische Demodaten"),
        ("en", "Inhabitants: Federal Statistical Office and the statistical offices of the "
         "Länder, Regional database Germany, population update based on the 2022 census "
         "(table 12411-01-01-4), as of 31 Dec 2024", "Source: synthetic demo data"),
    ):  # fmt: skip
        fig = plots.district_map(offers, lang=lang)
        words = footer(fig)
        assert all(licence in words for licence in LICENCES)
        assert inhabitants in words
        assert source in words
        marks = [t for t in fig.texts if t.get_text() == texts.text("demo_mark", lang)]
        assert len(marks) == 2  # the watermark and the corner label
    counts = footer(plots.district_map(offers, measure="courses", lang="en"))
    assert "Inhabitants:" not in counts
    assert all(licence in counts for licence in LICENCES)
    without = int(offers.loc[offers["district"].isna(), "event_id"].nunique())
    assert without > 0
    assert f"Not shown: {texts.count(without, 'en')} without a district." in footer(
        plots.district_map(offers, lang="en")
    )


def test_real_data_carry_no_demo_mark() -> None:
    frame = _tiny()
    frame.attrs[SOURCE_ATTR] = Source(url="https://kurse.example.org", demo=False).to_attrs()
    fig = plots.district_map(frame, lang="en", measure="events")
    marks = [t for t in fig.texts if t.get_text() == texts.text("demo_mark", "en")]
    assert marks == []
    assert footer(fig).endswith(Source.from_attrs(frame.attrs).text("en"))  # type: ignore[union-attr]


def test_the_alt_text_names_the_highest_and_lowest_districts(offers: pd.DataFrame) -> None:
    table = stats.per_capita(offers, by="district")
    rates = table["events_per_100k"].astype(float)
    top, low = rates.idxmax(), rates.idxmin()
    tied = int((rates == rates.min()).sum()) - 1
    assert tied > 1
    alt = plots.alt_text(plots.district_map(offers, lang="en")) or ""
    events = int(table.at[top, "events"])
    assert (
        f"Highest: {top} ({texts.rate(rates[top], 'en')}; {texts.count(events, 'en')}); "
        f"lowest: {low} and {tied} more districts ({texts.rate(rates[low], 'en')}; 0 events)."
    ) in alt
    assert "Districts without data (hatched): 0." in alt
    assert alt.startswith("Map of the districts: Events per 100,000 inhabitants by district.")
    german = plots.alt_text(plots.district_map(offers)) or ""
    assert f"Höchster Wert: {top} ({texts.rate(rates[top], 'de')}; " in german
    counts = plots.alt_text(plots.district_map(offers, measure="events", lang="en")) or ""
    most = table["events"].astype(int).idxmax()
    assert f"Highest: {most} ({texts.number(table.at[most, 'events'], 'en')}); " in counts


# -- usage -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "error", "words"),
    [
        ({"state": "Bavria"}, UsageError, r'Unknown state "Bavria".*"DE-BY".*"09"'),
        ({"state": 9}, WrongType, "state must name one state, got 9"),
        (
            {"measure": "visits"},
            UsageError,
            r'Unknown measure "visits"; choose one of events_per_100k',
        ),
        ({"measure": "capacity"}, UsageError, r'Unknown measure "capacity"'),
        ({"classes": 1}, UsageError, "classes must be between 2 and 9, got 1"),
        ({"classes": "5"}, WrongType, "classes must be a whole number"),
        ({"lang": "fr"}, UsageError, "lang must be"),
    ],
)
def test_usage_mistakes_name_the_value(
    options: dict[str, Any], error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        plots.district_map(_tiny(), **options)


def test_a_frame_without_districts_says_how_to_get_them() -> None:
    with pytest.raises(MissingColumns, match=r"district.*offers\(\)"):
        plots.district_map(_tiny().drop(columns=["district", "district_key"]))
    by_key = plots.district_map(_tiny().drop(columns=["district"]), measure="events", lang="en")
    assert faces(by_key) == faces(plots.district_map(_tiny(), measure="events", lang="en"))


def test_the_accessor_draws_the_map(offers: pd.DataFrame) -> None:
    fig = offers.edu.plot.district_map(state="Sachsen", lang="en")
    assert fig.axes[0].get_title(loc="left") == "Events per 100,000 inhabitants by district: Saxony"
    assert "district_map" in plots.__all__


# -- the shapes and the borders -------------------------------------------------------------


def _polygons(geometry: dict[str, Any]) -> list[Any]:
    return (
        geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [geometry["coordinates"]]
    )


def test_district_shapes_as_geojson() -> None:
    shapes = district_shapes()
    assert shapes["type"] == "FeatureCollection"
    keys = sorted(f["properties"]["ags"] for f in shapes["features"])
    assert keys == KEYS
    shapes["features"].clear()  # a new copy each call
    assert len(district_shapes()["features"]) == 400


def test_district_shapes_as_geodataframe_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "geopandas", None)  # as if not installed
    with pytest.raises(
        MissingDependency, match=r"needs geopandas.*pip install 'educatalog\[geo\]'"
    ):
        district_shapes(as_geodataframe=True)


def test_district_shapes_as_geodataframe() -> None:
    pytest.importorskip("geopandas")
    frame = district_shapes(as_geodataframe=True)
    assert list(frame.index) == KEYS
    assert str(frame.crs) == "EPSG:4326"  # type: ignore[attr-defined]
    assert list(frame.columns) == ["district", "name", "kind", "state_key", "geometry"]


def _edges() -> Iterator[tuple[tuple[float, float], tuple[float, float], str]]:
    for feature in district_shapes()["features"]:
        for polygon in _polygons(feature["geometry"]):
            for ring in polygon:
                for a, b in itertools.pairwise(ring):
                    if a != b:
                        yield tuple(a), tuple(b), feature["properties"]["ags"]  # type: ignore[misc]


def test_the_shapes_share_most_edges_but_not_all() -> None:
    """What the state borders are derived from (plots/_shapes.py): an edge belongs to two
    districts at most; most inner edges are shared vertex for vertex, but not all (the
    shapes were simplified district by district), so shared edges alone would dash the
    states with false borders."""
    owners: dict[Any, list[str]] = defaultdict(list)
    for a, b, key in _edges():
        owners[(a, b) if a < b else (b, a)].append(key)
    counts = np.bincount([len(keys) for keys in owners.values()])
    assert counts[3:].sum() == 0
    assert counts[2] / counts[1:].sum() > 0.7
    assert counts[1] > 4000  # the national border and the coast are ~2,500 of them


def test_state_borders_run_between_states_not_through_them() -> None:
    """Beside every piece of the borders drawn, one side lies in another state (or
    outside Germany) than the other: no false border dashes a state."""
    fig = plots.district_map(_tiny(), measure="events")
    (borders,) = [c for c in fig.axes[0].collections if isinstance(c, LineCollection)]
    paths = collection(fig).get_paths()
    segments = np.concatenate([np.stack([s[:-1], s[1:]], axis=1) for s in borders.get_segments()])
    middle = segments.mean(axis=1)
    step = segments[:, 1] - segments[:, 0]
    unit = np.column_stack([-step[:, 1], step[:, 0]]) / np.hypot(*step.T)[:, None]

    def states_at(points: np.ndarray) -> list[set[str]]:
        found: list[set[str]] = [set() for _ in points]
        for key, path in zip(KEYS, paths, strict=True):
            for row in np.nonzero(path.contains_points(points))[0]:
                found[row].add(key[:2])
        return found

    length = np.hypot(*step.T)
    for km, share in ((0.3, 0.002), (0.6, 0.015)):  # narrow inlets of the coast aside
        left, right = states_at(middle + km * unit), states_at(middle - km * unit)
        inside = np.array([a == b and len(a) == 1 for a, b in zip(left, right, strict=True)])
        assert length[inside].sum() < share * length.sum()
    assert 12_000 < length.sum() < 14_000  # km: national border, coast and state borders


def test_a_border_drawn_twice_is_drawn_once_on_the_side_in_view() -> None:
    """Where Berlin's and Brandenburg's lines of their border differ (the shapes were
    simplified one by one), a map of Berlin draws Berlin's line, one of Brandenburg
    Brandenburg's: never both beside each other."""

    def border_points_around_berlin(state: str) -> tuple[np.ndarray, set[tuple[float, ...]]]:
        fig = plots.district_map(_tiny(), state=state, measure="events")
        (borders,) = [c for c in fig.axes[0].collections if isinstance(c, LineCollection)]
        berlin = collection(fig).get_paths()[KEYS.index("11000")].vertices
        points = np.concatenate(borders.get_segments())
        (x0, y0), (x1, y1) = berlin.min(axis=0), berlin.max(axis=0)
        near = (points[:, 0] >= x0) & (points[:, 0] <= x1) & (points[:, 1] >= y0)
        near &= points[:, 1] <= y1
        return points[near], {tuple(np.round(v, 6)) for v in berlin}

    points, own = border_points_around_berlin("Berlin")
    assert len(points) > 100
    assert all(tuple(np.round(p, 6)) in own for p in points)
    points, own = border_points_around_berlin("Brandenburg")
    assert not all(tuple(np.round(p, 6)) in own for p in points)


def test_events_without_a_district_are_counted_for_the_state_shown() -> None:
    frame = pd.concat([_tiny(), _tiny().iloc[:2]], ignore_index=True)
    frame["event_id"] = pd.array(range(1, 7), dtype="Int64")
    frame.loc[4:, ["district", "district_key"]] = None
    frame["state"] = frame["state"].cat.add_categories([]).where(frame.index != 5, None)
    assert (
        footer(plots.district_map(frame, measure="events", lang="en")).count(
            "Not shown: 2 events without a district."
        )
        == 1
    )
    bavaria = footer(plots.district_map(frame, measure="events", state="Bayern", lang="en"))
    assert "Not shown: 1 event without a district." in bavaria
    berlin = footer(plots.district_map(frame, measure="events", state="Berlin", lang="en"))
    assert "without a district" not in berlin


def test_the_map_draws_into_a_given_axes(offers: pd.DataFrame) -> None:
    import matplotlib.pyplot as plt

    fig = Figure(figsize=(13, 7), layout="constrained")
    left, right = fig.subplots(1, 2)
    assert plots.tile_map(offers, ax=left, lang="en") is fig
    assert plots.district_map(offers, ax=right, lang="en") is fig
    assert right.get_title(loc="left") == "Events per 100,000 inhabitants by district"
    assert footer(fig).count("Source:") == 1  # one source, one line
    assert plt.get_fignums() == []
    with pytest.raises(WrongType, match="Axes"):
        plots.district_map(offers, ax="right")  # type: ignore[arg-type]


# -- a hand-made frame -----------------------------------------------------------------------


def _tiny() -> pd.DataFrame:
    """Three events in two districts of Bayern and one in Berlin."""
    names = list(district_table()["district"])
    chosen = ["München, Stadt", "München, Stadt", "Passau, Stadt", "Berlin"]
    return pd.DataFrame(
        {
            "event_id": pd.array([1, 2, 3, 4], dtype="Int64"),
            "course_id": pd.array([1, 1, 2, 3], dtype="Int64"),
            "institution": pd.array(["a", "a", "b", "c"], dtype="string"),
            "state": pd.Categorical(["Bayern", "Bayern", "Bayern", "Berlin"]),
            "district": pd.Categorical(chosen, categories=names),
            "district_key": pd.array([NAMES[n] for n in chosen], dtype="string"),
        }
    )


def test_a_hand_made_frame_by_events() -> None:
    """Two events in München, one each in Passau and Berlin, none elsewhere."""
    fig = plots.district_map(_tiny(), measure="events", lang="en")
    drawn = faces(fig)
    colors = {words: color for words, color, _ in legend(fig)}
    assert list(colors) == ["0", "over 0 to under 2", "2 and over"]
    assert drawn[NAMES["München, Stadt"]] == colors["2 and over"]
    assert drawn[NAMES["Passau, Stadt"]] == drawn[NAMES["Berlin"]] == colors["over 0 to under 2"]
    assert drawn[NAMES["Flensburg"]] == colors["0"]
    assert json.dumps(legend(fig))  # plain values
