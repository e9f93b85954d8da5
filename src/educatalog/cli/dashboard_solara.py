"""``educatalog dashboard`` served by Solara: one process, one copy of the catalogue.

:func:`serve_snapshot` loads the snapshot once, derives the explorer's data from it once
(:class:`~educatalog.widgets.ExplorerData`), computes the page's first view, and then
lets Solara's server (starlette on uvicorn, in this process) serve
:mod:`educatalog.cli.dashboard_app`: every visitor gets a virtual kernel with their own
explorer over the shared data. Memory grows by a visitor's widgets and view, not by a copy
of the catalogue; a visitor waits for no kernel to start, and a view computed once is
shown to the next visitor who chooses it at once.

Solara's settings (environment variables ``SOLARA_*``, read as Solara is imported) are set
here: production mode, no telemetry, no banner, its web assets from the installed
``solara-assets`` and never from a CDN, the page's title and loader in the page's language,
and a visitor's virtual kernel ended ``idle_timeout`` seconds after their page is gone.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from educatalog import texts

__all__ = ["APP", "configure", "serve_snapshot", "web_app"]

APP = "educatalog.cli.dashboard_app"
"""The Solara app: its module (templates in ``educatalog/templates``)."""

NO_CDN = "http://127.0.0.1:9/"
"""Where Solara would fetch a web asset that ``solara-assets`` lacks: nowhere (a closed
port on this machine), so that the page never asks another host for anything."""

GZIP_LEVEL = 1
"""How hard the dashboard compresses what it sends (gzip's fastest, see :func:`web_app`)."""


def configure(lang: str, idle_timeout: int) -> None:
    """Solara's settings for the dashboard, as environment variables (before Solara is
    imported; see the module)."""
    os.environ.update(
        {
            "SOLARA_APP": APP,
            "SOLARA_MODE": "production",
            "SOLARA_TELEMETRY_MIXPANEL_ENABLE": "False",
            "SOLARA_THEME_SHOW_BANNER": "False",
            "SOLARA_THEME_TITLE": texts.text("dashboard.title", lang),
            "SOLARA_THEME_LOADER": "educatalog",
            "SOLARA_ASSETS_PROXY": "True",
            "SOLARA_ASSETS_CDN": NO_CDN,
            "SOLARA_ASSETS_FONTAWESOME_ENABLED": "False",
            "SOLARA_KERNEL_CULL_TIMEOUT": f"{idle_timeout}s",
        }
    )


def serve_snapshot(
    path: Path,
    *,
    host: str,
    port: int,
    lang: str,
    idle_timeout: int,
    notify: Callable[[str], None],
) -> int:
    """Serve the dashboard over the snapshot at ``path`` until stopped (Ctrl+C, SIGTERM);
    returns 0 once stopped."""
    configure(lang, idle_timeout)

    # The page is its own, not in another site's frame: Solara's lax session cookie is
    # right, and its warning on every page over plain http (on a ministry's intranet, or
    # behind a proxy that ends TLS) would only alarm whoever started the dashboard.
    warnings.filterwarnings("ignore", "Cookies with samesite=none", UserWarning)

    from educatalog.cli import dashboard, dashboard_app

    data, demo = dashboard.shared_data(path, lang)
    dashboard_app.SHARED[:] = [dashboard_app.Shared(data, lang, path, demo)]
    _words_for_templates(lang)
    return dashboard.run_server(
        web_app(), host=host, port=port, notify=notify, ws_ping_interval=30, ws_ping_timeout=30
    )


def web_app() -> Any:
    """Solara's web app (its routes, its lifespan), compressing what it sends at gzip's
    fastest level, not its smallest: Solara's scripts are 5 MB for every new visitor,
    and compressing them at level 9 took most of the dashboard's time when twenty
    visitors came at once (``benchmarks/dashboard.py``)."""
    from solara.server import starlette as solara_web
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.gzip import GZipMiddleware

    middleware = [
        Middleware(GZipMiddleware, minimum_size=1000, compresslevel=GZIP_LEVEL)
        if layer.cls is GZipMiddleware  # type: ignore[comparison-overlap]
        else layer
        for layer in solara_web.middleware
    ]
    return Starlette(routes=solara_web.routes, lifespan=solara_web.lifespan, middleware=middleware)


def _words_for_templates(lang: str) -> None:
    """The page's language and its words while it loads, for the templates in
    ``educatalog/templates`` (Jinja globals of Solara's template environment)."""
    from solara.server import app as solara_app
    from solara.server import server as solara_server

    solara_app.ensure_apps_initialized()
    env: Any = solara_server.get_jinja_env(app_name="__default__")
    env.globals["educatalog"] = {
        "lang": lang,
        "loading": texts.text("dashboard.loading", lang),
    }
