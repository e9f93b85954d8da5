"""What is offered: subjects (the KURSNET systematics) and degree types as dimensions
(``offers(subjects=True, degrees=True)``), checked on a crafted catalogue (a course in two
areas, one linked to a leaf and its area, one without subject, a dangling id) and on the demo
against a plain count from raw HTTP rows of courses, events and the junction."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from educatalog import stats, tables, texts
from educatalog.errors import MissingColumns
from educatalog.frames.catalogue import Catalogue
from educatalog.frames.typed import to_frame
from raw_rows import raw_rows

SYSTEMATICS = [
    {"id": 1, "name": "Berufliche Weiterbildung", "code": "C", "parent": None},
    {"id": 2, "name": "Informatik, Informationstechnik", "code": "C 14", "parent": 1},
    {"id": 3, "name": "Softwareentwicklung, Programmierung", "code": "C 1435-10-10", "parent": 2},
    {"id": 4, "name": "IT-Sicherheit", "code": "C 1460-10-10", "parent": 2},
    {"id": 5, "name": "Sprachen", "code": "C 28", "parent": 1},
    {"id": 6, "name": "Englisch", "code": "C 2820-10-10", "parent": 5},
    {"id": 7, "name": "Aufstiegsweiterbildung", "code": "D", "parent": None},
    {"id": 8, "name": "Fortbildung nach BBiG/HwO", "code": "D 10", "parent": 7},
    {"id": 9, "name": "Meister/in", "code": "D 1020-10-10", "parent": 8},
]


def crafted() -> Catalogue:
    """Five courses: 10 in two areas (IT and languages), 11 linked to a leaf and to its
    area (one subject, the leaf), 12 without subject, 13 linked to an id the list lacks,
    14 linked to an area only; course 10 has events 1 and 2, course 12 events 4 and 7-10."""
    from test_stats import gappy_records

    records = gappy_records()
    records["courses"] = [{"id": c, "title": f"Kurs {c}"} for c in range(10, 15)]
    course_of = {1: 10, 2: 10, 3: 11, 5: 13, 6: 14}  # events 4 and 7-10: course 12
    records["events"] = [{**e, "course": course_of.get(e["id"], 12)} for e in records["events"]]
    records["systematics"] = SYSTEMATICS
    records["courses_systematics"] = [
        {"id": 1, "courses_id": 10, "systematics_id": 3},
        {"id": 2, "courses_id": 10, "systematics_id": 6},
        {"id": 3, "courses_id": 11, "systematics_id": 4},
        {"id": 4, "courses_id": 11, "systematics_id": 2},
        {"id": 5, "courses_id": 13, "systematics_id": 99},
        {"id": 6, "courses_id": 14, "systematics_id": 8},
    ]
    records["course_degrees"] = [
        {"id": 1, "course": 10, "degree_type": 2},
        {"id": 2, "course": 10, "degree_type": 3},
        {"id": 3, "course": 11, "degree_type": 0},
        {"id": 4, "course": 11, "degree_type": 0},  # two degrees of one type: one row
        {"id": 5, "course": 14, "degree_type": 7},  # no such type: visible, no label
    ]
    tables = {}
    for name, rows in records.items():
        rows = [
            {k: (f"{v:.2f}" if k == "value" and v is not None else v) for k, v in row.items()}
            for row in rows
        ]
        tables[name] = to_frame(rows, name)
    return Catalogue(tables)


def test_one_row_per_event_and_subject_with_its_area_and_group() -> None:
    offers = crafted().offers(subjects=True)
    rows = {
        (int(e), None if pd.isna(s) else str(s), None if pd.isna(a) else str(a))
        for e, s, a in zip(
            offers["event_id"], offers["subject_code"], offers["subject_area_code"], strict=True
        )
    }
    assert rows == {
        (1, "C 1435-10-10", "C 14"),
        (1, "C 2820-10-10", "C 28"),
        (2, "C 1435-10-10", "C 14"),
        (2, "C 2820-10-10", "C 28"),
        (3, "C 1460-10-10", "C 14"),  # the leaf; its area link adds no row
        *((e, None, None) for e in (4, 7, 8, 9, 10)),  # no subject: one row each
        (5, None, None),  # a dangling id: visible as subject_id
        (6, None, "D 10"),  # linked to an area: the area, no leaf
    }
    assert offers.loc[offers["event_id"] == 5, "subject_id"].tolist() == [99]
    assert list(offers["subject_area"].cat.categories) == [
        "Informatik, Informationstechnik",
        "Sprachen",
        "Fortbildung nach BBiG/HwO",
    ]
    assert list(offers["subject_group_code"].cat.categories) == ["C", "D"]


def test_statistics_count_each_event_once_per_area_and_once_in_the_total() -> None:
    offers = crafted().offers(subjects=True)
    table = stats.supply(offers, "subject_area", margins=True)
    assert table.loc["Informatik, Informationstechnik", "events"] == 3
    assert table.loc["Sprachen", "events"] == 2
    assert table.loc["Informatik, Informationstechnik", "courses"] == 2
    assert table["events"].iloc[:-1].sum() > table.loc[stats.MARGINS, "events"] == 10
    quality = stats.quality(offers)
    assert quality.loc["events_without_subject", "count"] == 5  # events 4, 7-10
    assert quality.loc["unknown_subject", "count"] == 1
    assert "events_without_subject" not in stats.quality(crafted().offers()).index
    # The table says why its rows add up to more than the total, in either language;
    # a table whose rows hold each event once says nothing of it.
    notes = tables.present(table, "de").notes
    assert any(n.startswith("Mehrfachzuordnung: Veranstaltungen, Kurse") for n in notes), notes
    notes = tables.present(table, "en").notes
    assert any(n.startswith("Multiple assignment: events, courses") for n in notes), notes
    by_state = tables.present(stats.supply(offers.drop_duplicates("event_id"), margins=True))
    assert not any("Mehrfachzuordnung" in n for n in by_state.notes), by_state.notes
    groups = stats.supply(offers, "subject_group", dropna=True)
    assert groups["events"].to_dict() == {
        "Berufliche Weiterbildung": 3,
        "Aufstiegsweiterbildung": 1,
    }


def test_degree_types_and_combinations() -> None:
    offers = crafted().offers(subjects=True, degrees=True, funding=False)
    table = stats.supply(offers, "degree_type")
    assert table.loc["Herstellerzertifikat", "events"] == 2
    assert table.loc["öffentlich-rechtlich anerkannt", "events"] == 1
    assert offers.loc[offers["event_id"] == 3, "degree_type"].tolist() == [
        "öffentlich-rechtlich anerkannt"
    ]
    assert offers.loc[offers["event_id"] == 6, "degree_type_id"].tolist() == [7]
    assert stats.quality(offers).loc["events_without_degree", "count"] == 6
    assert stats.supply(offers, "state", margins=True).iloc[-1]["events"] == 10
    with pytest.raises(MissingColumns, match=r"offers\(subjects=True\)"):
        stats.supply(crafted().offers(), "subject_area")


@pytest.fixture(scope="module")
def raw(catalogue_database: Path) -> Iterator[dict[str, list[dict[str, Any]]]]:
    from educatalog.testing import serve

    with serve(database=catalogue_database, token="subject-token") as server:
        fields = {
            "events": "id,course,address",
            "courses_systematics": "courses_id,systematics_id",
            "systematics": "id,code,parent",
        }
        yield raw_rows(server.url, server.token, fields)


def test_the_demos_subject_areas_equal_a_plain_count_from_raw_http(
    demo_catalogue: Catalogue, raw: dict[str, list[dict[str, Any]]]
) -> None:
    parent = {s["id"]: s["parent"] for s in raw["systematics"]}
    code = {s["id"]: s["code"] for s in raw["systematics"]}

    def chain(node: int) -> list[int]:
        out = [node]
        while parent.get(out[-1]) is not None:
            out.append(parent[out[-1]])
        return out[::-1]

    links: dict[int, set[int]] = defaultdict(set)
    for row in raw["courses_systematics"]:
        links[row["courses_id"]].add(row["systematics_id"])
    areas: dict[int, set[str]] = {}
    for course, nodes in links.items():
        kept = [n for n in nodes if not any(n in chain(o)[:-1] for o in nodes)]
        areas[course] = {code[chain(n)[1]] for n in kept if len(chain(n)) > 1}
    per_area: dict[str, set[int]] = defaultdict(set)
    for event in raw["events"]:
        for area in areas.get(event["course"], ()):
            per_area[area].add(event["id"])
    offers = demo_catalogue.offers(subjects=True)
    table = stats.supply(offers, "subject_area_code", dropna=True)
    got = {str(k): int(n) for k, n in table["events"].items() if n}
    assert got == {area: len(ids) for area, ids in per_area.items()}
    rates = stats.per_capita(offers, by=["state", "subject_area"], margins=True)
    listed = offers["state"].notna() & offers["subject_area"].notna()  # the rows listed
    assert rates.iloc[-1]["events"] == offers.loc[listed, "event_id"].nunique()
    assert offers["subject_area"].isna().any()  # the demo has courses without subject


def test_the_subject_chart_shows_the_largest_areas_the_others_and_the_shares(
    demo_catalogue: Catalogue,
) -> None:

    offers = demo_catalogue.offers(subjects=True)
    table = stats.supply(offers, "subject_area", dropna=True)
    ranked = table["events"][table["events"] > 0].sort_values(ascending=False, kind="stable")
    total = offers["event_id"].nunique()
    for lang, others in (("de", "übrige"), ("en", "others")):
        fig = offers.edu.plot.subjects(top=3, lang=lang)
        ax = fig.axes[0]
        labels = [t.get_text() for t in ax.get_yticklabels()]
        assert labels[:3] == [texts.label(k, lang) for k in ranked.index[:3]]
        assert labels[3] == f"{others} ({len(ranked) - 3})"
        widths = [p.get_width() for p in ax.patches]
        rest = offers.loc[offers["subject_area"].isin(ranked.index[3:]), "event_id"].nunique()
        assert widths[:4] == [*ranked.iloc[:3].tolist(), rest]
        values = [t.get_text() for t in ax.texts if "(" in t.get_text() and "%" in t.get_text()]
        share = round(100 * ranked.iloc[0] / total)
        assert values[0].endswith(f"({share}\xa0%)" if lang == "de" else f"({share}%)")
        footer = " ".join(t.get_text() for t in fig.texts)
        # The note on multiple assignment exactly when an event is in several areas.
        areas = offers.drop_duplicates(["event_id", "subject_area"])
        several = len(areas) > total
        note = "Mehrfachzuordnung" if lang == "de" else "Multiple assignment"
        assert (note in footer) is several
    crafted_offers = crafted().offers(subjects=True)
    footer = " ".join(t.get_text() for t in crafted_offers.edu.plot.subjects().texts)
    assert "Mehrfachzuordnung" in footer  # a course in two areas
    one_each = crafted_offers.drop_duplicates("event_id")
    footer = " ".join(t.get_text() for t in one_each.edu.plot.subjects().texts)
    assert "Mehrfachzuordnung" not in footer
    assert f"Anteile an allen Veranstaltungen ({one_each['event_id'].nunique()})." in footer
    with pytest.raises(Exception, match="subjects=True"):
        demo_catalogue.offers().edu.plot.subjects()
