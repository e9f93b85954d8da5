"""The query language of the service, as values: one grammar for the client and the server.

A :class:`Query` holds ``fields``, ``filter``, ``sort``, ``search``, ``limit``, ``offset``,
``page``, ``meta`` and ``deep``. The client builds one and sends ``query.to_params()``; the
server parses the query string with :meth:`Query.from_params` and validates it against the
catalogue with :func:`bind`, which coerces filter values to the fields' types and raises
:class:`~educatalog.errors.InvalidQuery` (400) or
:class:`~educatalog.errors.NotFoundOrForbidden` (403) naming the collection, field, operator
and value at fault.

Filters are trees of :class:`Condition`, :class:`Related`, :class:`And` and :class:`Or`,
written by hand or with :class:`F`:

>>> f = (F("address.state") == 9) & (F("event_start_date") >= "2025-01-01")
>>> Query(filter=f, limit=10).to_params()["filter"]
'{"_and":[{"address":{"state":{"_eq":9}}},{"event_start_date":{"_gte":"2025-01-01"}}]}'
"""

from __future__ import annotations

import datetime as dt
import math
import re
import unicodedata
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeAlias

import orjson

from educatalog.catalogue import CATALOGUE, Collection, FieldType, Schema
from educatalog.errors import InvalidQuery

__all__ = [
    "OPERATORS",
    "And",
    "BoundQuery",
    "Condition",
    "F",
    "FieldTree",
    "Filter",
    "Or",
    "Query",
    "Related",
    "SortKey",
    "bind",
    "filter_from_json",
    "filter_to_json",
    "list_relations",
    "walk_conditions",
]

Scalar: TypeAlias = str | int | float | bool | None
Value: TypeAlias = Scalar | tuple[Scalar, ...]

# ---------------------------------------------------------------------------------------
# Operators

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


# ---------------------------------------------------------------------------------------
# The filter tree


class _Combinable:
    def __and__(self, other: Filter) -> And:
        return And((*_items(self, And), *_items(other, And)))

    def __or__(self, other: Filter) -> Or:
        return Or((*_items(self, Or), *_items(other, Or)))


def _items(f: object, kind: type[And] | type[Or]) -> tuple[Filter, ...]:
    return f.items if isinstance(f, kind) else (f,)  # type: ignore[return-value]


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

    __hash__ = None  # type: ignore[assignment]

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
    return value  # type: ignore[no-any-return]


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
        raise InvalidQuery(f"Invalid {where}: expected an object, got {_show(obj)}.")
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
        return Related(key, filter_from_json(value[q], f"{where}.{key}.{q}"), q)  # type: ignore[arg-type]
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
    return value  # type: ignore[no-any-return]


def _show(value: Any, limit: int = 60) -> str:
    text = orjson.dumps(value).decode() if not isinstance(value, tuple) else str(list(value))
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------------------------------
# Query-string parameters: JSON and bracket forms

_BRACKET = re.compile(r"\[([^\[\]]*)\]")


_INDEXED = re.compile(r"([a-z_]+)\[[0-9]{1,6}\]")  # qs's indexed arrays: fields[0]=id


def _bracket_path(key: str, base: str) -> list[str] | None:
    """``filter[a][_in][]`` -> ``["a", "_in", ""]``; None when ``key`` is not of that form."""
    if not key.startswith(base + "["):
        return None
    rest = key[len(base) :]
    parts = _BRACKET.findall(rest)
    if "".join(f"[{p}]" for p in parts) != rest:
        raise InvalidQuery(f'Invalid query parameter "{key}".')
    return parts


def _nest(pairs: list[tuple[list[str], str]], base: str) -> Any:
    """Build the object that bracket-form parameters describe (as the ``qs`` library does)."""
    root: dict[str, Any] = {}
    for path, value in pairs:
        node: dict[str, Any] = root
        for i, part in enumerate(path):
            last = i == len(path) - 1
            if part == "":  # `a[]=x`: append
                if not last:
                    raise InvalidQuery(f'Invalid query parameter "{base}[...]": "[]" must be last.')
                node.setdefault("", []).append(value)
                break
            if last:
                if part in node:
                    raise InvalidQuery(
                        f'"{base}[{"][".join(path)}]" is given more than once or conflicts '
                        "with another parameter."
                    )
                node[part] = value
            else:
                child = node.setdefault(part, {})
                if not isinstance(child, dict):
                    raise InvalidQuery(f'Conflicting query parameters under "{base}[{part}]".')
                node = child
    return _listify(root)


