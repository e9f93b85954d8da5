"""What the explorer shows besides its controls: the table as accessible HTML, the status
line with the data's source, the chart as PNG, and the words of the dashboard in German
and English."""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Mapping
from typing import Any

import matplotlib as mpl
import pandas as pd
from matplotlib.figure import Figure

from educatalog import plots, tables, texts
from educatalog.frames.provenance import Source

__all__ = ["MISSING_LABEL", "export_frame", "table_html"]

MISSING_LABEL = plots.MISSING_LABEL
"""The value of a filter's entry for rows without a value (shown as "ohne Angabe" or
"not stated")."""

_UI: dict[str, tuple[str, str]] = {
    # control or message: (German, English)
    "heading": ("Kursangebot erkunden", "Course supply explorer"),
    "by": ("Zählen nach", "Count by"),
    "by2": ("und nach", "and by"),
    "measure": ("Maß", "Measure"),
    "show": ("Darstellung", "Show"),
    "show.chart": ("Diagramm", "Chart"),
    "show.map": ("Karte", "Map"),
    "map.hint": (
        "alle Kreise zeigt die Karte (Darstellung: Karte)",
        "the map shows every district (Show: Map)",
    ),
    "map.capacity": (
        "Die Karte zeigt Veranstaltungen, Kurse oder Anbieter, keine Plätze.",
        "The map shows events, courses or institutions, not places.",
    ),
    "map.none": (
        "Die Auswahl enthält keinen Kreis.",
        "The selection holds no district.",
    ),
    "map.other": (
        "Wählen Sie ein anderes Maß oder die Darstellung Diagramm.",
        "Choose another measure, or Show Chart.",
    ),
    "map.states": (
        "Wählen Sie ein Bundesland oder die Darstellung Diagramm.",
        "Choose a state, or Show Chart.",
    ),
    "states": ("Bundesländer", "States"),
    "districts": ("Kreise", "Districts"),
    "categories": ("Lernformen", "Forms"),
    "durations": ("Dauer", "Durations"),
    "subject_areas": ("Fachgebiete", "Subject areas"),
    "choose": (
        "Mehrere wählen: Strg-Taste (Mac: ⌘) gedrückt halten und klicken. Nichts gewählt heißt: "
        "alle.",
        "To choose several, hold Ctrl (Mac: ⌘) and click. Nothing chosen means all.",
    ),
    "all": ("{name}: keine Auswahl heißt alle", "{name}: none selected means all"),
    "start": ("Beginn", "Start"),
    "voucher": ("nur mit Bildungsgutschein", "Voucher only"),
    "reset": ("Filter zurücksetzen", "Clear filters"),
    "download": ("Tabelle herunterladen ({format})", "Download the table ({format})"),
    "match": (
        "<b>{n}</b> von {total} Veranstaltungen passen",
        "<b>{n}</b> of {total} events match",
    ),
    "ignored": (
        "zweite Dimension ignoriert: dieselbe wie die erste",
        "second dimension ignored: the same as the first",
    ),
    "updated": ("aktualisiert in {seconds} s", "updated in {seconds} s"),
    "voucher_only": ("nur mit Bildungsgutschein", "voucher only"),
    "range": ("Beginn {low} bis {high}", "start {low} to {high}"),
    "top": (
        "Diagramm: die {top} größten von {levels} Gruppen, Tabelle: alle",
        "chart: the largest {top} of {levels} groups, table: all",
    ),
    "demo": ("synthetische Demodaten", "synthetic demo data"),
    "failed": ("Export fehlgeschlagen: {error}", "Export failed: {error}"),
    "measures": ("Veranstaltungen|Kurse|Anbieter|Plätze", "Events|Courses|Institutions|Places"),
    "link.key": (
        "Link: „{part}“ gibt es nicht (es gibt: {keys}); ignoriert.",
        'Link: there is no "{part}" (there are: {keys}); ignored.',
    ),
    "link.value": (
        "Link: {part}={value} gibt es nicht (es gibt: {allowed}); ignoriert.",
        "Link: there is no {part}={value} (there are: {allowed}); ignored.",
    ),
    "link.close": (
        "Link: {part}={value} gibt es nicht ({close}); ignoriert.",
        "Link: there is no {part}={value} ({close}); ignored.",
    ),
    "link.similar": ("ähnlich: {names}", "similar: {names}"),
    "link.count": ("es gibt {n} zur Wahl", "there are {n} to choose from"),
    "link.outside": (
        "Link: {part}={value} liegt in keinem der gewählten Bundesländer ({states}); ignoriert.",
        "Link: {part}={value} lies in none of the states chosen ({states}); ignored.",
    ),
    "link.month": (
        "Link: {part}={value} ist kein Monat (JJJJ-MM); ignoriert.",
        "Link: {part}={value} is not a month (YYYY-MM); ignored.",
    ),
    "link.range": (
        "Link: {part}={value} liegt außerhalb der Daten ({first} bis {last}); "
        "der nächste Monat gilt.",
        "Link: {part}={value} lies outside the data ({first} to {last}); "
        "the nearest month is used.",
    ),
}


def export_frame(table: pd.DataFrame) -> pd.DataFrame:
    """The table with its labels as text (missing ones as
    :data:`educatalog.plots.MISSING_LABEL`), the values as they are."""
    out = table.copy()
    out.index = pd.Index([_label(k) for k in table.index], name=table.index.name)
    out.columns = pd.Index([_label(k) for k in table.columns], name=table.columns.name)
    return out


