"""Supply by district: the offers frame's districts, the district tables and rates, the
quality counts and the archive's districts, checked against a count in plain Python from raw
HTTP rows of the reference server and the shipped CSVs (csv module), never the toolkit's own
district code."""

from __future__ import annotations

import csv
from collections import Counter, defaultdict
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from educatalog import population, stats
from educatalog.errors import EducatalogError, UsageError
from educatalog.frames.offers import OFFER_COLUMNS
from raw_rows import raw_rows

DATA = resources.files("educatalog").joinpath("data", "districts")
ISO_KEYS = {
    f"DE-{c}": f"{k:02d}"
    for k, c in enumerate(
        [
            "SH",
            "HH",
            "NI",
            "HB",
            "NW",
            "HE",
            "RP",
            "BW",
            "BY",
            "SL",
            "BE",
            "BB",
            "MV",
            "SN",
            "ST",
            "TH",
        ],
        start=1,
    )
}


@pytest.fixture(scope="module")
def raw(catalogue_database: Path) -> Iterator[dict[str, list[dict[str, Any]]]]:
    """The rows of events, addresses and states as the service sends them."""
    from educatalog.testing import serve

    with serve(database=catalogue_database, token="district-token") as server:
        fields = {
            "events": "id,address,course,institution",
            "addresses": "id,zip,city,state",
            "states": "id,name,code",
        }
        yield raw_rows(server.url, server.token, fields)


def _csv(name: str) -> list[dict[str, str]]:
    with DATA.joinpath(name).open(encoding="utf-8") as file:
        return list(csv.DictReader(file))


@pytest.fixture(scope="module")
def by_hand(raw: dict[str, list[dict[str, Any]]]) -> dict[int, tuple[str | None, str | None]]:
    """Each event's district key (or None) and why not, by the rule of docs/definitions.md
    applied in plain Python."""
    by_pair: dict[tuple[str, str], set[str]] = defaultdict(set)
    for row in _csv("plz_place_district.csv"):
        by_pair[(row["plz"], " ".join(row["place"].split()).casefold())].add(row["ags"])
    by_code: dict[str, set[str]] = defaultdict(set)
    for row in _csv("plz_district.csv"):
        by_code[row["plz"]].add(row["ags"])
    states = {s["id"]: s["code"] for s in raw["states"]}
    addresses = {a["id"]: a for a in raw["addresses"]}
    out: dict[int, tuple[str | None, str | None]] = {}
    for event in raw["events"]:
        address = addresses.get(event["address"]) or {}
        code = (address.get("zip") or "").strip()
        place = " ".join((address.get("city") or "").split()).casefold()
        state_key = ISO_KEYS.get(states.get(address.get("state"), ""))
        if not code:
            out[event["id"]] = (None, "no postal code")
            continue
        if code not in by_code:
            out[event["id"]] = (None, "postal code not in the table")
            continue
        keys = by_pair.get((code, place), by_code[code])
        if len(keys) != 1:
            out[event["id"]] = (None, "postal code and place name several districts")
            continue
        (key,) = keys
        if state_key is not None and key[:2] != state_key:
            out[event["id"]] = (None, "district in another state")
            continue
        out[event["id"]] = (key, None)
    return out


@pytest.fixture(scope="module")
def inhabitants() -> dict[str, int]:
    return {r["ags"]: int(r["population"]) for r in _csv("district_population_2024.csv")}


def test_every_event_has_the_district_the_rule_gives(
    offers: pd.DataFrame, by_hand: dict[int, tuple[str | None, str | None]]
) -> None:
    got = {
        int(e): (None if pd.isna(k) else str(k), None if pd.isna(p) else str(p))
        for e, k, p in zip(
            offers["event_id"], offers["district_key"], offers["district_problem"], strict=True
        )
    }
    assert got == by_hand
    assert tuple(offers.columns) == OFFER_COLUMNS
    assert str(offers["district_key"].dtype) == "string"
    assert len(offers["district"].cat.categories) == 400


