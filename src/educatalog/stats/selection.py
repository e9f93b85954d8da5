"""A selection of the offers whose levels are those the selection admits: :func:`select`.
Definitions: ``docs/definitions.md`` ("A filter narrows the levels")."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import pandas as pd

from educatalog.errors import MissingColumns, UsageError, did_you_mean
from educatalog.files.manifests import as_date
from educatalog.frames.districts import STATE_CODES, district_table
from educatalog.frames.provenance import SOURCE_ATTR

__all__ = ["select"]


def select(
    offers: pd.DataFrame,
    *,
    start: dt.date | str | None = None,
    end: dt.date | str | None = None,
    **levels: Any,
) -> pd.DataFrame:
    """The offers of the given levels and start dates, with the levels narrowed to those
    the selection admits: ``select(offers, state=["Bayern", "Sachsen"])`` keeps the events
    in Bayern and Sachsen, and its ``state`` lists only these two states, so that every
    table, chart and tile map of the selection shows the two and never 14 states "with 0
    events" that the selection left out.

    Each keyword names a labelled (categorical) column and one value or a list of values
    (``None`` selects the events without a value); ``start`` and ``end`` (dates, both
    included) keep the events starting within them, and no event without a start date.
    Selecting ``state`` narrows ``state_code`` alike, and ``district`` to the districts of
    the states selected. A value that is no level of its
    column fails, naming the levels. ``attrs["educatalog"]["selection"]`` records what was
    selected (the values, ``start`` and ``end`` as ISO dates).
    """
    keep = pd.Series(True, index=offers.index)
    narrowed: dict[str, list[Any]] = {}
    for column, chosen in levels.items():
        values = _values(chosen)
        keep &= _member(offers, column, values)
        narrowed[column] = values
    dates = {n: as_date(v, n).isoformat() for n, v in (("start", start), ("end", end)) if v}
    if "start" in dates and "end" in dates and dates["start"] > dates["end"]:
        raise UsageError(f"start {dates['start']} is after end {dates['end']}.")
    if dates and "event_start_date" not in offers:
        raise MissingColumns("select(start=..., end=...) needs the column event_start_date.")
    if "start" in dates:
        keep &= (offers["event_start_date"] >= pd.Timestamp(dates["start"])).fillna(False)
    if "end" in dates:
        after = pd.Timestamp(dates["end"]) + pd.Timedelta(days=1)
        keep &= (offers["event_start_date"] < after).fillna(False)
    out = offers[keep.to_numpy()].copy()
    for column, values in narrowed.items():
        out[column] = narrow(out[column], values)
        if column == "state" and "state_code" in out:
            codes = offers.loc[offers["state"].isin(values), "state_code"].dropna().unique()
            keep_missing = any(v is None for v in values)
            out["state_code"] = narrow(out["state_code"], [*codes, *([None] * keep_missing)])
            if "district" in out and "district" not in narrowed:
                out["district"] = narrow(out["district"], _districts_of(list(codes)))
    out.attrs = {k: (dict(v) if isinstance(v, dict) else v) for k, v in offers.attrs.items()}
    recorded = dict(out.attrs.get(SOURCE_ATTR) or {})
    selection = {c: [None if v is None else str(v) for v in vs] for c, vs in narrowed.items()}
    recorded["selection"] = {**recorded.get("selection", {}), **selection, **dates}
    out.attrs[SOURCE_ATTR] = recorded
    return out


def _districts_of(state_codes: Sequence[Any]) -> list[str]:
    """The names of the districts of the states of these ISO codes."""
    keys = {STATE_CODES[str(c)] for c in state_codes if str(c) in STATE_CODES}
    table = district_table()
    return list(table.loc[table["state_key"].isin(keys), "district"])


def _values(chosen: Any) -> list[Any]:
    if chosen is None or isinstance(chosen, str) or not isinstance(chosen, Sequence):
        return [chosen]
    return list(chosen)


def _member(offers: pd.DataFrame, column: str, values: list[Any]) -> pd.Series:
    """Which rows hold one of ``values`` in ``column`` (None: no value)."""
    if column not in offers:
        raise MissingColumns(
            f'select() has no column "{column}" to select by.'
            f"{did_you_mean(column, [str(c) for c in offers.columns])}"
        )
    series = offers[column]
    if isinstance(series.dtype, pd.CategoricalDtype):
        levels = [str(c) for c in series.cat.categories]
        unknown = [v for v in values if v is not None and str(v) not in levels]
        if unknown:
            raise UsageError(
                f'select(): {unknown[0]!r} is no value of "{column}"; its values: '
                f"{', '.join(levels)}.{did_you_mean(str(unknown[0]), levels)}"
            )
    named = [v for v in values if v is not None]
    member = series.isin(named).fillna(False).astype(bool)
    if any(v is None for v in values):
        member |= series.isna()
    return member


def narrow(series: pd.Series, values: Sequence[Any]) -> pd.Series:
    """A categorical column whose categories are those of ``values``, in its own order."""
    if not isinstance(series.dtype, pd.CategoricalDtype):
        return series
    wanted = {str(v) for v in values if v is not None}
    kept = [c for c in series.cat.categories if str(c) in wanted]
    return series.cat.set_categories(kept, ordered=series.cat.ordered)
