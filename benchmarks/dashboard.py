"""Benchmark the dashboard serving many visitors at once: its designs against issue 35's
targets, in one run.

For each design (``educatalog dashboard --engine voila|solara|html``; a dashboard without that
option is Voilà's and is started without it) the dashboard on the demo catalogue runs as
its own process; once it answers and its processes are idle, headless Chromium (Debian's,
driven by Playwright) opens it as ``--visitors`` visitors at once, each in a browser
context of its own. A visitor's first paint is the time from asking for the page until
the chart shows and the status line counts the events ("numbers shown": until the status
line and the table show, which the html engine's page does before the browser has loaded
its chart; the widgets' pages write the chart first); each of their ``--updates``
changes of a control (the states, the measure, "Zählen nach") is timed from the change
until the status line and the chart show the new view. Each visitor chooses states of
their own: no two ask for the same view (Solara's design computes a view once for all
visitors, which would otherwise flatter it). Meanwhile the memory of the dashboard and of
every process it started (Voilà and a kernel per visitor; Solara serves all in one) is
sampled every 0.5 s from /proc: the sum of their PSS (a page shared by processes counted
once), and of their RSS for reference. Chromium runs on the same two cores, as a
visitor's browser would not: the times include its share of the CPU.

Issue 35's targets at 1,000,000 events (``--scale 200``), 20 visitors at once, two cores:
all of the dashboard's processes together at most 4 GB (10^9 bytes) of PSS, a first
paint within 3 s and an update within 1 s for every visitor (p95, nearest rank).

    python benchmarks/dashboard.py --src /work/main/src        # scale 200, 20 visitors
    python benchmarks/dashboard.py --scale 1 --visitors 4 --engines voila

The first run at a scale generates the demo catalogue (its database is cached; minutes at
scale 200): the first design's startup includes it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from subprocess import DEVNULL, Popen
from typing import Any

import httpx

TARGET_EVENTS, TARGET_VISITORS = 1_000_000, 20
TARGET_MEMORY, TARGET_PAINT, TARGET_UPDATE = 4.0, 3.0, 1.0  # GB of PSS, seconds (p95)

STARTUP_BOUND = 900.0  # seconds for the dashboard to answer (the demo generated at scale 200)
PAINT_BOUND = 600.0  # seconds for a visitor's first paint
UPDATE_BOUND = 120.0  # seconds for an update
STOP_BOUND = 60.0  # seconds for the dashboard to stop after SIGINT (it bounds itself at 45)
THINK = 1.0  # seconds a visitor waits between seeing a view and changing the next control

READY = {"voila": "voila/static/voila.js"}  # GET / would take Voilà's preheated kernel
PARTS = {  # by engine: the chart's image, the status line and the table
    "widgets": (
        ".educatalog-explorer-chart img",
        ".educatalog-explorer-status",
        ".educatalog-explorer-table table",
    ),
    "html": (
        "#educatalog-results .educatalog-chart img",
        "#educatalog-status",
        "#educatalog-results table",
    ),
}
COUNT = re.compile(r"[\d.]+ von ([\d.]+) Veranstaltungen")


def parts(engine: str) -> tuple[str, str, str]:
    """The chart's image, the status line and the table of ``engine``'s page (Voilà's and
    Solara's are the explorer's widgets)."""
    return PARTS.get(engine, PARTS["widgets"])


def numbers(engine: str) -> str:
    """The numbers shown: the status line counts the events and the table is there (the
    html engine's page shows them before its chart, which the browser loads apart)."""
    _chart, status, table = parts(engine)
    return f"""() => {{ const status = document.querySelector('{status}');
  return !!document.querySelector('{table}') && !!status
    && /\\d von [\\d.]+ Veranstaltungen/.test(status.textContent); }}"""


def painted(engine: str) -> str:
    """The first paint: the chart is shown and the status line counts the events."""
    chart, status, _table = parts(engine)
    return f"""() => {{ let img = document.querySelector('{chart}'),
  status = document.querySelector('{status}');
  return !!img && img.complete && img.naturalWidth > 0 && img.getBoundingClientRect().width > 0
    && !!status && /\\d von [\\d.]+ Veranstaltungen/.test(status.textContent); }}"""


def updated(engine: str) -> str:
    """An update shown: the status line is new (its text, its count of updates), the
    chart drawn."""
    chart, status, _table = parts(engine)
    return f"""(before) => {{ let img = document.querySelector('{chart}'),
  status = document.querySelector('{status}');
  return !!status && status.innerHTML !== before && !!img && img.complete
    && img.naturalWidth > 0; }}"""


async def change(page: Any, control: str, label: str, visitor: int, engine: str) -> None:
    """Choose ``label`` in the explorer's ``control``; states ``A`` or ``B``: the visitor's
    own (as the bits of their number, or all others), so that no two ask for one view."""
    timeout = UPDATE_BOUND * 1000
    html = engine == "html"
    select = page.locator(
        f"#educatalog-{control}" if html else f".educatalog-explorer-{control} select"
    )
    if control == "measure" and html:
        await (
            page.locator(".educatalog-measure")
            .get_by_label(label, exact=True)
            .check(timeout=timeout)
        )
    elif control == "measure":
        buttons = page.locator(".educatalog-explorer-measure button")
        await buttons.get_by_text(label, exact=True).click(timeout=timeout)
    elif control == "states":
        n = await select.locator("option").count()
        chosen = [b for b in range(n) if bool((visitor + 1) >> b & 1) == (label == "A")]
        await select.select_option(index=chosen, timeout=timeout)
    else:
        await select.select_option(label=label, timeout=timeout)


CHANGES = [("states", "A"), ("measure", "Kurse"), ("by", "Dauer"), ("states", "B")]
CHANGES += [("measure", "Veranstaltungen"), ("by", "Bundesland")]
"""A visitor's changes in turn: each differs from the view before, also as the cycle restarts."""


@dataclass
class Visitor:
    paint: float | None = None
    numbers: float | None = None  # the status line and the table shown (the chart may follow)
    updates: list[float] = field(default_factory=list)
    events: int | None = None
    error: str | None = None
    said: str = ""  # the page's last console message


@dataclass
class Sample:
    pss: int = 0  # bytes
    rss: int = 0
    processes: int = 0


@dataclass
class Result:
    engine: str
    startup: float = math.nan
    visitors: list[Visitor] = field(default_factory=list)
    idle: Sample = field(default_factory=Sample)
    peak: Sample = field(default_factory=Sample)
    cpu: float = math.nan  # CPU-seconds of the dashboard's processes while visitors came
    note: str = ""
    alone: str = ""  # the html engine's server with HTTP clients in place of browsers


def tree(root: int) -> dict[int, tuple[bytes, float]]:
    """``root`` and every process that descends from it (zombies aside): their command
    lines and CPU-seconds so far, by pid."""
    stats: dict[int, list[str]] = {}
    for entry in os.scandir("/proc"):
        with contextlib.suppress(OSError):
            if entry.name.isdigit():
                stat = Path(f"/proc/{entry.name}/stat").read_text().rsplit(")", 1)[1].split()
                stats[int(entry.name)] = stat
    found, todo = {root}, [root]
    while todo:
        pid = todo.pop()
        children = [p for p, st in stats.items() if int(st[1]) == pid and p not in found]
        found.update(children)
        todo += children
    ticks, processes = os.sysconf("SC_CLK_TCK"), {}
    for pid in found & stats.keys():
        with contextlib.suppress(OSError):
            if stats[pid][0] != "Z":
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
                processes[pid] = (command, (int(stats[pid][11]) + int(stats[pid][12])) / ticks)
    return processes


def memory(pids: list[int]) -> Sample:
    """The sums of PSS and RSS of ``pids`` (from /proc/PID/smaps_rollup)."""
    sample = Sample()
    for pid in pids:
        with contextlib.suppress(OSError, KeyError):
            lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]
            fields = {line.split(":")[0]: int(line.split()[1]) * 1024 for line in lines}
            sample.pss, sample.rss = sample.pss + fields["Pss"], sample.rss + fields["Rss"]
            sample.processes += 1
    return sample