def _listify(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    if set(node) == {""}:
        return list(node[""])
    out = {k: _listify(v) for k, v in node.items()}
    if out and all(k.isdigit() for k in out):
        return [out[k] for k in sorted(out, key=_index)]
    return out


def _index(key: str) -> tuple[int, str]:
    """The order of a bracket index: by its number (any length, any decimal digits)."""
    digits = "".join(str(unicodedata.digit(ch, 0)) for ch in key).lstrip("0")
    return len(digits), digits


def _json_or_brackets(items: list[tuple[str, str]], name: str) -> Any:
    plain = [v for k, v in items if k == name and v != ""]  # empty: not given, as in Directus
    brackets = [(p, v) for k, v in items if (p := _bracket_path(k, name)) is not None]
    if plain and brackets:
        raise InvalidQuery(f'"{name}" given both as JSON and in bracket form.')
    if len(plain) > 1:
        raise InvalidQuery(f'"{name}" given more than once.')
    if plain:
        try:
            return orjson.loads(plain[0])
        except orjson.JSONDecodeError:
            raise InvalidQuery(f"Invalid JSON for {name} object.") from None
    if brackets:
        return _nest(brackets, name)
    return None


def _split_list(items: list[tuple[str, str]], name: str) -> tuple[str, ...] | None:
    """A comma list, from ``name=a,b``, ``name[]=a`` or ``name[0]=a`` entries.

    An empty ``name=`` is not given; an empty entry in a list (``fields=id,``) is a 400,
    as Directus answers.
    """
    values = [
        v
        for k, v in items
        if (k == name and v != "")
        or k == f"{name}[]"
        or ((m := _INDEXED.fullmatch(k)) is not None and m[1] == name)
    ]
    if not values:
        return None
    parts = tuple(part.strip() for v in values for part in v.split(","))
    for i, part in enumerate(parts):
        if not part:
            raise InvalidQuery(f'"{name}[{i}]" is not allowed to be empty.')
    return parts


def _single(items: list[tuple[str, str]], name: str) -> str | None:
    values = [v for k, v in items if k == name]
    if len(values) > 1:
        raise InvalidQuery(f'"{name}" given more than once.')
    return values[0] if values else None


def _integer(text: str | None, name: str, minimum: int) -> int | None:
    if text is None:
        return None
    text = text.strip()
    if not re.fullmatch(r"-?[0-9]{1,19}", text) or not minimum <= int(text) <= MAX_INTEGER:
        raise InvalidQuery(
            f'"{name}" must be an integer from {minimum} to {MAX_INTEGER}, got {text[:40]!r}.'
        )
    return int(text)


MAX_INTEGER = 2**63 - 1
"""The largest integer SQL databases store (64-bit signed)."""


META_VALUES = ("total_count", "filter_count")


def _parse_meta(values: tuple[str, ...] | None) -> tuple[str, ...] | None:
    if values is None:
        return None
    chosen: set[str] = set()
    for v in values:
        if v == "*":
            chosen.update(META_VALUES)
        elif v in META_VALUES:
            chosen.add(v)
        else:
            raise InvalidQuery(f'Invalid meta value "{v}": use total_count, filter_count or *.')
    return tuple(m for m in META_VALUES if m in chosen) or None


DEEP_KEYS = frozenset({"_limit"})


def _check_deep(obj: Any, where: str = "deep") -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise InvalidQuery(f"Invalid {where}: expected an object, got {_show(obj)}.")
    out: dict[str, Any] = {}
    for key, value in obj.items():
        if key.startswith("_"):
            if key not in DEEP_KEYS:
                raise InvalidQuery(
                    f'Unsupported deep parameter "{key}" at {where}: only _limit is supported.'
                )
            limit = _integer(str(value), f"{where}.{key}", -1)
            out[key] = limit
        else:
            out[key] = _check_deep(value, f"{where}.{key}")
    return out


# ---------------------------------------------------------------------------------------
# The query


@dataclass(frozen=True)
class Query:
    """A list or retrieve query, as the service's query string describes it.

    ``None`` means "not given" (the service's default applies). ``deep`` maps relational
    field names to ``{"_limit": n}`` and nested relations, as in Directus.
    """

    fields: tuple[str, ...] | None = None
    filter: Filter | None = None
    sort: tuple[str, ...] | None = None
    search: str | None = None
    limit: int | None = None
    offset: int | None = None
    page: int | None = None
    meta: tuple[str, ...] | None = None
    deep: Mapping[str, Any] | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        for name in ("fields", "sort"):
            value = getattr(self, name)
            if isinstance(value, str):
                value = tuple(p.strip() for p in value.split(",") if p.strip())
            elif value is not None:
                value = tuple(value)
            object.__setattr__(self, name, value)
        if isinstance(self.meta, str):
            object.__setattr__(self, "meta", _parse_meta(tuple(self.meta.split(","))))
        elif self.meta is not None:
            object.__setattr__(self, "meta", _parse_meta(tuple(self.meta)))
        if self.search == "":
            object.__setattr__(self, "search", None)
        for name, minimum in (("limit", -1), ("offset", 0), ("page", 0)):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not minimum <= value <= MAX_INTEGER
            ):
                raise InvalidQuery(f'"{name}" must be an integer from {minimum} to {MAX_INTEGER}.')
        if self.filter is not None and not isinstance(self.filter, Condition | Related | And | Or):
            object.__setattr__(self, "filter", filter_from_json(self.filter))
        if self.deep is not None:
            object.__setattr__(self, "deep", _check_deep(dict(self.deep)))

    @classmethod
    def from_params(cls, params: Mapping[str, str] | Iterable[tuple[str, str]]) -> Query:
        """Parse query-string parameters (a mapping or ``(key, value)`` pairs).

        ``filter`` and ``deep`` may be JSON or bracket form (``filter[a][_eq]=1``); ``fields``,
        ``sort`` and ``meta`` comma lists or repeated ``name[]=`` entries. Unknown parameters
        are ignored, as the service does.
        """
        try:
            return cls._from_params(params)
        except RecursionError:
            raise InvalidQuery("The query is nested too deeply.") from None

    @classmethod
    def _from_params(cls, params: Mapping[str, str] | Iterable[tuple[str, str]]) -> Query:
        items = list(params.items()) if isinstance(params, Mapping) else list(params)
        raw_filter = _json_or_brackets(items, "filter")
        raw_deep = _json_or_brackets(items, "deep")
        search = _single(items, "search")
        return cls(
            fields=_split_list(items, "fields"),
            filter=None if raw_filter is None else filter_from_json(raw_filter),
            sort=_split_list(items, "sort"),
            search=search or None,
            limit=_integer(_single(items, "limit"), "limit", -1),
            offset=_integer(_single(items, "offset"), "offset", 0),
            page=_integer(_single(items, "page"), "page", 0),
            meta=_parse_meta(_split_list(items, "meta")),
            deep=None if raw_deep is None else _check_deep(raw_deep),
        )

    def to_params(self) -> dict[str, str]:
        """The query-string parameters of this query (JSON form for filter and deep)."""
        out: dict[str, str] = {}
        if self.fields is not None:
            out["fields"] = ",".join(self.fields)
        if self.filter is not None:
            out["filter"] = orjson.dumps(filter_to_json(self.filter)).decode()
        if self.sort is not None:
            out["sort"] = ",".join(self.sort)
        if self.search is not None:
            out["search"] = self.search
        for name in ("limit", "offset", "page"):
            value = getattr(self, name)
            if value is not None:
                out[name] = str(value)
        if self.meta is not None:
            out["meta"] = ",".join(self.meta)
        if self.deep is not None:
            out["deep"] = orjson.dumps(self.deep).decode()
        return out

    def replace(self, **changes: Any) -> Query:
        """A copy with some parts changed, e.g. ``q.replace(limit=500)``."""
        return replace(self, **changes)


