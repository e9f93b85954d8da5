"""``educatalog dashboard``: the explorer as a web page, for people without Jupyter.

>>> serve(origin=resolve_origin(demo=True), port=8866, lang="de")  # doctest: +SKIP

:func:`serve` fetches the catalogue once (the configured service, the synthetic demo
catalogue, or a snapshot given as it is) into a snapshot in a temporary folder, and serves
the page over it on 127.0.0.1 unless told otherwise, with one of three :data:`ENGINES`:
``html`` (the default; :mod:`educatalog.cli.dashboard_html`) renders each view as a plain
HTML page in this process; ``solara`` (:mod:`educatalog.cli.dashboard_solara`) serves
:class:`educatalog.widgets.Explorer` to every visitor from this process; ``voila`` starts a
kernel for every visitor that shows :func:`page`. All visitors see the same numbers, the
service is asked once, and the page names when the data was fetched; restart the dashboard
to show newer data.

Every engine shows the page's heading and, when the data is the synthetic demo catalogue,
its banner (:func:`head_html`), and keeps the view in the page's address: every change of a
control writes the view into the address bar, and opening such an address restores the
view (:func:`open_link`; what a link holds that cannot be used is named on the page).
"""

from __future__ import annotations

import contextlib
import html
import importlib.util
import json
import os
import subprocess
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel.numbers import format_decimal

from educatalog import snapshot, texts
from educatalog.cli.fetch import fetch_snapshot
from educatalog.errors import UsageError, require
from educatalog.files.workspace import PACKAGE
from educatalog.jupyter import tethered
from educatalog.jupyter.kernels import server_args
from educatalog.loading.connection import Origin

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "DEFAULT_PORT",
    "ENGINES",
    "STOP_BOUND",
    "Prepared",
    "by_subject_area",
    "head_html",
    "loading_words",
    "notices_html",
    "open_link",
    "page",
    "prepare",
    "run_server",
    "serve",
    "shared_data",
    "show",
]

DEFAULT_PORT = 8866
"""Where the dashboard listens unless told otherwise (Voilà's own default)."""

ENV_SNAPSHOT = "EDUCATALOG_DASHBOARD_SNAPSHOT"
"""The snapshot every visitor's kernel reads (set by :func:`serve`)."""

ENV_LANG = "EDUCATALOG_DASHBOARD_LANG"
"""The language of the page (set by :func:`serve`)."""

VOILA_STOP = 20.0
"""Seconds Voilà is given to stop its kernels and itself (after SIGTERM) before it is killed."""

RELAY_STOP = 5.0
"""Seconds the relay of Voilà's output is given to pass on its last lines once Voilà ended."""

STOP_BOUND = 45.0
"""Seconds within which ``educatalog dashboard`` ends once stopped (Ctrl+C, SIGTERM): Voilà
gets ``VOILA_STOP``, the relay of its output ``RELAY_STOP``, then the temporary
folder is removed; a dashboard still running then prints where it waits and exits with
status 1."""

ENGINES = {
    "html": ("openpyxl",),
    "solara": ("solara", "solara_assets", "anywidget"),
    "voila": ("voila", "anywidget"),
}
"""The servers of the page, with the modules each needs: plain HTML rendered on the server
(the default: one process over one copy of the data, nothing kept per visitor,
:mod:`educatalog.cli.dashboard_html`; openpyxl for the Excel download), Solara (the
notebook's widgets, every visitor in one process over one copy; its scripts from
solara-assets, on this machine) or Voilà (a kernel and a copy for each visitor)."""

KERNEL_MANAGER = "educatalog_dashboard_kernel.DashboardKernelManager"
"""Voilà's kernel manager (``data/python/educatalog_dashboard_kernel.py``): jupyter_server's,
without the race of its culler and a kernel that is starting."""


def _word(key: str, lang: str, **fields: Any) -> str:
    """The page's word ``key`` in ``lang`` (``dashboard.<key>`` of :mod:`educatalog.texts`)."""
    return texts.text(f"dashboard.{key}", lang, **fields)