def sample(
    root: int, seen: dict[int, bytes], result: Result, stopped: threading.Event, limit: float
) -> None:
    """Sample the memory of ``root``'s processes every 0.5 s until ``stopped``: the peak (by
    PSS) into ``result``, every process seen into ``seen`` (to stop leftovers)."""
    while not stopped.is_set():
        processes = tree(root)
        seen.update({pid: command for pid, (command, _) in processes.items()})
        now = memory(list(processes))
        if now.pss > result.peak.pss:
            result.peak = now
        if now.pss / 1e9 > limit:  # the machine's safety: the visitors then end
            result.note += f" stopped at {now.pss / 1e9:.1f} GB (--memory-limit {limit:g})"
            with contextlib.suppress(ProcessLookupError):
                os.killpg(root, signal.SIGINT)
            return
        stopped.wait(0.5)


def wait_ready(process: Popen[bytes], url: str, log: Path, seen: dict[int, bytes]) -> None:
    """Until the dashboard answers, then until its processes are idle (a preheated kernel
    has read the catalogue): less than 0.1 CPU-seconds in 2 s, bounded."""
    deadline = time.monotonic() + STARTUP_BOUND
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"the dashboard stopped: {log.read_text()[-2000:]}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the dashboard did not answer within {STARTUP_BOUND:g} s")
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(url, timeout=5).status_code < 500:
                break
        time.sleep(0.5)
    before = tree(process.pid)
    while time.monotonic() < deadline:
        time.sleep(2)
        now = tree(process.pid)
        seen.update({pid: command for pid, (command, _) in now.items()})
        if sum(cpu - before.get(p, (b"", 0.0))[1] for p, (_, cpu) in now.items()) < 0.1:
            return
        before = now


