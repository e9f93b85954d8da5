"""Per-capita tables by district for readers: the rows of one with its states' subtotals
(:func:`educatalog.stats.per_capita` with ``by="district", subtotals=True``), the district
key beside each name, "Bayern zusammen" / "Bavaria total" for a state's subtotal (its key
beside it), "Deutschland" / "Germany" for the total of all 16 states; and the lists of the
districts with the most and the fewest events per inhabitant (:func:`district_ranking`)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from educatalog import texts
from educatalog.frames.districts import district_table
from educatalog.frames.provenance import SOURCE_ATTR
from educatalog.population import STATE_KEYS, STATES
from educatalog.tables.symbols import MIN_CASES, check_min_cases

__all__ = [
    "district_ranking",
    "district_rows",
    "districts_of",
    "is_district_table",
    "is_subtotal",
    "rate_column",
]

_REGIONS = ("district", "district_key")


def is_district_table(table: pd.DataFrame, margins: Any) -> bool:
    """Whether ``table`` lists districts under their states with subtotals (index
    ``(state, district)`` or ``(state, district_key)``, ``margins`` the subtotals' label)."""
    names = list(table.index.names or [])
    info = table.attrs.get("per_capita") if isinstance(table.attrs, dict) else None
    return (
        margins is not None
        and len(names) == 2
        and names[0] == "state"
        and names[1] in _REGIONS
        and isinstance(info, dict)
        and bool(info.get("subtotals"))
    )


def is_subtotal(key: Any, margins: Any) -> bool:
    """Whether a row of such a table is a state's subtotal: ``(state, "All")``."""
    return (
        isinstance(key, tuple)
        and len(key) == 2
        and key[1] == margins
        and key[0] != margins
        and margins is not None
    )


def district_rows(
    frame: pd.DataFrame, lang: str, margins: Any, *, without: bool
) -> tuple[pd.DataFrame, list[int]]:
    """``frame`` (such a table) with the index (key, name) as a reader sees it, and the
    positions of the states' subtotal rows. The total of all 16 states is "Deutschland",
    of fewer "Insgesamt"; with ``without`` (events without a district, which no rate
    counts) "Deutschland (Veranstaltungen mit Kreis)"."""
    region = frame.index.names[1]
    table = district_table()
    names = dict(zip(table.index, table["district"], strict=True))
    keys_of = {name: key for key, name in names.items()}
    states = {str(s) for s in frame.index.get_level_values(0) if s != margins}
    national = set(STATE_KEYS.values()) <= {STATE_KEYS.get(s, "") for s in states}
    keys, labels, subtotals = [], [], []
    for n, (state, district) in enumerate(frame.index):
        if state == margins:
            total = texts.total_label(national, lang)
            keys.append("")
            with_district = texts.text("total.with_district", lang, total=total)
            labels.append(with_district if without else total)
        elif district == margins:
            keys.append(STATE_KEYS.get(str(state), ""))
            labels.append(texts.text("total.state", lang, state=texts.label(state, lang)))
            subtotals.append(n)
        else:
            key = str(district) if region == "district_key" else keys_of.get(str(district), "")
            keys.append(key)
            labels.append(texts.label(names.get(key, str(district)), lang))
    out = frame.copy()
    out.index = pd.MultiIndex.from_arrays(
        [keys, labels],
        names=[
            texts.capitalized(texts.dimension("key", lang)),
            texts.capitalized(texts.dimension("district", lang)),
        ],
    )
    return out, subtotals


def rate_column(rates: pd.DataFrame) -> str:
    """The column of the rate of a per-capita table (``events_per_100k``)."""
    return next(str(c) for c in rates.columns if str(c).startswith("events_per_"))


def districts_of(rates: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``rates`` (:func:`educatalog.stats.per_capita` by district, with
    subtotals or without) that are districts, no subtotal, no total, indexed by (``key``,
    ``district``, ``state``)."""
    margins = rates.attrs.get("margins")
    region = str(rates.index.names[-1])
    values = rates.index.get_level_values(region)
    rows = rates[[v != margins for v in values]].copy()
    table = district_table()
    if region == "district_key":
        keys = [str(v) for v in rows.index.get_level_values(region)]
    else:
        key_of = dict(zip(table["district"], table.index, strict=True))
        keys = [key_of[str(v)] for v in rows.index.get_level_values(region)]
    state_of = STATES.set_index("key")["state"]
    rows.index = pd.MultiIndex.from_arrays(
        [keys, list(table.loc[keys, "district"]), [state_of[k[:2]] for k in keys]],
        names=["key", "district", "state"],
    )
    return rows


def district_ranking(
    rates: pd.DataFrame, n: int = 10, *, fewest: bool = False, min_cases: int = MIN_CASES
) -> pd.DataFrame:
    """The ``n`` districts of ``rates`` (:func:`educatalog.stats.per_capita` by district,
    with subtotals or without) with the most events per 100,000 inhabitants (``fewest``:
    the fewest), the highest (lowest) rate first and districts of the same rate in the order
    of their keys; a district without a rate (no population), or whose rate rests on 1 to
    ``min_cases`` - 1 events (not reliable enough: "/" in its table), is in neither list.
    Index (``key``, ``district``, ``state``); columns ``events``, ``population`` and the
    rate; the attrs of ``rates`` (source and population, events without a district or state)
    and ``attrs["ranking"]``: ``fewest``, ``rate`` at the end of the list and how many
    districts have it (``tied``), of which ``shown`` in the list, and how many districts
    were left out for too few events (``unreliable``, under ``min_cases``)."""
    rate = rate_column(rates)
    rows = districts_of(rates)
    rows = rows[rows[rate].notna().to_numpy()]
    events = pd.to_numeric(rows["events"], errors="coerce")
    unreliable = ((events > 0) & (events < check_min_cases(min_cases))).to_numpy()
    rows = rows[~unreliable]
    order = pd.DataFrame(
        {"rate": rows[rate].astype(float).to_numpy(), "key": rows.index.get_level_values("key")}
    ).sort_values(["rate", "key"], ascending=[fewest, True], kind="stable")
    ranked = rows.iloc[order.index[:n]][["events", "population", rate]]
    ranked.attrs = {
        k: (dict(v) if isinstance(v, dict) else v)
        for k, v in rates.attrs.items()
        if k in (SOURCE_ATTR, "without_district", "districts_without_state")
    }
    last = ranked[rate].iloc[-1] if len(ranked) else None
    ranked.attrs["ranking"] = {
        "fewest": fewest,
        "rate": last,
        "tied": int((rows[rate] == last).sum()) if last is not None else 0,
        "shown": int((ranked[rate] == last).sum()) if last is not None else 0,
        "unreliable": int(unreliable.sum()),
        "min_cases": min_cases,
    }
    return ranked
