"""The report's PDF, its data package and its methodological notes.

One real run of `educatalog report` (German, narrowed to Bavaria) against a reference server
on loopback: its PDF's pages rendered as PNG and their text read by pypdfium2, the numbers of
every table of the page found in the PDF in their order, its bookmarks and tags read by
pypdf; the CSV files of ``data/`` against their Table Schemas (checked by hand against the
Data Package and Table Schema specifications: the frictionless library weighs 86 MB in 43
packages) and against the page. The pieces each on their own: a small page printed, two small
tables packaged, the notes in both languages.
"""

from __future__ import annotations

import base64
import csv
import datetime as dt
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import nbformat
import pandas as pd
import pytest
from bs4 import BeautifulSoup
from PIL import Image

from educatalog import report, tables, texts
from educatalog._version import __version__
from educatalog.errors import MissingDependency
from educatalog.files import report_page
from educatalog.files.pdf import chromium, write_pdf
from educatalog.frames.provenance import Source
from educatalog.tables.datapackage import MISSING_VALUES, write_datapackage
from educatalog.testing import serve
from educatalog.texts.method_words import method_notes
from needs import missing_tool
from reports import report_command

pypdf = pytest.importorskip("pypdf")
pdfium = pytest.importorskip("pypdfium2")

TOKEN = "pdf-report-token"
A4 = (595.3, 841.9)  # points
NUMBER = re.compile(r"\d[\d.,]*\d|\d")


def _need_chromium() -> None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing_tool("needs Playwright (the pdf extra)")
    if chromium() is None:
        missing_tool("needs Debian's chromium")


