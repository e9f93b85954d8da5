"""Benchmark the reference server under abuse: memory, time and fairness (loopback only).

The server runs as its own process (``educatalog serve --db``) on the demo catalogue at one
million events (``--scale 200``, built once and cached). Bounded scenarios, each measured
from this client process:

* four concurrent ``GET /items/events?limit=-1`` with default fields, read to the end, while
  one client pings ``/server/ping`` on its own connection: the server's peak memory against
  its idle memory, and the ping latency;
* one ``limit=-1`` with expanded relations: memory while it streams;
* ``fields=*.*`` over every event (too many objects): time to the 400 and memory;
* a filter of 300 case-insensitive ``_or`` conditions: time to its JSON error;
* three abandoned searches: the server's CPU time in the seconds after their clients left;
* 2,000 connections that never finish their headers: the server still answers, and closes
  them after its header timeout.

    python benchmarks/abuse.py                 # one million events
    python benchmarks/abuse.py --scale 1       # a quick run on ~5,000 events

Prints a Markdown table (the README quotes it).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import threading
import time

import httpx

from educatalog.demodata import DEMO_TOKEN
from educatalog.demodata.embedded import demo_database

HEADERS = {"Authorization": f"Bearer {DEMO_TOKEN}"}
MB = 1024 * 1024


def _memory(pid: int) -> dict[str, int]:
    """VmRSS (all resident pages) and RssAnon (without file pages such as the database's
    memory map, which the kernel can drop at any time), in bytes."""
    out = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssAnon", "RssFile"):
                out[key] = int(value.split()[0]) * 1024
    return out


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Sampler(threading.Thread):
    """The peak of the server's memory while it runs, sampled every 10 ms."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.peak: dict[str, int] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            for key, value in _memory(self.pid).items():
                self.peak[key] = max(self.peak.get(key, 0), value)
            time.sleep(0.01)


