"""The explorer dashboard on the demo catalogue: every control changed from code, and the
table and chart checked against numbers computed independently with plain pandas. The
explorer speaks English here (lang="en"); one test checks the German default."""

from __future__ import annotations

import base64
import html
import io
import re
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pandas as pd
import pytest

from clock import Clock
from educatalog import plots, texts, widgets
from educatalog.errors import MissingColumns, UsageError, WrongType
from educatalog.widgets import NONE, Explorer

MISSING = plots.MISSING_LABEL
RAW = {english: german for german, english in texts._EN_LABELS.items()}
RAW[texts.missing("en")] = MISSING


def en(value: Any) -> str:
    return texts.label(value, "en")


@pytest.fixture
def explorer(offers: pd.DataFrame, tmp_path: Path) -> Explorer:
    return widgets.explorer(offers, debounce=0, export_dir=tmp_path, lang="en")


def bars(explorer: Explorer) -> dict[str, float]:
    """Label (as the catalogue names it) -> length of each horizontal bar of the chart."""
    ax = explorer.figure.axes[0]
    labels = [RAW.get(t.get_text(), t.get_text()) for t in ax.get_yticklabels()]
    widths = [p.get_width() for p in ax.patches]
    assert len(labels) == len(widths)
    return dict(zip(labels, widths, strict=True))


def column(explorer: Explorer, name: str) -> dict[str, float]:
    """Label -> value of one column of the table, groups with a value only."""
    values = explorer.table[name]
    return {str(k): float(v) for k, v in values.items() if not pd.isna(k)}


def nonzero(values: dict[str, float]) -> dict[str, float]:
    return {k: v for k, v in values.items() if v}


def assert_chart_follows(explorer: Explorer, measure: str) -> None:
    """The bars are the table's values of ``measure`` (an empty "no value" group has none)."""
    expected = column(explorer, measure)
    missing = explorer.table[measure][explorer.table.index.isna()]
    if len(missing) and missing.iloc[0]:
        expected[MISSING] = float(missing.iloc[0])
    assert bars(explorer) == pytest.approx(expected)


def test_initial_view_counts_events_by_state(explorer: Explorer, offers: pd.DataFrame) -> None:
    expected = offers["state"].value_counts(dropna=False)
    table = explorer.table
    assert list(table.columns) == ["events", "share"]
    assert table["events"].sum() == len(offers)
    for state in offers["state"].cat.categories:
        assert table.loc[state, "events"] == (offers["state"] == state).sum()
    assert table["share"].sum() == pytest.approx(1.0)
    assert int(table["events"][table.index.isna()].sum()) == expected[np.nan]
    assert_chart_follows(explorer, "events")
    assert explorer.mask.all()
    assert explorer.recomputes == 1
    assert explorer.error is None
    assert explorer.png.startswith(b"\x89PNG")
    image = explorer.outputs["chart"].value  # an <img> whose alt text a browser reads
    assert image.startswith('<img src="data:image/png;base64,')
    assert base64.b64decode(image.split("base64,")[1].split('"')[0]) == explorer.png
    assert f'alt="{html.escape(explorer.alt_text)}"' in image
    assert explorer.alt_text.startswith("Bar chart: Events by state.")


def test_demo_mark_and_status(explorer: Explorer, offers: pd.DataFrame) -> None:
    status = explorer.outputs["status"].value
    assert "<span style='color:#B00020;font-weight:bold'>synthetic demo data</span> · " in status
    assert f"{len(offers):,}</b> of {len(offers):,} events" in status
    texts = [t.get_text() for t in explorer.figure.texts]
    assert plots.DEMO_MARK in texts


def test_state_filter(explorer: Explorer, offers: pd.DataFrame) -> None:
    explorer.controls["states"].value = ("Bayern",)
    bayern = offers[offers["state"] == "Bayern"]
    assert explorer.table["events"].sum() == len(bayern)
    assert explorer.table.loc["Bayern", "events"] == len(bayern)
    assert explorer.table.loc["Bayern", "share"] == 1.0
    assert explorer.table.drop("Bayern")["events"].sum() == 0
    assert explorer.mask.sum() == len(bayern)
    pd.testing.assert_frame_equal(explorer.filtered, bayern)
    assert nonzero(bars(explorer)) == {"Bayern": len(bayern)}
    assert f"{len(bayern):,}</b> of {len(offers):,} events" in explorer.outputs["status"].value
    assert "Bavaria" in explorer.outputs["status"].value

    explorer.controls["states"].value = ("Bayern", "Berlin", MISSING)
    chosen = offers["state"].isin(["Bayern", "Berlin"]) | offers["state"].isna()
    assert explorer.table["events"].sum() == chosen.sum()
    assert nonzero(bars(explorer)) == nonzero(
        {
            "Bayern": (offers["state"] == "Bayern").sum(),
            "Berlin": (offers["state"] == "Berlin").sum(),
            MISSING: offers["state"].isna().sum(),
        }
    )
    explorer.controls["states"].value = ()
    assert explorer.table["events"].sum() == len(offers)


