"""The report's page as a reader meets it: its tables and charts numbered in the order of the
page ("Tabelle 1", "Abbildung 1" / "Table 1", "Figure 1"), and its print view, the page laid
out for A4 (:mod:`educatalog.files.pdf` prints it).

>>> charts = chart_outputs(nb)        # doctest: +SKIP
>>> number(soup, charts, "de")        # doctest: +SKIP
>>> print_view(html, charts, title="Bericht zum Kursangebot", stand="29.11.2026", lang="de")
... # doctest: +SKIP

A table's number is the ``data-number`` of its caption, shown before the caption's text by the
page's style, so that the caption's text stays the table's title (as in the workbook and the
data package); a chart becomes a ``figure`` whose ``figcaption`` is its title, numbered so too.
The numbers are counted over the whole page, a chart's table collapsed under it included.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping
from typing import Any

from educatalog import texts

__all__ = ["chart_outputs", "number", "print_view"]

_NUMBERS_STYLE = (
    "caption[data-number]::before,figcaption[data-number]::before"
    '{content:attr(data-number) ": "}'
    "figure.educatalog-figure{margin:0.4em 0 0.8em}"
    "figure.educatalog-figure figcaption{font-weight:bold;padding:0 0 0.3em;color:#1a1a1a}"
)


def chart_outputs(nb: Any) -> dict[str, dict[str, str]]:
    """The notebook's charts by their PNG (base64, as on the page): their title, text
    alternative and SVG, where the output carries them (``display_chart`` of
    :mod:`educatalog.plots.display`)."""
    found = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "image/png" not in data:
                continue
            meta = output.get("metadata", {}) or {}
            about = {**(meta.get("image/png") or {}), **(meta.get("image/svg+xml") or {})}
            chart = {k: str(v) for k, v in about.items() if k in ("alt", "title")}
            if "image/svg+xml" in data:
                svg = data["image/svg+xml"]
                chart["svg"] = "".join(svg) if isinstance(svg, list) else str(svg)
            found[str(data["image/png"]).replace("\n", "")] = chart
    return found


def _png(image: Any) -> str:
    return str(image.get("src", "")).removeprefix("data:image/png;base64,")


def number(soup: Any, charts: Mapping[str, Mapping[str, str]], lang: str) -> None:
    """Number the tables (their captions) and the charts of ``charts`` (each put in a
    ``figure`` with its title as ``figcaption``) of the page ``soup`` in their order."""
    tables = figures = 0
    for element in soup.find_all(["caption", "img"]):
        if element.name == "caption":
            tables += 1
            element["data-number"] = texts.text("report.number.table", lang, n=tables)
            continue
        chart = charts.get(_png(element))
        if chart is None:
            continue
        figures += 1
        figure = soup.new_tag("figure", attrs={"class": "educatalog-figure"})
        caption = soup.new_tag("figcaption")
        caption["data-number"] = texts.text("report.number.figure", lang, n=figures)
        caption.string = chart.get("title", "")
        element.wrap(figure)
        figure.insert(0, caption)
    if soup.head is not None:
        style = soup.new_tag("style", attrs={"class": "educatalog-numbers"})
        style.string = _NUMBERS_STYLE
        soup.head.append(style)


def _css_counters(template: str) -> str:
    """A text with ``{page}`` and ``{pages}`` as the CSS content that counts them."""
    parts = re.split(r"\{(pages?)\}", template)
    return " ".join(
        f"counter({part})" if n % 2 else _css_string(part) for n, part in enumerate(parts) if part
    )


def _css_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def print_view(
    page: str, charts: Mapping[str, Mapping[str, str]], *, title: str, stand: str, lang: str
) -> str:
    """The page ``page`` laid out for print on A4: a running head with ``title`` and the
    data's date ``stand``, page numbers ("Seite 3 von 20"), every chart's table shown, the
    charts as SVG where ``charts`` has it, tables that repeat their header on each page and
    do not break inside a row, no JupyterLab styles, no scripts."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page, features="html.parser")
    for tag in soup.find_all(["script", "link"]):
        tag.decompose()
    if soup.head is not None:  # JupyterLab's styles: the print view has its own
        for style in soup.head.find_all("style"):
            if "educatalog-numbers" not in str(style.get("class") or ""):
                style.decompose()
    for anchor in soup.select("a.anchor-link"):  # nbconvert's "¶": not in the bookmarks
        anchor.decompose()
    for details in soup.find_all("details"):
        details["open"] = ""
    for figure in soup.select("figure.educatalog-figure"):  # one Figure tag: the image's
        figure.name = "div"
        if (caption := figure.find("figcaption")) is not None:
            caption.name = "p"
            caption["class"] = "educatalog-figcaption"
    for image in soup.find_all("img"):
        svg = charts.get(_png(image), {}).get("svg")
        if svg:
            encoded = base64.b64encode(svg.encode("utf-8")).decode("ascii")
            image["src"] = f"data:image/svg+xml;base64,{encoded}"
    head = texts.text("report.pdf.head", lang, title=title, stand=stand)
    style = soup.new_tag("style")
    style.string = _PRINT_STYLE.replace("HEAD", _css_string(head)).replace(
        "PAGES", _css_counters(texts.text("report.pdf.pages", lang))
    )
    if soup.head is not None:
        soup.head.append(style)
    return str(soup)


# A4 with a running head (title and Stand) and the page number in the page's margin boxes
# (CSS Paged Media, Chromium 131 and newer); the charts no wider than the text and no
# taller than a page; a table's header repeated on every page it spans, no row split.
_PRINT_STYLE = """
@page { size: A4; margin: 20mm 16mm 18mm 16mm;
  @top-left { content: HEAD; font: 7.5pt sans-serif; color: #444; }
  @bottom-center { content: PAGES; font: 7.5pt sans-serif; color: #444; }
}
html, body { background: #fff; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 9.5pt;
  line-height: 1.35; color: #1a1a1a; margin: 0; }
h1 { font-size: 18pt; font-weight: normal; margin: 0 0 6pt; }
h2 { font-size: 13pt; font-weight: normal; margin: 14pt 0 4pt; break-after: avoid; }
p { margin: 3pt 0 5pt; }
details > summary { font-weight: bold; font-size: 8.5pt; list-style: none; }
details > summary::marker, details > summary::-webkit-details-marker { display: none; }
table.educatalog-table { font-size: 7.5pt; break-inside: auto; }
table.educatalog-table caption { break-after: avoid; }
table.educatalog-table thead { display: table-header-group; }
table.educatalog-table tr { break-inside: avoid; }
.educatalog-note { font-size: 8pt; }
div.educatalog-figure { break-inside: avoid; margin: 4pt 0 8pt; }
p.educatalog-figcaption { font-weight: bold; margin: 0 0 3pt; }
p.educatalog-figcaption::before { content: attr(data-number) ": "; }
img { display: block; max-width: 100%; max-height: 225mm; height: auto; }
"""
