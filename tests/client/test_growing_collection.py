"""A collection that grows and shrinks while ``Client.fetch_all`` pages through it.

The reference server reads its database file read-only (``mode=ro``), so it sees every write
committed by another connection. A transport between client and server inserts rows (with
new, never reused maximum ids, as a service's sequence hands them out) and deletes existing
ones through such a connection, between page requests. Whatever the interleaving, a download
either raises :class:`IncompleteDownload` with a clear message or returns rows such that

* no id appears twice, and the ids come in increasing order;
* every row that existed for the whole download, at or below the highest id at its start,
  is there;
* every row returned existed at some point, with the content it had.

A download is as of its start: rows inserted after the highest id was read are not part of
it, and a change the count does not see (as many rows inserted as deleted) is not detected.
"""

from __future__ import annotations

import random
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from databases import Databases
from educatalog import Client, Query
from educatalog.demodata import collect
from educatalog.errors import IncompleteDownload
from educatalog.model.schema import SCHEMA
from educatalog.server.store import read_rows
from educatalog.testing import serve

TOKEN = "growing-test-token"
FIELDS = ("id", "course", "event_start_date", "remarks")
COLUMNS = tuple(f.name for f in SCHEMA["events"].stored_fields)


# ---------------------------------------------------------------------------------------
# The changing table


@dataclass
class Events:
    """The events table of the served database, changed through a writable connection of
    its own, with a record of every id that ever existed and of what changed when."""

    path: Path
    base: list[dict[str, Any]]
    conn: sqlite3.Connection = field(init=False)
    rows: dict[int, dict[str, Any]] = field(default_factory=dict)  # every row ever, by id
    present: set[int] = field(default_factory=set)
    deleted: set[int] = field(default_factory=set)  # deleted since the last reset
    next_id: int = 0
    changes: int = 0

    def __post_init__(self) -> None:
        self.conn = sqlite3.connect(
            self.path, timeout=30, isolation_level=None, check_same_thread=False
        )
        self.conn.execute("PRAGMA busy_timeout = 30000")
        self.conn.execute("PRAGMA synchronous = OFF")  # a test file: no need to wait for the disk

    def reset(self) -> None:
        """Back to the base rows."""
        self._write("DELETE FROM events", [])
        self._insert(self.base)
        self.rows = {row["id"]: row for row in self.base}
        self.present = set(self.rows)
        self.deleted = set()
        self.next_id = max(self.rows) + 1
        self.changes = 0

    def insert(self, n: int, rng: random.Random) -> list[int]:
        """``n`` new rows with new maximum ids (copies of random base rows)."""
        new = []
        for _ in range(n):
            template = rng.choice(self.base)
            new.append({**template, "id": self.next_id, "remarks": f"new {self.next_id}"})
            self.next_id += 1
        self._insert(new)
        for row in new:
            self.rows[row["id"]] = row
            self.present.add(row["id"])
        self.changes += 1
        return [row["id"] for row in new]

    def delete(self, n: int, rng: random.Random) -> list[int]:
        """``n`` random existing rows."""
        gone = rng.sample(sorted(self.present), min(n, len(self.present)))
        marks = ", ".join("?" * len(gone))
        self._write(f"DELETE FROM events WHERE id IN ({marks})", [gone])
        self.present.difference_update(gone)
        self.deleted.update(gone)
        self.changes += 1
        return gone

    def _insert(self, rows: list[dict[str, Any]]) -> None:
        sql = f"INSERT INTO events ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
        self._write(sql, [[row[c] for c in COLUMNS] for row in rows])

    def _write(self, sql: str, params: list[Any]) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            if params:
                self.conn.executemany(sql, params)
            else:
                self.conn.execute(sql)
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise


Change = Callable[[str, Events], None]
"""Called before each request is forwarded, with its kind (first, top, page) and the table."""


