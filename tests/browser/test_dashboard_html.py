"""`educatalog dashboard --engine html`: the explorer as a page that the server renders,
started as a user starts it and used in Chromium. A link opens its view (the numbers row
by row, the demo mark, nothing asked of another host); the controls update the page in
place, once after a quick series of changes, keep the focus where it is and write the
view into the address; without scripts the form's button does the same by loading the
page; the download link gives the table shown, as CSV or Excel; a link with mistakes
opens and names them; a screen reader meets every control by its name; axe-core finds no
WCAG A/AA violation; the page speaks English when started so; the page's own security
policy lets its script run and nothing else; and twenty visitors at once each see their
own view. Screenshots at 1400 and 800 px in German and English go to build/screenshots."""

from __future__ import annotations

import io
import statistics
import subprocess
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
from dashboards import (
    accessibility_tree,
    cpu_seconds,
    pss_gb,
    start_dashboard,
    stop,
    visible_focus,
)
from educatalog import stats, texts
from educatalog.frames.districts import district_table

Served = tuple[subprocess.Popen[bytes], str, Path]
"""A running dashboard: its process, its address and its log."""

CHART = "#educatalog-results .educatalog-chart img"

MEMORY = 2.0
"""GB the dashboard's process may hold with twenty visitors at the demo's scale (one copy
of the catalogue)."""

STATES = [
    "Baden-Württemberg", "Bayern", "Berlin", "Brandenburg", "Bremen", "Hamburg", "Hessen",
    "Mecklenburg-Vorpommern", "Niedersachsen", "Nordrhein-Westfalen", "Rheinland-Pfalz",
    "Saarland", "Sachsen", "Sachsen-Anhalt", "Schleswig-Holstein", "Thüringen",
]  # fmt: skip


def serve(lang: str, folder: Path) -> tuple[subprocess.Popen[bytes], str, Path]:
    log = folder / f"dashboard-{lang}.log"
    process, url = start_dashboard(lang, log, engine="html")
    return process, url, log


def ended(process: subprocess.Popen[bytes], log: Path) -> None:
    stop(process, engine="html")
    text = log.read_text()
    assert "Traceback" not in text, text
    assert "WARNING" not in text, text


