"""Benchmark drawing the district map (educatalog.plots.district_map).

For each ``--scales`` (default 1 and 20: about 5,500 and 110,000 events) a fresh Python
process loads the demo catalogue's offers, draws one other chart so that matplotlib's own
start (fonts, the first figure) is paid before any clock runs, then times each chart drawn
once ("cold": for the district map, reading and projecting the shapes and deriving the
state borders included) and the best of ``--repeat`` draws after that ("warm"). A draw is
the chart function and rendering its figure with Agg, as a reader waits for it. The
baseline, in the same processes, is the tile map of the 16 states (plots.tile_map). The
target (issue 33): at most 2 s a map.

    python benchmarks/district_map.py
    python benchmarks/district_map.py --scales 1 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

CHARTS = ("tile_map", "district_map", "district_map(state=Bayern)")


def drawn(chart: Callable[[], Any]) -> float:
    """Seconds to make the figure and render it."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    start = time.perf_counter()
    FigureCanvasAgg(chart()).draw()
    return time.perf_counter() - start


def child(scale: float, repeat: int) -> None:
    """One scale in this (fresh) process: a JSON line of times."""
    import matplotlib

    matplotlib.use("Agg")
    import educatalog
    from educatalog import plots

    start = time.perf_counter()
    with educatalog.demo(scale=scale, seed=0) as client:
        offers = educatalog.load_catalogue(client).offers()
    loaded = time.perf_counter() - start
    drawn(lambda: plots.supply_bars(offers))  # matplotlib's own start, outside the clocks
    charts: dict[str, Callable[[], Any]] = {
        "tile_map": lambda: plots.tile_map(offers),
        "district_map": lambda: plots.district_map(offers),
        "district_map(state=Bayern)": lambda: plots.district_map(offers, state="Bayern"),
    }
    cold = {name: drawn(chart) for name, chart in charts.items()}
    warm = {name: min(drawn(chart) for _ in range(repeat)) for name, chart in charts.items()}
    print(json.dumps({"events": len(offers), "load": loaded, "cold": cold, "warm": warm}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", type=float, nargs="+", default=[1.0, 20.0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child, args.repeat)
        return
    rows = []
    for scale in args.scales:
        command = [sys.executable, __file__, "--child", str(scale), "--repeat", str(args.repeat)]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        result = json.loads(done.stdout.strip().splitlines()[-1])
        rows.append((scale, result))
        print(f"scale {scale:g}: {result['events']:,} events, loaded in {result['load']:.1f} s")
    print(f"\nbest of {args.repeat} warm draws; cold: the first draw in a fresh process\n")
    print("| chart | scale | events | cold s | warm s |")
    print("|---|---:|---:|---:|---:|")
    for scale, result in rows:
        for name in CHARTS:
            cold, warm = result["cold"][name], result["warm"][name]
            print(f"| {name} | {scale:g} | {result['events']:,} | {cold:.2f} | {warm:.2f} |")


if __name__ == "__main__":
    main()
