"""The rules of docs/architecture.md, checked: the import layers (import-linter over the
contracts in pyproject.toml), rooms of a readable size, and the page naming every module."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import educatalog

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(educatalog.__file__).parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"

MAX_LINES = 600
GENERATED = {"_sync_client.py"}
"""Files written by scripts/unasync.py from their async source (make lint checks them)."""


def test_the_import_layers_hold() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        pytest.skip("import-linter is not installed (it comes with the dev extra)")
    done = subprocess.run(
        [str(lint), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_no_module_is_over_600_lines() -> None:
    sizes = {
        path.relative_to(PACKAGE).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
        if path.name not in GENERATED
    }
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}


def test_the_page_names_every_module_and_package() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    named = set(re.findall(r"`([a-z_]+)/?`", text))
    modules = {
        path.stem if path.is_file() else path.name
        for path in PACKAGE.iterdir()
        if (path.suffix == ".py" and path.stem != "__init__")
        or (path.is_dir() and (path / "__init__.py").exists())
    }
    assert modules - named == set()


def test_the_server_writes_sql_in_its_sql_package_only() -> None:
    """Every SQL text of the reference server is built in ``server/sql/``: no string of any
    other module of the server (f-strings included, docstrings aside) holds a statement."""
    found = [
        f"{path.relative_to(PACKAGE).as_posix()}:{line}: {text[:60]!r}"
        for path in sorted((PACKAGE / "server").rglob("*.py"))
        if "sql" not in path.relative_to(PACKAGE / "server").parts[:-1]
        for line, text in _sql_strings(path)
    ]
    assert found == []


_STATEMENT = re.compile(r"\b(SELECT|INSERT|CREATE|PRAGMA|ANALYZE|UPDATE|DELETE|WITH)\b ")


def _sql_strings(path: Path) -> list[tuple[int, str]]:
    """The strings of a module that hold an SQL statement, with their lines."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and _STATEMENT.search(node.value)
    ]


def test_no_module_imports_another_ones_private_names() -> None:
    """Names other modules need are public names of their modules (private modules,
    public names, as httpx does): no ``from educatalog.x import _name``, and no
    ``module._name`` of an imported module."""
    import ast

    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("educatalog"):
                found += [
                    f"{path.name}:{node.lineno}: {node.module} {a.name}"
                    for a in node.names
                    if a.name.startswith("_") and not a.name.startswith("__")
                ]
                modules |= {a.asname or a.name for a in node.names}
            elif isinstance(node, ast.Import):
                modules |= {
                    (a.asname or a.name).split(".")[0]
                    for a in node.names
                    if a.name.startswith("educatalog")
                }
        found += [
            f"{path.name}:{node.lineno}: {node.value.id}.{node.attr}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ]
    assert found == []


MAX_FUNCTION_LINES = 80
"""Longest function of the reference server and the demo generator (docstring included)."""


def test_no_function_of_the_server_or_the_demo_is_over_80_lines() -> None:
    import ast

    long = []
    for package in ("server", "demodata"):
        for path in sorted((PACKAGE / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    if lines > MAX_FUNCTION_LINES:
                        long.append(f"{path.relative_to(PACKAGE)}: {node.name} ({lines} lines)")
    assert long == []
