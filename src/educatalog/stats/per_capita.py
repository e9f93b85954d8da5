"""Offers per inhabitant, by state or by district: :func:`per_capita`.
Definitions: ``docs/definitions.md`` ("Per 100,000 inhabitants")."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from educatalog import population as _population
from educatalog.errors import MissingColumns, UsageError
from educatalog.frames.districts import district_table
from educatalog.frames.provenance import SOURCE_ATTR, source_of
from educatalog.population import STATE_POPULATION, STATES
from educatalog.stats.dimensions import MARGINS, dimension_keys, keep_source
from educatalog.stats.supply import supply

__all__ = ["REGIONS", "Population", "per_capita"]

REGIONS: dict[str, _population.Level] = {
    "state": "state",
    "state_code": "state",
    "district": "district",
    "district_key": "district",
}
"""The dimensions that have inhabitants, and the level of their population table."""

Population = Mapping[str, int] | pd.Series | pd.DataFrame | str | os.PathLike[str]
"""What ``per_capita(population=...)`` takes."""

MEASURES = ("events", "courses", "institutions")


def per_capita(
    offers: pd.DataFrame,
    by: str | Sequence[str] = "state",
    *,
    per: int = 100_000,
    population: Population | None = None,
    margins: bool = False,
    margins_name: str = MARGINS,
    subtotals: bool = False,
) -> pd.DataFrame:
    """Offers per ``per`` inhabitants: ``events``, ``courses``, ``institutions``,
    ``population`` and ``events_per_<per>`` (e.g. ``events_per_100k``), by state (default)
    or by district (``by="district"`` or ``"district_key"``), alone or with other dimensions
    (``by=["state", "instruction_form_category"]``: the inhabitants are those of the region).

    ``population`` is by default the shipped table (:mod:`educatalog.population`) of the
    newest date on or before the data's date, their source's "Stand"
    (:func:`educatalog.population.table_for`): for states the Fortschreibung des
    Bevölkerungsstandes of Destatis (table 12411-0010, Zensus 2022 basis), for districts the
    Regionaldatenbank's table 12411-01-01-4 (31.12.2024). States are matched on the ISO
    code where the frame has ``state_code``, else on the name; districts on their key.
    Another table: :func:`educatalog.population.table` (an earlier date or basis), the
    path of a CSV file of states or of districts
    (:func:`educatalog.population.read_population`; a file of districts serves states too),
    such a table of your own, or a mapping or Series of state name (district key) ->
    inhabitants. A region with no or zero population gets no rate; ``events`` says how many
    events a rate rests on.

    ``margins=True`` adds a total row ``margins_name`` ("All"): the events of the regions
    listed (each event, course and institution once) over their summed population, which
    for all 16 states (400 districts) is the national rate. ``subtotals=True`` (by district
    alone) lists the districts under their state, index (``state``, ``district``), each state
    followed by its subtotal (``(state, "All")``): its districts' events over their summed
    population. The table names the figures' origin in ``attrs["educatalog"]["population"]``
    and how many events it leaves out for want of a region (``attrs["without_state"]`` or
    ``attrs["without_district"]``). Definitions: ``docs/definitions.md``.

    >>> per_capita(offers, by="district", subtotals=True, margins=True)  # doctest: +SKIP
    """
    if isinstance(per, bool) or not isinstance(per, int) or per <= 0:
        raise UsageError(f"per must be a positive number of inhabitants, got {per}")
    keys = dimension_keys(by)
    regions = [k for k in keys if k in REGIONS]
    if len(regions) != 1:
        raise UsageError(
            f"per_capita() needs one dimension with inhabitants in by ({', '.join(REGIONS)}), "
            f"got by={keys}."
        )
    region = regions[0]
    level = REGIONS[region]
    if subtotals and (level != "district" or len(keys) != 1):
        raise UsageError(
            "subtotals=True lists districts under their states: use it with by='district' "
            f"or by='district_key' alone, not by={keys}."
        )
    inhabitants, origin = _inhabitants(offers, population, region)
    table = supply(offers, keys, normalize=False, dropna=True)
    out = _rates(table[list(MEASURES)], table.index, region, inhabitants, per)
    if subtotals:
        out = _with_subtotals(out, offers, region, inhabitants, per, margins_name)
    if margins:
        out = _with_total(out, offers, keys, region, inhabitants, per, margins_name)
    out = keep_source(out, offers)
    out.attrs[SOURCE_ATTR] = {**out.attrs.get(SOURCE_ATTR, {}), "population": origin}
    column = "state" if level == "state" else "district"
    regionless = offers.loc[offers[column].isna().to_numpy(), "event_id"].nunique()
    out.attrs[f"without_{column}"] = int(regionless)
    if level == "district" and "state" in offers:  # counted in their district's state
        stateless = offers["district"].notna() & offers["state"].isna()
        out.attrs["districts_without_state"] = int(
            offers.loc[stateless.to_numpy(), "event_id"].nunique()
        )
    out.attrs["per_capita"] = {"by": keys, "level": level, "per": per, "subtotals": subtotals}
    if margins:
        out.attrs["margins"] = margins_name
    return out


def _rates(
    counts: pd.DataFrame, index: pd.Index, region: str, inhabitants: pd.Series, per: int
) -> pd.DataFrame:
    """``counts`` with the population of each row's region and the rate."""
    values = index.get_level_values(region) if isinstance(index, pd.MultiIndex) else index
    population = [inhabitants.get(str(v), pd.NA) for v in values]
    out = counts.copy()
    out["population"] = pd.array(population, dtype="Int64")
    out["population"] = out["population"].mask(out["population"] <= 0)
    out[f"events_per_{_short(per)}"] = (out["events"] * per / out["population"]).astype("Float64")
    return out


