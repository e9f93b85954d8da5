"""Trend statistics over a whole archive, computed by DuckDB without loading it into pandas:
supply per snapshot date (:func:`supply`), entries and exits (:func:`flows`), lifetimes
(:func:`lifetimes`). DuckDB only groups and counts; the labels are those pandas computed
when each snapshot was added, and the tables take the shape of :func:`educatalog.stats.supply`.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from educatalog import stats
from educatalog.errors import UsageError, did_you_mean
from educatalog.frames.course_links import SUBJECT_COLUMNS, SUBJECT_TABLES, subject_rows
from educatalog.frames.districts import DISTRICT_PROBLEMS, district_table
from educatalog.frames.offers import OFFER_COLUMNS
from educatalog.frames.provenance import SOURCE_ATTR
from educatalog.history.format import FUNDING, VALID_FROM, VALID_TO
from educatalog.stats.dimensions import all_levels, choice, dimension_keys, restore_levels
from educatalog.stats.supply import NORMALIZE_CHOICES

if TYPE_CHECKING:
    from educatalog.history.archive import Archive

__all__ = ["DUCKDB_CONFIG", "LEVELS", "flows", "lifetimes", "supply"]

LEVELS: tuple[str, ...] = ("events", "courses", "institutions")
"""What :meth:`Archive.flows` and :meth:`Archive.lifetimes` follow over time."""

DUCKDB_CONFIG: dict[str, Any] = {
    "threads": min(4, os.cpu_count() or 1),
    "preserve_insertion_order": False,
}
"""The settings of an archive's DuckDB connection (and no progress bar)."""

_LEVEL_KEY = {"events": "event_id", "courses": "course_id", "institutions": "institution"}
_FUNDING_KEYS = ("funding_type", "funding_level")
_SUBJECT_KEYS = tuple(c for c in SUBJECT_COLUMNS if c != "subject_id")
_MEASURES = ["events", "courses", "institutions", "capacity", "events_with_capacity"]


def supply(
    archive: Archive,
    by: str | Sequence[str] = "state",
    *,
    normalize: stats.Normalize = "all",
    dropna: bool = False,
    dates: Iterable[dt.date | str] | None = None,
) -> pd.DataFrame:
    """:func:`educatalog.stats.supply` for every snapshot date (see :meth:`Archive.supply`)."""
    keys = dimension_keys(by)
    if normalize is not False and normalize is not True:
        choice(normalize, NORMALIZE_CHOICES, "normalize")
    chosen = _chosen_dates(archive, dates)
    funded = any(key in _FUNDING_KEYS for key in keys)
    subjects = any(key in _SUBJECT_KEYS for key in keys)
    columns = set(_offer_columns(archive))
    if funded:
        _require_funding(archive, chosen)
        columns |= set(_FUNDING_KEYS)
    if subjects:
        _require_subjects(archive, chosen)
        columns |= set(_SUBJECT_KEYS)
    expressions = [_dimension_sql(key, columns) for key in keys]
    group = ", ".join(f"{expr} AS {_quote(f'k{i}')}" for i, expr in enumerate(expressions))
    parts = []
    for day in chosen:  # one snapshot at a time: memory does not grow with the archive
        linked = _Linked(archive, day, funded, subjects)
        with linked:
            rows, totals = _supply_sums(archive, day, group, keys, linked, normalize, dropna)
        table = _supply_table(archive, rows, keys, day, normalize, dropna, totals, linked)
        parts.append(table)
    stamps = pd.DatetimeIndex([pd.Timestamp(d) for d in chosen]).as_unit("us")
    out = pd.concat(parts, keys=list(stamps), names=["snapshot_date"])
    index = out.index
    assert isinstance(index, pd.MultiIndex)
    # pandas takes any index as a level; pandas-stubs want a sequence of hashables
    out.index = index.set_levels(stamps, level=0)  # type: ignore[call-overload]
    out.attrs[SOURCE_ATTR] = {**archive.source.to_attrs(), "archive": _describe(archive, chosen)}
    out.attrs["trend"] = {"by": keys, "measure_columns": list(out.columns)}
    return out


_MEASURES_SQL = """count(*) AS events,
    count(DISTINCT course_id) AS courses,
    count(DISTINCT institution) AS institutions,
    coalesce(sum(max_participants), 0) AS capacity,
    count(max_participants) AS events_with_capacity"""


