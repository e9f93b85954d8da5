"""Course-supply statistics: pure functions from the offers frame to tidy tables.

>>> offers = educatalog.load_catalogue().offers()  # doctest: +SKIP
>>> supply(offers, by="state")                      # events, courses, institutions, capacity
>>> supply(offers, by=["state", "instruction_form_category"], normalize="index")
>>> crosstab(offers, "state", "duration_class")     # a wide table for reports
>>> per_capita(offers)                              # events per 100,000 inhabitants
>>> costs(offers, by="instruction_form_category")   # median and quartiles per currency
>>> share(offers, "education_voucher", by="state")  # a flag's share, unknowns explicit
>>> quality(offers)                                 # what is missing or impossible

Every measure, dimension and rule is defined in ``docs/definitions.md`` ("How the numbers
are defined", :data:`DEFINITIONS`). In short: every function counts *distinct* events, so it
gives the same numbers on the frame of ``offers(funding=True)``, which repeats an event once
per funding type. Dimensions are columns of the frame, plus ``year``, ``quarter`` and
``month`` of ``event_start_date``. A table lists every level of an ordered dimension: every
state or class of the reference list (labels are categoricals) and every year, quarter or
month from the first to the last start, with 0 where there are no offers; a measure nobody
stated (capacity where no event states a maximum) is missing (NA), never 0. Rows with a
missing value form a group of their own (``dropna=False``, the default), so that the counts
add up to the total.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import pandas as pd

from educatalog import population as _population
from educatalog.catalogue import _did_you_mean
from educatalog.catalogue_data import SOURCE_ATTR, source_of
from educatalog.errors import EducatalogError
from educatalog.offers import ends_before_start
from educatalog.population import STATE_POPULATION

__all__ = [
    "DEFINITIONS",
    "DERIVED_DIMENSIONS",
    "MEASURES",
    "UNKNOWN_CHOICES",
    "capacity",
    "costs",
    "crosstab",
    "dimension",
    "dimensions",
    "per_capita",
    "quality",
    "share",
    "supply",
]

DEFINITIONS = "docs/definitions.md"
"""The page that defines every measure, dimension and rule ("How the numbers are defined")."""

Normalize = bool | Literal["all", "index", "columns"]
Unknown = Literal["exclude", "as_false", "separate"]

UNKNOWN_CHOICES: tuple[str, ...] = ("exclude", "as_false", "separate")
"""What :func:`share` does with events whose value is unknown (see its docstring)."""

_NORMALIZE_CHOICES = ("all", "index", "columns")

MEASURES: tuple[str, ...] = ("events", "courses", "institutions", "capacity")
"""What :func:`supply` counts: distinct events, courses and institutions, and the sum of
the events' ``max_participants`` (missing where events exist but none states a maximum;
``events_with_capacity`` says how many events it covers)."""

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
    if not isinstance(name, str) or not name:
        raise EducatalogError(f"A dimension is the name of a column, got {name!r}.")
    if name in offers:
        return offers[name]
    if name in DERIVED_DIMENSIONS and "event_start_date" in offers:
        return DERIVED_DIMENSIONS[name](offers["event_start_date"]).rename(name)
    if name in DERIVED_DIMENSIONS:
        _require(offers, ["event_start_date"], f'the dimension "{name}"')
    if name in _HINTS:
        raise EducatalogError(f'The frame has no column "{name}" to group by; {_HINTS[name]}.')
    listed = ", ".join(dimensions(offers)) or "none"
    raise EducatalogError(
        f'The frame has no dimension "{name}".{_suggest(name, _groupable(offers))} '
        f"Its dimensions: {listed} (any other column of the frame works too)."
    )


def dimensions(offers: pd.DataFrame) -> list[str]:
    """The dimensions a frame of offers is usually grouped by: its labelled (categorical)
    and yes/no columns, and ``year``, ``quarter`` and ``month`` where it has start dates.
    Any other column can be grouped by as well."""
    names = [
        str(c)
        for c in offers.columns
        if isinstance(offers[c].dtype, pd.CategoricalDtype)
        or pd.api.types.is_bool_dtype(offers[c].dtype)
    ]
    if "event_start_date" in offers:
        names += [n for n in DERIVED_DIMENSIONS if n not in names]
    return names


def _groupable(offers: pd.DataFrame) -> list[str]:
    names = [str(c) for c in offers.columns]
    return [*names, *(n for n in DERIVED_DIMENSIONS if n not in names)]


def _suggest(name: str, choices: Sequence[str]) -> str:
    """`` Did you mean "x"?`` for the closest choice (case-insensitive first), or nothing."""
    folded = [c for c in choices if c.casefold() == name.casefold()]
    if folded:
        return f' Did you mean "{folded[0]}"?'
    return _did_you_mean(name, dict.fromkeys(choices))


def _choice(value: Any, choices: Sequence[str], what: str) -> str:
    """``value`` when it is one of ``choices``; else an error naming them all."""
    if isinstance(value, str) and value in choices:
        return value
    hint = _suggest(value, choices) if isinstance(value, str) else ""
    raise EducatalogError(
        f"Unknown {what} {value!r}; choose one of {', '.join(repr(c) for c in choices)}.{hint}"
    )


def supply(
    offers: pd.DataFrame,
    by: str | Sequence[str] = "state",
    *,
    normalize: Normalize = "all",
    dropna: bool = False,
) -> pd.DataFrame:
    """Offers by one or more dimensions: ``events``, ``courses``, ``institutions``,
    ``capacity`` with ``events_with_capacity`` (the events it covers), and ``share`` (of
    the events).

    Every level of an ordered dimension is listed (states, classes, every month from the
    first to the last start), with 0 events where there are none. ``capacity`` sums the
    stated maxima; it is missing (NA) where a group has events but none states a maximum.
    ``normalize`` says what ``share`` is a share of: ``"all"`` (or True) the total,
    ``"index"`` each value of the first dimension, ``"columns"`` each value of the second;
    False leaves the column out. Definitions: ``docs/definitions.md``.

    >>> supply(offers, by=["state", "instruction_time"], normalize="index")  # doctest: +SKIP
    """
    keys = _keys(by)
    _require(offers, ["event_id"], "supply()")
    if normalize is not False and normalize is not True:
        _choice(normalize, _NORMALIZE_CHOICES, "normalize")
    data = _distinct_events(offers, keys)
    groups = data.groupby(keys, observed=False, dropna=dropna, sort=True)
    events = groups.size().astype("Int64")
    capacity_, covered = _capacity(groups, data, events)
    table = pd.DataFrame(
        {
            "events": events,
            "courses": _nunique(groups, data, "course_id"),
            "institutions": _nunique(groups, data, "institution"),
            "capacity": capacity_,
            "events_with_capacity": covered,
        }
    )
    if normalize is not False:
        table["share"] = _share(table["events"], data, keys, normalize, dropna)
    return _finish(_restore_levels(table, data, keys), offers)


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

    Counts are 0 where a pair has no offers; ``capacity`` is missing where the pair's
    events state no maximum. ``normalize`` turns values into shares, as
    :func:`pandas.crosstab` does: of the total (``"all"``), of each row (``"index"``) or of
    each column (``"columns"``). Definitions: ``docs/definitions.md``.
    """
    _choice(measure, MEASURES, "measure")
    if normalize is not False and normalize is not True:
        _choice(normalize, _NORMALIZE_CHOICES, "normalize")
    long = supply(offers, [rows, columns], normalize=False, dropna=dropna)[measure]
    # Pairs absent from the long table have no offers (0); a missing measure stays missing.
    wide = long.unstack(columns, fill_value=0)
    # unstack sorts a missing value first; keep the order of the long table (missing last).
    wide = wide.reindex(
        index=long.index.get_level_values(0).unique(),
        columns=long.index.get_level_values(1).unique(),
    )
    if normalize is not False:
        wide = wide.astype("Float64")
        if normalize in (True, "all"):
            wide = wide / wide.sum().sum()
        elif normalize == "index":
            wide = wide.div(wide.sum(axis=1), axis=0)
        else:
            wide = wide.div(wide.sum(axis=0), axis=1)
    return _finish(wide, offers)


