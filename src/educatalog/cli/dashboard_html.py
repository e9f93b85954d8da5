"""``educatalog dashboard --engine html``: the explorer as a page rendered on the server.

One process holds the catalogue once (:class:`~educatalog.widgets.ExplorerData`) and
answers every request for a view with a plain HTML page
(:func:`educatalog.widgets.html_page.explorer_html`): the page's address is the view's
link, so the server keeps nothing per visitor (no session, no kernel, no web socket), and
a view that one visitor's numbers were computed for is answered to the next from the
shared results at once. A visitor's browser parses a page of HTML, its chart as a PNG and
a script of 130 lines (``educatalog/templates/explorer-page.js``), which updates the
page in place as the controls change; without the script, the form's button loads the
page of the view chosen.

Routes: ``/`` (the page; a link whose parts are all understood but not written as the
page writes links is redirected to that link, so that every view has one address),
``/chart.png`` (the view's chart, by the same query: the page shows its numbers first, and
the browser loads the chart into the space kept for it), ``/download`` (the view's table
as CSV or Excel, by the same query), ``/readyz`` and
``/static/explorer-page.js``.
"""

from __future__ import annotations

import asyncio
import heapq
import html
import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

from educatalog import texts
from educatalog._version import __version__
from educatalog.files.workspace import PACKAGE

__all__ = ["PAUSE", "Site", "page_html", "serve_snapshot", "web_app"]

PAUSE = 0.3
"""Seconds the page's script waits after the last change of a control before it asks for
the view (the explorer's ``debounce``)."""

SCRIPT = PACKAGE / "templates" / "explorer-page.js"
"""The page's script."""

SECURITY = {
    # the page's own script and style only; the chart a data: URI; never in another's frame
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; "
        "base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
"""Headers of every answer."""


T = TypeVar("T")

WAITING = 200
"""How many computations may wait for their turn; the next visitor is asked to come back
(503) rather than to wait behind all of them."""


class Gone(Exception):
    """Nobody waits for a computation any more: it was not run."""


class Busy(Exception):
    """Too many computations wait already."""


PAGE, CHART, FILE = 0, 1, 2
"""The order in which :class:`Turns` serves what waits: a visitor's first page (its
numbers; the browser then asks for its chart) first; then, in order of arrival, the
charts and the pages of a changed view (which hold their chart: one answer for a change);
then the files."""


class Turns:
    """One computation at a time, in a thread, the most urgent first (:data:`PAGE`, then
    :data:`CHART`, then :data:`FILE`; in order of arrival within each).

    A view's numbers and its chart hold Python's lock while they compute: two at once take
    as long as one after the other, but both finish late. One at a time, the first visitor
    of twenty sees their numbers after one view's time, not after twenty; and a page
    waits for no chart, which the browser loads after the page's numbers anyway."""

    def __init__(self, limit: int = WAITING) -> None:
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._busy = False
        self.limit = limit
        """How many may wait; one more is :class:`Busy`."""

    async def run(
        self,
        urgency: int,
        work: Callable[[], T],
        gone: Callable[[], Awaitable[bool]] | None = None,
    ) -> T:
        """``work()`` in a thread once it is its turn; its result. ``gone``, asked when the
        turn comes: whether nobody waits for the result any more (the visitor left, or
        their page asked for a newer view): then :class:`Gone`, and the next one's turn."""
        import anyio.to_thread

        if self._busy:
            if len(self._waiting) >= self.limit:
                raise Busy(f"{len(self._waiting)} computations wait")
            turn = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (urgency, next(self._order), turn))
            try:
                await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():
                    self._next()  # handed the turn as it was cancelled: hand it on
                raise
        self._busy = True
        try:
            if gone is not None and await gone():
                raise Gone("nobody waits for it any more")
            return await anyio.to_thread.run_sync(work)
        finally:
            self._next()

    def _next(self) -> None:
        while self._waiting:
            _urgency, _order, turn = heapq.heappop(self._waiting)
            if not turn.done():  # a request whose visitor is gone no longer waits
                turn.set_result(None)
                return
        self._busy = False


@dataclass
class Site:
    """What every request reads: the offers with what is derived from them, the page's
    language and the demo's snapshot (None for real data: no banner)."""

    data: Any
    lang: str
    demo: Path | None


def page_html(
    site: Site, query: str, *, redirect: bool = True, apart: bool = True
) -> tuple[str, str | None]:
    """The page of the view that the link ``query`` names; or, with ``redirect``, where
    ``query`` is understood in full but written otherwise than the page writes links,
    no page and that link (else None). ``apart``: the browser loads the chart apart (a
    visitor's first page: its numbers first), else the page holds it (a changed view, for
    the page's script: one answer, as soon as the chart is drawn)."""
    from educatalog.cli.dashboard import head_html, notices_html, open_link
    from educatalog.widgets import ExplorerModel
    from educatalog.widgets.html_page import STYLE, explorer_html
    from educatalog.widgets.url_state import to_query

    lang = site.lang
    model = ExplorerModel(site.data, lang=lang, debounce=0, draw=not apart)
    try:
        problems = open_link(model, query, lang)
        canonical = to_query(model.state)
        if redirect and not problems and canonical != query:
            return "", canonical
        title = html.escape(texts.text("dashboard.title", lang))
        notices = f"<div id='educatalog-notices'>{notices_html(problems)}</div>"
        body = (
            head_html(lang, site.demo)
            + notices
            + explorer_html(
                model, download="download", chart="chart.png" if apart else None, pause=PAUSE
            )
        )
    finally:
        model.close()
    document = (
        f"<!DOCTYPE html><html lang='{lang}'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        # no icon of its own: the browser asks for none (a 404 in every visitor's console)
        f"<title>{title}</title><link rel='icon' href='data:,'><style>{STYLE}</style></head>"
        f"<body><main>{body}</main>"
        f"<script src='static/explorer-page.js?v={__version__}' defer></script></body></html>"
    )
    return document, None


