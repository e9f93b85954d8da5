"""The rules of docs/architecture.md, checked: the import layers (import-linter over the
contracts in pyproject.toml), rooms of a readable size, and the page naming every module."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import educatalog
from needs import missing_tool

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(educatalog.__file__).parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"

MAX_LINES = 600
GENERATED = {"_sync_client.py"}
"""Files written by scripts/unasync.py from their async source (make lint checks them)."""


def test_the_import_layers_hold() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        missing_tool("import-linter is not installed (it comes with the dev extra)")
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


# -- the folders are the layers -------------------------------------------------------------

PUBLIC_MODULES = {
    "errors",
    "accessor",
    "population",
    "report",
    "publication",
    "periods",
    "report_inputs",
    "testing",
}
"""The modules at the top of the package beside ``__init__``, ``__main__`` and ``_version``:
each is public API that users import by name (docs/architecture.md, "The layers")."""


def _top() -> tuple[set[str], set[str]]:
    """The top of the package: its modules and its folders (packages)."""
    modules = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__", "__main__", "_version"}
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    return modules, folders


def test_the_top_holds_the_public_modules_and_folders_only() -> None:
    """A newcomer finds the public API at the top and every other module in the folder of
    what it does (a new module at the top is a decision that shows in this test)."""
    modules, _ = _top()
    assert modules == PUBLIC_MODULES


def test_the_layers_are_the_folders() -> None:
    """The main import contract has one layer per folder (and per public module), each
    named once: the layers of pyproject.toml are those docs/architecture.md draws."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["name"] == "The toolkit's layers")["layers"]
    named = [part.strip() for layer in layers for part in layer.split("|")]
    assert len(named) == len(set(named)), "a folder named in two layers"
    modules, folders = _top()
    assert set(named) == {f"educatalog.{n}" for n in {*modules, *folders, "__main__", "_version"}}
    text = ARCHITECTURE.read_text(encoding="utf-8")
    drawn = text[text.index("```text", text.index("## The layers")) :]
    drawn = drawn[: drawn.index("```", 3)]
    for name in folders:
        assert f"{name}/" in drawn, f"docs/architecture.md does not draw {name}/"
    for name in modules:
        assert re.search(rf"\b{name}\b", drawn), f"docs/architecture.md does not draw {name}"


MAX_WIDGET_CLASS_LINES = 300
"""Longest class of the explorer's view (the widgets): its numbers live in the model."""


def test_the_widgets_are_a_thin_view() -> None:
    """The widget classes stay small, and the model they show imports no widgets."""
    import ast

    long = []
    for path in sorted((PACKAGE / "widgets").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "import ipywidgets" not in text:  # the model and the helpers: no widgets
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_WIDGET_CLASS_LINES:
                    long.append(f"{path.relative_to(PACKAGE)}: {node.name} ({lines} lines)")
    assert long == []
    assert "ipywidgets" not in (PACKAGE / "widgets" / "_model.py").read_text(encoding="utf-8")


def _documented(body: list[Any]) -> tuple[set[str], set[str]]:
    """The names a module body defines, and those of them that carry documentation (a
    docstring, or for an assignment the string literal right after it)."""
    import ast

    defined: set[str] = set()
    documented: set[str] = set()
    for i, node in enumerate(body):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defined.add(node.name)
            if ast.get_docstring(node):
                documented.add(node.name)
            continue
        targets: list[str] = []
        if isinstance(node, ast.Assign):
            targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            targets = [node.target.id]
        defined.update(targets)
        after = body[i + 1] if i + 1 < len(body) else None
        if (
            targets
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            documented.update(targets)
    return defined, documented


def test_every_public_name_is_documented() -> None:
    """Every name in the ``__all__`` of a public module (no part of its path private) that
    the module defines has a docstring: the API reference has something to say of it."""
    import ast

    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if any(p.startswith("_") and p not in ("__init__.py", "__main__.py") for p in parts):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        exported: list[str] = []
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
            ):
                exported = list(ast.literal_eval(node.value))
        defined, documented = _documented(tree.body)
        missing += [f"{'/'.join(parts)}: {n}" for n in exported if n in defined - documented]
    assert missing == []
