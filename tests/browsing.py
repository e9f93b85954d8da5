"""Helpers of the browser tests (``tests/browser``): a page whose console, errors and
requests are recorded, JupyterLab's notebooks run as a user runs them, and what a page shows
read back as numbers."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pandas as pd

from educatalog import stats, tables, texts

__all__ = [
    "Lab",
    "Recorder",
    "Shown",
    "district_list",
    "explorer_table",
    "number",
    "same_table",
    "screen_rows",
    "screen_table",
    "table_text",
]

WIDGET_ERRORS = (
    "Failed to create view",
    "Error displaying widget",
    "Click to show javascript error",
    "Model not found",
    "Could not create a model",
)
"""What ipywidgets writes where a widget fails to render."""

LOCAL_SCHEMES = ("data:", "blob:", "about:", "chrome-extension:")


@dataclass
class Recorder:
    """A browser context with one page; everything the page says or asks is kept."""

    context: Any
    console: list[tuple[str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.page = self.new_page()

    def new_page(self) -> Any:
        page = self.context.new_page()
        page.on("console", lambda m: self.console.append((m.type, m.text)))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("requestfailed", lambda r: self.failed.append(f"{r.url} ({r.failure})"))
        page.on("request", self._request)
        return page

    def _request(self, request: Any) -> None:
        url = request.url
        if url.startswith(LOCAL_SCHEMES):
            return
        host = urlsplit(url).hostname
        if host not in ("127.0.0.1", "localhost"):
            self.outside.append(url)

    def console_errors(self, ignore: tuple[str, ...] = ()) -> list[str]:
        """Errors in the console (and uncaught ones), but those matching ``ignore``."""
        found = [text for kind, text in self.console if kind == "error"] + self.errors
        return [text for text in found if not any(re.search(p, text) for p in ignore)]


_IDLE = """() => {
    const bar = document.querySelector('.jp-StatusBar-Left');
    const indicator = document.querySelector('.jp-Notebook-ExecutionIndicator');
    return bar && /\\) \\| Idle/.test(bar.textContent)
        && indicator && indicator.dataset.status === 'idle';
}"""
"""The notebook's kernel is connected and idle (the status bar says "Python 3 ... | Idle")."""

_RUN_ENDED = """() => {
                const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
                const bar = document.querySelector('.jp-StatusBar-Left');
                return prompts.some(p => /\\[\\d+\\]/.test(p.textContent))
                    && !prompts.some(p => p.textContent.includes('*'))
                    && bar && /\\) \\| Idle/.test(bar.textContent);
            }"""
"""Every queued cell ran (or was skipped after an error) and the kernel is idle."""


@dataclass
class Lab:
    """A running JupyterLab (``tests/browser/conftest.py``) over ``de/`` and ``en/``."""

    url: str
    token: str
    root: Path
    log: Path
    screenshots: Path

    def open(self, page: Any, path: str) -> None:
        """Open ``path`` (``de/05-explorer.ipynb``) in a fresh workspace, logged in."""
        page.goto(f"{self.url}/lab/tree/{path}?reset&token={self.token}")
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=120_000)
        idle(page, timeout=120)

    def run_all(self, page: Any, timeout: float = 240) -> float:
        """Run > Run All Cells, as a user does; wait until every code cell ran and the
        kernel is idle. Returns the seconds it took."""
        started = time.monotonic()
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        page.wait_for_timeout(500)  # the cells are queued: [*]
        try:
            page.wait_for_function(_RUN_ENDED, timeout=timeout * 1000)
        except Exception as error:
            shot = self.screenshots / "lab-stuck.png"
            page.screenshot(path=str(shot))
            prompts = page.locator(".jp-CodeCell .jp-InputPrompt").all_inner_texts()
            raise AssertionError(
                f"the run did not end ({type(error).__name__}); prompts {prompts}; "
                f"screenshot {shot}"
            ) from None
        return time.monotonic() - started

    def cells_not_run(self, page: Any) -> list[int]:
        """The code cells (counted from 1) without an execution count."""
        prompts = page.locator(".jp-CodeCell .jp-InputPrompt").all_inner_texts()
        return [i for i, p in enumerate(prompts, 1) if not re.search(r"\[\d+\]", p)]

    def screenshot(self, page: Any, name: str) -> Path:
        """The whole notebook in one picture (the page made as tall as the notebook)."""
        page.evaluate(
            "() => document.querySelectorAll('.jp-Notebook, .jp-WindowedPanel-outer')"
            ".forEach(e => e.scrollTo(0, 0))"
        )
        bottom = page.evaluate(
            "() => Math.max(...[...document.querySelectorAll('.jp-Notebook .jp-Cell')]"
            ".map(e => e.getBoundingClientRect().bottom))"
        )
        size = page.viewport_size
        height = min(16_000, max(size["height"], int(bottom) + 60))
        page.set_viewport_size({"width": size["width"], "height": height})
        path = self.screenshots / f"{name}.png"
        page.screenshot(path=str(path))
        page.set_viewport_size(size)
        return path


