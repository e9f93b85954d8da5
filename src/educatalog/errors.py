"""Every exception educatalog raises, in one tree.

.. code-block:: text

    EducatalogError                 base of them all; catch it to catch everything
    ├── ServiceError                an answer of the service (``status``, Directus ``code``)
    │   ├── InvalidQuery            400 INVALID_QUERY (also a ValueError: a query built wrong)
    │   │   └── QueryTooLong        the query used up its budget of the server's time
    │   ├── InvalidPayload          400 INVALID_PAYLOAD
    │   ├── AuthenticationError     401 INVALID_CREDENTIALS
    │   ├── NotFoundOrForbidden     403 FORBIDDEN
    │   ├── RouteNotFound           404 ROUTE_NOT_FOUND
    │   ├── UnexpectedAnswer        an answer the service never gives (a proxy in between?)
    │   └── ServiceUnavailable      unreachable or failing after the retries (5xx, 429, timeouts)
    ├── DataError                   data that does not add up or cannot be written or read
    │   ├── IncompleteDownload      rows missing or repeated against the service's count
    │   ├── SnapshotError           a snapshot folder exists, or a file of it is damaged
    │   │   └── ArchiveError        an archive of snapshots is missing, malformed or busy
    │   └── ReportError             a notebook failed to run, or the report could not be written
    ├── UsageError                  a call that cannot be carried out as asked (a ValueError)
    │   ├── MissingColumns          a frame lacks the columns a statistic or chart needs
    │   ├── WrongType               an argument of the wrong type (a TypeError too)
    │   └── InvalidTestData         rows for a test server that do not fit the catalogue
    └── MissingDependency           a feature's extra is not installed (an ImportError too)

    CacheRebuilt (a UserWarning)    a cached database was damaged and is built again

Each error carries the HTTP status and the Directus error ``code`` the service uses for it,
so the server renders them as ``{"errors": [{"message": ..., "extensions": {"code": ...}}]}``
and the client maps such bodies back to the same classes. Usage mistakes are also
``ValueError`` (or ``TypeError``), so ``except ValueError`` catches them as users expect.
A message that names something unknown ends with :func:`did_you_mean`.
"""

from __future__ import annotations

import difflib
import importlib.util
from collections.abc import Iterable
from typing import Any, ClassVar

__all__ = [
    "ArchiveError",
    "AuthenticationError",
    "CacheRebuilt",
    "DataError",
    "EducatalogError",
    "IncompleteDownload",
    "InvalidPayload",
    "InvalidQuery",
    "InvalidTestData",
    "MissingColumns",
    "MissingDependency",
    "NotFoundOrForbidden",
    "QueryTooLong",
    "ReportError",
    "RouteNotFound",
    "ServiceError",
    "ServiceUnavailable",
    "SnapshotError",
    "UnexpectedAnswer",
    "UsageError",
    "WrongType",
    "did_you_mean",
    "error_body",
    "error_from_body",
    "require",
]


def did_you_mean(name: object, choices: Iterable[object]) -> str:
    """`` Did you mean "x"?`` with the choice closest to ``name`` (one that differs only in
    case first, then the closest spelling), or nothing: the end of every error message
    that names something unknown.

    >>> "No field \"stat\"." + did_you_mean("stat", ["state", "city"])
    'No field "stat". Did you mean "state"?'
    """
    if not isinstance(name, str):
        return ""
    options = [str(c) for c in choices]
    close = [c for c in options if c.casefold() == name.casefold()]
    close = close or difflib.get_close_matches(name, options, n=1, cutoff=0.6)
    return f' Did you mean "{close[0]}"?' if close else ""


class EducatalogError(Exception):
    """Base of every error raised by educatalog."""

    status: ClassVar[int] = 500
    code: ClassVar[str] = "INTERNAL_SERVER_ERROR"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ServiceError(EducatalogError):
    """An answer of the service: its HTTP ``status`` and Directus error ``code``."""


class DataError(EducatalogError):
    """Data that does not add up, or cannot be written or read."""


class CacheRebuilt(UserWarning):
    """A database cached in ``$EDUCATALOG_CACHE`` did not match the checksum kept beside it
    (or had none) and is built again (:mod:`educatalog.files.cache`); the message names it."""


class UsageError(EducatalogError, ValueError):
    """A call that cannot be carried out as asked: an unknown dimension, option or value.

    Also a :class:`ValueError`, so ``except ValueError`` catches it.
    """

    status = 400
    code = "INVALID_USAGE"


class MissingColumns(UsageError):
    """A frame lacks the columns a statistic, table or chart needs (the message names them)."""


class WrongType(UsageError, TypeError):
    """An argument of the wrong type (also a :class:`TypeError`)."""


class InvalidTestData(UsageError):
    """Rows given to :func:`educatalog.testing.serve` (or the ``educatalog_data`` fixture)
    that do not fit the catalogue: an unknown collection or field, a missing or repeated id,
    a value of the wrong type."""


class MissingDependency(EducatalogError, ImportError):
    """A feature needs a package that one of educatalog's extras installs, and it is not
    installed: the message names the package and the ``pip install`` that brings it.

    Also an :class:`ImportError`, so code that tries a feature and falls back keeps working.
    """

    status = 500
    code = "MISSING_DEPENDENCY"


