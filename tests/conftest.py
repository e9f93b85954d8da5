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


# The modules that take longest, longest first: `make test` hands whole modules to its workers
# in the order collected (--dist loadscope --no-loadscope-reorder), so that the long ones start
# at once and the many short ones fill the gaps after them, instead of one long module
# starting last and running alone (the order of their seconds in a run of `make test`; the
# other modules keep their order, after these).
LONGEST_FIRST = (
    "product/test_notebooks.py",  # first of all: the gallery's 16 notebook runs (tests/docsite.py)
    "browser/test_notebooks_in_lab.py",
    "browser/test_dashboard.py",
    "browser/test_dashboard_html.py",
    "product/test_readme.py",
    "product/test_report_citable.py",
    "product/test_packaging.py",
    "data/test_interrupted_add.py",
    "product/test_docs.py",
    "data/test_damage.py",
    "analysis/test_subject_report.py",
    "data/test_history.py",
    "data/test_damage_caches.py",
    "product/test_lab.py",
    "data/test_snapshot.py",
    "analysis/test_explorer_model.py",
    "browser/test_explorer_in_lab.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = item.path.as_posix()
        found = [k for k, module in enumerate(LONGEST_FIRST) if path.endswith(f"/{module}")]
        return found[0] if found else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: each module's tests keep their order
