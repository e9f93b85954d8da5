"""Benchmark one update of the explorer dashboard on about a million events.

An update is what a change of a control costs: filtering the offers, computing the table,
drawing the chart and rendering its PNG. The explorer filters with boolean masks over the
frame's categorical codes (one kept per filter) and hands the statistics and the chart only
the columns they need. The baseline, in the same run, is the naive way: ``DataFrame.query``
over the whole frame, ``groupby`` of the filtered frame with every column, and the same
chart drawn from it. The goal of issue 5 is an update within a second.

    python benchmarks/widgets.py                       # the demo at scale 200: 1M events
    python benchmarks/widgets.py --scale 1 --rows 1000000   # scale 1 repeated to 1M rows

The first loads the demo catalogue over the reference server (cached database; minutes);
the second repeats the small demo's offers with new event and course ids (seconds).
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd

NONE = "—"


@dataclass
class Scenario:
    name: str
    by: str = "state"
    by2: str = NONE
    measure: str = "events"
    states: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    durations: tuple[str, ...] = ()
    months: tuple[str, str] | None = None
    voucher: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


SCENARIOS = [
    Scenario("events by state, no filter"),
    Scenario("events by state, Bayern", states=("Bayern",)),
    Scenario(
        "courses by form category, 2 states",
        by="instruction_form_category",
        measure="courses",
        states=("Bayern", "Berlin"),
    ),
    Scenario(
        "institutions by duration, voucher",
        by="duration_class",
        measure="institutions",
        voucher=True,
    ),
    Scenario("capacity by state, 6 months", measure="capacity", months=("2025-03", "2025-08")),
    Scenario("state x form category (shares)", by2="instruction_form_category"),
    Scenario("events by month (line)", by="month"),
    Scenario(
        "every filter, courses by time",
        by="instruction_time",
        measure="courses",
        states=("Bayern", "Nordrhein-Westfalen"),
        categories=("Präsenz", "Digital"),
        durations=("mehr als 1 Woche bis 1 Monat",),
        months=("2025-01", "2025-12"),
        voucher=True,
    ),
]


def demo_offers(scale: float) -> pd.DataFrame:
    import educatalog
    from educatalog.demodata import DEMO_TOKEN
    from educatalog.demodata.embedded import demo_database
    from educatalog.server.app import create_app
    from educatalog.server.uvicorn_server import ServerThread

    database = demo_database(None, scale)
    with (
        ServerThread(create_app(database, tokens=[DEMO_TOKEN])) as server,
        educatalog.Client(server.url, token=DEMO_TOKEN, progress=False) as client,
    ):
        return educatalog.load_catalogue(client).offers()


def repeated(offers: pd.DataFrame, rows: int) -> pd.DataFrame:
    """``offers`` repeated to ``rows`` rows, each copy with new event and course ids."""
    copies = -(-rows // len(offers))
    step_event = int(offers["event_id"].max()) + 1
    step_course = int(offers["course_id"].max()) + 1
    parts = []
    for k in range(copies):
        part = offers.copy()
        part["event_id"] = part["event_id"] + k * step_event
        part["course_id"] = part["course_id"] + k * step_course
        parts.append(part)
    out = pd.concat(parts, ignore_index=True).iloc[:rows]
    out.attrs = dict(offers.attrs)
    return out


def explorer_update(explorer: Any, s: Scenario) -> tuple[float, dict[str, float], pd.DataFrame]:
    """Set the controls as ``s`` says (debounced, so nothing runs yet), then one update."""
    c = explorer.controls
    explorer.reset()
    c["by"].value = s.by
    c["by2"].value = s.by2
    c["measure"].value = s.measure
    c["states"].value = s.states
    c["categories"].value = s.categories
    c["durations"].value = s.durations
    if s.months is not None:
        c["start"].value = tuple(pd.Period(m, "M") for m in s.months)
    c["voucher"].value = s.voucher
    assert explorer.pending
    explorer.flush()
    assert explorer.error is None, explorer.error
    return explorer.seconds, dict(explorer.timings), explorer.table


def naive_update(offers: pd.DataFrame, s: Scenario) -> tuple[float, dict[str, float], pd.DataFrame]:
    """The same update the naive way: query, groupby on the whole frame, chart from it."""
    from educatalog import plots

    t0 = time.perf_counter()
    conditions = []
    env: dict[str, Any] = {}
    for column, values in (
        ("state", s.states),
        ("instruction_form_category", s.categories),
        ("duration_class", s.durations),
    ):
        if values:
            env[column + "_chosen"] = list(values)
            conditions.append(f"{column} in @{column}_chosen")
    if s.voucher:
        conditions.append("education_voucher == True")
    if s.months is not None:
        env["low"] = pd.Period(s.months[0], "M").start_time
        env["high"] = pd.Period(s.months[1], "M").end_time
        conditions.append("@low <= event_start_date <= @high")
    frame = offers.query(" and ".join(conditions), local_dict=env) if conditions else offers
    for column, values in (
        ("state", s.states),
        ("instruction_form_category", s.categories),
        ("duration_class", s.durations),
    ):
        if values:  # a filter narrows the levels (docs/definitions.md), as the explorer's does
            frame = frame.assign(**{column: frame[column].cat.set_categories(list(values))})
    t1 = time.perf_counter()
    keys = []
    for name in [s.by] + ([s.by2] if s.by2 != NONE else []):
        if name in ("month", "quarter", "year"):
            start = frame["event_start_date"]
            keys.append(start.dt.year if name == "year" else start.dt.to_period(name[0].upper()))
        else:
            keys.append(frame[name])
    groups = frame.groupby(keys, observed=False, dropna=False)
    table = groups.agg(
        events=("event_id", "nunique"),
        courses=("course_id", "nunique"),
        institutions=("institution", "nunique"),
        capacity=("max_participants", "sum"),
    )
    if s.by2 != NONE:
        table = table[s.measure].unstack(fill_value=0)
    t2 = time.perf_counter()
    if s.by in ("month", "quarter", "year") and s.measure == "events":
        fig = plots.starts_over_time(frame, freq=s.by)
    elif s.by2 == NONE:
        fig = plots.supply_bars(frame, s.by, measure=s.measure)
    else:
        fig = plots.heatmap(frame, s.by, s.by2, normalize=False, measure=s.measure)
    t3 = time.perf_counter()
    buffer = io.BytesIO()
    with mpl.rc_context(plots.STYLE):
        fig.savefig(buffer, format="png", dpi=100)
    t4 = time.perf_counter()
    steps = {"filter": t1 - t0, "table": t2 - t1, "chart": t3 - t2, "png": t4 - t3}
    return t4 - t0, steps, table


def same_numbers(explorer_table: pd.DataFrame, naive_table: pd.DataFrame, s: Scenario) -> bool:
    """Both ways give the same values (compared as sorted lists)."""
    ours = explorer_table[s.measure] if s.by2 == NONE else explorer_table
    theirs = naive_table[s.measure] if s.by2 == NONE else naive_table
    a = np.sort(ours.to_numpy(dtype=float, na_value=0).ravel())
    b = np.sort(theirs.to_numpy(dtype=float, na_value=0).ravel())
    return a.shape == b.shape and bool(np.allclose(a, b))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=200.0, help="demo size (200: 1M events)")
    parser.add_argument("--rows", type=int, default=0, help="repeat the offers to this many rows")
    parser.add_argument("--repeat", type=int, default=3, help="runs per scenario (median)")
    args = parser.parse_args()

    from educatalog import widgets

    t0 = time.perf_counter()
    offers = demo_offers(args.scale)
    print(
        f"demo at scale {args.scale:g}: {len(offers):,} offers in {time.perf_counter() - t0:.1f} s"
    )
    if args.rows:
        offers = repeated(offers, args.rows)
        print(f"repeated to {len(offers):,} rows")

    t0 = time.perf_counter()
    explorer = widgets.explorer(offers, debounce=3600)  # updates run on flush() only
    print(f"explorer(): built and first update in {time.perf_counter() - t0:.2f} s\n")
    for s in SCENARIOS:  # first touches: derived and categorised columns are cached
        explorer_update(explorer, s)

    header = (
        f"{'scenario':<38} {'explorer':>9} {'filter':>7} {'table':>7} {'chart':>7} {'png':>7}"
        f" {'naive':>8} {'filter':>7} {'table':>7} {'speed-up':>8}"
    )
    print(header)
    print("-" * len(header))
    totals = [0.0, 0.0]
    for s in SCENARIOS:
        ours = [explorer_update(explorer, s) for _ in range(args.repeat)]
        theirs = [naive_update(offers, s) for _ in range(args.repeat)]
        assert same_numbers(ours[0][2], theirs[0][2], s), f"different numbers: {s.name}"
        mine = statistics.median(r[0] for r in ours)
        base = statistics.median(r[0] for r in theirs)
        steps = {k: statistics.median(r[1][k] for r in ours) for k in ours[0][1]}
        naive_steps = {k: statistics.median(r[1][k] for r in theirs) for k in theirs[0][1]}
        totals[0] += mine
        totals[1] += base
        print(
            f"{s.name:<38} {mine:>8.2f}s {steps['filter']:>6.3f}s {steps['table']:>6.3f}s"
            f" {steps['chart']:>6.3f}s {steps['png']:>6.3f}s {base:>7.2f}s"
            f" {naive_steps['filter']:>6.3f}s {naive_steps['table']:>6.3f}s {base / mine:>7.1f}x"
        )
    n = len(SCENARIOS)
    print(
        f"{'mean':<38} {totals[0] / n:>8.2f}s {'':>7} {'':>7} {'':>7} {'':>7}"
        f" {totals[1] / n:>7.2f}s {'':>7} {'':>7} {totals[1] / totals[0]:>7.1f}x"
    )
    print(f"\n{len(offers):,} offers; medians of {args.repeat} runs; chart PNG at 100 dpi")


if __name__ == "__main__":
    main()