@dataclass
class Prepared:
    """What a visitor's kernel prepares before the visitor is known: the catalogue's
    snapshot read, its offers in an explorer, the page's words."""

    explorer: Any
    lang: str
    path: Path
    demo: bool


def prepare(
    snapshot_path: str | os.PathLike[str] | None = None, *, lang: str | None = None
) -> Prepared:
    """The expensive part of the page (imports, the snapshot, the offers, the first chart),
    done while a kernel waits for its visitor (Voilà's preheated kernels)."""
    from educatalog.widgets import Explorer

    path = snapshot_path or os.environ.get(ENV_SNAPSHOT)
    if not path:
        raise UsageError(f"page() needs a snapshot: give its path or set ${ENV_SNAPSHOT}.")
    lang = texts.check_lang(lang or os.environ.get(ENV_LANG, texts.DEFAULT_LANG))
    catalogue = snapshot.load(path)
    explorer = Explorer(by_subject_area(catalogue), lang=lang, heading=False)
    return Prepared(explorer, lang, Path(path), bool(catalogue.source.demo))


def by_subject_area(catalogue: Any) -> pd.DataFrame:
    """The dashboard's offers: one row per event and subject area of its course
    (``subject_area`` and ``subject_group``, "ohne Angabe" for a course without subject),
    so that the subject area is a dimension and a filter; the leaves, codes and ids of
    ``offers(subjects=True)`` left out, and with them the rows of a second subject in the
    same area. Without the systematics' tables, one row per event."""
    from educatalog.frames.course_links import SUBJECT_COLUMNS, SUBJECT_TABLES

    if not all(name in catalogue for name in SUBJECT_TABLES):
        offers: pd.DataFrame = catalogue.offers()
        return offers
    offers = catalogue.offers(subjects=True)
    left_out = [c for c in SUBJECT_COLUMNS if c not in ("subject_area", "subject_group")]
    offers = offers.drop(columns=left_out)
    kept = ~offers.duplicated(["event_id", "subject_area"]).to_numpy()
    if kept.all():
        return offers
    out = offers.loc[kept].reset_index(drop=True)
    out.attrs = offers.attrs
    return out


def show(prepared: Prepared, *, query: str | None = None) -> Any:
    """The page for the visitor who came: the heading, the demo banner, the explorer
    showing the view ``query`` (a URL query string; default: the page's, which a preheated
    kernel waits for) and the widget that keeps the page's address in step with the view."""
    require("dashboard", "ipywidgets", "anywidget", what="The dashboard")
    import ipywidgets as w

    from educatalog.widgets.url_sync import follow

    if query is None:
        _wait_for_the_visitor()
        query = os.environ.get("QUERY_STRING", "")
    explorer, lang = prepared.explorer, prepared.lang
    problems = open_link(explorer, query, lang)
    head = head_html(lang, prepared.path if prepared.demo else None, problems)
    return w.VBox([w.HTML(head), explorer.widget, follow(explorer)])


def open_link(explorer: Any, query: str, lang: str) -> list[str]:
    """Show the view of the link ``query`` in ``explorer`` (an
    :class:`~educatalog.widgets.Explorer` or its model) and update it; returns what the
    link held that could not be used, in words. A view the explorer fails on gives the
    plain view, and says why."""
    problems: list[str] = []
    try:
        problems = explorer.set_state(query) if query else []
        explorer.flush()
    except Exception as error:  # a view the explorer fails on: the plain view, and why
        problems.append(_word("failed", lang, error=f"{type(error).__name__}: {error}"))
        explorer.set_state("")
        explorer.flush()
    return problems


