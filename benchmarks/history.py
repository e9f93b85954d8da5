"""Benchmark the archive: 24 monthly snapshots of a one-million-event demo catalogue.

Builds (once, into ``--dir``) 24 monthly snapshots of the synthetic demo catalogue over time
(:mod:`educatalog.demodata.timeline` at ``--scale``; 140 gives about one million events
per snapshot) as 24 plain snapshots (``snapshot.save``), then one archive of them
(``history.add`` of each snapshot folder), and compares their size on disk. Then measures,
each in a fresh process, the monthly supply by state over the whole archive:

(a) DuckDB: ``history.open(DIR).supply(by="state")``;
(b) the naive way: every plain snapshot loaded into pandas (``snapshot.load``, its offers
    frame), the columns the statistic needs kept, concatenated, and ``stats.supply`` by
    snapshot date and state.

Both report wall time and memory: the peak resident set (``VmHWM``) and the peak above the
process's baseline after its imports (``VmRSS`` once pandas, pyarrow, DuckDB and educatalog
are imported, before any data is read). Their tables are checked equal. Targets: (a) at
least 10 times less peak memory than (b), and faster.

Then the cost of verification (issue 22), each in a fresh process, with and without
``verify`` and twice each: the first read (``history.open`` and ``supply(by="state")``:
every file it reads hashed against the manifest before DuckDB reads it) and later reads
(``supply`` and ``flows("courses")`` again on the same open archive: a ``stat`` per file),
with the archive in the page cache ("warm") and with its pages dropped first ("cold",
``posix_fadvise(DONTNEED)`` on its files only); and ``Archive.verify()`` (every file).

    python benchmarks/history.py --scale 140 --dir /tmp/educatalog-history
    python benchmarks/history.py --scale 140 --verification-only   # the second table only
    python benchmarks/history.py --scale 0.2 --months 6       # a quick look
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

NEEDED = ["event_id", "course_id", "institution", "max_participants", "state"]


def build_plain(folder: Path, scale: float, months: int) -> dict[str, Any]:
    """The plain snapshots (the expensive part: the demo over time at this scale)."""
    from educatalog import snapshot
    from educatalog.demodata.timeline import DemoTimeline

    t0 = time.perf_counter()
    timeline = DemoTimeline(seed=0, scale=scale)
    made = time.perf_counter() - t0
    events = []
    save_seconds = 0.0
    for day in timeline.monthly_dates(months=months):
        catalogue = timeline.catalogue(day)
        events.append(len(catalogue.events))
        t = time.perf_counter()
        snapshot.save(catalogue, folder / "plain" / day.isoformat())
        save_seconds += time.perf_counter() - t
        print(f"  {day}: {len(catalogue.events):,} events", flush=True)
    return {
        "timeline_seconds": made,
        "save_seconds": save_seconds,
        "events_min": min(events),
        "events_max": max(events),
        "events_mean": sum(events) / len(events),
    }


def build_archive(folder: Path) -> float:
    """The archive of the plain snapshots, oldest first; returns the seconds it took."""
    from educatalog import history

    t0 = time.perf_counter()
    for plain in sorted((folder / "plain").iterdir()):
        t = time.perf_counter()
        history.add(folder / "archive", plain, date=plain.name)
        print(f"  {plain.name}: added in {time.perf_counter() - t:.1f} s", flush=True)
    return time.perf_counter() - t0


def size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def _status(field: str) -> float:
    """``VmRSS`` or ``VmHWM`` of this process in MiB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} in /proc/self/status")  # pragma: no cover


def measure_duckdb(archive: str, out: str, baseline: float) -> dict[str, Any]:
    from educatalog import history

    t0 = time.perf_counter()
    table = history.open(archive).supply(by="state")
    seconds = time.perf_counter() - t0
    table.to_pickle(out)
    return {"seconds": seconds, "rows": len(table)}


def measure_naive(plain: str, out: str, baseline: float) -> dict[str, Any]:
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


def drop_from_page_cache(folder: Path) -> None:
    """Ask the kernel to forget the pages of the files in ``folder`` (and no others)."""
    for file in folder.rglob("*"):
        if file.is_file() and hasattr(os, "posix_fadvise"):
            fd = os.open(file, os.O_RDONLY)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


