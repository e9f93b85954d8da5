"""What is missing or impossible in the offers: :func:`quality`."""

from __future__ import annotations

from typing import Any

import pandas as pd

from educatalog.frames.columns import require_columns
from educatalog.frames.districts import DISTRICT_PROBLEMS
from educatalog.frames.offers import ends_before_start
from educatalog.frames.provenance import SOURCE_ATTR
from educatalog.stats.dimensions import keep_source

__all__ = ["quality"]

_CHECKS: dict[str, str] = {
    "events_without_address": "events without an address",
    "events_without_state": "events whose location has no known state",
    "addresses_without_state": "events whose address has no state",
    "unknown_state": "events whose address names a state id missing from states",
    "events_without_district": "events whose address has no known district",
    "district_no_postal_code": "events without a district: the address has no postal code",
    "district_unknown_postal_code": (
        "events without a district: the postal code is not in the table (PO box, large "
        "customer, new or malformed code)"
    ),
    "district_ambiguous": (
        "events without a district: the postal code lies in several districts and the place "
        "does not pick one"
    ),
    "district_other_state": (
        "events without a district: the postal code's district lies in another state than "
        "the address's"
    ),
    "missing_start_date": "events without a start date",
    "missing_end_date": "events without an end date",
    "end_before_start": "events that end before they start",
    "no_duration": "events whose duration cannot be told (class Keine Angabe)",
    "empty_participants": "events with neither minimum nor maximum participants",
    "min_above_max": "events with more minimum than maximum participants",
    "unknown_instruction_form": "events whose instruction form id is missing from the list",
    "unknown_instruction_time": "events whose instruction time id is missing from the list",
    "unknown_education_type": "events whose course's education type id is unknown",
    "unknown_course_type": "events whose course's course type id is unknown",
    "unknown_institution_type": "events whose course's institution type id is unknown",
    "events_without_subject": "events whose course has no subject (offers(subjects=True))",
    "unknown_subject": (
        "events whose course names a systematics id missing from the list, or one outside its tree"
    ),
    "events_without_degree": "events whose course names no degree (offers(degrees=True))",
    "events_without_cost": (
        "events whose course states no cost (or mixes currencies; a missing one counts as one)"
    ),
    "cost_without_currency": "events whose cost has no currency",
}


def quality(offers: pd.DataFrame, catalogue: Any = None) -> pd.DataFrame:
    """A data-quality summary: per check, ``count`` of affected events, ``total``,
    ``share`` and a ``description``. With the ``catalogue`` the frame came from, it also
    counts ``courses_without_events`` (of all courses).

    A check that the selection of ``offers`` (:func:`educatalog.stats.select`) answers by
    itself has no count (NA, listed in ``attrs["not_meaningful"]``, shown as "x"), not
    0: a selection of states holds no event without a known state, one of start dates
    none without a start date."""
    needed = [
        "event_id",
        "address_id",
        "state_id",
        "state",
        "event_start_date",
        "event_end_date",
        "duration_class_id",
        "min_participants",
        "max_participants",
        "cost",
        "cost_currency",
    ]
    require_columns(offers, needed, "quality()")
    o = offers.drop_duplicates("event_id") if not offers["event_id"].is_unique else offers
    start, end = o["event_start_date"], o["event_end_date"]
    masks: dict[str, Any] = {
        "events_without_address": o["address_id"].isna(),
        "events_without_state": o["state"].isna(),
        "addresses_without_state": o["address_id"].notna() & o["state_id"].isna(),
        "unknown_state": o["state_id"].notna() & o["state"].isna(),
        **_district_masks(o),
        "missing_start_date": start.isna(),
        "missing_end_date": end.isna(),
        "end_before_start": ends_before_start(start, end),
        "no_duration": o["duration_class_id"] == 0,
        "empty_participants": o["min_participants"].isna() & o["max_participants"].isna(),
        "min_above_max": (o["min_participants"] > o["max_participants"]).fillna(False),
    }
    for ref in ("instruction_form", "instruction_time", "education_type"):
        masks[f"unknown_{ref}"] = _unknown(o, ref)
    for ref in ("course_type", "institution_type"):
        masks[f"unknown_{ref}"] = _unknown(o, ref)
    masks |= _subject_masks(offers, o)
    masks["events_without_cost"] = o["cost"].isna()
    masks["cost_without_currency"] = o["cost"].notna() & o["cost_currency"].isna()
    total = len(o)
    rows = [
        (name, int(mask.sum()) if mask is not None else pd.NA, total, _CHECKS[name])
        for name, mask in masks.items()
        if name not in _OPTIONAL or mask is not None
    ]
    if catalogue is not None:
        courses = catalogue["courses"]["id"]
        with_events = set(catalogue["events"]["course"].dropna().astype("int64"))
        lonely = int((~courses.astype("int64").isin(with_events)).sum())
        rows.append(("courses_without_events", lonely, len(courses), "courses without any event"))
    out = pd.DataFrame(rows, columns=["check", "count", "total", "description"])
    out = out.set_index("check")
    out["count"] = out["count"].astype("Int64")
    out["total"] = out["total"].astype("Int64")
    out.insert(2, "share", (out["count"] / out["total"].mask(out["total"] == 0)).astype("Float64"))
    out = keep_source(out, offers)
    why = _selected(offers)
    if why:
        checks = [c for w in why for c in _ANSWERED_BY[w]]
        out.loc[checks, ["count", "share"]] = pd.NA
        cells = [(c, column) for c in checks for column in ("count", "share")]
        out.attrs["not_meaningful"] = {"cells": cells, "why": why}
    return out