@pytest.mark.parametrize(
    ("measure", "expected"),
    [
        ("courses", lambda rows: rows["course_id"].nunique()),
        ("institutions", lambda rows: rows["institution"].nunique()),
        ("capacity", lambda rows: int(rows["max_participants"].sum())),
    ],
)
def test_measures(explorer: Explorer, offers: pd.DataFrame, measure: str, expected: Any) -> None:
    explorer.controls["by"].value = "instruction_form_category"
    explorer.controls["measure"].value = measure
    table = explorer.table
    # places come with the events that state them: a sum of what those events say
    covered = ["events_with_capacity"] if measure == "capacity" else []
    assert list(table.columns) == ["events", measure, *covered, "share"]
    for category in offers["instruction_form_category"].cat.categories:
        rows = offers[offers["instruction_form_category"] == category]
        assert table.loc[category, measure] == expected(rows), category
        assert table.loc[category, "events"] == len(rows)
        if covered:
            stating = int(rows["max_participants"].notna().sum())
            assert table.loc[category, "events_with_capacity"] == stating, category
    assert_chart_follows(explorer, measure)
    header = texts.text(f"column.{measure}", "en")
    assert f'<th scope="col">{header}</th>' in explorer.outputs["table"].value
    # The total row counts distinct courses and institutions, not a sum of the groups.
    total = f'<th scope="row">Total</th><td>{len(offers):,}</td><td>{expected(offers):,}</td>'
    assert total in explorer.outputs["table"].value


def test_thousands_separators(explorer: Explorer, offers: pd.DataFrame) -> None:
    explorer.controls["by"].value = "instruction_time"
    explorer.controls["measure"].value = "capacity"
    html = explorer.outputs["table"].value
    full_time = offers["instruction_time"] == "Vollzeit"
    places = int(offers.loc[full_time, "max_participants"].sum())
    assert places >= 1000
    row = f'<th scope="row">Full time</th><td class="count">{full_time.sum():,}</td>'
    assert f'{row}<td class="count">{places:,}</td>' in html


def test_second_dimension_gives_the_crosstab(explorer: Explorer, offers: pd.DataFrame) -> None:
    explorer.controls["by2"].value = "instruction_form_category"
    table = explorer.table
    states = offers["state"].cat.categories
    categories = offers["instruction_form_category"].cat.categories
    has_missing_state = offers["state"].isna().any()
    has_missing_category = offers["instruction_form_category"].isna().any()
    assert table.shape == (
        len(states) + has_missing_state,
        len(categories) + has_missing_category,
    )
    expected = pd.crosstab(offers["state"], offers["instruction_form_category"])
    for state in states:
        for category in categories:
            assert table.loc[state, category] == expected.loc[state, category]
    assert table.to_numpy().sum() == len(offers)
    # The chart: a heatmap of the same numbers, one row per state, one column per category.
    ax = explorer.figure.axes[0]
    rows = [t.get_text() for t in ax.get_yticklabels()]
    columns = [t.get_text().replace("\n", " ") for t in ax.get_xticklabels()]
    assert [r.rsplit(" (n = ", 1)[0] for r in rows] == [en(k) for k in table.index]
    assert columns == [en(k) for k in table.columns]
    for text in ax.texts:
        x, y = text.get_position()
        value = int(table.iloc[int(y), int(x)])
        assert text.get_text() == f"{value:,}"
    assert ax.get_title(loc="left") == "Events by state and instruction form category"

    explorer.controls["measure"].value = "courses"
    bayern = offers[offers["state"] == "Bayern"]
    per_category = bayern.groupby("instruction_form_category", observed=True)["course_id"]
    for category, n in per_category.nunique().items():
        assert explorer.table.loc["Bayern", category] == n
    title = explorer.figure.axes[0].get_title(loc="left")
    assert title == "Courses by state and instruction form category"

    # Places by two dimensions: each cell the places its events state (the heatmap's numbers)
    explorer.controls["measure"].value = "capacity"
    assert explorer.error is None
    places = bayern.groupby("instruction_form_category", observed=True)["max_participants"]
    for category, n in places.sum(min_count=1).items():
        assert explorer.table.loc["Bayern", category] == n
    title = explorer.figure.axes[0].get_title(loc="left")
    assert title == "Places by state and instruction form category"
    explorer.controls["measure"].value = "courses"

    explorer.controls["by2"].value = "state"  # the same as the first: ignored
    assert list(explorer.table.columns) == ["events", "courses", "share"]
    assert "ignored" in explorer.outputs["status"].value
    explorer.controls["by2"].value = NONE
    assert list(explorer.table.columns) == ["events", "courses", "share"]


