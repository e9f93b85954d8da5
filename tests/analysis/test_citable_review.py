"""What a ministry's analyst found still open after issue 21, at the level of the functions:
a 0 EUR course said as such and the courses a cost covers; the selection named under every
table and chart; the date of the data apart from the report's; lifetimes as lower bounds
where they are; totals that are no sums said so; a check a selection answers marked "x",
not 0; unknowns in the workbook as on the page; and every single state and a quarter
through the report's computations."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import openpyxl
import pandas as pd
import pytest

from educatalog import periods, plots, publication, stats, tables, texts
from educatalog.frames.provenance import Source, served_source
from educatalog.population import STATE_POPULATION, STATES

TWO = ["Bayern", "Sachsen"]


@pytest.fixture(scope="module")
def two(offers: pd.DataFrame) -> pd.DataFrame:
    return stats.select(offers, state=TWO, start="2025-04-01", end="2026-03-31")


def german(number: int) -> str:
    return f"{number:,}".replace(",", ".")


# -- 2: a cost of 0 is a cost, and said so; how many courses state one ------------------------


def test_costs_count_the_courses_at_0_and_say_how_many_courses_state_a_cost(
    offers: pd.DataFrame,
) -> None:
    table = stats.costs(offers, "instruction_form_category", margins=True)
    priced = offers[offers["cost_currency"] == "EUR"].dropna(subset=["cost"])
    courses = priced.drop_duplicates("course_id")
    assert table.loc[("All", "EUR"), "zero"] == int((courses["cost"] == 0).sum()) > 0
    in_person = courses[
        courses["course_id"].isin(
            priced.loc[priced["instruction_form_category"] == "Präsenz", "course_id"]
        )
    ]
    assert table.loc[("Präsenz", "EUR"), "zero"] == int((in_person["cost"] == 0).sum())
    shown = tables.present(table, "de")
    # beside the courses it counts, and saying so (issue 34, point 8)
    assert list(shown.frame.columns[:2]) == ["Kurse", "darunter Kurse zu 0 EUR"]
    assert any(
        n.startswith("Darunter Kurse zu 0 EUR: Kurse, für die der Dienst Kosten von 0")
        for n in shown.notes
    )
    assert "of which courses at 0 EUR" in tables.present(table, "en").frame.columns
    # per event, the column counts events, and its note says so
    per_event = stats.costs(offers, "instruction_form_category", margins=True, per="event")
    assert per_event.loc[("All", "EUR"), "zero"] == int((priced["cost"] == 0).sum())
    notes = tables.present(per_event, "de").notes
    assert any(
        n.startswith("Darunter Veranstaltungen zu 0 EUR: Veranstaltungen, deren Kurs laut")
        for n in notes
    )
    assert not any("Kurse, für die der Dienst Kosten von 0" in n for n in notes)
    english = tables.present(per_event, "en").notes
    assert any(
        n.startswith("Of which events at 0 EUR: events whose course's stated cost") for n in english
    )
    coverage = publication.cost_coverage(offers, "de")
    assert coverage.startswith(
        f"Kosten in EUR nennen {german(len(courses))} von "
        f"{german(offers['course_id'].nunique())} Kursen mit Veranstaltungen"
    )
    assert publication.cost_coverage(offers, "en").startswith(
        f"{len(courses):,} of {offers['course_id'].nunique():,} courses with events state a cost"
    )


# -- 3/4/12: the selection under every table and chart; what a rate counts; top 8 -------------


@pytest.mark.parametrize(
    ("start", "end", "lang", "words"),
    [
        ("2025-04-01", None, "de", "Auswahl: Beginn ab 01.04.2025."),
        (None, "2026-03-31", "de", "Auswahl: Beginn bis 31.03.2026."),
        ("2025-04-01", None, "en", "Selection: start dates from 1 Apr 2025."),
        (None, "2026-03-31", "en", "Selection: start dates up to 31 Mar 2026."),
    ],
)
def test_a_selection_open_at_one_end_says_so_in_words(
    start: str | None, end: str | None, lang: str, words: str, tmp_path: Path
) -> None:
    """No "bis …." (an ellipsis and the sentence's full stop) for a window open at one end."""
    source = Source(demo=True, name="Demo", as_of=dt.date(2026, 1, 15))
    filters = publication.scope(None, start, end, lang)
    pub = publication.Publication(tmp_path, lang, source=source, filters=filters)
    assert pub.selection == words


def test_a_filtered_publication_names_its_selection_under_tables_and_charts(
    two: pd.DataFrame, tmp_path: Path
) -> None:
    filters = publication.scope(TWO, "2025-04-01", "2026-03-31", "de")
    source = Source(demo=True, name="Demo", as_of=dt.date(2026, 1, 15))
    pub = publication.Publication(tmp_path, "de", source=source, filters=filters)
    selection = "Auswahl: Bundesländer: Bayern, Sachsen; Beginn 01.04.2025 bis 31.03.2026."
    shown = pub.table("states", stats.supply(two, "state", margins=True))
    assert shown.selection == selection
    assert selection in shown.to_html()
    figure = plots.supply_bars(two, "state")
    pub.chart("01-supply-by-state", figure, "forms_by_state", frame=stats.supply(two, "state"))
    assert plots.alt_text(figure).endswith(selection)
    footer = next(t.get_text() for t in figure.texts if t.get_gid() == "educatalog-source")
    assert "Auswahl: Bundesländer: Bayern, Sachsen;" in footer
    assert pub.book[-1].selection == selection  # the chart's own table too
    plt.close(figure)
    # The archive's tables, which the filters do not apply to, say that instead.
    whole = pub.table("flows", stats.supply(two, "state"), filtered=False)
    assert whole.selection is None
    assert selection not in whole.to_html()
    assert (
        "Das ganze Archiv: Die Filter des Berichts gelten für diese Tabelle nicht." in whole.notes
    )
    # In English, the states by their English names.
    assert publication.scope(TWO, None, None, "en") == ["states: Bavaria, Saxony"]
    # Without filters, no such line.
    plain = publication.Publication(tmp_path / "all", "de", source=source)
    assert not any(
        n.startswith("Auswahl") for n in plain.table("states", stats.supply(two, "state")).notes
    )


def test_a_rate_names_the_events_it_counts_and_the_catalogues_date(two: pd.DataFrame) -> None:
    """The selection's dates to the day (the first start found, 04.04.2025, is not the
    selection's first day)."""
    period = periods.Period.of(dt.date(2026, 1, 15), start="2025-04-01", end="2026-03-31")
    assert period.counted(two, "de") == (
        "Gezählt: Veranstaltungen mit Beginn 01.04.2025 bis 31.03.2026, wie sie der Katalog "
        "am 15.01.2026 listete."
    )
    english = period.counted(two, "en")
    assert english.startswith("Counted: events with start dates 1 Apr 2025 to 31 Mar 2026")
    assert english.endswith("as the catalogue listed them on 15 Jan 2026.")


def test_a_trend_of_the_top_states_says_so_in_its_title() -> None:
    dates = [dt.date(2026, 1, 1), dt.date(2026, 2, 1)]
    names = [str(s) for s in STATES["state"]]
    index = pd.MultiIndex.from_product([dates, names], names=["snapshot_date", "state"])
    table = pd.DataFrame({"events": range(1, len(index) + 1)}, index=index)
    figure = plots.trend(table, "events", top=8, lang="de", source="Archiv")
    title = figure.axes[0].get_title(loc="left")
    assert title == "Veranstaltungen im Zeitverlauf nach Bundesland (die 8 größten)"
    plt.close(figure)
    english = plots.trend(table, "events", top=8, lang="en", source="archive")
    assert english.axes[0].get_title(loc="left").endswith("(top 8)")
    plt.close(english)
    few = plots.trend(table, "events", top=20, lang="de", source="Archiv")
    assert "größten" not in few.axes[0].get_title(loc="left")  # nothing left out
    plt.close(few)


# -- 5: "Stand" is the date of the data; when the report was made a line of its own -----------


def test_stand_is_the_date_of_the_data_and_created_is_the_build(tmp_path: Path) -> None:
    fetched = dt.datetime(2026, 11, 26, 16, 58, tzinfo=dt.UTC)
    info = {"educatalog": {"seed": 0, "scale": 0.2, "as_of": "2024-03-01"}}
    source = publication.describe_source(Source(demo=True, fetched_at=fetched), info, "de")
    assert source.name is not None
    assert source.name.startswith("synthetischer Demo-Katalog von educatalog (Seed 0, Maßstab 0,2")
    assert source.as_of == dt.date(2024, 3, 1)
    assert source.stand == dt.date(2024, 3, 1)
    assert Source.from_attrs({"educatalog": source.to_attrs()}) == source
    assert Source(url="https://kurse.example/", fetched_at=fetched).stand == fetched.date()
    fields = publication.dates(source, "de")
    assert fields["stand"] == "01.03.2024"
    assert fields["created"].endswith(" UTC")
    assert texts.text("report.dates", "en", **publication.dates(source, "en")).startswith(
        "Data as of 1 Mar 2024. Created: "
    )
    frame = pd.DataFrame({"events": [3]}, index=pd.Index(["Bayern"], name="state"))
    path = tables.write_excel(tmp_path / "t.xlsx", [tables.present(frame, "de")], source=source)
    book = openpyxl.load_workbook(path)
    about = {r[0]: r[1] for r in book.worksheets[0].iter_rows(min_row=3, values_only=True)}
    assert about["Stand der Daten"] == "01.03.2024"
    assert about["Abgerufen"] == "26.11.2026, 16:58 UTC"
    assert "Erstellt" in about
    lines = [r[0] for r in book.worksheets[1].iter_rows(values_only=True) if r[0]]
    assert "Stand: 01.03.2024" in lines
    english = tables.write_excel(
        tmp_path / "e.xlsx", [tables.present(frame, "en")], source=source, lang="en"
    )
    rows = [r[0] for r in openpyxl.load_workbook(english).worksheets[0].iter_rows(values_only=True)]
    assert "Created" in rows
    assert "Data as of" in rows


def test_the_served_demo_cut_as_of_a_day_stands_as_of_that_day() -> None:
    """What loaded frames, the report and the publications say of the demo's date comes
    from one place (``provenance.served_source``)."""
    own = {"seed": 0, "scale": 0.2, "as_of": "2024-03-01T00:00:00"}
    served = served_source("http://127.0.0.1:9/", True, own)
    assert served.as_of == served.stand == dt.date(2024, 3, 1)
    fetched = "2024-03-02T08:00:00+00:00"  # a snapshot of it keeps its own retrieval
    snapshot = served_source(
        "http://127.0.0.1:9/", True, {**own, "snapshot": {"fetched_at": fetched}}
    )
    assert (snapshot.stand, snapshot.fetched_at.isoformat()) == (dt.date(2024, 3, 1), fetched)
    assert served_source("http://127.0.0.1:9/", True, {"seed": 0}).as_of is None
    # a day that is none is no reason to refuse the data: they stand as retrieved
    assert served_source("http://127.0.0.1:9/", True, {"as_of": "bald"}).as_of is None
    named = publication.describe_source(Source(demo=True), {"seed": 0, "as_of": "bald"}, "de")
    assert (named.as_of, named.name) == (
        None,
        publication.describe_source(Source(demo=True), {"seed": 0}, "de").name,
    )
    # a service's own "as_of" is not the demo's: its data stand as fetched
    assert served_source("https://kurse.example/", False, own).as_of is None


# -- 6 and 14: lifetimes as lower bounds where they are; flows with "x" ------------------------


class _Archive:
    """What course_lifetimes and flows read of an archive."""

    def lifetimes(self, level: str = "courses") -> pd.DataFrame:
        return pd.DataFrame(
            {
                "days": [0, 31, 59, 59, 10],
                "left_censored": [False, True, True, False, False],
                "right_censored": [False, False, True, True, False],
            }
        )

    def flows(self, level: str = "events") -> pd.DataFrame:
        index = pd.Index(pd.to_datetime(["2026-01-01", "2026-02-01"]), name="snapshot_date")
        return pd.DataFrame(
            {
                "listed": pd.array([10, 12], dtype="Int64"),
                "entered": pd.array([pd.NA, 3], dtype="Int64"),
                "exited": pd.array([pd.NA, 1], dtype="Int64"),
                "net": pd.array([pd.NA, 2], dtype="Int64"),
            },
            index=index,
        )


def test_lifetimes_keep_complete_ones_apart_from_lower_bounds() -> None:
    table = publication.course_lifetimes(_Archive(), "de")  # type: ignore[arg-type]
    assert list(table.index) == [
        "im Archiv neu gelistet und wieder entfernt (vollständig)",
        "am ersten oder letzten Stichtag gelistet (mindestens)",
        "alle Kurse (mindestens)",
    ]
    assert list(table["courses"]) == [2, 3, 5]
    assert list(table["median_days"]) == [5.0, 59.0, 31.0]
    shown = tables.present(publication.course_lifetimes(_Archive(), "en"), "en")  # type: ignore[arg-type]
    assert list(shown.frame.index)[1] == "listed on the first or the last snapshot (at least)"
    assert any("lower bound (at least)" in n for n in shown.notes)


def test_flows_mark_what_has_no_meaning_with_x_and_head_listed_as_with_events(
    tmp_path: Path,
) -> None:
    table = tables.present(publication.flows(_Archive()), "de")  # type: ignore[arg-type]
    assert next(iter(table.frame.columns)) == "Gelistet (mit Veranstaltungen)"
    cells = table.formatted()
    assert list(cells.iloc[0]) == ["10", "x", "x", "x"]  # the first date: nothing to compare
    assert list(cells.iloc[-1]) == ["x", "3", "1", "2"]  # no total of listed courses
    closed = "x: Tabellenfach gesperrt, weil Aussage nicht sinnvoll (der erste Stichtag"
    assert any(n.startswith(closed) for n in table.notes)
    path = tables.write_excel(tmp_path / "f.xlsx", [table])
    rows = list(openpyxl.load_workbook(path).worksheets[1].iter_rows(min_row=3, values_only=True))
    assert rows[0][1:] == (10, "x", "x", "x")
    assert rows[2][1:] == ("x", 3, 1, 2)


def test_the_archives_events_by_state_list_every_state_and_their_total() -> None:
    """The table of events by state on each snapshot date (the report's and notebook 07's):
    every state in the order of its key, one without events on a date with "–" (none),
    not "." (unknown), the events without a state, and the total row."""
    days = pd.DatetimeIndex(["2026-01-01", "2026-02-01"], name="snapshot_date")
    events = pd.DataFrame(
        [[5.0, 6.0], [3.0, None], [None, 1.0]],
        index=pd.Index(["Bayern", "Bremen", None], name="state"),
        columns=days,
    )
    shown = tables.present(publication.events_by_state(events), "de")
    rows = shown.formatted()
    assert list(rows.columns) == ["01.01.2026", "01.02.2026"]
    assert [key for key, _ in rows.index] == [*STATES["key"], "", ""]
    assert rows.loc[("09", "Bayern")].tolist() == ["5", "6"]
    assert rows.loc[("04", "Bremen")].tolist() == ["3", "–"]  # none on the second date
    assert rows.loc[("11", "Berlin")].tolist() == ["–", "–"]  # none on either
    assert rows.loc[("", "ohne Angabe")].tolist() == ["–", "1"]
    assert rows.loc[("", "Deutschland")].tolist() == ["8", "7"]
    assert shown.totals == 1


# -- 7/8/9: totals that are no sums, the rates' total, places as far as stated ----------------


def test_notes_say_how_the_totals_and_places_are_made(offers: pd.DataFrame) -> None:
    supply = tables.present(stats.supply(offers, "state", margins=True), "de")
    assert (
        "Kurse, Bildungsanbieter: in der Zeile „Deutschland“ jeweils einmal gezählt; da sie in "
        "mehreren Zeilen vorkommen können, ist die Summe der Zeilen größer." in supply.notes
    )
    assert "Plätze (soweit angegeben)" in supply.frame.columns
    events = offers["event_id"].nunique()
    stated = offers.drop_duplicates("event_id")["max_participants"].notna().sum()
    assert (
        f"Plätze: Summe der Höchstteilnehmerzahlen der Veranstaltungen, die eine nennen "
        f"({german(stated)} von {german(events)} Veranstaltungen); die übrigen "
        "Veranstaltungen zählen ohne Plätze." in supply.notes
    )
    assert "Places (where stated)" in tables.present(stats.supply(offers, "state"), "en").frame
    # The rates' total leaves out the events without a state: its label says so.
    rates = tables.present(stats.per_capita(offers, margins=True), "de")
    assert rates.frame.index[-1] == ("", "Deutschland (Veranstaltungen mit Bundesland)")
    english = tables.present(stats.per_capita(offers, margins=True), "en")
    assert english.frame.index[-1] == ("", "Germany (events with a state)")
    # A table by a dimension whose rows share no course needs no such note.
    quarters = tables.present(
        stats.supply(stats.select(offers, state=["Bremen"]), "state", margins=True), "de"
    )
    assert not any("einmal gezählt" in n for n in quarters.notes)


# -- 10: a check that the selection answers by itself is "x", not 0 ----------------------------


def test_quality_marks_the_checks_a_selection_answers_by_itself(
    offers: pd.DataFrame, two: pd.DataFrame
) -> None:
    whole = stats.quality(offers)
    assert "not_meaningful" not in whole.attrs
    assert whole.loc["events_without_address", "count"] > 0
    checks = stats.quality(two)
    blocked = [
        "events_without_address",
        "events_without_state",
        "addresses_without_state",
        "unknown_state",
        "missing_start_date",
    ]
    assert checks.loc[blocked, "count"].isna().all()
    assert checks.loc["missing_end_date", "count"] >= 0
    shown = tables.present(checks, "de")
    cells = shown.formatted()
    assert list(cells.loc["Veranstaltungen ohne Adresse"]) == ["x", german(len(two)), "x"]
    assert shown.notes == [
        "x: Tabellenfach gesperrt, weil Aussage nicht sinnvoll (die Auswahl enthält nur "
        "Veranstaltungen mit bekanntem Bundesland bzw. Beginndatum)."
    ]
    dates_only = stats.quality(stats.select(offers, start="2025-01-01", end="2025-03-31"))
    assert dates_only.loc["missing_start_date", "count"] is pd.NA
    assert dates_only.loc["events_without_address", "count"] > 0  # a date filter keeps them
    stateless = stats.quality(stats.select(offers, state=[None, "Bayern"]))
    assert "not_meaningful" not in stateless.attrs  # the events without a state kept


# -- 13: unknowns in the workbook as the page shows them --------------------------------------


def test_the_workbook_writes_an_unknown_as_the_page_does(tmp_path: Path) -> None:
    frame = pd.DataFrame(
        {
            "events": pd.array([3, 0], dtype="Int64"),
            "capacity": pd.array([pd.NA, 0], dtype="Int64"),
        },
        index=pd.Index(["Bayern", "Bremen"], name="state"),
    )
    for lang in ("de", "en"):  # "." in both languages, as official statistics write it
        table = tables.present(frame, lang)
        bayern = texts.label("Bayern", lang)
        assert table.formatted().loc[("09", bayern)].iloc[1] == "."
        assert table.formatted().loc[("04", "Bremen")].iloc[1] == "–"  # exactly 0
        path = tables.write_excel(tmp_path / f"{lang}.xlsx", [table], lang=lang)
        sheet = openpyxl.load_workbook(path).worksheets[1]
        rows = {r[1]: r for r in sheet.iter_rows(min_row=3, max_row=4, values_only=True)}
        assert rows[bayern][-1] == "."  # not a blank cell
        assert rows["Bremen"][-1] == 0  # a number, its format shows "–"


def test_the_workbook_writes_months_as_dates_and_years_as_numbers(
    two: pd.DataFrame, tmp_path: Path
) -> None:
    """A table by month sorts and filters as months in Excel (a date shown as a month in the
    workbook's language), a year is a number (not text that Excel flags); a quarter stays
    as the page writes it (Excel has no quarter format)."""
    for lang, month, quarter in (("de", "[$-407]MMM YYYY", "2. Quartal 2025"),
                                 ("en", "[$-809]MMM YYYY", "Q2 2025")):  # fmt: skip
        made = [
            tables.present(stats.supply(two, dim, margins=True), lang)
            for dim in ("month", "quarter", "year")
        ]
        path = tables.write_excel(tmp_path / f"{lang}.xlsx", made, lang=lang)
        months, quarters, years = openpyxl.load_workbook(path).worksheets[1:]
        first = months["A3"]
        assert (first.value, first.number_format) == (dt.datetime(2025, 4, 1), month)
        labels = [c.value for c in months["A"][2:]]
        dates = [v for v in labels if isinstance(v, dt.datetime)]
        assert dates == list(pd.date_range("2025-04-01", periods=12, freq="MS"))
        assert labels[len(dates)] == texts.text("total", lang)  # then the total, as text
        assert quarters["A3"].value == quarter
        assert (years["A3"].value, years["A3"].number_format) == (2025, "0")
        assert years["A4"].value == 2026


def test_the_table_of_a_chart_of_shares_within_each_row(offers: pd.DataFrame) -> None:
    """The numbers under a chart of shares within each state (``plots.stacked_shares``,
    ``plots.heatmap``): each row's shares add up to 1, beside the row's events (its base),
    down to the total row."""
    shares = publication.chart_shares(offers, "state", "instruction_form_category")
    events = stats.supply(offers, "state", normalize=False, margins=True)["events"]
    assert shares["events"].tolist() == events.tolist()
    parts = shares.drop(columns="events")
    assert parts.sum(axis=1).tolist() == pytest.approx([1.0] * len(parts))
    bayern = offers[offers["state"] == "Bayern"]
    digital = (bayern["instruction_form_category"] == "Digital").sum() / len(bayern)
    assert shares.loc["Bayern", "Digital"] == pytest.approx(digital)


# -- every state alone and a quarter through the report's computations -------------------------


def _report_numbers(chosen: pd.DataFrame, source: Source, lang: str) -> list[Any]:
    """What the report notebook computes and draws of a selection (06-report.ipynb)."""
    made: list[Any] = [
        stats.supply(chosen, "state", margins=True),
        stats.per_capita(chosen, population=STATE_POPULATION, margins=True),
        stats.supply(chosen, "instruction_form_category", margins=True),
        publication.chart_shares(chosen, "state", "instruction_form_category"),
        stats.supply(chosen, "duration_class", margins=True),
        publication.chart_shares(chosen, "state", "duration_class"),
        stats.supply(chosen, "quarter", margins=True),
        stats.supply(chosen, "month", margins=True)[["events", "share"]],
        stats.costs(chosen, "instruction_form_category", per="course", margins=True),
        stats.quality(chosen),
    ]
    texts_made = [
        periods.Period.of(source.stand).counted(chosen, lang),
        publication.cost_coverage(chosen, lang),
    ]
    presented = [tables.present(t, lang) for t in made]
    for figure in (
        plots.supply_bars(chosen, "state", lang=lang),
        plots.tile_map(chosen, population=STATE_POPULATION, lang=lang),
        plots.stacked_shares(chosen, "state", "instruction_form_category", lang=lang),
        plots.heatmap(chosen, "state", "duration_class", lang=lang),
        plots.starts_over_time(chosen, freq="month", lang=lang),
        plots.cost_boxplot(chosen, "instruction_form_category", currency="EUR", lang=lang),
    ):
        plots.add_note(figure, texts_made[0])
        plt.close(figure)
    return [*presented, *texts_made]


@pytest.mark.parametrize("state", [str(s) for s in STATES["state"]])
def test_every_state_alone_goes_through_the_report(offers: pd.DataFrame, state: str) -> None:
    source = Source(demo=True, name="Demo")
    chosen = stats.select(offers, state=[state])
    made = _report_numbers(chosen, source, "de")
    assert made[0].frame.index[0][1] == state
    assert [str(k) for k in made[1].frame.index.get_level_values(1)] == [state, "Insgesamt"]


def test_a_quarter_goes_through_the_report(offers: pd.DataFrame) -> None:
    source = Source(demo=True, name="Demo")
    chosen = stats.select(offers, start="2025-07-01", end="2025-09-30")
    made = _report_numbers(chosen, source, "en")
    assert [str(k) for k in made[6].frame.index] == ["Q3 2025", "Total"]
    both = stats.select(offers, state=["Thüringen"], start="2025-07-01", end="2025-09-30")
    _report_numbers(both, source, "de")
