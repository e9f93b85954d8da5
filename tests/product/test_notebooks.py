"""The ready-made notebooks run top to bottom in a real kernel against the reference server,
and `educatalog report` renders the report notebook into HTML, PNGs and Excel."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import matplotlib.image
import nbformat
import numpy as np
import openpyxl
import pandas as pd
import pytest
from bs4 import BeautifulSoup

import languages
from accessibility import (
    accessibility_findings,
    assert_accessible,
    axe_source,
    chromium_page,
    language_findings,
)
from browsing import Shown, district_list, same_table, table_text
from docsite import rendered_gallery
from educatalog import stats, texts
from educatalog.demodata import GENERATOR_VERSION
from educatalog.files.workspace import PACKAGE
from educatalog.report import (
    NOTEBOOKS,
    ReportError,
    execute_notebook,
    notebook_path,
)
from educatalog.testing import serve
from languages import foreign
from needs import missing_tool
from reports import report_command

TOKEN = "notebook-secret-token-4711"
NAMES = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))


def _package_files() -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(PACKAGE)): (p.stat().st_mtime_ns, p.stat().st_size)
        for p in PACKAGE.rglob("*")
        if "__pycache__" not in p.parts
    }


@pytest.fixture(scope="module", autouse=True)
def package_unchanged() -> Iterator[None]:
    """Running the notebooks and the report writes nothing into the package (outputs,
    charts, tables, checkpoints): they belong in the user's folders."""
    before = _package_files()
    yield
    assert _package_files() == before


@pytest.fixture(scope="module")
def server(catalogue_database: Path) -> Iterator[str]:
    with serve(database=catalogue_database, token=TOKEN) as running:
        yield running.url


@pytest.fixture(scope="module")
def proper_names(server: str) -> list[str]:
    import educatalog

    with educatalog.Client(server, token=TOKEN) as client:
        return languages.proper_names(client)


def test_the_notebooks_ship_without_outputs() -> None:
    assert NAMES == [
        "01-quickstart",
        "02-supply-by-state",
        "03-instruction-forms-and-durations",
        "04-costs-funding-and-access",
        "05-explorer",
        "06-report",
        "07-trends",
        "08-districts",
    ]
    for name in NAMES:
        nb = nbformat.read(notebook_path(name), as_version=4)
        nbformat.validate(nb)
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [], name
                assert cell.execution_count is None, name


KERNEL_RUNS = [(name, lang) for name in NAMES for lang in ("de", "en")]
"""Every notebook in both languages, run top to bottom in a fresh kernel against the
embedded demo as a reader's copy runs without a service (``educatalog notebooks --lang``'s
copies): the runs of the documentation's gallery (``docs/gallery.py``, once a test run:
:func:`docsite.rendered_gallery`), which the site shows. JupyterLab runs each once more
(``tests/browser/test_notebooks_in_lab.py``) against the reference server of the tests, and
``educatalog report`` the report notebook below."""


def reader_text(nb: nbformat.NotebookNode) -> str:
    """What a reader of the executed notebook reads: the prose without code, the tables for
    readers (``table.educatalog-table``) and the charts' alt texts."""
    parts = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            parts.append(re.sub(r"```.*?```|`[^`]*`", " ", cell.source, flags=re.DOTALL))
        for output in cell.get("outputs", []):
            html = output.get("data", {}).get("text/html", "")
            soup = BeautifulSoup(str(html), features="html.parser")
            for table in soup.select("table.educatalog-table"):
                parts.append(" | ".join(c.get_text() for c in table.select("caption, th, td")))
            for image in soup.find_all("img"):
                parts.append(str(image.get("alt", "")))
            parts.append(str(output.get("metadata", {}).get("image/png", {}).get("alt", "")))
    return "\n".join(parts)