# ---------------------------------------------------------------------------------------
# Binding a query to a collection: validation and coercion

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


DEFAULT_LIMIT = 100
NESTED_LIMIT = 100
MAX_RELATIONAL_DEPTH = 10
"""Relations a path may cross in fields, filter, sort and deep (Directus's default)."""
MAX_FIELD_NODES = 1_000
"""Fields a ``fields`` selection may expand to (``*.*.*`` grows fast)."""
MAX_FILTER_NODES = 1_000
MAX_LOGICAL_DEPTH = 30
MAX_SORT_KEYS = 20


def bind(
    query: Query,
    collection: str,
    *,
    catalogue: Schema = CATALOGUE,
    limit_max: int | None = None,
    now: dt.datetime | None = None,
) -> BoundQuery:
    """Validate ``query`` against ``collection`` and apply the service's defaults.

    ``limit_max`` is the service's configured maximum page size: it replaces ``limit=-1``
    and rejects larger limits. ``now`` is the server's clock for ``$NOW`` in filters
    (default: the current local time, as Directus takes it).
    """
    coll = catalogue[collection]
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
    sort, random = _bind_sort(query.sort or (), coll, catalogue)
    if query.search is not None and "\x00" in query.search:
        raise InvalidQuery("The search text contains a NUL character.")
    return BoundQuery(
        collection=coll,
        fields=bind_fields(query.fields or ("*",), coll, catalogue),
        filter=None
        if query.filter is None
        else bind_filter(query.filter, coll, catalogue, now=now),
        sort=sort,
        random=random,
        search=query.search,
        limit=limit,
        offset=offset,
        meta=query.meta or (),
        deep=_bind_deep(query.deep or {}, coll, catalogue, "deep"),
    )


