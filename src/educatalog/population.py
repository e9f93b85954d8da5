"""Inhabitants of the 16 German states, for offers per 100,000 inhabitants.

>>> educatalog.population.STATE_POPULATION.loc["DE-BE", "population"]  # doctest: +SKIP
3755251
>>> educatalog.population.DATE                                         # doctest: +SKIP
datetime.date(2022, 12, 31)

The figures are those of Destatis table 12411-0010 ("Bevölkerung: Bundesländer,
Stichtag", Fortschreibung des Bevölkerungsstandes on the basis of the 2011 census) for
31 December 2022, to the person; they add up to the published total for Germany,
84,358,845. They ship as ``educatalog/data/population_de.csv``, whose header lines name
the publisher, statistic, table and reference date. :func:`read_population` reads such a
file (also one of your own with the same columns), and
:func:`educatalog.stats.per_capita` takes ``population=`` a table of your own.
"""

from __future__ import annotations

import datetime as dt
import io
import os
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd

from educatalog.errors import EducatalogError

__all__ = [
    "DATE",
    "PUBLISHER",
    "SOURCE",
    "STATE_POPULATION",
    "STATISTIC",
    "TABLE",
    "TOTAL",
    "YEAR",
    "origin",
    "read_population",
    "state_population",
]

_FILE = "population_de.csv"


def read_population(path: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """A population table from a CSV file (default: the shipped one): index ``code``
    (ISO 3166-2), columns ``state`` (German name) and ``population`` (Int64).

    Lines starting with ``#`` before the header may give ``key: value`` metadata
    (``publisher``, ``statistic``, ``table``, ``date`` as YYYY-MM-DD, ``total``, and
    ``publisher_en``, ``statistic_en`` for English pages); they land in ``attrs`` with
    ``source`` (one line naming them) and ``year``.
    """
    if path is None:
        text = resources.files("educatalog").joinpath("data", _FILE).read_text("utf-8")
        name = _FILE
    else:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise EducatalogError(f"Cannot read the population file {path}: {exc}.") from None
        name = str(path)
    meta: dict[str, Any] = {}
    rows = []
    for line in text.splitlines():
        if line.startswith("#"):
            key, colon, value = line[1:].partition(":")
            if colon and key.strip().isidentifier():
                meta[key.strip()] = value.strip()
        elif line.strip():
            rows.append(line)
    frame = pd.read_csv(io.StringIO("\n".join(rows)), dtype={"code": "string", "state": "string"})
    missing = [c for c in ("code", "state", "population") if c not in frame]
    if missing:
        raise EducatalogError(
            f"The population file {name} lacks the column(s) {', '.join(missing)}; it needs "
            "code (ISO 3166-2, e.g. DE-BY), state and population."
        )
    frame["population"] = frame["population"].astype("Int64")
    frame = frame[["code", "state", "population"]].set_index("code")
    if "date" in meta:
        try:
            meta["date"] = dt.date.fromisoformat(meta["date"])
        except ValueError:
            raise EducatalogError(
                f"The population file {name} gives the date {meta['date']!r}; write it as "
                "YYYY-MM-DD."
            ) from None
    if "total" in meta:
        meta["total"] = int(meta["total"])
    frame.attrs.update(meta)
    frame.attrs["year"] = meta["date"].year if "date" in meta else None
    frame.attrs["source"] = _source_line(meta)
    return frame


def _source_line(meta: dict[str, Any]) -> str:
    parts = [meta.get("publisher"), meta.get("statistic")]
    line = ", ".join(p for p in parts if p) or "unnamed source"
    if meta.get("table"):
        line += f", Tabelle {meta['table']}"
    if meta.get("date"):
        line += f", Stand {meta['date']:%d.%m.%Y}"
    return line


def state_population() -> pd.DataFrame:
    """The shipped table: index ``code`` (ISO 3166-2), columns ``state`` (German name) and
    ``population`` (Int64); ``attrs`` name the source, table and reference date."""
    return read_population()


STATE_POPULATION: pd.DataFrame = state_population()
"""Inhabitants per state on :data:`DATE` (:data:`SOURCE`)."""

DATE: dt.date = STATE_POPULATION.attrs["date"]
"""Reference date of the figures (Stichtag): 31 December 2022."""

YEAR: int = DATE.year
"""The year of :data:`DATE`."""

PUBLISHER: str = STATE_POPULATION.attrs["publisher"]
STATISTIC: str = STATE_POPULATION.attrs["statistic"]
TABLE: str = STATE_POPULATION.attrs["table"]
"""The Destatis (GENESIS-Online) table the figures come from."""

TOTAL: int = STATE_POPULATION.attrs["total"]
"""Germany's total on :data:`DATE` as published; the 16 states add up to it."""

SOURCE: str = STATE_POPULATION.attrs["source"]
"""Where the figures come from, with table and reference date."""


def origin(table: pd.DataFrame | pd.Series | None = None) -> dict[str, Any]:
    """What a per-capita table records of its population figures
    (``attrs["educatalog"]["population"]``): ``source``, ``year``, ``date`` (ISO) and,
    where known, ``publisher``, ``statistic`` and ``table``."""
    attrs = STATE_POPULATION.attrs if table is None else table.attrs
    out: dict[str, Any] = {"source": attrs.get("source"), "year": attrs.get("year")}
    date = attrs.get("date")
    if isinstance(date, str):
        date = dt.date.fromisoformat(date)
    if isinstance(date, dt.date):
        out["date"] = date.isoformat()
        out["year"] = out["year"] or date.year
    for key in ("publisher", "statistic", "table", "publisher_en", "statistic_en"):
        if attrs.get(key):
            out[key] = attrs[key]
    return out
