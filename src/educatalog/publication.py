"""The parts of a publication that the report notebook (``06-report``) puts together: its
source named as a reader can cite it, the filters in words, sections of text, tables and
charts (each chart with the table of its numbers, on the page and in the workbook), the
catalogue over time from an archive, and the workbook.

>>> pub = Publication("report/", "de", source=source, filters=scope(["Bayern"], None, None, "de"))
>>> pub.table("states", stats.supply(offers, "state", margins=True))   # doctest: +SKIP
>>> pub.chart("01-supply-by-state", plots.supply_bars(offers, "state"))  # doctest: +SKIP
>>> pub.workbook()                                                       # doctest: +SKIP

Every table shown is kept for ``tables.xlsx``; a chart's own table (where it is not the table
shown above it) is shown collapsed under the chart and gets a sheet of its own.
"""

from __future__ import annotations

import datetime as dt
import html
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from educatalog import periods, stats, tables, texts
from educatalog.files.workspace import output_folder
from educatalog.frames.provenance import SOURCE_ATTR, Source, demo_as_of
from educatalog.stats.dimensions import with_margins

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from educatalog.history import Archive

CHART_DPI = 200
"""The resolution of the chart files in ``charts/``; the page shows them at the figure's."""

__all__ = [
    "Publication",
    "by_district",
    "by_subject",
    "chart_shares",
    "cost_coverage",
    "course_lifetimes",
    "dates",
    "describe_source",
    "district_notes",
    "district_population",
    "events_by_state",
    "flows",
    "over_time",
    "scope",
    "subjects_by_state",
    "with_source",
]


def describe_source(source: Source, info: Mapping[str, Any] | None, lang: str) -> Source:
    """``source`` as a reader can cite it: the synthetic demo catalogue by its seed and
    scale (from the service's ``/server/info``, ``info``), never by the passing loopback
    address its private server had; a service by its URL."""
    own = (info or {}).get("educatalog", info or {})
    if not source.demo or not isinstance(own, Mapping) or "seed" not in own:
        return source
    day = demo_as_of(own)
    as_of = texts.text("source.demo_as_of", lang, date=texts.date(day, lang)) if day else ""
    name = texts.text(
        "source.demo_catalogue",
        lang,
        seed=own["seed"],
        scale=texts.number(float(own.get("scale", 1)), lang, _decimals(own.get("scale", 1))),
        as_of=as_of,
    )
    return Source(url=None, demo=True, fetched_at=source.fetched_at, name=name, as_of=day)


def _decimals(value: Any) -> int:
    text = f"{float(value):g}"
    return len(text.partition(".")[2])


def with_source(frame: pd.DataFrame, source: Source) -> pd.DataFrame:
    """``frame`` with ``source`` as its source (in its attrs), for its charts and tables."""
    frame.attrs[SOURCE_ATTR] = {**frame.attrs.get(SOURCE_ATTR, {}), **source.to_attrs()}
    return frame


def scope(states: Sequence[str] | None, start: str | None, end: str | None, lang: str) -> list[str]:
    """The filters in words: "Bundesländer: Bayern, Sachsen", "Beginn 01.04.2025 bis
    31.03.2026", or with one end open "Beginn ab 01.04.2025" / "Beginn bis 31.03.2026"."""
    words = []
    if states:
        names = ", ".join(texts.label(s, lang) for s in states)
        words.append(texts.text("report.scope.states", lang, states=names))
    dates = periods.dates_words(start, end, lang)  # as a rate's note names them
    return [*words, dates] if dates else words


def chart_shares(offers: pd.DataFrame, rows: str, columns: str) -> pd.DataFrame:
    """The numbers of a chart of shares within each row (:func:`educatalog.plots.heatmap`,
    :func:`educatalog.plots.stacked_shares`): the share of each column among the row's
    events, the row's events (its base), and the total row."""
    shares = stats.crosstab(offers, rows, columns, normalize="index", margins=True)
    events = stats.supply(offers, rows, normalize=False, margins=True)["events"]
    shares = shares.drop(columns=[stats.MARGINS])
    shares["events"] = events.to_numpy()
    return shares


