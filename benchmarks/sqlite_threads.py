"""Benchmark SQLite reads in parallel threads of one process, with SQLite's count of its
memory on (as Python starts it) and off (as ``educatalog serve`` sets it up,
:func:`educatalog.server.sqlite_library.serve_reads_in_parallel`).

Each thread has its own connection and reads pages of 1,000 events with every stored field,
as the server writes them for the toolkit's downloads (``json_object`` joined by
``group_concat``), from its own part of the table. Every setting runs in a fresh process, the
two alternating, ``--rounds`` times; the table gives the median wall time of all pages and
the CPU time per page.

    python benchmarks/sqlite_threads.py --scale 200     # one million events
    python benchmarks/sqlite_threads.py --scale 5 --pages 60
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time


def run(db: str, threads: int, pages: int, statistics_off: bool) -> dict[str, float]:
    """``pages`` pages read by ``threads`` threads at once (in this process)."""
    import sqlite3

    from educatalog.model.schema import SCHEMA
    from educatalog.server import sql
    from educatalog.server.sqlite_library import memory_in_use, serve_reads_in_parallel

    if statistics_off and not serve_reads_in_parallel():
        raise SystemExit("SQLite's memory statistics could not be turned off here")
    coll = SCHEMA["events"]
    item = sql.flat_item_sql(coll, [f.name for f in coll.stored_fields], [])
    page = "SELECT * FROM events AS t0 WHERE t0.id > ? ORDER BY t0.id LIMIT 1000"
    text = sql.json_rows_sql(page, item, joined=True)
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        (last,) = conn.execute("SELECT max(id) FROM events").fetchone()
    share = pages // threads
    stride = max(1, last // (threads * share + 1))

    def read(part: int) -> None:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, check_same_thread=False)
        for k in range(share):
            conn.execute(text, ((part * share + k) * stride,)).fetchone()
        conn.close()

    workers = [threading.Thread(target=read, args=(part,)) for part in range(threads)]
    wall, cpu = time.perf_counter(), time.process_time()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return {
        "seconds": time.perf_counter() - wall,
        "cpu_per_page_ms": (time.process_time() - cpu) / (share * threads) * 1000,
        "counted": float(memory_in_use() or 0),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=200.0)
    parser.add_argument("--pages", type=int, default=240, help="pages per setting")
    parser.add_argument("--threads", default="1,2,4")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        db, threads, off = json.loads(args.child)
        print(json.dumps(run(db, threads, args.pages, off)))
        return

    from educatalog.demodata.embedded import demo_database

    db = str(demo_database(scale=args.scale))
    counts = [int(n) for n in args.threads.split(",")]
    results: dict[tuple[int, bool], list[dict[str, float]]] = {}
    for _ in range(args.rounds):
        for threads in counts:
            for off in (False, True):
                child = json.dumps([db, threads, off])
                cmd = [sys.executable, __file__, "--pages", str(args.pages), "--child", child]
                out = subprocess.run(cmd, capture_output=True, text=True, check=True)
                results.setdefault((threads, off), []).append(json.loads(out.stdout))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{db}; {args.pages} pages of 1,000 events per setting; median of {args.rounds}")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {load}\n")
    print("| threads | memory counted: s / CPU ms a page | not counted: s / CPU ms a page |")
    print("|---:|---:|---:|")
    for threads in counts:
        cells = []
        for off in (False, True):
            runs = results[(threads, off)]
            seconds = statistics.median(r["seconds"] for r in runs)
            cpu = statistics.median(r["cpu_per_page_ms"] for r in runs)
            cells.append(f"{seconds:.2f} / {cpu:.2f}")
        print(f"| {threads} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
