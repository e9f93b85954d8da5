"""Test the tests: hand-written mutations of the modules people see through, each applied
alone to a copy of ``src/``, and the tests a developer would expect to notice it run
against that copy.

    python scripts/mutants.py              # every mutant, two at a time (make mutants)
    python scripts/mutants.py --list       # the mutants, what each breaks, their tests
    python scripts/mutants.py --only workbook          # one group of modules
    python scripts/mutants.py --only tables/symbols.py # one module

A mutant is a small, plausible bug as a reviewer would plant it where a reader would see
it: a total row dropped, the small-cell rule's ``<`` as ``<=``, a symbol or a label in the
other language, a filter lost on its way through a link, a number format of the workbook.
Each names the module, a snippet that must occur exactly once in it, what replaces it, what
a reader would see, and the tests to run. The mutant is *killed* when those tests fail
(pytest's exit status 1), *survived* when they pass; anything else (a timeout, an error of
collection, a snippet that no longer occurs exactly once) is an *error*, which fails the
run, so that the list stays true as the code moves (``tests/product/test_mutants.py``
checks the snippets on every ``make test``).

The copy is made in a temporary folder per mutant (``src/`` and ``notebooks/``, which a
source checkout's package reads); the tests are the repository's own, run with ``PYTHONPATH``
pointing at the copy, which wins over the editable install. Before the mutants, the tests
of every mutant run once against an unchanged copy and must pass (``--no-baseline`` skips
that). The run fails unless at least ``--min-killed`` percent (default 90) of the mutants
of each group, and of all, are killed. Only the standard library is imported here.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "educatalog"

GROUPS: dict[str, tuple[str, ...]] = {
    # group: the modules (under src/educatalog/) whose mutants it counts
    "display": (
        "tables/__init__.py",
        "tables/symbols.py",
        "tables/_districts.py",
        "texts/symbol_words.py",
        "plots/display.py",
    ),
    "explorer": ("widgets/_model.py", "widgets/_choices.py", "widgets/export.py"),
    "report": ("publication.py",),
    "workbook": (
        "tables/workbook.py",
        "tables/provenance.py",
        "tables/datapackage.py",
        "frames/excel.py",
    ),
    "dashboard": (
        "widgets/url_state.py",
        "widgets/url_sync.py",
        "widgets/display.py",
        "cli/dashboard.py",
    ),
}
"""The modules people see through, in the groups the summary counts: the display of numbers
and tables, the explorer's model, the report's tables, the workbook (and the data package
beside it), the dashboard's state (its link, its table, its page)."""

PLUGINS_OFF = ("cacheprovider", "xdist", "xdist.looponfail", "schemathesis", "hypothesispytest")
"""pytest plugins no mutant's tests use: left out, each run starts seconds sooner."""

SYMBOLS = "tests/analysis/test_symbols.py"
CITABLE = "tests/analysis/test_citable.py"
REVIEW = "tests/analysis/test_citable_review.py"
LANGUAGE = "tests/analysis/test_language.py"
MODEL = "tests/analysis/test_explorer_model.py"
WIDGETS = "tests/analysis/test_widgets.py"
URL = "tests/analysis/test_url_state.py"
DISTRICTS = "tests/analysis/test_district_report.py"


@dataclass(frozen=True)
class Mutant:
    """One planted bug: ``original`` (exactly once in ``module``) becomes ``mutated``."""

    name: str
    module: str
    original: str
    mutated: str
    breaks: str
    tests: tuple[str, ...]

    @property
    def group(self) -> str:
        return next(g for g, modules in GROUPS.items() if self.module in modules)

    @property
    def path(self) -> Path:
        return PACKAGE / self.module


def _m(name: str, module: str, original: str, mutated: str, breaks: str, *tests: str) -> Mutant:
    return Mutant(name, module, original, mutated, breaks, tests)


