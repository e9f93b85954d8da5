"""Course-supply statistics: pure functions from the offers frame to tidy tables.

>>> offers = educatalog.load_catalogue().offers()  # doctest: +SKIP
>>> supply(offers, by="state")                      # events, courses, institutions, capacity
>>> supply(offers, by=["state", "instruction_form_category"], normalize="index")
>>> crosstab(offers, "state", "duration_class")     # a wide table for reports
>>> per_capita(offers)                              # events per 100,000 inhabitants
>>> costs(offers, by="instruction_form_category")   # median and quartiles per currency
>>> quality(offers)                                 # what is missing or impossible

Every function counts *distinct* events, so it gives the same numbers on the frame of
``offers(funding=True)``, which repeats an event once per funding type. Dimensions are
columns of the frame, plus ``year``, ``quarter`` and ``month`` of ``event_start_date``.
Labelled dimensions are categoricals, so every state or class appears, with 0 where there
are no offers; rows with a missing value form a group of their own (``dropna=False``, the
default), so that the counts add up to the total.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import pandas as pd

from educatalog.catalogue_data import SOURCE_ATTR
from educatalog.errors import EducatalogError
from educatalog.population import STATE_POPULATION

__all__ = [
    "DERIVED_DIMENSIONS",
    "MEASURES",
    "capacity",
    "costs",
    "crosstab",
    "dimension",
    "per_capita",
    "quality",
    "supply",
]

Normalize = bool | Literal["all", "index", "columns"]

MEASURES: tuple[str, ...] = ("events", "courses", "institutions", "capacity")
"""What :func:`supply` counts: distinct events, courses and institutions, and the sum of
the events' ``max_participants``."""

DERIVED_DIMENSIONS: dict[str, Callable[[pd.Series], pd.Series]] = {
    "year": lambda start: start.dt.year.astype("Int64"),
    "quarter": lambda start: start.dt.to_period("Q"),
    "month": lambda start: start.dt.to_period("M"),
}
"""Dimensions computed from ``event_start_date``."""

_HINTS: dict[str, str] = {
    "funding_type": "build the frame with catalogue.offers(funding=True)",
    "funding_level": "build the frame with catalogue.offers(funding=True)",
}


def dimension(offers: pd.DataFrame, name: str) -> pd.Series:
    """The values of a dimension: a column of ``offers``, or one derived from it."""
    if name in offers:
        return offers[name]
    if name in DERIVED_DIMENSIONS:
        _require(offers, ["event_start_date"], f'the dimension "{name}"')
        return DERIVED_DIMENSIONS[name](offers["event_start_date"]).rename(name)
    hint = _HINTS.get(name, "build the frame with catalogue.offers()")
    raise EducatalogError(f'The frame has no column "{name}" to group by; {hint}.')


def supply(
    offers: pd.DataFrame,
    by: str | Sequence[str] = "state",
    *,
    normalize: Normalize = "all",
    dropna: bool = False,
) -> pd.DataFrame:
    """Offers by one or more dimensions: ``events``, ``courses``, ``institutions``,
    ``capacity`` and ``share`` (of the events).

    ``normalize`` says what ``share`` is a share of: ``"all"`` (or True) the total,
    ``"index"`` each value of the first dimension, ``"columns"`` each value of the second;
    False leaves the column out.

    >>> supply(offers, by=["state", "instruction_time"], normalize="index")  # doctest: +SKIP
    """
    keys = _keys(by)
    _require(offers, ["event_id"], "supply()")
    data = _distinct_events(offers, keys)
    groups = data.groupby(keys, observed=False, dropna=dropna, sort=True)
    table = pd.DataFrame(
        {
            "events": groups.size().astype("Int64"),
            "courses": _nunique(groups, data, "course_id"),
            "institutions": _nunique(groups, data, "institution"),
            "capacity": _sum(groups, data, "max_participants"),
        }
    )
    if normalize is not False:
        table["share"] = _share(table["events"], data, keys, normalize, dropna)
    return _finish(table, offers)


