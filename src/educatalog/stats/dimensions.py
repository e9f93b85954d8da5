"""Dimensions and the grouping every statistic shares: which columns a frame of offers is
grouped by, the derived time dimensions, one row per event and group, every level of an
ordered dimension, and the frame's source kept on the table."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

import pandas as pd

from educatalog.errors import MissingColumns, UsageError, WrongType, did_you_mean
from educatalog.frames.columns import require_columns
from educatalog.frames.districts import district_table
from educatalog.frames.provenance import SOURCE_ATTR, source_of
from educatalog.population import STATE_KEYS

if TYPE_CHECKING:
    from pandas.core.groupby.generic import DataFrameGroupBy

__all__ = ["DEFINITIONS", "DERIVED_DIMENSIONS", "MARGINS", "dimension", "dimensions"]

DEFINITIONS = "docs/definitions.md"
"""The page that defines every measure, dimension and rule ("How the numbers are defined")."""

DERIVED_DIMENSIONS: dict[str, Callable[[pd.Series], pd.Series]] = {
    "year": lambda start: start.dt.year.astype("Int64"),
    "quarter": lambda start: start.dt.to_period("Q"),
    "month": lambda start: start.dt.to_period("M"),
}
"""Dimensions computed from ``event_start_date``."""

MARGINS = "All"
"""The label of the total row (and column) that ``margins=True`` adds, as in pandas; tables
for readers (:func:`educatalog.tables.present`) call it "Insgesamt" / "Total", or
"Deutschland" / "Germany" for all 16 states."""

STATE_DIMENSIONS = ("state", "state_code")
"""Dimensions of the states, listed in the order of their official keys (01 Schleswig-Holstein
… 16 Thüringen)."""

HINTS: dict[str, str] = {
    "funding_type": "build the frame with catalogue.offers(funding=True)",
    "funding_level": "build the frame with catalogue.offers(funding=True)",
    **{
        name: "build the frame with catalogue.offers(subjects=True)"
        for name in ("subject", "subject_area", "subject_group")
        for name in (name, f"{name}_code")
    },
    "degree_type": "build the frame with catalogue.offers(degrees=True)",
}


def dimension(offers: pd.DataFrame, name: str) -> pd.Series:
    """The values of a dimension: a column of ``offers``, or one derived from it."""
    if not isinstance(name, str):
        raise WrongType(f"A dimension is the name of a column, got {name!r}.")
    if not name:
        raise UsageError(f"A dimension is the name of a column, got {name!r}.")
    if name in offers:
        return offers[name]
    if name in DERIVED_DIMENSIONS and "event_start_date" in offers:
        return DERIVED_DIMENSIONS[name](offers["event_start_date"]).rename(name)
    if name in DERIVED_DIMENSIONS:
        require_columns(offers, ["event_start_date"], f'the dimension "{name}"')
    if name in HINTS:
        raise MissingColumns(f'The frame has no column "{name}" to group by; {HINTS[name]}.')
    listed = ", ".join(dimensions(offers)) or "none"
    raise UsageError(
        f'The frame has no dimension "{name}".{did_you_mean(name, _groupable(offers))} '
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


def choice(value: Any, choices: Sequence[str], what: str) -> str:
    """``value`` when it is one of ``choices``; else an error naming them all."""
    if isinstance(value, str) and value in choices:
        return value
    hint = did_you_mean(value, choices) if isinstance(value, str) else ""
    raise UsageError(
        f"Unknown {what} {value!r}; choose one of {', '.join(repr(c) for c in choices)}.{hint}"
    )


def dimension_keys(by: str | Sequence[str]) -> list[str]:
    keys = [by] if isinstance(by, str) else list(by)
    if not keys:
        raise UsageError("Group by at least one dimension, e.g. by='state'.")
    if len(set(keys)) != len(keys):
        raise UsageError(f"Each dimension may appear once in by={keys}.")
    return keys


def distinct_events(
    offers: pd.DataFrame, keys: Sequence[str], extra: Sequence[str] = ()
) -> pd.DataFrame:
    """The key columns and what the measures need, one row per event and key value; time
    dimensions as ordered categoricals over every period from the first to the last."""
    columns: dict[str, pd.Series] = {key: all_levels(dimension(offers, key)) for key in keys}
    for key in keys:
        if key in STATE_DIMENSIONS:  # also names known by their code only
            columns[key] = _in_key_order(columns[key], offers)
        if key == "district_key":  # every district, as the frame's districts list them
            columns[key] = _district_keys(columns[key], offers)
    for name in ("event_id", "course_id", "institution", "max_participants", *extra):
        if name in offers and name not in columns:
            columns[name] = offers[name]
    data = pd.DataFrame(columns, index=offers.index)
    if not offers["event_id"].is_unique:
        data = data.drop_duplicates([*keys, "event_id"])
    return data


def all_levels(values: pd.Series) -> pd.Series:
    """A dimension with an order but no list of levels (periods, years) as an ordered
    categorical of every level from its smallest to its largest value, so that a table
    lists the months (quarters, years) without offers too, with 0; the states (a
    categorical ``state`` or ``state_code``) in the order of their official keys."""
    if values.name in STATE_DIMENSIONS:
        return _in_key_order(values, pd.DataFrame())
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
        levels = pd.Index(list(range(low, high + 1)), dtype=values.dtype)
    else:
        return values
    return pd.Series(
        pd.Categorical(values, categories=levels, ordered=True),
        index=values.index,
        name=values.name,
    )


def _district_keys(values: pd.Series, offers: pd.DataFrame) -> pd.Series:
    """District keys as a categorical of every district's key, in key order: the keys of the
    frame's ``district`` levels (narrowed by a selection), else all 400."""
    table = district_table()
    keys = list(table.index)
    if "district" in offers and isinstance(offers["district"].dtype, pd.CategoricalDtype):
        listed = set(offers["district"].cat.categories)
        keys = [k for k, name in table["district"].items() if name in listed]
    return pd.Series(
        pd.Categorical(values.astype("object"), categories=keys),
        index=values.index,
        name=values.name,
    )


