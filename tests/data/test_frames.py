"""Decoding list answers: pyarrow's JSON reader where it applies, the general path where not,
and the same rows and dtypes either way."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pandas as pd
import pytest

import educatalog
from educatalog import Client
from educatalog.client._decoding import decode_rows
from educatalog.client._paging import Page, row_ids
from educatalog.demodata import collect
from educatalog.frames import typed as frames
from educatalog.frames.typed import page_table, to_frame
from educatalog.model.schema import SCHEMA
from educatalog.testing import serve

EVENTS = SCHEMA["events"]
FIELDS = tuple(f.name for f in EVENTS.stored_fields)
TOKEN = "frames-token"


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    return collect(scale=0.05)["events"][:300]


def body(rows: list[dict], **extra: object) -> bytes:
    return orjson.dumps({"data": rows, **extra})


def test_pyarrow_reads_the_rows_exactly(rows: list[dict]) -> None:
    decoded = decode_rows(body(rows, meta={"filter_count": 7}), EVENTS, FIELDS)
    assert decoded is not None
    table, meta = decoded
    page = Page.from_arrow(table, meta)
    assert page.arrow is table
    assert meta == {"filter_count": 7}
    assert page.num_rows == len(rows)
    assert page.data == rows  # the JSON representation, row by row
    assert page == Page(rows, {"filter_count": 7})
    assert row_ids(page) == [r["id"] for r in rows]
    typed = page_table(page, EVENTS)
    assert typed is not None
    pd.testing.assert_frame_equal(
        educatalog.loading.loaders._combine([typed]), to_frame(rows, EVENTS)
    )
    # the same table from the row dicts
    assert page_table(Page(rows), EVENTS) == typed


@pytest.mark.parametrize(
    "case",
    ["pretty", "unknown field", "nested object", "missing field", "wrong type", "not a list"],
)
def test_anything_unusual_is_left_to_the_general_path(rows: list[dict], case: str) -> None:
    sample = [dict(r) for r in rows[:5]]
    content = body(sample)
    if case == "pretty":
        content = orjson.dumps({"data": sample}, option=orjson.OPT_INDENT_2)
    elif case == "unknown field":
        sample[0]["colour"] = "blue"
        content = body(sample)
    elif case == "nested object":
        sample[0]["address"] = {"id": 1, "state": 3}
        content = body(sample)
    elif case == "missing field":
        content = body([{k: v for k, v in r.items() if k != "remarks"} for r in sample])
    elif case == "wrong type":
        sample[0]["max_participants"] = "twelve"
        content = body(sample)
    elif case == "not a list":
        content = orjson.dumps({"data": {"id": 1}})
    assert decode_rows(content, EVENTS, FIELDS) is None


@pytest.fixture(scope="module")
def url(database: Path) -> Iterator[str]:
    with serve(database=database, token=TOKEN) as server:
        yield server.url


class MalformedDates(httpx.BaseTransport):
    """Rewrites one start date of every events page into something that is no datetime."""

    def __init__(self, value: str = "soon") -> None:
        self.inner = httpx.HTTPTransport()
        self.value = value

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        content = response.read()
        if request.url.path == "/items/events" and b"event_start_date" in content:
            page = orjson.loads(content)
            if page["data"]:
                page["data"][0]["event_start_date"] = self.value
            content = orjson.dumps(page)
        return httpx.Response(response.status_code, headers=response.headers, content=content)


def test_a_malformed_datetime_becomes_nat_with_a_warning(url: str, tmp_path: Path) -> None:
    with Client(url, token=TOKEN, transport=MalformedDates(), page_size=200) as client:
        with pytest.warns(UserWarning, match="not datetimes and became NaT"):
            frame = educatalog.load("events", client=client)
        reference = educatalog.load("events", client=Client(url, token=TOKEN))
    assert len(frame) == len(reference)
    assert frame["event_start_date"].isna().sum() >= 1
    assert str(frame["event_start_date"].dtype).startswith("datetime64")
    assert frame["id"].equals(reference["id"])


@pytest.mark.parametrize(
    ("value", "parsed"),
    [
        ("2026-02-30T00:00:00", None),  # no such day: not 2 March
        ("2026-05-25T08:00:00.250", "2026-05-25 08:00:00.250"),
        ("2026-05-25 08:00:00", "2026-05-25 08:00:00"),
        ("2026-05-25", "2026-05-25 00:00:00"),
    ],
)
def test_datetimes_read_as_on_the_general_path(
    url: str, value: str, parsed: str | None, recwarn: pytest.WarningsRecorder
) -> None:
    """Pages parsed by Arrow read a datetime as pd.to_datetime(format="ISO8601") does."""
    with Client(url, token=TOKEN, transport=MalformedDates(value), page_size=200) as client:
        frame = educatalog.load("events", client=client, fields="id,event_start_date")
    first = frame.iloc[0]["event_start_date"]
    expected = frames.typed_column([value], SCHEMA["events"].field("event_start_date"))
    if parsed is None:
        assert pd.isna(first)
        assert pd.isna(expected[0])
        assert any("became NaT" in str(w.message) for w in recwarn)
    else:
        assert first == pd.Timestamp(parsed) == expected[0]


def test_the_decoder_lives_in_the_transport_layer_and_keeps_its_old_path() -> None:
    assert frames.decode_rows is decode_rows
    assert decode_rows.__module__ == "educatalog.client._decoding"