def cost_coverage(offers: pd.DataFrame, lang: str, currency: str = "EUR") -> str:
    """How many of the courses with events in ``offers`` state a cost in ``currency``:
    "Kosten in EUR nennen 1.139 von 1.658 Kursen mit Veranstaltungen; …"."""
    courses = int(offers["course_id"].nunique())
    priced = stats.costs(offers, per="course", currency=currency)["courses"]
    return texts.text(
        "note.cost_coverage",
        lang,
        currency=currency,
        priced=texts.number(int(priced.fillna(0).sum()), lang),
        courses=texts.number(courses, lang),
    )


def dates(source: Source, lang: str) -> dict[str, str]:
    """The date of the data ("Stand": the catalogue's, :attr:`Source.stand`) and when the
    report was created, as the fields ``stand`` and ``created`` of ``report.dates``."""
    created = texts.datetime(dt.datetime.now(dt.UTC), lang)
    return {"stand": texts.date(source.stand, lang), "created": created}


class Publication:
    """The report being written into ``out``: its words in ``lang``, its ``source``, the
    ``filters`` in effect, the small-cell rule's ``min_cases``, and every table shown."""

    def __init__(
        self,
        out: str | os.PathLike[str],
        lang: str,
        *,
        source: Source,
        filters: Sequence[str] = (),
        min_cases: int = tables.symbols.MIN_CASES,
    ) -> None:
        self.out = output_folder(out, what="the report's charts and tables")
        (self.out / "charts").mkdir(parents=True, exist_ok=True)
        self.lang, self.source, self.filters = texts.check_lang(lang), source, list(filters)
        self.min_cases = tables.symbols.check_min_cases(min_cases)
        self.book: list[tables.Table] = []

    @property
    def selection(self) -> str:
        """The report's filters as the note under its tables and charts ("Auswahl: …")."""
        return texts.text("note.filters", self.lang, filters="; ".join(self.filters))

    def say(self, key: str, level: int = 0, **fields: Any) -> None:
        """A heading (level 1, 2) or a paragraph (0) of the report, in its language."""
        words = texts.text(key, self.lang, **fields)
        _display({"text/markdown": ("#" * level + " " if level else "") + words}, raw=True)

    def table(
        self,
        key: str,
        frame: pd.DataFrame,
        *,
        collapsed: bool = False,
        source: Source | None = None,
        stand: str | None = None,
        filtered: bool = True,
        notes: Sequence[str] = (),
        title: str | None = None,
        lead: Sequence[str] = (),
    ) -> tables.Table:
        """``frame`` shown as a table titled ``report.table.<key>`` (or ``title``; collapsed
        under a summary, for a chart's own table) and kept for the workbook, its sheet named
        ``report.sheet.<key>``, with ``notes`` under it (``lead`` first), in a filtered
        report the selection, and under the first table the explanation of symbols;
        ``filtered=False`` for a table the report's filters do not apply to (it says so)."""
        title = title or texts.text(f"report.table.{key}", self.lang)
        sheet = texts.text(k, self.lang) if texts.has_text(k := f"report.sheet.{key}") else None
        source, cases = source or self.source, self.min_cases
        presented = tables.present(
            frame, self.lang, title=title, source=source, sheet=sheet, stand=stand, min_cases=cases
        )
        presented.legend = not self.book  # the explanation of symbols under the first table
        presented.notes[:0] = lead
        presented.notes.extend(notes)
        if not filtered:
            presented.filtered = False
            if self.filters:
                note = texts.text("report.trends.unfiltered_note", self.lang)
                presented.notes.append(note)
        elif self.filters:  # on the page; the workbook's "Filter" line says it there
            presented.selection = self.selection
        self.book.append(presented)
        if collapsed:
            summary = html.escape(texts.text("report.chart_table", self.lang, title=title))
            page = f"<details><summary>{summary}</summary>{presented.to_html()}</details>"
            _display({"text/html": page}, raw=True)
        else:
            _display(presented)
        return presented

    def chart(
        self,
        name: str,
        figure: Figure,
        table: str | None = None,
        *,
        frame: pd.DataFrame | None = None,
        source: Source | None = None,
        stand: str | None = None,
        filtered: bool = True,
        notes: Sequence[str] = (),
    ) -> None:
        """``figure`` saved as ``charts/<name>.png`` and shown, with ``notes`` and, in a
        filtered report, the selection in its footer and text alternative; with ``table``
        (a key) and its ``frame``, its numbers shown collapsed under it (:meth:`table`)."""
        from educatalog import plots

        for note in [*notes, *([self.selection] if filtered and self.filters else [])]:
            plots.add_note(figure, note)
        saved = plots.save(figure, self.out / "charts" / f"{name}.png", dpi=CHART_DPI)
        # PNG on the page (the file's, not drawn again), SVG in the PDF
        plots.display.display_chart(figure, png=saved, dpi=CHART_DPI)
        if table is not None and frame is not None:
            self.table(
                table,
                frame,
                collapsed=True,
                source=source,
                stand=stand,
                filtered=filtered,
                notes=notes,
            )

    def workbook(self) -> Path:
        """``tables.xlsx``: every table shown, each on a sheet that stands alone."""
        return tables.write_excel(
            self.out / "tables.xlsx",
            self.book,
            lang=self.lang,
            title=texts.text("report.title", self.lang),
            source=self.source,
            filters=self.filters,
        )


