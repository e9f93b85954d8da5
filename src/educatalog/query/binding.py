"""Binding a :class:`~educatalog.query.Query` to a collection of the catalogue: validation,
coercion of filter values to the fields' types, and the service's defaults (:func:`bind`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeAlias

from educatalog.errors import InvalidQuery
from educatalog.model.schema import SCHEMA, Collection, Field, Relation, Schema
from educatalog.query.aggregates import Aggregate, bind_aggregate
from educatalog.query.functions import field_of
from educatalog.query.limits import (
    DEFAULT_LIMIT,
    MAX_FIELD_NODES,
    MAX_FILTER_NODES,
    MAX_INTEGER,
    MAX_LOGICAL_DEPTH,
    MAX_RELATIONAL_DEPTH,
    MAX_SORT_KEYS,
)
from educatalog.query.operators import allowed_operators
from educatalog.query.strings import Query
from educatalog.query.tree import And, Condition, Filter, Or, Related
from educatalog.query.values import coerce

__all__ = [
    "BoundQuery",
    "Expanded",
    "FieldTree",
    "SortKey",
    "bind",
    "bind_fields",
    "bind_filter",
    "expanded_relations",
    "filter_depth",
    "list_relations",
]

FieldTree: TypeAlias = dict[str, "FieldTree | None"]
"""Selected fields: name -> None (the value as stored) or the sub-selection of an expansion."""


@dataclass(frozen=True)
class SortKey:
    """One sort key: a path of many-to-one fields ending on a field, and the direction."""

    path: tuple[str, ...]
    descending: bool = False


@dataclass(frozen=True)
class BoundQuery:
    """A query validated against one collection, values coerced, defaults applied."""

    collection: Collection
    fields: FieldTree
    filter: Filter | None
    sort: tuple[SortKey, ...]
    random: bool
    search: str | None
    limit: int | None  # None: every row
    offset: int
    meta: tuple[str, ...]
    deep: Mapping[str, Any]
    aggregate: Aggregate | None = None  # aggregate/groupBy: groups instead of items


def bind(
    query: Query,
    collection: str,
    *,
    schema: Schema = SCHEMA,
    limit_max: int | None = None,
    now: dt.datetime | None = None,
) -> BoundQuery:
    """Validate ``query`` against ``collection`` and apply the service's defaults.

    ``limit_max`` is the service's configured maximum page size: it replaces ``limit=-1``
    and rejects larger limits. ``now`` is the server's clock for ``$NOW`` in filters
    (default: the current local time, as Directus takes it).
    """
    coll = schema[collection]
    limit: int | None
    if query.limit is None:
        limit = DEFAULT_LIMIT if limit_max is None else min(DEFAULT_LIMIT, limit_max)
    elif query.limit == -1:
        limit = limit_max
    elif limit_max is not None and query.limit > limit_max:
        raise InvalidQuery(
            f'"limit" may be at most {limit_max} on this service, got {query.limit}.'
        )
    else:
        limit = query.limit
    offset = query.offset or 0
    if query.page and limit is not None and query.limit != -1:
        offset = limit * (query.page - 1)
        if offset > MAX_INTEGER:
            raise InvalidQuery(f'"page" {query.page} is beyond the last possible item.')
    if query.search is not None and "\x00" in query.search:
        raise InvalidQuery("The search text contains a NUL character.")
    bound_filter = None
    if query.filter is not None:
        bound_filter = bind_filter(query.filter, coll, schema, now=now)
    if query.aggregate or query.group_by:  # groups: fields and deep do not apply
        return BoundQuery(
            collection=coll,
            fields={},
            filter=bound_filter,
            sort=(),
            random=False,
            search=query.search,
            limit=limit,
            offset=offset,
            meta=query.meta or (),
            deep={},
            aggregate=bind_aggregate(query.aggregate, query.group_by, query.sort, coll),
        )
    sort, random = _bind_sort(query.sort or (), coll, schema)
    return BoundQuery(
        collection=coll,
        fields=bind_fields(query.fields or ("*",), coll, schema, backlink=query.backlink),
        filter=bound_filter,
        sort=sort,
        random=random,
        search=query.search,
        limit=limit,
        offset=offset,
        meta=query.meta or (),
        deep=_bind_deep(query.deep or {}, coll, schema, "deep"),
    )


def bind_fields(
    paths: Sequence[str],
    coll: Collection,
    schema: Schema = SCHEMA,
    *,
    backlink: bool | None = None,
) -> FieldTree:
    """Resolve ``fields`` paths (``*``, ``rel.*``, ``*.*``, ``a.b.c``) into a field tree.

    A path has at most ``MAX_RELATIONAL_DEPTH`` parts. ``backlink=False``: a ``*.x``
    expansion leaves the relation it came through unexpanded (as Directus does).
    """
    tree: FieldTree = {}
    walk = _FieldWalk(schema, [MAX_FIELD_NODES], backlink is not False)
    for path in paths:
        parts = path.split(".")
        if len(parts) > MAX_RELATIONAL_DEPTH:
            raise InvalidQuery(
                f'Max relational depth exceeded: "{path[:80]}" has {len(parts)} parts, '
                f"at most {MAX_RELATIONAL_DEPTH}."
            )
        _add_path(tree, coll, parts, path, walk, None)
    return tree


@dataclass
class _FieldWalk:
    """What every step of resolving ``fields`` shares: the catalogue, the remaining budget
    of fields and whether wildcards expand back the way they came (``backlink``)."""

    schema: Schema
    budget: list[int]
    backlink: bool


def _is_backlink(came: tuple[Collection, Field] | None, coll: Collection, f: Field) -> bool:
    """Whether ``f`` of ``coll`` is the relation the walk came through from ``came``
    (the parent collection and its field), seen from the other side."""
    if came is None or f.relation is None:
        return False
    parent, via = came
    assert via.relation is not None
    if via.relation.kind == "m2o":  # came along a many-to-one: f is its one-to-many side
        return (
            f.relation.is_list
            and f.relation.related == parent.name
            and (f.relation.foreign_key == via.name)
        )
    return f.relation.kind == "m2o" and f.name == via.relation.foreign_key


def _add_path(
    tree: FieldTree,
    coll: Collection,
    parts: list[str],
    path: str,
    walk: _FieldWalk,
    came: tuple[Collection, Field] | None,
) -> None:
    head, rest = parts[0], parts[1:]
    budget, schema = walk.budget, walk.schema
    if head == "*":
        targets = list(coll.fields)
        if rest:  # `*.x` selects every field, and applies `x` to each relation
            back = [] if walk.backlink else [f for f in targets if _is_backlink(came, coll, f)]
            for f in coll.fields:
                if f.relation is None or f in back:
                    _add_leaf(tree, f.name, budget)
            targets = [f for f in targets if f.relation is not None and f not in back]
    else:
        if not head:
            raise InvalidQuery(f'Invalid field path "{path}".')
        f = field_of(coll, head)
        if rest and f.relation is None:
            raise InvalidQuery(
                f'Field "{head}" of collection "{coll.name}" is not a relation, '
                f'so "{path}" cannot be selected.'
            )
        targets = [f]
    for f in targets:
        if not rest:
            _add_leaf(tree, f.name, budget)
            continue
        sub = tree.get(f.name)
        if sub is None:
            _add_leaf(tree, f.name, budget)
            sub = tree[f.name] = {}
        _add_path(sub, schema.expansion_target(f), rest, path, walk, (coll, f))


def _add_leaf(tree: FieldTree, name: str, budget: list[int]) -> None:
    if name in tree:
        return
    budget[0] -= 1
    if budget[0] < 0:
        raise InvalidQuery(
            f"The fields select more than {MAX_FIELD_NODES} fields across relations; "
            "name the relations and fields needed instead of nesting *."
        )
    tree[name] = None


class Expanded(NamedTuple):
    """A relation that a selection writes as objects (:func:`expanded_relations`)."""

    name: str
    relation: Relation
    target: Collection  # the collection it expands into
    tree: FieldTree  # what is selected there
    deep: Mapping[str, Any]  # its part of ``deep``


def expanded_relations(
    tree: FieldTree, coll: Collection, deep: Mapping[str, Any], schema: Schema = SCHEMA
) -> Iterator[Expanded]:
    """The relations of ``coll`` that ``tree`` writes as objects (a list of ids is not one)."""
    for name, sub in tree.items():
        f = coll.field(name)
        if f.relation is not None and sub is not None:
            yield Expanded(name, f.relation, schema.expansion_target(f), sub, deep.get(name, {}))


def list_relations(tree: FieldTree, coll: Collection, schema: Schema = SCHEMA) -> dict[str, Any]:
    """``deep`` that lifts the nested cap (``_limit: -1``) on every list relation in ``tree``."""
    deep: dict[str, Any] = {}
    for name, sub in tree.items():
        f = coll.field(name)
        if f.relation is None:
            continue
        inner = {} if sub is None else list_relations(sub, schema.expansion_target(f), schema)
        if f.relation.is_list:
            inner["_limit"] = -1
        if inner:
            deep[name] = inner
    return deep


def _bind_sort(
    keys: Sequence[str], coll: Collection, schema: Schema
) -> tuple[tuple[SortKey, ...], bool]:
    out = []
    random = False
    keys = list(dict.fromkeys(keys))  # a repeated key adds nothing
    if len(keys) > MAX_SORT_KEYS:
        raise InvalidQuery(f"At most {MAX_SORT_KEYS} sort fields, got {len(keys)}.")
    for key in keys:
        if key == "?":
            random = True
            continue
        descending = key.startswith("-")
        parts = (key[1:] if descending else key).split(".")
        if len(parts) > MAX_RELATIONAL_DEPTH:
            raise InvalidQuery(f'Max relational depth exceeded in sort "{key[:80]}".')
        current = coll
        for i, part in enumerate(parts):
            if not part:
                raise InvalidQuery(f'Invalid sort field "{key}".')
            f = field_of(current, part)
            if i < len(parts) - 1:
                if not f.is_many_to_one:
                    raise InvalidQuery(
                        f'Cannot sort by "{key}": "{part}" of collection "{current.name}" is '
                        "not a many-to-one relation."
                    )
                current = schema.expansion_target(f)
            elif not f.is_stored:
                raise InvalidQuery(
                    f'Cannot sort by "{key}": "{part}" of collection "{current.name}" is a list.'
                )
        out.append(SortKey(tuple(parts), descending))
    return tuple(out), random


def _bind_deep(
    deep: Mapping[str, Any], coll: Collection, schema: Schema, where: str
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if where.count(".") > MAX_RELATIONAL_DEPTH:
        raise InvalidQuery(f"Max relational depth exceeded in {where[:80]}.")
    for key, value in deep.items():
        if key.startswith("_"):
            out[key] = value
            continue
        f = field_of(coll, key)
        if f.relation is None:
            raise InvalidQuery(f'Invalid {where}: "{key}" of "{coll.name}" is not a relation.')
        out[key] = _bind_deep(value, schema.expansion_target(f), schema, f"{where}.{key}")
    return out


def bind_filter(
    f: Filter,
    coll: Collection,
    schema: Schema = SCHEMA,
    *,
    now: dt.datetime | None = None,
) -> Filter:
    """Validate a filter against ``coll`` and coerce its values to the fields' types.

    Filters are bounded: at most ``MAX_FILTER_NODES`` conditions and groups,
    ``MAX_LOGICAL_DEPTH`` nested ``_and``/``_or`` and ``MAX_RELATIONAL_DEPTH`` fields on
    a path (the relations it crosses and the field at its end, as Directus counts).
    ``$NOW`` and ``$NOW(<offset>)`` on datetime fields become ``now`` (default: the
    current local time) moved by the offset.
    """
    depth = filter_depth(f)
    if depth > MAX_RELATIONAL_DEPTH:
        raise InvalidQuery(
            f"Max relational depth exceeded: the filter has a path of {depth} fields "
            f"(the relations it crosses and the field at its end), at most "
            f"{MAX_RELATIONAL_DEPTH}."
        )
    binder = _Binder(schema, now or dt.datetime.now())
    return binder.bind(f, coll, 0)


def filter_depth(f: Filter) -> int:
    """The most fields on a path of ``f`` (relations crossed and the field at the end), as
    Directus counts a filter's depth; logical groups and quantifiers add nothing."""
    if isinstance(f, And | Or):
        return max((filter_depth(item) for item in f.items), default=0)
    if isinstance(f, Related):
        return 1 + filter_depth(f.filter)
    return 1


