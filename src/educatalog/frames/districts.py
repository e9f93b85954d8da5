"""The district (Kreis or kreisfreie Stadt) of an address: from its postal code and city,
else its postal code alone, never a fraction of one.

The 400 districts and the tables that find them ship in ``educatalog/data/districts/`` with
their sources and licences (its ``README.md``): postal code and place → district key
(``plz_place_district.csv``, © OpenStreetMap contributors, ODbL 1.0), postal code →
district keys (``plz_district.csv``, the same source), the districts' official names and
shapes (``district_shapes.geojson``, © GeoBasis-DE / BKG 2021 (Daten verändert),
dl-de/by-2-0). The rule, with its examples, is in ``docs/definitions.md`` ("The district of
an event").

>>> assign_districts(pd.Series(["99817"]), pd.Series(["Eisenach"]))  # doctest: +SKIP
  district_key      district district_problem
0        16063  Wartburgkreis             <NA>
"""

from __future__ import annotations

import functools
import io
import json
from importlib import resources
from typing import Any, Literal, overload

import numpy as np
import pandas as pd

from educatalog.errors import UsageError, require

__all__ = [
    "AMBIGUOUS",
    "DISTRICT_COLUMNS",
    "DISTRICT_PROBLEMS",
    "NO_POSTAL_CODE",
    "OTHER_STATE",
    "STATE_CODES",
    "UNKNOWN_POSTAL_CODE",
    "assign_districts",
    "district_shapes",
    "district_table",
]

