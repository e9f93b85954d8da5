"""The explorer's model without any widget (``widgets/_model.py``): a change of the view
gives the numbers computed independently with plain pandas; a view goes into a link and
comes back; reset clears the filters; the exported file holds the table; and the debounce
runs on a clock turned by hand, without threads."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
import pytest

from clock import Clock
from educatalog import stats, texts
from educatalog.errors import UsageError
from educatalog.widgets import MISSING_LABEL, NONE, ExplorerModel, View
from educatalog.widgets._choices import district_keys
from educatalog.widgets.url_state import to_query


@pytest.fixture
def model(offers: pd.DataFrame, tmp_path: Path) -> ExplorerModel:
    return ExplorerModel(offers, debounce=0, export_dir=tmp_path, lang="en")


def test_the_model_needs_no_widgets() -> None:
    probe = (
        "import sys\n"
        "sys.modules['ipywidgets'] = None  # importing it fails\n"
        "import pandas as pd\n"
        "from educatalog.widgets import ExplorerModel\n"
        "frame = pd.DataFrame({'event_id': [1, 2, 3],\n"
        "    'state': pd.Categorical(['Bayern', 'Berlin', 'Bayern'])})\n"
        "model = ExplorerModel(frame, debounce=0)\n"
        "model.update(states=('Bayern',))\n"
        "print(int(model.table['events'].sum()), model.error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "None"]


def test_the_default_view_counts_every_event_by_state(
    model: ExplorerModel, offers: pd.DataFrame
) -> None:
    assert model.view == View(by="state")
    assert model.state == {}
    assert model.recomputes == 1
    assert model.table["events"].sum() == len(offers)
    assert model.table.loc["Berlin", "events"] == (offers["state"] == "Berlin").sum()
    assert model.mask.all()
    assert model.alt_text.startswith("Bar chart: Events by state.")
    assert model.png.startswith(b"\x89PNG")


def test_filter_changes_give_the_numbers(model: ExplorerModel, offers: pd.DataFrame) -> None:
    model.update(states=("Bayern", "Berlin"))
    chosen = offers[offers["state"].isin(["Bayern", "Berlin"])]
    assert model.table["events"].sum() == len(chosen)
    assert list(model.table.index) == ["Bayern", "Berlin"]  # no rows of states left out
    pd.testing.assert_frame_equal(model.filtered, chosen)
    assert model.notes == ["Bavaria, Berlin"]

    model.update(voucher=True, by="instruction_form_category", measure="courses")
    rows = chosen[chosen["education_voucher"].fillna(False)]
    assert 0 < len(rows) < len(chosen)
    for category, part in rows.groupby("instruction_form_category", observed=True):
        assert model.table.loc[category, "courses"] == part["course_id"].nunique()
    assert model.notes == ["Bavaria, Berlin", "education voucher only"]

    model.update(by2="duration_class", measure="events")
    expected = pd.crosstab(rows["instruction_form_category"], rows["duration_class"])
    for category in expected.index:
        for duration in expected.columns:
            assert model.table.loc[category, duration] == expected.loc[category, duration]
    assert model.figure_title == "Events by instruction form category and duration class"


def test_the_window_of_months(model: ExplorerModel, offers: pd.DataFrame) -> None:
    months = [str(m) for m in model.months]
    model.update(window=(months.index("2025-03"), months.index("2025-05")))
    start = offers["event_start_date"]
    inside = (start >= "2025-03-01") & (start < "2025-06-01")
    assert 0 < inside.sum() < len(offers)
    assert model.mask.tolist() == inside.tolist()
    assert model.notes == ["start Mar 2025 to May 2025"]
    assert model.state == {"start": "2025-03", "end": "2025-05"}
    model.update(window=(0, len(months) - 1))  # the whole time, events without a start too
    assert model.view.window is None
    assert model.mask.all()


def test_a_choice_not_offered_is_refused(model: ExplorerModel) -> None:
    with pytest.raises(UsageError, match="by is one of"):
        model.update(by="nonsense")
    with pytest.raises(UsageError, match="states offers"):
        model.update(states=("Atlantis",))
    with pytest.raises(UsageError, match="window"):
        model.update(window=(3, 1))
    assert model.view == View(by="state")
    assert model.recomputes == 1


def test_a_view_goes_into_a_link_and_comes_back(model: ExplorerModel, offers: pd.DataFrame) -> None:
    months = [str(m) for m in model.months]
    model.update(
        by="duration_class",
        by2="state",
        measure="capacity",
        categories=("Digital",),
        window=(months.index("2025-02"), len(months) - 1),
        voucher=True,
        format="Excel",
    )
    query = to_query(model.state)
    assert query == (
        "by=duration_class&by2=state&measure=capacity&categories=Digital"
        "&start=2025-02&voucher=1&format=xlsx"
    )
    other = ExplorerModel(offers, debounce=0, lang="de")
    assert other.set_state(query) == []
    assert other.view == model.view
    pd.testing.assert_frame_equal(other.table, model.table)
    assert other.set_state("states=Bayren&by2=nichts") == [
        "Link: by2=nichts gibt es nicht (es gibt: "
        + ", ".join(label for label, _value in other.options["by"])
        + "); ignoriert.",
        "Link: states=Bayren gibt es nicht (es gibt: "
        + ", ".join(label for label, _value in other.options["states"])
        + "); ignoriert.",
    ]
    assert other.view == View(by="state")


def test_reset_clears_the_filters_and_keeps_the_rest(
    model: ExplorerModel, offers: pd.DataFrame
) -> None:
    model.update(by="duration_class", measure="courses", states=("Bayern",), voucher=True)
    model.update(window=(1, 2), format="Excel")
    recomputes = model.recomputes
    model.reset()
    assert model.recomputes == recomputes + 1
    assert model.view == View(by="duration_class", measure="courses", format="Excel")
    assert model.mask.all()
    assert model.notes == []
    assert model.table["events"].sum() == len(offers)


def test_the_export_holds_the_table_shown(
    model: ExplorerModel, offers: pd.DataFrame, tmp_path: Path
) -> None:
    model.update(states=("Bayern",), measure="courses")
    bavaria = offers[offers["state"] == "Bayern"]
    text = model.payload("csv").decode("utf-8-sig").splitlines()
    # as on the workbook's sheet: the title above, then the rows, then what they counted
    assert text[0] == "Courses by state – SYNTHETIC DEMO DATA"
    assert text[1] == "Key,State,Events,Courses,Share of events (%)"
    courses = bavaria["course_id"].nunique()
    assert text[2] == f"09,Bavaria,{len(bavaria)},{courses},100.0"
    assert text[3] == f",Total,{len(bavaria)},{courses},100.0"
    assert text[4] == ""
    assert text[5:7] == ["Measure: Courses", "Source: synthetic demo data (educatalog)"]
    assert text[7].startswith("As of: ")  # the data's date
    assert text[8:] == [
        "Filters: Bavaria",
        '"Note: SYNTHETIC DEMO DATA: generated by educatalog, not the real course supply."',
    ]
    assert model.file_stem == "educatalog-courses-by-state"
    german = ExplorerModel(offers, debounce=0, lang="de")
    german.update(states=("Bayern",), by2="duration_class")
    assert german.file_stem == "educatalog-veranstaltungen-nach-bundesland-und-dauer"
    lines = german.payload("csv").decode("utf-8-sig").splitlines()
    assert lines[0] == "Veranstaltungen nach Bundesland und Dauer – SYNTHETISCHE DEMODATEN"
    assert lines[1].startswith("Schlüssel;Bundesland;")  # German Excel: ";" between fields
    assert lines[-2] == "Filter: Bayern"  # then the demo mark

    model.update(format="Excel")  # the format alone: the numbers stay
    assert model.recomputes == 2
    path = model.export()
    assert path.parent == tmp_path
    assert path.name.startswith("educatalog-courses-by-state-")
    assert path.suffix == ".xlsx"
    assert model.exported == path
    book = openpyxl.load_workbook(io.BytesIO(path.read_bytes()))
    about = dict(book.worksheets[0].iter_rows(min_row=3, values_only=True))
    assert about["Filters"] == "Bavaria"
    rows = list(book.worksheets[1].iter_rows(min_row=3, max_row=3, values_only=True))
    assert rows[0][:4] == ("09", "Bavaria", len(bavaria), courses)


def test_the_debounce_waits_for_the_pause(offers: pd.DataFrame) -> None:
    clock = Clock()
    model = ExplorerModel(offers, debounce=0.3, lang="en", scheduler=clock)
    events: list[str] = []
    model.subscribe(events.append)
    assert model.recomputes == 1  # built at once
    model.update(states=("Bayern",))
    clock.advance(0.2)
    model.update(measure="courses")
    clock.advance(0.2)
    model.update(by="instruction_time")
    assert model.recomputes == 1  # nothing yet: waiting for the pause
    assert model.pending
    assert events == ["view", "view", "view"]
    assert [call.cancelled for call in clock.calls] == [True, True, False]
    clock.advance(0.29)
    assert model.recomputes == 1
    clock.advance(0.01)
    assert model.recomputes == 2  # once, for all three changes
    assert not model.pending
    assert events[-1] == "result"
    bayern = offers[offers["state"] == "Bayern"]
    assert model.table.loc["Vollzeit", "courses"] == (
        bayern.loc[bayern["instruction_time"] == "Vollzeit", "course_id"].nunique()
    )
    clock.calls[0].callback()  # a call that was called off but runs anyway: nothing
    assert model.recomputes == 2

    model.update(states=())
    assert model.pending
    model.flush()  # what export does: the pending change now
    assert not model.pending
    assert model.recomputes == 3
    assert model.table["events"].sum() == len(offers)
    clock.advance(1)
    assert model.recomputes == 3  # the timer that flush called off never runs
    with model.holding():
        model.update(measure="events")
        model.update(voucher=True)
    clock.advance(0.3)
    assert model.recomputes == 4


def test_a_failed_debounced_update_is_said(
    offers: pd.DataFrame, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    model = ExplorerModel(offers, debounce=0.3, lang="en", scheduler=clock)
    events: list[str] = []
    model.subscribe(events.append)

    def draw(*_args: Any) -> Any:
        raise RuntimeError("a mistake")

    monkeypatch.setattr(model, "_draw", draw)
    model.update(by2="instruction_form_category")
    clock.advance(1)
    assert model.error == "RuntimeError: a mistake"
    assert not model.pending
    assert events == ["view", "result"]
    monkeypatch.undo()
    model.update(by2=NONE)
    clock.advance(1)
    assert model.error is None


def test_a_change_during_an_update_is_the_next_ones(
    offers: pd.DataFrame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The numbers, their filters in words and the file describe the view as the update
    began; a change meanwhile keeps an update pending, which then follows."""
    clock = Clock()
    model = ExplorerModel(offers, debounce=0.3, lang="en", scheduler=clock)
    mask = model._mask

    def clicked_meanwhile(view: View) -> Any:
        chosen = mask(view)
        if not model.view.voucher:
            model.update(voucher=True)
        return chosen

    monkeypatch.setattr(model, "_mask", clicked_meanwhile)
    model.update(states=("Bayern",))
    clock.advance(0.3)
    assert model.recomputes == 2
    assert model.notes == ["Bavaria"]
    assert model.shown == View(by="state", states=("Bayern",))
    assert model.table["events"].sum() == (offers["state"] == "Bayern").sum()
    assert model.pending  # the voucher's update is still to come
    clock.advance(0.3)
    assert model.recomputes == 3
    assert not model.pending
    assert model.notes == ["Bavaria", "education voucher only"]


