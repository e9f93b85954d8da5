"""What a table says of its data wherever it stands alone (a sheet of the workbook, a CSV
file): source, "Stand", filters and the demo mark, in the reader's language."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from educatalog import texts
from educatalog.frames.provenance import Source

if TYPE_CHECKING:
    from educatalog.tables import Table

__all__ = ["Provenance"]


@dataclass(frozen=True)
class Provenance:
    """What a table standing alone says of its data (a sheet, a CSV file), in its language:
    above it its title with the demo mark (:meth:`heading`), under its notes the source,
    "Stand", filters and demo mark (:meth:`lines`)."""

    lang: str
    source: Source | None
    filters: Sequence[str]
    population: Mapping[str, Any] | None

    @property
    def demo(self) -> bool:
        return self.source is not None and self.source.demo

    def heading(self, table: Table, fallback: str = "") -> str:
        """The table's title (else ``fallback``), with the demo mark for synthetic data."""
        heading = table.title or fallback
        if self.demo:
            heading = f"{heading} – {texts.text('demo_mark', self.lang)}"
        return heading

    def lines(self, table: Table) -> list[tuple[str, str]]:
        """(label, text) of the lines under a table, after its notes (a per-capita table's
        name its population figures): source, Stand, filters ("none" when there are none, for a
        table of the selection), the demo mark."""
        lang = self.lang
        source = table.source or self.source
        described = source.text(lang, dated=False) if source else texts.text("source.unknown", lang)
        lines = [(texts.text("excel.source", lang), described)]
        stand = table.stand or (texts.date(source.stand, lang) if source else None)
        if stand:
            lines.append((texts.text("excel.stand", lang), stand))
        if table.filtered:  # every sheet says what it counted, with filters or without
            filters = "; ".join(self.filters) or texts.text("excel.none", lang)
            lines.append((texts.text("excel.filters", lang), filters))
        if self.demo or (source is not None and source.demo):
            lines.append((texts.text("excel.note", lang), texts.text("excel.demo", lang)))
        return lines
