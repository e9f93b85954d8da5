"""Words as part of a file's name: lower-case ASCII letters, digits and hyphens, the umlauts
spelt out as German does ("Bundesländer" -> "bundeslaender")."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["file_words"]


def file_words(words: str, *, limit: int | None = None) -> str:
    """``words`` as a file name's words, at most ``limit`` characters.

    >>> file_words("Veranstaltungen nach Bundesland und Dauer")
    'veranstaltungen-nach-bundesland-und-dauer'
    """
    lower = words.lower()
    for letter, spelled in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        lower = lower.replace(letter, spelled)
    plain = unicodedata.normalize("NFKD", lower).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:limit]
