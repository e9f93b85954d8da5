"""`educatalog dashboard`: the explorer as a web page for people without Jupyter, started as
a user starts it and used in Chromium. It opens with the chart and no code, marks the demo
data, asks no other host for anything, writes the view into the page's address, restores a
view from a link (naming what it could not use), keeps two visitors apart, speaks English
with --lang en, and breaks no WCAG A/AA rule of axe-core (German, English, map). The first
paint's time is printed (``benchmarks/widgets.py --browser`` measures it against its target)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pandas as pd
import pytest

from accessibility import assert_accessible
from browsing import Recorder, explorer_table, same_table, screen_table
from educatalog import stats, texts
from educatalog.cli.dashboard import STOP_BOUND
from processes import free_port

IDLE_TIMEOUT = 4
"""Seconds after which the dashboards of these tests stop the kernel of a page that is gone."""


def start_dashboard(lang: str, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    for module in ("voila", "anywidget"):
        pytest.importorskip(module, reason="the dashboard needs the 'dashboard' extra")
    port = free_port()
    command = [sys.executable, "-m", "educatalog.cli", "dashboard", "--demo"]
    command += ["--port", str(port), "--lang", lang, "--idle-timeout", str(IDLE_TIMEOUT)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("EDUCATALOG_URL")}
    with log.open("w") as output:
        process = subprocess.Popen(
            command,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # stopped with Voilà and its kernels below
        )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 240
    while True:
        assert process.poll() is None, f"the dashboard stopped:\n{log.read_text()}"
        assert time.monotonic() < deadline, f"the dashboard did not answer:\n{log.read_text()}"
        try:
            if httpx.get(url + "voila/static/voila.js", timeout=2).status_code < 500:
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


def stop(process: subprocess.Popen[bytes], how: int = signal.SIGINT) -> None:
    """Stop the dashboard as Ctrl+C does (or ``how``), and check that Voilà and its kernels
    went with it."""
    started = {pid: command for pid, (_, command) in descendants(process).items()}
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


@pytest.fixture(scope="module")
def served(
    chromium: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    log = tmp_path_factory.mktemp("dashboard") / "dashboard.log"
    before = leftovers()
    process, url = start_dashboard("de", log)
    yield process, url
    stop(process)
    text = log.read_text()
    assert "without encryption" not in text, text
    assert "Traceback" not in text, text
    assert "most recent call first" not in text, text  # it hung as it stopped (faulthandler)
    assert "WARNING" not in text, text  # nothing that alarms whoever started it
    assert leftovers() == before, f"its temporary folder stayed: {contents(leftovers() - before)}"


@pytest.fixture
def dashboard(served: tuple[subprocess.Popen[bytes], str]) -> str:
    return served[1]


def open_view(recorder: Recorder, url: str, page: Any | None = None) -> tuple[Any, float]:
    """Open ``url``, wait for its chart and its slider's named handles; the page, seconds."""
    page = page or recorder.page
    started = time.monotonic()
    page.goto(url, timeout=180_000)  # a busy machine may take longer than the 30 s default
    page.wait_for_function(
        "() => { const img = document.querySelector('.educatalog-explorer-chart img');"
        " return img && img.complete && img.naturalWidth > 0"
        " && document.querySelector('.educatalog-slider-names[data-ready]'); }",
        timeout=180_000,
    )
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


def test_the_dashboard_opens_with_its_chart_no_code_and_the_demo_mark(
    dashboard: str, recorder: Recorder, screenshots: Path, offers: pd.DataFrame, axe: str
) -> None:
    page, _ = open_view(recorder, dashboard)
    assert page.title() == "Kursangebot erkunden"
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.locator("h1").inner_text() == "Kursangebot erkunden"
    banner = page.locator("[role=note]:not(.educatalog-legend)").inner_text()
    assert banner.startswith("Synthetische Demodaten: Dieser Katalog ist erfunden")
    body = page.locator("body").inner_text()
    assert "from educatalog" not in body  # the code is hidden
    assert "page()" not in body
    image = page.locator(".educatalog-explorer-chart img")
    assert "Veranstaltungen nach Bundesland" in (image.get_attribute("alt") or "")
    # every row and cell: the events and share by state, as stats.supply counts them
    same_table(shown(page), explorer_table(offers, "state", "events", "de"))
    everything = texts.number(len(offers), "de")
    assert f"{everything} von {everything}" in status(page)
    assert query(page) == {}  # the plain view: a plain address
    page.screenshot(path=str(screenshots / "dashboard.png"), full_page=True)
    assert_accessible(page, axe, "the dashboard in German")  # any WCAG A/AA violation fails
    assert not recorder.outside, recorder.outside  # no CDN, no fonts from elsewhere
    assert not recorder.console_errors(), recorder.console


