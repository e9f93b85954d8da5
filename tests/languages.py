"""Words and number formats that give a language away: what the language tests of charts,
tables, workbooks and reports look for (``foreign(text, lang)``)."""

from __future__ import annotations

import re
from typing import Any

# Words and number formats that give the other language away.
GERMAN = re.compile(
    r"Quelle|Veranstaltung|Bundesland|ohne Angabe|Keine Angabe|abgerufen|Anteil|Anzahl|"
    r"SYNTHETISCHE|Einwohner|Lernform|Dauer| nach | je |Präsenz|bis 3 Tage|\bBayern\b|"
    r"Statistisches|Fortschreibung|Tabelle|Stand "
)
ENGLISH = re.compile(
    r"Source|\b[Ee]vents?\b|\bstate\b|retrieved|not stated|Share|Number|SYNTHETIC|"
    r"inhabitants|\bduration\b| by | within |\bunknown\b"
)
GERMAN_NUMBERS = re.compile(r"\d\.\d{3}(?!\d)|\d,\d{1,2}(?!\d)|\d[\u00a0 ]%")
ENGLISH_NUMBERS = re.compile(r"\d,\d{3}(?!\d)|\d%")


def foreign(text: str, lang: str) -> list[str]:
    """What in ``text`` belongs to the other language or its number format."""
    words, numbers = (ENGLISH, ENGLISH_NUMBERS) if lang == "de" else (GERMAN, GERMAN_NUMBERS)
    return [m.group(0) for p in (words, numbers) for m in p.finditer(text)]


def proper_names(client: Any) -> list[str]:
    """Names of funding programmes ("Meisterbonus Bayern") that ``client`` serves, longest
    first: names stay as the catalogue names them, in either language, like a course's
    title, so the language tests take them out first (:func:`without`)."""
    import educatalog

    lists = educatalog.load_catalogue(
        client, ["funding_types_federals", "funding_types_regions"], progress=False
    )
    names = [str(n) for frame in lists.values() for n in frame["name"].dropna()]
    return sorted(names, key=len, reverse=True)


def without(text: str, names: list[str]) -> str:
    """``text`` without ``names`` (:func:`proper_names`)."""
    for name in names:
        text = text.replace(name, "")
    return text
