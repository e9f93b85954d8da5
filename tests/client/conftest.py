"""The client suite's server: the demo catalogue at scale 0.1 (``database``), served as it
is (``url``) and with a page-size cap of 40 (``capped_url``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from databases import Databases
from educatalog.testing import serve

TOKEN = "client-test-token"
"""The token of the suite's servers."""


@pytest.fixture(scope="module")
def database(databases: Databases) -> Path:
    return databases.demo(0.1)


@pytest.fixture(scope="module")
def url(database: Path) -> Iterator[str]:
    with serve(database=database, token=TOKEN) as server:
        yield server.url


@pytest.fixture(scope="module")
def capped_url(database: Path) -> Iterator[str]:
    with serve(database=database, token=TOKEN, limit_max=40) as server:
        yield server.url
