"""One language and one number format per output (lang="de", the default, or "en"), the
source and demo mark on every chart and table also after the usual pandas steps, tables
for readers in HTML and Excel, and the population figures' date on per-capita outputs."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
from matplotlib.figure import Figure

import educatalog
from accessibility import accessibility_findings
from educatalog import plots, stats, tables, texts
from educatalog.errors import UsageError
from educatalog.frames.provenance import SOURCE_ATTR, Source, source_of
from languages import foreign


@pytest.fixture(scope="module")
def offers() -> pd.DataFrame:
    """The offers of the embedded demo catalogue (about 530 events)."""
    with educatalog.demo(scale=0.05, seed=0) as client:
        return educatalog.load_catalogue(client).offers()


def figure_texts(fig: Figure) -> list[str]:
    """Every text a reader sees on a figure."""
    found = [t.get_text() for t in fig.texts]
    for ax in fig.axes:
        found += [ax.get_title(loc="left"), ax.get_xlabel(), ax.get_ylabel()]
        found += [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
        found += [t.get_text() for t in ax.texts]
        for container in ax.containers:
            found += [t.get_text() for t in getattr(container, "datavalues_texts", [])]
        for child in ax.get_children():
            if hasattr(child, "get_text"):
                found.append(child.get_text())
        legend = ax.get_legend()
        if legend is not None:
            found += [legend.get_title().get_text(), *(t.get_text() for t in legend.get_texts())]
    return [t for t in found if t]


CHARTS: dict[str, Callable[..., Figure]] = {
    "bars": lambda o, **k: plots.supply_bars(o, "state", **k),
    "rates": lambda o, **k: plots.supply_bars(o, "state", measure="events_per_100k", **k),
    "capacity": lambda o, **k: plots.supply_bars(o, "duration_class", measure="capacity", **k),
    "shares": lambda o, **k: plots.stacked_shares(o, "state", "instruction_form_category", **k),
    "heatmap": lambda o, **k: plots.heatmap(o, "state", "duration_class", **k),
    "counts": lambda o, **k: plots.heatmap(
        o, "instruction_form_category", "year", normalize=False, **k
    ),
    "starts": lambda o, **k: plots.starts_over_time(o, freq="month", **k),
    "quarters": lambda o, **k: plots.starts_over_time(
        o, freq="quarter", by="instruction_form_category", **k
    ),
    "costs": lambda o, **k: plots.cost_boxplot(o, "instruction_form_category", **k),
    "tiles": lambda o, **k: plots.tile_map(o, **k),
    "districts": lambda o, **k: plots.district_map(o, **k),
    "district_counts": lambda o, **k: plots.district_map(o, measure="courses", state="BY", **k),
}


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("chart", list(CHARTS))
def test_every_chart_speaks_one_language(offers: pd.DataFrame, chart: str, lang: str) -> None:
    fig = CHARTS[chart](offers, lang=lang)
    words = [*figure_texts(fig), plots.alt_text(fig) or ""]
    assert [w for w in words if foreign(w, lang)] == []
    assert texts.text("demo_mark", lang) in words  # the demo catalogue, marked
    alt = plots.alt_text(fig)
    assert alt is not None
    assert len(alt.split()) > 8
    assert fig.axes[0].get_title(loc="left") in alt


def test_german_is_the_default(offers: pd.DataFrame) -> None:
    fig = plots.supply_bars(offers)
    words = figure_texts(fig)
    assert fig.axes[0].get_title(loc="left") == "Veranstaltungen nach Bundesland"
    assert "1 Kurs" not in words
    footer = next(t for t in words if "Quelle:" in t)
    assert re.search(r"Quelle: synthetische Demodaten \(educatalog\), abgerufen am \d\d\.", footer)
    assert "ohne Angabe" in words
    assert foreign(" ".join(words), "de") == []


def test_numbers_dates_and_labels_by_babel() -> None:
    assert (texts.number(1635, "de"), texts.number(1635, "en")) == ("1.635", "1,635")
    assert (texts.percent(0.104, "de"), texts.percent(0.104, "en")) == ("10,4\u00a0%", "10.4%")
    assert texts.number(5503.25, "de", 2) == "5.503,25"
    day = dt.date(2022, 12, 31)
    assert (texts.date(day, "de"), texts.date(day, "en")) == ("31.12.2022", "31 Dec 2022")
    assert texts.count(5503, "en") == "5,503 events"
    assert texts.count(1, "de") == "1 Veranstaltung"
    for missing in (None, pd.NA, float("nan"), "Keine Angabe"):
        assert texts.label(missing, "de") == "ohne Angabe"
        assert texts.label(missing, "en") == "not stated"
    assert texts.label("Bayern", "en") == "Bavaria"
    assert texts.label(pd.Period("2025-03", "M"), "de") == "März 2025"
    assert texts.label(pd.Period("2025Q3", "Q"), "en") == "Q3 2025"
    with pytest.raises(UsageError, match=r'lang must be "de".*or "en".*got \'fr\''):
        texts.check_lang("fr")
    with pytest.raises(ValueError, match="lang must be"):  # a UsageError
        plots.supply_bars(pd.DataFrame({"event_id": [1], "state": ["Bayern"]}), lang="english")


# -- the demo mark and the source after the usual pandas steps ----------------------------


def demo_marked(fig: Figure) -> bool:
    marks = {texts.text("demo_mark", lang) for lang in texts.LANGS}
    return sum(t.get_text() in marks for t in fig.texts) == 2


def mine(offers: pd.DataFrame) -> pd.DataFrame:
    """A user's own frame: a note for some events."""
    ids = offers["event_id"].iloc[::3]
    return pd.DataFrame({"event_id": ids.to_numpy(), "my_rating": range(len(ids))})