def test_the_address_follows_the_controls(dashboard: str, recorder: Recorder) -> None:
    page, _ = open_view(recorder, dashboard)
    states = page.locator(".educatalog-explorer-states select")
    changes(page, lambda: states.select_option(label="Bayern"), "Bayern")
    address(page, {"states": ["Bayern"]})
    courses = page.locator(".educatalog-explorer-measure button", has_text="Kurse")
    changes(page, courses.click, "Bayern")
    address(page, {"measure": ["courses"], "states": ["Bayern"]})


def test_a_link_restores_the_view(
    dashboard: str, recorder: Recorder, offers: pd.DataFrame, screenshots: Path
) -> None:
    link = dashboard + "?by=duration_class&measure=courses&states=Bayern&start=2025-03"
    page, _ = open_view(recorder, link)
    assert page.locator(".educatalog-explorer-by select option:checked").inner_text() == "Dauer"
    chosen = page.locator(".educatalog-explorer-states select option:checked").all_inner_texts()
    assert chosen == ["Bayern"]
    pressed = page.locator(".educatalog-explorer-measure button.mod-active").inner_text()
    assert pressed.strip() == "Kurse"
    assert "Kurse nach Dauer" in (
        page.locator(".educatalog-explorer-chart img").get_attribute("alt") or ""
    )
    kept = stats.select(offers, state=["Bayern"], start="2025-03-01")
    same_table(shown(page), explorer_table(kept, "duration_class", "courses", "de"))
    assert query(page) == parse_qs(urlsplit(link).query)
    page.screenshot(path=str(screenshots / "dashboard-link.png"), full_page=True)


def test_a_link_with_mistakes_opens_and_names_them(dashboard: str, recorder: Recorder) -> None:
    page, _ = open_view(recorder, dashboard + "?states=Bayren&states=Sachsen&by=nonsense&x=1")
    problems = page.locator("[role=status]").inner_text()
    assert "states=Bayren gibt es nicht" in problems
    assert "by=nonsense gibt es nicht" in problems
    assert "„x“ gibt es nicht" in problems
    assert page.locator(".educatalog-explorer-states select option:checked").all_inner_texts() == [
        "Sachsen"
    ]
    assert query(page) == {"states": ["Sachsen"]}  # the address shows what is shown


def test_places_by_two_dimensions_from_a_link(
    dashboard: str, recorder: Recorder, offers: pd.DataFrame
) -> None:
    """Places (capacity) in a heatmap of two dimensions: a view that once failed with
    KeyError, and its link opened no page at all."""
    link = dashboard + "?by=duration_class&by2=instruction_form_category&measure=capacity"
    page, _ = open_view(recorder, link)
    alt = page.locator(".educatalog-explorer-chart img").get_attribute("alt") or ""
    assert "Plätze nach Dauer und Lernform" in alt, alt
    assert "Fehler" not in status(page)
    expected = explorer_table(
        offers, "duration_class", "capacity", "de", by2="instruction_form_category"
    )
    same_table(shown(page), expected)
    assert not recorder.console_errors(), recorder.console


def test_a_page_that_is_gone_stops_its_kernel(
    served: tuple[subprocess.Popen[bytes], str], recorder: Recorder
) -> None:
    """Closing the page stops its kernel; an open page keeps it however idle."""
    process, url = served
    page, _ = open_view(recorder, url, recorder.new_page())
    kernel = page.evaluate(
        "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
    ).encode()

    def running() -> bool:
        return any(kernel in command for command in kernels(process))

    assert running()
    time.sleep(IDLE_TIMEOUT + 3)
    assert running()
    states = page.locator(".educatalog-explorer-states select")
    changes(page, lambda: states.select_option(label="Bremen"), "Bremen")
    page.close()
    deadline = time.monotonic() + IDLE_TIMEOUT + 30
    while running():
        assert time.monotonic() < deadline, "the kernel of a closed page still runs"
        time.sleep(0.5)
    assert kernels(process)  # the preheated kernel for the next visitor stays


