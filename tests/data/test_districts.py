"""The district of an address (educatalog.frames.districts): every case of the rule on
hand-made addresses, worked out by hand from the shipped CSVs, and the rule checked in plain
Python (csv module) on every (postal code, place) pair of the table."""

from __future__ import annotations

import csv
import random
from collections import defaultdict
from importlib import resources

import pandas as pd
import pytest

from educatalog.errors import UsageError
from educatalog.frames.districts import (
    AMBIGUOUS,
    NO_POSTAL_CODE,
    OTHER_STATE,
    UNKNOWN_POSTAL_CODE,
    assign_districts,
    district_table,
)

DATA = resources.files("educatalog").joinpath("data", "districts")

CASES = [
    # postal code, city, state key -> district key, problem
    ("99817", "Eisenach", "16", "16063", None),  # Eisenach is in the Wartburgkreis since 2021
    ("80331", "München", "09", "09162", None),  # code and place
    (" 80331 ", "  MÜNCHEN ", "09", "09162", None),  # case and white space do not matter
    ("06333", "Hettstedt", "15", "15087", None),  # a code in two districts: the place decides
    ("06333", "Falkenstein/Harz", "15", "15085", None),
    ("06333", "Nowhere", "15", None, AMBIGUOUS),  # ... and a place that decides nothing
    ("06333", None, "15", None, AMBIGUOUS),
    ("22929", "Hamfelde", "01", None, AMBIGUOUS),  # one of the two pairs naming two districts
    ("80331", "Not München", "09", "09162", None),  # one district: the code alone decides
    ("07919", "Pausa-Mühltroff", "16", None, OTHER_STATE),  # across Saxony and Thuringia
    ("07919", "Pausa-Mühltroff", "14", "14523", None),
    ("07919", "Pausa-Mühltroff", None, "14523", None),  # no state given: nothing to check
    ("00000", "Irgendwo", "01", None, UNKNOWN_POSTAL_CODE),
    ("8033", "München", "09", None, UNKNOWN_POSTAL_CODE),  # malformed
    ("", "München", "09", None, NO_POSTAL_CODE),
    (None, "München", "09", None, NO_POSTAL_CODE),
]


def test_every_case_of_the_rule() -> None:
    codes, cities, states, keys, problems = zip(*CASES, strict=True)
    index = pd.Index([f"a{i}" for i in range(len(CASES))])
    found = assign_districts(
        pd.Series(codes, index=index, dtype="string"),
        pd.Series(cities, index=index, dtype="string"),
        pd.Series(states, index=index, dtype="string"),
    )
    assert list(found.index) == list(index)
    assert [None if pd.isna(k) else k for k in found["district_key"]] == list(keys)
    assert [None if pd.isna(p) else p for p in found["district_problem"]] == list(problems)
    names = {"16063": "Wartburgkreis", "09162": "München, Stadt", "15087": "Mansfeld-Südharz"}
    for key, name in zip(found["district_key"], found["district"], strict=True):
        if not pd.isna(key) and key in names:
            assert name == names[key]
        assert pd.isna(key) == pd.isna(name)


def test_the_columns_have_their_dtypes_and_every_district_its_category() -> None:
    found = assign_districts(pd.Series(["99817"]), pd.Series(["Eisenach"]))
    assert str(found["district_key"].dtype) == "string"
    assert list(found["district"].cat.categories) == list(district_table()["district"])
    assert list(found["district_problem"].cat.categories) == [
        NO_POSTAL_CODE,
        UNKNOWN_POSTAL_CODE,
        AMBIGUOUS,
        OTHER_STATE,
    ]


def test_the_400_districts_in_key_order_with_unique_names() -> None:
    table = district_table()
    assert len(table) == 400
    assert list(table.index) == sorted(table.index)
    assert table["district"].is_unique
    assert table.loc["09184", "district"] == "München, Landkreis"
    assert table.loc["16063", "district"] == "Wartburgkreis"
    assert set(table["state_key"]) == {f"{k:02d}" for k in range(1, 17)}


def _plain_rule() -> tuple[dict[tuple[str, str], set[str]], dict[str, set[str]]]:
    by_pair: dict[tuple[str, str], set[str]] = defaultdict(set)
    with DATA.joinpath("plz_place_district.csv").open(encoding="utf-8") as file:
        for row in csv.DictReader(file):
            by_pair[(row["plz"], " ".join(row["place"].split()).casefold())].add(row["ags"])
    by_code: dict[str, set[str]] = defaultdict(set)
    with DATA.joinpath("plz_district.csv").open(encoding="utf-8") as file:
        for row in csv.DictReader(file):
            by_code[row["plz"]].add(row["ags"])
    return by_pair, by_code


def test_the_rule_in_plain_python_agrees_on_every_pair_of_the_table() -> None:
    """Every (postal code, place) pair of the shipped table, and each code with a place it
    does not know, as a reader would apply the rule by hand."""
    by_pair, by_code = _plain_rule()
    rng = random.Random(0)
    addresses = [(code, place) for code, place in by_pair]
    addresses += [(code, f"Ort {rng.randrange(10**6)}") for code in by_code]
    expected = []
    for code, place in addresses:
        keys = by_pair.get((code, place.casefold()))
        if keys is None:
            keys = by_code.get(code, set())
        expected.append(next(iter(keys)) if len(keys) == 1 else None)
    found = assign_districts(
        pd.Series([a[0] for a in addresses]), pd.Series([a[1] for a in addresses])
    )
    got = [None if pd.isna(k) else k for k in found["district_key"]]
    assert got == expected
    assert sum(k is None for k in expected) < len(addresses) * 0.02  # the table finds 98 %+


def test_indexes_that_differ_are_refused() -> None:
    with pytest.raises(UsageError, match="one index"):
        assign_districts(pd.Series(["80331"]), pd.Series(["München"], index=[5]))