class _Linked:
    """What a course has several of, joined to the offers of one snapshot: the archived
    funding types, and the subjects derived from the snapshot's systematics tables (by
    :func:`educatalog.frames.course_links.subject_rows`, the rule of the version that
    reads), registered in DuckDB while the snapshot is summed."""

    def __init__(self, archive: Archive, day: dt.date, funded: bool, subjects: bool) -> None:
        self.archive, self.day, self.funded, self.subjects = archive, day, funded, subjects
        self.categories: dict[str, list[str]] = {}
        self._name = f"_subjects_{day:%Y%m%d}"

    def __bool__(self) -> bool:
        return self.funded or self.subjects

    def __enter__(self) -> _Linked:
        if self.subjects:
            snapshot = _SnapshotTables(self.archive, self.day)
            rows = subject_rows(snapshot)
            self.categories = {
                str(c): [str(v) for v in rows[c].cat.categories]
                for c in _SUBJECT_KEYS
                if isinstance(rows[c].dtype, pd.CategoricalDtype)
            }
            flat = rows.assign(**{c: rows[c].astype("string") for c in self.categories})
            self.archive.connection().register(self._name, flat)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.subjects:
            self.archive.connection().unregister(self._name)

    def joins(self) -> tuple[str, str]:
        """The columns and the joins that add them to the offers ``o``."""
        columns, joins = [], []
        if self.funded:
            columns += ["f.funding_level", "f.funding_type"]
            funding = _as_of("funding_versions", self.day)
            joins.append(f"LEFT JOIN {funding} AS f ON f.course_id = o.course_id")
        if self.subjects:
            columns += [f"sj.{_quote(c)}" for c in _SUBJECT_KEYS]
            joins.append(f"LEFT JOIN {self._name} AS sj ON sj.course_id = o.course_id")
        return ", ".join(columns), " ".join(joins)


class _SnapshotTables:
    """The tables of one snapshot, rebuilt from the archive when asked for."""

    def __init__(self, archive: Archive, day: dt.date) -> None:
        self.archive, self.stamp = archive, archive.stamp(day)
        self.entry = archive.entry(self.stamp)

    def __getitem__(self, name: str) -> pd.DataFrame:
        return self.archive.table(name, self.stamp)

    def labels(self, reference: str) -> pd.Series:  # pragma: no cover - not asked for
        raise KeyError(reference)


def _supply_sums(
    archive: Archive,
    day: dt.date,
    group: str,
    keys: Sequence[str],
    linked: _Linked,
    normalize: stats.Normalize,
    dropna: bool,
) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """The sums of each observed group of the snapshot of ``day`` (and, by funding types
    or subjects, the distinct events ``share`` divides by). The row versions are read as of
    ``day`` straight from their files (DuckDB skips the row groups that left before it)."""
    offers = _as_of("offer_versions", day)
    if not linked:
        sums = archive.sql(f"SELECT {group}, {_MEASURES_SQL} FROM {offers} AS o GROUP BY ALL")
        return sums, None
    # one row per event and group, as stats.supply drops repeated (keys, event) rows
    columns, joins = linked.joins()
    rows = f"""WITH joined AS (
            SELECT o.*, {columns} FROM {offers} AS o {joins}
        ), grouped AS (
            SELECT DISTINCT {group}, event_id, course_id, institution, max_participants
            FROM joined
        )"""
    sums = archive.sql(
        f"{rows} SELECT {_keys_sql(keys)}, {_MEASURES_SQL} FROM grouped GROUP BY ALL"
    )
    totals = archive.sql(f"{rows} {_totals_sql(keys, normalize, dropna)}") if normalize else None
    return sums, totals


def _as_of(versions: str, day: dt.date) -> str:
    """The rows of the view of row versions ``versions`` in the snapshot of ``day``."""
    when = f"DATE '{day.isoformat()}'"
    return (
        f"(SELECT * EXCLUDE ({VALID_FROM}, {VALID_TO}) FROM {versions} "
        f"WHERE {VALID_FROM} <= {when} AND ({VALID_TO} IS NULL OR {VALID_TO} > {when}))"
    )


def _keys_sql(keys: Sequence[str]) -> str:
    return ", ".join(_quote(f"k{i}") for i in range(len(keys)))


def _totals_sql(keys: Sequence[str], normalize: stats.Normalize, dropna: bool) -> str:
    """Distinct events of the snapshot (``normalize="all"``) or of each value of one key:
    the denominators of ``share`` where an event may be in several groups."""
    where = (
        "WHERE " + " AND ".join(f"{_quote(f'k{i}')} IS NOT NULL" for i in range(len(keys)))
        if dropna
        else ""
    )
    if normalize in (True, "all"):
        return f"SELECT count(DISTINCT event_id) AS n FROM grouped {where}"
    level = 0 if normalize == "index" else 1
    if len(keys) < 2:
        raise UsageError(f'normalize="{normalize}" needs two dimensions in by; use "all".')
    return (
        f"SELECT {_quote(f'k{level}')} AS k, count(DISTINCT event_id) AS n "
        f"FROM grouped {where} GROUP BY ALL"
    )