@pytest.mark.slow  # the gallery: 16 runs, made again for every set of installed versions
@pytest.mark.timeout(900)  # the first waits for the gallery's 16 runs (minutes on 2 cores)
@pytest.mark.parametrize(("name", "lang"), KERNEL_RUNS)
def test_notebook_runs_in_a_kernel(name: str, lang: str, proper_names: list[str]) -> None:
    from educatalog.demodata import DEMO_TOKEN

    nb = nbformat.read(rendered_gallery() / lang / f"{name}.ipynb", as_version=4)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert outputs, "the notebook ran"
    assert not [o for o in outputs if o.output_type == "error"]
    kinds = {key for o in outputs for key in o.get("data", {})}
    text = "".join(o.get("text", "") for o in outputs) + json.dumps(
        [
            o.get("data", {}).get(kind, "")
            for o in outputs
            for kind in ("text/plain", "text/markdown")
        ],
        ensure_ascii=False,
    )
    assert DEMO_TOKEN not in text
    words = languages.without(reader_text(nb), proper_names)
    assert not foreign(words, lang), (name, lang, foreign(words, lang))
    if name == "05-explorer":
        assert "application/vnd.jupyter.widget-view+json" in kinds
    else:
        assert "image/png" in kinds, "the charts are displayed as images"
        assert "text/html" in kinds, "the tables are displayed"
    if name != "01-quickstart":
        demo = {"de": "synthetische Demodaten", "en": "synthetic demo data"}[lang]
        assert demo.lower() in text.lower()  # the source line says what the data is
        html = "".join(str(o.get("data", {}).get("text/html", "")) for o in outputs)
        if name not in ("05-explorer", "07-trends"):  # the tables, in the lang
            events = {"de": "Veranstaltungen", "en": "Events"}[lang]
            assert f'<th scope="col">{events}</th>' in html
        # Every share with one precision ("0,0 %": less than half of 0,1 %), never one with
        # decimals of its own.
        assert not re.search(r">\d+,\d\d\u00a0%<", html), name
        for expected in SAYS.get(name if lang == "de" else f"{name} ({lang})", ()):
            assert expected in html, (name, lang, expected)
    if name == "01-quickstart":  # the events that end before they start, shown as they are
        shown = [o for o in nb.cells[_cell(nb, "ends_early")].outputs if "data" in o]
        assert "event_end_date" in shown[0]["data"]["text/html"]


# What the notebooks' tables say of themselves (German, the default language; English where
# the notebook runs in English too).
SAYS = {
    "02-supply-by-state": [
        ">Fachgebiet</th>",  # the section by subject area: its header
        '<th scope="row">Informatik, Informationstechnik</th>',
    ],
    "03-instruction-forms-and-durations": [
        '<th scope="col">Anteil der Veranstaltungen</th>',  # of all events
        '<th scope="col">Anteil der Veranstaltungen je Unterrichtszeit</th>',
    ],
    "04-costs-funding-and-access": [
        "Veranstaltungen mit Förderart</th>",  # the base of the funding types' share
        '<th scope="col">Anteil ja (an allen)</th>',  # the voucher, unknown="separate"
        '<th scope="col">Anteil nein (an allen)</th>',
        '<th scope="col">Anteil ja (unter denen mit Angabe)</th>',  # barrier-free, "exclude"
        '<th scope="col">darunter Kurse zu 0 EUR</th>',  # courses stating 0: a cost, counted
        "sie zählen als Kosten von 0 mit",
    ],
    "07-trends": [
        '<th scope="row">keine Förderart</th>',
        '<td class="count">x</td>',  # the first snapshot's flows: not applicable
        "x: Tabellenfach gesperrt, weil Aussage nicht sinnvoll",
    ],
    "08-districts": [
        '<th scope="row">Veranstaltungen ohne bekannten Kreis</th>',  # why some have none
        '<th scope="col">Einwohner am 31.12.2024 (Zensus 2022)</th>',  # of the districts
        '<th scope="row">09</th><th scope="row">Bayern zusammen</th>',  # a state's subtotal
        '<th scope="row">Leipzig, Landkreis</th>',  # Saxony's districts, by their names
    ],
    "08-districts (en)": [
        '<th scope="row">events whose address has no known district</th>',
        '<th scope="col">Inhabitants on 31 Dec 2024 (2022 census)</th>',
        '<th scope="row">09</th><th scope="row">Bavaria total</th>',
        '<th scope="row">Leipzig, district</th>',  # "Leipzig, Landkreis" in English
    ],
}


