"""The explorer as plain HTML, for a page that a server renders per request (the
dashboard's ``html`` engine, :mod:`educatalog.cli.dashboard_html`), without widgets.

:func:`explorer_html` is a ``<form>`` whose fields are the keys of a link
(:mod:`educatalog.widgets.url_state`: ``by``, ``states``, ``start``, ...), showing the
model's view, and the model's outputs: the status line, the chart, the table and the
link that downloads it. The browser's own controls (lists, radio buttons, a checkbox)
need no script and say what they are to a screen reader. Sent, the form asks for the
page of the view it holds; the page's script (``educatalog/templates/explorer-page.js``)
does so without leaving the page, a pause after the last change, as the explorer in a
notebook does, and keeps the view in the address bar.

>>> explorer_html(ExplorerModel(offers, debounce=0), download="download")  # doctest: +SKIP
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import urlencode

from educatalog import texts
from educatalog.widgets._choices import FILTERS, Option
from educatalog.widgets._model import ExplorerModel
from educatalog.widgets.aria import FOCUS
from educatalog.widgets.display import image_html, status_html, status_text, table_output, ui_text
from educatalog.widgets.export import FORMATS
from educatalog.widgets.url_state import to_query

__all__ = ["FORM_ID", "STYLE", "explorer_html", "outputs_html", "reset_query"]

FORM_ID = "educatalog-form"
"""The ``id`` of the form (the file format's buttons below the table belong to it)."""

STYLE = f"""
body {{ font: 14px/1.4 system-ui, sans-serif; color: #1a1a1a; margin: 8px 16px; }}
.educatalog-explorer fieldset {{ border: 0; margin: 0; padding: 0; }}
.educatalog-explorer legend {{ padding: 0; font-weight: 600; }}
.educatalog-row {{ display: flex; flex-flow: row wrap; align-items: flex-end;
  column-gap: 16px; row-gap: 8px; margin: 8px 0; }}
.educatalog-field {{ display: flex; flex-direction: column; gap: 2px; }}
.educatalog-field > span, .educatalog-field > label {{ font-weight: 600; }}
.educatalog-choices {{ display: flex; flex-flow: row wrap; gap: 4px 12px; }}
.educatalog-choices label {{ white-space: nowrap; }}
.educatalog-row.educatalog-filters {{ align-items: flex-start; }}
.educatalog-filters select {{ min-width: 220px; max-width: 100%; }}
.educatalog-explorer select, .educatalog-explorer button, .educatalog-explorer a.educatalog-button
  {{ font: inherit; }}
.educatalog-explorer select:focus, .educatalog-explorer input:focus,
.educatalog-explorer button:focus-visible, .educatalog-explorer a:focus-visible,
.educatalog-table-box:focus-visible {{ outline: 3px solid {FOCUS}; outline-offset: 1px; }}
a.educatalog-button, .educatalog-explorer button {{ display: inline-block; padding: 4px 12px;
  border: 1px solid #555; border-radius: 3px; background: #f2f2f2; color: #1a1a1a;
  text-decoration: none; cursor: pointer; }}
.educatalog-outputs {{ display: flex; flex-flow: row wrap; align-items: flex-start; gap: 16px; }}
.educatalog-chart {{ flex: 3 1 480px; min-width: 300px; }}
.educatalog-table {{ flex: 2 1 320px; min-width: min-content; max-width: 100%; }}
.educatalog-outputs[aria-busy="true"] {{ opacity: 0.55; }}
@media (prefers-reduced-motion: no-preference) {{
  .educatalog-outputs {{ transition: opacity 0.2s; }} }}
"""
"""The page's style sheet: rows of controls that wrap on a narrow page, a 3 px focus
ring (:data:`educatalog.widgets.aria.FOCUS`), chart beside table where both fit, and the
outputs dimmed while the next view is on its way."""


def explorer_html(
    model: ExplorerModel,
    *,
    download: str,
    chart: str | None = None,
    pause: float = 0.3,
    updates: int = 0,
) -> str:
    """The controls of ``model``'s view as a form, then :func:`outputs_html` (``download``
    and ``chart``: as there; ``pause``: the seconds the page's script waits after the last
    change before it asks for the view)."""
    lang = model.lang
    view = model.view
    choices = model.choices()
    query = to_query(model.state)
    row = "<div class='educatalog-row'>{}</div>"
    dims = [
        _select("by", ui_text("by", lang), choices["by"], [view.by]),
        _select("by2", ui_text("by2", lang), choices["by2"], [view.by2]),
    ]
    if len(choices["show"]) > 1:
        dims.append(_radios("show", ui_text("show", lang), choices["show"], view.show))
    filters = [
        _select(
            name,
            texts.capitalized(texts.dimension(column, lang)),
            choices[name],
            view.chosen(name),
            several=True,
        )
        for name, (column, _description) in FILTERS.items()
        if name in choices
    ]
    hint = (
        f"<p id='educatalog-choose' class='educatalog-hint'><small>{ui_text('choose', lang)}"
        "</small></p>"
        if filters
        else ""
    )
    last = [*_window(model), *_voucher(model)]
    reset = html.escape(reset_query(model), quote=True)
    last.append(
        f"<a class='educatalog-button educatalog-reset' href='?{reset}'>"
        f"{html.escape(ui_text('reset', lang))}</a>"
    )
    last.append(f"<button type='submit'>{html.escape(ui_text('apply', lang))}</button>")
    form = (
        f"<form id='{FORM_ID}' class='educatalog-controls' method='get' action='' "
        f"aria-label='{html.escape(ui_text('heading', lang), quote=True)}' "
        f"data-debounce='{round(pause * 1000)}' data-link='?{html.escape(query, quote=True)}' "
        f"data-failed='{html.escape(ui_text('unreachable', lang), quote=True)}'>"
        + row.format("".join(dims))
        + row.format(_radios("measure", ui_text("measure", lang), choices["measure"], view.measure))
        + f"<div class='educatalog-row educatalog-filters'>{''.join(filters)}</div>{hint}"
        + row.format("".join(last))
        + "</form>"
    )
    outputs = outputs_html(model, download=download, chart=chart, updates=updates)
    return f"<div class='educatalog-explorer'>{form}{outputs}</div>"


def outputs_html(
    model: ExplorerModel, *, download: str, chart: str | None = None, updates: int = 0
) -> str:
    """What the view shows: the status line (a live region: a screen reader hears each
    update), the chart beside the table, the file format and the link that downloads the
    table. ``download`` and ``chart`` are the addresses that answer a link's query with
    the table as a file and with the chart as PNG; without ``chart`` the page holds the
    PNG itself (a ``data:`` URI), with it the browser loads the chart apart, in the space
    its size keeps, and the numbers show first. ``updates`` goes into the status line's
    ``data-updates`` (as ``status_html`` writes it). The parts the page's script takes over
    from the next view's page carry the ids ``educatalog-status``, ``educatalog-results``
    and ``educatalog-link``."""
    lang = model.lang
    results = link = ""
    if model.error is not None:
        failed = f"<span style='color:#B00020'>{html.escape(model.error)}</span>"
        status = status_html(failed, model.source, lang, updates=updates)
    else:
        status = status_text(model, updates=updates)
        query = html.escape(to_query(model.state), quote=True)
        image = image_html(model.png, model.alt_text) if chart is None else _image(model, chart)
        results = (
            f"<div class='educatalog-chart'>{image}</div>"
            f"<div class='educatalog-table'>{table_output(model)}</div>"
        )
        if not model.table.empty:
            label = html.escape(ui_text("download", lang, format=model.view.format))
            link = (
                f"<a class='educatalog-download' href='{html.escape(download, quote=True)}"
                f"?{query}' download style='font-weight:bold'>⬇ {label}</a>"
            )
    formats = _radios(
        "format",
        ui_text("aria.format", lang),
        list(FORMATS.items()),
        FORMATS[model.view.format],
        form=FORM_ID,
    )
    return (
        f"<div id='educatalog-status' role='status' aria-live='polite'>{status}</div>"
        f"<div id='educatalog-results' class='educatalog-outputs'>{results}</div>"
        f"<div class='educatalog-row'>{formats}<span id='educatalog-link'>{link}</span></div>"
    )


def reset_query(model: ExplorerModel) -> str:
    """The link of the view with every filter cleared (what "Filter zurücksetzen" does):
    its dimensions, measure, chart or map and file format kept."""
    kept = ("by", "by2", "measure", "show", "format")
    return urlencode({k: v for k, v in model.state.items() if k in kept}, doseq=True)


def _image(model: ExplorerModel, chart: str) -> str:
    """The chart as an ``<img>`` that the browser loads from ``chart`` with the view's
    query, in the width and height of its PNG (scaled to the width it is given)."""
    width, height = (round(inches * model.dpi) for inches in model.figure.get_size_inches())
    drawn = {k: v for k, v in model.state.items() if k != "format"}  # one chart, any format
    source = html.escape(f"{chart}?{urlencode(drawn, doseq=True)}", quote=True)
    return (
        f'<img src="{source}" alt="{html.escape(model.alt_text)}" width="{width}" '
        f'height="{height}" style="max-width:100%;height:auto;display:block">'
    )


def _select(
    name: str,
    label: str,
    options: Sequence[Option],
    chosen: Iterable[Any],
    *,
    several: bool = False,
) -> str:
    """A labelled list: one choice (a drop-down), or ``several`` (a list box whose hint
    says how to choose several, and that nothing chosen means all)."""
    chosen = {str(value) for value in chosen}
    items = "".join(
        f"<option value='{html.escape(str(value), quote=True)}'"
        f"{' selected' if str(value) in chosen else ''}>{html.escape(str(shown))}</option>"
        for shown, value in options
    )
    key = f"educatalog-{name}"
    more = ""
    if several:
        rows = min(8, max(3, len(options)))
        more = f" multiple size='{rows}' aria-describedby='educatalog-choose'"
    return (
        f"<div class='educatalog-field'><label for='{key}'>{html.escape(label)}</label>"
        f"<select id='{key}' name='{name}'{more}>{items}</select></div>"
    )


def _radios(
    name: str, label: str, options: Sequence[Option], chosen: Any, *, form: str | None = None
) -> str:
    """A group of radio buttons named by ``label`` (its legend)."""
    owner = f" form='{form}'" if form else ""
    items = "".join(
        f"<label><input type='radio' name='{name}' value='{html.escape(str(value), quote=True)}'"
        f"{owner}{' checked' if value == chosen else ''}> {html.escape(str(shown))}</label>"
        for shown, value in options
    )
    return (
        f"<fieldset class='educatalog-field educatalog-{name}'><legend>{html.escape(label)}"
        f"</legend><div class='educatalog-choices'>{items}</div></fieldset>"
    )


def _window(model: ExplorerModel) -> list[str]:
    """The months of the start, from and to (two drop-downs), where the data has dates."""
    months = model.options.get("start", [])
    if not months:
        return []
    lang = model.lang
    low, high = model.view.window or (0, len(months) - 1)
    named = ui_text("start", lang)
    options = [(label, str(month)) for label, month in months]
    parts = [
        _select(edge, ui_text(f"aria.{word}", lang, name=named), options, [options[index][1]])
        for edge, word, index in (("start", "from", low), ("end", "to", high))
    ]
    return parts


def _voucher(model: ExplorerModel) -> list[str]:
    """The voucher's checkbox, where the data says which offers take one."""
    if not model.has_voucher:
        return []
    checked = " checked" if model.view.voucher else ""
    label = html.escape(ui_text("voucher", model.lang))
    return [
        "<div class='educatalog-field'><label>"
        f"<input type='checkbox' name='voucher' value='1'{checked}> {label}</label></div>"
    ]
