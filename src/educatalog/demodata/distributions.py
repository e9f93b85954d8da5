"""The demo's constants and distributions: the shares, weights, date spans and word
choices every part of the generator draws from."""

from __future__ import annotations

import bisect
import datetime as dt
import functools
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Generic, TypeVar

from educatalog.demodata import reference_data as ref
from educatalog.model.schema import SCHEMA

DEMO_TOKEN: str = "educatalog-demo-token"
"""The fixed bearer token of the demo server."""

GENERATOR_VERSION: int = 5
"""Bumped whenever the rows generated for a given ``(seed, scale)`` change (4: the addresses
in all 400 districts, with the faults of real addresses; 5: courses with no, one, two or
three subject leaves, only ``courses_systematics`` changed)."""

DEFAULT_SEED: int = 0

CHUNK_SIZE: int = 20_000
"""Most rows in one chunk yielded by :func:`iter_rows`."""

UNKNOWN_INSTRUCTION_FORM: int = 999
"""The instruction form id of the ``unknown_instruction_form`` defect (no such row)."""

DEFECTS: dict[str, str] = {
    "address_missing_state": "Addresses whose state is null (~2 % of addresses).",
    "empty_participants": "Events with neither min_participants nor max_participants "
    "(~45 % of events).",
    "end_before_start": "Events whose event_end_date precedes event_start_date (~0.5 % of events).",
    "course_without_events": "Courses that have no events at all (~2 % of courses).",
    "unknown_instruction_form": "Events whose instruction_form is 999, an id missing from "
    "instruction_forms (~0.2 % of events).",
    "event_without_address": "Events whose address is null (~1 % of events).",
    "address_missing_postal_code": "Addresses whose zip is null (~0.2 % of addresses).",
    "address_unknown_postal_code": "Addresses whose zip is in no delivery area: a PO box's "
    "code, or a malformed one (~0.2 % of addresses).",
    "address_city_mismatch": "Addresses whose city is not a place of their zip: the zip "
    "alone finds the district, or none where it lies in several (~0.5 % of addresses).",
    "address_other_state": "Addresses whose state is not their district's: a branch given "
    "its headquarters' state (~0.3 % of addresses).",
}
"""The realistic defects the demo data carries on purpose: name -> description with share."""

REFERENCE_COLLECTIONS: tuple[str, ...] = tuple(c.name for c in SCHEMA.of_kind("reference"))
"""The 13 reference lists, in catalogue order."""

ENTITY_ORDER: tuple[str, ...] = (
    "addresses",
    "contacts",
    "courses",
    "event_costs",
    "course_degrees",
    "course_keywords",
    "courses_funding_types_federals",
    "courses_funding_types_regions",
    "courses_handicaps",
    "courses_systematics",
    "events",
    "events_contacts",
)
"""Generated collections in an order where every row's references come first."""

# Per-collection share of the defects and other probabilities.
P_ADDRESS_NO_STATE = 0.02
P_COURSE_NO_EVENTS = 0.02
P_END_BEFORE_START = 0.005
P_UNKNOWN_FORM = 0.002
P_NO_ADDRESS = 0.01
P_EMPTY_PARTICIPANTS = 0.45
P_NO_POSTAL_CODE = 0.002
P_UNKNOWN_POSTAL_CODE = 0.002
P_CITY_MISMATCH = 0.005
P_HEADQUARTERS_STATE = 0.01  # of the branches in another state than their headquarters

INSTITUTIONS_PER_SCALE = 300
NATIONWIDE_EVERY = 150  # institution i is a nationwide provider when i % 150 == 0
NATIONWIDE_MORE_BRANCHES = 40  # beyond one in each of half the districts: 0 to 40 more
RARE_COURSES: dict[int, tuple[int, int | None]] = {1: (0, None), 2: (1, 2)}
"""Institution 0's courses 1 and 2, held for the rarest levels in every demo: (duration
class, form category or None: drawn): one without a stated duration, one short and digital."""
COVERING_PROVIDERS = 2  # the first two nationwide providers have a branch in every district

T = TypeVar("T")