@pytest.fixture(scope="module")
def served(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    process, url, log = serve("de", tmp_path_factory.mktemp("dashboard-html"))
    yield process, url, log
    ended(process, log)


@pytest.fixture
def dashboard(served: Served) -> str:
    return served[1]


@pytest.fixture
def visitor(browser: Any) -> Iterator[Recorder]:
    """A page whose console, errors and requests are recorded. The page's policy allows its
    own script alone; the tests' waits and axe-core are scripts of their own, so the
    context sets the policy aside (one test checks the page under it:
    :func:`test_the_page_script_runs_under_its_own_security_policy`)."""
    context = browser.new_context(
        viewport={"width": 1400, "height": 1000}, accept_downloads=True, bypass_csp=True
    )
    yield Recorder(context)
    context.close()


def open_page(page: Any, url: str) -> float:
    """Open ``url`` and wait until the chart is shown; returns the seconds it took."""
    started = time.monotonic()
    page.goto(url, timeout=180_000)
    page.wait_for_function(
        f"() => {{ const img = document.querySelector('{CHART}');"
        " return img && img.complete && img.naturalWidth > 0; }",
        timeout=180_000,
    )
    return time.monotonic() - started


def updates(page: Any) -> int:
    return int(page.locator("#educatalog-status [data-updates]").get_attribute("data-updates"))


def updated(page: Any, action: Any, count: int | None = None) -> None:
    """Do ``action`` and wait until the page shows the update it caused (its status line
    counts it), ``count`` updates in all where given."""
    want = count if count is not None else updates(page) + 1
    action()
    page.wait_for_selector(f"#educatalog-status [data-updates='{want}']", timeout=120_000)


def shown(page: Any) -> Any:
    return screen_table(page.locator("#educatalog-results .educatalog-table table"))


def status(page: Any) -> str:
    return str(page.locator("#educatalog-status").inner_text())


def query(page: Any) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


def chosen(page: Any, name: str) -> list[str]:
    return [
        str(text).replace("\xa0", " ")
        for text in page.locator(f"#educatalog-{name} option:checked").all_inner_texts()
    ]


def offered(page: Any, name: str) -> list[str]:
    return [str(t) for t in page.locator(f"#educatalog-{name} option").all_inner_texts()]


def downloaded(page: Any, link: Any, folder: Path) -> Path:
    """Click ``link`` and save the file the browser downloads into ``folder``, under the
    name the dashboard suggested."""
    with page.expect_download() as download:
        link.click()
    saved = folder / download.value.suggested_filename
    download.value.save_as(saved)
    return saved


def districts_of(offers: pd.DataFrame, states: list[str]) -> set[str]:
    """The districts of ``states`` (all of them, offers or not: the list offers each), by
    the first two digits of the keys of the offers' districts there."""
    keys = offers.loc[offers["state"].isin(states), "district_key"].dropna().str[:2]
    table = district_table()
    return set(table.loc[table["state_key"].isin(set(keys)), "district"])


def matches(offers: pd.DataFrame, lang: str = "de") -> str:
    return f"{texts.number(len(offers), lang)} von "


def test_a_link_opens_its_view_with_the_demo_mark_and_asks_no_other_host(
    dashboard: str, visitor: Recorder, offers: pd.DataFrame
) -> None:
    page = visitor.page
    seconds = open_page(page, dashboard + "?states=Bayern&by=duration_class")
    print(f"html dashboard first paint: {seconds:.2f} s")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.title() == "Kursangebot erkunden"
    assert "Synthetische Demodaten" in page.locator("p[role=note]").first.inner_text()
    bavaria = stats.select(offers, state=["Bayern"])
    assert matches(bavaria) + texts.number(len(offers), "de") in status(page)
    assert "synthetische Demodaten" in status(page)  # the source, marked
    same_table(shown(page), explorer_table(bavaria, "duration_class", "events", "de"))
    assert "Dauer" in str(page.locator(CHART).get_attribute("alt"))
    # the controls show the view; the districts offered are Bavaria's
    assert page.locator("#educatalog-by").input_value() == "duration_class"
    assert chosen(page, "states") == ["Bayern"]
    districts = set(offered(page, "districts")) - {"ohne Angabe"}
    assert districts == districts_of(offers, ["Bayern"]), districts
    assert page.locator("input[name=measure]:checked").get_attribute("value") == "events"
    assert query(page) == {"by": ["duration_class"], "states": ["Bayern"]}
    assert visitor.outside == [], visitor.outside
    assert visitor.console_errors() == []


TWO_CHANGES = """() => {
  const states = document.getElementById('educatalog-states');
  const chosen = ['Berlin', 'Hamburg'];
  for (const option of states.options) option.selected = chosen.includes(option.value);
  states.dispatchEvent(new Event('change', {bubbles: true}));
  const courses = document.querySelector('input[name=measure][value=courses]');
  courses.checked = true;
  courses.focus();
  courses.dispatchEvent(new Event('change', {bubbles: true}));
}"""
"""Two states chosen, then courses, as a visitor's two quick clicks change them."""


def test_the_controls_update_the_page_in_place_once_and_keep_the_view_in_its_address(
    dashboard: str, visitor: Recorder, offers: pd.DataFrame
) -> None:
    """Two quick changes (two states, then courses) ask for one page, a pause after the
    last; the focus stays on the list; the districts follow the states; the reset link
    clears the filters and keeps the measure."""
    page = visitor.page
    open_page(page, dashboard)
    asked: list[str] = []
    page.on(
        "request",
        lambda r: asked.append(r.url) if r.headers.get("x-educatalog-page") == "part" else None,
    )
    states = page.locator("#educatalog-states")

    def two_changes() -> None:  # in one turn of the page's loop, well within the pause
        page.evaluate(TWO_CHANGES)

    updated(page, two_changes, 1)
    assert len(asked) == 1, asked  # one page for the pair of changes
    two = stats.select(offers, state=["Berlin", "Hamburg"])
    same_table(shown(page), explorer_table(two, "state", "courses", "de"))
    assert matches(two) in status(page)
    assert query(page) == {"measure": ["courses"], "states": ["Berlin", "Hamburg"]}
    assert page.evaluate("() => document.activeElement.name") == "measure"
    districts = set(offered(page, "districts")) - {"ohne Angabe"}
    assert districts == districts_of(offers, ["Berlin", "Hamburg"]), districts

    states.focus()
    updated(page, lambda: states.select_option(["Berlin"]))
    assert page.evaluate("() => document.activeElement.id") == "educatalog-states"
    berlin = stats.select(offers, state=["Berlin"])
    same_table(shown(page), explorer_table(berlin, "state", "courses", "de"))
    assert query(page) == {"measure": ["courses"], "states": ["Berlin"]}

    updated(page, lambda: page.get_by_role("link", name="Filter zurücksetzen").click())
    assert query(page) == {"measure": ["courses"]}
    assert chosen(page, "states") == []
    same_table(shown(page), explorer_table(offers, "state", "courses", "de"))
    assert len(asked) == 3, asked
    assert visitor.console_errors() == []


def test_without_scripts_the_button_shows_the_view_at_its_link(
    dashboard: str, browser: Any, offers: pd.DataFrame
) -> None:
    context = browser.new_context(
        viewport={"width": 1400, "height": 1000}, java_script_enabled=False
    )
    try:
        page = context.new_page()
        page.goto(dashboard, timeout=180_000)
        page.locator("#educatalog-states").select_option(["Bremen"])
        page.locator(".educatalog-measure").get_by_label("Bildungsanbieter", exact=True).check()
        page.locator("#educatalog-by").select_option(label="Dauer")
        with page.expect_navigation(timeout=120_000):
            page.get_by_role("button", name="Ansicht zeigen").click()
        # the form sent every field; the page answered with the link as it writes it
        assert query(page) == {
            "by": ["duration_class"],
            "measure": ["institutions"],
            "states": ["Bremen"],
        }
        bremen = stats.select(offers, state=["Bremen"])
        same_table(shown(page), explorer_table(bremen, "duration_class", "institutions", "de"))
        assert chosen(page, "states") == ["Bremen"]
    finally:
        context.close()


def test_the_download_link_gives_the_table_shown(
    dashboard: str, visitor: Recorder, offers: pd.DataFrame, tmp_path: Path
) -> None:
    page = visitor.page
    open_page(page, dashboard + "?states=Bremen&states=Hamburg&measure=courses")
    _headers, rows = shown(page)
    link = page.locator("a.educatalog-download")
    assert link.inner_text() == "⬇ Tabelle herunterladen (CSV)"
    saved = downloaded(page, link, tmp_path)
    assert saved.name == "educatalog-kurse-nach-bundesland.csv"
    text = saved.read_text(encoding="utf-8-sig")
    lines = text.splitlines()
    assert lines[0].startswith("Kurse nach Bundesland"), lines[0]
    table = pd.read_csv(io.StringIO(text), sep=";", decimal=",", skiprows=1, nrows=3)
    both = stats.select(offers, state=["Bremen", "Hamburg"])
    expected = stats.supply(both, "state", margins=True)
    on_page = dict(rows)
    for state in ("Bremen", "Hamburg"):
        row = table.loc[table["Bundesland"] == state].iloc[0]
        assert row["Kurse"] == expected.loc[state, "courses"], (state, row.to_dict())
        assert on_page[state][1] == texts.number(row["Kurse"], "de")  # as the page shows it

    updated(page, lambda: page.get_by_role("radio", name="Excel").check())
    assert query(page)["format"] == ["xlsx"]
    assert link.inner_text() == "⬇ Tabelle herunterladen (Excel)"
    saved = downloaded(page, link, tmp_path)
    assert saved.suffix == ".xlsx"
    from openpyxl import load_workbook

    cells = [
        str(c)
        for sheet in load_workbook(saved).worksheets
        for row in sheet.iter_rows(values_only=True)
        for c in row
        if c is not None
    ]
    assert "Bremen" in cells
    assert "Hamburg" in cells
    assert str(int(expected.loc["Bremen", "courses"])) in cells


def test_a_link_with_mistakes_opens_names_them_and_its_address_becomes_the_view(
    dashboard: str, visitor: Recorder
) -> None:
    page = visitor.page
    long = "x" * 3000
    link = f"?states=Atlantis&states=Bavaria&measure=Courses&voucher=maybe&subject_areas={long}"
    open_page(page, dashboard + link)
    said = page.locator("ul[role=status]").inner_text()
    assert "Link: states=Atlantis gibt es nicht" in said, said
    assert "Link: voucher=maybe gibt es nicht (es gibt: ja, nein); ignoriert." in said
    assert f"subject_areas={'x' * 59}…" in said
    assert long not in said
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")
    # the address: the view shown (Bavaria by its German name), what it dropped gone
    page.wait_for_function("() => !location.search.includes('Atlantis')", timeout=30_000)
    assert query(page) == {"measure": ["courses"], "states": ["Bayern"]}
    # the link's notices belong to the link: the next view chosen has none
    updated(page, lambda: page.locator("#educatalog-states").select_option(["Berlin"]))
    assert page.locator("ul[role=status]").count() == 0
    assert query(page) == {"measure": ["courses"], "states": ["Berlin"]}


def test_the_answers_say_what_they_are_and_redirect_to_the_view_link(dashboard: str) -> None:
    with httpx.Client(base_url=dashboard, timeout=120) as http:
        page = http.get("/?states=Bavaria&by=state")
        assert page.status_code == 303
        assert page.headers["location"] == "?states=Bayern"
        assert http.get("/?by=state").headers["location"] == "/"
        plain = http.get("/")
        assert plain.status_code == 200
        assert plain.headers["content-type"] == "text/html; charset=utf-8"
        assert plain.headers["content-language"] == "de"
        policy = plain.headers["content-security-policy"]
        assert "script-src 'self'" in policy
        assert "frame-ancestors 'none'" in policy
        assert plain.headers["x-content-type-options"] == "nosniff"
        assert http.get("/nothing-here").status_code == 404
        # what a link holds reaches the page as text, never as markup
        hostile = http.get("/", params={"states": "<img src=x onerror=alert(1)>", "by": '"><b>'})
        assert hostile.status_code == 200
        assert "<img src=x" not in hostile.text
        assert '"><b>' not in hostile.text
        assert "&lt;img src=x onerror=alert(1)&gt;" in hostile.text
        csv = http.get("/download?states=Bremen&measure=courses")
        assert csv.status_code == 200
        assert csv.headers["content-type"] == "text/csv; charset=utf-8"
        name = "educatalog-kurse-nach-bundesland.csv"
        assert csv.headers["content-disposition"] == f"attachment; filename*=UTF-8''{name}"
        assert csv.content.startswith("\ufeffKurse nach Bundesland".encode())
        script = http.get("/static/explorer-page.js")
        assert script.headers["content-type"] == "text/javascript; charset=utf-8"


def test_the_page_script_runs_under_its_own_security_policy(
    dashboard: str, browser: Any, offers: pd.DataFrame
) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        recorder = Recorder(context)
        page = recorder.page
        page.goto(dashboard, timeout=180_000)
        page.wait_for_selector("#educatalog-status [data-updates='0']", timeout=120_000)
        page.locator("#educatalog-states").select_option(["Saarland"])
        # the page's script took the view over (no wait of the test's own runs here)
        page.wait_for_selector("#educatalog-status [data-updates='1']", timeout=120_000)
        saarland = stats.select(offers, state=["Saarland"])
        same_table(shown(page), explorer_table(saarland, "state", "events", "de"))
        assert recorder.console_errors() == [], recorder.console
    finally:
        context.close()


def test_a_screen_reader_meets_every_control_by_its_name_and_axe_finds_nothing(
    dashboard: str, visitor: Recorder, axe: str, screenshots: Path
) -> None:
    page = visitor.page
    open_page(page, dashboard + "?measure=courses&start=2025-03&states=Berlin")
    tree = accessibility_tree(page, ("combobox", "listbox", "radio", "checkbox", "group"))
    named = {(role, name): properties for role, name, properties in tree}
    for name in ("Zählen nach", "und nach", "Beginn ab", "Beginn bis"):
        assert ("combobox", name) in named, tree
    for name in ("Bundesland", "Kreis", "Lernform", "Dauer", "Fachgebiet"):
        assert ("listbox", name) in named, tree
    for name in ("Maß", "Darstellung", "Dateiformat der Tabelle"):
        assert ("group", name) in named, tree
    radios = {name: p.get("checked") for role, name, p in tree if role == "radio"}
    assert radios["Kurse"] == "true"
    assert radios["Veranstaltungen"] == "false"
    assert radios["Diagramm"] == radios["CSV"] == "true"
    assert ("checkbox", "nur mit Bildungsgutschein") in named, tree
    assert page.locator("#educatalog-start option:checked").inner_text() == "März 2025"
    page.locator("#educatalog-states").focus()
    visible_focus(page, "rgb(255, 255, 255)")
    page.get_by_role("radio", name="Kurse").focus()
    visible_focus(page, "rgb(255, 255, 255)")
    assert_accessible(page, axe, "the html dashboard (German)")
    for width in (1400, 800):
        page.set_viewport_size({"width": width, "height": 1000})
        assert page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")
        path = screenshots / f"dashboard-html-de-{width}.png"
        page.screenshot(path=str(path), full_page=True)


def test_the_dashboard_speaks_english_when_asked(
    browser: Any, offers: pd.DataFrame, axe: str, screenshots: Path, tmp_path: Path
) -> None:
    process, url, log = serve("en", tmp_path)
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, bypass_csp=True)
    try:
        page = context.new_page()
        open_page(page, url + "?states=Bavaria&measure=Courses")
        assert query(page) == {"measure": ["courses"], "states": ["Bayern"]}
        assert page.locator("html").get_attribute("lang") == "en"
        assert page.title() == "Explore the course supply"
        bavaria = stats.select(offers, state=["Bayern"])
        assert f"{texts.number(len(bavaria), 'en')} of " in status(page)
        same_table(shown(page), explorer_table(bavaria, "state", "courses", "en"))
        assert page.get_by_role("combobox", name="Count by").input_value() == "state"
        assert page.get_by_role("button", name="Show this view").is_visible()
        assert "Bavaria" in chosen(page, "states")
        assert_accessible(page, axe, "the html dashboard (English)")
        for width in (1400, 800):
            page.set_viewport_size({"width": width, "height": 1000})
            path = screenshots / f"dashboard-html-en-{width}.png"
            page.screenshot(path=str(path), full_page=True)
    finally:
        context.close()
        ended(process, log)


