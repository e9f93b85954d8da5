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
EQUALITY_OPERATORS = frozenset({"_eq", "_neq"})
LIST_OPERATORS = frozenset({"_in", "_nin"})
RANGE_OPERATORS = frozenset({"_between", "_nbetween"})
ORDER_OPERATORS = frozenset({"_lt", "_lte", "_gt", "_gte"})
NULL_OPERATORS = frozenset({"_null", "_nnull"})
EMPTY_OPERATORS = frozenset({"_empty", "_nempty"})
FLAG_OPERATORS = NULL_OPERATORS | EMPTY_OPERATORS

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
QUANTIFIERS = frozenset({"_some", "_none"})

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
