"""The query language of the service, as values: one grammar for the client and the server.

A :class:`Query` holds ``fields``, ``filter``, ``sort``, ``search``, ``limit``, ``offset``,
``page``, ``meta``, ``deep``, ``aggregate``, ``group_by`` (``groupBy``) and ``backlink``.
The client builds one and sends ``query.to_params()``; the server parses the query string
with :meth:`Query.from_params` and validates it against the catalogue with :func:`bind`,
which coerces filter values to the fields' types and raises
:class:`~educatalog.errors.InvalidQuery` (400) or
:class:`~educatalog.errors.NotFoundOrForbidden` (403) naming the collection, field, operator
and value at fault.

Filters are trees of :class:`Condition`, :class:`Related`, :class:`And` and :class:`Or`,
written by hand or with :class:`F`:

>>> f = (F("address.state") == 9) & (F("event_start_date") >= "2025-01-01")
>>> Query(filter=f, limit=10).to_params()["filter"]
'{"_and":[{"address":{"state":{"_eq":9}}},{"event_start_date":{"_gte":"2025-01-01"}}]}'

The package's modules, lowest first: ``limits`` (the service's bounds), ``operators``,
``tree`` (filters, :class:`F`, their JSON), ``aggregates`` (``aggregate`` and ``groupBy``),
``query`` (:class:`Query` and its query string), ``values`` (coercion, ``$NOW``) and
``binding`` (:func:`bind`). Import the names from ``educatalog.query``.
"""

from __future__ import annotations

from educatalog.query.aggregates import (
    AGGREGATE_FUNCTIONS,
    Aggregate,
    AggregateKey,
    bind_aggregate,
)
from educatalog.query.binding import (
    BoundQuery,
    Expanded,
    FieldTree,
    SortKey,
    bind,
    bind_fields,
    bind_filter,
    expanded_relations,
    filter_depth,
    list_relations,
)
from educatalog.query.limits import (
    DEFAULT_LIMIT,
    MAX_FIELD_NODES,
    MAX_FILTER_NODES,
    MAX_INTEGER,
    MAX_LOGICAL_DEPTH,
    MAX_RELATIONAL_DEPTH,
    MAX_SORT_KEYS,
    NESTED_LIMIT,
    row_limit,
    whole,
)
from educatalog.query.operators import (
    EMPTY_OPERATORS,
    EQUALITY_OPERATORS,
    FLAG_OPERATORS,
    LIST_OPERATORS,
    LOGICAL,
    NULL_OPERATORS,
    OPERATORS,
    ORDER_OPERATORS,
    QUANTIFIERS,
    RANGE_OPERATORS,
    TEXT_OPERATORS,
    allowed_operators,
)
from educatalog.query.query import DEEP_KEYS, META_VALUES, UNSUPPORTED_PARAMETERS, Query
from educatalog.query.tree import (
    And,
    Condition,
    F,
    Filter,
    Or,
    Related,
    Scalar,
    Value,
    filter_from_json,
    filter_to_json,
    walk_conditions,
)
from educatalog.query.values import NOW, resolve_now

__all__ = [
    "AGGREGATE_FUNCTIONS",
    "DEEP_KEYS",
    "DEFAULT_LIMIT",
    "EMPTY_OPERATORS",
    "EQUALITY_OPERATORS",
    "FLAG_OPERATORS",
    "LIST_OPERATORS",
    "LOGICAL",
    "MAX_FIELD_NODES",
    "MAX_FILTER_NODES",
    "MAX_INTEGER",
    "MAX_LOGICAL_DEPTH",
    "MAX_RELATIONAL_DEPTH",
    "MAX_SORT_KEYS",
    "META_VALUES",
    "NESTED_LIMIT",
    "NOW",
    "NULL_OPERATORS",
    "OPERATORS",
    "ORDER_OPERATORS",
    "QUANTIFIERS",
    "RANGE_OPERATORS",
    "TEXT_OPERATORS",
    "UNSUPPORTED_PARAMETERS",
    "Aggregate",
    "AggregateKey",
    "And",
    "BoundQuery",
    "Condition",
    "Expanded",
    "F",
    "FieldTree",
    "Filter",
    "Or",
    "Query",
    "Related",
    "Scalar",
    "SortKey",
    "Value",
    "allowed_operators",
    "bind",
    "bind_aggregate",
    "bind_fields",
    "bind_filter",
    "expanded_relations",
    "filter_depth",
    "filter_from_json",
    "filter_to_json",
    "list_relations",
    "resolve_now",
    "row_limit",
    "walk_conditions",
    "whole",
]
