"""Sphinx configuration of educatalog's documentation site (``make docs``).

Sphinx, because the docstrings are reStructuredText with Python-domain roles
(:func:`educatalog.load`), as in pandas, xarray and geopandas, whose users know the layout
of the PyData theme; MyST-Parser for the Markdown pages and MyST-NB for the notebooks of
the gallery. Built offline: no intersphinx inventories are fetched, the theme loads no
fonts or scripts from another host, and the search index is a file of the site.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import educatalog  # noqa: E402

project = "educatalog"
author = "educatalog developers"
copyright = "educatalog developers (MIT licence)"
version = release = educatalog.__version__

extensions = [
    "myst_nb",  # Markdown pages (MyST-Parser) and the gallery's notebooks
    "sphinx.ext.autodoc",
    "educatalog_api",  # the API reference's pages, and references to re-exported names
]

root_doc = "index"
exclude_patterns = ["_build", "_ext", "**/.ipynb_checkpoints", "gallery/*/report"]
templates_path: list[str] = []

# Every reference must resolve (-W makes a warning an error).
nitpicky = True
# Types of other packages in signatures and docstrings: without their inventories (the build
# is offline, so no intersphinx) they cannot be links; every other name must resolve.
nitpick_ignore_regex = [
    (
        r"py:.*",
        r"(pandas|pd|numpy|np|pyarrow|pa|httpx|matplotlib|duckdb|starlette|uvicorn|ipywidgets"
        r"|openpyxl|nbformat|nbclient|babel|polars|pytest|_pytest|sqlite3|asyncio|pathlib"
        r"|datetime|collections|typing|types|enum|io|os|subprocess|threading|concurrent"
        r"|contextlib|decimal|logging|json|http|socket|zoneinfo|argparse|random|anyio|anywidget"
        r"|jupyter_client|dt|t)(\..+)?",
    ),
    # Annotations written with names imported for type checkers only (Figure is
    # matplotlib's, Awaitable collections.abc's, JSONResponse
    # starlette's), and two private helper types of signatures: no page to link to.
    (r"py:class", r"Figure|educatalog\.client\._concurrency\.Awaitable"),
    (r"py:class", r"educatalog\.server\.app\.JSONResponse"),
    (r"py:class", r"educatalog\.frames\.(offers|course_links)\.Tables"),
    (r"py:class", r"educatalog\.query\.tree\._Combinable"),
]

# MyST: the Markdown pages' links to headings (#how-the-numbers-are-defined) work as on GitHub.
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence", "deflist"]
# The gallery's notebooks are executed before the build (docs/gallery.py), never by Sphinx.
nb_execution_mode = "off"
# Widgets are shown as their text: their JavaScript would come from a CDN.
nb_ipywidgets_js: dict[str, dict[str, str]] = {}

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"show-inheritance": True}

html_theme = "pydata_sphinx_theme"
html_title = f"educatalog {release}"
html_static_path = ["_static"]
# An icon of the site's own: without one, a browser asks the server for /favicon.ico.
html_favicon = "_static/favicon.svg"
html_css_files = ["educatalog.css"]
html_show_sourcelink = False
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "icon_links": [],
    "header_links_before_dropdown": 6,
    "navbar_end": ["theme-switcher"],
}
html_context = {"default_mode": "light"}


def _name_the_toggles(html: Any) -> Any:
    """The sidebar's toggles named after the page whose subpages they show.

    pydata-sphinx-theme opens a page's subpages in the sidebar with a ``<summary>`` that
    holds only a chevron icon: a button without a name for a screen reader (axe-core
    ``summary-name``, WCAG 4.1.2). Each such ``<summary>`` gets an ``aria-label``, "Pages
    under" and the title of the page beside it; ``html`` is the theme's toctree, as text or
    as soup."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser") if isinstance(html, str) else html
    for summary in soup.select("summary"):
        if summary.get_text(strip=True) or summary.get("aria-label"):
            continue
        item = summary.find_parent("li")
        link = item.find("a", recursive=False) if item is not None else None
        title = link.get_text(" ", strip=True) if link is not None else ""
        summary["aria-label"] = f"Pages under {title}" if title else "Pages under this one"
    return str(soup) if isinstance(html, str) else soup


def _named_toctrees(
    app: Any, pagename: str, templatename: str, context: dict, doctree: Any
) -> None:
    """The theme's ``generate_toctree_html`` (set by its own ``html-page-context``
    handler, which runs before this one) with :func:`_name_the_toggles` applied."""
    generate = context.get("generate_toctree_html")
    if generate is None:
        return

    def named(*args: Any, **kwargs: Any) -> Any:
        return _name_the_toggles(generate(*args, **kwargs))

    context["generate_toctree_html"] = named


def setup(app: Any) -> None:
    app.connect("html-page-context", _named_toctrees, priority=900)