def _display(shown: Any, *, raw: bool = False) -> None:
    from IPython.display import display

    display(shown, raw=raw)  # type: ignore[no-untyped-call]  # IPython's display is unannotated


def over_time(pub: Publication, arc: Archive, everything: pd.DataFrame) -> dict[str, Any]:
    """The section on the catalogue over time from ``arc``: which catalogue and which dates
    it shows, whether its newest snapshot is the catalogue of the report (``everything``,
    before its filters), events by state on the first and the newest date (with the trend
    chart and its table where there are two dates or more), courses entered and exited
    (a chart where it has two points or more) and how long courses stay listed. Returns
    what it found (``same_catalogue``)."""
    from educatalog import plots

    lang = pub.lang
    dates = list(arc.dates)
    first, last = texts.date(dates[0], lang), texts.date(dates[-1], lang)
    span = (
        texts.text("report.trends.one_date", lang, date=last)
        if len(dates) == 1
        else texts.text("note.snapshots", lang, n=len(dates), first=first, last=last)
    )
    stand = span.rstrip(".")  # the snapshot dates: what the archive's numbers are "as of"
    plain = Source(url=arc.source.url, demo=arc.source.demo, fetched_at=arc.source.fetched_at)
    described = plain.text(lang, dated=False)
    archived = Source(  # named by its dates, not by the day its snapshots were fetched
        url=plain.url,
        demo=plain.demo,
        fetched_at=plain.fetched_at,
        name=texts.text("report.trends.source", lang, folder=arc.path.name, source=described),
        dated=False,
    )
    pub.say("report.trends", 2)
    pub.say(
        "report.trends.text",
        folder=arc.path.name,
        span=span,
        source=described,
    )
    by_state = arc.supply(by="state")
    events = by_state["events"].unstack("snapshot_date")
    newest = arc.offers(dates[-1])["event_id"]
    found = _compare(pub, events.iloc[:, -1], newest, everything, last)
    if pub.filters:
        pub.say("report.trends.unfiltered", filters="; ".join(pub.filters))
    ends = events.iloc[:, [0, -1]] if len(dates) > 1 else events.iloc[:, [-1]]
    pub.table("trend_states", events_by_state(ends), source=archived, stand=stand, filtered=False)
    if len(dates) < 2:
        pub.say("report.trends.too_few")
        return found
    pub.chart(  # its table: every date (for two dates, the table above)
        "07-trend-by-state",
        plots.trend(by_state, "events", top=8, lang=lang, source=archived),
        "trend_all" if len(dates) > 2 else None,
        frame=events_by_state(events),
        source=archived,
        stand=stand,
        filtered=False,
    )
    pub.table("flows", flows(arc), source=archived, stand=stand, filtered=False)
    courses = arc.flows("courses")
    if courses["entered"].notna().sum() >= 2:  # a line needs two points: else the table says
        entered = texts.text("report.chart.entered", lang)
        figure = plots.trend(courses, "entered", title=entered, lang=lang, source=archived)
        pub.chart("08-courses-entered", figure)
    lifetimes = course_lifetimes(arc, lang)
    pub.table("lifetimes", lifetimes, source=archived, stand=stand, filtered=False)
    return found