def _with_subtotals(
    table: pd.DataFrame,
    offers: pd.DataFrame,
    region: str,
    inhabitants: pd.Series,
    per: int,
    name: str,
) -> pd.DataFrame:
    """The districts grouped under their states, each state followed by its subtotal."""
    districts = district_table()
    key_of = (
        districts.reset_index().set_index("district")["key"]
        if region == "district"
        else pd.Series(districts.index, index=districts.index)
    )
    state_name = STATES.set_index("key")["state"]
    state_of = [state_name[str(key_of[str(v)])[:2]] for v in table.index]
    names = list(dict.fromkeys(state_of))
    with_state = offers.assign(
        _state=pd.Categorical(offers["district_key"].str[:2].map(state_name), categories=names)
    )
    sums = supply(with_state, "_state", normalize=False, dropna=True)[list(MEASURES)]
    population = pd.Series(
        [table.loc[[s == n for s in state_of], "population"] for n in names], index=names
    ).map(lambda p: p.sum() if p.notna().all() and len(p) else pd.NA)
    state_rows = _rates(sums, sums.index, "_state", population.astype("Int64"), per)
    rows, labels = [], []
    for state in names:
        mine = [i for i, s in enumerate(state_of) if s == state]
        rows += [table.iloc[mine], state_rows.loc[[state]]]
        labels += [(state, str(table.index[i])) for i in mine] + [(state, name)]
    out = pd.concat(rows)
    out.index = pd.MultiIndex.from_tuples(labels, names=["state", region])
    return out


