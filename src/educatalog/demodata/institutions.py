"""Institutions with their addresses and contacts.

The people and institutions are synthetic, and so are their contacts: every e-mail address
and web address is on a domain under ``.example``, reserved for examples by RFC 2606, and
every telephone, mobile and fax number lies in a range the Bundesnetzagentur keeps free of
subscribers for media productions ("Drama Numbers", Amtsblatt 7/2021, Mitteilung 148/2021:
(0)30 23125, (0)69 90009, (0)40 66969, (0)221 4710 and (0)89 99998, each followed by 000 to
999), so that nobody is written to or called by mistake.
"""

from __future__ import annotations

import random
import re
import uuid
from collections.abc import Callable
from typing import Any

from educatalog.demodata import reference_data as ref
from educatalog.demodata.courses import CourseWriter
from educatalog.demodata.distributions import (
    CERTIFIER_SHARES,
    CONTACTS_PER_INSTITUTION,
    COURSES_PER_INSTITUTION,
    COVERING_PROVIDERS,
    KINDS,
    NATIONWIDE,
    NATIONWIDE_EVERY,
    NATIONWIDE_MORE_BRANCHES,
    P_ADDRESS_NO_STATE,
    P_CITY_MISMATCH,
    P_COURSE_NO_EVENTS,
    P_HEADQUARTERS_STATE,
    P_NO_POSTAL_CODE,
    P_UNKNOWN_POSTAL_CODE,
    RARE_COURSES,
    STATE_SHARES,
    Weighted,
    slug,
)
from educatalog.demodata.places import Place, places
from educatalog.demodata.rows import Institution, RowBuffers

__all__ = ["InstitutionWriter"]

Draw = Callable[[], float]

_RESERVED_TLD = ".example"
"""The top-level domain of every synthetic institution (RFC 2606: reserved for examples)."""

DRAMA_NUMBERS: tuple[tuple[str, str], ...] = (
    ("30", "23125"),
    ("69", "90009"),
    ("40", "66969"),
    ("221", "4710"),
    ("89", "99998"),
)
"""(area code, block) of the telephone ranges kept free for media productions: the block
followed by 000 to 999 is never a subscriber's number (Bundesnetzagentur, Amtsblatt 7/2021,
Mitteilung 148/2021)."""


def _fictional(area: str, extension: str) -> str:
    """A number of the drama ranges, ``+49.30.23125042``: the range of ``area`` where it
    is one of them, else one chosen by it; ``extension`` is three digits."""
    ranges = dict(DRAMA_NUMBERS)
    code = area if area in ranges else DRAMA_NUMBERS[int(area) % len(DRAMA_NUMBERS)][0]
    return f"+49.{code}.{ranges[code]}{extension}"


def _fax(inst: Institution) -> str:
    return _fictional(inst.area, f"{inst.phone_base[-2:]}9")


NO_POSTAL_CODE = "address_missing_postal_code"
UNKNOWN_POSTAL_CODE = "address_unknown_postal_code"
CITY_MISMATCH = "address_city_mismatch"
OTHER_STATE = "address_other_state"
COVERING = ""
"""The fault of a nationwide provider's covering branch: none, never one drawn."""

Plan = list[tuple[Place, str | None]]
"""The places of an institution's addresses, each with the fault it carries: one of the
four above, :data:`COVERING`, or None (a fault drawn by chance)."""