def stop(process: Popen[bytes], seen: dict[int, bytes]) -> None:
    """SIGINT to the dashboard's process group (as Ctrl+C), SIGKILL after ``STOP_BOUND``;
    then any process it started that still runs (Voilà and kernels run in sessions of
    their own), by pid and only with the command line it had."""
    began = time.monotonic()
    try:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=STOP_BOUND)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    except ProcessLookupError:
        pass
    print(f"  stopped in {time.monotonic() - began:.1f} s (exit status {process.returncode})")
    time.sleep(2)
    for pid, command in seen.items():
        with contextlib.suppress(OSError):
            if Path(f"/proc/{pid}/cmdline").read_bytes() == command:
                os.kill(pid, signal.SIGKILL)
                print(f"  killed a leftover process {pid}: {command[:80]!r}")


async def visit(
    browser: Any, url: str, number: int, args: argparse.Namespace, visitor: Visitor, engine: str
) -> None:
    """One visitor in a browser context of their own: opens the page, waits for the first
    paint, changes ``--updates`` controls; the page stays open."""
    await asyncio.sleep(number * args.stagger)
    _chart, status, _table = parts(engine)
    # the html engine's page allows its own script alone (CSP): the waits' own, too
    context = await browser.new_context(
        viewport={"width": 1400, "height": 1000}, bypass_csp=engine == "html"
    )
    try:
        page = await context.new_page()
        page.on("console", lambda message: setattr(visitor, "said", message.text[:150]))
        started = time.monotonic()
        await page.goto(url, wait_until="commit", timeout=PAINT_BOUND * 1000)
        await page.wait_for_function(numbers(engine), timeout=PAINT_BOUND * 1000, polling=50)
        visitor.numbers = time.monotonic() - started
        await page.wait_for_function(painted(engine), timeout=PAINT_BOUND * 1000, polling=50)
        visitor.paint = time.monotonic() - started
        found = COUNT.search(await page.locator(status).inner_text())
        visitor.events = int(found.group(1).replace(".", "")) if found else None
        for index in range(args.updates):
            control, label = CHANGES[index % len(CHANGES)]
            await asyncio.sleep(THINK)
            before = await page.locator(status).inner_html()
            started = time.monotonic()
            await change(page, control, label, number, engine)
            await page.wait_for_function(
                updated(engine), arg=before, timeout=UPDATE_BOUND * 1000, polling=50
            )
            seconds = time.monotonic() - started
            shown = await page.locator(status).inner_text()
            if not COUNT.search(shown):
                raise RuntimeError(f"after {control} {label} the status: {shown[:120]!r}")
            visitor.updates.append(seconds)
    except Exception as error:  # recorded, with the page's last word: the table counts them
        said = f"{type(error).__name__}: {str(error).splitlines()[0][:100]}"
        visitor.error = f"{said}; the page's console said last: {visitor.said!r}"


