"""Benchmark the offers frame and the full set of statistics tables on a large catalogue.

The demo catalogue at ``--scale`` (200: about one million events) is served by the reference
server and loaded once with ``educatalog.load_catalogue`` (timed, for context). Then each
step runs on that catalogue: building the offers frame (plain and with funding types) and
every table of :mod:`educatalog.stats`. The baseline, in the same run, is SQLite answering
the nearest equivalent query straight from the server's database file (its joins on
indexed ids, no transfer): the toolkit's pandas steps should stay within a small factor of
it, and the whole set in seconds.

    python benchmarks/stats.py --scale 200
    python benchmarks/stats.py --scale 1
"""

from __future__ import annotations

import argparse
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

JOINS = """
FROM events e
LEFT JOIN courses c ON c.id = e.course
LEFT JOIN addresses a ON a.id = e.address
LEFT JOIN states s ON s.id = a.state
LEFT JOIN instruction_forms f ON f.id = e.instruction_form
LEFT JOIN instruction_times t ON t.id = e.instruction_time
"""

BASELINES: dict[str, str] = {
    "offers()": f"SELECT e.id, c.title, s.name, a.zip, a.city, f.name, f.category, t.name {JOINS}",
    "supply(by=state)": "SELECT s.name, COUNT(*), COUNT(DISTINCT e.course), "
    f"COUNT(DISTINCT e.institution), SUM(e.max_participants) {JOINS} GROUP BY s.name",
    "supply(by=[state, category])": f"SELECT s.name, f.category, COUNT(*) {JOINS} "
    "GROUP BY s.name, f.category",
    "supply(by=month)": "SELECT substr(event_start_date, 1, 7), COUNT(*) FROM events GROUP BY 1",
    "capacity(by=instruction_time)": "SELECT t.name, SUM(e.max_participants), "
    f"COUNT(e.max_participants) {JOINS} GROUP BY t.name",
}


def timed(step: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    result = step()
    return time.perf_counter() - t0, result


def sql(database: Path, text: str) -> Callable[[], Any]:
    def run() -> Any:
        with sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True) as conn:
            return conn.execute(text).fetchall()

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=200.0)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()

    import educatalog
    from educatalog import stats
    from educatalog.demodata import DEMO_TOKEN
    from educatalog.demodata.embedded import demo_database
    from educatalog.server.app import create_app
    from educatalog.server.uvicorn_server import ServerThread

    seconds, database = timed(lambda: demo_database(args.seed, args.scale))
    print(f"demo database at scale {args.scale:g}: {database} ({seconds:.1f} s)")
    with (
        ServerThread(create_app(database, tokens=[DEMO_TOKEN])) as server,
        educatalog.Client(server.url, token=DEMO_TOKEN, progress=False) as client,
    ):
        seconds, cat = timed(lambda: educatalog.load_catalogue(client))
    events = len(cat.events)
    print(f"load_catalogue: {events:,} events, {len(cat)} tables in {seconds:.1f} s\n")

    offers_time, offers = timed(cat.offers)
    funded_time, funded = timed(lambda: cat.offers(funding=True))
    steps: list[tuple[str, Callable[[], Any]]] = [
        ("supply(by=state)", lambda: stats.supply(offers, "state")),
        (
            "supply(by=[state, category])",
            lambda: stats.supply(offers, ["state", "instruction_form_category"]),
        ),
        ("supply(by=month)", lambda: stats.supply(offers, "month")),
        ("supply(by=funding_type)", lambda: stats.supply(funded, "funding_type")),
        (
            "crosstab(state, duration_class)",
            lambda: stats.crosstab(offers, "state", "duration_class"),
        ),
        ("per_capita()", lambda: stats.per_capita(offers)),
        ("capacity(by=instruction_time)", lambda: stats.capacity(offers, "instruction_time")),
        ("costs(by=category)", lambda: stats.costs(offers, "instruction_form_category")),
        ("quality()", lambda: stats.quality(offers, cat)),
    ]
    rows = [
        ("offers()", offers_time),
        (f"offers(funding=True) [{len(funded):,} rows]", funded_time),
    ]
    rows += [(name, timed(step)[0]) for name, step in steps]

    print(f"{'step':<44} {'educatalog':>11} {'SQLite':>9} {'ratio':>7}")
    total = 0.0
    for name, seconds in rows:
        total += seconds
        key = name.split(" [")[0]
        if key in BASELINES:
            base, _ = timed(sql(database, BASELINES[key]))
            print(f"{name:<44} {seconds:>10.2f}s {base:>8.2f}s {seconds / base:>6.1f}x")
        else:
            print(f"{name:<44} {seconds:>10.2f}s {'':>9} {'':>7}")
    print(f"{'all steps':<44} {total:>10.2f}s")
    memory = offers.memory_usage(deep=True).sum() / 2**20
    print(f"\noffers frame: {len(offers):,} rows x {offers.shape[1]} columns, {memory:,.0f} MiB")


if __name__ == "__main__":
    main()
