"""Inhabitants of the 16 German states, for offers per 100,000 inhabitants.

>>> educatalog.population.STATE_POPULATION.loc["DE-BE", "population"]  # doctest: +SKIP
3685265
>>> educatalog.population.DATE, educatalog.population.BASIS             # doctest: +SKIP
(datetime.date(2024, 12, 31), 'Zensus 2022')
>>> educatalog.population.table("2022-12-31", basis="Zensus 2011")      # doctest: +SKIP

The default figures are the newest complete ones on the current census basis: the
Fortschreibung des Bevölkerungsstandes of Destatis and the statistical offices of the Länder
(GENESIS-Online table 12411-0010, "Bevölkerung: Bundesländer, Stichtag") for **31 December
2024 on the basis of the Zensus 2022**, to the person; they add up to the published total
for Germany, 83,577,140. The earlier tables ship too (:func:`tables` lists them): 31.12.2022
and 31.12.2023 on the Zensus 2022 basis, and 31.12.2022 on the superseded Zensus 2011 basis
(84,358,845), which no current official per-capita figure uses. :func:`table` picks one by
date and basis.

They ship as ``educatalog/data/population_de.csv`` (date, basis, key, code, state,
population; the header lines name publisher, statistic, table and licence).
:func:`read_population` reads such a file, or one of your own: a CSV with the columns
``state`` (German or English name, ISO code such as ``DE-BY`` or key such as ``09``) and
``population``, and ``date`` and ``source`` (also ``basis``, ``code``, ``key``) where you have
them; every one of the 16 states needs a whole number. :func:`educatalog.stats.per_capita`
takes the table (or the file's path) as ``population=``, ``educatalog report`` as
``--population FILE``.
"""

from __future__ import annotations

import csv
import datetime as dt
import difflib
import functools
import io
import os
import re
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import pandas as pd

from educatalog.errors import EducatalogError
from educatalog.frames.districts import STATE_CODES, district_table
from educatalog.texts.labels import EN_LABELS

__all__ = [
    "BASIS",
    "DATE",
    "PUBLISHER",
    "SOURCE",
    "STATES",
    "STATE_KEYS",
    "STATE_POPULATION",
    "STATISTIC",
    "TABLE",
    "TOTAL",
    "YEAR",
    "district_population",
    "origin",
    "read_population",
    "state_population",
    "table",
    "table_for",
    "tables",
]

_FILE = "population_de.csv"

STATES: pd.DataFrame = pd.DataFrame(
    {
        "key": list(STATE_CODES.values()),
        "state": [
            "Schleswig-Holstein",
            "Hamburg",
            "Niedersachsen",
            "Bremen",
            "Nordrhein-Westfalen",
            "Hessen",
            "Rheinland-Pfalz",
            "Baden-Württemberg",
            "Bayern",
            "Saarland",
            "Berlin",
            "Brandenburg",
            "Mecklenburg-Vorpommern",
            "Sachsen",
            "Sachsen-Anhalt",
            "Thüringen",
        ],
    },
    index=pd.Index(
        list(STATE_CODES),
        name="code",
    ),
)
"""The 16 states in the official order of their keys (Amtlicher Gemeindeschlüssel, the first
two digits: 01 Schleswig-Holstein … 16 Thüringen): index ``code`` (ISO 3166-2), columns
``key`` and ``state`` (German name)."""

STATE_KEYS: dict[str, str] = {
    **dict(zip(STATES.index, STATES["key"], strict=True)),
    **dict(zip(STATES["state"], STATES["key"], strict=True)),
}
"""The official key of each state, by ISO code and by German name: ``"DE-SH"`` and
``"Schleswig-Holstein"`` -> ``"01"``."""

_GERMANY = ("00", "DE", "Deutschland", "Germany", "DG")


Level = Literal["state", "district"]
"""What a population table lists: the 16 states or the 400 districts."""