def test_events_per_district_and_their_rates_equal_a_plain_count(
    offers: pd.DataFrame,
    raw: dict[str, list[dict[str, Any]]],
    by_hand: dict[int, tuple[str | None, str | None]],
    inhabitants: dict[str, int],
) -> None:
    events = Counter(key for key, _ in by_hand.values() if key is not None)
    course_of = {e["id"]: e["course"] for e in raw["events"]}
    courses: dict[str, set[Any]] = defaultdict(set)
    for event, (key, _) in by_hand.items():
        if key is not None:
            courses[key].add(course_of[event])
    table = stats.per_capita(offers, by="district_key", margins=True)
    assert list(table.index[:-1]) == sorted(inhabitants)  # all 400, in key order
    for key, row in table.iloc[:-1].iterrows():
        assert row["events"] == events.get(str(key), 0), key
        assert row["courses"] == len(courses.get(str(key), ())), key
        assert row["population"] == inhabitants[str(key)]
        assert row["events_per_100k"] == pytest.approx(
            events.get(str(key), 0) * 100_000 / inhabitants[str(key)]
        )
    total = table.iloc[-1]
    assert total["events"] == sum(events.values())
    assert total["population"] == sum(inhabitants.values()) == population.TOTAL
    without = sum(1 for key, _ in by_hand.values() if key is None)
    assert table.attrs["without_district"] == without
    by_name = stats.per_capita(offers, by="district")
    assert by_name["events"].tolist() == table["events"].iloc[:-1].tolist()


def test_districts_grouped_under_their_states_with_subtotals(
    offers: pd.DataFrame,
    by_hand: dict[int, tuple[str | None, str | None]],
    inhabitants: dict[str, int],
) -> None:
    table = stats.per_capita(offers, by="district", subtotals=True, margins=True)
    state_of_key = {k: population.STATES.set_index("key")["state"][k[:2]] for k in inhabitants}
    per_state = Counter(state_of_key[k] for k, _ in by_hand.values() if k is not None)
    people = Counter()
    for key, n in inhabitants.items():
        people[state_of_key[key]] += n
    subtotals = table[table.index.get_level_values("district") == stats.MARGINS]
    assert len(subtotals) == 17  # 16 states and Germany
    for (state, _), row in subtotals.iloc[:-1].iterrows():
        assert row["events"] == per_state[state], state
        assert (
            row["population"]
            == people[state]
            == population.STATE_POPULATION.set_index("state").loc[state, "population"]
        )
    states = list(dict.fromkeys(table.index.get_level_values("state")))
    assert states == [*population.STATES["state"], stats.MARGINS]
    assert len(table) == 400 + 16 + 1
    assert table.iloc[-1]["events"] == sum(per_state.values())


def test_a_state_selection_lists_its_districts_only(offers: pd.DataFrame) -> None:
    chosen = stats.select(offers, state="Bremen")
    assert list(chosen["district"].cat.categories) == ["Bremen", "Bremerhaven"]
    assert list(stats.supply(chosen, "district_key").index) == ["04011", "04012"]
    table = stats.per_capita(chosen, by="district", subtotals=True, margins=True)
    assert list(table.index) == [
        ("Bremen", "Bremen"),
        ("Bremen", "Bremerhaven"),
        ("Bremen", stats.MARGINS),
        (stats.MARGINS, stats.MARGINS),
    ]
    assert table.iloc[-1]["population"] == 586_271 + 118_610


def test_districts_are_dimensions_of_every_statistic(offers: pd.DataFrame) -> None:
    assert "district" in stats.dimensions(offers)
    wide = stats.crosstab(offers, "district", "instruction_form_category", margins=True)
    assert wide.iloc[:-1, :-1].to_numpy().sum() == wide.iloc[-1, -1] == len(offers)
    assert len(stats.capacity(offers, "district")) == 401  # 400 and "no district"
    assert len(stats.share(offers, "education_voucher", by="district_key")) == 401
    costs = stats.costs(offers, by="district")
    assert set(costs.index.get_level_values("district").dropna()) <= set(
        offers["district"].cat.categories
    )


