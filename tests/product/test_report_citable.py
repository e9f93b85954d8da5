"""The report read as a ministry's analyst reads it, page and workbook: every number says
what it counted, filtered or not, with its totals, on the current population basis, each
chart with its table, each sheet with its provenance, the archive section with its own
catalogue and dates.

Two real runs of `educatalog report` against a reference server on loopback: German and
unfiltered, with an archive whose newest snapshot is the report's catalogue; English and
filtered (two states, a year of start dates), with a population file of one's own and an
archive of one snapshot of another catalogue. The runs leave out the PDF (``--no-pdf``):
tests/product/test_report_pdf.py reads one.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
import pytest
from bs4 import BeautifulSoup

from browsing import district_list
from educatalog import history, snapshot, stats, texts
from educatalog.frames.catalogue import Catalogue, Source
from educatalog.frames.districts import district_table
from educatalog.population import STATES
from educatalog.testing import serve
from reports import report_command

pytestmark = pytest.mark.slow  # whole reports or README runs: not in make test-floors

TOKEN = "citable-report-token"
TWO = ["Bayern", "Sachsen"]


@pytest.fixture(scope="module")
def server(catalogue_database: Path) -> Iterator[str]:
    with serve(database=catalogue_database, token=TOKEN) as running:
        yield running.url


def run(
    server: str, out: Path, *options: str, check: bool = True
) -> subprocess.CompletedProcess[str]:
    done = report_command(server, out, "--no-pdf", *options, token=TOKEN, timeout=300)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def a_year_earlier(catalogue: Catalogue) -> Catalogue:
    """The catalogue without every third event: what it listed a year before."""
    frames = {name: catalogue[name] for name in catalogue}
    events = frames["events"]
    kept = events[(events["id"] % 3 != 0).to_numpy()].reset_index(drop=True)
    frames["events"] = kept
    links = frames["events_contacts"]
    frames["events_contacts"] = links[links["event_id"].isin(kept["id"]).to_numpy()]
    return Catalogue(frames, source=catalogue.source)


@pytest.fixture(scope="module")
def same_archive(demo_catalogue: Catalogue, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four snapshots whose newest is the catalogue the server serves: the report's own; the
    first, a year before, lists a third of its events fewer (the year before)."""
    folder = tmp_path_factory.mktemp("same") / "archive"
    today = dt.date.today()
    history.add(folder, a_year_earlier(demo_catalogue), date=today - dt.timedelta(days=365))
    for days in (60, 30, 0):
        history.add(folder, demo_catalogue, date=today - dt.timedelta(days=days))
    return folder