def crosstab(
    offers: pd.DataFrame,
    rows: str,
    columns: str,
    *,
    measure: str = "events",
    normalize: Normalize = False,
    dropna: bool = False,
) -> pd.DataFrame:
    """A wide table of one measure: ``rows`` down, ``columns`` across, as in a report.

    ``normalize`` turns counts into shares, as :func:`pandas.crosstab` does: of the total
    (``"all"``), of each row (``"index"``) or of each column (``"columns"``).
    """
    if measure not in MEASURES:
        raise EducatalogError(f'Unknown measure "{measure}"; choose one of {", ".join(MEASURES)}.')
    long = supply(offers, [rows, columns], normalize=False, dropna=dropna)[measure]
    wide = long.unstack(columns).fillna(0)
    # unstack sorts a missing value first; keep the order of the long table (missing last).
    wide = wide.reindex(
        index=long.index.get_level_values(0).unique(),
        columns=long.index.get_level_values(1).unique(),
    )
    if normalize is not False:
        wide = wide.astype("Float64")
        if normalize in (True, "all"):
            wide = wide / wide.to_numpy().sum()
        elif normalize == "index":
            wide = wide.div(wide.sum(axis=1), axis=0)
        elif normalize == "columns":
            wide = wide.div(wide.sum(axis=0), axis=1)
        else:
            raise EducatalogError(f"normalize must be all, index, columns or False: {normalize!r}")
    return _finish(wide, offers)


def per_capita(
    offers: pd.DataFrame,
    *,
    per: int = 100_000,
    population: Mapping[str, int] | pd.Series | None = None,
) -> pd.DataFrame:
    """Offers per ``per`` inhabitants by state: ``events``, ``courses``, ``institutions``,
    ``population`` and ``events_per_<per>`` (e.g. ``events_per_100k``).

    ``population`` maps state names to inhabitants; by default the shipped table
    (:mod:`educatalog.population`), matched on the ISO code where the frame has
    ``state_code`` (so a differently spelled state name still finds its population), else
    on the name. A state with no or zero population gets no rate.
    """
    if per <= 0:
        raise EducatalogError(f"per must be a positive number of inhabitants, got {per}")
    table = supply(offers, "state", normalize=False, dropna=True)
    if population is None:
        pop = STATE_POPULATION.set_index("state")["population"]
        by_code = STATE_POPULATION["population"]
        if "state_code" in offers:
            pairs = offers[["state", "state_code"]].dropna().drop_duplicates()
            for name, code in pairs.astype(str).itertuples(index=False):
                if code in by_code.index:
                    pop[name] = by_code[code]
    else:
        pop = pd.Series(population, dtype="Int64")
    inhabitants = pd.Series(
        [pop.get(str(s), pd.NA) for s in table.index], index=table.index, dtype="Int64"
    )
    inhabitants = inhabitants.mask(inhabitants <= 0)
    out = table[["events", "courses", "institutions"]].copy()
    out["population"] = inhabitants
    out[f"events_per_{_short(per)}"] = (table["events"] * per / inhabitants).astype("Float64")
    return _finish(out, offers)


def capacity(offers: pd.DataFrame, by: str | Sequence[str] = "state") -> pd.DataFrame:
    """Places on offer: ``capacity`` (sum of ``max_participants``), ``events_with_capacity``
    (events that state a maximum), ``events`` and ``mean_capacity`` per event that states it."""
    keys = _keys(by)
    _require(offers, ["event_id", "max_participants"], "capacity()")
    data = _distinct_events(offers, keys)
    groups = data.groupby(keys, observed=False, dropna=False, sort=True)
    out = pd.DataFrame(
        {
            "capacity": _sum(groups, data, "max_participants"),
            "events_with_capacity": groups["max_participants"].count().astype("Int64"),
            "events": groups.size().astype("Int64"),
        }
    )
    out["mean_capacity"] = (out["capacity"] / out["events_with_capacity"]).astype("Float64")
    return _finish(out, offers)


