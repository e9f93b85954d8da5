"""Benchmark the reference server: latency (p50/p95/p99) and throughput of typical list
queries, deep pages and large answers at one million events, and the Directus conformance
battery per query class, beside a real Directus where one runs.

Every server runs as a separate process (``educatalog serve --db``) on loopback, as a user
would run it; this script is the client. ``GET /server/ping`` is the baseline of the same
run: the cost of HTTP alone, which every query pays. With ``--baseline REV`` the server of
another git revision (exported with ``git archive``, serving the demo database its own code
builds) runs beside this tree's, and every request goes to both, alternating which one is
asked first, so that both see the same machine; the load average is printed with each table.

    python benchmarks/server.py                              # this tree: scales 1 and 200
    python benchmarks/server.py --baseline 8e33e3e           # beside another revision
    python benchmarks/server.py --scales 1 --requests 100 --parts classes,battery

The battery is the comparison's cases (``tests/directus/queries.py``, 859 requests) over its
recorded catalogue; a Directus started by ``make directus`` (``tests/directus/harness.py``)
is asked the same cases. Servers take turns by whole passes (one client's 859 requests),
the order reversed each round: a request asked right after one of another client or
server pays for its late work on the two cores (asked one after the other by httpx and
by ``http.client``, case by case, ours took 0.9 s a pass by ``http.client`` instead of 0.65 s).
Prints Markdown tables (the README quotes them).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

DEMO_TOKEN = "educatalog-demo-token"
"""The demo server's token (``educatalog.demodata.DEMO_TOKEN``; older revisions have it too)."""

ROOT = Path(__file__).resolve().parents[1]
Params = dict[str, str]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_server(
    db: Path, src: Path | None = None, tokens: Sequence[str] = (DEMO_TOKEN,)
) -> tuple[subprocess.Popen[bytes], str]:
    """``educatalog serve --db`` as its own process, this tree's or ``src``'s code."""
    port = _free_port()
    cmd = [sys.executable, "-m", "educatalog.cli", "serve", "--db", str(db), "--port", str(port)]
    for token in tokens:
        cmd += ["--token", token]
    env = dict(os.environ, PYTHONPATH=str(src)) if src else None
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=env)
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


