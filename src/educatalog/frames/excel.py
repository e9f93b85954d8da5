"""What every workbook educatalog writes has in common: sheet names Excel accepts, text that
stays text (never a formula), values a cell can hold, and the size limit of a sheet.

:func:`educatalog.tables.write_excel` (tables for readers) and
:func:`educatalog.snapshot.export` (whole tables for analysis) both build on it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from educatalog.errors import UsageError

__all__ = ["MAX_ROWS", "SHEET_NAME_LENGTH", "cell_value", "check_rows", "sheet_names", "text_cell"]

MAX_ROWS = 1_048_576
"""Rows of an Excel sheet, the header row included."""

SHEET_NAME_LENGTH = 31
"""The longest sheet name Excel accepts."""

_BAD_SHEET = re.compile(r"[\[\]:*?/\\]")


def sheet_names(
    titles: Sequence[str],
    *,
    reserved: Sequence[str] = (),
    replace: str = "-",
    fallback: str = "Tabelle",
    suffix: str = " ({n})",
) -> list[str]:
    """Sheet names for ``titles``: at most 31 characters, cut after a whole word (a word
    longer than that is cut), a colon as a dash, the other characters Excel forbids
    replaced by ``replace``, unique
    without regard to case (also against ``reserved``), a repeated name told apart by
    ``suffix`` (``{n}`` is 2, 3, ...)."""
    taken = {r.lower() for r in reserved}
    names = []
    for title in titles:
        cleaned = _BAD_SHEET.sub(replace, re.sub(r"\s*:\s*", " – ", title)).strip("' ")
        base = _whole_words(cleaned, SHEET_NAME_LENGTH) or fallback
        name, n = base, 1
        while name.lower() in taken:
            n += 1
            tail = suffix.format(n=n)
            name = _whole_words(base, SHEET_NAME_LENGTH - len(tail)) + tail
        taken.add(name.lower())
        names.append(name)
    return names


def _whole_words(text: str, length: int) -> str:
    """``text`` cut to at most ``length`` characters after a whole word, without the
    punctuation a cut leaves at its end."""
    if len(text) <= length:
        return text.strip()
    cut = text[: length + 1]
    space = cut.rfind(" ")
    kept = cut[:space] if space > 0 else text[:length]
    return kept.rstrip(" ,;:-–—(/").strip()


def text_cell(sheet: Any, value: str) -> Any:
    """``value`` as a cell of ``sheet`` that stays text in Excel, also when it starts with
    ``=``, with the characters XML cannot hold replaced by U+FFFD (works for normal and
    write-only sheets)."""
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    value = ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)
    if value.startswith("="):
        cell = WriteOnlyCell(sheet, value=value)
        cell.data_type = "s"
        return cell
    return value


def cell_value(sheet: Any, value: Any) -> Any:
    """A value for a cell of ``sheet``: text through :func:`text_cell`, numpy scalars as
    Python numbers, anything else as it is."""
    if isinstance(value, str):
        return text_cell(sheet, value)
    if isinstance(value, np.generic):
        return value.item()
    return value


def check_rows(name: str, rows: int) -> None:
    """:class:`~educatalog.errors.UsageError` when a table of ``rows`` rows (plus a header)
    does not fit a sheet."""
    if rows + 1 > MAX_ROWS:
        raise UsageError(
            f'Table "{name}" has {rows:,} rows, more than an Excel sheet holds '
            f"({MAX_ROWS - 1:,}); export it as csv or parquet."
        )
