"""The check every statistic, table and chart makes first: is this a frame with the columns
it needs?

>>> require_columns(offers, ["event_id", "state"], "supply()")  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd

from educatalog.errors import MissingColumns, WrongType

__all__ = ["require_columns", "require_frame"]

OFFERS_HINT = "build the frame of offers with educatalog.load_catalogue().offers()"
"""How to get the frame most functions take, said in the errors about it."""


def require_frame(frame: Any, what: str, *, hint: str = OFFERS_HINT) -> pd.DataFrame:
    """``frame`` when it is a pandas DataFrame, else :class:`~educatalog.errors.WrongType`
    naming ``what`` needs it."""
    if not isinstance(frame, pd.DataFrame):
        raise WrongType(f"{what} needs a pandas DataFrame, not {type(frame).__name__}; {hint}.")
    return frame


def require_columns(
    frame: Any, columns: Iterable[str], what: str, *, hint: str = OFFERS_HINT
) -> pd.DataFrame:
    """``frame`` when it is a DataFrame holding every one of ``columns``; else an error that
    names ``what`` needs them, the missing columns and ``hint`` (how to get a frame that has
    them): :class:`~educatalog.errors.WrongType` or :class:`~educatalog.errors.MissingColumns`.
    """
    checked = require_frame(frame, what, hint=hint)
    missing = [c for c in dict.fromkeys(columns) if c not in checked.columns]
    if missing:
        raise MissingColumns(
            f"{what} needs the column(s) {', '.join(missing)}, which the frame lacks; {hint}."
        )
    return checked
