"""How a complete download is planned and checked, without any I/O.

:class:`~educatalog.client.Client` and :class:`~educatalog.client.AsyncClient` walk a
collection the same way and differ only in how they wait for answers; everything they decide
is here:

* :func:`download_query`: the query of every page (``fields`` with ``id``, the user's filter
  and search, ``deep[rel][_limit]=-1`` on every list relation, so nested lists come whole);
* :func:`first_query`, :func:`top_query`, :func:`window_query`: the first page with its
  ``filter_count``, the highest matching id, and the keyset page ``last < id <= high``;
* :func:`walk_slices`: the id slices fetched concurrently after the first page;
* :func:`sorted_query`, :func:`sorted_pages`: the first rows in another order, asked of the
  service sorted and limited (``load(sort=..., limit=...)``), page by page;
* :func:`download_problem` / :func:`incomplete_download`: the end-of-download check.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias, TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from educatalog.errors import IncompleteDownload, InvalidQuery, UnexpectedAnswer, UsageError
from educatalog.model.schema import SCHEMA, Collection
from educatalog.query import F, Query, bind_fields, list_relations

__all__ = [
    "DOWNLOAD_ATTEMPTS",
    "Ids",
    "Page",
    "Row",
    "converted",
    "count_query",
    "download_problem",
    "download_query",
    "first_is_all",
    "first_query",
    "identity",
    "incomplete_download",
    "last_id",
    "merge_deep",
    "on_rows",
    "page_ids",
    "page_of",
    "row_ids",
    "slices",
    "sorted_pages",
    "sorted_query",
    "top_query",
    "walk_slices",
    "window_problem",
    "window_query",
]

Row = dict[str, Any]
T = TypeVar("T")

DOWNLOAD_ATTEMPTS = 3
"""A download that does not add up is fetched this many times in all before it raises."""


class Page:
    """One answer of a list request: its rows and the meta counts asked for.

    The rows are held as they were decoded, one way or the other: as row dicts, or, for a
    page of plain fields parsed by pyarrow (:meth:`from_arrow`), as :attr:`arrow`, an Arrow
    table of their JSON values. :attr:`data` is the row dicts either way (made from the
    table on first access); :func:`educatalog.frames.typed.page_table` the typed table either way.
    """

    __slots__ = ("_rows", "arrow", "meta")

    arrow: pa.Table | None
    """The rows as pyarrow decoded them (their JSON representation); None: row dicts."""
    meta: dict[str, int]

    def __init__(self, data: list[Row], meta: dict[str, int] | None = None) -> None:
        self._rows: list[Row] | None = data
        self.arrow = None
        self.meta = {} if meta is None else meta

    @classmethod
    def from_arrow(cls, table: pa.Table, meta: dict[str, int] | None = None) -> Page:
        """The page of rows that pyarrow decoded into ``table``."""
        page = cls([], meta)
        page._rows = None  # made from the table when asked for
        page.arrow = table
        return page

    @property
    def data(self) -> list[Row]:
        """The rows as dicts."""
        if self._rows is None:
            assert self.arrow is not None  # one of the two is always there
            self._rows = self.arrow.to_pylist()
        return self._rows

    @property
    def num_rows(self) -> int:
        """The number of rows (without making dicts of an Arrow page's rows)."""
        return int(self.arrow.num_rows) if self.arrow is not None else len(self.data)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Page):
            return NotImplemented
        return self.meta == other.meta and self.data == other.data

    def __repr__(self) -> str:
        kind = "Arrow" if self.arrow is not None else "dicts"
        return f"Page({self.num_rows} rows as {kind}, meta={self.meta!r})"


def page_of(body: Any, context: str = "") -> Page:
    """The :class:`Page` of a decoded list answer; :class:`UnexpectedAnswer` when it is not
    ``{"data": [{...}, ...], "meta": {"name": count}}``."""
    data = body.get("data") if isinstance(body, dict) else None
    meta = body.get("meta", {}) if isinstance(body, dict) else None
    if (
        not isinstance(data, list)
        or not all(isinstance(row, dict) for row in data)
        or not isinstance(meta, dict)
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in meta.values())
    ):
        got = type(body).__name__ if not isinstance(body, dict) else f"keys {sorted(body)[:5]}"
        raise UnexpectedAnswer(
            f"{context + ': ' if context else ''}the answer is not a list of items "
            f'({{"data": [...], "meta": {{...}}}}); got {got}.'
        )
    return Page(data, dict(meta))


