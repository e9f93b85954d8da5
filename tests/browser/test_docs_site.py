"""The documentation site, read where it is read: in Chromium, from a local HTTP server on
127.0.0.1 over the site ``make docs`` builds (tests/docsite.py builds it once). A reader
searches for ``per_capita``, follows the hit to the API reference, opens a notebook of the
gallery and sees its chart; no page asks another host for anything; a page of each kind
breaks no WCAG A/AA rule of axe-core. Screenshots of the home page, a page of the user
guide, the API page of ``educatalog.load`` and a gallery notebook go to
``build/screenshots/docs-*.png``."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from accessibility import assert_accessible
from browsing import Recorder
from docsite import Site, built_site

# The site is built once for the run (tests/docsite.py): waiting for it takes minutes.
pytestmark = pytest.mark.timeout(900)


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site_url(chromium: str) -> Iterator[str]:
    pytest.importorskip("sphinx", reason="the docs extra: pip install -e '.[docs]'")
    site: Site = built_site()
    assert site.error is None, site.error
    handler = functools.partial(_Quiet, directory=str(site.root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_search_finds_per_capita_and_leads_to_the_api_reference(
    recorder: Recorder, site_url: str, screenshots: Path
) -> None:
    page = recorder.page
    page.goto(f"{site_url}/index.html")
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(screenshots / "docs-home.png"), full_page=True)
    page.goto(f"{site_url}/search.html?q=per_capita")
    # the function's entry (its anchor), not the page of the module stats.per_capita
    hit = page.locator(
        "#search-results a[href*='api/generated/'][href*='#educatalog.'][href$='.per_capita']"
    ).first
    hit.wait_for(timeout=30_000)
    hit.click()
    page.wait_for_load_state("networkidle")
    assert "/api/generated/" in page.url
    anchor = page.url.split("#", 1)[-1]
    assert anchor.endswith("per_capita"), page.url
    assert page.locator(f"dt[id='{anchor}']").is_visible()
    assert recorder.outside == []
    assert recorder.console_errors() == []


def test_the_api_page_of_load_and_a_user_guide_page(
    recorder: Recorder, site_url: str, screenshots: Path
) -> None:
    page = recorder.page
    page.goto(f"{site_url}/api/generated/educatalog.load.html")
    assert page.locator("dt[id='educatalog.load']").is_visible()
    page.screenshot(path=str(screenshots / "docs-api-load.png"), full_page=True)
    page.goto(f"{site_url}/user-guide/statistics.html")
    assert page.get_by_role("heading", name="Statistics and their definitions").is_visible()
    page.screenshot(path=str(screenshots / "docs-user-guide.png"))
    assert recorder.outside == []
    assert recorder.console_errors() == []


def test_a_gallery_notebook_shows_its_chart(
    recorder: Recorder, site_url: str, screenshots: Path
) -> None:
    page = recorder.page
    page.goto(f"{site_url}/gallery/index.html")
    page.locator("a[href='en/02-supply-by-state.html']").first.click()
    page.wait_for_load_state("networkidle")
    charts = page.locator("div.cell_output img")
    charts.first.scroll_into_view_if_needed()
    assert charts.count() >= 1
    width = charts.first.evaluate("img => img.complete ? img.naturalWidth : 0")
    assert width > 300
    charts.first.screenshot(path=str(screenshots / "docs-gallery-chart.png"))
    page.screenshot(path=str(screenshots / "docs-gallery.png"), full_page=False)
    assert recorder.outside == []
    assert recorder.console_errors() == []


AXE_PAGES = {
    "index.html": "the home page: the landing text and the top navigation",
    "user-guide/statistics.html": "a user-guide page: prose, tables, notes, code",
    "api/generated/educatalog.load.html": "an API page: a signature and its fields, in the "
    "sidebar's deepest tree (every module, each with its toggle)",
    "gallery/en/01-quickstart.html": "a gallery notebook: code, data frames and a chart",
    "search.html?q=per_capita": "the search page, with the results its script lists",
}
"""The pages axe-core checks, one of each kind the site's pages are made from (its theme's
templates and what Sphinx and MyST-NB put in them), with why. Not all of its 200 and more:
most are API pages alike, the Markdown pages are as the user guide's, and axe-core takes
seconds a page."""


@pytest.mark.parametrize("path", list(AXE_PAGES))
def test_a_page_of_each_kind_passes_axe_core(
    recorder: Recorder, site_url: str, axe: str, path: str
) -> None:
    """No violation of WCAG 2.0 to 2.2, level A or AA, whatever its impact."""
    page = recorder.page
    page.goto(f"{site_url}/{path}")  # loaded: its images too
    if path.startswith("search.html"):
        page.locator("#search-results a").first.wait_for(timeout=30_000)
    assert_accessible(page, axe, f"{path} ({AXE_PAGES[path]})")