@dataclass
class Server:
    """One server under test: its name, URL and token."""

    name: str
    url: str
    token: str = DEMO_TOKEN
    authorized: bool = True  # the token in every request's headers
    client: httpx.Client = field(init=False)

    def __post_init__(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"} if self.authorized else {}
        self.client = httpx.Client(base_url=self.url, headers=headers, timeout=600)

    def get(self, path: str, params: Params | Sequence[tuple[str, str]]) -> float:
        """Milliseconds to the end of the answer (which must not be a server error)."""
        t0 = time.perf_counter()
        response = self.client.get(path, params=params)
        elapsed = (time.perf_counter() - t0) * 1000
        if response.status_code >= 500:
            raise RuntimeError(f"{self.name}: {path} {params}: {response.status_code}")
        return elapsed


def export_revision(revision: str, into: Path) -> Path:
    """The ``src`` folder of a git revision, exported into ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "src"],
        check=True,
        capture_output=True,
    ).stdout
    tar = into / "src.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as handle:
        handle.extractall(into, filter="data")
    return into / "src"


def demo_database(scale: float, src: Path | None = None) -> Path:
    """The demo database at ``scale`` as the code of ``src`` (default: this tree) builds it."""
    code = (
        "try:\n    from educatalog.demodata.embedded import demo_database\n"
        "except ImportError:  # revisions before the demo was its own package\n"
        "    from educatalog.server.embedded import demo_database\n"
        f"print(demo_database(scale={scale}))"
    )
    env = dict(os.environ, PYTHONPATH=str(src)) if src else None
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env
    )
    return Path(out.stdout.strip().splitlines()[-1])


@contextmanager
def servers(
    databases: dict[str, tuple[Path, Path | None]], tokens: Sequence[str] = (DEMO_TOKEN,)
) -> Iterator[list[Server]]:
    """Each named ``(database, src)`` served by its own process; stopped afterwards."""
    with ExitStack() as stack:
        out = []
        for name, (db, src) in databases.items():
            proc, url = _start_server(db, src, tokens)
            stack.callback(proc.wait, 10)
            stack.callback(proc.terminate)
            out.append(Server(name, url, tokens[0], authorized=tokens[0] == DEMO_TOKEN))
            stack.callback(out[-1].client.close)
        yield out


def alternate(
    targets: Sequence[Server], requests: Sequence[tuple[str, Params]]
) -> dict[str, list[float]]:
    """Latencies of every request on every server, the order of the servers alternating."""
    out: dict[str, list[float]] = {s.name: [] for s in targets}
    for i, (path, params) in enumerate(requests):
        for server in targets if i % 2 == 0 else list(reversed(targets)):
            out[server.name].append(server.get(path, params))
    return out


def throughput(server: Server, requests: Sequence[tuple[str, Params]], clients: int) -> float:
    """Requests a second with ``clients`` clients at once."""

    def work(chunk: Sequence[tuple[str, Params]]) -> None:
        with httpx.Client(base_url=server.url, headers=server.client.headers, timeout=600) as c:
            for path, params in chunk:
                c.get(path, params=params).raise_for_status()

    t0 = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(work, [requests[i::clients] for i in range(clients)]))
    return len(requests) / (time.perf_counter() - t0)


def pct(values: Sequence[float], q: int) -> float:
    """The ``q``-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def _load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


# ---------------------------------------------------------------------------------------
# Typical queries


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
    "events: pages of 100 by page number (the naive loop)": (
        "/items/events",
        lambda rng: {"limit": "100", "page": str(rng.randint(1, 10_000))},
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
    "events: page of 100 with course.* and address.*": (
        "/items/events",
        lambda rng: {"fields": "*,course.*,address.*", "limit": "100", "page": "3"},
    ),
    "events: one item with course and address": (
        "/items/events/{id}",
        lambda rng: {"fields": "*,course.*,address.*"},
    ),
}

LARGE: dict[str, Params] = {
    "`limit=100&page=2000`": {"limit": "100", "page": "2000"},
    "`limit=100&page=8000`": {"limit": "100", "page": "8000"},
    "`limit=100&offset=500000`": {"limit": "100", "offset": "500000"},
    "`limit=10000&fields=id,event_start_date,address`": {
        "limit": "10000",
        "fields": "id,event_start_date,address",
    },
    "`limit=1000` with a keyset filter (the toolkit's page)": {
        "limit": "1000",
        "filter": json.dumps({"_and": [{"id": {"_gt": 500000}}, {"id": {"_lte": 600000}}]}),
        "sort": "id",
    },
    "`limit=200000`": {"limit": "200000"},
    "`limit=100&search=excel` (no event holds it)": {"limit": "100", "search": "excel"},
    "`limit=100&search=DAB-00002` (an offer number: few events)": {
        "limit": "100",
        "search": "DAB-00002",
    },
    "`limit=100&search=Ferien` (2 % of events)": {"limit": "100", "search": "Ferien"},
    "`limit=100&search=kurse` (most events hold it)": {"limit": "100", "search": "kurse"},
    "`limit=0&meta=filter_count&search=Website`": {
        "limit": "0",
        "meta": "filter_count",
        "search": "Website",
    },
    "`limit=10000&fields=id,address.city,address.state.name` (nested objects)": {
        "limit": "10000",
        "fields": "id,address.city,address.state.name",
    },
    "`limit=100&fields=*,course.*,address.*&page=50`": {
        "limit": "100",
        "fields": "*,course.*,address.*",
        "page": "50",
    },
    "`limit=-1&meta=filter_count&filter={address:{state:{_eq:9}}}&fields=id`": {
        "limit": "-1",
        "meta": "filter_count",
        "filter": json.dumps({"address": {"state": {"_eq": 9}}}),
        "fields": "id",
    },
}
"""Requests at one million events where users wait: deep pages, large answers, search."""


def typical_queries(targets: list[Server], n: int, clients: int) -> None:
    headers = {"Authorization": f"Bearer {DEMO_TOKEN}"}
    meta = httpx.get(
        targets[0].url + "/items/events",
        params={"limit": "0", "meta": "total_count"},
        headers=headers,
    ).json()["meta"]
    events = meta["total_count"]
    for name, (path, make) in QUERIES.items():
        rng = random.Random(7)
        requests = [
            (path.replace("{id}", str(rng.randint(1, events))), make(rng)) for _ in range(n)
        ]
        alternate(targets, requests[:5])  # warm up
        latencies = alternate(targets, requests)
        rates = {s.name: throughput(s, requests, clients) for s in targets}
        cells = [
            f"{statistics.median(v):.1f} / {pct(v, 99):.1f} / {rates[k]:,.0f}"
            for k, v in latencies.items()
        ]
        print(f"| {events:,} | {name} | " + " | ".join(cells) + " |", flush=True)


def large_requests(targets: list[Server], n: int) -> None:
    print(f"\nload average {_load()}; median of {n}, requests alternating\n")
    print("| request | " + " | ".join(s.name for s in targets) + " |")
    print("|---|" + "---:|" * len(targets))
    for name, params in LARGE.items():
        alternate(targets, [("/items/events", params)])  # warm up
        latencies = alternate(targets, [("/items/events", params)] * n)
        cells = [f"{statistics.median(v):,.1f} ms" for v in latencies.values()]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


# ---------------------------------------------------------------------------------------
# The conformance battery

CLASSES = {
    "filter: a field's operators and values": (
        "op", "coerce", "keywords", "keyword", "now", "empty", "bracket",
    ),
    "filter: many-to-one paths": ("m2o", "_some", "_or"),
    "filter: lists (o2m, m2m)": ("o2m", "m2m", "contacts", "depth"),
    "fields, relations, deep": ("fields", "fields[]", "nested", "deep", "backlink", "junction"),
    "search": ("search",),
    "sort": ("sort", "sort[]"),
    "paging and meta": ("paging", "meta", "meta[]"),
    "aggregate and groupBy": ("aggregate", "groupBy"),
    "one item": ("item",),
}  # fmt: skip
REFUSED = "refused: unknown names, bad input, no token"


def query_class(name: str) -> str:
    word = name.split(" ")[0].split(":")[0]
    return next((c for c, words in CLASSES.items() if word in words), REFUSED)


def _directus() -> Server | None:
    """The Directus that `make directus` started, if it runs."""
    sys.path.insert(0, str(ROOT / "tests" / "directus"))
    from harness import State

    try:
        state = State.read()
        if httpx.get(state.url + "/server/ping", timeout=5).text != "pong":
            return None
    except (SystemExit, httpx.HTTPError):
        return None
    return Server("Directus 12.4", state.url, state.reader_token or "", authorized=False)


class LeanClient:
    """The battery's requests over ``http.client`` on one kept-alive connection: about a
    tenth of a millisecond of the client's own work a request, where httpx takes about
    0.9 ms on this kind of machine; what remains is the server's time."""

    def __init__(self, url: str) -> None:
        parts = urllib.parse.urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=600)

    def ask(self, case: Any, token: str) -> int:
        """Send ``case`` as ``compare.ask`` sends it; the answer's status."""
        from compare import request_parts

        params, headers = request_parts(case, token)
        path = urllib.parse.quote(case.path, safe="/")
        if params:
            path += "?" + urllib.parse.urlencode(params)
        for attempt in range(2):
            try:
                self.conn.request("GET", path, headers=headers)
                response = self.conn.getresponse()
                response.read()
                return response.status
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()  # the server closed the idle connection: once more
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.conn.close()


