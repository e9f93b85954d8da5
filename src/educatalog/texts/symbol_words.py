"""The words of the symbols in tables (:mod:`educatalog.tables.symbols`): the explanation of
symbols as the Federal Statistical Office (Destatis) words it, the notes on the small-cell
rule and the licence of the population figures, in German and English; part of
``educatalog.texts.words.TEXTS``."""

from __future__ import annotations

__all__ = ["SYMBOL_TEXTS"]

SYMBOL_TEXTS: dict[str, tuple[str, str]] = {
    "symbols.title": ("Zeichenerklärung", "Explanation of symbols"),
    "symbols.nothing": ("nichts vorhanden (genau null)", "nil (exactly zero)"),
    "symbols.less_than_half": (
        "weniger als die Hälfte von 1 in der letzten besetzten Stelle, jedoch mehr als nichts "
        "(auch 0,0 oder 0,00)",
        "less than half of 1 in the last digit shown, but more than nothing (also 0.0 or 0.00)",
    ),
    "symbols.unknown": ("Zahlenwert unbekannt", "figure unknown"),
    "symbols.unreliable": (
        "keine Angabe, da Zahlenwert nicht sicher genug",
        "no figure, as it is not reliable enough",
    ),
    "symbols.not_meaningful": (
        "Tabellenfach gesperrt, weil Aussage nicht sinnvoll",
        "no figure, as a statement would not be meaningful",
    ),
    "symbols.entry": ("{symbol} = {meaning}", "{symbol} = {meaning}"),
    "note.small_cells.costs": (
        "/: Kosten (Minimum, Quartile, Median, Maximum, Mittelwert), die auf weniger als "
        "{n} Kursen beruhen, sind nicht sicher genug und werden nicht angegeben.",
        "/: costs (minimum, quartiles, median, maximum, mean) resting on fewer than {n} "
        "courses are not reliable enough and are not shown.",
    ),
    "note.small_cells.costs_events": (
        "/: Kosten (Minimum, Quartile, Median, Maximum, Mittelwert), die auf weniger als "
        "{n} Veranstaltungen beruhen, sind nicht sicher genug und werden nicht angegeben.",
        "/: costs (minimum, quartiles, median, maximum, mean) resting on fewer than {n} "
        "events are not reliable enough and are not shown.",
    ),
    "note.small_cells.rates": (
        "/: Raten, die auf weniger als {n} Veranstaltungen beruhen, sind nicht sicher genug "
        "und werden nicht angegeben (0 Veranstaltungen: –).",
        "/: rates resting on fewer than {n} events are not reliable enough and are not "
        "shown (no events: –).",
    ),
    "note.small_cells.unranked_one": (
        "Nicht in der Liste: 1 Kreis, dessen Rate aus diesem Grund nicht angegeben wird („/“).",
        "Not in the list: 1 district whose rate is not shown for this reason (“/”).",
    ),
    "note.small_cells.unranked": (
        "Nicht in der Liste: {districts} Kreise, deren Rate aus diesem Grund nicht angegeben "
        "wird („/“).",
        "Not in the list: {districts} districts whose rate is not shown for this reason (“/”).",
    ),
    "note.not_meaningful.no_costs": (
        "keine Kurse mit Kostenangabe",
        "no course states a cost",
    ),
    "note.not_meaningful.no_region": (
        "keine Einwohnerzahl, da die Region unbekannt ist",
        "no inhabitants, as the region is unknown",
    ),
    # the licence of the population figures, in their source note
    "population.licence": ("{source}; Lizenz: {licence}", "{source}; licence: {licence}"),
    "licence.dl-de-by-2-0": (
        "Datenlizenz Deutschland – Namensnennung – Version 2.0 (dl-de/by-2-0)",
        "Data licence Germany – attribution – version 2.0 (dl-de/by-2-0)",
    ),
}
"""The texts of the symbols: key -> (German, English)."""
