"""Directus's functions in field names (``year(event_start_date)``, ``count(events)``): the
reference server does not compute them, and says so (a 400) instead of answering that no
field of that name exists."""

from __future__ import annotations

from educatalog.errors import InvalidQuery
from educatalog.model.schema import Collection, Field

__all__ = ["field_of", "is_function"]


def is_function(name: str) -> bool:
    """Whether ``name`` calls a function, such as ``year(event_start_date)``."""
    return "(" in name and name.endswith(")")


def field_of(coll: Collection, name: str) -> Field:
    """The field ``name`` of ``coll`` (unknown: 403); a function is a clear 400."""
    if is_function(name):
        raise InvalidQuery(
            f'"{name[:80]}": functions such as year(), month() or count() are not supported '
            "by the reference server; select, filter, sort or group by the field itself."
        )
    return coll.field(name)
