"""What a process of educatalog imports as it starts. jsonschema, which nbformat imports,
takes seconds to import wherever ``rfc3987_syntax`` is installed (Jupyter's dependencies
install it): it builds some 40 grammars of IRIs as it is imported. The server
(``educatalog serve``, the embedded demo server) and the kernel behind every visitor of the
dashboard need no notebook file, so they must not pay for it: on two cores,
``educatalog serve --demo`` answers its first request after 0.8 s instead of 2.4 s (4 s
instead of 13-16 s while the cores are busy)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

HEAVY = ("jsonschema", "nbformat")
"""Modules that a process which reads or writes no notebook must not import."""


@pytest.mark.parametrize(
    "modules",
    [
        pytest.param(
            # what `educatalog serve` imports (cli._serve)
            ["educatalog.cli", "educatalog.demodata.embedded", "educatalog.server.app",
             "educatalog.server.uvicorn_server", "educatalog.server.sqlite_library"],
            id="server",
        ),
        pytest.param(
            # what the dashboard's notebook runs in a visitor's kernel
            ["educatalog.cli.dashboard", "educatalog.widgets", "educatalog.widgets.url_sync",
             "educatalog.widgets.aria", "educatalog.snapshot"],
            id="dashboard-kernel",
            marks=pytest.mark.skipif(
                importlib.util.find_spec("anywidget") is None,
                reason="the dashboard's kernel needs the 'dashboard' extra",
            ),
        ),
    ],
)  # fmt: skip
def test_a_process_that_needs_no_notebook_imports_no_jsonschema(modules: list[str]) -> None:
    probe = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "", f"{modules} imported {done.stdout.strip()}"
