"""What a report counts and the same a year earlier (educatalog.periods), and the report's
inputs checked before anything is written (educatalog.report_inputs): the period named to
the day as the selection names it, the year before from an archive of the demo over time
counted as a plain count does, states in English or by their codes, an empty selection, a
population dated after the data."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import pandas as pd
import pytest

from educatalog import history, periods, publication, report_inputs, stats, texts
from educatalog.demodata.timeline import DemoTimeline
from educatalog.errors import UsageError
from educatalog.population import STATES, origin, table_for

STAND = dt.date(2025, 6, 1)
"""The data's date of the reports of the archive's tests."""

YEAR_EARLIER = dt.date(2024, 6, 1)

TWO = ["Bayern", "Sachsen"]


# -- the period -----------------------------------------------------------------------------


def test_a_period_is_a_calendar_year_or_the_start_dates_and_never_both() -> None:
    assert periods.period_dates("2025") == ("2025-01-01", "2025-12-31")
    assert periods.period_dates(None, "2025-04-01", None) == ("2025-04-01", None)
    with pytest.raises(UsageError, match=r"--period 2025 and --start/--end both give"):
        periods.period_dates("2025", "2025-04-01")
    with pytest.raises(UsageError, match=r"--period must be a calendar year such as 2025"):
        periods.period_dates("25")
    with pytest.raises(UsageError, match=r"start 2025-13-01 is no date of the calendar"):
        periods.period_dates(None, "2025-13-01")
    with pytest.raises(UsageError, match=r"end 2025-02-29 is no date of the calendar"):
        periods.period_dates(None, None, "2025-02-29")
    with pytest.raises(UsageError, match=r"start must be a date as YYYY-MM-DD, got '1.4.2025'"):
        periods.period_dates(None, "1.4.2025")
    with pytest.raises(UsageError, match=r"start 2026-01-01 is after end 2025-12-31"):
        periods.period_dates(None, "2026-01-01", "2025-12-31")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_rate_names_the_period_of_the_selection_to_the_day(
    offers: pd.DataFrame, lang: str
) -> None:
    """Not the first and last start found (the bug: 04.04.2025 under a selection from
    01.04.2025), but the selection's own dates, in its words."""
    stand = dt.date(2026, 3, 15)
    period = periods.Period.of(stand, start="2025-04-01", end="2026-03-31")
    chosen = period.select(offers, TWO)
    assert chosen["event_start_date"].min() > pd.Timestamp("2025-04-01")  # no event on the day
    counted = period.counted(chosen, lang)
    selection = publication.scope(TWO, "2025-04-01", "2026-03-31", lang)[1]
    assert selection in counted
    if lang == "de":
        assert counted == (
            "Gezählt: Veranstaltungen mit Beginn 01.04.2025 bis 31.03.2026, wie sie der "
            "Katalog am 15.03.2026 listete."
        )
    else:
        assert counted == (
            "Counted: events with start dates 1 Apr 2025 to 31 Mar 2026, as the catalogue "
            "listed them on 15 Mar 2026."
        )
    first = texts.date(chosen["event_start_date"].min(), lang)
    assert first not in counted
    # open at one end: as the selection says it
    opened = periods.Period.of(stand, start="2025-04-01")
    assert publication.scope(None, "2025-04-01", None, lang)[0] in opened.counted(chosen, lang)
    # the same events as stats.select keeps
    plain = stats.select(offers, state=TWO, start="2025-04-01", end="2026-03-31")
    assert set(chosen["event_id"]) == set(plain["event_id"])


def test_without_dates_a_report_counts_the_offer_listed_on_the_datas_date(
    offers: pd.DataFrame,
) -> None:
    period = periods.Period.of(dt.date(2026, 3, 15))
    assert period.listed
    assert period.words("de") == "Bestand am 15.03.2026"
    assert period.words("en") == "listed on 15 Mar 2026"
    crafted = offers.copy()
    crafted.loc[crafted.index[:3], "event_start_date"] = pd.NaT  # three without a start date
    assert len(period.select(crafted)) == len(crafted)  # every event, also those undated
    undated = int(crafted.drop_duplicates("event_id")["event_start_date"].isna().sum())
    assert undated == 3
    assert period.counted(crafted, "de") == (
        "Gezählt: der Bestand am 15.03.2026, alle an diesem Tag im Katalog gelisteten "
        f"Veranstaltungen, gleich wann sie beginnen (darunter {texts.count(undated, 'de')} "
        "ohne Beginndatum)."
    )
    assert period.counted(crafted, "en").startswith("Counted: the offer listed on 15 Mar 2026")
    assert "(" not in period.counted(offers, "de")  # none undated: nothing said of them


