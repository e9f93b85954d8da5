"""The events of a course: dates, places, times, participants and the documented
defects."""

from __future__ import annotations

import random

from educatalog.demodata import reference_data as ref
from educatalog.demodata.distributions import (
    _CONTACTS_PER_EVENT,
    _DAYS,
    _FORMS,
    _FULL_TIME_SLOTS,
    _MIDNIGHT,
    _P_EMPTY_PARTICIPANTS,
    _P_END_BEFORE_START,
    _P_UNKNOWN_FORM,
    _PART_TIME_SLOTS,
    UNKNOWN_INSTRUCTION_FORM,
    _weekdays,
)
from educatalog.demodata.rows import _Course, _Institution, _Rows


class _EventRows(_Rows):
    """Generates the events of a course."""

    def _events(
        self,
        rng: random.Random,
        inst: _Institution,
        course_id: int,
        starts: list[int],
        addresses: list[int],
        c: _Course,
    ) -> None:
        rnd = rng.random
        sample = rng.sample
        days = _DAYS
        events = self.buffers["events"]
        junction = self.buffers["events_contacts"]
        event_id = self.last_id["events"]
        junction_id = self.last_id["events_contacts"]
        contact_ids = inst.contact_ids
        n_contacts = len(contact_ids)
        pick_contacts = _CONTACTS_PER_EVENT.pick
        forms = _FORMS[c.category]
        lo, hi = ref.DURATION_SPANS.get(c.duration_class, (0, 0))
        jitter = c.span // 20
        link_base = f"{inst.url}/kurse/{course_id}?termin=" if rnd() < 0.55 else None
        offer = f"{inst.offer_prefix}-{course_id:05d}-" if inst.offer_prefix else None
        account = inst.account
        time_comments = ref.TIME_COMMENTS_PART if c.part_time else ref.TIME_COMMENTS_FULL
        for j, start in enumerate(starts):
            event_id += 1
            address: int | None = addresses[j]
            form = c.form if rnd() < 0.85 else forms.pick(rnd)
            # defects
            r = rnd()
            end_before_start = r < _P_END_BEFORE_START
            if _P_END_BEFORE_START <= r < _P_END_BEFORE_START + _P_UNKNOWN_FORM:
                form = UNKNOWN_INSTRUCTION_FORM
            elif r >= 0.99:
                address = None
            if c.force_defects and j < 3:  # institution 0 shows every event defect
                end_before_start = j == 0
                if j == 1:
                    form = UNKNOWN_INSTRUCTION_FORM
                if j == 2:
                    address = None
            part_time = rnd() < 0.28 if c.mixed_times else c.part_time
            slot = (
                c.slot
                if part_time == c.part_time
                else (_PART_TIME_SLOTS if part_time else _FULL_TIME_SLOTS)[0]
            )
            # dates
            if c.duration_class:
                span = c.span + (int(rnd() * (2 * jitter + 1)) - jitter if jitter else 0)
                span = lo if span < lo else (hi if span > hi else span)
                end = start - 1 - int(rnd() * 60) if end_before_start else start + span
                end_date: str | None = days[end] + slot[1]
                unit: str | None = c.unit
                if unit == "week_days":
                    duration: int | None = _weekdays(start, span + 1)
                elif unit == "calendar_days":
                    duration = span + 1
                else:
                    duration = max(4, _weekdays(start, span + 1) * c.lessons_per_day)
            else:
                end = start
                end_date = unit = duration = None
            deadline = days[start - 1 - int(rnd() * 14)] + _MIDNIGHT if rnd() < 0.55 else None
            announce_start = (
                days[max(0, start - 28 - int(rnd() * 150))] + _MIDNIGHT if rnd() < 0.7 else None
            )
            announce_end = (
                (days[end] if c.rolling and end > start else days[start]) + _MIDNIGHT
                if rnd() < 0.5
                else None
            )
            # participants
            r = rnd()
            if r < _P_EMPTY_PARTICIPANTS:
                min_p = max_p = None
            elif r < 0.55:
                min_p, max_p = None, 12 + int(rnd() * 14)
            else:
                min_p, max_p = 4 + int(rnd() * 7), 12 + int(rnd() * 14)
            inhouse = (rnd() >= 0.96) if rnd() < 0.9 else None
            r = rnd()
            execution = None if r < 0.25 else (2 if inhouse else (3 if r < 0.32 else 1))
            rolling = c.rolling if rnd() < 0.97 else None
            events.append(
                {
                    "id": event_id,
                    "min_participants": min_p,
                    "max_participants": max_p,
                    "remarks": ref.EVENT_REMARKS[int(rnd() * 7)] if rnd() < 0.12 else None,
                    "link": f"{link_base}{event_id}" if link_base else None,
                    "institution": inst.uuid,
                    "address": address,
                    "event_start_date": days[start] + slot[0],
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
                    "has_employer_practical_part": c.practical if rnd() < 0.92 else None,
                    "instruction_time_comment": time_comments[int(rnd() * len(time_comments))]
                    if rnd() < 0.3
                    else None,
                    "education_voucher": c.voucher if rnd() < 0.95 else None,
                    "comment": ref.EVENT_COMMENTS[int(rnd() * 6)] if rnd() < 0.1 else None,
                    "course": course_id,
                    "execution_form": execution,
                    "measure_number": c.measure_number if rnd() < 0.85 else None,
                    "own_offer_number": f"{offer}{j + 1:03d}" if offer else None,
                    "duration_in_days": duration,
                    "account": account if rnd() < 0.9 else None,
                    "duration_unit": unit,
                }
            )
            k = pick_contacts(rnd)
            if k and n_contacts:
                for contact in sample(contact_ids, k if k < n_contacts else n_contacts):
                    junction_id += 1
                    junction.append(
                        {"id": junction_id, "events_id": event_id, "contacts_id": contact}
                    )
        self.last_id["events"] = event_id
        self.last_id["events_contacts"] = junction_id