def district_table(offers: pd.DataFrame, measure: str = "events") -> pd.DataFrame:
    """The explorer's table by district for ``offers`` as already selected, from stats."""
    full = stats.supply(offers, "district", normalize="all", margins=True)
    columns = ["events", *([measure] if measure != "events" else []), "share"]
    return full[columns].iloc[:-1]


def test_the_district_table_is_the_statistics_of_the_same_filters(
    model: ExplorerModel, offers: pd.DataFrame
) -> None:
    """By district: the 400 districts in the order of their keys and the events without
    one, every row as stats counts it; a state filter narrows the rows to its districts
    (as stats.select does), a district filter to the districts chosen."""
    model.update(by="district")
    assert len(model.table) == 401
    assert list(model.table.index[:3]) == ["Flensburg", "Kiel", "Lübeck"]  # key order
    assert pd.isna(model.table.index[-1])  # the events without a district, last
    pd.testing.assert_frame_equal(model.table, district_table(offers))
    assert model.totals is not None
    assert model.totals["events"] == len(offers)

    model.update(states=("Bayern", "Sachsen"), measure="courses")
    chosen = stats.select(offers, state=["Bayern", "Sachsen"])
    pd.testing.assert_frame_equal(model.table, district_table(chosen, "courses"))
    keys = district_keys()
    bavaria_saxony = [name for key, name in keys.items() if key[:2] in ("09", "14")]
    assert [d for d in model.table.index if not pd.isna(d)] == bavaria_saxony  # 96 + 13
    assert len(bavaria_saxony) == 109

    districts = ("München, Stadt", "Leipzig, Stadt", MISSING_LABEL)
    model.update(districts=districts)
    picked = stats.select(
        offers, state=["Bayern", "Sachsen"], district=["München, Stadt", "Leipzig, Stadt", None]
    )
    pd.testing.assert_frame_equal(model.table, district_table(picked, "courses"))
    assert model.matched == len(picked) > 0
    assert model.notes == ["Bavaria, Saxony", "München, city; Leipzig, city; not stated"]

    # by two dimensions: the crosstab of the same selection
    model.update(by2="duration_class", districts=())
    full = stats.crosstab(chosen, "district", "duration_class", measure="courses", margins=True)
    pd.testing.assert_frame_equal(model.table, full.iloc[:-1, :-1])  # without the totals


