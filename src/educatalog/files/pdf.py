"""A page printed as PDF by headless Chromium through Playwright: A4 as its print view says
(:func:`educatalog.files.report_page.print_view`), tagged (headings, tables, figures with
their text alternatives, the page's language), with bookmarks from its headings.

>>> write_pdf(print_view(page, charts, title=..., stand=..., lang="de"), "report.pdf")
... # doctest: +SKIP

Why Chromium: measured on the demo report against WeasyPrint 70, two runs each on two busy
cores (load average 6 in the first round, 11 in the second): first the German page with
the charts as PNG (20 A4 pages, 15 tables with 3,200 cells), then the English print view as
written here (23 pages, the charts as SVG):

=====================  ==========================  ==========================================
                       Chromium 156 (Playwright)   WeasyPrint 70
=====================  ==========================  ==========================================
render, PNG charts     4.0-5.3 s (+1.5-2.3 s       20-23 s; 34 s as PDF/UA-1 (13 s with
                       to start the browser)       JupyterLab's styles, on a quieter machine)
render, SVG charts     9-16 s (+5-7 s to start)    108-112 s as PDF/UA-1
fidelity               the engine that shows the   its own layout: long headers wrap word by
                       page and checks it (axe)    word ("bis 3 | Tage")
tags                   Document, H1/H2, P,         the same with THead/TBody, and PDF/UA-1
                       Table/TR/TH/TD, Caption,    declared in its XMP metadata
                       Figure with /Alt, /Lang;
                       no PDF/UA declaration
bookmarks              from h1-h6                  from h1-h6
install                playwright (165 MB) and a   weasyprint and 7 packages (about 20 MB)
                       Chromium (Debian's, or      and the system's Pango 1.44 or newer
                       ``playwright install``)
=====================  ==========================  ==========================================

Chromium prints 4-10 times faster, exactly as the page looks in a browser, and the project
already drives it (the browser tests); its tags carry every chart's text alternative. Where
Playwright or a Chromium is missing, :func:`write_pdf` raises
:class:`~educatalog.errors.MissingDependency`, whose message is one line saying what to
install.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from pathlib import Path

from educatalog.errors import MissingDependency, require

__all__ = ["chromium", "write_pdf"]

CHROMIUMS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
"""The commands of a Chromium tried in turn; else Playwright's own (``playwright install``)."""


def chromium() -> str | None:
    """The path of a Chromium on ``PATH`` (``$EDUCATALOG_CHROMIUM`` first), or None."""
    for name in (os.environ.get("EDUCATALOG_CHROMIUM"), *CHROMIUMS):
        if name and (found := shutil.which(name)):
            return found
    return None


def write_pdf(page: str, path: str | os.PathLike[str], *, timeout: float = 180) -> Path:
    """Print the HTML ``page`` as a tagged PDF with bookmarks to ``path`` (in a thread of its
    own, so that it works inside a running event loop such as Jupyter's). Without Playwright
    or a Chromium: :class:`~educatalog.errors.MissingDependency`, in one line."""
    require("pdf", "playwright", what="report.pdf")
    target = Path(path)
    failed: list[BaseException] = []

    def run() -> None:
        try:
            _print(page, target, timeout)
        except BaseException as exc:  # re-raised in the caller's thread
            failed.append(exc)

    worker = threading.Thread(target=run, name="educatalog-pdf", daemon=True)
    worker.start()
    worker.join()
    if failed:
        raise failed[0]
    return target


def _print(page: str, target: Path, timeout: float) -> None:
    from playwright.sync_api import Error, sync_playwright

    executable = chromium()
    with tempfile.TemporaryDirectory(prefix="educatalog-pdf-") as folder:
        source = Path(folder) / "page.html"
        source.write_text(page, encoding="utf-8")
        with sync_playwright() as driver:
            try:
                browser = driver.chromium.launch(
                    executable_path=executable, args=["--no-sandbox"], timeout=timeout * 1000
                )
            except Error as exc:
                raise MissingDependency(
                    "report.pdf needs a Chromium, and none was found (install chromium, or "
                    f"run `playwright install chromium`): {_first_line(exc)}"
                ) from None
            try:
                tab = browser.new_page()
                tab.goto(source.as_uri(), timeout=timeout * 1000)
                tab.pdf(
                    path=str(target),
                    format="A4",
                    prefer_css_page_size=True,
                    print_background=True,
                    tagged=True,  # headings, tables, figures with their alt texts, language
                    outline=True,  # bookmarks from the headings
                )
            finally:
                browser.close()


def _first_line(exc: BaseException) -> str:
    return next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