def costs(
    offers: pd.DataFrame,
    by: str | Sequence[str] | None = None,
    *,
    currency: str | None = None,
) -> pd.DataFrame:
    """The distribution of the offers' costs per currency (and ``by``): ``events`` and
    ``courses`` with a known cost, ``min``, ``q1``, ``median``, ``q3``, ``max``, ``mean``.

    Each event counts once, with its course's cost; costs are never mixed across
    currencies (``currency`` keeps one). Events without a cost or currency are left out
    (:func:`quality` counts them).
    """
    keys = _keys(by) if by is not None else []
    _require(offers, ["event_id", "cost", "cost_currency"], "costs()")
    data = _distinct_events(offers, keys, extra=("cost", "cost_currency"))
    data = data[data["cost"].notna() & data["cost_currency"].notna()]
    if currency is not None:
        data = data[data["cost_currency"] == currency]
    data = data.assign(cost=data["cost"].astype("float64"))
    group_keys = [*keys, "cost_currency"]
    groups = data.groupby(group_keys, observed=True, dropna=False, sort=True)
    cost = groups["cost"]
    out = pd.DataFrame(
        {
            "events": groups.size().astype("Int64"),
            "courses": _nunique(groups, data, "course_id"),
            "min": cost.min(),
            "q1": cost.quantile(0.25),
            "median": cost.median(),
            "q3": cost.quantile(0.75),
            "max": cost.max(),
            "mean": cost.mean(),
        }
    )
    for column in ("min", "q1", "median", "q3", "max", "mean"):
        out[column] = out[column].astype("Float64")
    out.index.names = [*keys, "currency"]
    return _finish(out, offers)


_CHECKS: dict[str, str] = {
    "events_without_address": "events without an address",
    "events_without_state": "events whose location has no known state",
    "addresses_without_state": "events whose address has no state",
    "unknown_state": "events whose address names a state id missing from states",
    "missing_start_date": "events without a start date",
    "missing_end_date": "events without an end date",
    "end_before_start": "events that end before they start",
    "no_duration": "events whose duration cannot be told (class Keine Angabe)",
    "empty_participants": "events with neither minimum nor maximum participants",
    "min_above_max": "events with more minimum than maximum participants",
    "unknown_instruction_form": "events whose instruction form id is missing from the list",
    "unknown_instruction_time": "events whose instruction time id is missing from the list",
    "unknown_education_type": "events whose course's education type id is unknown",
    "unknown_course_type": "events whose course's course type id is unknown",
    "unknown_institution_type": "events whose course's institution type id is unknown",
    "events_without_cost": "events whose course states no cost (or mixes currencies)",
    "cost_without_currency": "events whose cost has no currency",
}


def quality(offers: pd.DataFrame, catalogue: Any = None) -> pd.DataFrame:
    """A data-quality summary: per check, ``count`` of affected events, ``total``,
    ``share`` and a ``description``. With the ``catalogue`` the frame came from, it also
    counts ``courses_without_events`` (of all courses)."""
    needed = [
        "event_id",
        "address_id",
        "state_id",
        "state",
        "event_start_date",
        "event_end_date",
        "duration_class_id",
        "min_participants",
        "max_participants",
        "cost",
        "cost_currency",
    ]
    _require(offers, needed, "quality()")
    o = offers.drop_duplicates("event_id") if not offers["event_id"].is_unique else offers
    start, end = o["event_start_date"], o["event_end_date"]
    masks: dict[str, Any] = {
        "events_without_address": o["address_id"].isna(),
        "events_without_state": o["state"].isna(),
        "addresses_without_state": o["address_id"].notna() & o["state_id"].isna(),
        "unknown_state": o["state_id"].notna() & o["state"].isna(),
        "missing_start_date": start.isna(),
        "missing_end_date": end.isna(),
        "end_before_start": (end < start).fillna(False),
        "no_duration": o["duration_class_id"] == 0,
        "empty_participants": o["min_participants"].isna() & o["max_participants"].isna(),
        "min_above_max": (o["min_participants"] > o["max_participants"]).fillna(False),
    }
    for ref in ("instruction_form", "instruction_time", "education_type"):
        masks[f"unknown_{ref}"] = _unknown(o, ref)
    for ref in ("course_type", "institution_type"):
        masks[f"unknown_{ref}"] = _unknown(o, ref)
    masks["events_without_cost"] = o["cost"].isna()
    masks["cost_without_currency"] = o["cost"].notna() & o["cost_currency"].isna()
    total = len(o)
    rows = [
        (name, int(mask.sum()) if mask is not None else pd.NA, total, _CHECKS[name])
        for name, mask in masks.items()
    ]
    if catalogue is not None:
        courses = catalogue["courses"]["id"]
        with_events = set(catalogue["events"]["course"].dropna().astype("int64"))
        lonely = int((~courses.astype("int64").isin(with_events)).sum())
        rows.append(("courses_without_events", lonely, len(courses), "courses without any event"))
    out = pd.DataFrame(rows, columns=["check", "count", "total", "description"])
    out = out.set_index("check")
    out["count"] = out["count"].astype("Int64")
    out["total"] = out["total"].astype("Int64")
    out.insert(2, "share", (out["count"] / out["total"].mask(out["total"] == 0)).astype("Float64"))
    return _finish(out, offers)