async def visitors(
    process: Popen[bytes], url: str, args: argparse.Namespace, engine: str
) -> list[Visitor]:
    """The visitors at once (or ``--stagger`` apart), until done or the dashboard ended."""
    from playwright.async_api import async_playwright

    count = args.voila_visitors if engine == "voila" and args.voila_visitors else args.visitors
    found = [Visitor() for _ in range(count)]
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=shutil.which("chromium"), args=["--no-sandbox", "--disable-gpu"]
        )
        tasks = [
            asyncio.create_task(visit(browser, url, i, args, v, engine))
            for i, v in enumerate(found)
        ]
        while not all(task.done() for task in tasks) and process.poll() is None:
            await asyncio.wait(tasks, timeout=1)
        for task, visitor in zip(tasks, found, strict=True):
            if task.cancel():
                visitor.error = f"the dashboard ended (exit status {process.returncode})"
        await asyncio.gather(*tasks, return_exceptions=True)
        await browser.close()  # and with it every visitor's page, once all are done
    return found


async def server_alone(url: str, count: int) -> str:
    """The html engine's server without browsers: ``count`` HTTP clients ask at once for a
    page each (views of their own, none asked before: the measure of places by another
    dimension), then for its chart; how long until each page and each chart came."""
    views = [f"by=duration_class&measure=capacity&states={n}" for n in STATE_NAMES]
    views += [f"by=instruction_form_category&measure=capacity&states={n}" for n in STATE_NAMES]
    async with httpx.AsyncClient(base_url=url, timeout=PAINT_BOUND) as client:
        began = time.monotonic()

        async def one(view: str) -> tuple[float, float]:
            page = await client.get(f"?{view}", headers={"X-Educatalog-Page": "first"})
            shown = time.monotonic() - began
            chart = await client.get(f"chart.png?{view}")
            if page.status_code != 200 or chart.status_code != 200:
                raise RuntimeError(f"{view}: {page.status_code}, {chart.status_code}")
            return shown, time.monotonic() - began

        times = await asyncio.gather(*(one(view) for view in views[:count]))
    pages, charts = [t for t, _ in times], [t for _, t in times]
    said = (
        f"html, the server alone ({count} HTTP clients at once, no browser): pages "
        f"{spread(pages)} s, charts {spread(charts)} s (median / p95)"
    )
    print(f"  {said}", flush=True)
    return said


STATE_NAMES = [
    "Baden-Württemberg", "Bayern", "Berlin", "Brandenburg", "Bremen", "Hamburg", "Hessen",
    "Mecklenburg-Vorpommern", "Niedersachsen", "Nordrhein-Westfalen", "Rheinland-Pfalz",
    "Saarland", "Sachsen", "Sachsen-Anhalt", "Schleswig-Holstein", "Thüringen",
]  # fmt: skip