def _compare(
    pub: Publication, newest: pd.Series, ids: pd.Series, everything: pd.DataFrame, last: str
) -> dict[str, Any]:
    """Say whether the archive's newest snapshot holds the events the report counts: the
    same event ids (``ids``, of the newest snapshot), and the same by state."""
    own = stats.supply(everything, "state", normalize=False)["events"]
    ours = {_state(k): int(v) for k, v in own.items() if v}
    theirs = {_state(k): int(v) for k, v in newest.fillna(0).items() if v}
    same_ids = set(ids.dropna().astype("int64")) == set(
        everything["event_id"].dropna().astype("int64")
    )
    same = ours == theirs and same_ids
    lang = pub.lang
    total_theirs = texts.count(sum(theirs.values()), lang)
    if same:
        pub.say("report.trends.same", date=last, events=total_theirs)
    else:
        pub.say(
            "report.trends.other",
            date=last,
            theirs=total_theirs,
            ours=texts.count(sum(ours.values()), lang),
            source=pub.source.text(lang),
        )
    return {"same_catalogue": same}


def _state(key: Any) -> str:
    return "" if texts.is_missing(key) else str(key)


def events_by_state(events: pd.DataFrame) -> pd.DataFrame:
    """Events by state (rows) per snapshot date (columns: ``arc.supply(by="state")
    ["events"].unstack("snapshot_date")``) with their total row: every state (one missing
    on a date, or on every date, has no events then), events without a state a group of
    their own. The report's table and notebook 07's."""
    from educatalog.population import STATES

    known = [str(s) for s in STATES["state"]]
    others = [k for k in events.index if texts.is_missing(k) or str(k) not in known]
    frame = events.reindex([*known, *others]).fillna(0).astype("Int64")
    frame.index = pd.Index(list(frame.index), name="state", dtype=object)
    days: list[Any] = [pd.Timestamp(c).date() for c in frame.columns]
    frame.columns = pd.Index(days, dtype=object)
    frame.loc[stats.MARGINS] = frame.sum()
    frame.attrs["margins"] = stats.MARGINS
    return frame


def flows(arc: Archive, of: str = "courses") -> pd.DataFrame:
    """Courses (or ``"institutions"``) listed (those with events), entered and exited per
    snapshot date, and the entries and exits of the whole archive. Cells without a
    meaningful value are marked for "x" (``attrs["not_meaningful"]``): listed has no total
    (a course is listed on many dates), the first date no flows (nothing to compare with).
    The report's table and notebook 07's."""
    listed = arc.flows(of)
    total = {c: listed[c].sum(min_count=1) for c in ("entered", "exited", "net")}
    frame = listed.copy()
    frame.index = pd.Index([pd.Timestamp(d).date() for d in listed.index], name="snapshot_date")
    out = with_margins(frame, total)
    first = [(frame.index[0], c) for c in ("entered", "exited", "net")] if len(frame) else []
    out.attrs["not_meaningful"] = {"cells": [*first, (stats.MARGINS, "listed")], "why": "flows"}
    return out


def course_lifetimes(arc: Archive, lang: str) -> pd.DataFrame:
    """How long courses stay listed, with the median days: those that entered and left
    within the archive (complete), those listed on its first or last date (their days a
    lower bound: "at least"), and all (at least). Definitions: ``docs/definitions.md``."""
    lifetimes = arc.lifetimes("courses")
    censored = lifetimes["left_censored"] | lifetimes["right_censored"]
    parts = {"complete": lifetimes[~censored], "censored": lifetimes[censored], "all": lifetimes}
    out = pd.DataFrame(
        {
            "courses": [len(p) for p in parts.values()],
            "median_days": [p["days"].median() for p in parts.values()],
        },
        index=pd.Index([texts.text(f"report.lifetimes.{g}", lang) for g in parts], name=""),
    )
    out.attrs["notes"] = [texts.text("note.lifetimes", lang)]
    return out