class Pinger(threading.Thread):
    """``GET /server/ping`` in a loop on one keep-alive connection; latencies in ms."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.latencies: list[float] = []
        self.errors = 0
        self.stop = threading.Event()

    def run(self) -> None:
        with httpx.Client(base_url=self.url, timeout=30) as client:
            while not self.stop.is_set():
                start = time.perf_counter()
                try:
                    ok = client.get("/server/ping").status_code == 200
                except httpx.HTTPError:
                    ok = False
                self.latencies.append((time.perf_counter() - start) * 1000)
                self.errors += not ok
                time.sleep(0.01)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _download(url: str, params: dict[str, str], out: dict[str, object]) -> None:
    start = time.perf_counter()
    size = 0
    with (
        httpx.Client(base_url=url, headers=HEADERS, timeout=600) as client,
        client.stream("GET", "/items/events", params=params) as response,
    ):
        for chunk in response.iter_raw():
            size += len(chunk)
        out["status"] = response.status_code
    out["bytes"] = size
    out["seconds"] = time.perf_counter() - start


def concurrent_downloads(pid: int, url: str, clients: int) -> dict[str, object]:
    time.sleep(1)
    idle = _memory(pid)
    sampler, pinger = Sampler(pid), Pinger(url)
    sampler.start()
    pinger.start()
    time.sleep(1)
    before = len(pinger.latencies)
    results: list[dict[str, object]] = [{} for _ in range(clients)]
    threads = [
        threading.Thread(target=_download, args=(url, {"limit": "-1"}, results[i]))
        for i in range(clients)
    ]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    during = pinger.latencies[before:]
    pinger.stop.set()
    sampler.stop.set()
    pinger.join()
    sampler.join()
    time.sleep(2)
    after = _memory(pid)
    return {
        "idle": idle,
        "peak": sampler.peak,
        "after": after,
        "results": results,
        "wall": wall,
        "pings": during,
        "ping_errors": pinger.errors,
    }


def nested_download(pid: int, url: str) -> dict[str, object]:
    """One ``limit=-1`` with expanded relations (3 objects per event), read to the end."""
    sampler = Sampler(pid)
    sampler.start()
    out: dict[str, object] = {}
    _download(url, {"limit": "-1", "fields": "id,course.title,address.city"}, out)
    sampler.stop.set()
    sampler.join()
    return {**out, "peak": sampler.peak}


def too_many_objects(pid: int, url: str) -> dict[str, object]:
    sampler = Sampler(pid)
    sampler.start()
    start = time.perf_counter()
    with httpx.Client(base_url=url, headers=HEADERS, timeout=600) as client:
        r = client.get("/items/events", params={"limit": "-1", "fields": "*.*"})
    seconds = time.perf_counter() - start
    sampler.stop.set()
    sampler.join()
    return {"status": r.status_code, "seconds": seconds, "peak": sampler.peak, "body": r.text}


def wide_filter(url: str) -> dict[str, object]:
    wide = {"_or": [{"remarks": {"_icontains": f"kurs {i} ä"}} for i in range(300)]}
    start = time.perf_counter()
    with httpx.Client(base_url=url, headers=HEADERS, timeout=600) as client:
        r = client.get("/items/events", params={"filter": json.dumps(wide), "meta": "*"})
    return {"status": r.status_code, "seconds": time.perf_counter() - start, "body": r.text}


def abandoned_searches(pid: int, url: str) -> dict[str, float]:
    host, port = url.removeprefix("http://").split(":")
    wide = json.dumps({"_or": [{"remarks": {"_icontains": f"x{i}ä"}} for i in range(300)]})
    request = (
        f"GET /items/events?limit=-1&meta=*&search=z%C3%BC&filter={httpx.QueryParams(f=wide)}"
        f" HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {DEMO_TOKEN}\r\n\r\n"
    ).replace("filter=f=", "filter=")
    socks = []
    start = _cpu_seconds(pid)
    for _ in range(3):
        s = socket.create_connection((host, int(port)))
        s.sendall(request.encode())
        socks.append(s)
    time.sleep(2)
    for s in socks:
        s.close()
    cpu = _cpu_seconds(pid)
    time.sleep(5)
    return {"cpu_during": cpu - start, "cpu_after": _cpu_seconds(pid) - cpu}


def idle_connections(url: str, count: int, header_timeout: float = 10.0) -> dict[str, object]:
    """Open ``count`` connections that never finish their headers, then ping: at once, and
    after the server's header timeout."""
    host, port = url.removeprefix("http://").split(":")
    socks = []
    for _ in range(count):
        try:
            s = socket.create_connection((host, int(port)), timeout=5)
            s.sendall(b"GET /server/ping HTTP/1.1\r\nHost: x\r\n")  # never finished
            socks.append(s)
        except OSError:
            break
    start = time.perf_counter()
    at_once = httpx.get(url + "/server/ping", timeout=30)
    ping_seconds = time.perf_counter() - start
    time.sleep(header_timeout + 2)
    later = httpx.get(url + "/server/ping", timeout=30)
    closed = 0
    for s in socks:
        s.settimeout(0.01)
        try:
            while s.recv(4096):  # a 503 first (beyond the cap), or nothing
                pass
            closed += 1
        except TimeoutError:
            pass
        except OSError:
            closed += 1
        s.close()
    return {
        "opened": len(socks),
        "ping": at_once.status_code,
        "ping_seconds": ping_seconds,
        "later": later.status_code,
        "closed": closed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=200.0)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--idle-connections", type=int, default=2000)
    args = parser.parse_args()
    db = demo_database(0, args.scale)
    from server import _start_server  # benchmarks/server.py, as load.py and snapshot.py do

    proc, url = _start_server(db)
    try:
        events = httpx.get(
            url + "/items/events", params={"limit": 0, "meta": "total_count"}, headers=HEADERS
        ).json()["meta"]["total_count"]
        run = concurrent_downloads(proc.pid, url, args.clients)
        nested = nested_download(proc.pid, url)
        objects = too_many_objects(proc.pid, url)
        wide = wide_filter(url)
        abandoned = abandoned_searches(proc.pid, url)
        idle = idle_connections(url, args.idle_connections)
    finally:
        proc.terminate()
        proc.wait(30)
    idle_rss, peak = run["idle"]["VmRSS"], run["peak"]["VmRSS"]  # type: ignore[index]
    bound = 1.5 * idle_rss + 300 * MB
    pings = run["pings"]
    assert isinstance(pings, list)
    rows = [
        ("events", f"{events:,}"),
        (
            "server memory idle (VmRSS / RssAnon)",
            f"{idle_rss / MB:.0f} MB / {run['idle']['RssAnon'] / MB:.0f} MB",
        ),  # type: ignore[index]
        (
            f"peak during {args.clients} concurrent `limit=-1` (VmRSS / RssAnon)",
            f"{peak / MB:.0f} MB / {run['peak']['RssAnon'] / MB:.0f} MB",
        ),  # type: ignore[index]
        (
            "bound: 1.5 × idle + 300 MB",
            f"{bound / MB:.0f} MB ({'met' if peak <= bound else 'MISSED'})",
        ),
        ("held 2 s afterwards (VmRSS)", f"{run['after']['VmRSS'] / MB:.0f} MB"),  # type: ignore[index]
        (
            "the four answers: status, size, seconds",
            ", ".join(
                f"{r['status']} {r['bytes'] / MB:.0f} MB {r['seconds']:.1f} s"  # type: ignore[operator]
                for r in run["results"]  # type: ignore[attr-defined]
            ),
        ),
        (
            "`/server/ping` meanwhile: n, p50, p99, max (ms)",
            f"{len(pings)}, {statistics.median(pings):.1f}, {_percentile(pings, 0.99):.1f}, "
            f"{max(pings):.1f}; errors {run['ping_errors']}",
        ),
        (
            "`fields=id,course.title,address.city&limit=-1`: status, size, seconds, peak VmRSS",
            f"{nested['status']}, {nested['bytes'] / MB:.0f} MB, {nested['seconds']:.1f} s, "  # type: ignore[operator]
            f"{nested['peak']['VmRSS'] / MB:.0f} MB",  # type: ignore[index]
        ),
        (
            "`fields=*.*&limit=-1`: status, seconds, peak VmRSS",
            f"{objects['status']}, {objects['seconds']:.1f} s, "
            f"{objects['peak']['VmRSS'] / MB:.0f} MB",
        ),  # type: ignore[index]
        (
            "300 `_icontains` in `_or`: status, seconds",
            f"{wide['status']}, {wide['seconds']:.1f} s",
        ),
        (
            "3 searches abandoned after 2 s: server CPU while connected, in the 5 s after",
            f"{abandoned['cpu_during']:.2f} s, {abandoned['cpu_after']:.2f} s",
        ),
        (
            f"{idle['opened']} connections without headers: ping at once, ping 12 s later, "
            "connections closed by the server",
            f"{idle['ping']} in {idle['ping_seconds'] * 1000:.0f} ms, {idle['later']}, "
            f"{idle['closed']}",
        ),
    ]
    print("| measure | value |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    print()
    print("400 of fields=*.*:", str(objects["body"])[:200])
    print("answer to the wide filter:", str(wide["body"])[:200])


if __name__ == "__main__":
    main()
