"""Fixtures of the conformance suite: databases, running servers and an HTTP client that
checks every answer against the independent oracle (``tests/oracle.py``).

* ``demo``: the demo catalogue (``collect(seed=0, scale=0.05)``) behind a real server;
* ``small``: a hand-made catalogue with nulls, tricky text, dangling references, an event with
  150 contacts and a course with 120 events (nested caps and ``deep``);
* ``capped``: the hand-made catalogue behind a server configured with ``limit_max=120``.

Every server of the suite runs on the fixed clock ``CLOCK`` (what ``$NOW`` in filters stands
for), and every oracle knows it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from oracle import Oracle, OracleError, encode_params

Records = dict[str, list[dict[str, Any]]]

TEST_TOKEN = "conformance-test-token"
LIMIT_MAX = 120
CLOCK = dt.datetime(2025, 3, 31, 8, 0, 0, 250_000)
"""The servers' local time: the end of a month, with milliseconds (so ``_eq`` never hits it)."""


# ---------------------------------------------------------------------------------------
# The hand-made catalogue


def _uuid(n: int) -> str:
    return f"00000000-0000-4000-8000-{n:012d}"


def small_records() -> Records:
    """A small catalogue made by hand: every type with nulls, tricky text, edge cases."""
    states = [
        {"id": 1, "name": "Baden-Württemberg", "code": "DE-BW"},
        {"id": 2, "name": "Bayern", "code": "DE-BY"},
        {"id": 3, "name": "Berlin", "code": "DE-BE"},
        {"id": 4, "name": "Straße", "code": None},
        {"id": 5, "name": "STRASSE", "code": ""},
        {"id": 6, "name": None, "code": "DE-XX"},
    ]
    addresses = [
        {
            "id": 1,
            "institution": _uuid(1),
            "street": "Hauptstraße 1",
            "zip": "10115",
            "city": "Berlin",
            "country": "DE",
            "state": 3,
            "phone": "+49.30.1234567",
            "email": "info@example.org",
            "barrier_free": True,
            "remarks": None,
        },
        {
            "id": 2,
            "institution": _uuid(2),
            "street": "Königsallee 5",
            "zip": "40212",
            "city": "Düsseldorf",
            "country": "DE",
            "state": None,
            "barrier_free": False,
            "remarks": "",
        },
        {
            "id": 3,
            "institution": _uuid(1),
            "street": "Marienplatz 8",
            "zip": "80331",
            "city": "München",
            "country": "DE",
            "state": 2,
            "barrier_free": None,
            "remarks": "50%_off",
        },
        {
            "id": 4,
            "institution": _uuid(3),
            "street": None,
            "zip": "70173",
            "city": "Stuttgart",
            "country": "DE",
            "state": 1,
            "barrier_free": True,
            "remarks": "ÄÖÜß",
        },
        {
            "id": 5,
            "institution": _uuid(3),
            "street": "Irgendwo 3",
            "zip": None,
            "city": "Nirgendwo",
            "country": "AT",
            "state": 99,  # dangling reference
            "barrier_free": False,
            "remarks": "STRASSE",
        },
        {
            "id": 6,
            "institution": _uuid(4),
            "street": "Am Hafen 7",
            "zip": "24103",
            "city": "\u212aiel",  # KELVIN SIGN, lower-cases to "k"
            "country": "DE",
            "state": 4,
            "barrier_free": True,
            "remarks": "Straße",
        },
        {
            "id": 7,
            "institution": _uuid(4),
            "street": "a_b 1",
            "zip": "10117",
            "city": "Berlin",
            "country": None,
            "state": 5,
            "barrier_free": None,
            "remarks": "100% sicher",
        },
        {
            "id": 8,
            # no RFC 4122 version or variant: a UUID to filters, none to search
            "institution": "3f2504e0-4f89-01d3-3a0c-0305e82c3301",
            "street": "İnönü Caddesi 1",  # DOTTED CAPITAL I lower-cases to "i" + U+0307
            "zip": "35000",
            "city": "İzmir",
            "country": "TR",
            "state": None,
            "barrier_free": False,
            "remarks": "İİ",
        },
    ]
    course_types = [{"id": 1, "name": "Bildungsangebot"}, {"id": 2, "name": "Studienangebot"}]
    education_types = [{"id": 104, "name": "Fortbildung/Qualifizierung"}]
    institution_types = [{"id": 105, "name": "Einrichtung der beruflichen Weiterbildung"}]
    certifiers = [{"id": 24, "name": "Cert-IT GmbH"}, {"id": 34, "name": "DQS GmbH"}]
    titles = [
        "Excel für Einsteiger",
        "50%_off Kurs",
        "ÄÖÜß Deutsch",
        "Straße und Verkehr",
        "STRASSE",
        "",
        None,
        "a_b excel",
        "Python \u212aurs",
        "Leer",
    ]
    courses = [
        {
            "id": i,
            "institution": _uuid(i % 3 + 1),
            "title": title,
            "description": [None, "Tabellen und Formeln", "100% sicher", ""][i % 4],
            "course_type": [1, 2, None, 7][i % 4],  # 7 dangles
            "education_type": 104 if i % 2 else None,
            "institution_type": 105,
            "certifier": [24, 34, None][i % 3],
            "target_groups": "Beschäftigte" if i % 2 else None,
            "requirements": None,
            "accessibility_remarks": "rollstuhlgerecht" if i == 4 else None,
        }
        for i, title in enumerate(titles, start=1)
    ]
    starts = [
        "2025-01-01T00:00:00",
        "2025-01-31T10:00:00",
        "2025-01-31T00:00:00",
        "2025-02-15T09:30:00",
        None,
        "2024-12-31T23:59:59",
        "2025-06-01T08:00:00",
        "2025-01-15T12:00:00",
        None,
        "2025-03-01T00:00:00",
        "2025-01-31T23:59:59",
        "2026-01-01T00:00:00",
    ]
    remarks = [
        "Excel am Abend",
        None,
        "",
        "50%_off",
        "ÄÖÜß",
        "Straße",
        "STRASSE",
        "100% sicher",
        "a_b",
        "excel EXCEL",
        "null",
        "true",
    ]
    events: list[dict[str, Any]] = []
    for i in range(1, 13):
        events.append(
            {
                "id": i,
                "min_participants": [None, 4, 8, 10, 0, -1][i % 6],
                "max_participants": [12, None, 20, 25][i % 4],
                "remarks": remarks[i - 1],
                "link": f"https://example.org/e/{i}" if i % 3 else None,
                "institution": _uuid(i % 4 + 1),
                "address": [1, 2, 3, 4, 5, 6, 7, None, 42][i % 9],  # 42 dangles
                "event_start_date": starts[i - 1],
                "event_end_date": None if starts[i - 1] is None else "2025-12-31T18:00:00",
                "registration_deadline": "2025-01-01T00:00:00" if i % 2 else None,
                "announcement_start_date": None,
                "announcement_end_date": "2025-01-31T00:00:00" if i % 5 == 0 else None,
                "instruction_form": [101, 201, None, 999][i % 4],  # 999 dangles
                "instruction_time": [1, 2, None][i % 3],
                "is_inhouse": [True, False, None][i % 3],
                "duration_regular_start": i * 7 if i % 2 else None,
                "has_individual_start": [False, True, None, False][i % 4],
                "is_part_time": i % 2 == 0,
                "has_employer_practical_part": None,
                "instruction_time_comment": ["Vollzeit", "vollzeit", None, ""][i % 4],
                "education_voucher": [True, None, False][i % 3],
                "comment": "true" if i == 3 else ("TRUE" if i == 4 else None),
                "course": [1, 2, 3, 4, 5, 6, 7, 8, 9, None, 77][i % 11],  # 77 dangles
                "execution_form": [1, 2, None][i % 3],
                "measure_number": f"{i:03d}/2025",
                "own_offer_number": "X-42" if i == 5 else f"A{i}",
                "duration_in_days": [5, 42, None, 120][i % 4],
                "account": [None, 42, -3][i % 3],
                "duration_unit": ["week_days", "calendar_days", "hours", None][i % 4],
            }
        )
    for i in range(101, 221):  # course 1 gets 120 more events: past the nested cap
        events.append(
            {
                "id": i,
                "institution": _uuid(9),
                "address": 1,
                "course": 1,
                "event_start_date": f"2025-{(i % 12) + 1:02d}-{(i % 28) + 1:02d}T08:00:00",
                "is_inhouse": i % 2 == 0,
                "min_participants": i % 7,
                "remarks": f"Filiale {i}",
                "duration_unit": "week_days",
            }
        )
    people = [
        ("Anna", "Weber"),
        ("Berta", "weber"),
        ("Carl", "Müller"),
        ("Dora", "MÜLLER"),
        ("Emil", None),
        ("Frida", ""),
        ("Anna", "Schmidt"),
        ("Berta", "Weber"),
        (None, "50%_off"),
        ("Gustav", "Straße"),
    ]
    contacts = []
    for i in range(1, 151):
        first, last = people[i - 1] if i <= len(people) else (f"Vorname{i}", f"Name{i}")
        contacts.append(
            {
                "id": i,
                "salutation": ["m", "w", "d", None][i % 4],
                "academic_title": "Dr." if i % 10 == 0 else None,
                "first_name": first,
                "last_name": last,
                "phone": f"+49.30.{1000000 + i}",
                "email": f"person{i}@example.org" if i % 5 else None,
                "institution": _uuid(i % 4 + 1),
                "role": [1, 2, 3, None][i % 4],
                "labels": "vip" if i in (1, 7) else ("C:\\Kurse\\100%_x" if i == 3 else None),
            }
        )
    links = [(1, c) for c in range(1, 151)]  # event 1: 150 contacts
    links += [(2, 1), (2, 2), (3, 5), (3, 1), (6, 3), (6, 2)]
    links += [(7, 8), (7, 7)]  # (Berta Weber), (Anna Schmidt): no Anna Weber
    links += [(8, 1)]  # Anna Weber
    links += [(5, 999), (5, None)]  # dangling and null contact
    events_contacts = [
        {"id": n, "events_id": e, "contacts_id": c} for n, (e, c) in enumerate(links, start=1)
    ]
    events_contacts.append({"id": 500, "events_id": None, "contacts_id": 1})
    event_costs = [
        {"id": 1, "course": 1, "value": "1490.00", "currency": "EUR", "remarks": None},
        {"id": 2, "course": 2, "value": "0.00", "currency": "EUR", "remarks": "gefördert"},
        {"id": 3, "course": 2, "value": "12.50", "currency": "USD", "remarks": None},
        {"id": 4, "course": 3, "value": None, "currency": None, "remarks": "auf Anfrage"},
        {"id": 5, "course": 3, "value": "99.99", "currency": "EUR", "remarks": ""},
        {"id": 6, "course": 4, "value": "-5.00", "currency": "EUR", "remarks": None},
        {"id": 7, "course": None, "value": "1000000.00", "currency": "CHF", "remarks": None},
        {"id": 8, "course": 5, "value": "42.00", "currency": "EUR", "remarks": "42"},
    ]
    course_degrees = [
        {"id": 1, "course": 1, "degree_title": "Zertifikat", "degree_type": 3, "credits": 5},
        {"id": 2, "course": 1, "degree_title": "IHK", "degree_type": 0, "credits": None},
        {"id": 3, "course": 3, "degree_title": None, "degree_type": None, "credits": 10},
    ]
    course_keywords = [
        {"id": 1, "course": 1, "keyword": "Excel"},
        {"id": 2, "course": 1, "keyword": "Tabellen"},
        {"id": 3, "course": 2, "keyword": "Rabatt"},
        {"id": 4, "course": 4, "keyword": None},
    ]
    handicaps = [{"id": 1, "name": "Sehbehinderung"}, {"id": 2, "name": "Hörbehinderung"}]
    courses_handicaps = [
        {"id": 1, "courses_id": 1, "handicaps_id": 1},
        {"id": 2, "courses_id": 1, "handicaps_id": 2},
        {"id": 3, "courses_id": 3, "handicaps_id": 2},
    ]
    instruction_forms = [
        {"id": 101, "name": "Präsenzveranstaltung", "category": "Präsenz"},
        {"id": 201, "name": "Virtuelles Klassenzimmer", "category": "Digital"},
    ]
    instruction_times = [{"id": 1, "name": "Vollzeit"}, {"id": 2, "name": "Teilzeit"}]
    return {
        "states": states,
        "addresses": addresses,
        "course_types": course_types,
        "education_types": education_types,
        "institution_types": institution_types,
        "certifiers": certifiers,
        "courses": courses,
        "events": events,
        "contacts": contacts,
        "events_contacts": events_contacts,
        "event_costs": event_costs,
        "course_degrees": course_degrees,
        "course_keywords": course_keywords,
        "handicaps": handicaps,
        "courses_handicaps": courses_handicaps,
        "instruction_forms": instruction_forms,
        "instruction_times": instruction_times,
    }


