"""The words of tables by district (:mod:`educatalog.tables`): a state's subtotal, the total
of the districts, the notes on events a table of districts leaves out or counts in their
district's state, in German and English; part of ``educatalog.texts.words.TEXTS``."""

from __future__ import annotations

DISTRICT_TEXTS: dict[str, tuple[str, str]] = {
    "total.state": ("{state} zusammen", "{state} total"),
    "total.with_district": (
        "{total} (Veranstaltungen mit Kreis)",
        "{total} (events with a district)",
    ),
    "note.rates_without_district": (
        "Nicht in den Raten: {events} ohne Kreis.",
        "Not in the rates: {events} without a district.",
    ),
    "note.districts_without_state": (
        "{events}, deren Adresse kein Bundesland nennt, zählen im Kreis ihrer Postleitzahl "
        "und in dessen Land: Die Summe eines Landes kann hier größer sein als in der "
        "Tabelle nach Bundesland.",
        "{events} whose address names no state are counted in the district of their postal "
        "code, and in its state: a state's figure here can exceed its row in the table by "
        "state.",
    ),
    "note.distinct_subtotals": (
        "{columns}: in den Zeilen der Länder („… zusammen“) und in der Zeile „{total}“ "
        "jeweils einmal gezählt; da sie in mehreren Kreisen vorkommen können, ist die Summe "
        "der Kreise größer.",
        "{columns}: counted once each in the rows of the states (“… total”) and in the row "
        "“{total}”; as they can appear in several districts, the districts add up to more.",
    ),
}
"""The texts of tables by district: key -> (German, English); ``{name}`` fields are filled in."""
