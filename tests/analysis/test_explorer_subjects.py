"""The explorer's model with subject area as a dimension and a filter (issue 37): over
``offers(subjects=True)`` (one row per event and subject) every count stays one of distinct
events, courses and providers, checked against the statistics of the same selection and
against plain Python counts over the frame's rows; on the crafted catalogue of
``test_subjects`` (a course in two areas, one without subject) and on the demo."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from test_subjects import crafted

from educatalog import stats, texts
from educatalog.cli.dashboard import by_subject_area
from educatalog.widgets import MISSING_LABEL, ExplorerModel
from educatalog.widgets.url_state import from_query, to_query


def plain_events(offers: pd.DataFrame, by: str, area: str | None = None) -> dict[Any, int]:
    """Distinct events per value of ``by`` (None: not stated), of the events with a row
    in ``area`` (all when None), counted over the rows in plain Python."""
    rows = list(zip(offers["event_id"], offers[by], offers["subject_area"], strict=True))
    chosen = {e for e, _v, a in rows if area is None or (a == area if pd.notna(a) else False)}
    events: dict[Any, set[int]] = defaultdict(set)
    for event, value, subject_area in rows:
        if event not in chosen:
            continue
        if by == "subject_area" and area is not None and subject_area != area:
            continue  # by the areas chosen: the other areas' rows are not shown
        events[None if pd.isna(value) else value].add(int(event))
    return {value: len(ids) for value, ids in events.items()}


def shown(table: pd.DataFrame) -> dict[Any, int]:
    """The table's events by row, rows without any left out, "not stated" as None."""
    return {(None if pd.isna(k) else k): int(v) for k, v in table["events"].items() if int(v) > 0}


def same(left: pd.DataFrame | pd.Series, right: pd.DataFrame | pd.Series) -> None:
    """Equal numbers by equal rows (the table's index leaves the categorical dtype)."""
    left, right = (x.set_axis(pd.Index(list(x.index), dtype=object)) for x in (left, right))
    if isinstance(left, pd.Series):
        pd.testing.assert_series_equal(left, right, check_names=False)
    else:
        pd.testing.assert_frame_equal(left, right)


@pytest.fixture(scope="module")
def two_areas() -> pd.DataFrame:
    offers = crafted().offers(subjects=True)
    areas = offers.groupby("event_id")["subject_area"].nunique()
    assert (areas > 1).any(), "the crafted catalogue has an event in two areas"
    return offers


@pytest.fixture
def model(two_areas: pd.DataFrame, tmp_path: Path) -> ExplorerModel:
    return ExplorerModel(two_areas, debounce=0, export_dir=tmp_path, lang="de")


def test_subject_area_is_a_dimension_and_a_filter_the_codes_are_not(
    model: ExplorerModel, two_areas: pd.DataFrame
) -> None:
    assert model.dimensions["subject_area"] == "Fachgebiet"
    assert "subject_area_code" not in model.dimensions
    offered = [value for _label, value in model.options["subject_areas"]]
    assert offered == [*two_areas["subject_area"].cat.categories, MISSING_LABEL]
    assert model.options["subject_areas"][-1][0] == texts.missing("de")


def test_by_subject_area_the_table_is_the_statistics_and_counts_each_event_once(
    model: ExplorerModel, two_areas: pd.DataFrame
) -> None:
    model.update(by="subject_area")
    expected = stats.supply(two_areas, "subject_area", normalize="all")
    same(model.table[["events", "share"]], expected[["events", "share"]])
    assert shown(model.table) == plain_events(two_areas, "subject_area")
    events = two_areas["event_id"].nunique()
    assert model.matched == model.total_events == events == model.totals["events"]
    assert model.table["events"].sum() > events  # an event in two areas: in two rows
    # The table says so itself, once, beside its total row (tables.present's note), in the
    # page and in the file; the model adds no second note.
    assert model.table_note == ""
    notes = [n for n in model._presented().notes if n.startswith("Mehrfachzuordnung")]
    assert len(notes) == 1, notes
    model.update(by="state")  # by state each event in one row: no note
    assert shown(model.table) == plain_events(two_areas, "state")
    assert model.table["events"].sum() == events
    assert model.table_note == ""
    model.update(by="state", by2="subject_area")
    assert model.table_note == texts.text("note.multiple_assignment", "de")


