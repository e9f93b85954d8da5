"""An independent oracle for the catalogue service's read API, in plain Python.

Given the records of a catalogue (collection -> rows in the service's JSON representation,
stored fields only) and a query as *raw parameters* (the filter as a decoded JSON object,
``fields``/``sort`` lists, ``search``, ``limit``/``offset``/``page``, ``meta``, ``deep``), the
:class:`Oracle` computes the exact response body the service must send, or the error
(status and code) it must answer with.

It follows ``docs/query-semantics.md`` line by line and shares no code with the server or the
query grammar (``educatalog.query``): only the catalogue's schema is read from
``educatalog.frames.catalogue``. Relational filters are evaluated as outer joins: a filter is a
predicate on a row, and where a relation leads nowhere (a null or dangling reference, an item
without related rows) it is evaluated on a *row of nulls* (``{}``), as the document says.
Where the document leaves room, it takes the reference server's announced decisions:

* datetimes compare as normalized ``YYYY-MM-DDTHH:MM:SS`` strings (a bare date is midnight,
  an offset is converted to UTC; ``$NOW`` carries its milliseconds);
* ``_null``/``_nnull``/``_empty``/``_nempty`` take true or false (false inverts);
* ``_eq`` on a text field with true/false compares with the text "true"/"false";
* text operators treat any value as text (numbers as ``str()``, true/false/null as words);
* an empty ``_or`` (or ``_and``) is no condition, also nested;
* ``_in``/``_nin``/``_between``/``_nbetween`` items that are null: 400;
* conditions without quantifier on the same one-to-many / many-to-many relation that are
  *direct* items of one ``_and`` (or keys of one object) hold on the same related row: they
  are joined pairwise, in order, into one condition (``_some``/``_none`` never merge);
* inside a row of nulls, a ``_none`` holds only when no row of its collection that points
  anywhere matches (``NULL NOT IN (subquery)``), a ``_some`` never holds;
* a number in a filter is ``-?(digits[.digits]|.digits)([eE][+-]?digits)?``, spaces around
  allowed; comma lists are split on every comma, items not trimmed;
* ``$NOW(<offset>)``: the offsets the document lists, computed as JavaScript's ``Date`` and
  date-fns do; anything else after ``$NOW`` is the current time;
* the nested cap (100, or ``deep[rel][_limit]``) applies to unexpanded id lists too.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from educatalog.model.schema import SCHEMA, Collection, Field, FieldType, Schema

__all__ = [
    "DEFAULT_LIMIT",
    "NESTED_LIMIT",
    "Oracle",
    "OracleError",
    "bracket_pairs",
    "encode_params",
]

DEFAULT_LIMIT = 100
NESTED_LIMIT = 100

Row = dict[str, Any]
Predicate = Callable[[Row], bool]

# ---------------------------------------------------------------------------------------
# Errors


class OracleError(Exception):
    """The service must answer with an error: ``status`` and Directus ``code``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


def _invalid(message: str) -> OracleError:
    return OracleError(400, "INVALID_QUERY", message)


def _forbidden(message: str) -> OracleError:
    return OracleError(403, "FORBIDDEN", message)


# ---------------------------------------------------------------------------------------
# Operators by field type

TEXT_OPS = frozenset(
    f"_{n}{i}{kind}"
    for n in ("", "n")
    for i in ("", "i")
    for kind in ("contains", "starts_with", "ends_with")
) - {"_nicontains"}  # Directus 12.4 has no _nicontains
INSENSITIVE_OPS = frozenset(op for op in TEXT_OPS if op.startswith(("_i", "_ni")))
FLAG_OPS = frozenset({"_null", "_nnull", "_empty", "_nempty"})
LIST_OPS = frozenset({"_in", "_nin"})
RANGE_OPS = frozenset({"_between", "_nbetween"})
ORDER_OPS = {"_lt": "<", "_lte": "<=", "_gt": ">", "_gte": ">="}

_STRING_OPS = TEXT_OPS | {"_eq", "_neq", "_in", "_nin", "_null", "_nnull", "_empty", "_nempty"}
_ORDERED_OPS = frozenset(
    {"_eq", "_neq", "_lt", "_lte", "_gt", "_gte", "_between", "_nbetween", "_in", "_nin"}
    | {"_null", "_nnull"}
)
ALLOWED_OPS: dict[FieldType, frozenset[str]] = {
    FieldType.STRING: _STRING_OPS,
    FieldType.UUID: frozenset({"_eq", "_neq", "_in", "_nin", "_null", "_nnull"}),
    FieldType.INTEGER: _ORDERED_OPS,
    FieldType.DECIMAL: _ORDERED_OPS,
    FieldType.DATETIME: _ORDERED_OPS,
    FieldType.BOOLEAN: frozenset({"_eq", "_neq", "_null", "_nnull"}),
}
ALL_OPS = frozenset().union(*ALLOWED_OPS.values())