def _with_total(
    table: pd.DataFrame,
    offers: pd.DataFrame,
    keys: list[str],
    region: str,
    inhabitants: pd.Series,
    per: int,
    name: str,
) -> pd.DataFrame:
    """``table`` with a total row: the distinct offers of the rows listed (each event,
    course and institution once) over the summed population of their regions."""
    totals = supply(offers, keys, normalize=False, dropna=True, margins=True).iloc[[-1]]
    values = table.index.get_level_values(region)
    regions = pd.Index(values[values != name]).unique()
    population = [inhabitants.get(str(v), pd.NA) for v in regions]
    summed = int(sum(population)) if len(population) and not any(pd.isna(population)) else pd.NA
    row = _rates(totals[list(MEASURES)], pd.Index(["total"]), region, pd.Series(), per)
    row["population"] = pd.array([summed], dtype="Int64")
    row[row.columns[-1]] = (row["events"] * per / row["population"]).astype("Float64")
    label: Any = name if table.index.nlevels == 1 else (name,) * table.index.nlevels
    out = pd.concat([table, row])
    tuples = [*table.index, label]
    out.index = (
        pd.MultiIndex.from_tuples(tuples, names=table.index.names)
        if isinstance(table.index, pd.MultiIndex)
        else pd.Index(tuples, name=table.index.name, dtype=object)
    )
    return out


def _inhabitants(
    offers: pd.DataFrame, population: Population | None, region: str
) -> tuple[pd.Series, dict[str, Any]]:
    """Inhabitants by the values of the frame's ``region`` column, and their origin."""
    level = REGIONS[region]
    if population is None:  # the shipped table of the data's date (its Stand)
        source = source_of(offers)
        if level == "district":
            population = _population.district_population()
        else:
            population = STATE_POPULATION if source is None else _population.table_for(source.stand)
    elif isinstance(population, str | os.PathLike):
        population = _population.read_population(population, level=level)
    if not isinstance(population, pd.DataFrame):  # a Series (its attrs name it) or a mapping
        given = population if isinstance(population, pd.Series) else pd.Series(dtype="Int64")
        origin = _population.origin(given)  # source, date, basis ... as a table's
        if origin.get("source") is None:
            origin["source"] = "given by the caller (population=...)"
        by_given = pd.Series(population, dtype="Int64")
        by_given.index = by_given.index.astype(str)
        if region == "district":
            by_given = _by_district_name(by_given)
        return by_given, origin
    origin = _population.origin(population)
    if population is not STATE_POPULATION and origin.get("source") is None:
        origin["source"] = "given by the caller (population=...)"
    if level == "district":
        return _district_inhabitants(population, region), origin
    return _state_inhabitants(offers, population, region), origin


def _district_inhabitants(population: pd.DataFrame, region: str) -> pd.Series:
    if "population" not in population.columns:
        raise MissingColumns(
            "per_capita(by='district', population=...) needs a table with the column "
            "population and the 5-digit district key as index (district_population())."
        )
    by_key = pd.Series(
        population["population"].to_numpy(), index=population.index.astype(str), dtype="Int64"
    )
    return _by_district_name(by_key) if region == "district" else by_key


def _by_district_name(by_key: pd.Series) -> pd.Series:
    """Inhabitants by district key -> by district name (the frame's labels)."""
    names = district_table()["district"]
    known = by_key[by_key.index.isin(names.index)]
    return pd.Series(known.to_numpy(), index=names[known.index].to_numpy(), dtype="Int64")


def _state_inhabitants(offers: pd.DataFrame, population: pd.DataFrame, region: str) -> pd.Series:
    if not {"state", "population"} <= set(population.columns):
        raise MissingColumns(
            "per_capita(population=...) needs a table with the columns state and "
            f"population (and the ISO code as index or column code); got the columns "
            f"{', '.join(map(str, population.columns))}."
        )
    codes = population.get("code", population.index).astype(str)
    by_code = pd.Series(population["population"].to_numpy(), index=codes, dtype="Int64")
    if region == "state_code":
        return by_code
    pop = pd.Series(
        population["population"].to_numpy(), index=population["state"].astype(str)
    ).astype("Int64")
    if "state_code" in offers:
        pairs = offers[["state", "state_code"]].dropna().drop_duplicates()
        for name, code in pairs.astype(str).itertuples(index=False):
            if code in by_code.index:
                pop[name] = by_code[code]
    return pop


def _short(per: int) -> str:
    for size, suffix in ((1_000_000, "m"), (1_000, "k")):
        if per % size == 0:
            return f"{per // size}{suffix}"
    return str(per)