def district_population(population: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """The districts' inhabitants of the report's rates by district: those of the file
    ``population`` where it lists districts (:func:`educatalog.population.read_population`),
    else the shipped table (Regionaldatenbank 12411-01-01-4, 31.12.2024, Zensus 2022 basis):
    a file of states has no figures of districts."""
    from educatalog.errors import EducatalogError
    from educatalog.population import district_population as shipped
    from educatalog.population import read_population

    if population is None:
        return shipped()
    try:
        return read_population(population, level="district")
    except EducatalogError:
        read_population(population)  # a file of states: else its own error is raised
        return shipped()


def _ranking_notes(ranked: pd.DataFrame, rates: pd.DataFrame, lang: str) -> list[str]:
    """Under a list of districts: its order, a tie at its end, the rate of all to compare."""
    info = ranked.attrs["ranking"]
    notes = [texts.text(f"note.districts.{'fewest' if info['fewest'] else 'most'}", lang)]
    if info["tied"] > info["shown"]:
        notes.append(
            texts.text(
                "note.districts.tie",
                lang,
                tied=texts.number(info["tied"], lang),
                rate=texts.rate(info["rate"], lang),
                shown=texts.number(info["shown"], lang),
                table=texts.text("report.table.districts", lang),
            )
        )
    states = {str(s) for s in rates.index.get_level_values(0)} - {str(rates.attrs["margins"])}
    national = len(states) == 16 and rates.index.names[0] == "state"
    if national or len(states) != 1:
        where = texts.text("total.germany" if national else "note.districts.selection", lang)
    else:  # one state: its districts
        where = texts.label(states.pop(), lang)
    total = rates[tables.rate_column(rates)].iloc[-1]
    notes.append(
        texts.text("note.districts.compare", lang, where=where, rate=texts.rate(total, lang))
    )
    return notes


def district_notes(rates: pd.DataFrame, quality: pd.DataFrame, lang: str) -> list[str]:
    """The notes under every table of districts: why events have no district (the checks of
    ``quality``, :func:`educatalog.stats.quality`), how much a small district's rate swings,
    and where the districts come from (OpenStreetMap's postal-code areas)."""
    reasons = []
    for check in quality.index:
        count = quality.loc[check, "count"]
        key = f"report.districts.why.{check}"
        if texts.has_text(key) and not texts.is_missing(count) and int(count):
            reasons.append(f"{texts.text(key, lang)} ({texts.count(count, lang)})")
    if reasons:
        notes = [texts.text("note.districts.why", lang, reasons="; ".join(reasons))]
    else:
        notes = [texts.text("note.districts.all_known", lang)]
    rows = tables.districts_of(rates)
    sizes = rows["population"].dropna().astype("int64")
    if len(sizes) > 1:
        small, large = int(sizes.argmin()), int(sizes.argmax())
        names = sizes.index.get_level_values("district")
        per = int(rates.attrs.get("per_capita", {}).get("per", 100_000))
        notes.append(
            texts.text(
                "note.districts.small",
                lang,
                small=texts.label(names[small], lang),
                small_population=texts.number(sizes.iloc[small], lang),
                large=texts.label(names[large], lang),
                large_population=texts.number(sizes.iloc[large], lang),
                step=texts.rate(per / int(sizes.iloc[small]), lang),
            )
        )
    notes.append(texts.text("note.districts.source", lang))
    return notes


def by_district(
    pub: Publication,
    offers: pd.DataFrame,
    rates: pd.DataFrame,
    *,
    population: Any = None,
    notes: Sequence[str] = (),
    top: int = 10,
) -> dict[str, tables.Table]:
    """The section on supply by district of ``offers``: the map of events per 100,000
    inhabitants (:func:`educatalog.plots.district_map`, the districts of the selection,
    ``population`` the districts' figures) with its table collapsed under it, every
    district of ``rates`` (:func:`educatalog.stats.per_capita` of ``offers`` with
    ``by="district", subtotals=True, margins=True``) under its state with the states'
    subtotals (on a sheet of its own too), then the ``top`` districts with the most and the
    fewest events per inhabitant (of a selection of ``top`` districts or fewer, all of them
    in one list). Every table has ``notes`` and :func:`district_notes` (the map ``notes``);
    the lists say their order and compare with the total. Returns the tables, by key."""
    from educatalog import plots

    lang = pub.lang
    listed = len(tables.districts_of(rates))
    few = listed <= top
    sheet = texts.text("report.sheet.districts", lang)
    paragraph = "report.districts.few" if few else "report.districts.text"
    pub.say(paragraph, top=top, n=texts.number(listed, lang), sheet=sheet)
    common = [*notes, *district_notes(rates, stats.quality(offers), lang)]
    figure = plots.district_map(offers, lang=lang, population=population)
    pub.chart("09-district-map", figure, notes=notes)
    shown = {"districts": pub.table("districts", rates, collapsed=True, notes=common)}
    for fewest in [False] if few else [False, True]:
        ranked = tables.district_ranking(rates, top, fewest=fewest, min_cases=pub.min_cases)
        key = "districts_ranked" if few else f"districts_{'fewest' if fewest else 'most'}"
        title = texts.text(f"report.table.{key}", lang, n=texts.number(len(ranked), lang))
        lead = _ranking_notes(ranked, rates, lang)
        shown[key] = pub.table(key, ranked, title=title, notes=common, lead=lead)
    return shown


def subjects_by_state(offers: pd.DataFrame, top: int, lang: str) -> pd.DataFrame:
    """Events by state and subject area (the ``top`` areas with the most events, in the list's
    order), "others" and "not stated" and the total (each a row's distinct events)."""
    wide = stats.crosstab(offers, "state", "subject_area", margins=True)
    named = [c for c in wide.columns if c != stats.MARGINS and not pd.isna(c)]
    ranked = pd.Series(wide.loc[stats.MARGINS, named]).sort_values(ascending=False, kind="stable")
    kept, rest = set(ranked.index[:top]), list(ranked.index[top:])
    columns = [c for c in wide.columns if c in kept or pd.isna(c) or c == stats.MARGINS]
    out = wide[columns].copy()
    out.columns = pd.Index([c if pd.isna(c) else str(c) for c in columns], dtype=object)
    if rest:
        of_rest = offers[offers["subject_area"].isin(rest).to_numpy()]
        counts = of_rest.groupby("state", observed=False, dropna=False)["event_id"].nunique()
        column = counts.reindex(out.index[:-1], fill_value=0).tolist()
        others = [*column, int(of_rest["event_id"].nunique())]
        out.insert(len(kept), texts.text("label.others", lang, n=len(rest)), others)
    out.attrs = {**wide.attrs, "others": len(rest)}
    return out


def by_subject(
    pub: Publication, offers: pd.DataFrame, *, top: int = 10, columns: int = 5, notes: Any = ()
) -> dict[str, tables.Table]:
    """The section by subject area of ``offers`` (``catalogue.offers(subjects=True)``): every
    area in the systematics' order with events, courses, providers, share of all events, "not
    stated", total (distinct); the ``top`` largest as :func:`educatalog.plots.subject_bars`;
    :func:`subjects_by_state` (``columns`` areas). With an event in several areas, the tables
    say that rows add up to more. Returns the tables, by key."""
    from educatalog import plots

    lang = pub.lang
    areas = stats.supply(offers, "subject_area", margins=True)
    areas = areas[["events", "courses", "institutions", "share"]]
    per_event = offers.dropna(subset=["subject_area"]).groupby("event_id")["subject_area"]
    several = int((per_event.nunique() > 1).sum())
    keys = ("note.subjects.multiple_columns",) if several else ()  # by area: tables.present
    multiple = [texts.text(k, lang, events=texts.count(several, lang)) for k in keys]
    sheet = texts.text("report.sheet.subjects", lang)
    listed = sum(not pd.isna(k) for k in areas.index) - 1  # the total row is no area
    pub.say("report.subjects.text", top=top, n=texts.number(listed, lang))
    unstated = "note.subjects.unstated" if areas.index.isna().any() else None
    lead = [texts.text(k, lang) for k in ("note.subjects.order", unstated) if k]
    shown = {"subjects": pub.table("subjects", areas, notes=[*notes], lead=lead)}
    pub.chart("10-subjects", plots.subject_bars(offers, top=top, lang=lang), notes=notes)
    wide = subjects_by_state(offers, columns, lang)
    n, others = texts.number(wide.attrs["others"], lang), "note.subjects.others"
    lead = [texts.text(others, lang, top=columns, n=n, sheet=sheet)] if n != "0" else []
    shown["subjects_by_state"] = pub.table(
        "subjects_by_state", wide, notes=[*multiple, *notes], lead=lead
    )
    return shown
