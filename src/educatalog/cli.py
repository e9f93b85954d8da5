"""The ``educatalog`` command line.

``educatalog serve --demo`` serves the synthetic demo catalogue; ``educatalog serve --db FILE``
serves an existing database file; ``educatalog report --out DIR`` writes the supply report.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from educatalog.server.demo import DEFAULT_SEED

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
    parser = argparse.ArgumentParser(
        prog="educatalog",
        description="Tools for the educational catalogue service and its reference server.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser(
        "serve",
        help="serve the catalogue API (the demo catalogue or a database file)",
        description="Serve the catalogue API over the demo catalogue or a database file.",
    )
    source = serve.add_mutually_exclusive_group(required=True)
    source.add_argument("--demo", action="store_true", help="serve the synthetic demo catalogue")
    source.add_argument("--db", metavar="FILE", help="serve an existing database file")
    serve.add_argument(
        "--scale", type=_positive_float, default=1.0, help="demo size (1: ~5,000 events)"
    )
    serve.add_argument("--seed", type=int, default=DEFAULT_SEED, help="demo random seed")
    serve.add_argument("--rebuild", action="store_true", help="rebuild the cached demo database")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8055, help="port to listen on (default 8055)")
    serve.add_argument(
        "--token",
        action="append",
        help="accepted bearer token (repeatable; default: the documented demo token)",
    )
    serve.add_argument(
        "--limit-max", type=_positive_int, default=None, help="largest allowed page size"
    )

    report = commands.add_parser(
        "report",
        help="write the course-supply report (HTML, chart PNGs, Excel tables)",
        description="Execute the report notebook (06-report) against the service and write "
        "report.html (self-contained, code hidden), charts/*.png, tables.xlsx, the executed "
        "report.ipynb and manifest.json into DIR. Without --demo or --url: the service at "
        "$EDUCATALOG_URL (token in $EDUCATALOG_TOKEN), or the embedded demo catalogue when "
        "that is not set.",
    )
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
    report.add_argument("--scale", type=_positive_float, default=1.0, help="demo size")
    report.add_argument("--seed", type=int, default=DEFAULT_SEED, help="demo random seed")
    return parser


def _report(args: argparse.Namespace) -> int:
    import os

    from educatalog.client import Client
    from educatalog.errors import EducatalogError
    from educatalog.report import write_report

    url = args.url or (None if args.demo else os.environ.get("EDUCATALOG_URL"))
    server = None
    try:
        if url is None:
            from educatalog.server.demo import DEMO_TOKEN
            from educatalog.server.embedded import start_demo_server

            print("No service URL: using the embedded SYNTHETIC demo catalogue.", flush=True)
            server = start_demo_server(args.seed, args.scale)
            url, token = server.url, DEMO_TOKEN
        else:
            token = os.environ.get("EDUCATALOG_TOKEN") or None
        with Client(url, token=token) as client:
            demo = client.is_demo
        print("Running the report notebook...", flush=True)
        page = write_report(
            args.out,
            url=url,
            token=token,
            states=args.state,
            start=args.start,
            end=args.end,
            demo=demo,
        )
    except EducatalogError as exc:
        print(f"educatalog report: {exc}", file=sys.stderr)
        return 1
    finally:
        if server is not None:
            server.close()
    print(f"Report written to {page}")
    print(f"  charts: {page.parent / 'charts'}, tables: {page.parent / 'tables.xlsx'}")
    if demo:
        print("(built on SYNTHETIC demo data)")
    return 0


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from educatalog.server.app import create_app
    from educatalog.server.demo import DEMO_TOKEN
    from educatalog.server.embedded import demo_database

    if args.demo:
        print(f"Preparing the demo catalogue (seed {args.seed}, scale {args.scale:g})...")
        path = demo_database(args.seed, args.scale, rebuild=args.rebuild)
        label = "the SYNTHETIC demo catalogue"
    else:
        from pathlib import Path

        path = Path(args.db)
        if not path.is_file():
            print(f"educatalog serve: no database file at {path}", file=sys.stderr)
            return 2
        label = str(path)
    tokens = args.token or [DEMO_TOKEN]
    app = create_app(path, tokens=tokens, limit_max=args.limit_max)
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{args.port}"
    print(f"Serving {label} at {url}")
    if args.token:
        print("Token: the one(s) given with --token")
    else:
        print(f"Token: {DEMO_TOKEN}  (the fixed demo token)")
    print(f"  export EDUCATALOG_URL={url}")
    if not args.token:
        print(f"  export EDUCATALOG_TOKEN={DEMO_TOKEN}")
    print("Stop with Ctrl+C.", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", lifespan="off")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    if args.command == "serve":
        return _serve(args)
    if args.command == "report":
        return _report(args)
    raise AssertionError(args.command)  # pragma: no cover


if __name__ == "__main__":
    sys.exit(main())
