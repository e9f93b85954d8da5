"""The ``educatalog`` command line.

``educatalog serve --demo`` serves the synthetic demo catalogue; ``educatalog serve --db FILE``
serves an existing database file; ``educatalog report --out DIR`` writes the supply report.
``educatalog fetch --out PATH`` downloads the whole catalogue into a snapshot (``--update PATH``
writes a newer one beside it), ``educatalog serve --snapshot PATH`` serves a snapshot and
``educatalog export --snapshot PATH`` writes its tables as CSV, Excel or Parquet.
``educatalog fetch --archive DIR`` adds a dated snapshot to an archive (``educatalog.history``).
``educatalog notebooks --out DIR [--lang en]`` copies the ready-made notebooks to where the
user works; ``educatalog dashboard`` serves the explorer as a web page (Voilà).
``python -m educatalog`` is the same command.
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from educatalog._version import __version__
from educatalog.cli._common import fail, interrupt_on_sigterm, positive_float, positive_int, say
from educatalog.cli._snapshot_commands import add_snapshot_commands, snapshot_database
from educatalog.errors import EducatalogError, MissingDependency
from educatalog.loading.connection import resolve_origin

if TYPE_CHECKING:
    Commands = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["main"]


def build_parser() -> argparse.ArgumentParser:
    """The command line: one subcommand a task, each with the function that runs it
    (``set_defaults(run=...)``)."""
    parser = argparse.ArgumentParser(
        prog="educatalog",
        description="Tools for the educational catalogue service and its reference server.",
    )
    parser.add_argument("--version", action="version", version=f"educatalog {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_serve_command(commands)
    _add_report_command(commands)
    add_snapshot_commands(commands)
    _add_notebooks_command(commands)
    _add_dashboard_command(commands)
    return parser


def _add_serve_command(commands: Commands) -> None:
    serve = commands.add_parser(
        "serve",
        help="serve the catalogue API (the demo catalogue or a database file)",
        description="Serve the catalogue API over the demo catalogue or a database file.",
    )
    serve.set_defaults(run=_serve)
    source = serve.add_mutually_exclusive_group(required=True)
    source.add_argument("--demo", action="store_true", help="serve the synthetic demo catalogue")
    source.add_argument("--db", metavar="FILE", help="serve an existing database file")
    source.add_argument(
        "--snapshot", metavar="PATH", help="serve a snapshot (made by `educatalog fetch`)"
    )
    serve.add_argument(
        "--scale", type=positive_float, default=1.0, help="demo size (1: ~5,000 events)"
    )
    serve.add_argument("--seed", type=int, default=None, help="demo random seed (default 0)")
    serve.add_argument("--rebuild", action="store_true", help="rebuild the cached demo database")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8055, help="port to listen on (default 8055)")
    serve.add_argument(
        "--token",
        action="append",
        help="accepted bearer token (repeatable; visible in `ps`: prefer --token-file or "
        "$EDUCATALOG_SERVER_TOKENS; default: the documented demo token)",
    )
    serve.add_argument(
        "--token-file",
        metavar="FILE",
        help="read accepted bearer tokens from FILE, one a line (# starts a comment)",
    )
    serve.add_argument(
        "--limit-max", type=positive_int, default=None, help="largest allowed page size"
    )
    serve.add_argument(
        "--query-time",
        type=positive_float,
        default=None,
        help="CPU seconds a query may take, plus 0.1 ms a row written (default 10)",
    )


def _add_report_command(commands: Commands) -> None:
    report = commands.add_parser(
        "report",
        help="write the course-supply report (HTML, chart PNGs, Excel tables)",
        description="Execute the report notebook (06-report) against the service and write "
        "report.html (self-contained, code hidden), charts/*.png, tables.xlsx, the executed "
        "report.ipynb and manifest.json into DIR. Without --demo or --url: the service at "
        "$EDUCATALOG_URL (token in $EDUCATALOG_TOKEN), or the embedded demo catalogue when "
        "that is not set.",
    )
    report.set_defaults(run=_report)
    where = report.add_mutually_exclusive_group()
    where.add_argument("--demo", action="store_true", help="use the embedded demo catalogue")
    where.add_argument("--url", help="base URL of the service (token in $EDUCATALOG_TOKEN)")
    report.add_argument("--out", required=True, metavar="DIR", help="folder to write into")
    report.add_argument("--format", choices=["html"], default="html", help="report format")
    report.add_argument(
        "--state",
        action="append",
        metavar="NAME",
        help="keep only this state (repeatable): a German or English name or an ISO code "
        "such as DE-BY",
    )
    report.add_argument(
        "--period",
        metavar="YYYY",
        help="count the events starting in this calendar year (default: every event listed "
        "on the data's date); not with --start/--end",
    )
    report.add_argument("--start", metavar="YYYY-MM-DD", help="first start date to keep")
    report.add_argument("--end", metavar="YYYY-MM-DD", help="last start date to keep")
    _add_lang(report, "the report's text, labels and number formats")
    report.add_argument(
        "--archive",
        metavar="DIR",
        help="add the catalogue over time from this archive (educatalog fetch --archive)",
    )
    report.add_argument(
        "--population",
        metavar="FILE",
        help="inhabitants per state for the per-capita rates: a CSV of state, population, "
        "date, source (default: the shipped figures of the newest date on or before the "
        "data's date, Zensus 2022 basis)",
    )
    report.add_argument(
        "--min-cases",
        type=positive_int,
        default=3,
        metavar="N",
        help="show costs resting on fewer than N courses and rates resting on fewer than N "
        "events as / (not reliable enough; default 3)",
    )
    report.add_argument(
        "--no-pdf",
        dest="pdf",
        action="store_false",
        help="write report.html without report.pdf (no Chromium needed, faster)",
    )
    report.add_argument("--scale", type=positive_float, default=1.0, help="demo size")
    report.add_argument("--seed", type=int, default=None, help="demo random seed (default 0)")


def _add_notebooks_command(commands: Commands) -> None:
    notebooks = commands.add_parser(
        "notebooks",
        help="copy the ready-made notebooks to where you work",
        description="Copy the eight ready-made notebooks (01-quickstart ... 08-districts) into "
        "DIR, in one language, to open them there with JupyterLab. A copy you have edited is "
        "kept unless --force is given; an unedited copy of an earlier version is brought up to "
        "date.",
    )
    notebooks.set_defaults(run=_notebooks)
    notebooks.add_argument(
        "--out", default="notebooks", metavar="DIR", help="folder to copy into (default: notebooks)"
    )
    notebooks.add_argument(
        "--force", action="store_true", help="replace copies you have edited, too"
    )
    _add_lang(notebooks, "the notebooks' text, tables and charts")


def _add_dashboard_command(commands: Commands) -> None:
    dashboard = commands.add_parser(
        "dashboard",
        help="serve the explorer as a web page (for people without Jupyter)",
        description="Serve the course-supply explorer as a web page: code hidden, the view "
        "of the controls kept in the page's address. By default (--engine html) the server "
        "renders each view as a plain HTML page over one copy of the catalogue and keeps "
        "nothing per visitor; --engine solara serves the notebook's widgets to every visitor "
        "from one process, --engine voila each from a kernel of their own. "
        "The catalogue is fetched once at the start (the service at $EDUCATALOG_URL, or "
        "--url, or the synthetic demo catalogue with --demo or when no service is set), or "
        "read from a snapshot (--snapshot).",
    )
    dashboard.set_defaults(run=_dashboard)
    where = dashboard.add_mutually_exclusive_group()
    where.add_argument("--demo", action="store_true", help="use the embedded demo catalogue")
    where.add_argument("--url", help="base URL of the service (token in $EDUCATALOG_TOKEN)")
    where.add_argument("--snapshot", metavar="PATH", help="show a snapshot (educatalog fetch)")
    dashboard.add_argument("--host", default="127.0.0.1", help="address to listen on")
    dashboard.add_argument(
        "--port", type=int, default=8866, help="port to listen on (default 8866)"
    )
    _add_lang(dashboard, "the page")
    dashboard.add_argument("--scale", type=positive_float, default=1.0, help="demo size")
    dashboard.add_argument("--seed", type=int, default=None, help="demo random seed (default 0)")
    dashboard.add_argument(
        "--idle-timeout",
        type=positive_int,
        default=120,
        metavar="SECONDS",
        help="end a visitor's session this long after their page is gone (default 120)",
    )
    dashboard.add_argument(
        "--engine",
        choices=["html", "solara", "voila"],
        default="html",
        help="html: the page rendered on the server as plain HTML over one copy of the data, "
        "nothing kept per visitor (default; the fastest for many visitors, needs no widgets); "
        "solara: the notebook's widgets, all visitors in one process over one copy; "
        "voila: a kernel with its own copy for each visitor",
    )


def _add_lang(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--lang",
        choices=["de", "en"],
        default="de",
        help=f"language of {what} (default: de)",
    )


def _notebooks(args: argparse.Namespace) -> int:
    from educatalog.files.workspace import copy_notebooks
    from educatalog.jupyter.kernels import lab_command

    try:
        done = copy_notebooks(args.out, force=args.force, lang=args.lang)
    except EducatalogError as exc:
        return fail("notebooks", str(exc))
    for label, paths in (
        ("copied", done.copied),
        ("up to date", done.unchanged),
        ("replaced", done.replaced),
    ):
        for path in paths:
            print(f"  {label:<10}  {path}")
    for path in done.kept:
        print(f"  {'kept':<10}  {path} (you edited it; --force replaces it)")
    # JupyterLab's kernels over IPC, as make lab starts them: no warning of unencrypted TCP
    opened = shlex.join(lab_command(args.out))
    print(f"The notebooks are in {done.folder}. Open them with: {opened}")
    return 0


def _report(args: argparse.Namespace) -> int:
    from educatalog.files import manifests
    from educatalog.report import make_report

    try:
        origin = resolve_origin(args.url, demo=args.demo, seed=args.seed, scale=args.scale)
        if origin.demo:
            print("No service URL: using the embedded SYNTHETIC demo catalogue.", flush=True)
        page = make_report(
            args.out,
            origin=origin,
            states=args.state,
            start=args.start,
            end=args.end,
            lang=args.lang,
            notify=say,
            archive=args.archive,
            population=args.population,
            period=args.period,
            min_cases=args.min_cases,
            pdf=args.pdf,
        )
    except EducatalogError as exc:
        return fail("report", str(exc))
    print(f"Report written to {page}")
    print(f"  charts: {page.parent / 'charts'}, tables: {page.parent / 'tables.xlsx'}")
    written = manifests.read_report(page.parent)  # checked against its checksum of itself
    if written is not None and written["source"]["demo"]:
        print("(built on SYNTHETIC demo data)")
    return 0


def _dashboard(args: argparse.Namespace) -> int:
    from educatalog.cli.dashboard import STOP_BOUND, serve

    # so that Voilà, its kernels and the temporary folder go too, within STOP_BOUND seconds
    interrupt_on_sigterm(bound=STOP_BOUND)
    try:
        origin = None
        if not args.snapshot:
            origin = resolve_origin(args.url, demo=args.demo, seed=args.seed, scale=args.scale)
            if origin.demo:
                print("No service URL: using the embedded SYNTHETIC demo catalogue.", flush=True)
        return serve(
            origin=origin,
            snapshot_path=args.snapshot,
            host=args.host,
            port=args.port,
            lang=args.lang,
            idle_timeout=args.idle_timeout,
            notify=say,
            engine=args.engine,
        )
    except EducatalogError as exc:
        return fail("dashboard", str(exc))


def _server_tokens(args: argparse.Namespace) -> list[str] | None:
    """The tokens of --token, --token-file and $EDUCATALOG_SERVER_TOKENS (comma- or
    space-separated); None when none is given (the demo token then)."""
    import os
    import re
    from pathlib import Path

    tokens = list(args.token or [])
    if args.token_file:
        text = Path(args.token_file).read_text(encoding="utf-8")
        lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
        if not any(lines):
            raise ValueError(f"{args.token_file} holds no token")
        tokens += [line for line in lines if line]
    env = os.environ.get("EDUCATALOG_SERVER_TOKENS", "")
    tokens += [t for t in re.split(r"[\s,]+", env) if t]
    return tokens or None


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from educatalog.demodata import DEFAULT_SEED, DEMO_TOKEN
    from educatalog.demodata.embedded import demo_database
    from educatalog.server.app import QUERY_TIME, create_app
    from educatalog.server.sqlite_library import serve_reads_in_parallel
    from educatalog.server.uvicorn_server import server_config

    serve_reads_in_parallel()  # before any database is opened: reads in threads, unqueued

    try:
        given = _server_tokens(args)
    except (OSError, ValueError) as exc:
        return fail("serve", f"cannot read tokens: {exc}", 2)

    if args.demo:
        seed = DEFAULT_SEED if args.seed is None else args.seed
        print(f"Preparing the demo catalogue (seed {seed}, scale {args.scale:g})...")
        path = demo_database(seed, args.scale, rebuild=args.rebuild)
        label = "the SYNTHETIC demo catalogue"
    elif args.snapshot:
        prepared = snapshot_database(args.snapshot)
        if prepared is None:
            return 2
        path, label = prepared
    else:
        from pathlib import Path

        from educatalog.server.store import check_database

        path = Path(args.db)
        problem = check_database(path)
        if problem is not None:
            return fail("serve", problem, 2)
        label = str(path)
    tokens = given or [DEMO_TOKEN]
    query_time = QUERY_TIME if args.query_time is None else args.query_time
    app = create_app(path, tokens=tokens, limit_max=args.limit_max, query_time=query_time)
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{args.port}"
    print(f"Serving {label} at {url}")
    if given:
        print(f"Tokens: {len(tokens)} given (--token, --token-file, $EDUCATALOG_SERVER_TOKENS)")
    else:
        print(f"Token: {DEMO_TOKEN}  (the fixed demo token)")
    print(f"  export EDUCATALOG_URL={url}")
    if not given:
        print(f"  export EDUCATALOG_TOKEN={DEMO_TOKEN}")
    print("Stop with Ctrl+C.", flush=True)
    with contextlib.suppress(KeyboardInterrupt):  # raised again once uvicorn has stopped
        uvicorn.Server(server_config(app, host=args.host, port=args.port)).run()
    print("Stopped.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except MissingDependency as exc:  # a command of an extra that is not installed
        return fail(args.command, str(exc))