_ANSWERED_BY: dict[str, tuple[str, ...]] = {
    "state": (
        "events_without_address",
        "events_without_state",
        "addresses_without_state",
        "unknown_state",
    ),
    "start": ("missing_start_date",),
    "district": (
        "events_without_district",
        "district_no_postal_code",
        "district_unknown_postal_code",
        "district_ambiguous",
        "district_other_state",
    ),
}
"""The checks a selection answers by itself: of states (without events that have none),
of start dates (without events that have none)."""


def _selected(offers: pd.DataFrame) -> list[str]:
    """What the selection of ``offers`` (recorded by ``select``) leaves no event without."""
    recorded = offers.attrs.get(SOURCE_ATTR)
    selection = recorded.get("selection", {}) if isinstance(recorded, dict) else {}
    why = []
    states = selection.get("state")
    if states and None not in states:
        why.append("state")
    if selection.get("start") or selection.get("end"):
        why.append("start")
    for key in ("district", "district_key"):
        chosen = selection.get(key)
        if chosen and None not in chosen and "district" not in why:
            why.append("district")
    return why


def _district_masks(offers: pd.DataFrame) -> dict[str, pd.Series | None]:
    """Events without a district, and why (missing counts where the frame has no
    districts, e.g. one built by hand)."""
    names = ("no_postal_code", "unknown_postal_code", "ambiguous", "other_state")
    if "district" not in offers or "district_problem" not in offers:
        absent: dict[str, pd.Series | None] = {"events_without_district": None}
        return absent | {f"district_{n}": None for n in names}
    why = offers["district_problem"]
    masks: dict[str, pd.Series | None] = {"events_without_district": offers["district"].isna()}
    for name, problem in zip(names, DISTRICT_PROBLEMS, strict=True):
        masks[f"district_{name}"] = (why == problem).fillna(False).astype(bool)
    return masks


_OPTIONAL = ("events_without_subject", "unknown_subject", "events_without_degree")
"""Checks of the columns that ``offers(subjects=True)`` and ``offers(degrees=True)`` add;
left out of the summary of a frame without them."""


def _subject_masks(offers: pd.DataFrame, events: pd.DataFrame) -> dict[str, pd.Series | None]:
    """Events (rows of ``events``, one per event) whose course has no subject, links an id
    the systematics lack, or has no degree: of every row of the event in ``offers``."""
    masks: dict[str, pd.Series | None] = dict.fromkeys(_OPTIONAL)
    ids = events["event_id"]
    if "subject_id" in offers:
        none = offers.loc[offers["subject_id"].isna().to_numpy(), "event_id"]
        masks["events_without_subject"] = ids.isin(none)
        dangling = offers["subject_id"].notna() & offers["subject_group"].isna()
        masks["unknown_subject"] = ids.isin(offers.loc[dangling.to_numpy(), "event_id"])
    if "degree_type_id" in offers:
        none = offers.loc[offers["degree_type_id"].isna().to_numpy(), "event_id"]
        masks["events_without_degree"] = ids.isin(none)
    return masks


def _unknown(offers: pd.DataFrame, ref: str) -> pd.Series | None:
    if f"{ref}_id" not in offers or ref not in offers:
        return None
    return offers[f"{ref}_id"].notna() & offers[ref].isna()
