"""The filter tree (:class:`Condition`, :class:`Related`, :class:`And`, :class:`Or`), its
builder :class:`F`, and its Directus JSON form (:func:`filter_to_json`, :func:`filter_from_json`).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, cast

import orjson

from educatalog.errors import InvalidQuery
from educatalog.query.operators import LOGICAL, OPERATORS, QUANTIFIERS

__all__ = [
    "And",
    "Condition",
    "F",
    "Filter",
    "Or",
    "Related",
    "Scalar",
    "Value",
    "filter_from_json",
    "filter_to_json",
    "shown",
    "walk_conditions",
]

Scalar: TypeAlias = str | int | float | bool | None
"""One value of a condition, as JSON has it: text, number, boolean or null."""
Value: TypeAlias = Scalar | tuple[Scalar, ...]
"""A condition's value: one :data:`Scalar`, or a tuple of them for the list and range operators
(``_in``, ``_nin``, ``_between``, ``_nbetween``)."""
# ---------------------------------------------------------------------------------------
# The filter tree


class _Combinable:
    def __and__(self, other: Filter) -> And:
        return And((*_items(self, And), *_items(other, And)))

    def __or__(self, other: Filter) -> Or:
        return Or((*_items(self, Or), *_items(other, Or)))


def _items(f: object, kind: type[And] | type[Or]) -> tuple[Filter, ...]:
    return f.items if isinstance(f, kind) else (cast(Filter, f),)  # every _Combinable is one


@dataclass(frozen=True)
class Condition(_Combinable):
    """``{field: {operator: value}}`` on a field of the current collection."""

    field: str
    operator: str
    value: Value


@dataclass(frozen=True)
class Related(_Combinable):
    """A filter on the items a relational field points to.

    ``quantifier`` is ``"_some"`` or ``"_none"`` for one-to-many and many-to-many fields
    (``None`` there means ``"_some"``), and ``None`` for many-to-one fields.
    """

    field: str
    filter: Filter
    quantifier: Literal["_some", "_none"] | None = None


@dataclass(frozen=True)
class And(_Combinable):
    """All of ``items`` hold. An empty ``And`` holds for every item."""

    items: tuple[Filter, ...] = ()


@dataclass(frozen=True)
class Or(_Combinable):
    """Any of ``items`` holds. An empty ``Or`` is treated as no condition, as Directus does."""

    items: tuple[Filter, ...] = ()


Filter: TypeAlias = Condition | Related | And | Or
"""A filter: a :class:`Condition`, a :class:`Related` filter, or an :class:`And` or :class:`Or`
of filters."""


class F:
    """Builds filter conditions on a field path, pandas-style.

    >>> F("course.title").icontains("excel")
    Related(field='course', filter=Condition(field='title', operator='_icontains', value='excel'), quantifier=None)
    """  # noqa: E501

    def __init__(self, path: str) -> None:
        if not path or any(not part for part in path.split(".")):
            raise InvalidQuery(f"Invalid field path {path!r} in filter.")
        self.path = path

    def op(self, operator: str, value: Any) -> Filter:
        """The condition ``operator`` with ``value`` on this path."""
        if operator not in OPERATORS:
            raise InvalidQuery(f'Unknown filter operator "{operator}".')
        *relations, name = self.path.split(".")
        node: Filter = Condition(name, operator, _freeze(value))
        for rel in reversed(relations):
            node = Related(rel, node)
        return node

    # Comparisons build conditions, as in pandas: they return filters, not booleans.
    def __eq__(self, value: object) -> Filter:  # type: ignore[override]
        return self.op("_eq", value)

    def __ne__(self, value: object) -> Filter:  # type: ignore[override]
        return self.op("_neq", value)

    def __lt__(self, value: object) -> Filter:
        return self.op("_lt", value)

    def __le__(self, value: object) -> Filter:
        return self.op("_lte", value)

    def __gt__(self, value: object) -> Filter:
        return self.op("_gt", value)

    def __ge__(self, value: object) -> Filter:
        return self.op("_gte", value)

    __hash__ = None  # type: ignore[assignment]  # unhashable, as __eq__ builds filters

    def isin(self, values: Iterable[Scalar]) -> Filter:
        return self.op("_in", tuple(values))

    def notin(self, values: Iterable[Scalar]) -> Filter:
        return self.op("_nin", tuple(values))

    def between(self, low: Scalar, high: Scalar) -> Filter:
        return self.op("_between", (low, high))

    def isnull(self) -> Filter:
        return self.op("_null", True)

    def notnull(self) -> Filter:
        return self.op("_nnull", True)

    def empty(self) -> Filter:
        return self.op("_empty", True)

    def notempty(self) -> Filter:
        return self.op("_nempty", True)

    def contains(self, text: str) -> Filter:
        return self.op("_contains", text)

    def icontains(self, text: str) -> Filter:
        return self.op("_icontains", text)

    def startswith(self, text: str) -> Filter:
        return self.op("_starts_with", text)

    def istartswith(self, text: str) -> Filter:
        return self.op("_istarts_with", text)

    def endswith(self, text: str) -> Filter:
        return self.op("_ends_with", text)

    def iendswith(self, text: str) -> Filter:
        return self.op("_iends_with", text)

    def some(self, condition: Filter) -> Related:
        """Some related item (one-to-many / many-to-many) matches ``condition``."""
        return self._quantified(condition, "_some")

    def none(self, condition: Filter) -> Related:
        """No related item matches ``condition`` (also true with no related items)."""
        return self._quantified(condition, "_none")

    def _quantified(self, condition: Filter, quantifier: Literal["_some", "_none"]) -> Related:
        *relations, name = self.path.split(".")
        node: Related = Related(name, condition, quantifier)
        for rel in reversed(relations):
            node = Related(rel, node)
        return node


def walk_conditions(f: Filter) -> Iterator[Condition]:
    """Every condition of a filter tree, at any depth."""
    if isinstance(f, Condition):
        yield f
    elif isinstance(f, Related):
        yield from walk_conditions(f.filter)
    else:
        for item in f.items:
            yield from walk_conditions(item)


def _freeze(value: Any) -> Value:
    if isinstance(value, list | tuple | set | frozenset):
        return tuple(value)
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%S")
    if isinstance(value, dt.date):
        return value.isoformat()
    return cast(Value, value)  # a plain value: bind() checks it against the field


# ---------------------------------------------------------------------------------------
# Filter <-> JSON


def filter_to_json(f: Filter) -> dict[str, Any]:
    """The Directus JSON object of a filter tree."""
    if isinstance(f, Condition):
        value = list(f.value) if isinstance(f.value, tuple) else f.value
        return {f.field: {f.operator: value}}
    if isinstance(f, Related):
        inner = filter_to_json(f.filter)
        return {f.field: {f.quantifier: inner} if f.quantifier else inner}
    if isinstance(f, And):
        return {"_and": [filter_to_json(i) for i in f.items]}
    return {"_or": [filter_to_json(i) for i in f.items]}


def filter_from_json(obj: Any, where: str = "filter") -> Filter:
    """Parse a Directus filter object (already decoded from JSON) into a filter tree.

    A non-object value of a field is shorthand for ``_eq``; several keys of one object are
    an implicit ``_and``. Values are kept as given: :func:`bind` coerces them.
    """
    if not isinstance(obj, dict):
        raise InvalidQuery(f"Invalid {where}: expected an object, got {shown(obj)}.")
    items = [_parse_key(key, value, where) for key, value in obj.items()]
    return items[0] if len(items) == 1 else And(tuple(items))


def _parse_key(key: str, value: Any, where: str) -> Filter:
    if key in LOGICAL:
        if not isinstance(value, list):
            raise InvalidQuery(f'Invalid {where}: "{key}" must hold an array of filters.')
        items = tuple(filter_from_json(item, f"{where}.{key}[{i}]") for i, item in enumerate(value))
        return And(items) if key == "_and" else Or(items)
    if key.startswith("_"):
        raise InvalidQuery(
            f'Invalid {where}: "{key}" is not a field and cannot stand here '
            "(operators go under a field, _some/_none under a relation)."
        )
    if not isinstance(value, dict):
        return Condition(key, "_eq", _parse_value(value, f"{where}.{key}"))
    if not value:
        raise InvalidQuery(f'Invalid {where}: field "{key}" has an empty condition.')
    operators = [k for k in value if k.startswith("_") and k not in LOGICAL | QUANTIFIERS]
    if operators:
        conditions: list[Filter] = []
        for op in operators:
            if op not in OPERATORS:
                raise InvalidQuery(f'Unknown filter operator "{op}" on field "{key}".')
            conditions.append(Condition(key, op, _parse_value(value[op], f"{where}.{key}.{op}")))
        rest = {k: v for k, v in value.items() if k not in operators}
        if rest:  # `{"course": {"_eq": 1, "title": "x"}}`: both hold (as Directus reads it)
            if any(k in QUANTIFIERS for k in rest):
                raise InvalidQuery(
                    f'Invalid {where}: field "{key}" mixes operators with _some/_none.'
                )
            conditions.append(Related(key, filter_from_json(rest, f"{where}.{key}")))
        return conditions[0] if len(conditions) == 1 else And(tuple(conditions))
    quantifiers = [k for k in value if k in QUANTIFIERS]
    if quantifiers:
        if len(value) != 1:
            raise InvalidQuery(
                f'Invalid {where}: "{quantifiers[0]}" on field "{key}" must be its only key.'
            )
        q = quantifiers[0]
        return Related(key, filter_from_json(value[q], f"{where}.{key}.{q}"), q)
    return Related(key, filter_from_json(value, f"{where}.{key}"))


def _parse_value(value: Any, where: str) -> Value:
    if isinstance(value, list):
        for item in value:
            if isinstance(item, dict | list):
                raise InvalidQuery(f"Invalid value at {where}: lists may only hold plain values.")
        return tuple(value)
    if isinstance(value, dict):
        raise InvalidQuery(f"Invalid value at {where}: expected a plain value, got an object.")
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidQuery(f"Invalid value at {where}: {value} is not a finite number.")
    return cast(Value, value)  # a plain value: bind() checks it against the field


def shown(value: Any, limit: int = 60) -> str:
    """A value as error messages show it: JSON, cut to ``limit`` characters."""
    text = orjson.dumps(value).decode() if not isinstance(value, tuple) else str(list(value))
    return text if len(text) <= limit else text[: limit - 1] + "…"
