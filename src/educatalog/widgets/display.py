"""What the explorer shows besides its controls: the table as accessible HTML, the status
line with the data's source, the chart as PNG; the explorer's words (``explorer.*`` of
:mod:`educatalog.texts`) in German and English."""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import matplotlib as mpl
import pandas as pd
from matplotlib.figure import Figure

from educatalog import plots, tables, texts
from educatalog.frames.provenance import Source

if TYPE_CHECKING:
    from educatalog.widgets._model import ExplorerModel

__all__ = ["MISSING_LABEL", "export_frame", "table_html"]

MISSING_LABEL = plots.MISSING_LABEL
"""The value of a filter's entry for rows without a value (shown as "ohne Angabe" or
"not stated")."""


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

    A table with the totals of ``margins=True`` (a crosstab's total row and column) shows
    them labelled as :func:`educatalog.tables.present` does. A long table scrolls in a box
    of its own; its header and its total row stay in view there, and the keyboard reaches
    the box (a region named by the table's title). The total's label spans the row labels
    (a table by state has two: the key and the name), so that every total stands under its
    column."""
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
    else:  # a table with its total row (a crosstab's margins): the row at the foot
        last = page.rfind('<tr class="educatalog-total">')
        if last >= 0 and page.endswith("</tr></tbody></table>"):
            row = page[last : -len("</tbody></table>")]
            page = f"{page[:last]}</tbody><tfoot>{row}</tfoot></table>"
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
    """The explorer's word ``key`` in ``lang`` (``explorer.<key>`` of
    :mod:`educatalog.texts`), with ``fields`` filled in."""
    return texts.text(f"explorer.{key}", lang, **fields)


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


def table_output(model: ExplorerModel) -> str:
    """The model's table as the explorer shows it: with its totals (by one dimension the
    total row, by two also the total column) and, where events count in several cells,
    the note that says so."""
    note = (  # events in several rows (subject areas): the rows add up to more
        f"<p role='note' class='educatalog-table-note'><small>{html.escape(model.table_note)}"
        "</small></p>"
        if model.table_note
        else ""
    )
    shown = model.table if model.totals is not None else model.full  # by two: with its totals
    return table_html(shown, model.totals, lang=model.lang, title=model.table_title) + note


def status_text(model: ExplorerModel, *, updates: int | None = None) -> str:
    """The status line: how many events match of how many, the filters, the source;
    ``updates`` (default: the model's recomputes) as :func:`status_html` takes it."""
    lang = model.lang
    matched, total = texts.number(model.matched, lang), texts.number(model.total_events, lang)
    parts = [
        ui_text("match", lang, n=matched, total=total),
        *(html.escape(note) for note in model.notes),
    ]
    if model.shown.ignored:  # the second dimension was the first one
        parts.append(ui_text("ignored", lang))
    if model.chart_note:  # a long dimension: the chart shows its largest groups
        parts.append(html.escape(model.chart_note))
    parts.append(ui_text("updated", lang, seconds=texts.number(model.seconds, lang, 2)))
    shown = model.recomputes if updates is None else updates
    return status_html(" · ".join(parts), model.source, lang, updates=shown)


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
