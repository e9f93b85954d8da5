"""What the charts need of the frame of offers: its columns, checked before drawing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from educatalog import stats
from educatalog.frames.columns import require_columns

PER_100K = "events_per_100k"

MEASURE_COLUMNS: dict[str, str] = {
    # measure: the column it needs (title and axis label: educatalog.texts)
    "events": "event_id",
    "courses": "course_id",
    "institutions": "institution",
    "capacity": "max_participants",
    PER_100K: "state",
}


def columns_of(offers: pd.DataFrame, dimensions: Sequence[str | None]) -> list[str]:
    """The columns the dimensions need (``event_start_date`` for year, quarter, month)."""
    return [
        "event_start_date" if d not in offers and d in stats.DERIVED_DIMENSIONS else d
        for d in dimensions
        if d is not None
    ]


def require(offers: Any, columns: Sequence[str], what: str) -> pd.DataFrame:
    """``offers`` when it is a frame with ``columns``; else an error that says how to build
    the frame of offers (with funding columns where those are missing)."""
    missing = [c for c in columns if not isinstance(offers, pd.DataFrame) or c not in offers]
    how = (
        "catalogue.offers(funding=True)"
        if any(c.startswith("funding_") for c in missing)
        else "catalogue.offers()"
    )
    hint = f"build the frame of offers with {how}, catalogue = educatalog.load_catalogue()"
    return require_columns(offers, columns, what, hint=hint)
