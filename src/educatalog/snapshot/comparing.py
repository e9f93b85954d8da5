"""What changed between two snapshots (or loaded catalogues), table by table."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pandas as pd

from educatalog.frames.catalogue import COLLECTIONS, LINK_TABLES, Catalogue
from educatalog.snapshot.loading import as_catalogue

# ---------------------------------------------------------------------------------------
# diff


def diff(
    old: Catalogue | str | os.PathLike[str], new: Catalogue | str | os.PathLike[str]
) -> pd.DataFrame:
    """Rows added, removed and changed per table from ``old`` to ``new``.

    Catalogues or snapshot paths. Collections are matched by ``id``; a row counts as changed
    when a column both have differs (nulls equal nulls). Link tables are matched by pair, so
    their rows are only added or removed. One row per table, in catalogue order, with the
    columns ``rows_before``, ``rows_after``, ``added``, ``removed``, ``changed``; a table that
    only one side holds has nulls (``<NA>``) where the other side would be.
    """
    before, after = as_catalogue(old), as_catalogue(new)
    order = [n for n in (*COLLECTIONS, *LINK_TABLES) if n in before or n in after]
    records = []
    for name in order:
        a, b = before.get(name), after.get(name)
        record: dict[str, Any] = {
            "table": name,
            "rows_before": None if a is None else len(a),
            "rows_after": None if b is None else len(b),
        }
        if a is not None and b is not None:
            record.update(_table_changes(name, a, b))
        records.append(record)
    columns = ["table", "rows_before", "rows_after", "added", "removed", "changed"]
    frame = pd.DataFrame.from_records(records, columns=columns).set_index("table")
    return frame.astype("Int64")


def _table_changes(name: str, a: pd.DataFrame, b: pd.DataFrame) -> dict[str, int]:
    if a.empty or b.empty:
        return {"added": len(b), "removed": len(a), "changed": 0}
    by_id = name not in LINK_TABLES and "id" in a and "id" in b
    if by_id and a["id"].is_unique and b["id"].is_unique:
        ia, ib = pd.Index(a["id"]), pd.Index(b["id"])
        common = ia.intersection(ib)
        changed = 0
        if len(common):
            x = a.set_index("id").loc[common]
            y = b.set_index("id").loc[common]
            differs = np.zeros(len(common), dtype=bool)
            for column in (c for c in x.columns if c in y.columns):
                differs |= values_differ(x[column], y[column])
            changed = int(differs.sum())
        return {
            "added": len(ib.difference(ia)),
            "removed": len(ia.difference(ib)),
            "changed": changed,
        }
    keys = [c for c in a.columns if c in b.columns]
    ka = pd.MultiIndex.from_frame(a[keys]) if len(keys) > 1 else pd.Index(a[keys[0]])
    kb = pd.MultiIndex.from_frame(b[keys]) if len(keys) > 1 else pd.Index(b[keys[0]])
    return {"added": len(kb.difference(ka)), "removed": len(ka.difference(kb)), "changed": 0}


def values_differ(x: pd.Series, y: pd.Series) -> np.ndarray:
    """Per row: the values differ (a null equals a null, and only a null)."""
    if x.dtype != y.dtype:
        x, y = x.astype("string"), y.astype("string")
    x_na, y_na = x.isna().to_numpy(), y.isna().to_numpy()
    try:
        unequal = (x.reset_index(drop=True) != y.reset_index(drop=True)).fillna(False)
        values = unequal.to_numpy(dtype=bool)
    except TypeError:  # values pandas cannot compare (lists, mixed objects)
        values = np.array([repr(p) != repr(q) for p, q in zip(x, y, strict=True)], dtype=bool)
    return (values & ~x_na & ~y_na) | (x_na ^ y_na)
