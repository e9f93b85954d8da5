"""Deduplication across snapshots: a table as row versions (``valid_from``, ``valid_to``),
matched by key, and the offers frame (and its funding types) in one schema for every
engine."""

from __future__ import annotations

import datetime as dt
import hashlib
import json

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa

from educatalog.errors import ArchiveError
from educatalog.frames.catalogue import LINK_TABLES
from educatalog.frames.districts import DISTRICT_COLUMNS
from educatalog.history.format import VALID_FROM, VALID_TO
from educatalog.snapshot.comparing import values_differ

__all__ = [
    "FUNDING_COLUMNS",
    "arrow",
    "closed",
    "funding_storage",
    "key_of",
    "offers_storage",
    "plain_table",
    "schema_of",
    "unchanged",
    "versioned",
]

FUNDING_COLUMNS = ("course_id", "funding_level", "funding_type")
"""The funding types of the offers' courses as archived: one row per course and type."""


def offers_storage(offers: pd.DataFrame) -> pd.DataFrame:
    """The offers frame with its labels as text (one schema for every engine and file),
    without the districts: the archive derives them from the address when it reads
    (:func:`educatalog.frames.offers.with_districts`), by the rule of the day it is read."""
    flat = offers.drop(columns=[c for c in DISTRICT_COLUMNS if c in offers])
    flat = flat.sort_values("event_id", kind="stable").reset_index(drop=True)
    for column in flat.columns:
        if isinstance(flat[column].dtype, pd.CategoricalDtype):
            flat[column] = flat[column].astype("string")
    flat.attrs = {}
    return flat


def funding_storage(funded: pd.DataFrame) -> pd.DataFrame:
    """The distinct (course, level, type) rows of ``offers(funding=True)``, labels as text,
    sorted: what DuckDB joins to the offers by ``course_id`` to group by funding types."""
    rows = funded.loc[
        funded["course_id"].notna() & funded["funding_type"].notna(), list(FUNDING_COLUMNS)
    ]
    flat = pd.DataFrame(
        {
            "course_id": rows["course_id"].astype("Int64"),
            "funding_level": rows["funding_level"].astype("string"),
            "funding_type": rows["funding_type"].astype("string"),
        }
    )
    flat = flat.drop_duplicates().sort_values(list(FUNDING_COLUMNS), kind="stable")
    return flat.reset_index(drop=True)


def key_of(name: str, frame: pd.DataFrame) -> list[str] | None:
    """The columns rows are matched by across snapshots, or None: store the table whole."""
    for column in frame.columns:
        dtype = frame[column].dtype
        if isinstance(dtype, pd.CategoricalDtype) or dtype is np.dtype(object):
            return None
    if name in LINK_TABLES or name == "funding":
        key = [str(c) for c in frame.columns]
    elif "id" in frame.columns or "event_id" in frame.columns:
        key = ["id"] if "id" in frame.columns else ["event_id"]
    else:
        return None
    keys = frame[key]
    if keys.isna().any().any() or keys.duplicated().any():
        return None
    if len(frame) > 1:
        ordered = keys.sort_values(key, kind="stable")
        if not ordered.index.equals(frame.index):
            return None
    return key


def schema_of(frame: pd.DataFrame) -> str:
    """A fingerprint of the frame's columns and dtypes."""
    text = json.dumps([[str(c), str(frame[c].dtype)] for c in frame.columns])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def arrow(frame: pd.DataFrame) -> pa.Table:
    """The frame as an Arrow table of row versions: its rows alone, the index dropped, without
    pandas ``attrs`` or schema metadata."""
    frame = frame.reset_index(drop=True)
    frame.attrs = {}
    table = pa.Table.from_pandas(frame, preserve_index=False)
    return table.replace_schema_metadata(None)


def plain_table(frame: pd.DataFrame) -> pa.Table:
    """The frame as an Arrow table stored whole (a table without a key): its index kept as
    pandas keeps one by default, its ``attrs`` left out."""
    frame = frame.copy(deep=False)
    frame.attrs = {}
    return pa.Table.from_pandas(frame, preserve_index=None)


def versioned(table: pa.Table, stamp: str) -> pa.Table:
    """Rows first listed at ``stamp`` and still listed: ``valid_from``, ``valid_to`` null."""
    for name in (VALID_FROM, VALID_TO):
        if name in table.column_names:
            raise ArchiveError(f'A table of the catalogue has a column "{name}" of its own.')
    table = table.append_column(VALID_FROM, _dates(stamp, table.num_rows))
    return table.append_column(VALID_TO, pa.nulls(table.num_rows, pa.date32()))


def closed(table: pa.Table, stamp: str) -> pa.Table:
    """Row versions no longer listed from ``stamp`` on."""
    position = table.column_names.index(VALID_TO)
    return table.set_column(position, VALID_TO, _dates(stamp, table.num_rows))


def _dates(stamp: str, n: int) -> pa.Array:
    return pa.array([dt.date.fromisoformat(stamp)] * n, type=pa.date32())


def unchanged(
    old: pd.DataFrame, new: pd.DataFrame, key: list[str]
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Per row of ``old`` and of ``new``: the other holds the same row (by key, every column
    equal, a null equal to a null)."""
    same_old = np.zeros(len(old), dtype=bool)
    same_new = np.zeros(len(new), dtype=bool)
    if not len(old) or not len(new):
        return same_old, same_new
    left: pd.Index
    right: pd.Index
    if len(key) == 1:
        left, right = pd.Index(old[key[0]]), pd.Index(new[key[0]])
    else:
        left, right = pd.MultiIndex.from_frame(old[key]), pd.MultiIndex.from_frame(new[key])
    common = left.intersection(right)
    po, pn = left.get_indexer(common), right.get_indexer(common)
    differs = np.zeros(len(common), dtype=bool)
    for column in new.columns:
        if column in key:
            continue
        if column not in old.columns:
            differs[:] = True
            break
        differs |= values_differ(old[column].iloc[po], new[column].iloc[pn])
    same_old[po[~differs]] = True
    same_new[pn[~differs]] = True
    return same_old, same_new