def test_voucher_only(explorer: Explorer, offers: pd.DataFrame) -> None:
    explorer.controls["voucher"].value = True
    vouchers = offers[offers["education_voucher"].fillna(False)]
    assert 0 < len(vouchers) < len(offers)
    assert explorer.table["events"].sum() == len(vouchers)
    for state in ("Bayern", "Berlin", "Hamburg"):
        assert explorer.table.loc[state, "events"] == (vouchers["state"] == state).sum()
    assert_chart_follows(explorer, "events")
    assert "voucher only" in explorer.outputs["status"].value


def test_category_and_duration_filters(explorer: Explorer, offers: pd.DataFrame) -> None:
    explorer.controls["categories"].value = ("Digital",)
    explorer.controls["durations"].value = ("bis 3 Tage", "mehr als 3 Tage bis 1 Woche")
    explorer.controls["by"].value = "duration_class"
    chosen = offers[
        (offers["instruction_form_category"] == "Digital")
        & offers["duration_class"].isin(["bis 3 Tage", "mehr als 3 Tage bis 1 Woche"])
    ]
    assert len(chosen) > 0
    assert explorer.table["events"].sum() == len(chosen)
    assert (
        explorer.table.loc["bis 3 Tage", "events"]
        == (chosen["duration_class"] == "bis 3 Tage").sum()
    )
    assert nonzero(bars(explorer)) == nonzero(
        {str(k): float(v) for k, v in chosen["duration_class"].value_counts().items()}
    )


def test_start_date_range(explorer: Explorer, offers: pd.DataFrame) -> None:
    slider = explorer.controls["start"]
    months = [value for _label, value in slider.options]
    start = offers["event_start_date"]
    assert months[0] == start.min().to_period("M")
    assert months[-1] == start.max().to_period("M")
    slider.value = (pd.Period("2025-03", "M"), pd.Period("2025-05", "M"))
    inside = (start >= "2025-03-01") & (start < "2025-06-01")
    assert 0 < inside.sum() < len(offers)
    assert explorer.table["events"].sum() == inside.sum()
    assert explorer.mask.tolist() == inside.tolist()
    assert "start Mar 2025 to May 2025" in explorer.outputs["status"].value

    explorer.controls["by"].value = "month"  # a line over the three months
    table = explorer.table
    assert [str(p) for p in table.index] == ["2025-03", "2025-04", "2025-05"]
    for month in table.index:
        assert table.loc[month, "events"] == (start.dt.to_period("M")[inside] == month).sum()
    line = explorer.figure.axes[0].lines[0]
    assert list(line.get_ydata()) == table["events"].astype(float).tolist()


def test_filters_combine(explorer: Explorer, offers: pd.DataFrame) -> None:
    c = explorer.controls
    c["states"].value = ("Bayern", "Nordrhein-Westfalen")
    c["categories"].value = ("Präsenz",)
    c["voucher"].value = True
    c["start"].value = (pd.Period("2025-01", "M"), pd.Period("2025-12", "M"))
    c["by"].value = "instruction_time"
    c["measure"].value = "courses"
    start = offers["event_start_date"]
    rows = offers[
        offers["state"].isin(["Bayern", "Nordrhein-Westfalen"])
        & (offers["instruction_form_category"] == "Präsenz")
        & offers["education_voucher"].fillna(False)
        & (start >= "2025-01-01")
        & (start < "2026-01-01")
    ]
    assert len(rows) > 0
    pd.testing.assert_frame_equal(explorer.filtered, rows)
    for time_ in ("Vollzeit", "Teilzeit"):
        part = rows[rows["instruction_time"] == time_]
        assert explorer.table.loc[time_, "courses"] == part["course_id"].nunique()
        assert explorer.table.loc[time_, "events"] == len(part)
    assert_chart_follows(explorer, "courses")

    explorer.reset()
    assert explorer.mask.all()
    assert c["states"].value == ()
    assert not c["voucher"].value
    assert explorer.table["events"].sum() == len(offers)


