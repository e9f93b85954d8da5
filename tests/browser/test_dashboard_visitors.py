"""`educatalog dashboard` with twenty visitors at once, each in a browser context of their
own: every visitor comes by a link of their own (a state, or a measure), sees exactly the
numbers of their view, changes a control and sees their own update, while the dashboard
holds one session per visitor in one process whose memory stays that of one copy of the
catalogue (a kernel per visitor, as Voilà starts, holds a copy each: twenty would need
several gigabytes). Their sessions end once their pages are gone. How long the first
paints took is printed; ``benchmarks/dashboard.py`` measures it at a million events."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from typing import Any

import pandas as pd
import pytest

from browsing import explorer_table, same_table
from dashboards import (
    changes,
    cpu_seconds,
    painted,
    pss_gb,
    sessions,
    settle,
    shown,
    start_dashboard,
    status,
    stop,
)
from educatalog import stats, texts

VISITORS = 20

MEMORY = 2.0
"""GB that the dashboard's processes may hold with twenty visitors at the demo's default
scale (one process with one copy of the catalogue: well under 1 GB when measured; twenty
kernels with a copy each would hold more than 6 GB)."""

STATES = [
    "Baden-Württemberg", "Bayern", "Berlin", "Brandenburg", "Bremen", "Hamburg", "Hessen",
    "Mecklenburg-Vorpommern", "Niedersachsen", "Nordrhein-Westfalen", "Rheinland-Pfalz",
    "Saarland", "Sachsen", "Sachsen-Anhalt", "Schleswig-Holstein", "Thüringen",
]  # fmt: skip


@pytest.fixture(scope="module")
def dashboard(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    log = tmp_path_factory.mktemp("visitors") / "dashboard.log"
    process, url = start_dashboard("de", log)
    yield process, url
    stop(process)
    assert "Traceback" not in log.read_text(), log.read_text()


def test_twenty_visitors_at_once_each_see_their_own_view(
    dashboard: tuple[Any, str], browser: Any, offers: pd.DataFrame
) -> None:
    process, url = dashboard
    settle(url, 0, "no visitor before")
    links = [f"?states={state}" for state in STATES]
    links += ["?measure=courses", "?by=instruction_form_category", "?measure=institutions"]
    links += ["?by=duration_class&states=Bayern"]
    assert len(links) == VISITORS
    contexts = [browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in links]
    try:
        pages = [context.new_page() for context in contexts]
        started, cpu = time.monotonic(), cpu_seconds(process.pid)
        for page, link in zip(pages, links, strict=True):  # all twenty arrive at once
            page.goto(url + link, wait_until="commit", timeout=180_000)
        paints = []
        for page in pages:
            painted(page)
            paints.append(time.monotonic() - started)
        print(
            f"{VISITORS} visitors at once: the last first paint after {max(paints):.1f} s, "
            f"median {statistics.median(paints):.1f} s (arrival to paint, one Chromium); "
            f"the dashboard's CPU meanwhile: {cpu_seconds(process.pid) - cpu:.1f} s"
        )
        assert sessions(url) == VISITORS
        held = pss_gb(process)
        print(f"the dashboard's processes hold {held:.2f} GB (PSS) with {VISITORS} visitors")
        assert held < MEMORY, f"{held:.2f} GB with {VISITORS} visitors"

        everything = texts.number(len(offers), "de")
        for page, state in zip(pages[:16], STATES, strict=True):  # each their own state
            own = stats.select(offers, state=[state])
            assert f"{texts.number(len(own), 'de')} von {everything}" in status(page)
            same_table(shown(page), explorer_table(own, "state", "events", "de"))
        same_table(shown(pages[16]), explorer_table(offers, "state", "courses", "de"))
        form = explorer_table(offers, "instruction_form_category", "events", "de")
        same_table(shown(pages[17]), form)

        # Each of the first sixteen counts courses now: their own update, their own state.
        for page in pages[:16]:
            page.locator(".educatalog-explorer-measure button", has_text="Kurse").click()
        for page, state in zip(pages[:16], STATES, strict=True):
            page.wait_for_function(  # the table is drawn after the chart
                "() => [...document.querySelectorAll('.educatalog-explorer-table th')]"
                ".some((th) => th.textContent.trim() === 'Kurse')",
                timeout=120_000,
            )
            own = stats.select(offers, state=[state])
            same_table(shown(page), explorer_table(own, "state", "courses", "de"))
        # the others did not move
        same_table(shown(pages[17]), form)
        changes(
            pages[19],
            lambda: (
                pages[19]
                .locator(".educatalog-explorer-states select")
                .select_option(label="Berlin")
            ),
            "Berlin",
        )
        berlin = stats.select(offers, state=["Berlin"])
        same_table(shown(pages[19]), explorer_table(berlin, "duration_class", "events", "de"))
    finally:
        for context in contexts:
            context.close()
    settle(url, 0, "the sessions of twenty pages that are gone")