def bind_fields(paths: Sequence[str], coll: Collection, catalogue: Schema) -> FieldTree:
    """Resolve ``fields`` paths (``*``, ``rel.*``, ``*.*``, ``a.b.c``) into a field tree."""
    tree: FieldTree = {}
    budget = [MAX_FIELD_NODES]
    for path in paths:
        parts = path.split(".")
        if len(parts) - 1 > MAX_RELATIONAL_DEPTH:
            raise InvalidQuery(
                f'Max relational depth exceeded: "{path[:80]}" crosses {len(parts) - 1} '
                f"relations, at most {MAX_RELATIONAL_DEPTH}."
            )
        _add_path(tree, coll, parts, path, catalogue, budget)
    return tree


def _add_path(
    tree: FieldTree,
    coll: Collection,
    parts: list[str],
    path: str,
    catalogue: Schema,
    budget: list[int],
) -> None:
    head, rest = parts[0], parts[1:]
    if head == "*":
        targets = list(coll.fields)
        if rest:  # `*.x` selects every field, and applies `x` to each relation
            for f in coll.fields:
                if f.relation is None:
                    _add_leaf(tree, f.name, budget)
            targets = [f for f in targets if f.relation is not None]
    else:
        if not head:
            raise InvalidQuery(f'Invalid field path "{path}".')
        f = coll.field(head)
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
        _add_path(sub, catalogue.expansion_target(f), rest, path, catalogue, budget)


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


def list_relations(
    tree: FieldTree, coll: Collection, catalogue: Schema = CATALOGUE
) -> dict[str, Any]:
    """``deep`` that lifts the nested cap (``_limit: -1``) on every list relation in ``tree``."""
    deep: dict[str, Any] = {}
    for name, sub in tree.items():
        f = coll.field(name)
        if f.relation is None:
            continue
        inner = {} if sub is None else list_relations(sub, catalogue.expansion_target(f), catalogue)
        if f.relation.is_list:
            inner["_limit"] = -1
        if inner:
            deep[name] = inner
    return deep


