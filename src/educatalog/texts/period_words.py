"""The words of the report's period and of the year before (:mod:`educatalog.periods`): what
its counts count, the previous year's columns and notes, a population dated after the data,
in German and English; part of ``educatalog.texts.words.TEXTS``."""

from __future__ import annotations

PERIOD_TEXTS: dict[str, tuple[str, str]] = {
    "period.listed": ("Bestand am {stand}", "listed on {stand}"),
    "note.counted.listed": (
        "Gezählt: der Bestand am {stand}, alle an diesem Tag im Katalog gelisteten "
        "Veranstaltungen, gleich wann sie beginnen{undated}.",
        "Counted: the offer listed on {stand}, every event the catalogue listed that day, "
        "whenever it starts{undated}.",
    ),
    "note.counted.undated": (
        " (darunter {events} ohne Beginndatum)",
        " (among them {events} without a start date)",
    ),
    "note.counted.window": (
        "Gezählt: Veranstaltungen mit {period}, wie sie der Katalog am {stand} listete.",
        "Counted: events with {period}, as the catalogue listed them on {stand}.",
    ),
    "report.period": ("{counted} {before}", "{counted} {before}"),
    "report.year_before.found": (
        "Die Tabellen nach Bundesland, Kreis und Lernform stellen den Veranstaltungen die "
        "des Vorjahres gegenüber: {then}",
        "The tables by state, district and instruction form set the events beside those of "
        "the previous year: {then}",
    ),
    "report.year_before.no_archive": (
        "Einen Vergleich mit dem Vorjahr gibt es nicht: Ohne Archiv (--archive) liegt kein "
        "früherer Stand vor.",
        "There is no comparison with the previous year: without an archive (--archive) no "
        "earlier stand exists.",
    ),
    "report.year_before.none": (
        "Einen Vergleich mit dem Vorjahr gibt es nicht: Das Archiv „{folder}“ hat keinen "
        "Stand etwa ein Jahr ({days} ± {slack} Tage) vor dem {stand}.",
        "There is no comparison with the previous year: the archive “{folder}” holds no "
        "stand about a year ({days} ± {slack} days) before {stand}.",
    ),
    "note.year_before.listed": (
        "Vorjahr: der Bestand am {date} (Archiv „{folder}“), mit denselben Filtern gezählt.",
        "Previous year: the offer listed on {date} (archive “{folder}”), counted with the "
        "same filters.",
    ),
    "note.year_before.window": (
        "Vorjahr: Veranstaltungen mit {period}, wie sie der Katalog am {date} listete "
        "(Archiv „{folder}“), mit denselben Filtern gezählt.",
        "Previous year: events with {period}, as the catalogue listed them on {date} "
        "(archive “{folder}”), counted with the same filters.",
    ),
    "note.year_before.zero": (
        "x: keine Veränderung in %, wo das Vorjahr keine Veranstaltung hatte.",
        "x: no change in % where the previous year had no event.",
    ),
    "column.year_before": ("Veranstaltungen im Vorjahr", "Events in the previous year"),
    "column.change_year_before": (
        "Veränderung gegenüber Vorjahr in %",
        "Change on previous year in %",
    ),
    "note.population_later": (
        "Achtung: Die Einwohnerzahlen (Stand {date}) sind jünger als die Daten (Stand "
        "{stand}); die Raten teilen durch Einwohner eines späteren Tages.",
        "Note: the population figures (as of {date}) are dated after the data (as of "
        "{stand}); the rates divide by inhabitants of a later day.",
    ),
}
"""The texts of periods and the year before: key -> (German, English)."""
