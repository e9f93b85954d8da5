"""Reading an archive: what it holds, every snapshot rebuilt exactly, the offers frame as
archived, and a DuckDB connection over the row versions (:class:`Archive`)."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from educatalog import snapshot as _snapshot
from educatalog.errors import ArchiveError
from educatalog.frames.catalogue import Catalogue
from educatalog.frames.offers import OFFER_COLUMNS, with_districts
from educatalog.frames.provenance import SOURCE_ATTR, Source
from educatalog.history import trends
from educatalog.history.format import (
    FUNDING,
    VALID_FROM,
    VALID_TO,
    Versions,
    as_date,
    frame_of,
    read_manifest,
)
from educatalog.history.integrity import Checker
from educatalog.snapshot.loading import restore_dtype

if TYPE_CHECKING:
    import duckdb

    from educatalog.stats import Normalize

__all__ = ["Archive", "open"]


def open(path: str | os.PathLike[str], *, verify: bool = True) -> Archive:
    """The archive at ``path`` (made by :func:`add` or ``educatalog fetch --archive``).

    Every file is checked against the manifest before it is read: its size always, its
    SHA-256 with ``verify`` (the default), so that a damaged file raises
    :class:`~educatalog.errors.ArchiveError` naming it instead of giving wrong numbers.
    A file is hashed once while it stays unchanged (a later read costs a ``stat``; see
    :mod:`~educatalog.history.integrity`). ``verify=False`` skips the checksums of the
    files and of the manifest, for those who know their files are intact and want to save
    that time (0.1 to 0.2 s per 100 MB read, once): a file changed in place may then give
    wrong numbers without an error.
    """
    return Archive(path, verify=verify)


class Archive:
    """An archive of dated snapshots (see the module docstring); open with :func:`open`."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        verify: bool = True,
        _manifest: dict[str, Any] | None = None,
    ) -> None:
        self.path = Path(path)
        # _manifest: the one add() is about to commit, to rebuild from before it does
        self.manifest = read_manifest(self.path, verify=verify) if _manifest is None else _manifest
        self._checker = Checker(self.path, self.manifest, verify=verify)
        self._entries: dict[str, dict[str, Any]] = {}
        self._con: duckdb.DuckDBPyConnection | None = None
        self._read_by_duckdb: list[Path] = []

    def __repr__(self) -> str:
        what = "synthetic demo data" if self.demo else "catalogue snapshots"
        dates = self.dates
        span = f"{dates[0]} to {dates[-1]}" if dates else "empty"
        return f"<Archive {self.path}: {len(dates)} snapshots of {what}, {span}>"

    # -- what it holds ------------------------------------------------------------------

    @property
    def dates(self) -> list[dt.date]:
        """The snapshot dates, oldest first."""
        return [dt.date.fromisoformat(s["date"]) for s in self.manifest["snapshots"]]

    @property
    def demo(self) -> bool:
        """Whether every snapshot is of the synthetic demo catalogue."""
        return bool(self.manifest.get("demo"))

    @property
    def source(self) -> Source:
        """The newest snapshot's source (what charts of trends name)."""
        if not self.manifest["snapshots"]:
            return Source(demo=False)
        raw = self.entry(self.dates[-1])["source"]
        return Source(
            url=raw.get("url"),
            demo=bool(raw.get("demo")),
            fetched_at=dt.datetime.fromisoformat(raw["fetched_at"]),
        )

    def entry(self, date: dt.date | str) -> dict[str, Any]:
        """The stored description of the snapshot of ``date``: source, tables, columns."""
        stamp = self.stamp(date)
        if stamp not in self._entries:
            self._entries[stamp] = self._checker.json(self.path / "snapshots" / f"{stamp}.json")
        return self._entries[stamp]

    def stamp(self, date: dt.date | str) -> str:
        stamp = as_date(date).isoformat()
        known = [s["date"] for s in self.manifest["snapshots"]]
        if stamp not in known:
            raise ArchiveError(
                f"The archive has no snapshot of {stamp}; its dates ({self._checker.manifest_file}"
                f"): {', '.join(known) or 'none'}."
            )
        return stamp

    def verify(self) -> None:
        """Check every file of the archive against the manifest's sizes and checksums
        (hashing each again, also when the archive was opened with ``verify=False``)."""
        for relative in self.manifest["files"]:
            self._checker.check(self.path / relative, force=True)

    def files(self, table: str = "offers") -> list[Path]:
        """The Parquet files of ``table``'s row versions (``"offers"``: the offers frame;
        ``"funding"``: the funding types of its courses)."""
        if table in ("offers", FUNDING):
            raw = self.manifest.get(table) or None
        else:
            raw = self.manifest["tables"].get(table)
        if raw is None:
            raise ArchiveError(
                f'The archive has no table "{table}"; its tables: '
                f"{', '.join(self.manifest['tables'])}, offers."
            )
        versions = Versions.of(raw)
        return [self.path / f for f in [*versions.closed, versions.open] if f]

    # -- snapshots back -----------------------------------------------------------------

    def snapshot(self, date: dt.date | str) -> Catalogue:
        """The snapshot of ``date`` rebuilt: the same tables, rows, order and dtypes as the
        catalogue that was added, with its :class:`~educatalog.Source`."""
        stamp = self.stamp(date)
        entry = self.entry(stamp)
        frames = {name: self._rebuild(name, stamp, spec) for name, spec in entry["tables"].items()}
        raw = entry["source"]
        source = Source(
            url=raw.get("url"),
            demo=bool(raw.get("demo")),
            fetched_at=dt.datetime.fromisoformat(raw["fetched_at"]),
        )
        return Catalogue(frames, source=source)

    def table(self, name: str, date: dt.date | str) -> pd.DataFrame:
        """One table of the snapshot of ``date`` rebuilt, as :meth:`snapshot` rebuilds it."""
        stamp = self.stamp(date)
        tables = self.entry(stamp)["tables"]
        if name not in tables:
            raise ArchiveError(
                f'The snapshot of {stamp} holds no table "{name}"; it holds '
                f"{', '.join(sorted(tables))}."
            )
        return self._rebuild(name, stamp, tables[name])

    def _rebuild(self, name: str, stamp: str, spec: Mapping[str, Any]) -> pd.DataFrame:
        versions = Versions.of(self.manifest["tables"][name])
        if spec["storage"] == "plain":
            table = self._checker.parquet(self.path / f"tables/{name}/plain-{stamp}.parquet")
            frame: pd.DataFrame = table.to_pandas()
        else:
            frame = self._as_of(versions, stamp)
        if len(frame) != spec["rows"]:
            raise ArchiveError(
                f'The archive holds {len(frame)} rows of "{name}" for {stamp}; it recorded '
                f"{spec['rows']}."
            )
        for column in spec["columns"]:
            frame[column["name"]] = restore_dtype(
                frame[column["name"]], column, self.path / "tables" / name
            )
        return frame

    def _as_of(self, versions: Versions, stamp: str) -> pd.DataFrame:
        day = dt.date.fromisoformat(stamp)
        parts = []
        for relative in [*versions.closed, *([versions.open] if versions.open else [])]:
            name = Path(relative).stem
            if name.startswith("closed-") and name[len("closed-") :] <= stamp:
                continue  # rows that left by this date
            table = self._checker.parquet(self.path / relative)
            mask = pc.less_equal(table[VALID_FROM], pa.scalar(day, pa.date32()))
            later = pc.greater(table[VALID_TO], pa.scalar(day, pa.date32()))
            mask = pc.and_(mask, pc.fill_null(later, True))
            table = table.filter(mask)
            if table.num_rows:
                parts.append(table.drop_columns([VALID_FROM, VALID_TO]))
        if not parts:
            schema = self._checker.schema(self.path / (versions.open or versions.closed[-1]))
            names = [n for n in schema.names if n not in (VALID_FROM, VALID_TO)]
            return frame_of(schema.empty_table().select(names))
        table = pa.concat_tables(parts) if len(parts) > 1 else parts[0]
        key = table.column_names if len(table.column_names) == 2 else None
        sort = [c for c in ("id", "event_id") if c in table.column_names][:1] or key or []
        table = table.sort_by([(c, "ascending") for c in sort])
        return frame_of(table)

    def restore(self, date: dt.date | str, path: str | os.PathLike[str]) -> Path:
        """Write the snapshot of ``date`` as a snapshot directory (:mod:`educatalog.snapshot`)."""
        entry = self.entry(date)
        return _snapshot.save(
            self.snapshot(date),
            path,
            include_personal=bool(entry.get("include_personal")),
            extra={"restored_from_archive": {"path": str(self.path), "date": entry["date"]}},
        )

    def offers(self, date: dt.date | str) -> pd.DataFrame:
        """The offers frame of the snapshot of ``date`` as archived (labels as categoricals
        in their list's order), the frame pandas computed when the snapshot was added."""
        stamp = self.stamp(date)
        entry = self.entry(stamp)
        if not entry.get("offers", {}).get("rows") and entry.get("offers", {}).get("reason"):
            raise ArchiveError(f"The snapshot of {stamp} has no offers frame: {entry['offers']}")
        frame = self._as_of(Versions.of(self.manifest["offers"]), stamp)
        for column, categories in entry["offers"]["categories"].items():
            ordered = column == "duration_class"
            frame[column] = pd.Categorical(frame[column], categories=categories, ordered=ordered)
        if {"zip", "city", "state_code"} <= set(frame.columns):  # derived, never stored
            frame = pd.concat([frame, with_districts(frame)], axis=1)
            frame = frame[[c for c in OFFER_COLUMNS if c in frame]]
        frame.attrs[SOURCE_ATTR] = self._source_of(entry).to_attrs()
        return frame

    def _source_of(self, entry: Mapping[str, Any]) -> Source:
        raw = entry["source"]
        return Source(
            url=raw.get("url"),
            demo=bool(raw.get("demo")),
            fetched_at=dt.datetime.fromisoformat(raw["fetched_at"]),
        )

    # -- DuckDB -------------------------------------------------------------------------

    def connection(self) -> duckdb.DuckDBPyConnection:
        """A DuckDB connection with the views ``offers`` (one row per snapshot date and
        event: ``snapshot_date`` and the offers frame's columns, labels as text),
        ``offer_versions`` (the stored row versions), ``snapshots`` and, where funding
        types are archived, ``funding`` (per snapshot date: ``course_id``,
        ``funding_level``, ``funding_type``) over ``funding_versions``.

        Its files are checked when the views are made; query through :meth:`sql`, which
        checks them again before each query and names a damaged file in DuckDB's errors."""
        if self._con is None:
            import duckdb

            con = duckdb.connect(config=trends.DUCKDB_CONFIG)
            con.execute("SET enable_progress_bar = false")
            files = self.files("offers")
            if not files:
                raise ArchiveError("The archive holds no offers frame (no snapshot with events).")
            self._view(con, "stored_offer_versions", files)
            self._with_districts(con)
            dates = pd.DataFrame(
                {
                    "snapshot_date": pd.to_datetime([d.isoformat() for d in self.dates]),
                    "snapshot_index": np.arange(len(self.dates), dtype="int32"),
                }
            )
            con.register("_dates", dates)
            con.execute(
                "CREATE TABLE snapshots AS SELECT CAST(snapshot_date AS DATE) AS snapshot_date, "
                "snapshot_index FROM _dates"
            )
            con.unregister("_dates")
            con.execute(_as_of_view("offers", "offer_versions"))
            funding = self.files(FUNDING) if self.manifest.get(FUNDING) else []
            if funding:
                self._view(con, "funding_versions", funding)
                con.execute(_as_of_view(FUNDING, "funding_versions"))
            self._con = con
        return self._con

    def _with_districts(self, con: duckdb.DuckDBPyConnection) -> None:
        """The view ``offer_versions``: the stored row versions and the district of each
        row's address, derived by the rule of today
        (:func:`educatalog.frames.offers.with_districts`) for the archive's distinct
        addresses, so that an archive written before districts existed has them too."""
        addresses = self._duckdb(
            con, "SELECT DISTINCT zip, city, state_code FROM stored_offer_versions"
        )
        places = with_districts(addresses.astype("string"))
        table = pd.concat([addresses.astype("string"), places.astype("string")], axis=1)
        # NULL as None: DuckDB 1.1 reads pandas 2.2's string NA as the text "<NA>"
        table = table.astype(object).where(table.notna(), None)
        con.register("_address_districts", table)
        con.execute("CREATE TABLE address_districts AS SELECT * FROM _address_districts")
        con.unregister("_address_districts")
        same = " AND ".join(
            f"v.{c} IS NOT DISTINCT FROM d.{c}" for c in ("zip", "city", "state_code")
        )
        con.execute(
            "CREATE VIEW offer_versions AS SELECT v.*, d.district, d.district_key, "
            f"d.district_problem FROM stored_offer_versions v LEFT JOIN address_districts d "
            f"ON {same}"
        )

    def _view(self, con: duckdb.DuckDBPyConnection, name: str, files: list[Path]) -> None:
        self._checker.check_all(files)
        self._read_by_duckdb += files
        listed = ", ".join(_literal(str(f)) for f in files)
        self._duckdb(con, f"CREATE VIEW {name} AS SELECT * FROM read_parquet([{listed}])")

    def sql(self, query: str, parameters: Sequence[Any] | None = None) -> pd.DataFrame:
        """Run SQL over the archive's views (:meth:`connection`) and return a DataFrame.

        The files DuckDB reads are checked first (a ``stat`` each, hashed again where one
        changed since it was hashed); an error of DuckDB's while reading becomes an
        :class:`~educatalog.errors.ArchiveError` naming the file to blame."""
        con = self.connection()
        self._checker.check_all(self._read_by_duckdb)
        return self._duckdb(con, query, parameters)

    def _duckdb(
        self, con: duckdb.DuckDBPyConnection, query: str, parameters: Sequence[Any] | None = None
    ) -> pd.DataFrame:
        """Run ``query``; DuckDB's errors while reading the files become an ArchiveError
        naming the file (one that no longer matches the manifest, or that DuckDB names)."""
        import duckdb

        try:
            return con.execute(query, parameters or []).fetchdf()
        except duckdb.Error as exc:
            if isinstance(exc, _query_errors(duckdb)) and self._checker.verify:
                raise  # a mistake in the query: its files were checked just before
            blamed = self._checker.culprit(self._read_by_duckdb, exc)
            if blamed is not None:
                raise blamed from exc
            if isinstance(exc, _query_errors(duckdb)):
                raise  # a mistake in the query itself, no file to blame
            raise ArchiveError(
                f"DuckDB failed reading the archive {self.path} (every file it reads "
                f"matches the manifest): {exc}"
            ) from exc

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None
            self._read_by_duckdb = []

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- trend statistics (computed by DuckDB: :mod:`educatalog.history.trends`) --------

    def supply(
        self,
        by: str | Sequence[str] = "state",
        *,
        normalize: Normalize = "all",
        dropna: bool = False,
        dates: Iterable[dt.date | str] | None = None,
    ) -> pd.DataFrame:
        """:func:`educatalog.stats.supply` for every snapshot date, computed by DuckDB.

        The index is ``snapshot_date`` followed by the levels of ``by``; the columns and
        every rule are those of ``stats.supply`` on the snapshot's offers frame (``share``
        is of each snapshot's events; by ``funding_type`` or ``funding_level``, those of
        ``offers(funding=True)``). ``dates`` limits the snapshots.
        """
        return trends.supply(self, by, normalize=normalize, dropna=dropna, dates=dates)

    def flows(self, level: str = "events") -> pd.DataFrame:
        """Entries and exits between consecutive snapshots, computed by DuckDB.

        ``level`` is ``"events"``, ``"courses"`` or ``"institutions"`` (those of the
        listed events, as ``supply`` counts them). One row per snapshot date: ``listed``
        (distinct ids), ``entered`` (listed now, not in the previous snapshot), ``exited``
        (in the previous snapshot, not now) and ``net``; the first snapshot has no
        previous one, so its flows are missing (NA).
        """
        return trends.flows(self, level)

    def lifetimes(self, level: str = "courses") -> pd.DataFrame:
        """How long each course (event, institution) stayed listed, computed by DuckDB.

        One row per id: ``first_seen`` and ``last_seen`` (snapshot dates), ``snapshots``
        (how many snapshots list it), ``days`` (from first to last seen),
        ``left_censored`` (listed in the archive's first snapshot: it may be older) and
        ``right_censored`` (still listed in the newest).
        """
        return trends.lifetimes(self, level)


def _query_errors(duckdb: Any) -> tuple[type[Exception], ...]:
    """DuckDB's errors about the query itself (its syntax, names, types)."""
    return (
        duckdb.ParserException,
        duckdb.SyntaxException,
        duckdb.BinderException,
        duckdb.CatalogException,
    )


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _as_of_view(name: str, versions: str) -> str:
    """The view of ``versions``' rows as of each snapshot date."""
    return f"""CREATE VIEW {name} AS
        SELECT s.snapshot_date, s.snapshot_index, v.* EXCLUDE ({VALID_FROM}, {VALID_TO})
        FROM {versions} v JOIN snapshots s
          ON v.{VALID_FROM} <= s.snapshot_date
         AND (v.{VALID_TO} IS NULL OR s.snapshot_date < v.{VALID_TO})"""
