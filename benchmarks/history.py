"""Benchmark the archive: 24 monthly snapshots of a one-million-event demo catalogue.

Builds (once, into ``--dir``) 24 monthly snapshots of the synthetic demo catalogue over time
(:mod:`educatalog.server.demo_history` at ``--scale``; 140 gives about one million events
per snapshot), both as 24 plain snapshots (``snapshot.save``) and as one archive
(``history.add``), and compares their size on disk. Then measures, each in a fresh process,
the monthly supply by state over the whole archive:

(a) DuckDB: ``history.open(DIR).supply(by="state")``;
(b) the naive way: every plain snapshot loaded into pandas (``snapshot.load``, its offers
    frame), the columns the statistic needs kept, concatenated, and ``stats.supply`` by
    snapshot date and state.

Both report wall time and peak memory (``ru_maxrss``), and their tables are checked equal.
Targets: (a) at least 10 times less peak memory than (b), and faster.

    python benchmarks/history.py --scale 140 --dir /tmp/educatalog-history
    python benchmarks/history.py --scale 0.2 --months 6       # a quick look
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

NEEDED = ["event_id", "course_id", "institution", "max_participants", "state"]


def build(folder: Path, scale: float, months: int) -> dict[str, Any]:
    from educatalog import history, snapshot
    from educatalog.server.demo_history import DemoTimeline

    t0 = time.perf_counter()
    timeline = DemoTimeline(seed=0, scale=scale)
    made = time.perf_counter() - t0
    plain, archive = folder / "plain", folder / "archive"
    events = []
    add_seconds = save_seconds = 0.0
    for day in timeline.monthly_dates(months=months):
        catalogue = timeline.catalogue(day)
        events.append(len(catalogue.events))
        t = time.perf_counter()
        snapshot.save(catalogue, plain / day.isoformat())
        save_seconds += time.perf_counter() - t
        t = time.perf_counter()
        history.add(archive, catalogue, date=day)
        add_seconds += time.perf_counter() - t
        print(f"  {day}: {len(catalogue.events):,} events", flush=True)
    return {
        "timeline_seconds": made,
        "save_seconds": save_seconds,
        "add_seconds": add_seconds,
        "events_min": min(events),
        "events_max": max(events),
        "events_mean": sum(events) / len(events),
    }


def size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def measure_duckdb(archive: str, out: str) -> dict[str, Any]:
    from educatalog import history

    t0 = time.perf_counter()
    table = history.open(archive).supply(by="state")
    seconds = time.perf_counter() - t0
    table.to_pickle(out)
    return {"seconds": seconds, "rows": len(table)}


def measure_naive(plain: str, out: str) -> dict[str, Any]:
    import pandas as pd

    from educatalog import snapshot, stats

    t0 = time.perf_counter()
    frames = []
    for folder in sorted(Path(plain).iterdir()):
        offers = snapshot.load(folder).offers()[NEEDED]
        frames.append(offers.assign(snapshot_date=pd.Timestamp(folder.name)))
        del offers
    data = pd.concat(frames, ignore_index=True)
    del frames
    table = stats.supply(data, by=["snapshot_date", "state"], normalize=False)
    seconds = time.perf_counter() - t0
    table.to_pickle(out)
    return {"seconds": seconds, "rows": len(table)}


def child(kind: str, source: str, out: str) -> None:
    result = measure_duckdb(source, out) if kind == "duckdb" else measure_naive(source, out)
    result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(result))


def run_child(kind: str, source: Path, out: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", kind, str(source), str(out)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=140.0)
    parser.add_argument("--months", type=int, default=24)
    parser.add_argument("--dir", default="/tmp/educatalog-history-bench")
    parser.add_argument("--child", nargs=3, metavar=("KIND", "SOURCE", "OUT"))
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    import pandas as pd

    folder = Path(args.dir) / f"scale{args.scale:g}-months{args.months}"
    built: dict[str, Any] = {}
    if not (folder / "archive" / "archive.json").is_file():
        print(f"Building {args.months} monthly snapshots at scale {args.scale:g} ...")
        built = build(folder, args.scale, args.months)
        (folder / "build.json").write_text(json.dumps(built))
    else:
        built = json.loads((folder / "build.json").read_text())
    plain_mb = size(folder / "plain") / 2**20
    archive_mb = size(folder / "archive") / 2**20
    duck = run_child("duckdb", folder / "archive", folder / "duckdb.pkl")
    naive = run_child("naive", folder / "plain", folder / "naive.pkl")
    a, b = pd.read_pickle(folder / "duckdb.pkl"), pd.read_pickle(folder / "naive.pkl")
    b.index = b.index.set_levels(b.index.levels[0].astype(a.index.levels[0].dtype), level=0)
    pd.testing.assert_frame_equal(
        a.drop(columns="share"), b, check_index_type=False, check_dtype=False
    )
    load = os.getloadavg()
    print(f"\n{args.months} monthly snapshots, {built['events_mean']:,.0f} events each on average")
    print(f"({built['events_min']:,} to {built['events_max']:,}); load average {load[0]:.1f}\n")
    print("| | disk MB | supply by state: seconds | peak memory MB |")
    print("|---|---:|---:|---:|")
    print(
        f"| {args.months} plain snapshots, naive pandas | {plain_mb:,.0f} | {naive['seconds']:.1f} "
        f"| {naive['peak_mb']:,.0f} |"
    )
    print(
        f"| archive, DuckDB | {archive_mb:,.0f} | {duck['seconds']:.1f} | {duck['peak_mb']:,.0f} |"
    )
    print(
        f"\ndisk {plain_mb / archive_mb:.1f}x smaller, {naive['seconds'] / duck['seconds']:.1f}x "
        f"faster, {naive['peak_mb'] / duck['peak_mb']:.1f}x less peak memory; equal tables."
    )
    print(
        f"building: timeline {built['timeline_seconds']:.0f} s, 24 x snapshot.save "
        f"{built['save_seconds']:.0f} s, 24 x history.add {built['add_seconds']:.0f} s"
    )


if __name__ == "__main__":
    main()
