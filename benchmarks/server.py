"""Benchmark the reference server: latency (p50/p99) and throughput of typical list queries.

The server runs as a separate process (``educatalog serve --db``) on loopback, as a user
would run it; this script is the client. ``GET /server/ping`` is the baseline of the same
run: the cost of HTTP alone, which every query pays.

    python benchmarks/server.py                    # default scale and one million events
    python benchmarks/server.py --scales 1 --requests 200

Prints a Markdown table (the README quotes it).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from educatalog.demodata import DEMO_TOKEN
from educatalog.demodata.embedded import demo_database

Params = dict[str, str]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_server(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    cmd = [sys.executable, "-m", "educatalog.cli", "serve", "--db", str(db), "--port", str(port)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/server/ping", timeout=1).status_code == 200:
                return proc, url
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def _date(rng: random.Random) -> str:
    return f"{rng.choice([2025, 2026])}-{rng.randint(1, 12):02d}-01"


def _state_window(rng: random.Random) -> dict[str, object]:
    start = _date(rng)
    end = f"{int(start[:4]) + 1}{start[4:]}"
    return {
        "_and": [
            {"address": {"state": {"_eq": rng.randint(1, 16)}}},
            {"event_start_date": {"_gte": start}},
            {"event_start_date": {"_lt": end}},
        ]
    }


QUERIES: dict[str, tuple[str, Callable[[random.Random], Params]]] = {
    "ping (baseline)": ("/server/ping", lambda rng: {}),
    "events: state + start window, page of 100": (
        "/items/events",
        lambda rng: {"filter": json.dumps(_state_window(rng)), "limit": "100"},
    ),
    "same, with meta=filter_count": (
        "/items/events",
        lambda rng: {
            "filter": json.dumps(_state_window(rng)),
            "limit": "100",
            "meta": "filter_count",
        },
    ),
    "events: state filter, sorted by start, page 5": (
        "/items/events",
        lambda rng: {
            "filter": json.dumps({"address": {"state": {"_eq": rng.randint(1, 16)}}}),
            "sort": "event_start_date",
            "limit": "100",
            "page": "5",
        },
    ),
    "events of one course (selective filter)": (
        "/items/events",
        lambda rng: {"filter": json.dumps({"course": {"_eq": rng.randint(1, 1500)}})},
    ),
    "courses: search, page of 100": (
        "/items/courses",
        lambda rng: {
            "search": rng.choice(["excel", "pflege", "deutsch", "schweiß", "python"]),
            "limit": "100",
        },
    ),
    "events: junction expansion contacts.contacts_id.*": (
        "/items/events",
        lambda rng: {
            "fields": "id,event_start_date,contacts.contacts_id.*",
            "filter": json.dumps({"address": {"state": {"_eq": rng.randint(1, 16)}}}),
            "limit": "100",
        },
    ),
    "events: one item with course and address": (
        "/items/events/{id}",
        lambda rng: {"fields": "*,course.*,address.*"},
    ),
}


def _measure(
    url: str, path: str, make: Callable[[random.Random], Params], n: int, conc: int, events: int
) -> tuple[float, float, float]:
    headers = {"Authorization": f"Bearer {DEMO_TOKEN}"}
    rng = random.Random(7)
    requests = []
    for _ in range(n):
        item_path = path.replace("{id}", str(rng.randint(1, events)))
        requests.append((item_path, make(rng)))
    with httpx.Client(base_url=url, headers=headers, timeout=60) as client:
        for p, params in requests[:5]:  # warm up
            client.get(p, params=params).raise_for_status()
        latencies = []
        for p, params in requests:
            t0 = time.perf_counter()
            client.get(p, params=params).raise_for_status()
            latencies.append((time.perf_counter() - t0) * 1000)

    def worker(chunk: list[tuple[str, Params]]) -> None:
        with httpx.Client(base_url=url, headers=headers, timeout=60) as c:
            for p, params in chunk:
                c.get(p, params=params).raise_for_status()

    chunks = [requests[i::conc] for i in range(conc)]
    t0 = time.perf_counter()
    with ThreadPoolExecutor(conc) as pool:
        list(pool.map(worker, chunks))
    throughput = n / (time.perf_counter() - t0)
    p99 = statistics.quantiles(latencies, n=100)[98]
    return statistics.median(latencies), p99, throughput


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", default="1,200", help="demo scales (200: ~1M events)")
    parser.add_argument("--requests", type=int, default=300, help="requests per query")
    parser.add_argument("--concurrency", type=int, default=8, help="clients for throughput")
    args = parser.parse_args()
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores; "
        f"{args.requests} requests per query, throughput with {args.concurrency} clients\n"
    )
    print("| events | query | p50 ms | p99 ms | req/s |")
    print("|---:|---|---:|---:|---:|")
    for scale in (float(s) for s in args.scales.split(",")):
        t0 = time.perf_counter()
        db = demo_database(scale=scale)
        built = time.perf_counter() - t0
        proc, url = _start_server(db)
        try:
            headers = {"Authorization": f"Bearer {DEMO_TOKEN}"}
            meta = httpx.get(
                url + "/items/events", params={"limit": "0", "meta": "total_count"}, headers=headers
            ).json()["meta"]
            events = meta["total_count"]
            print(f"| {events:,} | _(database ready in {built:.1f} s)_ | | | |", flush=True)
            for name, (path, make) in QUERIES.items():
                p50, p99, rps = _measure(url, path, make, args.requests, args.concurrency, events)
                print(f"| {events:,} | {name} | {p50:.1f} | {p99:.1f} | {rps:,.0f} |", flush=True)
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
