"""Everything a reader sees, in German (``"de"``, the default) or English (``"en"``).

>>> texts.number(1635, "de"), texts.number(1635, "en")        # ('1.635', '1,635')
>>> texts.percent(0.104, "de"), texts.percent(0.104, "en")    # ('10,4 %', '10.4%')
>>> texts.text("dimension.state", "en")                       # 'state'
>>> texts.label(None, "de"), texts.label("Keine Angabe", "en")  # 'ohne Angabe', 'not stated'

Charts, tables, the report, the explorer and the notebooks take ``lang`` and ask this module
for their words and number formats, so that one page speaks one language and writes numbers
one way. Numbers, percentages and dates are formatted by Babel with the locale of the
language (:data:`LOCALES`). Labels of the data are the catalogue's German names; in English
the short lists a reader meets in every report (states, instruction-form categories,
duration classes, yes/no, nationwide funding types) are translated, and a missing value is
always :func:`missing` (also the catalogue's own "Keine Angabe"). The words themselves are
in :mod:`educatalog.texts.words`, the English labels in :mod:`educatalog.texts.labels`.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Mapping
from typing import Any, Literal

import pandas as pd
from babel.dates import format_date, format_time
from babel.numbers import format_decimal, format_percent

from educatalog.errors import UsageError
from educatalog.texts.labels import DE_LABELS as _DE_LABELS
from educatalog.texts.labels import EN_LABELS as _EN_LABELS
from educatalog.texts.labels import EN_QUALIFIERS as _EN_QUALIFIERS
from educatalog.texts.words import TEXTS as _TEXTS

__all__ = [
    "DEFAULT_LANG",
    "LANGS",
    "LOCALES",
    "census_basis",
    "check_lang",
    "date",
    "datetime",
    "label",
    "missing",
    "number",
    "percent",
    "population_header",
    "population_text",
    "text",
    "total_label",
    "visible_decimals",
]

Lang = Literal["de", "en"]

LANGS: tuple[str, ...] = ("de", "en")
"""The languages of reader-facing output."""

_CHECKED: dict[str, Lang] = {"de": "de", "en": "en"}

DEFAULT_LANG: Lang = "de"
"""German: the users and the data are German."""

LOCALES: dict[str, str] = {"de": "de_DE", "en": "en_GB"}
"""The Babel locale of each language (numbers, percentages, dates)."""

_MISSING: dict[str, str] = {"de": "ohne Angabe", "en": "not stated"}

# An unknown number. Not a dash, which German official statistics use for "nothing" (exactly
# 0): a reader of a ministry's table would read an unknown number of places as none.
_UNKNOWN: dict[str, str] = {"de": "k. A.", "en": "n/a"}

# The catalogue's own label of an unknown value, shown as the one missing label.
_CATALOGUE_MISSING = frozenset({"Keine Angabe", "keine Angabe"})


def check_lang(lang: Any) -> Lang:
    """``lang`` when it is one of :data:`LANGS`; else an error naming them."""
    if isinstance(lang, str) and lang in _CHECKED:
        return _CHECKED[lang]
    raise UsageError(f'lang must be "de" (German, the default) or "en" (English), got {lang!r}.')


def text(key: str, lang: str = DEFAULT_LANG, /, **fields: Any) -> str:
    """The text ``key`` in ``lang``, with ``fields`` filled in."""
    lang = check_lang(lang)
    try:
        pair = _TEXTS[key]
    except KeyError:
        raise UsageError(f'No text "{key}" in educatalog.texts.') from None
    template = pair[LANGS.index(lang)]
    return template.format(**fields) if fields else template


def has_text(key: str) -> bool:
    """Whether :func:`text` knows ``key``."""
    return key in _TEXTS


def missing(lang: str = DEFAULT_LANG) -> str:
    """The one label of a missing value: "ohne Angabe" / "not stated"."""
    return _MISSING[check_lang(lang)]


def unknown(lang: str = DEFAULT_LANG) -> str:
    """An unknown number in a chart or a sentence: "k. A." / "n/a" (never a dash, which
    German official statistics read as exactly 0, nor 0). Tables write "." as official
    statistics do, and explain it in their legend (:mod:`educatalog.tables.symbols`)."""
    return _UNKNOWN[check_lang(lang)]


def is_missing(value: Any) -> bool:
    """Whether ``value`` stands for "no value": NA, None, NaN, NaT or "Keine Angabe"."""
    if isinstance(value, str):
        return value in _CATALOGUE_MISSING
    if value is None:
        return True
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def label(value: Any, lang: str = DEFAULT_LANG) -> str:
    """A value of the data as a reader sees it: missing values (also the catalogue's
    "Keine Angabe") as :func:`missing`, yes/no in words, periods, years and dates as dates,
    known catalogue labels in English for ``"en"`` (and of two districts of one name the
    word that tells them apart: "München, Stadt" is "München, city")."""
    lang = check_lang(lang)
    if is_missing(value):
        return missing(lang)
    if isinstance(value, bool) or (hasattr(value, "dtype") and str(value.dtype) == "bool"):
        return text("yes" if value else "no", lang)
    if isinstance(value, pd.Period):
        return period(value, lang)
    if isinstance(value, dt.date):  # datetime and pandas' Timestamp too: snapshot dates
        return date(value, lang)
    if isinstance(value, str):
        if lang == "de":
            return _DE_LABELS.get(value, value)
        name, comma, qualifier = value.rpartition(", ")
        if comma and f", {qualifier}" in _EN_QUALIFIERS:  # "München, Stadt": "München, city"
            return name + _EN_QUALIFIERS[f", {qualifier}"]
        return _EN_LABELS.get(value, value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def period(value: pd.Period, lang: str = DEFAULT_LANG) -> str:
    """A month ("Jan. 2025" / "Jan 2025"), a quarter ("1. Quartal 2025" / "Q1 2025") or a
    year."""
    lang = check_lang(lang)
    freq = value.freqstr[0]
    if freq == "M":
        return format_date(value.to_timestamp().date(), "MMM y", locale=LOCALES[lang])
    if freq == "Q":
        return text("period.quarter", lang, quarter=value.quarter, year=value.year)
    if freq in ("Y", "A"):
        return str(value.year)
    return str(value)


def number(value: Any, lang: str = DEFAULT_LANG, decimals: int = 0) -> str:
    """``value`` with the language's thousands separator and decimal mark and exactly
    ``decimals`` decimals (Babel); a missing value is ``unknown(lang)``."""
    lang = check_lang(lang)
    if is_missing(value):
        return unknown(lang)
    pattern = "#,##0" + ("." + "0" * decimals if decimals > 0 else "")
    return format_decimal(
        float(value), format=pattern, locale=LOCALES[lang], decimal_quantization=True
    )


def percent(value: Any, lang: str = DEFAULT_LANG, decimals: int = 1) -> str:
    """A share (0.104) as a percentage in the language's format: "10,4 %" / "10.4%", every
    share with the same ``decimals``. A share that is not 0 (not 1) never shows as 0 %
    (100 %): below the smallest step it is "< 0,1 %" / "<0.1%" (1 of 5,503), above the
    largest "> 99,9 %" / ">99.9%" (the other 5,502)."""
    lang = check_lang(lang)
    if is_missing(value):
        return unknown(lang)
    share = float(value)
    shown = _percent(share, lang, decimals)
    step = 10.0**-decimals / 100
    if 0 < share < step and shown == _percent(0, lang, decimals):
        return text("less_than", lang, share=_percent(step, lang, decimals))
    if 1 - step < share < 1 and shown == _percent(1, lang, decimals):
        return text("more_than", lang, share=_percent(1 - step, lang, decimals))
    return shown


def _percent(share: float, lang: Lang, decimals: int) -> str:
    base = "#,##0" + ("." + "0" * decimals if decimals > 0 else "")
    pattern = base + ("\u00a0%" if lang == "de" else "%")
    return format_percent(share, format=pattern, locale=LOCALES[lang])


def visible_decimals(value: float, decimals: int, most: int = 4) -> int:
    """``decimals``, or more (up to ``most``) where a percentage ``value`` that is not 0
    (not 100) would round to 0 (to 100)."""
    if value in (0, 100) or not math.isfinite(value):
        return decimals
    while decimals < most and round(abs(value), decimals) in (0, 100):
        decimals += 1
    return decimals


def rate(value: Any, lang: str = DEFAULT_LANG) -> str:
    """A rate such as events per 100,000 inhabitants: two decimals below 100, none above
    (the same in charts and tables)."""
    if is_missing(value):
        return unknown(lang)
    return number(value, lang, 0 if abs(float(value)) >= 100 else 2)


def date(value: dt.date | dt.datetime | str, lang: str = DEFAULT_LANG) -> str:
    """A date: "31.12.2022" / "31 Dec 2022"."""
    lang = check_lang(lang)
    if isinstance(value, str):
        value = dt.date.fromisoformat(value[:10])
    return format_date(value, "medium", locale=LOCALES[lang])


def datetime(value: dt.datetime, lang: str = DEFAULT_LANG) -> str:
    """A time of day with its date, in UTC: "23.11.2026, 20:31 UTC"."""
    lang = check_lang(lang)
    if value.tzinfo is not None:
        value = value.astimezone(dt.UTC)
    return f"{date(value, lang)}, {format_time(value, 'HH:mm', locale=LOCALES[lang])} UTC"


def count(n: Any, lang: str = DEFAULT_LANG) -> str:
    """A whole number of events in words: "1 Veranstaltung", "5.503 Veranstaltungen"."""
    n = int(n)
    return text("events.one" if n == 1 else "events.many", lang, n=number(n, lang))


def measure(name: str, lang: str = DEFAULT_LANG) -> str:
    """A measure's name for titles and legends ("Veranstaltungen" / "Events"); unknown
    columns by their name with spaces."""
    key = f"measure.{name}"
    return text(key, lang) if key in _TEXTS else str(name).replace("_", " ").capitalize()


def dimension(name: str, lang: str = DEFAULT_LANG) -> str:
    """A dimension's name for titles and labels ("Bundesland" / "state"); unknown
    columns by their name with spaces."""
    key = f"dimension.{name}"
    return text(key, lang) if key in _TEXTS else str(name).replace("_", " ")


def capitalized(words: str) -> str:
    """``words`` with a capital first letter (the rest unchanged)."""
    return words[:1].upper() + words[1:]


def population_text(
    origin: Mapping[str, Any], lang: str = DEFAULT_LANG, *, licence: bool = False
) -> str:
    """The population figures named in words, with their census basis and reference date:
    "Statistisches Bundesamt (Destatis) …, Fortschreibung des Bevölkerungsstandes auf Basis
    des Zensus 2022 (Tabelle 12411-0010), Stand 31.12.2024"; figures without a basis say
    "(Zensusbasis nicht angegeben)". ``origin`` is what
    :func:`educatalog.stats.per_capita` notes in the ``attrs["educatalog"]["population"]``
    of its table. ``licence=True`` adds the figures' licence where ``origin`` names one
    ("…; Lizenz: Datenlizenz Deutschland – Namensnennung – Version 2.0 (dl-de/by-2-0)")."""
    named = _population_text(origin, lang)
    terms = str(origin.get("licence") or "")
    if not licence or not terms:
        return named
    if "(dl-de/by-2-0)" in terms:  # the licence's own name, in the language
        terms = text("licence.dl-de-by-2-0", lang)
    return text("population.licence", lang, source=named, licence=terms)


def _population_text(origin: Mapping[str, Any], lang: str) -> str:
    when = origin.get("date")
    english = lang == "en"
    basis = census_basis(origin.get("basis"), lang)
    # Figures without a census named say so: the reader cannot tell the basis otherwise.
    if basis:
        on_basis = text("population.on_basis", lang, basis=basis)
    else:
        on_basis = text("population.no_basis", lang)
    if origin.get("table") and origin.get("publisher") and when:
        return text(
            "population.source",
            lang,
            publisher=origin.get("publisher_en" if english else "publisher", origin["publisher"]),
            statistic=origin.get(
                "statistic_en" if english else "statistic", origin.get("statistic", "")
            ),
            basis=on_basis,
            table=origin["table"],
            date=date(when, lang),
        )
    name = origin.get("source_name") or origin.get("source") or text("population.caller", lang)
    if str(name).startswith("given by the caller"):
        name = text("population.caller", lang)
    name = f"{name}{on_basis}"
    if when:
        return text("population.own", lang, source=name, date=date(when, lang))
    if origin.get("year"):
        return text("population.own", lang, source=name, date=str(origin["year"]))
    return text("population.own_nodate", lang, source=name)


def census_basis(basis: Any, lang: str = DEFAULT_LANG) -> str:
    """The census a population figure is updated from, in words: "Zensus 2022" /
    "2022 census" (other names as they are; "" for none)."""
    if not basis:
        return ""
    found = re.fullmatch(r"Zensus (\d{4})", str(basis).strip())
    if found and check_lang(lang) == "en":
        return f"{found.group(1)} census"
    return str(basis)


def population_header(origin: Mapping[str, Any] | None, lang: str = DEFAULT_LANG) -> str:
    """The header of a population column: "Einwohner am 31.12.2024 (Zensus 2022)" /
    "Inhabitants on 31 Dec 2024 (2022 census)"; without a date "Einwohner"."""
    origin = origin or {}
    when = origin.get("date")
    header = (
        text("column.population", lang, date=date(when, lang))
        if when
        else text("column.population_nodate", lang)
    )
    basis = census_basis(origin.get("basis"), lang)
    return f"{header} ({basis})" if basis else header


def total_label(national: bool, lang: str = DEFAULT_LANG) -> str:
    """The label of a total row: "Deutschland" / "Germany" where it covers all 16 states,
    else "Insgesamt" / "Total"."""
    return text("total.germany" if national else "total", lang)


def finite(value: Any) -> bool:
    """Whether ``value`` is a number that is neither missing nor infinite."""
    try:
        return not is_missing(value) and math.isfinite(float(value))
    except (TypeError, ValueError):
        return False
