"""Benchmark downloading a whole collection into a DataFrame, against the same server.

(a) naive: the loop an analyst writes (sequential pages of 100 with ``page=``, ``json.loads``,
    ``pd.json_normalize``);
(b) ``educatalog.load``;
(c) transfer alone: the same requests as (b), bodies kept as bytes, as concurrently;
(d) decoding alone: (b)'s bodies, already in memory, decoded into the typed frame as (b)
    decodes them: in one thread, and in as many threads as (b) downloads with;
(e) careful: the best a careful user writes by hand: concurrent keyset pages (``id`` ranges,
    as many at once and as large as (b)'s) of the fields (b) loads, with httpx, ``orjson.loads``,
    ``pyarrow.Table.from_pylist``, one ``to_pandas`` at the end;
(f) ``educatalog.load_catalogue``: all 20 collections and the 5 link tables (the events'
    contacts, the courses' keywords and degrees ...), concurrently, as an analysis starts.

Each runs in a fresh process, so its peak memory (max RSS above the process's baseline) is its
own; every step reports MB/s of the JSON it handles. With ``--baseline REV`` the steps (b) to
(e) also run with another git revision's code (client and server, on the demo database that
code builds), alternating with this tree's. Targets: (a) <= 160 s; (b) <= 8 s, >= 20x (a),
>= 2x (e); (c) <= 7 s; (d) >= 150 MB/s; peak memory of (b) <= 2x the final frame.

    python benchmarks/load.py --scale 200                   # one million events
    python benchmarks/load.py --scale 200 --baseline 8e33e3e --naive-every 10
    python benchmarks/load.py --scale 1
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

DEMO_TOKEN = "educatalog-demo-token"  # educatalog.demodata.DEMO_TOKEN, also in older revisions

COLLECTION = "events"
HEADERS = {"Authorization": f"Bearer {DEMO_TOKEN}"}
MB = 2**20


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


SERVER_PID = 0
"""The server's process (``--server-pid``), whose CPU time each step reports."""


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Timer:
    """Seconds, and CPU seconds of this process and of the server, from its start."""

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = time.process_time()
        self.server = _cpu_seconds(SERVER_PID) if SERVER_PID else 0.0

    def result(self, **more: Any) -> dict[str, Any]:
        return {
            "seconds": time.perf_counter() - self.wall,
            "client_cpu": time.process_time() - self.cpu,
            "server_cpu": (_cpu_seconds(SERVER_PID) - self.server) if SERVER_PID else 0.0,
            **more,
        }


def naive(url: str, every: int) -> dict[str, Any]:
    """Pages of 100 by number; with ``every`` > 1 only every so many pages (times scaled)."""
    import httpx
    import pandas as pd

    rows: list[dict[str, Any]] = []
    size = 0
    timer = Timer()
    with httpx.Client(base_url=url, headers=HEADERS, timeout=600) as client:
        page = 1
        while True:
            response = client.get(f"/items/{COLLECTION}", params={"limit": 100, "page": page})
            size += len(response.content)
            data = json.loads(response.content)["data"]
            rows.extend(data)
            if len(data) < 100:
                break
            page += every
    frame = pd.json_normalize(rows)
    out = timer.result(rows=len(frame) * every, mb=size * every / MB)
    for key in ("seconds", "client_cpu", "server_cpu"):
        out[key] *= every
    return out


def _client(url: str) -> Any:
    from educatalog import Client

    return Client(url, token=DEMO_TOKEN, progress=False)


def toolkit(url: str) -> dict[str, Any]:
    import educatalog

    with _client(url) as client:
        base = _rss_mb()
        timer = Timer()
        frame = educatalog.load(COLLECTION, client=client)
    return timer.result(
        rows=len(frame),
        peak_mb=_rss_mb() - base,
        frame_mb=frame.memory_usage(deep=True).sum() / MB,
    )