def test_nothing_matches(explorer: Explorer, offers: pd.DataFrame) -> None:
    c = explorer.controls
    c["states"].value = ("Bremen",)
    c["durations"].value = ("mehr als 3 Jahre",)
    c["categories"].value = ("Fernunterricht",)
    c["start"].value = (c["start"].options[0][1], c["start"].options[0][1])
    expected = (
        (offers["state"] == "Bremen")
        & (offers["duration_class"] == "mehr als 3 Jahre")
        & (offers["instruction_form_category"] == "Fernunterricht")
        & (offers["event_start_date"].dt.to_period("M") == c["start"].options[0][1])
    ).sum()
    assert expected == 0
    assert explorer.table["events"].sum() == 0
    assert explorer.error is None
    assert "No event matches the filters." in [t.get_text() for t in explorer.figure.texts]
    assert explorer.alt_text == "No event matches the filters. Change or clear them."
    assert "<b>0</b> of" in explorer.outputs["status"].value


def test_dimensions_offered(explorer: Explorer, offers: pd.DataFrame) -> None:
    dims = explorer.dimensions
    for name in ("state", "instruction_form_category", "duration_class", "education_voucher"):
        assert name in dims
    assert dims[-3:] == ["month", "quarter", "year"]
    assert "state_code" not in dims
    assert "event_id" not in dims
    explorer.controls["by"].value = "education_voucher"
    table = explorer.table
    assert table.loc[True, "events"] == (offers["education_voucher"] == True).sum()  # noqa: E712
    assert table["events"].sum() == len(offers)
    explorer.controls["by"].value = "year"
    years = offers["event_start_date"].dt.year.value_counts()
    assert {int(k): int(v) for k, v in explorer.table["events"].items()} == years.to_dict()


def download(explorer: Explorer) -> tuple[str, bytes]:
    """The file name and bytes behind the download link."""
    link = explorer.outputs["download"].value
    found = re.search(r'download="([^"]+)" href="data:([^;]+)[^,]*;base64,([^"]+)"', link)
    assert found is not None, link
    return found.group(1), base64.b64decode(found.group(3))


def test_download_link_carries_the_table(
    explorer: Explorer, offers: pd.DataFrame, tmp_path: Path
) -> None:
    """The table downloads through the browser (a data: URI, no kernel disk involved), as
    CSV and as Excel; the payload decodes to the table shown."""
    c = explorer.controls
    c["states"].value = ("Bayern",)
    c["measure"].value = "courses"
    c["format"].value = "CSV"
    name, data = download(explorer)
    assert name == "educatalog-courses-by-state.csv"
    assert data.startswith("\ufeff".encode())
    rows = len(explorer.table) + 1  # and the total; the title above, what they counted under
    back = pd.read_csv(
        io.BytesIO(data),
        index_col=[0, 1],
        encoding="utf-8-sig",
        dtype={"Key": str},
        skiprows=1,
        nrows=rows,
    ).fillna({"Key": ""})
    under = data.decode("utf-8-sig").splitlines()[rows + 2 :]
    assert under[0] == ""
    assert "Measure: Courses" in under
    assert "Filters: Bavaria" in under
    assert back.index.names == ["Key", "State"]
    assert back.columns.tolist() == ["Events", "Courses", "Share of events (%)"]
    # The filter narrows the levels: Bavaria and its total, never 15 states "with 0".
    assert list(explorer.table.index) == ["Bayern"]
    assert back.index.get_level_values("State").tolist() == ["Bavaria", "Total"]
    assert back.index.get_level_values("Key").tolist()[0] == "09"
    assert back["Events"].tolist() == [*explorer.table["events"], explorer.table["events"].sum()]
    bavaria = offers.loc[offers["state"] == "Bayern", "course_id"].nunique()
    assert back["Courses"].tolist() == [bavaria, bavaria]
    np.testing.assert_allclose(back["Share of events (%)"], [100.0, 100.0], atol=0.005)

    c["by2"].value = "duration_class"
    c["format"].value = "Excel"
    name, data = download(explorer)
    assert name == "educatalog-courses-by-state-and-duration-class.xlsx"
    book = openpyxl.load_workbook(io.BytesIO(data))
    assert book.sheetnames[0] == "About these data"
    about = dict(book.worksheets[0].iter_rows(min_row=3, values_only=True))
    assert about["Source"].startswith("synthetic demo data (educatalog)")
    assert about["Filters"] == "Bavaria"  # the measure is no filter
    assert about["Note"].startswith("SYNTHETIC DEMO DATA")
    sheet = book.worksheets[1]
    assert sheet["A1"].value == "Courses by state and duration class – SYNTHETIC DEMO DATA"
    rows = list(sheet.iter_rows(min_row=3, max_row=4, values_only=True))
    assert [r[:2] for r in rows] == [("09", "Bavaria"), (None, "Total")]
    wide = explorer.table.to_numpy(dtype="int64").tolist()
    assert list(rows[0][2:-1]) == wide[0]
    assert rows[0][-1] == bavaria  # the row's total: its courses, each once
    assert sheet["C3"].number_format == '#,##0;-#,##0;"–"'  # exactly 0 shows "–"
    words = [r[0] for r in sheet.iter_rows(min_row=5, values_only=True) if r[0]]
    assert "Measure: Courses" in words
    assert "Filters: Bavaria" in words

    # The same bytes on the kernel's disk, from code.
    path = explorer.export("xlsx")
    assert path.parent == tmp_path
    assert path.name.startswith("educatalog-courses-by-state-and-duration-class-")
    again = explorer.export("csv")
    assert again != path  # a new name, never overwritten
    assert again.read_bytes() == explorer.payload("csv")
    with pytest.raises(UsageError, match="csv or xlsx"):
        explorer.export("json")