def per_capita(
    offers: pd.DataFrame,
    *,
    per: int = 100_000,
    population: Mapping[str, int] | pd.Series | pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Offers per ``per`` inhabitants by state: ``events``, ``courses``, ``institutions``,
    ``population`` and ``events_per_<per>`` (e.g. ``events_per_100k``).

    ``population`` is by default the shipped table (:mod:`educatalog.population`,
    Destatis 12411-0010 on 31.12.2022), matched on the ISO code where the frame has
    ``state_code`` (so a differently spelled state name still finds its population), else
    on the name. Your own figures: a mapping or Series of state name -> inhabitants, or a
    table like :func:`educatalog.population.read_population` gives (index ``code``,
    columns ``state`` and ``population``). A state with no or zero population gets no
    rate. The table names the figures' origin in ``attrs["educatalog"]["population"]``
    (``source``, ``year``, ``date`` ...; of your own table or Series, its ``attrs``
    ``source``, ``year`` and ``date``). Definitions: ``docs/definitions.md``.
    """
    if isinstance(per, bool) or not isinstance(per, int) or per <= 0:
        raise EducatalogError(f"per must be a positive number of inhabitants, got {per}")
    table = supply(offers, "state", normalize=False, dropna=True)
    by_code: pd.Series | None = None
    if population is None:
        population = STATE_POPULATION
    if isinstance(population, pd.DataFrame):
        if not {"state", "population"} <= set(population.columns):
            raise EducatalogError(
                "per_capita(population=...) needs a table with the columns state and "
                f"population (and the ISO code as index or column code); got the columns "
                f"{', '.join(map(str, population.columns))}."
            )
        codes = population.get("code", population.index)
        pop = pd.Series(
            population["population"].to_numpy(), index=population["state"].astype(str)
        ).astype("Int64")
        by_code = pd.Series(population["population"].to_numpy(), index=codes.astype(str))
        origin = _population.origin(population)
        if population is not STATE_POPULATION and origin.get("source") is None:
            origin["source"] = "given by the caller (population=...)"
    else:
        attrs = population.attrs if isinstance(population, pd.Series) else {}
        origin = {
            "source": attrs.get("source", "given by the caller (population=...)"),
            "year": attrs.get("year"),
        }
        if attrs.get("date") is not None:
            origin["date"] = str(attrs["date"])[:10]
        pop = pd.Series(population, dtype="Int64")
    if by_code is not None and "state_code" in offers:
        pairs = offers[["state", "state_code"]].dropna().drop_duplicates()
        for name, code in pairs.astype(str).itertuples(index=False):
            if code in by_code.index:
                pop[name] = by_code[code]
    inhabitants = pd.Series(
        [pop.get(str(s), pd.NA) for s in table.index], index=table.index, dtype="Int64"
    )
    inhabitants = inhabitants.mask(inhabitants <= 0)
    out = table[["events", "courses", "institutions"]].copy()
    out["population"] = inhabitants
    out[f"events_per_{_short(per)}"] = (table["events"] * per / inhabitants).astype("Float64")
    out = _finish(out, offers)
    out.attrs[SOURCE_ATTR] = {**out.attrs.get(SOURCE_ATTR, {}), "population": origin}
    return out


def capacity(offers: pd.DataFrame, by: str | Sequence[str] = "state") -> pd.DataFrame:
    """Places on offer: ``capacity`` (sum of the stated ``max_participants``; missing where
    the group has events but none states a maximum), ``events_with_capacity`` (events that
    state a maximum), ``events`` and ``mean_capacity`` per event that states it.
    Definitions: ``docs/definitions.md``."""
    keys = _keys(by)
    _require(offers, ["event_id", "max_participants"], "capacity()")
    data = _distinct_events(offers, keys)
    groups = data.groupby(keys, observed=False, dropna=False, sort=True)
    events = groups.size().astype("Int64")
    total, covered = _capacity(groups, data, events)
    out = pd.DataFrame({"capacity": total, "events_with_capacity": covered, "events": events})
    out["mean_capacity"] = (out["capacity"] / out["events_with_capacity"]).astype("Float64")
    out["mean_capacity"] = out["mean_capacity"].mask(out["events_with_capacity"] == 0)
    return _finish(_restore_levels(out, data, keys), offers)


def share(
    offers: pd.DataFrame,
    column: str,
    by: str | Sequence[str] | None = None,
    *,
    unknown: Unknown = "exclude",
    value: Any = True,
    dropna: bool = False,
) -> pd.DataFrame:
    """The share of events whose ``column`` is ``value`` (True for a yes/no column such as
    ``education_voucher``, ``barrier_free`` or ``is_part_time``), by ``by`` (None: all).

    Columns: ``events`` (distinct events of the group), ``yes``, ``no`` and ``unknown``
    (events whose value is ``value``, another one, or missing) and ``share``. ``unknown``
    says what missing values do:

    * ``"exclude"`` (default): left out of the base, ``share = yes / (yes + no)``, the
      share among the events that say; this is what ``groupby(...)[column].mean()`` gives;
    * ``"as_false"``: counted as not ``value``, ``share = yes / events``;
    * ``"separate"``: a share of their own, ``share = yes / events`` beside
      ``share_no = no / events`` and ``share_unknown = unknown / events`` (they add up to 1).

    A group without a base has no share (NA). Definitions: ``docs/definitions.md``.

    >>> share(offers, "education_voucher", by="state", unknown="separate")  # doctest: +SKIP
    """
    _choice(unknown, UNKNOWN_CHOICES, "unknown")
    _require(offers, ["event_id"], "share()")
    if not isinstance(column, str) or column not in offers:
        hint = _suggest(column, [str(c) for c in offers.columns]) if isinstance(column, str) else ""
        flags = [n for n in dimensions(offers) if pd.api.types.is_bool_dtype(offers.get(n))]
        raise EducatalogError(
            f"share() needs a column of the frame, got {column!r}.{hint} Its yes/no columns: "
            f"{', '.join(flags) or 'none'}."
        )
    values = offers[column]
    if isinstance(values.dtype, pd.CategoricalDtype):
        labels = [str(c) for c in values.cat.categories]
        if value not in values.cat.categories:
            raise EducatalogError(
                f'share(): {value!r} is no value of "{column}"; its values: '
                f"{', '.join(labels)}.{_suggest(str(value), labels)}"
            )
    elif value is True and not pd.api.types.is_bool_dtype(values.dtype):
        raise EducatalogError(
            f'share(): "{column}" is not a yes/no column; name the value whose share you '
            f"want, e.g. value={values.dropna().iloc[0] if values.notna().any() else 'x'!r}."
        )
    keys = _keys(by) if by is not None else []
    flag = pd.Series(pd.array(values == value, dtype="boolean"), index=offers.index).mask(
        values.isna()
    )
    data = _distinct_events(offers.assign(_flag=flag), keys, extra=("_flag",))
    yes = data["_flag"].fillna(False).astype(bool)
    no = (~data["_flag"]).fillna(False).astype(bool)
    counts = data.assign(_yes=yes, _no=no, _unknown=data["_flag"].isna())
    if keys:
        groups = counts.groupby(keys, observed=False, dropna=dropna, sort=True)
        sums = groups[["_yes", "_no", "_unknown"]].sum()
        events = groups.size()
    else:
        sums = counts[["_yes", "_no", "_unknown"]].sum().to_frame("all").T
        events = pd.Series([len(counts)], index=sums.index)
    out = pd.DataFrame(
        {
            "events": events.astype("Int64"),
            "yes": sums["_yes"].astype("Int64"),
            "no": sums["_no"].astype("Int64"),
            "unknown": sums["_unknown"].astype("Int64"),
        }
    )
    base = out["yes"] + out["no"] if unknown == "exclude" else out["events"]
    base = base.astype("Float64").mask(base == 0)
    out["share"] = (out["yes"] / base).astype("Float64")
    if unknown == "separate":
        out["share_no"] = (out["no"] / base).astype("Float64")
        out["share_unknown"] = (out["unknown"] / base).astype("Float64")
    out = _restore_levels(out, data, keys) if keys else out
    out = _finish(out, offers)
    out.attrs["share"] = {"column": column, "value": value, "unknown": unknown}
    return out


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
    (:func:`quality` counts them). Every level of ``by`` is listed for every currency,
    with 0 events and no quartiles where there are none. Definitions:
    ``docs/definitions.md``.
    """
    keys = _keys(by) if by is not None else []
    _require(offers, ["event_id", "cost", "cost_currency"], "costs()")
    data = _distinct_events(offers, keys, extra=("cost", "cost_currency"))
    data = data[data["cost"].notna() & data["cost_currency"].notna()]
    if currency is not None:
        data = data[data["cost_currency"] == currency]
    currencies = pd.Index(sorted(data["cost_currency"].unique()), dtype="string")
    data = data.assign(
        cost=data["cost"].astype("float64"),
        cost_currency=pd.Categorical(data["cost_currency"], categories=currencies),
    )
    group_keys = [*keys, "cost_currency"]
    groups = data.groupby(group_keys, observed=False, dropna=False, sort=True)
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
    out = _restore_levels(out, data, keys, plain=("cost_currency",))
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
    "events_without_cost": (
        "events whose course states no cost (or mixes currencies; a missing one counts as one)"
    ),
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
        "end_before_start": ends_before_start(start, end),
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
    """The key columns and what the measures need, one row per event and key value; time
    dimensions as ordered categoricals over every period from the first to the last."""
    columns: dict[str, pd.Series] = {key: _levelled(dimension(offers, key)) for key in keys}
    for name in ("event_id", "course_id", "institution", "max_participants", *extra):
        if name in offers and name not in columns:
            columns[name] = offers[name]
    data = pd.DataFrame(columns, index=offers.index)
    if not offers["event_id"].is_unique:
        data = data.drop_duplicates([*keys, "event_id"])
    return data


def _levelled(values: pd.Series) -> pd.Series:
    """A dimension with an order but no list of levels (periods, years) as an ordered
    categorical of every level from its smallest to its largest value, so that a table
    lists the months (quarters, years) without offers too, with 0."""
    if isinstance(values.dtype, pd.PeriodDtype):
        known = values.dropna()
        levels: pd.Index = (
            pd.period_range(known.min(), known.max(), freq=values.dtype.freq)
            if len(known)
            else pd.PeriodIndex([], dtype=values.dtype)
        )
    elif values.name == "year" and pd.api.types.is_integer_dtype(values.dtype):
        known = values.dropna()
        low, high = (int(known.min()), int(known.max())) if len(known) else (0, -1)
        levels = pd.Index(pd.array(range(low, high + 1), dtype=values.dtype))
    else:
        return values
    return pd.Series(
        pd.Categorical(values, categories=levels, ordered=True),
        index=values.index,
        name=values.name,
    )


def _restore_levels(
    table: pd.DataFrame, data: pd.DataFrame, keys: Sequence[str], plain: Sequence[str] = ()
) -> pd.DataFrame:
    """The index of a table grouped by :func:`_levelled` time dimensions (and the ``plain``
    categorical keys) back in their own dtype (a ``PeriodIndex`` of months, ``Int64``
    years), missing values as NaT or NA."""
    levelled = [
        k
        for k in keys
        if isinstance(data[k].dtype, pd.CategoricalDtype)
        and (
            isinstance(data[k].dtype.categories.dtype, pd.PeriodDtype)
            or (k == "year" and pd.api.types.is_integer_dtype(data[k].dtype.categories.dtype))
        )
    ] + list(plain)
    if not levelled:
        return table
    index = table.index
    if isinstance(index, pd.MultiIndex):
        for key in levelled:
            position = index.names.index(key)
            level = index.levels[position]
            assert isinstance(level, pd.CategoricalIndex)
            values = level.astype(level.categories.dtype).rename(key)
            index = index.set_levels(values, level=position)
    else:
        assert isinstance(index, pd.CategoricalIndex)
        # astype, not categories.take(codes): take() fills -1 (no value) only from pandas 3
        index = index.astype(index.categories.dtype).rename(index.name)
    return table.set_axis(index)


def _nunique(groups: Any, data: pd.DataFrame, column: str) -> pd.Series:
    if column not in data:
        return pd.Series(pd.NA, index=groups.size().index, dtype="Int64")
    return groups[column].nunique().astype("Int64")


def _capacity(groups: Any, data: pd.DataFrame, events: pd.Series) -> tuple[pd.Series, pd.Series]:
    """Per group: the sum of the stated maxima, and how many events state one. The sum is
    0 for a group without events, missing (NA) where events exist but none states one."""
    if "max_participants" not in data:
        unknown = pd.Series(pd.NA, index=events.index, dtype="Int64")
        return unknown, unknown.copy()
    covered = groups["max_participants"].count().astype("Int64")
    total = groups["max_participants"].sum(min_count=0).astype("Int64")
    return total.mask((covered == 0) & (events > 0)), covered


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
    """Keep the frame's source on the table, so that charts and tables know demo data:
    the one in its attrs, or the one whose rows it holds (:func:`source_of`, after a merge
    or concat dropped the attrs)."""
    if SOURCE_ATTR in offers.attrs:
        table.attrs[SOURCE_ATTR] = dict(offers.attrs[SOURCE_ATTR])
    else:
        found = source_of(offers)
        if found is not None:
            table.attrs[SOURCE_ATTR] = found.to_attrs()
    return table
