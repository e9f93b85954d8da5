"""Benchmark giving events their district (educatalog.frames.districts.assign_districts).

``--events`` addresses (default one million) are drawn from ``--addresses`` distinct ones
(default 20,000: a large catalogue's), themselves drawn from the shipped table of postal
codes and places, a tenth with a city the table does not know and a few without a postal
code. The baseline, in the same run, is the plain way: one pandas merge of every event's
(postal code, place) with the table, then of every postal code, without looking each
distinct address up once. The target (issue 33): at most 1 s for a million events.

    python benchmarks/districts.py
    python benchmarks/districts.py --events 100000 --addresses 5000
"""

from __future__ import annotations

import argparse
import io
import time
from collections.abc import Callable
from importlib import resources

import numpy as np
import pandas as pd

from educatalog.frames.districts import assign_districts


def _table(name: str) -> pd.DataFrame:
    text = resources.files("educatalog").joinpath("data", "districts", name).read_text("utf-8")
    return pd.read_csv(io.StringIO(text), dtype="string")


def addresses(events: int, distinct: int, seed: int = 0) -> tuple[pd.Series, pd.Series]:
    """``events`` (postal code, city) pairs drawn from ``distinct`` addresses."""
    rng = np.random.default_rng(seed)
    pairs = _table("plz_place_district.csv").sample(distinct, replace=True, random_state=seed)
    codes = pairs["plz"].to_numpy(dtype=object)
    places = pairs["place"].to_numpy(dtype=object)
    unknown = rng.random(distinct) < 0.1
    places[unknown] = "Unbekannter Ort"
    codes[rng.random(distinct) < 0.01] = None
    pick = rng.integers(0, distinct, events)
    return pd.Series(codes[pick], dtype="string"), pd.Series(places[pick], dtype="string")


def plain_merge(code: pd.Series, city: pd.Series) -> pd.Series:
    """The baseline: every event merged with both tables."""
    by_place = _table("plz_place_district.csv").drop_duplicates(["plz", "place"], keep=False)
    by_code = _table("plz_district.csv").drop_duplicates("plz", keep=False)[["plz", "ags"]]
    frame = pd.DataFrame({"plz": code, "place": city})
    frame = frame.merge(by_place, how="left", on=["plz", "place"])
    frame = frame.merge(by_code, how="left", on="plz", suffixes=("", "_code"))
    return frame["ags"].fillna(frame["ags_code"])


def best(run: Callable[[], object], repeat: int) -> float:
    """The fastest of ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--addresses", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    code, city = addresses(args.events, args.addresses)
    assign_districts(code.head(10), city.head(10))  # the tables read once, as in a session
    found = assign_districts(code, city)
    unknown = found["district_key"].isna().mean()
    ours = best(lambda: assign_districts(code, city), args.repeat)
    plain = best(lambda: plain_merge(code, city), args.repeat)
    print(f"{args.events:,} events, {args.addresses:,} distinct addresses, best of {args.repeat}")
    print(f"(district unknown: {unknown:.1%})\n")
    print("| step | seconds |")
    print("|---|---:|")
    print(f"| assign_districts (each distinct address once) | {ours:.2f} |")
    print(f"| baseline: a plain merge of every event | {plain:.2f} |")


if __name__ == "__main__":
    main()