def test_the_period_a_year_earlier_moves_its_dates_by_a_calendar_year() -> None:
    period = periods.Period.of(STAND, start="2024-02-29", end="2025-03-31")
    then = period.a_year_before(YEAR_EARLIER)
    assert (then.stand, then.start, then.end) == (
        YEAR_EARLIER,
        dt.date(2023, 2, 28),
        dt.date(2024, 3, 31),
    )
    listed = periods.Period.of(STAND).a_year_before(YEAR_EARLIER)
    assert listed.listed
    assert listed.stand == YEAR_EARLIER


def test_the_snapshot_of_the_year_before_is_365_days_older_give_or_take_45() -> None:
    find = periods.snapshot_a_year_before
    day = dt.date(2026, 3, 15)
    target = day - dt.timedelta(days=365)
    assert find([target - dt.timedelta(days=46), day], day) is None
    assert find([target + dt.timedelta(days=46)], day) is None
    assert find([target - dt.timedelta(days=45)], day) == target - dt.timedelta(days=45)
    assert find([target + dt.timedelta(days=45)], day) == target + dt.timedelta(days=45)
    near = [target - dt.timedelta(days=10), target + dt.timedelta(days=3), day]
    assert find(near, day) == target + dt.timedelta(days=3)
    tie = [target - dt.timedelta(days=5), target + dt.timedelta(days=5)]
    assert find(tie, day) == target + dt.timedelta(days=5)  # of two as close, the later
    assert find([], day) is None


# -- the year before on crafted frames ------------------------------------------------------


def test_the_year_before_stands_beside_the_events_with_the_change_in_percent() -> None:
    now = pd.DataFrame(
        {"events": [12, 5, 0, 3, 20], "courses": [4, 2, 0, 1, 7]},
        index=pd.Index(["Bayern", "Sachsen", "Bremen", None, "All"], name="state"),
    )
    now.attrs = {"margins": "All", "notes": ["an earlier note"]}
    then = pd.Series([10, 0, 0, 8], index=pd.Index(["Bayern", "Sachsen", None, "All"]))
    out = periods.with_year_before(now, then, "de", notes=["Vorjahr: …"])
    assert list(out.columns) == [
        "events",
        "Veranstaltungen im Vorjahr",
        "Veränderung gegenüber Vorjahr in %",
        "courses",
    ]
    assert out["Veranstaltungen im Vorjahr"].tolist() == [10, 0, 0, 0, 8]  # Bremen: none then
    change = out["Veränderung gegenüber Vorjahr in %"].tolist()
    assert change[0] == pytest.approx(20.0)
    assert change[1:4] == ["x", "x", "x"]  # nothing a year earlier: no change in %
    assert change[4] == pytest.approx(150.0)
    assert out.attrs["margins"] == "All"
    assert out.attrs["notes"] == [
        "an earlier note",
        "Vorjahr: …",
        "x: keine Veränderung in %, wo das Vorjahr keine Veranstaltung hatte.",
    ]
    assert now.attrs["notes"] == ["an earlier note"]  # the table itself unchanged
    english = periods.with_year_before(now, then, "en")
    assert "Change on previous year in %" in english.columns
    # on the page: one decimal, and "x"
    from educatalog import tables

    shown = tables.present(out, "de")
    cells = shown.formatted()["Veränderung gegenüber Vorjahr in %"]
    by_name = {key[1]: cell for key, cell in cells.items()}  # (key, state) in key order
    assert (by_name["Bayern"], by_name["Bremen"]) == ("20,0", "x")


# -- the year before from an archive ---------------------------------------------------------


@pytest.fixture(scope="module")
def timeline() -> DemoTimeline:
    return DemoTimeline(seed=0, scale=0.05)