def test_two_visitors_do_not_see_each_others_choices(
    dashboard: str, recorder: Recorder, offers: pd.DataFrame
) -> None:
    """The first visitor's choice runs an update of the first page only. Proof that none
    ran on the second: the second visitor then chooses a measure of their own, and their
    page shows exactly one update more (its ``data-updates``), for their choice alone."""
    first, _ = open_view(recorder, dashboard)
    second, _ = open_view(recorder, dashboard, recorder.new_page())
    before = updates(second)
    everything = texts.number(len(offers), "de")
    states = first.locator(".educatalog-explorer-states select")
    changes(first, lambda: states.select_option(label="Sachsen"), "Sachsen")
    address(first, {"states": ["Sachsen"]})
    saxony = texts.number(int((offers["state"] == "Sachsen").sum()), "de")
    assert f"{saxony} von {everything}" in status(first)
    same_table(
        shown(first),
        explorer_table(stats.select(offers, state=["Sachsen"]), "state", "events", "de"),
    )
    # Meanwhile the second page ran no update; now it runs its own, and only that one.
    assert updates(second) == before
    courses = second.locator(".educatalog-explorer-measure button", has_text="Kurse")
    courses.click()
    second.wait_for_function(
        "(n) => Number(document.querySelector('.educatalog-explorer-status [data-updates]')"
        ".dataset.updates) > n",
        arg=before,
        timeout=60_000,
    )
    address(second, {"measure": ["courses"]})
    assert updates(second) == before + 1
    assert f"{everything} von {everything}" in status(second)
    assert "Sachsen" not in status(second)
    same_table(shown(second), explorer_table(offers, "state", "courses", "de"))
    assert query(first) == {"states": ["Sachsen"]}


def test_the_dashboard_speaks_english_when_asked(
    chromium: str, recorder: Recorder, tmp_path: Path, axe: str
) -> None:
    before = leftovers()
    process, url = start_dashboard("en", tmp_path / "dashboard.log")
    try:
        page, _ = open_view(recorder, url + "?states=Bayern")
        assert page.title() == "Explore the course supply"
        assert page.locator("html").get_attribute("lang") == "en"
        assert (
            page.locator("[role=note]:not(.educatalog-legend)")
            .inner_text()
            .startswith("Synthetic demo data")
        )
        assert page.locator(
            ".educatalog-explorer-states select option:checked"
        ).all_inner_texts() == ["Bavaria"]
        alt = page.locator(".educatalog-explorer-chart img").get_attribute("alt") or ""
        assert "Events by state" in alt
        assert_accessible(page, axe, "the dashboard in English")
    finally:
        stop(process, signal.SIGTERM)  # as a service manager stops it
    assert leftovers() == before


def test_a_dashboard_killed_outright_takes_voila_and_its_kernels_along(tmp_path: Path) -> None:
    """Killed with no chance to clean up (SIGKILL to the dashboard alone), the dashboard
    still leaves no Voilà and no kernel running: Voilà sees the end of the pipe it was
    tethered by (``educatalog.jupyter.tethered``) and stops with its kernels."""
    before = leftovers()
    process, _ = start_dashboard("de", tmp_path / "dashboard.log")
    try:
        started = {pid: command for pid, (_, command) in descendants(process).items()}
        assert any(b"voila" in command for command in started.values()), started
        deadline = time.monotonic() + 60
        while not kernels(process) and time.monotonic() < deadline:  # the preheated one
            time.sleep(0.2)
        started = {pid: command for pid, (_, command) in descendants(process).items()}
        assert any(b"ipykernel_launcher" in command for command in started.values()), started
        process.kill()
        process.wait(timeout=10)
        left = still_running(started, seconds=40)
        assert not left, f"the killed dashboard left processes behind: {left}"
    finally:
        if process.poll() is None:  # an assertion above failed before the kill
            stop(process)
        for name in leftovers() - before:  # its folder: killed, it had no chance to remove it
            shutil.rmtree(Path(tempfile.gettempdir()) / name, ignore_errors=True)
    assert leftovers() == before, (  # nothing wrote into its folder after it was gone
        f"the killed dashboard's folder came back: {contents(leftovers() - before)}"
    )


