"""The analysis-ready frame of offers: one row per event, joined along its relations.

>>> offers = educatalog.load_catalogue().offers()  # doctest: +SKIP
>>> offers.edu.supply(by="state")  # doctest: +SKIP

Columns (:data:`OFFER_COLUMNS`): the event and its course (``event_id``, ``course_id``,
``institution``, ``course_title``), its dates and duration (``event_start_date``,
``event_end_date``, ``duration_days``, ``duration_class``), where it takes place (``state``,
``state_code``, ``district``, ``district_key``, ``zip``, ``city``, ``barrier_free``), how
(``instruction_form``, ``instruction_form_category``, ``instruction_time``), what
(``education_type``, ``course_type``, ``institution_type``), access (``education_voucher``,
``is_part_time``, ``has_individual_start``, ``is_inhouse``), capacity (``min_participants``,
``max_participants``), costs (``cost``, ``cost_currency``) and the raw reference ids
(``state_id``, ``instruction_form_id``, ...) beside their labels, so that unknown ids stay
visible. The district (``district``, the name, and ``district_key``, the 5-digit key) comes
from the address's postal code and city (:mod:`educatalog.frames.districts`); where there is
none, ``district_problem`` says why. Labels are categoricals whose categories follow the
reference list's id order, so charts and tables list every state or form, also those without
offers.

Duration classes follow the catalogue's ``durations`` list (KURSNET: "bis 3 Tage" ...
"mehr als 3 Jahre"). The service gives no class per event, so it is derived from its start
and end date, in calendar terms: an event from 1 to 31 January lasts "bis 1 Monat", one from
1 July to 30 September "bis 3 Monate". Where the end is missing or impossible (before the
start, to the second: :func:`ends_before_start`, which ``quality()`` counts too), the end is
estimated from ``duration_in_days`` in its ``duration_unit`` (``calendar_days``;
``week_days`` of five per week; ``hours`` of eight per week day); a stated duration without
a start date is classed by :data:`DURATION_CLASS_DAY_LIMITS`; an event with neither gets
class 0 "Keine Angabe".

A course's ``cost`` is the sum of its priced ``event_costs`` rows (rows with a value) when
they share one currency; where they mix currencies, a missing currency counting as one of
its own (EUR next to none), the course gets no cost (:func:`educatalog.stats.quality` counts
them). With ``funding=True`` the frame has one row per event and funding type
(``funding_type``, ``funding_level`` "federal" or "regional"; events of unfunded courses
keep one row with both missing); with ``subjects=True`` one row per event and subject of
its course (``subject``, ``subject_area``, ``subject_group``, each with its ``_code``, and
``subject_id``), with ``degrees=True`` one row per event and degree type (``degree_type``,
``degree_type_id``): :mod:`educatalog.frames.course_links`. Statistics count distinct
events, so an event funded in two ways counts once in each of the two groups, and once in
the total.

Dates are ``datetime64[us]`` (:data:`educatalog.frames.typed.DATETIME_DTYPE`), as everywhere in
educatalog. Every rule is defined in ``docs/definitions.md`` ("How the numbers are
defined").
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import pandas as pd

from educatalog.errors import UsageError
from educatalog.frames.columns import require_columns
from educatalog.frames.course_links import (
    DEGREE_TABLES,
    FUNDING_TABLES,
    SUBJECT_TABLES,
    with_degrees,
    with_funding,
    with_subjects,
)
from educatalog.frames.districts import STATE_CODES, assign_districts
from educatalog.frames.provenance import SOURCE_ATTR, Source, remember
from educatalog.frames.typed import DATETIME_DTYPE

__all__ = [
    "DURATION_CLASS_DAY_LIMITS",
    "DURATION_CLASS_LIMITS",
    "OFFER_COLUMNS",
    "UNIT_DAYS",
    "build_offers",
    "duration_class_ids",
    "duration_days",
    "ends_before_start",
    "labelled",
    "with_districts",
]

DURATION_CLASS_LIMITS: tuple[pd.DateOffset, ...] = (
    pd.DateOffset(days=3),
    pd.DateOffset(weeks=1),
    pd.DateOffset(months=1),
    pd.DateOffset(months=3),
    pd.DateOffset(months=6),
    pd.DateOffset(years=1),
    pd.DateOffset(years=2),
    pd.DateOffset(years=3),
)
"""Longest duration of classes 1 to 8, in calendar terms; longer is class 9. An event
lasts at most ``limit`` when its last day is before ``start + limit``."""

DURATION_CLASS_DAY_LIMITS: tuple[int, ...] = (3, 7, 30, 91, 182, 365, 730, 1095)
"""The same limits in days, for a duration stated without a start date: a duration of at
most ``limit`` calendar days is in the class of that limit (a month counts 30 days, three
months 91, six months 182, a year 365 and so on; the calendar rule, used wherever the start
is known, gives 28 to 31 days for a month)."""

NO_DURATION_CLASS = 0
"""The ``durations`` id "Keine Angabe", for events whose duration is unknown."""

UNIT_DAYS: dict[str, float] = {"calendar_days": 1.0, "week_days": 7 / 5, "hours": 7 / 5 / 8}
"""Calendar days per unit of ``duration_in_days`` (five week days a week, eight hours a
week day); a stated duration is rounded up to whole calendar days."""

_REQUIRED = (
    "events",
    "courses",
    "addresses",
    "states",
    "instruction_forms",
    "instruction_times",
    "durations",
    "education_types",
    "course_types",
    "institution_types",
    "event_costs",
)

OFFER_COLUMNS: tuple[str, ...] = (
    "event_id",
    "course_id",
    "institution",
    "course_title",
    "event_start_date",
    "event_end_date",
    "duration_days",
    "duration_class",
    "state",
    "state_code",
    "district",
    "district_key",
    "zip",
    "city",
    "barrier_free",
    "instruction_form",
    "instruction_form_category",
    "instruction_time",
    "education_type",
    "course_type",
    "institution_type",
    "education_voucher",
    "is_part_time",
    "has_individual_start",
    "is_inhouse",
    "min_participants",
    "max_participants",
    "cost",
    "cost_currency",
    "address_id",
    "state_id",
    "instruction_form_id",
    "instruction_time_id",
    "education_type_id",
    "course_type_id",
    "institution_type_id",
    "duration_class_id",
    "district_problem",
)
"""The columns of the offers frame, in order (see the module's docstring): the event, course and
labelled dimensions, then ``address_id``, the raw reference ids beside their labels and why
an event has no district (``district_problem``)."""


class Tables(Protocol):
    """What :func:`build_offers` reads: a :class:`~educatalog.frames.catalogue.Catalogue`'s
    tables by name, its reference labels and its :class:`~educatalog.frames.provenance.Source`."""

    @property
    def source(self) -> Source: ...

    def __contains__(self, name: object, /) -> bool: ...

    def __getitem__(self, name: str, /) -> pd.DataFrame: ...

    def labels(self, reference: str) -> pd.Series[Any]: ...


def build_offers(
    catalogue: Tables, *, funding: bool = False, subjects: bool = False, degrees: bool = False
) -> pd.DataFrame:
    """One row per event of ``catalogue`` (a :class:`~educatalog.frames.catalogue.Catalogue`)
    with the columns of :data:`OFFER_COLUMNS`; with ``funding``, ``subjects`` or
    ``degrees`` one row per event and value of its course
    (:mod:`educatalog.frames.course_links`)."""
    needed = (
        _REQUIRED
        + (FUNDING_TABLES if funding else ())
        + (SUBJECT_TABLES if subjects else ())
        + (DEGREE_TABLES if degrees else ())
    )
    missing = [name for name in needed if name not in catalogue]
    if missing:
        raise UsageError(
            f"offers() needs the tables {', '.join(missing)}, which this catalogue lacks; "
            "load them with educatalog.load_catalogue() (all tables by default)."
        )
    ev = catalogue["events"]
    require_columns(ev, ("id",), "offers()", hint="load events with its default fields")
    out = pd.DataFrame(
        {
            "event_id": ev["id"].astype("Int64"),
            "course_id": _column(ev, "course", "Int64"),
            "institution": _column(ev, "institution", "string"),
        }
    )
    courses = catalogue["courses"].drop_duplicates("id").set_index("id")
    out["course_title"] = _lookup(out["course_id"], courses, "title", "string")
    out["event_start_date"] = _column(ev, "event_start_date", DATETIME_DTYPE)
    out["event_end_date"] = _column(ev, "event_end_date", DATETIME_DTYPE)
    days = duration_days(ev)
    class_ids = duration_class_ids(ev)
    out["duration_days"] = days
    out["duration_class"] = labelled(class_ids, catalogue.labels("durations"), duration=True)

    addresses = catalogue["addresses"].drop_duplicates("id").set_index("id")
    address_id = _column(ev, "address", "Int64")
    state_id = _lookup(address_id, addresses, "state", "Int64")
    states = catalogue["states"].drop_duplicates("id").set_index("id")
    out["state"] = labelled(state_id, catalogue.labels("states"))
    out["state_code"] = labelled(state_id, states.get("code"))
    out["zip"] = _lookup(address_id, addresses, "zip", "string")
    out["city"] = _lookup(address_id, addresses, "city", "string")
    places = with_districts(out)
    after_state = list(out.columns).index("state_code") + 1
    out.insert(after_state, "district", places["district"])
    out.insert(after_state + 1, "district_key", places["district_key"])
    out["barrier_free"] = _lookup(address_id, addresses, "barrier_free", "boolean")

    form_id = _column(ev, "instruction_form", "Int64")
    forms = catalogue["instruction_forms"].drop_duplicates("id").set_index("id")
    out["instruction_form"] = labelled(form_id, catalogue.labels("instruction_forms"))
    out["instruction_form_category"] = labelled(form_id, forms.get("category"))
    time_id = _column(ev, "instruction_time", "Int64")
    out["instruction_time"] = labelled(time_id, catalogue.labels("instruction_times"))

    course_refs = {}
    for field, reference in (
        ("education_type", "education_types"),
        ("course_type", "course_types"),
        ("institution_type", "institution_types"),
    ):
        ids = _lookup(out["course_id"], courses, field, "Int64")
        course_refs[field] = ids
        out[field] = labelled(ids, catalogue.labels(reference))

    for flag in ("education_voucher", "is_part_time", "has_individual_start", "is_inhouse"):
        out[flag] = _column(ev, flag, "boolean")
    out["min_participants"] = _column(ev, "min_participants", "Int64")
    out["max_participants"] = _column(ev, "max_participants", "Int64")

    cost, currency = _course_costs(catalogue["event_costs"])
    priced = pd.DataFrame({"cost": cost.astype("Float64"), "currency": currency.astype("string")})
    out["cost"] = _lookup(out["course_id"], priced, "cost", "Float64")
    out["cost_currency"] = _lookup(out["course_id"], priced, "currency", "string")

    out["address_id"] = address_id
    out["state_id"] = state_id
    out["instruction_form_id"] = form_id
    out["instruction_time_id"] = time_id
    for field, ids in course_refs.items():
        out[f"{field}_id"] = ids
    out["duration_class_id"] = class_ids
    out["district_problem"] = places["district_problem"]
    if funding:
        out = with_funding(out, catalogue)
    if subjects:
        out = with_subjects(out, catalogue)
    if degrees:
        out = with_degrees(out, catalogue)
    recorded = dict(ev.attrs.get(SOURCE_ATTR) or catalogue.source.to_attrs())
    out.attrs[SOURCE_ATTR] = recorded
    source = Source.from_attrs({SOURCE_ATTR: recorded})
    if source is not None:
        remember(out, source)  # recognised after a merge or concat, which drop attrs
    return out


def with_districts(offers: pd.DataFrame) -> pd.DataFrame:
    """The district of each row of a frame with ``zip``, ``city`` and ``state_code``
    (:func:`educatalog.frames.districts.assign_districts`, the address's state checked):
    ``district_key``, ``district`` and ``district_problem``."""
    state_key = offers["state_code"].astype("string").map(STATE_CODES).astype("string")
    return assign_districts(offers["zip"], offers["city"], state_key)


def duration_days(events: pd.DataFrame) -> pd.Series:
    """Calendar days of each event, both ends counted: from its dates where they make
    sense, else from ``duration_in_days`` in its ``duration_unit`` (rounded up)."""
    start, end, stated = _dates_and_stated_days(events)
    from_dates = ((end - start).dt.days + 1).astype("Float64")
    return from_dates.fillna(stated).round().astype("Int64").rename("duration_days")


def duration_class_ids(events: pd.DataFrame) -> pd.Series:
    """The ``durations`` id of each event (0 "Keine Angabe" where its duration is unknown).

    By calendar: the last day (the end date, or the start plus the stated duration) is
    compared with ``start + limit`` for each limit of :data:`DURATION_CLASS_LIMITS`. A
    stated duration without a start date is compared with the limits in days.
    """
    start, end, stated = _dates_and_stated_days(events)
    estimated = start + pd.to_timedelta(stated.astype("float64") - 1, unit="D")
    last = end.fillna(estimated)
    classes = np.ones(len(events), dtype="int64")
    for limit in DURATION_CLASS_LIMITS:
        classes += (last >= start + limit).to_numpy(dtype=bool, na_value=False)
    # The calendar needs the start: an end without a start tells no duration (class 0,
    # unless a stated duration does), never class 1 "bis 3 Tage".
    known = (last.notna() & start.notna()).to_numpy()
    days = stated.to_numpy(dtype="float64", na_value=np.nan)
    by_days = np.searchsorted(np.asarray(DURATION_CLASS_DAY_LIMITS), days, side="left") + 1
    classes = np.where(known, classes, np.where(np.isnan(days), NO_DURATION_CLASS, by_days))
    return pd.Series(classes, index=events.index, dtype="Int64", name="duration_class_id")


def ends_before_start(start: pd.Series, end: pd.Series) -> pd.Series:
    """Impossible dates: the end is before the start, to the second (an event ending an hour
    before it starts counts). Such an end is not used for the duration (class and days come
    from ``duration_in_days``), and ``quality()`` counts it as ``end_before_start``."""
    return (end < start).fillna(False).astype(bool)


def _dates_and_stated_days(events: pd.DataFrame) -> tuple[pd.Series, pd.Series, pd.Series]:
    """Start and end days (the end missing where it precedes the start) and the stated
    duration in calendar days."""
    start = _column(events, "event_start_date", DATETIME_DTYPE)
    end = _column(events, "event_end_date", DATETIME_DTYPE)
    end = end.mask(ends_before_start(start, end)).dt.normalize()
    start = start.dt.normalize()
    amount = _column(events, "duration_in_days", "Float64")
    unit = _column(events, "duration_unit", "string")
    per_unit = pd.Series(np.nan, index=events.index)
    for name, days in UNIT_DAYS.items():
        per_unit[(unit == name).fillna(False).to_numpy()] = days
    stated = np.ceil(amount * per_unit.astype("Float64")).where(amount > 0)
    return start, end, stated.astype("Float64")


def _column(frame: pd.DataFrame, name: str, dtype: str) -> pd.Series:
    """A column in ``dtype``, or an all-missing one when the service omitted the field."""
    if name in frame:
        return _astype(frame[name], dtype)
    missing = pd.NaT if dtype.startswith("datetime64") else pd.NA
    return _astype(pd.Series(missing, index=frame.index), dtype)


def _astype(values: pd.Series[Any], dtype: str) -> pd.Series[Any]:
    """``values.astype(dtype)`` for a dtype name held in a variable."""
    converted: pd.Series[Any] = values.astype(dtype)  # type: ignore[call-overload]  # stubs take literal names only
    return converted


def _lookup(keys: pd.Series, table: pd.DataFrame, column: str, dtype: str) -> pd.Series:
    """``table[column]`` for each key (the table indexed by id); missing where unknown."""
    if column not in table or table.empty:
        return pd.Series(pd.NA, index=keys.index, dtype=dtype)
    positions = _positions(table.index, keys)
    values = _astype(table[column], dtype).array
    return pd.Series(values.take(positions, allow_fill=True), index=keys.index)


_NO_KEY = np.iinfo("int64").min


def _positions(index: pd.Index, keys: pd.Series) -> np.ndarray:
    """Position in ``index`` of each key; -1 for missing or unknown keys (vectorized)."""
    wanted = keys.astype("Int64").to_numpy(dtype="int64", na_value=_NO_KEY)
    known = index.astype("Int64").to_numpy(dtype="int64", na_value=_NO_KEY + 1)
    positions: np.ndarray = pd.Index(known).get_indexer(wanted)
    return positions


def labelled(ids: pd.Series, labels: pd.Series | None, *, duration: bool = False) -> pd.Series:
    """Categorical labels of reference ids (``labels``: id -> name); categories in the
    list's id order, missing for unknown ids. Duration classes are ordered, "Keine Angabe"
    last."""
    if labels is None:
        return pd.Series(pd.Categorical([None] * len(ids)), index=ids.index)
    labels = labels.dropna()
    order = labels.index.to_list()
    if duration:
        order = sorted(order, key=lambda i: (i == NO_DURATION_CLASS, i))
    names = list(dict.fromkeys(str(labels[i]) for i in order))
    code_of_name = {name: k for k, name in enumerate(names)}
    code_at = np.array([code_of_name[str(labels[i])] for i in order] + [-1], dtype="int64")
    codes = code_at[_positions(pd.Index(order), ids)]  # -1 (unknown) picks the last: -1
    dtype = pd.CategoricalDtype(names, ordered=duration)
    return pd.Series(pd.Categorical.from_codes(codes, dtype=dtype), index=ids.index)


def _course_costs(costs: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """Per course: the summed priced costs (rows with a value) and their currency, where
    the currency is one; a missing currency is one of its own, so EUR next to a row without
    a currency leaves the course without a cost (docs/definitions.md, "Costs")."""
    if costs.empty or "course" not in costs or "value" not in costs:
        empty = pd.Series(dtype="Float64")
        return empty, pd.Series(dtype="string")
    currency = _column(costs, "currency", "string")
    priced = pd.DataFrame(
        {"course": costs["course"], "value": costs["value"].astype("Float64"), "cur": currency}
    )
    priced = priced[priced["value"].notna() & priced["course"].notna()]
    groups = priced.groupby("course", sort=False)
    single = groups["cur"].nunique(dropna=False) == 1
    total = groups["value"].sum().where(single)
    return total, groups["cur"].first().where(single)