def _require_subjects(archive: Archive, chosen: Sequence[dt.date]) -> None:
    missing = [
        d.isoformat()
        for d in chosen
        if not set(SUBJECT_TABLES) <= set(archive.entry(d).get("tables", {}))
    ]
    if missing:
        raise UsageError(
            "The archive holds no systematics for the snapshots of "
            f"{', '.join(missing)} (fetched without courses_systematics or systematics): "
            "group by other dimensions, or pass dates=."
        )


def _require_funding(archive: Archive, chosen: Sequence[dt.date]) -> None:
    missing = [
        d.isoformat() for d in chosen if (archive.entry(d).get(FUNDING) or {}).get("rows") is None
    ]
    if missing or not archive.manifest.get(FUNDING):
        raise UsageError(
            "The archive holds no funding types for the snapshots of "
            f"{', '.join(missing) or 'every date'} (added by an older educatalog, or of a "
            "catalogue without the funding tables): group by other dimensions, or pass dates=."
        )


def _describe(archive: Archive, chosen: Sequence[dt.date]) -> dict[str, Any]:
    return {
        "path": str(archive.path),
        "snapshots": len(chosen),
        "first": chosen[0].isoformat() if chosen else None,
        "last": chosen[-1].isoformat() if chosen else None,
    }


def _chosen_dates(archive: Archive, dates: Iterable[dt.date | str] | None) -> list[dt.date]:
    if dates is None:
        chosen = archive.dates
    else:
        chosen = sorted({dt.date.fromisoformat(archive.stamp(d)) for d in dates})
    return [d for d in chosen if archive.entry(d).get("offers", {}).get("rows") is not None]


def _offer_columns(archive: Archive) -> list[str]:
    empty = archive.sql("SELECT * FROM offer_versions LIMIT 0")
    return [str(c) for c in empty.columns]


def _dimension_sql(key: str, columns: set[str]) -> str:
    if key in columns and key not in (VALID_FROM, VALID_TO):
        return _quote(key)
    if key == "year":
        return "CAST(year(event_start_date) AS BIGINT)"
    if key == "quarter":
        return (
            "strftime(event_start_date, '%Y') || 'Q' || CAST(quarter(event_start_date) AS VARCHAR)"
        )
    if key == "month":
        return "strftime(event_start_date, '%Y-%m')"
    known = [c for c in OFFER_COLUMNS if c in columns] + list(stats.DERIVED_DIMENSIONS)
    known += [*_FUNDING_KEYS, *_SUBJECT_KEYS]
    raise UsageError(
        f'The archive\'s offers have no dimension "{key}".{did_you_mean(key, known)} '
        f"Its dimensions: {', '.join(known)}."
    )


def _supply_table(
    archive: Archive,
    rows: pd.DataFrame,
    keys: list[str],
    day: dt.date,
    normalize: stats.Normalize,
    dropna: bool,
    totals: pd.DataFrame | None,
    linked: _Linked | None = None,
) -> pd.DataFrame:
    """The partial sums of one snapshot as the table ``stats.supply`` gives: every level
    listed (by grouping the few observed groups the way it groups the events). ``totals``
    holds the distinct events ``share`` divides by, where an event may be in several groups
    (else the sum of the groups' events)."""
    entry = archive.entry(day)
    categories = {
        **_district_categories(),
        **entry["offers"]["categories"],
        **(entry.get(FUNDING) or {}).get("categories", {}),
        **(linked.categories if linked is not None else {}),
    }
    data = pd.DataFrame(index=range(len(rows)))
    for i, key in enumerate(keys):
        data[key] = _levels(rows[f"k{i}"].reset_index(drop=True), key, categories)
    for measure in _MEASURES:
        data[measure] = rows[measure].to_numpy(dtype="int64")
    data = data.assign(**{k: all_levels(data[k].rename(k)) for k in keys})
    groups = data.groupby(keys, observed=False, dropna=dropna, sort=True)
    table = groups[_MEASURES].sum().astype("Int64")
    table["capacity"] = table["capacity"].mask(
        (table["events_with_capacity"] == 0) & (table["events"] > 0)
    )
    table = table[_MEASURES]
    if normalize is not False:
        counts = table["events"].astype("Float64")
        base = data if not dropna else data.dropna(subset=keys)
        if normalize in (True, "all"):
            total = base["events"].sum() if totals is None else totals["n"].sum()
            table["share"] = (counts / total).astype("Float64")
        else:
            if len(keys) < 2:
                raise UsageError(f'normalize="{normalize}" needs two dimensions in by; use "all".')
            level = 0 if normalize == "index" else 1
            if totals is not None:
                key = keys[level]
                base = pd.DataFrame(
                    {
                        key: _levels(totals["k"].reset_index(drop=True), key, categories),
                        "events": totals["n"].to_numpy(dtype="int64"),
                    }
                )
                base[key] = all_levels(base[key].rename(key))
            sums = base.groupby(keys[level], observed=False, dropna=dropna)["events"].sum()
            # a Series maps by its index (pandas-stubs list only Mapping and Callable)
            denominator = counts.index.get_level_values(level).map(sums)  # type: ignore[arg-type]
            table["share"] = (counts / pd.array(denominator.to_numpy(), dtype="Float64")).astype(
                "Float64"
            )
    return restore_levels(table, data, keys)