EXTRAS: dict[str, str] = {
    "excel": "workbooks (.xlsx)",
    "archive": "the archive of snapshots (DuckDB)",
    "report": "the report and the notebooks run in a kernel",
    "pdf": "the report's PDF (Playwright, printing with a Chromium)",
    "widgets": "the explorer in a notebook",
    "dashboard": "the dashboard (Voilà)",
    "geo": "the districts' shapes as a GeoDataFrame (geopandas)",
    "lab": "JupyterLab with the notebooks",
}
"""educatalog's extras (``pip install 'educatalog[NAME]'``) and what each one is for."""


def require(extra: str, *modules: str, what: str) -> None:
    """Import ``modules`` (top-level names) or raise :class:`MissingDependency`, which names
    the missing ones and the extra that installs them.

    >>> require("archive", "duckdb", what="educatalog.history")  # doctest: +SKIP
    Traceback (most recent call last):
    MissingDependency: educatalog.history needs duckdb, which the extra 'archive' installs:
    pip install 'educatalog[archive]'
    """
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}{did_you_mean(extra, EXTRAS)}")
    missing = [module for module in modules if not _installed(module)]
    if missing:
        raise MissingDependency(
            f"{what} needs {', '.join(missing)}, which the extra {extra!r} installs: "
            f"pip install 'educatalog[{extra}]'"
        )


def _installed(module: str) -> bool:
    """Whether ``module`` can be imported, found without importing it (no start-up cost)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent that fails, or a module set to None
        return False


class InvalidQuery(ServiceError, ValueError):
    """A parameter, filter, operator or value of a query is invalid (400 INVALID_QUERY)."""

    status = 400
    code = "INVALID_QUERY"


class QueryTooLong(InvalidQuery):
    """The query used up its budget of the server's time (400 INVALID_QUERY)."""


class InvalidPayload(ServiceError):
    """The request itself is malformed, e.g. a token given twice (400 INVALID_PAYLOAD)."""

    status = 400
    code = "INVALID_PAYLOAD"


class NotFoundOrForbidden(ServiceError):
    """403 FORBIDDEN: the collection, field or item does not exist, or access is not allowed.

    Directus deliberately does not tell the two apart.
    """

    status = 403
    code = "FORBIDDEN"


class AuthenticationError(ServiceError):
    """401 INVALID_CREDENTIALS: the token is not known to the service."""

    status = 401
    code = "INVALID_CREDENTIALS"


class RouteNotFound(ServiceError):
    """404 ROUTE_NOT_FOUND: no such path on the service."""

    status = 404
    code = "ROUTE_NOT_FOUND"


def error_body(error: EducatalogError) -> dict[str, Any]:
    """The Directus-shaped JSON body of an error."""
    return {"errors": [{"message": error.message, "extensions": {"code": error.code}}]}


class ServiceUnavailable(ServiceError):
    """The service could not be reached or kept failing (5xx, 429, timeouts) after retries."""

    status = 503
    code = "SERVICE_UNAVAILABLE"


class UnexpectedAnswer(ServiceError):
    """An answer the service never gives: not the JSON shape of its kind, or rows other than
    the ones asked for (say, ids outside the requested window). Often a proxy or gateway in
    between, or a base URL that points elsewhere."""

    status = 502
    code = "UNEXPECTED_ANSWER"


class IncompleteDownload(DataError):
    """A download did not add up: rows missing or repeated against the service's count."""

    code = "INCOMPLETE_DOWNLOAD"


class SnapshotError(DataError):
    """A snapshot cannot be written or read: it exists already, or a file of it is missing,
    corrupted or truncated (the message names the file)."""

    code = "SNAPSHOT_ERROR"


class ArchiveError(SnapshotError):
    """An archive is missing, malformed, or cannot take a snapshot."""


class ReportError(DataError):
    """A notebook failed to run, or the report could not be written."""


class PassingFailure(Exception):
    """Internal to the clients: an answer worth asking again for (429, 5xx, or a truncated or
    invalid body). It never leaves a client: after the retries it becomes
    :class:`ServiceUnavailable`."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


_BY_CODE: dict[str, type[EducatalogError]] = {
    cls.code: cls
    for cls in (
        InvalidQuery,
        InvalidPayload,
        NotFoundOrForbidden,
        AuthenticationError,
        RouteNotFound,
    )
}
_BY_STATUS: dict[int, type[EducatalogError]] = {
    400: InvalidQuery,
    401: AuthenticationError,
    403: NotFoundOrForbidden,
    404: RouteNotFound,
}


def error_from_body(status: int, body: Any, context: str = "") -> EducatalogError:
    """The error for a service answer: by the Directus ``code`` where known, else the status.

    ``context`` says what was asked (e.g. ``GET /items/events``) and leads the message.
    """
    message = ""
    cls: type[EducatalogError] | None = None
    if isinstance(body, dict) and isinstance(body.get("errors"), list) and body["errors"]:
        first = body["errors"][0] if isinstance(body["errors"][0], dict) else {}
        message = str(first.get("message", ""))
        extensions = first.get("extensions")
        code = extensions.get("code") if isinstance(extensions, dict) else None
        cls = _BY_CODE.get(code) if isinstance(code, str) else None
    cls = (
        cls or _BY_STATUS.get(status) or (ServiceUnavailable if status >= 500 else EducatalogError)
    )
    text = f"{context}: " if context else ""
    text += f"the service answered {status}" + (f": {message}" if message else ".")
    return cls(text)