def test_twenty_visitors_at_once_each_see_their_own_view(
    served: Served, browser: Any, offers: pd.DataFrame
) -> None:
    """Twenty pages asked for at once, each of another view, each with its own numbers; the
    server keeps nothing for a visitor (no session: the page is the view), and its memory
    stays that of one copy of the catalogue."""
    process, url, _log = served
    links = [f"?states={state}" for state in STATES]
    links += ["?measure=courses", "?by=instruction_form_category", "?measure=institutions"]
    links += ["?by=duration_class&states=Bayern"]
    contexts = [
        browser.new_context(viewport={"width": 1400, "height": 1000}, bypass_csp=True)
        for _ in links
    ]
    try:
        pages = [context.new_page() for context in contexts]
        started, cpu = time.monotonic(), cpu_seconds(process.pid)
        for page, link in zip(pages, links, strict=True):
            page.goto(url + link, wait_until="commit", timeout=180_000)
        paints = []
        for page in pages:  # the chart loaded (the browser asks for it after the page)
            page.wait_for_function(
                f"() => {{ const img = document.querySelector('{CHART}');"
                " return img && img.complete && img.naturalWidth > 0; }",
                timeout=180_000,
            )
            paints.append(time.monotonic() - started)
        print(
            f"20 visitors at once (html): the last first paint after {max(paints):.1f} s, "
            f"median {statistics.median(paints):.1f} s; the dashboard's CPU meanwhile: "
            f"{cpu_seconds(process.pid) - cpu:.1f} s"
        )
        held = pss_gb(process)
        print(f"the html dashboard holds {held:.2f} GB (PSS) with 20 visitors")
        assert held < MEMORY
        for page, state in zip(pages[:16], STATES, strict=True):
            own = stats.select(offers, state=[state])
            assert matches(own) in status(page)
            same_table(shown(page), explorer_table(own, "state", "events", "de"))
        same_table(shown(pages[16]), explorer_table(offers, "state", "courses", "de"))
        form = explorer_table(offers, "instruction_form_category", "events", "de")
        same_table(shown(pages[17]), form)
        for page in pages[:16]:
            page.locator(".educatalog-measure").get_by_label("Kurse", exact=True).check()
        for page, state in zip(pages[:16], STATES, strict=True):
            page.wait_for_selector("#educatalog-status [data-updates='1']", timeout=120_000)
            own = stats.select(offers, state=[state])
            same_table(shown(page), explorer_table(own, "state", "courses", "de"))
        same_table(shown(pages[17]), form)  # the others did not move
        assert updates(pages[17]) == 0
    finally:
        for context in contexts:
            context.close()