class InstitutionWriter:
    """Writes institutions, each with its addresses and contacts, and hands its courses to
    the courses' writer. Institution ``i`` draws from a random generator of its own, seeded
    from ``(seed, i)``."""

    def __init__(self, rows: RowBuffers, courses: CourseWriter, seed: int) -> None:
        self.rows = rows
        self.courses = courses
        self.seed = seed
        self.places = places()

    def write(self, i: int) -> None:
        """All rows of institution ``i``: addresses, contacts, courses and their events."""
        rng = random.Random(f"educatalog-demo:{self.seed}:{i}")
        rnd = rng.random
        inst = Institution()
        inst.uuid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        nationwide = i % NATIONWIDE_EVERY == 0
        force_defects = i == 0
        kind = NATIONWIDE if nationwide else KINDS.pick(rnd)
        inst.kind = kind
        inst.main_state = STATE_SHARES.pick(rnd)
        if nationwide:
            n_courses = 4 + int(rnd() * 5)
        elif kind.name == "university":
            n_courses = 1 + int(rnd() * 6)
        else:
            n_courses = COURSES_PER_INSTITUTION.pick(rnd)
        main = self.places.pick(rnd, inst.main_state)
        name = self._institution_name(rng, kind.name, main.city, i)
        inst.domain = self._domain(kind.name, name, main.city)
        inst.url = f"https://www.{inst.domain}"
        inst.area = main.area_code
        inst.phone_base = self._phone_base(rng, main.area_code)
        inst.institution_type = kind.institution_types.pick(rnd)
        inst.certifier = CERTIFIER_SHARES.pick(rnd) if rnd() < kind.certified else None
        inst.account = 100_000 + int(rnd() * 900_000)
        initials = "".join(w[0] for w in re.findall(r"[A-ZÄÖÜ][\wäöüß]+", name))[:3].upper()
        inst.offer_prefix = (initials or "K") if rnd() < 0.55 else None

        if nationwide:
            plan = self._branches(rnd, inst, main, i // NATIONWIDE_EVERY, force_defects)
        else:
            plan = self._addresses(rnd, inst, main, n_courses)
        address_ids: list[int] = []
        for k, (place, planned) in enumerate(plan):
            fault = self._fault(rnd, inst, place, k) if planned is None else planned
            missing_state = (force_defects and k == 1) or rnd() < P_ADDRESS_NO_STATE
            if fault == OTHER_STATE:
                missing_state = False
            address_ids.append(self.address(rng, inst, place, k, missing_state, fault))
        # a nationwide provider holds more events where more people live
        inst.venues = Weighted.of(
            address_ids,
            [self.places.by_key[p.district].weight if nationwide else 1.0 for p, _ in plan],
        )

        n_contacts = 3 + int(rnd() * 6) if nationwide else CONTACTS_PER_INSTITUTION.pick(rnd)
        for k in range(n_contacts):
            inst.contact_ids.append(self.contact(rng, inst, k))

        for k in range(n_courses):
            flagship = nationwide and k == 0
            rare = RARE_COURSES.get(k) if force_defects else None
            no_events = (force_defects and k == n_courses - 1) or (
                not flagship and rare is None and rnd() < P_COURSE_NO_EVENTS
            )
            self.courses.write(
                rng, inst, address_ids, flagship, no_events, force_defects and k == 0, rare
            )

    def _addresses(self, rnd: Draw, inst: Institution, main: Place, n_courses: int) -> Plan:
        """A main address and a site more for about every four courses (and now and then
        one more), most in the main state."""
        n_addresses = 1 + n_courses // 4 + (1 if rnd() < 0.3 else 0)
        plan: Plan = [(main, None)]
        for _ in range(1, n_addresses):
            state = STATE_SHARES.pick(rnd) if rnd() < 0.3 else inst.main_state
            plan.append((self.places.pick(rnd, state), None))
        return plan

    def _branches(
        self, rnd: Draw, inst: Institution, main: Place, provider: int, force_defects: bool
    ) -> Plan:
        """A nationwide provider's headquarters and about 200 branches, then 0 to 40 more,
        and for institution 0 a branch with each fault. The branches of the first two
        providers (institutions 0 and 150) cover the districts, one in each of half of them
        (:meth:`~educatalog.demodata.places.Places.covering`); a later provider's are where
        people live, as the more branches are."""
        places = self.places
        plan: Plan = [(main, None)]
        if provider < COVERING_PROVIDERS:
            for district in places.covering(provider):
                plan.append((places.draw(rnd, district), COVERING))
        else:
            for _ in range(len(places.districts) // 2):
                plan.append((places.pick(rnd, STATE_SHARES.pick(rnd)), None))
        for _ in range(int(rnd() * (NATIONWIDE_MORE_BRANCHES + 1))):
            plan.append((places.pick(rnd, STATE_SHARES.pick(rnd)), None))
        if force_defects:
            plan += self._faulty_branches(rnd, inst)
        return plan

    def _faulty_branches(self, rnd: Draw, inst: Institution) -> Plan:
        """One branch with each fault of real addresses, the mismatched city twice: with a
        postal code in one district (which then decides) and in several (none does)."""
        places = self.places
        other = STATE_SHARES.pick(rnd)
        while other == inst.main_state:
            other = STATE_SHARES.pick(rnd)
        single = places.pick(rnd, inst.main_state)
        while single.zip in places.shared_codes:
            single = places.pick(rnd, inst.main_state)
        shared = places.shared[int(rnd() * len(places.shared))]
        return [
            (places.pick(rnd, inst.main_state), NO_POSTAL_CODE),
            (places.pick(rnd, inst.main_state), UNKNOWN_POSTAL_CODE),
            (places.pick(rnd, other), OTHER_STATE),
            (single, CITY_MISMATCH),
            (shared, CITY_MISMATCH),
        ]

    @staticmethod
    def _fault(rnd: Draw, inst: Institution, place: Place, k: int) -> str | None:
        """The fault an address carries by chance (mostly none)."""
        r = rnd()
        if r < P_NO_POSTAL_CODE:
            return NO_POSTAL_CODE
        if r < P_NO_POSTAL_CODE + P_UNKNOWN_POSTAL_CODE:
            return UNKNOWN_POSTAL_CODE
        if r < P_NO_POSTAL_CODE + P_UNKNOWN_POSTAL_CODE + P_CITY_MISMATCH:
            return CITY_MISMATCH
        if k and place.state != inst.main_state and r >= 1 - P_HEADQUARTERS_STATE:
            return OTHER_STATE
        return None

    @staticmethod
    def _institution_name(rng: random.Random, kind: str, city: str, i: int) -> str:
        last, other = rng.choice(ref.LAST_NAMES), rng.choice(ref.LAST_NAMES)
        word = rng.choice(ref.INSTITUTION_WORDS)
        if kind == "nationwide":
            base = ref.NATIONWIDE_NAMES[(i // NATIONWIDE_EVERY) % len(ref.NATIONWIDE_NAMES)]
            rounds = i // (NATIONWIDE_EVERY * len(ref.NATIONWIDE_NAMES))
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
        city_slug = slug(city)
        if kind == "vhs":
            return f"vhs-{city_slug}{_RESERVED_TLD}"
        if name.startswith("IHK"):
            return f"ihk-bz-{city_slug}{_RESERVED_TLD}"
        if "Handwerkskammer" in name:
            return f"hwk-bz-{city_slug}{_RESERVED_TLD}"
        words = [w for w in slug(name).split("-") if w not in ("gmbh", "e", "v", "und", "fuer")]
        return "-".join(words[:3]) + _RESERVED_TLD

    @staticmethod
    def _phone_base(rng: random.Random, area: str) -> str:
        digits = max(4, 8 - len(area))
        return str(rng.randint(2, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(digits - 1))

    @staticmethod
    def _mobile(rng: random.Random) -> str:
        prefix, number = rng.choice(ref.MOBILE_PREFIXES), rng.randint(1_000_000, 99_999_999)
        return _fictional(prefix, f"{number % 1000:03d}")

    def address(
        self,
        rng: random.Random,
        inst: Institution,
        place: Place,
        k: int,
        missing_state: bool,
        fault: str | None = None,
    ) -> int:
        """Append one address row at ``place``, with ``fault`` if it has one; returns its id."""
        rnd = rng.random
        aid = self.rows.next_id("addresses")
        number = str(1 + int(rnd() * 180)) + ("a" if rnd() < 0.08 else "")
        base = inst.phone_base if k == 0 else self._phone_base(rng, place.area_code)
        area = inst.area if k == 0 else place.area_code
        city_slug = slug(place.city)
        zip_code: str | None = place.zip
        city, state = place.city, place.state
        if fault == NO_POSTAL_CODE:
            zip_code = None
        elif fault == UNKNOWN_POSTAL_CODE:
            zip_code = self.places.unknown_code(rnd, place.zip)
        elif fault == CITY_MISMATCH:
            city = self.places.wrong_city(place)
        elif fault == OTHER_STATE:
            state = inst.main_state
        self.rows["addresses"].append(
            {
                "id": aid,
                "institution": inst.uuid,
                "street": f"{rng.choice(ref.STREETS)} {number}",
                "zip": zip_code,
                "city": city,
                "country": "DE" if rnd() < 0.985 else None,
                "state": None if missing_state else state,
                "phone": _fictional(area, f"{base[-2:]}0") if rnd() < 0.85 else None,
                "mobile": self._mobile(rng) if rnd() < 0.12 else None,
                "fax": _fictional(area, f"{base[-2:]}9") if rnd() < 0.45 else None,
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

    def contact(self, rng: random.Random, inst: Institution, k: int) -> int:
        """Append one contact row (a person, or now and then a desk); returns its id."""
        rnd = rng.random
        cid = self.rows.next_id("contacts")
        phone = _fictional(inst.area, f"{inst.phone_base[-1]}{10 + int(rnd() * 89)}")
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
                "fax": _fax(inst) if rnd() < 0.4 else None,
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
                f"{slug(first)}.{slug(last)}" if rnd() < 0.7 else f"{slug(first)[0]}.{slug(last)}"
            )
            row = {
                "id": cid,
                "salutation": salutation if rnd() < 0.97 else None,
                "academic_title": title,
                "first_name": first,
                "last_name": last,
                "phone": phone if rnd() < 0.9 else None,
                "mobile": self._mobile(rng) if rnd() < 0.35 else None,
                "fax": _fax(inst) if rnd() < 0.25 else None,
                "email": f"{email_local}@{inst.domain}" if rnd() < 0.93 else None,
                "url": inst.url if rnd() < 0.25 else None,
                "contact_remarks": rng.choice(ref.CONTACT_REMARKS) if rnd() < 0.12 else None,
                "institution": inst.uuid,
                "role": role,
                "labels": ("Geschäftsführung" if role == 3 else rng.choice(ref.CONTACT_LABELS))
                if rnd() < 0.55
                else None,
            }
        self.rows["contacts"].append(row)
        return cid
