"""`load` and `load_links` over real HTTP: typed frames equal to the database's rows."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import pandas as pd
import pytest

import educatalog
from educatalog import Client, F
from educatalog.errors import InvalidQuery
from educatalog.frames.typed import to_frame
from educatalog.model.schema import SCHEMA, FieldType
from educatalog.server.app import create_app
from educatalog.server.run import ServerThread
from educatalog.server.store import read_rows
from educatalog.testing import serve

TOKEN = "loader-test-token"


@pytest.fixture(scope="module")
def client(database: Path) -> Iterator[Client]:
    with (
        serve(database=database, token=TOKEN) as server,
        Client(server.url, token=TOKEN, page_size=150) as c,
    ):
        yield c


EXPECTED_DTYPES = {
    FieldType.INTEGER: "Int64",
    FieldType.STRING: "string",
    FieldType.UUID: "string",
    FieldType.BOOLEAN: "boolean",
    FieldType.DECIMAL: "Float64",
}


@pytest.mark.parametrize("collection", list(SCHEMA))
def test_every_collection_loads_typed_with_exactly_the_database_rows(
    client: Client, database: Path, collection: str
) -> None:
    frame = educatalog.load(collection, client=client)
    rows = read_rows(database, collection)
    fields = SCHEMA[collection].stored_fields
    assert list(frame.columns) == [f.name for f in fields]
    assert len(frame) == len(rows)
    for f in fields:
        column = frame[f.name]
        if f.type is FieldType.DATETIME:
            assert pd.api.types.is_datetime64_dtype(column)
            expected = [None if r[f.name] is None else pd.Timestamp(r[f.name]) for r in rows]
        elif f.type is FieldType.DECIMAL:
            assert str(column.dtype) == "Float64"
            expected = [None if r[f.name] is None else float(r[f.name]) for r in rows]
        else:
            assert str(column.dtype) == EXPECTED_DTYPES[f.type], f.name
            expected = [r[f.name] for r in rows]
        got = [None if pd.isna(v) else v for v in column.tolist()]
        assert got == expected, f.name


def test_fields_filter_sort_and_limit(client: Client, database: Path) -> None:
    frame = educatalog.load(
        "events",
        fields=["id", "event_start_date", "address.city", "address.state.name"],
        filter=F("address.state") == 9,
        sort=["-address.city", "id"],
        limit=25,
        client=client,
    )
    assert list(frame.columns) == ["id", "event_start_date", "address_city", "address_state_name"]
    assert str(frame["address_state_name"].dtype) == "string"
    assert set(frame["address_state_name"]) == {"Niedersachsen"}
    addresses = {a["id"]: a for a in read_rows(database, "addresses")}
    matching = [
        (addresses[e["address"]]["city"], e["id"])
        for e in read_rows(database, "events")
        if e["address"] in addresses and addresses[e["address"]]["state"] == 9
    ]
    expected = sorted(matching, key=lambda p: p[1])
    expected = sorted(expected, key=lambda p: p[0], reverse=True)[:25]
    assert list(zip(frame["address_city"], frame["id"], strict=True)) == expected
    no_id = educatalog.load("states", fields="name,code", client=client)
    assert list(no_id.columns) == ["name", "code"]
    with pytest.raises(InvalidQuery, match='Cannot sort by "title"'):
        educatalog.load("states", sort="title", client=client)
    dict_filter = educatalog.load("states", filter={"code": {"_eq": "DE-BE"}}, client=client)
    assert dict_filter["name"].tolist() == ["Berlin"]


@pytest.mark.parametrize(
    ("collection", "relation", "source", "left", "right"),
    [
        ("events", "contacts", "events_contacts", "events_id", "contacts_id"),
        ("courses", "systematics", "courses_systematics", "courses_id", "systematics_id"),
        ("courses", "events", "events", "course", "id"),
    ],
)
def test_link_tables_are_complete(
    client: Client,
    database: Path,
    collection: str,
    relation: str,
    source: str,
    left: str,
    right: str,
) -> None:
    links = educatalog.load_links(collection, relation, client=client)
    expected = sorted(
        (r[left], r[right])
        for r in read_rows(database, source)
        if r[left] is not None and r[right] is not None
    )
    assert list(links.itertuples(index=False, name=None)) == expected
    assert all(str(t) == "Int64" for t in links.dtypes)
    if relation == "events":
        assert list(links.columns) == ["course_id", "event_id"]
        assert links.groupby("course_id").size().max() > 100  # past the nested cap
    with pytest.raises(InvalidQuery, match="not a one-to-many or many-to-many"):
        educatalog.load_links("events", "address", client=client)


def test_unknown_fields_pass_through_and_known_missing_ones_are_absent() -> None:
    frame = to_frame(
        [{"id": 1, "title": "x", "colour": "red"}, {"id": 2, "colour": None}], "courses"
    )
    assert list(frame.columns) == ["id", "title", "colour"]
    assert frame["colour"][0] == "red"
    assert frame["colour"].isna().tolist() == [False, True]
    empty = to_frame([], "states")
    assert list(empty.columns) == ["id", "name", "code"]
    assert str(empty["id"].dtype) == "Int64"


def test_bad_datetimes_become_nat_with_a_warning() -> None:
    with pytest.warns(UserWarning, match='1 value\\(s\\) of "event_start_date"'):
        frame = to_frame([{"id": 1, "event_start_date": "soon"}], "events")
    assert frame["event_start_date"].isna().all()


def test_connect_uses_the_configured_service_or_the_demo(
    client: Client, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("EDUCATALOG_URL", client.base_url)
    monkeypatch.setenv("EDUCATALOG_TOKEN", TOKEN)
    assert educatalog.connect().base_url == client.base_url
    monkeypatch.delenv("EDUCATALOG_URL")
    monkeypatch.setenv("EDUCATALOG_CACHE", str(tmp_path))
    demo = educatalog.connect()
    assert demo.base_url != client.base_url
    assert demo.is_reference_server
    assert educatalog.connect().base_url == demo.base_url  # one demo server, shared
    assert len(educatalog.load("states", client=demo)) == 16


def test_connect_shares_one_client_until_it_is_closed(
    monkeypatch: pytest.MonkeyPatch, client: Client
) -> None:
    monkeypatch.setenv("EDUCATALOG_URL", client.base_url)
    monkeypatch.setenv("EDUCATALOG_TOKEN", TOKEN)
    first = educatalog.connect()
    assert educatalog.connect() is first
    assert educatalog.load("states").equals(educatalog.load("states", client=first))
    first.close()
    assert first.closed
    second = educatalog.connect()
    assert second is not first
    assert not second.closed
    assert educatalog.connect(page_size=10) is not second  # options: a client of its own
    assert "states" in educatalog.SCHEMA
    assert "no such collection" not in educatalog.SCHEMA


def test_connect_without_a_url_ignores_a_token_for_the_demo(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("EDUCATALOG_URL", raising=False)
    client = educatalog.connect(token="mine", scale=0.05, page_size=50)
    assert client.is_demo
    assert client.page_size == 50
    client.close()


# -- limit and sort asked of the service -----------------------------------------------------


class Counting:
    """An ASGI wrapper that records every request to /items and the bytes of its answer."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.requests: list[tuple[str, dict[str, str], int]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/items/"):
            await self.app(scope, receive, send)
            return
        params = dict(parse_qsl(scope["query_string"].decode()))
        index = [-1]

        async def counted(message: Any) -> None:
            # recorded before the client can have the answer (not after the app returns,
            # which may be after the client read it)
            if message["type"] == "http.response.start":
                index[0] = len(self.requests)
                self.requests.append((scope["path"], params, 0))
            elif message["type"] == "http.response.body":
                path, asked, size = self.requests[index[0]]
                self.requests[index[0]] = (path, asked, size + len(message.get("body", b"")))
            await send(message)

        await self.app(scope, receive, counted)

    def of(self, path: str) -> list[tuple[str, dict[str, str], int]]:
        return [r for r in self.requests if r[0] == path]


