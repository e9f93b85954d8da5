"""Benchmark downloading a whole collection into a DataFrame, against the same server.

(a) naive: the loop an analyst writes (sequential pages of 100 with ``page=``, ``json.loads``,
    ``pd.json_normalize``); (b) ``educatalog.load``; (c) transfer alone: the same requests as
    (b), bodies kept as bytes; (d) decoding alone: those bytes, already in memory, decoded into
    the typed frame. Each runs in a fresh process, so its peak memory (max RSS above the
    process's baseline) is its own. Targets: (b) >= 10x faster than (a), (b) <= 1.25 x
    ((c) + (d)), peak memory of (b) <= 3x the final frame.

    python benchmarks/load.py --scale 200          # one million events
    python benchmarks/load.py --scale 1 --naive-pages 0
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from typing import Any

from educatalog.demodata import DEMO_TOKEN

COLLECTION = "events"


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def naive(url: str, max_pages: int) -> dict[str, Any]:
    import httpx
    import pandas as pd

    rows: list[dict[str, Any]] = []
    headers = {"Authorization": f"Bearer {DEMO_TOKEN}"}
    t0 = time.perf_counter()
    with httpx.Client(base_url=url, headers=headers, timeout=600) as client:
        page = 1
        while max_pages <= 0 or page <= max_pages:
            response = client.get(f"/items/{COLLECTION}", params={"limit": 100, "page": page})
            data = json.loads(response.content)["data"]
            rows.extend(data)
            if len(data) < 100:
                break
            page += 1
    frame = pd.json_normalize(rows)
    return {"seconds": time.perf_counter() - t0, "rows": len(frame), "pages": page}


def _slices_and_client(url: str) -> Any:
    from educatalog import Client

    return Client(url, token=DEMO_TOKEN, progress=False)


def toolkit(url: str) -> dict[str, Any]:
    import educatalog

    client = _slices_and_client(url)
    base = _rss_mb()
    t0 = time.perf_counter()
    frame = educatalog.load(COLLECTION, client=client)
    seconds = time.perf_counter() - t0
    return {
        "seconds": seconds,
        "rows": len(frame),
        "peak_mb": _rss_mb() - base,
        "frame_mb": frame.memory_usage(deep=True).sum() / 2**20,
    }


def _recorded(url: str) -> tuple[Any, list[dict[str, str]]]:
    """The client and the parameters of every page request (b) makes, in order: the client's
    own walk, recorded by an httpx request hook (the client streams its answers)."""
    from educatalog import Query
    from educatalog.schema import CATALOGUE

    client = _slices_and_client(url)
    recorded: list[dict[str, str]] = []

    def record(request: Any) -> None:
        params = dict(request.url.params)
        if request.url.path == f"/items/{COLLECTION}" and "filter_count" not in str(params):
            recorded.append(params)

    client._http.event_hooks["request"].append(record)
    fields = tuple(f.name for f in CATALOGUE[COLLECTION].stored_fields)
    client.fetch_pages(COLLECTION, Query(fields=fields), lambda rows: None)
    return client, recorded


def _raw_pages(url: str) -> list[bytes]:
    """The bodies of the same requests as (b), kept as bytes, undecoded."""
    import httpx

    _, recorded = _recorded(url)
    headers = {"Authorization": f"Bearer {DEMO_TOKEN}"}
    with httpx.Client(base_url=url, headers=headers, timeout=600) as raw:
        return [raw.get(f"/items/{COLLECTION}", params=p).content for p in recorded]


def transfer(url: str) -> dict[str, Any]:
    """(c): the same requests, concurrently, bodies not decoded."""
    import httpx

    client, recorded = _recorded(url)  # the list of requests (b) makes
    from concurrent.futures import ThreadPoolExecutor

    headers = {"Authorization": f"Bearer {DEMO_TOKEN}"}
    t0 = time.perf_counter()
    with (
        httpx.Client(base_url=url, headers=headers, timeout=600) as raw,
        ThreadPoolExecutor(client.max_concurrency) as pool,
    ):
        sizes = list(
            pool.map(lambda p: len(raw.get(f"/items/{COLLECTION}", params=p).content), recorded)
        )
    return {"seconds": time.perf_counter() - t0, "requests": len(sizes), "mb": sum(sizes) / 2**20}


def decode(url: str) -> dict[str, Any]:

    from educatalog import Client, Query
    from educatalog.loaders import _combine, _page
    from educatalog.schema import CATALOGUE

    bodies = _raw_pages(url)
    coll = CATALOGUE[COLLECTION]
    fields = tuple(f.name for f in coll.stored_fields)
    decode = Client._page_decoder(COLLECTION, Query(fields=(*fields,)))  # as load() decodes
    t0 = time.perf_counter()
    frame = _combine([_page(decode(body).data, coll) for body in bodies])
    return {"seconds": time.perf_counter() - t0, "rows": len(frame)}


def _run(step: str, url: str, extra: str = "") -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--step", step, "--url", url, "--naive-pages", extra or "0"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=200.0)
    parser.add_argument(
        "--naive-pages",
        type=int,
        default=0,
        help="stop the naive loop after this many pages (0: all)",
    )
    parser.add_argument("--step", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step:
        steps = {
            "a": lambda: naive(args.url, args.naive_pages),
            "b": lambda: toolkit(args.url),
            "c": lambda: transfer(args.url),
            "d": lambda: decode(args.url),
        }
        print(json.dumps(steps[args.step]()))
        return

    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    from educatalog.demodata.embedded import demo_database
    from server import _start_server

    proc, url = _start_server(demo_database(scale=args.scale))
    try:
        b = _run("b", url)
        c = _run("c", url)
        d = _run("d", url)
        a = _run("a", url, str(args.naive_pages))
    finally:
        proc.terminate()
        proc.wait(10)
    naive_seconds = a["seconds"]
    note = ""
    if a["rows"] < b["rows"]:  # extrapolate a partial naive run, linearly (optimistic for it)
        naive_seconds = a["seconds"] * b["rows"] / max(a["rows"], 1)
        note = f" (ran {a['rows']:,} rows, extrapolated linearly)"
    print(f"{b['rows']:,} {COLLECTION}; {c['requests']:,} requests, {c['mb']:.0f} MB of JSON\n")
    print("| step | seconds | note |")
    print("|---|---:|---|")
    print(f"| (a) naive loop | {naive_seconds:.1f} | pages of 100, json_normalize{note} |")
    print(
        f"| (b) educatalog.load | {b['seconds']:.1f} | peak {b['peak_mb']:.0f} MB, "
        f"frame {b['frame_mb']:.0f} MB |"
    )
    print(f"| (c) transfer alone | {c['seconds']:.1f} | |")
    print(f"| (d) decoding alone | {d['seconds']:.1f} | |")
    print()
    print(
        f"(a)/(b) = {naive_seconds / b['seconds']:.1f} (target >= 10); "
        f"(b)/((c)+(d)) = {b['seconds'] / (c['seconds'] + d['seconds']):.2f} (target <= 1.25); "
        f"peak/frame = {b['peak_mb'] / b['frame_mb']:.1f} (target <= 3)"
    )


if __name__ == "__main__":
    main()
