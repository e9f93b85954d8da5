"""The demo's addresses in the 400 districts: every district reached at scale 1, offers in
proportion to population and denser in cities, and the faults real addresses have, each
found by the rule that assigns districts (``educatalog.frames.districts``)."""

from __future__ import annotations

import pandas as pd
import pytest
from demo_addresses import Rows, addresses_of, district_file, events_of, faults_of

from educatalog import demodata
from educatalog.demodata import places as demo_places
from educatalog.frames.districts import UNKNOWN_POSTAL_CODE, assign_districts, district_table
from educatalog.population import STATE_KEYS


@pytest.fixture(scope="module")
def demo() -> Rows:
    return demodata.collect(seed=0, scale=1.0)


@pytest.fixture(scope="module")
def addresses(demo: Rows) -> pd.DataFrame:
    return addresses_of(demo)


@pytest.fixture(scope="module")
def districts(demo: Rows, addresses: pd.DataFrame) -> pd.DataFrame:
    """The 400 districts with their population, kind and the demo's events in each."""
    table = district_table()
    population = district_file("district_population_2024.csv").set_index("ags")["population"]
    table["population"] = population.astype(int)
    table["city"] = table["kind"].isin(["Kreisfreie Stadt", "Stadtkreis"])
    counts = events_of(demo, addresses)["district_key"].value_counts()
    table["events"] = counts.reindex(table.index, fill_value=0)
    return table


# ---------------------------------------------------------------------------------------
# Every district


def test_the_addresses_reach_every_district(addresses: pd.DataFrame) -> None:
    assert set(addresses["district_key"].dropna()) == set(district_table().index)


def test_the_events_reach_every_district(districts: pd.DataFrame) -> None:
    assert len(districts) == 400
    assert (districts["events"] >= 1).all(), list(districts.index[districts["events"] == 0])


def test_the_districts_are_reached_from_scale_051_on() -> None:
    """Institutions 0 and 150 (the first two nationwide providers) cover the districts."""
    assert addresses_of(demodata.collect(seed=3, scale=0.51))["district_key"].nunique() == 400


def test_few_events_have_no_district(demo: Rows, addresses: pd.DataFrame) -> None:
    events = events_of(demo, addresses)
    assert events["district_key"].isna().mean() < 0.02  # events without an address included
    addressed = events[events["address"].notna()]
    assert 0 < addressed["district_key"].isna().mean() < 0.015


# ---------------------------------------------------------------------------------------
# In proportion to population, denser in cities


def _spearman(a: pd.Series, b: pd.Series) -> float:
    return float(a.rank().corr(b.rank()))


def test_events_follow_population(districts: pd.DataFrame) -> None:
    """Events per district rise with population, in Germany (about 0.5 at scale 1, where a
    district's count rests on a few institutions; 0.7 at scale 5) and within each state
    (the state's share is drawn first: districts drawn alike within it give about 0.1)."""
    overall = _spearman(districts["events"], districts["population"])
    state = districts["state_key"]
    within = _spearman(
        districts.groupby(state)["events"].rank(pct=True),
        districts.groupby(state)["population"].rank(pct=True),
    )
    assert (overall > 0.4, within > 0.22) == (True, True), (overall, within)


def test_cities_have_more_events_for_their_population(districts: pd.DataFrame) -> None:
    """Kreisfreie Städte have more events per inhabitant than the Landkreise (pooled: a
    district's count rests on a few institutions at scale 1), and the districts with the
    most events are cities."""
    pooled = districts.groupby("city")[["events", "population"]].sum()
    rate = pooled["events"] / pooled["population"]
    assert rate[True] > 1.25 * rate[False], rate
    assert districts.nlargest(10, "events")["city"].mean() >= 0.7


def test_some_districts_have_very_few_events(districts: pd.DataFrame) -> None:
    events = districts["events"]
    assert (events <= 3).sum() >= 40
    assert events.max() >= 50 * events.min()


# ---------------------------------------------------------------------------------------
# Real places, and the faults real addresses have


def test_clean_addresses_are_real_places_of_their_state(addresses: pd.DataFrame) -> None:
    """An address without a fault is a (postal code, place) pair of the table, whose
    district lies in the address's state."""
    clean = addresses[addresses["district_problem"].isna() & addresses["pair_in_table"]]
    assert len(clean) >= 0.98 * len(addresses)
    with_state = clean[clean["state_key"].notna()]
    assert (with_state["district_key"].str[:2] == with_state["state_key"]).all()


def test_each_fault_is_there_a_few_times(addresses: pd.DataFrame) -> None:
    faults = faults_of(addresses)
    assert all(1 <= n <= 12 for n in faults.values()), faults
    unknown = addresses.loc[addresses["district_problem"] == UNKNOWN_POSTAL_CODE, "zip"]
    assert not unknown.isin(set(district_file("plz_district.csv")["plz"])).any()


@pytest.mark.parametrize("seed", [0, 7])
def test_every_fault_at_small_scale(seed: int) -> None:
    """Institution 0 carries each fault, so even the smallest demo has them."""
    faults = faults_of(addresses_of(demodata.collect(seed=seed, scale=0.05)))
    assert all(faults.values()), faults


# ---------------------------------------------------------------------------------------
# The places the generator draws from


def test_the_places_are_those_of_the_district_tables() -> None:
    places = demo_places.places()
    table = district_table()
    assert [d.key for d in places.districts] == list(table.index)
    cities = table["kind"].isin(["Kreisfreie Stadt", "Stadtkreis"])
    assert [d.city for d in places.districts] == cities.tolist()
    assert sum(d.city for d in places.districts) == 106
    rows = [(c, n, d.key) for d in places.districts for c, n in zip(d.codes, d.names, strict=True)]
    codes, names, keys = (pd.Series(column, dtype="string") for column in zip(*rows, strict=True))
    found = assign_districts(codes, names)
    assert (found["district_key"] == keys).all()  # each pair finds its own district
    assert len(rows) == len(district_file("plz_place_district.csv")) - 4  # 2 pairs name 2


def test_the_pairs_table_has_the_codes_of_the_code_table() -> None:
    """The generator reads ``plz_place_district.csv`` only: it holds the same postal codes,
    each in the same districts, as ``plz_district.csv`` (which assign_districts reads)."""
    by_pair = district_file("plz_place_district.csv").groupby("plz")["ags"].agg(frozenset)
    by_code = district_file("plz_district.csv").groupby("plz")["ags"].agg(frozenset)
    assert by_pair.sort_index().equals(by_code.sort_index())


def test_the_state_ids_follow_the_official_keys() -> None:
    codes = {s["id"]: s["code"] for s in demodata.reference_rows()["states"]}
    ids = demo_places.STATE_IDS
    assert len(ids) == 16
    assert all(STATE_KEYS[codes[state]] == key for key, state in ids.items())
