"""The synthetic demo catalogue over time: the catalogue as it was listed on any date.

>>> timeline = DemoTimeline(seed=0, scale=0.05)
>>> cat = timeline.catalogue("2024-06-01")  # a Catalogue, synthetic  # doctest: +SKIP
>>> timeline.monthly_dates()[:2]              # 2024-01-01, 2024-02-01  # doctest: +SKIP

Built **on top of** today's demo generator (:mod:`educatalog.demodata`, whose output for a
seed and scale is unchanged): its catalogue is the pool of providers, courses and events.
Every demo event recurs once a year (:data:`RECURRENCES`: its dates moved by whole multiples
of 52 weeks, so weekdays stay), each recurrence an event of its own (id ``base id +
(k + 2) * ID_STRIDE``). Each recurrence is

* **listed** 12 to 30 months before it starts, and **delisted** the day after it ends (the
  day after its start where its dates are impossible or it has no end); 3 % are
  **withdrawn** at a random date between listing and start;
* **revised** (10 %): from a date between listing and start it states two more places
  (``max_participants``), so a row changes between snapshots as real rows do;
* **kept** with a probability that makes a plausible trend: digital offers grow from year
  to year (0.55 to 0.95), offers in five rural states shrink (by 8 % of the base a year),
  the others stay at 0.8.

Providers (institutions) **enter** (15 %) or **leave** (15 %) at a random date within the
default window (:data:`HISTORY_START`, :data:`HISTORY_MONTHS` months); the nationwide
provider of institution 0 (which carries every documented defect) stays. A provider's
addresses and contacts are listed while it is; a course while it has a listed event (a
course that never has events while its provider is listed), and its costs, degrees,
keywords and links with it. Reference lists never change. Everything is drawn from
``numpy.random.default_rng`` seeded with the seed, so the same ``(seed, scale)`` gives the
same catalogue on every date.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd

from educatalog import demodata
from educatalog.files.manifests import as_date
from educatalog.frames.catalogue import COLLECTIONS, LINK_TABLES, Catalogue, Source, id_column
from educatalog.frames.typed import to_frame
from educatalog.model.schema import SCHEMA

__all__ = [
    "HISTORY_MONTHS",
    "HISTORY_START",
    "HISTORY_VERSION",
    "ID_STRIDE",
    "RECURRENCES",
    "DemoTimeline",
    "as_of_database",
    "monthly_dates",
]

HISTORY_VERSION = 1
"""Bumped whenever the catalogue of a given ``(seed, scale, date)`` changes."""

HISTORY_START = dt.date(2024, 1, 1)
"""First month of the default window of demo snapshots."""

HISTORY_MONTHS = 24
"""Months in the default window (2024-01 to 2025-12)."""

RECURRENCES: tuple[int, ...] = (-2, -1, 0, 1, 2)
"""Each demo event recurs with its dates moved by ``k * 52`` weeks for each ``k``."""

ID_STRIDE = 100_000_000
"""Recurrence ``k`` of demo event ``i`` has the id ``i + (k + 2) * ID_STRIDE``."""

_WEEKS_52 = np.timedelta64(364, "D")
_RURAL_STATES = frozenset({4, 8, 12, 14, 16})  # BB, MV, SL, ST, TH
_DIGITAL = "Digital"
_DATE_COLUMNS = (
    "event_start_date",
    "event_end_date",
    "registration_deadline",
    "announcement_start_date",
    "announcement_end_date",
)
_COURSE_TABLES = ("event_costs", "course_degrees", "course_keywords")


def monthly_dates(
    start: dt.date | str = HISTORY_START, months: int = HISTORY_MONTHS
) -> list[dt.date]:
    """The first day of ``months`` consecutive months from ``start``'s month."""
    first = as_date(start).replace(day=1)
    return [
        dt.date(first.year + (first.month - 1 + m) // 12, (first.month - 1 + m) % 12 + 1, 1)
        for m in range(months)
    ]


class DemoTimeline:
    """Today's demo catalogue of ``(seed, scale)`` spread over time (see the module doc).

    Building it generates the demo catalogue once (about a minute at ``scale=200``);
    :meth:`catalogue` then cuts the catalogue as of any date in a second or two.
    """

    def __init__(self, seed: int = demodata.DEFAULT_SEED, scale: float = 1.0) -> None:
        self.seed = int(seed)
        self.scale = float(scale)
        self.base = _base_frames(self.seed, self.scale)
        self._plan()

    # -- the plan: who is listed when ---------------------------------------------------

    def _plan(self) -> None:
        rng = np.random.default_rng([self.seed, HISTORY_VERSION, 16])
        ev = self.base["events"]
        n, m = len(ev), len(RECURRENCES)
        # providers
        uuids = pd.concat(
            [self.base[t]["institution"] for t in ("events", "courses", "addresses", "contacts")]
        ).dropna()
        self._institutions = pd.Index(uuids.unique())
        first = np.datetime64(HISTORY_START, "D")
        span = 730
        u = rng.random(len(self._institutions))
        offset = (rng.random(len(self._institutions)) * span).astype("int64")
        never, always = np.datetime64("1900-01-01"), np.datetime64("2999-12-31")
        self._entry = np.where(u < 0.15, first + offset, never).astype("datetime64[D]")
        self._exit = np.where((u >= 0.15) & (u < 0.30), first + offset, always).astype(
            "datetime64[D]"
        )
        if n:
            keep = self._institutions.get_indexer(ev["institution"].iloc[:1])
            self._entry[keep], self._exit[keep] = never, always  # institution 0: every defect
        # events: state and category decide the trend
        addresses = self.base["addresses"].set_index("id")["state"]
        state = ev["address"].map(addresses).astype("Int64").to_numpy(na_value=0)
        forms = pd.DataFrame(demodata.reference_rows()["instruction_forms"]).set_index("id")
        category = ev["instruction_form"].map(forms["category"]).to_numpy(dtype=object)
        digital = category == _DIGITAL
        rural = np.isin(state, list(_RURAL_STATES))
        step = np.arange(m)[None, :]  # 0 .. 4, k = step - 2
        p = np.where(digital[:, None], 0.55 + 0.1 * step, 0.8)
        p = p * np.where(rural[:, None], 1 - 0.08 * step, 1.0)
        kept = rng.random((n, m)) < p
        start = ev["event_start_date"].to_numpy("datetime64[D]")
        end = ev["event_end_date"].to_numpy("datetime64[D]")
        anchor = np.where(np.isnat(start), np.datetime64("2025-06-01"), start)
        last = np.where(np.isnat(end) | (end < start), anchor, end)
        shift = np.asarray(RECURRENCES)[None, :] * _WEEKS_52
        begin = anchor[:, None] + shift
        lead = (365 + rng.random((n, m)) * 548).astype("int64").astype("timedelta64[D]")
        listed = begin - lead
        delisted = last[:, None] + shift + np.timedelta64(1, "D")
        withdrawn = rng.random((n, m)) < 0.03
        cut = (rng.random((n, m)) * (begin - listed).astype("int64")).astype("timedelta64[D]")
        delisted = np.where(withdrawn, listed + cut + np.timedelta64(1, "D"), delisted)
        revised = rng.random((n, m)) < 0.10
        when = (rng.random((n, m)) * (begin - listed).astype("int64")).astype("timedelta64[D]")
        revision = np.where(revised, listed + when, np.datetime64("NaT"))
        rows, cols = np.nonzero(kept)  # row-major: by base event, then recurrence
        self._event = rows
        self._k = np.asarray(RECURRENCES, dtype="int64")[cols]
        self._listed = listed[rows, cols].astype("datetime64[D]")
        self._delisted = delisted[rows, cols].astype("datetime64[D]")
        self._revision = revision[rows, cols].astype("datetime64[D]")
        self._event_institution = self._institutions.get_indexer(ev["institution"])
        courses_with_events = set(ev["course"].dropna().astype("int64"))
        self._course_never_has_events = ~self.base["courses"]["id"].isin(courses_with_events)

    # -- views --------------------------------------------------------------------------

    def monthly_dates(
        self, start: dt.date | str = HISTORY_START, months: int = HISTORY_MONTHS
    ) -> list[dt.date]:
        """The first day of ``months`` consecutive months (see :func:`monthly_dates`)."""
        return monthly_dates(start, months)

    def _active(self, day: np.datetime64, uuids: pd.Series) -> np.ndarray:
        codes = self._institutions.get_indexer(uuids.fillna(""))
        active = (self._entry <= day) & (day < self._exit)
        return np.where(codes >= 0, active[codes], True)

    def catalogue(self, as_of: dt.date | str) -> Catalogue:
        """The demo catalogue as listed on ``as_of``: every collection and link table,
        typed as :func:`educatalog.load_catalogue` gives them, sorted by id (link tables by
        pair), its :class:`~educatalog.Source` the synthetic demo fetched that day."""
        when = as_date(as_of)
        day = np.datetime64(when, "D")
        base = self.base
        active = (self._entry <= day) & (day < self._exit)
        listed = (self._listed <= day) & (day < self._delisted)
        codes = self._event_institution[self._event]
        listed &= np.where(codes >= 0, active[np.maximum(codes, 0)], True)
        rows, k = self._event[listed], self._k[listed]
        order = np.lexsort((rows, k))  # by id: recurrence first, then the base id
        rows, k, revision = rows[order], k[order], self._revision[listed][order]
        ev = base["events"].take(rows).reset_index(drop=True)
        base_ids = ev["id"].to_numpy("int64")
        new_ids = base_ids + (k + 2) * ID_STRIDE
        ev["id"] = pd.array(new_ids, dtype="Int64")
        shift = pd.to_timedelta(k * 364, unit="D")
        for column in _DATE_COLUMNS:
            ev[column] = (ev[column] + shift).astype(ev[column].dtype)
        revised = (revision <= day) & ~np.isnat(revision)
        places = ev["max_participants"].fillna(12) + 2
        ev["max_participants"] = ev["max_participants"].mask(revised, places).astype("Int64")
        link = ev["link"]
        prefix = link.str.rsplit("=", n=1).str[0]
        ev["link"] = (prefix + "=" + pd.Series(new_ids, dtype="string")).where(link.notna())
        ev["link"] = ev["link"].astype("string")

        courses = base["courses"]
        shown = courses["id"].isin(ev["course"].dropna()) | (
            self._course_never_has_events & self._active(day, courses["institution"])
        )
        tables: dict[str, pd.DataFrame] = {}
        for name in COLLECTIONS:
            frame = base[name]
            if name == "events":
                frame = ev
            elif name == "courses":
                frame = frame[shown.to_numpy()]
            elif name in ("addresses", "contacts"):
                frame = frame[self._active(day, frame["institution"])]
            elif name in _COURSE_TABLES:
                frame = frame[frame["course"].isin(courses["id"][shown])]
            tables[name] = frame.reset_index(drop=True)
        kept_courses = tables["courses"]["id"]
        for name in LINK_TABLES:
            frame = base[name]
            if name == "events_contacts":
                pairs = pd.DataFrame({"_base": base_ids, "_new": new_ids})
                frame = frame.merge(pairs, left_on="event_id", right_on="_base", how="inner")
                frame = pd.DataFrame(
                    {
                        "event_id": frame["_new"].astype("Int64"),
                        "contact_id": frame["contact_id"].astype("Int64"),
                    }
                )
            else:
                frame = frame[frame[frame.columns[0]].isin(kept_courses)]
            left, right = frame.columns[:2]
            tables[name] = frame.sort_values([left, right], kind="stable").reset_index(drop=True)
        fetched = dt.datetime.combine(when, dt.time(), tzinfo=dt.UTC)
        return Catalogue(tables, source=Source(url=None, demo=True, fetched_at=fetched))

    def rows(self, as_of: dt.date | str) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        """The catalogue as of ``as_of`` as ``(collection, rows)`` chunks for
        :func:`educatalog.server.store.build_database` (how ``educatalog fetch --demo
        --as-of`` serves it)."""
        from educatalog.snapshot.serving import database_rows

        yield from database_rows(self.catalogue(as_of))


# ---------------------------------------------------------------------------------------
# today's demo catalogue as typed frames


def _base_frames(seed: int, scale: float) -> dict[str, pd.DataFrame]:
    """The demo catalogue of ``(seed, scale)`` as typed frames, chunk by chunk (flat
    memory), with columns in the catalogue's order and link tables as pairs of ids."""
    parts: dict[str, list[pd.DataFrame]] = {}
    for name, rows in demodata.iter_rows(seed=seed, scale=scale):
        if not rows:
            continue
        if name in LINK_TABLES:
            parts.setdefault(name, []).append(_link_frame(name, rows))
        else:
            parts.setdefault(name, []).append(to_frame(rows, name))
    frames: dict[str, pd.DataFrame] = {}
    for name in (*COLLECTIONS, *LINK_TABLES):
        chunks = parts.get(name) or [_empty(name)]
        frame = pd.concat(chunks, ignore_index=True) if len(chunks) > 1 else chunks[0]
        if name in COLLECTIONS:
            order = [f.name for f in SCHEMA[name].stored_fields if f.name in frame.columns]
            frame = frame[order]
        frames[name] = frame
    return frames


def _link_names(name: str) -> tuple[str, str, str, str]:
    owner, relation = LINK_TABLES[name]
    rel = SCHEMA[owner].field(relation).relation
    assert rel is not None
    assert rel.foreign_key
    assert rel.junction_field
    left = id_column(owner)
    right = id_column(rel.target or rel.related)
    return rel.foreign_key, rel.junction_field, left, right


def _link_frame(name: str, rows: Sequence[dict[str, Any]]) -> pd.DataFrame:
    back, forward, left, right = _link_names(name)
    frame = pd.DataFrame(
        {
            left: pd.array([r.get(back) for r in rows], dtype="Int64"),
            right: pd.array([r.get(forward) for r in rows], dtype="Int64"),
        }
    )
    return frame.dropna()


def _empty(name: str) -> pd.DataFrame:
    if name in LINK_TABLES:
        _, _, left, right = _link_names(name)
        return pd.DataFrame({left: pd.array([], "Int64"), right: pd.array([], "Int64")})
    return to_frame([], name)


def as_of_database(
    as_of: dt.date | str,
    seed: int = demodata.DEFAULT_SEED,
    scale: float = 1.0,
    *,
    directory: Any = None,
) -> Any:
    """A reference-server database of the demo catalogue as of ``as_of``, built once and
    cached beside the demo databases (named by seed, scale, date and code fingerprint)."""
    from pathlib import Path

    from educatalog.demodata.embedded import cache_dir, code_fingerprint
    from educatalog.files.cache import cached
    from educatalog.server import store
    from educatalog.snapshot import serving

    fingerprint = code_fingerprint(serving.__file__ or "", __file__)
    when = as_date(as_of)
    folder = Path(directory) if directory is not None else cache_dir() / "history"
    name = (
        f"demo-history-v{HISTORY_VERSION}-{fingerprint}-seed{seed}-"
        f"scale{scale:g}-{when.isoformat()}.sqlite"
    )
    info = {"demo": True, "seed": seed, "scale": scale, "as_of": when.isoformat()}
    return cached(  # checked against its checksum before use, built again when damaged
        folder / name,
        lambda path: store.build_database(path, DemoTimeline(seed, scale).rows(when), info=info),
    )