_KEYWORDS: dict[str, Any] = {"true": True, "false": False, "null": None, "NULL": None}
_NUMBER = re.compile(r"\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*")
_BARE_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_CANONICAL = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?")
_INTEGER_PARAM = re.compile(r"-?\d+")


def _keyword(value: Any) -> Any:
    return _KEYWORDS.get(value, value) if isinstance(value, str) else value


def _text_of(value: Any) -> str:
    """How a text operator sees any value."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, float):  # as JavaScript writes numbers: 1.0 is "1"
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value)


# ---------------------------------------------------------------------------------------
# Filter parsing: the structure first (400s), then the binding to the schema (403/400).
#
# Nodes: ("and", [nodes]) | ("or", [nodes]) | ("cond", field, op, operand)
#        | ("rel", field, node, quantifier or None)


def _parse(obj: Any) -> tuple[Any, ...]:
    if not isinstance(obj, dict):
        raise _invalid(f"filter must be an object, got {obj!r}")
    nodes = [_parse_key(k, v) for k, v in obj.items()]
    return nodes[0] if len(nodes) == 1 else ("and", nodes)


def _parse_key(key: str, value: Any) -> tuple[Any, ...]:
    if key in ("_and", "_or"):
        if not isinstance(value, list):
            raise _invalid(f"{key} must hold an array")
        return (key[1:], [_parse(item) for item in value])
    if key.startswith("_"):
        raise _invalid(f"{key} cannot stand here")
    if not isinstance(value, dict):
        return ("cond", key, "_eq", _operand(value))
    if not value:
        raise _invalid(f"empty condition on {key}")
    ops = [k for k in value if k.startswith("_") and k not in ("_and", "_or", "_some", "_none")]
    if ops:
        conds: list[tuple[Any, ...]] = []
        for op in ops:
            if op not in ALL_OPS:
                raise _invalid(f"unknown operator {op}")
            conds.append(("cond", key, op, _operand(value[op])))
        # `{"course": {"_eq": 5, "title": "x"}}`: the operators and the related item's filter
        rest = {k: v for k, v in value.items() if k not in ops}
        if rest:
            if "_some" in rest or "_none" in rest:
                raise _invalid(f"{key} mixes operators with _some/_none")
            conds.append(("rel", key, _parse(rest), None))
        return conds[0] if len(conds) == 1 else ("and", conds)
    quantifiers = [k for k in value if k in ("_some", "_none")]
    if quantifiers:
        if len(value) != 1:
            raise _invalid(f"{quantifiers[0]} must be the only key")
        return ("rel", key, _parse(value[quantifiers[0]]), quantifiers[0])
    return ("rel", key, _parse(value), None)


def _operand(value: Any) -> Any:
    if isinstance(value, list):
        if any(isinstance(item, dict | list) for item in value):
            raise _invalid("lists hold plain values only")
        return tuple(value)
    if isinstance(value, dict):
        raise _invalid("an operand cannot be an object")
    return value


def _field(coll: Collection, name: str) -> Field:
    if name not in coll:
        raise _forbidden(f'field "{name}" of "{coll.name}"')
    return coll.field(name)


def _coerce(op: str, value: Any, ftype: FieldType, now: dt.datetime) -> Any:
    if op in FLAG_OPS:
        flag = _keyword(value)
        if not isinstance(flag, bool):
            raise _invalid(f"{op} needs true or false")
        return flag
    if op in LIST_OPS | RANGE_OPS:
        items = tuple(value.split(",")) if isinstance(value, str) else value
        if not isinstance(items, tuple):
            raise _invalid(f"{op} needs a list")
        if op in LIST_OPS and not items:
            raise _invalid(f"{op} needs at least one value")
        if op in RANGE_OPS and len(items) != 2:
            raise _invalid(f"{op} needs two values")
        out = []
        for item in items:
            typed = _scalar(op, _keyword(item), ftype, now)
            if typed is None:
                raise _invalid(f"{op} cannot hold null")
            out.append(typed)
        return tuple(out)
    if isinstance(value, tuple):
        raise _invalid(f"{op} needs a single value")
    return _scalar(op, _keyword(value), ftype, now)


def _in_float_range(number: Decimal) -> Decimal:
    """A number of a filter that a double holds. Beyond its range Directus on PostgreSQL
    answers 500 (``1e400`` on an integer, deviation ``no-500``); the reference server
    refuses it as a bad value, and one too small to tell from zero (``1e-400``) too,
    rather than compare it as 0."""
    if not math.isfinite(float(number)):
        raise _invalid("too large a number")
    if number != 0 and float(number) == 0:
        raise _invalid("too close to zero to compare")
    return number


def _scalar(op: str, value: Any, ftype: FieldType, now: dt.datetime) -> Any:
    if value == "":
        raise _invalid("empty value: use _empty/_nempty")
    if op in TEXT_OPS:
        return _text_of(value)
    if value is None:
        if op in ("_eq", "_neq"):
            return None
        raise _invalid(f"{op} cannot compare with null")
    if ftype is FieldType.UUID:
        canonical = pg_uuid(value) if isinstance(value, str) else None
        if canonical is None:
            raise _invalid(f"needs a UUID, got {value!r}")
        return canonical
    if ftype is FieldType.STRING:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, float):
            return str(int(value)) if value.is_integer() else repr(value)
        return str(value)
    if ftype in (FieldType.INTEGER, FieldType.DECIMAL):
        if isinstance(value, bool):
            raise _invalid("needs a number")
        if isinstance(value, int):
            return Decimal(value)
        if isinstance(value, float):
            return Decimal(repr(value))
        if isinstance(value, str) and _NUMBER.fullmatch(value):
            return _in_float_range(Decimal(value.strip()))
        raise _invalid(f"needs a number, got {value!r}")
    if ftype is FieldType.BOOLEAN:
        if isinstance(value, bool):
            return value
        if value in (1, 0, "1", "0"):
            return value in (1, "1")
        raise _invalid(f"needs true or false, got {value!r}")
    if ftype is FieldType.DATETIME:
        if isinstance(value, str) and value.startswith("$NOW"):
            moment = dynamic_now(value, now)
            return moment.isoformat(timespec="microseconds" if moment.microsecond else "seconds")
        return normalize_datetime(value)
    raise AssertionError(ftype)  # pragma: no cover


# PostgreSQL's uuid_in: 32 hex digits, a hyphen allowed after each group of four (not after
# the last), the whole optionally in braces; nothing else (no spaces, no prefixes).
_PG_UUID = re.compile(r"(\{)?(?:[0-9a-fA-F]{4}-?){7}[0-9a-fA-F]{4}(?(1)\})", re.ASCII)


def pg_uuid(text: str) -> str | None:
    """A UUID as PostgreSQL reads it, in canonical lower-case form; None if it is none."""
    if not _PG_UUID.fullmatch(text):
        return None
    digits = "".join(c for c in text if c not in "{}-").lower()
    return "-".join((digits[:8], digits[8:12], digits[12:16], digits[16:20], digits[20:]))


# What search takes for a UUID: the hyphenated form, version 1-8 and variant 8/9/a/b, or the
# nil and max UUIDs, in any case.
_SEARCH_UUID = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"
    r"|0{8}-0{4}-0{4}-0{4}-0{12}|f{8}-f{4}-f{4}-f{4}-f{12}",
    re.ASCII | re.IGNORECASE,
)


# ---------------------------------------------------------------------------------------
# $NOW and $NOW(<offset>)

_OFFSET = re.compile(r"([+-]?)(\d+(?:\.\d+)?|\.\d+) *([A-Za-z]*)", re.ASCII)
_UNITS: dict[str, tuple[str, int]] = {}
for _names, _unit in (
    (("ms", "msec", "msecs", "millisecond", "milliseconds"), ("ms", 1)),
    (("s", "sec", "secs", "second", "seconds"), ("ms", 1_000)),
    (("m", "min", "mins", "minute", "minutes"), ("ms", 60_000)),
    (("h", "hr", "hrs", "hour", "hours"), ("ms", 3_600_000)),
    (("", "d", "day", "days"), ("day", 1)),
    (("w", "week", "weeks"), ("day", 7)),
    (("mo", "mth", "month", "months"), ("month", 1)),
    (("y", "yr", "yrs", "year", "years"), ("month", 12)),
):
    for _name in _names:
        _UNITS[_name] = _unit
_EPOCH = dt.datetime(1970, 1, 1)


def dynamic_now(value: str, now: dt.datetime) -> dt.datetime:
    """The moment ``$NOW`` or ``$NOW(<offset>)`` stands for when the clock says ``now``.

    The clock is read as a JavaScript ``Date`` (milliseconds). Offsets of milliseconds up to
    hours move the time value (``new Date(t + amount)``, which cuts toward zero); days and
    weeks move the day of the month (``setDate``), months and years the month
    (date-fns ``addMonths``: the same day, or the last day of a shorter month), fractions
    cut as ``Date``'s setters cut them. An offset that is not ``[+|-]<number> [unit]`` with
    a known unit leaves the time as it is.
    """
    base = now.replace(microsecond=now.microsecond // 1000 * 1000)
    found = re.search(r"\(([^)]+)\)", value) if "(" in value and ")" in value else None
    match = _OFFSET.fullmatch(found[1]) if found else None
    if match is None or match[3].lower() not in _UNITS:
        return base
    amount = float(match[2]) * (-1 if match[1] == "-" else 1)
    kind, factor = _UNITS[match[3].lower()]
    amount *= factor
    if kind == "ms":
        millis = (base - _EPOCH) // dt.timedelta(milliseconds=1)
        return _EPOCH + dt.timedelta(milliseconds=math.trunc(millis + amount))
    if kind == "day":
        return base + dt.timedelta(days=math.trunc(base.day + amount) - base.day)
    # setMonth(month + amount + 1, 0): the last day of the month before, then the day
    index = base.year * 12 + math.trunc(base.month - 1 + amount + 1) - 1
    year, month0 = divmod(index, 12)
    following = dt.date(year + (month0 + 1) // 12, (month0 + 1) % 12 + 1, 1)
    last_day = (following - dt.timedelta(days=1)).day
    return base.replace(year=year, month=month0 + 1, day=min(base.day, last_day))


def normalize_datetime(value: Any) -> str:
    """A filter value for a datetime field as the normalized text it is compared as."""
    if not isinstance(value, str):
        raise _invalid(f"needs a date, got {value!r}")
    text = value.strip().replace(" ", "T", 1)
    if _BARE_DATE.fullmatch(text):
        text += "T00:00:00"
    try:
        parsed = dt.datetime.fromisoformat(text)
    except ValueError:
        raise _invalid(f"needs a date, got {value!r}") from None
    if parsed.tzinfo is not None:
        try:
            parsed = parsed.astimezone(dt.UTC).replace(tzinfo=None)
        except OverflowError:  # e.g. 9999-12-31T23:59:59-12:00: not a representable date
            raise _invalid(f"needs a date, got {value!r}") from None
    return parsed.isoformat(timespec="microseconds" if parsed.microsecond else "seconds")


# ---------------------------------------------------------------------------------------
# Values as compared and as serialized


def _comparable(f: Field, value: Any) -> Any:
    """A stored value as filters and sorting compare it (None stays None)."""
    if value is None:
        return None
    if f.type in (FieldType.INTEGER, FieldType.DECIMAL):
        return Decimal(str(value))
    if f.type is FieldType.UUID:  # compared as UUIDs: case does not matter
        return value.lower()
    return value


def serialize(f: Field, value: Any) -> Any:
    """A stored value in the service's JSON representation."""
    if value is None:
        return None
    if f.type is FieldType.DECIMAL:
        return f"{Decimal(str(value)):.{f.scale or 2}f}"
    if f.type is FieldType.BOOLEAN:
        return bool(value)
    return value


