"""Each of the eight notebooks, in German or in English, opened in JupyterLab and run with
Run > Run All Cells as a user runs it: no error output, nothing on stderr (warnings
included), no widget that fails to render, no error in the browser's console, no request
to another host; prose, tables and charts in the notebook's language; every chart an image
with its alt text. A screenshot of each lands in build/screenshots/."""

from __future__ import annotations

import re
from typing import Any

import pytest

import languages
from browsing import (
    Lab,
    Recorder,
    district_list,
    outputs_with_problems,
    same_table,
    screen_rows,
    screen_table,
    table_text,
)
from educatalog import stats, texts
from educatalog.files.workspace import NOTEBOOKS
from languages import foreign

NAMES = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))

ENGLISH_IN_LAB = {
    "02-supply-by-state",
    "03-instruction-forms-and-durations",
    "04-costs-funding-and-access",
    "07-trends",
    "08-districts",
}
LAB_RUNS = [(name, "en" if name in ENGLISH_IN_LAB else "de") for name in NAMES]
"""Each notebook runs in JupyterLab in one language, German or English; it runs in both in
a kernel (the documentation's gallery, read by ``tests/product/test_notebooks.py``:
``KERNEL_RUNS``), whose outputs are read for the same words. One run in JupyterLab a
notebook costs half a minute to two minutes."""

READER_TEXT = """() => {
    // What a reader reads: the rendered prose (without code spans and blocks), the tables
    // for readers and the charts' alt texts; not the code, not raw data frames.
    const parts = [];
    for (const cell of document.querySelectorAll('.jp-MarkdownCell .jp-RenderedMarkdown')) {
        const copy = cell.cloneNode(true);
        copy.querySelectorAll('code, pre').forEach(e => e.remove());
        parts.push(copy.textContent);
    }
    for (const table of document.querySelectorAll('table.educatalog-table')) {
        const cells = table.querySelectorAll('caption, th, td');
        parts.push([...cells].map(c => c.textContent).join(' | '));
    }
    for (const img of document.querySelectorAll('.jp-OutputArea img')) {
        parts.push(img.alt || '');
    }
    return parts.join('\\n');
}"""

CHARTS = """() => [...document.querySelectorAll('.jp-OutputArea img')].map(img => ({
    width: img.naturalWidth, height: img.naturalHeight, alt: img.alt || ''
}))"""

WIDE_TABLES = """() => [...document.querySelectorAll('table.educatalog-table')].map(table => {
    const area = table.closest('.jp-OutputArea-output');
    return {caption: (table.querySelector('caption, thead') || table).textContent.slice(0, 80),
            width: area.scrollWidth, room: area.clientWidth};
}).filter(t => t.width > t.room + 1)"""

# JupyterLab's own console errors that say nothing about the notebook.
BENIGN = (r"favicon", r"/api/workspaces", r"lsp", r"/lab/api/translations")


@pytest.fixture(scope="module")
def proper_names(service: Any) -> list[str]:
    with service.client() as client:
        return languages.proper_names(client)


def titled(page: Any, title: str) -> Any:
    """The table for readers on the page whose caption is ``title``."""
    caption = page.locator("caption", has_text=re.compile(f"^{re.escape(title)}$"))
    return page.locator("table.educatalog-table", has=caption)


def district_tables_hold_per_capita(page: Any, offers: Any, lang: str) -> None:
    """The report's section by district as the notebook shows it: both lists of ten, every
    cell (key and name too), and the table of every district with the states' subtotals,
    row by row, as stats.per_capita over the same offers gives them."""
    for fewest in (False, True):
        key = f"report.table.districts_{'fewest' if fewest else 'most'}"
        shown = screen_rows(titled(page, texts.text(key, lang, n=10)))
        assert shown == district_list(offers, lang, fewest=fewest), key
    rates = stats.per_capita(offers, by="district", subtotals=True, margins=True)
    caption = texts.text("report.table.districts", lang)  # collapsed: opened, as a reader does
    page.locator("details", has=titled(page, caption)).locator("summary").click()
    every = screen_table(titled(page, texts.text("report.table.districts", lang)))
    same_table(every, table_text(rates, lang))


@pytest.mark.parametrize(("name", "lang"), LAB_RUNS)
def test_notebook_runs_in_jupyterlab(
    lab: Lab,
    recorder: Recorder,
    proper_names: list[str],
    offers: Any,
    name: str,
    lang: str,
) -> None:
    page = recorder.page
    lab.open(page, f"{lang}/{name}.ipynb")
    seconds = lab.run_all(page)
    shot = lab.screenshot(page, f"lab-{lang}-{name}")
    where = f"{name} ({lang}, {seconds:.1f} s; screenshot {shot}; JupyterLab log {lab.log})"

    problems = outputs_with_problems(page)
    not_run = lab.cells_not_run(page)
    assert not not_run, f"{where}: code cells {not_run} did not run; outputs: {problems}"
    assert not problems, f"{where}: outputs with problems:\n" + "\n---\n".join(problems)
    errors = recorder.console_errors(ignore=BENIGN)
    assert not errors, f"{where}: errors in the browser's console:\n" + "\n".join(errors)
    assert not recorder.outside, f"{where}: requests to other hosts: {recorder.outside}"

    charts: list[dict[str, Any]] = page.evaluate(CHARTS)
    for chart in charts:
        assert chart["width"] > 0, f"{where}: an empty image"
        assert chart["height"] > 0, f"{where}: an empty image"
        assert len(chart["alt"]) > 20, f"{where}: a chart without alt text: {chart}"
    if name not in ("06-report",):  # the report notebook's charts are files and outputs
        assert charts, f"{where}: no chart"

    if name == "06-report":  # its tables hold the statistics of the offers it read
        district_tables_hold_per_capita(page, offers, lang)
    else:  # the report's tables are the report's
        # At 1,400 pixels with the file browser open, no table is cut off at the right.
        wide = page.evaluate(WIDE_TABLES)
        assert not wide, f"{where}: tables wider than their output area: {wide}"

    text = page.evaluate(READER_TEXT)
    assert text.strip(), f"{where}: nothing for readers"
    text = languages.without(text, proper_names)
    assert not foreign(text, lang), f"{where}: words of the other language: {foreign(text, lang)}"
