"""The explorer's view as a link (``widgets/url_state.py``) and the dashboard's page for a
link (``dashboard.show``): a view goes into a query string and comes back the same; a link
may name choices as the page shows them, in either language; what a link gets wrong is
said in the reader's words, and a view the explorer fails on still opens a page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from educatalog import stats, widgets
from educatalog.widgets import Explorer
from educatalog.widgets.url_state import from_query, to_query


@pytest.fixture
def german(offers: pd.DataFrame) -> Explorer:
    return widgets.explorer(offers, debounce=0, lang="de")


@pytest.fixture
def english(offers: pd.DataFrame) -> Explorer:
    return widgets.explorer(offers, debounce=0, lang="en")


def test_a_view_goes_into_a_link_and_comes_back(german: Explorer, offers: pd.DataFrame) -> None:
    view = {
        "by": "duration_class",
        "by2": "instruction_form_category",
        "measure": "capacity",
        "states": ["Bayern", "Sachsen"],
        "start": "2025-03",
        "voucher": "1",
        "format": "xlsx",
    }
    assert german.set_state(view) == []
    assert german.error is None
    query = to_query(german.state)
    assert query == (
        "by=duration_class&by2=instruction_form_category&measure=capacity"
        "&states=Bayern&states=Sachsen&start=2025-03&voucher=1&format=xlsx"
    )
    assert from_query(query) == german.state
    other = widgets.explorer(offers, debounce=0, lang="de")
    assert other.set_state(query) == []
    assert other.state == german.state
    assert other.table.equals(german.table)


def test_a_link_may_name_choices_as_the_page_shows_them(english: Explorer) -> None:
    problems = english.set_state("states=Bavaria&states=bayern&states=Saxony&measure=Courses")
    assert problems == []
    assert english.controls["states"].value == ("Bayern", "Sachsen")  # once each
    assert english.controls["measure"].value == "courses"
    assert to_query(english.state) == "measure=courses&states=Bayern&states=Sachsen"


def test_what_a_link_gets_wrong_is_said_in_the_readers_words(german: Explorer) -> None:
    problems = german.set_state("states=Bayren&states=Sachsen&by=nonsense&measure=sitze&x=1")
    assert german.controls["states"].value == ("Sachsen",)
    assert german.controls["by"].value == "state"
    text = "\n".join(problems)
    assert "states=Bayren gibt es nicht (es gibt: Baden-Württemberg, Bayern," in text
    # the choices as the page names them, not the column names behind them
    assert "by=nonsense gibt es nicht (es gibt: Dauer, Bundesland, " in text
    assert "duration_class" not in text
    assert "measure=sitze gibt es nicht (es gibt: Veranstaltungen, Kurse, " in text
    assert "„x“ gibt es nicht" in text
    # Months: in either order the months between them; outside the data its nearest end.
    months = [str(m) for m in german.model.months]
    assert german.set_state(f"start={months[5]}&end={months[2]}") == []
    assert german.state == {"start": months[2], "end": months[5]}
    for part in ("start=2000-01", "end=2099-12"):
        problems = german.set_state(part)
        assert german.state == {}, part  # from the first month, to the last
        assert [p.split(" (")[0] for p in problems] == [f"Link: {part} liegt außerhalb der Daten"]


def test_the_address_holds_the_view_the_page_opened_with_and_follows_it(
    german: Explorer,
) -> None:
    """The dashboard's address (``url_sync.follow``): from the start the view of the link
    the page was opened with, then every change of a control."""
    pytest.importorskip("anywidget", reason="the dashboard's page needs the 'dashboard' extra")
    from educatalog.widgets.url_sync import follow

    assert german.set_state("measure=courses&states=Bayern") == []
    bar = follow(german)
    assert bar.query == "measure=courses&states=Bayern"
    german.controls["states"].value = ("Bayern", "Sachsen")
    assert bar.query == "measure=courses&states=Bayern&states=Sachsen"
    months = german.controls["start"].options
    german.controls["start"].index = (1, len(months) - 1)
    assert bar.query == f"measure=courses&states=Bayern&states=Sachsen&start={months[1][1]}"


def test_places_by_two_dimensions(german: Explorer, offers: pd.DataFrame) -> None:
    assert german.set_state("by=duration_class&by2=state&measure=capacity") == []
    assert german.error is None
    bayern = offers[offers["state"] == "Bayern"]
    places = bayern.groupby("duration_class", observed=True)["max_participants"].sum(min_count=1)
    for duration, n in places.items():
        if not pd.isna(n):
            assert german.table.loc[duration, "Bayern"] == n
    assert german.figure_title == "Plätze nach Dauer und Bundesland"


def test_a_view_the_explorer_fails_on_opens_the_plain_view_and_says_why(
    german: Explorer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytest.importorskip("anywidget", reason="the dashboard's page needs the 'dashboard' extra")
    from educatalog.cli.dashboard import Prepared, show

    drawn = german.model._draw

    def draw(frame: pd.DataFrame, dims: list[str], measure: str) -> Any:
        if measure == "courses":
            raise RuntimeError("a mistake of the explorer's")
        return drawn(frame, dims, measure)

    monkeypatch.setattr(german.model, "_draw", draw)
    box = show(Prepared(german, "de", tmp_path, False), query="measure=courses&states=Bayern")
    head = box.children[0].value
    assert "Die Ansicht dieses Links ließ sich nicht zeigen" in head
    assert "RuntimeError: a mistake of the explorer&#x27;s" in head
    assert german.state == {}  # the plain view
    assert german.error is None
    assert "Veranstaltungen nach Bundesland" in german.alt_text


def test_a_district_view_goes_into_a_link_and_comes_back(
    german: Explorer, english: Explorer, offers: pd.DataFrame
) -> None:
    """A view by district with a district filter: into the link and back, the same table;
    a district may be named by its key, and the districts offered follow the states."""
    view = {
        "by": "district",
        "by2": "duration_class",
        "states": ["Bayern", "Sachsen"],
        "districts": ["München, Stadt", "Leipzig, Stadt"],
    }
    assert german.set_state(view) == []
    query = to_query(german.state)
    assert query == (
        "by=district&by2=duration_class&states=Bayern&states=Sachsen"
        "&districts=M%C3%BCnchen%2C+Stadt&districts=Leipzig%2C+Stadt"
    )
    assert from_query(query) == german.state
    # the English page reads the German link; states by their English names, a district
    # by its key
    assert english.set_state(query) == []
    assert english.state == german.state
    assert english.table.equals(german.table)
    assert english.set_state("by=District&show=Karte&states=Bavaria&districts=09162") == []
    assert english.state == {
        "by": "district",
        "show": "map",  # the map, named as the German page names it
        "states": ["Bayern"],
        "districts": ["München, Stadt"],
    }
    assert to_query(english.state) == (
        "by=district&show=map&states=Bayern&districts=M%C3%BCnchen%2C+Stadt"
    )
    assert english.controls["show"].value == "map"
    assert english.alt_text.startswith("Map of the districts: Events by district: Bavaria.")
    assert english.controls["districts"].value == ("München, Stadt",)
    bavaria = [value for _label, value in english.controls["districts"].options]
    assert len(bavaria) == 97
    assert "Leipzig, Stadt" not in bavaria
    chosen = stats.select(offers, state=["Bayern"], district=["München, Stadt"])
    assert english.table["events"].tolist() == [len(chosen)]


def test_what_a_link_gets_wrong_about_districts_is_said(german: Explorer) -> None:
    problems = german.set_state(
        "by=district&show=globus&states=Bayern&districts=Leipzig%2C+Stadt&districts=Münchn"
        "&districts=Nirgendwo&districts=munchen&districts=Passau%2C+Stadt"
    )
    assert problems == [
        "Link: show=globus gibt es nicht (es gibt: Diagramm, Karte); ignoriert.",
        "Link: districts=Leipzig, Stadt liegt in keinem der gewählten Bundesländer (Bayern); "
        "ignoriert.",
        "Link: districts=Münchn gibt es nicht (ähnlich: „München, Stadt“); ignoriert.",
        "Link: districts=Nirgendwo gibt es nicht (es gibt 97 zur Wahl); ignoriert.",
        "Link: districts=munchen gibt es nicht (ähnlich: „München, Landkreis“, „München, Stadt“); "
        "ignoriert.",
    ]
    assert german.controls["districts"].value == ("Passau, Stadt",)
    assert to_query(german.state) == "by=district&states=Bayern&districts=Passau%2C+Stadt"


def test_a_link_may_name_every_labelled_choice_in_either_language(
    german: Explorer, english: Explorer
) -> None:
    """Every choice a page labels may be named by its label, in either language: the
    months as the slider names them, the file format as its button, the voucher filter
    as yes or no; the link is written back in the canonical values."""
    link = (
        "by=Lernform&by2=State&measure=Bildungsanbieter&show=Map&categories=In+person"
        "&durations=bis+3+Tage&start=M%C3%A4rz+2025&end=Dec+2025&voucher=ja&format=Excel"
    )
    canonical = (
        "by=instruction_form_category&by2=state&measure=institutions&show=map"
        "&categories=Pr%C3%A4senz&durations=bis+3+Tage&start=2025-03&end=2025-12"
        "&voucher=1&format=xlsx"
    )
    for explorer in (german, english):
        assert explorer.set_state(link) == []
        assert to_query(explorer.state) == canonical
    assert english.set_state("start=Okt.+2025&voucher=yes&format=csv") == []
    assert to_query(english.state) == "start=2025-10&voucher=1"
    assert english.set_state("start=2025-05&voucher=nein") == []
    assert to_query(english.state) == "start=2025-05"
    assert english.controls["voucher"].value is False
    assert english.set_state("voucher=true") == []
    assert english.state == {"voucher": "1"}


def test_a_voucher_value_that_is_none_is_said(german: Explorer, english: Explorer) -> None:
    assert german.set_state("voucher=maybe&states=Bayern") == [
        "Link: voucher=maybe gibt es nicht (es gibt: ja, nein); ignoriert."
    ]
    assert german.state == {"states": ["Bayern"]}  # the rest of the link is shown
    assert english.set_state("voucher=maybe") == [
        "Link: there is no voucher=maybe (there are: yes, no); ignored."
    ]


def test_a_long_value_is_said_shortened_and_many_problems_in_few_lines(german: Explorer) -> None:
    """A link may hold anything, however long: what it holds is said in at most ECHO
    characters, and of many problems at most SAID lines are listed."""
    from educatalog.widgets.url_state import ECHO, SAID

    long = "Bayern" + "x" * 3000
    problems = german.set_state({"states": [long], "end": "9" * 3000, "y" * 3000: "1"})
    assert len(problems) == 3
    assert all(len(p) < 400 for p in problems), problems  # the keys of a link listed, too
    said = "\n".join(problems)
    assert f"states={long[: ECHO - 1]}…" in said
    assert f"„{'y' * (ECHO - 1)}…“" in said
    assert f"end={'9' * (ECHO - 1)}…" in said
    many = "&".join(f"x{i}=1" for i in range(40))
    problems = german.set_state(many + "&states=Sachsen")
    assert len(problems) == SAID
    assert problems[-1] == f"Link: und {40 - SAID + 1} weitere Hinweise."
    assert german.state == {"states": ["Sachsen"]}
