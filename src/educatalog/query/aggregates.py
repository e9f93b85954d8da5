"""Counting and summing on the service: ``aggregate`` and ``groupBy``, as Directus reads
them, bound to a collection (:func:`bind_aggregate`).

``aggregate[count]=*&groupBy[]=instruction_form`` asks for one row per instruction form
with its number of items; ``aggregate[sum]=max_participants`` for one row with the sum.
The functions are Directus's: ``count`` (``*`` or a field: its non-null values),
``countDistinct``, ``sum``, ``sumDistinct``, ``avg``, ``avgDistinct``, ``min`` and
``max``, each on stored fields of the collection (never a relation's path).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from educatalog.errors import InvalidQuery
from educatalog.model.schema import Collection, Field, FieldType
from educatalog.query.functions import field_of

__all__ = [
    "AGGREGATE_FUNCTIONS",
    "Aggregate",
    "AggregateKey",
    "bind_aggregate",
    "normalise_aggregate",
    "parse_aggregate",
]

AGGREGATE_FUNCTIONS = (
    "count",
    "countDistinct",
    "sum",
    "sumDistinct",
    "avg",
    "avgDistinct",
    "min",
    "max",
)
"""The aggregate functions of Directus 12.4's REST API (``countAll`` answers nothing there)."""

_NUMERIC = frozenset({FieldType.INTEGER, FieldType.DECIMAL})
_ORDERED = _NUMERIC | {FieldType.STRING, FieldType.DATETIME}
_TAKES: dict[str, frozenset[FieldType]] = {
    "sum": _NUMERIC,
    "sumDistinct": _NUMERIC,
    "avg": _NUMERIC,
    "avgDistinct": _NUMERIC,
    "min": _ORDERED,
    "max": _ORDERED,
}
"""The field types a function takes (counts take every stored field, and ``*``)."""


def normalise_aggregate(value: Any) -> dict[str, tuple[str, ...]]:
    """``aggregate`` as function -> fields: from a mapping whose values are comma lists or
    lists of fields (the JSON and bracket forms of the query string, or Python)."""
    if not isinstance(value, Mapping):
        raise InvalidQuery(
            f'Invalid aggregate: expected an object such as {{"count": "*"}}, got {value!r:.80}.'
        )
    out: dict[str, tuple[str, ...]] = {}
    for function, fields in value.items():
        if isinstance(fields, str):
            out[str(function)] = tuple(f.strip() for f in fields.split(","))
        elif isinstance(fields, Iterable) and not isinstance(fields, Mapping | bytes):
            out[str(function)] = tuple(str(f).strip() for f in fields)
        else:
            raise InvalidQuery(
                f'Invalid aggregate[{function}]: give a field, "*" or a list of fields.'
            )
    return out


def parse_aggregate(plain: list[str], brackets: Any) -> dict[str, tuple[str, ...]] | None:
    """``aggregate`` from the query string: the JSON form (``plain``) or the object the
    bracket form describes (``aggregate[count]=*``)."""
    if plain:
        if len(plain) > 1:
            raise InvalidQuery('"aggregate" given more than once.')
        try:
            return normalise_aggregate(orjson.loads(plain[0]))
        except orjson.JSONDecodeError:
            raise InvalidQuery(
                'Invalid JSON for the aggregate object (such as {"count": "*"}).'
            ) from None
    return None if brackets is None else normalise_aggregate(brackets)


@dataclass(frozen=True)
class AggregateKey:
    """A key of an aggregate row to sort by: a grouped field (``function`` None) or a
    function's value (``field`` ``*`` for ``count=*``)."""

    field: str
    function: str | None = None
    descending: bool = False


@dataclass(frozen=True)
class Aggregate:
    """``aggregate`` and ``groupBy`` bound to a collection: the functions in the order
    asked (``(function, field)``, field ``*`` for all rows), the grouped fields and the
    order of the groups."""

    functions: tuple[tuple[str, str], ...]
    group_by: tuple[str, ...]
    sort: tuple[AggregateKey, ...]


def bind_aggregate(
    aggregate: Mapping[str, Sequence[str]] | None,
    group_by: Sequence[str] | None,
    sort: Sequence[str] | None,
    coll: Collection,
) -> Aggregate:
    """Validate ``aggregate``, ``groupBy`` and ``sort`` against ``coll``, as Directus reads
    them: without ``groupBy`` the answer is one row and ``sort`` is ignored; with it, the
    groups are sorted by ``sort`` (grouped fields, ``count`` or ``function.field``),
    by default by the first grouped field."""
    functions: list[tuple[str, str]] = []
    for function, fields in (aggregate or {}).items():
        if function not in AGGREGATE_FUNCTIONS:
            raise InvalidQuery(
                f'Unknown aggregate function "{function}"; use one of '
                f"{', '.join(AGGREGATE_FUNCTIONS)}."
            )
        for name in fields:
            _check_function(function, name, coll)
            functions.append((function, name))
    groups = tuple(dict.fromkeys(group_by or ()))
    for name in groups:
        _stored(coll, name, "groupBy")
    keys: tuple[AggregateKey, ...] = ()
    if groups:
        keys = tuple(_sort_key(key, groups, functions, coll) for key in (sort or (groups[0],)))
    return Aggregate(tuple(functions), groups, keys)


def _stored(coll: Collection, name: str, where: str) -> Field:
    """The stored field ``name`` of ``coll`` (unknown: 403; a path or a list: 400)."""
    if "." in name:
        raise InvalidQuery(
            f'{where} takes fields of "{coll.name}" itself, not a relation\'s path ("{name}").'
        )
    f = field_of(coll, name)
    if not f.is_stored:
        raise InvalidQuery(
            f'{where} cannot take "{name}" of "{coll.name}": it is a list of related items.'
        )
    return f


def _check_function(function: str, name: str, coll: Collection) -> None:
    where = f"aggregate[{function}]"
    if name == "*":
        if function in ("count", "countDistinct"):
            return
        raise InvalidQuery(f'{where} takes a field, not "*" (only counts take "*").')
    f = _stored(coll, name, where)
    takes = _TAKES.get(function)
    if takes is not None and f.type not in takes:
        kinds = ", ".join(sorted(str(t) for t in takes))
        raise InvalidQuery(
            f'{where} cannot take "{name}" of "{coll.name}" (type {f.type}): it takes {kinds}.'
        )


def _sort_key(
    key: str, groups: tuple[str, ...], functions: list[tuple[str, str]], coll: Collection
) -> AggregateKey:
    descending = key.startswith("-")
    name = key[1:] if descending else key
    if name in groups:
        return AggregateKey(name, None, descending)
    function, _, field = name.partition(".")
    field = field or "*"
    if (function, field) in functions:
        return AggregateKey(field, function, descending)
    field_of(coll, name.partition(".")[0])  # an unknown field is a 403, as for every sort
    raise InvalidQuery(
        f'Cannot sort the groups by "{key}": sort by a grouped field '
        f"({', '.join(groups)}) or an aggregate asked for (such as count or sum.<field>)."
    )
