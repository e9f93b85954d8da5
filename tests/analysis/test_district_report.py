"""The report's section on supply by district, at the level of its functions: the lists of
the districts with the most and the fewest events per 100,000 inhabitants are
``stats.per_capita`` over the same offers, ties broken by the district key and said so;
the table of every district shows its key and name, each state's subtotal as "Bayern
zusammen" and Germany as "Deutschland"; its sheet holds per_capita's numbers cell by cell;
a selection of a state lists its districts only; German and English."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
import pytest

from browsing import district_list
from educatalog import publication, stats, tables, texts
from educatalog.frames.districts import district_table
from educatalog.frames.provenance import Source
from educatalog.population import STATES
from educatalog.tables.symbols import cell_text

SOURCE = Source(demo=True, name="Demo", as_of=dt.date(2026, 1, 15))


def rates_of(offers: pd.DataFrame) -> pd.DataFrame:
    return stats.per_capita(offers, by="district", subtotals=True, margins=True)


def shown(table: tables.Table) -> list[list[str]]:
    """A table's rows as the page shows them: every label and cell as text."""
    formatted = table.formatted()
    return [
        [table.key_text(k) for k in (key if isinstance(key, tuple) else (key,))] + list(cells)
        for key, cells in zip(formatted.index, formatted.itertuples(index=False), strict=True)
    ]


def section(offers: pd.DataFrame, lang: str, tmp_path: Path, **filters: Any) -> Any:
    states = filters.get("states")
    pub = publication.Publication(
        tmp_path, lang, source=SOURCE, filters=publication.scope(states, None, None, lang)
    )
    rates = rates_of(offers)
    found = publication.by_district(pub, offers, rates, notes=["period"])
    return pub, rates, found


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_lists_are_per_capita_with_ties_broken_by_key(
    offers: pd.DataFrame, lang: str, tmp_path: Path
) -> None:
    _, rates, found = section(offers, lang, tmp_path)
    assert shown(found["districts_most"]) == district_list(offers, lang)
    assert (tmp_path / "charts" / "09-district-map.png").is_file()  # the map, saved
    assert shown(found["districts_fewest"]) == district_list(offers, lang, fewest=True)
    # The fewest: more districts without any event than the list holds; the first ten
    # of them by key, and the note says how many share the rate.
    zero = rates_of(offers)
    districts = tables.districts_of(zero)
    without = districts[districts["events"] == 0]
    assert len(without) > 10
    keys = [row[0] for row in shown(found["districts_fewest"])]
    assert keys == sorted(without.index.get_level_values("key"))[:10]
    notes = found["districts_fewest"].notes
    tie = texts.text(
        "note.districts.tie",
        lang,
        tied=texts.number(len(without), lang),
        rate=texts.rate(0, lang),
        shown=texts.number(10, lang),
        table=texts.text("report.table.districts", lang),
    )
    assert tie in notes
    assert notes[0] == texts.text("note.districts.fewest", lang)  # how to read it, first
    assert found["districts_most"].notes[0] == texts.text("note.districts.most", lang)
    # Compared with the national rate, which is per_capita's total.
    germany = texts.rate(rates["events_per_100k"].iloc[-1], lang)
    compare = texts.text(
        "note.districts.compare", lang, where=texts.text("total.germany", lang), rate=germany
    )
    assert compare in found["districts_most"].notes


def test_a_ranking_breaks_ties_by_key_whatever_the_order_of_the_rows() -> None:
    """Four districts, two pairs of equal rates, given in reverse order of their keys."""
    table = district_table()
    keys = ["09162", "09184", "11000", "02000"][::-1]
    rates = pd.DataFrame(
        {
            "events": [10, 20, 10, 20],
            "courses": [1, 1, 1, 1],
            "institutions": [1, 1, 1, 1],
            "population": [100_000, 200_000, 100_000, 200_000],
            "events_per_100k": [10.0, 10.0, 10.0, 10.0],
        },
        index=pd.Index(list(table.loc[keys, "district"]), name="district"),
    )
    rates.loc[table.loc["11000", "district"], "events_per_100k"] = 5.0
    most = tables.district_ranking(rates, 2)
    assert list(most.index.get_level_values("key")) == ["02000", "09162"]
    assert most.attrs["ranking"] == {
        "fewest": False,
        "rate": 10.0,
        "tied": 3,
        "shown": 2,
        "unreliable": 0,  # no district of fewer than 3 events left out
        "min_cases": 3,
    }
    fewest = tables.district_ranking(rates, 2, fewest=True)
    assert list(fewest.index.get_level_values("key")) == ["11000", "02000"]
    assert list(fewest.index.get_level_values("state")) == ["Berlin", "Hamburg"]


