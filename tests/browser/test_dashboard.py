"""`educatalog dashboard`: the explorer as a web page for people without Jupyter, started as
a user starts it and used in Chromium. It opens with the chart and no code, marks the
synthetic demo data, asks no other host for anything, follows a control and writes the view
into the page's address, restores a view from a link (and says what in a link it could not
use, shortened, and takes labels of either language), keeps two visitors' choices apart,
and speaks English when started with --lang en, from the first byte of the loading page on,
and breaks no WCAG A/AA rule of axe-core (German, English, map).
Its controls are named for a screen reader (a slider's month, a button's pressed state),
show a focus ring, wrap at 800 px, and a reload ends the page's session. Screenshots at
1400 and 800 px in German and English, loading and loaded, go to build/screenshots. How
long the first paint took is printed (measured against its target by
``benchmarks/dashboard.py``)."""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pandas as pd
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from accessibility import assert_accessible
from browsing import Recorder, explorer_table, same_table
from dashboards import (
    IDLE_TIMEOUT,
    RECORD_LOADING,
    accessibility_tree,
    address,
    changes,
    contents,
    descendants,
    folders,
    kernels,
    leftovers,
    loading_lines,
    loading_screenshot,
    open_view,
    options,
    overlaps_and_cuts,
    painted,
    query,
    sessions,
    settle,
    shown,
    start_dashboard,
    status,
    still_running,
    stop,
    titled,
    updated,
    updates,
    visible_focus,
)
from educatalog import stats, texts

PING = 30
"""Seconds between the pings of a kernel's web socket (jupyter_server's default)."""

Served = tuple[subprocess.Popen[bytes], str, Path]
"""A running dashboard: its process, its address and its log."""


@pytest.fixture(scope="module")
def served(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    log = tmp_path_factory.mktemp("dashboard") / "dashboard.log"
    process, url = start_dashboard("de", log)
    yield process, url, log
    stop(process)
    text = log.read_text()
    assert "without encryption" not in text, text
    assert "Traceback" not in text, text
    assert "most recent call first" not in text, text  # it hung as it stopped (faulthandler)
    assert "WARNING" not in text, text  # nothing that alarms whoever started it
    assert "Cookies with samesite" not in text, text  # Solara's warning on plain http


@pytest.fixture
def dashboard(served: Served) -> str:
    return served[1]


def accessible(page: Any, axe: str, what: str) -> None:
    """axe-core finds no WCAG A/AA violation (whatever its impact) once the controls are
    named (the slider's handles get their names from the explorer's hidden widget; where
    they never get one, axe says so by its rule, not a timeout)."""
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            "() => [...document.querySelectorAll('.educatalog-explorer .noUi-handle')]"
            ".every((handle) => handle.getAttribute('aria-label'))",
            timeout=30_000,
        )
    assert_accessible(page, axe, what)


def test_the_dashboard_opens_with_its_chart_no_code_and_the_demo_mark(
    dashboard: str, recorder: Recorder, screenshots: Path, offers: pd.DataFrame, axe: str
) -> None:
    for width in (1400, 800):
        path = screenshots / f"dashboard-de-loading-{width}.png"
        assert (
            loading_screenshot(recorder, dashboard, path, width) == "Das Kursangebot wird geladen …"
        )
    recorder.context.add_init_script(RECORD_LOADING)
    page, _ = open_view(recorder, dashboard)
    said = loading_lines(page)  # while it loaded: German from the first byte, no "Running"
    assert said[0] == "Das Kursangebot wird geladen …", said
    assert set(said) <= {texts.text(f"dashboard.loading{k}", "de") for k in ("", ".1", ".2")}
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
    accessible(page, axe, "the dashboard in German")  # any WCAG A/AA violation fails
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
    headers, rows = shown(page)  # its totals, labelled: the last column and the last row
    assert headers[-1] == rows[-1][0] == "Insgesamt", (headers, rows[-1])
    assert page.locator(".educatalog-explorer-table tfoot th").inner_text() == "Insgesamt"
    assert not recorder.console_errors(), recorder.console


