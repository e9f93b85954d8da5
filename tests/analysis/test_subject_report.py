"""The report's section on supply by subject area, from a real run of ``educatalog report``
over HTTP: its table (page and workbook) equals, cell for cell, a plain count of distinct
events, courses and providers per area from raw HTTP rows of events, addresses, states,
courses_systematics and systematics (``limit=-1``); the table by state too; a report of one
state counts that state's events only; the note on multiple assignment is there exactly when
an event is in several areas. German and English."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
import pytest
from bs4 import BeautifulSoup

from educatalog import texts
from educatalog.tables.symbols import cell_text
from raw_rows import raw_rows
from reports import report_command

pytestmark = pytest.mark.slow  # whole reports or README runs: not in make test-floors

TOKEN = "subject-report-token"
Raw = dict[str, list[dict[str, Any]]]


def number(n: Any, lang: str) -> str:
    """A count as a table shows it: with the symbols of official statistics (0 is "–")."""
    return cell_text(n, "count", lang)


@pytest.fixture(scope="module")
def server(catalogue_database: Path) -> Iterator[str]:
    from educatalog.testing import serve

    with serve(database=catalogue_database, token=TOKEN) as running:
        yield running.url


@pytest.fixture(scope="module")
def raw(server: str) -> Raw:
    fields = {
        "events": "id,course,institution,address",
        "addresses": "id,state",
        "states": "id,name",
        "courses_systematics": "courses_id,systematics_id",
        "systematics": "id,name,parent",
    }
    return raw_rows(server, TOKEN, fields)


def run_report(server: str, out: Path, *options: str) -> Path:
    done = report_command(server, out, "--no-pdf", *options, token=TOKEN, timeout=600)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def reports(server: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The whole report in German and the report of one state in English."""
    return {
        "de": run_report(server, tmp_path_factory.mktemp("subjects-de")),
        "en": run_report(
            server, tmp_path_factory.mktemp("subjects-en"), "--lang", "en", "--state", "Bayern"
        ),
    }


def count(raw: Raw, state: str | None = None) -> dict[str, Any]:
    """Per subject area (its name), the distinct events, courses and providers of the events
    (of ``state``); events whose course has no area under ``None``; the events in several
    areas; per state and area the distinct events."""
    parent = {s["id"]: s["parent"] for s in raw["systematics"]}
    name = {s["id"]: s["name"] for s in raw["systematics"]}

    def chain(node: int) -> list[int]:
        out = [node]
        while parent.get(out[-1]) is not None:
            out.append(parent[out[-1]])
        return out[::-1]  # the group first, then the area, the subject

    links: dict[int, set[int]] = defaultdict(set)
    for row in raw["courses_systematics"]:
        links[row["courses_id"]].add(row["systematics_id"])
    areas: dict[int, set[str]] = {}
    for course, nodes in links.items():
        known = [n for n in nodes if n in parent]
        kept = [n for n in known if not any(n in chain(o)[:-1] for o in known)]
        areas[course] = {name[chain(n)[1]] for n in kept if len(chain(n)) > 1}
    state_of_address = {a["id"]: a["state"] for a in raw["addresses"]}
    state_name = {s["id"]: s["name"] for s in raw["states"]}
    per: dict[Any, dict[str, set[Any]]] = defaultdict(lambda: defaultdict(set))
    by_state: dict[tuple[Any, Any], set[int]] = defaultdict(set)
    several = 0
    for event in raw["events"]:
        where = state_name.get(state_of_address.get(event["address"]))
        if state is not None and where != state:
            continue
        mine = areas.get(event["course"]) or {None}
        several += len(mine) > 1
        for area in [*mine, "total"]:
            per[area]["events"].add(event["id"])
            per[area]["courses"].add(event["course"])
            if event["institution"] is not None:
                per[area]["institutions"].add(event["institution"])
            by_state[(where, area)].add(event["id"])
    sizes = {a: {k: len(v) for k, v in m.items()} for a, m in per.items()}
    return {"areas": sizes, "several": several, "by_state": by_state}