def test_quality_counts_why_events_have_no_district(
    offers: pd.DataFrame, by_hand: dict[int, tuple[str | None, str | None]]
) -> None:
    reasons = Counter(why for _, why in by_hand.values() if why is not None)
    table = stats.quality(offers)
    assert table.loc["events_without_district", "count"] == sum(reasons.values())
    for check, why in (
        ("district_no_postal_code", "no postal code"),
        ("district_unknown_postal_code", "postal code not in the table"),
        ("district_ambiguous", "postal code and place name several districts"),
        ("district_other_state", "district in another state"),
    ):
        assert table.loc[check, "count"] == reasons.get(why, 0), check
    some = str(offers["district"].dropna().iloc[0])
    chosen = stats.quality(stats.select(offers, district=some))
    assert pd.isna(chosen.loc["events_without_district", "count"])


def test_per_capita_names_its_region_or_fails_clearly(offers: pd.DataFrame) -> None:
    with pytest.raises(UsageError, match="one dimension with inhabitants"):
        stats.per_capita(offers, by="instruction_form")
    with pytest.raises(UsageError, match="one dimension with inhabitants"):
        stats.per_capita(offers, by=["state", "district"])
    with pytest.raises(UsageError, match="subtotals=True"):
        stats.per_capita(offers, by="state", subtotals=True)
    mixed = stats.per_capita(offers, by=["state", "instruction_form_category"], margins=True)
    row = mixed.loc[("Bayern", "Digital")]
    assert row["population"] == population.STATE_POPULATION.loc["DE-BY", "population"]


def test_a_population_file_of_districts_serves_districts_and_states(
    offers: pd.DataFrame, tmp_path: Path, inhabitants: dict[str, int]
) -> None:
    path = tmp_path / "kreise.csv"
    doubled = {k: 2 * n for k, n in inhabitants.items()}
    path.write_text(
        "district_key;population;date\n"
        + "".join(f"{k};{n};2025-06-30\n" for k, n in doubled.items()),
        encoding="utf-8",
    )
    districts = stats.per_capita(offers, by="district_key", population=path)
    assert districts.loc["09162", "population"] == doubled["09162"]
    states = stats.per_capita(offers, population=path)
    assert states.loc["Bremen", "population"] == doubled["04011"] + doubled["04012"]
    origin = states.attrs["educatalog"]["population"]
    assert origin["date"] == "2025-06-30"
    assert population.read_population(path, level="district")["population"].sum() == sum(
        doubled.values()
    )
    partial = tmp_path / "partial.csv"
    partial.write_text("ags,population\n04011,500000\n", encoding="utf-8")
    with pytest.raises(EducatalogError, match=r"not Flensburg \(01001\) .* nor 398 more"):
        population.read_population(partial)
    assert (
        stats.per_capita(offers, by="district_key", population=partial).loc["04012", "population"]
        is pd.NA
    )
    wrong = tmp_path / "wrong.csv"
    wrong.write_text("ags,population\n99999,5\n", encoding="utf-8")
    with pytest.raises(EducatalogError, match="99999"):
        population.read_population(wrong, level="district")
    states_only = tmp_path / "states.csv"
    states_only.write_text("state,population\nBayern,1\n", encoding="utf-8")
    with pytest.raises(EducatalogError, match="lists states"):
        population.read_population(states_only, level="district")


def test_the_shipped_district_figures_add_up_to_the_states() -> None:
    districts = population.district_population()
    assert len(districts) == 400
    sums = districts.groupby("state_key")["population"].sum()
    states = population.STATE_POPULATION.set_index("key")["population"]
    assert sums.to_dict() == states.to_dict()
    assert districts.attrs["date"].isoformat() == "2024-12-31"
    assert "12411-01-01-4" in districts.attrs["source"]
    assert population.table_for("2025-05-01", level="district").equals(districts)