# ---------------------------------------------------------------------------------------
# Talking to the server


def _show(response: httpx.Response) -> str:
    return f"{response.request.method} {response.request.url} -> {response.status_code}"


@dataclass
class Api:
    """A client of one running server, with the oracle of its data."""

    client: httpx.Client
    oracle: Oracle
    limit_max: int | None = None

    def get(self, path: str, params: Sequence[tuple[str, str]] | None = None) -> httpx.Response:
        response = self.client.get(path, params=list(params) if params is not None else None)
        assert response.status_code != 500, f"{_show(response)}: {response.text[:500]}"
        assert response.headers["content-type"].startswith("application/json"), _show(response)
        return response

    def raw(self, path_and_query: str) -> httpx.Response:
        """A request with a query string sent exactly as written."""
        return self.get(path_and_query)

    def expected(self, collection: str, params: Mapping[str, Any] | None = None) -> Any:
        return self.oracle.list(collection, params, limit_max=self.limit_max)

    def check(self, collection: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The server's answer to a list query equals the oracle's; returns the body."""
        expected = self.expected(collection, params)
        response = self.get(f"/items/{collection}", encode_params(params or {}))
        assert response.status_code == 200, f"{_show(response)}: {response.text[:500]}"
        body = response.json()
        assert body == expected, _show(response)
        return body

    def check_query(
        self, collection: str, query: str, params: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        """A raw query string is answered as the oracle answers ``params``."""
        expected = self.expected(collection, params)
        response = self.raw(f"/items/{collection}?{query}")
        assert response.status_code == 200, f"{_show(response)}: {response.text[:500]}"
        assert response.json() == expected, _show(response)
        return expected

    def check_item(
        self, collection: str, item_id: Any, params: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        expected = self.oracle.item(collection, item_id, params)
        response = self.get(f"/items/{collection}/{item_id}", encode_params(params or {}))
        assert response.status_code == 200, f"{_show(response)}: {response.text[:500]}"
        assert response.json() == expected, _show(response)
        return expected

    def check_error(
        self,
        collection: str,
        params: Mapping[str, Any] | None = None,
        *,
        status: int,
        code: str,
        mentions: str | None = None,
    ) -> None:
        """The oracle and the server both refuse the query with ``status`` and ``code``."""
        with pytest.raises(OracleError) as info:
            self.expected(collection, params)
        assert (info.value.status, info.value.code) == (status, code), "oracle disagrees"
        response = self.get(f"/items/{collection}", encode_params(params or {}))
        assert_error(response, status, code, mentions)


def assert_error(
    response: httpx.Response, status: int, code: str, mentions: str | None = None
) -> None:
    """A Directus-shaped error body with ``status`` and ``code``, as JSON."""
    assert response.status_code == status, f"{_show(response)}: {response.text[:500]}"
    assert response.headers["content-type"].startswith("application/json"), _show(response)
    body = response.json()
    assert isinstance(body, dict), body
    assert set(body) == {"errors"}, body
    errors = body["errors"]
    assert isinstance(errors, list), body
    assert errors, body
    assert errors[0]["extensions"]["code"] == code, body
    assert isinstance(errors[0]["message"], str), body
    assert errors[0]["message"], body
    if mentions is not None:
        assert mentions in errors[0]["message"], body


# ---------------------------------------------------------------------------------------
# Fixtures


def _serve(database: Path, token: str, limit_max: int | None) -> Iterator[str]:
    """A server of the suite (the project's own plugin's ``serve``) on the fixed clock."""
    from educatalog.testing import serve

    with serve(database=database, token=token, limit_max=limit_max, clock=lambda: CLOCK) as server:
        yield server.url


def _client(url: str, token: str) -> httpx.Client:
    return httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=30)


@pytest.fixture(scope="session")
def demo_token() -> str:
    from educatalog.demodata import DEMO_TOKEN

    return DEMO_TOKEN


@pytest.fixture(scope="session")
def demo_records() -> Records:
    from educatalog.demodata import collect

    return collect(seed=0, scale=0.05)


@pytest.fixture(scope="session")
def demo_oracle(demo_records: Records) -> Oracle:
    return Oracle(demo_records, now=CLOCK)


@pytest.fixture(scope="session")
def demo_url(
    tmp_path_factory: pytest.TempPathFactory, demo_records: Records, demo_token: str
) -> Iterator[str]:
    from educatalog.server.store import build_database

    path = build_database(tmp_path_factory.mktemp("demo") / "demo.sqlite", demo_records.items())
    yield from _serve(path, demo_token, None)


@pytest.fixture(scope="session")
def demo(demo_url: str, demo_oracle: Oracle, demo_token: str) -> Iterator[Api]:
    with _client(demo_url, demo_token) as client:
        yield Api(client, demo_oracle)


@pytest.fixture(scope="session")
def small_oracle() -> Oracle:
    return Oracle(small_records(), now=CLOCK)


@pytest.fixture(scope="session")
def small_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from educatalog.server.store import build_database

    path = tmp_path_factory.mktemp("small") / "small.sqlite"
    return build_database(path, small_records().items())


@pytest.fixture(scope="session")
def small_url(small_database: Path) -> Iterator[str]:
    yield from _serve(small_database, TEST_TOKEN, None)


@pytest.fixture(scope="session")
def small(small_url: str, small_oracle: Oracle) -> Iterator[Api]:
    with _client(small_url, TEST_TOKEN) as client:
        yield Api(client, small_oracle)


@pytest.fixture(scope="session")
def capped(small_database: Path, small_oracle: Oracle) -> Iterator[Api]:
    for url in _serve(small_database, TEST_TOKEN, LIMIT_MAX):
        with _client(url, TEST_TOKEN) as client:
            yield Api(client, small_oracle, LIMIT_MAX)


@pytest.fixture
def anonymous(small_url: str) -> Iterator[httpx.Client]:
    """A client without a token."""
    with httpx.Client(base_url=small_url, timeout=30) as client:
        yield client


@pytest.fixture(scope="session")
def catalogue_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A demo catalogue database (scale 0.3, marked as demo data) for the statistics."""
    from educatalog.demodata import DEFAULT_SEED, iter_rows
    from educatalog.server.store import build_database

    path = tmp_path_factory.mktemp("catalogue") / "demo.sqlite"
    info = {"demo": True, "seed": DEFAULT_SEED, "scale": 0.3}
    return build_database(path, iter_rows(seed=DEFAULT_SEED, scale=0.3), info=info)


@pytest.fixture(scope="session")
def demo_catalogue(catalogue_database: Path) -> Iterator[Any]:
    """The whole demo catalogue loaded over HTTP from a reference server on loopback."""
    import educatalog
    from educatalog.testing import serve

    with (
        serve(database=catalogue_database, token="catalogue-token") as server,
        educatalog.Client(server.url, token=server.token, page_size=500) as client,
    ):
        yield educatalog.load_catalogue(client)