@pytest.mark.parametrize(
    ("lang", "state", "germany"),
    [
        ("de", "Bayern zusammen", "Deutschland (Veranstaltungen mit Kreis)"),
        ("en", "Bavaria total", "Germany (events with a district)"),
    ],
)
def test_every_district_with_its_key_under_its_state_and_germany_last(
    offers: pd.DataFrame, lang: str, state: str, germany: str, tmp_path: Path
) -> None:
    _, rates, found = section(offers, lang, tmp_path)
    table = found["districts"]
    rows = shown(table)
    districts = district_table()
    assert len(rows) == 400 + 16 + 1
    listed = [r for r in rows if len(r[0]) == 5]
    assert [r[0] for r in listed] == list(districts.index)  # every district, in key order
    assert [r[1] for r in listed] == [texts.label(d, lang) for d in districts["district"]]
    subtotals = [rows[n] for n in table.subtotals]
    assert [r[0] for r in subtotals] == list(STATES["key"])
    bavaria = next(r for r in subtotals if r[0] == "09")
    assert bavaria[1] == state
    assert rows[-1][:2] == ["", germany]
    # Every number is per_capita's, row by row, with the symbols of official statistics:
    # exactly 0 is "–", a rate resting on 1 or 2 events "/" (the small-cell rule).
    for row, (_, values) in zip(rows, rates.iterrows(), strict=True):
        rate = cell_text(values["events_per_100k"], "rate", lang)
        assert row[2:] == [
            cell_text(values["events"], "count", lang),
            cell_text(values["courses"], "count", lang),
            cell_text(values["institutions"], "count", lang),
            cell_text(values["population"], "count", lang),
            "/" if 0 < values["events"] < 3 else rate,
        ]
    # The subtotals and the total are set off; the sums say what they count.
    assert table.to_html().count('class="educatalog-total"') == 17
    assert any(
        n.startswith(texts.text("note.rates_without_district", lang)[:12]) for n in table.notes
    )
    english = "München, city" if lang == "en" else "München, Stadt"
    assert [r[1] for r in rows if r[0] == "09162"] == [english]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_sheet_of_districts_is_per_capita_cell_by_cell(
    offers: pd.DataFrame, lang: str, tmp_path: Path
) -> None:
    pub, rates, found = section(offers, lang, tmp_path)
    book = openpyxl.load_workbook(pub.workbook())
    sheet = book[texts.text("report.sheet.districts", lang)]
    rows = list(sheet.iter_rows(min_row=3, max_row=2 + len(rates), values_only=True))
    for row, ((_, district), values) in zip(rows, rates.iterrows(), strict=True):
        numbers = [values[c] for c in ("events", "courses", "institutions", "population")]
        assert list(row[2:6]) == [int(v) for v in numbers]
        if 0 < values["events"] < 3:  # the small-cell rule: "/", as on the page
            assert row[6] == "/"
        else:
            assert row[6] == pytest.approx(float(values["events_per_100k"]), rel=1e-12)
        if district != "All":
            key = district_table().reset_index().set_index("district").loc[district, "key"]
            assert row[0] == key  # text, with its leading zero
    assert sheet.cell(3, 1).data_type == "s"
    bold = [n for n in range(len(rows)) if sheet.cell(3 + n, 2).font.bold]
    assert bold == [*found["districts"].subtotals, len(rows) - 1]
    under = [str(r[0]) for r in sheet.iter_rows(min_row=4 + len(rows), values_only=True) if r[0]]
    assert any("12411-01-01-4" in line and "31" in line for line in under)  # the population
    assert any("© OpenStreetMap contributors" in line for line in under)
    assert under == [*found["districts"].notes, *under[len(found["districts"].notes) :]]
    for key in ("districts_most", "districts_fewest"):
        ranked = book[texts.text(f"report.sheet.{key}", lang)]
        cells = list(ranked.iter_rows(min_row=3, max_row=12, values_only=True))
        expected = district_list(offers, lang, fewest=key.endswith("fewest"))
        assert [list(c[:3]) for c in cells] == [e[:3] for e in expected]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_selected_state_lists_its_districts_only(
    offers: pd.DataFrame, lang: str, tmp_path: Path
) -> None:
    bavaria = stats.select(offers, state="Bayern")
    _, rates, found = section(bavaria, lang, tmp_path, states=["Bayern"])
    for key in ("districts_most", "districts_fewest"):
        rows = shown(found[key])
        assert rows == district_list(bavaria, lang, fewest=key.endswith("fewest"))
        assert {r[0][:2] for r in rows} == {"09"}
        assert found[key].selection == texts.text(
            "note.filters", lang, filters=publication.scope(["Bayern"], None, None, lang)[0]
        )
    rows = shown(found["districts"])
    keys = [r[0] for r in rows]
    assert keys[:-2] == list(district_table().query("state_key == '09'").index)
    assert keys[-2:] == ["09", ""]
    assert rows[-1][1] == texts.text("total", lang)  # the selection's total, not Germany
    compare = texts.text(
        "note.districts.compare",
        lang,
        where=texts.label("Bayern", lang),
        rate=texts.rate(rates["events_per_100k"].iloc[-1], lang),
    )
    assert compare in found["districts_most"].notes


