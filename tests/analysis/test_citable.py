"""Numbers a reader can cite, at the level of the functions: a selection narrows the levels
instead of listing what it left out as 0, tables carry their totals, states come in the
order of their keys, and the charts' details say what they show."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
import pytest
from matplotlib.colors import to_rgb
from matplotlib.patches import Rectangle

from educatalog import plots, stats, tables, texts
from educatalog.catalogue import Catalogue
from educatalog.errors import UsageError

TWO = ["Bayern", "Sachsen"]


@pytest.fixture(scope="module")
def offers(demo_catalogue: Catalogue) -> pd.DataFrame:
    return demo_catalogue.offers()


@pytest.fixture(scope="module")
def two(offers: pd.DataFrame) -> pd.DataFrame:
    return stats.select(offers, state=TWO, start="2025-04-01", end="2026-03-31")


def test_a_selection_lists_the_levels_it_admits_and_no_others(
    offers: pd.DataFrame, two: pd.DataFrame
) -> None:
    table = stats.supply(two, "state")
    assert list(table.index) == TWO  # not 16 states, 14 of them "with 0 events"
    start = two["event_start_date"]
    assert start.min() >= pd.Timestamp("2025-04-01")
    assert start.max() < pd.Timestamp("2026-04-01")
    expected = offers[
        offers["state"].isin(TWO)
        & (offers["event_start_date"] >= pd.Timestamp("2025-04-01"))
        & (offers["event_start_date"] < pd.Timestamp("2026-04-01"))
    ]
    assert int(table["events"].sum()) == expected["event_id"].nunique()
    assert list(stats.per_capita(two).index) == TWO
    assert list(stats.crosstab(two, "state", "instruction_form_category").index) == TWO
    # The codes narrow alike, and the selection is recorded.
    assert set(two["state_code"].cat.categories) == {"DE-BY", "DE-SN"}
    assert two.attrs["educatalog"]["selection"] == {
        "state": TWO,
        "start": "2025-04-01",
        "end": "2026-03-31",
    }
    # Periods: the data's range inside the selection's dates, every month of it.
    months = stats.supply(two, "month").index
    assert str(months[0]) == "2025-04"
    assert str(months[-1]) == "2026-03"
    assert len(months) == 12
    # Within the levels admitted, a level without events is still listed, with 0.
    quiet = stats.select(offers, state=["Bayern", "Saarland"], start="2099-01-01")
    assert list(stats.supply(quiet, "state")["events"]) == [0, 0]


def test_a_selection_names_what_is_wrong() -> None:
    frame = pd.DataFrame(
        {"event_id": [1], "state": pd.Categorical(["Bayern"], categories=["Bayern", "Berlin"])}
    )
    with pytest.raises(UsageError, match=r"'Bayren' is no value of \"state\".*Bayern, Berlin"):
        stats.select(frame, state=["Bayren"])
    with pytest.raises(UsageError, match="start 2026-01-01 is after end 2025-01-01"):
        stats.select(frame, start="2026-01-01", end="2025-01-01")
    with pytest.raises(UsageError, match="start must be a date as YYYY-MM-DD"):
        stats.select(frame, start="1.4.2025")
    kept = stats.select(frame, state=[None])  # the events without a state
    assert kept.empty
    assert list(kept["state"].cat.categories) == []


def test_totals_in_every_table_and_germany_for_all_states(offers: pd.DataFrame) -> None:
    supply = tables.present(stats.supply(offers, "state", margins=True), "de")
    total = supply.frame.iloc[-1]
    assert supply.frame.index[-1] == ("", "Deutschland")
    assert supply.totals == 1
    assert total["Veranstaltungen"] == offers["event_id"].nunique()
    assert total["Kurse"] == offers["course_id"].nunique()  # distinct, not the states' sum
    assert total["Kurse"] < supply.frame["Kurse"].iloc[:-1].sum()
    rates = tables.present(stats.per_capita(offers, margins=True), "en")
    germany = rates.frame.loc[("", "Germany (events with a state)")]
    assert germany.iloc[-1] == pytest.approx(germany.iloc[0] * 100_000 / 83_577_140)
    assert any("Not in the rates:" in note for note in rates.notes)
    # A selection's total is no Germany: "Insgesamt", over its own population.
    chosen = tables.present(stats.per_capita(stats.select(offers, state=TWO), margins=True), "de")
    assert list(chosen.frame.index) == [("09", "Bayern"), ("14", "Sachsen"), ("", "Insgesamt")]
    shares = tables.present(
        stats.crosstab(
            offers, "state", "instruction_form_category", normalize="index", margins=True
        )
    )
    assert shares.frame.columns[-1] == "Insgesamt"
    assert set(shares.kinds.values()) == {"share"}
    assert shares.frame.iloc[:, -1].tolist() == pytest.approx([1.0] * len(shares.frame))
    costs = tables.present(stats.costs(offers, "instruction_form_category", margins=True), "de")
    assert costs.frame.index[-1] == ("Insgesamt", "EUR")


def test_states_in_the_order_of_their_keys_with_the_key(offers: pd.DataFrame) -> None:
    table = stats.supply(offers, "state")
    assert [str(s) for s in table.index[:3]] == ["Schleswig-Holstein", "Hamburg", "Niedersachsen"]
    assert str(table.index[15]) == "Thüringen"
    presented = tables.present(table, "de")
    keys = [k for k, _ in presented.frame.index]
    assert keys[:16] == [f"{n:02d}" for n in range(1, 17)]
    assert presented.frame.index[-1] == ("", "ohne Angabe")
    # A table whose states come in another order (an archive's) is put in key order too.
    alphabetical = table.iloc[:-1].sort_index(key=lambda i: i.astype(str))
    again = tables.present(alphabetical, "de")
    assert [k for k, _ in again.frame.index] == [f"{n:02d}" for n in range(1, 17)]


def test_costs_per_course_by_default_and_per_event_on_request(offers: pd.DataFrame) -> None:
    per_course = stats.costs(offers, "instruction_form_category")
    per_event = stats.costs(offers, "instruction_form_category", per="event")
    in_person = offers[
        (offers["instruction_form_category"] == "Präsenz") & (offers["cost_currency"] == "EUR")
    ].dropna(subset=["cost"])
    once = in_person.drop_duplicates("course_id")["cost"].astype(float)
    assert per_course.loc[("Präsenz", "EUR"), "median"] == pytest.approx(once.median())
    weighted = in_person.drop_duplicates("event_id")["cost"].astype(float)
    assert per_event.loc[("Präsenz", "EUR"), "median"] == pytest.approx(weighted.median())
    assert once.median() != weighted.median()  # a course with ten events counts once
    note = tables.present(per_course, "de").notes
    assert note[0] == texts.text("note.costs_per_course", "de")
    with pytest.raises(UsageError, match="Unknown per 'events'"):
        stats.costs(offers, per="events")


def test_the_tile_map_shows_what_a_selection_left_out_as_not_selected(two: pd.DataFrame) -> None:
    fig = plots.tile_map(two, lang="de")
    ax = fig.axes[0]
    tiles = {p.get_gid().removeprefix("tile-"): p for p in ax.patches if isinstance(p, Rectangle)}
    words = [t.get_text() for t in ax.texts]
    by_code = dict(zip(plots.TILE_GRID, zip(words[::2], words[1::2], strict=True), strict=True))
    assert by_code["DE-BW"][1] == "nicht ausgewählt"  # never "0,00"
    assert tiles["DE-BW"].get_hatch() == "///"
    assert by_code["DE-BY"][0] == "Bayern"
    assert by_code["DE-BY"][1] not in ("nicht ausgewählt", "–")
    assert tiles["DE-BY"].get_hatch() is None
    assert sum(v == "nicht ausgewählt" for _, v in by_code.values()) == 14
    footer = " ".join(t.get_text() for t in fig.texts).replace("\n", " ")
    assert "Schraffiert: nicht ausgewählte Bundesländer" in footer
    bars = plots.supply_bars(two, "state")
    assert len(bars.axes[0].containers[0].patches) == 2  # two bars, no empty ones


def contrast(color: Any) -> float:
    """WCAG contrast ratio of ``color`` against white."""
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in to_rgb(color)]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return 1.05 / (luminance + 0.05)


def test_lines_stand_out_from_white(offers: pd.DataFrame) -> None:
    assert all(contrast(c) >= 3 for c in plots.LINE_PALETTE)
    rows = [
        {"snapshot_date": day, "state": state, "events": n + k}
        for k, day in enumerate(pd.date_range("2024-01-01", periods=3, freq="MS"))
        for n, state in enumerate(list(offers["state"].cat.categories)[:8])
    ]
    table = pd.DataFrame(rows).set_index(["snapshot_date", "state"])
    fig = plots.trend(table, "events")
    lines = fig.axes[0].get_lines()
    assert len(lines) == 8
    assert min(contrast(line.get_color()) for line in lines) >= 3  # no yellow on white


def test_small_shares_and_quarters_as_a_reader_reads_them(tmp_path: Path) -> None:
    assert texts.percent(1 / 5503, "de") == "0,02\u00a0%"  # not "0,0 %"
    assert texts.percent(1 / 5503, "en") == "0.02%"
    assert texts.percent(0, "de") == "0,0\u00a0%"
    assert texts.label(pd.Period("2025Q1"), "de") == "1. Quartal 2025"
    assert texts.label(pd.Period("2025Q1"), "en") == "Q1 2025"
    frame = pd.DataFrame({"events": [5502, 1]}, index=pd.Index(["a", "b"], name="x"))
    frame["share"] = frame["events"] / 5503
    table = tables.present(frame, "de")
    assert table.formatted()["Anteil der Veranstaltungen"].tolist() == [
        "99,98\u00a0%",
        "0,02\u00a0%",
    ]
    book = openpyxl.load_workbook(tables.write_excel(tmp_path / "t.xlsx", [table]))
    cell = book.worksheets[1]["C4"]
    assert cell.value == pytest.approx(1 / 5503)
    assert cell.number_format == "0.00%"
