"""Benchmark a snapshot: fetching the whole catalogue into one, against loading it back.

The demo catalogue at ``--scale`` (200: about one million events) is served by the reference
server in its own process. (a) fetching: ``educatalog.load_catalogue`` over HTTP (all 20
collections and 5 link tables, concurrently) and ``snapshot.save``; (b) loading:
``snapshot.load`` of that snapshot, checksums verified, three times, each in a fresh process
(the median counts). Target: (b) at least 20 times faster than (a).

    EDUCATALOG_CACHE=/tmp/educache python benchmarks/snapshot.py --scale 200
    python benchmarks/snapshot.py --scale 1
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from educatalog.demodata import DEMO_TOKEN


def fetch(url: str, out: str) -> dict[str, Any]:
    import educatalog
    from educatalog import snapshot

    t0 = time.perf_counter()
    with educatalog.Client(url, token=DEMO_TOKEN, progress=False) as client:
        catalogue = educatalog.load_catalogue(client)
    downloaded = time.perf_counter() - t0
    snapshot.save(catalogue, out)
    seconds = time.perf_counter() - t0
    return {
        "seconds": seconds,
        "download": downloaded,
        "save": seconds - downloaded,
        "rows": sum(len(f) for f in catalogue.values()),
        "events": len(catalogue.events),
    }


def load(path: str) -> dict[str, Any]:
    from educatalog import snapshot

    t0 = time.perf_counter()
    catalogue = snapshot.load(path)
    seconds = time.perf_counter() - t0
    size = sum(f.stat().st_size for f in Path(path).iterdir())
    return {
        "seconds": seconds,
        "rows": sum(len(f) for f in catalogue.values()),
        "events": len(catalogue.events),
        "mb": size / 2**20,
    }


def _run(*args: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=200.0)
    parser.add_argument("--step", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--path", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step == "fetch":
        print(json.dumps(fetch(args.url, args.path)))
        return
    if args.step == "load":
        print(json.dumps(load(args.path)))
        return

    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    from educatalog.demodata.embedded import demo_database
    from server import _start_server

    proc, url = _start_server(demo_database(scale=args.scale))
    with tempfile.TemporaryDirectory(prefix="educatalog-snapshot-bench-") as tmp:
        path = str(Path(tmp) / "snapshot")
        try:
            a = _run("--step", "fetch", "--url", url, "--path", path)
        finally:
            proc.terminate()
            proc.wait(10)
        loads = sorted(
            (_run("--step", "load", "--path", path) for _ in range(3)), key=lambda r: r["seconds"]
        )
    b = loads[1]
    assert a["rows"] == b["rows"], (a, b)
    print(
        f"{a['events']:,} events, {a['rows']:,} rows in 25 tables; "
        f"snapshot {b['mb']:.0f} MB on disk\n"
    )
    print("| step | rows | seconds |")
    print("|---|---:|---:|")
    print(
        f"| (a) fetch into a snapshot: `load_catalogue` ({a['download']:.1f} s) + "
        f"`snapshot.save` ({a['save']:.1f} s) | {a['rows']:,} | {a['seconds']:.1f} |"
    )
    print(
        f"| (b) `snapshot.load`, checksums verified (median of 3; "
        f"{loads[0]['seconds']:.2f}–{loads[2]['seconds']:.2f} s) | {b['rows']:,} | "
        f"{b['seconds']:.2f} |"
    )
    print()
    print(f"(a)/(b) = {a['seconds'] / b['seconds']:.0f} (target >= 20)")


if __name__ == "__main__":
    main()
