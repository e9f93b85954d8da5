"""The dashboard names its month slider's two handles for assistive technology, in the
page's language, and gives each its month as the value it says (``widgets._aria``; seen
in a browser by ``tests/browser/test_dashboard.py``, whose axe-core check fails without)."""

from __future__ import annotations

import pandas as pd
import pytest

from educatalog import widgets

NAMES = {"de": ["Beginn ab", "Beginn bis"], "en": ["Start from", "Start until"]}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_sliders_handles_are_named_in_the_pages_language(
    lang: str, offers: pd.DataFrame
) -> None:
    pytest.importorskip("anywidget", reason="the dashboard's page needs the 'dashboard' extra")
    from educatalog.widgets._aria import name_sliders

    explorer = widgets.explorer(offers, debounce=0, lang=lang)
    named = name_sliders(explorer)
    assert named.names == NAMES[lang]
    slider = explorer.controls["start"]
    assert named.months == [label for label, _ in slider.options]  # as the slider shows them
    assert len(named.months) > 1
    assert named.selector == ".educatalog-explorer-start"
    assert "educatalog-explorer-start" in slider._dom_classes
    assert "educatalog-slider-names" in named._dom_classes  # the browser tests wait for it
