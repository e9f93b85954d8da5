"""Fixtures more than one suite of tests uses: the ``databases`` they serve (the one way
to get a database, :mod:`databases`), and the servers and catalogues built on them.

* ``demo_records``, ``demo_database``, ``demo_url``: the demo catalogue at scale 0.05
  (seed 0), as rows, as a database and behind a real server on the suite's clock;
* ``small_database``, ``small_url``: the hand-made catalogue (``conformance.small_records``);
* ``catalogue_database``, ``demo_catalogue``: the demo catalogue at scale 0.3, loaded over
  HTTP into a :class:`~educatalog.Catalogue` (for the statistics, charts and reports).

Each suite's own fixtures are in its ``conftest.py``; what the suite's tests import is in
modules of this folder (``conformance``, ``oracle``, ``faults``, ``databases`` …).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance import TEST_TOKEN, Records, serve_url, small_records
from databases import Databases


@pytest.fixture(scope="session")
def databases(tmp_path_factory: pytest.TempPathFactory) -> Databases:
    """Every database a test serves, built once a session."""
    return Databases(tmp_path_factory.mktemp("databases"))


@pytest.fixture(scope="session")
def demo_token() -> str:
    from educatalog.demodata import DEMO_TOKEN

    return DEMO_TOKEN


@pytest.fixture(scope="session")
def demo_records() -> Records:
    from educatalog.demodata import collect

    return collect(seed=0, scale=0.05)


@pytest.fixture(scope="session")
def demo_database(databases: Databases) -> Path:
    """The demo catalogue at scale 0.05 (seed 0): the rows of ``demo_records``."""
    return databases.demo(0.05)


@pytest.fixture(scope="session")
def demo_url(demo_database: Path, demo_token: str) -> Iterator[str]:
    yield from serve_url(demo_database, demo_token)


@pytest.fixture(scope="session")
def small_database(databases: Databases) -> Path:
    return databases.of("small", small_records(), references=False)


@pytest.fixture(scope="session")
def small_url(small_database: Path) -> Iterator[str]:
    yield from serve_url(small_database, TEST_TOKEN)


@pytest.fixture(scope="session")
def catalogue_database(databases: Databases) -> Path:
    """A demo catalogue database (scale 0.3, marked as demo data) for the statistics."""
    return databases.demo(0.3)


@pytest.fixture(scope="session")
def demo_catalogue(catalogue_database: Path) -> Iterator[Any]:
    """The whole demo catalogue loaded over HTTP from a reference server on loopback."""
    import educatalog
    from educatalog.testing import serve

    with (
        serve(database=catalogue_database, token="catalogue-token") as server,
        educatalog.Client(server.url, token=server.token, page_size=500) as client,
    ):
        yield educatalog.load_catalogue(client)