def _bind_sort(
    keys: Sequence[str], coll: Collection, catalogue: Schema
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
        if len(parts) - 1 > MAX_RELATIONAL_DEPTH:
            raise InvalidQuery(f'Max relational depth exceeded in sort "{key[:80]}".')
        current = coll
        for i, part in enumerate(parts):
            if not part:
                raise InvalidQuery(f'Invalid sort field "{key}".')
            f = current.field(part)
            if i < len(parts) - 1:
                if not f.is_many_to_one:
                    raise InvalidQuery(
                        f'Cannot sort by "{key}": "{part}" of collection "{current.name}" is '
                        "not a many-to-one relation."
                    )
                current = catalogue.expansion_target(f)
            elif not f.is_stored:
                raise InvalidQuery(
                    f'Cannot sort by "{key}": "{part}" of collection "{current.name}" is a list.'
                )
        out.append(SortKey(tuple(parts), descending))
    return tuple(out), random


def _bind_deep(
    deep: Mapping[str, Any], coll: Collection, catalogue: Schema, where: str
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if where.count(".") > MAX_RELATIONAL_DEPTH:
        raise InvalidQuery(f"Max relational depth exceeded in {where[:80]}.")
    for key, value in deep.items():
        if key.startswith("_"):
            out[key] = value
            continue
        f = coll.field(key)
        if f.relation is None:
            raise InvalidQuery(f'Invalid {where}: "{key}" of "{coll.name}" is not a relation.')
        out[key] = _bind_deep(value, catalogue.expansion_target(f), catalogue, f"{where}.{key}")
    return out


def bind_filter(
    f: Filter,
    coll: Collection,
    catalogue: Schema = CATALOGUE,
    *,
    now: dt.datetime | None = None,
) -> Filter:
    """Validate a filter against ``coll`` and coerce its values to the fields' types.

    Filters are bounded: at most ``MAX_FILTER_NODES`` conditions and groups,
    ``MAX_LOGICAL_DEPTH`` nested ``_and``/``_or`` and ``MAX_RELATIONAL_DEPTH`` relations.
    ``$NOW`` and ``$NOW(<offset>)`` on datetime fields become ``now`` (default: the
    current local time) moved by the offset.
    """
    binder = _Binder(catalogue, now or dt.datetime.now())
    return binder.bind(f, coll, 0, 0)


class _Binder:
    """One filter's binding: the catalogue, the clock and the remaining node budget."""

    def __init__(self, catalogue: Schema, now: dt.datetime) -> None:
        self.catalogue = catalogue
        self.now = now
        self.budget = MAX_FILTER_NODES

    def bind(self, f: Filter, coll: Collection, logic: int, hops: int) -> Filter:
        self.budget -= 1
        if self.budget < 0:
            raise InvalidQuery(
                f"The filter has more than {MAX_FILTER_NODES} conditions and groups."
            )
        return _bind_filter(self, f, coll, logic, hops)


def _bind_filter(b: _Binder, f: Filter, coll: Collection, logic: int, hops: int) -> Filter:
    catalogue = b.catalogue
    if isinstance(f, And | Or):
        if logic >= MAX_LOGICAL_DEPTH:
            raise InvalidQuery(
                f"The filter nests _and/_or more than {MAX_LOGICAL_DEPTH} levels deep."
            )
        items = tuple(b.bind(i, coll, logic + 1, hops) for i in f.items)
        return And(items) if isinstance(f, And) else Or(items)
    fld = coll.field(f.field)
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
        if hops >= MAX_RELATIONAL_DEPTH:
            raise InvalidQuery(
                f"Max relational depth exceeded: the filter crosses more than "
                f"{MAX_RELATIONAL_DEPTH} relations."
            )
        target = catalogue.expansion_target(fld)
        sub = b.bind(f.filter, target, logic, hops + 1)
        return Related(f.field, sub, f.quantifier)
    if f.operator not in allowed_operators(fld.type):
        raise InvalidQuery(
            f'Operator "{f.operator}" is not allowed on field "{f.field}" of collection '
            f'"{coll.name}" (type {fld.type}).'
        )
    value = _coerce(f.operator, f.value, fld.type, coll, f.field, b.now)
    return Condition(f.field, f.operator, value)


_KEYWORDS: dict[str, Scalar] = {"true": True, "false": False, "null": None, "NULL": None}


def _keyword(value: Scalar) -> Scalar:
    return _KEYWORDS.get(value, value) if isinstance(value, str) else value


def _coerce(
    op: str, value: Value, ftype: FieldType, coll: Collection, name: str, now: dt.datetime
) -> Value:
    where = f'field "{name}" of collection "{coll.name}"'
    if op in FLAG_OPERATORS:
        flag = _keyword(value) if not isinstance(value, tuple) else value
        if not isinstance(flag, bool):
            raise InvalidQuery(f'"{op}" on {where} needs true or false, got {_show(value)}.')
        return flag
    if op in LIST_OPERATORS | RANGE_OPERATORS:
        items = tuple(value.split(",")) if isinstance(value, str) else value
        if not isinstance(items, tuple):
            raise InvalidQuery(f'"{op}" on {where} needs a list of values, got {_show(value)}.')
        if op in LIST_OPERATORS and not items:
            raise InvalidQuery(f'"{op}" on {where} needs at least one value.')
        if op in RANGE_OPERATORS and len(items) != 2:
            raise InvalidQuery(
                f'"{op}" on {where} needs exactly two values, got {len(items)}: {_show(items)}.'
            )
        return tuple(_coerce_scalar(op, _keyword(item), ftype, where, now) for item in items)
    if isinstance(value, tuple):
        raise InvalidQuery(f'"{op}" on {where} needs a single value, got a list {_show(value)}.')
    return _coerce_scalar(op, _keyword(value), ftype, where, now)


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
_NUMBER = re.compile(r"\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*", re.ASCII)
_INTEGER = re.compile(r"-?\d+", re.ASCII)
_ZERO = re.compile(r"-?(0+\.?0*|\.0+)([eE][-+]?\d+)?", re.ASCII)


def _coerce_scalar(
    op: str, value: Scalar, ftype: FieldType, where: str, now: dt.datetime
) -> Scalar:
    if value == "":
        raise InvalidQuery(f'Empty value for "{op}" on {where}: use _empty or _nempty.')
    if isinstance(value, str) and "\x00" in value:
        raise InvalidQuery(f'The value for "{op}" on {where} contains a NUL character.')
    if op in TEXT_OPERATORS:  # the value is matched as text, whatever it is
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, float):
            return _number_text(value)  # as JavaScript writes numbers: 1.0 is "1"
        return "null" if value is None else str(value)
    if value is None:
        if op in EQUALITY_OPERATORS:
            return None
        raise InvalidQuery(f'"{op}" on {where} cannot compare with null; use _null.')
    if ftype is FieldType.UUID:
        return _uuid(value, op, where)
    if ftype.is_text:
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value) if not isinstance(value, float) else _number_text(value)
    if ftype.is_numeric:
        if isinstance(value, bool):
            raise InvalidQuery(f'"{op}" on {where} needs a number, got {_show(value)}.')
        if isinstance(value, str):
            if not _NUMBER.fullmatch(value):
                raise InvalidQuery(f'"{op}" on {where} needs a number, got {_show(value)}.')
            text = value.strip()
            value = int(text) if _INTEGER.fullmatch(text) and len(text) <= 20 else float(text)
            if value == 0 and not _ZERO.fullmatch(text):
                raise InvalidQuery(f'"{op}" on {where}: {_show(text)} is too small a number.')
            if isinstance(value, float) and not math.isfinite(value):
                raise InvalidQuery(f'"{op}" on {where}: {_show(text)} is too large a number.')
        if isinstance(value, int) and not -MAX_INTEGER - 1 <= value <= MAX_INTEGER:
            # beyond any stored integer; compares correctly as a float
            try:
                value = float(value)
            except OverflowError:
                raise InvalidQuery(f'"{op}" on {where}: the number is too large.') from None
        return value
    if ftype is FieldType.BOOLEAN:
        if isinstance(value, bool):
            return value
        if value in (1, 0, "1", "0"):
            return value in (1, "1")
        raise InvalidQuery(f'"{op}" on {where} needs true or false, got {_show(value)}.')
    if ftype is FieldType.DATETIME:
        if isinstance(value, str) and value.startswith(NOW):
            return _datetime_text(resolve_now(value, now))
        return _datetime(value, op, where)
    raise InvalidQuery(f'"{op}" cannot be used on {where}.')  # pragma: no cover