def test_german_by_default(offers: pd.DataFrame) -> None:
    explorer = widgets.explorer(offers, debounce=0)
    status = explorer.outputs["status"].value
    assert f"<b>{texts.number(len(offers), 'de')}</b> von" in status
    assert "Quelle: synthetische Demodaten" in status
    assert explorer.controls["by"].description == "Zählen nach"
    # by state: the label spans the two row labels (key and name)
    assert '<th scope="row" colspan="2">Insgesamt</th>' in explorer.outputs["table"].value
    assert "SYNTHETISCHE DEMODATEN" in [t.get_text() for t in explorer.figure.texts]
    assert "Tabelle herunterladen (CSV)" in explorer.outputs["download"].value
    name, data = download(explorer)
    assert name == "educatalog-veranstaltungen-nach-bundesland.csv"
    lines = data.decode("utf-8-sig").splitlines()
    assert lines[0] == "Veranstaltungen nach Bundesland – SYNTHETISCHE DEMODATEN"
    assert lines[1] == "Schlüssel;Bundesland;Veranstaltungen;Anteil der Veranstaltungen (%)"
    rows = lines[2 : lines.index("")]
    assert rows[-1].startswith(";Deutschland;")  # all 16 states: the total is Germany's
    assert re.search(r";\d+,\d+$", rows[0])
    assert lines[-1].startswith("Hinweis: SYNTHETISCHE DEMODATEN")  # under it, as on a sheet
    explorer.close()


def test_total_capacity_is_unknown_when_no_event_states_it(offers: pd.DataFrame) -> None:
    frame = offers.assign(max_participants=pd.array([None] * len(offers), dtype="Int64"))
    explorer = widgets.explorer(frame, debounce=0, lang="en")
    explorer.controls["measure"].value = "capacity"
    assert explorer.error is None
    total = re.search(r"<tfoot>.*</tfoot>", explorer.outputs["table"].value)
    assert total is not None
    # places unknown ("."), not 0; and exactly 0 events that state them ("–")
    assert f"<td>{len(offers):,}</td><td>.</td><td>–</td><td>" in total.group(0)
    explorer.close()


def test_state_lists_read_alphabetically_in_each_language(offers: pd.DataFrame) -> None:
    for lang, first, later in (
        ("en", ["Baden-Württemberg", "Bavaria", "Berlin"], ["Lower Saxony", "Mecklenburg"]),
        ("de", ["Baden-Württemberg", "Bayern", "Berlin"], ["Mecklenburg", "Niedersachsen"]),
    ):
        explorer = widgets.explorer(offers, debounce=0, lang=lang)
        shown = [label for label, _value in explorer.controls["states"].options]
        assert shown[:3] == first
        assert shown[-1] == texts.missing(lang)  # "not stated" last
        positions = [next(i for i, s in enumerate(shown) if s.startswith(p)) for p in later]
        assert positions == sorted(positions), shown
        hint = "Ctrl" if lang == "en" else "Strg"
        assert hint in str(explorer.widget.children)
        explorer.close()


