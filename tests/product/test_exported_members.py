"""The public surface of ``educatalog``: what ``__all__`` promises, and nothing by accident.

Pinned as a list on purpose (as httpx's ``tests/product/test_exported_members.py`` does): adding or
removing a public name is a decision that shows in a diff of this file.
"""

from __future__ import annotations

import inspect
import subprocess
import sys

import pytest

import educatalog
from educatalog import errors

PUBLIC = [
    "SCHEMA",
    "ArchiveError",
    "AsyncClient",
    "AuthenticationError",
    "Catalogue",
    "Client",
    "DataError",
    "EduAccessor",
    "EducatalogError",
    "F",
    "IncompleteDownload",
    "InvalidPayload",
    "InvalidQuery",
    "InvalidTestData",
    "MissingColumns",
    "NotFoundOrForbidden",
    "Page",
    "Query",
    "QueryTooLong",
    "ReportError",
    "RouteNotFound",
    "ServiceError",
    "ServiceUnavailable",
    "SnapshotError",
    "Source",
    "UnexpectedAnswer",
    "UsageError",
    "WrongType",
    "__version__",
    "connect",
    "demo",
    "load",
    "load_catalogue",
    "load_links",
]


def test_all_is_pinned() -> None:
    assert educatalog.__all__ == PUBLIC


def test_every_exported_name_exists_and_is_ours() -> None:
    for name in educatalog.__all__:
        value = getattr(educatalog, name)
        module = getattr(value, "__module__", None)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert module is not None, name
            assert module.startswith("educatalog"), name


def test_every_public_exception_is_in_errors_and_exported() -> None:
    raised = {
        name
        for name, value in vars(errors).items()
        if inspect.isclass(value)
        and issubclass(value, errors.EducatalogError)
        and not name.startswith("_")
    }
    assert raised <= set(errors.__all__)
    assert raised <= set(educatalog.__all__)
    for name in raised:
        assert getattr(educatalog, name) is getattr(errors, name)


def _extras_only() -> set[str]:
    """The import names of what only an optional extra installs (anywidget, voila, ...)."""
    import importlib.metadata
    import re

    names = set()
    for requirement in importlib.metadata.requires("educatalog") or []:
        if "extra ==" in requirement:
            name = re.match(r"[A-Za-z0-9_.-]+", requirement)
            assert name is not None, requirement
            names.add(name.group().lower().replace("-", "_"))
    return names - {"educatalog"}


_EXTRAS_ONLY = _extras_only()


def test_no_public_exception_outside_errors() -> None:
    """Each module's exceptions come from errors.py (imported there, not defined)."""
    import pkgutil

    for info in pkgutil.walk_packages(educatalog.__path__, "educatalog."):
        if info.name.startswith(("educatalog.server", "educatalog.__main__", "educatalog.cli")):
            continue
        try:
            module = __import__(info.name, fromlist=["_"])
        except ModuleNotFoundError as error:
            # A module of an extra (the dashboard's anywidget) where that extra is not installed,
            # as in `make test-floors`; any other missing module is a failure.
            if error.name not in _EXTRAS_ONLY:
                raise
            continue
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            if inspect.isclass(value) and issubclass(value, BaseException):
                assert value.__module__ == "educatalog.errors", f"{info.name}.{name}"


@pytest.mark.parametrize(
    ("error", "bases"),
    [
        (errors.UsageError, (ValueError,)),
        (errors.MissingColumns, (ValueError,)),
        (errors.WrongType, (TypeError, ValueError)),
        (errors.InvalidTestData, (ValueError,)),
        (errors.InvalidQuery, (ValueError, errors.ServiceError)),
        (errors.ArchiveError, (errors.SnapshotError, errors.DataError)),
        (errors.ReportError, (errors.DataError,)),
        (errors.ServiceUnavailable, (errors.ServiceError,)),
    ],
)
def test_the_tree(error: type[Exception], bases: tuple[type[Exception], ...]) -> None:
    assert issubclass(error, errors.EducatalogError)
    for base in bases:
        assert issubclass(error, base)


def test_the_tree_in_the_docstring_names_every_error() -> None:
    doc = errors.__doc__ or ""
    for name in errors.__all__:
        if name[0].isupper():
            assert name in doc, name


def test_modules_are_attributes_without_importing_them() -> None:
    code = (
        "import sys, educatalog\n"
        "assert 'educatalog.widgets' not in sys.modules\n"
        "assert callable(educatalog.widgets.explorer)\n"
        "assert callable(educatalog.stats.supply)\n"
        "assert callable(educatalog.cli.fetch.fetch_snapshot)\n"
        "assert 'widgets' in dir(educatalog)\n"
        "try:\n    educatalog.no_such_thing\nexcept AttributeError:\n    pass\n"
        "else:\n    raise SystemExit('no AttributeError')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_modules_say_what_they_hold() -> None:
    """``schema`` holds the catalogue's definition, ``catalogue`` the loaded Catalogue; no
    alias of an older layout is kept (no release had one), and the demo generator's
    package does not shadow the function ``educatalog.demo``."""
    import importlib

    from educatalog.frames import catalogue
    from educatalog.model import schema

    assert catalogue.Catalogue is educatalog.Catalogue
    assert schema.SCHEMA is educatalog.SCHEMA
    with pytest.raises(AttributeError):
        catalogue.Schema  # noqa: B018
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("educatalog.catalogue_data")
    importlib.import_module("educatalog.demodata")
    assert callable(educatalog.demo)