def _number_text(value: float) -> str:
    return str(int(value)) if value.is_integer() else repr(value)


# The forms PostgreSQL's uuid type reads: 32 hex digits, a hyphen allowed after any group
# of four, optionally inside braces; no spaces.
_PG_UUID = re.compile(r"(\{)?[0-9a-fA-F]{4}(?:-?[0-9a-fA-F]{4}){7}(?(1)\})", re.ASCII)


def _uuid(value: Scalar, op: str, where: str) -> str:
    """A UUID in any form PostgreSQL reads (any case, braces, hyphens), canonical."""
    if not isinstance(value, str) or not _PG_UUID.fullmatch(value):
        raise InvalidQuery(f'"{op}" on {where} needs a UUID, got {_show(value)}.')
    return str(uuid.UUID(re.sub(r"[{}-]", "", value)))


def _datetime_text(value: dt.datetime) -> str:
    return value.isoformat(timespec="seconds" if not value.microsecond else "milliseconds")


def _datetime(value: Scalar, op: str, where: str) -> str:
    if not isinstance(value, str):
        raise InvalidQuery(f'"{op}" on {where} needs a date or datetime, got {_show(value)}.')
    text = value.strip().replace(" ", "T", 1)
    if _DATE.fullmatch(text):
        text += "T00:00:00"
    try:
        parsed = dt.datetime.fromisoformat(text)
    except ValueError:
        raise InvalidQuery(
            f'"{op}" on {where} needs a date (YYYY-MM-DD) or datetime '
            f"(YYYY-MM-DDTHH:MM:SS), got {_show(value)}."
        ) from None
    if parsed.tzinfo is not None:
        try:
            parsed = parsed.astimezone(dt.UTC).replace(tzinfo=None)
        except OverflowError:
            raise InvalidQuery(
                f'"{op}" on {where}: {_show(value)} is outside the years 1 to 9999 in UTC.'
            ) from None
    return parsed.isoformat(timespec="seconds" if not parsed.microsecond else "microseconds")