def page_rows(report: Path, title: str) -> list[list[str]]:
    soup = BeautifulSoup((report / "report.html").read_text(encoding="utf-8"), "html.parser")
    caption = next(c for c in soup.find_all("caption") if c.get_text() == title)
    table = caption.find_parent("table")
    return [
        [cell.get_text() for cell in row.find_all(["th", "td"])]
        for row in table.find("tbody").find_all("tr")
    ]


def sheet_rows(report: Path, sheet: str) -> list[list[Any]]:
    rows = list(openpyxl.load_workbook(report / "tables.xlsx")[sheet].iter_rows(values_only=True))
    return [list(r) for r in rows]


def expected_rows(counted: dict[str, Any], lang: str) -> list[tuple[str, int, int, int]]:
    areas = counted["areas"]
    named = [a for a in areas if a not in (None, "total")]
    counts = ("events", "courses", "institutions")
    out = [(texts.label(a, lang), *(areas[a].get(k, 0) for k in counts)) for a in named]
    for key, label in ((None, texts.missing(lang)), ("total", texts.total_label(True, lang))):
        if key in areas:
            row = areas[key]
            out.append((label, row["events"], row["courses"], row.get("institutions", 0)))
    return out


@pytest.mark.parametrize(("lang", "state"), [("de", None), ("en", "Bayern")])
def test_the_table_of_areas_is_a_plain_count_from_raw_http(
    reports: dict[str, Path], raw: Raw, lang: str, state: str | None
) -> None:
    report = reports[lang]
    counted = count(raw, state)
    expected = expected_rows(counted, lang)
    total = counted["areas"]["total"]["events"]
    # The page: areas with events (the table lists every area, those without as 0).
    page = page_rows(report, texts.text("report.table.subjects", lang))
    got = {r[0]: r[1:4] for r in page}
    total_label = page[-1][0]
    for label, events, courses, providers in expected:
        key = total_label if label == texts.total_label(True, lang) else label
        want = [number(n, lang) for n in (events, courses, providers)]
        assert got[key] == want, key
    shown = {r[0] for r in page if r[1] != number(0, lang)}
    assert shown - {total_label} == {e[0] for e in expected[:-1]}
    # The shares are of all events (distinct), so they add up to more than 100 % when an
    # event is in several areas.
    first = expected[0]
    assert got[first[0]][0] == number(first[1], lang)
    # The workbook: the same numbers, cell for cell.
    sheet = sheet_rows(report, texts.text("report.sheet.subjects", lang))
    start = next(i for i, r in enumerate(sheet) if r[0] == page[0][0])
    cells = {r[0]: r[1:4] for r in sheet[start : start + len(page)]}
    for label, events, courses, providers in expected:
        key = total_label if label == texts.total_label(True, lang) else label
        assert cells[key] == [events, courses, providers], key
    assert cells[total_label][0] == total
    # The note on multiple assignment: exactly when an event is in several areas.
    words = (report / "report.html").read_text(encoding="utf-8")
    first = "Mehrfachzuordnung: " if lang == "de" else "Multiple assignment: "
    notes = re.findall(rf"<p class=[\"']educatalog-note[\"']>({first}[^<]*)</p>", words)
    table_note = [n for n in notes if "(Zeile" in n or "(row" in n]  # the table of areas'
    assert len(table_note) == (1 if counted["several"] else 0), notes
    in_sheet = [str(r[0]) for r in sheet if str(r[0]).startswith(first)]
    assert len(in_sheet) == (1 if counted["several"] else 0), in_sheet


