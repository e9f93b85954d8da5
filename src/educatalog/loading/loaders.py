"""The front door: whole collections, or filtered slices, as typed DataFrames.

>>> events = educatalog.load("events", filter=F("address.state") == 9)  # doctest: +SKIP
>>> links = educatalog.load_links("events", "contacts")  # doctest: +SKIP
>>> cat = educatalog.load_catalogue()  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

import pandas as pd
import pyarrow as pa

from educatalog.client import Client, Page
from educatalog.errors import EducatalogError, InvalidQuery, did_you_mean
from educatalog.frames.catalogue import (
    COLLECTIONS,
    LINK_TABLES,
    SOURCE_ATTR,
    Catalogue,
    Source,
    id_column,
)
from educatalog.frames.provenance import served_source
from educatalog.frames.typed import arrow_to_frame, page_table, to_frame, typed_column
from educatalog.loading.connection import connect
from educatalog.model.schema import SCHEMA, Collection, Field, FieldType
from educatalog.query import Filter, Query, filter_from_json, row_limit

__all__ = ["load", "load_catalogue", "load_links"]


def load(
    collection: str,
    *,
    filter: Filter | Mapping[str, Any] | None = None,
    fields: str | Sequence[str] | None = None,
    sort: str | Sequence[str] | None = None,
    search: str | None = None,
    limit: int | None = None,
    client: Client | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Every row of ``collection`` matching ``filter`` and ``search``, as a typed DataFrame.

    ``fields`` defaults to the collection's own columns (list relations are left out: use
    :func:`load_links`); dotted paths such as ``"address.state"`` become prefixed columns
    (``address_state``). ``sort`` orders the result as the service does (``-`` descending;
    nulls last ascending and first descending; ties by ``id``), ``limit`` keeps the first
    rows of that order. With ``limit``, the service is asked for just those rows, sorted
    (:meth:`Client.fetch_sorted`), wherever its order is the same as this one: always on the
    reference server; elsewhere unless a sort key is text, whose order depends on the
    service's collation (then every matching row is downloaded and sorted here, in Unicode
    code point order). Without ``client``, :func:`educatalog.connect`.
    """
    coll = SCHEMA[collection]
    client = client or connect()
    if isinstance(filter, Mapping):
        filter = filter_from_json(dict(filter))
    if limit is not None:
        limit = row_limit(limit)
    field_list = tuple(p.strip() for p in fields.split(",")) if isinstance(fields, str) else fields
    keys = _sort_keys(sort)
    _check_sort(keys, field_list, coll)
    query = Query(
        fields=tuple(field_list) if field_list else tuple(f.name for f in coll.stored_fields),
        filter=filter,
        search=search,
    )

    def convert(page: Page) -> pa.Table | pd.DataFrame:
        return _page(page, coll)

    if limit is not None and _service_sorts_alike(client, coll, keys):
        pages = client._fetch_sorted(coll, query, keys, limit, convert, progress)
    else:
        pages = client._fetch_pages(coll, query, convert, progress)
    frame = _combine(pages)
    if field_list and not any("*" in path for path in field_list):
        frame = frame[_requested_order(frame.columns, field_list)]
    if keys:
        frame = _sort(frame, keys)  # the service's order again, on a page it sorted
    if limit is not None:
        frame = frame.head(limit)
    frame = frame.reset_index(drop=True)
    frame.attrs[SOURCE_ATTR] = _source(client).to_attrs()
    return frame


def _source(client: Client) -> Source:
    """Where the data come from, as a reader cites them (a served snapshot by its origin)."""
    own = client.server_info.get("educatalog")  # what a reference server says of itself
    return served_source(client.base_url, client.is_demo, own)


def _page(page: Page, coll: Collection) -> pa.Table | pd.DataFrame:
    """A page as an Arrow table (the common, flat case) or, failing that, a typed frame."""
    table = page_table(page, coll)
    return table if table is not None else to_frame(page.data, coll)


