"""The bounds the service puts on a query: page sizes, relational depth, filter size."""

from __future__ import annotations

__all__ = [
    "DEFAULT_LIMIT",
    "MAX_FIELD_NODES",
    "MAX_FILTER_NODES",
    "MAX_INTEGER",
    "MAX_LOGICAL_DEPTH",
    "MAX_RELATIONAL_DEPTH",
    "MAX_SORT_KEYS",
    "NESTED_LIMIT",
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