@pytest.fixture(scope="module")
def counting(database: Path) -> Iterator[tuple[Counting, Client]]:
    app = Counting(create_app(database, tokens=[TOKEN]))
    with ServerThread(app) as server, Client(server.url, token=TOKEN, page_size=150) as c:
        yield app, c


def test_limit_asks_the_service_for_one_page_only(
    counting: tuple[Counting, Client], database: Path
) -> None:
    app, client = counting
    everything = educatalog.load("events", client=client)
    whole = app.of("/items/events")
    assert len(whole) > 1  # the collection is larger than a page
    app.requests.clear()
    five = educatalog.load("events", limit=5, client=client)
    asked = app.of("/items/events")
    assert len(asked) == 1, asked
    assert asked[0][1]["limit"] == "5"
    assert sum(size for *_, size in asked) * 20 < sum(size for *_, size in whole)
    assert five.equals(everything.head(5))
    assert five["id"].tolist() == sorted(r["id"] for r in read_rows(database, "events"))[:5]


def _service_order(rows: list[dict[str, Any]], keys: list[str]) -> list[dict[str, Any]]:
    """Rows in the service's order, in plain Python: each key ascending with nulls last or
    descending (``-``) with nulls first, then by id."""

    def compare(a: dict[str, Any], b: dict[str, Any]) -> int:
        for key in [*keys, "id"]:
            name = key.lstrip("-")
            x, y = a[name], b[name]
            if x == y:
                continue
            # null is the largest value
            bigger = 1 if (y is not None and (x is None or x > y)) else -1
            return -bigger if key.startswith("-") else bigger
        return 0

    return sorted(rows, key=functools.cmp_to_key(compare))