def _in_key_order(values: pd.Series, offers: pd.DataFrame) -> pd.Series:
    """A categorical of states with its categories in the order of the states' official
    keys (names matched by their ISO code where the frame has ``state_code``); categories
    that are no known state keep their order after them."""
    if not isinstance(values.dtype, pd.CategoricalDtype):
        return values
    keys = dict(STATE_KEYS)
    if "state" in offers and "state_code" in offers:
        pairs = offers[["state", "state_code"]].dropna().drop_duplicates()
        for name, code in pairs.astype(str).itertuples(index=False):
            if code in STATE_KEYS:
                keys.setdefault(name, STATE_KEYS[code])
    categories = list(values.cat.categories)
    ordered = sorted(categories, key=lambda c: keys.get(str(c), "99"))
    if ordered == categories:
        return values
    return values.cat.reorder_categories(ordered)


def with_margins(table: pd.DataFrame, total: dict[str, Any], name: str = MARGINS) -> pd.DataFrame:
    """``table`` with a total row labelled ``name`` (in every level of its index) holding
    ``total`` (missing where a column has none), each column in its own dtype."""
    label: Any = name if table.index.nlevels == 1 else (name,) * table.index.nlevels
    keys = [*table.index, label]
    index: pd.Index = (
        pd.MultiIndex.from_tuples(keys, names=table.index.names)
        if isinstance(table.index, pd.MultiIndex)
        else pd.Index(keys, name=table.index.name, dtype=object)
    )
    row = pd.DataFrame(
        {c: pd.array([total.get(str(c), pd.NA)], dtype=_dtype(table[c])) for c in table.columns},
        index=[0],
    )
    out = pd.concat([table.reset_index(drop=True), row], ignore_index=True).set_axis(index)
    out.attrs = dict(table.attrs)
    out.attrs["margins"] = name
    return out


def _dtype(column: pd.Series) -> Any:
    """A column's dtype, for ``pd.array`` (whose stubs know few dtypes by name)."""
    return column.dtype


def restore_levels(
    table: pd.DataFrame, data: pd.DataFrame, keys: Sequence[str], plain: Sequence[str] = ()
) -> pd.DataFrame:
    """The index of a table grouped by :func:`all_levels` time dimensions (and the ``plain``
    categorical keys) back in their own dtype (a ``PeriodIndex`` of months, ``Int64``
    years), missing values as NaT or NA."""
    levelled = [k for k in keys if _is_levelled(data[k].dtype, k)] + list(plain)
    if not levelled:
        return table
    index = table.index
    if isinstance(index, pd.MultiIndex):
        levels = list(index.levels)
        for key in levelled:
            position = list(index.names).index(key)
            level = levels[position]
            assert isinstance(level, pd.CategoricalIndex)
            levels[position] = level.astype(level.categories.dtype).rename(key)
        # pandas takes Index objects as levels; the stubs want plain sequences.
        index = index.set_levels(levels)  # type: ignore[arg-type]
    else:
        assert isinstance(index, pd.CategoricalIndex)
        # astype, not categories.take(codes): take() fills -1 (no value) only from pandas 3
        index = index.astype(index.categories.dtype).rename(index.name)
    return table.set_axis(index)


def _is_levelled(dtype: Any, key: str) -> bool:
    """Whether a key's dtype is that of :func:`all_levels`: categories of periods or years."""
    if not isinstance(dtype, pd.CategoricalDtype):
        return False
    inner = dtype.categories.dtype
    return (
        isinstance(inner, pd.PeriodDtype)
        or (key == "year" and pd.api.types.is_integer_dtype(inner))
        or key == "district_key"
    )


def count_distinct(
    groups: DataFrameGroupBy[Any, Literal[True]], data: pd.DataFrame, column: str
) -> pd.Series:
    if column not in data:
        return pd.Series(pd.NA, index=groups.size().index, dtype="Int64")
    return groups[column].nunique().astype("Int64")


def keep_source(table: pd.DataFrame, offers: pd.DataFrame) -> pd.DataFrame:
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