def _recorded(url: str) -> tuple[Any, list[dict[str, str]]]:
    """The client and the parameters of every page request (b) converts, in order: the
    client's own walk, recorded by an httpx request hook (the client streams its answers);
    the request for the highest id, which (b) does not convert, left out."""
    from educatalog import Query
    from educatalog.model.schema import SCHEMA

    client = _client(url)
    recorded: list[dict[str, str]] = []

    def record(request: Any) -> None:
        params = dict(request.url.params)
        if request.url.path == f"/items/{COLLECTION}" and params.get("sort") != "-id":
            recorded.append(params)

    client._http.event_hooks["request"].append(record)
    fields = tuple(f.name for f in SCHEMA[COLLECTION].stored_fields)
    client.fetch_pages(COLLECTION, Query(fields=fields), lambda rows: None)
    return client, recorded


def transfer(url: str) -> dict[str, Any]:
    """(c): the same requests, as concurrently, bodies not decoded."""
    import httpx

    client, recorded = _recorded(url)  # the list of requests (b) makes
    timer = Timer()
    with (
        httpx.Client(base_url=url, headers=HEADERS, timeout=600) as raw,
        ThreadPoolExecutor(client.max_concurrency) as pool,
    ):
        sizes = list(
            pool.map(lambda p: len(raw.get(f"/items/{COLLECTION}", params=p).content), recorded)
        )
    return timer.result(requests=len(sizes), mb=sum(sizes) / MB)


def decode(url: str) -> dict[str, Any]:
    """(d): (b)'s bodies decoded as (b) decodes them, in one thread and in (b)'s threads."""
    import httpx

    from educatalog import Client, Query
    from educatalog.loading.loaders import _combine, _page
    from educatalog.model.schema import SCHEMA

    client, recorded = _recorded(url)
    with httpx.Client(base_url=url, headers=HEADERS, timeout=600) as raw:
        bodies = [raw.get(f"/items/{COLLECTION}", params=p).content for p in recorded]
    coll = SCHEMA[COLLECTION]
    fields = tuple(f.name for f in coll.stored_fields)
    try:
        from educatalog.frames.typed import page_table  # noqa: F401 (a Page goes to _page)

        decoder = Client._page_decoder(coll, Query(fields=fields))  # as load() decodes
        rows = False
    except ImportError:  # older revisions (--baseline): the name, and the page's rows
        decoder = Client._page_decoder(COLLECTION, Query(fields=fields))
        rows = True

    def one(body: bytes) -> Any:
        page = decoder(body)
        return _page(page.data if rows else page, coll)

    timer = Timer()
    frame = _combine([one(body) for body in bodies])
    serial = timer.result()
    del frame
    timer = Timer()
    with ThreadPoolExecutor(client.max_concurrency) as pool:
        frame = _combine(list(pool.map(one, bodies)))
    threaded = timer.result()
    return {
        **serial,
        "threaded": threaded["seconds"],
        "threaded_cpu": threaded["client_cpu"],
        "threads": client.max_concurrency,
        "rows": len(frame),
        "mb": sum(map(len, bodies)) / MB,
    }


