"""Courses and what belongs to them: titles, descriptions, costs, degrees, keywords,
funding and the other junctions."""

from __future__ import annotations

import random

from educatalog.demodata import reference_data as ref
from educatalog.demodata.distributions import (
    DURATION_CLASSES,
    EVENTS_PER_COURSE,
    FLAGSHIP_CLASSES,
    FORM_CATEGORIES,
    FORMS,
    FULL_TIME_SLOTS,
    LANGUAGE_TEMPLATES,
    PART_TIME_SLOTS,
    REGION_LEAVE,
    REGION_PROGRAMS,
    REGULATED_TEMPLATES,
    SHORT_COURSE_UNITS,
    START_MIN,
    START_SPAN,
    SUBJECTS_NONE,
    SUBJECTS_SECOND,
    SUBJECTS_THIRD,
    SYSTEMATIC_IDS,
    SYSTEMATIC_PARENT,
    TEMPLATES_BY_CLASS,
    count_weekdays,
    money,
    nearest_monday,
)
from educatalog.demodata.events import EventWriter
from educatalog.demodata.rows import EventTerms, Institution, RowBuffers

__all__ = ["CourseWriter"]


class CourseWriter:
    """Writes courses, each with its costs, degrees, keywords, junction rows and events."""

    def __init__(self, rows: RowBuffers, events: EventWriter, seed: int) -> None:
        self.rows = rows
        self.events = events
        self.seed = seed

    def _template(self, rng: random.Random, kind: str) -> tuple[ref.CourseTemplate, int]:
        rnd = rng.random
        if kind == "university":
            t = rng.choice(ref.STUDY_TEMPLATES)
        elif kind == "language" and rnd() < 0.7:
            t = LANGUAGE_TEMPLATES.pick(rnd)
        elif kind == "chamber" and rnd() < 0.2:
            t = rng.choice(REGULATED_TEMPLATES)
        else:
            duration_class = DURATION_CLASSES.pick(rnd)
            return TEMPLATES_BY_CLASS[duration_class].pick(rnd), duration_class
        duration_class = rng.choice(t.classes) if rnd() < 0.997 else 0
        return t, duration_class

    def write(
        self,
        rng: random.Random,
        inst: Institution,
        address_ids: list[int],
        flagship: bool,
        no_events: bool,
        force_defects: bool,
        rare: tuple[int, int | None] | None = None,
    ) -> None:
        """Append a course with its costs, degrees, keywords, junction rows and events;
        ``rare`` is the duration class and form category (None: drawn) of one of the courses
        that institution 0 holds for the rarest levels."""
        rnd = rng.random
        course_id = self.rows.next_id("courses")
        if flagship:
            duration_class = FLAGSHIP_CLASSES.pick(rnd)
            t = TEMPLATES_BY_CLASS[duration_class].pick(rnd)
        elif rare is not None:
            duration_class = rare[0]
            t = TEMPLATES_BY_CLASS[duration_class].pick(rnd)
        else:
            t, duration_class = self._template(rng, inst.kind.name)
        category = rare[1] if rare is not None else None
        terms, lessons = _terms(rng, t, duration_class, flagship, force_defects, category)
        federal = self._funding(rng, inst, t, terms)
        self._course(rng, inst, course_id, t, terms, lessons)
        funded = terms.voucher or t.funding in ("avgs", "bamf")
        # a nationwide provider's flagship states its price (in every state where institution
        # 0 has branches); institution 0's course without a stated duration has none either
        stated = True if flagship else (False if rare is not None and rare[0] == 0 else None)
        self._costs(rng, inst, course_id, funded, lessons, stated)
        self._degrees(rng, course_id, t)
        self._keywords(rng, course_id, t)
        self._course_junctions(rng, inst, course_id, t, federal, duration_class, terms.part_time)
        self._subjects(course_id, t, flagship, link_area=rnd() < 0.3)
        if no_events:
            return
        venue = inst.venues.pick
        if flagship:  # more dates at some branches, then an event at every branch
            extra = [venue(rnd) for _ in range(50 + int(rnd() * 101))]
            event_addresses = extra + address_ids
            n_events = len(event_addresses)
            terms.addressed_from = len(extra)
        else:
            n_events = EVENTS_PER_COURSE[min(duration_class, 7)].pick(rnd)
            event_addresses = [venue(rnd) for _ in range(n_events)]
        starts = sorted(START_MIN + int(rnd() * START_SPAN) for _ in range(n_events))
        if flagship:  # the dates in no order of the branches (listed by district key)
            rng.shuffle(starts)
        if duration_class >= 3:  # longer courses start on Mondays
            starts = [nearest_monday(s) for s in starts]
        self.events.write(rng, inst, course_id, starts, event_addresses, terms)

    def _funding(
        self, rng: random.Random, inst: Institution, t: ref.CourseTemplate, terms: EventTerms
    ) -> list[int]:
        """The federal funding types of the course; sets ``terms.voucher`` and, for an
        education voucher, ``terms.measure_number``."""
        rnd = rng.random
        certified = inst.certifier is not None and t.funding in ("voucher", "avgs")
        voucher = certified and t.funding == "voucher" and rnd() < 0.85
        federal: list[int] = []
        if voucher:
            federal.append(1)
            if rnd() < 0.35:
                federal.append(2)
            if rnd() < 0.05:
                federal.append(3)
            if rnd() < 0.1:
                federal.append(8)
            if rnd() < 0.08:
                federal.append(10)
        elif t.funding == "avgs" and certified:
            federal.append(4)
        elif t.funding == "aufstieg":
            federal.append(5)
            if rnd() < 0.2:
                federal.append(7)
            if rnd() < 0.1:
                federal.append(10)
        elif t.funding == "bamf":
            federal.append(11)
        elif t.funding == "bafoeg":
            if rnd() < 0.5:
                federal.append(6)
            if rnd() < 0.3:
                federal.append(7)
        elif rnd() < 0.15:
            federal.append(2)
        if inst.kind.name == "rehab" and 8 not in federal:
            federal.append(8)
            if rnd() < 0.3:
                federal.append(9)
        if rnd() < 0.04 and 12 not in federal:
            federal.append(12)
        terms.voucher = voucher
        terms.measure_number = (
            f"{rng.choice(ref.AGENCY_NUMBERS)}/{rng.randint(100, 9999)}/{rng.randint(2023, 2025)}"
            if voucher
            else None
        )
        return federal

    def _course(
        self,
        rng: random.Random,
        inst: Institution,
        course_id: int,
        t: ref.CourseTemplate,
        terms: EventTerms,
        lessons: int,
    ) -> None:
        """Append the course's own row."""
        rnd = rng.random
        choice = rng.choice
        title = t.title
        r = rnd()
        if r < 0.12 and terms.category == 2:
            title += choice(ref.TITLE_SUFFIXES_ONLINE)
        elif r < 0.3 and not _forced_part_time(t):
            suffixes = self._title_suffixes(
                t, terms.part_time, terms.practical, terms.voucher, terms.duration_class
            )
            title += choice(suffixes)
        course_type = t.course_type
        if course_type == 1 and rnd() < 0.3:
            course_type = 5
        education_type = t.education_type
        if "(Umschulung)" in t.title and rnd() < 0.3:
            education_type = 109
        elif rnd() < 0.004:
            education_type = 0
        certified = inst.certifier is not None and t.funding in ("voucher", "avgs")
        self.rows["courses"].append(
            {
                "id": course_id,
                "institution": inst.uuid,
                "title": title,
                "description": self._description(rng, t, terms.voucher, lessons)
                if rnd() < 0.95
                else None,
                "course_type": course_type,
                "education_type": education_type,
                "institution_type": inst.institution_type if rnd() < 0.99 else None,
                "certifier": inst.certifier if certified else None,
                "target_groups": ", ".join(rng.sample(ref.TARGET_GROUPS, 1 + int(rnd() * 3)))
                if rnd() < 0.85
                else None,
                "requirements": "; ".join(rng.sample(ref.REQUIREMENTS, 1 + int(rnd() * 2)))
                if rnd() < 0.75
                else None,
                "accessibility_remarks": choice(ref.ACCESSIBILITY_REMARKS)
                if rnd() < 0.25
                else None,
            }
        )

    @staticmethod
    def _title_suffixes(
        t: ref.CourseTemplate, part_time: bool, practical: bool, voucher: bool, duration_class: int
    ) -> list[str]:
        if part_time:
            return list(ref.TITLE_SUFFIXES_PART_TIME)
        suffixes = list(ref.TITLE_SUFFIXES_FULL_TIME)
        if practical and "Praktikum" not in t.title:
            suffixes.append(ref.TITLE_SUFFIX_PRACTICAL)
        if voucher:
            suffixes.append(ref.TITLE_SUFFIX_CERTIFIED)
        if 1 <= duration_class <= 4:
            suffixes.append(ref.TITLE_SUFFIX_COMPACT)
        return suffixes

    @staticmethod
    def _description(rng: random.Random, t: ref.CourseTemplate, voucher: bool, lessons: int) -> str:
        parts = [t.about] if t.about else []
        parts.extend(rng.sample(ref.DESCRIPTION_SENTENCES, 1 + int(rng.random() * 3)))
        if voucher:
            parts.append(
                "Die Maßnahme ist nach AZAV zertifiziert und kann mit einem Bildungsgutschein "
                "gefördert werden."
            )
        if rng.random() < 0.5:
            parts.append(f"Umfang: {lessons} Unterrichtseinheiten à 45 Minuten.")
        return " ".join(parts)

    def _costs(
        self,
        rng: random.Random,
        inst: Institution,
        course_id: int,
        funded: bool,
        lessons: int,
        stated: bool | None,
    ) -> None:
        """The course's cost rows: its price drawn (``stated`` None), stated (True) or on
        request (False: a cost row without a value)."""
        rnd = rng.random
        rows = self.rows["event_costs"]
        lo, hi = inst.kind.price
        price = lo + int(rnd() * (hi - lo))
        if lessons > 400:  # long measures stay near the cost rates the agencies accept
            price = min(price, 1100 + int(rnd() * 700))
        full_cents = max(5_000, lessons * price // 1000 * 1000)  # rounded to 10 EUR
        value: int | None
        remarks: str | None = None
        r = rnd()
        if funded and r < 0.35:
            value = -1  # no cost row
        elif funded and r < 0.6:
            value, remarks = 0, "Förderung über Bildungsgutschein möglich"
        elif not funded and r < 0.1:
            value = -1
        elif not funded and r < 0.14:
            value, remarks = None, "Preis auf Anfrage"
        else:
            value = full_cents
            if rnd() < 0.3:
                remarks = rng.choice(ref.COST_REMARKS)
        if stated is False:
            value, remarks = None, "Preis auf Anfrage"
        elif stated and (value is None or value < 0):  # a cost of 0 is a price too
            value, remarks = full_cents, None
        if value != -1:
            rows.append(
                {
                    "id": self.rows.next_id("event_costs"),
                    "course": course_id,
                    "value": None if value is None else money(value),
                    "currency": "EUR" if rnd() < 0.97 or stated else None,
                    "remarks": remarks,
                }
            )
        if value != -1 and rnd() < 0.15:
            rows.append(
                {
                    "id": self.rows.next_id("event_costs"),
                    "course": course_id,
                    "value": money(15_000 + int(rnd() * 50) * 1_000),
                    "currency": "EUR",
                    "remarks": "Prüfungsgebühr",
                }
            )

    def _degrees(self, rng: random.Random, course_id: int, t: ref.CourseTemplate) -> None:
        rnd = rng.random
        rows = self.rows["course_degrees"]
        study = t.course_type == 2
        if t.degree is not None and rnd() < 0.8:
            title, degree_type, additional, entitled = t.degree
            credits = None
            if study:
                credits = 15 if "Zertifikat" in t.title else (90 if "MBA" in t.title else 180)
                if "M.Sc." in t.title:
                    credits = 120
            rows.append(
                {
                    "id": self.rows.next_id("course_degrees"),
                    "course": course_id,
                    "degree_title": title,
                    "degree_type": degree_type,
                    "additional_qualifications": additional,
                    "entitlements": entitled,
                    "credits": credits,
                }
            )
        if rnd() < (0.2 if t.degree is not None else 0.5):
            rows.append(
                {
                    "id": self.rows.next_id("course_degrees"),
                    "course": course_id,
                    "degree_title": "Teilnahmebescheinigung"
                    if rnd() < 0.5
                    else "Zertifikat des Bildungsträgers",
                    "degree_type": 3,
                    "additional_qualifications": None,
                    "entitlements": None,
                    "credits": None,
                }
            )

    def _keywords(self, rng: random.Random, course_id: int, t: ref.CourseTemplate) -> None:
        rnd = rng.random
        n = int(rnd() * 6)
        if not n:
            return
        words = list(t.keywords[:n])
        while len(words) < n:
            w = rng.choice(ref.KEYWORDS_GENERIC)
            if w not in words:
                words.append(w)
        rows = self.rows["course_keywords"]
        for w in words:
            rows.append(
                {"id": self.rows.next_id("course_keywords"), "course": course_id, "keyword": w}
            )

    def _course_junctions(
        self,
        rng: random.Random,
        inst: Institution,
        course_id: int,
        t: ref.CourseTemplate,
        federal: list[int],
        duration_class: int,
        part_time: bool,
    ) -> None:
        rnd = rng.random
        rows = self.rows["courses_funding_types_federals"]
        for fid in federal:
            rows.append(
                {
                    "id": self.rows.next_id("courses_funding_types_federals"),
                    "courses_id": course_id,
                    "funding_types_federals_id": fid,
                }
            )
        regions: list[int] = []
        programs = REGION_PROGRAMS.get(inst.main_state, [])
        if programs and rnd() < 0.2:
            regions.append(rng.choice(programs))
        leave = REGION_LEAVE.get(inst.main_state)
        if leave and (duration_class in (1, 2, 3) or part_time) and rnd() < 0.25:
            regions.append(leave)
        rows = self.rows["courses_funding_types_regions"]
        for fid in regions:
            rows.append(
                {
                    "id": self.rows.next_id("courses_funding_types_regions"),
                    "courses_id": course_id,
                    "funding_types_regions_id": fid,
                }
            )
        p_handicaps = 0.7 if inst.kind.name == "rehab" else 0.08
        if rnd() < p_handicaps:
            rows = self.rows["courses_handicaps"]
            for hid in sorted(rng.sample(range(1, len(ref.HANDICAPS) + 1), 1 + int(rnd() * 3))):
                rows.append(
                    {
                        "id": self.rows.next_id("courses_handicaps"),
                        "courses_id": course_id,
                        "handicaps_id": hid,
                    }
                )

    def _subjects(
        self, course_id: int, t: ref.CourseTemplate, flagship: bool, link_area: bool
    ) -> None:
        """The course's subjects, drawn from a stream of their own (so that no other row
        depends on them): none for a few courses, else the template's leaf (with its area
        too where ``link_area``), for some one or two related leaves of other areas."""
        rnd = random.Random(f"educatalog-demo:{self.seed}:subjects:{course_id}").random
        if not flagship and rnd() < SUBJECTS_NONE:
            return
        codes = [t.systematic]
        if t.also and rnd() < SUBJECTS_SECOND:
            others = list(t.also)
            codes.append(others.pop(int(rnd() * len(others))))
            if others and rnd() < SUBJECTS_THIRD:
                codes.append(others[0])
        parent = SYSTEMATIC_PARENT[t.systematic]
        if parent and link_area:
            codes.insert(1, parent)
        rows = self.rows["courses_systematics"]
        for code in codes:
            rows.append(
                {
                    "id": self.rows.next_id("courses_systematics"),
                    "courses_id": course_id,
                    "systematics_id": SYSTEMATIC_IDS[code],
                }
            )


def _forced_part_time(t: ref.CourseTemplate) -> bool:
    return "Teilzeit" in t.title or "berufsbegleitend" in t.title


def _terms(
    rng: random.Random,
    t: ref.CourseTemplate,
    duration_class: int,
    flagship: bool,
    force_defects: bool,
    category: int | None = None,
) -> tuple[EventTerms, int]:
    """How the course's events are held (funding still to be drawn) and its lessons;
    ``category``, the instruction form's, is drawn where it is None."""
    rnd = rng.random
    if category is None:
        category = 1 if flagship else FORM_CATEGORIES.pick(rnd)
    form = FORMS[category].pick(rnd)
    forced = _forced_part_time(t)
    part_time = forced or (not flagship and rnd() < 0.28)
    mixed_times = not forced and not flagship and rnd() < 0.1
    slot = rng.choice(PART_TIME_SLOTS if part_time else FULL_TIME_SLOTS)
    lo, hi = ref.DURATION_SPANS.get(duration_class, (0, 0))
    span = lo + int(rnd() * (hi - lo + 1))
    if duration_class <= 2:
        unit = SHORT_COURSE_UNITS.pick(rnd)
    else:
        unit = "week_days" if (r := rnd()) < 0.6 else ("calendar_days" if r < 0.95 else "hours")
    lessons_per_day = 3 if part_time else 8
    lessons = min(3600, max(4, count_weekdays(0, span + 1) * lessons_per_day))
    rolling = not flagship and rnd() < 0.12
    practical = "Praktikum" in t.about or "Umschulung" in t.title or rnd() < 0.05
    terms = EventTerms(
        form=form,
        category=category,
        part_time=part_time,
        mixed_times=mixed_times,
        slot=slot,
        duration_class=duration_class,
        span=span,
        unit=unit,
        lessons_per_day=lessons_per_day,
        rolling=rolling,
        practical=practical,
        voucher=False,
        measure_number=None,
        force_defects=force_defects,
    )
    return terms, lessons
