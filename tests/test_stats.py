"""Every statistic against an independent computation of the same number.

On the demo catalogue the reference is SQL over the server's own database file; on small
hand-made frames it is plain Python over the records, with the edge cases written in.
"""

from __future__ import annotations

import sqlite3
import statistics
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from educatalog import stats
from educatalog.catalogue_data import Catalogue
from educatalog.errors import EducatalogError
from educatalog.population import STATE_POPULATION


def query(database: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(database) as conn:
        return conn.execute(sql).fetchall()


@pytest.fixture(scope="module")
def offers(demo_catalogue: Catalogue) -> pd.DataFrame:
    return demo_catalogue.offers()


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
        f"SUM(e.max_participants) {EVENT_JOINS} GROUP BY s.name",
    )
    want = {name: (n, c, i, cap or 0) for name, n, c, i, cap in rows}
    table = offers.edu.supply(by="state")
    got = {
        key(k): (r.events, r.courses, r.institutions, r.capacity)
        for k, r in table.iterrows()
        if r.events > 0
    }
    assert got == want
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
    assert STATE_POPULATION["population"].sum() == pytest.approx(84.3e6, rel=0.01)
    assert "Destatis" in STATE_POPULATION.attrs["source"]


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


def test_costs_equal_python_quartiles(offers: pd.DataFrame) -> None:
    groups: dict[tuple[Any, str], list[float]] = defaultdict(list)
    for category, cost, currency in offers[
        ["instruction_form_category", "cost", "cost_currency"]
    ].itertuples(index=False):
        if not pd.isna(cost) and not pd.isna(currency):
            groups[(key(category), currency)].append(float(cost))
    table = offers.edu.costs(by="instruction_form_category")
    assert table.index.names == ["instruction_form_category", "currency"]
    assert len(table) == len(groups)
    rows = {(key(cat), cur): row for (cat, cur), row in table.iterrows()}
    for group, values in groups.items():
        row = rows[group]
        q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
        assert row["events"] == len(values)
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
    with pytest.raises(EducatalogError, match=r"event_id.*offers\(\)"):
        events.edu.supply(by="state")
    offers = hand_made().offers()
    with pytest.raises(EducatalogError, match=r'no column "funding_type".*funding=True'):
        offers.edu.supply(by="funding_type")
    with pytest.raises(EducatalogError, match="two dimensions"):
        offers.edu.supply(by="state", normalize="index")
    with pytest.raises(EducatalogError, match="at least one dimension"):
        offers.edu.supply(by=[])
    with pytest.raises(EducatalogError, match="positive"):
        offers.edu.per_capita(per=0)


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