def battery(baseline: Path | None, rounds: int) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "directus"))
    from compare import ask
    from harness import catalogue_rows
    from queries import cases

    from educatalog.testing import build_test_database

    token = "comparison-token"
    rows = catalogue_rows()
    all_cases = list(cases(rows))
    with tempfile.TemporaryDirectory() as tmp:
        db = build_test_database(Path(tmp) / "battery.sqlite", rows)
        named = {"this tree": (db, None)}
        if baseline is not None:
            named["baseline"] = (db, baseline)
        with servers(named, tokens=(token,)) as targets:
            directus = _directus()
            if directus is not None:
                targets = [*targets, directus]
            lean = {s.name: LeanClient(s.url) for s in targets}
            times: dict[str, dict[str, list[float]]] = {s.name: {} for s in targets}
            bare: dict[str, dict[str, list[float]]] = {s.name: {} for s in targets}
            # Each round, every server answers the whole battery once by each client, the
            # servers' order reversed from round to round (drift of the machine falls on
            # both alike); a request follows one of its own pass, not another server's or
            # client's (whose late work, a Directus's above all, would fall on it).
            for r in range(rounds + 1):  # the first round warms up
                for server in targets if r % 2 == 0 else list(reversed(targets)):
                    for measured, asking in (
                        (times, lambda case, s=server: ask(s.client, case, s.token)),
                        (bare, lambda case, s=server: lean[s.name].ask(case, s.token)),
                    ):
                        for case in all_cases:
                            t0 = time.perf_counter()
                            asking(case)
                            elapsed = 1000 * (time.perf_counter() - t0)
                            if r:
                                measured[server.name].setdefault(case.name, []).append(elapsed)
            for s in targets:
                s.client.close()
                lean[s.name].close()
    _battery_table(times, bare, all_cases, rounds, directus is not None)