# ---------------------------------------------------------------------------------------
# $NOW: Directus's dynamic date value

NOW = "$NOW"
_NOW_OFFSET = re.compile(r"\(([^()]+)\)")
_ADJUSTMENT = re.compile(
    r"(-?(?:\d+)?\.?\d+) *(milliseconds?|msecs?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|"
    r"hrs?|h|days?|d|weeks?|w|months?|mth|mo|years?|yrs?|y)?",
    re.IGNORECASE | re.ASCII,
)
_MILLISECONDS = {"ms": 1, "s": 1_000, "m": 60_000, "h": 3_600_000}
_EPOCH = dt.datetime(1970, 1, 1)


def resolve_now(value: str, now: dt.datetime) -> dt.datetime:
    """The moment a ``$NOW`` value stands for, computed as Directus 12 does.

    ``$NOW`` is ``now``; ``$NOW(<offset>)`` moves it by ``[+|-]<number> [unit]`` with units
    from milliseconds to years (default: days). Days, weeks, months and years move the
    calendar (a month from 31 January is the end of February); fractions of them are cut
    as JavaScript's ``Date`` does. An offset Directus cannot read leaves ``now`` unchanged,
    and so does any other text that starts with ``$NOW``.

    >>> resolve_now("$NOW(-1 year)", dt.datetime(2024, 2, 29, 12))
    datetime.datetime(2023, 2, 28, 12, 0)
    """
    now = now.replace(microsecond=now.microsecond // 1000 * 1000)  # a JavaScript Date: ms
    found = _NOW_OFFSET.search(value) if "(" in value and ")" in value else None
    if found is None:
        return now
    adjustment = found[1]
    subtract = adjustment.startswith("-")
    if subtract or adjustment.startswith("+"):
        adjustment = adjustment[1:]
    match = _ADJUSTMENT.fullmatch(adjustment)
    if match is None:
        return now
    amount = float(match[1]) * (-1 if subtract else 1)
    unit = (match[2] or "days").lower()
    try:
        if unit.startswith(("y",)):
            return _add_months(now, amount * 12)
        if unit.startswith("mo") or unit == "mth":
            return _add_months(now, amount)
        if unit.startswith("w"):
            return _add_days(now, amount * 7)
        if unit.startswith("d"):
            return _add_days(now, amount)
        key = "ms" if unit.startswith(("ms", "msec", "milli")) else unit[0]
        # a JavaScript Date holds whole milliseconds since 1970: the sum is cut toward zero
        epoch_ms = (now - _EPOCH) // dt.timedelta(milliseconds=1)
        moved = math.trunc(epoch_ms + amount * _MILLISECONDS[key])
        return _EPOCH + dt.timedelta(milliseconds=moved)
    except OverflowError:
        raise InvalidQuery(f'"{value}" is outside the years 1 to 9999.') from None


def _add_days(moment: dt.datetime, amount: float) -> dt.datetime:
    # date-fns: date.setDate(date.getDate() + amount); setDate truncates toward zero
    if not amount:
        return moment
    return moment + dt.timedelta(days=math.trunc(moment.day + amount) - moment.day)


def _add_months(moment: dt.datetime, amount: float) -> dt.datetime:
    # date-fns addMonths: the same day of the desired month, or that month's last day
    if not amount:
        return moment
    index = moment.year * 12 + math.trunc(moment.month - 1 + amount + 1) - 1
    year, month = divmod(index, 12)
    if not 1 <= year <= 9999:
        raise OverflowError
    days = _days_in_month(year, month + 1)
    return moment.replace(year=year, month=month + 1, day=min(moment.day, days))


def _days_in_month(year: int, month: int) -> int:
    following = dt.date(year + month // 12, month % 12 + 1, 1)
    return (following - dt.timedelta(days=1)).day
