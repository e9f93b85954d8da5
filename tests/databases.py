"""The one way the suite gets a database: :class:`Databases`, the ``databases`` fixture of
``tests/conftest.py``. The demo catalogue is built as the product builds it
(``demodata.embedded.demo_database``), rows of a test's own as the pytest plugin builds them
(``educatalog.testing.build_test_database``); each once a session. Only the tests of
``server.store`` call its ``build_database`` themselves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from educatalog.demodata.embedded import demo_database
from educatalog.testing import build_test_database

Rows = Mapping[str, Sequence[Mapping[str, Any]]]


class Databases:
    """Databases built once a session in ``folder``, by name."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.built: dict[str, Path] = {}

    def demo(self, scale: float = 0.05, seed: int = 0) -> Path:
        """The synthetic demo catalogue of ``(seed, scale)`` (marked as demo data)."""
        return demo_database(seed, scale, directory=self.folder / "demo")

    def of(self, name: str, rows: Rows, *, references: bool = True) -> Path:
        """A database of ``rows`` (see ``build_test_database``) called ``name``: built on
        the first call, the same file on every later one."""
        if name not in self.built:
            path = self.folder / f"{name}.sqlite"
            self.built[name] = build_test_database(path, rows, references=references)
        return self.built[name]
