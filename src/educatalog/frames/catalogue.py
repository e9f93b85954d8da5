"""A loaded catalogue: every collection and link table as typed DataFrames, in one object.

>>> cat = educatalog.load_catalogue()  # doctest: +SKIP
>>> cat.events                         # one attribute per collection  # doctest: +SKIP
>>> cat.events_contacts                # link tables: event_id, contact_id  # doctest: +SKIP
>>> cat.labels("states")               # id -> name of a reference list  # doctest: +SKIP
>>> offers = cat.offers()              # one analysis-ready row per event  # doctest: +SKIP

The link tables are named after the service's junction collections and hold one pair of
ids per link (see :func:`educatalog.load_links`). :class:`Source` records where and when the
data was fetched and whether it is the synthetic demo catalogue.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pandas as pd

from educatalog.errors import UsageError, did_you_mean
from educatalog.frames.offers import build_offers
from educatalog.frames.provenance import SOURCE_ATTR, Source, remember, source_of
from educatalog.model import schema

__all__ = [
    "COLLECTIONS",
    "LINK_TABLES",
    "SOURCE_ATTR",
    "Catalogue",
    "Source",
    "id_column",
    "remember",
    "source_of",
]

LINK_TABLES: dict[str, tuple[str, str]] = {
    f.relation.related: (c.name, f.name)
    for c in schema.SCHEMA.values()
    for f in c.relations
    if f.relation is not None and f.relation.kind == "m2m"
}
"""Link table name (the junction collection) -> (collection, many-to-many relation)."""


def id_column(collection: str) -> str:
    """The column of a link table holding ids of ``collection``: ``courses`` -> ``course_id``,
    ``events`` -> ``event_id``."""
    return f"{collection[:-1] if collection.endswith('s') else collection}_id"


COLLECTIONS: tuple[str, ...] = tuple(c.name for c in schema.SCHEMA.of_kind("entity", "reference"))
"""The collections a catalogue holds as tables of their own (junctions become link tables)."""


class Catalogue(Mapping[str, pd.DataFrame]):
    """Tables of a loaded catalogue by name, also reachable as attributes (``cat.events``).

    Built by :func:`educatalog.load_catalogue` (or from a snapshot); a mapping of table
    name to DataFrame, so ``for name, frame in cat.items()`` works as for a dict.
    """

    def __init__(self, tables: Mapping[str, pd.DataFrame], *, source: Source | None = None):
        known = {**dict.fromkeys(COLLECTIONS), **dict.fromkeys(LINK_TABLES)}
        for name in tables:
            if name not in known:
                raise UsageError(
                    f'"{name}" is neither a collection nor a link table of the catalogue.'
                    f"{did_you_mean(name, known)}"
                )
        # Catalogue order, whatever order the tables arrived in. Each a shallow copy (the
        # columns shared, not copied): stating this catalogue's source on a frame must not
        # restate it on the frame given, which may be another catalogue's.
        self._tables = {n: tables[n].copy(deep=False) for n in known if n in tables}
        self.source = source or Source()
        for frame in self._tables.values():
            frame.attrs[SOURCE_ATTR] = self.source.to_attrs()

    # -- mapping ------------------------------------------------------------------------

    def __getitem__(self, name: str) -> pd.DataFrame:
        try:
            return self._tables[name]
        except KeyError:
            raise KeyError(self._missing(name)) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)

    def __getattr__(self, name: str) -> pd.DataFrame:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._tables[name]
        except KeyError:
            raise AttributeError(self._missing(name)) from None

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *self._tables})

    def _missing(self, name: str) -> str:
        if name in COLLECTIONS or name in LINK_TABLES:
            return (
                f'"{name}" was not loaded into this catalogue; pass it in '
                f"load_catalogue(collections=[...]) or load all collections."
            )
        return f'The catalogue has no table "{name}".{did_you_mean(name, self._tables)}'

    def __repr__(self) -> str:
        origin = "synthetic demo data" if self.source.demo else (self.source.url or "no source")
        lines = [f"<Catalogue of {len(self)} tables, {origin}>"]
        width = max((len(n) for n in self._tables), default=0)
        lines += [f"  {n:<{width}}  {len(f):>10,} rows" for n, f in self._tables.items()]
        return "\n".join(lines)

    # -- lookups ------------------------------------------------------------------------

    @property
    def collections(self) -> tuple[str, ...]:
        """Names of the loaded collections (not the link tables)."""
        return tuple(n for n in self._tables if n in COLLECTIONS)

    @property
    def links(self) -> tuple[str, ...]:
        """Names of the loaded link tables."""
        return tuple(n for n in self._tables if n in LINK_TABLES)

    def labels(self, reference: str) -> pd.Series:
        """The names of a reference list by id, e.g. ``cat.labels("states")[9]``.

        The label is the list's ``name`` (``city`` for ``locations``); the index holds the
        ids. Duplicate ids, which a well-formed list never has, keep their first label.
        """
        coll = schema.SCHEMA[reference]
        if coll.kind != "reference" or coll.label is None:
            lists = [c.name for c in schema.SCHEMA.of_kind("reference")]
            raise UsageError(
                f'"{reference}" is not a reference list; labels exist for: {", ".join(lists)}.'
            )
        frame = self[reference]
        if "id" not in frame or coll.label not in frame:
            raise UsageError(
                f'The loaded "{reference}" table lacks "id" or "{coll.label}"; load it with '
                "its default fields."
            )
        labels = frame.drop_duplicates("id").set_index("id")[coll.label]
        labels.name = reference
        return labels

    def offers(
        self, *, funding: bool = False, subjects: bool = False, degrees: bool = False
    ) -> pd.DataFrame:
        """One analysis-ready row per event joined along its relations; with ``funding``,
        ``subjects`` or ``degrees`` one row per event and funding type, subject or degree
        type of its course. See :func:`educatalog.frames.offers.build_offers`."""
        return build_offers(self, funding=funding, subjects=subjects, degrees=degrees)