# -- helpers ---------------------------------------------------------------------------


def _keys(by: str | Sequence[str]) -> list[str]:
    keys = [by] if isinstance(by, str) else list(by)
    if not keys:
        raise EducatalogError("Group by at least one dimension, e.g. by='state'.")
    if len(set(keys)) != len(keys):
        raise EducatalogError(f"Each dimension may appear once in by={keys}.")
    return keys


def _require(offers: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    missing = [c for c in columns if c not in offers]
    if missing:
        raise EducatalogError(
            f"{what} needs the column(s) {', '.join(missing)}, which the frame lacks; "
            "build the frame of offers with educatalog.load_catalogue().offers()."
        )


def _distinct_events(
    offers: pd.DataFrame, keys: Sequence[str], extra: Sequence[str] = ()
) -> pd.DataFrame:
    """The key columns and what the measures need, one row per event and key value."""
    columns: dict[str, pd.Series] = {key: dimension(offers, key) for key in keys}
    for name in ("event_id", "course_id", "institution", "max_participants", *extra):
        if name in offers and name not in columns:
            columns[name] = offers[name]
    data = pd.DataFrame(columns, index=offers.index)
    if not offers["event_id"].is_unique:
        data = data.drop_duplicates([*keys, "event_id"])
    return data


def _nunique(groups: Any, data: pd.DataFrame, column: str) -> pd.Series:
    if column not in data:
        return pd.Series(pd.NA, index=groups.size().index, dtype="Int64")
    return groups[column].nunique().astype("Int64")


def _sum(groups: Any, data: pd.DataFrame, column: str) -> pd.Series:
    if column not in data:
        return pd.Series(pd.NA, index=groups.size().index, dtype="Int64")
    return groups[column].sum(min_count=0).astype("Int64")


def _share(
    events: pd.Series, data: pd.DataFrame, keys: Sequence[str], normalize: Normalize, dropna: bool
) -> pd.Series:
    """``events`` over the distinct events of the total, or of each value of one key (an
    event in several groups of a multi-valued dimension, such as funding types, counts once
    in the denominator, so shares may add up to more than 1)."""
    counts = events.astype("Float64")
    if normalize in (True, "all"):
        rows = data if not dropna else data.dropna(subset=list(keys))
        return (counts / rows["event_id"].nunique()).astype("Float64")
    if normalize not in ("index", "columns"):
        raise EducatalogError(f"normalize must be all, index, columns or False: {normalize!r}")
    if len(keys) < 2:
        raise EducatalogError(f'normalize="{normalize}" needs two dimensions in by; use "all".')
    level = 0 if normalize == "index" else 1
    rows = data if not dropna else data.dropna(subset=list(keys))
    totals = rows.groupby(keys[level], observed=False, dropna=dropna)["event_id"].nunique()
    denominator = counts.index.get_level_values(level).map(totals)
    return (counts / pd.array(denominator, dtype="Float64")).astype("Float64")


def _unknown(offers: pd.DataFrame, ref: str) -> pd.Series | None:
    if f"{ref}_id" not in offers or ref not in offers:
        return None
    return offers[f"{ref}_id"].notna() & offers[ref].isna()


def _short(per: int) -> str:
    for size, suffix in ((1_000_000, "m"), (1_000, "k")):
        if per % size == 0:
            return f"{per // size}{suffix}"
    return str(per)


def _finish(table: pd.DataFrame, offers: pd.DataFrame) -> pd.DataFrame:
    """Keep the frame's source on the table, so that charts know demo data."""
    if SOURCE_ATTR in offers.attrs:
        table.attrs[SOURCE_ATTR] = dict(offers.attrs[SOURCE_ATTR])
    return table