MUTANTS: tuple[Mutant, ...] = (
    # -- display: numbers and tables for readers ---------------------------------------------
    _m(
        "zero-shown-as-0",
        "tables/symbols.py",
        "    if number == 0:\n        return NOTHING",
        "    if number == 0:\n        return LESS_THAN_HALF",
        'an exact zero shows as "0" (more than nothing) instead of "–"',
        f"{SYMBOLS}::test_each_number_with_its_symbol",
    ),
    _m(
        "cost-rule-less-or-equal",
        "tables/symbols.py",
        "            if n < min_cases:\n                target[i] = measured",
        "            if n <= min_cases:\n                target[i] = measured",
        'costs resting on exactly 3 courses are hidden as "/" (the rule says fewer than 3)',
        f"{SYMBOLS}::test_costs_on_too_few_courses_show_a_slash_and_none_an_x",
    ),
    _m(
        "rate-rule-less-or-equal",
        "tables/symbols.py",
        "elif not pd.isna(n) and 0 < n < min_cases:",
        "elif not pd.isna(n) and 0 < n <= min_cases:",
        'a rate resting on exactly min_cases events is hidden as "/"',
        f"{SYMBOLS}::test_rates_on_too_few_events_show_a_slash",
    ),
    _m(
        "slash-and-x-swapped",
        "tables/symbols.py",
        "target = found.not_meaningful if n == 0 else found.unreliable",
        "target = found.unreliable if n == 0 else found.not_meaningful",
        'costs of no course show "/" and costs of too few "x": the symbols swapped',
        f"{SYMBOLS}::test_costs_on_too_few_courses_show_a_slash_and_none_an_x",
    ),
    _m(
        "legend-meanings-swapped",
        "tables/symbols.py",
        '    UNKNOWN: "symbols.unknown",\n    UNRELIABLE: "symbols.unreliable",',
        '    UNKNOWN: "symbols.unreliable",\n    UNRELIABLE: "symbols.unknown",',
        'the legend explains "." as "not reliable enough" and "/" as "figure unknown"',
        f"{SYMBOLS}::test_the_legend_beside_the_tables",
    ),
    _m(
        "legend-in-the-other-language",
        "texts/symbol_words.py",
        '"symbols.nothing": ("nichts vorhanden (genau null)", "nil (exactly zero)")',
        '"symbols.nothing": ("nil (exactly zero)", "nichts vorhanden (genau null)")',
        "the German legend explains the dash in English, the English one in German",
        f"{SYMBOLS}::test_the_legend_beside_the_tables",
    ),
    _m(
        "small-cell-note-dropped",
        "tables/__init__.py",
        "    notes += small.notes(lang)\n",
        "    notes += []\n",
        'a table shows "/" without the note that says why',
        f"{SYMBOLS}::test_costs_on_too_few_courses_show_a_slash_and_none_an_x",
    ),
    _m(
        "states-not-in-key-order",
        "tables/__init__.py",
        'key=lambda i: (_is_total(frame.index[i], margins), keys[i] == "", keys[i], i),',
        'key=lambda i: (_is_total(frame.index[i], margins), keys[i] == "", i),',
        "a table by state lists the states as they came, not in the order of their keys",
        f"{CITABLE}::test_states_in_the_order_of_their_keys_with_the_key",
    ),
    _m(
        "germany-total-as-total",
        "tables/__init__.py",
        "    national = set(STATE_KEYS.values()) <= set(keys) if keys else False",
        "    national = False",
        'the total of all 16 states reads "Insgesamt", not "Deutschland"',
        f"{CITABLE}::test_totals_in_every_table_and_germany_for_all_states",
    ),
    _m(
        "total-row-not-set-off",
        "tables/__init__.py",
        "if n >= first_total or n in self.subtotals else",
        "if n > first_total or n in self.subtotals else",
        "the total row of a table on the page is not set off (bold, ruled) from the rows",
        f"{CITABLE}::test_totals_in_every_table_and_germany_for_all_states",
    ),
    _m(
        "table-says-the-wrong-language",
        "tables/__init__.py",
        "<table class='educatalog-table' lang='{self.lang}'>",
        "<table class='educatalog-table' lang='de'>",
        "an English table tells screen readers it is German (WCAG 3.1.2)",
        f"{LANGUAGE}::test_tables_have_headers_in_words_and_formatted_numbers",
    ),
    _m(
        "ranking-rule-less-or-equal",
        "tables/_districts.py",
        "unreliable = ((events > 0) & (events < check_min_cases(min_cases))).to_numpy()",
        "unreliable = ((events > 0) & (events <= check_min_cases(min_cases))).to_numpy()",
        "a district with exactly 3 events is left out of the lists of districts",
        f"{SYMBOLS}::test_a_list_of_districts_leaves_out_the_rates_below_the_rule",
    ),
    _m(
        "ranking-ties-against-key-order",
        "tables/_districts.py",
        "ascending=[fewest, True]",
        "ascending=[fewest, False]",
        "districts of the same rate come in reverse order of their keys",
        f"{DISTRICTS}::test_a_ranking_breaks_ties_by_key_whatever_the_order_of_the_rows",
    ),
    _m(
        "chart-without-alt-metadata",
        "plots/display.py",
        'metadata = {"image/png": {"alt": alt}} if alt else {}',
        "metadata = {}",
        "a chart in a notebook (and the report) has no text alternative on its image",
        "tests/analysis/test_plots.py::test_a_chart_registers_the_display_once",
    ),
    # -- workbook: tables.xlsx, the explorer's Excel file, the data package ------------------
    _m(
        "share-format-without-decimal",
        "tables/workbook.py",
        '"share": "0.0%",',
        '"share": "0%",',
        'shares in the workbook show as "10 %" where the page says "10,4 %"',
        f"{SYMBOLS}::test_the_workbook_keeps_numbers_and_writes_symbols_as_the_page",
    ),
    _m(
        "unknown-as-blank-cell",
        "tables/workbook.py",
        "        return text_cell(sheet, symbols.UNKNOWN)",
        "        return None",
        'an unknown figure is a blank cell in the workbook, "." on the page',
        f"{REVIEW}::test_the_workbook_writes_an_unknown_as_the_page_does",
    ),
    _m(
        "months-as-days",
        "tables/workbook.py",
        "        cell.number_format = MONTH_FORMATS[lang]",
        "        cell.number_format = DATE_FORMATS[lang]",
        'a table by month shows "01.04.2025" where it should show "Apr. 2025"',
        f"{REVIEW}::test_the_workbook_writes_months_as_dates_and_years_as_numbers",
    ),
    _m(
        "legend-line-missing",
        "tables/workbook.py",
        "    rows.extend(symbols.legend(lang))",
        "    rows.extend(symbols.legend(lang)[:-1])",
        'the workbook\'s explanation of symbols leaves out "x"',
        f"{SYMBOLS}::test_the_workbook_keeps_numbers_and_writes_symbols_as_the_page",
    ),
    _m(
        "stand-line-dropped",
        "tables/provenance.py",
        "        if stand:\n            lines.append",
        "        if not stand:\n            lines.append",
        'a sheet no longer says "Stand:", the date of its data',
        f"{LANGUAGE}::test_excel_stands_alone",
    ),
    _m(
        "demo-mark-missing-on-sheet",
        "tables/provenance.py",
        "            heading = f\"{heading} – {texts.text('demo_mark', self.lang)}\"",
        '            heading = f"{heading}"',
        "a sheet (or CSV) of synthetic demo data copied elsewhere no longer says so",
        f"{LANGUAGE}::test_excel_stands_alone",
    ),
    _m(
        "sheet-total-not-bold",
        "tables/workbook.py",
        "if sheet.max_row >= first_total or n in table.subtotals:",
        "if sheet.max_row > first_total or n in table.subtotals:",
        "the total row of a sheet is not bold",
        f"{SYMBOLS}::test_the_workbook_keeps_numbers_and_writes_symbols_as_the_page",
        f"{LANGUAGE}::test_excel_stands_alone",
    ),
    _m(
        "english-workbook-marked-german",
        "tables/workbook.py",
        "    properties.language = LANGUAGE_TAGS[lang]",
        '    properties.language = LANGUAGE_TAGS["de"]',
        "an English workbook says it is German (its language property)",
        f"{LANGUAGE}::test_excel_in_english_has_english_words_only",
    ),
    _m(
        "text-becomes-a-formula",
        "frames/excel.py",
        '    if value.startswith("="):',
        '    if value.startswith("=="):',
        'a label that starts with "=" runs as a formula in Excel',
        f"{LANGUAGE}::test_excel_stands_alone",
    ),
    _m(
        "csv-unknown-as-empty",
        "tables/datapackage.py",
        '        return "" if field_type == "string" else _UNKNOWN',
        '        return ""',
        'an unknown figure in the data package\'s CSV is empty, not "."',
        "tests/product/test_report_pdf.py::test_two_small_tables_make_a_data_package",
    ),
    _m(
        "demo-package-not-marked",
        "tables/datapackage.py",
        '"licenses": [DEMO_LICENCE] if source is not None and source.demo else [],',
        '"licenses": [],',
        "a data package of synthetic demo data no longer says it is synthetic",
        "tests/product/test_report_pdf.py::test_two_small_tables_make_a_data_package",
    ),
    # -- report: the tables publication.py makes and shows -----------------------------------
    _m(
        "trend-table-without-total",
        "publication.py",
        "    frame.loc[stats.MARGINS] = frame.sum()\n",
        "",
        "the report's table of events by state on each snapshot date has no total row",
        f"{REVIEW}::test_the_archives_events_by_state_list_every_state_and_their_total",
    ),
    _m(
        "flows-first-date-as-zero",
        "publication.py",
        '    first = [(frame.index[0], c) for c in ("entered", "exited", "net")]'
        " if len(frame) else []",
        "    first = []",
        'the first snapshot date shows entries and exits (nothing to compare with) instead of "x"',
        f"{REVIEW}::test_flows_mark_what_has_no_meaning_with_x_and_head_listed_as_with_events",
    ),
    _m(
        "lifetimes-censored-and",
        "publication.py",
        'censored = lifetimes["left_censored"] | lifetimes["right_censored"]',
        'censored = lifetimes["left_censored"] & lifetimes["right_censored"]',
        "courses listed on the first or last date count as complete lifetimes",
        f"{REVIEW}::test_lifetimes_keep_complete_ones_apart_from_lower_bounds",
    ),
    _m(
        "legend-missing-under-first-table",
        "publication.py",
        "presented.legend = not self.book",
        "presented.legend = False",
        "the report shows its symbols without the explanation of symbols",
        f"{SYMBOLS}::test_the_legend_beside_the_tables",
    ),
    _m(
        "unfiltered-note-missing",
        "publication.py",
        "                presented.notes.append(note)",
        "                pass",
        "in a filtered report the archive's tables do not say the filters do not apply to them",
        f"{REVIEW}::test_a_filtered_publication_names_its_selection_under_tables_and_charts",
    ),
    _m(
        "selection-missing-under-tables",
        "publication.py",
        "            presented.selection = self.selection",
        "            presented.selection = None",
        "a filtered report's tables do not name the selection they count",
        f"{REVIEW}::test_a_filtered_publication_names_its_selection_under_tables_and_charts",
    ),
    _m(
        "selection-missing-under-charts",
        "publication.py",
        "        for note in [*notes, *([self.selection] if filtered and self.filters else [])]:",
        "        for note in notes:",
        "a filtered report's charts do not name the selection they draw",
        f"{REVIEW}::test_a_filtered_publication_names_its_selection_under_tables_and_charts",
    ),
    _m(
        "scope-names-states-in-german",
        "publication.py",
        '        names = ", ".join(texts.label(s, lang) for s in states)',
        '        names = ", ".join(str(s) for s in states)',
        'the English report\'s selection reads "States: Bayern" instead of "Bavaria"',
        f"{REVIEW}::test_a_filtered_publication_names_its_selection_under_tables_and_charts",
    ),
    _m(
        "small-district-swing-of-the-largest",
        "publication.py",
        "step=texts.rate(per / int(sizes.iloc[small]), lang),",
        "step=texts.rate(per / int(sizes.iloc[large]), lang),",
        "the note on small districts gives the swing of the largest district",
        f"{DISTRICTS}::test_the_notes_say_why_districts_are_unknown_and_that_small_ones_swing",
    ),
    _m(
        "subject-columns-one-too-many",
        "publication.py",
        "kept, rest = set(ranked.index[:top]), list(ranked.index[top:])",
        "kept, rest = set(ranked.index[: top + 1]), list(ranked.index[top + 1 :])",
        "the table by state and subject area shows one area more than it says",
        "tests/analysis/test_subject_report.py::"
        "test_an_event_in_two_areas_counts_in_each_and_once_in_the_total",
    ),
    _m(
        "chart-shares-of-the-wrong-base",
        "publication.py",
        'shares = stats.crosstab(offers, rows, columns, normalize="index", margins=True)',
        'shares = stats.crosstab(offers, rows, columns, normalize="columns", margins=True)',
        "the table under a chart of shares within each state gives shares within each column",
        f"{REVIEW}::test_the_table_of_a_chart_of_shares_within_each_row",
    ),
    _m(
        "demo-scale-without-decimals",
        "publication.py",
        'lang, _decimals(own.get("scale", 1))),',
        "lang, 0),",
        'the report cites the demo catalogue of scale 0.2 as "scale 0"',
        f"{REVIEW}::test_stand_is_the_date_of_the_data_and_created_is_the_build",
    ),
    # -- explorer: the model behind the explorer and the dashboard ---------------------------
    _m(
        "window-without-its-last-month",
        "widgets/_model.py",
        "return (self._months >= low) & (self._months <= high)",
        "return (self._months >= low) & (self._months < high)",
        "a window of start months leaves out the events of its last month",
        f"{MODEL}::test_the_window_of_months",
    ),
    _m(
        "last-row-dropped",
        "widgets/_model.py",
        "            self.table = full.iloc[:-1]",
        "            self.table = full.iloc[:-2]",
        'the explorer\'s table loses its last row (the events with "not stated")',
        f"{MODEL}::test_the_default_view_counts_every_event_by_state",
    ),
    _m(
        "total-row-of-the-last-group",
        "widgets/_model.py",
        "self.totals = {str(k): v for k, v in full.iloc[-1].items()}",
        "self.totals = {str(k): v for k, v in full.iloc[-2].items()}",
        "the explorer's total row repeats its last group",
        f"{MODEL}::test_the_district_table_is_the_statistics_of_the_same_filters",
    ),
    _m(
        "voucher-filter-lost",
        "widgets/_model.py",
        "        if self._voucher is not None and view.voucher:\n"
        "            parts.append(self._voucher)",
        "        if self._voucher is not None and view.voucher:\n            pass",
        '"voucher only" is ticked and said, but every offer is counted',
        f"{MODEL}::test_filter_changes_give_the_numbers",
    ),
    _m(
        "stale-filter",
        "widgets/_model.py",
        "return self.data.masks.get((name, key), compute)",
        "return self.data.masks.get(name, compute)",
        "a filter changed a second time keeps counting its first choice",
        f"{MODEL}::test_filter_changes_give_the_numbers",
    ),
    _m(
        "not-stated-picks-the-first",
        "widgets/_choices.py",
        "                keep[-1] = True",
        "                keep[0] = True",
        'choosing "not stated" in a filter counts the first state instead',
        f"{WIDGETS}::test_state_filter",
    ),
    _m(
        "not-stated-listed-first",
        "widgets/_choices.py",
        "shown.sort(key=lambda o: (o[1] == MISSING_LABEL, locale_key(o[0])))",
        "shown.sort(key=lambda o: (o[1] != MISSING_LABEL, locale_key(o[0])))",
        '"not stated" heads the list of states instead of closing it',
        f"{WIDGETS}::test_state_lists_read_alphabetically_in_each_language",
    ),
    _m(
        "umlauts-sorted-last",
        "widgets/_choices.py",
        '    return unicodedata.normalize("NFKD", text).casefold()',
        "    return text.casefold()",
        "districts with an umlaut (Böblingen) come after all others of their letter",
        f"{WIDGETS}::test_state_lists_read_alphabetically_in_each_language",
        f"{MODEL}::test_the_districts_offered_are_those_of_the_states_chosen",
    ),
    _m(
        "districts-joined-by-commas",
        "widgets/_choices.py",
        '("; " if name == "districts" else ", ")',
        '(", " if name == "districts" else ", ")',
        'the filter line reads "München, Stadt, Leipzig, Stadt": four districts or two?',
        f"{MODEL}::test_the_district_table_is_the_statistics_of_the_same_filters",
    ),
    _m(
        "german-csv-with-decimal-point",
        "widgets/export.py",
        'decimal="," if german else "."',
        'decimal="."',
        "the German CSV has decimal points, which German Excel reads as thousands",
        f"{WIDGETS}::test_german_by_default",
    ),
    _m(
        "csv-shares-as-fractions",
        "widgets/export.py",
        '(frame[column].astype("Float64") * 100).round(2)',
        'frame[column].astype("Float64").round(2)',
        'the CSV\'s share column, headed "(%)", holds 1.0 for 100 %',
        f"{MODEL}::test_the_export_holds_the_table_shown",
    ),
    # -- dashboard: the view in its link, its table, its page --------------------------------
    _m(
        "link-always-names-its-end",
        "widgets/url_state.py",
        "        if high != len(model.months) - 1:",
        "        if high != len(model.months):",
        "a link says end= even where the view runs to the last month",
        f"{URL}::test_a_view_goes_into_a_link_and_comes_back",
    ),
    _m(
        "link-keeps-one-state",
        "widgets/url_state.py",
        "state[key] = [*listed, value] if isinstance(listed, list) else [value]",
        "state[key] = [value]",
        "a link with two states opens with the last one only",
        f"{URL}::test_a_view_goes_into_a_link_and_comes_back",
    ),
    _m(
        "link-voucher-ignored",
        "widgets/url_state.py",
        'choose("voucher", wanted, ["1", "0"]) == "1"',
        'choose("voucher", wanted, ["1", "0"]) == "true"',
        "a link with voucher=1 opens without the voucher filter",
        f"{URL}::test_a_view_goes_into_a_link_and_comes_back",
    ),
    _m(
        "link-months-in-either-order",
        "widgets/url_state.py",
        'fields["window"] = (min(low, high), max(low, high))',
        'fields["window"] = (low, high)',
        "a link whose end comes before its start fails instead of showing the months between",
        f"{URL}::test_what_a_link_gets_wrong_is_said_in_the_readers_words",
    ),
    _m(
        "link-month-outside-at-the-wrong-end",
        "widgets/url_state.py",
        "nearest = 0 if month < months[0] else len(months) - 1",
        "nearest = len(months) - 1 if month < months[0] else 0",
        "a link's start before the data opens at the data's last month",
        f"{URL}::test_what_a_link_gets_wrong_is_said_in_the_readers_words",
    ),
    _m(
        "link-in-the-other-language-refused",
        "widgets/url_state.py",
        "if wanted in (str(option).casefold(), shown.casefold(), other[option].casefold()):",
        "if wanted in (str(option).casefold(), shown.casefold()):",
        "the English page refuses a link a German reader sent (show=Karte)",
        f"{URL}::test_a_district_view_goes_into_a_link_and_comes_back",
    ),
    _m(
        "district-key-not-read",
        "widgets/url_state.py",
        "names = [district_keys().get(value, value) for value in chosen]",
        "names = list(chosen)",
        "a link naming a district by its key (09162) is refused",
        f"{URL}::test_a_district_view_goes_into_a_link_and_comes_back",
    ),
    _m(
        "address-forgets-the-opened-view",
        "widgets/url_sync.py",
        "    bar = AddressBar(query=to_query(explorer.state))",
        '    bar = AddressBar(query="")',
        "a page opened from a link drops the view from its address: a copy shares the plain view",
        f"{URL}::test_the_address_holds_the_view_the_page_opened_with_and_follows_it",
    ),
    _m(
        "table-emptied-to-its-total",
        "widgets/display.py",
        "presented = tables.present(table, lang, title=title, total_row=totals)",
        "presented = tables.present(table.iloc[:0], lang, title=title, total_row=totals)",
        "the dashboard's table shows its total row and no rows",
        f"{WIDGETS}::test_thousands_separators",
    ),
    _m(
        "total-under-the-wrong-columns",
        "widgets/display.py",
        'label = f\'<th scope="row" colspan="{span}">\' if span > 1 else \'<th scope="row">\'',
        "label = '<th scope=\"row\">'",
        "in a table by state every total stands one column left of its column",
        f"{WIDGETS}::test_the_total_row_stands_under_its_columns",
    ),
    _m(
        "demo-mark-on-the-wrong-data",
        "widgets/display.py",
        "    if source is not None and source.demo:\n        mark",
        "    if source is not None and not source.demo:\n        mark",
        "the status line of synthetic demo data no longer says so",
        f"{WIDGETS}::test_demo_mark_and_status",
    ),
    _m(
        "failed-link-not-said",
        "cli/dashboard.py",
        '    if not problems:\n        return ""',
        '    if problems:\n        return ""',
        "a dashboard opened from a broken link shows the plain view without saying why",
        f"{URL}::test_a_view_the_explorer_fails_on_opens_the_plain_view_and_says_why",
    ),
)
"""Every mutant, by group; ``name`` is unique."""


