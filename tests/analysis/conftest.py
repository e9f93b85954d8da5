"""Fixtures of the analysis tests: the offers of the demo catalogue that the plugin's
``demo_catalogue`` serves (a module that needs another catalogue defines its own)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest


@pytest.fixture(scope="module")
def offers(demo_catalogue: Any) -> pd.DataFrame:
    return demo_catalogue.offers()
