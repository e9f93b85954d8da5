"""The events of a course: dates, places, times, participants and the documented
defects (the hot loop: about one million rows at scale 200)."""

from __future__ import annotations

import random
from collections.abc import Callable

from educatalog.demodata import reference_data as ref
from educatalog.demodata.distributions import (
    CONTACTS_PER_EVENT,
    DAYS,
    FORMS,
    FULL_TIME_SLOTS,
    MIDNIGHT,
    P_EMPTY_PARTICIPANTS,
    P_END_BEFORE_START,
    P_UNKNOWN_FORM,
    PART_TIME_SLOTS,
    UNKNOWN_INSTRUCTION_FORM,
    count_weekdays,
)
from educatalog.demodata.rows import EventTerms, Institution, RowBuffers

__all__ = ["EventWriter"]

Draw = Callable[[], float]
"""``random.Random.random`` of the institution being generated: every value comes from it,
in a fixed order, so the same seed gives the same rows."""


class EventWriter:
    """Writes the events of a course, and the contacts of each event (``events_contacts``)."""

    def __init__(self, rows: RowBuffers) -> None:
        self.rows = rows

    def write(
        self,
        rng: random.Random,
        inst: Institution,
        course_id: int,
        starts: list[int],
        addresses: list[int],
        terms: EventTerms,
    ) -> None:
        """Append one event for each start day (``starts``) at the matching address."""
        rnd = rng.random
        events = self.rows["events"]
        event_id = self.rows.last_id["events"]
        link_base = f"{inst.url}/kurse/{course_id}?termin=" if rnd() < 0.55 else None
        offer = f"{inst.offer_prefix}-{course_id:05d}-" if inst.offer_prefix else None
        account = inst.account
        time_comments = ref.TIME_COMMENTS_PART if terms.part_time else ref.TIME_COMMENTS_FULL
        for j, start in enumerate(starts):
            event_id += 1
            form, address, end_before_start = _defects(rnd, j, addresses[j], terms)
            part_time, slot = _times(rnd, terms)
            end, end_date, unit, duration = _end(rnd, start, end_before_start, slot, terms)
            deadline, announce_start, announce_end = _announcement(rnd, start, end, terms)
            min_p, max_p, inhouse, execution, rolling = _participants(rnd, terms)
            events.append(
                {
                    "id": event_id,
                    "min_participants": min_p,
                    "max_participants": max_p,
                    "remarks": ref.EVENT_REMARKS[int(rnd() * 7)] if rnd() < 0.12 else None,
                    "link": f"{link_base}{event_id}" if link_base else None,
                    "institution": inst.uuid,
                    "address": address,
                    "event_start_date": DAYS[start] + slot[0],
                    "event_end_date": end_date,
                    "registration_deadline": deadline,
                    "announcement_start_date": announce_start,
                    "announcement_end_date": announce_end,
                    "instruction_form": form,
                    "instruction_time": 2 if part_time else 1,
                    "is_inhouse": inhouse,
                    "duration_regular_start": (1, 2, 4)[int(rnd() * 3)] if rolling else None,
                    "has_individual_start": rolling,
                    "is_part_time": (part_time and rnd() < 0.6) if rnd() < 0.95 else None,
                    "has_employer_practical_part": terms.practical if rnd() < 0.92 else None,
                    "instruction_time_comment": time_comments[int(rnd() * len(time_comments))]
                    if rnd() < 0.3
                    else None,
                    "education_voucher": terms.voucher if rnd() < 0.95 else None,
                    "comment": ref.EVENT_COMMENTS[int(rnd() * 6)] if rnd() < 0.1 else None,
                    "course": course_id,
                    "execution_form": execution,
                    "measure_number": terms.measure_number if rnd() < 0.85 else None,
                    "own_offer_number": f"{offer}{j + 1:03d}" if offer else None,
                    "duration_in_days": duration,
                    "account": account if rnd() < 0.9 else None,
                    "duration_unit": unit,
                }
            )
            self._contacts(rng, inst.contact_ids, event_id)
        self.rows.last_id["events"] = event_id

    def _contacts(self, rng: random.Random, contact_ids: list[int], event_id: int) -> None:
        k = CONTACTS_PER_EVENT.pick(rng.random)
        n_contacts = len(contact_ids)
        if k and n_contacts:
            junction = self.rows["events_contacts"]
            junction_id = self.rows.last_id["events_contacts"]
            for contact in rng.sample(contact_ids, k if k < n_contacts else n_contacts):
                junction_id += 1
                junction.append({"id": junction_id, "events_id": event_id, "contacts_id": contact})
            self.rows.last_id["events_contacts"] = junction_id