@dataclass
class Result:
    mutant: Mutant
    outcome: str  # "killed", "survived" or "error"
    seconds: float
    detail: str = ""


def selected(only: Sequence[str]) -> list[Mutant]:
    """The mutants of the groups or modules named in ``only`` (all for none)."""
    if not only:
        return list(MUTANTS)
    known = set(GROUPS) | {m for modules in GROUPS.values() for m in modules}
    unknown = [o for o in only if o not in known]
    if unknown:
        raise SystemExit(f"--only: no group or module {unknown}; choose of {sorted(known)}")
    return [m for m in MUTANTS if m.group in only or m.module in only]


def check(mutants: Iterable[Mutant]) -> list[str]:
    """What is wrong with the list: a snippet not exactly once in its module, a mutation
    that changes nothing, a name twice, a mutant without tests or of no group."""
    problems = []
    names: set[str] = set()
    for mutant in mutants:
        if mutant.name in names:
            problems.append(f"{mutant.name}: the name is used twice")
        names.add(mutant.name)
        if not any(mutant.module in modules for modules in GROUPS.values()):
            problems.append(f"{mutant.name}: {mutant.module} is in no group")
            continue
        if not mutant.path.is_file():
            problems.append(f"{mutant.name}: no module {mutant.module}")
            continue
        found = mutant.path.read_text(encoding="utf-8").count(mutant.original)
        if found != 1:
            problems.append(
                f"{mutant.name}: its snippet occurs {found} times in {mutant.module}, not once"
            )
        if mutant.original == mutant.mutated:
            problems.append(f"{mutant.name}: the mutation changes nothing")
        if not mutant.tests:
            problems.append(f"{mutant.name}: no tests to run")
    return problems


