"""What the explorers of the dashboard's visitors share (``widgets/_data.py``): one
:class:`ExplorerData` over the offers, each view's numbers computed once for every explorer
that shows it, while each explorer keeps its own view; an explorer over a frame of its own
keeps no view's numbers; a value asked for by many threads at once is computed once."""

from __future__ import annotations

import threading
import time

import pandas as pd
import pytest

from educatalog import stats
from educatalog.widgets import ExplorerData, ExplorerModel
from educatalog.widgets._data import Recent


def test_two_explorers_share_the_numbers_of_a_view_and_keep_their_own_views(
    offers: pd.DataFrame,
) -> None:
    data = ExplorerData(offers)
    first = ExplorerModel(data, debounce=0)
    computed = data.results.misses
    second = ExplorerModel(data, debounce=0)  # the default view: computed by the first
    assert data.results.misses == computed
    assert second.png == first.png
    pd.testing.assert_frame_equal(second.full, first.full)

    first.update(states=("Bayern",))
    assert data.results.misses == computed + 1
    assert second.view.states == ()  # the second visitor's view did not move
    assert int(second.table["events"].sum()) == len(offers)
    bavaria = stats.select(offers, state=["Bayern"])
    assert int(first.table["events"].sum()) == len(bavaria)

    second.update(states=("Bayern",), format="Excel")  # the same view, another file format
    assert data.results.misses == computed + 1
    assert second.png == first.png
    assert second.view.format == "Excel"
    assert first.view.format == "CSV"
    assert second.suffix() == "xlsx"
    assert first.suffix() == "csv"

    english = ExplorerModel(data, debounce=0, lang="en")  # another language: its own numbers
    assert data.results.misses == computed + 2
    assert english.figure_title != first.figure_title


def test_a_chart_drawn_apart_is_rendered_once_on_first_use_and_shared(
    offers: pd.DataFrame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``draw=False`` (the html dashboard's pages): the update computes the numbers and the
    figure, not its PNG; the first ``png`` renders it, and keeps it with the view's numbers,
    so that the next explorer of the view gets it without rendering again."""
    from educatalog.widgets import _model

    rendered: list[int] = []
    real = _model.png_bytes
    monkeypatch.setattr(_model, "png_bytes", lambda fig, dpi: rendered.append(1) or real(fig, dpi))
    data = ExplorerData(offers)
    page = ExplorerModel(data, debounce=0, draw=False)
    page.update(states=("Hessen",))
    assert rendered == []
    assert "png" not in page.timings
    hesse = stats.select(offers, state=["Hessen"])
    assert int(page.table["events"].sum()) == len(hesse)  # the numbers, without the chart
    assert page.alt_text
    png = page.png
    assert png.startswith(b"\x89PNG")
    assert rendered == [1]
    other = ExplorerModel(data, debounce=0, draw=False)
    other.update(states=("Hessen",))
    assert other.png == png  # kept with the view's numbers: not rendered again
    assert rendered == [1]
    drawn = ExplorerModel(data, debounce=0)  # an explorer that draws: the kept PNG too
    drawn.update(states=("Hessen",))
    assert drawn.png == png
    # nor its default view: kept by the first without a PNG, and nobody asked for its chart
    assert rendered == [1]


def test_an_explorer_over_its_own_frame_keeps_no_numbers(offers: pd.DataFrame) -> None:
    model = ExplorerModel(offers, debounce=0)
    assert model.data.results.size == 0
    figure = model.figure
    model.refresh()  # the same view again: drawn again, its figure the model's own
    assert model.figure is not figure
    assert len(model.data.results) == 0


def test_a_value_asked_for_by_many_threads_at_once_is_computed_once() -> None:
    recent: Recent[int] = Recent(2)
    calls = []

    def compute() -> int:
        calls.append(1)
        time.sleep(0.2)  # long enough for the other threads to ask meanwhile
        return 42

    got: list[int] = []
    threads = [
        threading.Thread(target=lambda: got.append(recent.get("k", compute))) for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert got == [42] * 8
    assert len(calls) == 1
    assert (recent.misses, recent.hits) == (1, 7)
    recent.get("a", lambda: 1)
    recent.get("b", lambda: 2)  # the oldest ("k") goes
    assert len(recent) == 2
    assert recent.get("k", lambda: 43) == 43


def test_a_failed_computation_is_raised_and_tried_again() -> None:
    recent: Recent[int] = Recent(2)

    def fails() -> int:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        recent.get("k", fails)
    assert recent.get("k", lambda: 1) == 1