def run(engine: str, args: argparse.Namespace, env: dict[str, str], folder: Path) -> Result:
    result = Result(engine)
    if not args.has_engine and engine != "voila":
        result.note = "this dashboard has no --engine option"
        return result
    with socket.socket() as s:  # a free port, unless given
        s.bind(("127.0.0.1", 0))
        port = args.port or s.getsockname()[1]
    command = [sys.executable, "-m", "educatalog.cli", "dashboard"]
    if args.snapshot:
        command += ["--snapshot", str(args.snapshot)]
    else:
        command += ["--demo", "--scale", f"{args.scale:g}"]
    command += ["--port", str(port), "--lang", "de"]
    command += ["--idle-timeout", "120"] + (["--engine", engine] if args.has_engine else [])
    log = folder / f"{engine}.log"
    print(f"{engine}: {' '.join(command[1:])} (log: {log})", flush=True)
    seen: dict[int, bytes] = {}  # every process of the dashboard's (to stop what is left)
    began = time.monotonic()
    with log.open("w") as out:
        process = Popen(
            command, env=env, stdin=DEVNULL, stdout=out, stderr=out, start_new_session=True
        )
    try:
        url = f"http://127.0.0.1:{port}/"
        wait_ready(process, url + READY.get(engine, ""), log, seen)
        result.startup = time.monotonic() - began
        result.idle = memory(list(tree(process.pid)))
        print(f"  ready after {result.startup:.1f} s, {result.idle.pss / 1e9:.2f} GB", flush=True)
        stopped = threading.Event()
        sampler = threading.Thread(
            target=sample, args=(process.pid, seen, result, stopped, args.memory_limit)
        )
        sampler.start()
        cpu = sum(seconds for _, seconds in tree(process.pid).values())
        try:
            result.visitors = asyncio.run(visitors(process, url, args, engine))
            result.cpu = sum(seconds for _, seconds in tree(process.pid).values()) - cpu
            if engine == "html" and args.http:
                result.alone = asyncio.run(server_alone(url, args.visitors))
        finally:
            stopped.set()
            sampler.join()
    except RuntimeError as error:
        result.note = str(error)[:300]
    finally:
        stop(process, seen)
    if "Traceback" in log.read_text(errors="replace"):
        result.note += f" a traceback in {log}"
    paints = sorted(v.paint for v in result.visitors if v.paint is not None)
    print("  first paints (s):", " ".join(f"{seconds:.1f}" for seconds in paints))
    for failed in (v.error for v in result.visitors if v.error):
        print(f"  a visitor failed: {failed}")
    return result


def p95(values: list[float]) -> float:
    """The 95th percentile by nearest rank (of 20 values the 19th smallest)."""
    return sorted(values)[math.ceil(0.95 * len(values)) - 1] if values else math.nan


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} / {p95(values):.2f}" if values else "–"