@pytest.mark.parametrize(
    "step",
    [
        "merge",
        "merge_right",
        "pd_merge",
        "concat",
        "groupby_head",
        "groupby_filter",
        "copy",
        "parquet",
    ],
)
def test_the_demo_mark_survives_the_usual_pandas_steps(
    offers: pd.DataFrame, step: str, tmp_path: Path
) -> None:
    user = mine(offers)
    frames: dict[str, Callable[[], pd.DataFrame]] = {
        "merge": lambda: offers.merge(user, on="event_id"),
        "merge_right": lambda: user.merge(offers, on="event_id", how="left"),
        "pd_merge": lambda: pd.merge(offers, user, how="left"),
        "concat": lambda: pd.concat([offers.head(100), user.head(5)], ignore_index=True),
        "groupby_head": lambda: offers.groupby("state", observed=True).head(20),
        "groupby_filter": lambda: offers.groupby("course_id").filter(lambda g: len(g) > 1),
        "copy": lambda: offers.copy(),
        "parquet": lambda: _parquet(offers, tmp_path),
    }
    frame = frames[step]()
    source = source_of(frame)
    assert source is not None, step
    assert source.demo, step
    fig = plots.supply_bars(frame, "state")
    assert demo_marked(fig), step
    assert "Synthetische Demodaten" in (plots.alt_text(fig) or "")
    table = tables.present(stats.supply(frame, "state"), "de")
    assert table.source is not None
    assert table.source.demo


def _parquet(offers: pd.DataFrame, tmp_path: Path) -> pd.DataFrame:
    path = tmp_path / "offers.parquet"
    offers.to_parquet(path)
    return pd.read_parquet(path)


def test_an_unknown_source_is_said_in_words_and_can_be_stated(offers: pd.DataFrame) -> None:
    own = pd.DataFrame(
        {
            "event_id": pd.array([9_000_001, 9_000_002, 9_000_003], dtype="Int64"),
            "state": pd.Categorical(["Bayern", "Berlin", None]),
        }
    )
    fig = plots.supply_bars(own, "state")
    footer = " ".join(figure_texts(fig))
    assert "Quelle: nicht bekannt – die Daten sagen nicht, woher sie stammen" in footer
    assert not demo_marked(fig)
    fig = plots.supply_bars(own, "state", lang="en", source="Own survey 2025")
    assert "Source: Own survey 2025" in " ".join(figure_texts(fig))
    stated = own.edu.with_source(url="https://user:secret@kurse.example.org/", demo=False)
    assert stated is own
    words = " ".join(figure_texts(plots.supply_bars(own, "state", lang="en")))
    assert "Source: https://kurse.example.org" in words
    assert "secret" not in words
    own.edu.with_source(demo=True)
    assert demo_marked(plots.supply_bars(own, "state"))


def test_capacity_unknown_is_named_not_dropped_silently() -> None:
    frame = pd.DataFrame(
        {
            "event_id": pd.array([1, 2, 3], dtype="Int64"),
            "state": pd.Categorical(["Bayern", "Berlin", "Berlin"]),
            "max_participants": pd.array([12, None, None], dtype="Int64"),
        }
    )
    fig = plots.supply_bars(frame, "state", measure="capacity")
    words = " ".join(figure_texts(fig))
    assert "Ohne Balken: Berlin – keine Veranstaltung nennt eine Höchstteilnehmerzahl." in words
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["Bayern"]


# -- per-capita outputs name the population figures and their date ------------------------


GERMAN_BASIS = "auf Basis des Zensus 2022 (Tabelle 12411-0010), Stand 31.12.2024"
ENGLISH_BASIS = "based on the 2022 census (table 12411-0010), as of 31 Dec 2024"