def read_population(
    path: str | os.PathLike[str] | None = None,
    *,
    date: dt.date | str | None = None,
    basis: str | None = None,
    level: Level = "state",
) -> pd.DataFrame:
    """A population table from a CSV file (default: the shipped one): index ``code`` (ISO
    3166-2) in the states' key order, columns ``key``, ``state`` (German name) and
    ``population`` (Int64). With ``level="district"``, the districts' table of
    :func:`district_population` from a file of districts.

    A file of districts (a column ``district_key``, ``ags`` or ``key`` of 5-digit district
    keys, or ``district`` holding such keys) serves both levels: its states are the sums of
    their districts, and a state needs every one of its districts.

    The file needs the columns ``state`` (a German or English name, an ISO code or a key)
    and ``population`` (whole numbers), one row per state; ``date`` (YYYY-MM-DD),
    ``basis`` (e.g. "Zensus 2022") and ``source`` are read where it has them, as are lines
    starting with ``#`` before the header that give ``key: value`` metadata (``publisher``,
    ``statistic``, ``table``, ``date``, ``basis``, ``licence`` and ``publisher_en``,
    ``statistic_en`` for English pages). A row for Germany (``Deutschland``, ``DE``, key
    ``00``) is the published total the states must add up to. A file of several dates or
    bases gives the one of ``date`` and ``basis`` (default: the newest date, and of it the
    newest census basis). Fields may be separated by ``,`` or ``;``. A file that misses a
    state or gives a value that is not a whole number fails with an error naming it.
    """
    if level not in ("state", "district"):
        raise EducatalogError(f'A population table lists "state" or "district", got {level!r}.')
    name, text = _read_text(path)
    meta, body = _split_header(text)
    if _of_districts(body):
        districts = _district_table(
            _choose(_parse_districts(body, name), name, date, basis, meta), name, meta
        )
        return districts if level == "district" else _states_of(districts, name)
    if level == "district":
        raise EducatalogError(
            f"The population file {name} lists states; a table of districts needs a column "
            "district_key (or ags, key) of 5-digit district keys and population."
        )
    frame = _parse(body, name)
    frame = _choose(frame, name, date, basis, meta)
    return _finish_table(frame, name, meta)


def _read_text(path: str | os.PathLike[str] | None) -> tuple[str, str]:
    if path is None:
        return _FILE, resources.files("educatalog").joinpath("data", _FILE).read_text("utf-8")
    try:
        return str(path), Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise EducatalogError(f"Cannot read the population file {path}: {exc}.") from None
    except UnicodeDecodeError:
        raise EducatalogError(
            f"The population file {path} is not UTF-8 text; save it as CSV (UTF-8)."
        ) from None


def _split_header(text: str) -> tuple[dict[str, Any], str]:
    meta: dict[str, Any] = {}
    lines = []
    for line in text.splitlines():
        if line.startswith("#"):
            key, colon, value = line[1:].partition(":")
            if colon and key.strip().isidentifier():
                meta[key.strip()] = value.strip()
        elif line.strip():
            lines.append(line)
    return meta, "\n".join(lines)