SORTS = [
    ["-event_start_date"],
    ["max_participants"],
    ["-max_participants", "event_start_date"],
    ["education_voucher", "-id"],
    ["remarks"],  # text: the reference server's binary collation is pandas' order
    ["-remarks"],
    ["address.city", "-min_participants"],
]


@pytest.mark.parametrize("sort", SORTS, ids=[",".join(s) for s in SORTS])
@pytest.mark.parametrize("limit", [7, 150, 400])
def test_sorted_limit_equals_sorting_everything(
    counting: tuple[Counting, Client], database: Path, sort: list[str], limit: int
) -> None:
    app, client = counting
    fields = None
    rows = read_rows(database, "events")
    if any("." in key for key in sort):
        fields = ["id", "min_participants", "address.city"]
        cities = {a["id"]: a["city"] for a in read_rows(database, "addresses")}
        rows = [{**r, "address.city": cities.get(r["address"])} for r in rows]
    app.requests.clear()
    got = educatalog.load("events", fields=fields, sort=sort, limit=limit, client=client)
    asked = app.of("/items/events")
    expected_ids = [r["id"] for r in _service_order(rows, sort)[:limit]]
    assert got["id"].tolist() == expected_ids
    # Pages of 150: never more rows than asked for, and no more requests than pages.
    assert len(asked) == -(-limit // 150)
    assert sum(int(params["limit"]) for _, params, _ in asked) == limit
    everything = educatalog.load("events", fields=fields, client=client)
    by_id = everything.set_index("id", drop=False).loc[expected_ids].reset_index(drop=True)
    pd.testing.assert_frame_equal(got, by_id)
    if len(sort) == 1:  # pandas, with the service's place for nulls
        key = sort[0].lstrip("-").replace(".", "_")
        ascending = not sort[0].startswith("-")
        plain = everything.sort_values(
            key, ascending=ascending, na_position="last" if ascending else "first", kind="stable"
        ).head(limit)
        pd.testing.assert_frame_equal(got, plain.reset_index(drop=True))


def test_limit_shows_the_real_size_in_the_progress_bar(
    counting: tuple[Counting, Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, client = counting
    totals: list[int] = []
    original = client._progress

    def progress(collection: str, total: int, show: bool | None) -> Any:
        totals.append(total)
        return original(collection, total, False)

    monkeypatch.setattr(client, "_progress", progress)
    educatalog.load("events", sort="-event_start_date", limit=400, client=client)
    assert totals == [400]


def test_text_sorts_are_done_here_on_another_service(
    counting: tuple[Counting, Client], monkeypatch: pytest.MonkeyPatch, database: Path
) -> None:
    """Another service's collation may order text differently: then the toolkit downloads
    every matching row and sorts here; numbers and dates are still asked sorted."""
    app, client = counting
    reference = educatalog.load("events", sort="-remarks", limit=9, client=client)
    monkeypatch.setattr(Client, "is_reference_server", property(lambda self: False))
    app.requests.clear()
    here = educatalog.load("events", sort="-remarks", limit=9, client=client)
    assert len(app.of("/items/events")) > 1
    pd.testing.assert_frame_equal(here, reference)
    app.requests.clear()
    educatalog.load("events", sort="-event_start_date", limit=9, client=client)
    assert len(app.of("/items/events")) == 1


def test_limit_edge_cases(counting: tuple[Counting, Client]) -> None:
    app, client = counting
    app.requests.clear()
    none = educatalog.load("events", fields="id,remarks", sort="remarks", limit=0, client=client)
    assert list(none.columns) == ["id", "remarks"]
    assert none.empty
    assert len(app.of("/items/events")) == 1
    few = educatalog.load("states", sort="-code", limit=1000, client=client)
    assert len(few) == 16
    with pytest.raises(InvalidQuery, match="limit must be a whole number"):
        educatalog.load("events", limit=-1, client=client)
    app.requests.clear()
    with pytest.raises(InvalidQuery, match=r'Cannot sort by "adress.city".*Did you mean'):
        educatalog.load(
            "events", fields="id,address.city", sort="adress.city", limit=3, client=client
        )
    assert app.requests == []  # refused before any download


def test_one_datetime_unit_everywhere(client: Client, tmp_path: Path) -> None:
    """load, load_catalogue, offers, snapshots and the general path all give one dtype."""
    from educatalog import snapshot
    from educatalog.frames.typed import DATETIME_DTYPE

    def dates(frame: pd.DataFrame) -> set[str]:
        return {str(t) for t in frame.dtypes if pd.api.types.is_datetime64_any_dtype(t)} or {"none"}

    assert DATETIME_DTYPE == "datetime64[us]"
    loaded = educatalog.load("events", client=client)
    cat = educatalog.load_catalogue(client)
    offers = cat.offers()
    saved = snapshot.load(snapshot.save(cat, tmp_path / "snap"))
    nested = educatalog.load(
        "events", fields="id,event_start_date,course.*", limit=3, client=client
    )
    general = to_frame([{"id": 1, "event_start_date": "2025-01-01T00:00:00", "x": 1}], "events")
    empty = to_frame([], "events")
    for frame in (loaded, cat.events, offers, saved.events, saved.offers(), nested, general, empty):
        assert dates(frame) == {DATETIME_DTYPE}
    # A snapshot written by an older version, in nanoseconds, loads in the one unit too.
    old = {name: frame.copy() for name, frame in cat.items()}
    for frame in old.values():
        for column in frame.columns:
            if pd.api.types.is_datetime64_any_dtype(frame[column].dtype):
                frame[column] = frame[column].astype("datetime64[ns]")
    from educatalog.frames.catalogue import Catalogue

    older = snapshot.load(snapshot.save(Catalogue(old), tmp_path / "old"))
    assert dates(older.events) == {DATETIME_DTYPE}
    assert older.events.equals(cat.events)