@pytest.fixture(scope="module")
def bavaria(catalogue_database: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of one real report on Bavaria, in German."""
    _need_chromium()
    out = tmp_path_factory.mktemp("bavaria")
    with serve(database=catalogue_database, token=TOKEN) as running:
        done = report_command(running.url, out, "--state", "Bayern", token=TOKEN, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "report.pdf not written" not in done.stdout
    return out


def _soup(out: Path) -> BeautifulSoup:
    return BeautifulSoup((out / "report.html").read_text(encoding="utf-8"), "html.parser")


def _pages(path: Path) -> list[str]:
    document = pdfium.PdfDocument(str(path))
    return [page.get_textpage().get_text_range() for page in document]


def _numbers(text: str) -> list[str]:
    return NUMBER.findall(text)


def _titles(outline: list[Any]) -> list[str]:
    """The bookmarks' titles, nested ones after their parent."""
    return [
        t for item in outline for t in (_titles(item) if isinstance(item, list) else [item.title])
    ]


def _in_order(wanted: list[str], found: list[str]) -> tuple[int, list[str]]:
    """How many of ``wanted`` appear in ``found`` in their order; the next ones missing."""
    position = 0
    for n, token in enumerate(wanted):
        try:
            position = found.index(token, position) + 1
        except ValueError:
            return n, wanted[n : n + 8]
    return len(wanted), []


def test_the_pdf_is_a4_with_running_head_page_numbers_and_the_pages_numbers(
    bavaria: Path, tmp_path: Path
) -> None:
    pages = _pages(bavaria / "report.pdf")
    document = pdfium.PdfDocument(str(bavaria / "report.pdf"))
    stand = texts.date(dt.date.today(), "de")
    assert len(pages) >= 8
    for n, (page, text) in enumerate(zip(document, pages, strict=True), start=1):
        assert page.get_size() == pytest.approx(A4, abs=1)
        assert f"Bericht zum Kursangebot · Stand: {stand}" in text, n
        assert f"Seite {n} von {len(pages)}" in text
        image = page.render(scale=1).to_pil()  # the page as PNG, as a reader sees it
        image.save(tmp_path / f"page-{n}.png")
        assert len(image.convert("L").getcolors(256) or []) > 2, f"page {n} is blank"
    # Every number of every table on the page, a chart's collapsed table too, in its order:
    # none cut off at the right edge or lost at a page break.
    cells = [
        c.get_text(" ", strip=True) for c in _soup(bavaria).select("table.educatalog-table td")
    ]
    wanted = [token for cell in cells for token in _numbers(cell)]
    found = _numbers("\n".join(pages))
    count, missing = _in_order(wanted, found)
    assert count == len(wanted), f"{count} of {len(wanted)} numbers in order; then {missing}"
    assert len(wanted) > 500


def test_the_pdf_has_bookmarks_tags_and_the_charts_alt_texts_and_draws_them_as_vectors(
    bavaria: Path,
) -> None:
    soup = _soup(bavaria)
    reader = pypdf.PdfReader(bavaria / "report.pdf")
    headings = [h.get_text(strip=True).rstrip("¶") for h in soup.find_all(["h1", "h2"])]
    assert _titles(reader.outline) == headings
    assert headings[-1] == "Methodische Hinweise"
    root = reader.trailer["/Root"]
    assert bool(root["/MarkInfo"]["/Marked"])
    assert root["/Lang"] == "de"
    figures: list[str] = []
    kinds: set[str] = set()

    def walk(element: Any) -> None:
        element = element.get_object()
        if isinstance(element, dict):
            kind = element.get("/S")
            kinds.add(str(kind))
            if kind == "/Figure":
                figures.append(str(element.get("/Alt", "")))
            children = element.get("/K")
            for child in children if isinstance(children, list) else [children]:
                if child is not None and not isinstance(child, int):
                    walk(child)

    walk(root["/StructTreeRoot"])
    alts = [str(img["alt"]) for img in soup.find_all("img")]
    assert figures == alts  # one Figure per chart, each with the chart's text alternative
    assert len(alts) == 8
    assert {"/H1", "/H2", "/Table", "/TH", "/TD", "/Caption"} <= kinds
    # The charts are SVG, sharp at any zoom: none of the page's PNGs is in the PDF (a chart's
    # SVG may hold a raster of its own, such as a heatmap's cells, drawn by matplotlib).
    pngs = {
        Image.open(io.BytesIO(base64.b64decode(str(img["src"]).partition(",")[2]))).size
        for img in soup.find_all("img")
    }
    document = pdfium.PdfDocument(str(bavaria / "report.pdf"))
    images = [
        tuple(obj.get_px_size())
        for page in document
        for obj in page.get_objects()
        if obj.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE
    ]
    assert len(pngs) == 8
    assert not pngs & set(images)


def test_tables_and_figures_are_numbered_and_the_notes_say_how_to_cite(bavaria: Path) -> None:
    soup = _soup(bavaria)
    captions = soup.select("table.educatalog-table caption")
    assert [c["data-number"] for c in captions] == [
        f"Tabelle {n}" for n in range(1, 1 + len(captions))
    ]
    figures = soup.select("figure.educatalog-figure figcaption")
    assert [f["data-number"] for f in figures] == [f"Abbildung {n}" for n in range(1, 9)]
    assert figures[0].get_text() == "Veranstaltungen nach Bundesland"
    text = " ".join(_pages(bavaria / "report.pdf"))
    assert "Tabelle 1: Angebot nach Bundesland" in " ".join(text.split())
    methods = next(h for h in soup.find_all("h2") if "Methodische Hinweise" in h.get_text())
    notes = " ".join(p.get_text(" ", strip=True) for p in methods.find_all_next("p"))
    stand = texts.date(dt.date.today(), "de")
    assert "weniger als 3 Kursen" in notes
    assert "Zensus 2022 (Tabelle 12411-0010), Stand 31.12.2024" in notes
    citation = re.search(r"Zitiervorschlag: (.*)", notes)
    assert citation is not None
    assert f"Stand der Daten {stand}" in citation.group(1)
    assert f"educatalog {__version__}" in citation.group(1)


def test_every_table_is_a_csv_of_the_data_package_with_its_schema(bavaria: Path) -> None:
    data = bavaria / "data"
    package = json.loads((data / "datapackage.json").read_text(encoding="utf-8"))
    assert package["profile"] == "tabular-data-package"
    assert re.fullmatch(r"[a-z0-9._-]+", package["name"])
    assert package["educatalog"]["stand"] == dt.date.today().isoformat()
    assert package["licenses"][0]["name"] == "other-open"  # the synthetic demo, marked
    assert package["description"] == "Auswahl: Bundesländer: Bayern."
    soup = _soup(bavaria)
    page = soup.select("table.educatalog-table")
    assert len(package["resources"]) == len(page)
    manifest = report.verify(bavaria)
    for resource, table in zip(package["resources"], page, strict=True):
        caption = table.find("caption")
        assert resource["title"] == f"{caption['data-number']}: {caption.get_text(strip=True)}"
        _check_resource(resource, data)
        with (data / resource["path"]).open(encoding="utf-8", newline="") as handle:
            rows = list(csv.reader(handle))
        fields = resource["schema"]["fields"]
        assert rows[0] == [f["name"] for f in fields]
        shown = [
            [c.get_text(strip=True) for c in r.find_all(["th", "td"])]
            for r in table.select("tbody tr")
        ]
        assert len(rows) - 1 == len(shown)
        for line, cells in zip(rows[1:], shown, strict=True):
            for value, field, cell in zip(line, fields, cells, strict=True):
                if field["type"] == "integer" and value not in MISSING_VALUES:
                    number = int(value)  # an exact 0 is "–" on the page, 0 in the file
                    shown_as = "–" if number == 0 else texts.number(number, "de")
                    assert shown_as == cell, resource["name"]
                elif field["type"] == "string" and not re.fullmatch(r"[\d-]*", value):
                    assert value == cell  # a label as on the page (a month: ISO, 2025-01)
        assert f"data/{resource['path']}" in manifest["files"]
    licences = {r["name"]: r.get("licenses", []) for r in package["resources"]}
    assert {"name": "dl-de-by-2.0"}.items() <= licences["02-je-100-000-einwohner"][0].items()
    assert "data/datapackage.json" in manifest["files"]
    assert manifest["files"]["report.pdf"] is not None


_TYPES = {"string", "number", "integer", "boolean", "date", "datetime", "year", "yearmonth"}


def _check_resource(resource: dict[str, Any], folder: Path) -> None:
    """A tabular data resource as the Data Package and Table Schema specs v1 ask."""
    assert re.fullmatch(r"[a-z0-9._/-]+", resource["name"])
    assert (folder / resource["path"]).is_file()
    assert resource["profile"] == "tabular-data-resource"
    assert resource["encoding"] == "utf-8"
    assert resource["format"] == "csv"
    schema = resource["schema"]
    names = [f["name"] for f in schema["fields"]]
    assert len(set(names)) == len(names)
    assert all(f["type"] in _TYPES for f in schema["fields"])
    assert all(isinstance(v, str) for v in schema["missingValues"])
    for licence in resource.get("licenses", []):
        assert "name" in licence or "path" in licence
    assert all("title" in s for s in resource["sources"])


def test_a_small_page_prints_with_its_header_on_every_page_and_rows_whole(
    tmp_path: Path,
) -> None:
    _need_chromium()
    rows = "".join(
        f"<tr><th scope='row'>Zeile {n}</th><td>{n * 7}</td>"
        f"<td>Wort {n} {'lang ' * (n % 9)}</td></tr>"
        for n in range(1, 121)
    )
    svg = (
        "<svg xmlns='http://www.w3.org/2000/svg' width='400' height='100'>"
        "<rect width='400' height='100' fill='#336699'/></svg>"
    )
    page = (
        "<html lang='de'><head><title>Kleiner Bericht</title></head><body><h1>Kleiner Bericht</h1>"
        "<h2>Eine Tabelle</h2><table class='educatalog-table'><caption>Zahlen</caption>"
        "<thead><tr><th>Zeile</th><th>Wert</th><th>Text</th></tr></thead>"
        f"<tbody>{rows}</tbody></table><h2>Ein Bild</h2><img src='data:image/png;base64,AAAA' "
        "alt='Ein blaues Rechteck'></body></html>"
    )
    charts = {"AAAA": {"alt": "Ein blaues Rechteck", "title": "Rechteck", "svg": svg}}
    view = report_page.print_view(
        page, charts, title="Kleiner Bericht", stand="01.01.2026", lang="de"
    )
    path = write_pdf(view, tmp_path / "small.pdf")
    pages = _pages(path)
    assert len(pages) >= 2
    for n, text in enumerate(pages, start=1):
        assert "Kleiner Bericht · Stand: 01.01.2026" in text
        assert f"Seite {n} von {len(pages)}" in text
    for text in pages[1:]:
        if "Zeile " in text:
            assert "Zeile Wert Text" in text  # the header again
    for n in range(1, 121):  # every row on one page
        assert sum(f"Zeile {n} {n * 7} Wort {n}" in " ".join(t.split()) for t in pages) == 1, n
    reader = pypdf.PdfReader(path)
    assert _titles(reader.outline) == ["Kleiner Bericht", "Eine Tabelle", "Ein Bild"]


def test_without_playwright_the_report_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "playwright", None)
    with pytest.raises(MissingDependency, match=r"pip install 'educatalog\[pdf\]'$") as raised:
        write_pdf("<html></html>", tmp_path / "x.pdf")
    assert "\n" not in str(raised.value)
    said: list[str] = []
    page = "<html lang='de'><body><h1>B</h1></body></html>"
    nb = nbformat.v4.new_notebook()
    report._print_pdf(tmp_path, nb, page, "de", "01.01.2026", said.append)  # as the command
    assert said == [
        "Note: no report.pdf: report.pdf needs playwright, which the extra 'pdf' installs: "
        "pip install 'educatalog[pdf]'. report.html has everything."
    ]
    assert not (tmp_path / "report.pdf").exists()


