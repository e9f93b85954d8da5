"""The offers frame and the loaded Catalogue, checked against SQL on the server's own file."""

from __future__ import annotations

import datetime as dt
import math
import sqlite3
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from dateutil.relativedelta import relativedelta

import educatalog
from educatalog.demodata.reference_data import DURATION_SPANS
from educatalog.errors import EducatalogError
from educatalog.frames.catalogue import LINK_TABLES, Catalogue, Source
from educatalog.frames.offers import OFFER_COLUMNS, duration_class_ids, duration_days


def query(database: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(database) as conn:
        return conn.execute(sql).fetchall()


def py(value: Any) -> Any:
    """A frame value as plain Python, missing values as None."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    return value.item() if hasattr(value, "item") else value


# -- the Catalogue object ---------------------------------------------------------------


def test_catalogue_holds_every_collection_and_link_table(
    demo_catalogue: Catalogue, catalogue_database: Path
) -> None:
    cat = demo_catalogue
    assert set(cat.collections) == {
        c.name for c in educatalog.SCHEMA.values() if c.kind != "junction"
    }
    assert set(cat.links) == set(LINK_TABLES)
    for name in cat.collections:
        (rows,) = query(catalogue_database, f'SELECT COUNT(*) FROM "{name}"')[0]
        assert len(cat[name]) == rows, name
        assert getattr(cat, name) is cat[name]
    for name in LINK_TABLES:
        junction = educatalog.SCHEMA[name]
        back, forward = junction.field_names[1], junction.field_names[2]
        expected = query(
            catalogue_database,
            f'SELECT DISTINCT "{back}", "{forward}" FROM "{name}" '
            f'WHERE "{back}" IS NOT NULL AND "{forward}" IS NOT NULL',
        )
        got = cat[name]
        assert sorted(map(tuple, got.to_numpy().tolist())) == sorted(expected), name
    assert cat.source.demo is True
    assert "synthetic demo data" in repr(cat)
    assert f"{len(cat.events):,}" in repr(cat)


def test_catalogue_labels_and_errors(demo_catalogue: Catalogue) -> None:
    states = demo_catalogue.labels("states")
    assert states[1] == "Baden-Württemberg"
    assert states[16] == "Thüringen"
    assert demo_catalogue.labels("locations").name == "locations"
    with pytest.raises(EducatalogError, match="not a reference list"):
        demo_catalogue.labels("events")
    with pytest.raises(AttributeError, match='Did you mean "events"'):
        _ = demo_catalogue.evnets
    partial = Catalogue({"states": demo_catalogue.states})
    with pytest.raises(AttributeError, match="was not loaded"):
        _ = partial.events
    with pytest.raises(EducatalogError, match="offers\\(\\) needs the tables events"):
        partial.offers()
    with pytest.raises(EducatalogError, match="neither a collection nor a link table"):
        Catalogue({"event": demo_catalogue.events})


def test_load_catalogue_subset_and_bad_names(demo_catalogue: Catalogue) -> None:
    url = demo_catalogue.source.url
    with educatalog.Client(url, token="catalogue-token") as client:
        cat = educatalog.load_catalogue(client, ["states", "events_contacts", "states"])
        assert cat.collections == ("states",)
        assert cat.links == ("events_contacts",)
        pd.testing.assert_frame_equal(cat.events_contacts, demo_catalogue.events_contacts)
        with pytest.raises(EducatalogError, match='Did you mean "events"'):
            educatalog.load_catalogue(client, ["evnts"])
        with pytest.raises(EducatalogError, match='collection "x"'):
            educatalog.load_catalogue(client, ["states", "x"])


# -- the offers frame -------------------------------------------------------------------

OFFERS_SQL = """
SELECT e.id, e.course, e.institution, c.title, s.name, s.code, a.zip, a.city, a.barrier_free,
       f.name, f.category, t.name, et.name, ct.name, it.name, e.education_voucher,
       e.max_participants, e.address, a.state, e.instruction_form
FROM events e
LEFT JOIN courses c ON c.id = e.course
LEFT JOIN addresses a ON a.id = e.address
LEFT JOIN states s ON s.id = a.state
LEFT JOIN instruction_forms f ON f.id = e.instruction_form
LEFT JOIN instruction_times t ON t.id = e.instruction_time
LEFT JOIN education_types et ON et.id = c.education_type
LEFT JOIN course_types ct ON ct.id = c.course_type
LEFT JOIN institution_types it ON it.id = c.institution_type
ORDER BY e.id
"""
OFFERS_COLUMNS = [
    "event_id",
    "course_id",
    "institution",
    "course_title",
    "state",
    "state_code",
    "zip",
    "city",
    "barrier_free",
    "instruction_form",
    "instruction_form_category",
    "instruction_time",
    "education_type",
    "course_type",
    "institution_type",
    "education_voucher",
    "max_participants",
    "address_id",
    "state_id",
    "instruction_form_id",
]
BOOLEANS = {"barrier_free", "education_voucher"}


def test_offers_rows_equal_the_joins_in_sql(
    demo_catalogue: Catalogue, catalogue_database: Path
) -> None:
    offers = demo_catalogue.offers()
    assert tuple(offers.columns) == OFFER_COLUMNS
    expected = query(catalogue_database, OFFERS_SQL)
    assert len(offers) == len(expected) == len(demo_catalogue.events)
    got = offers[OFFERS_COLUMNS].astype(object).to_numpy().tolist()
    for row, want in zip(got, expected, strict=True):
        row = [py(v) for v in row]
        want = [
            (bool(v) if v is not None else None) if name in BOOLEANS else v
            for name, v in zip(OFFERS_COLUMNS, want, strict=True)
        ]
        assert row == want
    assert offers["state"].dtype == "category"
    assert list(offers["state"].cat.categories) == list(demo_catalogue.labels("states"))
    assert offers["duration_class"].cat.ordered
    assert offers["duration_class"].cat.categories[-1] == "Keine Angabe"
    assert offers.attrs["educatalog"]["demo"] is True


COSTS_SQL = """
SELECT course,
       CASE WHEN COUNT(DISTINCT COALESCE(currency, '?')) = 1 THEN SUM(CAST(value AS REAL)) END,
       CASE WHEN COUNT(DISTINCT COALESCE(currency, '?')) = 1 THEN MIN(currency) END
FROM event_costs WHERE value IS NOT NULL AND course IS NOT NULL GROUP BY course
"""


def test_offer_costs_are_the_course_sums_in_one_currency(
    demo_catalogue: Catalogue, catalogue_database: Path
) -> None:
    offers = demo_catalogue.offers()
    by_course = {course: (cost, cur) for course, cost, cur in query(catalogue_database, COSTS_SQL)}
    for course, cost, currency in offers[["course_id", "cost", "cost_currency"]].itertuples(
        index=False
    ):
        want_cost, want_currency = by_course.get(int(course), (None, None))
        assert py(currency) == want_currency
        if want_cost is None:
            assert py(cost) is None
        else:
            assert cost == pytest.approx(want_cost)


DURATION_SQL = """
SELECT id, date(event_start_date),
  CASE WHEN date(event_end_date) >= date(event_start_date) THEN date(event_end_date) END,
  CASE WHEN duration_in_days > 0 THEN
    CASE duration_unit
      WHEN 'calendar_days' THEN duration_in_days
      WHEN 'week_days' THEN duration_in_days * 7.0 / 5
      WHEN 'hours' THEN duration_in_days * 7.0 / 40
    END
  END
FROM events ORDER BY id
"""

CALENDAR_LIMITS = [
    relativedelta(days=3),
    relativedelta(weeks=1),
    relativedelta(months=1),
    relativedelta(months=3),
    relativedelta(months=6),
    relativedelta(years=1),
    relativedelta(years=2),
    relativedelta(years=3),
]


def kursnet_class(start: dt.date | None, last: dt.date | None, days: int | None) -> int:
    """The KURSNET duration class, written out from the class names with dateutil."""
    if start is not None and last is not None:
        return 1 + sum(last >= start + limit for limit in CALENDAR_LIMITS)
    if days is None:
        return 0  # Keine Angabe
    for limit, cls in ((3, 1), (7, 2), (30, 3), (91, 4), (182, 5), (365, 6), (730, 7), (1095, 8)):
        if days <= limit:
            return cls
    return 9


def test_duration_classes_follow_the_calendar(
    demo_catalogue: Catalogue, catalogue_database: Path
) -> None:
    offers = demo_catalogue.offers()
    want_days, want_class = [], []
    for _, start, end, stated in query(catalogue_database, DURATION_SQL):
        start = dt.date.fromisoformat(start) if start else None
        end = dt.date.fromisoformat(end) if end else None
        stated = None if stated is None else math.ceil(stated - 1e-9)
        if end is not None:
            days = (end - start).days + 1
            last = end
        else:
            days = stated
            last = start + dt.timedelta(days=stated - 1) if start and stated else None
        want_days.append(days)
        want_class.append(kursnet_class(start, last, days))
    assert [py(v) for v in offers["duration_days"]] == want_days
    assert [int(v) for v in offers["duration_class_id"]] == want_class
    names = dict(zip(demo_catalogue.durations["id"], demo_catalogue.durations["name"], strict=True))
    assert [str(v) for v in offers["duration_class"]] == [names[c] for c in want_class]
    # Every class occurs; "end before start" events fall back to the stated duration.
    assert set(want_class) == set(range(10))


@pytest.mark.parametrize("cls", sorted(DURATION_SPANS))
def test_the_generators_spans_land_in_their_class_from_any_start(cls: int) -> None:
    low, high = DURATION_SPANS[cls]
    starts = pd.date_range("2024-01-01", "2026-12-31", freq="D")[::3] + pd.Timedelta(hours=8)
    for span in (low, high):
        events = pd.DataFrame(
            {"event_start_date": starts, "event_end_date": starts + pd.Timedelta(days=span)}
        )
        assert set(duration_class_ids(events)) == {cls}, (cls, span)


def test_duration_classes_are_calendar_months_and_years() -> None:
    t = pd.Timestamp
    events = pd.DataFrame(
        {
            "event_start_date": [
                t("2025-01-01"),
                t("2025-07-01"),
                t("2025-07-01"),
                t("2024-01-01"),
            ],
            "event_end_date": [t("2025-01-31"), t("2025-09-30"), t("2025-12-31"), t("2024-12-31")],
        }
    )
    # January: up to a month; a quarter: up to three months; half a year; a leap year.
    assert duration_class_ids(events).tolist() == [3, 4, 5, 6]


def test_an_end_without_a_start_tells_no_duration() -> None:
    """docs/definitions.md: an event with neither a start date nor a stated duration is
    class 0 "Keine Angabe", also when it has an end date (not class 1 "bis 3 Tage"); with a
    stated duration its class comes from the days."""
    t = pd.Timestamp
    events = pd.DataFrame(
        {
            "event_start_date": [None, None],
            "event_end_date": [t("2025-03-31"), t("2025-03-31")],
            "duration_in_days": pd.array([None, 30], dtype="Int64"),
            "duration_unit": pd.array([None, "calendar_days"]),
        }
    )
    assert duration_class_ids(events).tolist() == [0, 3]
    assert [py(d) for d in duration_days(events)] == [None, 30]


def test_duration_fallbacks_on_hand_made_events() -> None:
    t = pd.Timestamp
    events = pd.DataFrame(
        {
            "event_start_date": [
                t("2025-01-06 09:00"),
                t("2025-01-06"),
                None,
                t("2025-01-06"),
                None,
            ],
            "event_end_date": [t("2025-01-06 17:00"), t("2025-01-01"), None, None, None],
            "duration_in_days": pd.array([None, 10, 20, 80, 0], dtype="Int64"),
            "duration_unit": pd.array([None, "week_days", "calendar_days", "hours", "hours"]),
        }
    )
    days = duration_days(events)
    # same day = 1 day; end before start -> 10 week days = 14 calendar days; 80 hours = 14.
    assert [py(d) for d in days] == [1, 14, 20, 14, None]
    assert duration_class_ids(events).tolist() == [1, 3, 3, 3, 0]


FUNDING_SQL = """
SELECT e.id, f.name FROM events e
JOIN courses_funding_types_federals j ON j.courses_id = e.course
JOIN funding_types_federals f ON f.id = j.funding_types_federals_id
UNION
SELECT e.id, r.name FROM events e
JOIN courses_funding_types_regions j ON j.courses_id = e.course
JOIN funding_types_regions r ON r.id = j.funding_types_regions_id
"""


def test_offers_with_funding_repeat_each_event_per_funding_type(
    demo_catalogue: Catalogue, catalogue_database: Path
) -> None:
    funded = demo_catalogue.offers(funding=True)
    pairs = set(query(catalogue_database, FUNDING_SQL))
    got = {(int(e), str(f)) for e, f in funded[["event_id", "funding_type"]].dropna().to_numpy()}
    assert got == pairs
    unfunded = set(demo_catalogue.events["id"]) - {e for e, _ in pairs}
    lonely = funded[funded["funding_type"].isna()]
    assert set(lonely["event_id"]) == unfunded
    assert lonely["event_id"].is_unique
    assert set(funded["funding_level"].dropna()) == {"federal", "regional"}


def test_offers_tolerate_a_service_that_omits_fields() -> None:
    """Fields the service leaves out become missing values, never a crash."""
    states = pd.DataFrame({"id": [1], "name": ["Berlin"]})
    cat = _tiny_catalogue(events=pd.DataFrame({"id": [1, 2], "course": [1, None]}), states=states)
    offers = cat.offers()
    assert offers["event_id"].tolist() == [1, 2]
    assert offers["event_start_date"].isna().all()
    assert offers["state"].isna().all()
    assert offers["state_code"].isna().all()
    assert offers["duration_class_id"].tolist() == [0, 0]


def _tiny_catalogue(**tables: pd.DataFrame) -> Catalogue:
    empty = {
        "events": pd.DataFrame({"id": [], "course": [], "address": [], "event_start_date": []}),
        "courses": pd.DataFrame({"id": [1], "title": ["Kurs"]}),
        "addresses": pd.DataFrame({"id": [], "state": []}),
        "event_costs": pd.DataFrame({"id": [], "course": [], "value": [], "currency": []}),
    }
    for name in (
        "states",
        "instruction_forms",
        "instruction_times",
        "durations",
        "education_types",
        "course_types",
        "institution_types",
    ):
        empty[name] = pd.DataFrame({"id": pd.array([], dtype="Int64"), "name": []})
    empty["events"]["event_start_date"] = pd.to_datetime(empty["events"]["event_start_date"])
    frames = {**empty, **tables}
    if "event_start_date" not in frames["events"]:
        frames["events"] = frames["events"].assign(event_start_date=pd.NaT)
    return Catalogue(frames, source=Source(url="http://example.invalid"))
