"""The conformance suite's servers, each checked against the independent oracle
(``tests/oracle.py``) through :class:`conformance.Api`:

* ``demo``: the demo catalogue (``collect(seed=0, scale=0.05)``) behind a real server;
* ``small``: the hand-made catalogue (``records/small.json``) with nulls, tricky text,
  dangling references, an event with 150 contacts and a course with 120 events;
* ``capped``: the hand-made catalogue behind a server configured with ``limit_max=120``;
* ``anonymous``: a client of the ``small`` server without a token.

Every server of the suite runs on the fixed clock ``conformance.CLOCK`` (what ``$NOW`` in
filters stands for), and every oracle knows it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from conformance import CLOCK, LIMIT_MAX, TEST_TOKEN, Api, Records, serve_url, small_records
from educatalog.server import tuning
from oracle import Oracle


@pytest.fixture
def tune(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """``tune(quick_time=0.01, ...)``: the server's tuning numbers changed for the test."""

    def change(**numbers: float) -> None:
        monkeypatch.setattr(tuning, "TUNING", replace(tuning.TUNING, **numbers))

    return change


def _client(url: str, token: str) -> httpx.Client:
    return httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=30)


@pytest.fixture(scope="session")
def demo_oracle(demo_records: Records) -> Oracle:
    return Oracle(demo_records, now=CLOCK)


@pytest.fixture(scope="session")
def demo(demo_url: str, demo_oracle: Oracle, demo_token: str) -> Iterator[Api]:
    with _client(demo_url, demo_token) as client:
        yield Api(client, demo_oracle)


@pytest.fixture(scope="session")
def small_oracle() -> Oracle:
    return Oracle(small_records(), now=CLOCK)


@pytest.fixture(scope="session")
def small(small_url: str, small_oracle: Oracle) -> Iterator[Api]:
    with _client(small_url, TEST_TOKEN) as client:
        yield Api(client, small_oracle)


@pytest.fixture(scope="session")
def capped(small_database: Path, small_oracle: Oracle) -> Iterator[Api]:
    for url in serve_url(small_database, TEST_TOKEN, LIMIT_MAX):
        with _client(url, TEST_TOKEN) as client:
            yield Api(client, small_oracle, LIMIT_MAX)


@pytest.fixture
def anonymous(small_url: str) -> Iterator[httpx.Client]:
    """A client without a token."""
    with httpx.Client(base_url=small_url, timeout=30) as client:
        yield client