@pytest.mark.parametrize(("lang", "state"), [("de", None), ("en", "Bayern")])
def test_the_table_by_state_counts_distinct_events_per_state_and_area(
    reports: dict[str, Path], raw: Raw, lang: str, state: str | None
) -> None:
    report = reports[lang]
    counted = count(raw, state)
    by_state = counted["by_state"]
    soup = BeautifulSoup((report / "report.html").read_text(encoding="utf-8"), "html.parser")
    title = texts.text("report.table.subjects_by_state", lang)
    caption = next(c for c in soup.find_all("caption") if c.get_text() == title)
    table = caption.find_parent("table")
    head = [th.get_text() for th in table.find("thead").find_all("th")]
    keys = len(table.find("thead").find_all("th", class_="educatalog-index"))
    names = {a for a in counted["areas"] if a not in (None, "total")}
    shown_as = {texts.label(a, lang): a for a in names}  # "Sprachen" is "Languages"
    others = texts.text("label.others", lang, n=0).partition("(")[0]
    raw_name = {texts.label(s["name"], lang): s["name"] for s in raw["states"]}
    for row in page_rows(report, title)[:-1]:  # the state's name last of its keys
        where = raw_name.get(row[keys - 1])
        cells = dict(zip(head[keys:], row[keys:], strict=True))
        for column, cell in cells.items():
            if column in shown_as:
                area = shown_as[column]
                assert cell == number(len(by_state[(where, area)]), lang), (where, column)
            elif column == texts.missing(lang):
                assert cell == number(len(by_state[(where, None)]), lang)
            elif column.startswith(others):  # the events of the areas not shown, once
                listed = {shown_as.get(h) for h in head}
                rest = set().union(*(by_state[(where, a)] for a in names - listed))
                assert cell == number(len(rest), lang), (where, column)
            elif column == head[-1]:  # the state's total: each event once
                assert cell == number(len(by_state[(where, "total")]), lang)
    states = [r[keys - 1] for r in page_rows(report, title)[:-1]]
    assert states == ([texts.label(state, lang)] if state else states)
    sheet = texts.text("report.sheet.subjects_by_state", lang)
    assert sheet in openpyxl.load_workbook(report / "tables.xlsx").sheetnames


@pytest.mark.parametrize("lang", ["de", "en"])
def test_an_event_in_two_areas_counts_in_each_and_once_in_the_total(
    lang: str, tmp_path: Path
) -> None:
    """The crafted catalogue of test_subjects: events 1 and 2 in IT and languages, events
    without a subject ("not stated"); the note on multiple assignment names the two."""
    import datetime as dt

    from test_subjects import crafted

    from educatalog import publication
    from educatalog.frames.provenance import Source

    offers = crafted().offers(subjects=True)
    pub = publication.Publication(tmp_path, lang, source=Source(demo=True, as_of=dt.date.today()))
    found = publication.by_subject(pub, offers, top=2, columns=1)
    rows = {r[0]: r[1] for r in (list(t) for t in found["subjects"].formatted().itertuples())}
    events = offers.drop_duplicates(["event_id", "subject_area"])
    for area, n in events["subject_area"].value_counts(dropna=False).items():
        label = texts.missing(lang) if pd.isna(area) else texts.label(str(area), lang)
        assert rows[label] == number(n, lang), label
    several = (events.dropna(subset=["subject_area"]).groupby("event_id").size() > 1).sum()
    assert several == 2  # events 1 and 2: the crafted case
    assert list(rows)[-1] == texts.text("total", lang)
    assert rows[texts.text("total", lang)] == number(offers["event_id"].nunique(), lang)
    counted = texts.count(2, lang)
    first = "Mehrfachzuordnung: " if lang == "de" else "Multiple assignment: "
    assert [n for n in found["subjects"].notes if n.startswith(first)] != []  # once
    assert len([n for n in found["subjects"].notes if n.startswith(first)]) == 1
    across = texts.text("note.subjects.multiple_columns", lang, events=counted)
    assert across in found["subjects_by_state"].notes
    assert texts.text("note.subjects.unstated", lang) in found["subjects"].notes
    # One area as a column, the other in "others" (each event once).
    columns = list(found["subjects_by_state"].formatted().columns)
    assert any(str(c).startswith(texts.text("label.others", lang, n=2)) for c in columns)
