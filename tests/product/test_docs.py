"""The documentation site (``make docs``): built with no warning, every internal link and
anchor found, nothing loaded from another host, every public name on a page of the API
reference, and the README short, pointing to the site."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import educatalog
from docsite import REPO, Site, built_site

# The site's first build runs the gallery's 16 notebooks: minutes on two busy cores.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


@pytest.fixture(scope="module")
def site() -> Site:
    pytest.importorskip("sphinx", reason="the docs extra: pip install -e '.[docs]'")
    return built_site()


class Page(HTMLParser):
    """The links, assets and ids of one HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str, str]] = []  # (tag, attribute, value)
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v for k, v in attrs if v is not None}
        if "id" in values:
            self.ids.add(values["id"])
        if tag == "a" and "name" in values:
            self.ids.add(values["name"])
        for attribute in ("href", "src"):
            if attribute in values:
                self.links.append((tag, attribute, values[attribute]))


def _pages(root: Path) -> dict[Path, Page]:
    pages = {}
    for path in sorted(root.rglob("*.html")):
        if path.relative_to(root).parts[0] == "_static":  # the theme's templates, not pages
            continue
        page = Page()
        page.feed(path.read_text(encoding="utf-8"))
        pages[path] = page
    return pages


@pytest.fixture(scope="module")
def pages(site: Site) -> dict[Path, Page]:
    assert site.error is None, site.error
    return _pages(site.root)


def test_the_site_builds_without_a_warning(site: Site) -> None:
    assert site.error is None, site.error
    assert "WARNING" not in site.stderr, site.stderr
    assert "ERROR" not in site.stderr, site.stderr
    assert (site.root / "index.html").is_file()
    assert (site.root / "searchindex.js").is_file()  # search works from the site's files


def test_no_internal_link_is_broken(site: Site, pages: dict[Path, Page]) -> None:
    assert len(pages) > 150
    broken = []
    for path, page in pages.items():
        for _, _, value in page.links:
            parts = urlsplit(value)
            if parts.scheme or parts.netloc or value.startswith(("mailto:", "data:")):
                continue
            target = path if not parts.path else (path.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append((path.relative_to(site.root), value))
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else set()
                if unquote(parts.fragment) not in ids:
                    broken.append((path.relative_to(site.root), value))
    assert broken == []


def test_no_page_loads_anything_from_another_host(site: Site, pages: dict[Path, Page]) -> None:
    remote = [
        (path.relative_to(site.root), tag, value)
        for path, page in pages.items()
        for tag, attribute, value in page.links
        if (tag != "a" and urlsplit(value).netloc) or value.startswith("//")
    ]
    assert remote == []
    for sheet in site.root.rglob("*.css"):
        urls = re.findall(r"url\(\s*['\"]?((?:https?:)?//[^)'\"]+)", sheet.read_text("utf-8"))
        assert urls == [], sheet


def test_every_public_name_and_module_has_its_api_page(site: Site) -> None:
    generated = site.root / "api" / "generated"
    for name in educatalog.__all__:
        assert (generated / f"educatalog.{name}.html").is_file(), name
    for module in ("errors", "accessor", "population", "report", "publication", "testing"):
        assert (generated / f"educatalog.{module}.html").is_file(), module
    for package in ("client", "query", "stats", "plots", "tables", "history", "snapshot"):
        assert (generated / f"educatalog.{package}.html").is_file(), package
    for package in ("widgets", "texts", "frames", "loading", "model", "server"):
        assert (generated / f"educatalog.{package}.html").is_file(), package
    load = (generated / "educatalog.load.html").read_text(encoding="utf-8")
    assert 'id="educatalog.load"' in load


def test_the_gallery_shows_every_notebook_in_both_languages(site: Site) -> None:
    names = sorted(p.stem for p in (REPO / "notebooks").glob("*.ipynb"))
    for lang in ("de", "en"):
        shown = sorted(p.stem for p in (site.root / "gallery" / lang).glob("*.html"))
        assert shown == names, lang
    chart = (site.root / "gallery" / "en" / "02-supply-by-state.html").read_text("utf-8")
    assert re.search(r'<img[^>]+src="(data:image/png;base64,|[^"]*_images/[^"]+\.png")', chart)


def test_the_readme_is_short_and_points_to_the_site() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    assert "make docs" in readme
    assert "build/docs/html/index.html" in readme