def test_a_long_dimension_is_charted_by_its_largest_groups(
    model: ExplorerModel, offers: pd.DataFrame
) -> None:
    """The chart of 400 districts shows the 20 largest, largest first (the table all of
    them, and the status line says so); by two dimensions the heatmap too."""
    model.update(by="district")
    events = stats.supply(offers, "district")["events"]
    top = events[events.index.notna()].sort_values(ascending=False, kind="stable")
    assert model.figure_title == "Events by district (top 20)"
    assert model.table_title == "Events by district"  # the table lists every district
    assert model.alt_text.startswith(
        f"Bar chart: Events by district (top 20). Largest: {top.index[0]} ({top.iloc[0]});"
    )
    assert "20 groups" in model.alt_text
    assert model.chart_note == (
        "chart: the largest 20 of 401 groups, table: all; the map shows every district (Show: Map)"
    )
    assert model.figure.get_size_inches()[1] < 10  # not a bar for each of 400 districts

    model.update(by2="duration_class")
    assert model.figure_title == "Events by district and duration class (top 20)"
    assert "20 rows (district)" in model.alt_text

    model.update(by="quarter", by2="district")
    assert model.figure_title == "Events by start quarter and district (top 10)"
    assert "10 columns (district)" in model.alt_text

    model.update(by="state", by2=NONE)  # a short dimension: every group
    assert model.chart_note == ""
    assert "17 groups" in model.alt_text  # 16 states and "not stated"