def test_a_district_view_and_the_link_that_restores_it(
    dashboard: str, recorder: Recorder, offers: pd.DataFrame, screenshots: Path
) -> None:
    """By district: every one of the 400 districts and the events without one, row by
    row as stats counts them, in a box that scrolls, beside a chart of the 20 largest; a
    state narrows the districts offered, a district filter the rows; the address holds
    the view, and opening it in another page restores it."""
    page, _ = open_view(recorder, dashboard)
    by = page.locator(".educatalog-explorer-by select")
    changes(page, lambda: by.select_option(label="Kreis"), "die 20 größten von 401")
    address(page, {"by": ["district"]})
    same_table(shown(page), explorer_table(offers, "district", "events", "de"))
    box = page.locator(".educatalog-explorer-table .educatalog-table-box")
    height, scrolled = box.evaluate("(b) => [b.clientHeight, b.scrollHeight]")
    assert height <= 560 < scrolled  # the table scrolls in its box, the page does not grow
    alt = page.locator(".educatalog-explorer-chart img").get_attribute("alt") or ""
    assert alt.startswith("Balkendiagramm: Veranstaltungen nach Kreis (die 20 größten)"), alt
    caption = page.locator(".educatalog-explorer-table caption").inner_text()
    assert "20" not in caption  # the table's title: every district

    states = page.locator(".educatalog-explorer-states select")
    changes(page, lambda: states.select_option(label="Bremen"), "Bremen")
    districts = page.locator(".educatalog-explorer-districts select")
    assert options(districts) == [
        "Bremen",
        "Bremerhaven",
        texts.missing("de"),
    ]
    changes(page, lambda: districts.select_option(label="Bremerhaven"), "Bremerhaven")
    link = {"by": ["district"], "states": ["Bremen"], "districts": ["Bremerhaven"]}
    address(page, link)
    kept = stats.select(offers, state=["Bremen"], district=["Bremerhaven"])
    same_table(shown(page), explorer_table(kept, "district", "events", "de"))
    bremerhaven = texts.number(len(kept), "de")
    assert f"{bremerhaven} von {texts.number(len(offers), 'de')}" in status(page)
    page.screenshot(path=str(screenshots / "dashboard-district.png"), full_page=True)

    other, _ = open_view(recorder, page.url, recorder.new_page())
    assert other.locator(".educatalog-explorer-by select option:checked").inner_text() == "Kreis"
    chosen = other.locator(".educatalog-explorer-districts select option:checked")
    assert chosen.all_inner_texts() == ["Bremerhaven"]
    offered = options(other.locator(".educatalog-explorer-districts select"))
    assert offered == ["Bremen", "Bremerhaven", "ohne Angabe"]  # Bremen's districts alone
    same_table(shown(other), explorer_table(kept, "district", "events", "de"))
    assert query(other) == link
    assert not recorder.console_errors(), recorder.console


def test_the_map_view_follows_the_filters_and_the_measure(
    dashboard: str, recorder: Recorder, offers: pd.DataFrame, screenshots: Path, axe: str
) -> None:
    """Show: Map draws the map of the districts in place of the chart, an image whose alt
    text names the district with the most (as stats counts it); it follows a state chosen
    and the measure, the table stays by the dimension chosen, and the address holds it."""
    page, _ = open_view(recorder, dashboard + "?by=district")
    image = page.locator(".educatalog-explorer-chart img")
    karte = page.locator(".educatalog-explorer-show button", has_text="Karte")
    changes(page, karte.click, "Kreise")
    page.wait_for_function(
        "() => (document.querySelector('.educatalog-explorer-chart img').alt || '')"
        ".startsWith('Karte der Kreise')",
        timeout=60_000,
    )
    address(page, {"by": ["district"], "show": ["map"]})
    events = stats.supply(offers, "district")["events"]
    top = events[events.index.notna()].idxmax()
    alt = image.get_attribute("alt") or ""
    assert alt.startswith(
        f"Karte der Kreise: Veranstaltungen nach Kreis. Höchster Wert: {top} ("
    ), alt
    assert image.evaluate("(img) => img.naturalWidth") > 300
    same_table(shown(page), explorer_table(offers, "district", "events", "de"))
    page.screenshot(path=str(screenshots / "dashboard-map.png"), full_page=True)
    assert_accessible(page, axe, "the dashboard's map, switched to")

    states = page.locator(".educatalog-explorer-states select")
    changes(page, lambda: states.select_option(label="Sachsen"), "Sachsen")
    courses = page.locator(".educatalog-explorer-measure button", has_text="Kurse")
    changes(page, courses.click, "Sachsen")
    saxony = stats.supply(stats.select(offers, state=["Sachsen"]), "district")
    most = saxony["courses"].idxmax()
    page.wait_for_function(
        "(text) => (document.querySelector('.educatalog-explorer-chart img').alt || '')"
        ".includes(text)",
        arg=f"Kurse nach Kreis: Sachsen. Höchster Wert: {most} ({saxony.loc[most, 'courses']};",
        timeout=60_000,
    )
    address(
        page, {"by": ["district"], "measure": ["courses"], "show": ["map"], "states": ["Sachsen"]}
    )
    kept = stats.select(offers, state=["Sachsen"])
    same_table(shown(page), explorer_table(kept, "district", "courses", "de"))
    assert not recorder.console_errors(), recorder.console