def _defects(
    rnd: Draw, j: int, address: int | None, terms: EventTerms
) -> tuple[int, int | None, bool]:
    """The event's instruction form and address, and whether it ends before it starts:
    the documented defects drawn (and forced on the first three events of institution 0),
    an address kept from ``terms.addressed_from`` on."""
    form = terms.form if rnd() < 0.85 else FORMS[terms.category].pick(rnd)
    r = rnd()
    end_before_start = r < P_END_BEFORE_START
    if P_END_BEFORE_START <= r < P_END_BEFORE_START + P_UNKNOWN_FORM:
        form = UNKNOWN_INSTRUCTION_FORM
    elif r >= 0.99 and j < terms.addressed_from:
        address = None
    if terms.force_defects and j < 3:  # institution 0 shows every event defect
        end_before_start = j == 0
        if j == 1:
            form = UNKNOWN_INSTRUCTION_FORM
        if j == 2:
            address = None
    return form, address, end_before_start


def _end(
    rnd: Draw, start: int, end_before_start: bool, slot: tuple[str, str], terms: EventTerms
) -> tuple[int, str | None, str | None, int | None]:
    """The last day, the end date, the duration's unit and the duration in that unit
    (an event of duration class 0 has none)."""
    if not terms.duration_class:
        return start, None, None, None
    lo, hi = ref.DURATION_SPANS.get(terms.duration_class, (0, 0))
    jitter = terms.span // 20
    span = terms.span + (int(rnd() * (2 * jitter + 1)) - jitter if jitter else 0)
    span = lo if span < lo else (hi if span > hi else span)
    end = start - 1 - int(rnd() * 60) if end_before_start else start + span
    unit = terms.unit
    if unit == "week_days":
        duration = count_weekdays(start, span + 1)
    elif unit == "calendar_days":
        duration = span + 1
    else:
        duration = max(4, count_weekdays(start, span + 1) * terms.lessons_per_day)
    return end, DAYS[end] + slot[1], unit, duration


def _times(rnd: Draw, terms: EventTerms) -> tuple[bool, tuple[str, str]]:
    """Whether the event is part-time, and its daily start and end times."""
    part_time = rnd() < 0.28 if terms.mixed_times else terms.part_time
    if part_time == terms.part_time:
        return part_time, terms.slot
    return part_time, (PART_TIME_SLOTS if part_time else FULL_TIME_SLOTS)[0]


def _announcement(
    rnd: Draw, start: int, end: int, terms: EventTerms
) -> tuple[str | None, str | None, str | None]:
    """The registration deadline and the first and last day of the announcement."""
    deadline = DAYS[start - 1 - int(rnd() * 14)] + MIDNIGHT if rnd() < 0.55 else None
    announce_start = DAYS[max(0, start - 28 - int(rnd() * 150))] + MIDNIGHT if rnd() < 0.7 else None
    announce_end = (
        (DAYS[end] if terms.rolling and end > start else DAYS[start]) + MIDNIGHT
        if rnd() < 0.5
        else None
    )
    return deadline, announce_start, announce_end


def _participants(
    rnd: Draw, terms: EventTerms
) -> tuple[int | None, int | None, bool | None, int | None, bool | None]:
    """Fewest and most participants (often neither), whether in-house, the execution form,
    and whether it has rolling starts."""
    r = rnd()
    if r < P_EMPTY_PARTICIPANTS:
        min_p = max_p = None
    elif r < 0.55:
        min_p, max_p = None, 12 + int(rnd() * 14)
    else:
        min_p, max_p = 4 + int(rnd() * 7), 12 + int(rnd() * 14)
    inhouse = (rnd() >= 0.96) if rnd() < 0.9 else None
    r = rnd()
    execution = None if r < 0.25 else (2 if inhouse else (3 if r < 0.32 else 1))
    rolling = terms.rolling if rnd() < 0.97 else None
    return min_p, max_p, inhouse, execution, rolling
