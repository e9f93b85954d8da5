"""Helpers of the dashboard's browser tests (``tests/browser/test_dashboard*.py``): start
``educatalog dashboard`` as a user does, served by Solara, as plain HTML (the default) or
by Voilà, and stop it as Ctrl+C does (checking that Voilà and its kernels go with it), the
processes it runs, its sessions and memory, and a page of it opened and read."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from browsing import Recorder, screen_table
from educatalog.cli.dashboard import ENGINES, STOP_BOUND
from processes import free_port, logged

IDLE_TIMEOUT = 4
"""Seconds after which the dashboards of these tests stop the kernel of a page that is gone."""


def start_dashboard(
    lang: str, log: Path, engine: str = "solara"
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``educatalog dashboard --demo`` served by ``engine``, and wait until it
    answers; returns its process and address."""
    for module in ENGINES[engine]:
        pytest.importorskip(module, reason="the dashboard needs the 'dashboard' extra")
    port = free_port()
    command = [sys.executable, "-m", "educatalog.cli", "dashboard", "--demo"]
    command += ["--port", str(port), "--lang", lang, "--idle-timeout", str(IDLE_TIMEOUT)]
    command += ["--engine", engine]
    ready = "voila/static/voila.js" if engine == "voila" else "readyz"
    env = {k: v for k, v in os.environ.items() if not k.startswith("EDUCATALOG_URL")}
    process = logged(command, log, env)  # stopped with Voilà and its kernels below
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 240
    while True:
        assert process.poll() is None, f"the dashboard stopped:\n{log.read_text()}"
        assert time.monotonic() < deadline, f"the dashboard did not answer:\n{log.read_text()}"
        try:
            if httpx.get(url + ready, timeout=2).status_code < 500:
                break
        except httpx.TransportError:
            pass
        time.sleep(0.3)
    return process, url


def leftovers() -> set[str]:
    """The dashboards' temporary folders (their snapshot, notebook, sockets) that exist."""
    return {p.name for p in Path(tempfile.gettempdir()).glob("educatalog-dashboard-*")}


def contents(names: set[str]) -> list[str]:
    """What lies in the dashboards' folders ``names`` (to say what was left behind)."""
    root = Path(tempfile.gettempdir())
    return sorted(str(p.relative_to(root)) for n in names for p in (root / n).rglob("*"))


def stop(
    process: subprocess.Popen[bytes], how: int = signal.SIGINT, engine: str = "solara"
) -> None:
    """Stop the dashboard as Ctrl+C does (or ``how``), and check that what it started
    (Voilà and its kernels) went with it."""
    started = {pid: command for pid, (_, command) in descendants(process).items()}
    if engine == "voila":
        assert any(b"voila" in command for command in started.values()), started
    began = time.monotonic()
    try:
        os.killpg(process.pid, how)  # as Ctrl+C (or a service manager) stops the dashboard
        process.wait(timeout=STOP_WITHIN)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # killed, it cannot remove its folder
        process.wait(timeout=10)
        raise AssertionError(
            f"the dashboard did not stop within {STOP_WITHIN} s of signal {how}, though it "
            f"ends itself after {STOP_BOUND:g} s; killed"
        ) from None
    except ProcessLookupError:
        pass
    print(f"the dashboard stopped in {time.monotonic() - began:.1f} s")
    # 0: Voilà stopped, the folder was removed, nothing hung (1: it hung and ended itself
    # after STOP_BOUND, saying where in its log; another: Voilà's, stopped outright)
    assert process.returncode == 0, f"the dashboard's stop ended with {process.returncode}"
    left = still_running(started, seconds=30)
    assert not left, f"the stopped dashboard left processes behind: {left}"
    stayed = {name for name in folders(started) if (Path(tempfile.gettempdir()) / name).exists()}
    assert not stayed, f"its temporary folder stayed: {contents(stayed)}"


