"""A test that needs a tool this machine may lack (Debian's chromium, Playwright, axe-core,
import-linter): skipped where a developer has not installed it, but a failure in CI
(``CI=true``), where the project's own files install every tool, so that a missing
install can never pass as green.

>>> chromium = shutil.which("chromium") or missing_tool("needs Debian's chromium")  # doctest: +SKIP
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

__all__ = ["in_ci", "missing_tool"]


def in_ci() -> bool:
    """Whether this run is CI's (``.ci/run`` runs with ``CI=true``)."""
    return os.environ.get("CI", "").lower() == "true"


def missing_tool(why: str) -> NoReturn:
    """Skip the test for ``why`` (a tool that is not installed); in CI, fail with it."""
    if in_ci():
        pytest.fail(f"{why}: CI installs it (.ci/run), so its absence is a failure here")
    pytest.skip(why)
