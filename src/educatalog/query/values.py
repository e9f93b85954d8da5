"""Filter values coerced to the fields' types as the service reads them (numbers, UUIDs,
dates), and Directus's dynamic date ``$NOW``."""

from __future__ import annotations

import datetime as dt
import math
import re
import uuid

from educatalog.errors import InvalidQuery
from educatalog.model.schema import Collection, FieldType
from educatalog.query.limits import MAX_INTEGER
from educatalog.query.operators import (
    EQUALITY_OPERATORS,
    FLAG_OPERATORS,
    LIST_OPERATORS,
    RANGE_OPERATORS,
    TEXT_OPERATORS,
)
from educatalog.query.tree import Scalar, Value, shown

__all__ = ["NOW", "coerce", "resolve_now"]

_KEYWORDS: dict[str, Scalar] = {"true": True, "false": False, "null": None, "NULL": None}


def _keyword(value: Scalar) -> Scalar:
    return _KEYWORDS.get(value, value) if isinstance(value, str) else value


def coerce(
    op: str, value: Value, ftype: FieldType, coll: Collection, name: str, now: dt.datetime
) -> Value:
    """``value`` of the condition ``op`` on field ``name`` (of type ``ftype``) as the service
    reads it; ``$NOW`` stands for ``now``. Raises InvalidQuery naming the field at fault."""
    where = f'field "{name}" of collection "{coll.name}"'
    if op in FLAG_OPERATORS:
        flag = _keyword(value) if not isinstance(value, tuple) else value
        if not isinstance(flag, bool):
            raise InvalidQuery(f'"{op}" on {where} needs true or false, got {shown(value)}.')
        return flag
    if op in LIST_OPERATORS | RANGE_OPERATORS:
        items = tuple(value.split(",")) if isinstance(value, str) else value
        if not isinstance(items, tuple):
            raise InvalidQuery(f'"{op}" on {where} needs a list of values, got {shown(value)}.')
        if op in LIST_OPERATORS and not items:
            raise InvalidQuery(f'"{op}" on {where} needs at least one value.')
        if op in RANGE_OPERATORS and len(items) != 2:
            raise InvalidQuery(
                f'"{op}" on {where} needs exactly two values, got {len(items)}: {shown(items)}.'
            )
        return tuple(_coerce_scalar(op, _keyword(item), ftype, where, now) for item in items)
    if isinstance(value, tuple):
        raise InvalidQuery(f'"{op}" on {where} needs a single value, got a list {shown(value)}.')
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
            raise InvalidQuery(f'"{op}" on {where} needs a number, got {shown(value)}.')
        if isinstance(value, str):
            if not _NUMBER.fullmatch(value):
                raise InvalidQuery(f'"{op}" on {where} needs a number, got {shown(value)}.')
            text = value.strip()
            value = int(text) if _INTEGER.fullmatch(text) and len(text) <= 20 else float(text)
            if value == 0 and not _ZERO.fullmatch(text):
                raise InvalidQuery(
                    f'"{op}" on {where}: {shown(text)} is too close to zero to compare: '
                    "it would be read as 0."
                )
            if isinstance(value, float) and not math.isfinite(value):
                raise InvalidQuery(
                    f'"{op}" on {where}: {shown(text)} is too large a number '
                    "(the largest is about 1.8e308)."
                )
        if isinstance(value, int) and not -MAX_INTEGER - 1 <= value <= MAX_INTEGER:
            # beyond any stored integer; compares correctly as a float
            try:
                value = float(value)
            except OverflowError:
                raise InvalidQuery(
                    f'"{op}" on {where}: the number is too large (the largest is about 1.8e308).'
                ) from None
        return value
    if ftype is FieldType.BOOLEAN:
        if isinstance(value, bool):
            return value
        if value in (1, 0, "1", "0"):
            return value in (1, "1")
        raise InvalidQuery(f'"{op}" on {where} needs true or false, got {shown(value)}.')
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
        raise InvalidQuery(f'"{op}" on {where} needs a UUID, got {shown(value)}.')
    return str(uuid.UUID(re.sub(r"[{}-]", "", value)))


def _datetime_text(value: dt.datetime) -> str:
    return value.isoformat(timespec="seconds" if not value.microsecond else "milliseconds")


def _datetime(value: Scalar, op: str, where: str) -> str:
    if not isinstance(value, str):
        raise InvalidQuery(f'"{op}" on {where} needs a date or datetime, got {shown(value)}.')
    text = value.strip().replace(" ", "T", 1)
    if _DATE.fullmatch(text):
        text += "T00:00:00"
    try:
        parsed = dt.datetime.fromisoformat(text)
    except ValueError:
        raise InvalidQuery(
            f'"{op}" on {where} needs a date (YYYY-MM-DD) or datetime '
            f"(YYYY-MM-DDTHH:MM:SS), got {shown(value)}."
        ) from None
    if parsed.tzinfo is not None:
        try:
            parsed = parsed.astimezone(dt.UTC).replace(tzinfo=None)
        except OverflowError:
            raise InvalidQuery(
                f'"{op}" on {where}: {shown(value)} is outside the years 1 to 9999 in UTC.'
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