def _timing_checks() -> dict[str, float]:
    """Count the time the archive spends checking its files (hashing, or a ``stat``)."""
    from educatalog.history.integrity import Checker

    spent = {"seconds": 0.0, "calls": 0}
    for name in ("check", "read"):
        original = getattr(Checker, name)

        def timed(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return _original(self, *args, **kwargs)
            finally:
                spent["seconds"] += time.perf_counter() - t0
                spent["calls"] += 1

        setattr(Checker, name, timed)
    return spent


def measure_reads(archive: str, verify: bool, cold: bool) -> dict[str, Any]:
    """The first read of an archive and later ones, with or without verification, and
    the part of each spent checking files."""
    from educatalog import history

    spent = _timing_checks()
    if cold:
        drop_from_page_cache(Path(archive))
    t0 = time.perf_counter()
    arc = history.open(archive, verify=verify)
    first = arc.supply(by="state")
    t1 = time.perf_counter()
    first_checks, spent["seconds"], spent["calls"] = spent["seconds"], 0.0, 0
    again = arc.supply(by="state")
    t2 = time.perf_counter()
    later_checks, later_calls = spent["seconds"], spent["calls"]
    arc.flows("courses")
    t3 = time.perf_counter()
    assert again.equals(first)
    hashed = sum(f.stat().st_size for f in arc.files("offers") + arc.files("funding"))
    result = {
        "first": t1 - t0,
        "later_supply": t2 - t1,
        "later_flows": t3 - t2,
        "first_checks": first_checks,
        "later_checks": later_checks,
        "later_calls": later_calls,
    }
    if verify and not cold:
        t4 = time.perf_counter()
        arc.verify()
        result["verify_all"] = time.perf_counter() - t4
    return {**result, "hashed_mb": hashed / 2**20}


def child(kind: str, source: str, out: str) -> None:
    # the same imports on both sides, so that the baselines compare
    import duckdb  # noqa: F401
    import pandas  # noqa: F401
    import pyarrow.parquet  # noqa: F401

    from educatalog import history, snapshot, stats  # noqa: F401

    if kind.startswith("reads"):  # reads-verify-warm, reads-noverify-cold, ...
        _, verify, cache = kind.split("-")
        print(json.dumps(measure_reads(source, verify == "verify", cache == "cold")))
        return
    baseline = _status("VmRSS")
    measure = measure_duckdb if kind == "duckdb" else measure_naive
    result = measure(source, out, baseline)
    peak = _status("VmHWM")
    result.update(baseline_mb=baseline, peak_mb=peak, above_baseline_mb=peak - baseline)
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
    parser.add_argument("--plain-only", action="store_true", help="build the snapshots only")
    parser.add_argument(
        "--verification-only", action="store_true", help="measure the cost of verification only"
    )
    parser.add_argument("--child", nargs=3, metavar=("KIND", "SOURCE", "OUT"))
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return

    folder = Path(args.dir) / f"scale{args.scale:g}-months{args.months}"
    if not (folder / "plain.json").is_file():
        print(f"Building {args.months} monthly snapshots at scale {args.scale:g} ...")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "plain.json").write_text(json.dumps(build_plain(folder, args.scale, args.months)))
    built = json.loads((folder / "plain.json").read_text())
    if args.plain_only:
        return
    if not (folder / "archive.json").is_file():
        print(f"Archiving the {args.months} snapshots ...")
        (folder / "archive.json").write_text(json.dumps({"add_seconds": build_archive(folder)}))
    built.update(json.loads((folder / "archive.json").read_text()))
    if not args.verification_only:
        compare(folder, args, built)
    verification(folder, args.months)


def compare(folder: Path, args: argparse.Namespace, built: dict[str, Any]) -> None:
    """The archive by DuckDB against every plain snapshot in pandas (the first table)."""
    import pandas as pd

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
    print("| | disk MB | supply by state: s | peak RSS MB | peak above baseline MB |")
    print("|---|---:|---:|---:|---:|")
    for what, mb, run in (
        (f"{args.months} plain snapshots, naive pandas", plain_mb, naive),
        ("the archive, DuckDB", archive_mb, duck),
    ):
        print(
            f"| {what} | {mb:,.0f} | {run['seconds']:.1f} | {run['peak_mb']:,.0f} "
            f"| {run['above_baseline_mb']:,.0f} |"
        )
    print(
        f"\ndisk {plain_mb / archive_mb:.1f}x smaller, {naive['seconds'] / duck['seconds']:.1f}x "
        f"faster, {naive['peak_mb'] / duck['peak_mb']:.1f}x less peak RSS, "
        f"{naive['above_baseline_mb'] / max(duck['above_baseline_mb'], 1):.1f}x less peak "
        f"above the baseline (baselines {naive['baseline_mb']:,.0f} and "
        f"{duck['baseline_mb']:,.0f} MB); equal tables."
    )
    print(
        f"building: timeline {built['timeline_seconds']:.0f} s, {args.months} x snapshot.save "
        f"{built['save_seconds']:.0f} s, {args.months} x history.add {built['add_seconds']:.0f} s"
    )


def verification(folder: Path, months: int) -> None:
    """What verifying the files costs: first and later reads, with and without (the second
    table); each configuration three times, in alternating fresh processes, the fastest
    run kept; and the time spent checking files itself, measured inside each run."""
    runs: dict[str, list[dict[str, Any]]] = {}
    kinds = [f"reads-{v}-{c}" for c in ("warm", "cold") for v in ("verify", "noverify")]
    for _ in range(3):
        for kind in kinds:
            runs.setdefault(kind, []).append(run_child(kind, folder / "archive", folder / "x"))
    best = {k: {m: min(r[m] for r in rs) for m in rs[0]} for k, rs in runs.items()}
    load = os.getloadavg()
    mb = size(folder / "archive") / 2**20
    hashed = best[kinds[0]]["hashed_mb"]
    print(f"\nVerification: the archive of {months} snapshots ({mb:,.0f} MB; the first supply")
    print(f"hashes the {hashed:,.0f} MB of offers and funding files it reads);")
    print(f"load average {load[0]:.1f}, the fastest of three runs each\n")
    print(
        "| `history.open(DIR, verify=...)` | first read: open + supply by state "
        "| of which checking files | later read: supply by state | of which checking files "
        "| later read: flows of courses |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for cache in ("warm", "cold"):
        where = "in the page cache" if cache == "warm" else "read from disk"
        for verify in ("verify", "noverify"):
            r = best[f"reads-{verify}-{cache}"]
            print(
                f"| verify={verify == 'verify'}, archive {where} | {r['first']:.2f} s "
                f"| {r['first_checks']:.3f} s | {r['later_supply']:.2f} s "
                f"| {r['later_checks']:.3f} s ({r['later_calls']:.0f} checks) "
                f"| {r['later_flows']:.2f} s |"
            )
    print(f"\n`Archive.verify()` (every file hashed): {best[kinds[0]]['verify_all']:.2f} s")


if __name__ == "__main__":
    main()