def careful(url: str) -> dict[str, Any]:
    """(e): concurrent keyset pages with httpx, orjson and pyarrow.Table.from_pylist."""
    import httpx
    import orjson
    import pyarrow as pa

    from educatalog.model.schema import SCHEMA

    with _client(url) as client:  # as many pages at once, and as large, as (b) asks
        workers, size = client.max_concurrency, client.page_size
    # the fields (b) loads, listed as a user lists them (the default, *, adds the ids of
    # list relations, more to send and to decode)
    fields = ",".join(f.name for f in SCHEMA[COLLECTION].stored_fields)
    spent = {"json": 0.0, "arrow": 0.0}  # CPU seconds of the threads in each
    lock = threading.Lock()

    def add(**seconds: float) -> None:
        with lock:
            for key, value in seconds.items():
                spent[key] += value

    base = _rss_mb()
    timer = Timer()
    with httpx.Client(base_url=url, headers=HEADERS, timeout=600) as http:

        def get(params: dict[str, str]) -> list[dict[str, Any]]:
            content = http.get(f"/items/{COLLECTION}", params=params).content
            m = time.thread_time()
            data: list[dict[str, Any]] = orjson.loads(content)["data"]
            add(json=time.thread_time() - m)
            return data

        def ids(sort: str) -> int:
            return int(get({"fields": "id", "sort": sort, "limit": "1"})[0]["id"])

        low, high = ids("id") - 1, ids("-id")
        step = -(-(high - low) // (workers * 4))
        ranges = [(s, min(high, s + step)) for s in range(low, high, step)]

        def walk(bounds: tuple[int, int]) -> list[pa.Table]:
            last, end = bounds
            tables = []
            while True:
                window = {"_and": [{"id": {"_gt": last}}, {"id": {"_lte": end}}]}
                window_json = orjson.dumps(window).decode()
                params = {"filter": window_json, "sort": "id", "limit": str(size)}
                rows = get({**params, "fields": fields})
                if rows:
                    s = time.thread_time()
                    tables.append(pa.Table.from_pylist(rows))
                    add(arrow=time.thread_time() - s)
                    last = rows[-1]["id"]
                if len(rows) < size:
                    return tables

        with ThreadPoolExecutor(workers) as pool:
            tables = [t for part in pool.map(walk, ranges) for t in part]
    s = time.perf_counter()
    frame = pa.concat_tables(tables, promote_options="default").to_pandas()
    spent["frame"] = time.perf_counter() - s
    return timer.result(rows=len(frame), peak_mb=_rss_mb() - base, spent=spent)


def catalogue(url: str) -> dict[str, Any]:
    """(f): every collection and link table, as ``load_catalogue`` downloads them."""
    import educatalog

    client = _client(url)
    sizes: list[int] = []
    client._http.event_hooks["response"].append(
        lambda response: sizes.append(int(response.headers.get("content-length", 0)))
    )
    base = _rss_mb()
    timer = Timer()
    tables = educatalog.load_catalogue(client)
    return timer.result(
        rows=sum(len(frame) for frame in tables.values()),
        tables=len(tables),
        requests=len(sizes),
        mb=sum(sizes) / MB,
        peak_mb=_rss_mb() - base,
    )


STEPS = {"a": naive, "b": toolkit, "c": transfer, "d": decode, "e": careful, "f": catalogue}


def _run(step: str, url: str, src: Path | None, server: int, every: int = 1) -> dict[str, Any]:
    """A step in a fresh process, with the code of ``src`` (default: this tree)."""
    env = dict(os.environ, PYTHONPATH=str(src)) if src else None
    cmd = [sys.executable, __file__, "--step", step, "--url", url]
    cmd += ["--naive-every", str(every), "--server-pid", str(server)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    result["load"] = os.getloadavg()[0]
    return result


def _row(step: str, seconds: float, mb: float, r: dict[str, Any], note: str = "") -> None:
    """A row of the table; MB/s is "–" when the megabytes are unknown (no step (c) ran)."""
    cpu = f"{r['client_cpu']:.1f} + {r['server_cpu']:.1f}"
    rate = f"{mb / seconds:.0f}" if mb else "–"
    print(f"| {step} | {seconds:.1f} | {rate} | {cpu} | {note} |")


def _table(name: str, r: dict[str, dict[str, Any]]) -> None:
    """The steps that ran, and the ratios of those that did."""
    a, b, c, d, e, f = (r.get(k, {}) for k in "abcdef")
    mb = c.get("mb") or f.get("mb", 0.0)
    head = f"{c['requests']:,} requests, {mb:.0f} MB" if c else ""
    print(f"\n**{name}**" + (f" ({b['rows']:,} {COLLECTION}; {head})" if b and c else "") + "\n")
    print("| step | seconds | MB/s | CPU s: client + server | note |")
    print("|---|---:|---:|---:|---|")
    if a:
        _row("(a) naive loop", a["seconds"], a["mb"], a, a["note"])
    if b:
        ratio = b["peak_mb"] / b["frame_mb"]
        peak = f"peak {b['peak_mb']:.0f} MB, frame {b['frame_mb']:.0f} MB ({ratio:.1f}x)"
        _row("(b) `educatalog.load`", b["seconds"], mb, b, peak)
    if c:
        _row("(c) transfer alone", c["seconds"], mb, c)
    if d:
        _row("(d) decoding alone, 1 thread", d["seconds"], d["mb"], d, "into the typed frame")
        threaded = {**d, "client_cpu": d["threaded_cpu"]}
        note = "as (b) does"
        _row(f"(d) decoding alone, {d['threads']} threads", d["threaded"], d["mb"], threaded, note)
    if e:
        sp = e["spent"]
        json_rate = f" ({mb / sp['json']:.0f} MB/s)" if mb else ""
        arrow_rate = f" ({mb / sp['arrow']:.0f} MB/s)" if mb else ""
        note = (
            f"CPU in orjson {sp['json']:.1f} s{json_rate}, in from_pylist "
            f"{sp['arrow']:.1f} s{arrow_rate}, to_pandas {sp['frame']:.1f} "
            f"s; peak {e['peak_mb']:.0f} MB"
        )
        _row("(e) careful: httpx + orjson + `Table.from_pylist`", e["seconds"], mb, e, note)
    if f:
        note = (
            f"{f['tables']} tables, {f['rows']:,} rows, {f['requests']:,} requests; "
            f"peak {f['peak_mb']:.0f} MB"
        )
        _row("(f) `load_catalogue`: every table", f["seconds"], f["mb"], f, note)
    ratios = []
    if a and b:
        ratios.append(f"(b) is {a['seconds'] / b['seconds']:.1f}x (a)")
    if b and e:
        ratios.append(f"(b) is {e['seconds'] / b['seconds']:.1f}x (e)")
    if b and c and d:
        ratios.append(f"(b)/max((c),(d)) = {b['seconds'] / max(c['seconds'], d['threaded']):.2f}")
    if ratios:
        print("\n" + "; ".join(ratios))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=200.0)
    parser.add_argument(
        "--naive-every",
        type=int,
        default=1,
        help="the naive loop asks only every n-th page and scales its time (0: no naive loop)",
    )
    parser.add_argument("--baseline", help="a git revision to compare with (e.g. main)")
    parser.add_argument("--steps", default="abcdef", help="which steps to run (default: all)")
    parser.add_argument("--step", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--server-pid", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step:
        global SERVER_PID
        SERVER_PID = args.server_pid
        if args.step == "a":
            print(json.dumps(naive(args.url, args.naive_every)))
        else:
            print(json.dumps(STEPS[args.step](args.url)))
        return

    sys.path.insert(0, str(Path(__file__).parent))
    from server import _start_server, demo_database, export_revision

    print(f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        trees: dict[str, Path | None] = {"this tree": None}
        if args.baseline:
            trees[f"baseline {args.baseline}"] = export_revision(args.baseline, Path(tmp))
        started = {}
        for name, src in trees.items():
            started[name] = _start_server(demo_database(args.scale, src), src)
        results: dict[str, dict[str, dict[str, Any]]] = {name: {} for name in trees}
        try:
            steps = [s for s in "bcdefa" if s in args.steps and (s != "a" or args.naive_every)]
            for i, step in enumerate(steps):
                order = list(trees) if i % 2 == 0 else list(reversed(trees))
                for name in order:
                    proc, url = started[name]
                    results[name][step] = _run(step, url, trees[name], proc.pid, args.naive_every)
        finally:
            for proc, _ in started.values():
                proc.terminate()
                proc.wait(10)
    for name, r in results.items():
        a = r.get("a", {})
        if a:
            note = "pages of 100 by number, `json_normalize`"
            if args.naive_every > 1:
                note += f"; every {args.naive_every}th page asked, time scaled"
            a["note"] = note
        r["a"] = a
        _table(name, r)
    loads = [x["load"] for r in results.values() for x in r.values() if x]
    print(f"\nload average during the steps: {min(loads):.1f} to {max(loads):.1f}")


if __name__ == "__main__":
    main()
