"""The words of the report's methodological notes ("Methodische Hinweise" / "Methodological
notes"), its numbered tables and figures, its suggested citation and its PDF, in German and
English; part of ``educatalog.texts.words.TEXTS``.

The notes say in short what ``docs/definitions.md`` defines (each paragraph names its
section there): what the catalogue is, what an event, a course and an institution are, the
duration rule, the population, the symbols and the small-cell rule, and the known limits.
:func:`method_notes` lists them with their fields for the report's notebook.
"""

from __future__ import annotations

from typing import Any

from educatalog._version import __version__

__all__ = ["METHOD_TEXTS", "method_notes"]

METHOD_TEXTS: dict[str, tuple[str, str]] = {
    "report.number.table": ("Tabelle {n}", "Table {n}"),
    "report.number.figure": ("Abbildung {n}", "Figure {n}"),
    "report.pdf.head": ("{title} · Stand: {stand}", "{title} · Data as of {stand}"),
    "report.pdf.pages": ("Seite {page} von {pages}", "Page {page} of {pages}"),
    "report.data.label": ("Zeile", "Row"),
    "report.methods": ("Methodische Hinweise", "Methodological notes"),
    "report.methods.catalogue": (
        "**Datenquelle.** {source_start}. Der Katalog verzeichnet Angebote der beruflichen "
        "Weiterbildung: Bildungsanbieter tragen ihre Kurse und deren Termine selbst ein, "
        "freiwillig. Er ist daher keine Vollerhebung; er zeigt das angebotene, nicht das "
        "besuchte Angebot.",
        "**Data source.** {source_start}. The catalogue lists offers of continuing vocational "
        "education: institutions (providers) enter their courses and their dates themselves, "
        "voluntarily. "
        "It is therefore no complete count; it shows what is offered, not what is attended.",
    ),
    "report.methods.units": (
        "**Zähleinheiten.** Eine *Veranstaltung* ist ein Termin eines Kurses (Beginn, Ende, "
        "Ort oder Lernform); ein *Kurs* ist das Angebot, wie sein Bildungsanbieter es beschreibt "
        "(Inhalt, Kosten, Fachgebiete), mit einer oder mehreren Veranstaltungen; ein "
        "*Bildungsanbieter* bietet Kurse an. Jede Zahl zählt verschiedene Veranstaltungen, "
        "Kurse und Bildungsanbieter je einmal; Kurse ohne Veranstaltung zählen nur in der "
        "Datenqualität. Das Bundesland und der Kreis sind die der Adresse der Veranstaltung "
        "(der Kreis nach Postleitzahl und Ort).",
        "**Units.** An *event* is one date of a course (start, end, place or form of "
        "learning); a *course* is the offer as its institution describes it (content, costs, "
        "subjects), with one or more events; an *institution* offers courses. Every number counts "
        "distinct events, courses and institutions once each; courses without an event count "
        "only in the data quality. The state and the district are those of the event's "
        "address (the district by postal code and place).",
    ),
    "report.methods.durations": (
        "**Dauer.** Die Dauerklasse (KURSNET) folgt aus Beginn und Ende jeder "
        "Veranstaltung, kalendergenau: Eine Veranstaltung dauert höchstens 3 Tage, 1 Woche, "
        "1 Monat, 3 oder 6 Monate, 1, 2 oder 3 Jahre, wenn ihr letzter Tag vor dem Beginn "
        "plus dieser Frist liegt. Fehlt das Ende oder liegt es vor dem Beginn, gilt die "
        "angegebene Dauer (5 Wochentage = 7 Kalendertage, 40 Stunden = 7 Kalendertage); "
        "ohne beides „Keine Angabe“.",
        "**Duration.** The duration class (KURSNET) follows from each event's start and end, "
        "by the calendar: an event lasts at most 3 days, 1 week, 1 month, 3 or 6 months, 1, "
        "2 or 3 years when its last day is before its start plus that span. Where the end is "
        "missing or before the start, the stated duration counts (5 week days = 7 calendar "
        "days, 40 hours = 7 calendar days); without either, “not stated”.",
    ),
    "report.methods.population": (
        "**Bevölkerung.** Raten je 100.000 Einwohner teilen die Veranstaltungen eines Landes "
        "durch seine Einwohner: {population}; die Kreise durch die Einwohner am 31.12.2024 "
        "(Regionaldatenbank Deutschland, Tabelle 12411-01-01-4, Zensus 2022). "
        "Veranstaltungen ohne Bundesland (ohne Kreis) gehen in keine Rate ein.",
        "**Population.** Rates per 100,000 inhabitants divide a state's events by its "
        "inhabitants: {population}; the districts' by their inhabitants on 31 Dec 2024 "
        "(Regionaldatenbank Deutschland, table 12411-01-01-4, 2022 census). Events without a "
        "state (without a district) are in no rate.",
    ),
    "report.methods.symbols": (
        "**Zeichen und kleine Fallzahlen.** Die Tabellen verwenden die Zeichen der amtlichen "
        "Statistik, erklärt bei den Tabellen: – nichts vorhanden, 0 weniger als die Hälfte "
        "der kleinsten dargestellten Einheit, . Zahlenwert unbekannt, / Zahlenwert nicht "
        "sicher genug, x Tabellenfach gesperrt, weil Aussage nicht sinnvoll. Kosten "
        "(Quartile, Median, Mittelwert), die auf weniger als {min_cases} Kursen beruhen, und "
        "Raten aus weniger als {min_cases} Veranstaltungen stehen als „/“ "
        "(Mindestfallzahl {min_cases}, einstellbar mit `educatalog report --min-cases`).",
        "**Symbols and small cells.** The tables use the symbols of official statistics, "
        "explained with the tables: – nothing, 0 less than half the smallest unit shown, . "
        "value unknown, / value not reliable enough, x no statement because it makes no "
        "sense. Costs (quartiles, median, mean) resting on fewer than {min_cases} courses, "
        "and rates on fewer than {min_cases} events, show as “/” (minimum {min_cases} cases, "
        "set with `educatalog report --min-cases`).",
    ),
    "report.methods.limits": (
        "**Grenzen.** Was Bildungsanbieter nicht eintragen, fehlt: Kosten, Plätze, Adressen und "
        "Fachgebiete sind nicht für alle Angebote angegeben (die Datenqualität zählt es); "
        "eine Veranstaltung mehrerer Fachgebiete zählt in jedem (Mehrfachzuordnung); der "
        "Katalog kennt Termine, nicht Teilnehmende. Die Definitionen im Einzelnen stehen in "
        "der (englischsprachigen) Dokumentation von educatalog, Seite „How the numbers are "
        "defined“.",
        "**Limits.** What institutions do not enter is missing: costs, places, addresses and "
        "subjects are not stated for every offer (the data quality counts it); an event in "
        "several subject areas counts in each (multiple assignment); the catalogue knows "
        "dates, not participants. The definitions in full: “How the numbers are defined” in "
        "educatalog's documentation.",
    ),
    "report.methods.tables": (
        "**Tabellen und Daten.** Tabellen und Abbildungen sind in der Reihenfolge des "
        "Berichts nummeriert. Jede Tabelle steht auch in `tables.xlsx` und als CSV mit ihrem "
        "Schema im Datenpaket `data/datapackage.json` (Frictionless Data).",
        "**Tables and data.** Tables and figures are numbered in the order of the report. "
        "Every table is also in `tables.xlsx`, and as CSV with its schema in the data "
        "package `data/datapackage.json` (Frictionless Data).",
    ),
    "report.methods.citation": (
        "**Zitiervorschlag:** {title}, Stand der Daten {stand}. Quelle: {source}. Erstellt "
        "mit educatalog {version} am {created}.",
        "**Suggested citation:** {title}, data as of {stand}. Source: {source}. Created with "
        "educatalog {version} on {created}.",
    ),
}
"""The texts of the methodological notes: key -> (German, English)."""

_ORDER = ("catalogue", "units", "durations", "population", "symbols", "limits", "tables")


def method_notes(
    *, title: str, source: str, stand: str, created: str, population: str, min_cases: int = 3
) -> list[tuple[str, dict[str, Any]]]:
    """The paragraphs of the methodological notes, each as its text key and fields, the
    suggested citation last: ``source`` (the data source in words), ``stand`` (the data's
    date), ``created`` (the report's day), ``population`` (the figures in words:
    :func:`educatalog.texts.population_text`), ``min_cases`` (the small-cell rule)."""
    fields: dict[str, Any] = {
        "title": title,
        "source": source,
        "source_start": source[:1].upper() + source[1:],  # a sentence's start
        "stand": stand,
        "created": created,
        "population": population,
        "min_cases": min_cases,
        "version": __version__,
    }
    keys = [f"report.methods.{part}" for part in (*_ORDER, "citation")]
    return [(key, fields) for key in keys]