def web_app(site: Site) -> Any:
    """The dashboard as an ASGI app (starlette) over ``site``."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.gzip import GZipMiddleware
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse, RedirectResponse, Response
    from starlette.routing import Route

    from educatalog.widgets import ExplorerModel
    from educatalog.widgets.url_state import from_query

    lang = site.lang
    turns = Turns()

    def headers(**more: str) -> dict[str, str]:
        return {**SECURITY, "Content-Language": lang, **more}

    async def turn(request: Request, urgency: int, work: Callable[[], T]) -> T | Response:
        """``work()`` in its turn (:class:`Turns`); for a visitor who left meanwhile, or
        when too many wait, an answer in its place."""
        try:
            return await turns.run(urgency, work, gone=request.is_disconnected)
        except Gone:
            return Response(status_code=499, headers=headers())  # nginx's "client closed"
        except Busy:
            said = texts.text("dashboard.busy", lang)
            return PlainTextResponse(said, status_code=503, headers=headers(**{"Retry-After": "5"}))

    async def page(request: Request) -> Response:
        # the page's script asks for the page of a view, and writes its link itself
        asked = request.headers.get("X-Educatalog-Page") != "part"
        query = request.url.query
        urgency = PAGE if asked else CHART  # a first page before all; a changed view in turn
        done = await turn(
            request, urgency, lambda: page_html(site, query, redirect=asked, apart=asked)
        )
        if isinstance(done, Response):
            return done
        document, canonical = done
        if canonical is not None:
            address = f"?{canonical}" if canonical else request.url.path
            return RedirectResponse(address, status_code=303, headers=headers())
        return Response(
            document,
            media_type="text/html; charset=utf-8",
            # one address, two pages: the whole page, or the part the page's script asks for
            headers=headers(**{"Cache-Control": "no-cache", "Vary": "X-Educatalog-Page"}),
        )

    def shown(query: str, use: Callable[[ExplorerModel], T]) -> T | str:
        """``use(model)`` of a model that shows the view the link ``query`` names (what
        it cannot use: left out), or why the view failed: said, not a traceback."""
        model = ExplorerModel(site.data, lang=lang, debounce=0, draw=False)
        try:
            model.set_state(from_query(query))
            model.flush()
            return model.error if model.error is not None else use(model)
        except Exception as error:  # a view the explorer fails on
            return f"{type(error).__name__}: {error}"
        finally:
            model.close()

    def drawn(model: ExplorerModel) -> bytes:
        """The view's chart as PNG (drawn once for all who ask: the numbers' cache keeps
        it)."""
        return model.png

    def written(model: ExplorerModel) -> tuple[bytes, str, str]:
        """The view's table as a file: its bytes, suffix and name."""
        suffix = model.suffix()
        return model.payload(suffix), suffix, f"{model.file_stem}.{suffix}"

    async def chart(request: Request) -> Response:
        query = request.url.query
        png = await turn(request, CHART, lambda: shown(query, drawn))
        if isinstance(png, Response):
            return png
        if isinstance(png, str):
            return PlainTextResponse(png, status_code=500, headers=headers())
        return Response(
            # asked again each time: a dashboard restarted over newer data draws it anew
            png,
            media_type="image/png",
            headers=headers(**{"Cache-Control": "no-cache"}),
        )

    async def download(request: Request) -> Response:
        """The table of the view the query names, as the page's download link offers it."""
        query = request.url.query
        file = await turn(request, FILE, lambda: shown(query, written))
        if isinstance(file, Response):
            return file
        if isinstance(file, str):
            return PlainTextResponse(file, status_code=500, headers=headers())
        data, suffix, name = file
        media = {"csv": "text/csv; charset=utf-8", "xlsx": XLSX}[suffix]
        disposition = f"attachment; filename*=UTF-8''{quote(name, safe='')}"
        return Response(
            data, media_type=media, headers=headers(**{"Content-Disposition": disposition})
        )

    def script(request: Request) -> Response:
        return Response(
            SCRIPT.read_bytes(),
            media_type="text/javascript; charset=utf-8",
            headers=headers(**{"Cache-Control": "max-age=3600"}),
        )

    def ready(request: Request) -> Response:
        return PlainTextResponse("ok", headers=headers())

    routes = [
        Route("/", page),
        Route("/download", download),
        Route("/chart.png", chart),
        Route("/static/explorer-page.js", script),
        Route("/readyz", ready),
    ]
    middleware = [Middleware(GZipMiddleware, minimum_size=1000, compresslevel=1)]
    return Starlette(routes=routes, middleware=middleware)


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def serve_snapshot(
    path: Path,
    *,
    host: str,
    port: int,
    lang: str,
    notify: Callable[[str], None],
) -> int:
    """Serve the dashboard over the snapshot at ``path`` until stopped (Ctrl+C, SIGTERM);
    returns 0 once stopped."""
    from educatalog.cli import dashboard

    data, demo = dashboard.shared_data(path, lang)
    site = Site(data, lang, path if demo else None)
    return dashboard.run_server(web_app(site), host=host, port=port, notify=notify)
