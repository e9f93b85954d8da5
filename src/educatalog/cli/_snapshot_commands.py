"""The snapshot commands of the ``educatalog`` command line: ``fetch`` (a snapshot, a newer
one beside it, or a dated snapshot in an archive) and ``export`` (a snapshot's tables as
CSV, Excel or Parquet), and the database ``serve --snapshot`` serves
(:mod:`educatalog.snapshot`)."""

from __future__ import annotations

import argparse
import datetime as dt
from typing import TYPE_CHECKING, Any

from educatalog.cli._common import fail, interrupt_on_sigterm, positive_float, say
from educatalog.errors import EducatalogError
from educatalog.loading.connection import resolve_origin

if TYPE_CHECKING:
    from pathlib import Path

    from educatalog.cli.fetch import Archived, Fetched

    Commands = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["add_snapshot_commands", "run_export", "run_fetch", "snapshot_database"]


def add_snapshot_commands(commands: Commands) -> None:
    """Add ``fetch`` and ``export`` to the command line."""
    fetch = commands.add_parser(
        "fetch",
        help="download the whole catalogue into a snapshot (or refresh one)",
        description="Download every collection and link table (concurrently) into a snapshot: "
        "Parquet files and a manifest. Without --url or --demo: the service at $EDUCATALOG_URL "
        "(token in $EDUCATALOG_TOKEN), or the embedded demo catalogue when that is not set. "
        "--update PATH downloads again from where PATH came from and writes a NEW snapshot "
        "beside it (PATH-<UTC time>, or --out), with a summary of what changed.",
    )
    fetch.set_defaults(run=run_fetch)
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
    fetch.add_argument("--scale", type=positive_float, default=None, help="demo size (1)")
    fetch.add_argument("--seed", type=int, default=None, help="demo random seed")

    export = commands.add_parser(
        "export",
        help="write the tables of a snapshot as CSV, Excel or Parquet files",
        description="Write every table of a snapshot into DIR: one CSV or Parquet file per "
        "table, or one Excel workbook with a sheet per table. Personal fields of contacts are "
        "left out unless --include-personal is given.",
    )
    export.set_defaults(run=run_export)
    export.add_argument("--snapshot", required=True, metavar="PATH", help="the snapshot")
    export.add_argument("--format", required=True, choices=["csv", "xlsx", "parquet"])
    export.add_argument("--out", required=True, metavar="DIR", help="folder to write into")
    export.add_argument(
        "--include-personal",
        action="store_true",
        help="keep the personal fields of contacts (if the snapshot holds them)",
    )


def run_fetch(args: argparse.Namespace) -> int:
    """``educatalog fetch``: a snapshot, a newer one beside it, or a dated one in an archive."""
    """``fetch``: the arguments checked, then :mod:`educatalog.cli.fetch` does the work."""
    from educatalog.cli import fetch

    if not args.out and not args.update and not args.archive:
        return fail("fetch", "give --out PATH (a new snapshot), --update PATH or --archive DIR.", 2)
    interrupt_on_sigterm()  # so that the half-written snapshot is removed
    if (args.scale is not None or args.seed is not None or args.as_of) and not args.demo:
        return fail(
            "fetch", "--scale, --seed and --as-of choose the demo catalogue: add --demo.", 2
        )
    if args.archive and (args.out or args.update):
        return fail("fetch", "--archive takes the place of --out and --update: give one.", 2)
    try:
        as_of = dt.date.fromisoformat(args.as_of) if args.as_of else None
        date = dt.date.fromisoformat(args.date) if args.date else None
    except ValueError as exc:
        return fail("fetch", f"a date is YYYY-MM-DD: {exc}", 2)
    collections = args.collections.split(",") if args.collections else None
    options: dict[str, Any] = {
        "collections": collections,
        "include_personal": args.include_personal,
        "notify": say,
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
            return fail("fetch", "interrupted; the archive was not changed.", 130)
        return fail("fetch", "interrupted; no snapshot was written.", 130)
    except (EducatalogError, OSError) as exc:
        return fail("fetch", str(exc))
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


def run_export(args: argparse.Namespace) -> int:
    """``educatalog export``: a snapshot's tables as CSV, Excel or Parquet files."""
    from educatalog import snapshot

    try:
        manifest = snapshot.read_manifest(args.snapshot)
        files = snapshot.export(
            args.snapshot, args.out, format=args.format, include_personal=args.include_personal
        )
    except (EducatalogError, OSError) as exc:
        return fail("export", str(exc))
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


def snapshot_database(snapshot_path: str) -> tuple[Path, str] | None:
    """The reference-server database of a snapshot (built once, cached) and its label."""
    from educatalog import snapshot

    print(f"Preparing the snapshot {snapshot_path} ...", flush=True)
    try:
        path = snapshot.database(snapshot_path)
        manifest = snapshot.read_manifest(snapshot_path)
    except (EducatalogError, OSError) as exc:
        fail("serve", str(exc), 2)
        return None
    source = manifest["source"]
    what = "SYNTHETIC demo data" if source.get("demo") else (source.get("url") or "unknown")
    label = f"the snapshot {snapshot_path} ({what}, fetched {source.get('fetched_at')})"
    if manifest.get("personal_fields_omitted"):
        print("The snapshot holds no personal fields of contacts: they are served as null.")
    return path, label