def _parse(body: str, name: str) -> pd.DataFrame:
    if not body:
        raise EducatalogError(f"The population file {name} holds no table.")
    first = body.splitlines()[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    rows = list(csv.DictReader(io.StringIO(body), delimiter=delimiter))
    columns = [c.strip().lower() for c in (rows[0].keys() if rows else first.split(delimiter))]
    missing = [c for c in ("state", "population") if c not in columns]
    if missing and not ("code" in columns and "population" in columns):
        raise EducatalogError(
            f"The population file {name} lacks the column(s) {', '.join(missing)}; it needs "
            "state (a name, an ISO code such as DE-BY or a key such as 09) and population, "
            f"and may give date, basis and source. Its columns: {', '.join(columns)}."
        )
    records = []
    for line, row in enumerate(rows, start=2):
        row = {str(k).strip().lower(): (v or "").strip() for k, v in row.items() if k}
        label = row.get("state") or row.get("code") or row.get("key") or ""
        code = _code_of(row, label, name, line)
        raw = row.get("population", "")
        if not re.fullmatch(r"\d+", raw.replace("\u00a0", "").replace(" ", "")):
            raise EducatalogError(
                f"The population file {name} gives {raw!r} as the population of {label} "
                f"(line {line}); a population is a whole number of inhabitants, written "
                "without separators (e.g. 13248928)."
            )
        when = row.get("date") or None
        if when is not None and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", when):
            raise EducatalogError(
                f"The population file {name} gives the date {when!r} for {label} (line "
                f"{line}); write it as YYYY-MM-DD."
            )
        records.append(
            {
                "code": code,
                "population": int(re.sub(r"\D", "", raw)),
                "date": when,
                "basis": row.get("basis") or None,
                "source": row.get("source") or None,
            }
        )
    return pd.DataFrame.from_records(
        records, columns=["code", "population", "date", "basis", "source"]
    )


_BY_NAME: dict[str, str] = {
    **{str(s).casefold(): str(c) for c, s in STATES["state"].items()},
    **{EN_LABELS.get(str(s), str(s)).casefold(): str(c) for c, s in STATES["state"].items()},
    **{str(c).casefold(): str(c) for c in STATES.index},
    **{str(c)[3:].casefold(): str(c) for c in STATES.index},
    **{str(k): str(c) for c, k in STATES["key"].items()},
    **{g.casefold(): "DE" for g in _GERMANY},
}


def _code_of(row: Mapping[str, str], label: str, name: str, line: int) -> str:
    for value in (row.get("code"), row.get("key"), label):
        if value and value.casefold() in _BY_NAME:
            return _BY_NAME[value.casefold()]
    close = difflib.get_close_matches(label, list(STATES["state"]), n=1)
    hint = f' Did you mean "{close[0]}"?' if close else ""
    raise EducatalogError(
        f'The population file {name} names "{label}" (line {line}), which is no German state.{hint}'
    )


def _choose(
    frame: pd.DataFrame,
    name: str,
    date: dt.date | str | None,
    basis: str | None,
    meta: Mapping[str, Any],
) -> pd.DataFrame:
    """The rows of one date and basis: the ones asked for, else the newest."""
    frame = frame.assign(
        date=frame["date"].fillna(meta.get("date") or ""),
        basis=frame["basis"].fillna(meta.get("basis") or ""),
    )
    tables = frame[["date", "basis"]].drop_duplicates()
    if date is not None:
        wanted = _iso(date, name)
        tables = tables[tables["date"] == wanted]
    if basis is not None:
        tables = tables[tables["basis"].str.casefold() == basis.casefold()]
    if tables.empty:
        known = frame[["date", "basis"]].drop_duplicates().itertuples(index=False)
        listed = "; ".join(f"{d or 'no date'} ({b or 'no basis'})" for d, b in known)
        raise EducatalogError(
            f"The population file {name} has no table of date {date or 'any'} and basis "
            f"{basis or 'any'}; it has: {listed}."
        )
    newest = tables.sort_values(["date", "basis"]).iloc[-1]
    chosen: pd.DataFrame = frame[
        (frame["date"] == newest["date"]) & (frame["basis"] == newest["basis"])
    ]
    doubled = chosen["code"][chosen["code"].duplicated()]
    if len(doubled):
        raise EducatalogError(
            f"The population file {name} gives {_names(doubled)} more than once for "
            f"{newest['date'] or 'its date'}."
        )
    return chosen


def _iso(value: dt.date | str, name: str) -> str:
    try:
        return (value if isinstance(value, dt.date) else dt.date.fromisoformat(value)).isoformat()
    except ValueError:
        raise EducatalogError(
            f"A population date is YYYY-MM-DD, got {value!r} (for {name})."
        ) from None


def _names(codes: pd.Series) -> str:
    return ", ".join(str(STATES["state"].get(c, "Deutschland")) for c in codes)


def _finish_table(chosen: pd.DataFrame, name: str, meta: dict[str, Any]) -> pd.DataFrame:
    germany = chosen[chosen["code"] == "DE"]
    states = chosen[chosen["code"] != "DE"].set_index("code")
    missing = [c for c in STATES.index if c not in states.index]
    if missing:
        raise EducatalogError(
            f"The population file {name} misses {_names(pd.Series(missing))}: every one of "
            "the 16 states needs a population."
        )
    frame = STATES.join(states[["population"]])
    frame["population"] = frame["population"].astype("Int64")
    attrs: dict[str, Any] = dict(meta)
    when = chosen["date"].iloc[0]
    if when:
        attrs["date"] = dt.date.fromisoformat(_iso(when, name))
    if chosen["basis"].iloc[0]:
        attrs["basis"] = chosen["basis"].iloc[0]
    sources = chosen["source"].dropna().unique()
    if len(sources):
        attrs["source_name"] = "; ".join(str(s) for s in sources)
    total = int(frame["population"].sum())
    if len(germany):
        published = int(germany["population"].iloc[0])
        if published != total:
            raise EducatalogError(
                f"The states of the population file {name} add up to {total:,}, not to its "
                f"total for Germany, {published:,}."
            )
    attrs["total"] = total
    attrs["year"] = attrs["date"].year if "date" in attrs else None
    attrs["file"] = name
    attrs["source"] = _source_line(attrs)
    frame.attrs.update(attrs)
    return frame


def _source_line(meta: Mapping[str, Any]) -> str:
    parts = [meta.get("publisher"), meta.get("statistic")]
    line = ", ".join(p for p in parts if p) or meta.get("source_name") or "unnamed source"
    if meta.get("basis"):
        line += f", Basis {meta['basis']}"
    if meta.get("table"):
        line += f", Tabelle {meta['table']}"
    if meta.get("date"):
        line += f", Stand {meta['date']:%d.%m.%Y}"
    return str(line)


# -- districts ----------------------------------------------------------------------------

_DISTRICT_FILE = ("districts", "district_population_2024.csv")
_DISTRICT_META: dict[str, Any] = {
    "publisher": "Statistische Ämter des Bundes und der Länder",
    "publisher_en": "Federal Statistical Office and the statistical offices of the Länder",
    "statistic": "Regionaldatenbank Deutschland, Fortschreibung des Bevölkerungsstandes",
    "statistic_en": "Regional database Germany, population update",
    "table": "12411-01-01-4",
    "licence": "Datenlizenz Deutschland - Namensnennung - Version 2.0 (dl-de/by-2-0)",
}
_KEY_COLUMNS = ("district_key", "ags", "key", "district")


def district_population(path: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """Inhabitants of the 400 districts (default: the shipped table of 31.12.2024 on the
    basis of the Zensus 2022, Regionaldatenbank table 12411-01-01-4): index ``key`` (the
    5-digit district key) in key order, columns ``state_key``, ``district`` (the official
    name, as :func:`educatalog.frames.districts.district_table`) and ``population``
    (Int64, missing for a district the file does not list); ``attrs`` as a state table's.

    >>> educatalog.population.district_population().loc["09162", "population"]  # doctest: +SKIP
    1510378
    """
    if path is None:
        return _shipped_districts().copy()
    return read_population(path, level="district")


@functools.cache
def _shipped_districts() -> pd.DataFrame:
    text = resources.files("educatalog").joinpath("data", *_DISTRICT_FILE).read_text("utf-8")
    name = "/".join(("educatalog", "data", *_DISTRICT_FILE))
    frame = _parse_districts(text, name).assign(source=None)
    return _district_table(_choose(frame, name, None, None, {}), name, dict(_DISTRICT_META))


def _of_districts(body: str) -> bool:
    """Whether a population file lists districts (a column of 5-digit keys)."""
    rows = list(csv.DictReader(io.StringIO(body), delimiter=_delimiter(body)))
    for column in _KEY_COLUMNS:
        values = [str(r.get(column) or "").strip() for r in rows if column in r]
        if values and all(re.fullmatch(r"\d{5}", v) for v in values if v):
            return True
    return False


def _delimiter(body: str) -> str:
    first = body.splitlines()[0] if body else ""
    return ";" if first.count(";") > first.count(",") else ","


def _parse_districts(body: str, name: str) -> pd.DataFrame:
    rows = csv.DictReader(io.StringIO(body), delimiter=_delimiter(body))
    known = set(district_table().index)
    records = []
    for line, raw in enumerate(rows, start=2):
        row = {str(k).strip().lower(): (v or "").strip() for k, v in raw.items() if k}
        key = next((row[c] for c in _KEY_COLUMNS if row.get(c)), "")
        if key not in known:
            raise EducatalogError(
                f"The population file {name} names the district key {key!r} (line {line}), "
                "which is none of the 400 districts (5 digits, e.g. 09162 for München)."
            )
        value = row.get("population", "").replace("\u00a0", "").replace(" ", "")
        if not re.fullmatch(r"\d+", value):
            raise EducatalogError(
                f"The population file {name} gives {row.get('population')!r} as the "
                f"population of district {key} (line {line}); a population is a whole number."
            )
        when = row.get("date") or None
        records.append(
            {
                "code": key,
                "population": int(value),
                "date": when,
                "basis": row.get("basis") or None,
                "source": row.get("source") or None,
            }
        )
    frame = pd.DataFrame.from_records(
        records, columns=["code", "population", "date", "basis", "source"]
    )
    doubled = frame[frame.duplicated(["code", "date", "basis"], keep=False)]
    if len(doubled):
        raise EducatalogError(
            f"The population file {name} gives the district {doubled['code'].iloc[0]} more "
            "than once for one date."
        )
    return frame


def _district_table(chosen: pd.DataFrame, name: str, meta: dict[str, Any]) -> pd.DataFrame:
    districts = district_table()
    given = chosen.set_index("code")["population"]
    frame = districts[["state_key", "district"]].copy()
    frame["population"] = given.reindex(frame.index).astype("Int64")
    attrs: dict[str, Any] = dict(meta)
    when = chosen["date"].iloc[0] if len(chosen) else None
    if when:
        attrs["date"] = dt.date.fromisoformat(_iso(when, name))
    if len(chosen) and chosen["basis"].iloc[0]:
        attrs["basis"] = chosen["basis"].iloc[0]
    sources = chosen["source"].dropna().unique()
    if len(sources):
        attrs["source_name"] = "; ".join(str(s) for s in sources)
    attrs["total"] = int(frame["population"].sum())
    attrs["year"] = attrs["date"].year if "date" in attrs else None
    attrs["file"] = name
    attrs["level"] = "district"
    attrs["source"] = _source_line(attrs)
    frame.attrs.update(attrs)
    return frame


def _states_of(districts: pd.DataFrame, name: str) -> pd.DataFrame:
    """The states' table of a districts' one: each state the sum of its districts."""
    lacking = districts[districts["population"].isna()]
    if len(lacking):
        states = STATES.set_index("key")["state"]
        first = lacking.iloc[0]
        raise EducatalogError(
            f"The population file {name} lists districts but not {first['district']} "
            f"({first.name}) of {states[first['state_key']]}, nor {len(lacking) - 1} more: a "
            "state's population is the sum of all its districts."
        )
    sums = districts.groupby("state_key")["population"].sum()
    frame = STATES.copy()
    frame["population"] = frame["key"].map(sums).astype("Int64")
    frame.attrs.update({k: v for k, v in districts.attrs.items() if k != "level"})
    return frame


def tables() -> pd.DataFrame:
    """The population tables that ship: one row per ``date`` and ``basis``, with the
    ``total`` for Germany; newest last."""
    _, text = _read_text(None)
    _, body = _split_header(text)
    frame = _parse(body, _FILE)
    germany = frame[frame["code"] == "DE"]
    out = germany[["date", "basis", "population"]].rename(columns={"population": "total"})
    out["date"] = pd.to_datetime(out["date"]).dt.date
    return out.sort_values(["date", "basis"]).reset_index(drop=True)


def table(date: dt.date | str | None = None, *, basis: str | None = None) -> pd.DataFrame:
    """The shipped table of ``date`` and ``basis`` (default: the newest, 31.12.2024 on the
    Zensus 2022 basis): see :func:`read_population`."""
    return read_population(None, date=date, basis=basis)


def table_for(stand: dt.date | str, *, level: Level = "state") -> pd.DataFrame:
    """The shipped table that data as they stood on ``stand`` are measured against: the
    newest reference date on or before ``stand`` on the current census basis
    (:data:`BASIS`); for data older than all of them, the oldest of them. With
    ``level="district"``, the districts' (:func:`district_population`: one date ships,
    31.12.2024).

    >>> educatalog.population.table_for("2024-03-15").attrs["date"]  # doctest: +SKIP
    datetime.date(2023, 12, 31)
    """
    day = dt.date.fromisoformat(_iso(stand, "table_for"))
    if level == "district":
        return district_population()
    dates = sorted(_current_tables())
    chosen = max((d for d in dates if d <= day), default=dates[0])
    return _current_tables()[chosen].copy()  # a copy: the caller may change it


@functools.cache
def _current_tables() -> dict[dt.date, pd.DataFrame]:
    """The shipped tables on the current basis, by date, read once (``per_capita`` asks
    for one on every call: reading the file took 13 ms)."""
    current = tables()
    return {d: table(d, basis=BASIS) for d in current.loc[current["basis"] == BASIS, "date"]}


def state_population() -> pd.DataFrame:
    """The default table: index ``code`` (ISO 3166-2), columns ``key``, ``state`` (German
    name) and ``population`` (Int64); ``attrs`` name the source, basis and reference date."""
    return table()


STATE_POPULATION: pd.DataFrame = state_population()
"""Inhabitants per state on :data:`DATE` on the :data:`BASIS` (:data:`SOURCE`)."""

DATE: dt.date = STATE_POPULATION.attrs["date"]
"""Reference date of the default figures (Stichtag): 31 December 2024."""

YEAR: int = DATE.year
"""The year of :data:`DATE`."""

BASIS: str = STATE_POPULATION.attrs["basis"]
"""The census the default figures are updated from: "Zensus 2022"."""

PUBLISHER: str = STATE_POPULATION.attrs["publisher"]
"""Who publishes the default figures, as the file names them: "Statistisches Bundesamt (Destatis)
und Statistische Ämter der Länder"."""
STATISTIC: str = STATE_POPULATION.attrs["statistic"]
"""The statistic the default figures come from, as the file names it: "Fortschreibung des
Bevölkerungsstandes" (the population update)."""
TABLE: str = STATE_POPULATION.attrs["table"]
"""The Destatis (GENESIS-Online) table the figures come from."""

TOTAL: int = STATE_POPULATION.attrs["total"]
"""Germany's total on :data:`DATE` as published; the 16 states add up to it."""

SOURCE: str = STATE_POPULATION.attrs["source"]
"""Where the figures come from, with basis, table and reference date."""


def origin(table: pd.DataFrame | pd.Series | None = None) -> dict[str, Any]:
    """What a per-capita table records of its population figures
    (``attrs["educatalog"]["population"]``): ``source``, ``year``, ``date`` (ISO),
    ``basis`` and, where known, ``publisher``, ``statistic``, ``table`` and ``licence``."""
    attrs = STATE_POPULATION.attrs if table is None else table.attrs
    out: dict[str, Any] = {"source": attrs.get("source"), "year": attrs.get("year")}
    date = attrs.get("date")
    if isinstance(date, str):
        date = dt.date.fromisoformat(date[:10])
    if isinstance(date, dt.datetime):  # a Timestamp too: the day is the reference date
        date = date.date()
    if isinstance(date, dt.date):
        out["date"] = date.isoformat()
        out["year"] = out["year"] or date.year
    for key in (
        "basis",
        "publisher",
        "statistic",
        "table",
        "publisher_en",
        "statistic_en",
        "licence",
        "source_name",
        "total",
    ):
        if attrs.get(key):
            out[key] = attrs[key]
    return out