def test_two_small_tables_make_a_data_package(tmp_path: Path) -> None:
    source = Source(
        url="https://kurse.example.org/api",
        demo=False,
        fetched_at=dt.datetime(2026, 3, 1, tzinfo=dt.UTC),
    )
    counts = pd.DataFrame(
        {"events": [3, 0, 5], "share": [0.375, 0.0, 0.625], "capacity": [12, 0, pd.NA]},
        index=pd.Index(["Bayern", "Berlin", "All"], name="state"),
    ).astype({"capacity": "Int64"})
    counts.attrs["margins"] = "All"
    counts.attrs["not_meaningful"] = {"cells": [("Berlin", "share")], "why": "flows"}
    by_day = pd.DataFrame(
        {"events": [1, 2]}, index=pd.Index([dt.date(2026, 1, 1), dt.date(2026, 2, 1)], name="day")
    )
    shown = [
        tables.present(counts, "en", title="By state", source=source),
        tables.present(by_day, "en", title="By day", source=source),
    ]
    path = write_datapackage(
        tmp_path / "data",
        shown,
        lang="en",
        title="Tables",
        source=source,
        filters=["states: Bayern"],
    )
    package = json.loads(path.read_text(encoding="utf-8"))
    assert [r["path"] for r in package["resources"]] == ["01-by-state.csv", "02-by-day.csv"]
    assert package["sources"] == [
        {"title": source.text("en"), "path": "https://kurse.example.org/api"}
    ]
    assert package["licenses"] == []  # a service's data: its licence is the service's
    first = (tmp_path / "data" / "01-by-state.csv").read_text(encoding="utf-8").splitlines()
    assert first == [  # numbers as numbers, shares as fractions, an exact 0 as 0, symbols
        "Key,State,Events,Share of events,Places (where stated)",
        "09,Bavaria,3,0.375,12",
        "11,Berlin,0,x,0",
        ",Total,5,0.625,.",
    ]
    fields = package["resources"][0]["schema"]["fields"]
    assert [f["type"] for f in fields] == ["string", "string", "integer", "number", "integer"]
    assert package["resources"][0]["schema"]["missingValues"] == ["", ".", "/", "x"]
    second = package["resources"][1]
    assert [f["type"] for f in second["schema"]["fields"]] == ["date", "integer"]
    assert (tmp_path / "data" / "02-by-day.csv").read_text().splitlines()[1] == "2026-01-01,1"
    for resource in package["resources"]:
        _check_resource(resource, tmp_path / "data")
    # The same tables of the synthetic demo catalogue: the package says so.
    demo = write_datapackage(
        tmp_path / "demo", shown, lang="en", title="T", source=Source(demo=True)
    )
    marked = json.loads(demo.read_text(encoding="utf-8"))
    assert [licence["name"] for licence in marked["licenses"]] == ["other-open"]
    assert marked["educatalog"]["demo"] is True


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_methodological_notes_speak_both_languages(lang: str) -> None:
    notes = method_notes(
        title=texts.text("report.title", lang),
        source="the source",
        stand="01.01.2026",
        created="02.01.2026",
        population="the figures",
        min_cases=17,
    )
    words = [texts.text(key, lang, **fields) for key, fields in notes]
    assert len(words) == 8
    assert "** The source. " in words[0]  # the source starts a sentence
    assert sum("17" in w for w in words) == 1  # the small-cell rule, with its threshold
    assert __version__ in words[-1]
    assert "01.01.2026" in words[-1]
    start = "**Zitiervorschlag:**" if lang == "de" else "**Suggested citation:**"
    assert words[-1].startswith(start)
    other = "en" if lang == "de" else "de"
    assert not set(words) & {texts.text(k, other, **f) for k, f in notes}