def test_a_page_that_is_gone_ends_its_session(served: Served, recorder: Recorder) -> None:
    """Closing the page ends its session (Solara's virtual kernel, and the visitor's
    explorer in it) within the idle timeout; an open page keeps it however idle."""
    _process, url, _log = served
    settle(url, 0, "the pages of the tests before are gone")
    page, _ = open_view(recorder, url, recorder.new_page())
    assert sessions(url) == 1
    time.sleep(IDLE_TIMEOUT + 3)  # idle longer than the timeout, and open: kept
    assert sessions(url) == 1
    states = page.locator(".educatalog-explorer-states select")
    changes(page, lambda: states.select_option(label="Bremen"), "Bremen")
    page.close()
    settle(url, 0, "the session of a closed page still runs")


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
    chromium: str, recorder: Recorder, tmp_path: Path, screenshots: Path, axe: str
) -> None:
    process, url = start_dashboard("en", tmp_path / "dashboard.log")
    try:
        for width in (1400, 800):
            path = screenshots / f"dashboard-en-loading-{width}.png"
            said = loading_screenshot(recorder, url, path, width)
            assert said == texts.text("dashboard.loading", "en")
        recorder.context.add_init_script(RECORD_LOADING)
        page, _ = open_view(recorder, url + "?states=Bayern")
        said = loading_lines(page)  # while it loaded: English from the first byte
        assert said[0] == texts.text("dashboard.loading", "en"), said
        assert set(said) <= {texts.text(f"dashboard.loading{k}", "en") for k in ("", ".1", ".2")}
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
        first = page.get_by_role("slider", name="Start from")
        assert first.get_attribute("aria-valuetext") == "Jan 2025"
        for width in (1400, 800):
            page.set_viewport_size({"width": width, "height": 1000})
            assert laid_out(page) == [], width
            page.screenshot(path=str(screenshots / f"dashboard-en-{width}.png"), full_page=True)
        accessible(page, axe, "the dashboard in English")
    finally:
        stop(process, signal.SIGTERM)  # as a service manager stops it (its folder removed)


def test_voila_keeps_a_page_connected_and_killed_outright_takes_its_kernels_along(
    tmp_path: Path, recorder: Recorder
) -> None:
    """With ``--engine voila``, a page stays connected to its kernel past the first ping of
    its web socket (30 s; a ping timeout equal to the interval closed it then, and under
    load pages never painted). Killed with no chance to clean up (SIGKILL to the dashboard
    alone), the dashboard still leaves no Voilà and no kernel running: Voilà sees the end
    of the pipe it was tethered by (``educatalog.jupyter.tethered``) and stops with its
    kernels."""
    log = tmp_path / "dashboard.log"
    process, url = start_dashboard("de", log, "voila")
    own: set[str] = set()
    try:
        page, _ = open_view(recorder, url)
        deadline = time.monotonic() + PING + 10  # past the first ping, unless lost before

        def lost() -> list[str]:
            return [text for _, text in recorder.console if "Connection lost" in text]

        while not lost() and time.monotonic() < deadline:
            page.wait_for_timeout(500)  # the page's events (its console) come in meanwhile
        assert not lost(), f"the page lost its kernel: {lost()}"
        assert "ping" not in log.read_text().lower(), log.read_text()
        started = {pid: command for pid, (_, command) in descendants(process).items()}
        assert any(b"voila" in command for command in started.values()), started
        deadline = time.monotonic() + 60
        while not kernels(process) and time.monotonic() < deadline:  # the preheated one
            time.sleep(0.2)
        started = {pid: command for pid, (_, command) in descendants(process).items()}
        assert any(b"ipykernel_launcher" in command for command in started.values()), started
        own = folders(started)
        process.kill()
        process.wait(timeout=10)
        left = still_running(started, seconds=40)
        assert not left, f"the killed dashboard left processes behind: {left}"
    finally:
        if process.poll() is None:  # an assertion above failed before the kill
            stop(process, engine="voila")
        for name in own:  # its folder: killed, it had no chance to remove it
            shutil.rmtree(Path(tempfile.gettempdir()) / name, ignore_errors=True)
    back = own & leftovers()  # nothing wrote into its folder after it was gone
    assert not back, f"the killed dashboard's folder came back: {contents(back)}"


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

    states = page.locator(".educatalog-explorer-states select")
    changes(page, lambda: states.select_option(label="Sachsen"), "Sachsen")
    courses = page.locator(".educatalog-explorer-measure button", has_text="Kurse")
    updated(page, courses.click)  # the status said "Sachsen" already: wait for its count
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
    accessible(page, axe, "the dashboard's map, switched to")
    assert not recorder.console_errors(), recorder.console


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


def laid_out(page: Any, within: float = 20) -> list[str]:
    """What overlaps or is cut once the page has flowed into its new width (on a busy
    machine the widgets take a few frames): :func:`dashboards.overlaps_and_cuts`, polled
    until it finds nothing or ``within`` seconds have passed."""
    deadline = time.monotonic() + within
    while (found := overlaps_and_cuts(page)) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    return found


