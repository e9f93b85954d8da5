"""What the explorer's page shows that ipywidgets draws without saying it, and how it looks:
a hidden widget that gives the controls their words for screen readers, and the style
sheet of the explorer (a visible focus ring, rows that wrap on a narrow page).

ipywidgets 8 leaves a few things unsaid: the range slider of the start announces the
position of its handles ("3"), not their month; the buttons of the measure, the view and
the file format have no pressed state; and the file format's buttons have no name. The
hidden ``Aria`` widget (``anywidget``, where it is installed: the dashboard's extra) sits in
the explorer's box and keeps, as the controls change, each slider handle's
``aria-valuetext`` (the month the slider shows: "März 2025"), its ``aria-label`` ("Beginn
ab", "Beginn bis"), each toggle button's ``aria-pressed`` and each group of buttons'
``role="group"`` and name. :data:`STYLE` draws a 3 px focus ring (contrast above 3:1) on
every list, button, box and handle, and lets the rows of controls wrap instead of
overlapping or cutting their labels.
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Sequence
from typing import Any

from educatalog.widgets.display import ui_text

__all__ = ["FOCUS", "STYLE", "aria", "available"]

FOCUS = "#1F4E9E"
"""The colour of the focus ring: dark blue, 8.6:1 against white, 7.3:1 against the grey
of a button."""

STYLE = f"""<style>
.educatalog-explorer select:focus,
.educatalog-explorer button:focus-visible,
.educatalog-explorer input:focus-visible,
.educatalog-explorer .noUi-handle:focus-visible {{
  outline: 3px solid {FOCUS} !important;
  outline-offset: 1px;
}}
.educatalog-explorer .educatalog-explorer-row {{
  flex-flow: row wrap;
  align-items: center;
  column-gap: 12px;
  row-gap: 4px;
}}
.educatalog-explorer .educatalog-explorer-row > * {{
  flex: 0 1 auto;
  max-width: 100%;
}}
.educatalog-explorer .educatalog-explorer-start {{
  flex: 0 1 auto;
  width: auto;
  min-width: 300px;
}}
.educatalog-explorer .educatalog-explorer-start .slider-container {{
  min-width: 160px;
}}
.educatalog-explorer .educatalog-explorer-start .widget-readout {{
  max-width: none;
  overflow: visible;
}}
.educatalog-explorer .educatalog-explorer-reset,
.educatalog-explorer .educatalog-explorer-voucher {{
  flex: 0 0 auto;
  width: auto;
}}
.educatalog-explorer .widget-toggle-buttons,
.educatalog-explorer .widget-toggle-buttons .widget-label {{
  flex-shrink: 0;
}}
.educatalog-explorer .widget-toggle-buttons .widget-toggle-button {{
  min-width: max-content;
}}
</style>"""
"""The explorer's style sheet (in an HTML widget of its box; every rule under
``.educatalog-explorer``)."""

_ESM = """
function render({ model, el }) {
  el.style.display = "none";
  let observer = null;
  let tries = 0;
  const set = (node, name, value) => {
    if (value !== undefined && value !== null && node.getAttribute(name) !== value) {
      node.setAttribute(name, value);
    }
  };
  const fix = (root) => {
    const months = model.get("months");
    const words = model.get("words");
    const handles = root.querySelectorAll(
      ".educatalog-explorer-start .noUi-handle[role=slider]"
    );
    handles.forEach((handle, i) => {
      const index = Math.round(Number(handle.getAttribute("aria-valuenow")));
      set(handle, "aria-valuetext", months[index]);
      set(handle, "aria-label", i === 0 ? words.from : words.to);
    });
    root.querySelectorAll(".widget-toggle-buttons").forEach((group) => {
      set(group, "role", "group");
      const label = group.querySelector(".widget-label");
      const named = label && label.textContent.trim();
      const format = group.classList.contains("educatalog-explorer-format");
      set(group, "aria-label", named || (format ? words.format : undefined));
      group.querySelectorAll("button").forEach((button) => {
        set(button, "aria-pressed", button.classList.contains("mod-active") ? "true" : "false");
      });
    });
  };
  const attach = () => {
    const root = el.closest(".educatalog-explorer");
    if (!root) {
      if (tries++ < 600) setTimeout(attach, 100);
      return;
    }
    fix(root);
    observer = new MutationObserver(() => fix(root));
    observer.observe(root, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["class", "aria-valuenow"],
    });
    model.on("change:months", () => fix(root));
  };
  attach();
  return () => observer && observer.disconnect();
}
export default { render };
"""


def available() -> bool:
    """Whether the hidden widget of :func:`aria` can be drawn (``anywidget`` is installed)."""
    return importlib.util.find_spec("anywidget") is not None


def aria(months: Sequence[str], lang: str) -> Any:
    """The hidden widget that gives the explorer's controls their words (put it in the
    explorer's box): ``months``, the start slider's labels in order, in ``lang``. None
    without ``anywidget``."""
    if not available():
        return None
    start = ui_text("start", lang)
    words = {
        "from": ui_text("aria.from", lang, name=start),
        "to": ui_text("aria.to", lang, name=start),
        "format": ui_text("aria.format", lang),
    }
    return _widget_class()(months=list(months), words=words)


@functools.cache
def _widget_class() -> Any:
    """:class:`Aria`, defined once ``anywidget`` is known to be there."""
    import anywidget
    import traitlets

    class Aria(anywidget.AnyWidget):
        """The controls' words for screen readers (see the module)."""

        _esm = _ESM
        months = traitlets.List(traitlets.Unicode()).tag(sync=True)
        words = traitlets.Dict().tag(sync=True)

    return Aria