class Weighted(Generic[T]):
    """Items with weights; ``pick`` draws one with a single ``random()`` call."""

    __slots__ = ("cum", "items", "last", "total")

    def __init__(self, pairs: Sequence[tuple[T, float]]) -> None:
        self.items = [item for item, _ in pairs]
        # the running sums, added from the first (as a loop would: the same floats)
        self.cum: list[float] = list(itertools.accumulate(w for _, w in pairs))
        self.total = self.cum[-1] if self.cum else 0.0
        self.last = len(self.items) - 1

    @classmethod
    def of(cls, items: Iterable[T], weights: Iterable[float]) -> Weighted[T]:
        """Items and their weights from two sequences of one length."""
        return cls(list(zip(items, weights, strict=True)))

    def pick(self, rnd: Callable[[], float]) -> T:
        i = bisect.bisect_right(self.cum, rnd() * self.total)
        return self.items[i if i <= self.last else self.last]

    def weight(self, k: int) -> float:
        """The weight of the ``k``-th item."""
        return self.cum[k] - (self.cum[k - 1] if k else 0.0)


# ---------------------------------------------------------------------------------------
# Dates: day indexes from 2024-01-01 (a Monday) and their ISO strings.

DAY0 = dt.date(2024, 1, 1)
DAYS: list[str] = [(DAY0 + dt.timedelta(days=d)).isoformat() for d in range(3000)]
START_MIN = (dt.date(2025, 1, 1) - DAY0).days
START_SPAN = (dt.date(2026, 12, 31) - DAY0).days - START_MIN + 1
# _WEEKDAYS[w][r]: weekdays among r consecutive days starting on weekday w (0 = Monday).
_WEEKDAYS = [[sum(1 for k in range(r) if (w + k) % 7 < 5) for r in range(7)] for w in range(7)]


def nearest_monday(day: int) -> int:
    """The Monday nearest to day index ``day`` within the two years of start dates."""
    monday = day - day % 7 + (7 if day % 7 > 2 else 0)
    if monday < START_MIN:
        monday += 7
    elif monday >= START_MIN + START_SPAN:
        monday -= 7
    return monday


def count_weekdays(start: int, days: int) -> int:
    """Number of Monday-to-Friday days among ``days`` days from day index ``start``."""
    full, rest = divmod(days, 7)
    return full * 5 + _WEEKDAYS[start % 7][rest]


# ---------------------------------------------------------------------------------------
# Distributions

STATE_SHARES = Weighted(list(ref.STATE_EVENT_SHARES.items()))
DURATION_CLASSES = Weighted(
    [(1, 1), (2, 2), (3, 20), (4, 29), (5, 25), (6, 17), (7, 6), (8, 0.4), (9, 0.3), (0, 0.3)]
)
FORM_CATEGORIES = Weighted([(1, 45), (2, 20), (3, 25), (4, 10)])
FORMS = {
    1: Weighted([(101, 60), (102, 15), (103, 5), (104, 15), (105, 5)]),
    2: Weighted([(201, 60), (202, 20), (203, 8), (204, 8), (206, 4)]),
    3: Weighted([(301, 50), (302, 15), (303, 30), (304, 5)]),
    4: Weighted([(401, 50), (402, 40), (403, 10)]),
}
EVENTS_PER_COURSE = {
    0: Weighted([(1, 10), (2, 12), (3, 12), (4, 12), (5, 10), (6, 10), (8, 10), (10, 8)]),
    1: Weighted([(1, 10), (2, 12), (3, 12), (4, 12), (5, 10), (6, 10), (8, 10), (10, 8)]),
    2: Weighted([(1, 10), (2, 12), (3, 12), (4, 12), (5, 10), (6, 10), (8, 10), (10, 8)]),
    3: Weighted([(1, 20), (2, 20), (3, 15), (4, 15), (5, 10), (6, 8), (8, 7), (10, 5)]),
    4: Weighted([(1, 25), (2, 22), (3, 18), (4, 13), (5, 8), (6, 6), (8, 5), (12, 3)]),
    5: Weighted([(1, 30), (2, 25), (3, 18), (4, 12), (5, 7), (6, 5), (8, 3)]),
    6: Weighted([(1, 35), (2, 27), (3, 17), (4, 11), (6, 6), (8, 4)]),
    7: Weighted([(1, 45), (2, 30), (3, 15), (4, 10)]),
}
COURSES_PER_INSTITUTION = Weighted(
    list({1: 15, 2: 15, 3: 14, 4: 12, 5: 10, 6: 8, 7: 6, 8: 5, 9: 3, 10: 3, 12: 2}.items())
    + list({15: 2, 20: 1, 25: 1, 30: 1}.items())
)
FLAGSHIP_CLASSES = Weighted([(3, 20), (4, 29), (5, 25), (6, 17)])
CONTACTS_PER_INSTITUTION = Weighted([(1, 30), (2, 35), (3, 20), (4, 15)])
SHORT_COURSE_UNITS = Weighted([("hours", 40), ("week_days", 30), ("calendar_days", 30)])
CONTACTS_PER_EVENT = Weighted([(0, 25), (1, 45), (2, 20), (3, 10)])
CERTIFIER_SHARES = Weighted(
    list({11: 30, 12: 12, 16: 8, 18: 8, 20: 6, 24: 6, 25: 5, 31: 4, 34: 5}.items())
    + list({40: 4, 45: 5, 504: 3}.items())
)