@pytest.fixture(scope="module")
def german(server: str, same_archive: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("german")
    run(server, out, "--archive", str(same_archive))
    return out


@pytest.fixture(scope="module")
def population_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("population") / "inhabitants.csv"
    rows = [
        f"{name},{1_000_000 + n},2025-06-30,Statistikamt Nord"
        for n, name in enumerate(STATES["state"])
    ]
    path.write_text("state,population,date,source\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def english(server: str, population_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    archive = tmp_path_factory.mktemp("one") / "archive"
    history.build_demo(archive, months=1, scale=0.05)  # one snapshot of another catalogue
    out = tmp_path_factory.mktemp("english")
    options = ["--lang", "en", "--start", "2025-04-01", "--end", "2026-03-31"]
    options += ["--population", str(population_file), "--archive", str(archive)]
    for state in TWO:
        options += ["--state", state]
    run(server, out, *options)
    return out


MARCH_2024 = dt.datetime(2024, 3, 15, 9, 30, tzinfo=dt.UTC)
"""When the snapshot of the third run was fetched."""


@pytest.fixture(scope="module")
def from_a_snapshot(demo_catalogue: Catalogue, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report on a snapshot of a service as it stood in March 2024, served by the
    reference server (``educatalog serve --snapshot``)."""
    folder = tmp_path_factory.mktemp("snapshot")
    source = Source(url="https://kurse.example.org/api", demo=False, fetched_at=MARCH_2024)
    frames = Catalogue({name: demo_catalogue[name] for name in demo_catalogue}, source=source)
    path = snapshot.save(frames, folder / "march")
    out = tmp_path_factory.mktemp("from-snapshot")
    with serve(database=snapshot.database(path, directory=folder / "cache"), token=TOKEN) as it:
        run(it.url, out)
    return out


def soup_of(out: Path) -> BeautifulSoup:
    return BeautifulSoup((out / "report.html").read_text(encoding="utf-8"), "html.parser")


def page_tables(out: Path) -> dict[str, list[list[str]]]:
    """Each table on the page by its caption: its rows as the reader sees them."""
    found = {}
    for table in soup_of(out).select("table.educatalog-table"):
        caption = table.find("caption")
        assert caption is not None
        found[caption.get_text(strip=True)] = [
            [c.get_text(strip=True) for c in row.find_all(["th", "td"])]
            for row in table.select("tbody tr")
        ]
    return found


def sheets(out: Path) -> dict[str, Any]:
    return {ws.title: ws for ws in openpyxl.load_workbook(out / "tables.xlsx").worksheets}


def data_rows(sheet: Any) -> list[tuple[Any, ...]]:
    rows = []
    for row in sheet.iter_rows(min_row=3, values_only=True):
        if all(v is None for v in row):
            break
        rows.append(row)
    return rows


def lines_under(sheet: Any) -> list[str]:
    return [
        str(r[0])
        for r in sheet.iter_rows(min_row=3 + len(data_rows(sheet)), values_only=True)
        if r[0]
    ]


# -- 1: a filter narrows the levels ---------------------------------------------------------


def test_a_filtered_report_shows_the_states_it_selected_and_no_zeros(english: Path) -> None:
    tables = page_tables(english)
    rows = tables["Offers by state"]
    assert [r[:2] for r in rows] == [["09", "Bavaria"], ["14", "Saxony"], ["", "Total"]]
    assert [r[:2] for r in tables["Events per 100,000 inhabitants by state"]] == [
        ["09", "Bavaria"],
        ["14", "Saxony"],
        ["", "Total"],
    ]
    forms = tables["Instruction forms' share of the events within each state"]
    assert [r[1] for r in forms] == ["Bavaria", "Saxony", "Total"]
    tile = next(
        img for img in soup_of(english).find_all("img") if img["alt"].startswith("Tile map")
    )
    assert "14 states not selected (hatched)." in tile["alt"]
    sheet = sheets(english)["Offers by state"]
    assert [r[1] for r in data_rows(sheet)] == ["Bavaria", "Saxony", "Total"]
    legend = soup_of(english).select("div.educatalog-legend")  # once, in English
    assert [d.p.get_text() for d in legend] == ["Explanation of symbols"]
    about = [r[0] for r in sheets(english)["About these data"].iter_rows(values_only=True)]
    assert about[-6:] == ["Explanation of symbols", "–", "0", ".", "/", "x"]


# -- 2: the population on the current basis, named; one's own file ---------------------------


def test_rates_name_their_population_date_and_basis(german: Path, english: Path) -> None:
    text = soup_of(german).get_text(" ")
    assert "Einwohner am 31.12.2024 (Zensus 2022)" in text
    assert "Fortschreibung des Bevölkerungsstandes auf Basis des Zensus 2022" in text
    germany = page_tables(german)["Veranstaltungen je 100.000 Einwohner nach Bundesland"][-1]
    assert germany[1] == "Deutschland (Veranstaltungen mit Bundesland)"  # not all events
    assert germany[5] == "83.577.140"
    manifest = json.loads((german / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["population"]["basis"] == "Zensus 2022"
    # written with --no-pdf, as every report here: no PDF, and none listed
    assert not (german / "report.pdf").exists()
    assert "report.pdf" not in manifest["files"]
    # One's own figures: their date and source, wherever the rate is.
    text = soup_of(english).get_text(" ")
    assert "Inhabitants on 30 Jun 2025" in text
    # no census named with them: the reader is told so
    assert "Inhabitants: Statistikamt Nord (census basis not stated), as of 30 Jun 2025" in text
    total = page_tables(english)["Events per 100,000 inhabitants by state"][-1]
    assert total[5] == f"{1_000_000 + 8 + 1_000_000 + 13:,}"  # Bayern (key 09), Sachsen (14)
    sheet = sheets(english)["Per 100,000 inhabitants"]
    assert (
        "Inhabitants: Statistikamt Nord (census basis not stated), as of 30 Jun 2025"
        in lines_under(sheet)
    )


def test_a_snapshot_is_cited_as_it_stood_and_measured_against_the_population_of_then(
    from_a_snapshot: Path,
) -> None:
    """Its source is the service it was fetched from on 15.03.2024, not the loopback server
    that served it, nor today; its rates use 31.12.2023, the newest population then."""
    text = soup_of(from_a_snapshot).get_text(" ")
    assert "Einwohner am 31.12.2023 (Zensus 2022)" in text
    # The districts' figures ship for one date: their section names it, the rest not.
    before, districts = text.split("Angebot nach Kreisen", 1)
    assert "31.12.2024" not in before
    assert "Einwohner am 31.12.2024 (Zensus 2022)" in districts
    assert "https://kurse.example.org/api" in text
    assert "127.0.0.1" not in text
    germany = page_tables(from_a_snapshot)["Veranstaltungen je 100.000 Einwohner nach Bundesland"]
    assert germany[-1][5] == "83.456.045"
    assert "Stand: 15.03.2024" in lines_under(sheets(from_a_snapshot)["Angebot nach Bundesland"])
    manifest = json.loads((from_a_snapshot / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["source"] == {
        "url": "https://kurse.example.org/api",
        "demo": False,
        "fetched_at": MARCH_2024.isoformat(),
    }
    assert manifest["population"]["date"] == "2023-12-31"


def test_a_population_file_that_misses_a_state_fails_before_the_kernel(
    server: str, tmp_path: Path
) -> None:
    path = tmp_path / "short.csv"
    path.write_text("state,population\nBayern,13000000\n", encoding="utf-8")
    done = run(server, tmp_path / "out", "--population", str(path), check=False)
    assert done.returncode == 1
    assert "misses Schleswig-Holstein, Hamburg" in done.stderr
    assert "every one of the 16 states needs a population" in done.stderr
    assert not (tmp_path / "out" / "report.ipynb").exists()


# -- 3: costs per course, as the heading says -----------------------------------------------


def test_costs_are_per_course_and_say_so(german: Path, demo_catalogue: Catalogue) -> None:
    offers = demo_catalogue.offers()
    table = page_tables(german)["Kosten je Kurs nach Lernform"]
    in_person = next(r for r in table if r[0] == "Präsenz")
    costs = stats.costs(offers, "instruction_form_category", per="course")
    assert in_person[2] == f"{int(costs.loc[('Präsenz', 'EUR'), 'courses'])}"
    median = costs.loc[("Präsenz", "EUR"), "median"]
    assert in_person[7] == f"{median:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
    sheet = sheets(german)["Kosten je Kurs"]
    assert any(line.startswith("Je Kurs: Jeder Kurs zählt einmal") for line in lines_under(sheet))


# -- 4: totals in every table -----------------------------------------------------------------


RANKINGS = {  # lists of ten districts: the note under them compares with the total
    "Die 10 Kreise mit den meisten Veranstaltungen je 100.000 Einwohner",
    "Die 10 Kreise mit den wenigsten Veranstaltungen je 100.000 Einwohner",
}


def test_every_table_has_its_total(german: Path) -> None:
    without = {"Datenqualität", "Wie lange Kurse im Katalog stehen", *RANKINGS}
    for caption, rows in page_tables(german).items():
        if caption in without:
            continue
        label = next(cell for cell in rows[-1] if cell)
        assert label.startswith(("Insgesamt", "Deutschland")), caption
    states = page_tables(german)["Angebot nach Bundesland"]
    assert [r[0] for r in states[:16]] == [f"{k:02d}" for k in range(1, 17)]  # key order
    assert states[-1][1] == "Deutschland"
    soup = soup_of(german)
    for table in soup.select("table.educatalog-table"):
        caption = table.find("caption").get_text(strip=True)
        if caption not in without:
            assert table.select("tr.educatalog-total"), caption  # set off in bold
    for name, sheet in sheets(german).items():
        if name in ("Über diese Daten", "Datenqualität", "Archiv Verweildauer"):
            continue
        if name in ("Kreise mit den meisten", "Kreise mit den wenigsten"):
            continue
        last = data_rows(sheet)[-1]
        assert any(str(v).startswith(("Insgesamt", "Deutschland")) for v in last), name
        assert sheet.cell(2 + len(data_rows(sheet)), 2).font.bold, name


# -- 5: every chart with its table ------------------------------------------------------------


def test_every_chart_has_its_table_on_the_page_and_in_the_workbook(
    german: Path, demo_catalogue: Catalogue
) -> None:
    soup = soup_of(german)
    summaries = [d.summary.get_text(strip=True) for d in soup.find_all("details")]
    assert summaries == [
        "Tabelle zum Diagramm: Veranstaltungen je 100.000 Einwohner nach Kreis",
        "Tabelle zum Diagramm: Anteil der Lernformen an den Veranstaltungen je Bundesland",
        "Tabelle zum Diagramm: Anteil der Dauerklassen an den Veranstaltungen je Bundesland",
        "Tabelle zum Diagramm: Beginnende Veranstaltungen je Monat",
        "Tabelle zum Diagramm: Veranstaltungen nach Bundesland an jedem Stichtag",
    ]
    book = sheets(german)
    for name in ("Lernform je Bundesland", "Dauer je Bundesland", "Beginn nach Monat"):
        assert name in book
    assert "Archiv alle Stichtage" in book
    # The numbers behind the chart of durations: each state's shares and its n.
    offers = demo_catalogue.offers()
    shares = stats.crosstab(offers, "state", "duration_class", normalize="index")
    rows = {r[1]: r for r in data_rows(book["Dauer je Bundesland"])}
    bayern = rows["Bayern"]
    assert list(bayern[2:-1]) == pytest.approx(list(shares.loc["Bayern"].astype(float)))
    assert bayern[-1] == int((offers["state"] == "Bayern").sum())
    months = data_rows(book["Beginn nach Monat"])
    assert (
        sum(r[1] for r in months[:-1]) == months[-1][1] == offers["event_start_date"].notna().sum()
    )


# -- 6: every sheet stands alone ---------------------------------------------------------------


def test_every_sheet_names_title_source_stand_and_the_demo_mark(german: Path) -> None:
    book = openpyxl.load_workbook(german / "tables.xlsx")
    assert book.properties.title == "Bericht zum Kursangebot"
    assert re.fullmatch(r"educatalog \d+\.\d+\.\d+\S*", book.properties.creator)
    assert book.properties.language == "de-DE"
    words = " ".join(
        str(v) for ws in book.worksheets for r in ws.iter_rows(values_only=True) for v in r if v
    )
    assert "127.0.0.1" not in words  # no passing loopback address as the "service"
    for sheet in book.worksheets[1:]:
        assert len(sheet.title) <= 31
        assert not re.search(r"[\s,;:\-–(]$", sheet.title), sheet.title  # cut after a word
        assert sheet["A1"].value.endswith(" – SYNTHETISCHE DEMODATEN"), sheet.title
        lines = lines_under(sheet)
        sources = (
            r"Quelle: synthetischer Demo-Katalog von educatalog \(Seed 0, Maßstab 0,3\)",
            r"Quelle: Archiv „archive“: synthetische Demodaten \(educatalog\)",
        )
        assert any(re.fullmatch("|".join(sources), s) for s in lines), sheet.title
        assert any(s.startswith("Stand: ") for s in lines), sheet.title
        assert any(s.startswith("Hinweis: SYNTHETISCHE DEMODATEN") for s in lines), sheet.title
        for cell in sheet[2]:
            assert "(%)" not in str(cell.value or "")
        for row in sheet.iter_rows(min_row=3, max_row=2 + len(data_rows(sheet))):
            for cell in row:
                if isinstance(cell.value, float) and cell.number_format.endswith("%"):
                    assert 0 <= cell.value <= 1  # a number with a percent format
    manifest = json.loads((german / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["source"]["seed"] == 0
    assert manifest["source"]["scale"] == 0.3
    assert "url" not in manifest["source"]


# -- 7: the archive says which catalogue and which dates ------------------------------------


def test_the_archive_section_says_what_it_shows(german: Path, english: Path) -> None:
    text = soup_of(german).get_text(" ")
    assert "Dieser Abschnitt zeigt das Archiv „archive“: 4 Stichtage" in text
    assert "stimmt das Archiv mit dem Katalog dieses Berichts überein" in text
    section = text[text.index("Das Angebot im Zeitverlauf") :]
    assert "abgerufen am" not in section.split("Datenqualität")[0]
    archive_sheet = sheets(german)["Archiv erster und letzter Tag"]
    total = data_rows(archive_sheet)[-1]
    states = page_tables(german)["Angebot nach Bundesland"][-1]
    assert f"{total[-1]:,}".replace(",", ".") == states[2]  # agrees with the main part
    # Another catalogue, one snapshot: said so, a table, no chart.
    text = soup_of(english).get_text(" ")
    assert "The archive shows another catalogue, or another day of it" in text
    assert "The report's filters (states: Bavaria, Saxony; start dates" in text
    assert "A single snapshot shows no change" in text
    assert not (english / "charts" / "07-trend-by-state.png").exists()
    assert not (english / "charts" / "08-courses-entered.png").exists()
    one = sheets(english)["Archive first and last day"]
    under = lines_under(one)
    assert not any(line.startswith("Filters:") for line in under)  # they do not apply here
    assert "The whole archive: the report's filters do not apply to this table." in under
    assert [c.value for c in one[2]][:2] == ["Key", "State"]
    assert isinstance(one["C2"].value, dt.datetime)
    assert one["D2"].value is None  # one date, one column


def test_the_filtered_report_leaves_out_what_it_cannot_say_of_the_selection(
    english: Path,
) -> None:
    quality = page_tables(english)["Data quality"]
    assert "courses without any event" not in [r[0] for r in quality]
    frame = pd.read_excel(english / "tables.xlsx", sheet_name="Data quality", header=1)
    assert "courses without any event" not in set(frame.iloc[:, 0])


# -- after the review: what an analyst still could not cite ---------------------------------


def test_the_filtered_report_names_its_selection_under_every_table_and_chart(
    english: Path,
) -> None:
    selection = "Selection: states: Bavaria, Saxony; start dates 1 Apr 2025 to 31 Mar 2026."
    soup = soup_of(english)
    archive = {"Events by state on the first and the last snapshot"}
    for table in soup.select("table.educatalog-table"):
        caption = table.find("caption").get_text(strip=True)
        notes = []
        for sibling in table.find_next_siblings():
            if "educatalog-note" not in (sibling.get("class") or []):
                break
            notes.append(sibling.get_text(strip=True))
        assert (selection in notes) != (caption in archive), caption
    for image in soup.find_all("img"):
        assert image["alt"].endswith(selection), image["alt"][:60]
    book = sheets(english)
    under = lines_under(book["Offers by state"])
    # the workbook names the selection once, in its own line
    assert "Filters: states: Bavaria, Saxony; start dates 1 Apr 2025 to 31 Mar 2026" in under
    assert not any(line.startswith("Selection:") for line in under)
    # A check the selection answers by itself is "x", not 0; the rate says what it counts.
    quality = {r[0]: r for r in page_tables(english)["Data quality"]}
    assert quality["events without an address"][1:] != ["0", "0.0%"]
    assert quality["events without an address"][1] == "x"
    assert quality["events without a start date"][1] == "x"
    text = soup.get_text(" ")
    assert "Counted: events with start dates 1 Apr 2025 to 31 Mar 2026, as the catalogue " in text
    assert "Data as of " in text
    assert "Created: " in text


def test_the_report_says_what_its_totals_costs_and_archive_counted(german: Path) -> None:
    text = soup_of(german).get_text(" ")
    assert re.search(r"Stand der Daten: \d\d\.\d\d\.\d{4}\. Erstellt: ", text)
    assert re.search(r"Kosten in EUR nennen [\d.]+ von [\d.]+ Kursen mit Veranstaltungen", text)
    assert "dieselben Veranstaltungsnummern" in text
    assert "Kurse, Bildungsanbieter: in der Zeile „Deutschland“ jeweils einmal gezählt" in text
    assert "Plätze: Summe der Höchstteilnehmerzahlen der Veranstaltungen, die eine nennen" in text
    pages = page_tables(german)
    header = [c.get_text(strip=True) for c in soup_of(german).find_all("th", scope="col")]
    assert "darunter Kurse zu 0 EUR" in header
    # issue 34: beside the courses it counts; the symbols explained once, under the first
    # table; the small-cell rule under the costs and the rates; the population's licence
    costs = [c.get_text(strip=True) for c in soup_of(german).find_all("th", scope="col")]
    assert costs[costs.index("darunter Kurse zu 0 EUR") - 1] == "Kurse"
    legends = soup_of(german).select("div.educatalog-legend")
    assert len(legends) == 1
    assert legends[0].find_previous("caption").get_text(strip=True) == "Angebot nach Bundesland"
    assert "/ keine Angabe, da Zahlenwert nicht sicher genug" in legends[0].get_text(" ")
    assert "die auf weniger als 3 Kursen beruhen, sind nicht sicher genug" in text
    assert "/: Raten, die auf weniger als 3 Veranstaltungen beruhen" in text
    assert "Lizenz: Datenlizenz Deutschland – Namensnennung – Version 2.0 (dl-de/by-2-0)" in text
    assert "Gelistet (mit Veranstaltungen)" in header
    flows = pages["Kurse je Stichtag: gelistet, neu, entfernt"]
    assert flows[0][2:] == ["x", "x", "x"]  # the first date: nothing to compare with
    assert flows[-1][:2] == ["Insgesamt", "x"]  # no total of courses listed on many dates
    lifetimes = [r[0] for r in pages["Wie lange Kurse im Katalog stehen"]]
    assert lifetimes == [
        "im Archiv neu gelistet und wieder entfernt (vollständig)",
        "am ersten oder letzten Stichtag gelistet (mindestens)",
        "alle Kurse (mindestens)",
    ]
    # The workbook: the "x" and the unknowns as the page shows them, no blank cell.
    book = sheets(german)
    rows = data_rows(book["Archiv Kurse je Stichtag"])
    assert rows[0][2:] == ("x", "x", "x")
    for name in ("Archiv Verweildauer", "Angebot nach Dauer", "Kosten je Kurs"):
        for row in data_rows(book[name]):
            assert None not in row[2:], (name, row)
    about = {r[0]: r[1] for r in book["Über diese Daten"].iter_rows(min_row=3, values_only=True)}
    assert {"Stand der Daten", "Abgerufen", "Erstellt"} <= set(about)
    assert about["Zeichenerklärung"] is None  # the legend's heading, then its symbols
    assert about["–"] == "nichts vorhanden (genau null)"
    assert about["/"] == "keine Angabe, da Zahlenwert nicht sicher genug"


# -- issue 34: the period and the year before ----------------------------------------------


def german_number(value: float, decimals: int = 0) -> str:
    return texts.number(value, "de", decimals)


def test_the_tables_set_the_year_before_beside_the_events(
    german: Path, english: Path, demo_catalogue: Catalogue
) -> None:
    """The year before of the German report (its archive's snapshot of 365 days earlier,
    which lists every third event less), read from page and workbook, is a plain count."""
    offers = demo_catalogue.offers()
    then = offers[(offers["event_id"] % 3 != 0).to_numpy()]
    counted = then.groupby(then["state"].astype(object).fillna("?"))["event_id"].nunique()
    now = offers.groupby(offers["state"].astype(object).fillna("?"))["event_id"].nunique()
    pages = page_tables(german)
    header = [
        c.get_text(strip=True)
        for c in soup_of(german)
        .find("caption", string="Angebot nach Bundesland")
        .parent.select("thead th")
    ]
    assert header[2:5] == [
        "Veranstaltungen",
        "Veranstaltungen im Vorjahr",
        "Veränderung gegenüber Vorjahr in %",
    ]
    rows = {r[1]: r for r in pages["Angebot nach Bundesland"]}
    for state, n in counted.items():
        row = rows["ohne Angabe" if state == "?" else state]
        change = (now[state] - n) / n * 100
        assert row[3:5] == [german_number(n), german_number(change, 1)], state
    assert rows["Deutschland"][3] == german_number(then["event_id"].nunique())
    sheet = data_rows(sheets(german)["Angebot nach Bundesland"])
    assert {r[1]: r[3] for r in sheet[:16]} == {r[1]: int(counted[r[1]]) for r in sheet[:16]}
    forms = {r[0]: r for r in pages["Angebot nach Lernform"]}
    by_form = then.groupby(then["instruction_form_category"].astype(object))["event_id"].nunique()
    for form, n in by_form.items():
        assert forms[form][2] == german_number(n), form  # after the events
    districts = {r[1]: r for r in pages["Veranstaltungen je 100.000 Einwohner nach Kreis"]}
    in_bavaria = then["district_key"].astype(object).fillna("").str.startswith("09")
    bavaria = then[in_bavaria.to_numpy()]["event_id"].nunique()  # by the district's state
    assert districts["Bayern zusammen"][3] == german_number(bavaria)
    day = texts.date(dt.date.today() - dt.timedelta(days=365), "de")
    note = f"Vorjahr: der Bestand am {day} (Archiv „archive“), mit denselben Filtern gezählt."
    under = lines_under(sheets(german)["Angebot nach Bundesland"])
    assert any(note in line for line in under)
    text = soup_of(german).get_text(" ")
    assert "Gezählt: der Bestand am " in text
    assert f"stellen den Veranstaltungen die des Vorjahres gegenüber: {note}" in text
    # Another catalogue of one snapshot, years before: no earlier stand, and said so once.
    text = soup_of(english).get_text(" ")
    assert "There is no comparison with the previous year: the archive “archive” holds no " in text
    assert "Events in the previous year" not in text


# -- issue 33: supply by district ---------------------------------------------------------


def section_of(out: Path, heading: str) -> str:
    """The text of the section under ``heading``, to the next heading."""
    soup = soup_of(out)
    start = next(h for h in soup.find_all("h2") if h.get_text(strip=True).startswith(heading))
    words = []
    for element in start.find_all_next(["h2", "p", "caption"]):
        if element.name == "h2":
            break
        words.append(element.get_text(" ", strip=True))
    return "\n".join(words)


def test_the_district_section_is_per_capita_over_the_same_offers(
    german: Path, demo_catalogue: Catalogue
) -> None:
    """The lists and the table of every district, read from the page and the workbook, are
    stats.per_capita over the report's offers: row by row, cell by cell."""
    offers = demo_catalogue.offers()
    tables = page_tables(german)
    most = tables["Die 10 Kreise mit den meisten Veranstaltungen je 100.000 Einwohner"]
    fewest = tables["Die 10 Kreise mit den wenigsten Veranstaltungen je 100.000 Einwohner"]
    assert most == district_list(offers, "de")
    assert fewest == district_list(offers, "de", fewest=True)
    rates = stats.per_capita(offers, by="district", subtotals=True, margins=True)
    every = tables["Veranstaltungen je 100.000 Einwohner nach Kreis"]
    assert len(every) == len(rates) == 417
    assert every[-1][:2] == ["", "Deutschland (Veranstaltungen mit Kreis)"]
    assert every[-1][2] == texts.number(rates["events"].iloc[-1], "de")
    rows = data_rows(sheets(german)["Kreise je 100.000 Einwohner"])
    assert len(rows) == len(rates)
    keys = district_table().reset_index().set_index("district")["key"]
    for row, ((state, district), values) in zip(rows, rates.iterrows(), strict=True):
        if state == "All":
            assert row[:2] == (None, "Deutschland (Veranstaltungen mit Kreis)")
        elif district == "All":
            assert row[1] == f"{state} zusammen"
        else:
            assert row[:2] == (keys[district], district)
        assert row[2] == int(values["events"])  # then the year before and the change in %
        assert list(row[5:8]) == [int(values[c]) for c in ("courses", "institutions", "population")]
        if 0 < values["events"] < 3:  # the small-cell rule: "/", as on the page
            assert row[8] == "/"
        else:
            assert row[8] == pytest.approx(float(values["events_per_100k"]))
    maps = [i for i in soup_of(german).find_all("img") if i["alt"].startswith("Karte der Kreise")]
    assert len(maps) == 1
    assert f"Höchster Wert: {most[0][1]}" in maps[0]["alt"]  # the first of the list
    assert (german / "charts" / "09-district-map.png").is_file()
    text = section_of(german, "Angebot nach Kreisen")
    assert "Die Karte zeigt alle 400 Kreise, ihre Zahlen stehen mit den Summen der Länder" in text
    assert "Tabelle 12411-01-01-4), Stand 31.12.2024" in text
    assert "© OpenStreetMap contributors" in text
    assert "Kleine Kreise: Die Kreise sind sehr verschieden groß (Zweibrücken: 33.323" in text
    stateless = rates.attrs["districts_without_state"]
    assert f"{stateless} Veranstaltungen, deren Adresse kein Bundesland nennt" in text
    assert "bei gleicher Rate entscheidet der Kreisschlüssel" in text
    under = lines_under(sheets(german)["Kreise je 100.000 Einwohner"])
    assert any("12411-01-01-4" in line for line in under)
    assert any("© OpenStreetMap contributors" in line for line in under)
    assert any(line.startswith("Ohne Kreis (siehe „Datenqualität“)") for line in under)


def test_a_report_of_states_lists_their_districts_only_in_english(
    english: Path, demo_catalogue: Catalogue
) -> None:
    offers = stats.select(demo_catalogue.offers(), state=TWO, start="2025-04-01", end="2026-03-31")
    tables = page_tables(english)
    most = tables["The 10 districts with the most events per 100,000 inhabitants"]
    fewest = tables["The 10 districts with the fewest events per 100,000 inhabitants"]
    assert most == district_list(offers, "en")
    assert fewest == district_list(offers, "en", fewest=True)
    every = tables["Events per 100,000 inhabitants by district"]
    keys = [row[0] for row in every]
    assert {k[:2] for k in keys if k} == {"09", "14"}
    assert len([k for k in keys if len(k) == 5]) == 96 + 13  # Bavaria's and Saxony's
    labels = [row[1] for row in every if len(row[0]) == 2]
    assert labels == ["Bavaria total", "Saxony total"]
    assert every[-1][:2] == ["", "Total"]
    sheet = sheets(english)["Districts per 100k inhabitants"]
    rows = data_rows(sheet)
    assert [r[0] for r in rows] == [k or None for k in keys]
    assert "Filters: states: Bavaria, Saxony; start dates 1 Apr 2025 to 31 Mar 2026" in (
        lines_under(sheet)
    )
    (image,) = [i for i in soup_of(english).find_all("img") if i["alt"].startswith("Map of the")]
    selection = "Selection: states: Bavaria, Saxony; start dates 1 Apr 2025 to 31 Mar 2026."
    assert image["alt"].endswith(selection)
    # The state file of one's own has no districts: theirs are the shipped figures.
    assert any("(table 12411-01-01-4), as of 31 Dec 2024" in n for n in lines_under(sheet))