class Changing(httpx.BaseTransport):
    """Forwards every request to the server, after letting ``change`` alter the table.

    Changes run one at a time, between requests: a concurrent request already on its way
    is answered from before or after the change, never from the middle of it.
    """

    def __init__(self, events: Events, change: Change) -> None:
        self.inner = httpx.HTTPTransport()
        self.events = events
        self.change = change
        self.lock = threading.Lock()
        self.kinds: list[str] = []
        self.counts: list[int] = []  # the filter_count of every first page, in order
        self.changed_at: list[int] = []  # the requests (by number) before which it changed

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        params = request.url.params
        if "meta" in params:
            kind = "first"
        elif params.get("sort") == "-id":
            kind = "top"
        else:
            kind = "page"
        with self.lock:
            self.kinds.append(kind)
            before = self.events.changes
            self.change(kind, self.events)
            if self.events.changes != before:
                self.changed_at.append(len(self.kinds) - 1)
        response = self.inner.handle_request(request)
        if kind == "first" and response.status_code == 200:
            response.read()
            self.counts.append(orjson.loads(response.content)["meta"]["filter_count"])
        return response

    def close(self) -> None:
        self.inner.close()

    def attempts_changed(self) -> list[bool]:
        """For each download attempt: did the table change after its count was taken?

        An attempt runs from its first page (which carries the count) to the next one's;
        a change made before its first page is forwarded is part of what it counts.
        """
        firsts = [i for i, kind in enumerate(self.kinds) if kind == "first"]
        ends = [*firsts[1:], len(self.kinds)]
        return [
            any(first < at < end for at in self.changed_at)
            for first, end in zip(firsts, ends, strict=True)
        ]


# ---------------------------------------------------------------------------------------
# Fixtures


@pytest.fixture(scope="module")
def growing_database(databases: Databases) -> Path:
    """The demo catalogue at a small scale, with gaps in the event ids (every 7th is gone)."""
    records = collect(seed=3, scale=0.05)
    records["events"] = [row for row in records["events"] if row["id"] % 7]
    records["events_contacts"] = [row for row in records["events_contacts"] if row["events_id"] % 7]
    return databases.of("growing", records)


@pytest.fixture(scope="module")
def growing_url(growing_database: Path) -> Iterator[str]:
    with serve(database=growing_database, token=TOKEN) as server:
        yield server.url


@pytest.fixture
def events(growing_database: Path) -> Iterator[Events]:
    table = Events(growing_database, read_rows(growing_database, "events"))
    table.reset()
    yield table
    table.reset()
    table.conn.close()


def _fetch(url: str, transport: Changing, page_size: int, workers: int) -> list[dict[str, Any]]:
    with Client(
        url,
        token=TOKEN,
        transport=transport,
        page_size=page_size,
        max_concurrency=workers,
        backoff=0.0,
    ) as client:
        return client.fetch_all("events", Query(fields=FIELDS))


def _expected(events: Events, ids: list[int]) -> list[dict[str, Any]]:
    return [{name: events.rows[i][name] for name in FIELDS} for i in ids]


# ---------------------------------------------------------------------------------------
# Random changes


RUNS = 30


def _random_run(seed: int, url: str, events: Events) -> str:
    """One download while rows come and go at random; returns how it ended."""
    rng = random.Random(seed)
    events.reset()
    page_size = rng.choice([16, 25, 40, 64])
    workers = rng.choice([1, 2, 3])
    p_insert = rng.choice([0.0, 0.05, 0.2, 0.5])
    p_delete = rng.choice([0.0, 0.05, 0.2, 0.5])
    quiet_after = rng.choice([5, 20, 60, 10_000])  # requests after which nothing changes

    def change(kind: str, table: Events) -> None:
        if len(transport.kinds) > quiet_after:
            return
        if rng.random() < p_insert:
            table.insert(rng.randint(1, 4), rng)
        if rng.random() < p_delete:
            table.delete(rng.randint(1, 4), rng)

    start = set(events.present)
    start_max = max(start)
    transport = Changing(events, change)
    try:
        rows = _fetch(url, transport, page_size, workers)
    except IncompleteDownload as exc:
        context = f"run {seed} ({events.changes} changes)"
        assert transport.attempts_changed() == [True] * 3, (
            f"{context}: IncompleteDownload, but an attempt ran while nothing changed"
        )
        message = exc.message
        assert message.startswith("GET /items/events: expected "), message
        assert "three times; the collection is changing faster" in message, message
        return "incomplete"
    context = (
        f"run {seed}: page_size={page_size} workers={workers} p_insert={p_insert} "
        f"p_delete={p_delete} quiet_after={quiet_after}, {events.changes} changes"
    )
    ids = [row["id"] for row in rows]
    *retried, last = transport.attempts_changed()
    assert all(retried), f"{context}: retried after an attempt while nothing changed"
    if not last:
        assert ids == sorted(events.present), f"{context}: a quiet attempt, not the final set"
    assert len(set(ids)) == len(ids), f"{context}: duplicate ids"
    assert len(ids) == transport.counts[-1], f"{context}: not the count of the last attempt"
    assert ids == sorted(ids), f"{context}: not in id order"
    never = set(ids) - set(events.rows)
    assert not never, f"{context}: ids that never existed: {sorted(never)}"
    throughout = {i for i in start - events.deleted if i <= start_max}
    missing = throughout - set(ids)
    assert not missing, (
        f"{context}: rows that existed for the whole download are missing: "
        f"{sorted(missing)[:20]} ({len(missing)} of {len(throughout)})"
    )
    assert rows == _expected(events, ids), f"{context}: rows with the wrong content"
    return "changed and complete" if events.changes else "complete"


