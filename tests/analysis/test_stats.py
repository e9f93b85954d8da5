"""Every statistic against an independent computation of the same number.

On the demo catalogue the reference is SQL over the server's own database file; on small
hand-made frames it is plain Python over the records, with the edge cases written in.
"""

from __future__ import annotations

import datetime as dt
import numbers
import sqlite3
import statistics
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from educatalog import population, stats
from educatalog.errors import EducatalogError, MissingColumns, UsageError, WrongType
from educatalog.frames.catalogue import Catalogue
from educatalog.population import STATE_POPULATION


def query(database: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(database) as conn:
        return conn.execute(sql).fetchall()


def key(value: Any) -> Any:
    """Index values as plain Python (missing as None)."""
    return None if pd.isna(value) else str(value)


EVENT_JOINS = """
FROM events e
LEFT JOIN addresses a ON a.id = e.address
LEFT JOIN states s ON s.id = a.state
LEFT JOIN instruction_forms f ON f.id = e.instruction_form
LEFT JOIN instruction_times t ON t.id = e.instruction_time
"""


def test_supply_by_state_equals_sql(offers: pd.DataFrame, catalogue_database: Path) -> None:
    rows = query(
        catalogue_database,
        "SELECT s.name, COUNT(*), COUNT(DISTINCT e.course), COUNT(DISTINCT e.institution), "
        f"SUM(e.max_participants), COUNT(e.max_participants) {EVENT_JOINS} GROUP BY s.name",
    )
    # SQL's SUM is NULL where no event of the state states a maximum: unknown, not 0.
    want = {name: (n, c, i, cap, k) for name, n, c, i, cap, k in rows}
    table = offers.edu.supply(by="state")
    got = {
        key(k): (
            r.events,
            r.courses,
            r.institutions,
            None if pd.isna(r.capacity) else r.capacity,
            r.events_with_capacity,
        )
        for k, r in table.iterrows()
        if r.events > 0
    }
    assert got == want
    assert (table.loc[table["events"] == 0, "capacity"] == 0).all()
    total = sum(n for n, *_ in want.values())
    assert table["share"].to_numpy().tolist() == pytest.approx([n / total for n in table["events"]])
    # Every state is listed, also without offers, and the missing state comes last.
    assert len(table) == 17
    assert pd.isna(table.index[-1])


def test_supply_by_two_dimensions_with_shares_within_each(
    offers: pd.DataFrame, catalogue_database: Path
) -> None:
    rows = query(
        catalogue_database,
        f"SELECT s.name, t.name, COUNT(*) {EVENT_JOINS} GROUP BY s.name, t.name",
    )
    counts = {(s, t): n for s, t, n in rows}
    per_state = Counter()
    per_time = Counter()
    for (s, t), n in counts.items():
        per_state[s] += n
        per_time[t] += n
    by_index = stats.supply(offers, ["state", "instruction_time"], normalize="index")
    by_columns = stats.supply(offers, ["state", "instruction_time"], normalize="columns")
    for (s, t), n in counts.items():
        assert by_index.loc[(s, t), "events"] == n
        assert by_index.loc[(s, t), "share"] == pytest.approx(n / per_state[s])
        assert by_columns.loc[(s, t), "share"] == pytest.approx(n / per_time[t])
    assert by_index["events"].sum() == len(offers)


def test_crosstab_equals_python_counts(offers: pd.DataFrame) -> None:
    pairs = Counter(
        (key(s), key(d)) for s, d in zip(offers["state"], offers["duration_class"], strict=True)
    )
    wide = stats.crosstab(offers, "state", "duration_class")
    assert list(wide.columns) == list(offers["duration_class"].cat.categories)
    for (s, d), n in pairs.items():
        row = wide.index[wide.index.isna()][0] if s is None else s
        assert wide.loc[row, d] == n
    assert wide.to_numpy().sum() == len(offers)
    shares = stats.crosstab(offers, "state", "duration_class", normalize="index")
    assert shares.loc["Bayern"].sum() == pytest.approx(1)
    with pytest.raises(EducatalogError, match="Unknown measure"):
        stats.crosstab(offers, "state", "duration_class", measure="seats")


def test_supply_by_month_and_voucher(offers: pd.DataFrame, catalogue_database: Path) -> None:
    rows = query(
        catalogue_database,
        "SELECT substr(event_start_date, 1, 7), COUNT(*) FROM events GROUP BY 1",
    )
    table = stats.supply(offers, "month")
    assert {str(k): n for k, n in table["events"].items()} == dict(rows)
    vouchers = dict(
        query(catalogue_database, "SELECT education_voucher, COUNT(*) FROM events GROUP BY 1")
    )
    table = stats.supply(offers, "education_voucher")
    got = {(None if pd.isna(k) else int(bool(k))): n for k, n in table["events"].items()}
    assert got == vouchers


def test_supply_by_funding_type_counts_each_event_once_per_type(
    demo_catalogue: Catalogue, catalogue_database: Path
) -> None:
    funded = demo_catalogue.offers(funding=True)
    rows = query(
        catalogue_database,
        """
        SELECT f.name, COUNT(DISTINCT e.id) FROM events e
        JOIN courses_funding_types_federals j ON j.courses_id = e.course
        JOIN funding_types_federals f ON f.id = j.funding_types_federals_id GROUP BY f.name
        """,
    )
    table = stats.supply(funded, "funding_type", dropna=True)
    for name, n in rows:
        assert table.loc[name, "events"] == n
    # Shares are of distinct events (here: those with some funding), so a multi-valued
    # dimension may add up past 1.
    funded_events = funded.loc[funded["funding_type"].notna(), "event_id"].nunique()
    assert table.loc[rows[0][0], "share"] == pytest.approx(rows[0][1] / funded_events)
    assert table["share"].sum() > 1
    with_unfunded = stats.supply(funded, "funding_type")
    assert with_unfunded.loc[rows[0][0], "share"] == pytest.approx(
        rows[0][1] / funded["event_id"].nunique()
    )
    plain = demo_catalogue.offers()
    assert stats.supply(funded, "state")["events"].equals(stats.supply(plain, "state")["events"])


def test_per_capita_uses_the_shipped_population(offers: pd.DataFrame) -> None:
    table = offers.edu.per_capita()
    assert len(table) == 16
    population = dict(zip(STATE_POPULATION["state"], STATE_POPULATION["population"], strict=True))
    events = Counter(str(s) for s in offers["state"].dropna())
    for state, row in table.iterrows():
        assert row.population == population[state]
        assert row.events_per_100k == pytest.approx(events[state] * 100_000 / population[state])
    assert "Destatis" in STATE_POPULATION.attrs["source"]


def test_per_capita_uses_the_population_of_the_datas_date(offers: pd.DataFrame) -> None:
    """Data as they stood in March 2024 (a snapshot's, an archive's) are measured against
    31.12.2023, the newest population then; data of today against the newest."""
    when = dt.datetime(2024, 3, 15, tzinfo=dt.UTC)
    march = offers.copy().edu.with_source("https://kurse.example.org/api", fetched_at=when)
    then = population.table_for("2024-03-15")
    table = march.edu.per_capita(margins=True)
    assert table.attrs["educatalog"]["population"]["date"] == "2023-12-31"
    assert table["population"].iloc[-1] == then.attrs["total"] == 83_456_045
    assert offers.edu.per_capita().attrs["educatalog"]["population"]["date"] == "2024-12-31"


def test_capacity_equals_sql(offers: pd.DataFrame, catalogue_database: Path) -> None:
    rows = query(
        catalogue_database,
        "SELECT t.name, SUM(e.max_participants), COUNT(e.max_participants), COUNT(*) "
        f"{EVENT_JOINS} GROUP BY t.name",
    )
    table = offers.edu.capacity("instruction_time")
    for name, total, known, n in rows:
        assert tuple(table.loc[name, ["capacity", "events_with_capacity", "events"]]) == (
            total,
            known,
            n,
        )
        assert table.loc[name, "mean_capacity"] == pytest.approx(total / known)


@pytest.mark.parametrize("per", ["course", "event"])
def test_costs_equal_python_quartiles(offers: pd.DataFrame, per: str) -> None:
    """Per course: each course once in each group it has events in; per event: each event
    with its course's cost, so a course weighs as much as it has events."""
    groups: dict[tuple[Any, str], list[float]] = defaultdict(list)
    seen: set[tuple[Any, ...]] = set()
    for category, course, cost, currency in offers[
        ["instruction_form_category", "course_id", "cost", "cost_currency"]
    ].itertuples(index=False):
        if pd.isna(cost) or pd.isna(currency):
            continue
        if per == "course" and (key(category), course) in seen:
            continue
        seen.add((key(category), course))
        groups[(key(category), currency)].append(float(cost))
    table = offers.edu.costs(by="instruction_form_category", per=per)
    # How many courses (events) have a cost, and how many of them state 0 (a price too).
    unit = "course_id" if per == "course" else "event_id"
    priced = {
        u: float(c)
        for u, c, cur in offers[[unit, "cost", "cost_currency"]].itertuples(index=False)
        if not (pd.isna(c) or pd.isna(cur))
    }
    zero = sum(c == 0 for c in priced.values())
    assert table.attrs["costs"] == {"per": per, "priced": len(priced), "zero": zero}
    assert table.index.names == ["instruction_form_category", "currency"]
    assert len(table) == len(groups)
    rows = {(key(cat), cur): row for (cat, cur), row in table.iterrows()}
    for group, values in groups.items():
        row = rows[group]
        q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
        assert row["courses" if per == "course" else "events"] == len(values)
        assert row["median"] == pytest.approx(statistics.median(values))
        assert (row["q1"], row["q3"]) == pytest.approx((q1, q3))
        assert (row["min"], row["max"]) == pytest.approx((min(values), max(values)))
        assert row["mean"] == pytest.approx(statistics.fmean(values))
    only = stats.costs(offers, currency="USD")
    assert only.empty


def test_quality_counts_equal_sql(
    offers: pd.DataFrame, demo_catalogue: Catalogue, catalogue_database: Path
) -> None:
    def count(sql: str) -> int:
        return int(query(catalogue_database, sql)[0][0])

    report = offers.edu.quality(demo_catalogue)
    expected = {
        "events_without_address": count("SELECT COUNT(*) FROM events WHERE address IS NULL"),
        "addresses_without_state": count(
            "SELECT COUNT(*) FROM events e JOIN addresses a ON a.id = e.address "
            "WHERE a.state IS NULL"
        ),
        "end_before_start": count(
            "SELECT COUNT(*) FROM events WHERE event_end_date < event_start_date"
        ),
        "empty_participants": count(
            "SELECT COUNT(*) FROM events WHERE min_participants IS NULL "
            "AND max_participants IS NULL"
        ),
        "unknown_instruction_form": count(
            "SELECT COUNT(*) FROM events WHERE instruction_form IS NOT NULL AND "
            "instruction_form NOT IN (SELECT id FROM instruction_forms)"
        ),
        "courses_without_events": count(
            "SELECT COUNT(*) FROM courses WHERE id NOT IN "
            "(SELECT course FROM events WHERE course IS NOT NULL)"
        ),
        "missing_end_date": count("SELECT COUNT(*) FROM events WHERE event_end_date IS NULL"),
    }
    for check, n in expected.items():
        assert report.loc[check, "count"] == n, check
    # Every documented defect of the demo is found.
    for check in (
        "events_without_address",
        "addresses_without_state",
        "end_before_start",
        "empty_participants",
        "unknown_instruction_form",
        "courses_without_events",
    ):
        assert report.loc[check, "count"] > 0, check
    assert report.loc["courses_without_events", "total"] == len(demo_catalogue.courses)
    assert report.loc["events_without_state", "share"] == pytest.approx(
        offers["state"].isna().mean()
    )


# -- hand-made edge cases -----------------------------------------------------------------


def hand_made() -> Catalogue:
    """Six events with every awkward case, and their expected numbers worked out by hand."""
    t = pd.Timestamp
    ids = pd.array
    events = pd.DataFrame(
        {
            "id": ids([1, 2, 3, 4, 5, 6], dtype="Int64"),
            "course": ids([10, 10, 11, 12, 12, None], dtype="Int64"),
            "institution": ["A", "A", "B", "C", "C", None],
            "address": ids([100, 101, None, 102, 100, 103], dtype="Int64"),
            "event_start_date": [
                t("2025-01-06"),
                t("2025-02-03"),
                t("2025-02-10"),
                t("2025-03-03"),
                None,
                t("2025-03-03"),
            ],
            "event_end_date": [
                t("2025-01-08"),
                t("2025-01-01"),
                t("2025-06-30"),
                t("2025-03-03"),
                None,
                None,
            ],
            "instruction_form": ids([101, 999, 201, 101, None, 101], dtype="Int64"),
            "instruction_time": ids([1, 1, 2, 1, 1, 1], dtype="Int64"),
            "min_participants": ids([5, None, 30, None, None, 1], dtype="Int64"),
            "max_participants": ids([12, None, 20, 8, None, None], dtype="Int64"),
            "education_voucher": ids([True, False, None, True, True, False], dtype="boolean"),
        }
    )
    addresses = pd.DataFrame(
        {
            "id": ids([100, 101, 102, 103], dtype="Int64"),
            "state": ids([3, None, 5, 77], dtype="Int64"),  # 77: no such state
            "zip": ["10115", "99999", "28195", "00000"],
        }
    )
    states = pd.DataFrame(
        {"id": ids([3, 5, 6], dtype="Int64"), "name": ["Berlin", "Bremen", "Hamburg"]}
    )
    costs = pd.DataFrame(
        {
            "id": ids([1, 2, 3, 4], dtype="Int64"),
            "course": ids([10, 11, 11, 12], dtype="Int64"),
            "value": pd.array([100.0, 50.0, 70.0, None], dtype="Float64"),
            "currency": ["EUR", "EUR", "CHF", "EUR"],  # course 11 mixes currencies
        }
    )

    def ref(rows: list[tuple[int, str]], **extra: list[Any]) -> pd.DataFrame:
        frame = pd.DataFrame(
            {"id": ids([i for i, _ in rows], dtype="Int64"), "name": [n for _, n in rows]}
        )
        return frame.assign(**extra)

    tables = {
        "events": events,
        "courses": pd.DataFrame(
            {
                "id": ids([10, 11, 12], dtype="Int64"),
                "title": ["A", "B", "C"],
                "education_type": ids([104, 104, 5], dtype="Int64"),
            }
        ),
        "addresses": addresses,
        "states": states,
        "instruction_forms": ref(
            [(101, "Präsenzveranstaltung"), (201, "Virtuelles Klassenzimmer")],
            category=["Präsenz", "Digital"],
        ),
        "instruction_times": ref([(1, "Vollzeit"), (2, "Teilzeit")]),
        "durations": ref([(0, "Keine Angabe"), (1, "bis 3 Tage"), (5, "3 bis 6 Monate")]),
        "education_types": ref([(104, "Fortbildung/Qualifizierung")]),
        "course_types": ref([]),
        "institution_types": ref([]),
        "event_costs": costs,
    }
    return Catalogue(tables)


def test_hand_made_supply_and_shares() -> None:
    offers = hand_made().offers()
    table = stats.supply(offers, "state")
    # Berlin: events 1, 5 (course 10 and 12, institutions A and C, capacity 12 + 0).
    assert table.loc["Berlin"].tolist()[:4] == [2, 2, 2, 12]
    assert table.loc["Bremen"].tolist()[:4] == [1, 1, 1, 8]
    assert table.loc["Hamburg"].tolist()[:4] == [0, 0, 0, 0]  # listed, with no offers
    missing = table[table.index.isna()].iloc[0]  # no address, no state, unknown state 77
    assert missing.tolist()[:4] == [3, 2, 2, 20]
    assert table["events"].sum() == 6
    assert table["share"].sum() == pytest.approx(1)
    without = stats.supply(offers, "state", dropna=True)
    assert without["share"].sum() == pytest.approx(1)
    assert without.loc["Berlin", "share"] == pytest.approx(2 / 3)


def test_hand_made_quality() -> None:
    report = stats.quality(hand_made().offers()).loc[:, "count"].to_dict()
    assert report["events_without_address"] == 1  # event 3
    assert report["addresses_without_state"] == 1  # event 2 (event 6 names state 77)
    assert report["unknown_state"] == 1  # event 6
    assert report["events_without_state"] == 3
    assert report["end_before_start"] == 1  # event 2
    assert report["missing_start_date"] == 1  # event 5
    assert report["missing_end_date"] == 2  # events 5 and 6
    assert report["empty_participants"] == 2  # events 2 and 5
    assert report["min_above_max"] == 1  # event 3: 30 > 20
    assert report["unknown_instruction_form"] == 1  # event 2: 999
    assert report["unknown_education_type"] == 2  # events 4, 5: type 5
    assert report["events_without_cost"] == 4  # course 11 mixes, 12 unpriced, 6 none
    assert report["no_duration"] == 3  # events 2 (end before start), 5 and 6


def test_hand_made_costs_and_per_capita() -> None:
    offers = hand_made().offers()
    assert offers["cost"].tolist()[:2] == [100.0, 100.0]
    assert offers["cost"].isna().tolist() == [False, False, True, True, True, True]
    costs = stats.costs(offers)
    assert costs.index.tolist() == ["EUR"]
    assert costs.loc["EUR", "events"] == 2
    assert costs.loc["EUR", "courses"] == 1
    # A zero or unknown population gives no rate, never an infinite one.
    table = stats.per_capita(offers, population={"Berlin": 1_000, "Bremen": 0}, per=1_000)
    assert table.loc["Berlin", "events_per_1k"] == 2
    assert pd.isna(table.loc["Bremen", "events_per_1k"])
    assert pd.isna(table.loc["Hamburg", "events_per_1k"])


def test_clear_errors_name_the_missing_columns() -> None:
    events = pd.DataFrame({"id": [1, 2], "course": [1, 1]})
    with pytest.raises(MissingColumns, match=r"event_id.*offers\(\)"):
        events.edu.supply(by="state")
    offers = hand_made().offers()
    with pytest.raises(MissingColumns, match=r'no column "funding_type".*funding=True'):
        offers.edu.supply(by="funding_type")
    with pytest.raises(UsageError, match="two dimensions"):
        offers.edu.supply(by="state", normalize="index")
    with pytest.raises(UsageError, match="at least one dimension"):
        offers.edu.supply(by=[])
    with pytest.raises(UsageError, match="positive"):
        offers.edu.per_capita(per=0)
    with pytest.raises(ValueError, match=r'no dimension "stat".*Did you mean "state"'):
        stats.supply(offers, "stat")  # a usage mistake is also a ValueError
    with pytest.raises(TypeError, match="name of a column"):
        stats.dimension(offers, 3)  # type: ignore[arg-type]
    with pytest.raises(WrongType, match="needs a pandas DataFrame"):
        stats.costs([1, 2])  # type: ignore[arg-type]
    with pytest.raises(MissingColumns, match="needs a table with the columns state"):
        stats.per_capita(offers, population=pd.DataFrame({"name": ["Berlin"]}))


def test_labels_turn_reference_ids_into_names() -> None:
    cat = hand_made()
    events = cat.events.assign(address_state=pd.array([3, None, 77, 5, 3, 6], dtype="Int64"))
    named = events.edu.labels(cat)
    assert [None if pd.isna(v) else v for v in named["instruction_form"]][:3] == [
        "Präsenzveranstaltung",
        None,  # 999 is no instruction form
        "Virtuelles Klassenzimmer",
    ]
    assert [None if pd.isna(v) else v for v in named["address_state"]] == [
        "Berlin",
        None,
        None,
        "Bremen",
        "Berlin",
        "Hamburg",
    ]
    assert named["id"].equals(events["id"])  # other columns untouched
    assert events["instruction_form"].dtype == "Int64"  # the original is not changed
    with pytest.raises(EducatalogError, match="holds no ids of a reference list"):
        events.edu.labels(cat, columns=["course"])
    with pytest.raises(EducatalogError, match="reference lists certifiers"):
        pd.DataFrame({"certifier": [1]}).edu.labels(cat)


def test_per_capita_matches_states_by_iso_code(offers: pd.DataFrame) -> None:
    """A service spelling a state differently still finds its population by code."""
    renamed = offers.assign(
        state=offers["state"].cat.rename_categories({"Bayern": "Freistaat Bayern"})
    )
    table = stats.per_capita(renamed)
    bayern = STATE_POPULATION.loc["DE-BY", "population"]
    assert table.loc["Freistaat Bayern", "population"] == bayern
    assert table.loc["Freistaat Bayern", "events_per_100k"] == pytest.approx(
        (offers["state"] == "Bayern").sum() * 100_000 / bayern
    )


# -- a hand-made catalogue with gaps: every statistic against plain Python ------------------

UUID = "00000000-0000-4000-8000-{:012d}".format


def gappy_records() -> dict[str, list[dict[str, Any]]]:
    """Ten events whose tables have gaps: February and most of 2025, all of 2026, Sachsen
    and several duration classes have no events; Mecklenburg-Vorpommern has events, none
    of which states a maximum; one event ends an hour before it starts."""
    from educatalog.demodata.reference_data import DURATIONS

    def event(i: int, course: int | None, address: int | None, start: str | None, end: str | None,
              most: int | None, voucher: bool | None, days: int | None = None,
              unit: str | None = None) -> dict[str, Any]:  # fmt: skip
        return {
            "id": i,
            "course": course,
            "institution": UUID(course or 0),
            "address": address,
            "event_start_date": start,
            "event_end_date": end,
            "instruction_form": 101 if i % 2 else 201,
            "instruction_time": 1,
            "min_participants": None,
            "max_participants": most,
            "education_voucher": voucher,
            "is_part_time": i % 3 == 0,
            "duration_in_days": days,
            "duration_unit": unit,
        }

    return {
        "states": [
            {"id": 1, "name": "Baden-Württemberg", "code": "DE-BW"},
            {"id": 2, "name": "Bayern", "code": "DE-BY"},
            {"id": 8, "name": "Mecklenburg-Vorpommern", "code": "DE-MV"},
            {"id": 13, "name": "Sachsen", "code": "DE-SN"},
        ],
        "addresses": [
            {"id": 100, "state": 1, "barrier_free": True},
            {"id": 101, "state": 2, "barrier_free": False},
            {"id": 102, "state": 8, "barrier_free": None},
            {"id": 103, "state": None, "barrier_free": True},
        ],
        "courses": [{"id": c, "title": f"Kurs {c}", "education_type": 104} for c in range(10, 14)],
        "event_costs": [
            {"id": 1, "course": 10, "value": 100.0, "currency": "EUR"},
            {"id": 2, "course": 10, "value": 50.0, "currency": "EUR"},
            {"id": 3, "course": 11, "value": 80.0, "currency": "EUR"},
            {"id": 4, "course": 11, "value": 20.0, "currency": None},  # EUR and none: unknown
            {"id": 5, "course": 12, "value": 30.0, "currency": None},  # a cost, no currency
            {"id": 6, "course": 13, "value": 200.0, "currency": "CHF"},
            {"id": 7, "course": 13, "value": None, "currency": "EUR"},  # no price: ignored
        ],
        "events": [
            event(1, 10, 100, "2025-01-06T09:00:00", "2025-01-08T17:00:00", 12, True),
            event(2, 10, 100, "2025-01-20T09:00:00", "2025-03-14T17:00:00", 20, None),
            # Ends an hour before it starts: impossible, so its 40 stated days count.
            event(
                3,
                11,
                101,
                "2025-03-03T10:00:00",
                "2025-03-03T09:00:00",
                None,
                False,
                40,
                "calendar_days",
            ),
            event(4, 11, 101, "2025-06-02T08:00:00", None, 16, True, 3, "week_days"),
            event(5, 12, 102, "2025-06-10T08:00:00", "2025-12-19T16:00:00", None, True),
            event(6, 12, 102, "2027-01-11T08:00:00", None, None, None, 120, "hours"),
            event(7, 13, 103, "2025-03-17T08:00:00", "2026-03-16T16:00:00", 10, False),
            event(8, 13, None, None, None, 8, True, 10, "calendar_days"),
            event(9, 10, 100, None, None, None, None),
            event(10, 11, 101, "2025-01-31T10:00:00", "2025-02-28T10:00:00", 25, False),
        ],
        "instruction_forms": [
            {"id": 101, "name": "Präsenzveranstaltung", "category": "Präsenz"},
            {"id": 201, "name": "Virtuelles Klassenzimmer", "category": "Digital"},
        ],
        "instruction_times": [{"id": 1, "name": "Vollzeit"}, {"id": 2, "name": "Teilzeit"}],
        "durations": [{"id": i, "name": n} for i, n in DURATIONS],
        "education_types": [{"id": 104, "name": "Fortbildung/Qualifizierung"}],
        "course_types": [],
        "institution_types": [],
    }


def gappy_catalogue() -> Catalogue:
    from educatalog.frames.typed import to_frame

    records = gappy_records()
    tables = {}
    for name, rows in records.items():
        rows = [
            {k: (f"{v:.2f}" if k == "value" and v is not None else v) for k, v in row.items()}
            for row in rows
        ]
        tables[name] = to_frame(rows, name)
    return Catalogue(tables)


def _add_months(day: Any, months: int) -> Any:
    import calendar
    import datetime as dt

    year, month = divmod(day.month - 1 + months, 12)
    year += day.year
    last = calendar.monthrange(year, month + 1)[1]
    return dt.date(year, month + 1, min(day.day, last))


def python_duration_class(e: dict[str, Any]) -> int:
    """The KURSNET class of an event by the rules of docs/definitions.md, in plain Python."""
    import datetime as dt
    import math

    parse = dt.datetime.fromisoformat
    start = parse(e["event_start_date"]) if e["event_start_date"] else None
    end = parse(e["event_end_date"]) if e["event_end_date"] else None
    per_unit = {"calendar_days": 1, "week_days": 7 / 5, "hours": 7 / 40}
    amount, unit = e["duration_in_days"], e["duration_unit"]
    stated = math.ceil(amount * per_unit[unit]) if amount and unit in per_unit else None
    if start is not None and end is not None and end >= start:
        last = end.date()
    elif start is not None and stated is not None:
        last = start.date() + dt.timedelta(days=stated - 1)
    elif stated is not None:
        limits = [3, 7, 30, 91, 182, 365, 730, 1095]
        return next((i for i, limit in enumerate(limits, 1) if stated <= limit), 9)
    else:
        return 0
    first = start.date()
    bounds = [first + dt.timedelta(days=3), first + dt.timedelta(days=7)]
    bounds += [_add_months(first, m) for m in (1, 3, 6, 12, 24, 36)]
    return 1 + sum(last >= bound for bound in bounds)


def gappy_facts() -> list[dict[str, Any]]:
    """Per event, the values of each dimension and measure, in plain Python."""
    from educatalog.demodata.reference_data import DURATIONS

    records = gappy_records()
    addresses = {a["id"]: a for a in records["addresses"]}
    states = {s["id"]: s["name"] for s in records["states"]}
    durations = dict(DURATIONS)
    facts = []
    for e in records["events"]:
        address = addresses.get(e["address"])
        start = e["event_start_date"]
        facts.append(
            {
                "event": e["id"],
                "course": e["course"],
                "institution": e["institution"],
                "max": e["max_participants"],
                "voucher": e["education_voucher"],
                "barrier_free": address["barrier_free"] if address else None,
                "state": states.get(address["state"]) if address else None,
                "month": start[:7] if start else None,
                "quarter": f"{start[:4]}Q{(int(start[5:7]) + 2) // 3}" if start else None,
                "year": int(start[:4]) if start else None,
                "duration_class": durations[python_duration_class(e)],
            }
        )
    return facts


def _months(first: str, last: str) -> list[str]:
    y, m = int(first[:4]), int(first[5:7])
    out = []
    while f"{y:04d}-{m:02d}" <= last:
        out.append(f"{y:04d}-{m:02d}")
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return out


def gappy_levels(dim: str, facts: list[dict[str, Any]]) -> list[Any]:
    """Every level a table by ``dim`` must list, in order, missing last where some lack one."""
    from educatalog.demodata.reference_data import DURATIONS

    known = sorted({f[dim] for f in facts if f[dim] is not None})
    if dim == "month":
        levels: list[Any] = _months(known[0], known[-1])
    elif dim == "quarter":
        levels = [
            q
            for q in (
                f"{y}Q{n}"
                for y in range(int(known[0][:4]), int(known[-1][:4]) + 1)
                for n in range(1, 5)
            )
            if known[0] <= q <= known[-1]
        ]
    elif dim == "year":
        levels = list(range(known[0], known[-1] + 1))
    elif dim == "state":
        levels = [s["name"] for s in gappy_records()["states"]]
    elif dim == "duration_class":
        levels = [n for i, n in sorted(DURATIONS, key=lambda p: (p[0] == 0, p[0]))]
    else:
        raise AssertionError(dim)
    return levels + ([None] if any(f[dim] is None for f in facts) else [])


def plain(value: Any) -> Any:
    """An index value as plain Python: str for periods and labels, int for years."""
    if pd.isna(value):
        return None
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return str(value)


def expected_measures(group: list[dict[str, Any]], total: int) -> dict[str, Any]:
    stated = [f["max"] for f in group if f["max"] is not None]
    return {
        "events": len(group),
        "courses": len({f["course"] for f in group if f["course"] is not None}),
        "institutions": len({f["institution"] for f in group}),
        # 0 places where there are no events; unknown where events state no maximum.
        "capacity": sum(stated) if stated or not group else None,
        "events_with_capacity": len(stated),
        "share": len(group) / total,
    }


@pytest.mark.parametrize("dim", ["month", "quarter", "year", "state", "duration_class"])
def test_every_level_is_listed_and_unknown_capacity_is_na(dim: str) -> None:
    offers = gappy_catalogue().offers()
    facts = gappy_facts()
    table = stats.supply(offers, dim)
    levels = gappy_levels(dim, facts)
    assert [plain(k) for k in table.index] == levels
    for level, (_, row) in zip(levels, table.iterrows(), strict=True):
        group = [f for f in facts if f[dim] == level]
        got = {k: (None if pd.isna(row[k]) else row[k]) for k in row.index}
        want = expected_measures(group, len(facts))
        assert got == pytest.approx(want), (dim, level)
    capacity = stats.capacity(offers, dim)
    assert [plain(k) for k in capacity.index] == levels
    for level, (_, row) in zip(levels, capacity.iterrows(), strict=True):
        want = expected_measures([f for f in facts if f[dim] == level], len(facts))
        assert row["events"] == want["events"]
        assert row["events_with_capacity"] == want["events_with_capacity"]
        assert (None if pd.isna(row["capacity"]) else row["capacity"]) == want["capacity"]
        if want["events_with_capacity"]:
            assert row["mean_capacity"] == pytest.approx(
                want["capacity"] / want["events_with_capacity"]
            )
        else:
            assert pd.isna(row["mean_capacity"])


def test_the_gappy_catalogue_has_the_gaps_it_claims() -> None:
    """The fixture itself: a test of gaps is only worth something if the gaps are there."""
    facts = gappy_facts()
    months = {f["month"] for f in facts}
    assert "2025-02" not in months
    assert not any(m and m.startswith("2026") for m in months)
    assert "Sachsen" not in {f["state"] for f in facts}
    mv = [f for f in facts if f["state"] == "Mecklenburg-Vorpommern"]
    assert mv
    assert all(f["max"] is None for f in mv)
    assert len({f["duration_class"] for f in facts}) < 10


def test_a_crosstab_of_offers_none_of_which_pass_lists_its_levels_and_zero_totals(
    offers: pd.DataFrame,
) -> None:
    """No offer passes the filters (the explorer's "no event matches"): the table by two
    dimensions has the levels a table by each lists (a yes/no column none, a categorical
    column every category), zeros, and its margins; it used to fail on its margins."""
    none = offers.iloc[0:0]
    table = stats.crosstab(
        none, "has_individual_start", "instruction_time", measure="courses", margins=True
    )
    levels = list(offers["instruction_time"].cat.categories)
    assert list(table.columns) == [*levels, stats.MARGINS]
    assert list(table.index) == [stats.MARGINS]
    assert table.to_numpy().sum() == 0


def test_crosstab_over_gaps_keeps_zero_counts_and_unknown_capacity() -> None:
    offers = gappy_catalogue().offers()
    facts = gappy_facts()
    months = gappy_levels("month", facts)
    states = gappy_levels("state", facts)
    events = stats.crosstab(offers, "state", "month")
    places = stats.crosstab(offers, "state", "month", measure="capacity")
    assert [plain(k) for k in events.index] == states
    assert [plain(k) for k in events.columns] == months
    for i, s in enumerate(states):
        for j, m in enumerate(months):
            want = expected_measures([f for f in facts if (f["state"], f["month"]) == (s, m)], 1)
            assert events.iloc[i, j] == want["events"], (s, m)
            got = places.iloc[i, j]
            assert (None if pd.isna(got) else got) == want["capacity"], (s, m)


@pytest.mark.parametrize("unknown", ["exclude", "as_false", "separate"])
@pytest.mark.parametrize("flag", ["education_voucher", "barrier_free"])
def test_share_of_a_flag_with_an_explicit_rule_for_unknowns(unknown: str, flag: str) -> None:
    offers = gappy_catalogue().offers()
    facts = gappy_facts()
    column = {"education_voucher": "voucher", "barrier_free": "barrier_free"}[flag]
    table = offers.edu.share(flag, by="state", unknown=unknown)
    levels = gappy_levels("state", facts)
    assert [plain(k) for k in table.index] == levels
    for level, (_, row) in zip(levels, table.iterrows(), strict=True):
        values = [f[column] for f in facts if f["state"] == level]
        yes, no = values.count(True), values.count(False)
        missing = sum(v is None for v in values)
        assert (row["events"], row["yes"], row["no"], row["unknown"]) == (
            len(values),
            yes,
            no,
            missing,
        )
        base = yes + no if unknown == "exclude" else len(values)
        if base == 0:
            assert pd.isna(row["share"])
            continue
        assert row["share"] == pytest.approx(yes / base)
        if unknown == "separate":
            assert row["share_no"] == pytest.approx(no / base)
            assert row["share_unknown"] == pytest.approx(missing / base)
            assert row["share"] + row["share_no"] + row["share_unknown"] == pytest.approx(1)
        else:
            assert "share_unknown" not in table
    overall = offers.edu.share(flag, unknown=unknown)
    values = [f[column] for f in facts]
    base = values.count(True) + values.count(False) if unknown == "exclude" else len(values)
    assert overall["share"].iloc[0] == pytest.approx(values.count(True) / base)


def test_share_exclude_is_what_a_groupby_mean_gives_on_the_demo(offers: pd.DataFrame) -> None:
    """The documented meaning of the default, on the real frame: unknowns leave the base,
    as in pandas' mean; "as_false" keeps them in it, as the counts of supply() do."""
    mean = offers.groupby("state", observed=True)["education_voucher"].mean()
    table = offers.edu.share("education_voucher", by="state")
    for state, value in mean.items():
        assert table.loc[state, "share"] == pytest.approx(value)
    as_false = offers.edu.share("education_voucher", by="state", unknown="as_false")
    events = offers.edu.supply(by="state")["events"]
    vouchers = offers[offers["education_voucher"].fillna(False)].groupby("state", observed=False)
    for state, n in vouchers.size().items():
        if events[state]:
            assert as_false.loc[state, "share"] == pytest.approx(n / events[state])
    assert (table["share"] != as_false["share"]).fillna(False).any()  # the two really differ


def test_share_of_a_labelled_value_and_its_errors() -> None:
    offers = gappy_catalogue().offers()
    facts = gappy_records()["events"]
    digital = offers.edu.share("instruction_form_category", value="Digital")
    assert digital["yes"].iloc[0] == sum(e["instruction_form"] == 201 for e in facts)
    with pytest.raises(UsageError, match=r"Unknown unknown 'as-false'.*Did you mean \"as_false\""):
        offers.edu.share("education_voucher", unknown="as-false")
    with pytest.raises(MissingColumns, match=r'Did you mean "education_voucher"'):
        offers.edu.share("education_vouchers")
    with pytest.raises(UsageError, match=r"not a yes/no column"):
        offers.edu.share("city")
    with pytest.raises(UsageError, match=r'no value of "instruction_form_category".*Digital'):
        offers.edu.share("instruction_form_category", value="Online")


def test_per_capita_names_its_population_source_and_year() -> None:
    from educatalog import population

    offers = gappy_catalogue().offers()
    facts = gappy_facts()
    table = stats.per_capita(offers)
    inhabitants = dict(zip(STATE_POPULATION["state"], STATE_POPULATION["population"], strict=True))
    # The states in the order of their official keys: 08 BW, 09 BY, 13 MV, 14 SN.
    assert [plain(k) for k in table.index] == [
        "Baden-Württemberg",
        "Bayern",
        "Mecklenburg-Vorpommern",
        "Sachsen",
    ]
    for state, row in table.iterrows():
        n = sum(f["state"] == state for f in facts)
        assert row["events"] == n
        assert row["events_per_100k"] == pytest.approx(n * 100_000 / inhabitants[state])
    assert table.attrs["educatalog"]["population"] == {
        "source": population.SOURCE,
        "year": 2024,
        "date": "2024-12-31",
        "basis": "Zensus 2022",
        "publisher": "Statistisches Bundesamt (Destatis) und Statistische Ämter der Länder",
        "statistic": "Fortschreibung des Bevölkerungsstandes",
        "table": "12411-0010",
        "publisher_en": (
            "Federal Statistical Office (Destatis) and the statistical offices of the Länder"
        ),
        "statistic_en": "population update",
        "licence": "Datenlizenz Deutschland – Namensnennung – Version 2.0 (dl-de/by-2-0)",
        "total": 83_577_140,
    }
    mine = pd.Series({"Bayern": 1000}, dtype="Int64")
    mine.attrs.update(source="my census", year=2024)
    own = stats.per_capita(offers, population=mine)
    assert own.attrs["educatalog"]["population"] == {"source": "my census", "year": 2024}


def test_per_capita_of_ones_own_population_table(tmp_path: Path) -> None:
    """A table like the shipped one, read from one's own CSV, with its date."""
    from educatalog import population

    offers = gappy_catalogue().offers()
    path = tmp_path / "census.csv"
    rows = "".join(
        f"{code},{name},{2000 if name == 'Bayern' else 1000}\n"
        for code, name in STATE_POPULATION["state"].items()
    )
    path.write_text(
        f"# publisher: Landesamt\n# date: 2024-06-30\ncode,state,population\n{rows}",
        encoding="utf-8",
    )
    mine = population.read_population(path)
    table = stats.per_capita(offers, population=mine)
    origin = table.attrs["educatalog"]["population"]
    assert origin == {
        "source": "Landesamt, Stand 30.06.2024",
        "year": 2024,
        "date": "2024-06-30",
        "publisher": "Landesamt",
        "total": 17_000,
    }
    assert table.loc["Bayern", "population"] == 2000
    assert table.loc["Mecklenburg-Vorpommern", "population"] == 1000
    (tmp_path / "bad.csv").write_text("name,inhabitants\nBayern,1\n", encoding="utf-8")
    with pytest.raises(EducatalogError, match=r"lacks the column\(s\) state, population"):
        population.read_population(tmp_path / "bad.csv")


def test_costs_and_quality_over_the_gappy_catalogue() -> None:
    offers = gappy_catalogue().offers()
    records = gappy_records()
    priced: dict[int, list[tuple[float, str | None]]] = defaultdict(list)
    for row in records["event_costs"]:
        if row["value"] is not None:
            priced[row["course"]].append((row["value"], row["currency"]))
    # A course's cost: the sum of its priced rows, only where they name one currency (a
    # missing currency counting as one of its own).
    course_cost = {
        c: (sum(v for v, _ in rows), rows[0][1])
        for c, rows in priced.items()
        if len({cur for _, cur in rows}) == 1
    }
    by_currency: dict[str, list[float]] = defaultdict(list)
    for e in records["events"]:
        cost = course_cost.get(e["course"])
        if cost is not None and cost[1] is not None:
            by_currency[cost[1]].append(cost[0])
    table = stats.costs(offers)
    assert sorted(table.index) == sorted(by_currency)
    for currency, values in by_currency.items():
        assert table.loc[currency, "events"] == len(values)
        assert table.loc[currency, "median"] == pytest.approx(statistics.median(values))
    assert 11 not in course_cost  # EUR next to a missing currency: no cost
    # By state: every state with every currency, 0 events and no median where none.
    facts = {f["event"]: f for f in gappy_facts()}
    states = gappy_levels("state", list(facts.values()))
    per_state = stats.costs(offers, by="state")
    assert [(plain(s), c) for s, c in per_state.index] == [
        (s, c) for s in states for c in sorted(by_currency)
    ]
    for (state, currency), row in per_state.iterrows():
        values = [
            course_cost[e["course"]][0]
            for e in records["events"]
            if facts[e["id"]]["state"] == plain(state)
            and course_cost.get(e["course"], (None, None))[1] == currency
        ]
        assert row["events"] == len(values)
        if values:
            assert row["median"] == pytest.approx(statistics.median(values))
        else:
            assert pd.isna(row["median"])
    report = stats.quality(offers)["count"]
    events = records["events"]
    with_state = {a["id"] for a in records["addresses"] if a["state"] is not None}
    expected = {
        "events_without_address": sum(e["address"] is None for e in events),
        "events_without_state": sum(e["address"] not in with_state for e in events),
        "missing_start_date": sum(e["event_start_date"] is None for e in events),
        "missing_end_date": sum(e["event_end_date"] is None for e in events),
        "end_before_start": sum(
            bool(e["event_start_date"] and e["event_end_date"])
            and e["event_end_date"] < e["event_start_date"]
            for e in events
        ),
        "no_duration": sum(python_duration_class(e) == 0 for e in events),
        "empty_participants": sum(
            e["min_participants"] is None and e["max_participants"] is None for e in events
        ),
        "events_without_cost": sum(e["course"] not in course_cost for e in events),
        "cost_without_currency": sum(
            e["course"] in course_cost and course_cost[e["course"]][1] is None for e in events
        ),
    }
    assert {k: report[k] for k in expected} == expected
    assert expected["end_before_start"] == 1
    assert expected["cost_without_currency"] == 2


def test_duration_classes_follow_the_documented_rules() -> None:
    """Impossible dates fall back to duration_in_days, as quality() judges them impossible."""
    offers = gappy_catalogue().offers().set_index("event_id")
    from educatalog.demodata.reference_data import DURATIONS

    names = dict(DURATIONS)
    for e in gappy_records()["events"]:
        assert offers.loc[e["id"], "duration_class"] == names[python_duration_class(e)], e["id"]
    # Event 3 ends an hour before it starts: its class comes from the 40 stated days.
    assert offers.loc[3, "duration_class"] == "mehr als 1 Monat bis 3 Monate"
    assert offers.loc[3, "duration_days"] == 40
    assert stats.quality(offers.reset_index()).loc["end_before_start", "count"] == 1


@pytest.mark.parametrize(
    ("call", "wrong", "right"),
    [
        (lambda o, x: o.edu.supply(by=x), "start_month", "month"),
        (lambda o, x: o.edu.supply(by=x), "State", "state"),
        (lambda o, x: o.edu.supply(by=["state", x]), "duration_clas", "duration_class"),
        (lambda o, x: o.edu.capacity(by=x), "instruction_forms", "instruction_form"),
        (lambda o, x: o.edu.crosstab("state", x), "quartr", "quarter"),
        (lambda o, x: o.edu.crosstab("state", "month", measure=x), "event", "events"),
        (lambda o, x: o.edu.supply(by=["state", "month"], normalize=x), "indx", "index"),
        (lambda o, x: o.edu.costs(by=x), "states", "state"),
        (lambda o, x: o.edu.share("education_voucher", by=x), "yaer", "year"),
        (lambda o, x: o.edu.plot.supply(by=x), "Month", "month"),
    ],
)
def test_accessor_errors_name_the_choices_and_the_nearest(
    call: Any, wrong: str, right: str
) -> None:
    offers = gappy_catalogue().offers()
    with pytest.raises(EducatalogError) as info:
        call(offers, wrong)
    message = str(info.value)
    assert f'Did you mean "{right}"?' in message, message
    assert "build the frame" not in message


def test_unknown_dimension_lists_the_dimensions_of_the_frame() -> None:
    offers = gappy_catalogue().offers()
    with pytest.raises(EducatalogError) as info:
        offers.edu.supply(by="start_month")
    message = str(info.value)
    for name in stats.dimensions(offers):
        assert name in message
    assert {"state", "duration_class", "month", "quarter", "year", "education_voucher"} <= set(
        stats.dimensions(offers)
    )


# -- tables for readers: what educatalog.tables adds around the statistics ---------------


def test_tables_check_kinds_and_the_sheet_size(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from educatalog import tables
    from educatalog.frames import excel

    table = stats.supply(hand_made().offers(), "state")
    with pytest.raises(UsageError, match="Unknown kind 'percent'"):
        tables.present(table, kinds={"share": "percent"})
    monkeypatch.setattr(excel, "MAX_ROWS", len(table))  # the title and header rows overflow
    with pytest.raises(UsageError, match="more than an Excel sheet holds"):
        tables.write_excel(tmp_path / "t.xlsx", [tables.present(table, title="Angebot")])
    assert not (tmp_path / "t.xlsx").exists()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_tables_name_the_population_as_the_charts_do(lang: str) -> None:
    from educatalog import plots, population, tables

    for origin in (
        population.origin(STATE_POPULATION),
        {"source": "given by the caller (population=...)", "year": 2023},
        {"source": "Landesamt", "date": "2024-06-30"},
        {"source": "Landesamt"},
    ):
        assert tables.population_text(origin, lang) == plots.population_text(origin, lang)