def test_per_capita_outputs_show_the_population_date(offers: pd.DataFrame, tmp_path: Path) -> None:
    """Wherever a rate appears, its population's date and census basis are named, in
    either language: chart footers, the table's header and note, every sheet."""
    for lang, basis in (("de", GERMAN_BASIS), ("en", ENGLISH_BASIS)):
        for fig in (
            plots.supply_bars(offers, "state", measure="events_per_100k", lang=lang),
            plots.tile_map(offers, lang=lang),
        ):
            words = " ".join(figure_texts(fig)).replace("\n", " ")
            assert basis in words
    table = tables.present(stats.per_capita(offers), "de", title="Je Einwohner")
    assert "Einwohner am 31.12.2024 (Zensus 2022)" in table.frame.columns
    assert any(GERMAN_BASIS in n for n in table.notes)
    english = tables.present(stats.per_capita(offers), "en")
    assert "Inhabitants on 31 Dec 2024 (2022 census)" in english.frame.columns
    assert any(ENGLISH_BASIS in n for n in english.notes)
    path = tables.write_excel(tmp_path / "t.xlsx", [table], source=Source(demo=True))
    book = openpyxl.load_workbook(path)
    about = dict(book.worksheets[0].iter_rows(min_row=3, values_only=True))
    licence = "; Lizenz: Datenlizenz Deutschland – Namensnennung – Version 2.0 (dl-de/by-2-0)"
    assert about["Einwohnerzahlen"].endswith(GERMAN_BASIS + licence)
    sheet = [str(v) for row in book.worksheets[1].iter_rows(values_only=True) for v in row if v]
    assert any(v.startswith("Einwohner: ") and v.endswith(GERMAN_BASIS + licence) for v in sheet)
    # One's own figures: their own name and date.
    own = pd.Series({"Bayern": 13_000_000, "Berlin": 3_800_000}, dtype="Int64")
    own.attrs.update(source="Landesamt, eigene Fortschreibung", date="2024-06-30")
    fig = plots.supply_bars(offers, "state", measure="events_per_100k", population=own)
    words = " ".join(figure_texts(fig)).replace("\n", " ")
    own_words = "Landesamt, eigene Fortschreibung (Zensusbasis nicht angegeben), Stand 30.06.2024"
    assert f"Einwohner: {own_words}" in words
    own.attrs.update(basis="Zensus 2022")  # named with them: said instead
    fig = plots.supply_bars(offers, "state", measure="events_per_100k", population=own)
    words = " ".join(figure_texts(fig)).replace("\n", " ")
    based = "Landesamt, eigene Fortschreibung auf Basis des Zensus 2022, Stand 30.06.2024"
    assert f"Einwohner: {based}" in words


# -- tables for readers ------------------------------------------------------------------


def test_tables_have_headers_in_words_and_formatted_numbers(offers: pd.DataFrame) -> None:
    for lang in ("de", "en"):
        table = tables.present(stats.supply(offers, "state"), lang, title="T")
        page = table.to_html()
        assert foreign(re.sub(r"<style>.*?</style>|<[^>]+>", " ", page), lang) == []
        assert f"<table class='educatalog-table' lang='{lang}'>" in page  # read in its language
        assert 'scope="col"' in page
        assert 'scope="row"' in page
        assert "<caption>T</caption>" in page
        assert "_" not in "".join(table.frame.columns)  # no snake_case header
    de = tables.present(stats.supply(offers, "state"), "de", title="Angebot")
    assert list(de.frame.columns) == [
        "Veranstaltungen",
        "Kurse",
        "Bildungsanbieter",
        "Plätze (soweit angegeben)",
        "Veranstaltungen mit Platzangabe",
        "Anteil der Veranstaltungen",
    ]
    assert de.frame.index.names == ["Schlüssel", "Bundesland"]  # the official key beside
    assert de.frame.index[0] == ("01", "Schleswig-Holstein")
    assert de.frame.index[-1] == ("", "ohne Angabe")
    cells = de.formatted()
    assert cells["Anteil der Veranstaltungen"].str.fullmatch(r"\d{1,3},\d{1,2}\u00a0%").all()
    assert re.fullmatch(r"\d{1,3}(\.\d{3})*", cells["Veranstaltungen"].iloc[0])
    quality = tables.present(stats.quality(offers), "en")
    assert quality.frame.index[0] == "events without an address"
    assert "description" not in quality.frame.columns
    page = f"<html lang='de'><head><title>x</title></head><body><h1>x</h1>{de.to_html()}</body>"
    assert accessibility_findings(page) == []


