"""The data suite's database: the demo catalogue at scale 0.1 (``database``), which the
loaders' and the frames' tests serve."""

from __future__ import annotations

from pathlib import Path

import pytest

from databases import Databases


@pytest.fixture(scope="module")
def database(databases: Databases) -> Path:
    return databases.demo(0.1)
