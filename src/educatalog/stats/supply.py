"""Counts of the offers: :func:`supply` (events, courses, institutions, capacity and a
share), :func:`crosstab`, :func:`capacity` and a flag's :func:`share`
(:func:`~educatalog.stats.per_capita.per_capita` has a module of its own).
Definitions: ``docs/definitions.md``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd

from educatalog.errors import MissingColumns, UsageError, did_you_mean
from educatalog.frames.columns import require_columns
from educatalog.stats.dimensions import (
    MARGINS,
    choice,
    count_distinct,
    dimension_keys,
    dimensions,
    distinct_events,
    keep_source,
    restore_levels,
    with_margins,
)

if TYPE_CHECKING:
    from pandas.core.groupby.generic import DataFrameGroupBy

__all__ = [
    "MEASURES",
    "UNKNOWN_CHOICES",
    "Normalize",
    "Unknown",
    "capacity",
    "crosstab",
    "share",
    "supply",
]

Normalize = bool | Literal["all", "index", "columns"]
"""What a share is a share of (``normalize=``): ``"all"`` or True the total, ``"index"`` each
row, ``"columns"`` each column; False no share (:func:`supply` leaves ``share`` out,
:func:`crosstab` keeps the counts)."""
Unknown = Literal["exclude", "as_false", "separate"]
"""What :func:`share` does with events whose value is missing (``unknown=``): one of
:data:`UNKNOWN_CHOICES`."""

UNKNOWN_CHOICES: tuple[str, ...] = ("exclude", "as_false", "separate")
"""What :func:`share` does with events whose value is unknown (see its docstring)."""

NORMALIZE_CHOICES = ("all", "index", "columns")

MEASURES: tuple[str, ...] = ("events", "courses", "institutions", "capacity")
"""What :func:`supply` counts: distinct events, courses and institutions, and the sum of
the events' ``max_participants`` (missing where events exist but none states a maximum;
``events_with_capacity`` says how many events it covers)."""


def supply(
    offers: pd.DataFrame,
    by: str | Sequence[str] = "state",
    *,
    normalize: Normalize = "all",
    dropna: bool = False,
    margins: bool = False,
    margins_name: str = MARGINS,
) -> pd.DataFrame:
    """Offers by one or more dimensions: ``events``, ``courses``, ``institutions``,
    ``capacity`` with ``events_with_capacity`` (the events it covers), and ``share`` (of
    the events).

    Every level of an ordered dimension is listed (states, classes, every month from the
    first to the last start), with 0 events where there are none. ``capacity`` sums the
    stated maxima; it is missing (NA) where a group has events but none states a maximum.
    ``normalize`` says what ``share`` is a share of: ``"all"`` (or True) the total,
    ``"index"`` each value of the first dimension, ``"columns"`` each value of the second;
    False leaves the column out (``attrs["supply_share"]`` records it, with ``dropna`` and
    the events of the base, so that a table's header can name its base). ``margins=True``
    adds a total row ``margins_name`` ("All"), as pandas does: the distinct events, courses
    and institutions of every row listed (a course in two states counts once), the places,
    and a share of 1. Definitions: ``docs/definitions.md``.

    >>> supply(offers, by=["state", "instruction_time"], normalize="index")  # doctest: +SKIP
    """
    keys = dimension_keys(by)
    require_columns(offers, ["event_id"], "supply()")
    if normalize is not False and normalize is not True:
        choice(normalize, NORMALIZE_CHOICES, "normalize")
    data = distinct_events(offers, keys)
    groups = data.groupby(keys, observed=False, dropna=dropna, sort=True)
    events = groups.size().astype("Int64")
    capacity_, covered = _capacity(groups, data, events)
    table = pd.DataFrame(
        {
            "events": events,
            "courses": count_distinct(groups, data, "course_id"),
            "institutions": count_distinct(groups, data, "institution"),
            "capacity": capacity_,
            "events_with_capacity": covered,
        }
    )
    if normalize is not False:
        table["share"] = _share(table["events"], data, keys, normalize, dropna)
    table = restore_levels(table, data, keys)
    listed = data.dropna(subset=keys) if dropna else data  # the events of the rows shown
    if margins:
        table = with_margins(table, _totals(listed, share=normalize is not False), margins_name)
    table = keep_source(table, offers)
    if normalize is not False:
        table.attrs["supply_share"] = {
            "normalize": "all" if normalize is True else normalize,
            "by": list(keys),
            "dropna": dropna,
            "events": int(listed["event_id"].nunique()),
        }
    return table


def _totals(rows: pd.DataFrame, *, share: bool = False) -> dict[str, Any]:
    """The measures of :func:`supply` over ``rows`` (one row per event and group): each
    event, course and institution once."""
    events = rows.drop_duplicates("event_id")
    stated = events["max_participants"].dropna() if "max_participants" in events else pd.Series()
    total: dict[str, Any] = {
        "events": len(events),
        "courses": events["course_id"].nunique() if "course_id" in events else pd.NA,
        "institutions": events["institution"].nunique() if "institution" in events else pd.NA,
        "capacity": int(stated.sum()) if len(stated) or not len(events) else pd.NA,
        "events_with_capacity": len(stated) if "max_participants" in events else pd.NA,
    }
    if share:
        total["share"] = 1.0 if len(events) else pd.NA
    return total


def crosstab(
    offers: pd.DataFrame,
    rows: str,
    columns: str,
    *,
    measure: str = "events",
    normalize: Normalize = False,
    dropna: bool = False,
    margins: bool = False,
    margins_name: str = MARGINS,
) -> pd.DataFrame:
    """A wide table of one measure: ``rows`` down, ``columns`` across, as in a report.

    Counts are 0 where a pair has no offers; ``capacity`` is missing where the pair's
    events state no maximum. ``normalize`` turns values into shares, as
    :func:`pandas.crosstab` does: of the total (``"all"``), of each row (``"index"``) or of
    each column (``"columns"``); the base is the row's (column's, table's) distinct
    measure, so a course with events in two columns counts once in its row's base.
    ``margins=True`` adds a total row and column ``margins_name`` ("All"), as in pandas.
    Definitions: ``docs/definitions.md``.
    """
    choice(measure, MEASURES, "measure")
    if normalize is not False and normalize is not True:
        choice(normalize, NORMALIZE_CHOICES, "normalize")
    long = supply(offers, [rows, columns], normalize=False, dropna=dropna)[measure]
    # Pairs absent from the long table have no offers (0); a missing measure stays missing.
    wide = long.unstack(columns, fill_value=0)
    by_row = supply(offers, rows, normalize=False, dropna=dropna, margins=True)[measure]
    by_column = supply(offers, columns, normalize=False, dropna=dropna, margins=True)[measure]
    # unstack sorts a missing value first; keep the order of the long table (missing last),
    # and every level that a table by one of the two lists (a category no offer has, or all
    # of them where no offer passed the filters: then the long table has no pair at all)
    wide = wide.reindex(
        index=_levels(long.index.get_level_values(0), by_row),
        columns=_levels(long.index.get_level_values(1), by_column),
        fill_value=0,
    )
    if margins:
        wide = _wide_margins(wide, by_row, by_column, margins_name)
    if normalize is not False:
        wide = _normalized(wide, by_row, by_column, normalize)
    out = keep_source(wide, offers)
    if margins:
        out.attrs["margins"] = margins_name
    if normalize is not False:
        out.attrs["normalize"] = "all" if normalize is True else normalize
    return out


def _levels(paired: pd.Index, alone: pd.Series) -> pd.Index:
    """The levels of a crosstab's rows (columns): those of its pairs, in their order, then
    those the table by that dimension alone lists besides (its total row left out)."""
    found = paired.unique()
    more = alone.index[:-1].difference(found, sort=False) if len(found) else alone.index[:-1]
    return found.append(more) if len(more) else found


def _wide_margins(
    wide: pd.DataFrame, by_row: pd.Series, by_column: pd.Series, name: str
) -> pd.DataFrame:
    """``wide`` with a total column (each row's measure) and a total row (each column's)."""
    if len(by_row) != len(wide) + 1 or len(by_column) != wide.shape[1] + 1:
        raise AssertionError("the margins do not match the table")  # pragma: no cover
    n = wide.shape[1]
    out = wide.set_axis([f"c{i}" for i in range(n)], axis=1)
    out[f"c{n}"] = pd.Series(by_row.iloc[:-1].to_numpy(), dtype=by_row.dtype).array
    total = {f"c{i}": v for i, v in enumerate([*by_column.iloc[:-1], by_row.iloc[-1]])}
    out = with_margins(out, total, name)
    out.columns = pd.Index([*wide.columns, name], dtype=object, name=wide.columns.name)
    return out


def _normalized(
    wide: pd.DataFrame, by_row: pd.Series, by_column: pd.Series, normalize: Normalize
) -> pd.DataFrame:
    """Shares of the total, of each row or of each column (their distinct measure)."""
    values = wide.astype("Float64")
    grand = float(by_row.iloc[-1]) if not pd.isna(by_row.iloc[-1]) else np.nan
    if normalize in (True, "all"):
        return values / (grand or np.nan)
    if normalize == "index":
        base = np.append(by_row.iloc[:-1].to_numpy(dtype=float, na_value=np.nan), grand)
        return values.div(np.where(base == 0, np.nan, base)[: len(values)], axis=0)
    base = np.append(by_column.iloc[:-1].to_numpy(dtype=float, na_value=np.nan), grand)
    return values.div(np.where(base == 0, np.nan, base)[: values.shape[1]], axis=1)


def capacity(offers: pd.DataFrame, by: str | Sequence[str] = "state") -> pd.DataFrame:
    """Places on offer: ``capacity`` (sum of the stated ``max_participants``; missing where
    the group has events but none states a maximum), ``events_with_capacity`` (events that
    state a maximum), ``events`` and ``mean_capacity`` per event that states it.
    Definitions: ``docs/definitions.md``."""
    keys = dimension_keys(by)
    require_columns(offers, ["event_id", "max_participants"], "capacity()")
    data = distinct_events(offers, keys)
    groups = data.groupby(keys, observed=False, dropna=False, sort=True)
    events = groups.size().astype("Int64")
    total, covered = _capacity(groups, data, events)
    out = pd.DataFrame({"capacity": total, "events_with_capacity": covered, "events": events})
    out["mean_capacity"] = (out["capacity"] / out["events_with_capacity"]).astype("Float64")
    out["mean_capacity"] = out["mean_capacity"].mask(out["events_with_capacity"] == 0)
    return keep_source(restore_levels(out, data, keys), offers)


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
    choice(unknown, UNKNOWN_CHOICES, "unknown")
    require_columns(offers, ["event_id"], "share()")
    if not isinstance(column, str) or column not in offers:
        hint = (
            did_you_mean(column, [str(c) for c in offers.columns])
            if isinstance(column, str)
            else ""
        )
        flags = [
            n for n in dimensions(offers) if n in offers and pd.api.types.is_bool_dtype(offers[n])
        ]
        raise MissingColumns(
            f"share() needs a column of the frame, got {column!r}.{hint} Its yes/no columns: "
            f"{', '.join(flags) or 'none'}."
        )
    values = offers[column]
    if isinstance(values.dtype, pd.CategoricalDtype):
        labels = [str(c) for c in values.cat.categories]
        if value not in values.cat.categories:
            raise UsageError(
                f'share(): {value!r} is no value of "{column}"; its values: '
                f"{', '.join(labels)}.{did_you_mean(str(value), labels)}"
            )
    elif value is True and not pd.api.types.is_bool_dtype(values.dtype):
        raise UsageError(
            f'share(): "{column}" is not a yes/no column; name the value whose share you '
            f"want, e.g. value={values.dropna().iloc[0] if values.notna().any() else 'x'!r}."
        )
    keys = dimension_keys(by) if by is not None else []
    flag = pd.Series(pd.array(values == value, dtype="boolean"), index=offers.index).mask(
        values.isna()
    )
    data = distinct_events(offers.assign(_flag=flag), keys, extra=("_flag",))
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
    out = restore_levels(out, data, keys) if keys else out
    out = keep_source(out, offers)
    out.attrs["share"] = {"column": column, "value": value, "unknown": unknown}
    return out


def _capacity(
    groups: DataFrameGroupBy[Any, Literal[True]], data: pd.DataFrame, events: pd.Series
) -> tuple[pd.Series, pd.Series]:
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
        raise UsageError(f'normalize="{normalize}" needs two dimensions in by; use "all".')
    level = 0 if normalize == "index" else 1
    rows = data if not dropna else data.dropna(subset=list(keys))
    totals = rows.groupby(keys[level], observed=False, dropna=dropna)["event_id"].nunique()
    # pandas maps by a Series (documented); the stubs only know a mapping or a function.
    denominator = counts.index.get_level_values(level).map(totals)  # type: ignore[arg-type]
    divisor = pd.array(np.asarray(denominator, dtype="float64"), dtype="Float64")
    return (counts / divisor).astype("Float64")
