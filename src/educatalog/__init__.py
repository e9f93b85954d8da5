"""educatalog: the educational catalogue service as analysis-ready pandas DataFrames.

The package has two halves sharing one model of the catalogue (:mod:`educatalog.model.schema`)
and its query language (:mod:`educatalog.query`): the toolkit, and the reference server
(:mod:`educatalog.server`) that implements the service itself over an embedded database.
docs/architecture.md draws its layers.

The toolkit's modules are attributes of the package without importing them first
(``educatalog.widgets.explorer(offers)`` after ``import educatalog``); the heavy ones
(charts, widgets, reports) are imported on first use.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

from educatalog._version import __version__
from educatalog.accessor import EduAccessor  # importing it registers df.edu
from educatalog.client import AsyncClient, Client, Page
from educatalog.errors import (
    ArchiveError,
    AuthenticationError,
    DataError,
    EducatalogError,
    IncompleteDownload,
    InvalidPayload,
    InvalidQuery,
    InvalidTestData,
    MissingColumns,
    NotFoundOrForbidden,
    QueryTooLong,
    ReportError,
    RouteNotFound,
    ServiceError,
    ServiceUnavailable,
    SnapshotError,
    UnexpectedAnswer,
    UsageError,
    WrongType,
)
from educatalog.frames.catalogue import Catalogue, Source
from educatalog.loading.connection import connect, demo
from educatalog.loading.loaders import load, load_catalogue, load_links
from educatalog.model.schema import SCHEMA
from educatalog.query import F, Query

if TYPE_CHECKING:  # the lazily imported modules, for type checkers and editors
    from educatalog import history as history
    from educatalog import plots as plots
    from educatalog import population as population
    from educatalog import report as report
    from educatalog import snapshot as snapshot
    from educatalog import stats as stats
    from educatalog import tables as tables
    from educatalog import testing as testing
    from educatalog import texts as texts
    from educatalog import widgets as widgets
    from educatalog.cli import fetch

__all__ = [
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

_SUBMODULES = frozenset(
    {
        "fetch",
        "history",
        "plots",
        "population",
        "report",
        "snapshot",
        "stats",
        "tables",
        "testing",
        "texts",
        "widgets",
    }
)
"""Modules reachable as attributes of the package, imported when first used."""


def __getattr__(name: str) -> ModuleType:
    if name in _SUBMODULES:
        return importlib.import_module(f"educatalog.{name}")
    raise AttributeError(f"module 'educatalog' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_SUBMODULES})