def _combine(pages: list[pa.Table | pd.DataFrame]) -> pd.DataFrame:
    """One typed frame of the pages, which it takes over (the list is emptied): Arrow
    tables of one schema are joined and converted once, which is much cheaper than a
    DataFrame per page, and each column's Arrow memory is freed as soon as it is converted
    (a million events peaked at 2.0 times the frame, now 1.8)."""
    tables = [p for p in pages if isinstance(p, pa.Table)]
    if (
        len(tables) == len(pages)
        and tables
        and all(t.schema.equals(tables[0].schema) for t in tables)
    ):
        table = pa.concat_tables(tables)
        del tables
        pages.clear()  # the joined table now holds the pages' buffers alone
        return arrow_to_frame(table, release=True)
    return _concat([arrow_to_frame(p) if isinstance(p, pa.Table) else p for p in pages])


def _concat(pages: list[pd.DataFrame]) -> pd.DataFrame:
    """One frame of typed pages; a column absent from some pages (an expanded relation that
    was null on all of a page's rows) keeps the dtype it has where present."""
    if len(pages) == 1:
        return pages[0]
    dtypes: dict[str, Any] = {}
    for page in pages:
        for name, dtype in page.dtypes.items():
            dtypes.setdefault(str(name), dtype)
    frame = pd.concat(pages, ignore_index=True)
    mismatched = {n: t for n, t in dtypes.items() if frame[n].dtype != t}
    return frame.astype(mismatched) if mismatched else frame


def _requested_order(columns: pd.Index, paths: Sequence[str]) -> list[str]:
    """The columns in the order of the requested field paths (``id`` only if asked for)."""
    order: list[str] = []
    for path in paths:
        label = path.replace(".", "_")
        order += [
            c for c in columns if (c == label or c.startswith(label + "_")) and c not in order
        ]
    return order


def _sort_keys(sort: str | Sequence[str] | None) -> list[str]:
    if not sort:
        return []
    keys = sort.split(",") if isinstance(sort, str) else list(sort)
    return [k.strip() for k in keys if k.strip()]


def _check_sort(keys: Sequence[str], fields: Sequence[str] | None, coll: Collection) -> None:
    """Fail before any download on a sort key that will not be a column of the frame."""
    if fields is not None and any("*" in path for path in fields):
        return  # known only once the rows are there (checked by _sort)
    paths = list(fields) if fields else [f.name for f in coll.stored_fields]
    labels = {path.replace(".", "_") for path in paths}
    for key in keys:
        if key.lstrip("-").replace(".", "_") not in labels:
            raise InvalidQuery(
                f'Cannot sort by "{key}": it is not among the loaded fields.'
                f"{did_you_mean(key.lstrip('-'), dict.fromkeys(paths))}"
            )


def _sort_field(coll: Collection, path: str) -> Field | None:
    """The field a sort path ends on, through many-to-one relations; None if there is none."""
    *relations, last = path.split(".")
    try:
        for name in relations:
            f = coll.field(name)
            if not f.is_many_to_one:
                return None
            coll = SCHEMA.expansion_target(f)
        return coll.field(last)
    except EducatalogError:
        return None


_TEXT = (FieldType.STRING, FieldType.UUID)


def _service_sorts_alike(client: Client, coll: Collection, keys: Sequence[str]) -> bool:
    """Whether the service's order of ``keys`` (then id) is the one :func:`_sort` gives.

    Numbers, dates and booleans order alike everywhere, and so do nulls (last ascending,
    first descending, as on PostgreSQL). Text depends on the service's collation: the
    reference server's (SQLite, binary) is pandas' code point order; another's may not be.
    """
    fields = [_sort_field(coll, key.lstrip("-")) for key in keys]
    if any(f is None or not f.is_stored for f in fields):
        return False
    if any(f is not None and f.type in _TEXT for f in fields):
        return client.is_reference_server
    return True


def _sort(frame: pd.DataFrame, sort: str | Sequence[str]) -> pd.DataFrame:
    keys = _sort_keys(sort)
    columns: list[str] = []
    ascending: list[bool] = []
    for key in keys:
        name = key.lstrip("-").replace(".", "_")
        if name not in frame:
            raise InvalidQuery(f'Cannot sort by "{key}": it is not among the loaded fields.')
        columns.append(name)
        ascending.append(not key.startswith("-"))
    # Stable, so that the id order of the download breaks ties; nulls last ascending and
    # first descending, as the service sorts.
    out = frame
    for name, asc in reversed(list(zip(columns, ascending, strict=True))):
        nulls: Literal["first", "last"] = "last" if asc else "first"
        out = out.sort_values(name, ascending=asc, kind="stable", na_position=nulls)
    return out