STATE_CODES: dict[str, str] = {
    f"DE-{code}": f"{key:02d}"
    for key, code in enumerate(
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
"""The 16 states' ISO 3166-2 codes and their official keys (the first two digits of a
district key), in key order: ``"DE-SH"`` -> ``"01"`` … ``"DE-TH"`` -> ``"16"``."""

DISTRICT_COLUMNS: tuple[str, ...] = ("district", "district_key", "district_problem")
"""The columns :func:`assign_districts` gives, as the offers frame carries them."""

NO_POSTAL_CODE = "no postal code"
"""The address has no postal code (empty or missing)."""
UNKNOWN_POSTAL_CODE = "postal code not in the table"
"""The postal code is not in the table: malformed, a PO box or large customer's code, or
one created after the table was made (January 2024)."""
AMBIGUOUS = "postal code and place name several districts"
"""The postal code lies in several districts and its place name does not pick one of them
(it matches none of them, or, in two pairs of the table, several)."""
OTHER_STATE = "district in another state"
"""The district the postal code (and place) finds lies in another state than the
address's: one of the two is wrong, and counting either would be a guess."""

DISTRICT_PROBLEMS = (NO_POSTAL_CODE, UNKNOWN_POSTAL_CODE, AMBIGUOUS, OTHER_STATE)
"""Why an address has no district, in the order ``quality()`` reports them."""

_DATA = ("data", "districts")


def _read(name: str) -> str:
    return resources.files("educatalog").joinpath(*_DATA, name).read_text("utf-8")


@functools.cache
def _districts() -> pd.DataFrame:
    features = json.loads(_read("district_shapes.geojson"))["features"]
    table = pd.DataFrame([f["properties"] for f in features], dtype="string")
    table = table.rename(columns={"ags": "key", "type": "kind"}).sort_values("key")
    twice = table["name"].duplicated(keep=False)
    city = table["kind"].isin(["Kreisfreie Stadt", "Stadtkreis"])
    qualifier = city.map({True: ", Stadt", False: ", Landkreis"}).astype("string")
    table["district"] = table["name"].where(~twice, table["name"] + qualifier)
    table["state_key"] = table["key"].str[:2]
    return table.set_index("key")[["district", "name", "kind", "state_key"]]


def district_table() -> pd.DataFrame:
    """The 400 districts in the order of their keys: index ``key`` (the 5-digit district
    key, a string), columns ``district`` (the official name; "München, Stadt" and
    "München, Landkreis" where two districts share one), ``name`` and ``kind`` (as the BKG
    gives them: "Landkreis", "Kreis", "Kreisfreie Stadt", "Stadtkreis") and ``state_key``
    (the first two digits)."""
    return _districts().copy()


@overload
def district_shapes(*, as_geodataframe: Literal[False] = False) -> dict[str, Any]: ...
@overload
def district_shapes(*, as_geodataframe: Literal[True]) -> pd.DataFrame: ...


def district_shapes(*, as_geodataframe: bool = False) -> dict[str, Any] | pd.DataFrame:
    """The shapes of the 400 districts (BKG VG5000, 1 January 2021, Eisenach joined to the
    Wartburgkreis, simplified with a 400 m tolerance; WGS84 longitude and latitude, four
    decimals), licensed dl-de/by-2-0: a map that shows them says
    "© GeoBasis-DE / BKG 2021 (Daten verändert)".

    By default the GeoJSON ``FeatureCollection`` as a dict (a new one each call): 400
    features of ``Polygon`` or ``MultiPolygon`` geometry, with the properties ``ags`` (the
    5-digit district key), ``name`` and ``type`` (as the BKG gives them). Neighbouring
    districts share their borders vertex for vertex, so a state's outline is the edges of
    its districts that no two of them share. ``as_geodataframe=True`` gives a
    ``geopandas.GeoDataFrame`` in EPSG:4326 instead, index ``key``, the columns of
    :func:`district_table` and ``geometry``; it needs geopandas, which educatalog does not
    install (``pip install 'educatalog[geo]'``).

    >>> district_shapes(as_geodataframe=True).plot(column="state_key")  # doctest: +SKIP
    """
    if not as_geodataframe:
        collection: dict[str, Any] = json.loads(_read("district_shapes.geojson"))
        return collection
    require("geo", "geopandas", what="district_shapes(as_geodataframe=True)")
    import geopandas

    features = json.loads(_read("district_shapes.geojson"))["features"]
    shapes = geopandas.GeoDataFrame.from_features(features, crs="EPSG:4326")
    shapes.index = pd.Index(shapes["ags"].astype("string"), name="key")
    table = _districts()
    frame: pd.DataFrame = geopandas.GeoDataFrame(
        table.join(shapes[["geometry"]], how="left"), geometry="geometry", crs="EPSG:4326"
    )
    return frame


def _place(text: pd.Series) -> pd.Series:
    """A place name as the table is matched: case and runs of white space ignored."""
    return text.astype("string").str.strip().str.replace(r"\s+", " ", regex=True).str.casefold()


@functools.cache
def _by_place() -> pd.DataFrame:
    """(postal code, place) -> its district key, or <NA> where the pair names several."""
    table = pd.read_csv(io.StringIO(_read("plz_place_district.csv")), dtype="string")
    table["place"] = _place(table["place"])
    keys = table.groupby(["plz", "place"])["ags"].agg(["first", "nunique"])
    return keys["first"].where(keys["nunique"] == 1).to_frame("by_place")


@functools.cache
def _by_code() -> pd.DataFrame:
    """postal code -> its district key, or <NA> where the code lies in several."""
    table = pd.read_csv(io.StringIO(_read("plz_district.csv")), dtype="string")
    keys = table.groupby("plz")["ags"].agg(["first", "nunique"])
    return keys["first"].where(keys["nunique"] == 1).to_frame("by_code")


def assign_districts(
    postal_code: pd.Series, city: pd.Series, state_key: pd.Series | None = None
) -> pd.DataFrame:
    """The district of each address: columns ``district_key`` (string, the 5-digit key),
    ``district`` (categorical, the districts in key order) and ``district_problem``
    (categorical, :data:`DISTRICT_PROBLEMS`: why there is none), on the index of
    ``postal_code``.

    An address's postal code **and** city find its district where the pair is in the table
    and names one district; else the postal code alone, where it lies in one district. An
    address gets exactly one district or none: a code that lies in several districts and a
    place that does not pick one (:data:`AMBIGUOUS`) is "district unknown", never split.
    With ``state_key`` (the address's state, its two-digit key), a district in another state
    is unknown too (:data:`OTHER_STATE`). Each distinct address is looked up once.
    """
    given = [postal_code, city] + ([] if state_key is None else [state_key])
    if any(not part.index.equals(postal_code.index) for part in given):
        raise UsageError("assign_districts: postal_code, city and state_key need one index.")
    combined = None
    parts = []
    for part in given:  # one integer a distinct (postal code, city, state), fast to factorize
        codes, uniques = pd.factorize(part.astype("string"))
        parts.append((codes, uniques))
        width = len(uniques) + 1
        combined = codes + 1 if combined is None else combined * width + codes + 1
    assert combined is not None
    rows, _ = pd.factorize(combined)  # codes in the order each address first appears
    first = np.unique(rows, return_index=True)[1]  # the row where each one first appears
    # -1 (a missing value) takes NA: an array's take fills it (an Index's, without a
    # fill_value, takes the last value in pandas 2)
    values = [
        pd.Series(pd.Series(uniques, dtype="string").array.take(codes[first], allow_fill=True))
        for codes, uniques in parts
    ]
    key, problem = _resolve(*values)
    districts = _districts()
    names = key.map(districts["district"])
    # Built for the distinct addresses, then taken for every row (codes, not values).
    district = pd.Categorical(names.to_numpy(), categories=list(districts["district"]))
    why = pd.Categorical(problem.to_numpy(), categories=DISTRICT_PROBLEMS)
    out = pd.DataFrame(index=postal_code.index)
    out["district_key"] = pd.array(key.to_numpy(), dtype="string").take(rows)
    out["district"] = pd.Categorical.from_codes(district.codes[rows], dtype=district.dtype)
    out["district_problem"] = pd.Categorical.from_codes(why.codes[rows], dtype=why.dtype)
    return out


def _resolve(
    postal_code: pd.Series, city: pd.Series, state_key: pd.Series | None = None
) -> tuple[pd.Series, pd.Series]:
    """The district key of each (distinct) address, and why it has none."""
    code = postal_code.str.strip()
    code = code.mask(code == "")
    pairs = pd.DataFrame({"plz": code, "place": _place(city)})
    found = pairs.join(_by_place(), on=["plz", "place"]).join(_by_code(), on="plz")
    known_pair = pd.MultiIndex.from_frame(pairs).isin(_by_place().index)
    in_table = found["plz"].isin(_by_code().index)
    key = found["by_place"].where(known_pair, found["by_code"])
    problem = pd.Series(pd.NA, index=found.index, dtype="string")
    problem = problem.mask(in_table & key.isna(), AMBIGUOUS)
    problem = problem.mask(found["plz"].notna() & ~in_table, UNKNOWN_POSTAL_CODE)
    problem = problem.mask(found["plz"].isna(), NO_POSTAL_CODE)
    if state_key is not None:
        other = (key.str[:2] != state_key.str.strip()).fillna(False).astype(bool)
        problem = problem.mask(other, OTHER_STATE)
        key = key.mask(other)
    return key, problem
