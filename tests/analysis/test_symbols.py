"""The symbols of official statistics in the tables for readers (issue 34, points 1, 2 and 8):
"–" exactly zero, "0,0" more than nothing but less than half the last digit, "." unknown, "/"
below the small-cell rule, "x" not meaningful; on the page, in the workbook (where numbers
stay numbers) and under the explorer's table, with the explanation of symbols, in German and
English. Crafted catalogues, so that each symbol has a cell of its own."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from educatalog import publication, stats, tables, texts
from educatalog.cli import build_parser
from educatalog.errors import UsageError
from educatalog.frames.provenance import Source
from educatalog.tables import symbols
from educatalog.widgets import table_html

LEGEND = {
    "de": [
        ("–", "nichts vorhanden (genau null)"),
        (
            "0",
            "weniger als die Hälfte von 1 in der letzten besetzten Stelle, jedoch mehr als "
            "nichts (auch 0,0 oder 0,00)",
        ),
        (".", "Zahlenwert unbekannt"),
        ("/", "keine Angabe, da Zahlenwert nicht sicher genug"),
        ("x", "Tabellenfach gesperrt, weil Aussage nicht sinnvoll"),
    ],
    "en": [
        ("–", "nil (exactly zero)"),
        (
            "0",
            "less than half of 1 in the last digit shown, but more than nothing (also 0.0 or 0.00)",
        ),
        (".", "figure unknown"),
        ("/", "no figure, as it is not reliable enough"),
        ("x", "no figure, as a statement would not be meaningful"),
    ],
}
TITLE = {"de": "Zeichenerklärung", "en": "Explanation of symbols"}


def crafted_offers() -> pd.DataFrame:
    """Six events of five priced courses: in person three courses (one at 0 EUR), digital
    two (below the rule of 3), combined none (a median of no prices has no meaning); five
    events in Bayern, two in Bremen (below the rule), none in Saarland, one without a state."""
    rows = [  # event, course, form, cost, state
        (1, 10, "Präsenz", 0.0, "Bayern"),
        (2, 11, "Präsenz", 100.0, "Bayern"),
        (3, 12, "Präsenz", 300.0, "Bayern"),
        (4, 12, "Präsenz", 300.0, "Bayern"),
        (5, 20, "Digital", 50.0, "Bremen"),
        (6, 21, "Digital", 70.0, "Bremen"),
        (7, 30, "Präsenz", None, "Bayern"),
        (8, 31, "Präsenz", None, None),
    ]
    columns = ["event_id", "course_id", "instruction_form_category", "cost", "state"]
    offers = pd.DataFrame(rows, columns=columns)
    forms = pd.CategoricalDtype(["Präsenz", "Digital", "Kombiniert"])
    offers["instruction_form_category"] = offers["instruction_form_category"].astype(forms)
    offers["state"] = offers["state"].astype(pd.CategoricalDtype(["Bayern", "Bremen", "Saarland"]))
    offers["cost_currency"] = offers["cost"].map(lambda c: None if pd.isna(c) else "EUR")
    offers["institution"] = offers["course_id"] // 10
    offers["max_participants"] = pd.array([pd.NA] * len(offers), dtype="Int64")
    return offers


POPULATION = pd.Series({"Bayern": 13_000_000_000, "Bremen": 700_000, "Saarland": 1_000_000})
"""Bayern a thousand times its size: its rate is more than nothing but shows as 0,00."""


def column(table: tables.Table, name: str) -> list[str]:
    return table.formatted()[name].tolist()


# -- one value ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "en"])
def test_each_number_with_its_symbol(lang: str) -> None:
    zero = {"de": "0,0\u00a0%", "en": "0.0%"}[lang]
    assert symbols.cell_text(0, "count", lang) == "–"  # exactly nothing
    assert symbols.cell_text(0.0, "share", lang) == "–"
    assert symbols.cell_text(0.0, "money", lang) == "–"
    assert symbols.cell_text(0.0002, "share", lang) == zero  # 0.02 %: less than half of 0.1
    assert symbols.cell_text(0.0005, "share", lang) == texts.percent(0.001, lang)  # rounds up
    assert symbols.cell_text(0.001, "rate", lang) == ("0,00" if lang == "de" else "0.00")
    assert symbols.cell_text(-0.001, "rate", lang) == ("0,00" if lang == "de" else "0.00")
    assert symbols.cell_text(0.04, "decimal", lang) == ("0,0" if lang == "de" else "0.0")
    assert symbols.cell_text(pd.NA, "count", lang) == "."  # unknown, in either language
    assert symbols.cell_text(float("nan"), "rate", lang) == "."
    assert symbols.cell_text(1635, "count", lang) == ("1.635" if lang == "de" else "1,635")


def test_the_small_cell_rule_takes_a_whole_number_of_at_least_one() -> None:
    frame = pd.DataFrame({"events": [1]}, index=pd.Index(["a"], name="x"))
    for wrong in (0, -1, 2.5, True, "3"):
        with pytest.raises(UsageError, match="min_cases"):
            tables.present(frame, min_cases=wrong)  # type: ignore[arg-type]


# -- costs and rates of crafted catalogues ---------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "en"])
def test_costs_on_too_few_courses_show_a_slash_and_none_an_x(lang: str) -> None:
    costs = stats.costs(crafted_offers(), "instruction_form_category", margins=True)
    assert costs["median"].notna().sum() == 3  # the statistics stay numbers
    table = tables.present(costs, lang)
    courses, zero = table.frame.columns[:2]
    assert zero == {"de": "darunter Kurse zu 0 EUR", "en": "of which courses at 0 EUR"}[lang]
    assert column(table, courses) == ["3", "2", "–", "5"]
    assert column(table, zero) == ["1", "–", "–", "1"]
    median = table.frame.columns[5]
    assert column(table, median) == (
        ["100,00", "/", "x", "70,00"] if lang == "de" else ["100.00", "/", "x", "70.00"]
    )
    minimum = table.frame.columns[3]
    assert column(table, minimum) == ["–", "/", "x", "–"]  # a cost of 0 EUR: exactly 0
    rule = {
        "de": "/: Kosten (Minimum, Quartile, Median, Maximum, Mittelwert), die auf weniger als "
        "3 Kursen beruhen, sind nicht sicher genug und werden nicht angegeben.",
        "en": "/: costs (minimum, quartiles, median, maximum, mean) resting on fewer than 3 "
        "courses are not reliable enough and are not shown.",
    }[lang]
    assert rule in table.notes
    why = {"de": "keine Kurse mit Kostenangabe", "en": "no course states a cost"}[lang]
    assert any(n.startswith("x: ") and why in n for n in table.notes)
    # The rule is a parameter: with 2 the two digital courses are shown, with 1 too.
    for cases in (2, 1):
        lower = tables.present(costs, lang, min_cases=cases)
        assert column(lower, median)[1] in ("60,00", "60.00")
        assert any(f"fewer than {cases} " in n or f"weniger als {cases} " in n for n in lower.notes)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_rates_on_too_few_events_show_a_slash(lang: str) -> None:
    rates = stats.per_capita(crafted_offers(), population=POPULATION, margins=True)
    assert rates["events_per_100k"].notna().all()  # numbers, whatever the table shows
    table = tables.present(rates, lang)
    shown = dict(
        zip(
            table.frame.index.get_level_values(1),
            column(table, table.frame.columns[-1]),
            strict=True,
        )
    )
    bremen, bayern, saarland = (texts.label(s, lang) for s in ("Bremen", "Bayern", "Saarland"))
    assert shown[bremen] == "/"  # 2 events
    assert shown[bayern] == ("0,00" if lang == "de" else "0.00")  # more than nothing
    assert shown[saarland] == "–"  # no event: exactly 0, known
    rule = {
        "de": "/: Raten, die auf weniger als 3 Veranstaltungen beruhen",
        "en": "/: rates resting on fewer than 3 events",
    }[lang]
    assert any(n.startswith(rule) for n in table.notes)
    assert column(tables.present(rates, lang, min_cases=2), table.frame.columns[-1])[0] in (
        "0,29",
        "0.29",
    )


def test_a_rate_of_no_region_is_not_meaningful_and_of_no_population_unknown() -> None:
    frame = pd.DataFrame(
        {
            "events": pd.array([4, 5, 3], dtype="Int64"),
            "population": pd.array([1_000_000, pd.NA, pd.NA], dtype="Int64"),
            "events_per_100k": pd.array([0.4, pd.NA, pd.NA], dtype="Float64"),
        },
        index=pd.Index(["Bayern", "Bremen", None], name="state", dtype=object),
    )
    for lang in ("de", "en"):
        table = tables.present(frame, lang)
        assert column(table, table.frame.columns[-1]) == [
            ".",  # Bremen (04): a state without inhabitants, unknown
            "0,40" if lang == "de" else "0.40",  # Bayern (09)
            "x",  # no state: a rate makes no sense
        ]
        assert any(n.startswith("x: ") for n in table.notes)


def test_the_population_figures_carry_their_licence() -> None:
    rates = stats.per_capita(stats.select(crafted_offers(), state=["Bayern"]), margins=True)
    german = tables.present(rates, "de").notes[0]
    assert german.endswith(
        "Stand 31.12.2024; Lizenz: Datenlizenz Deutschland – Namensnennung – Version 2.0 "
        "(dl-de/by-2-0)"
    )
    english = tables.present(rates, "en").notes[0]
    assert english.endswith(
        "as of 31 Dec 2024; licence: Data licence Germany – attribution – version 2.0 "
        "(dl-de/by-2-0)"
    )


# -- the page, the workbook, the explorer ---------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_legend_beside_the_tables(lang: str, tmp_path: Path) -> None:
    assert symbols.legend(lang) == LEGEND[lang]
    legend = symbols.Legend(lang)
    assert legend.title == TITLE[lang]
    page = legend.to_html()
    assert all(f"<dt>{s}</dt><dd>{m}</dd>" in page for s, m in LEGEND[lang])
    # In the report: under its first table, and only there.
    pub = publication.Publication(tmp_path, lang, source=Source(demo=True), min_cases=2)
    offers = crafted_offers()
    first = pub.table("states", stats.supply(offers, "state", margins=True))
    costs = pub.table("costs", stats.costs(offers, "instruction_form_category", margins=True))
    assert TITLE[lang] in first.to_html()
    assert TITLE[lang] not in costs.to_html()
    assert column(costs, costs.frame.columns[5])[1] in ("60,00", "60.00")  # min_cases=2
    # Under the explorer's (the dashboard's) table: one line.
    box = table_html(stats.supply(offers, "state"), lang=lang)
    assert f"{TITLE[lang]}: – = {LEGEND[lang][0][1]} · 0 = " in box


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_workbook_keeps_numbers_and_writes_symbols_as_the_page(
    lang: str, tmp_path: Path
) -> None:
    offers = crafted_offers()
    costs = tables.present(stats.costs(offers, "instruction_form_category", margins=True), lang)
    shares = pd.DataFrame(
        {"events": pd.array([5000, 1, 0], dtype="Int64"), "capacity": pd.array([9, pd.NA, 0])},
        index=pd.Index(["a", "b", "c"], name="x"),
    )
    shares["share"] = shares["events"] / 5001
    supply = tables.present(shares, lang)
    assert column(supply, supply.frame.columns[2])[1:] == (
        ["0,0\u00a0%", "–"] if lang == "de" else ["0.0%", "–"]
    )
    path = tables.write_excel(tmp_path / f"{lang}.xlsx", [costs, supply], lang=lang)
    book = openpyxl.load_workbook(path)
    about = book.worksheets[0]
    rows = [tuple(r[:2]) for r in about.iter_rows(values_only=True)]
    start = rows.index((TITLE[lang], None))
    assert rows[start + 1 : start + 6] == LEGEND[lang]
    sheet = book.worksheets[1]
    header = [c.value for c in sheet[2]]
    assert header[2:4] == [
        {"de": "Kurse", "en": "Courses"}[lang],
        {"de": "darunter Kurse zu 0 EUR", "en": "of which courses at 0 EUR"}[lang],
    ]
    median = header.index({"de": "Median (EUR)", "en": "Median (EUR)"}[lang]) + 1
    cells = [sheet.cell(r, median) for r in range(3, 7)]
    assert [c.value for c in cells] == [100, "/", "x", 70]
    assert cells[0].number_format == '#,##0.00;-#,##0.00;"–"'
    for cell in cells[1:3]:
        assert cell.alignment.horizontal == "right"  # a symbol stands where numbers stand
    zero = sheet.cell(5, 3)  # the combined form's courses: 0, a number shown as "–"
    assert (zero.value, zero.number_format) == (0, '#,##0;-#,##0;"–"')
    bold = [sheet.cell(row, 1).font.bold for row in range(3, 7)]
    assert bold == [False, False, False, True]  # the total row, set off as on the page
    second = book.worksheets[2]
    share, unknown = second.cell(4, 4), second.cell(4, 3)
    assert share.value == pytest.approx(1 / 5001)  # the number, shown as 0.0%
    assert share.number_format == '0.0%;-0.0%;"–"'
    assert (unknown.value, unknown.alignment.horizontal) == (".", "right")
    assert second.cell(5, 4).value == 0
    # Printed: A4 landscape, fit to the width, the title and header rows on every page.
    for printed in book.worksheets[1:]:
        assert printed.print_title_rows == "$1:$2"
        assert printed.page_setup.orientation == "landscape"
        assert int(printed.page_setup.paperSize) == int(printed.PAPERSIZE_A4)  # 9
        assert (int(printed.page_setup.fitToWidth), int(printed.page_setup.fitToHeight)) == (1, 0)
        assert printed.sheet_properties.pageSetUpPr.fitToPage


def test_the_report_command_takes_the_small_cell_rule() -> None:
    parser = build_parser()
    args = parser.parse_args(["report", "--demo", "--out", "r", "--min-cases", "5"])
    assert args.min_cases == 5
    assert parser.parse_args(["report", "--demo", "--out", "r"]).min_cases == symbols.MIN_CASES
    with pytest.raises(SystemExit):
        parser.parse_args(["report", "--demo", "--out", "r", "--min-cases", "0"])


def test_a_list_of_districts_leaves_out_the_rates_below_the_rule() -> None:
    """Five districts: 10 events, 2 (below the rule: "/" in the table of every district, so
    in neither list), none (exactly 0: listed, "–"), 5 and 3 (as many as the rule asks:
    listed)."""
    from educatalog.frames.districts import district_table

    keys = ["09162", "09184", "11000", "02000", "05315"]
    names = list(district_table().loc[keys, "district"])
    rates = pd.DataFrame(
        {"events": [10, 2, 0, 5, 3], "population": [100_000] * 5},
        index=pd.Index(names, name="district"),
    )
    rates["events_per_100k"] = rates["events"] * 1.0
    fewest = tables.district_ranking(rates, 4, fewest=True)
    assert list(fewest.index.get_level_values("key")) == ["11000", "05315", "02000", "09162"]
    assert fewest.attrs["ranking"]["unreliable"] == 1
    shown = tables.present(fewest, "de")
    assert column(shown, shown.frame.columns[-1]) == ["–", "3,00", "5,00", "10,00"]
    assert (
        "Nicht in der Liste: 1 Kreis, dessen Rate aus diesem Grund nicht angegeben wird („/“)."
        in shown.notes
    )
    english = tables.present(fewest, "en").notes
    assert "Not in the list: 1 district whose rate is not shown for this reason (“/”)." in english
    everyone = tables.district_ranking(rates, 4, fewest=True, min_cases=1)
    assert list(everyone.index.get_level_values("key")) == ["11000", "09184", "05315", "02000"]
    assert tables.present(everyone, "de", min_cases=1).formatted().iloc[1, -1] == "2,00"
