"""The bounds the service puts on a query: page sizes, relational depth, filter size."""

from __future__ import annotations

from educatalog.errors import InvalidQuery

__all__ = [
    "DEFAULT_LIMIT",
    "MAX_FIELD_NODES",
    "MAX_FILTER_NODES",
    "MAX_INTEGER",
    "MAX_LOGICAL_DEPTH",
    "MAX_RELATIONAL_DEPTH",
    "MAX_SORT_KEYS",
    "NESTED_LIMIT",
    "row_limit",
    "whole",
]

MAX_INTEGER = 2**63 - 1
"""The largest integer SQL databases store (64-bit signed)."""

DEFAULT_LIMIT = 100
"""Items a page holds when the query gives no ``limit``."""
NESTED_LIMIT = 100
"""Related items a list relation holds per item unless ``deep`` says otherwise."""
MAX_RELATIONAL_DEPTH = 10
"""Relations a path may cross in fields, filter, sort and deep (Directus's default)."""
MAX_FIELD_NODES = 1_000
"""Fields a ``fields`` selection may expand to (``*.*.*`` grows fast)."""
MAX_FILTER_NODES = 1_000
"""Conditions and groups a filter may hold."""
MAX_LOGICAL_DEPTH = 30
"""Levels of nested ``_and``/``_or`` a filter may hold."""
MAX_SORT_KEYS = 20
"""Keys a ``sort`` may hold."""


def whole(value: object, minimum: int, maximum: int = MAX_INTEGER) -> bool:
    """Whether ``value`` is a whole number (an ``int``, never a ``bool``) from ``minimum`` to
    ``maximum``: the one check of ``limit``, ``offset`` and ``page`` wherever they are given.

    >>> whole(10, -1), whole(True, 0), whole(2.0, 0)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool) and minimum <= value <= maximum


def row_limit(value: object) -> int:
    """``value`` as the number of rows a download keeps (``load(limit=...)``,
    ``Client.fetch_sorted``): a whole number, 0 or more, else :class:`InvalidQuery`."""
    if not whole(value, 0):
        raise InvalidQuery(f"limit must be a whole number of rows, 0 or more: {value!r}")
    assert isinstance(value, int)
    return value