def test_random_growth_and_deletion_never_yield_a_wrong_result(
    growing_url: str, events: Events
) -> None:
    outcomes = {"complete": 0, "changed and complete": 0, "incomplete": 0}
    for seed in range(RUNS):
        outcomes[_random_run(seed, growing_url, events)] += 1
    # The runs really cover both endings, and downloads that succeed during changes.
    assert outcomes["incomplete"] >= 3, outcomes
    assert outcomes["changed and complete"] >= 3, outcomes


# ---------------------------------------------------------------------------------------
# Deterministic cases


def test_growth_before_the_high_id_is_read_is_retried_into_the_final_set(
    growing_url: str, events: Events
) -> None:
    rng = random.Random(1)
    added: list[int] = []

    def grow_once(kind: str, table: Events) -> None:
        if kind == "top" and not added:  # after the count, before the highest id is read
            added.extend(table.insert(5, rng))

    transport = Changing(events, grow_once)
    rows = _fetch(growing_url, transport, page_size=25, workers=3)
    ids = [row["id"] for row in rows]
    assert ids == sorted(events.present)  # the complete final set
    assert set(added) <= set(ids)
    assert rows == _expected(events, ids)
    assert transport.kinds.count("first") == 2  # one retry


def test_growth_before_the_count_is_simply_part_of_the_download(
    growing_url: str, events: Events
) -> None:
    rng = random.Random(2)

    def grow_first(kind: str, table: Events) -> None:
        if kind == "first" and not table.changes:
            table.insert(5, rng)

    transport = Changing(events, grow_first)
    rows = _fetch(growing_url, transport, page_size=25, workers=2)
    assert [row["id"] for row in rows] == sorted(events.present)
    assert transport.kinds.count("first") == 1


def test_growth_after_the_high_id_is_read_is_not_part_of_the_download(
    growing_url: str, events: Events
) -> None:
    rng = random.Random(3)
    start = sorted(events.present)

    def grow_on_pages(kind: str, table: Events) -> None:
        if kind == "page":
            table.insert(2, rng)

    transport = Changing(events, grow_on_pages)
    rows = _fetch(growing_url, transport, page_size=25, workers=3)
    assert [row["id"] for row in rows] == start  # exactly the rows at the start
    assert len(events.present) > len(start)
    assert transport.kinds.count("first") == 1


def test_a_deletion_during_the_walk_is_retried_into_the_final_set(
    growing_url: str, events: Events
) -> None:
    top = max(events.present)

    def delete_the_last_row(kind: str, table: Events) -> None:
        if kind == "page" and top in table.present:  # not yet fetched: its page comes last
            table.conn.execute("BEGIN IMMEDIATE")
            table.conn.execute("DELETE FROM events WHERE id = ?", (top,))
            table.conn.execute("COMMIT")
            table.present.discard(top)
            table.deleted.add(top)
            table.changes += 1

    transport = Changing(events, delete_the_last_row)
    rows = _fetch(growing_url, transport, page_size=25, workers=1)
    assert [row["id"] for row in rows] == sorted(events.present)
    assert top not in events.present
    assert transport.kinds.count("first") == 2


@pytest.mark.parametrize("change", ["grow", "shrink"])
def test_a_collection_changing_on_every_request_raises_after_three_attempts(
    growing_url: str, events: Events, change: str
) -> None:
    rng = random.Random(4)

    def always(kind: str, table: Events) -> None:
        if change == "grow":
            table.insert(1, rng)
        else:
            table.delete(1, rng)

    transport = Changing(events, always)
    with pytest.raises(IncompleteDownload) as info:
        _fetch(growing_url, transport, page_size=25, workers=2)
    assert transport.kinds.count("first") == 3
    message = info.value.message
    assert message.startswith("GET /items/events: expected "), message
    assert "three times; the collection is changing faster than it can be downloaded" in message
    assert TOKEN not in message