def idle(page: Any, timeout: float = 60) -> None:
    """Wait until the notebook's kernel is connected and idle (before, the indicator says
    "idle" for the notebook without a kernel too)."""
    page.wait_for_function(_IDLE, timeout=timeout * 1000)


def outputs_with_problems(page: Any) -> list[str]:
    """Error outputs, anything written to stderr (warnings too) and widgets that failed,
    with their text."""
    found = []
    for locator in (
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']",
        ".jp-RenderedText[data-mime-type='application/vnd.jupyter.stderr']",
        ".jp-OutputArea-output.jp-mod-error",
    ):
        found += [e.inner_text()[:800] for e in page.locator(locator).all()]
    text = page.locator(".jp-Notebook").inner_text()
    found += [w for w in WIDGET_ERRORS if w in text]
    return found


def number(text: str, lang: str) -> float:
    """A number as a page shows it ("1.635", "10,4 %", "1,635", "10.4%") as a float."""
    cleaned = text.strip().replace("%", "").replace("\u202f", "").replace("\xa0", "").strip()
    if lang == "de":
        cleaned = cleaned.replace(".", "").replace(",", ".")
    else:
        cleaned = cleaned.replace(",", "")
    return float(cleaned)


def screen_table(locator: Any) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """The value columns' headers and the rows (label, cells) of an ``educatalog-table`` on
    screen, the total row (``tfoot``) included, read at one moment (the table may be drawn
    anew meanwhile). A row's label is its last header cell (the state's name where a key
    stands before it)."""
    headers, rows = locator.evaluate(_READ_TABLE)
    return headers, [(label, cells) for label, cells in rows]


_READ_TABLE = """(table) => {
    const text = (cell) => cell.innerText.trim();
    const head = [...table.querySelectorAll('thead tr')].pop();
    const headers = head ? [...head.querySelectorAll('th')].map(text) : [];
    let labels = 0;
    const rows = [...table.querySelectorAll('tbody tr, tfoot tr')].map((row) => {
        const keys = [...row.querySelectorAll('th')].map(text);
        labels = Math.max(labels, keys.length);
        const cells = [...row.querySelectorAll('td')].map(text);
        return [keys.length ? keys[keys.length - 1] : '', cells];
    });
    return [headers.slice(labels), rows];
}"""


def screen_rows(locator: Any) -> list[list[str]]:
    """Every body row of an ``educatalog-table`` on screen, all its cells (header cells, the
    key and the name of a district, too) as text, in order."""
    rows: list[list[str]] = locator.evaluate(
        "(table) => [...table.querySelectorAll('tbody tr')].map((row) =>"
        " [...row.querySelectorAll('th, td')].map((cell) => cell.innerText.trim()))"
    )
    return rows


Shown = tuple[list[str], list[tuple[str, list[str]]]]
"""A table as :func:`screen_table` reads it: the value headers, and every row's label and
cell texts in order."""