class _Binder:
    """One filter's binding: the catalogue, the clock and the remaining node budget."""

    def __init__(self, schema: Schema, now: dt.datetime) -> None:
        self.schema = schema
        self.now = now
        self.budget = MAX_FILTER_NODES

    def bind(self, f: Filter, coll: Collection, logic: int) -> Filter:
        self.budget -= 1
        if self.budget < 0:
            raise InvalidQuery(
                f"The filter has more than {MAX_FILTER_NODES} conditions and groups."
            )
        return _bind_filter(self, f, coll, logic)


def _bind_filter(b: _Binder, f: Filter, coll: Collection, logic: int) -> Filter:
    schema = b.schema
    if isinstance(f, And | Or):
        if logic >= MAX_LOGICAL_DEPTH:
            raise InvalidQuery(
                f"The filter nests _and/_or more than {MAX_LOGICAL_DEPTH} levels deep."
            )
        items = tuple(b.bind(i, coll, logic + 1) for i in f.items)
        return And(items) if isinstance(f, And) else Or(items)
    fld = field_of(coll, f.field)
    if isinstance(f, Condition) and fld.relation is not None and fld.relation.is_list:
        # An operator on a one-to-many or many-to-many field applies to the related items'
        # ids (the junction's for many-to-many), as in Directus.
        f = Related(f.field, Condition("id", f.operator, f.value))
    if isinstance(f, Related):
        if fld.relation is None:
            raise InvalidQuery(
                f'Field "{f.field}" of collection "{coll.name}" is not a relation; '
                "give it an operator such as _eq."
            )
        if f.quantifier and not fld.relation.is_list:
            raise InvalidQuery(
                f'"{f.quantifier}" applies to one-to-many and many-to-many fields; '
                f'"{f.field}" of "{coll.name}" is many-to-one.'
            )
        target = schema.expansion_target(fld)
        sub = b.bind(f.filter, target, logic)
        return Related(f.field, sub, f.quantifier)
    if f.operator not in allowed_operators(fld.type):
        raise InvalidQuery(
            f'Operator "{f.operator}" is not allowed on field "{f.field}" of collection '
            f'"{coll.name}" (type {fld.type}).'
        )
    value = coerce(f.operator, f.value, fld.type, coll, f.field, b.now)
    return Condition(f.field, f.operator, value)
