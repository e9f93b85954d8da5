"""One exception hierarchy for the toolkit and the reference server.

Each error carries the HTTP status and the Directus error ``code`` that the service uses for
it, so the server renders them as ``{"errors": [{"message": ..., "extensions": {"code": ...}}]}``
and the client maps such bodies back to the same classes.
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "AuthenticationError",
    "EducatalogError",
    "IncompleteDownload",
    "InvalidPayload",
    "InvalidQuery",
    "NotFoundOrForbidden",
    "RouteNotFound",
    "ServiceUnavailable",
    "SnapshotError",
    "UnexpectedAnswer",
    "error_body",
    "error_from_body",
]


class EducatalogError(Exception):
    """Base of every error raised by educatalog."""

    status: ClassVar[int] = 500
    code: ClassVar[str] = "INTERNAL_SERVER_ERROR"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidQuery(EducatalogError):
    """A parameter, filter, operator or value of a query is invalid (400 INVALID_QUERY)."""

    status = 400
    code = "INVALID_QUERY"


class InvalidPayload(EducatalogError):
    """The request itself is malformed, e.g. a token given twice (400 INVALID_PAYLOAD)."""

    status = 400
    code = "INVALID_PAYLOAD"


class NotFoundOrForbidden(EducatalogError):
    """403 FORBIDDEN: the collection, field or item does not exist, or access is not allowed.

    Directus deliberately does not tell the two apart.
    """

    status = 403
    code = "FORBIDDEN"


class AuthenticationError(EducatalogError):
    """401 INVALID_CREDENTIALS: the token is not known to the service."""

    status = 401
    code = "INVALID_CREDENTIALS"


class RouteNotFound(EducatalogError):
    """404 ROUTE_NOT_FOUND: no such path on the service."""

    status = 404
    code = "ROUTE_NOT_FOUND"


def error_body(error: EducatalogError) -> dict[str, Any]:
    """The Directus-shaped JSON body of an error."""
    return {"errors": [{"message": error.message, "extensions": {"code": error.code}}]}


class ServiceUnavailable(EducatalogError):
    """The service could not be reached or kept failing (5xx, 429, timeouts) after retries."""

    status = 503
    code = "SERVICE_UNAVAILABLE"


class UnexpectedAnswer(EducatalogError):
    """An answer the service never gives: not the JSON shape of its kind, or rows other than
    the ones asked for (say, ids outside the requested window). Often a proxy or gateway in
    between, or a base URL that points elsewhere."""

    status = 502
    code = "UNEXPECTED_ANSWER"


class IncompleteDownload(EducatalogError):
    """A download did not add up: rows missing or repeated against the service's count."""

    code = "INCOMPLETE_DOWNLOAD"


class SnapshotError(EducatalogError):
    """A snapshot cannot be written or read: it exists already, or a file of it is missing,
    corrupted or truncated (the message names the file)."""

    code = "SNAPSHOT_ERROR"


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