def titled(page: Any, text: str) -> None:
    """Wait until the table's title holds ``text``."""
    page.wait_for_function(
        "(text) => { const c = document.querySelector('.educatalog-explorer-table caption');"
        " return c && c.textContent.includes(text); }",
        arg=text,
        timeout=60_000,
    )


@pytest.fixture(scope="module")
def subject_offers(service: Any) -> pd.DataFrame:
    """The demo's offers with one row per event and subject (``offers(subjects=True)``)."""
    import educatalog

    with service.client() as client:
        frame: pd.DataFrame = educatalog.load_catalogue(client, progress=False).offers(
            subjects=True
        )
    return frame


def test_a_subject_area_view_and_filter_count_distinct_events(
    dashboard: str, recorder: Recorder, subject_offers: pd.DataFrame, screenshots: Path
) -> None:
    """By subject area: every area and the events without subject, row by row as stats
    counts them from ``offers(subjects=True)``; an area as the filter leaves that area's
    row, and by state its events, each once; the note on multiple assignment stands
    under the table when the rows add up to more than the events."""
    page, _ = open_view(recorder, dashboard)
    by = page.locator(".educatalog-explorer-by select")
    caption = page.locator(".educatalog-explorer-table caption")
    by.select_option(label="Fachgebiet")
    address(page, {"by": ["subject_area"]})
    titled(page, "nach Fachgebiet")
    assert "Fachgebiet" in caption.inner_text()
    same_table(shown(page), explorer_table(subject_offers, "subject_area", "events", "de"))
    page.screenshot(path=str(screenshots / "dashboard-by-subject-area.png"), full_page=True)
    events = subject_offers["event_id"].nunique()
    rows = stats.supply(subject_offers, "subject_area")["events"].sum()
    note = page.locator(".educatalog-explorer-table p", has_text="Mehrfachzuordnung")
    assert note.count() == (1 if rows > events else 0)  # once, when the rows add up to more
    if rows > events:
        assert note.inner_text().startswith("Mehrfachzuordnung")

    areas = page.locator(".educatalog-explorer-subject_areas select")
    listed = list(subject_offers["subject_area"].cat.categories)
    without = [texts.missing("de")] if subject_offers["subject_area"].isna().any() else []
    assert options(areas) == [*listed, *without]  # the list's order, "ohne Angabe" last
    counted = subject_offers.groupby("subject_area", observed=True)["event_id"].nunique()
    area = str(counted.idxmax())
    kept = stats.select(subject_offers, subject_area=[area])
    matched = texts.number(kept["event_id"].nunique(), "de")
    expected = f"{matched} von {texts.number(events, 'de')}"
    changes(page, lambda: areas.select_option(label=area), expected)
    address(page, {"by": ["subject_area"], "subject_areas": [area]})
    same_table(shown(page), explorer_table(kept, "subject_area", "events", "de"))
    page.screenshot(path=str(screenshots / "dashboard-subject-area.png"), full_page=True)
    by.select_option(label="Bundesland")
    titled(page, "nach Bundesland")
    same_table(shown(page), explorer_table(kept, "state", "events", "de"))
    page.screenshot(path=str(screenshots / "dashboard-subject-area-by-state.png"), full_page=True)
    assert not recorder.console_errors(), recorder.console
