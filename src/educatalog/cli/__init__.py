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
import datetime as dt
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from educatalog._version import __version__
from educatalog.errors import EducatalogError
from educatalog.loading.connection import resolve_origin

if TYPE_CHECKING:
    from pathlib import Path

    Commands = argparse._SubParsersAction[argparse.ArgumentParser]

    from educatalog.cli.fetch import Archived, Fetched

__all__ = ["main"]


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


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
    _add_snapshot_commands(commands)
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
        "--scale", type=_positive_float, default=1.0, help="demo size (1: ~5,000 events)"
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
        "--limit-max", type=_positive_int, default=None, help="largest allowed page size"
    )
    serve.add_argument(
        "--query-time",
        type=_positive_float,
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
        "--state", action="append", metavar="NAME", help="keep only this state (repeatable)"
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
    report.add_argument("--scale", type=_positive_float, default=1.0, help="demo size")
    report.add_argument("--seed", type=int, default=None, help="demo random seed (default 0)")


def _add_notebooks_command(commands: Commands) -> None:
    notebooks = commands.add_parser(
        "notebooks",
        help="copy the ready-made notebooks to where you work",
        description="Copy the seven ready-made notebooks (01-quickstart ... 07-trends) into DIR, "
        "in one language, to open them there with JupyterLab. A copy you have edited is kept "
        "unless --force is given; an unedited copy of an earlier version is brought up to date.",
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
        description="Serve the course-supply explorer as a web page with Voilà: code hidden, "
        "one kernel for every visitor, the view of the controls kept in the page's address. "
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
    dashboard.add_argument("--scale", type=_positive_float, default=1.0, help="demo size")
    dashboard.add_argument("--seed", type=int, default=None, help="demo random seed (default 0)")
    dashboard.add_argument(
        "--idle-timeout",
        type=_positive_int,
        default=120,
        metavar="SECONDS",
        help="stop a visitor's kernel this long after their page is gone (default 120)",
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

    try:
        done = copy_notebooks(args.out, force=args.force, lang=args.lang)
    except EducatalogError as exc:
        return _fail("notebooks", str(exc))
    for label, paths in (
        ("copied", done.copied),
        ("up to date", done.unchanged),
        ("replaced", done.replaced),
    ):
        for path in paths:
            print(f"  {label:<10}  {path}")
    for path in done.kept:
        print(f"  {'kept':<10}  {path} (you edited it; --force replaces it)")
    print(f"The notebooks are in {done.folder}. Open them with: jupyter lab {args.out}")
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
            notify=_say,
            archive=args.archive,
            population=args.population,
        )
    except EducatalogError as exc:
        return _fail("report", str(exc))
    print(f"Report written to {page}")
    print(f"  charts: {page.parent / 'charts'}, tables: {page.parent / 'tables.xlsx'}")
    written = manifests.read_report(page.parent)  # checked against its checksum of itself
    if written is not None and written["source"]["demo"]:
        print("(built on SYNTHETIC demo data)")
    return 0


def _dashboard(args: argparse.Namespace) -> int:
    from educatalog.cli.dashboard import STOP_BOUND, serve

    # so that Voilà, its kernels and the temporary folder go too, within STOP_BOUND seconds
    _interrupt_on_sigterm(bound=STOP_BOUND)
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
            notify=_say,
        )
    except EducatalogError as exc:
        return _fail("dashboard", str(exc))


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
    from educatalog.server.run import server_config
    from educatalog.server.sqlite_library import serve_reads_in_parallel

    serve_reads_in_parallel()  # before any database is opened: reads in threads, unqueued

    try:
        given = _server_tokens(args)
    except (OSError, ValueError) as exc:
        return _fail("serve", f"cannot read tokens: {exc}", 2)

    if args.demo:
        seed = DEFAULT_SEED if args.seed is None else args.seed
        print(f"Preparing the demo catalogue (seed {seed}, scale {args.scale:g})...")
        path = demo_database(seed, args.scale, rebuild=args.rebuild)
        label = "the SYNTHETIC demo catalogue"
    elif args.snapshot:
        prepared = _snapshot_database(args.snapshot)
        if prepared is None:
            return 2
        path, label = prepared
    else:
        from pathlib import Path

        from educatalog.server.store import check_database

        path = Path(args.db)
        problem = check_database(path)
        if problem is not None:
            return _fail("serve", problem, 2)
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


# ---------------------------------------------------------------------------------------
# Snapshots: `fetch`, `export` and `serve --snapshot` (see educatalog.snapshot)


def _add_snapshot_commands(commands: Commands) -> None:
    fetch = commands.add_parser(
        "fetch",
        help="download the whole catalogue into a snapshot (or refresh one)",
        description="Download every collection and link table (concurrently) into a snapshot: "
        "Parquet files and a manifest. Without --url or --demo: the service at $EDUCATALOG_URL "
        "(token in $EDUCATALOG_TOKEN), or the embedded demo catalogue when that is not set. "
        "--update PATH downloads again from where PATH came from and writes a NEW snapshot "
        "beside it (PATH-<UTC time>, or --out), with a summary of what changed.",
    )
    fetch.set_defaults(run=_fetch)
    fetch.add_argument("--out", metavar="PATH", help="where to write the snapshot (must not exist)")
    fetch.add_argument("--update", metavar="PATH", help="refresh the snapshot at PATH")
    fetch.add_argument(
        "--archive",
        metavar="DIR",
        help="add a dated snapshot to the archive DIR (educatalog.history)",
    )
    fetch.add_argument(
        "--date", metavar="YYYY-MM-DD", help="the archived snapshot's date (default: today, UTC)"
    )
    fetch.add_argument(
        "--as-of",
        metavar="YYYY-MM-DD",
        help="with --demo: the demo catalogue as listed on that date (the demo over time)",
    )
    where = fetch.add_mutually_exclusive_group()
    where.add_argument("--url", help="base URL of the service (token in $EDUCATALOG_TOKEN)")
    where.add_argument("--demo", action="store_true", help="use the embedded demo catalogue")
    fetch.add_argument(
        "--collections",
        metavar="A,B,...",
        help="only these collections or link tables (default: all 20 and the 5 link tables)",
    )
    fetch.add_argument(
        "--include-personal",
        action="store_true",
        help="keep the personal fields of contacts (names, phone numbers, e-mail addresses)",
    )
    fetch.add_argument("--scale", type=_positive_float, default=None, help="demo size (1)")
    fetch.add_argument("--seed", type=int, default=None, help="demo random seed")

    export = commands.add_parser(
        "export",
        help="write the tables of a snapshot as CSV, Excel or Parquet files",
        description="Write every table of a snapshot into DIR: one CSV or Parquet file per "
        "table, or one Excel workbook with a sheet per table. Personal fields of contacts are "
        "left out unless --include-personal is given.",
    )
    export.set_defaults(run=_export)
    export.add_argument("--snapshot", required=True, metavar="PATH", help="the snapshot")
    export.add_argument("--format", required=True, choices=["csv", "xlsx", "parquet"])
    export.add_argument("--out", required=True, metavar="DIR", help="folder to write into")
    export.add_argument(
        "--include-personal",
        action="store_true",
        help="keep the personal fields of contacts (if the snapshot holds them)",
    )


def _fail(command: str, message: str, status: int = 1) -> int:
    print(f"educatalog {command}: {message}", file=sys.stderr)
    return status


def _say(line: str) -> None:
    print(line, flush=True)


def _fetch(args: argparse.Namespace) -> int:
    """``fetch``: the arguments checked, then :mod:`educatalog.cli.fetch` does the work."""
    from educatalog.cli import fetch

    if not args.out and not args.update and not args.archive:
        return _fail(
            "fetch", "give --out PATH (a new snapshot), --update PATH or --archive DIR.", 2
        )
    _interrupt_on_sigterm()  # so that the half-written snapshot is removed
    if (args.scale is not None or args.seed is not None or args.as_of) and not args.demo:
        return _fail(
            "fetch", "--scale, --seed and --as-of choose the demo catalogue: add --demo.", 2
        )
    if args.archive and (args.out or args.update):
        return _fail("fetch", "--archive takes the place of --out and --update: give one.", 2)
    try:
        as_of = dt.date.fromisoformat(args.as_of) if args.as_of else None
        date = dt.date.fromisoformat(args.date) if args.date else None
    except ValueError as exc:
        return _fail("fetch", f"a date is YYYY-MM-DD: {exc}", 2)
    collections = args.collections.split(",") if args.collections else None
    options: dict[str, Any] = {
        "collections": collections,
        "include_personal": args.include_personal,
        "notify": _say,
    }
    try:
        origin = None
        if args.url or args.demo or not args.update:
            origin = resolve_origin(
                args.url,
                demo=args.demo,
                seed=args.seed,
                scale=args.scale,
                as_of=as_of.isoformat() if as_of else None,
            )
        if args.archive:
            archived = fetch.fetch_to_archive(args.archive, date=date, origin=origin, **options)
        elif args.update:
            done = fetch.update_snapshot(args.update, out=args.out, origin=origin, **options)
        else:
            done = fetch.fetch_snapshot(args.out, origin=origin, **options)
    except KeyboardInterrupt:
        if args.archive:
            return _fail("fetch", "interrupted; the archive was not changed.", 130)
        return _fail("fetch", "interrupted; no snapshot was written.", 130)
    except (EducatalogError, OSError) as exc:
        return _fail("fetch", str(exc))
    if args.archive:
        _print_archived(archived, args.archive)
    else:
        _print_fetched(done)
    return 0


def _print_fetched(done: Fetched) -> None:
    catalogue = done.catalogue
    print(f"Snapshot written to {done.path}: {len(catalogue)} tables, {done.rows:,} rows.")
    if catalogue.source.demo:
        print("(SYNTHETIC demo data)")
    if done.include_personal:
        print("Personal fields of contacts are INCLUDED (as asked).")
    elif "contacts" in catalogue:
        print("Personal fields of contacts are left out (--include-personal keeps them).")
    changes = done.changes
    if changes is not None:
        print(f"\nChanges since {done.previous}:")
        print(changes.to_string())
        total = changes[["added", "removed", "changed"]].sum()
        print(
            f"In all: {total['added']:,} rows added, {total['removed']:,} removed, "
            f"{total['changed']:,} changed."
        )
        if changes.isna().any().any():
            print("(<NA>: a table that only one of the two snapshots holds)")


def _print_archived(archived: Archived, folder: str) -> None:
    catalogue, when, dates = archived.catalogue, archived.date, archived.archive.dates
    rows = sum(len(frame) for frame in catalogue.values())
    print(f"Snapshot of {when} added to {folder}: {len(catalogue)} tables, {rows:,} rows.")
    print(f"The archive holds {len(dates)} snapshots ({dates[0]} to {when}).")
    if catalogue.source.demo:
        print("(SYNTHETIC demo data)")


def _interrupt_on_sigterm(*, bound: float | None = None) -> None:
    """Turn SIGTERM into KeyboardInterrupt, so that clean-ups run as on Ctrl+C.

    With ``bound``, a process still running ``bound`` seconds after the first Ctrl+C or
    SIGTERM prints where each of its threads waits (to standard error) and exits with
    status 1: a clean-up that hangs cannot keep it, and says where it hung.
    """
    import faulthandler
    import signal

    armed = False

    def interrupt(signum: int, frame: object) -> None:
        nonlocal armed
        if bound is not None and not armed:
            armed = True
            faulthandler.dump_traceback_later(bound, exit=True)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    if bound is not None:
        signal.signal(signal.SIGINT, interrupt)


def _export(args: argparse.Namespace) -> int:
    from educatalog import snapshot

    try:
        manifest = snapshot.read_manifest(args.snapshot)
        files = snapshot.export(
            args.snapshot, args.out, format=args.format, include_personal=args.include_personal
        )
    except (EducatalogError, OSError) as exc:
        return _fail("export", str(exc))
    for file in files:
        print(f"  {file}")
    print(f"Exported {len(files)} file(s) to {args.out}.")
    held = bool(manifest.get("include_personal"))
    if args.include_personal and not held:
        print(
            "Note: the snapshot was saved without the personal fields of contacts, so the "
            "export has none either."
        )
    elif args.include_personal:
        print("Personal fields of contacts are INCLUDED (as asked).")
    elif "contacts" in manifest["tables"]:
        print("Personal fields of contacts are left out (--include-personal keeps them).")
    return 0


def _snapshot_database(snapshot_path: str) -> tuple[Path, str] | None:
    """The reference-server database of a snapshot (built once, cached) and its label."""
    from educatalog import snapshot

    print(f"Preparing the snapshot {snapshot_path} ...", flush=True)
    try:
        path = snapshot.database(snapshot_path)
        manifest = snapshot.read_manifest(snapshot_path)
    except (EducatalogError, OSError) as exc:
        _fail("serve", str(exc), 2)
        return None
    source = manifest["source"]
    what = "SYNTHETIC demo data" if source.get("demo") else (source.get("url") or "unknown")
    label = f"the snapshot {snapshot_path} ({what}, fetched {source.get('fetched_at')})"
    if manifest.get("personal_fields_omitted"):
        print("The snapshot holds no personal fields of contacts: they are served as null.")
    return path, label


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