def test_the_controls_read_aloud_wrap_at_800_px_and_a_reload_ends_the_session(
    served: Served, recorder: Recorder, screenshots: Path
) -> None:
    """At 1400 and 800 px the rows of controls wrap: the slider's month, the voucher box
    and "Filter zurücksetzen" side by side or one under the other, none over another, no
    word cut off, nothing off the page. In the accessibility tree the start slider's
    handles are named and say their month, not their position ("3"); the buttons of the
    measure, the view and the format say which is pressed and are named by their group;
    lists, handles and buttons show a focus ring of 3 px, of contrast above 3:1. A reload
    ends the page's session: the dashboard keeps none for pages that are gone."""
    _process, url, log = served
    page, _ = open_view(recorder, url + "?measure=courses&start=2025-03")
    for width in (1400, 800):
        page.set_viewport_size({"width": width, "height": 1000})
        page.wait_for_function(f"() => document.documentElement.clientWidth <= {width}")
        assert laid_out(page) == [], width
        assert page.locator(".educatalog-explorer-reset").inner_text() == "Filter zurücksetzen"
        page.screenshot(path=str(screenshots / f"dashboard-de-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1400, "height": 1000})

    tree = accessibility_tree(page, ("slider", "button", "group", "listbox"))
    named = {(role, name): properties for role, name, properties in tree}
    assert ("slider", "Beginn ab") in named, tree
    assert ("slider", "Beginn bis") in named, tree
    for group in ("Maß", "Darstellung", "Dateiformat der Tabelle"):
        assert ("group", group) in named, tree
    pressed = {name: p.get("pressed") for role, name, p in tree if role == "button"}
    assert pressed["Kurse"] == "true"
    assert pressed["Veranstaltungen"] == pressed["Bildungsanbieter"] == "false"
    assert pressed["Diagramm"] == pressed["CSV"] == "true"
    assert pressed["Karte"] == pressed["Excel"] == "false"
    for name in ("Bundesland", "Kreis", "Lernform", "Dauer", "Fachgebiet"):
        assert ("listbox", name) in named, tree  # named as the dimension ("Lernform")
    low = page.get_by_role("slider", name="Beginn ab")
    high = page.get_by_role("slider", name="Beginn bis")
    assert low.get_attribute("aria-valuetext") == "März 2025"
    assert high.get_attribute("aria-valuetext") == "Dez. 2026"
    low.focus()
    visible_focus(page, "rgb(255, 255, 255)")
    page.keyboard.press("ArrowRight")  # one month later, said as a month
    page.wait_for_function(
        "() => document.querySelector('.noUi-handle-lower').getAttribute('aria-valuetext')"
        " === 'Apr. 2025'",
        timeout=30_000,
    )
    excel = page.locator(".educatalog-explorer-format button", has_text="Excel")
    excel.click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.educatalog-explorer-format button')]"
        ".map((b) => b.getAttribute('aria-pressed')).join() === 'false,true'",
        timeout=30_000,
    )
    page.locator(".educatalog-explorer-states select").focus()
    visible_focus(page, "rgb(255, 255, 255)")
    page.locator(".educatalog-explorer-by2 select").focus()
    page.keyboard.press("Tab")  # to the first button of the view, by keyboard
    assert page.evaluate("() => document.activeElement.textContent") == "Diagramm"
    visible_focus(page, "rgb(238, 238, 238)")  # the button's grey

    settle(url, 1, "the pages of the tests before are gone")
    page.reload(timeout=180_000)
    painted(page)
    settle(url, 1, "the session of the page reloaded still runs")  # the new page's alone
    assert "Traceback" not in log.read_text()


def test_a_link_in_either_language_too_long_or_with_a_voucher_of_maybe(
    dashboard: str, recorder: Recorder
) -> None:
    """A link may name choices by the labels of either language (written back canonical);
    a value of 3,000 characters is said shortened, within the page; voucher=maybe is said
    like any value that is none; and when no event matches, the chart's alt text says so."""
    long = "x" * 3000
    link = (
        "?states=Bremen&categories=Distance+learning&durations=mehr+als+3+Jahre"
        "&measure=Courses&format=Excel&start=March+2025&end=Dez.+2026&voucher=maybe"
        f"&subject_areas={long}"
    )
    page, _ = open_view(recorder, dashboard + link)
    problems = page.locator("ul[role=status]")
    said = problems.inner_text()
    assert "Link: voucher=maybe gibt es nicht (es gibt: ja, nein); ignoriert." in said
    assert f"subject_areas={'x' * 59}…" in said
    assert long not in said
    assert len(said) < 1000, len(said)
    box = problems.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= page.viewport_size["width"]
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")
    assert query(page) == {
        "measure": ["courses"],
        "states": ["Bremen"],
        "categories": ["Fernunterricht"],
        "durations": ["mehr als 3 Jahre"],
        "start": ["2025-03"],
        "format": ["xlsx"],
    }
    alt = page.locator(".educatalog-explorer-chart img").get_attribute("alt")
    assert alt == "Keine Veranstaltung passt zu den Filtern. Filter ändern oder zurücksetzen."
