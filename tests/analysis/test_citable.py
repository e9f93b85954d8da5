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
from educatalog.errors import UsageError
from educatalog.frames.catalogue import Catalogue

TWO = ["Bayern", "Sachsen"]


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
    # On the page the total row, and only it, is set off (bold, ruled) from the rows.
    page = supply.to_html()
    assert page.count('<tr class="educatalog-total">') == 1
    assert '<tr class="educatalog-total"><th scope="row"></th><th scope="row">Deutschland' in page
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
    # A cost of 0 (voucher-funded courses state it) is a price: a column counts those
    # courses, and without that column a note says how many.
    priced = offers.dropna(subset=["cost", "cost_currency"]).drop_duplicates("course_id")
    zero, total = int((priced["cost"] == 0).sum()), len(priced)
    assert zero > 0
    assert int(per_course["zero"].sum()) >= zero  # a course counts in each form it has
    assert per_course.loc[("Präsenz", "EUR"), "min"] == 0
    without = per_course.drop(columns="zero")
    without.attrs = per_course.attrs
    counted = texts.text(
        "note.costs_zero", "de", n=texts.number(zero, "de"), total=texts.number(total, "de")
    )
    assert counted in tables.present(without, "de").notes
    assert counted not in note
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
    # One precision for every share. In words and charts, one that is not 0 never shows as
    # 0 (nor 100 %), but as below (above) the smallest step, not with decimals of its own
    # ("0,02 %"); a table writes it as official statistics do (tables.symbols): "0,0 %" is
    # more than nothing but less than half the last digit, and exactly 0 is "–".
    assert texts.percent(1 / 5503, "de") == "<\u00a00,1\u00a0%"  # not "0,0 %"
    assert texts.percent(1 / 5503, "en") == "<0.1%"
    assert texts.percent(5502 / 5503, "de") == ">\u00a099,9\u00a0%"
    assert texts.percent(0.0006, "de") == "0,1\u00a0%"
    assert texts.percent(0, "de") == "0,0\u00a0%"
    assert texts.percent(1, "en") == "100.0%"
    assert texts.label(pd.Period("2025Q1"), "de") == "1. Quartal 2025"
    assert texts.label(pd.Period("2025Q1"), "en") == "Q1 2025"
    frame = pd.DataFrame({"events": [5502, 1]}, index=pd.Index(["a", "b"], name="x"))
    frame["share"] = frame["events"] / 5503
    table = tables.present(frame, "de")
    assert table.formatted()["Anteil der Veranstaltungen"].tolist() == [
        ">\u00a099,9\u00a0%",
        "0,0\u00a0%",  # the symbol "0" of official statistics, explained in the legend
    ]
    book = openpyxl.load_workbook(tables.write_excel(tmp_path / "t.xlsx", [table]))
    cell = book.worksheets[1]["C4"]
    assert cell.value == pytest.approx(1 / 5503)  # the number, shown as "0.0%"
    assert cell.number_format == '0.0%;-0.0%;"–"'


def test_every_share_header_names_its_base(demo_catalogue: Catalogue, offers: pd.DataFrame) -> None:
    """A reader never has to guess what a share is a share of: all events, the events of
    each value of a dimension, those that state the dimension, or those that state yes or no."""
    voucher = tables.present(stats.share(offers, "education_voucher", "state", unknown="separate"))
    assert list(voucher.frame.columns[-3:]) == [
        "Anteil ja (an allen)",
        "Anteil nein (an allen)",
        "Anteil ohne Angabe (an allen)",
    ]
    access = tables.present(stats.share(offers, "barrier_free", "state"), "en")
    assert access.frame.columns[-1] == "Share yes (of those stated)"
    within = tables.present(
        stats.supply(offers, ["instruction_time", "duration_class"], normalize="index"), "de"
    )
    assert within.frame.columns[-1] == "Anteil der Veranstaltungen je Unterrichtszeit"
    assert tables.present(stats.supply(offers, "state"), "de").frame.columns[-1] == (
        "Anteil der Veranstaltungen"
    )
    funded = demo_catalogue.offers(funding=True)
    with_type = funded.dropna(subset=["funding_type"])["event_id"].nunique()
    by_type = stats.supply(funded, "funding_type", dropna=True).sort_values("events")
    header = tables.present(by_type, "de").frame.columns[-1]
    assert header == f"Anteil an den {texts.number(with_type)} Veranstaltungen mit Förderart"
    assert with_type < funded["event_id"].nunique()
    english = tables.present(by_type, "en")
    assert english.frame.columns[-1] == f"Share of the {with_type:,} events with a funding type"
    # Nationwide funding types in English (with the German name), the states' as named.
    assert "Education voucher (Bildungsgutschein)" in list(english.frame.index)
    assert "Meisterbonus Bayern" in list(english.frame.index)


def test_no_funding_type_and_not_applicable_are_said_as_such(offers: pd.DataFrame) -> None:
    frame = pd.DataFrame(
        {"events": [3, 2]}, index=pd.Index(["federal", None], name="funding_level", dtype=object)
    )
    assert list(tables.present(frame, "de").frame.index) == ["Bund", "keine Förderart"]
    assert list(tables.present(frame, "en").frame.index) == ["federal", "no funding type"]
    flows = pd.DataFrame(
        {"listed": [10, 12], "entered": [pd.NA, 3]},
        index=pd.Index(["2024-01-01", "2024-02-01"], name="snapshot_date"),
    ).astype("Int64")
    flows.attrs["not_meaningful"] = {"cells": [("2024-01-01", "entered")], "why": "flows"}
    for lang in ("de", "en"):
        table = tables.present(flows, lang)
        assert table.formatted().iloc[0].tolist() == ["10", "x"]
        assert table.notes[-1].startswith("x: ")
    assert "Tabellenfach gesperrt, weil Aussage nicht sinnvoll" in tables.present(flows).notes[-1]
    flows.attrs.pop("not_meaningful")
    # an unknown number is ".", as official statistics write it (tables.symbols)
    assert tables.present(flows, "de").formatted().iloc[0].tolist() == ["10", "."]


def test_instruction_forms_in_english_as_the_categories_name_them() -> None:
    assert [
        texts.label(c, "en") for c in ("Präsenz", "Digital", "Kombiniert", "Fernunterricht")
    ] == [
        "In person",
        "Digital",
        "Combined",
        "Distance learning",
    ]
    assert texts.label("Sonstige kombinierte Lernformen", "en") == "Other combined formats"
    assert texts.label("Sonstige digitale Lernformen", "en") == "Other digital formats"
