"""Names for assistive technology that ipywidgets leaves out of the dashboard's page: the
two handles of the range slider of months (``Beginn``) are ARIA sliders without a name,
and their value is the month's number in the list, not the month. :class:`SliderNames`
names each handle ("Beginn ab", "Beginn bis") and says its month as ``aria-valuetext``;
ipywidgets draws the handles anew when the slider is rebuilt, so it watches the page and
names them again (its element, class ``educatalog-slider-names``, says ``data-ready``
once it watches). Only the dashboard page shows this widget (it needs ``anywidget``, the
``dashboard`` extra)."""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

from educatalog import texts

__all__ = ["SliderNames", "name_sliders"]

_NAMES = {"de": ["Beginn ab", "Beginn bis"], "en": ["Start from", "Start until"]}
"""The handles' names: the slider's description ("Beginn", "Start"), from and to."""


class SliderNames(anywidget.AnyWidget):
    """Names the handles of every range slider under :attr:`selector` in the page."""

    _esm = """
    function render({ model, el }) {
      el.style.display = "none";
      const name = () => {
        const names = model.get("names"), months = model.get("months");
        const handles = document.querySelectorAll(model.get("selector") + " .noUi-handle");
        handles.forEach((handle, n) => {
          const wanted = names[Math.min(n, names.length - 1)];
          if (handle.getAttribute("aria-label") !== wanted) {
            handle.setAttribute("aria-label", wanted);
          }
          const month = months[Number(handle.getAttribute("aria-valuenow"))];
          if (month !== undefined && handle.getAttribute("aria-valuetext") !== month) {
            handle.setAttribute("aria-valuetext", month);
          }
        });
      };
      // handles drawn anew, a value moved, or the slider's class set after it is shown
      const watch = new MutationObserver(name);
      watch.observe(document.body, {
        childList: true, subtree: true, attributes: true,
        attributeFilter: ["aria-valuenow", "aria-valuetext", "class"],
      });
      model.on("change", name);
      name();
      el.dataset.ready = "true";  // from now on every handle is named as it appears
      return () => { watch.disconnect(); model.off("change", name); };
    }
    export default { render };
    """
    selector = traitlets.Unicode(".educatalog-explorer-start").tag(sync=True)
    names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    months = traitlets.List(traitlets.Unicode()).tag(sync=True)


def name_sliders(explorer: Any) -> SliderNames:
    """A :class:`SliderNames` for ``explorer``'s slider of months, in its language
    (display it with the explorer)."""
    slider = explorer.controls.get("start")
    months = [str(label) for label, _ in slider.options] if slider is not None else []
    names = _NAMES[texts.check_lang(explorer.lang)]
    widget = SliderNames(names=names, months=months)
    widget.add_class("educatalog-slider-names")
    return widget