def head_html(lang: str, demo: Path | None, problems: Sequence[str] = ()) -> str:
    """The top of the page: its heading, the banner of synthetic demo data (``demo``: the
    demo's snapshot, whose manifest names its seed and scale; None for real data), the
    words on how to use it and the ``problems`` of the link it was opened with."""
    head = [f"<h1 style='margin:0.2em 0'>{html.escape(_word('title', lang))}</h1>"]
    if demo is not None:
        origin = snapshot.read_manifest(demo).get("origin") or {}
        scale = origin.get("scale")
        shown = format_decimal(scale, locale=texts.LOCALES[lang]) if scale is not None else "?"
        described = _word("origin", lang, seed=origin.get("seed", "?"), scale=shown)
        banner = html.escape(_word("demo", lang, origin=described))
        head.append(
            "<p role='note' style='background:#FDECEA;border-left:6px solid #B00020;"
            f"padding:0.5em 0.8em;font-weight:bold;color:#5F0010'>{banner}</p>"
        )
    head.append(f"<p>{html.escape(_word('intro', lang))}</p>")
    head.append(notices_html(problems))
    return "".join(head)


def notices_html(problems: Sequence[str]) -> str:
    """What a link held that could not be used, as a list (empty for none)."""
    if not problems:
        return ""
    items = "".join(f"<li>{html.escape(p)}</li>" for p in problems)
    # shortened values (url_state.ECHO), and long words broken on a narrow page
    return f"<ul role='status' style='color:#8A4B00;overflow-wrap:anywhere'>{items}</ul>"


def page(
    snapshot_path: str | os.PathLike[str] | None = None,
    *,
    lang: str | None = None,
    query: str | None = None,
) -> Any:
    """The dashboard page as a widget: :func:`prepare`, then :func:`show` (in one go,
    outside a preheated kernel)."""
    return show(prepare(snapshot_path, lang=lang), query=query)


SERVER_GRACE = 5
"""Seconds the dashboard's own server (html, Solara) waits for requests under way once
stopped."""


def shared_data(path: Path, lang: str) -> tuple[Any, bool]:
    """The explorer's data over the snapshot at ``path`` for every visitor of one process
    (:class:`~educatalog.widgets.ExplorerData`, read once, its first view in ``lang``
    computed before anyone asks), and whether the snapshot is the synthetic demo's."""
    from educatalog.widgets import ExplorerData, ExplorerModel

    catalogue = snapshot.load(path)
    data = ExplorerData(by_subject_area(catalogue))
    ExplorerModel(data, lang=lang, debounce=0)
    return data, bool(catalogue.source.demo)


def run_server(
    app: Any, *, host: str, port: int, notify: Callable[[str], None], **settings: Any
) -> int:
    """Serve the ASGI ``app`` with uvicorn in this process until stopped (Ctrl+C, SIGTERM);
    returns 0 once stopped, 1 if it never started. ``settings``: more of uvicorn's."""
    import uvicorn

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="error",
        timeout_graceful_shutdown=SERVER_GRACE,
        **settings,
    )
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host
    notify(f"Serving the dashboard at http://{shown}:{port}/ (stop with Ctrl+C)")
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn stops on Ctrl+C, then raises it
        server.run()
    return 0 if server.started else 1


def _wait_for_the_visitor() -> None:
    """In a kernel Voilà started before anybody asked (preheated), wait for the visitor's
    request: then ``$QUERY_STRING`` holds the page's query string. Elsewhere at once."""
    if os.environ.get("VOILA_PREHEAT", "False") == "False":
        return
    from voila.utils import wait_for_request

    wait_for_request()


def _write_notebook(path: Path, lang: str) -> None:
    # nbformat imported here, not at the top: every visitor's kernel imports this module, and
    # nbformat imports jsonschema, which takes seconds (its IRI grammars, rfc3987_syntax)
    import nbformat

    # Two cells: Voilà runs the first in a kernel before a visitor comes (preheated), the
    # second when one has: then only their view is drawn.
    cells = [
        nbformat.v4.new_code_cell(  # type: ignore[no-untyped-call]
            "from educatalog.cli.dashboard import prepare, show\n\nprepared = prepare()"
        ),
        nbformat.v4.new_code_cell("show(prepared)"),  # type: ignore[no-untyped-call]
    ]
    nb = nbformat.v4.new_notebook(cells=cells)  # type: ignore[no-untyped-call]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.metadata["educatalog"] = {"lang": lang, "loading": loading_words(lang, len(cells))}
    nbformat.write(nb, path)  # type: ignore[no-untyped-call]


