"""The :class:`Query` and its query string: parsed from JSON and bracket forms
(:meth:`Query.from_params`), written in JSON form (:meth:`Query.to_params`)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import orjson

from educatalog.errors import InvalidQuery, NotFoundOrForbidden
from educatalog.query.aggregates import normalise_aggregate, parse_aggregate
from educatalog.query.limits import MAX_INTEGER, whole
from educatalog.query.tree import (
    And,
    Condition,
    Filter,
    Or,
    Related,
    filter_from_json,
    filter_to_json,
    shown,
)

__all__ = ["DEEP_KEYS", "META_VALUES", "UNSUPPORTED_PARAMETERS", "Query"]

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


META_VALUES = ("total_count", "filter_count")
"""The values the ``meta`` parameter takes, in the order the answer's ``meta`` lists them:
``total_count`` (the collection's items) and ``filter_count`` (those the filter and search
match); ``*`` asks for both."""


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
"""The parameters ``deep`` accepts for a relation: ``_limit`` only (the most related items nested
per item); any other is refused."""

UNSUPPORTED_PARAMETERS = {
    "export": "download the rows with the client (educatalog.load) and write them with "
    "educatalog.snapshot.export or pandas",
    "alias": "select the fields by their own names",
}
"""Global query parameters of Directus that the reference server refuses (a 400 naming the
parameter), with what to do instead (docs/directus.md lists them)."""


def _refuse_unsupported(items: list[tuple[str, str]]) -> None:
    """A 400 for Directus's parameters the server does not implement, a 403 for a content
    version (the catalogue has none; Directus answers a reader so)."""
    for key, value in items:
        name = key.partition("[")[0]
        if name in UNSUPPORTED_PARAMETERS and (value != "" or key != name):
            raise InvalidQuery(
                f'The query parameter "{name}" is not supported by the reference server: '
                f"{UNSUPPORTED_PARAMETERS[name]}."
            )
        if key == "version" and value not in ("", "main"):
            raise NotFoundOrForbidden(
                f'You don\'t have permission to access version "{value[:80]}": the catalogue '
                "has no content versions (only the main one)."
            )


def _check_deep(obj: Any, where: str = "deep") -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise InvalidQuery(f"Invalid {where}: expected an object, got {shown(obj)}.")
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
    field names to ``{"_limit": n}`` and nested relations, as in Directus. ``aggregate``
    maps functions to fields (``{"count": ("*",)}``) and ``group_by`` names the fields to
    group by (:mod:`~educatalog.query.aggregates`); ``backlink=False`` leaves the relation
    a ``*.*`` expansion came through unexpanded, as Directus does.
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
    aggregate: Mapping[str, tuple[str, ...]] | None = field(default=None, hash=False)
    group_by: tuple[str, ...] | None = None
    backlink: bool | None = None

    def __post_init__(self) -> None:
        for name in ("fields", "sort", "group_by"):
            value = getattr(self, name)
            if isinstance(value, str):
                value = tuple(p.strip() for p in value.split(",") if p.strip())
            elif value is not None:
                value = tuple(value)
            object.__setattr__(self, name, value)
        meta: object = self.meta  # a comma list or any iterable is accepted too
        if isinstance(meta, str):
            object.__setattr__(self, "meta", _parse_meta(tuple(meta.split(","))))
        elif self.meta is not None:
            object.__setattr__(self, "meta", _parse_meta(tuple(self.meta)))
        if self.search == "":
            object.__setattr__(self, "search", None)
        for name, minimum in (("limit", -1), ("offset", 0), ("page", 0)):
            value = getattr(self, name)
            if value is not None and not whole(value, minimum):
                raise InvalidQuery(f'"{name}" must be an integer from {minimum} to {MAX_INTEGER}.')
        given: object = self.filter  # a Directus filter object is accepted too
        if given is not None and not isinstance(given, Condition | Related | And | Or):
            object.__setattr__(self, "filter", filter_from_json(given))
        if self.deep is not None:
            object.__setattr__(self, "deep", _check_deep(dict(self.deep)))
        if self.aggregate is not None:
            object.__setattr__(self, "aggregate", normalise_aggregate(self.aggregate))

    @classmethod
    def from_params(cls, params: Mapping[str, str] | Iterable[tuple[str, str]]) -> Query:
        """Parse query-string parameters (a mapping or ``(key, value)`` pairs).

        ``filter``, ``deep`` and ``aggregate`` may be JSON or bracket form
        (``filter[a][_eq]=1``, ``aggregate[count]=*``); ``fields``, ``sort``, ``meta`` and
        ``groupBy`` comma lists or repeated ``name[]=`` entries. Unknown parameters are
        ignored, as the service does; Directus's ``export`` and ``alias`` are refused (400)
        and a ``version`` other than ``main`` is a 403 (:data:`UNSUPPORTED_PARAMETERS`).
        """
        try:
            return cls._from_params(params)
        except RecursionError:
            raise InvalidQuery("The query is nested too deeply.") from None

    @classmethod
    def _from_params(cls, params: Mapping[str, str] | Iterable[tuple[str, str]]) -> Query:
        items = list(params.items()) if isinstance(params, Mapping) else list(params)
        _refuse_unsupported(items)
        raw_filter = _json_or_brackets(items, "filter")
        raw_deep = _json_or_brackets(items, "deep")
        search = _single(items, "search")
        plain_aggregate = [v for k, v in items if k == "aggregate" and v != ""]
        brackets = [(p, v) for k, v in items if (p := _bracket_path(k, "aggregate")) is not None]
        if plain_aggregate and brackets:
            raise InvalidQuery('"aggregate" given both as JSON and in bracket form.')
        aggregate = parse_aggregate(
            plain_aggregate, _nest(brackets, "aggregate") if brackets else None
        )
        backlink = [v for k, v in items if k == "backlink"]
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
            aggregate=aggregate,
            group_by=_split_list(items, "groupBy"),
            backlink=None if not backlink else backlink[-1] != "false",
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
        if self.aggregate is not None:
            out["aggregate"] = orjson.dumps(dict(self.aggregate)).decode()
        if self.group_by is not None:
            out["groupBy"] = ",".join(self.group_by)
        if self.backlink is not None:
            out["backlink"] = "true" if self.backlink else "false"
        return out

    def replace(self, **changes: Any) -> Query:
        """A copy with some parts changed, e.g. ``q.replace(limit=500)``."""
        return replace(self, **changes)