def _condition(f: Field, op: str, value: Any) -> Predicate:
    name = f.name

    def get(row: Row) -> Any:
        return _comparable(f, row.get(name))

    if op in ("_null", "_nnull"):
        want_null = (op == "_null") == value
        return lambda row: (get(row) is None) == want_null
    if op in ("_empty", "_nempty"):
        want_empty = (op == "_empty") == value
        return lambda row: (get(row) is None or get(row) == "") == want_empty
    if op == "_eq":
        if value is None:
            return lambda row: get(row) is None
        return lambda row: get(row) is not None and get(row) == value
    if op == "_neq":
        if value is None:
            return lambda row: get(row) is not None
        return lambda row: get(row) is not None and get(row) != value
    if op in ORDER_OPS:
        compare: Callable[[Any, Any], bool] = {
            "_lt": lambda a, b: a < b,
            "_lte": lambda a, b: a <= b,
            "_gt": lambda a, b: a > b,
            "_gte": lambda a, b: a >= b,
        }[op]
        return lambda row: get(row) is not None and compare(get(row), value)
    if op in LIST_OPS:
        negate = op == "_nin"
        return lambda row: get(row) is not None and ((get(row) in value) != negate)
    if op in RANGE_OPS:
        low, high = value
        negate = op == "_nbetween"
        return lambda row: get(row) is not None and ((low <= get(row) <= high) != negate)
    # text operators
    negate = op.startswith("_n")
    insensitive = op in INSENSITIVE_OPS
    needle = value.lower() if insensitive else value
    if op.endswith("contains"):
        test: Callable[[str], bool] = lambda text: needle in text  # noqa: E731
    elif op.endswith("starts_with"):
        test = lambda text: text.startswith(needle)  # noqa: E731
    else:
        test = lambda text: text.endswith(needle)  # noqa: E731

    def text_pred(row: Row) -> bool:
        text = get(row)
        if text is None:
            return False
        return test(text.lower() if insensitive else text) != negate

    return text_pred