def loading_words(lang: str, cells: int) -> dict[str, Any]:
    """What the page says while it loads, in ``lang`` (the template
    ``data/jupyter/voila/templates/educatalog`` reads them from the notebook's metadata):
    ``start`` before anything ran, ``steps`` as each of the ``cells`` runs, ``step`` the
    words for a step of another notebook ("{index}", "{count}" filled in by the page)."""
    return {
        "start": _word("loading", lang),
        "steps": [_word(f"loading.{index}", lang) for index in range(1, cells + 1)],
        "step": _word("loading.step", lang, index="{index}", count="{count}"),
    }


def _needs(*modules: str, extra: str = "dashboard") -> None:
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise UsageError(
            f"educatalog dashboard needs {' and '.join(missing)}: "
            f"pip install 'educatalog[{extra}]'."
        )


def serve(
    *,
    origin: Origin | None = None,
    snapshot_path: str | os.PathLike[str] | None = None,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    lang: str = texts.DEFAULT_LANG,
    idle_timeout: int = 120,
    notify: Callable[[str], None] = print,
    engine: str = "html",
) -> int:
    """Serve the dashboard until interrupted (Ctrl+C, SIGTERM); returns Voilà's exit
    status. The data: the snapshot at ``snapshot_path`` as it is, else ``origin`` (the
    configured service, or the demo catalogue) fetched once now.

    A visitor's kernel stops when their page is gone: the page tells Voilà as it closes
    (reloaded, navigated away; the page sets the ``_xsrf`` cookie this request needs, which
    a page from a preheated kernel comes without, see the template), and the kernel
    manager's culling stops it ``idle_timeout`` seconds after the page is gone where that
    request never came (a closed tab, a lost connection); a page still open is never
    culled.

    ``engine``: ``"html"`` (default) renders every visitor's view as a plain HTML page in
    this process over one copy of the catalogue, and keeps nothing per visitor
    (:mod:`educatalog.cli.dashboard_html`); ``"solara"`` serves the notebook's widgets to
    every visitor from this process and one copy (:mod:`educatalog.cli.dashboard_solara`);
    ``"voila"`` starts a kernel with its own copy for each visitor, as described above.
    """
    lang = texts.check_lang(lang)
    if engine not in ENGINES:
        raise UsageError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}.")
    if idle_timeout < 1:
        raise UsageError(f"idle_timeout must be at least 1 second, got {idle_timeout!r}.")
    _needs(*ENGINES[engine], extra="excel" if engine == "html" else "dashboard")
    with tempfile.TemporaryDirectory(prefix="educatalog-dashboard-") as temporary:
        folder = Path(temporary)
        if snapshot_path is None:
            fetched = fetch_snapshot(folder / "snapshot", origin=origin, notify=notify)
            data = fetched.path
        else:
            data = Path(snapshot_path).resolve()
            snapshot.read_manifest(data)  # a SnapshotError names what is wrong, now
        if engine == "solara":
            from educatalog.cli.dashboard_solara import serve_snapshot

            return serve_snapshot(
                data, host=host, port=port, lang=lang, idle_timeout=idle_timeout, notify=notify
            )
        if engine == "html":
            from educatalog.cli import dashboard_html

            return dashboard_html.serve_snapshot(
                data, host=host, port=port, lang=lang, notify=notify
            )
        notebook = folder / f"{_word('title', lang)}.ipynb"
        _write_notebook(notebook, lang)
        env = {k: v for k, v in os.environ.items() if k != "EDUCATALOG_TOKEN"}
        env.update({ENV_SNAPSHOT: str(data), ENV_LANG: lang})
        runtime = folder / "runtime"  # short: the kernels' sockets lie in it
        env["JUPYTER_RUNTIME_DIR"] = str(runtime)
        # The kernels' web sockets: jupyter_server closes one whose pong is older than the
        # ping timeout when it pings, so a timeout equal to the interval (30 s) closed every
        # page's socket at its first ping ("Connection lost, reconnecting"; under load pages
        # never painted). Twice the interval; tornado then says once that it pings with the
        # interval as its own timeout, which is what it should: that line is not printed. In
        # a config file (the command line would make the number a string).
        voila_config = {
            "tornado_settings": {"ws_ping_timeout": 60_000},
            "logging_config": {"loggers": {"tornado.general": {"level": "ERROR"}}},
        }
        (folder / "voila.json").write_text(json.dumps({"Voila": voila_config}), encoding="utf-8")
        configs = [str(folder), env.get("JUPYTER_CONFIG_PATH")]
        env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(filter(None, configs))
        templates = str(PACKAGE / "data" / "jupyter")  # voila/templates/educatalog
        env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [templates, env.get("JUPYTER_PATH")]))
        kernels = str(PACKAGE / "data" / "python")  # educatalog_dashboard_kernel, alone
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [kernels, env.get("PYTHONPATH")]))
        command = tethered.command(  # Voilà, which ends when the dashboard does (killed too)
            "voila",
            str(notebook),
            f"--Voila.ip={host}",
            f"--Voila.port={port}",
            "--Voila.port_retries=0",
            "--Voila.open_browser=False",
            "--VoilaConfiguration.template=educatalog",
            "--VoilaConfiguration.theme=light",
            f"--HTMLExporter.language_code={lang}",
            "--VoilaConfiguration.show_tracebacks=False",
            # a kernel that has read the catalogue waits for the next visitor
            "--VoilaConfiguration.preheat_kernel=True",
            "--Voila.log_level=ERROR",  # the address is said above; a failure still shows
            "--VoilaConfiguration.default_pool_size=1",
            # kernels of pages that are gone: stopped (pooled and connected ones never are)
            f"--MappingKernelManager.cull_idle_timeout={idle_timeout}",
            f"--MappingKernelManager.cull_interval={max(1, min(30, idle_timeout // 2))}",
            "--MappingKernelManager.cull_connected=False",
            # a kernel culled in the turn it starts in no longer raises (see the module)
            f"--MappingKernelManager.kernel_manager_class={KERNEL_MANAGER}",
            *server_args(runtime),
        )
        shown = f"[{host}]" if ":" in host else host
        notify(f"Serving the dashboard at http://{shown}:{port}/ (stop with Ctrl+C)")
        # Voilà in a session of its own: Ctrl+C (or a signal to the dashboard's process group)
        # reaches the dashboard alone, which stops Voilà below once it no longer relays what
        # the stopped kernels say; the open pipe on Voilà's standard input tethers it to the
        # dashboard (educatalog.jupyter.tethered), so a dashboard killed outright takes it along.
        process = subprocess.Popen(
            command,
            env=env,
            cwd=folder,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        stopping = threading.Event()
        relay = threading.Thread(target=_relay, args=(process, stopping, notify), daemon=True)
        relay.start()
        try:
            return process.wait()
        except KeyboardInterrupt:
            stopping.set()  # what the stopped kernels say as they go is no news
            process.terminate()
            try:
                return process.wait(timeout=VOILA_STOP)
            except subprocess.TimeoutExpired:
                notify(f"Voilà did not stop within {VOILA_STOP:g} s: stopped outright.")
                process.kill()
                return process.wait()
        finally:
            relay.join(timeout=RELAY_STOP)
            assert process.stdin is not None
            process.stdin.close()


def _relay(
    process: subprocess.Popen[str], stopping: threading.Event, notify: Callable[[str], None]
) -> None:
    """Voilà's and its kernels' output, line by line, until the dashboard is stopped (a
    kernel waiting for its visitor then complains that its sockets are gone)."""
    assert process.stdout is not None
    for line in process.stdout:
        if not stopping.is_set():
            notify(line.rstrip("\n"))
