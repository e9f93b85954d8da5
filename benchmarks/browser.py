"""Benchmark what a reader waits for in the browser: the dashboard's first paint and one
update of the explorer after a control changes.

`educatalog dashboard --demo` runs as its own process; headless Chromium (Debian's, driven
by Playwright) opens it as new visitors (each gets a kernel of its own: the first paint
includes starting it, reading the snapshot and the first chart) and changes the controls
one at a time, timing each from the change until chart and table show the new view. The
baseline in the same run is the same update computed in Python by the explorer alone
(``Explorer.refresh``: filter, table, chart, PNG), without browser, widget messages or the
debounce pause. Issue 20's target: an update within 2 s.

    python benchmarks/browser.py                  # the demo at scale 1 (5,503 events)
    python benchmarks/browser.py --scale 20 --visits 3
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

TARGET_UPDATE = 2.0

CHART = "document.querySelector('.educatalog-explorer-chart img')"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(scale: float, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [sys.executable, "-m", "educatalog.cli", "dashboard", "--demo"]
    command += ["--scale", str(scale), "--port", str(port)]
    with log.open("w") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 1800
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "voila/static/voila.js", timeout=2).status_code < 500:
                return process, url
        except httpx.TransportError:
            time.sleep(0.5)
    raise SystemExit(f"the dashboard did not start:\n{log.read_text()}")


def painted(page: Any) -> None:
    page.wait_for_function(
        f"() => {{ const img = {CHART}; return img && img.complete && img.naturalWidth > 0; }}",
        timeout=600_000,
    )


def view(page: Any) -> tuple[str, str]:
    return (
        page.evaluate(f"() => {CHART}.src"),
        page.locator(".educatalog-explorer-table").inner_text(),
    )


def timed_change(page: Any, action: Callable[[], Any]) -> float:
    before = view(page)
    started = time.monotonic()
    action()
    while True:
        now = view(page)
        if now[0] != before[0] and now[1] != before[1]:
            return time.monotonic() - started
        if time.monotonic() - started > 120:
            raise SystemExit("the view did not change")
        page.wait_for_timeout(20)


CHANGES: dict[str, Callable[[Any], Any]] = {
    "a state": lambda p: p.locator(".educatalog-explorer-states select").select_option(
        label="Bayern"
    ),
    "the measure": lambda p: p.locator(
        ".educatalog-explorer-measure button", has_text="Kurse"
    ).click(),
    "a second dimension": lambda p: p.locator(".educatalog-explorer-by2 select").select_option(
        label="Lernform"
    ),
    "the start range": lambda p: p.locator(".educatalog-explorer-start .noUi-handle").first.press(
        "ArrowRight"
    ),
    "all states again": lambda p: p.locator(".educatalog-explorer-states select").select_option([]),
}


def python_updates(scale: float, repeat: int) -> dict[str, float]:
    """The same changes applied to an Explorer in this process (no browser): its refresh."""
    import educatalog
    from educatalog.widgets import Explorer

    with educatalog.demo(scale=scale, progress=False) as client:
        offers = educatalog.load_catalogue(client).offers()
    explorer = Explorer(offers, debounce=0)
    steps: dict[str, Callable[[], Any]] = {
        "a state": lambda: setattr(explorer.controls["states"], "value", ("Bayern",)),
        "the measure": lambda: setattr(explorer.controls["measure"], "value", "courses"),
        "a second dimension": lambda: setattr(
            explorer.controls["by2"], "value", "instruction_form_category"
        ),
        "the start range": lambda: setattr(
            explorer.controls["start"],
            "index",
            (explorer.controls["start"].index[0] + 1, explorer.controls["start"].index[1]),
        ),
        "all states again": lambda: setattr(explorer.controls["states"], "value", ()),
    }
    seconds: dict[str, list[float]] = {name: [] for name in steps}
    for _ in range(repeat):
        explorer.set_state({})
        for name, step in steps.items():
            step()
            seconds[name].append(explorer.seconds)
    return {name: statistics.median(values) for name, values in seconds.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="demo size (1: 5,503 events)")
    parser.add_argument("--visits", type=int, default=5, help="new visitors (first paints)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of control changes")
    args = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("needs Debian's chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="bench-browser-"))
    process, url = start(args.scale, folder / "dashboard.log")
    paints: list[float] = []
    changes: dict[str, list[float]] = {name: [] for name in CHANGES}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
            )
            for _ in range(args.visits):
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                started = time.monotonic()
                page.goto(url)
                painted(page)
                paints.append(time.monotonic() - started)
                page.close()
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url)
            painted(page)
            for _ in range(args.repeat):
                page.goto(url)
                painted(page)
                for name, change in CHANGES.items():
                    changes[name].append(timed_change(page, lambda c=change: c(page)))
            browser.close()
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=60)
        shutil.rmtree(folder, ignore_errors=True)
    python = python_updates(args.scale, args.repeat)

    print(f"\nthe dashboard on the demo at scale {args.scale:g}; medians (min-max)\n")
    print(f"{'what the reader waits for':<34} {'browser':>18} {'explorer alone':>15} {'target':>8}")
    print("-" * 78)
    first = f"{statistics.median(paints):.2f} s ({min(paints):.1f}-{max(paints):.1f})"
    print(f"{'first paint (a new visitor)':<34} {first:>18} {'':>15} {'':>8}")
    for name, values in changes.items():
        shown = f"{statistics.median(values):.2f} s ({min(values):.1f}-{max(values):.1f})"
        alone = f"{python[name]:.2f} s"
        print(f"{'update after ' + name:<34} {shown:>18} {alone:>15} {TARGET_UPDATE:>6.1f} s")
    worst = max(statistics.median(v) for v in changes.values())
    verdict = "met" if worst <= TARGET_UPDATE else "MISSED"
    print(f"\n{args.visits} visitors, {args.repeat} rounds of changes; update target {verdict}")


if __name__ == "__main__":
    main()