def test_excel_stands_alone(offers: pd.DataFrame, tmp_path: Path) -> None:
    frame = offers.copy()
    frame.attrs[SOURCE_ATTR] = Source(
        url="https://reader:s3cret@kurse.example.org/api", demo=True
    ).to_attrs()
    supply = stats.supply(frame, "state")
    costs = stats.costs(frame, "instruction_form_category")
    sneaky = pd.DataFrame({"events": [3]}, index=pd.Index(["=HYPERLINK(1)"], name="state"))
    sheets = [
        tables.present(supply, "de", title="Angebot nach Bundesland"),
        tables.present(costs, "de", title="Kosten: nach Lernform/Währung"),
        tables.present(sneaky, "de", title="Angebot nach Bundesland"),
    ]
    path = tables.write_excel(
        tmp_path / "tables.xlsx",
        sheets,
        lang="de",
        title="Bericht zum Kursangebot",
        filters=["Bundesländer: Bayern"],
    )
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == [
        "Über diese Daten",
        "Angebot nach Bundesland",
        "Kosten – nach Lernform-Währung",
        "Angebot nach Bundesland (2)",
    ]
    about = dict(book.worksheets[0].iter_rows(min_row=3, values_only=True))
    assert about["Titel"] == "Bericht zum Kursangebot"
    assert about["Quelle"] == "synthetische Demodaten (educatalog)"  # "Abgerufen": its date
    assert "Dienst (URL)" not in about  # a demo is named by seed and scale, not an address
    assert re.fullmatch(r"\d\d\.\d\d\.\d{4}, \d\d:\d\d UTC", about["Abgerufen"])
    assert about["Filter"] == "Bundesländer: Bayern"
    assert about["Hinweis"].startswith("SYNTHETISCHE DEMODATEN")
    for sheet in book.worksheets:
        for row in sheet.iter_rows(values_only=True):
            assert "s3cret" not in " ".join(str(v) for v in row)
    sheet = book["Angebot nach Bundesland"]
    assert sheet["A1"].value == "Angebot nach Bundesland – SYNTHETISCHE DEMODATEN"
    assert [c.value for c in sheet[2]][:4] == [
        "Schlüssel",
        "Bundesland",
        "Veranstaltungen",
        "Kurse",
    ]
    assert (sheet["A3"].value, sheet["B3"].value) == ("01", "Schleswig-Holstein")
    assert sheet.freeze_panes == "C3"
    assert sheet["C3"].number_format == '#,##0;-#,##0;"–"'
    assert isinstance(sheet["C3"].value, int)
    share = sheet.cell(3, 8)
    assert sheet.cell(2, 8).value == "Anteil der Veranstaltungen"  # a number, no "(%)"
    assert share.number_format == '0.0%;-0.0%;"–"'
    assert 0 < share.value < 1
    assert sheet.column_dimensions["G"].width >= len("Veranstaltungen mit Platzangabe")
    # Under the table: the source, the date of the data, the filters, the demo mark.
    lines = [r[0] for r in sheet.iter_rows(min_row=21, values_only=True) if r[0]]
    assert lines.pop(0).startswith("Plätze: Summe der Höchstteilnehmerzahlen")  # its note
    assert lines[0].startswith("Quelle: synthetische Demodaten (educatalog)")
    assert re.fullmatch(r"Stand: \d\d\.\d\d\.\d{4}", lines[1])
    assert lines[2] == "Filter: Bundesländer: Bayern"
    assert lines[3].startswith("Hinweis: SYNTHETISCHE DEMODATEN")
    costs_sheet = book["Kosten – nach Lernform-Währung"]
    assert costs_sheet["D2"].value == "darunter Kurse zu 0 EUR"  # beside the courses
    assert costs_sheet["F2"].value == "Minimum (EUR)"
    assert costs_sheet["F3"].number_format == '#,##0.00;-#,##0.00;"–"'
    assert costs_sheet.freeze_panes == "C3"
    formula = book["Angebot nach Bundesland (2)"]["B3"]
    assert (formula.value, formula.data_type) == ("=HYPERLINK(1)", "s")


def test_excel_in_english_has_english_words_only(offers: pd.DataFrame, tmp_path: Path) -> None:
    sheets = [
        tables.present(stats.supply(offers, "duration_class"), "en", title="Offers by duration"),
        tables.present(stats.per_capita(offers), "en", title="Per inhabitant"),
    ]
    path = tables.write_excel(tmp_path / "t.xlsx", sheets, lang="en", title="Course supply")
    book = openpyxl.load_workbook(path)
    assert book.sheetnames[0] == "About these data"
    assert book.properties.language == "en-GB"
    words = " ".join(
        str(v) for s in book.worksheets for r in s.iter_rows(values_only=True) for v in r if v
    )
    assert ENGLISH_BASIS in words
    assert foreign(words.replace("12411-0010", ""), "en") == []
    # Without filters, every sheet says so under its table, as the "About" sheet does.
    about = dict(book.worksheets[0].iter_rows(min_row=3, values_only=True))
    assert about["Filters"] == "none (all events)"
    for sheet in book.worksheets[1:]:
        lines = [str(r[0]) for r in sheet.iter_rows(values_only=True) if r[0]]
        assert "Filters: none (all events)" in lines, sheet.title
