"""Benchmark the check of a cached database before it is served (issue 22).

Builds the demo catalogue's database at ``--scale`` (200: about one million events) into its
own cache folder (``--dir``), then measures what checking it costs each time it is used,
against what SQLite's own checks cost and what they find:

(a) the SHA-256 of the file, as ``educatalog.files.cache`` checks it before every use (the file
    in the page cache, and read from disk: its pages dropped first with
    ``posix_fadvise(DONTNEED)``, which drops this file's pages only);
(b) ``demo_database()`` of a cached file: the whole check as the demo server does it;
(c) ``PRAGMA quick_check`` and (d) ``PRAGMA integrity_check`` (the same file, in the cache);
(e) building the file anew, what a damaged file costs.

Then it flips one bit at ``--flips`` random places of a copy of the database of a small
demo (scale 1), one place at a time, and counts which check notices: SQLite keeps no
checksum of its data, so a changed value inside a row passes both of its checks.

    python benchmarks/cache.py --scale 200 --dir /tmp/educatalog-cache-bench
    python benchmarks/cache.py --scale 1            # a quick look
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path


def timed(call: Callable[[], object], repeat: int = 3) -> tuple[float, list[float]]:
    """The median of ``repeat`` runs of ``call`` in seconds, and every run."""
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        call()
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs), runs


def drop_from_page_cache(path: Path) -> None:
    """Ask the kernel to forget this file's pages (the next read comes from the disk)."""
    if not hasattr(os, "posix_fadvise"):  # pragma: no cover - not on Linux
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def pragma(path: Path, check: str) -> str:
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as conn:
        try:
            rows = conn.execute(f"PRAGMA {check}").fetchall()
        except sqlite3.DatabaseError as exc:
            return f"error: {exc}"
    return "ok" if rows == [("ok",)] else f"{len(rows)} problems"


def served_rows(path: Path) -> str | None:
    """Every row of every table (None: SQLite refused the file)."""
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as conn:
            tables = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            return repr(
                [conn.execute(f'SELECT * FROM "{t}"').fetchall() for (t,) in tables.fetchall()]
            )
    except sqlite3.DatabaseError:
        return None


def detection(folder: Path, flips: int) -> dict[str, int]:
    """Flip one bit at each of ``flips`` random places of a small demo database, one at a
    time, and count which check notices the damage (and how often the rows
    served changed without SQLite noticing)."""
    from educatalog.demodata.embedded import demo_database
    from educatalog.files import atomic as files
    from educatalog.files import cache

    path = demo_database(0, 1.0, directory=folder / "small")
    copy = folder / "flipped.sqlite"
    shutil.copyfile(path, copy)
    cache.checksum_file(copy).write_text(f"{files.sha256(copy)}  {copy.name}\n")
    rows = served_rows(copy)
    rng = random.Random(22)
    found = {
        "sha256": 0,
        "quick_check": 0,
        "integrity_check": 0,
        "rows served changed, SQLite noticed nothing": 0,
    }
    size = copy.stat().st_size
    for _ in range(flips):
        at, bit = rng.randrange(100, size), 1 << rng.randrange(8)  # past the file header
        with copy.open("r+b") as handle:
            handle.seek(at)
            byte = handle.read(1)[0]
            handle.seek(at)
            handle.write(bytes([byte ^ bit]))
        found["sha256"] += cache.problem(copy) is not None
        found["quick_check"] += pragma(copy, "quick_check") != "ok"
        integrity = pragma(copy, "integrity_check")
        found["integrity_check"] += integrity != "ok"
        found["rows served changed, SQLite noticed nothing"] += (
            integrity == "ok" and served_rows(copy) != rows
        )
        with copy.open("r+b") as handle:
            handle.seek(at)
            handle.write(bytes([byte]))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=200.0)
    parser.add_argument("--dir", default="/tmp/educatalog-cache-bench")
    parser.add_argument("--flips", type=int, default=200)
    args = parser.parse_args()

    from educatalog.demodata.embedded import demo_database
    from educatalog.files import atomic as files
    from educatalog.files import cache
    from educatalog.server.store import read_rows

    folder = Path(args.dir)
    t0 = time.perf_counter()
    path = demo_database(0, args.scale, directory=folder)
    first = time.perf_counter() - t0
    events = len(read_rows(path, "events"))
    mb = path.stat().st_size / 2**20
    print(f"demo database at scale {args.scale:g}: {events:,} events, {mb:,.0f} MB ({path})")

    results: list[tuple[str, float, str]] = []
    files.sha256(path)  # the file in the page cache, as after its build or an earlier use
    warm, runs = timed(lambda: files.sha256(path), repeat=5)
    results.append(("(a) SHA-256 of the file, in the page cache", warm, _runs(runs)))
    check, runs = timed(lambda: demo_database(0, args.scale, directory=folder), repeat=5)
    results.append(("(b) demo_database() of the cached file (the check)", check, _runs(runs)))

    def cold() -> None:
        drop_from_page_cache(path)
        files.sha256(path)

    cold_s, runs = timed(cold)
    results.append(("(a) SHA-256 of the file, read from disk", cold_s, _runs(runs)))

    def cold_check() -> None:
        drop_from_page_cache(path)
        demo_database(0, args.scale, directory=folder)

    cold_b, runs = timed(cold_check)
    results.append(("(b) demo_database(), the file read from disk", cold_b, _runs(runs)))
    quick, runs = timed(lambda: pragma(path, "quick_check"), repeat=1)
    results.append(("(c) PRAGMA quick_check", quick, _runs(runs)))
    full, runs = timed(lambda: pragma(path, "integrity_check"), repeat=1)
    results.append(("(d) PRAGMA integrity_check", full, _runs(runs)))
    rebuild, runs = timed(lambda: demo_database(0, args.scale, directory=folder, rebuild=True), 1)
    results.append(("(e) building it anew (a damaged file)", rebuild, _runs(runs)))
    assert cache.problem(path) is None

    load = os.getloadavg()
    print(f"(first call built it in {first:.1f} s; load average {load[0]:.1f})\n")
    print(f"| the cached demo database, {events:,} events, {mb:,.0f} MB | seconds | runs |")
    print("|---|---:|---|")
    for what, seconds, shown in results:
        print(f"| {what} | {seconds:.2f} | {shown} |")
    print(f"\nSHA-256: {mb / warm:,.0f} MB/s in the page cache, {mb / cold_s:,.0f} MB/s from disk.")

    found = detection(folder, args.flips)
    print(f"\nOne bit flipped at {args.flips} random places of the scale-1 demo database:")
    print("| check | noticed |")
    print("|---|---:|")
    for what, n in found.items():
        print(f"| {what} | {n} of {args.flips} |")
    sys.stdout.flush()


def _runs(runs: list[float]) -> str:
    return ", ".join(f"{r:.2f}" for r in runs)


if __name__ == "__main__":
    main()
