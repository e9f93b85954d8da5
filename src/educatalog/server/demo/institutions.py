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
from typing import Any

from educatalog.server import reference_data as ref
from educatalog.server.demo.courses import _CourseRows
from educatalog.server.demo.distributions import (
    _CERTIFIERS,
    _CONTACTS_PER_INSTITUTION,
    _COURSES_PER_INSTITUTION,
    _KINDS,
    _LOCATIONS_BY_STATE,
    _NATIONWIDE,
    _NATIONWIDE_EVERY,
    _P_ADDRESS_NO_STATE,
    _P_COURSE_NO_EVENTS,
    _STATES,
    _slug,
)
from educatalog.server.demo.rows import _Institution

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


def _fax(inst: _Institution) -> str:
    return _fictional(inst.area, f"{inst.phone_base[-2:]}9")


class _InstitutionRows(_CourseRows):
    """Generates institutions, each with its addresses, contacts and courses."""

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
            return f"vhs-{city_slug}{_RESERVED_TLD}"
        if name.startswith("IHK"):
            return f"ihk-bz-{city_slug}{_RESERVED_TLD}"
        if "Handwerkskammer" in name:
            return f"hwk-bz-{city_slug}{_RESERVED_TLD}"
        words = [w for w in _slug(name).split("-") if w not in ("gmbh", "e", "v", "und", "fuer")]
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

    def contact(self, rng: random.Random, inst: _Institution, k: int) -> int:
        """Append one contact row (a person, or now and then a desk); returns its id."""
        rnd = rng.random
        cid = self._next_id("contacts")
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
        self.buffers["contacts"].append(row)
        return cid

    # -- courses
