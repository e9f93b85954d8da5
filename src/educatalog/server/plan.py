"""The plan of one read, made once from the bound query and the database before anything
is read (:func:`plan_list`, :func:`plan_item`): the shape of the answer's body, whether
SQLite writes its rows alone, whether it is tried on the event loop first and whether it
takes a slot for heavy answers. :mod:`~educatalog.server.reader` carries it out.

Nothing is read to make a plan: it goes by the counts the database has read already
(:meth:`~educatalog.server.store.Database.known_total`), read for every collection when the
application starts."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from educatalog.query import BoundQuery
from educatalog.server import tuning
from educatalog.server.context import Limits
from educatalog.server.items import is_flat, lists_ids
from educatalog.server.objects import objects_per_row, page_objects
from educatalog.server.store import Database

__all__ = ["ReadPlan", "Shape", "plan_item", "plan_list"]


class Shape(enum.Enum):
    """The shape of an answer's body, and so how it is read."""

    WRITTEN = "written"
    """A page whose objects SQLite writes and joins in one statement (:func:`is_flat`),
    sent between the body's opening and its meta counts without being copied again."""
    BUILT = "built"
    """A page of rows built as dicts (expanded lists), serialized by orjson."""
    GROUPS = "groups"
    """The groups of ``aggregate``/``groupBy``, an array written by SQLite."""
    STREAMED = "streamed"
    """A large answer read piece by piece (sent whole if it ends within ``whole_bytes``)."""
    ITEM = "item"
    """One item by id, built as a dict."""


@dataclass(frozen=True)
class ReadPlan:
    """What one request reads and how: its bound query, the body's :class:`Shape`, whether
    SQLite writes its rows alone (``flat``: :func:`~educatalog.server.items.is_flat`,
    worked out here once), whether it is tried on the event loop under a quick guard
    (``quick``) and whether it takes a slot for heavy answers (``heavy``)."""

    bound: BoundQuery
    shape: Shape
    flat: bool
    quick: bool
    heavy: bool
    item_id: int = 0

    @property
    def streamed(self) -> bool:
        return self.shape is Shape.STREAMED


def plan_list(db: Database, limits: Limits, bound: BoundQuery) -> ReadPlan:
    """The plan of a list read (a page, or groups).

    A list's rows are at most its collection's: ``limit=-1`` of a reference list, or of a
    small catalogue, is a page like any other (read whole in one statement: a streamed
    answer is read a Python object a row). A page that SQLite writes alone is read whole
    up to ``flat_whole_factor`` times ``stream_rows`` objects (nested ones count); pages
    with expanded relations stream from ``nested_stream_rows`` rows on (small ones are
    built whole, faster); groups are read whole (heavy when there may be many).
    """
    numbers = tuning.TUNING
    total = db.known_total(bound.collection.name)
    stream_rows = limits.stream_rows
    if bound.aggregate is not None:
        heavy = stream_rows is not None and (bound.limit is None or bound.limit > stream_rows)
        quick = total is not None and total <= numbers.quick_rows
        return ReadPlan(bound, Shape.GROUPS, False, quick, heavy)
    flat = is_flat(bound, db.schema)
    per_row = _per_row(db, bound) if flat or _small(total) else None
    streamed = heavy = False
    if stream_rows is not None:
        limit = bound.limit
        if total is not None and (limit is None or limit > total):
            limit = total  # no page holds more items than its collection
        heavy = limit is None or limit > stream_rows
        if flat:
            most = None if limit is None else limit * (per_row or 1)
            streamed = most is None or most > stream_rows * numbers.flat_whole_factor
        else:
            threshold = min(stream_rows, numbers.nested_stream_rows)
            streamed = heavy or limit is None or limit > threshold
    quick = _quick(db, bound, total, flat, per_row)
    shape = Shape.STREAMED if streamed else Shape.WRITTEN if flat else Shape.BUILT
    return ReadPlan(bound, shape, flat, quick, heavy)


def plan_item(db: Database, bound: BoundQuery, item_id: int) -> ReadPlan:
    """The plan of one item's read: tried quickly as a page of one row would be."""
    one = replace(bound, limit=1)
    total = db.known_total(bound.collection.name)
    flat = is_flat(one, db.schema)
    per_row = _per_row(db, one) if _small(total) else None
    return ReadPlan(bound, Shape.ITEM, False, _quick(db, one, total, flat, per_row), False, item_id)


def _small(total: int | None) -> bool:
    return total is not None and total <= tuning.TUNING.quick_rows


def _per_row(db: Database, bound: BoundQuery) -> int | None:
    return objects_per_row(db, None, bound.collection, bound.fields, bound.deep)


def _quick(
    db: Database, bound: BoundQuery, total: int | None, flat: bool, per_row: int | None
) -> bool:
    """Whether a read is tried on the event loop first: one of a collection of at most
    ``quick_rows`` rows that writes at most ``quick_objects`` objects built in Python, or
    ``quick_flat_objects`` written by SQLite without lists of ids (a subquery a row). Any
    read of a larger collection may scan it: on the loop it would run out of the quick
    guard and start over, its first attempt wasted."""
    if not _small(total) or per_row is None:
        return False
    assert total is not None
    most = page_objects(bound, total, per_row)
    numbers = tuning.TUNING
    cheap = flat and not lists_ids(bound.collection, bound.fields, db.schema)
    return most <= (numbers.quick_flat_objects if cheap else numbers.quick_objects)