@pytest.mark.parametrize("measure", ["courses", "institutions", "capacity"])
def test_every_measure_counts_distinct_offers(
    model: ExplorerModel, two_areas: pd.DataFrame, measure: str
) -> None:
    model.update(by="state", measure=measure)
    expected = stats.supply(two_areas, "state")[measure]
    same(model.table[measure], expected)
    once = two_areas.drop_duplicates("event_id")  # one row per event: the plain frame
    same(model.table[measure], stats.supply(once, "state")[measure])


def test_the_filter_is_the_selection_of_the_statistics(
    model: ExplorerModel, two_areas: pd.DataFrame
) -> None:
    area = two_areas.groupby("subject_area", observed=True)["event_id"].nunique().idxmax()
    model.update(subject_areas=(area,))
    selected = stats.select(two_areas, subject_area=[area])
    assert (
        model.matched
        == selected["event_id"].nunique()
        == sum(plain_events(two_areas, "subject_area", area).values())
    )
    same(model.table, stats.supply(selected, "state", normalize="all")[["events", "share"]])
    assert shown(model.table) == plain_events(two_areas, "state", area)
    model.update(by="subject_area")  # by the areas: the one chosen, no other
    assert shown(model.table) == plain_events(two_areas, "subject_area", area)
    assert list(model.table.index) == [area]
    assert model.notes == [area]
    model.update(subject_areas=(MISSING_LABEL,))  # "ohne Angabe": the courses without
    without = stats.select(two_areas, subject_area=None)
    assert model.matched == without["event_id"].nunique() > 0
    model.reset()
    assert model.view.subject_areas == ()
    assert model.matched == model.total_events


def test_the_link_holds_the_subject_areas_in_either_language(
    model: ExplorerModel, two_areas: pd.DataFrame
) -> None:
    areas = list(two_areas["subject_area"].cat.categories[:2])
    model.update(by="subject_area", subject_areas=(*areas, MISSING_LABEL))
    query = to_query(model.state)
    assert query.startswith("by=subject_area&subject_areas=")
    again = ExplorerModel(two_areas, debounce=0, lang="en")
    assert again.set_state(query) == []
    assert again.view == model.view
    assert again.state == model.state
    same(again.table, model.table)
    # the labels a page shows, in either language, case aside
    labels = f"by=Subject+area&subject_areas={areas[0].upper()}&subject_areas=ohne+Angabe"
    assert again.set_state(labels) == []
    assert again.view.by == "subject_area"
    assert again.view.subject_areas == (areas[0], MISSING_LABEL)
    problems = again.set_state(from_query("subject_areas=Astrologie"))
    assert len(problems) == 1
    assert "Astrologie" in problems[0]


def test_the_dashboards_frame_counts_as_offers_with_subjects(demo_catalogue: Any) -> None:
    full = demo_catalogue.offers(subjects=True)
    frame = by_subject_area(demo_catalogue)
    assert frame["event_id"].nunique() == full["event_id"].nunique()
    assert len(frame) <= len(full)
    model = ExplorerModel(frame, debounce=0)
    model.update(by="subject_area")
    expected = stats.supply(full, "subject_area", normalize="all")[["events", "share"]]
    same(model.table[["events", "share"]], expected)
    assert model.matched == full["event_id"].nunique()
    for area in full["subject_area"].cat.categories[:3]:
        model.update(by="state", subject_areas=(area,))
        assert shown(model.table) == plain_events(full, "state", area)
