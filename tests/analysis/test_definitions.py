"""docs/definitions.md ("How the numbers are defined"), the README and the loading page of the
user guide against the code:
every name the tables use is defined, the duration-class thresholds are the code's, the
link tables listed are the ones a catalogue holds."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pandas as pd
import pytest
from test_stats import gappy_catalogue

from educatalog import accessor, stats
from educatalog.demodata.reference_data import DURATIONS
from educatalog.frames import offers
from educatalog.frames.catalogue import LINK_TABLES, Catalogue
from educatalog.frames.typed import DATETIME_DTYPE

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / stats.DEFINITIONS
README = ROOT / "README.md"
LOADING = ROOT / "docs" / "user-guide" / "loading.md"


@pytest.fixture(scope="module")
def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def test_the_page_exists_and_the_readme_links_to_it(page: str) -> None:
    assert page.startswith("# How the numbers are defined")
    assert "](docs/definitions.md)" in README.read_text(encoding="utf-8")


def test_every_column_measure_dimension_and_check_is_defined(page: str) -> None:
    frame = gappy_catalogue().offers()
    names: set[str] = set(stats.MEASURES) | set(stats.DERIVED_DIMENSIONS)
    names |= set(stats.UNKNOWN_CHOICES) | set(stats.dimensions(frame))
    tables = [
        stats.supply(frame, ["state", "month"], normalize="index"),
        stats.capacity(frame),
        stats.per_capita(frame),
        stats.costs(frame),
        stats.quality(frame),
        stats.share(frame, "education_voucher", unknown="separate"),
    ]
    for table in tables:
        names |= {str(c) for c in table.columns}
    names |= set(stats.quality(frame).index) | {"courses_without_events"}
    names |= {"funding_type", "funding_level"}
    code = " ".join(re.findall(r"`([^`]+)`", page))  # what the page writes as code
    undefined = sorted(n for n in names if not re.search(rf"(?<!\w){re.escape(n)}(?!\w)", code))
    assert [n for n in undefined if n not in ("events_per_100k", "description")] == []
    assert "`events_per_<n>`" in page
    assert f"`{DATETIME_DTYPE}`" in page.replace("**", "")


def _duration_rows(page: str) -> list[list[str]]:
    section = page.split("## Duration classes", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if re.match(r"\|\s*-?\d+:?\s*\|", line)]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]


def test_the_duration_thresholds_are_the_codes(page: str) -> None:
    rows = _duration_rows(page)
    assert [(int(r[0]), r[1]) for r in rows] == sorted(DURATIONS, key=lambda p: (p[0] == 0, p[0]))
    units = {"days": "days", "day": "days", "week": "weeks", "month": "months", "months": "months"}
    units |= {"year": "years", "years": "years", "weeks": "weeks"}
    calendar = []
    for row in rows[:8]:
        amount, unit = row[2].split()
        calendar.append(pd.DateOffset(**{units[unit]: int(amount)}))
    assert calendar == list(offers.DURATION_CLASS_LIMITS)
    assert [int(r[3]) for r in rows[:8]] == list(offers.DURATION_CLASS_DAY_LIMITS)


def test_the_stated_duration_units_are_the_codes(page: str) -> None:
    assert offers.UNIT_DAYS == {"calendar_days": 1.0, "week_days": 7 / 5, "hours": 7 / 40}
    for unit in offers.UNIT_DAYS:
        assert f"`{unit}`" in page
    assert "× 7/5" in page
    assert "× 7/40" in page


def test_the_docstrings_link_to_the_page() -> None:
    for function in (
        stats.supply,
        stats.crosstab,
        stats.per_capita,
        stats.capacity,
        stats.costs,
        stats.share,
    ):
        assert stats.DEFINITIONS in (inspect.getdoc(function) or ""), function.__name__
    for module in (stats, offers, accessor):
        assert stats.DEFINITIONS in (module.__doc__ or ""), module.__name__


def test_the_docs_list_every_link_table_with_its_columns(demo_catalogue: Catalogue) -> None:
    text = LOADING.read_text(encoding="utf-8")
    listed = {}
    for line in text.splitlines():
        match = re.match(r"\| `(\w+)` \| `(\w+)`, `(\w+)` \|", line)
        if match and match.group(1) in LINK_TABLES:
            listed[match.group(1)] = [match.group(2), match.group(3)]
    assert set(listed) == set(LINK_TABLES)
    for name, columns in listed.items():
        assert list(demo_catalogue[name].columns) == columns, name
        assert all(str(t) == "Int64" for t in demo_catalogue[name].dtypes)