def table_html(
    table: pd.DataFrame,
    totals: Mapping[str, Any] | None = None,
    *,
    lang: str = texts.DEFAULT_LANG,
    title: str | None = None,
) -> str:
    """The table as accessible HTML in ``lang`` (:func:`educatalog.tables.present`):
    headers in words, counts with the language's thousands separators, shares in percent,
    missing groups as "ohne Angabe" / "not stated", an optional total row (a capacity
    nobody states is ".", not 0), the symbols of official statistics and their explanation
    under the table (:mod:`educatalog.tables.symbols`).

    A long table scrolls in a box of its own; its header and its total row stay in view
    there, and the keyboard reaches the box (a region named by the table's title). The
    total's label spans the row labels (a table by state has two: the key and the name),
    so that every total stands under its column."""
    presented = tables.present(table, lang, title=title, total_row=totals)
    page = presented.to_html()
    if totals is not None:
        cells = "".join(
            f"<td>{html.escape(presented.cell(totals.get(str(c), pd.NA), h))}</td>"
            for c, h in zip(table.columns, presented.frame.columns, strict=True)
        )
        total = html.escape(texts.text("total", lang))
        span = presented.frame.index.nlevels
        label = f'<th scope="row" colspan="{span}">' if span > 1 else '<th scope="row">'
        foot = f"<tfoot><tr>{label}{total}</th>{cells}</tr></tfoot>"
        page = page.replace("</tbody></table>", f"</tbody>{foot}</table>", 1)
    # Row labels on one line: the table takes the width its labels need, the chart the rest.
    box = ".educatalog-table-box"
    keep = (
        f"<style>{box}{{max-height:560px;overflow:auto}}"
        f"{box} table.educatalog-table tbody th{{white-space:nowrap}}"
        f"{box} table.educatalog-table tfoot th{{text-align:left}}"
        # stuck cells draw their rules as shadows: collapsed borders stay where they were
        f"{box} table.educatalog-table thead>tr>*"
        "{position:sticky;top:0;background:#fff;box-shadow:inset 0 -1px #555}"
        f"{box} table.educatalog-table tfoot>tr>*"
        "{position:sticky;bottom:0;background:#fff;box-shadow:inset 0 1px #555}</style>"
    )
    legend = html.escape(tables.symbols.Legend(lang).line())
    legend = f"<p role='note' class='educatalog-legend'><small>{legend}</small></p>"
    # A box that scrolls is reached by the keyboard, and says which table it holds.
    named = f" role='region' aria-label='{html.escape(title, quote=True)}'" if title else ""
    opening = f"<div class='educatalog-table-box' tabindex='0'{named}>"
    return f"{keep}{opening}{page}</div>{legend}"


def ui_text(key: str, lang: str, **fields: Any) -> str:
    template = _UI[key][texts.LANGS.index(texts.check_lang(lang))]
    return template.format(**fields) if fields else template


def _label(key: Any) -> str:
    if key is None or (not isinstance(key, str) and bool(pd.isna(key))):
        return MISSING_LABEL
    return str(key)


def title_of(fig: Figure) -> str | None:
    axes = fig.axes
    return (axes[0].get_title(loc="left") or None) if axes else None


def status_html(
    text: str, source: Source | None, lang: str = texts.DEFAULT_LANG, *, updates: int = 0
) -> str:
    """The status line: ``text``, then the data's source (marked where it is the demo).
    ``updates`` (how many updates ran) goes into the ``data-updates`` attribute, which
    readers never see: a test waits on it to know that an update ran, or none did."""
    described = source.text(lang) if source is not None else texts.text("source.unknown", lang)
    origin = html.escape(texts.text("source", lang, source=described))
    if source is not None and source.demo:
        mark = html.escape(ui_text("demo", lang))
        origin = f"<span style='color:#B00020;font-weight:bold'>{mark}</span> · {origin}"
    return f"<div style='font-size:12px' data-updates='{updates}'>{text}<br>{origin}</div>"


def image_html(png: bytes, alt: str) -> str:
    """The chart as an ``<img>`` that carries the PNG in a ``data:`` URI and what it shows
    in its ``alt`` text, scaled to the width it is given."""
    encoded = base64.b64encode(png).decode("ascii")
    return (
        f'<img src="data:image/png;base64,{encoded}" alt="{html.escape(alt)}" '
        'style="max-width:100%;height:auto;display:block">'
    )


def png_bytes(fig: Figure, dpi: int) -> bytes:
    buffer = io.BytesIO()
    with mpl.rc_context(plots.STYLE):
        fig.savefig(buffer, format="png", dpi=dpi)  # not "tight": a second layout, +30 %
    return buffer.getvalue()


def empty_figure(
    lang: str = texts.DEFAULT_LANG, title: str | None = None, hint: str | None = None
) -> Figure:
    fig = Figure(figsize=(8.0, 2.8))
    title = title or texts.text("empty.title", lang)
    fig.text(0.5, 0.55, title, ha="center", fontsize=13)
    hint = hint or texts.text("empty.hint", lang)
    fig.text(0.5, 0.4, hint, ha="center", fontsize=10, color="#555555")
    return fig