class Kind:
    """A kind of institution: how it is named, typed and priced."""

    __slots__ = ("certified", "institution_types", "name", "price")

    def __init__(
        self,
        name: str,
        institution_types: Sequence[tuple[int, float]],
        price: tuple[int, int],
        certified: float,
    ) -> None:
        self.name = name
        self.institution_types = Weighted(institution_types)
        self.price = price  # cents per 45-minute lesson
        self.certified = certified  # share of institutions with an AZAV certifier


KINDS = Weighted(
    [
        (Kind("commercial", [(105, 95), (0, 5)], (1000, 4500), 0.95), 53),
        (Kind("vhs", [(105, 65), (100, 35)], (500, 900), 0.5), 12),
        (Kind("chamber", [(105, 60), (102, 40)], (1200, 2500), 0.9), 8),
        (Kind("language", [(105, 100)], (700, 1400), 0.8), 8),
        (Kind("association", [(105, 85), (102, 15)], (800, 1800), 0.85), 10),
        (Kind("rehab", [(104, 60), (103, 30), (110, 10)], (1500, 3000), 1.0), 4),
        (Kind("university", [(106, 45), (108, 30), (113, 20), (101, 5)], (500, 900), 0.3), 2),
    ]
)
NATIONWIDE = Kind("nationwide", [(105, 100)], (1100, 1600), 1.0)


def _template_weight(t: ref.CourseTemplate) -> float:
    return 1.0 if t.education_type == 104 else 0.15


TEMPLATES_BY_CLASS: dict[int, Weighted[ref.CourseTemplate]] = {
    c: Weighted([(t, _template_weight(t)) for t in ref.COURSE_TEMPLATES if c in t.classes])
    for c in range(1, 10)
}
TEMPLATES_BY_CLASS[0] = Weighted([(t, 1.0) for t in ref.COURSE_TEMPLATES])
LANGUAGE_TEMPLATES = Weighted(
    [
        (t, _template_weight(t))
        for t in ref.COURSE_TEMPLATES
        if t.title in ref.LANGUAGE_TEMPLATE_TITLES
    ]
)
REGULATED_TEMPLATES = [t for t in ref.COURSE_TEMPLATES if t.education_type == 103]

SUBJECTS_NONE: float = 0.03
"""Share of courses (but a nationwide provider's flagship) without any subject."""
SUBJECTS_SECOND: float = 0.38
"""Chance that a course whose template names related leaves (``also``) carries a second."""
SUBJECTS_THIRD: float = 0.4
"""Chance that such a course with two leaves carries a third (where its template names two)."""

SYSTEMATIC_IDS: dict[str, int] = {code: k + 1 for k, (code, _, _) in enumerate(ref.SYSTEMATICS)}
SYSTEMATIC_PARENT: dict[str, str | None] = {code: p for code, _, p in ref.SYSTEMATICS}

REGION_PROGRAMS: dict[int, list[int]] = {}
REGION_LEAVE: dict[int, int] = {}
for _fid, _fname, _fstate in ref.FUNDING_TYPES_REGIONS:
    if _fname.startswith(ref.EDUCATION_LEAVE_PREFIXES):
        REGION_LEAVE[_fstate] = _fid
    else:
        REGION_PROGRAMS.setdefault(_fstate, []).append(_fid)

FULL_TIME_SLOTS = (
    ("T08:00:00", "T15:30:00"),
    ("T08:30:00", "T16:00:00"),
    ("T09:00:00", "T16:30:00"),
)
PART_TIME_SLOTS = (
    ("T17:30:00", "T20:45:00"),
    ("T18:00:00", "T21:15:00"),
    ("T09:00:00", "T16:00:00"),
)
MIDNIGHT = "T00:00:00"

_TRANSLIT = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ı": "i"}
)


@functools.lru_cache(maxsize=4096)
def slug(text: str) -> str:
    """``"Müller & Söhne"`` -> ``"mueller-soehne"`` (ASCII, for e-mail addresses and domains)."""
    ascii_text = unicodedata.normalize("NFKD", text.translate(_TRANSLIT))
    ascii_text = ascii_text.encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")


def money(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"