def load_links(collection: str, relation: str, *, client: Client | None = None) -> pd.DataFrame:
    """The pairs of a list relation as a two-column table, complete.

    ``load_links("events", "contacts")`` gives ``event_id, contact_id`` from the junction
    collection; ``load_links("courses", "events")`` gives ``course_id, event_id``. Fetched
    from the related collection itself, so never through the 100-item cap on nested lists.
    Junction rows missing either side are not links and are left out.
    """
    coll = SCHEMA[collection]
    f = coll.field(relation)
    if f.relation is None or not f.relation.is_list:
        raise InvalidQuery(
            f'"{relation}" of "{collection}" is not a one-to-many or many-to-many relation.'
        )
    client = client or connect()
    related = SCHEMA[f.relation.related]
    back = f.relation.foreign_key or ""
    forward = f.relation.junction_field if f.relation.kind == "m2m" else "id"
    assert forward is not None
    left = id_column(collection)
    right = id_column(f.relation.target or related.name)

    def convert(page: Page) -> pa.Table | pd.DataFrame:
        return _page(page, related)

    # Pages of two plain fields: decoded by pyarrow and typed as load() types them, not
    # made into a dict a row (a million links of events to contacts).
    pages = client._fetch_pages(related, Query(fields=(back, forward)), convert)
    both = _combine(pages) if pages else pd.DataFrame()
    frame = pd.DataFrame(
        {
            left: _link_column(both, related.field(back), left),
            right: _link_column(both, related.field(forward), right),
        }
    )
    frame = frame.dropna().sort_values([left, right], kind="stable").reset_index(drop=True)
    frame.attrs[SOURCE_ATTR] = _source(client).to_attrs()
    return frame


def _link_column(pages: pd.DataFrame, f: Field, name: str) -> pd.Series:
    """The column of field ``f`` of a link table's pages, typed for ``f`` (a field absent
    from every row: all missing)."""
    if f.name in pages.columns and len(pages):
        column = pages[f.name].reset_index(drop=True).rename(name)
        expected = typed_column([], f, name).dtype
        return column if column.dtype == expected else column.astype(expected)
    return typed_column([None] * len(pages), f, name)


# Largest first, so that the long downloads start at once and the small ones fill the gaps.
_LOAD_ORDER = ("events", "events_contacts", "courses", "contacts", "addresses")


def load_catalogue(
    client: Client | None = None,
    collections: Iterable[str] | None = None,
    *,
    progress: bool | None = None,
) -> Catalogue:
    """Every collection and link table in one call, as a :class:`Catalogue`.

    ``collections`` picks some by name (collections, or link tables such as
    ``"events_contacts"``); by default all 20 collections and the 5 link tables. The
    downloads run concurrently, each complete and checked as :func:`load` does.

    >>> cat = educatalog.load_catalogue(collections=["events", "states"])  # doctest: +SKIP
    >>> cat.events.shape, cat.labels("states")[9]  # doctest: +SKIP
    """
    client = client or connect()
    names = list(dict.fromkeys(collections)) if collections is not None else None
    if names is None:
        names = [*COLLECTIONS, *LINK_TABLES]
    for name in names:
        if name not in LINK_TABLES:
            SCHEMA[name]  # unknown names fail here, with a suggestion
    source = _source(client)
    ordered = sorted(names, key=lambda n: _LOAD_ORDER.index(n) if n in _LOAD_ORDER else 99)

    def fetch(name: str) -> pd.DataFrame:
        if name in LINK_TABLES:
            return load_links(*LINK_TABLES[name], client=client)
        return load(name, client=client, progress=progress)

    with ThreadPoolExecutor(max(1, min(len(ordered), client.max_concurrency))) as pool:
        frames = dict(zip(ordered, pool.map(fetch, ordered), strict=True))
    return Catalogue(frames, source=source)
