"""Where data came from: the :class:`Source` of a frame, kept in its ``attrs`` and
recognised by its rows after pandas dropped them.

>>> source = Source(url="https://service.example/", fetched_at=dt.datetime(2026, 11, 23))
>>> source.text("en")  # doctest: +SKIP
'https://service.example/, retrieved 23 Nov 2026'

Every layer above the client reads it (tables, charts, widgets, reports), none of them needs
the catalogue for it.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from educatalog.client.urls import public_url
from educatalog.errors import UsageError
from educatalog.files import manifests

__all__ = ["SOURCE_ATTR", "Source", "demo_as_of", "remember", "served_source", "source_of"]

SOURCE_ATTR = "educatalog"
"""Key under which frames carry their :class:`Source` in ``DataFrame.attrs``."""


@dataclass(frozen=True)
class Source:
    """Where data came from: the service (never its token), when, and whether demo.

    ``name`` states a source in words where there is no service to name (``Source(name=
    "Eigene Erhebung 2025")``); :meth:`text` is the line under a chart or table.
    ``dated=False`` leaves the retrieval date out of it, where it would mislead (an archive
    of snapshots fetched on one day as the catalogue stood on earlier ones). ``as_of`` is
    the date of the data where it is not the retrieval date (the demo catalogue cut as of a
    day): what a "Stand" line says (:attr:`stand`).
    """

    url: str | None = None
    demo: bool = False
    fetched_at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))
    name: str | None = None
    dated: bool = True
    as_of: dt.date | None = None

    @property
    def stand(self) -> dt.date:
        """The date of the data: :attr:`as_of` where known, else the retrieval date (a
        service's catalogue as it stood when it was fetched)."""
        return self.as_of or self.fetched_at.date()

    def __post_init__(self) -> None:
        object.__setattr__(self, "url", public_url(self.url))  # never a credential

    @property
    def label(self) -> str:
        """A one-line description in English with an ISO date (see :meth:`text`)."""
        when = self.fetched_at.strftime("%Y-%m-%d")
        what = (
            "synthetic demo data (educatalog)"
            if self.demo
            else (self.name or self.url or "unknown source")
        )
        return f"{what}, retrieved {when}"

    def text(self, lang: str = "de", *, dated: bool = True) -> str:
        """The source as a reader reads it, in ``lang``: "synthetische Demodaten
        (educatalog), abgerufen am 23.11.2026" / "https://…, retrieved 23 Nov 2026"; a demo
        source with a ``name`` (the demo catalogue's seed and scale) by that name.
        ``dated=False`` leaves the retrieval date out (where a "Stand" line gives it)."""
        from educatalog import texts

        when = texts.date(self.fetched_at, lang)
        dated = dated and self.dated
        if self.demo:
            if self.name:
                key = "source.demo_named" if dated else "source.named"
                return texts.text(key, lang, name=self.name, date=when)
            return texts.text("source.demo" if dated else "source.demo_undated", lang, date=when)
        if self.name:
            return self.name
        url = self.url or texts.text("source.unknown_url", lang)
        return texts.text(
            "source.url" if dated else "source.named", lang, url=url, name=url, date=when
        )

    def to_attrs(self) -> dict[str, Any]:
        attrs: dict[str, Any] = {
            "url": self.url,
            "demo": self.demo,
            "fetched_at": self.fetched_at.isoformat(),
        }
        if self.name:
            attrs["name"] = self.name
        if not self.dated:
            attrs["dated"] = False
        if self.as_of is not None:
            attrs["as_of"] = self.as_of.isoformat()
        return attrs

    @classmethod
    def from_attrs(cls, attrs: Mapping[Hashable, Any]) -> Source | None:
        """The source recorded on a frame by :meth:`to_attrs`, or None."""
        raw = attrs.get(SOURCE_ATTR)
        if not isinstance(raw, Mapping) or not ({"url", "demo", "name"} & set(raw)):
            return None
        fetched = raw.get("fetched_at")
        when = dt.datetime.fromisoformat(fetched) if fetched else dt.datetime.now(dt.UTC)
        return cls(
            url=raw.get("url"),
            demo=bool(raw.get("demo")),
            fetched_at=when,
            name=raw.get("name"),
            dated=raw.get("dated", True) is not False,
            as_of=dt.date.fromisoformat(raw["as_of"]) if raw.get("as_of") else None,
        )


# -- the source of a frame, also after merge and concat ----------------------------------

_KEYS = ("event_id", "course_id", "event_start_date")
"""Columns whose values, row by row, recognise the rows of a known frame."""

_KNOWN: dict[tuple[Any, ...], tuple[Source, list[pd.DataFrame], dict[tuple[str, ...], Any]]] = {}
_KNOWN_LOCK = threading.Lock()
_MAX_KNOWN = 8


def served_source(url: str | None, demo: bool, own: Mapping[str, Any] | None = None) -> Source:
    """The source of data that the service at ``url`` serves, as a reader cites it: that
    service, as of now; or, where it is a reference server serving a snapshot (``own``, the
    ``educatalog`` part of its ``/server/info``, names one: ``educatalog serve
    --snapshot``), the service the snapshot was fetched from, as it stood then (not the
    passing loopback address, not today). The demo catalogue cut as of a day (``own``
    names it: ``as_of``) stands as of that day."""
    source = _served(url, demo, own)
    day = demo_as_of(own) if demo else None
    return replace(source, as_of=day) if day else source


def demo_as_of(own: Mapping[str, Any] | None) -> dt.date | None:
    """The day a demo catalogue was cut as of, as its server's ``/server/info`` (``own``,
    its ``educatalog`` part) names it; None where it names none, or names no day (the data
    then stand as retrieved)."""
    value = own.get("as_of") if isinstance(own, Mapping) else None
    if not value:
        return None
    try:
        return manifests.as_date(str(value)[:10], "as_of")
    except UsageError:
        return None


def _served(url: str | None, demo: bool, own: Mapping[str, Any] | None) -> Source:
    snap = own.get("snapshot") if isinstance(own, Mapping) else None
    if isinstance(snap, Mapping) and snap.get("fetched_at"):
        try:
            fetched = dt.datetime.fromisoformat(str(snap["fetched_at"]))
        except ValueError:  # not a time: the server as it is
            return Source(url=url, demo=demo)
        if fetched.tzinfo is None:
            fetched = fetched.replace(tzinfo=dt.UTC)
        origin = snap.get("source_url") or (None if demo else url)
        return Source(url=origin, demo=demo, fetched_at=fetched)
    return Source(url=url, demo=demo)


def remember(frame: pd.DataFrame, source: Source) -> None:
    """Keep the rows' keys of ``frame`` (event, course, start date), so that
    :func:`source_of` recognises them in a frame that lost its ``attrs`` (pandas drops them
    in ``merge``, in ``concat`` with a frame of other attrs, in most ``groupby`` results).
    Cheap: the columns are shared, not copied, and fingerprinted on the first lookup only.
    The latest eight sources are kept."""
    keys = [k for k in _KEYS if k in frame]
    if "event_id" not in keys or frame.empty:
        return
    key = (source.url, source.demo, source.name, source.fetched_at.isoformat())
    with _KNOWN_LOCK:
        entry = _KNOWN.pop(key, None)
        frames = [*(entry[1] if entry else []), frame[keys]]
        _KNOWN[key] = (source, frames, {})
        while len(_KNOWN) > _MAX_KNOWN:
            _KNOWN.pop(next(iter(_KNOWN)))


def _known_fingerprints(
    entry: tuple[Source, list[pd.DataFrame], dict[tuple[str, ...], Any]], keys: tuple[str, ...]
) -> Any:
    _, frames, hashes = entry
    if keys not in hashes:
        parts = [_fingerprints(f, keys) for f in frames if all(k in f for k in keys)]
        hashes[keys] = pd.unique(np.concatenate(parts)) if parts else None
    return hashes[keys]


def _fingerprints(frame: pd.DataFrame, keys: tuple[str, ...]) -> np.ndarray:
    """One 64-bit number per row mixing the values of ``keys`` (vectorized)."""
    mixed = np.zeros(len(frame), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for key in keys:
            column = frame[key]
            if pd.api.types.is_datetime64_any_dtype(column.dtype):
                values = column.astype("datetime64[us]").to_numpy().view(np.int64)
            else:
                values = pd.to_numeric(column, errors="coerce").to_numpy(
                    dtype="float64", na_value=np.nan
                )
                values = np.where(np.isnan(values), -1, values).astype(np.int64)
            mixed = mixed * np.uint64(0x9E3779B97F4A7C15) + values.view(np.uint64)
            mixed ^= mixed >> np.uint64(31)
    return mixed


def source_of(frame: pd.DataFrame | pd.Series, source: Source | str | None = None) -> Source | None:
    """The source of ``frame``: ``source`` when given (a :class:`Source` or its name in
    words), else the one in its ``attrs``, else the one whose rows it holds (after a
    ``merge`` with a frame of your own, a ``concat`` or a ``groupby``, which drop
    ``attrs``): a frame holding rows of the synthetic demo catalogue is demo data. None when
    it cannot be known."""
    if isinstance(source, Source):
        return source
    if isinstance(source, str) and source.strip():
        return Source(name=source.strip())
    if source is not None:
        raise UsageError(
            f"source must be an educatalog.Source or a text naming the source, got {source!r}."
        )
    found = Source.from_attrs(frame.attrs)
    if found is not None:
        return found
    if not isinstance(frame, pd.DataFrame):
        return None
    keys = tuple(k for k in _KEYS if k in frame)
    if "event_id" not in keys or not _KNOWN:
        return None
    rows = frame[frame["event_id"].notna().to_numpy()]
    if rows.empty:
        return None
    hashed = pd.Series(pd.unique(_fingerprints(rows, keys)))
    matches = []
    with _KNOWN_LOCK:
        entries = list(_KNOWN.values())
        fingerprints = [(e[0], _known_fingerprints(e, keys)) for e in entries]
    for known_source, known in fingerprints:
        if known is None:
            continue
        hits = hashed.isin(known)
        if hits.any():
            matches.append((known_source, bool(hits.all())))
    demo = [s for s, _ in matches if s.demo]
    if demo and (len(keys) > 1 or len(matches) == len(demo)):
        return demo[-1]  # rows of the demo catalogue: the mark must not get lost
    whole = [s for s, complete in matches if complete]
    if len(matches) == 1 and whole:
        return whole[0]
    return None
