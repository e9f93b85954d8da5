"""The distribution of the offers' costs per currency: :func:`costs`.
Definitions: ``docs/definitions.md``."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from educatalog.frames.columns import require_columns
from educatalog.stats.dimensions import (
    MARGINS,
    choice,
    dimension_keys,
    distinct_events,
    keep_source,
    restore_levels,
    with_margins,
)

__all__ = ["COST_UNITS", "costs"]

COST_UNITS: tuple[str, ...] = ("course", "event")
"""What :func:`costs` counts once: each course (``per="course"``, the default: the service
states costs per course) or each event with its course's cost (``per="event"``)."""

_QUANTILES = ("min", "q1", "median", "q3", "max", "mean")


def costs(
    offers: pd.DataFrame,
    by: str | Sequence[str] | None = None,
    *,
    currency: str | None = None,
    per: str = "course",
    margins: bool = False,
    margins_name: str = MARGINS,
) -> pd.DataFrame:
    """The distribution of the offers' costs per currency (and ``by``): ``courses`` and
    ``events`` with a known cost, ``zero`` (of which at a cost of 0: the courses, or with
    ``per="event"`` the events; a 0 is what the service states, often for a course funded
    by an education voucher, and counts as a cost), ``min``, ``q1``, ``median``, ``q3``,
    ``max``, ``mean``.

    ``per="course"`` (the default) takes each course once with its cost: the service states
    costs per course, and a course with ten events is one price, not ten. ``per="event"``
    takes each event once with its course's cost, so a course weighs as much as it has
    events. Either way a course (event) counts once in each group of ``by`` it has events
    in, and costs are never mixed across currencies (``currency`` keeps one). Courses and
    events without a cost or currency are left out (:func:`quality` counts them). Every
    level of ``by`` is listed for every currency, with 0 and no quartiles where there are
    none. ``margins=True`` adds a row ``margins_name`` ("All") per currency over all groups.
    ``attrs["costs"]["per"]`` says which, ``["priced"]`` how many courses (events) have a
    cost and ``["zero"]`` how many of them state 0 (a price like any other: voucher-funded
    courses often do). Definitions: ``docs/definitions.md``.
    """
    choice(per, COST_UNITS, "per")
    keys = dimension_keys(by) if by is not None else []
    require_columns(offers, ["event_id", "cost", "cost_currency"], "costs()")
    data = distinct_events(offers, keys, extra=("cost", "cost_currency"))
    data = data[data["cost"].notna() & data["cost_currency"].notna()]
    if currency is not None:
        data = data[data["cost_currency"] == currency]
    currencies = pd.Index(sorted(data["cost_currency"].unique()), dtype="string")
    data = data.assign(
        cost=data["cost"].astype("float64"),
        cost_currency=pd.Categorical(data["cost_currency"], categories=currencies),
    )
    out = _distribution(data, [*keys, "cost_currency"], per)
    out = restore_levels(out, data, keys, plain=("cost_currency",))
    out.index.names = [*keys, "currency"]
    if margins:
        out = _add_margins(out, data, keys, per, margins_name)
    out = keep_source(out, offers)
    unit = "course_id" if per == "course" and "course_id" in data else "event_id"
    counted = data.drop_duplicates(unit)
    out.attrs["costs"] = {
        "per": per,
        "priced": len(counted),  # courses (events) with a cost
        "zero": int((counted["cost"] == 0).sum()),  # of them at 0: a stated price too
    }
    if margins:
        out.attrs["margins"] = margins_name
    return out


def _distribution(data: pd.DataFrame, group_keys: list[str], per: str) -> pd.DataFrame:
    """Per group: courses and events with a cost and the quartiles of one cost per course
    (``per="course"``) or per event."""
    groups = data.groupby(group_keys, observed=False, dropna=False, sort=True)
    counted = data
    if per == "course" and "course_id" in data:
        counted = data.drop_duplicates([*group_keys, "course_id"])
    cost = counted.groupby(group_keys, observed=False, dropna=False, sort=True)["cost"]
    zero = (
        counted["cost"]
        .eq(0)
        .groupby([counted[k] for k in group_keys], observed=False, dropna=False, sort=True)
        .sum()
    )
    out = pd.DataFrame(
        {
            "courses": groups["course_id"].nunique().astype("Int64")
            if "course_id" in data
            else pd.Series(pd.NA, index=groups.size().index, dtype="Int64"),
            "events": groups.size().astype("Int64"),
            "zero": zero.astype("Int64"),
            "min": cost.min(),
            "q1": cost.quantile(0.25),
            "median": cost.median(),
            "q3": cost.quantile(0.75),
            "max": cost.max(),
            "mean": cost.mean(),
        }
    )
    for column in _QUANTILES:
        out[column] = out[column].astype("Float64")
    return out


def _add_margins(
    out: pd.DataFrame, data: pd.DataFrame, keys: list[str], per: str, name: str
) -> pd.DataFrame:
    """A total row per currency, over every group of ``keys`` (each course or event once)."""
    if not keys:
        return out
    totals = _distribution(data.drop(columns=keys).drop_duplicates(), ["cost_currency"], per)
    parts = []
    for currency, rows in out.groupby(level="currency", observed=False, sort=False):
        row = totals[totals.index == currency].iloc[0].to_dict()
        block = with_margins(rows.droplevel("currency"), {str(k): v for k, v in row.items()}, name)
        labels = [(*(k if isinstance(k, tuple) else (k,)), currency) for k in block.index]
        parts.append(block.set_axis(pd.MultiIndex.from_tuples(labels, names=out.index.names)))
    return pd.concat(parts) if parts else out