def _battery_table(
    times: dict[str, dict[str, list[float]]],
    bare: dict[str, dict[str, list[float]]],
    all_cases: list[object],
    rounds: int,
    live: bool,
) -> None:
    names = list(times)
    print(
        f"\n{len(all_cases)} cases, {rounds} rounds, servers taking turns by pass; load average "
        f"{_load()}" + ("" if live else "; no Directus running (`make directus` starts one)")
    )
    print("\n| query class | cases | " + " | ".join(f"{n}: p50 / p95 ms" for n in names) + " |")
    print("|---|---:|" + "---:|" * len(names))
    classes = [*CLASSES, REFUSED]
    for cls in classes:
        members = [c for c in times[names[0]] if query_class(c) == cls]
        cells = []
        for n in names:
            values = [v for c in members for v in times[n][c]]
            cells.append(f"{pct(values, 50):.1f} / {pct(values, 95):.1f}")
        print(f"| {cls} | {len(members)} | " + " | ".join(cells) + " |")
    totals = {}
    for label, measured in [("httpx", times), ("http.client", bare)]:
        totals[label] = {
            n: sum(statistics.median(v) for v in measured[n].values()) / 1000 for n in names
        }
        print(
            f"| **all, one pass (s), {label}** | "
            + f"{len(measured[names[0]])} | "
            + " | ".join(f"**{totals[label][n]:.2f}**" for n in names)
            + " |"
        )
    if live:
        for label, total in totals.items():
            ours, theirs = total[names[0]], total[names[-1]]
            print(
                f"\nThe battery in total, asked by {label}: "
                f"{theirs / ours:.1f}x faster than Directus."
            )


# ---------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", default="1,200", help="demo scales (200: ~1M events)")
    parser.add_argument("--requests", type=int, default=300, help="requests per query")
    parser.add_argument("--concurrency", type=int, default=8, help="clients for throughput")
    parser.add_argument("--large", type=int, default=5, help="repetitions of each large request")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the battery")
    parser.add_argument("--baseline", help="a git revision to compare with (e.g. main)")
    parser.add_argument("--parts", default="classes,large,battery", help="what to measure")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores; load average {_load()}; "
        f"{args.requests} requests per query, throughput with {args.concurrency} clients"
        + (f"; baseline {args.baseline}" if args.baseline else "")
        + "\n"
    )
    with tempfile.TemporaryDirectory() as tmp:
        base = export_revision(args.baseline, Path(tmp)) if args.baseline else None
        scales = [float(s) for s in args.scales.split(",")]
        if parts & {"classes", "large"}:
            names = ["this tree", *(["baseline"] if base else [])]
            print("| events | query | " + " | ".join(f"{n}: p50 / p99 ms / req/s" for n in names))
            print("|---:|---|" + "---:|" * len(names))
        for scale in scales:
            if not parts & {"classes", "large"}:
                break
            named = {"this tree": (demo_database(scale), None)}
            if base is not None:
                named["baseline"] = (demo_database(scale, base), base)
            with servers(named) as targets:
                if "classes" in parts:
                    typical_queries(targets, args.requests, args.concurrency)
                if "large" in parts and scale == max(scales):
                    large_requests(targets, args.large)
        if "battery" in parts:
            battery(base, args.rounds)


if __name__ == "__main__":
    main()