def table_text(table: pd.DataFrame, lang: str, totals: Any = None) -> Shown:
    """What :func:`screen_table` must read for ``table`` (of :mod:`educatalog.stats`) shown
    in ``lang`` (:func:`educatalog.tables.present`): every header, row label and cell as
    text, in order; ``totals`` (a row by column), the explorer's total row, last."""
    presented = tables.present(table, lang)
    frame = presented.frame
    headers = [str(c).strip() for c in frame.columns]
    rows = []
    for key, values in zip(frame.index, frame.itertuples(index=False), strict=True):
        last = key[-1] if isinstance(key, tuple) else key
        cells = [presented.cell(v, str(c)) for v, c in zip(values, frame.columns, strict=True)]
        rows.append((presented.key_text(last), cells))
    if totals is not None:
        cells = [
            presented.cell(totals.get(c, pd.NA), str(h))
            for c, h in zip(table.columns, frame.columns, strict=True)
        ]
        rows.append((texts.text("total", lang), cells))
    return headers, rows


def explorer_table(
    offers: pd.DataFrame, by: str, measure: str, lang: str, by2: str | None = None
) -> Shown:
    """The explorer's table (and the dashboard's) for ``offers`` as already filtered
    (:func:`educatalog.stats.select`), computed by :mod:`educatalog.stats`: by one
    dimension the events, the measure, for places the events that state them, and the
    share, with the total row; by two the crosstab of the measure with its total row and
    column ("Insgesamt" / "Total", distinct events as stats counts them)."""
    if by2 is not None:
        return table_text(stats.crosstab(offers, by, by2, measure=measure, margins=True), lang)
    full = stats.supply(offers, by, normalize="all", margins=True)
    columns = ["events", *([measure] if measure != "events" else [])]
    columns += ["events_with_capacity"] if measure == "capacity" else []
    full = full[[*columns, "share"]]
    return table_text(full.iloc[:-1], lang, {str(k): v for k, v in full.iloc[-1].items()})


def same_table(shown: Shown, expected: Shown) -> None:
    """Assert that the table on screen is the expected one, naming the first difference:
    the headers, then row by row (a missing or extra row too), cell by cell."""
    (headers, rows), (want_headers, want_rows) = shown, expected
    assert headers == want_headers, f"headers on screen {headers}, expected {want_headers}"
    for n, (got, want) in enumerate(zip(rows, want_rows, strict=False), start=1):
        assert got == want, f"row {n}: on screen {got}, expected {want}"
    labels, wanted = [r[0] for r in rows], [r[0] for r in want_rows]
    assert len(rows) == len(want_rows), f"rows on screen {labels}, expected {wanted}"


def district_list(
    offers: pd.DataFrame, lang: str, n: int = 10, *, fewest: bool = False
) -> list[list[str]]:
    """The rows of the report's list of the ``n`` districts with the most (``fewest``: the
    fewest) events per 100,000 inhabitants over ``offers``, each row's cells as text (key,
    name, state, events, inhabitants, rate), worked out here from
    :func:`educatalog.stats.per_capita` by district: the highest (lowest) rate first,
    districts of the same rate in the order of their keys, none whose rate rests on 1 or 2
    events (the small-cell rule), numbers with the symbols of official statistics (exactly
    0 is "–")."""
    from educatalog.frames.districts import district_table
    from educatalog.population import STATES
    from educatalog.tables.symbols import cell_text

    rates = stats.per_capita(offers, by="district")
    keys = dict(zip(district_table()["district"], district_table().index, strict=True))
    states = STATES.set_index("key")["state"]
    rated = [
        (str(d), row)
        for d, row in rates.iterrows()
        if pd.notna(row["events_per_100k"]) and not 0 < row["events"] < 3
    ]
    sign = 1 if fewest else -1
    rated.sort(key=lambda item: (sign * float(item[1]["events_per_100k"]), keys[item[0]]))
    return [
        [
            keys[name],
            texts.label(name, lang),
            texts.label(states[keys[name][:2]], lang),
            cell_text(row["events"], "count", lang),
            cell_text(row["population"], "count", lang),
            cell_text(row["events_per_100k"], "rate", lang),
        ]
        for name, row in rated[:n]
    ]
