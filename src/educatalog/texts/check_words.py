"""The names of the data-quality checks (:func:`educatalog.stats.quality`) as a reader
sees them, in German and English; part of ``educatalog.texts.words.TEXTS``."""

from __future__ import annotations

__all__ = ["CHECK_TEXTS"]

CHECK_TEXTS: dict[str, tuple[str, str]] = {
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
    "check.events_without_district": (
        "Veranstaltungen ohne bekannten Kreis",
        "events whose address has no known district",
    ),
    "check.district_no_postal_code": (
        "ohne Kreis: Adresse ohne Postleitzahl",
        "no district: the address has no postal code",
    ),
    "check.district_unknown_postal_code": (
        "ohne Kreis: Postleitzahl nicht im Verzeichnis (Postfach, Großkunde, neu oder fehlerhaft)",
        "no district: postal code not in the table (PO box, large customer, new or malformed)",
    ),
    "check.district_ambiguous": (
        "ohne Kreis: Postleitzahl in mehreren Kreisen, der Ort entscheidet nicht",
        "no district: the postal code lies in several districts and the place does not decide",
    ),
    "check.district_other_state": (
        "ohne Kreis: der Kreis der Postleitzahl liegt in einem anderen Bundesland",
        "no district: the postal code's district lies in another state",
    ),
    "check.events_without_subject": (
        "Veranstaltungen, deren Kurs keinem Fachgebiet zugeordnet ist",
        "events whose course has no subject",
    ),
    "check.unknown_subject": (
        "Veranstaltungen, deren Kurs eine unbekannte Systematik-ID nennt",
        "events whose course names an unknown systematics id",
    ),
    "check.events_without_degree": (
        "Veranstaltungen, deren Kurs keinen Abschluss nennt",
        "events whose course names no degree",
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
}
"""``check.<name>`` -> (German, English) for each check of ``quality()``."""