# ---------------------------------------------------------------------------------------
# Fields and deep


FieldTree = dict[str, "FieldTree | None"]


def _split(value: str | Sequence[str] | None, name: str) -> list[str] | None:
    """A comma list parameter (a list is sent joined by commas): an empty one is not given,
    an empty entry in it is a 400."""
    if value is None:
        return None
    text = value if isinstance(value, str) else ",".join(value)
    if text == "":
        return None
    parts = [p.strip() for p in text.split(",")]
    if "" in parts:
        raise _invalid(f'"{name}[{parts.index("")}]" is not allowed to be empty')
    return parts


# JavaScript's Number(): StrWhiteSpaceChar around, then a decimal literal (with sign, or
# Infinity), a 0x/0o/0b literal (no sign), or nothing at all (0).
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" + "".join(
    chr(c) for c in range(0x2000, 0x200B)
)
_JS_DECIMAL = re.compile(r"[+-]?(Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)", re.ASCII)
_JS_RADIX = re.compile(r"0([xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)", re.ASCII)


def js_number(text: str) -> float:
    """``Number(text)`` in JavaScript (NaN when it is no number)."""
    text = text.strip(_JS_SPACE)
    if not text:
        return 0.0
    if _JS_DECIMAL.fullmatch(text):
        return float(text)
    if _JS_RADIX.fullmatch(text):
        digits = int(text[2:], {"x": 16, "o": 8, "b": 2}[text[1].lower()])
        try:
            return float(digits)
        except OverflowError:
            return math.inf
    return math.nan


