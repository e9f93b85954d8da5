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
duration classes, yes/no) are translated, and a missing value is always :func:`missing`
(also the catalogue's own "Keine Angabe").
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from typing import Any, Literal

import pandas as pd
from babel.dates import format_date, format_time
from babel.numbers import format_decimal, format_percent

from educatalog.errors import UsageError

__all__ = [
    "DEFAULT_LANG",
    "LANGS",
    "LOCALES",
    "check_lang",
    "date",
    "datetime",
    "label",
    "missing",
    "number",
    "percent",
    "population_text",
    "text",
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

# The catalogue's own label of an unknown value, shown as the one missing label.
_CATALOGUE_MISSING = frozenset({"Keine Angabe", "keine Angabe"})

_EN_LABELS: dict[str, str] = {
    # states (Destatis' English names)
    "Baden-Württemberg": "Baden-Württemberg",
    "Bayern": "Bavaria",
    "Berlin": "Berlin",
    "Brandenburg": "Brandenburg",
    "Bremen": "Bremen",
    "Hamburg": "Hamburg",
    "Hessen": "Hesse",
    "Mecklenburg-Vorpommern": "Mecklenburg-Western Pomerania",
    "Niedersachsen": "Lower Saxony",
    "Nordrhein-Westfalen": "North Rhine-Westphalia",
    "Rheinland-Pfalz": "Rhineland-Palatinate",
    "Saarland": "Saarland",
    "Sachsen": "Saxony",
    "Sachsen-Anhalt": "Saxony-Anhalt",
    "Schleswig-Holstein": "Schleswig-Holstein",
    "Thüringen": "Thuringia",
    # instruction-form categories
    "Präsenz": "In person",
    "Digital": "Online",
    "Kombiniert": "Blended",
    "Fernunterricht": "Distance learning",
    # instruction times
    "Vollzeit": "Full time",
    "Teilzeit": "Part time",
    # duration classes (KURSNET)
    "bis 3 Tage": "up to 3 days",
    "mehr als 3 Tage bis 1 Woche": "over 3 days to 1 week",
    "mehr als 1 Woche bis 1 Monat": "over 1 week to 1 month",
    "mehr als 1 Monat bis 3 Monate": "over 1 month to 3 months",
    "mehr als 3 Monate bis 6 Monate": "over 3 months to 6 months",
    "mehr als 6 Monate bis 1 Jahr": "over 6 months to 1 year",
    "mehr als 1 Jahr bis 2 Jahre": "over 1 year to 2 years",
    "mehr als 2 Jahre bis 3 Jahre": "over 2 years to 3 years",
    "mehr als 3 Jahre": "over 3 years",
    # funding levels
    "federal": "federal",
    "regional": "regional",
}
"""English names of the labels every report shows; other labels stay as the catalogue
names them (they are names, like a course title)."""

_DE_LABELS: dict[str, str] = {"federal": "Bund", "regional": "Land/Region"}

_TEXTS: dict[str, tuple[str, str]] = {
    # key: (German, English)
    "yes": ("ja", "yes"),
    "no": ("nein", "no"),
    "total": ("Insgesamt", "Total"),
    # dimensions (in titles and axis labels)
    "dimension.state": ("Bundesland", "state"),
    "dimension.state_code": ("Bundesland", "state"),
    "dimension.city": ("Ort", "city"),
    "dimension.zip": ("Postleitzahl", "postcode"),
    "dimension.institution": ("Bildungsanbieter", "institution"),
    "dimension.instruction_form": ("Unterrichtsform", "instruction form"),
    "dimension.instruction_form_category": ("Lernform", "instruction form category"),
    "dimension.instruction_time": ("Unterrichtszeit", "instruction time"),
    "dimension.duration_class": ("Dauer", "duration class"),
    "dimension.education_type": ("Bildungsart", "education type"),
    "dimension.course_type": ("Kursart", "course type"),
    "dimension.institution_type": ("Anbieterart", "institution type"),
    "dimension.funding_type": ("Förderart", "funding type"),
    "dimension.funding_level": ("Förderebene", "funding level"),
    "dimension.barrier_free": ("Barrierefreiheit", "barrier-free access"),
    "dimension.education_voucher": ("Bildungsgutschein", "education voucher"),
    "dimension.is_part_time": ("Teilzeit", "part time"),
    "dimension.has_individual_start": ("individueller Einstieg", "individual start"),
    "dimension.is_inhouse": ("Inhouse-Angebot", "in-house"),
    "dimension.year": ("Startjahr", "start year"),
    "dimension.quarter": ("Startquartal", "start quarter"),
    "dimension.month": ("Startmonat", "start month"),
    "dimension.currency": ("Währung", "currency"),
    "dimension.check": ("Prüfung", "check"),
    # measures: title, axis label
    "measure.events": ("Veranstaltungen", "Events"),
    "measure.courses": ("Kurse", "Courses"),
    "measure.institutions": ("Bildungsanbieter", "Institutions"),
    "measure.capacity": ("Plätze", "Places"),
    "measure.events_per_100k": (
        "Veranstaltungen je 100.000 Einwohner",
        "Events per 100,000 inhabitants",
    ),
    "axis.events": ("Anzahl der Veranstaltungen", "Number of events"),
    "axis.courses": ("Anzahl der Kurse", "Number of courses"),
    "axis.institutions": ("Anzahl der Bildungsanbieter", "Number of institutions"),
    "axis.capacity": (
        "Plätze (Summe der Höchstteilnehmerzahlen)",
        "Places (sum of maximum participants)",
    ),
    "axis.events_per_100k": (
        "Veranstaltungen je 100.000 Einwohner",
        "Events per 100,000 inhabitants",
    ),
    "axis.share": ("Anteil der Veranstaltungen (%)", "Share of events (%)"),
    "axis.share_within": (
        "Anteil der Veranstaltungen je {name} (%)",
        "Share of events within each {name} (%)",
    ),
    "axis.share_all": ("Anteil an allen Veranstaltungen (%)", "Share of all events (%)"),
    "axis.starts": ("Beginnende Veranstaltungen je {freq}", "Events starting per {freq}"),
    "axis.start": ("Beginn ({freq})", "Start {freq}"),
    "axis.cost": ("Kosten ({currency})", "Cost ({currency})"),
    "freq.month": ("Monat", "month"),
    "freq.quarter": ("Quartal", "quarter"),
    "freq.year": ("Jahr", "year"),
    # titles
    "title.by": ("{measure} nach {dimension}", "{measure} by {dimension}"),
    "title.trend": ("{measure} im Zeitverlauf", "{measure} over time"),
    "title.trend_by": (
        "{measure} im Zeitverlauf nach {dimension}",
        "{measure} over time by {dimension}",
    ),
    "axis.snapshot_date": ("Stichtag", "Snapshot date"),
    "note.snapshots": ("{n} Stichtage, {first} bis {last}.", "{n} snapshots, {first} to {last}."),
    "measure.share": ("Anteil", "Share"),
    "measure.listed": ("Gelistete", "Listed"),
    "measure.entered": ("Neu gelistete", "Entered"),
    "measure.exited": ("Nicht mehr gelistete", "Exited"),
    "measure.net": ("Saldo", "Net change"),
    "title.top": ("{title} (die {top} größten)", "{title} (top {top})"),
    "title.shares": (
        "Anteil der Veranstaltungen nach {columns} je {rows}",
        "Share of events by {columns} within each {rows}",
    ),
    "title.shares_columns": (
        "Anteil der Veranstaltungen nach {rows} je {columns}",
        "Share of events by {rows} within each {columns}",
    ),
    "title.shares_all": (
        "Anteil an allen Veranstaltungen nach {rows} und {columns}",
        "Share of all events by {rows} and {columns}",
    ),
    "title.counts_2d": (
        "Veranstaltungen nach {rows} und {columns}",
        "Events by {rows} and {columns}",
    ),
    "title.starts": ("Veranstaltungen nach {freq}", "Events by {freq}"),
    "title.starts_by": (
        "Veranstaltungen nach {freq} und {dimension}",
        "Events by {freq} and {dimension}",
    ),
    "title.costs": ("Kosten nach {dimension} ({currency})", "Costs by {dimension} ({currency})"),
    "title.measure_by_2d": (
        "{measure} nach {rows} und {columns}",
        "{measure} by {rows} and {columns}",
    ),
    "title.line": ("Veranstaltungen", "Events"),
    # footers and notes
    "source": ("Quelle: {source}", "Source: {source}"),
    "source.demo": (
        "synthetische Demodaten (educatalog), abgerufen am {date}",
        "synthetic demo data (educatalog), retrieved {date}",
    ),
    "source.url": ("{url}, abgerufen am {date}", "{url}, retrieved {date}"),
    "source.named": ("{name}", "{name}"),
    "source.unknown": (
        "nicht bekannt – die Daten sagen nicht, woher sie stammen",
        "not known – the data do not say where they come from",
    ),
    "source.unknown_url": ("unbekannter Dienst", "unknown service"),
    "demo_mark": ("SYNTHETISCHE DEMODATEN", "SYNTHETIC DEMO DATA"),
    "population": ("Einwohner: {source}", "Inhabitants: {source}"),
    "population.source": (
        "{publisher}, {statistic} (Tabelle {table}), Stand {date}",
        "{publisher}, {statistic} (table {table}), as of {date}",
    ),
    "population.own": ("{source}, Stand {date}", "{source}, as of {date}"),
    "population.own_nodate": ("{source} (ohne Stichtag)", "{source} (no reference date)"),
    "population.caller": ("vom Nutzer angegeben", "given by the user"),
    "note.without_start": (
        "Nicht dargestellt: {events} ohne Beginndatum.",
        "Not shown: {events} without a start date.",
    ),
    "note.without_state": (
        "Nicht dargestellt: {events} ohne Bundesland.",
        "Not shown: {events} without a state.",
    ),
    "note.capacity_unknown": (
        "Ohne Balken: {groups} – keine Veranstaltung nennt eine Höchstteilnehmerzahl.",
        "No bar: {groups} – no event states a maximum number of participants.",
    ),
    "note.box": (
        "Kasten: erstes bis drittes Quartil; Linie: Median; Raute: Mittelwert; "
        "Antennen: Minimum bis Maximum.",
        "Box: first to third quartile; line: median; diamond: mean; whiskers: min to max.",
    ),
    "events.one": ("{n} Veranstaltung", "{n} event"),
    "events.many": ("{n} Veranstaltungen", "{n} events"),
    "n": ("{label} (n = {n})", "{label} (n = {n})"),
    "less_than_1": ("<1 %", "<1%"),
    "empty.title": ("Keine Veranstaltung passt zu den Filtern.", "No offers match the filters."),
    "empty.capacity": (
        "Keine Veranstaltung nennt eine Höchstteilnehmerzahl.",
        "No event states a maximum number of participants.",
    ),
    "empty.hint": ("Filter ändern oder zurücksetzen.", "Change or clear them."),
    # alt texts of charts
    "alt.bars": (
        "Balkendiagramm: {title}. Größter Wert: {top} ({top_value}); "
        "kleinster: {low} ({low_value}); {n} Gruppen.",
        "Bar chart: {title}. Largest: {top} ({top_value}); smallest: {low} ({low_value}); "
        "{n} groups.",
    ),
    "alt.stacked": (
        "Gestapelte Balken zu 100 %: {title}. {n} Balken, Anteile von {parts}.",
        "100% stacked bars: {title}. {n} bars, shares of {parts}.",
    ),
    "alt.heatmap": (
        "Heatmap: {title}. {rows} Zeilen ({row_name}) und {columns} Spalten ({column_name}); "
        "höchster Wert {top_value} bei {top}.",
        "Heatmap: {title}. {rows} rows ({row_name}) by {columns} columns ({column_name}); "
        "highest value {top_value} at {top}.",
    ),
    "alt.lines": (
        "Liniendiagramm: {title}, {first} bis {last}. Höchststand {top_value} im {top}.",
        "Line chart: {title}, {first} to {last}. Peak of {top_value} in {top}.",
    ),
    "alt.boxes": (
        "Boxplots: {title}. Median je Gruppe: {medians}.",
        "Box plots: {title}. Median per group: {medians}.",
    ),
    "alt.tiles": (
        "Kachelkarte der 16 Bundesländer: {title}. Höchster Wert: {top} ({top_value}); "
        "niedrigster: {low} ({low_value}).",
        "Tile map of the 16 German states: {title}. Highest: {top} ({top_value}); "
        "lowest: {low} ({low_value}).",
    ),
    "alt.demo": ("Synthetische Demodaten.", "Synthetic demo data."),
    "alt.chart": ("Diagramm: {title}.", "Chart: {title}."),
    # table columns (headers with their unit)
    "column.events": ("Veranstaltungen", "Events"),
    "column.courses": ("Kurse", "Courses"),
    "column.institutions": ("Bildungsanbieter", "Institutions"),
    "column.capacity": ("Plätze", "Places"),
    "column.events_with_capacity": ("Veranstaltungen mit Platzangabe", "Events stating places"),
    "column.mean_capacity": ("Plätze je Veranstaltung (Mittel)", "Places per event (mean)"),
    "column.share": ("Anteil (%)", "Share (%)"),
    "column.share_no": ("Anteil nein (%)", "Share no (%)"),
    "column.share_unknown": ("Anteil ohne Angabe (%)", "Share not stated (%)"),
    "column.yes": ("ja", "yes"),
    "column.no": ("nein", "no"),
    "column.unknown": ("ohne Angabe", "not stated"),
    "column.population": ("Einwohner am {date}", "Inhabitants on {date}"),
    "column.population_nodate": ("Einwohner", "Inhabitants"),
    "column.events_per_100k": (
        "Veranstaltungen je 100.000 Einwohner",
        "Events per 100,000 inhabitants",
    ),
    "column.count": ("Betroffene", "Affected"),
    "column.total": ("von insgesamt", "of total"),
    "column.min": ("Minimum ({unit})", "Minimum ({unit})"),
    "column.q1": ("1. Quartil ({unit})", "1st quartile ({unit})"),
    "column.median": ("Median ({unit})", "Median ({unit})"),
    "column.q3": ("3. Quartil ({unit})", "3rd quartile ({unit})"),
    "column.max": ("Maximum ({unit})", "Maximum ({unit})"),
    "column.mean": ("Mittelwert ({unit})", "Mean ({unit})"),
    "column.description": ("Beschreibung", "Description"),
    "unit.currency": ("in der Währung", "in the currency"),
    # quality checks
    "check.events_without_address": ("Veranstaltungen ohne Adresse", "events without an address"),
    "check.events_without_state": (
        "Veranstaltungen ohne bekanntes Bundesland",
        "events whose location has no known state",
    ),
    "check.addresses_without_state": (
        "Veranstaltungen, deren Adresse kein Bundesland nennt",
        "events whose address has no state",
    ),
    "check.unknown_state": (
        "Veranstaltungen mit unbekannter Bundesland-ID",
        "events whose address names an unknown state id",
    ),
    "check.missing_start_date": ("Veranstaltungen ohne Beginndatum", "events without a start date"),
    "check.missing_end_date": ("Veranstaltungen ohne Enddatum", "events without an end date"),
    "check.end_before_start": (
        "Veranstaltungen, die vor ihrem Beginn enden",
        "events that end before they start",
    ),
    "check.no_duration": (
        "Veranstaltungen ohne bestimmbare Dauer",
        "events whose duration cannot be told",
    ),
    "check.empty_participants": (
        "Veranstaltungen ohne Mindest- und Höchstteilnehmerzahl",
        "events with neither minimum nor maximum participants",
    ),
    "check.min_above_max": (
        "Veranstaltungen mit mehr Mindest- als Höchstteilnehmern",
        "events with more minimum than maximum participants",
    ),
    "check.unknown_instruction_form": (
        "Veranstaltungen mit unbekannter Unterrichtsform",
        "events with an unknown instruction form id",
    ),
    "check.unknown_instruction_time": (
        "Veranstaltungen mit unbekannter Unterrichtszeit",
        "events with an unknown instruction time id",
    ),
    "check.unknown_education_type": (
        "Veranstaltungen mit unbekannter Bildungsart",
        "events whose course has an unknown education type id",
    ),
    "check.unknown_course_type": (
        "Veranstaltungen mit unbekannter Kursart",
        "events whose course has an unknown course type id",
    ),
    "check.unknown_institution_type": (
        "Veranstaltungen mit unbekannter Anbieterart",
        "events whose course has an unknown institution type id",
    ),
    "check.events_without_cost": (
        "Veranstaltungen ohne Kostenangabe (oder mit gemischten Währungen)",
        "events without a cost (or with mixed currencies)",
    ),
    "check.cost_without_currency": (
        "Veranstaltungen mit Kosten ohne Währung",
        "events whose cost has no currency",
    ),
    "check.courses_without_events": ("Kurse ohne Veranstaltung", "courses without any event"),
    # Excel
    "excel.about": ("Über diese Daten", "About these data"),
    "excel.heading": ("Über diese Tabellen", "About these tables"),
    "excel.title": ("Titel", "Title"),
    "excel.source": ("Quelle", "Source"),
    "excel.service": ("Dienst (URL)", "Service (URL)"),
    "excel.retrieved": ("Abgerufen", "Retrieved"),
    "excel.filters": ("Filter", "Filters"),
    "excel.none": ("keine (alle Veranstaltungen)", "none (all events)"),
    "excel.note": ("Hinweis", "Note"),
    "excel.demo": (
        "SYNTHETISCHE DEMODATEN: erzeugte Beispieldaten von educatalog, nicht das echte "
        "Kursangebot.",
        "SYNTHETIC DEMO DATA: generated by educatalog, not the real course supply.",
    ),
    "excel.population": ("Einwohnerzahlen", "Population figures"),
    "excel.written": ("Erstellt", "Written"),
    "excel.sheets": ("Tabellenblätter", "Sheets"),
    "excel.table": ("Tabelle", "Table"),
    "excel.measure": ("Maß", "Measure"),
    # the report
    "report.title": ("Bericht zum Kursangebot", "Course supply report"),
    "report.demo": (
        "**Synthetische Demodaten**: Diese Zahlen beschreiben den erzeugten "
        "Demo-Katalog von educatalog, nicht das echte Kursangebot.",
        "**Synthetic demo data**: these numbers describe educatalog's generated demo "
        "catalogue, not the real course supply.",
    ),
    "report.intro": ("Quelle: {source}. {events}{scope}.", "Source: {source}. {events}{scope}."),
    "report.scope.states": ("Bundesländer: {states}", "states: {states}"),
    "report.scope.dates": ("Beginn {start} bis {end}", "start dates {start} to {end}"),
    "report.states": ("Angebot nach Bundesland", "Offers by state"),
    "report.states.text": (
        "Veranstaltungen nach dem Bundesland ihrer Adresse; Veranstaltungen ohne Adresse "
        "oder Bundesland stehen unter „ohne Angabe“.",
        "Events by the state of their address; events without an address or state are "
        "shown as “not stated”.",
    ),
    "report.per_capita": ("Je 100.000 Einwohner", "Per 100,000 inhabitants"),
    "report.forms": ("Lernformen", "Instruction forms"),
    "report.durations": ("Dauer", "Durations"),
    "report.starts": ("Beginn im Zeitverlauf", "Starts over time"),
    "report.starts.table": ("Veranstaltungen nach Startquartal", "Events by start quarter"),
    "report.costs": ("Kosten", "Costs"),
    "report.costs.text": (
        "Kosten der Angebote mit Preisangabe, je Kurs, in Euro.",
        "Costs of priced offers, per course, in euro.",
    ),
    "report.quality": ("Datenqualität", "Data quality"),
    "report.table.states": ("Angebot nach Bundesland", "Offers by state"),
    "report.table.per_capita": ("Angebot je Einwohner", "Offers per inhabitant"),
    "report.table.forms": ("Angebot nach Lernform", "Offers by instruction form"),
    "report.table.durations": ("Angebot nach Dauer", "Offers by duration"),
    "report.table.starts": ("Beginn nach Quartal", "Starts by quarter"),
    "report.table.costs": ("Kosten nach Lernform", "Costs by instruction form"),
    "report.table.quality": ("Datenqualität", "Data quality"),
}
"""The reader-facing texts: key -> (German, English); ``{name}`` fields are filled in."""


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
    "Keine Angabe") as :func:`missing`, yes/no in words, periods and years as dates,
    known catalogue labels in English for ``"en"``."""
    lang = check_lang(lang)
    if is_missing(value):
        return missing(lang)
    if isinstance(value, bool) or (hasattr(value, "dtype") and str(value.dtype) == "bool"):
        return text("yes" if value else "no", lang)
    if isinstance(value, pd.Period):
        return period(value, lang)
    if isinstance(value, str):
        return _EN_LABELS.get(value, value) if lang == "en" else _DE_LABELS.get(value, value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def period(value: pd.Period, lang: str = DEFAULT_LANG) -> str:
    """A month ("Jan. 2025" / "Jan 2025"), a quarter ("Q1 2025") or a year."""
    lang = check_lang(lang)
    freq = value.freqstr[0]
    if freq == "M":
        return format_date(value.to_timestamp().date(), "MMM y", locale=LOCALES[lang])
    if freq == "Q":
        return f"Q{value.quarter} {value.year}"
    if freq in ("Y", "A"):
        return str(value.year)
    return str(value)


def number(value: Any, lang: str = DEFAULT_LANG, decimals: int = 0) -> str:
    """``value`` with the language's thousands separator and decimal mark and exactly
    ``decimals`` decimals (Babel); a missing value is "–"."""
    lang = check_lang(lang)
    if is_missing(value):
        return "–"
    pattern = "#,##0" + ("." + "0" * decimals if decimals > 0 else "")
    return format_decimal(
        float(value), format=pattern, locale=LOCALES[lang], decimal_quantization=True
    )


def percent(value: Any, lang: str = DEFAULT_LANG, decimals: int = 1) -> str:
    """A share (0.104) as a percentage in the language's format: "10,4 %" / "10.4%"."""
    lang = check_lang(lang)
    if is_missing(value):
        return "–"
    base = "#,##0" + ("." + "0" * decimals if decimals > 0 else "")
    pattern = base + ("\u00a0%" if lang == "de" else "%")
    return format_percent(float(value), format=pattern, locale=LOCALES[lang])


def rate(value: Any, lang: str = DEFAULT_LANG) -> str:
    """A rate such as events per 100,000 inhabitants: two decimals below 100, none above
    (the same in charts and tables)."""
    if is_missing(value):
        return "–"
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


def population_text(origin: Mapping[str, Any], lang: str = DEFAULT_LANG) -> str:
    """The population figures named in words, with their reference date: "Statistisches
    Bundesamt (Destatis), Fortschreibung des Bevölkerungsstandes (Tabelle 12411-0010), Stand
    31.12.2022". ``origin`` is what :func:`educatalog.stats.per_capita` notes in the
    ``attrs["educatalog"]["population"]`` of its table."""
    when = origin.get("date")
    if origin.get("table") and origin.get("publisher") and when:
        english = lang == "en"
        return text(
            "population.source",
            lang,
            publisher=origin.get("publisher_en" if english else "publisher", origin["publisher"]),
            statistic=origin.get(
                "statistic_en" if english else "statistic", origin.get("statistic", "")
            ),
            table=origin["table"],
            date=date(when, lang),
        )
    name = origin.get("source") or text("population.caller", lang)
    if str(name).startswith("given by the caller"):
        name = text("population.caller", lang)
    if when:
        return text("population.own", lang, source=name, date=date(when, lang))
    if origin.get("year"):
        return text("population.own", lang, source=name, date=str(origin["year"]))
    return text("population.own_nodate", lang, source=name)


def translate_labels(values: Mapping[Any, Any], lang: str) -> dict[Any, str]:
    """Each value of a mapping as :func:`label` shows it."""
    return {k: label(v, lang) for k, v in values.items()}


def finite(value: Any) -> bool:
    """Whether ``value`` is a number that is neither missing nor infinite."""
    try:
        return not is_missing(value) and math.isfinite(float(value))
    except (TypeError, ValueError):
        return False