def test_a_selection_of_few_districts_is_one_list(offers: pd.DataFrame, tmp_path: Path) -> None:
    two = stats.select(offers, state=["Hamburg", "Bremen"])
    _, _, found = section(two, "de", tmp_path, states=["Hamburg", "Bremen"])
    assert set(found) == {"districts_ranked", "districts"}
    assert shown(found["districts_ranked"]) == district_list(two, "de", n=3)


def test_the_notes_say_why_districts_are_unknown_and_that_small_ones_swing(
    offers: pd.DataFrame,
) -> None:
    rates = rates_of(offers)
    quality = stats.quality(offers)
    notes = publication.district_notes(rates, quality, "de")
    checks = [
        "district_no_postal_code",
        "district_unknown_postal_code",
        "district_ambiguous",
        "district_other_state",
    ]
    counts = {c: int(quality.loc[c, "count"]) for c in checks}
    assert sum(counts.values()) == rates.attrs["without_district"] > 0
    reasons = [
        f"{texts.text(f'report.districts.why.{c}', 'de')} ({texts.count(n, 'de')})"
        for c, n in counts.items()
        if n
    ]
    assert notes[0] == f"Ohne Kreis (siehe „Datenqualität“): {'; '.join(reasons)}."
    assert notes[0].startswith("Ohne Kreis (siehe „Datenqualität“): Adresse ohne Postleitzahl (")
    assert notes[1].startswith(
        "Kleine Kreise: Die Kreise sind sehr verschieden groß (Zweibrücken: 33.323 Einwohner; "
        "Berlin: 3.685.265), eine einzige Veranstaltung ändert die Rate von Zweibrücken um 3,00."
    )
    english = publication.district_notes(rates, quality, "en")
    assert english[-1].endswith("(© OpenStreetMap contributors, ODbL 1.0).")
    assert "the address has no postal code" in english[0]


def test_district_figures_come_from_a_file_of_districts_else_the_shipped_table(
    tmp_path: Path,
) -> None:
    shipped = publication.district_population(None)
    assert shipped.attrs["table"] == "12411-01-01-4"
    states = tmp_path / "states.csv"
    rows = [f"{name},{1_000_000 + n}" for n, name in enumerate(STATES["state"])]
    states.write_text("state,population\n" + "\n".join(rows) + "\n", encoding="utf-8")
    assert publication.district_population(states)["population"].equals(shipped["population"])
    districts = tmp_path / "districts.csv"
    lines = [f"{key},{1000 + n}" for n, key in enumerate(district_table().index)]
    districts.write_text("district_key,population\n" + "\n".join(lines) + "\n", encoding="utf-8")
    own = publication.district_population(districts)
    assert own.loc["01001", "population"] == 1000
    broken = tmp_path / "broken.csv"
    broken.write_text("district_key,population\n99999,5\n", encoding="utf-8")
    with pytest.raises(Exception, match="99999"):
        publication.district_population(broken)


def test_two_districts_of_one_name_are_told_apart_in_english() -> None:
    assert texts.label("München, Stadt", "en") == "München, city"
    assert texts.label("München, Landkreis", "en") == "München, district"
    assert texts.label("München, Landkreis", "de") == "München, Landkreis"
    assert texts.label("Bayern", "en") == "Bavaria"
