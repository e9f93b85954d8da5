"""The filter operators of the service, and which of them each field type accepts."""

from __future__ import annotations

from educatalog.model.schema import FieldType

__all__ = [
    "EMPTY_OPERATORS",
    "EQUALITY_OPERATORS",
    "FLAG_OPERATORS",
    "LIST_OPERATORS",
    "LOGICAL",
    "NULL_OPERATORS",
    "OPERATORS",
    "ORDER_OPERATORS",
    "QUANTIFIERS",
    "RANGE_OPERATORS",
    "TEXT_OPERATORS",
    "allowed_operators",
]

TEXT_OPERATORS = frozenset(
    {
        "_contains",
        "_icontains",
        "_ncontains",
        "_starts_with",
        "_istarts_with",
        "_nstarts_with",
        "_nistarts_with",
        "_ends_with",
        "_iends_with",
        "_nends_with",
        "_niends_with",
    }
)
"""Substring, prefix and suffix tests on text: ``_contains``, ``_starts_with``, ``_ends_with``,
their case-insensitive (``_i``) and negated (``_n``) forms, and ``_ni`` for prefix and suffix."""
EQUALITY_OPERATORS = frozenset({"_eq", "_neq"})
"""Equal and not equal: ``_eq``, ``_neq``."""
LIST_OPERATORS = frozenset({"_in", "_nin"})
"""In and not in a list of values: ``_in``, ``_nin``."""
RANGE_OPERATORS = frozenset({"_between", "_nbetween"})
"""Within and outside an inclusive range of two values: ``_between``, ``_nbetween``."""
ORDER_OPERATORS = frozenset({"_lt", "_lte", "_gt", "_gte"})
"""Comparisons with one value: ``_lt``, ``_lte``, ``_gt``, ``_gte``."""
NULL_OPERATORS = frozenset({"_null", "_nnull"})
"""Null and not null: ``_null``, ``_nnull``."""
EMPTY_OPERATORS = frozenset({"_empty", "_nempty"})
"""Empty and not empty (null or ``""``, and the negation): ``_empty``, ``_nempty``."""
FLAG_OPERATORS = NULL_OPERATORS | EMPTY_OPERATORS
"""The operators whose value is a flag, true or false (false turns the test round), not a value
to compare with: :data:`NULL_OPERATORS` and :data:`EMPTY_OPERATORS`."""

OPERATORS = (
    TEXT_OPERATORS
    | EQUALITY_OPERATORS
    | LIST_OPERATORS
    | RANGE_OPERATORS
    | ORDER_OPERATORS
    | FLAG_OPERATORS
)
"""The spec's 25 field operators: exactly those Directus 12.4 accepts on this catalogue's
field types (``_nicontains``, for one, is not among them)."""

LOGICAL = frozenset({"_and", "_or"})
"""The keys that combine filters: ``_and``, ``_or`` (:class:`~educatalog.query.tree.And`,
:class:`~educatalog.query.tree.Or`)."""
QUANTIFIERS = frozenset({"_some", "_none"})
"""The keys of a filter on the items a one-to-many or many-to-many field points to:
``_some`` (at least one matches) and ``_none`` (none does)."""

_ALLOWED: dict[FieldType, frozenset[str]] = {
    FieldType.STRING: TEXT_OPERATORS
    | EQUALITY_OPERATORS
    | LIST_OPERATORS
    | NULL_OPERATORS
    | EMPTY_OPERATORS,
    FieldType.INTEGER: EQUALITY_OPERATORS
    | ORDER_OPERATORS
    | RANGE_OPERATORS
    | LIST_OPERATORS
    | NULL_OPERATORS,
    FieldType.BOOLEAN: EQUALITY_OPERATORS | NULL_OPERATORS,
}
# PostgreSQL's uuid type: no text operators and no _empty (Directus answers 400 to them).
_ALLOWED[FieldType.UUID] = EQUALITY_OPERATORS | LIST_OPERATORS | NULL_OPERATORS
_ALLOWED[FieldType.DECIMAL] = _ALLOWED[FieldType.INTEGER]
_ALLOWED[FieldType.DATETIME] = _ALLOWED[FieldType.INTEGER]


def allowed_operators(field_type: FieldType) -> frozenset[str]:
    """The operators the service accepts on a field of this type."""
    return _ALLOWED.get(field_type, frozenset())
