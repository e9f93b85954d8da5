"""The explorer's controls: the widgets that choose its view (from the model's options,
:mod:`educatalog.widgets._choices`) and the dashboard's layout around its outputs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import ipywidgets as w

from educatalog import texts
from educatalog.widgets import aria
from educatalog.widgets._choices import FILTERS, Option, View
from educatalog.widgets.display import ui_text
from educatalog.widgets.export import FORMATS

__all__ = ["control_layout", "make_controls", "make_outputs", "show_view"]


def make_controls(
    options: Mapping[str, Sequence[Option]], view: View, voucher: bool, lang: str
) -> dict[str, w.Widget]:
    """The controls by name, showing ``view``: ``by``, ``by2``, ``measure``, ``show``
    (chart or map; none where the frame has no districts), a list per
    filter (``options`` as the view offers them: the districts of its states), ``start``
    (a range of months), ``voucher``, ``reset`` and ``format``."""
    wide = {"description_width": "initial"}
    controls: dict[str, w.Widget] = {
        "by": w.Dropdown(
            options=list(options["by"]), value=view.by, description=ui_text("by", lang), style=wide
        ),
        "by2": w.Dropdown(
            options=list(options["by2"]),
            value=view.by2,
            description=ui_text("by2", lang),
            style=wide,
        ),
        "measure": w.ToggleButtons(
            options=list(options["measure"]),
            value=view.measure,
            description=ui_text("measure", lang),
            style={"button_width": "auto", **wide},
            # label and buttons on one line (ipywidgets 8 puts the buttons under the label)
            layout=w.Layout(width="auto", display="flex", align_items="center"),
        ),
    }
    if len(options["show"]) > 1:
        controls["show"] = w.ToggleButtons(
            options=list(options["show"]),
            value=view.show,
            description=ui_text("show", lang),
            style={"button_width": "auto", **wide},
            layout=w.Layout(width="auto", display="flex", align_items="center"),
        )
    for name, (column, _description) in FILTERS.items():
        if name in options:
            # a filter is named as its dimension ("Lernform"): one word for one thing
            named = texts.capitalized(texts.dimension(column, lang))
            controls[name] = w.SelectMultiple(
                options=list(options[name]),
                value=view.chosen(name),
                rows=min(8, max(3, len(options[name]))),
                description=named,
                style=wide,
                layout=w.Layout(width="auto", min_width="250px"),
                tooltip=ui_text("all", lang, name=named),
            )
    if "start" in options:
        months = list(options["start"])
        controls["start"] = w.SelectionRangeSlider(
            options=months,
            index=view.window or (0, len(months) - 1),
            description=ui_text("start", lang),
            continuous_update=False,
            layout=w.Layout(width="auto"),  # the slider and its readout (aria.STYLE)
        )
    if voucher:
        controls["voucher"] = w.Checkbox(
            value=view.voucher, description=ui_text("voucher", lang), indent=False
        )
    controls["reset"] = w.Button(description=ui_text("reset", lang), layout=w.Layout(width="auto"))
    controls["format"] = w.ToggleButtons(
        options=list(FORMATS), value=view.format, style={"button_width": "70px"}
    )
    return controls


def control_layout(
    controls: Mapping[str, w.Widget],
    outputs: Mapping[str, w.Widget],
    lang: str,
    heading: bool = True,
    months: Sequence[Option] = (),
) -> w.Widget:
    """The dashboard: heading, controls, status, chart beside table, download link; its
    style sheet (:data:`educatalog.widgets.aria.STYLE`: rows of controls wrap on a narrow
    page) and the hidden widget that names the controls for screen readers
    (:func:`educatalog.widgets.aria.aria`, the start slider's ``months``: its options)."""
    c = controls

    def row(*parts: w.Widget) -> w.HBox:
        box = w.HBox(list(parts), layout=w.Layout(flex_flow="row wrap", align_items="center"))
        box.add_class("educatalog-explorer-row")
        return box

    filters = [c[name] for name in FILTERS if name in c]
    # a list box's way of choosing several is not obvious to everyone: said under the lists
    hint = [w.HTML(f"<small>{ui_text('choose', lang)}</small>")] if filters else []
    top = [w.HTML(f"<b>{ui_text('heading', lang)}</b>")] if heading else []
    named = aria.aria([label for label, _month in months], lang)
    return w.VBox(
        [
            w.HTML(aria.STYLE),
            *top,
            row(*(c[name] for name in ("by", "by2", "show") if name in c)),
            c["measure"],
            w.HBox(filters, layout=w.Layout(flex_flow="row wrap")),  # five lists: wrapped
            *hint,
            row(*(c[name] for name in ("start", "voucher", "reset") if name in c)),
            outputs["status"],
            w.HBox(
                [outputs["chart"], outputs["table"]],
                layout=w.Layout(align_items="flex-start", width="100%", flex_flow="row wrap"),
            ),
            row(c["format"], outputs["download"]),
            *([named] if named is not None else []),
        ]
    )


def show_view(
    controls: Mapping[str, w.Widget],
    view: View,
    options: Mapping[str, Sequence[Option]],
    fields: Sequence[str],
) -> None:
    """Set the ``controls`` of ``fields`` to ``view``, and the list of districts to those
    its states offer (``options``)."""
    if "districts" in controls and "districts" in options:
        offered = list(options["districts"])
        if list(controls["districts"].options) != offered:
            controls["districts"].options = offered
    for name in fields:
        if name in controls:
            controls[name].value = getattr(view, name)
    if "start" in controls:
        controls["start"].index = view.window or (0, len(controls["start"].options) - 1)


def make_outputs() -> dict[str, w.Widget]:
    """The explorer's output widgets by name: ``chart``, ``table``, ``status``, ``download``.

    The chart is an ``<img>`` in HTML, not an ipywidgets Image: a browser reads its alt
    text, and an Image with a tooltip fails to render (ipywidgets 8.1). Chart and table
    stand side by side where both fit, the table below the chart where not; the table at its
    own width (at most the page's, scrolling within), the chart the rest.
    """
    return {
        "chart": w.HTML(layout=w.Layout(flex="3 1 420px", min_width="320px")),
        "table": w.HTML(
            layout=w.Layout(flex="2 1 320px", min_width="min-content", max_width="100%")
        ),
        "status": w.HTML(),
        "download": w.HTML(),
    }
