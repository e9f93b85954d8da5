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
    "InvalidPayload",
    "InvalidQuery",
    "NotFoundOrForbidden",
    "RouteNotFound",
    "error_body",
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
