"""The page's address follows the explorer's view: a widget that writes the view's query
string into the browser's address bar (``history.replaceState``: no reload, no new history
entry), so that the address can be copied and sent as a link to this view.

Reading the link back needs no widget: Voilà hands the page's query string to the visitor's
kernel (``$QUERY_STRING``), where :meth:`educatalog.widgets.Explorer.set_state` restores
the view before the first chart is drawn. Only the dashboard page uses this widget; in
JupyterLab the address belongs to JupyterLab. It needs ``anywidget`` (the ``dashboard``
extra).
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

from educatalog.widgets.url_state import to_query

__all__ = ["AddressBar", "follow"]


class AddressBar(anywidget.AnyWidget):
    """Writes :attr:`query` into the page's address whenever it changes (and on display)."""

    _esm = """
    function render({ model, el }) {
      el.style.display = "none";
      const write = () => {
        const query = model.get("query");
        const url = new URL(window.location.href);
        url.search = query ? "?" + query : "";
        if (url.href !== window.location.href) {
          window.history.replaceState(window.history.state, "", url.href);
        }
      };
      model.on("change:query", write);
      write();
      return () => model.off("change:query", write);
    }
    export default { render };
    """
    query = traitlets.Unicode("").tag(sync=True)


def follow(explorer: Any) -> AddressBar:
    """An :class:`AddressBar` that follows ``explorer``'s view from now on (display it
    with the explorer)."""
    bar = AddressBar(query=to_query(explorer.state))

    def update(_change: Any) -> None:
        bar.query = to_query(explorer.state)

    for control in explorer.controls.values():
        if hasattr(control, "value"):
            control.observe(update, names="value")
    if "start" in explorer.controls:
        explorer.controls["start"].observe(update, names="index")
    return bar