def _cell(nb: nbformat.NotebookNode, text: str) -> int:
    return next(k for k, c in enumerate(nb.cells) if c.cell_type == "code" and text in c.source)


def test_a_failing_notebook_names_itself_and_the_error(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("1 / 0")]
    path = tmp_path / "broken.ipynb"
    nbformat.write(nb, path)
    with pytest.raises(ReportError, match=r"broken\.ipynb failed: ZeroDivisionError"):
        execute_notebook(path, timeout=60)
    with pytest.raises(ReportError, match="no cell tagged 'parameters'"):
        execute_notebook(path, parameters={"x": 1})
    with pytest.raises(ReportError, match="shipped notebooks are: 01-quickstart"):
        notebook_path("07-nothing")


STATES = ["Bayern", "Berlin"]


def run_report(server: str, out: Path, *options: str) -> Path:
    done = report_command(server, out, *options, token=TOKEN, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "SYNTHETIC demo data" in done.stdout
    return out


@pytest.fixture(scope="module")
def report(server: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder written by one real run of `educatalog report` with filters (German, the
    default language)."""
    options = ["--start", "2025-04-01", "--end", "2026-03-31"]
    for state in STATES:
        options += ["--state", state]
    return run_report(server, tmp_path_factory.mktemp("report"), *options)


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small demo archive of twelve monthly snapshots (`educatalog fetch --archive`'s kind)."""
    from educatalog import history

    folder = tmp_path_factory.mktemp("archive") / "archive"
    history.build_demo(folder, months=12, scale=0.05)
    return folder


@pytest.fixture(scope="module")
def report_en(server: str, archive: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole report in English, with the catalogue over time from ``archive``."""
    out = tmp_path_factory.mktemp("report-en")
    return run_report(server, out, "--lang", "en", "--archive", str(archive), "--no-pdf")


def visible_text(page: str) -> str:
    """The words a reader sees on the page, with the images' alt texts and the title."""
    soup = BeautifulSoup(page, features="html.parser")
    for hidden in soup(["style", "script"]):
        hidden.decompose()
    for anchor in soup.select("a.anchor-link"):
        anchor.decompose()  # nbconvert's "¶" links
    alts = " ".join(str(img.get("alt", "")) for img in soup.find_all("img"))
    return soup.get_text(" ") + " " + alts


def workbook_text(path: Path) -> str:
    book = openpyxl.load_workbook(path)
    words = [book.sheetnames] + [
        [v for row in sheet.iter_rows(values_only=True) for v in row if isinstance(v, str)]
        for sheet in book.worksheets
    ]
    return " ".join(str(w) for part in words for w in part)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_report_speaks_one_language_with_one_number_format(
    lang: str, request: pytest.FixtureRequest
) -> None:
    out = request.getfixturevalue("report" if lang == "de" else "report_en")
    page = (out / "report.html").read_text(encoding="utf-8")
    assert language_findings(page, lang) == []  # the root's lang and xml:lang, and within
    text = visible_text(page)
    # Table 12411-0010 and ISO dates in the manifest are no numbers of either language.
    assert foreign(text.replace("12411-0010", ""), lang) == []
    assert foreign(workbook_text(out / "tables.xlsx").replace("12411-0010", ""), lang) == []
    if lang == "de":
        assert "Bericht zum Kursangebot" in text
        assert "Einwohner am 31.12.2024 (Zensus 2022)" in text
        assert "Quelle: synthetischer Demo-Katalog von educatalog (Seed 0, Maßstab 0,3)" in text
    else:
        assert "Course supply report" in text
        assert "Inhabitants on 31 Dec 2024 (2022 census)" in text
        assert re.search(
            r"Source: educatalog's synthetic demo catalogue \(seed 0, scale 0\.3\), "
            r"retrieved [^.]*\. 1,\d{3} events",
            text,
        )
    assert "No description has been provided" not in page
    assert "PosixPath" not in text  # no stray value of the last line of a cell


@pytest.mark.parametrize("lang", ["de", "en"])
def test_report_passes_the_static_accessibility_check(
    lang: str, request: pytest.FixtureRequest
) -> None:
    out = request.getfixturevalue("report" if lang == "de" else "report_en")
    page = (out / "report.html").read_text(encoding="utf-8")
    assert accessibility_findings(page) == []
    soup = BeautifulSoup(page, features="html.parser")
    images = soup.find_all("img")
    kinds = ("Balkendiagramm", "Kachelkarte", "Karte der Kreise", "Balkendiagramm")
    kinds += ("Gestapelte", "Heatmap")
    kinds += ("Liniendiagramm", "Boxplots")
    if lang == "en":  # with the catalogue over time: two line charts more, one more section
        kinds = ("Bar chart", "Tile map", "Map of the districts", "Bar chart")
        kinds += ("100% stacked", "Heatmap")
        kinds += ("Line chart", "Box plots")
        kinds += ("Line chart", "Line chart")
    assert len(images) == len(kinds)
    for image, kind in zip(images, kinds, strict=True):
        assert image["alt"].startswith(kind)
    sections = 11 if lang == "en" else 10  # the last: the methodological notes
    assert [h.name for h in soup.find_all(re.compile(r"^h[1-6]$"))] == ["h1"] + ["h2"] * sections


def page_tables(page: str) -> dict[str, Shown]:
    """Every table of a report page by its caption, as :func:`browsing.screen_table` reads
    a table on screen: the value headers, and every row's label and cell texts in order."""
    found: dict[str, Shown] = {}
    for table in BeautifulSoup(page, features="html.parser").find_all("table"):
        caption = table.find("caption")
        rows, labels = [], 0
        for row in table.find("tbody").find_all("tr"):
            keys = [th.get_text().strip() for th in row.find_all("th")]
            labels = max(labels, len(keys))
            rows.append((keys[-1] if keys else "", [td.get_text().strip() for td in row("td")]))
        head = table.find("thead").find_all("tr")[-1].find_all(["th", "td"])
        headers = [cell.get_text().strip() for cell in head][labels:]
        found[caption.get_text().strip() if caption else ""] = (headers, rows)
    return found


def test_the_reports_tables_hold_the_statistics_row_by_row(
    report: Path, demo_catalogue: Any
) -> None:
    """Each table of the (German, filtered) report, read from the page, is the table of
    :mod:`educatalog.stats` over the same offers and filters, every row and cell in order:
    a row missing, added or changed fails."""
    page = (report / "report.html").read_text(encoding="utf-8")
    on_page = page_tables(page)
    offers = stats.select(
        demo_catalogue.offers(), state=STATES, start="2025-04-01", end="2026-03-31"
    )
    expected = {
        "states": stats.supply(offers, "state", margins=True),
        "forms": stats.supply(offers, "instruction_form_category", margins=True),
        "durations": stats.supply(offers, "duration_class", margins=True),
        "starts": stats.supply(offers, "quarter", margins=True),
        "costs": stats.costs(offers, "instruction_form_category", per="course", margins=True),
    }
    expected["districts"] = stats.per_capita(offers, by="district", subtotals=True, margins=True)
    for key, table in expected.items():
        title = texts.text(f"report.table.{key}", "de")
        assert title in on_page, (title, list(on_page))
        same_table(on_page[title], table_text(table, "de"))
    # The lists of districts: every cell, the key and the name too, from per_capita.
    soup = BeautifulSoup(page, features="html.parser")
    for fewest in (False, True):
        title = texts.text(f"report.table.districts_{'fewest' if fewest else 'most'}", "de", n=10)
        table = next(t for t in soup.find_all("table") if t.caption.get_text().strip() == title)
        rows = [[c.get_text().strip() for c in r(["th", "td"])] for r in table.tbody("tr")]
        assert rows == district_list(offers, "de", fewest=fewest)


CHROMIUM = shutil.which("chromium")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_report_passes_axe_core_in_headless_chromium(
    lang: str, request: pytest.FixtureRequest
) -> None:
    """axe-core finds no violation of WCAG 2.0 to 2.2, level A or AA, whatever its impact,
    in the report as Chromium shows it from its folder (best practices are printed)."""
    if CHROMIUM is None:
        missing_tool("needs Debian's chromium for axe-core")
    script = axe_source()
    out = request.getfixturevalue("report" if lang == "de" else "report_en")
    with chromium_page(CHROMIUM) as page:
        page.goto((out / "report.html").as_uri())
        assert_accessible(page, script, f"the report in {lang}")


OVER_TIME = {"de": "Das Angebot im Zeitverlauf", "en": "The catalogue over time"}


def _sheet_rows(workbook: Path, title: str) -> list[tuple[Any, ...]]:
    """The data rows of the workbook's table titled ``title`` (its first cell, which may
    carry the demo mark): from under the header row to the first empty row."""
    book = openpyxl.load_workbook(workbook)
    for sheet in book.worksheets:
        if str(sheet["A1"].value).startswith(title):
            rows = []
            for row in sheet.iter_rows(min_row=3, values_only=True):
                if all(v is None for v in row):
                    break
                rows.append(row)
            return rows
    raise AssertionError(f"no sheet titled {title!r} in {book.sheetnames}")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_report_shows_the_catalogue_over_time_from_an_archive(
    lang: str, server: str, archive: Path, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    from educatalog import history, texts

    if lang == "en":
        out = request.getfixturevalue("report_en")
    else:
        out = run_report(server, tmp_path / "report", "--archive", str(archive), "--no-pdf")
    arc = history.open(archive)
    page = (out / "report.html").read_text(encoding="utf-8")
    soup = BeautifulSoup(page, features="html.parser")
    assert OVER_TIME[lang] in [
        h.get_text(" ", strip=True).rstrip(" ¶") for h in soup.find_all("h2")
    ]
    text = visible_text(page)
    assert (
        texts.text(
            "note.snapshots",
            lang,
            n=12,
            first=texts.date(arc.dates[0], lang),
            last=texts.date(arc.dates[-1], lang),
        )
        in text
    )
    assert foreign(text.replace("12411-0010", ""), lang) == []
    assert foreign(workbook_text(out / "tables.xlsx").replace("12411-0010", ""), lang) == []
    # Two more charts, each shown with its alt text.
    charts = sorted(p.name for p in (out / "charts").glob("*.png"))
    assert {"07-trend-by-state.png", "08-courses-entered.png"} <= set(charts)
    images = [img for img in soup.find_all("img") if img.get("alt")]
    assert len(images) == len(charts)
    # The table holds the archive's own numbers: events by state, first and last snapshot,
    # the states in the order of their keys, the dates as dates, and the total.
    events = arc.supply(by="state")["events"].unstack("snapshot_date").iloc[:, [0, -1]]
    rows = _sheet_rows(out / "tables.xlsx", texts.text("report.table.trend_states", lang))
    expected = {
        texts.label(s, lang): (int(a), int(b))
        for s, (a, b) in zip(events.index, events.fillna(0).itertuples(index=False), strict=True)
    }
    assert {r[1]: (r[2], r[3]) for r in rows[:-1]} == expected
    assert [r[0] for r in rows[:16]] == [f"{k:02d}" for k in range(1, 17)]
    germany = texts.text("total.germany", lang)
    assert rows[-1][1:] == (germany, *(int(v) for v in events.fillna(0).sum()))
    header = openpyxl.load_workbook(out / "tables.xlsx")
    sheet = next(
        s
        for s in header.worksheets
        if str(s["A1"].value).startswith(texts.text("report.table.trend_states", lang))
    )
    assert isinstance(sheet["C2"].value, dt.datetime)  # an Excel date, not text
    assert sheet["C2"].value.date() == arc.dates[0]
    flows = arc.flows("courses")
    rows = _sheet_rows(out / "tables.xlsx", texts.text("report.table.flows", lang))
    assert [r[0].date() for r in rows[:-1]] == list(arc.dates)
    assert [r[1] for r in rows[:-1]] == flows["listed"].tolist()
    assert [r[2] for r in rows[:-1]][1:] == flows["entered"].tolist()[1:]
    assert rows[0][2] == "x"  # the first date: nothing to compare with
    assert rows[-1][:3] == (texts.text("total", lang), "x", int(flows["entered"].sum()))
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["archive"]["dates"] == [d.isoformat() for d in arc.dates]
    assert manifest["archive"]["demo"] is True
    assert Path(manifest["archive"]["folder"]) == archive.resolve()


def test_a_report_without_an_archive_has_no_section_over_time(report: Path) -> None:
    page = (report / "report.html").read_text(encoding="utf-8")
    assert OVER_TIME["de"] not in visible_text(page)
    assert not (report / "charts" / "07-trend-by-state.png").exists()
    assert json.loads((report / "manifest.json").read_text(encoding="utf-8"))["archive"] is None


def test_report_names_a_folder_that_is_no_archive_before_running(
    server: str, tmp_path: Path
) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "educatalog.cli",
            "report",
            "--url",
            server,
            "--out",
            str(tmp_path / "r"),
            "--archive",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "EDUCATALOG_TOKEN": TOKEN},
    )
    assert done.returncode != 0
    assert "is not an archive" in done.stderr
    assert not (tmp_path / "r" / "report.ipynb").exists()


def test_report_command_writes_html_charts_tables_and_manifest(
    report: Path, server: str, catalogue_database: Path
) -> None:
    out = report

    # The tables hold the numbers SQL gives on the server's own file.
    with sqlite3.connect(catalogue_database) as conn:
        expected = dict(
            conn.execute(
                "SELECT s.name, COUNT(*) FROM events e JOIN addresses a ON a.id = e.address "
                "JOIN states s ON s.id = a.state WHERE s.name IN ('Bayern', 'Berlin') "
                "AND e.event_start_date >= '2025-04-01' AND e.event_start_date < '2026-04-01' "
                "GROUP BY s.name"
            ).fetchall()
        )
    book = pd.ExcelFile(out / "tables.xlsx")
    assert book.sheet_names == [
        "Über diese Daten",
        "Angebot nach Bundesland",
        "Je 100.000 Einwohner",
        "Kreise je 100.000 Einwohner",
        "Kreise mit den meisten",
        "Kreise mit den wenigsten",
        "Angebot nach Fachgebiet",
        "Fachgebiet je Bundesland",
        "Angebot nach Lernform",
        "Lernform je Bundesland",
        "Angebot nach Dauer",
        "Dauer je Bundesland",
        "Beginn nach Quartal",
        "Beginn nach Monat",
        "Kosten je Kurs",
        "Datenqualität",
    ]
    sheets = {
        n: pd.read_excel(out / "tables.xlsx", sheet_name=n, header=1) for n in book.sheet_names[1:]
    }
    by_state = sheets["Angebot nach Bundesland"].dropna(subset=["Veranstaltungen"])
    counts = dict(zip(by_state["Bundesland"], by_state["Veranstaltungen"], strict=True))
    assert counts == {**expected, "Insgesamt": sum(expected.values())}  # the two: no zeros
    durations = sheets["Angebot nach Dauer"].dropna(subset=["Veranstaltungen"])
    assert int(durations["Veranstaltungen"].iloc[:-1].sum()) == sum(expected.values())
    assert durations["Dauer"].iloc[-1] == "Insgesamt"
    about = dict(
        openpyxl.load_workbook(out / "tables.xlsx")
        .worksheets[0]
        .iter_rows(min_row=3, values_only=True)
    )
    assert "Dienst (URL)" not in about  # the demo by its seed and scale, not its address
    assert about["Quelle"] == "synthetischer Demo-Katalog von educatalog (Seed 0, Maßstab 0,3)"
    assert about["Filter"] == "Bundesländer: Bayern, Berlin; Beginn 01.04.2025 bis 31.03.2026"
    assert about["Hinweis"].startswith("SYNTHETISCHE DEMODATEN")

    charts = sorted(p.name for p in (out / "charts").glob("*.png"))
    assert len(charts) == 8  # the district map and the subject areas too
    for chart in charts:
        assert (out / "charts" / chart).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Demo-Katalog von educatalog, nicht das echte Kursangebot" in html
    assert len(re.findall(r"<img [^>]*src=\"data:image/png;base64,", html)) == 8
    assert "def show(" not in html  # code hidden
    assert "import educatalog" not in html
    assert "Synthetische Demodaten" in html
    assert "Bayern" in html
    assert not re.search(r"<script[^>]*src=\"https?://", html)  # self-contained

    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["source"] == {
        "demo": True,
        "catalogue": "educatalog synthetic demo catalogue",
        "seed": 0,
        "scale": 0.3,
        "generator": GENERATOR_VERSION,  # the demo's rows differ between versions
        "stand": dt.datetime.now(dt.UTC).date().isoformat(),  # the day its words name
    }
    assert manifest["population"]["date"] == "2024-12-31"
    assert manifest["population"]["basis"] == "Zensus 2022"
    assert manifest["parameters"] == {
        "states": STATES,
        "start": "2025-04-01",
        "end": "2026-03-31",
        "lang": "de",
        "min_cases": 3,  # the small-cell rule: costs and rates on fewer cases show "/"
    }
    assert set(manifest["files"]) == {
        "report.html",
        "report.pdf",
        "report.ipynb",
        "tables.xlsx",
        *(f"charts/{c}" for c in charts),
        *(f"data/{p.name}" for p in (out / "data").iterdir()),  # datapackage.json, the CSVs
    }
    for path in out.rglob("*"):
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes(), path


def test_report_renders_in_headless_chromium(report: Path, tmp_path: Path) -> None:
    """The documented check of `make screenshot`, run wherever chromium is installed."""
    if shutil.which("chromium") is None:
        missing_tool("needs Debian's chromium")
    shot = tmp_path / "report.png"
    command = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    command += ["--window-size=1100,5200", f"--screenshot={shot}"]
    command += [(report / "report.html").as_uri()]
    subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    image = matplotlib.image.imread(shot)
    assert image.shape[:2] == (5200, 1100)
    # Not a blank page: charts bring many distinct colours down the whole length.
    for part in np.array_split(image[:, :, :3], 4):
        assert len(np.unique(part.reshape(-1, 3), axis=0)) > 50


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--start", "1.4.2025"], "start must be a date as YYYY-MM-DD, got '1.4.2025'"),
        (["--start", "2026-01-01", "--end", "2025-01-01"], "start 2026-01-01 is after end"),
        (["--state", "Bayren"], 'No state "Bayren". Did you mean "Bayern"?'),
    ],
)
def test_report_refuses_bad_options_before_running(
    server: str, tmp_path: Path, options: list[str], message: str
) -> None:
    env = {**os.environ, "EDUCATALOG_TOKEN": TOKEN}
    command = [sys.executable, "-m", "educatalog.cli", "report", "--url", server]
    command += ["--out", str(tmp_path), *options]
    done = subprocess.run(
        command, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "report.html").exists()


