"""`load` and `load_links` over real HTTP: typed frames equal to the database's rows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

import educatalog
from educatalog import Client, F
from educatalog.catalogue import CATALOGUE, FieldType
from educatalog.errors import InvalidQuery
from educatalog.frames import to_frame
from educatalog.server.app import create_app
from educatalog.server.demo import collect
from educatalog.server.run import ServerThread
from educatalog.server.store import build_database, read_rows

TOKEN = "loader-test-token"


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("loaders") / "demo.sqlite"
    return build_database(path, collect(scale=0.1).items())


@pytest.fixture(scope="module")
def client(database: Path) -> Iterator[Client]:
    with (
        ServerThread(create_app(database, tokens=[TOKEN])) as server,
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


@pytest.mark.parametrize("collection", list(CATALOGUE))
def test_every_collection_loads_typed_with_exactly_the_database_rows(
    client: Client, database: Path, collection: str
) -> None:
    frame = educatalog.load(collection, client=client)
    rows = read_rows(database, collection)
    fields = CATALOGUE[collection].stored_fields
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
    assert "states" in educatalog.CATALOGUE
    assert "no such collection" not in educatalog.CATALOGUE


def test_connect_without_a_url_ignores_a_token_for_the_demo(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("EDUCATALOG_URL", raising=False)
    client = educatalog.connect(token="mine", scale=0.05, page_size=50)
    assert client.is_demo
    assert client.page_size == 50
    client.close()