@pytest.fixture(scope="module")
def archive(timeline: DemoTimeline, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Snapshots of the demo over time a year apart, and one between them that is no year
    older than the newest."""
    folder = tmp_path_factory.mktemp("year") / "archive"
    for day in (YEAR_EARLIER, dt.date(2025, 1, 1), STAND):
        history.add(folder, timeline.catalogue(day), date=day)
    return folder


def _plain_count(frame: pd.DataFrame, column: str) -> dict[str, int]:
    """Distinct events per value of ``column``, by hand."""
    counts = frame.groupby(frame[column].astype(object).fillna("?"))["event_id"].nunique()
    return {str(k): int(v) for k, v in counts.items()}


@pytest.mark.parametrize(
    ("start", "end", "then_start", "then_end"),
    [
        (None, None, None, None),
        ("2025-01-01", "2025-12-31", "2024-01-01", "2024-12-31"),
    ],
)
def test_the_year_before_is_counted_as_today_a_year_earlier(
    archive: Path,
    timeline: DemoTimeline,
    start: str | None,
    end: str | None,
    then_start: str | None,
    then_end: str | None,
) -> None:
    period = periods.Period.of(STAND, start=start, end=end)
    before = periods.year_before(archive, period, TWO, "de")
    assert before.date == YEAR_EARLIER
    assert before.offers is not None
    # a plain count: the catalogue of a year earlier, as the demo made it, by hand
    raw = timeline.catalogue(YEAR_EARLIER).offers()
    kept = raw[raw["state"].astype(object).isin(TWO)]
    if then_start and then_end:
        starts = kept["event_start_date"]
        inside = (starts >= pd.Timestamp(then_start)) & (
            starts < pd.Timestamp(then_end) + pd.Timedelta(days=1)
        )
        kept = kept[inside.fillna(False).to_numpy()]
    assert len(kept) > 0
    today = period.select(history.open(archive).offers(STAND), TWO)
    by_state = before.beside(
        stats.supply(today, "state", margins=True), stats.supply, "state", margins=True
    )
    column = by_state["Veranstaltungen im Vorjahr"]
    expected = _plain_count(kept, "state")
    assert {str(k): int(v) for k, v in column.drop("All").items()} == expected
    assert int(column["All"]) == kept["event_id"].nunique()
    change = by_state["Veränderung gegenüber Vorjahr in %"]
    now = stats.supply(today, "state")["events"]
    for state in TWO:
        assert change[state] == pytest.approx(
            (now[state] - expected[state]) / expected[state] * 100
        )
    # the same for the forms and the districts
    forms = before.beside(
        stats.supply(today, "instruction_form_category", margins=True),
        stats.supply,
        "instruction_form_category",
        margins=True,
    )
    got = {
        "?" if pd.isna(k) else str(k): int(v)
        for k, v in forms["Veranstaltungen im Vorjahr"].drop("All").items()
    }
    assert {k: v for k, v in got.items() if v} == _plain_count(kept, "instruction_form_category")
    rules = {"by": "district", "subtotals": True, "margins": True}
    districts = before.beside(stats.per_capita(today, **rules), stats.per_capita, **rules)
    per_district = _plain_count(kept, "district")
    rows = districts["Veranstaltungen im Vorjahr"]
    for (state, district), n in rows.items():
        if state != "All" and district != "All":
            assert n == per_district.get(str(district), 0), district
    assert int(rows[("Bayern", "All")]) == kept[kept["state"] == "Bayern"]["event_id"].nunique()
    # what it says: the period a year earlier, to the day, the snapshot's date, the archive
    note = before.note()
    if start:
        assert note == (
            "Vorjahr: Veranstaltungen mit Beginn 01.01.2024 bis 31.12.2024, wie sie der "
            "Katalog am 01.06.2024 listete (Archiv „archive“), mit denselben Filtern gezählt."
        )
    else:
        assert note == (
            "Vorjahr: der Bestand am 01.06.2024 (Archiv „archive“), mit denselben Filtern gezählt."
        )
    assert note in by_state.attrs["notes"]
    assert before.sentence().startswith("Die Tabellen nach Bundesland, Kreis und Lernform")


def test_without_a_snapshot_a_year_older_the_report_says_so_in_one_sentence(
    archive: Path,
) -> None:
    table = pd.DataFrame({"events": [1]}, index=pd.Index(["Bayern"], name="state"))
    none = periods.year_before(None, periods.Period.of(STAND), lang="en")
    assert none.sentence() == (
        "There is no comparison with the previous year: without an archive (--archive) no "
        "earlier stand exists."
    )
    assert none.beside(table, stats.supply, "state") is table
    far = periods.year_before(archive, periods.Period.of(dt.date(2027, 6, 1)), lang="de")
    assert far.offers is None
    assert far.date is None
    assert far.sentence() == (
        "Einen Vergleich mit dem Vorjahr gibt es nicht: Das Archiv „archive“ hat keinen Stand "
        "etwa ein Jahr (365 ± 45 Tage) vor dem 01.06.2027."
    )
    assert far.beside(table, stats.supply, "state") is table


# -- the inputs of a report -------------------------------------------------------------------

NAMES = [str(s) for s in STATES["state"]]


@pytest.mark.parametrize(
    ("given", "name"),
    [
        ("Bayern", "Bayern"),
        ("bayern", "Bayern"),
        ("Bavaria", "Bayern"),
        ("DE-BY", "Bayern"),
        ("de-by", "Bayern"),
        ("BY", "Bayern"),
        ("09", "Bayern"),
        ("Thuringia", "Thüringen"),
        ("North Rhine-Westphalia", "Nordrhein-Westfalen"),
        ("DE-TH", "Thüringen"),
    ],
)
def test_a_state_is_understood_in_english_and_by_its_code(given: str, name: str) -> None:
    assert report_inputs.state_names([given], NAMES) == [name]


def test_an_unknown_state_is_answered_with_a_suggestion() -> None:
    with pytest.raises(UsageError, match=r'No state "Bavria"\. Did you mean "Bavaria"\?'):
        report_inputs.state_names(["Bavria"], NAMES)
    with pytest.raises(UsageError, match=r'No state "DE-BYX"\. Did you mean "DE-BY"\?'):
        report_inputs.state_names(["DE-BYX"], NAMES)
    with pytest.raises(UsageError, match=r'No state "Atlantis"\. States: Schleswig-Holstein'):
        report_inputs.state_names(["Atlantis"], NAMES)


def test_the_selection_is_counted_on_the_service_as_the_report_selects_it(
    offers: pd.DataFrame, catalogue_database: Path
) -> None:
    import educatalog
    from educatalog.testing import serve

    count = report_inputs.selected_events
    with (
        serve(database=catalogue_database, token="periods-token") as server,
        educatalog.Client(server.url, token=server.token) as client,
    ):
        plain = stats.select(offers, state=["Bayern"], start="2025-01-01", end="2025-12-31")
        assert count(client, ["Bayern"], "2025-01-01", "2025-12-31") == len(plain) > 0
        assert count(client, None, None, None) == offers["event_id"].nunique()
        with pytest.raises(UsageError, match=r"The selection \(states Bremen; start dates "):
            report_inputs.check_selection(client, ["Bremen"], "2027-01-01", None)
        report_inputs.check_selection(client, ["Bremen"], None, None)  # it holds events


def test_a_population_dated_after_the_data_is_warned_about(tmp_path: Path) -> None:
    shipped = origin(table_for("2025-06-01"))  # 31.12.2024: before the data
    assert periods.population_notes(shipped, dt.date(2025, 6, 1), "de") == []
    later = periods.population_notes(shipped, dt.date(2024, 6, 1), "de")
    assert later == [
        "Achtung: Die Einwohnerzahlen (Stand 31.12.2024) sind jünger als die Daten (Stand "
        "01.06.2024); die Raten teilen durch Einwohner eines späteren Tages."
    ]
    path = tmp_path / "inhabitants.csv"
    path.write_text("state,population\nBayern,1\n", encoding="utf-8")
    record = report_inputs.population_record(path, shipped, dt.date(2024, 6, 1))
    assert record["path"] == str(path.resolve())
    assert record["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert record["warning"].startswith("Note: the population figures (as of 31 Dec 2024)")
    assert "warning" not in report_inputs.population_record(None, shipped, dt.date(2025, 6, 1))
