"""Sums and averages written as the service writes them: Directus on PostgreSQL answers an
aggregate of a number as text, a sum with its field's scale and an average with the scale
PostgreSQL's numeric division chooses (at least 16 significant digits). Registered as SQL
functions of every connection (``edu_numeric``, ``edu_average``), so that SQLite writes the
answer of an aggregate query whole."""

from __future__ import annotations

from decimal import Decimal

__all__ = ["average_text", "numeric_text"]

_MIN_SIG_DIGITS = 16  # PostgreSQL's NUMERIC_MIN_SIG_DIGITS
_DEC_DIGITS = 4  # decimal digits of one digit of PostgreSQL's numeric (base 10000)
_MAX_DISPLAY_SCALE = 1000


def numeric_text(total: int | None, scale: int) -> str | None:
    """``total`` units of ``10**-scale`` as PostgreSQL writes a numeric of that scale
    (``123456``, 2 -> ``"1234.56"``); None stays None."""
    if total is None:
        return None
    return _with_scale(int(total), scale)


def average_text(total: int | None, count: int | None, scale: int) -> str | None:
    """``total`` (units of ``10**-scale``) divided by ``count`` as PostgreSQL's ``avg``
    writes it: rounded half away from zero to the scale its numeric division picks; None
    for no values."""
    if total is None or not count:
        return None
    total, count = int(total), int(count)
    weight1, first1 = _leading(Decimal(abs(total)).scaleb(-scale))
    weight2, first2 = _leading(Decimal(count))
    qweight = weight1 - weight2 - (1 if first1 <= first2 else 0)
    rscale = max(_MIN_SIG_DIGITS - qweight * _DEC_DIGITS, scale, 0)
    rscale = min(rscale, _MAX_DISPLAY_SCALE)
    quotient, rest = divmod(abs(total) * 10 ** (rscale - scale), count)
    if 2 * rest >= count:
        quotient += 1
    return _with_scale(-quotient if total < 0 else quotient, rscale)


def _leading(value: Decimal) -> tuple[int, int]:
    """The weight (position in base 10000) and value of the first non-zero base-10000
    digit of ``value`` (0, 0 for zero), as PostgreSQL's numeric stores it."""
    if not value:
        return 0, 0
    weight = value.adjusted() // _DEC_DIGITS
    return weight, int(value.scaleb(-_DEC_DIGITS * weight))


def _with_scale(units: int, scale: int) -> str:
    """``units`` of ``10**-scale`` with exactly ``scale`` decimals."""
    sign = "-" if units < 0 else ""
    digits = str(abs(units))
    if scale <= 0:
        return sign + digits
    digits = digits.rjust(scale + 1, "0")
    return f"{sign}{digits[:-scale]}.{digits[-scale:]}"
