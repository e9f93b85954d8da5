"""The demo's addresses as the rule that assigns districts sees them, for the tests of this
folder: each address with its district (:func:`educatalog.frames.districts.assign_districts`,
the state's official key from its ISO code) and its faults counted."""

from __future__ import annotations

import io
from importlib import resources
from typing import Any

import pandas as pd

from educatalog.frames.districts import (
    AMBIGUOUS,
    NO_POSTAL_CODE,
    OTHER_STATE,
    UNKNOWN_POSTAL_CODE,
    assign_districts,
)
from educatalog.population import STATE_KEYS

Rows = dict[str, list[dict[str, Any]]]

CITY_DECIDED_BY_CODE = "city mismatch, the postal code decides"


def district_file(name: str) -> pd.DataFrame:
    """A table of ``educatalog/data/districts/``, every column a string."""
    text = resources.files("educatalog").joinpath("data", "districts", name).read_text("utf-8")
    return pd.read_csv(io.StringIO(text), dtype="string")


def addresses_of(rows: Rows) -> pd.DataFrame:
    """The addresses (index ``id``) with ``district_key``, ``district`` and
    ``district_problem`` as ``assign_districts`` finds them, the state's key
    (``state_key``), and whether the postal code (``code_in_table``) and the pair of postal
    code and city (``pair_in_table``) are in the table."""
    codes = {s["id"]: s["code"] for s in rows["states"]}
    frame = pd.DataFrame(rows["addresses"]).set_index("id")
    state_key = frame["state"].map(lambda s: STATE_KEYS[codes[s]] if pd.notna(s) else None)
    zips, cities = frame["zip"].astype("string"), frame["city"].astype("string")
    found = assign_districts(zips, cities, state_key.astype("string"))
    pairs = district_file("plz_place_district.csv")
    known = pd.MultiIndex.from_frame(pairs[["plz", "place"]])
    frame["pair_in_table"] = pd.MultiIndex.from_arrays([zips, cities]).isin(known)
    frame["code_in_table"] = zips.isin(set(pairs["plz"])).fillna(False).astype(bool)
    frame["state_key"] = state_key
    return frame.join(found)


def events_of(rows: Rows, addresses: pd.DataFrame) -> pd.DataFrame:
    """The events (``id``, ``address``, ``institution``) with their address's district."""
    frame = pd.DataFrame(rows["events"])[["id", "address", "institution"]]
    return frame.join(addresses[["district_key", "district_problem"]], on="address")


def faults_of(addresses: pd.DataFrame) -> dict[str, int]:
    """How many addresses have each fault, by the district problem it gives, and the
    mismatched cities whose postal code alone finds the district."""
    problem = addresses["district_problem"]
    mismatched = addresses["code_in_table"] & ~addresses["pair_in_table"]
    counts = {name: int((problem == name).sum()) for name in (NO_POSTAL_CODE, UNKNOWN_POSTAL_CODE)}
    counts[OTHER_STATE] = int((problem == OTHER_STATE).sum())
    counts[AMBIGUOUS] = int((problem == AMBIGUOUS).sum())
    counts[CITY_DECIDED_BY_CODE] = int((mismatched & addresses["district_key"].notna()).sum())
    return counts


def defect_counts(rows: Rows) -> dict[str, int]:
    """The demo's address defects (:data:`educatalog.demodata.DEFECTS`) as the district
    rule finds them."""
    frame = addresses_of(rows)
    found = faults_of(frame)
    return {
        "address_missing_postal_code": found[NO_POSTAL_CODE],
        "address_unknown_postal_code": found[UNKNOWN_POSTAL_CODE],
        "address_city_mismatch": int((frame["code_in_table"] & ~frame["pair_in_table"]).sum()),
        "address_other_state": found[OTHER_STATE],
    }
