"""The distribution of the offers' costs per currency: :func:`costs`.
Definitions: ``docs/definitions.md``."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from educatalog.columns import require_columns
from educatalog.stats.dimensions import (
    count_distinct,
    dimension_keys,
    distinct_events,
    keep_source,
    restore_levels,
)

__all__ = ["costs"]


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
    group_keys = [*keys, "cost_currency"]
    groups = data.groupby(group_keys, observed=False, dropna=False, sort=True)
    cost = groups["cost"]
    out = pd.DataFrame(
        {
            "events": groups.size().astype("Int64"),
            "courses": count_distinct(groups, data, "course_id"),
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
    out = restore_levels(out, data, keys, plain=("cost_currency",))
    out.index.names = [*keys, "currency"]
    return keep_source(out, offers)
