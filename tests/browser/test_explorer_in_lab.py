"""The explorer (notebook 05) in JupyterLab, used as a reader uses it: the chart is an image
of the data with its alt text, every control (a state, the measure, a second dimension, the
start range) changes chart and table, the numbers on screen are those of
:mod:`educatalog.stats` on the same filter, and the download link gives a CSV and an Excel
file that hold the table on screen. How long each update took is printed (the target of
two seconds is measured by ``benchmarks/widgets.py --browser``, not asserted here)."""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
import pytest

from browsing import Lab, Recorder, Shown, explorer_table, number, same_table, screen_table
from educatalog import stats

LANG = "de"


@pytest.fixture
def explorer_page(lab: Lab, recorder: Recorder) -> Any:
    page = recorder.page
    lab.open(page, f"{LANG}/05-explorer.ipynb")
    lab.run_all(page)
    page.wait_for_selector(".educatalog-explorer .educatalog-explorer-chart img", timeout=60_000)
    return page


def chart(page: Any) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => {
            const img = document.querySelector('.educatalog-explorer-chart img');
            return {src: img.src, alt: img.alt, width: img.naturalWidth,
                    height: img.naturalHeight, complete: img.complete};
        }"""
        )
    )


def shown(page: Any) -> tuple[list[str], list[tuple[str, list[str]]]]:
    return screen_table(page.locator(".educatalog-explorer .educatalog-explorer-table table"))


def changed(page: Any, action: Callable[[], Any], what: str, alt: str = "") -> float:
    """Do ``action`` and wait until both chart and table show something new (a chart whose
    alt text holds ``alt``); seconds."""
    before_chart, before_table = chart(page)["src"], shown(page)
    started = time.monotonic()
    action()
    deadline = started + 60
    while time.monotonic() < deadline:
        now = chart(page)
        if (
            now["src"] != before_chart
            and now["complete"]
            and alt in now["alt"]
            and shown(page) != before_table
        ):
            seconds = time.monotonic() - started
            print(f"explorer update after {what}: {seconds:.2f} s")
            return seconds
        page.wait_for_timeout(50)
    raise AssertionError(f"chart and table did not change after {what}")


def total_row(page: Any) -> dict[str, Any]:
    """Where the table's total row is: the header above each of its numbers (the one whose
    right edge it shares), whether the table scrolls in its box, and whether the row is
    in view there."""
    return dict(
        page.evaluate(
            """() => {
            const box = document.querySelector('.educatalog-explorer .educatalog-table-box');
            const heads = [...box.querySelectorAll('thead tr:last-child th')];
            const row = box.querySelector('tfoot tr');
            const inner = (el) => el.getBoundingClientRect();
            const under = [...row.querySelectorAll('td')].map((td) => {
                const head = heads.find((h) => Math.abs(inner(h).right - inner(td).right) < 2);
                return head ? head.textContent : null;
            });
            const b = inner(box);
            const inView = [...row.children].every((cell) => {  // the cells stick, not the row
                const r = inner(cell);
                return r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
            });
            return {under, heads: heads.map((h) => h.textContent),
                    scrolls: box.scrollHeight > box.clientHeight + 1, inView};
        }"""
        )
    )


def settled(page: Any, expected: Shown) -> None:
    """Wait (bounded) until the table on screen is ``expected``, then compare it row by row
    and cell by cell (:func:`browsing.same_table` names the first difference)."""
    deadline = time.monotonic() + 60
    while shown(page) != expected and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    same_table(shown(page), expected)


def test_the_explorer_renders_its_chart_with_alt_text(
    explorer_page: Any, recorder: Recorder, lab: Lab, offers: pd.DataFrame
) -> None:
    page = explorer_page
    image = chart(page)
    assert image["width"] > 300, image
    assert image["height"] > 100, image
    assert "Veranstaltungen nach Bundesland" in image["alt"]
    assert "Failed to create view" not in page.locator(".jp-Notebook").inner_text()
    headers, rows = shown(page)
    assert headers[0] == "Veranstaltungen"
    same_table((headers, rows), explorer_table(offers, "state", "events", LANG))
    assert number(rows[-1][1][0], LANG) == len(offers)
    # The total stands under its column (the table by state has two row labels: the key
    # and the name), and stays in view where the table scrolls in its box.
    where = total_row(page)
    assert where["under"] == where["heads"][-len(where["under"]) :], where
    assert where["under"][0] == "Veranstaltungen", where
    assert where["scrolls"], where  # 17 rows: taller than the box in JupyterLab
    assert where["inView"], where
    page.locator(".educatalog-explorer").screenshot(path=str(lab.screenshots / "explorer.png"))
    box = page.locator(".educatalog-explorer .educatalog-table-box")
    box.screenshot(path=str(lab.screenshots / "explorer-table.png"))
    assert not recorder.console_errors(ignore=(r"favicon",)), recorder.console
    assert not recorder.outside


def test_the_explorer_follows_every_control(
    explorer_page: Any, offers: pd.DataFrame, lab: Lab
) -> None:
    page = explorer_page
    root = page.locator(".educatalog-explorer")
    seconds = {}

    # A state: the table counts Bavaria's events, as stats.supply does on the same filter.
    states = root.locator(".educatalog-explorer-states select")
    seconds["state"] = changed(page, lambda: states.select_option(label="Bayern"), "a state")
    bayern = stats.select(offers, state=["Bayern"])
    same_table(shown(page), explorer_table(bayern, "state", "events", LANG))

    # The measure: courses.
    courses = root.locator(".educatalog-explorer-measure button", has_text="Kurse")
    seconds["measure"] = changed(page, courses.click, "the measure")
    same_table(shown(page), explorer_table(bayern, "state", "courses", LANG))

    # A second dimension: courses by duration class and instruction form, a crosstab.
    every = root.locator(".educatalog-explorer-states select")
    changed(page, lambda: every.select_option([]), "all states again")
    by2 = root.locator(".educatalog-explorer-by2 select")
    seconds["second dimension"] = changed(
        page,
        lambda: (
            root.locator(".educatalog-explorer-by select").select_option(label="Dauer"),
            by2.select_option(label="Lernform"),
        ),
        "a second dimension",
        alt="Kurse nach Dauer und Lernform",
    )
    expected = explorer_table(
        offers, "duration_class", "courses", LANG, by2="instruction_form_category"
    )
    same_table(shown(page), expected)
    assert len(expected[1]) >= 8

    # The start range: the first month moves on by three (the slider's keys).
    events = root.locator(".educatalog-explorer-measure button", has_text="Veranstaltungen")
    changed(
        page,
        lambda: (by2.select_option(label="—"), events.click()),
        "one dimension again",
        alt="Veranstaltungen nach Dauer",
    )
    handle = root.locator(".educatalog-explorer-start .noUi-handle").first

    def later_start() -> None:
        for _ in range(3):
            handle.press("ArrowRight")

    seconds["start range"] = changed(page, later_start, "the start range")
    months = offers["event_start_date"].dt.to_period("M")
    first = months.min() + 3
    kept = stats.select(offers, start=first.start_time.date())
    # three presses may be two updates on a busy machine (the debounce): the last one counts
    settled(page, explorer_table(kept, "duration_class", "events", LANG))
    print("explorer updates (s):", {k: round(v, 2) for k, v in seconds.items()})
    page.locator(".educatalog-explorer").screenshot(
        path=str(lab.screenshots / "explorer-changed.png")
    )


def download(page: Any, tmp_path: Path) -> Path:
    link = page.locator(".educatalog-explorer .educatalog-explorer-download a[download]")
    with page.expect_download() as started:
        link.click()
    saved = tmp_path / started.value.suggested_filename
    started.value.save_as(saved)
    return saved


def test_the_download_link_gives_the_table_on_screen(
    explorer_page: Any, tmp_path: Path, offers: pd.DataFrame
) -> None:
    page = explorer_page
    page.locator(".educatalog-explorer .educatalog-explorer-states select").select_option(
        label=["Bayern", "Sachsen"]
    )
    page.wait_for_function(
        "() => document.querySelector('.educatalog-explorer .educatalog-explorer-status')"
        ".textContent.includes('Bayern, Sachsen')"
    )
    two = stats.select(offers, state=["Bayern", "Sachsen"])
    settled(page, explorer_table(two, "state", "events", LANG))
    headers, rows = shown(page)

    csv = download(page, tmp_path)
    assert csv.suffix == ".csv"
    lines = csv.read_bytes().decode("utf-8-sig").splitlines()
    assert lines[0] == "Veranstaltungen nach Bundesland – SYNTHETISCHE DEMODATEN"  # as on a sheet
    assert "Filter: Bayern, Sachsen" in lines[len(rows) + 2 :]  # what the rows counted
    frame = pd.read_csv(
        io.BytesIO(csv.read_bytes()),
        sep=";",
        decimal=",",
        encoding="utf-8-sig",
        skiprows=1,
        nrows=len(rows),
    )
    # the file's shares are numbers in percent: their header says so
    assert [c.removesuffix(" (%)") for c in frame.columns[-len(headers) :]] == headers
    labels = frame.iloc[:, frame.columns.get_loc(headers[0]) - 1].astype(str).tolist()
    assert labels == [label for label, _ in rows]  # the total row too
    events = frame[headers[0]].tolist()
    assert events == [number(cells[0], LANG) for _, cells in rows]

    page.locator(
        ".educatalog-explorer .educatalog-explorer-format button", has_text="Excel"
    ).click()
    page.wait_for_function(
        "() => document.querySelector('.educatalog-explorer .educatalog-explorer-download a')"
        ".download.endsWith('.xlsx')"
    )
    xlsx = download(page, tmp_path)
    book = openpyxl.load_workbook(xlsx)
    sheet = book.worksheets[-1]
    values = [list(row) for row in sheet.iter_rows(values_only=True) if any(row)]
    header_row = next(i for i, row in enumerate(values) if headers[0] in row)
    first = values[header_row].index(headers[0])
    assert [str(c) for c in values[header_row][first:] if c is not None] == headers
    for (label, cells), row in zip(rows, values[header_row + 1 :], strict=False):
        assert row[first - 1] == label
        assert row[first] == number(cells[0], LANG)