def count_query(query: Query | None) -> Query:
    """``query`` asking only for its ``filter_count``, no rows."""
    return (query or Query()).replace(limit=0, offset=None, page=None, meta="filter_count")


def identity(rows: list[Row]) -> list[Row]:
    return rows


Ids: TypeAlias = "list[Any] | pa.Array"
"""The ids of a page: a list, or for a page decoded by pyarrow its id column (a million ids
kept as Python ints cost a download more than its decoding, in the garbage collector's
walks over them too)."""


def on_rows(convert: Callable[[list[Row]], T]) -> Callable[[Page], T]:
    """``convert``, which takes a page's row dicts, as a converter of pages."""
    return lambda page: convert(page.data)


def converted(page: Page, convert: Callable[[Page], T]) -> tuple[Ids, T]:
    """The ids of a page (kept for the final check) and the page passed through ``convert``."""
    return page_ids(page), convert(page)


def page_ids(page: Page) -> Ids:
    """The ids of a page's rows: the id column of a page decoded by pyarrow, else a list."""
    if page.arrow is not None:
        column: pa.Array = page.arrow.column("id").combine_chunks()
        return column
    return [row["id"] for row in page.data]


def row_ids(page: Page) -> list[Any]:
    """The ids of a page's rows as a list (read from the column of a page decoded by pyarrow)."""
    if page.arrow is not None:
        ids: list[Any] = page.arrow.column("id").to_pylist()
        return ids
    return [row["id"] for row in page.data]


def last_id(page: Page) -> Any:
    """The id of a page's last row."""
    if page.arrow is not None:
        return page.arrow.column("id")[-1].as_py()
    return page.data[-1]["id"]


def window_problem(ids: Ids, low: int | None, high: int | None) -> str | None:
    """What is wrong with the ids of a page asked for ids in (low, high] (None: nothing):
    an id that is no integer, or the first one outside the window."""
    if isinstance(ids, pa.Array):
        if not pa.types.is_integer(ids.type) or ids.null_count:
            return "rows without an integer id"
        if not len(ids):
            return None
        least, most = (v.as_py() for v in pc.min_max(ids).values())
        if (low is None or least > low) and (high is None or most <= high):
            return None  # (one pass over the column for the pages that are right)
        ids = ids.to_pylist()
    elif any(not isinstance(i, int) or isinstance(i, bool) for i in ids):
        return "rows without an integer id"
    for i in ids:
        if (low is not None and i <= low) or (high is not None and i > high):
            return f"the answer holds id {i}"
    return None


# -- planning -------------------------------------------------------------------------------


def download_query(coll: Collection, query: Query | None) -> Query:
    """The query every page of a complete download of ``query`` is built from.

    Its limit, offset and page are dropped; a sort other than by id is refused (rows come in
    id order); ``id`` is added to explicit fields; every list relation among the selected
    fields gets ``_limit: -1`` in ``deep``, under the user's own deep options.
    """
    query = query or Query()
    if query.aggregate or query.group_by:
        raise UsageError(
            "fetch_all downloads items; aggregate and groupBy are answered in one page of "
            "groups: ask client.list(collection, query)."
        )
    if query.sort and any(key.lstrip("-") != "id" for key in query.sort):
        raise InvalidQuery(
            "fetch_all returns rows in id order; sort the result instead "
            f"(sort={','.join(query.sort)})."
        )
    fields = query.fields
    if fields is not None and "id" not in fields and "*" not in fields:
        fields = (*fields, "id")
    deep = list_relations(bind_fields(fields or ("*",), coll, SCHEMA), coll)
    return Query(
        fields=fields,
        filter=query.filter,
        search=query.search,
        deep=merge_deep(deep, query.deep) or None,
    )


def first_query(base: Query) -> Query:
    """The first page in id order, with the number of matching rows."""
    return base.replace(sort=("id",), meta="filter_count")


def top_query(base: Query) -> Query:
    """The highest matching id alone."""
    return base.replace(sort=("-id",), limit=1, fields=("id",))