def flows(archive: Archive, level: str = "events") -> pd.DataFrame:
    """Entries and exits between consecutive snapshots (see :meth:`Archive.flows`)."""
    key = _quote(_LEVEL_KEY[choice(level, LEVELS, "level")])
    query = f"""
        WITH present AS (
            SELECT DISTINCT snapshot_index, {key} AS id FROM offers WHERE {key} IS NOT NULL
        ),
        listed AS (SELECT snapshot_index, count(*) AS n FROM present GROUP BY 1),
        entered AS (
            SELECT p.snapshot_index, count(*) AS n FROM present p
            LEFT JOIN present q ON q.id = p.id AND q.snapshot_index = p.snapshot_index - 1
            WHERE q.id IS NULL GROUP BY 1
        ),
        exited AS (
            SELECT p.snapshot_index + 1 AS snapshot_index, count(*) AS n FROM present p
            LEFT JOIN present q ON q.id = p.id AND q.snapshot_index = p.snapshot_index + 1
            WHERE q.id IS NULL GROUP BY 1
        )
        SELECT s.snapshot_date, coalesce(l.n, 0) AS listed, coalesce(e.n, 0) AS entered,
               coalesce(x.n, 0) AS exited
        FROM snapshots s
        LEFT JOIN listed l USING (snapshot_index)
        LEFT JOIN entered e USING (snapshot_index)
        LEFT JOIN exited x USING (snapshot_index)
        ORDER BY s.snapshot_date"""
    out = archive.sql(query)
    out["snapshot_date"] = pd.to_datetime(out["snapshot_date"])
    out = out.set_index("snapshot_date").astype("Int64")
    first = out.index.min()
    out.loc[first, ["entered", "exited"]] = pd.NA
    out["net"] = out["entered"] - out["exited"]
    out.attrs[SOURCE_ATTR] = {**archive.source.to_attrs(), "flows": level}
    return out


def lifetimes(archive: Archive, level: str = "courses") -> pd.DataFrame:
    """How long each id stayed listed (see :meth:`Archive.lifetimes`)."""
    column = _LEVEL_KEY[choice(level, LEVELS, "level")]
    key = _quote(column)
    query = f"""
        SELECT {key} AS id, min(snapshot_date) AS first_seen,
               max(snapshot_date) AS last_seen,
               count(DISTINCT snapshot_index) AS snapshots
        FROM offers WHERE {key} IS NOT NULL GROUP BY 1 ORDER BY 1"""
    out = archive.sql(query)
    out = out.rename(columns={"id": column}).set_index(column)
    for seen in ("first_seen", "last_seen"):
        out[seen] = pd.to_datetime(out[seen])
    out["days"] = (out["last_seen"] - out["first_seen"]).dt.days.astype("Int64")
    out["snapshots"] = out["snapshots"].astype("Int64")
    dates = archive.dates
    out["left_censored"] = out["first_seen"] == pd.Timestamp(dates[0])
    out["right_censored"] = out["last_seen"] == pd.Timestamp(dates[-1])
    if column == "institution":
        out.index = out.index.astype("string")
    else:
        out.index = out.index.astype("Int64")
    out.attrs[SOURCE_ATTR] = archive.source.to_attrs()
    return out


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@functools.cache
def _district_categories() -> dict[str, list[str]]:
    """The levels of the districts, which the archive derives when read, never stores."""
    return {
        "district": list(district_table()["district"]),
        "district_key": list(district_table().index),
        "district_problem": list(DISTRICT_PROBLEMS),
    }


def _levels(values: pd.Series, key: str, categories: Mapping[str, list[str]]) -> pd.Series:
    """Observed group values from DuckDB in the dtype of the offers frame's dimension."""
    if key in categories:
        return pd.Series(
            pd.Categorical(
                values.astype("object").where(values.notna(), None),
                categories=categories[key],
                ordered=key == "duration_class",
            ),
            name=key,
        )
    if key == "year":
        return values.astype("Int64").rename(key)
    known = values.dropna()
    if values.dtype == object and len(known) and all(isinstance(v, bool) for v in known):
        return values.astype("boolean").rename(key)  # older DuckDB: object with NaN for NULL
    if key in ("quarter", "month"):
        freq = "Q" if key == "quarter" else "M"
        periods = pd.PeriodIndex(
            [None if pd.isna(v) else pd.Period(v, freq=freq) for v in values], freq=freq
        )
        return pd.Series(periods, name=key)
    return values.rename(key)
