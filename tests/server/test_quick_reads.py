"""Quick reads are answered on the event loop; a read that needs more than the quick guard
allows starts over in a worker thread, with the same answer and never the quick guard's
error."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from educatalog.server import guard, scheduling
from educatalog.server.app import create_app
from educatalog.server.uvicorn_server import ServerThread

TOKEN = "quick-token"

REQUESTS: list[tuple[str, dict[str, str]]] = [
    ("/items/events", {"limit": "5", "fields": "id,course.title", "meta": "filter_count"}),
    ("/items/events", {"limit": "-1", "fields": "id", "meta": "*"}),  # whole, not streamed
    ("/items/events", {"limit": "-1", "fields": "id,course.id", "filter[course][_eq]": "2"}),
    ("/items/events/3", {"fields": "id,course.id"}),
    ("/items/events", {"aggregate[count]": "*", "groupBy": "course"}),
    ("/items/courses", {"search": "excel", "meta": "filter_count"}),
]


@pytest.fixture(scope="module")
def server(small_database: Path) -> Iterator[str]:
    app = create_app(small_database, tokens=[TOKEN])
    with ServerThread(app) as running_server:
        yield running_server.url
    app.state.database.close()


def _answers(url: str) -> list[tuple[int, bytes]]:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    with httpx.Client(base_url=url, headers=headers, timeout=30) as client:
        return [
            (r.status_code, r.content)
            for r in (client.get(path, params=params) for path, params in REQUESTS)
        ]


@pytest.fixture
def workers(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The reads handed to a worker thread, by name."""
    handed: list[str] = []
    in_worker = scheduling.in_worker

    async def spy(request: Any, guard_: Any, work: Any, *args: Any) -> Any:
        handed.append(getattr(work, "__name__", type(work).__name__))
        return await in_worker(request, guard_, work, *args)

    monkeypatch.setattr(scheduling, "in_worker", spy)
    return handed


def test_small_reads_are_answered_on_the_event_loop(
    server: str, workers: list[str], monkeypatch: pytest.MonkeyPatch, tune: Callable[..., None]
) -> None:
    # these take 0.2-0.6 ms; a margin for a busy machine (Guard.quick reads the tuning)
    tune(quick_time=0.01)
    _answers(server)  # the first of each compiles its statements and fills caches
    workers.clear()
    answers = _answers(server)
    assert [status for status, _ in answers] == [200] * len(REQUESTS)
    assert workers == []


def test_a_read_beyond_the_quick_guard_starts_over_in_a_worker(
    server: str, workers: list[str], monkeypatch: pytest.MonkeyPatch, tune: Callable[..., None]
) -> None:
    quick = _answers(server)
    workers.clear()
    tune(quick_time=0.0)  # every quick read runs out at once
    slow = _answers(server)
    assert slow == quick  # the same answers, never the quick guard's error
    assert len(workers) == len(REQUESTS)


def test_a_large_answer_tried_quickly_is_streamed_from_a_worker(
    small_database: Path, workers: list[str]
) -> None:
    """An answer longer than ``whole_bytes`` is not streamed from the event loop."""
    app = create_app(small_database, tokens=[TOKEN], stream_rows=0, whole_bytes=0)
    with (
        ServerThread(app) as server,
        httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {TOKEN}"}) as c,
    ):
        answer = c.get("/items/events", params={"limit": "-1", "fields": "id"})
    app.state.database.close()
    assert answer.status_code == 200
    assert answer.headers.get("transfer-encoding") == "chunked"
    assert len(answer.json()["data"]) > 100
    assert workers == ["start"]


def test_an_answer_that_may_be_large_goes_to_a_worker_at_once(
    server: str, workers: list[str], monkeypatch: pytest.MonkeyPatch, tune: Callable[..., None]
) -> None:
    """No quick attempt (and no work done twice) for an answer that can hold more objects
    than ``quick_objects`` (``quick_flat_objects`` written by SQLite); groups are always
    tried quickly."""

    _answers(server)  # the counts that bound an answer are read by the first answers
    attempts: list[int] = []
    quick = guard.Guard.quick

    def counted() -> guard.Guard:
        attempts.append(1)
        return quick()

    monkeypatch.setattr(guard.Guard, "quick", staticmethod(counted))
    tune(quick_objects=1)
    tune(quick_flat_objects=1)
    workers.clear()
    assert [status for status, _ in _answers(server)] == [200] * len(REQUESTS)
    groups = sum("aggregate[count]" in params for _, params in REQUESTS)
    assert len(attempts) == groups
    assert len(workers) == len(REQUESTS) - groups


def test_a_read_of_a_large_collection_goes_to_a_worker_at_once(
    server: str, workers: list[str], monkeypatch: pytest.MonkeyPatch, tune: Callable[..., None]
) -> None:
    """Over a collection of more than ``quick_rows`` rows any read may scan many: none is
    tried on the loop (it would run out and start over); small collections still are."""

    _answers(server)
    tune(quick_time=0.01)
    tune(quick_rows=10)  # the small catalogue's events are more
    headers = {"Authorization": f"Bearer {TOKEN}"}
    with httpx.Client(base_url=server, headers=headers, timeout=30) as client:
        for params in (
            {"limit": "5", "page": "3"},
            {"limit": "5", "filter[course][_eq]": "2"},
            {"limit": "5", "search": "kurs", "meta": "filter_count"},
            {"aggregate[count]": "*", "groupBy": "course"},
        ):
            workers.clear()
            assert client.get("/items/events", params=params).status_code == 200, params
            assert len(workers) == 1, params
        workers.clear()
        assert client.get("/items/states", params={"limit": "-1"}).status_code == 200
        assert workers == []  # 16 states: on the loop


def test_sqlite_writes_more_objects_in_a_quick_read_than_python_builds(
    server: str, workers: list[str], monkeypatch: pytest.MonkeyPatch, tune: Callable[..., None]
) -> None:
    """The same answer of 264 objects (132 events and their courses) is tried on the loop
    when SQLite writes it (``quick_flat_objects``), not when Python builds it."""

    _answers(server)
    tune(quick_time=0.01)
    tune(quick_objects=200)
    tune(quick_flat_objects=300)
    headers = {"Authorization": f"Bearer {TOKEN}"}
    params = {"limit": "-1", "fields": "id,course.title"}
    with httpx.Client(base_url=server, headers=headers, timeout=30) as client:
        workers.clear()
        written = client.get("/items/events", params=params)
        assert workers == []
        tune(flat_depth=0)  # the courses' objects built in Python
        built = client.get("/items/events", params=params)
        assert len(workers) == 1
    assert written.status_code == built.status_code == 200
    assert written.content == built.content
    assert len(written.json()["data"]) == 132


def test_lists_of_ids_keep_the_smaller_quick_limit(
    server: str, workers: list[str], monkeypatch: pytest.MonkeyPatch, tune: Callable[..., None]
) -> None:
    """A list of ids is a subquery a row, dearer than an object: 132 events with their
    contacts' ids go to a worker where 132 events alone are read on the loop."""

    _answers(server)
    tune(quick_time=0.01)
    tune(quick_objects=100)
    tune(quick_flat_objects=300)
    headers = {"Authorization": f"Bearer {TOKEN}"}
    with httpx.Client(base_url=server, headers=headers, timeout=30) as client:
        workers.clear()
        assert client.get("/items/events", params={"limit": "-1", "fields": "id"}).is_success
        assert workers == []
        listed = client.get("/items/events", params={"limit": "-1", "fields": "id,contacts"})
        assert listed.is_success
        assert len(workers) == 1