def test_the_districts_offered_are_those_of_the_states_chosen(model: ExplorerModel) -> None:
    """Choosing states narrows the districts offered; districts of states no longer chosen
    are dropped; a district outside the states chosen is refused."""
    every = [value for _label, value in model.choices()["districts"]]
    assert len(every) == 401
    assert every[-1] == MISSING_LABEL
    assert every[:2] == ["Ahrweiler", "Aichach-Friedberg"]
    after = every.index("Bottrop") + 1  # an umlaut beside its vowel, not after every "Bu…"
    assert every[after : after + 3] == ["Böblingen", "Börde", "Brandenburg an der Havel"]
    model.update(states=("Bremen",))
    assert model.choices()["districts"] == [
        ("Bremen", "Bremen"),
        ("Bremerhaven", "Bremerhaven"),
        ("not stated", MISSING_LABEL),
    ]
    model.update(states=("Bremen", "Hamburg"), districts=("Bremerhaven", "Hamburg"))
    model.update(states=("Hamburg",))
    assert model.view.districts == ("Hamburg",)  # Bremerhaven went with Bremen
    with pytest.raises(UsageError, match="districts offers"):
        model.update(districts=("Bremerhaven",))
    model.update(states=())
    assert model.view.districts == ("Hamburg",)  # every state: every district offered
    model.reset()
    assert model.view.districts == ()
    assert model.view.states == ()