def _check_deep(obj: Any) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise _invalid("deep must be an object")
    out: dict[str, Any] = {}
    for key, value in obj.items():
        if key.startswith("_"):
            if key != "_limit":
                raise _invalid(f"unsupported deep parameter {key}")
            text = str(value).strip()
            if not _INTEGER_PARAM.fullmatch(text) or int(text) < -1:
                raise _invalid("deep _limit must be an integer >= -1")
            out[key] = int(text)
        else:
            out[key] = _check_deep(value)
    return out


def _integer_param(value: Any, name: str, minimum: int) -> int | None:
    if value is None:
        return None
    text = str(value).strip()
    if not _INTEGER_PARAM.fullmatch(text) or int(text) < minimum:
        raise _invalid(f"{name} must be an integer >= {minimum}")
    return int(text)


# ---------------------------------------------------------------------------------------
# Relational filters

NULL_ROW: Row = {}
"""The row an outer join gives where there is no related item: every field is null."""


class _Once:
    """A value computed on first use (a condition on the row of nulls is a constant)."""

    def __init__(self, compute: Callable[[], bool]) -> None:
        self._compute = compute
        self._value: bool | None = None

    def __call__(self) -> bool:
        if self._value is None:
            self._value = self._compute()
        return self._value


def _same_row(items: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Bound direct items of one ``_and``: conditions without quantifier on the same list
    relation are joined (pairwise, in order) so that they hold on the same related row."""
    out: list[tuple[Any, ...]] = []
    seen: dict[str, int] = {}
    for item in items:
        if item[0] == "rel" and item[4] is None and item[1].relation.is_list:
            name = item[1].name
            if name in seen:
                prev = out[seen[name]]
                out[seen[name]] = ("rel", prev[1], prev[2], ("and", [prev[3], item[3]]), None)
                continue
            seen[name] = len(out)
        out.append(item)
    return out


# ---------------------------------------------------------------------------------------
# The oracle


class Oracle:
    """The expected answers of the service over ``records``.

    ``now`` is the server's clock for ``$NOW`` (None: the current local time).
    """

    def __init__(
        self,
        records: Mapping[str, Iterable[Mapping[str, Any]]],
        catalogue: Schema = SCHEMA,
        *,
        now: dt.datetime | None = None,
    ) -> None:
        self.catalogue = catalogue
        self.now = now
        self.rows: dict[str, list[Row]] = {}
        self.by_id: dict[str, dict[int, Row]] = {}
        for name, coll in catalogue.items():
            rows = [
                {f.name: row.get(f.name) for f in coll.stored_fields}
                for row in records.get(name, ())
            ]
            rows.sort(key=lambda r: r["id"])
            self.rows[name] = rows
            self.by_id[name] = {r["id"]: r for r in rows}
        self._children: dict[tuple[str, str], dict[Any, list[Row]]] = {}

    # -- relations -------------------------------------------------------------------

    def children(self, collection: str, foreign_key: str, parent_id: Any) -> list[Row]:
        """Rows of ``collection`` whose ``foreign_key`` is ``parent_id``, by id."""
        key = (collection, foreign_key)
        if key not in self._children:
            index: dict[Any, list[Row]] = {}
            for row in self.rows[collection]:
                if row.get(foreign_key) is not None:
                    index.setdefault(row[foreign_key], []).append(row)
            self._children[key] = index
        return self._children[key].get(parent_id, [])

    def target(self, f: Field, row: Row) -> Row | None:
        """The item a many-to-one field of ``row`` points to (None: null or missing)."""
        assert f.relation is not None
        fk = row.get(f.name)
        return None if fk is None else self.by_id[f.relation.related].get(fk)

    def _related_rows(self, f: Field, row: Row) -> list[Row]:
        """The rows a one-to-many / many-to-many field of ``row`` lists (junction rows for
        many-to-many); none for a row of nulls."""
        assert f.relation is not None
        assert f.relation.is_list
        return self.children(f.relation.related, f.relation.foreign_key or "", row.get("id"))

    # -- filters ---------------------------------------------------------------------
    #
    # Parsed nodes are bound to the schema first, in the order they were written (so the
    # first invalid part decides between 403 and 400), then compiled into a predicate.
    # Bound nodes: ("and"|"or", [nodes]) | ("cond", Field, op, value)
    #              | ("rel", Field, target Collection, node, quantifier or None)

    def compile_filter(
        self, raw: Any, collection: str, now: dt.datetime | None = None
    ) -> Predicate:
        """Validate a raw filter object and return its predicate on rows of ``collection``."""
        coll = self.catalogue[collection]
        bound = self._bind(_parse(raw), coll, now or self.now or dt.datetime.now())
        return self._predicate(bound)

    def _bind(self, node: tuple[Any, ...], coll: Collection, now: dt.datetime) -> tuple[Any, ...]:
        kind = node[0]
        if kind in ("and", "or"):
            return (kind, [self._bind(n, coll, now) for n in node[1]])
        if kind == "rel":
            _, name, sub, quantifier = node
            f = _field(coll, name)
            if f.relation is None:
                raise _invalid(f"{name} is not a relation")
            if quantifier and not f.relation.is_list:
                raise _invalid(f"{quantifier} on a many-to-one field")
            target = self.catalogue.expansion_target(f)
            return ("rel", f, target, self._bind(sub, target, now), quantifier)
        _, name, op, operand = node
        f = _field(coll, name)
        if f.relation is not None and f.relation.is_list:
            # an operator on a list field applies to the related (junction) rows' ids
            target = self.catalogue.expansion_target(f)
            return ("rel", f, target, self._bind(("cond", "id", op, operand), target, now), None)
        if op not in ALLOWED_OPS[f.type]:
            raise _invalid(f"{op} not allowed on {name} ({f.type})")
        return ("cond", f, op, _coerce(op, operand, f.type, now))

    def _predicate(self, node: tuple[Any, ...]) -> Predicate:
        """The predicate of a bound node on a row, or on the row of nulls ``{}``."""
        kind = node[0]
        if kind == "and":
            preds = [self._predicate(n) for n in _same_row(node[1])]
            return lambda row: all(p(row) for p in preds)
        if kind == "or":
            preds = [self._predicate(n) for n in node[1]]
            if not preds:
                return lambda row: True
            return lambda row: any(p(row) for p in preds)
        if kind == "cond":
            return _condition(node[1], node[2], node[3])
        _, f, target, sub, quantifier = node
        inner = self._predicate(sub)
        if f.relation.kind == "m2o":  # outer join: a missing item is a row of nulls
            return lambda row: inner(self.target(f, row) or NULL_ROW)
        if quantifier == "_some":
            return lambda row: any(inner(r) for r in self._related_rows(f, row))
        if quantifier == "_none":
            foreign_key = f.relation.foreign_key or ""
            anywhere = _Once(
                lambda: any(
                    inner(r) for r in self.rows[target.name] if r.get(foreign_key) is not None
                )
            )

            def none(row: Row) -> bool:
                if row.get("id") is None:  # NULL NOT IN (subquery): only an empty one
                    return not anywhere()
                return not any(inner(r) for r in self._related_rows(f, row))

            return none
        on_nulls = _Once(lambda: inner(NULL_ROW))

        def some_or_nulls(row: Row) -> bool:
            related = self._related_rows(f, row)
            if not related:
                return on_nulls()
            return any(inner(r) for r in related)

        return some_or_nulls

    # -- search ----------------------------------------------------------------------

    def search_predicate(self, text: str, collection: str) -> Predicate:
        coll = self.catalogue[collection]
        if not text.strip():
            return lambda row: False
        needle = text.lower()
        number = Decimal(text) if _CANONICAL.fullmatch(text) and text != "-0" else None
        uuid = text.lower() if _SEARCH_UUID.fullmatch(text) else None
        texts = [f.name for f in coll.stored_fields if f.type is FieldType.STRING]
        numbers = [
            f for f in coll.stored_fields if f.type in (FieldType.INTEGER, FieldType.DECIMAL)
        ]
        uuids = [f.name for f in coll.stored_fields if f.type is FieldType.UUID]

        def pred(row: Row) -> bool:
            for name in texts:
                value = row.get(name)
                if value is not None and needle in value.lower():
                    return True
            if number is not None:
                for f in numbers:
                    if _comparable(f, row.get(f.name)) == number:
                        return True
            if uuid is not None:
                for name in uuids:
                    value = row.get(name)
                    if value is not None and value.lower() == uuid:
                        return True
            return False

        return pred

    # -- fields ----------------------------------------------------------------------

    def field_tree(self, paths: Sequence[str], coll: Collection) -> FieldTree:
        tree: FieldTree = {}
        for path in paths:
            self._add_path(tree, coll, path.split("."))
        return tree

    def _add_path(self, tree: FieldTree, coll: Collection, parts: list[str]) -> None:
        head, rest = parts[0], parts[1:]
        if head == "*":
            targets = list(coll.fields)
            if rest:
                for f in coll.fields:
                    if f.relation is None:
                        tree.setdefault(f.name, None)
                targets = [f for f in targets if f.relation is not None]
        else:
            if not head:
                raise _invalid("empty field name in a path")
            f = _field(coll, head)
            if rest and f.relation is None:
                raise _invalid(f"{head} is not a relation")
            targets = [f]
        for f in targets:
            if not rest:
                tree.setdefault(f.name, None)
                continue
            sub = tree.get(f.name)
            if sub is None:
                sub = tree[f.name] = {}
            self._add_path(sub, self.catalogue.expansion_target(f), rest)

    def _bind_deep(self, deep: Mapping[str, Any], coll: Collection) -> None:
        for key, value in deep.items():
            if key.startswith("_"):
                continue
            f = _field(coll, key)
            if f.relation is None:
                raise _invalid(f"deep: {key} is not a relation")
            self._bind_deep(value, self.catalogue.expansion_target(f))

    def render(self, coll: Collection, row: Row, tree: FieldTree, deep: Mapping[str, Any]) -> Row:
        """A row as the service serializes it for the field tree."""
        out: Row = {}
        for name, sub in tree.items():
            f = coll.field(name)
            sub_deep = deep.get(name, {})
            if f.relation is None:
                out[name] = serialize(f, row.get(name))
            elif f.relation.kind == "m2o":
                if sub is None:
                    out[name] = row.get(name)
                else:
                    t = self.target(f, row)
                    target = self.catalogue.expansion_target(f)
                    out[name] = None if t is None else self.render(target, t, sub, sub_deep)
            else:
                items = self._related_rows(f, row)
                cap = sub_deep.get("_limit", NESTED_LIMIT)
                if cap != -1:
                    items = items[:cap]
                if sub is None:
                    out[name] = [r["id"] for r in items]
                else:
                    target = self.catalogue.expansion_target(f)
                    out[name] = [self.render(target, r, sub, sub_deep) for r in items]
        return out

    # -- sort ------------------------------------------------------------------------

    def _sort_keys(self, keys: Sequence[str], coll: Collection) -> tuple[list[Any], bool]:
        out = []
        random = False
        for key in keys:
            if key == "?":
                random = True
                continue
            descending = key.startswith("-")
            parts = (key[1:] if descending else key).split(".")
            fields: list[Field] = []
            current = coll
            for i, part in enumerate(parts):
                if not part:
                    raise _invalid(f"invalid sort field {key}")
                f = _field(current, part)
                if i < len(parts) - 1:
                    if not f.is_many_to_one:
                        raise _invalid(f"cannot sort through {part}")
                    current = self.catalogue.expansion_target(f)
                elif not f.is_stored:
                    raise _invalid(f"cannot sort by the list {part}")
                fields.append(f)
            out.append((fields, descending))
        return out, random

    def _sort_value(self, fields: list[Field], row: Row) -> Any:
        current: Row | None = row
        for f in fields[:-1]:
            assert current is not None
            current = self.target(f, current)
            if current is None:
                return None
        return _comparable(fields[-1], current.get(fields[-1].name))

    def _sorted(self, rows: list[Row], keys: list[Any]) -> list[Row]:
        rows = sorted(rows, key=lambda r: r["id"])
        for fields, descending in reversed(keys):
            rows.sort(
                key=lambda r, fs=fields: (
                    (v := self._sort_value(fs, r)) is None,
                    v if v is not None else 0,
                ),
                reverse=descending,
            )
        return rows

    # -- queries ---------------------------------------------------------------------

    def list(
        self,
        collection: str,
        params: Mapping[str, Any] | None = None,
        *,
        limit_max: int | None = None,
    ) -> dict[str, Any]:
        """The body of ``GET /items/<collection>`` with ``params``; raises OracleError."""
        params = dict(params or {})
        if collection not in self.catalogue:
            raise _forbidden(f"collection {collection}")
        coll = self.catalogue[collection]
        # parsing
        raw_filter = params.get("filter")
        if isinstance(raw_filter, str):
            try:
                raw_filter = json.loads(raw_filter)
            except ValueError:
                raise _invalid("Invalid JSON for filter object") from None
        node = None if raw_filter is None else _parse(raw_filter)
        raw_deep = params.get("deep")
        if isinstance(raw_deep, str):
            try:
                raw_deep = json.loads(raw_deep)
            except ValueError:
                raise _invalid("Invalid JSON for deep object") from None
        deep = {} if raw_deep is None else _check_deep(raw_deep)
        search = params.get("search") or None
        fields = _split(params.get("fields"), "fields") or ["*"]
        sort = _split(params.get("sort"), "sort") or []
        limit = _integer_param(params.get("limit"), "limit", -1)
        offset = _integer_param(params.get("offset"), "offset", 0) or 0
        page = _integer_param(params.get("page"), "page", 0) or 0
        meta = self._meta(params.get("meta"))
        # binding
        given_limit = limit
        if limit is None:
            limit = DEFAULT_LIMIT
        if limit == -1:
            limit = limit_max if limit_max is not None else -1
        elif limit_max is not None and limit > limit_max:
            raise _invalid(f"limit may be at most {limit_max}")
        if page >= 1 and given_limit != -1 and limit != -1:
            offset = limit * (page - 1)
        sort_keys, _random = self._sort_keys(sort, coll)
        tree = self.field_tree(fields, coll)
        now = self.now or dt.datetime.now()
        pred = None if node is None else self._predicate(self._bind(node, coll, now))
        self._bind_deep(deep, coll)
        # evaluation
        rows = self.rows[collection]
        if pred is not None:
            rows = [r for r in rows if pred(r)]
        if search is not None:
            spred = self.search_predicate(search, collection)
            rows = [r for r in rows if spred(r)]
        matched = len(rows)
        rows = self._sorted(rows, sort_keys)
        rows = rows[offset:] if limit == -1 else rows[offset : offset + limit]
        body: dict[str, Any] = {"data": [self.render(coll, r, tree, deep) for r in rows]}
        if meta:
            counts = {"total_count": len(self.rows[collection]), "filter_count": matched}
            body["meta"] = {m: counts[m] for m in meta}
        return body

    @staticmethod
    def _meta(value: Any) -> list[str]:
        parts = _split(value, "meta")
        if parts is None:
            return []
        chosen: set[str] = set()
        for part in parts:
            if part == "*":
                chosen.update(("total_count", "filter_count"))
            elif part in ("total_count", "filter_count"):
                chosen.add(part)
            else:
                raise _invalid(f"invalid meta {part}")
        return [m for m in ("total_count", "filter_count") if m in chosen]

    def item(
        self, collection: str, item_id: Any, params: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """The body of ``GET /items/<collection>/<id>``; raises OracleError."""
        params = dict(params or {})
        if collection not in self.catalogue:
            raise _forbidden(f"collection {collection}")
        coll = self.catalogue[collection]
        text = str(item_id)
        number = js_number(text)  # as Directus reads the id: " 01", "1e0", "0x1" are 1
        if not math.isfinite(number) or number != int(number):
            raise _forbidden(f"item {text}")
        raw_deep = params.get("deep")
        deep = {} if raw_deep is None else _check_deep(raw_deep)
        tree = self.field_tree(_split(params.get("fields"), "fields") or ["*"], coll)
        self._bind_deep(deep, coll)
        row = self.by_id[collection].get(int(number))
        if row is None:
            raise _forbidden(f"item {text}")
        return {"data": self.render(coll, row, tree, deep)}

    def matching_ids(
        self, collection: str, filter: Any = None, search: str | None = None
    ) -> list[int]:
        """Ids of the rows matching a filter and a search, ascending."""
        return [
            r["id"]
            for r in self.list(
                collection,
                {"filter": filter, "search": search, "limit": -1, "fields": ["id"]},
            )["data"]
        ]


# ---------------------------------------------------------------------------------------
# Query strings


def encode_params(params: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The query-string pairs of raw parameters, JSON form for ``filter`` and ``deep``."""
    out: list[tuple[str, str]] = []
    for key, value in params.items():
        if value is None:
            continue
        if key in ("filter", "deep") and not isinstance(value, str):
            out.append((key, json.dumps(value, ensure_ascii=False)))
        elif key in ("fields", "sort") and not isinstance(value, str):
            out.append((key, ",".join(value)))
        else:
            out.append((key, str(value)))
    return out


def _leaf_text(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    return str(value)


def bracket_pairs(obj: Any, base: str = "filter") -> list[tuple[str, str]]:
    """The bracket form of a JSON object: ``filter[a][_eq]=1``, ``filter[_or][0][...]``."""
    if isinstance(obj, dict):
        return [pair for k, v in obj.items() for pair in bracket_pairs(v, f"{base}[{k}]")]
    if isinstance(obj, list):
        return [pair for i, v in enumerate(obj) for pair in bracket_pairs(v, f"{base}[{i}]")]
    return [(base, _leaf_text(obj))]