def table(results: list[Result], args: argparse.Namespace) -> str:
    lines = [
        f"Dashboard, {f'snapshot {args.snapshot.name}' if args.snapshot else 'demo'} at "
        f"scale {args.scale:g}, {args.visitors} visitors "
        f"({'at once' if not args.stagger else f'{args.stagger:g} s apart'}), "
        f"{args.updates} updates each, {os.cpu_count()} cores. Targets (issue 35, at "
        f"{TARGET_EVENTS:,} events and {TARGET_VISITORS} visitors at once): PSS <= "
        f"{TARGET_MEMORY:g} GB, first paint p95 <= {TARGET_PAINT:g} s, update p95 <= "
        f"{TARGET_UPDATE:g} s.",
        "",
        "| engine | events | visitors ok | startup s | numbers shown median / p95 s "
        "| first paint (with chart) median / p95 s "
        "| update median / p95 s | peak PSS GB | peak RSS GB | processes | idle PSS GB "
        "| dashboard CPU s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    verdicts = []
    for r in results:
        ok = [v for v in r.visitors if v.error is None]
        paints = [v.paint for v in r.visitors if v.paint is not None]
        shown = [v.numbers for v in r.visitors if v.numbers is not None]
        updates = [s for v in r.visitors for s in v.updates]
        counted = {v.events for v in r.visitors if v.events is not None}
        events = "/".join(f"{n:,}" for n in sorted(counted)) or "?"
        lines.append(
            f"| {r.engine} | {events} | {len(ok)}/{len(r.visitors) or args.visitors} "
            f"| {r.startup:.1f} | {spread(shown)} | {spread(paints)} | {spread(updates)} "
            f"| {r.peak.pss / 1e9:.2f} | {r.peak.rss / 1e9:.2f} | {r.peak.processes} "
            f"| {r.idle.pss / 1e9:.2f} | {r.cpu:.1f} |"
        )
        if not r.visitors:
            verdicts.append(f"- {r.engine}: not measured ({r.note.strip()})")
            continue
        all_ok = len(ok) == len(r.visitors)
        checks = [
            ("memory", r.peak.pss / 1e9 <= TARGET_MEMORY),
            ("first paint", all_ok and p95(paints) <= TARGET_PAINT),
            ("update", all_ok and bool(updates) and p95(updates) <= TARGET_UPDATE),
        ]
        said = ", ".join(f"{name} {'met' if met else 'MISSED'}" for name, met in checks)
        small = max(counted, default=0) < 0.99 * TARGET_EVENTS or len(r.visitors) < TARGET_VISITORS
        caveat = " (smaller than the targets' case: indicative only)" if small else ""
        failed = f"; {len(r.visitors) - len(ok)} visitors failed" if not all_ok else ""
        verdicts.append(f"- {r.engine}: {said}{failed}{caveat}{(' ' + r.note) if r.note else ''}")
    alone = [f"- {r.alone}" for r in results if r.alone]
    return "\n".join([*lines, "", *verdicts, *alone]) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=200.0, help="demo size (200: 1M events)")
    parser.add_argument("--visitors", type=int, default=20, help="visitors at once")
    parser.add_argument("--engines", default="voila,solara,html", help="designs, comma-separated")
    parser.add_argument("--updates", type=int, default=3, help="changes of controls per visitor")
    parser.add_argument("--port", type=int, default=0, help="the dashboard's (default: free)")
    parser.add_argument("--out", type=Path, help="also write the markdown table here")
    parser.add_argument("--stagger", type=float, default=0.0, help="seconds between arrivals")
    parser.add_argument("--src", type=Path, help="educatalog's source to run (PYTHONPATH)")
    parser.add_argument("--snapshot", type=Path, help="serve this snapshot, not --demo --scale")
    parser.add_argument(
        "--voila-visitors",
        type=int,
        help="visitors for Voilà (default --visitors; at scale 200 each kernel holds 1.2 GB)",
    )
    parser.add_argument(
        "--http",
        action="store_true",
        help="html engine: then also the server alone, with HTTP clients in place of browsers",
    )
    parser.add_argument(
        "--memory-limit",
        type=float,
        default=16.0,
        help="GB of PSS at which a design's run is stopped (the machine's safety)",
    )
    args = parser.parse_args()
    if shutil.which("chromium") is None:
        raise SystemExit("needs Debian's chromium (apt-get install chromium)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("EDUCATALOG_URL")}
    if args.src:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(args.src), env.get("PYTHONPATH")]))
    helped = [sys.executable, "-m", "educatalog.cli", "dashboard", "--help"]
    helped_out = subprocess.run(helped, env=env, capture_output=True, text=True, timeout=300)
    args.has_engine = "--engine" in helped_out.stdout  # else the dashboard is Voilà's alone
    folder = Path(tempfile.mkdtemp(prefix="bench-dashboard-"))
    results = [run(e.strip(), args, env, folder) for e in args.engines.split(",") if e.strip()]
    shown = table(results, args)
    print("\n" + shown)
    if args.out:
        args.out.write_text(shown, encoding="utf-8")


if __name__ == "__main__":
    main()