def test_the_status_and_export_describe_the_table_not_controls_changed_meanwhile(
    offers: pd.DataFrame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A control changed while an update runs (a reader clicking on) is the next update's:
    the status line and the exported file describe the table shown, not the new choice."""
    explorer = widgets.explorer(offers, debounce=60, lang="en")
    mask = explorer.model._mask

    def clicked_meanwhile(view: Any) -> Any:
        chosen = mask(view)
        explorer.controls["voucher"].value = True
        return chosen

    monkeypatch.setattr(explorer.model, "_mask", clicked_meanwhile)
    explorer.controls["states"].value = ("Bayern",)
    explorer.flush()
    status = explorer.outputs["status"].value
    assert "Bavaria" in status
    assert "voucher" not in status
    assert explorer.table["events"].sum() == (offers["state"] == "Bayern").sum()
    book = openpyxl.load_workbook(io.BytesIO(explorer.payload("xlsx")))
    about = dict(book.worksheets[0].iter_rows(min_row=3, values_only=True))
    assert about["Filters"] == "Bavaria"
    explorer.close()


def test_debounce_recomputes_once_after_the_pause(offers: pd.DataFrame, tmp_path: Path) -> None:
    """Changes of the controls within the pause recompute once, when it ends; a flush runs
    the pending change at once and calls its timer off. The pause runs on a clock turned
    by hand: what did not run has not run, whatever the machine's load."""
    clock = Clock()
    explorer = Explorer(offers, debounce=0.3, export_dir=tmp_path, scheduler=clock)
    assert explorer.recomputes == 1  # built at once
    c = explorer.controls
    c["states"].value = ("Bayern",)
    clock.advance(0.2)
    c["measure"].value = "courses"
    c["voucher"].value = True
    clock.advance(0.2)
    c["by"].value = "instruction_time"
    assert explorer.recomputes == 1  # nothing yet: waiting for the pause
    assert explorer.pending
    clock.advance(0.29)
    assert explorer.recomputes == 1
    clock.advance(0.01)
    assert explorer.recomputes == 2  # once, for all four changes
    assert not explorer.pending
    clock.advance(10)
    assert explorer.recomputes == 2  # no second, late recompute follows
    assert sum(not call.cancelled for call in clock.calls) == 1  # the others called off
    rows = offers[(offers["state"] == "Bayern") & offers["education_voucher"].fillna(False)]
    assert explorer.table["events"].sum() == len(rows)
    assert explorer.table.loc["Vollzeit", "courses"] == (
        rows.loc[rows["instruction_time"] == "Vollzeit", "course_id"].nunique()
    )
    assert "data-updates='2'" in explorer.outputs["status"].value  # what the browser waits on

    c["states"].value = ()
    assert explorer.pending
    explorer.flush()  # what export does: the pending change now, synchronously
    assert not explorer.pending
    assert explorer.recomputes == 3
    assert explorer.table["events"].sum() == offers["education_voucher"].fillna(False).sum()
    assert clock.calls[-1].cancelled  # the timer flush called off ...
    clock.advance(10)
    assert explorer.recomputes == 3  # ... never runs
    explorer.close()


def test_display(explorer: Explorer) -> None:
    bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    model = bundle["application/vnd.jupyter.widget-view+json"]["model_id"]
    assert model == explorer.widget.model_id
    assert bundle["text/plain"].startswith("<Explorer: events by state;")
    assert callable(explorer._ipython_display_)
    import ipywidgets

    assert isinstance(explorer.widget, ipywidgets.VBox)
    assert {"by", "by2", "measure", "states", "categories", "durations", "start", "voucher"} <= set(
        explorer.controls
    )
    assert "format" in explorer.controls
    assert "download" in explorer.outputs


def test_refuses_what_is_not_a_frame_of_offers() -> None:
    with pytest.raises(WrongType, match="DataFrame"):
        widgets.explorer([1, 2, 3])  # type: ignore[arg-type]
    with pytest.raises(MissingColumns, match="event_id"):
        widgets.explorer(pd.DataFrame({"state": ["Bayern"]}))
    with pytest.raises(MissingColumns, match="no labelled column"):
        widgets.explorer(pd.DataFrame({"event_id": [1]}))
    with pytest.raises(UsageError, match="debounce"):
        widgets.explorer(pd.DataFrame({"event_id": [1]}), debounce=-1)


def test_the_package_keeps_every_name_of_the_module() -> None:
    import educatalog

    assert educatalog.widgets.explorer is widgets.explorer
    assert callable(widgets.explorer)
    for name in ("FORMATS", "NONE", "TIME_DIMENSIONS", "Explorer", "explorer"):
        assert name in widgets.__all__
    for name in ("MISSING_LABEL", "export_frame", "table_html"):
        assert getattr(widgets, name) is getattr(widgets.display, name)
    assert widgets.MISSING_LABEL == plots.MISSING_LABEL


def test_funding_frame_counts_distinct_events(demo_catalogue: Any, tmp_path: Path) -> None:
    funded = demo_catalogue.offers(funding=True)
    assert not funded["event_id"].is_unique
    explorer = widgets.explorer(funded, debounce=0, export_dir=tmp_path, lang="en")
    explorer.controls["states"].value = ("Bayern",)
    bayern = funded.loc[funded["state"] == "Bayern", "event_id"].nunique()
    assert explorer.table["events"].sum() == bayern
    explorer.controls["by"].value = "funding_level"
    federal = funded.loc[
        (funded["state"] == "Bayern") & (funded["funding_level"] == "federal"), "event_id"
    ].nunique()
    assert explorer.table.loc["federal", "events"] == federal
    assert (
        f"{bayern:,}</b> of {funded['event_id'].nunique():,} events"
        in explorer.outputs["status"].value
    )


def test_funding_frame_total_capacity_counts_each_event_once(
    demo_catalogue: Any, tmp_path: Path
) -> None:
    funded = demo_catalogue.offers(funding=True)
    explorer = widgets.explorer(funded, debounce=0, export_dir=tmp_path, lang="en")
    explorer.controls["measure"].value = "capacity"
    places = int(funded.drop_duplicates("event_id")["max_participants"].sum())
    assert places < int(funded["max_participants"].sum())  # the frame repeats events
    n = funded["event_id"].nunique()
    assert f'<th scope="row" colspan="2">Total</th><td>{n:,}</td><td>{places:,}</td>' in (
        explorer.outputs["table"].value
    )


@pytest.mark.parametrize(
    ("by", "labels"), [("state", 2), ("instruction_form_category", 1), ("duration_class", 1)]
)
def test_the_total_row_stands_under_its_columns(offers: pd.DataFrame, by: str, labels: int) -> None:
    """The total row has as many columns as the header: its label spans the row labels
    (a table by state has the key and the name), so each total sits under its column."""
    explorer = widgets.explorer(offers, debounce=0, lang="de")
    explorer.controls["by"].value = by
    page = explorer.outputs["table"].value
    explorer.close()
    head = re.search(r"<thead>(.*?)</thead>", page)
    foot = re.search(r"<tfoot><tr>(.*?)</tr></tfoot>", page)
    assert head is not None
    assert foot is not None
    header = re.findall(r"<tr>(.*?)</tr>", head.group(1))[-1]
    columns = len(re.findall(r"<th ", header))
    span = re.search(r'<th scope="row"(?: colspan="(\d+)")?>Insgesamt</th>', foot.group(1))
    assert span is not None
    spans = int(span.group(1) or 1)
    assert spans == labels
    assert spans + len(re.findall(r"<td>", foot.group(1))) == columns


def test_the_notes_on_sums_read_the_total_row_not_the_rows(demo_catalogue: Any) -> None:
    """Where an event appears in several rows (a frame of events by funding type), the
    note on places counts the events of the total row, each once, and says that the rows
    add up to more."""
    funded = demo_catalogue.offers(funding=True)
    explorer = widgets.explorer(funded, debounce=0, lang="en")
    explorer.controls["measure"].value = "capacity"
    explorer.controls["by"].value = "funding_type"
    page = explorer.outputs["table"].value
    explorer.close()
    events = funded.drop_duplicates("event_id")
    stated = int(events["max_participants"].notna().sum())
    assert int(explorer.table["events"].sum()) > len(events)  # the rows repeat events
    assert f"({stated:,} of {len(events):,} events)" in page
    foot = re.search(r"<tfoot>.*</tfoot>", page)
    assert foot is not None
    assert f"<td>{len(events):,}</td>" in foot.group(0)
    assert "Multiple assignment: events can belong to several rows and count in each" in page
    assert "(row “Total”, which counts each once)" in page


def test_the_widgets_follow_the_model(explorer: Explorer, offers: pd.DataFrame) -> None:
    """A change of the model's view from code shows in the controls and the outputs; a
    change of a control is the model's."""
    model = explorer.model
    model.update(states=("Bayern",), by="duration_class", format="Excel")
    c = explorer.controls
    assert (c["states"].value, c["by"].value, c["format"].value) == (
        ("Bayern",),
        "duration_class",
        "Excel",
    )
    bayern = (offers["state"] == "Bayern").sum()
    assert f"{bayern:,}</b> of" in explorer.outputs["status"].value
    assert "Download the table (Excel)" in explorer.outputs["download"].value
    assert explorer.recomputes == 2  # once for the change, not once per control set
    months = c["start"].options
    c["start"].index = (1, len(months) - 2)
    assert model.view.window == (1, len(months) - 2)
    model.reset()
    assert c["states"].value == ()
    assert c["start"].index == (0, len(months) - 1)
    assert explorer.table["events"].sum() == len(offers)


def test_a_table_of_two_dimensions_has_its_totals_labelled(
    explorer: Explorer, offers: pd.DataFrame
) -> None:
    """By two dimensions the page's table ends in a total row and a total column, labelled
    "Total", each counting distinct events (courses) as stats does, the row in its foot;
    the heatmap of places says why a grey cell has no number."""
    explorer.model.update(by="duration_class", by2="instruction_form_category", measure="courses")
    page = explorer.outputs["table"].value
    head = re.search(r"<thead>.*?</thead>", page)
    foot = re.search(r"<tfoot>(.*?)</tfoot>", page)
    assert head is not None
    assert foot is not None
    assert head.group(0).count("Total") == 1  # the total column's header
    assert '<th scope="row">Total</th>' in foot.group(1)
    full = explorer.model.full
    courses = offers["course_id"].nunique()
    assert full.iloc[-1, -1] == courses  # each course once, though in several cells
    assert explorer.table.to_numpy().sum() >= courses
    by_duration = offers.groupby("duration_class", observed=True)["course_id"].nunique()
    for duration, n in by_duration.items():
        assert full.loc[duration, "All"] == n
    assert f'<td class="count">{courses:,}</td></tr></tfoot>' in page
    # the grey cells of the heatmap of places: a line under the chart says why
    explorer.model.update(measure="capacity")
    footer = [t.get_text() for t in explorer.figure.texts]
    assert explorer.table.isna().to_numpy().any()  # the demo has such a cell
    assert any("Grey cells without a number: none of their events states" in t for t in footer)
    explorer.model.update(measure="events")  # counts: no grey cell, no line
    assert not any("Grey cells" in t.get_text() for t in explorer.figure.texts)


def test_one_word_for_one_thing(explorer: Explorer, offers: pd.DataFrame) -> None:
    """A filter is named as its dimension, a measure as the tables name it, in both
    languages: no "Lernformen" beside "Lernform", no "Anbieter" beside "Bildungsanbieter"."""
    german = widgets.explorer(offers, debounce=0, lang="de")
    for shown, lang in ((german, "de"), (explorer, "en")):
        c = shown.controls
        dimensions = {v: k for k, v in c["by"].options}
        for name, column in (("states", "state"), ("categories", "instruction_form_category")):
            assert c[name].description == dimensions[column], (lang, name)
        for label, measure in c["measure"].options:
            assert label == texts.text(f"measure.{measure}", lang)
    descriptions = [c.description for c in german.controls.values() if hasattr(c, "description")]
    assert "Lernformen" not in descriptions
    assert "Lernform" in descriptions
    assert dict(german.controls["measure"].options)["Bildungsanbieter"] == "institutions"
    # and the report's words: "Bildungsanbieter" (and "Anbieterart"), never "Anbieter" alone;
    # in English "institutions", "providers" only to explain the word
    from educatalog.texts.words import TEXTS

    assert [k for k, (de, _en) in TEXTS.items() if re.search(r"\bAnbieter\b", de)] == []
    for key, (_de, english) in TEXTS.items():
        said = len(re.findall(r"\bproviders?\b", english))
        assert said == english.count("institutions (providers)"), key