def folders(started: dict[int, bytes]) -> set[str]:
    """The temporary folders of the dashboard whose processes ran ``started`` (Voilà names
    its notebook in it): its own, not those of dashboards that others started meanwhile."""
    return {m.decode() for command in started.values() for m in FOLDER.findall(command)}


def still_running(started: dict[int, bytes], seconds: float) -> set[tuple[int, bytes]]:
    """The processes of a stopped dashboard that still run after up to ``seconds``: those
    ``started`` (pid and command line), and any started since that names the dashboard's
    folder (a kernel names its connection file in it)."""
    folders = {m for command in started.values() for m in FOLDER.findall(command)}
    deadline, left = time.monotonic() + seconds, set(started.items())
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        now = {pid: command for pid, (_, command) in running().items()}
        left = started.items() & now.items()  # the same pid and command: still there
        left |= {(p, c) for p, c in now.items() if any(f in c for f in folders)}
    return left


STOP_WITHIN = STOP_BOUND + 15
"""Seconds a dashboard may take to stop: the bound within which it ends itself, and room
for a machine that runs the suite on every core."""

FOLDER = re.compile(rb"educatalog-dashboard-\w+")
"""A dashboard's temporary folder in a command line (Voilà's notebook, a kernel's file)."""


def running() -> dict[int, tuple[int, bytes]]:
    """Every process that runs (zombies aside): its parent and its command line, by pid."""
    found: dict[int, tuple[int, bytes]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except (ProcessLookupError, PermissionError, FileNotFoundError):
            continue
        if stat[0] != "Z":
            found[int(entry.name)] = (int(stat[1]), command)
    return found


def descendants(process: subprocess.Popen[bytes]) -> dict[int, tuple[int, bytes]]:
    """The processes that the dashboard started by ``process`` runs (Voilà in a session of
    its own, and each kernel in a session of its own), by pid."""
    everything = running()

    def descends(pid: int) -> bool:
        while pid > 1:
            if pid == process.pid:
                return True
            pid = everything.get(pid, (0, b""))[0]
        return False

    return {p: entry for p, entry in everything.items() if p != process.pid and descends(p)}


def kernels(process: subprocess.Popen[bytes]) -> list[bytes]:
    """The command lines of the kernels that the dashboard started by ``process`` runs."""
    return [c for _, c in descendants(process).values() if b"ipykernel_launcher" in c]


def loading_screenshot(recorder: Recorder, url: str, path: Path, width: int) -> str:
    """Open ``url`` in a new page ``width`` px wide and take a screenshot while it loads
    (its loading line shown); returns the line. The page is closed."""
    page = recorder.new_page()
    page.set_viewport_size({"width": width, "height": 700})
    try:
        page.goto(url, wait_until="commit", timeout=180_000)
        line = page.locator("#educatalog-first, #educatalog-loading").first
        line.wait_for(state="visible", timeout=60_000)
        said = str(line.inner_text())
        page.screenshot(path=str(path))
        return said
    finally:
        page.close()


def sessions(url: str) -> int:
    """How many visitors' sessions a Solara dashboard at ``url`` holds (its virtual
    kernels, as its ``/resourcez`` says)."""
    answer = httpx.get(url + "resourcez", timeout=30)
    answer.raise_for_status()
    return int(answer.json()["kernels"]["total"])


def settle(url: str, count: int, what: str) -> None:
    """Wait until the dashboard at ``url`` holds ``count`` sessions: those of pages that
    are gone end within the idle timeout (bounded for a busy machine)."""
    deadline = time.monotonic() + IDLE_TIMEOUT + 60
    while (held := sessions(url)) != count:
        assert time.monotonic() < deadline, f"{what}: {held} sessions, not {count}"
        time.sleep(0.3)


def painted(page: Any) -> None:
    """Wait for the page's first chart: its image loaded (bounded for a busy machine)."""
    page.wait_for_function(
        "() => { const img = document.querySelector('.educatalog-explorer-chart img');"
        " return img && img.complete && img.naturalWidth > 0; }",
        timeout=180_000,
    )


def open_view(recorder: Recorder, url: str, page: Any | None = None) -> tuple[Any, float]:
    """Open ``url`` and wait for the first chart; returns the page and the seconds."""
    page = page or recorder.page
    started = time.monotonic()
    page.goto(url, timeout=180_000)  # a busy machine may take longer than the 30 s default
    painted(page)
    seconds = time.monotonic() - started
    print(f"dashboard first paint: {seconds:.2f} s")
    return page, seconds


def shown(page: Any) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """The explorer's table as the page shows it (:func:`browsing.screen_table`)."""
    return screen_table(page.locator(".educatalog-explorer-table table"))


def status(page: Any) -> str:
    return str(page.locator(".educatalog-explorer-status").inner_text())


def changes(page: Any, action: Any, expected: str) -> None:
    """Do ``action`` and wait until the status line says ``expected``."""
    action()
    page.wait_for_function(
        "(text) => document.querySelector('.educatalog-explorer-status')"
        ".textContent.includes(text)",
        arg=expected,
        timeout=60_000,
    )


def updated(page: Any, action: Any) -> None:
    """Do ``action`` and wait until the page shows the update it caused: the status line,
    which the explorer writes last (after the chart and the table), counts one more."""
    before = updates(page)
    action()
    page.wait_for_function(
        "(n) => Number(document.querySelector('.educatalog-explorer-status [data-updates]')"
        "?.dataset.updates) > n",
        arg=before,
        timeout=60_000,
    )


def updates(page: Any) -> int:
    """How many updates the page's explorer ran (its status line's ``data-updates``)."""
    marker = page.locator(".educatalog-explorer-status [data-updates]")
    return int(marker.get_attribute("data-updates"))


def options(select: Any) -> list[str]:
    """The options of a list box as they read (ipywidgets writes their spaces unbroken)."""
    return [text.replace("\xa0", " ") for text in select.locator("option").all_inner_texts()]


def query(page: Any) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


def address(page: Any, expected: dict[str, list[str]]) -> None:
    """Wait (bounded) until the page's address holds the view ``expected``; the address
    follows the controls a moment after the status line."""
    deadline = time.monotonic() + 30
    while query(page) != expected:
        assert time.monotonic() < deadline, f"the address is {page.url}, not {expected}"
        page.wait_for_timeout(50)


def titled(page: Any, text: str) -> None:
    """Wait until the table's title holds ``text``."""
    page.wait_for_function(
        "(text) => { const c = document.querySelector('.educatalog-explorer-table caption');"
        " return c && c.textContent.includes(text); }",
        arg=text,
        timeout=60_000,
    )


RECORD_LOADING = """
window.__educatalogLoading = [];
new MutationObserver(() => {
  // Voilà's loading line, or Solara's: the template's first line, then the loader's
  const line = document.querySelector('#loading_text, #educatalog-first, #educatalog-loading');
  const seen = window.__educatalogLoading;
  if (line && seen[seen.length - 1] !== line.textContent) seen.push(line.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""
"""A script run before the page's own (``context.add_init_script``): it keeps every text
the loading page shows under its spinner, from the first byte on."""


def loading_lines(page: Any) -> list[str]:
    """What the loading page said, in order (:data:`RECORD_LOADING` ran before it)."""
    lines: list[str] = page.evaluate("() => window.__educatalogLoading || []")
    return lines


def overlaps_and_cuts(page: Any) -> list[str]:
    """What of the explorer's controls overlaps another control of its row, runs off the
    page's width, or shows its words cut off ("Filter zurückse…"), in words; [] when none."""
    found: list[str] = page.evaluate(_LAID_OUT)
    return found


_LAID_OUT = """() => {
  const found = [];
  const width = document.documentElement.clientWidth;
  const name = (e) => (e.className.match(/educatalog-explorer-[a-z_]+/) || [e.tagName])[0];
  const rows = document.querySelectorAll('.educatalog-explorer .educatalog-explorer-row');
  for (const row of rows) {
    // each control of the row, and the parts of the start slider (label, track, readout)
    const parts = [];
    for (const item of row.children) {
      const inner = item.querySelectorAll('.widget-label, .slider-container, .widget-readout');
      const pieces = item.classList.contains('educatalog-explorer-start') ? [...inner] : [item];
      for (const piece of pieces) {
        const box = piece.getBoundingClientRect();
        if (box.width > 0 && box.height > 0) parts.push([name(item), piece, box]);
      }
    }
    for (let i = 0; i < parts.length; i++) {
      const [a, , boxA] = parts[i];
      if (boxA.right > width + 0.5) found.push(`${a} ends at ${boxA.right} of ${width} px`);
      for (let j = i + 1; j < parts.length; j++) {
        const [b, , boxB] = parts[j];
        if (a === b) continue;
        const apart = boxA.right <= boxB.left + 0.5 || boxB.right <= boxA.left + 0.5
          || boxA.bottom <= boxB.top + 0.5 || boxB.bottom <= boxA.top + 0.5;
        if (!apart) found.push(`${a} overlaps ${b}`);
      }
    }
  }
  const words = document.querySelectorAll(
    '.educatalog-explorer .widget-label, .educatalog-explorer .widget-label-basic,'
    + ' .educatalog-explorer button, .educatalog-explorer .widget-readout');
  for (const e of words) {
    if (e.offsetParent && e.scrollWidth > e.clientWidth + 1) {
      found.push(`cut: "${e.textContent.trim()}" (${e.scrollWidth} > ${e.clientWidth} px)`);
    }
  }
  if (document.scrollingElement.scrollWidth > window.innerWidth) {
    found.push(`the page scrolls sideways: ${document.scrollingElement.scrollWidth} px`);
  }
  return found;
}"""


def accessibility_tree(page: Any, roles: tuple[str, ...]) -> list[tuple[str, str, dict[str, Any]]]:
    """The page's controls as a screen reader meets them (Chromium's accessibility tree):
    (role, name, properties) of every node of ``roles``, in order."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    found = []
    for node in nodes:
        role = node.get("role", {}).get("value")
        if role in roles and not node.get("ignored"):
            properties = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
            found.append((role, node.get("name", {}).get("value", ""), properties))
    return found


def contrast(first: str, second: str) -> float:
    """The contrast ratio (WCAG) of two CSS colours ``rgb(r, g, b)``."""

    def luminance(colour: str) -> float:
        channels = [int(c) / 255 for c in re.findall(r"\d+", colour)[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def focus_ring(page: Any) -> tuple[float, str, str]:
    """The focus ring of the element that has the focus: its width in px, its style and
    its colour."""
    width, style, colour = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return [s.outlineWidth, s.outlineStyle, s.outlineColor]; }"
    )
    return float(width.removesuffix("px")), style, colour


def visible_focus(page: Any, background: str) -> None:
    """Assert that the element with the focus shows a focus ring of 2 px or more, solid,
    of a contrast of 3:1 or more against ``background`` (a CSS colour ``rgb(r, g, b)``)."""
    width, style, colour = focus_ring(page)
    assert width >= 2, f"a focus ring of {width} px"
    assert style == "solid", f"a focus ring drawn {style}"
    assert contrast(colour, background) >= 3, f"a focus ring of {colour} on {background}"


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) that process ``pid`` used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pss_gb(process: Any) -> float:
    """The proportional set size of ``process`` and all it started, in GB."""
    total = 0
    for member in [process.pid, *descendants(process)]:
        try:
            rollup = Path(f"/proc/{member}/smaps_rollup").read_text()
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
        total += next(
            int(line.split()[1]) for line in rollup.splitlines() if line.startswith("Pss:")
        )
    return total / 1024**2