def window_query(base: Query, last: Any, high: Any) -> Query:
    """The next page of a slice by keyset: ``last < id <= high``, in id order."""
    window = (F("id") > last) & (F("id") <= high)
    f = window if base.filter is None else base.filter & window
    return base.replace(filter=f, sort=("id",))


def sorted_query(coll: Collection, query: Query | None, sort: Sequence[str]) -> Query:
    """The query of every page of the first rows of ``query`` in the order ``sort``.

    As :func:`download_query` (``id`` among the fields, nested lists whole), sorted by
    ``sort`` and then by ``id``, so that ties come in id order on any service (the
    reference server ends every sort with ``id``; the client does not rely on it).
    """
    keys = tuple(sort)
    if not any(key.lstrip("-") == "id" for key in keys):
        keys = (*keys, "id")
    base = download_query(coll, (query or Query()).replace(sort=None))
    return base.replace(sort=keys)


def sorted_pages(total: int, size: int) -> list[tuple[int, int]]:
    """``(offset, limit)`` of the pages after a first page of ``size`` rows that together
    hold the first ``total`` rows: the last is only as long as needed."""
    return [(offset, min(size, total - offset)) for offset in range(size, total, size)]


def first_is_all(first: Page, expected: int) -> bool:
    """Whether the first page already holds every matching row (or there are none)."""
    return first.num_rows >= expected or not first.num_rows


def walk_slices(
    first: Page, top: Page, expected: int, page_size: int, workers: int
) -> list[tuple[int, int]]:
    """The id slices left after the first page, given the answer of :func:`top_query`."""
    last = last_id(first)
    high = row_ids(top)[0] if top.num_rows else last
    return slices(last, high, expected - first.num_rows, page_size, workers)


def slices(low: int, high: int, rows: int, page_size: int, workers: int) -> list[tuple[int, int]]:
    """Split the ids (low, high] into ranges, a few per worker, none smaller than a page."""
    count = max(1, min(workers * 4, rows // page_size))
    step = max(1, -(-(high - low) // count))
    out = []
    start = low
    while start < high:
        end = min(high, start + step)
        out.append((start, end))
        start = end
    return out or [(low, high)]


def merge_deep(a: dict[str, Any], b: Any) -> dict[str, Any]:
    """``a`` overlaid with ``b`` (the user's own deep options win)."""
    out = dict(a)
    for key, value in (b or {}).items():
        out[key] = merge_deep(out.get(key, {}), value) if isinstance(value, dict) else value
    return out


# -- checking -------------------------------------------------------------------------------


def download_problem(expected: int, parts: list[tuple[Ids, Any]]) -> str | None:
    """What is wrong with a download of ``expected`` rows (``None``: exactly those rows)."""
    received, distinct = _count_ids([ids for ids, _ in parts])
    if received == expected and distinct == received:
        return None
    return f"expected {expected:,} rows, received {received:,} ({distinct:,} distinct)"


def _count_ids(pages: list[Ids]) -> tuple[int, int]:
    """The number of ids on the pages, and of distinct ones (counted by Arrow where it can)."""
    received = sum(len(ids) for ids in pages)
    try:
        arrays = [ids if isinstance(ids, pa.Array) else pa.array(ids, pa.int64()) for ids in pages]
        column = pa.concat_arrays([a.cast(pa.int64()) for a in arrays])
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError, TypeError):  # not int64
        return received, len(
            {i for ids in pages for i in (ids.to_pylist() if isinstance(ids, pa.Array) else ids)}
        )
    if column.null_count:
        return received, len(set(column.to_pylist()))
    # A sort of the ids (mostly sorted already) counts the distinct ones in a tenth of the
    # time of Arrow's hash (count_distinct): 20 ms for a million.
    ordered = np.sort(column.to_numpy(zero_copy_only=False))
    return received, int(np.count_nonzero(np.diff(ordered))) + min(1, len(ordered))


def incomplete_download(coll: Collection, problem: str | None) -> IncompleteDownload:
    return IncompleteDownload(
        f"GET /items/{coll.name}: {problem}, three times; the collection is changing "
        "faster than it can be downloaded, or the service's counts are wrong."
    )