def test_the_map_view_follows_the_filters_and_the_measure(
    model: ExplorerModel, offers: pd.DataFrame
) -> None:
    """The map of the districts in place of the chart: the offers that pass the filters,
    in the measure; its alt text names the district with the most, as stats counts it. The
    table stays by the dimensions chosen, under its own title."""
    model.update(show="map")
    events = stats.supply(offers, "district")["events"]
    top = events[events.index.notna()].idxmax()
    assert model.alt_text.startswith(
        f"Map of the districts: Events by district. Highest: {top} ({events[top]});"
    )
    assert model.table_title == "Events by state"  # the table: by state, as chosen
    pd.testing.assert_frame_equal(
        model.table,
        stats.supply(offers, "state", normalize="all", margins=True)[["events", "share"]].iloc[:-1],
    )
    assert model.state == {"show": "map"}

    model.update(states=("Bayern",), measure="courses")
    bavaria = stats.supply(stats.select(offers, state=["Bayern"]), "district")
    bavaria = bavaria[bavaria.index.notna()]
    tied = list(bavaria.index[bavaria["courses"] == bavaria["courses"].max()])  # key order
    most = texts.label(tied[0], "en")
    if len(tied) == 2:
        most += " and 1 more district"
    elif len(tied) > 2:
        most += f" and {len(tied) - 1} more districts"
    assert model.alt_text.startswith(
        f"Map of the districts: Courses by district: Bavaria. Highest: {most} "
        f"({bavaria.loc[tied[0], 'courses']}; {bavaria.loc[tied[0], 'events']} events);"
    )
    assert "Districts not selected (hatched): 304." in model.alt_text  # 400 - 96

    model.update(districts=("Regen", "Passau, Stadt"), measure="events")
    assert "Highest: Passau, city (" in model.alt_text  # the English name of "Passau, Stadt"
    assert "Districts not selected (hatched): 398." in model.alt_text

    model.update(measure="capacity")  # places: no map, and said so
    assert model.alt_text.startswith("The map shows events, courses or institutions")
    assert model.error is None

    model.update(show="chart", measure="events")
    assert model.alt_text.startswith("Bar chart: Events by state.")


def test_a_frame_without_districts_offers_no_map() -> None:
    frame = pd.DataFrame(
        {"event_id": [1, 2, 3], "state": pd.Categorical(["Bayern", "Berlin", "Bayern"])}
    )
    model = ExplorerModel(frame, debounce=0)
    assert not model.has_map
    assert [value for _label, value in model.options["show"]] == ["chart"]
    with pytest.raises(UsageError, match="show is one of"):
        model.update(show="map")