def test_report_never_touches_files_it_did_not_write(server: str, tmp_path: Path) -> None:
    (tmp_path / "report.html").write_text("my own page")
    env = {**os.environ, "EDUCATALOG_TOKEN": TOKEN}
    command = [sys.executable, "-m", "educatalog.cli", "report", "--url", server]
    command += ["--out", str(tmp_path)]
    done = subprocess.run(
        command, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "holds files that no educatalog report wrote" in done.stderr
    assert (tmp_path / "report.html").read_text() == "my own page"


def test_report_notebook_writes_into_the_working_folder_never_the_package(
    server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run as shipped (as from JupyterLab): outputs go to report/ in the working folder."""
    monkeypatch.chdir(tmp_path)
    env = {"EDUCATALOG_URL": server, "EDUCATALOG_TOKEN": TOKEN}
    execute_notebook(notebook_path("06-report"), env=env, timeout=240)
    assert (tmp_path / "report" / "tables.xlsx").is_file()
    assert len(list((tmp_path / "report" / "charts").glob("*.png"))) == 8
    with pytest.raises(ReportError, match=r"notebooks is inside the educatalog package"):
        execute_notebook(notebook_path("06-report"), parameters={"out_dir": str(NOTEBOOKS)})


def _fake_kernel(*, fail: bool) -> Callable[..., nbformat.NotebookNode]:
    """Stands in for the kernel: writes what the report notebook writes, then fails or not."""

    def execute(path: Path, *, parameters: dict[str, Any], **_: Any) -> nbformat.NotebookNode:
        out = Path(parameters["out_dir"])
        (out / "charts").mkdir(exist_ok=True)
        (out / "charts" / "supply.png").write_bytes(b"\x89PNG fake")
        (out / "tables.xlsx").write_bytes(b"fake workbook")
        if fail:
            raise ReportError("The notebook 06-report.ipynb failed: ValueError: half-way")
        return nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Report")])

    return execute


def test_a_report_that_fails_part_way_leaves_a_folder_the_next_run_writes_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from educatalog import report

    (tmp_path / "charts").mkdir()
    (tmp_path / "charts" / "mine.png").write_bytes(b"my own chart")
    options: dict[str, Any] = {"url": "http://127.0.0.1:9", "token": TOKEN}

    # The kernel fails after writing a chart and the workbook.
    monkeypatch.setattr(report, "execute_notebook", _fake_kernel(fail=True))
    with pytest.raises(ReportError, match="half-way"):
        report.write_report(tmp_path, **options)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["complete"] is False
    assert manifest["files"]["report.html"] is None
    assert set(manifest["files"]) == {
        "report.html",
        "report.pdf",
        "report.ipynb",
        "tables.xlsx",
        "charts/supply.png",
    }

    # The renderer fails (as nbconvert 7.16.0 with mistune 3.1 did): a message, not a traceback.
    monkeypatch.setattr(report, "execute_notebook", _fake_kernel(fail=False))

    def broken(*_: Any, **__: Any) -> Any:
        raise AttributeError("'MathBlockParser' object has no attribute 'parse_axt_heading'")

    monkeypatch.setattr("nbconvert.HTMLExporter.from_notebook_node", broken)
    with pytest.raises(ReportError, match=r"could not render .* Installed: nbconvert \d"):
        report.write_report(tmp_path, **options)
    assert json.loads((tmp_path / "manifest.json").read_text())["complete"] is False
    assert (tmp_path / "report.ipynb").is_file()

    # The next run writes over what the failed ones left, and never touches my chart.
    monkeypatch.undo()
    monkeypatch.setattr(report, "execute_notebook", _fake_kernel(fail=False))
    page = report.write_report(tmp_path, **options)
    assert "Report" in page.read_text()
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["complete"] is True
    assert set(manifest["files"]) == {
        "report.html",
        "report.pdf",
        "report.ipynb",
        "tables.xlsx",
        "charts/supply.png",
    }
    assert all(manifest["files"].values())
    assert (tmp_path / "charts" / "mine.png").read_bytes() == b"my own chart"
    assert TOKEN not in (tmp_path / "manifest.json").read_text()


def test_report_refuses_an_output_folder_inside_the_package() -> None:
    from educatalog.report import write_report

    with pytest.raises(ReportError, match="inside the educatalog package; reports belong"):
        write_report(NOTEBOOKS / "out", url="http://127.0.0.1:9", token=None)
    assert not (NOTEBOOKS / "out").exists()


def test_a_kernel_that_does_not_start_is_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def slow(*_: Any, **__: Any) -> None:
        raise RuntimeError("Kernel didn't respond in 180 seconds")

    monkeypatch.setattr("nbclient.NotebookClient.execute", slow)
    with pytest.raises(ReportError, match=r"kernel for 01-quickstart\.ipynb did not start in time"):
        execute_notebook(notebook_path("01-quickstart"), cwd=tmp_path)
