"""A deterministic synthetic German continuing-education catalogue at any scale.

The demo data is **synthetic**: believable, but no row describes a real provider or person. The
reference lists are the real KURSNET code lists (:mod:`educatalog.server.reference_data`);
everything else is drawn from ``random.Random`` instances seeded from ``(seed, institution
index)``, with our own word lists, so a ``(seed, scale)`` pair always yields identical rows on
every machine, Python hash seed and library version. ``GENERATOR_VERSION`` is bumped whenever
that output changes.

Scale 1.0 gives about 300 institutions, 1,500 courses and 5,000 events; everything but the
reference lists grows linearly with ``scale`` (scale 200 is about one million events), and
:func:`iter_rows` streams the rows in chunks, so memory stays flat.

What the data looks like (see ``docs/catalogue-schema.md``):

* institutions (not a collection; their UUID is the ``institution`` field) of a few kinds
  (commercial providers, adult-education centres, chambers, language schools, vocational
  rehabilitation centres, universities), each with 1–3 addresses, 1–4 contacts and a handful of
  courses; one institution in 150 (always institution 0) is a nationwide provider with 100–200
  branch addresses and 3–8 contacts whose flagship course has one event per branch plus second
  dates at some branches (150–400 events, past the 100-item nested cap);
* addresses in states drawn from KURSNET's events-by-state shares, on real postcodes;
* courses from ~80 course kinds, with duration classes, instruction forms and times, education
  types, costs, degrees, keywords, funding, handicaps and systematics in realistic shares;
* events from 2025-01-01 to 2026-12-31 whose end date matches the course's duration class.
  ``duration_unit`` is ``week_days``, ``calendar_days`` or ``hours`` and ``duration_in_days``
  counts in that unit; ``duration_regular_start`` is the interval in weeks between rolling
  starts (only with ``has_individual_start``); ``execution_form`` is 1 open enrolment,
  2 in-company, 3 closed group.

Documented defects (:data:`DEFECTS`), so that data-quality checks have something to find:

* ``address_missing_state``: addresses without a state (~2 %);
* ``empty_participants``: events with neither participant count (~45 %);
* ``end_before_start``: events whose end precedes their start (~0.5 %);
* ``course_without_events``: courses without any event (~2 %);
* ``unknown_instruction_form``: events pointing at instruction form 999, which does not
  exist (~0.2 %);
* ``event_without_address``: events with no address (~1 %).

Every defect occurs at least once at any scale (institution 0 carries one of each).
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
import random
import re
import unicodedata
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from educatalog.schema import CATALOGUE
from educatalog.server import reference_data as ref

__all__ = [
    "CHUNK_SIZE",
    "DEFAULT_SEED",
    "DEFECTS",
    "DEMO_TOKEN",
    "GENERATOR_VERSION",
    "REFERENCE_COLLECTIONS",
    "UNKNOWN_INSTRUCTION_FORM",
    "collect",
    "iter_rows",
    "reference_rows",
]

DEMO_TOKEN: str = "educatalog-demo-token"
"""The fixed bearer token of the demo server."""

GENERATOR_VERSION: int = 2
"""Bumped whenever the rows generated for a given ``(seed, scale)`` change."""

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
}
"""The realistic defects the demo data carries on purpose: name -> description with share."""

REFERENCE_COLLECTIONS: tuple[str, ...] = tuple(c.name for c in CATALOGUE.of_kind("reference"))
"""The 13 reference lists, in catalogue order."""

_ENTITY_ORDER: tuple[str, ...] = (
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
_P_ADDRESS_NO_STATE = 0.02
_P_COURSE_NO_EVENTS = 0.02
_P_END_BEFORE_START = 0.005
_P_UNKNOWN_FORM = 0.002
_P_NO_ADDRESS = 0.01
_P_EMPTY_PARTICIPANTS = 0.45

_INSTITUTIONS_PER_SCALE = 300
_NATIONWIDE_EVERY = 150  # institution i is a nationwide provider when i % 150 == 0

T = TypeVar("T")


class _Weighted(Generic[T]):
    """Items with weights; ``pick`` draws one with a single ``random()`` call."""

    __slots__ = ("cum", "items", "last", "total")

    def __init__(self, pairs: Sequence[tuple[T, float]]) -> None:
        self.items = [item for item, _ in pairs]
        self.cum: list[float] = []
        acc = 0.0
        for _, w in pairs:
            acc += w
            self.cum.append(acc)
        self.total = acc
        self.last = len(self.items) - 1

    def pick(self, rnd: Callable[[], float]) -> T:
        i = bisect.bisect_right(self.cum, rnd() * self.total)
        return self.items[i if i <= self.last else self.last]


# ---------------------------------------------------------------------------------------
# Dates: day indexes from 2024-01-01 (a Monday) and their ISO strings.

_DAY0 = dt.date(2024, 1, 1)
_DAYS: list[str] = [(_DAY0 + dt.timedelta(days=d)).isoformat() for d in range(3000)]
_START_MIN = (dt.date(2025, 1, 1) - _DAY0).days
_START_SPAN = (dt.date(2026, 12, 31) - _DAY0).days - _START_MIN + 1
# _WEEKDAYS[w][r]: weekdays among r consecutive days starting on weekday w (0 = Monday).
_WEEKDAYS = [[sum(1 for k in range(r) if (w + k) % 7 < 5) for r in range(7)] for w in range(7)]


def _monday(day: int) -> int:
    """The Monday nearest to day index ``day`` within the two years of start dates."""
    monday = day - day % 7 + (7 if day % 7 > 2 else 0)
    if monday < _START_MIN:
        monday += 7
    elif monday >= _START_MIN + _START_SPAN:
        monday -= 7
    return monday


def _weekdays(start: int, days: int) -> int:
    """Number of Monday-to-Friday days among ``days`` days from day index ``start``."""
    full, rest = divmod(days, 7)
    return full * 5 + _WEEKDAYS[start % 7][rest]


# ---------------------------------------------------------------------------------------
# Distributions

_STATES = _Weighted(list(ref.STATE_EVENT_SHARES.items()))
_DURATION_CLASSES = _Weighted(
    [(1, 1), (2, 2), (3, 20), (4, 29), (5, 25), (6, 17), (7, 6), (8, 0.4), (9, 0.3), (0, 0.3)]
)
_FORM_CATEGORIES = _Weighted([(1, 45), (2, 20), (3, 25), (4, 10)])
_FORMS = {
    1: _Weighted([(101, 60), (102, 15), (103, 5), (104, 15), (105, 5)]),
    2: _Weighted([(201, 60), (202, 20), (203, 8), (204, 8), (206, 4)]),
    3: _Weighted([(301, 50), (302, 15), (303, 30), (304, 5)]),
    4: _Weighted([(401, 50), (402, 40), (403, 10)]),
}
_EVENTS_PER_COURSE = {
    0: _Weighted([(1, 10), (2, 12), (3, 12), (4, 12), (5, 10), (6, 10), (8, 10), (10, 8)]),
    1: _Weighted([(1, 10), (2, 12), (3, 12), (4, 12), (5, 10), (6, 10), (8, 10), (10, 8)]),
    2: _Weighted([(1, 10), (2, 12), (3, 12), (4, 12), (5, 10), (6, 10), (8, 10), (10, 8)]),
    3: _Weighted([(1, 20), (2, 20), (3, 15), (4, 15), (5, 10), (6, 8), (8, 7), (10, 5)]),
    4: _Weighted([(1, 25), (2, 22), (3, 18), (4, 13), (5, 8), (6, 6), (8, 5), (12, 3)]),
    5: _Weighted([(1, 30), (2, 25), (3, 18), (4, 12), (5, 7), (6, 5), (8, 3)]),
    6: _Weighted([(1, 35), (2, 27), (3, 17), (4, 11), (6, 6), (8, 4)]),
    7: _Weighted([(1, 45), (2, 30), (3, 15), (4, 10)]),
}
_COURSES_PER_INSTITUTION = _Weighted(
    list({1: 15, 2: 15, 3: 14, 4: 12, 5: 10, 6: 8, 7: 6, 8: 5, 9: 3, 10: 3, 12: 2}.items())
    + list({15: 2, 20: 1, 25: 1, 30: 1}.items())
)
_FLAGSHIP_CLASSES = _Weighted([(3, 20), (4, 29), (5, 25), (6, 17)])
_CONTACTS_PER_INSTITUTION = _Weighted([(1, 30), (2, 35), (3, 20), (4, 15)])
_SHORT_COURSE_UNITS = _Weighted([("hours", 40), ("week_days", 30), ("calendar_days", 30)])
_CONTACTS_PER_EVENT = _Weighted([(0, 25), (1, 45), (2, 20), (3, 10)])
_CERTIFIERS = _Weighted(
    list({11: 30, 12: 12, 16: 8, 18: 8, 20: 6, 24: 6, 25: 5, 31: 4, 34: 5}.items())
    + list({40: 4, 45: 5, 504: 3}.items())
)


class _Kind:
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
        self.institution_types = _Weighted(institution_types)
        self.price = price  # cents per 45-minute lesson
        self.certified = certified  # share of institutions with an AZAV certifier


_KINDS = _Weighted(
    [
        (_Kind("commercial", [(105, 95), (0, 5)], (1000, 4500), 0.95), 53),
        (_Kind("vhs", [(105, 65), (100, 35)], (500, 900), 0.5), 12),
        (_Kind("chamber", [(105, 60), (102, 40)], (1200, 2500), 0.9), 8),
        (_Kind("language", [(105, 100)], (700, 1400), 0.8), 8),
        (_Kind("association", [(105, 85), (102, 15)], (800, 1800), 0.85), 10),
        (_Kind("rehab", [(104, 60), (103, 30), (110, 10)], (1500, 3000), 1.0), 4),
        (_Kind("university", [(106, 45), (108, 30), (113, 20), (101, 5)], (500, 900), 0.3), 2),
    ]
)
_NATIONWIDE = _Kind("nationwide", [(105, 100)], (1100, 1600), 1.0)


def _template_weight(t: ref.CourseTemplate) -> float:
    return 1.0 if t.education_type == 104 else 0.15


_TEMPLATES_BY_CLASS: dict[int, _Weighted[ref.CourseTemplate]] = {
    c: _Weighted([(t, _template_weight(t)) for t in ref.COURSE_TEMPLATES if c in t.classes])
    for c in range(1, 10)
}
_TEMPLATES_BY_CLASS[0] = _Weighted([(t, 1.0) for t in ref.COURSE_TEMPLATES])
_LANGUAGE_TEMPLATES = _Weighted(
    [
        (t, _template_weight(t))
        for t in ref.COURSE_TEMPLATES
        if t.title in ref.LANGUAGE_TEMPLATE_TITLES
    ]
)
_REGULATED_TEMPLATES = [t for t in ref.COURSE_TEMPLATES if t.education_type == 103]

_SYSTEMATIC_IDS: dict[str, int] = {code: k + 1 for k, (code, _, _) in enumerate(ref.SYSTEMATICS)}
_SYSTEMATIC_PARENT: dict[str, str | None] = {code: p for code, _, p in ref.SYSTEMATICS}

_LOCATIONS_BY_STATE: dict[int, list[ref.Location]] = {}
for _loc in ref.LOCATIONS:
    _LOCATIONS_BY_STATE.setdefault(_loc.state, []).append(_loc)

_REGION_PROGRAMS: dict[int, list[int]] = {}
_REGION_LEAVE: dict[int, int] = {}
for _fid, _fname, _fstate in ref.FUNDING_TYPES_REGIONS:
    if _fname.startswith(ref.EDUCATION_LEAVE_PREFIXES):
        _REGION_LEAVE[_fstate] = _fid
    else:
        _REGION_PROGRAMS.setdefault(_fstate, []).append(_fid)

_FULL_TIME_SLOTS = (
    ("T08:00:00", "T15:30:00"),
    ("T08:30:00", "T16:00:00"),
    ("T09:00:00", "T16:30:00"),
)
_PART_TIME_SLOTS = (
    ("T17:30:00", "T20:45:00"),
    ("T18:00:00", "T21:15:00"),
    ("T09:00:00", "T16:00:00"),
)
_MIDNIGHT = "T00:00:00"

_TRANSLIT = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ı": "i"}
)


@functools.lru_cache(maxsize=4096)
def _slug(text: str) -> str:
    """``"Müller & Söhne"`` -> ``"mueller-soehne"`` (ASCII, for e-mail addresses and domains)."""
    ascii_text = unicodedata.normalize("NFKD", text.translate(_TRANSLIT))
    ascii_text = ascii_text.encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")


def _money(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


# ---------------------------------------------------------------------------------------
# Reference rows


def reference_rows() -> dict[str, list[dict[str, Any]]]:
    """The 13 real reference lists, keyed by collection (fresh lists on every call)."""
    categories = ref.INSTRUCTION_FORM_CATEGORIES
    rows: dict[str, list[dict[str, Any]]] = {
        "certifiers": [{"id": i, "name": n} for i, n in ref.CERTIFIERS],
        "course_types": [{"id": i, "name": n} for i, n in ref.COURSE_TYPES],
        "durations": [{"id": i, "name": n} for i, n in ref.DURATIONS],
        "education_types": [{"id": i, "name": n} for i, n in ref.EDUCATION_TYPES],
        "funding_types_federals": [{"id": i, "name": n} for i, n in ref.FUNDING_TYPES_FEDERALS],
        "funding_types_regions": [
            {"id": i, "name": n, "state": s} for i, n, s in ref.FUNDING_TYPES_REGIONS
        ],
        "handicaps": [{"id": i, "name": n} for i, n in ref.HANDICAPS],
        "institution_types": [{"id": i, "name": n} for i, n in ref.INSTITUTION_TYPES],
        "instruction_forms": [
            {"id": i, "name": n, "category": categories[i // 100]} for i, n in ref.INSTRUCTION_FORMS
        ],
        "instruction_times": [{"id": i, "name": n} for i, n in ref.INSTRUCTION_TIMES],
        "locations": [
            {"id": k + 1, "zip": loc.zip, "city": loc.city, "state": loc.state}
            for k, loc in enumerate(ref.LOCATIONS)
        ],
        "states": [{"id": i, "name": n, "code": c} for i, n, c in ref.STATES],
        "systematics": [
            {
                "id": k + 1,
                "name": name,
                "code": code,
                "parent": _SYSTEMATIC_IDS[parent] if parent else None,
            }
            for k, (code, name, parent) in enumerate(ref.SYSTEMATICS)
        ],
    }
    return {name: rows[name] for name in REFERENCE_COLLECTIONS}


# ---------------------------------------------------------------------------------------
# The generator


class _Institution:
    """What the courses and events of one institution need to know about it."""

    __slots__ = (
        "account",
        "area",
        "certifier",
        "contact_ids",
        "domain",
        "institution_type",
        "kind",
        "main_state",
        "offer_prefix",
        "phone_base",
        "url",
        "uuid",
    )

    account: int
    area: str  # telephone area code of the main address
    certifier: int | None
    contact_ids: list[int]
    domain: str
    institution_type: int
    kind: _Kind
    main_state: int
    offer_prefix: str | None
    phone_base: str
    url: str
    uuid: str

    def __init__(self) -> None:
        self.contact_ids = []


class _Generator:
    """Generates the entity and junction rows institution by institution into buffers."""

    def __init__(self, seed: int, scale: float) -> None:
        self.seed = seed
        self.n_institutions = max(3, round(_INSTITUTIONS_PER_SCALE * scale))
        self.buffers: dict[str, list[dict[str, Any]]] = {name: [] for name in _ENTITY_ORDER}
        self.last_id: dict[str, int] = dict.fromkeys(_ENTITY_ORDER, 0)

    # -- driving

    def chunks(self) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        """Yield ``(collection, rows)`` chunks; every generated collection at least once."""
        seen: set[str] = set()
        for i in range(self.n_institutions):
            self.institution(i)
            if any(len(b) >= CHUNK_SIZE for b in self.buffers.values()):
                yield from self._flush(seen)
        yield from self._flush(seen)
        for name in _ENTITY_ORDER:
            if name not in seen:
                yield name, []

    def _flush(self, seen: set[str]) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        for name in _ENTITY_ORDER:
            rows = self.buffers[name]
            if not rows:
                continue
            self.buffers[name] = []
            seen.add(name)
            for k in range(0, len(rows), CHUNK_SIZE):
                yield name, rows[k : k + CHUNK_SIZE]

    def _next_id(self, collection: str) -> int:
        n = self.last_id[collection] + 1
        self.last_id[collection] = n
        return n

    # -- institutions

    def institution(self, i: int) -> None:
        """All rows of institution ``i``: addresses, contacts, courses and their events."""
        rng = random.Random(f"educatalog-demo:{self.seed}:{i}")
        rnd = rng.random
        inst = _Institution()
        inst.uuid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        nationwide = i % _NATIONWIDE_EVERY == 0
        force_defects = i == 0
        kind = _NATIONWIDE if nationwide else _KINDS.pick(rnd)
        inst.kind = kind
        inst.main_state = _STATES.pick(rnd)
        main_loc = rng.choice(_LOCATIONS_BY_STATE[inst.main_state])
        name = self._institution_name(rng, kind.name, main_loc.city, i)
        inst.domain = self._domain(kind.name, name, main_loc.city)
        inst.url = f"https://www.{inst.domain}"
        inst.area = main_loc.area_code
        inst.phone_base = self._phone_base(rng, main_loc.area_code)
        inst.institution_type = kind.institution_types.pick(rnd)
        inst.certifier = _CERTIFIERS.pick(rnd) if rnd() < kind.certified else None
        inst.account = 100_000 + int(rnd() * 900_000)
        initials = "".join(w[0] for w in re.findall(r"[A-ZÄÖÜ][\wäöüß]+", name))[:3].upper()
        inst.offer_prefix = (initials or "K") if rnd() < 0.55 else None

        # addresses: a main address, 0-2 more, or 100-200 branches for nationwide providers
        if nationwide:
            n_addresses = 100 + int(rnd() * 101)
        else:
            n_addresses = 1 if rnd() < 0.7 else (2 if rnd() < 0.75 else 3)
        address_ids: list[int] = []
        for k in range(n_addresses):
            if k == 0:
                loc = main_loc
            elif nationwide or rnd() < 0.3:
                loc = rng.choice(_LOCATIONS_BY_STATE[_STATES.pick(rnd)])
            else:
                loc = rng.choice(_LOCATIONS_BY_STATE[inst.main_state])
            missing_state = (force_defects and k == 1) or rnd() < _P_ADDRESS_NO_STATE
            address_ids.append(self.address(rng, inst, loc, k, missing_state))

        n_contacts = 3 + int(rnd() * 6) if nationwide else _CONTACTS_PER_INSTITUTION.pick(rnd)
        for k in range(n_contacts):
            inst.contact_ids.append(self.contact(rng, inst, k))

        if nationwide:
            n_courses = 4 + int(rnd() * 5)
        elif kind.name == "university":
            n_courses = 1 + int(rnd() * 6)
        else:
            n_courses = _COURSES_PER_INSTITUTION.pick(rnd)
        for k in range(n_courses):
            flagship = nationwide and k == 0
            no_events = (force_defects and k == n_courses - 1) or (
                not flagship and rnd() < _P_COURSE_NO_EVENTS
            )
            self.course(rng, inst, address_ids, flagship, no_events, force_defects and k == 0)

    @staticmethod
    def _institution_name(rng: random.Random, kind: str, city: str, i: int) -> str:
        last, other = rng.choice(ref.LAST_NAMES), rng.choice(ref.LAST_NAMES)
        word = rng.choice(ref.INSTITUTION_WORDS)
        if kind == "nationwide":
            base = ref.NATIONWIDE_NAMES[(i // _NATIONWIDE_EVERY) % len(ref.NATIONWIDE_NAMES)]
            rounds = i // (_NATIONWIDE_EVERY * len(ref.NATIONWIDE_NAMES))
            return f"{base} {rounds + 1}" if rounds else base
        options = {
            "commercial": (
                f"{last} Bildungszentrum GmbH",
                f"Akademie {last}",
                f"{word} Akademie GmbH",
                f"{word} Bildung {city}",
                f"Bildungsinstitut {last} & {other}",
            ),
            "vhs": (f"Volkshochschule {city}",),
            "chamber": (
                f"IHK-Bildungszentrum {city}",
                f"Bildungszentrum der Handwerkskammer {city}",
            ),
            "language": (
                f"Sprachschule {last}",
                f"{word} Sprachinstitut",
                f"Sprachenzentrum {city}",
            ),
            "association": (f"Bildungswerk der Wirtschaft {city} e. V.", f"{word} Bildung e. V."),
            "rehab": (f"Berufsförderungswerk {city}", f"Berufsbildungswerk {city}"),
            "university": (
                f"Hochschule für Wirtschaft und Technik {city}",
                f"Private Fachhochschule {city}",
                f"Universität {city} – Zentrum für Weiterbildung",
            ),
        }[kind]
        return rng.choice(options)

    @staticmethod
    def _domain(kind: str, name: str, city: str) -> str:
        city_slug = _slug(city)
        if kind == "vhs":
            return f"vhs-{city_slug}.de"
        if name.startswith("IHK"):
            return f"ihk-bz-{city_slug}.de"
        if "Handwerkskammer" in name:
            return f"hwk-bz-{city_slug}.de"
        words = [w for w in _slug(name).split("-") if w not in ("gmbh", "e", "v", "und", "fuer")]
        return "-".join(words[:3]) + ".de"

    @staticmethod
    def _phone_base(rng: random.Random, area: str) -> str:
        digits = max(4, 8 - len(area))
        return str(rng.randint(2, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(digits - 1))

    @staticmethod
    def _mobile(rng: random.Random) -> str:
        return f"+49.{rng.choice(ref.MOBILE_PREFIXES)}.{rng.randint(1_000_000, 99_999_999)}"

    def address(
        self, rng: random.Random, inst: _Institution, loc: ref.Location, k: int, missing_state: bool
    ) -> int:
        """Append one address row; returns its id."""
        rnd = rng.random
        aid = self._next_id("addresses")
        number = str(1 + int(rnd() * 180)) + ("a" if rnd() < 0.08 else "")
        base = inst.phone_base if k == 0 else self._phone_base(rng, loc.area_code)
        area = inst.area if k == 0 else loc.area_code
        city_slug = _slug(loc.city)
        self.buffers["addresses"].append(
            {
                "id": aid,
                "institution": inst.uuid,
                "street": f"{rng.choice(ref.STREETS)} {number}",
                "zip": loc.zip,
                "city": loc.city,
                "country": "DE" if rnd() < 0.985 else None,
                "state": None if missing_state else loc.state,
                "phone": f"+49.{area}.{base}0" if rnd() < 0.85 else None,
                "mobile": self._mobile(rng) if rnd() < 0.12 else None,
                "fax": f"+49.{area}.{base}99" if rnd() < 0.45 else None,
                "email": (f"info@{inst.domain}" if k == 0 else f"{city_slug}@{inst.domain}")
                if rnd() < 0.85
                else None,
                "url": (inst.url if k == 0 else f"{inst.url}/standorte/{city_slug}")
                if rnd() < 0.8
                else None,
                "barrier_free": True if (r := rnd()) < 0.45 else (False if r < 0.7 else None),
                "remarks": rng.choice(ref.ADDRESS_REMARKS) if rnd() < 0.15 else None,
            }
        )
        return aid

    def contact(self, rng: random.Random, inst: _Institution, k: int) -> int:
        """Append one contact row (a person, or now and then a desk); returns its id."""
        rnd = rng.random
        cid = self._next_id("contacts")
        phone = f"+49.{inst.area}.{inst.phone_base}{10 + int(rnd() * 89)}"
        row: dict[str, Any]
        if k > 0 and rnd() < 0.08:
            last, local = rng.choice(ref.CONTACT_POINTS)
            row = {
                "id": cid,
                "salutation": None,
                "academic_title": None,
                "first_name": None,
                "last_name": last,
                "phone": phone,
                "mobile": None,
                "fax": f"+49.{inst.area}.{inst.phone_base}99" if rnd() < 0.4 else None,
                "email": f"{local}@{inst.domain}",
                "url": inst.url,
                "contact_remarks": None,
                "institution": inst.uuid,
                "role": 1,
                "labels": "Beratung",
            }
        else:
            r = rnd()
            if r < 0.55:
                salutation, first = "w", rng.choice(ref.FEMALE_FIRST_NAMES)
            elif r < 0.99:
                salutation, first = "m", rng.choice(ref.MALE_FIRST_NAMES)
            else:
                salutation, first = "d", rng.choice(ref.DIVERSE_FIRST_NAMES)
            last = rng.choice(ref.LAST_NAMES)
            r = rnd()
            title = "Dr." if r < 0.07 else ("Prof. Dr." if r < 0.08 else None)
            if k == 0:
                role: int | None = 3 if rnd() < 0.5 else 2
            else:
                role = 1
            if rnd() < 0.04:
                role = None
            email_local = (
                f"{_slug(first)}.{_slug(last)}"
                if rnd() < 0.7
                else f"{_slug(first)[0]}.{_slug(last)}"
            )
            row = {
                "id": cid,
                "salutation": salutation if rnd() < 0.97 else None,
                "academic_title": title,
                "first_name": first,
                "last_name": last,
                "phone": phone if rnd() < 0.9 else None,
                "mobile": self._mobile(rng) if rnd() < 0.35 else None,
                "fax": f"+49.{inst.area}.{inst.phone_base}99" if rnd() < 0.25 else None,
                "email": f"{email_local}@{inst.domain}" if rnd() < 0.93 else None,
                "url": inst.url if rnd() < 0.25 else None,
                "contact_remarks": rng.choice(ref.CONTACT_REMARKS) if rnd() < 0.12 else None,
                "institution": inst.uuid,
                "role": role,
                "labels": ("Geschäftsführung" if role == 3 else rng.choice(ref.CONTACT_LABELS))
                if rnd() < 0.55
                else None,
            }
        self.buffers["contacts"].append(row)
        return cid

    # -- courses

    def _template(self, rng: random.Random, kind: str) -> tuple[ref.CourseTemplate, int]:
        rnd = rng.random
        if kind == "university":
            t = rng.choice(ref.STUDY_TEMPLATES)
        elif kind == "language" and rnd() < 0.7:
            t = _LANGUAGE_TEMPLATES.pick(rnd)
        elif kind == "chamber" and rnd() < 0.2:
            t = rng.choice(_REGULATED_TEMPLATES)
        else:
            duration_class = _DURATION_CLASSES.pick(rnd)
            return _TEMPLATES_BY_CLASS[duration_class].pick(rnd), duration_class
        duration_class = rng.choice(t.classes) if rnd() < 0.997 else 0
        return t, duration_class

    def course(
        self,
        rng: random.Random,
        inst: _Institution,
        address_ids: list[int],
        flagship: bool,
        no_events: bool,
        force_defects: bool,
    ) -> None:
        """Append a course with its costs, degrees, keywords, junction rows and events."""
        rnd = rng.random
        choice = rng.choice
        course_id = self._next_id("courses")
        if flagship:
            duration_class = _FLAGSHIP_CLASSES.pick(rnd)
            t = _TEMPLATES_BY_CLASS[duration_class].pick(rnd)
        else:
            t, duration_class = self._template(rng, inst.kind.name)

        # how the course is held
        category = 1 if flagship else _FORM_CATEGORIES.pick(rnd)
        form = _FORMS[category].pick(rnd)
        forced_part_time = "Teilzeit" in t.title or "berufsbegleitend" in t.title
        part_time = forced_part_time or (not flagship and rnd() < 0.28)
        mixed_times = not forced_part_time and not flagship and rnd() < 0.1
        slots = _PART_TIME_SLOTS if part_time else _FULL_TIME_SLOTS
        slot = choice(slots)
        lo, hi = ref.DURATION_SPANS.get(duration_class, (0, 0))
        span = lo + int(rnd() * (hi - lo + 1))
        if duration_class <= 2:
            unit = _SHORT_COURSE_UNITS.pick(rnd)
        else:
            unit = "week_days" if (r := rnd()) < 0.6 else ("calendar_days" if r < 0.95 else "hours")
        lessons_per_day = 3 if part_time else 8
        lessons = min(3600, max(4, _weekdays(0, span + 1) * lessons_per_day))
        rolling = not flagship and rnd() < 0.12
        practical = "Praktikum" in t.about or "Umschulung" in t.title or rnd() < 0.05

        # funding
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
        measure_number = (
            f"{choice(ref.AGENCY_NUMBERS)}/{rng.randint(100, 9999)}/{rng.randint(2023, 2025)}"
            if voucher
            else None
        )

        # the course row
        title = t.title
        r = rnd()
        if r < 0.12 and category == 2:
            title += choice(ref.TITLE_SUFFIXES_ONLINE)
        elif r < 0.3 and not forced_part_time:
            title += choice(self._title_suffixes(t, part_time, practical, voucher, duration_class))
        course_type = t.course_type
        if course_type == 1 and rnd() < 0.3:
            course_type = 5
        education_type = t.education_type
        if "(Umschulung)" in t.title and rnd() < 0.3:
            education_type = 109
        elif rnd() < 0.004:
            education_type = 0
        self.buffers["courses"].append(
            {
                "id": course_id,
                "institution": inst.uuid,
                "title": title,
                "description": self._description(rng, t, voucher, lessons)
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
        self._costs(
            rng, inst, course_id, voucher or t.funding in ("avgs", "bamf"), lessons, force_defects
        )
        self._degrees(rng, course_id, t)
        self._keywords(rng, course_id, t)
        self._course_junctions(rng, inst, course_id, t, federal, duration_class, part_time)

        if no_events:
            return
        # events
        if flagship:
            branches = list(address_ids)
            extra = rng.sample(branches, min(len(branches), 50 + int(rnd() * 151)))
            event_addresses = branches + extra
            n_events = len(event_addresses)
        else:
            n_events = _EVENTS_PER_COURSE[min(duration_class, 7)].pick(rnd)
            event_addresses = [choice(address_ids) for _ in range(n_events)]
        starts = sorted(_START_MIN + int(rnd() * _START_SPAN) for _ in range(n_events))
        if duration_class >= 3:  # longer courses start on Mondays
            starts = [_monday(s) for s in starts]
        self._events(
            rng,
            inst,
            course_id,
            starts,
            event_addresses,
            _Course(
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
                voucher=voucher,
                measure_number=measure_number,
                force_defects=force_defects,
            ),
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
        inst: _Institution,
        course_id: int,
        funded: bool,
        lessons: int,
        force_null: bool,
    ) -> None:
        rnd = rng.random
        rows = self.buffers["event_costs"]
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
        if force_null:
            value, remarks = None, "Preis auf Anfrage"
        if value != -1:
            rows.append(
                {
                    "id": self._next_id("event_costs"),
                    "course": course_id,
                    "value": None if value is None else _money(value),
                    "currency": "EUR" if rnd() < 0.97 else None,
                    "remarks": remarks,
                }
            )
        if value != -1 and rnd() < 0.15:
            rows.append(
                {
                    "id": self._next_id("event_costs"),
                    "course": course_id,
                    "value": _money(15_000 + int(rnd() * 50) * 1_000),
                    "currency": "EUR",
                    "remarks": "Prüfungsgebühr",
                }
            )

    def _degrees(self, rng: random.Random, course_id: int, t: ref.CourseTemplate) -> None:
        rnd = rng.random
        rows = self.buffers["course_degrees"]
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
                    "id": self._next_id("course_degrees"),
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
                    "id": self._next_id("course_degrees"),
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
        rows = self.buffers["course_keywords"]
        for w in words:
            rows.append({"id": self._next_id("course_keywords"), "course": course_id, "keyword": w})

    def _course_junctions(
        self,
        rng: random.Random,
        inst: _Institution,
        course_id: int,
        t: ref.CourseTemplate,
        federal: list[int],
        duration_class: int,
        part_time: bool,
    ) -> None:
        rnd = rng.random
        rows = self.buffers["courses_funding_types_federals"]
        for fid in federal:
            rows.append(
                {
                    "id": self._next_id("courses_funding_types_federals"),
                    "courses_id": course_id,
                    "funding_types_federals_id": fid,
                }
            )
        regions: list[int] = []
        programs = _REGION_PROGRAMS.get(inst.main_state, [])
        if programs and rnd() < 0.2:
            regions.append(rng.choice(programs))
        leave = _REGION_LEAVE.get(inst.main_state)
        if leave and (duration_class in (1, 2, 3) or part_time) and rnd() < 0.25:
            regions.append(leave)
        rows = self.buffers["courses_funding_types_regions"]
        for fid in regions:
            rows.append(
                {
                    "id": self._next_id("courses_funding_types_regions"),
                    "courses_id": course_id,
                    "funding_types_regions_id": fid,
                }
            )
        p_handicaps = 0.7 if inst.kind.name == "rehab" else 0.08
        if rnd() < p_handicaps:
            rows = self.buffers["courses_handicaps"]
            for hid in sorted(rng.sample(range(1, len(ref.HANDICAPS) + 1), 1 + int(rnd() * 3))):
                rows.append(
                    {
                        "id": self._next_id("courses_handicaps"),
                        "courses_id": course_id,
                        "handicaps_id": hid,
                    }
                )
        rows = self.buffers["courses_systematics"]
        codes = [t.systematic]
        parent = _SYSTEMATIC_PARENT[t.systematic]
        if parent and rnd() < 0.3:
            codes.append(parent)
        for code in codes:
            rows.append(
                {
                    "id": self._next_id("courses_systematics"),
                    "courses_id": course_id,
                    "systematics_id": _SYSTEMATIC_IDS[code],
                }
            )

    # -- events (the hot loop: about one million rows at scale 200)

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


@dataclass(slots=True)
class _Course:
    """How a course's events are held (passed from :meth:`_Generator.course` to the loop)."""

    form: int
    category: int
    part_time: bool
    mixed_times: bool
    slot: tuple[str, str]
    duration_class: int
    span: int
    unit: str
    lessons_per_day: int
    rolling: bool
    practical: bool
    voucher: bool
    measure_number: str | None
    force_defects: bool


# ---------------------------------------------------------------------------------------
# Public interface


def iter_rows(
    seed: int = DEFAULT_SEED, scale: float = 1.0
) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Stream the whole demo catalogue as ``(collection, rows)`` chunks.

    Reference lists come first, then the generated collections in an order where referenced
    rows precede the rows that refer to them; every collection of the catalogue appears at
    least once (possibly with an empty list), a collection's rows arrive in increasing ``id``
    order, and no chunk holds more than :data:`CHUNK_SIZE` rows.
    """
    if not scale > 0:
        raise ValueError(f"scale must be positive, got {scale!r}")
    references = reference_rows()
    for name in ("states", *(n for n in references if n != "states")):
        rows = references[name]
        for k in range(0, len(rows), CHUNK_SIZE):
            yield name, rows[k : k + CHUNK_SIZE]
    yield from _Generator(int(seed), float(scale)).chunks()


def collect(seed: int = DEFAULT_SEED, scale: float = 1.0) -> dict[str, list[dict[str, Any]]]:
    """The whole demo catalogue in memory: rows by collection (all collections), ordered by id."""
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in CATALOGUE}
    for name, rows in iter_rows(seed, scale):
        out[name].extend(rows)
    return out