def copy_sources(folder: Path) -> Path:
    """``src/`` (with its compiled files, still valid for unchanged modules) and
    ``notebooks/`` copied into ``folder``; returns the copy's ``src``."""
    shutil.copytree(ROOT / "src", folder / "src", ignore=shutil.ignore_patterns("*.egg-info"))
    shutil.copytree(ROOT / "notebooks", folder / "notebooks")
    return folder / "src"


def pytest_command(tests: Sequence[str]) -> list[str]:
    plugins = [arg for name in PLUGINS_OFF for arg in ("-p", f"no:{name}")]
    return [sys.executable, "-m", "pytest", "-q", "-x", "--no-header", *plugins, *tests]


def run_tests(src: Path, tests: Sequence[str], timeout: float) -> tuple[int | None, str]:
    """pytest's exit status (None on a timeout) and its output's tail, with the package
    imported from ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    try:
        done = subprocess.run(
            pytest_command(tests),
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None, f"no answer within {timeout:.0f} s"
    tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
    return done.returncode, tail


def run_mutant(mutant: Mutant, scratch: Path, timeout: float) -> Result:
    """Apply ``mutant`` to a copy of the sources and run its tests."""
    started = time.monotonic()
    folder = Path(tempfile.mkdtemp(prefix=f"{mutant.name}-", dir=scratch))
    try:
        src = copy_sources(folder)
        target = src / "educatalog" / mutant.module
        text = target.read_text(encoding="utf-8")
        if text.count(mutant.original) != 1:
            return Result(mutant, "error", 0.0, "the snippet does not occur exactly once")
        target.write_text(text.replace(mutant.original, mutant.mutated), encoding="utf-8")
        status, tail = run_tests(src, mutant.tests, timeout)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    seconds = time.monotonic() - started
    if status == 1:
        return Result(mutant, "killed", seconds)
    if status == 0:
        return Result(mutant, "survived", seconds)
    return Result(mutant, "error", seconds, f"pytest exit status {status}:\n{tail}")


def baseline(mutants: Sequence[Mutant], scratch: Path, timeout: float, jobs: int) -> str | None:
    """Run every test the mutants name against an unchanged copy (``jobs`` processes, each
    with whole test modules): None when they pass and the copy is what they imported, else
    what went wrong."""
    folder = Path(tempfile.mkdtemp(prefix="baseline-", dir=scratch))
    try:
        src = copy_sources(folder)
        probe = subprocess.run(
            [sys.executable, "-c", "import educatalog; print(educatalog.__file__)"],
            env={**os.environ, "PYTHONPATH": str(src)},
            capture_output=True,
            text=True,
            check=False,
        )
        if not probe.stdout.strip().startswith(str(src)):
            return f"the copy is not what Python imports: {probe.stdout.strip()}"
        tests = list(dict.fromkeys(t for m in mutants for t in m.tests))
        modules = list(dict.fromkeys(t.partition("::")[0] for t in tests))
        parts = [
            [t for t in tests if modules.index(t.partition("::")[0]) % jobs == n]
            for n in range(jobs)
        ]
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            runs = list(
                pool.map(lambda part: run_tests(src, part, timeout * 3), filter(None, parts))
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    failed = [f"pytest exit status {status}:\n{tail}" for status, tail in runs if status != 0]
    return "\n".join(failed) or None


def summary(results: Sequence[Result], min_killed: float) -> tuple[list[str], bool]:
    """The lines of the table and the summary, and whether the run passes: no error, and
    at least ``min_killed`` percent killed in each group and of all."""
    lines = [f"{'group':<10} {'module':<22} {'mutant':<38} {'result':<9} seconds"]
    for r in results:
        m = r.mutant
        lines.append(f"{m.group:<10} {m.module:<22} {m.name:<38} {r.outcome:<9} {r.seconds:7.1f}")
    lines.append("")
    passed = True
    groups = [g for g in GROUPS if any(r.mutant.group == g for r in results)]
    for group in [*groups, "all"]:
        rows = [r for r in results if group in ("all", r.mutant.group)]
        killed = sum(r.outcome == "killed" for r in rows)
        errors = sum(r.outcome == "error" for r in rows)
        share = 100 * killed / len(rows)
        line = f"{group:<10} {killed:>3} of {len(rows):>3} killed ({share:5.1f} %)"
        if errors:
            line += f", {errors} errors"
        if share < min_killed:
            line += f"  <- below {min_killed:g} %"
        passed = passed and not errors and share >= min_killed
        lines.append(line)
    return lines, passed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[], metavar="MODULE",
                        help="a group (display, explorer, report, workbook, dashboard) or a "
                        "module under src/educatalog (tables/symbols.py); repeatable")  # fmt: skip
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--jobs", type=int, choices=(1, 2), default=2,
                        help="mutants run at once (default 2)")  # fmt: skip
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds a mutant's tests may take (default 600)")  # fmt: skip
    parser.add_argument("--min-killed", type=float, default=90,
                        help="percent of each group's mutants to kill (default 90)")  # fmt: skip
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the run of the tests against the unchanged sources")  # fmt: skip
    args = parser.parse_args(argv)
    mutants = selected(args.only)
    problems = check(mutants)
    if args.list:
        for m in mutants:
            print(f"{m.group}/{m.name} ({m.module}): {m.breaks}")
            for test in m.tests:
                print(f"    {test}")
        print(f"{len(mutants)} mutants")
    if problems:
        print("\n".join(["The list of mutants is out of date:", *problems]), file=sys.stderr)
        return 2
    if args.list:
        return 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="educatalog-mutants-") as temporary:
        scratch = Path(temporary)
        if not args.no_baseline:
            print(f"Baseline: the tests of {len(mutants)} mutants on the unchanged sources ...")
            failed = baseline(mutants, scratch, args.timeout, args.jobs)
            if failed:
                print(f"The tests fail without any mutant:\n{failed}", file=sys.stderr)
                return 2
            print(f"... passed in {(time.monotonic() - started) / 60:.1f} minutes")
        print(f"{len(mutants)} mutants, {args.jobs} at a time ...", flush=True)

        def one(mutant: Mutant) -> Result:
            result = run_mutant(mutant, scratch, args.timeout)
            print(f"  {result.outcome:<9} {mutant.group}/{mutant.name}", flush=True)
            return result

        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(one, mutants))
    lines, passed = summary(results, args.min_killed)
    print("\n".join(["", *lines]))
    for r in results:
        if r.outcome == "error":
            print(f"\n{r.mutant.name}: {r.detail}", file=sys.stderr)
    minutes = (time.monotonic() - started) / 60
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (used.ru_utime + used.ru_stime) / 60
    print(f"\n{minutes:.1f} minutes, {cpu:.1f} CPU-minutes ({args.jobs} at a time)")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
