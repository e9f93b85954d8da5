"""The demo catalogue generator: determinism, conformity with the catalogue, realism, defects."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import subprocess
import sys
import uuid
from collections import Counter
from typing import Any

import pytest
from demo_addresses import defect_counts

from educatalog import demodata
from educatalog.demodata.reference_data import DURATION_SPANS
from educatalog.model.schema import SCHEMA, FieldType

Rows = dict[str, list[dict[str, Any]]]

SMALL_SCALE = 0.05


@pytest.fixture(scope="module")
def demo_small() -> Rows:
    return demodata.collect(seed=0, scale=SMALL_SCALE)


@pytest.fixture(scope="module")
def demo_default() -> Rows:
    return demodata.collect()


def _digest(rows: Rows) -> str:
    return hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()


def _by_id(rows: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {r["id"]: r for r in rows}


def _date(value: str) -> dt.date:
    return dt.datetime.fromisoformat(value).date()


def _duration_class(event: dict[str, Any]) -> int | None:
    """The duration class of an event from its dates (None for end-before-start defects)."""
    if event["event_end_date"] is None:
        return 0
    days = (_date(event["event_end_date"]) - _date(event["event_start_date"])).days
    for cls, (lo, hi) in DURATION_SPANS.items():
        if lo <= days <= hi:
            return cls
    return None


def _first_events(rows: Rows) -> dict[int, dict[str, Any]]:
    first: dict[int, dict[str, Any]] = {}
    for e in rows["events"]:
        first.setdefault(e["course"], e)
    return first


def _shares(values: list[Any]) -> dict[Any, float]:
    return {k: n / len(values) for k, n in Counter(values).items()}


# ---------------------------------------------------------------------------------------
# Interface and determinism


def test_public_constants() -> None:
    assert demodata.DEMO_TOKEN == "educatalog-demo-token"
    assert isinstance(demodata.GENERATOR_VERSION, int)
    assert demodata.GENERATOR_VERSION >= 1
    assert demodata.DEFAULT_SEED == 0


def test_the_package_leaves_educatalog_demo_the_function() -> None:
    """The generator's package is not called ``educatalog.demo``: that is the function that
    connects to the embedded demo, and a submodule of that name would replace it."""
    import educatalog
    import educatalog.demodata.embedded  # importing it must not shadow demo()

    assert callable(educatalog.demo)
    assert educatalog.demo.__module__ == "educatalog.loading.connection"


def test_same_seed_and_scale_give_identical_rows(demo_small: Rows) -> None:
    assert demodata.collect(seed=0, scale=SMALL_SCALE) == demo_small


def test_different_seeds_differ(demo_small: Rows) -> None:
    other = demodata.collect(seed=1, scale=SMALL_SCALE)
    assert other["events"] != demo_small["events"]
    assert {a["institution"] for a in other["addresses"]}.isdisjoint(
        a["institution"] for a in demo_small["addresses"]
    )
    # the reference lists are the same real lists whatever the seed
    for name in demodata.REFERENCE_COLLECTIONS:
        assert other[name] == demo_small[name]


# The SHA-256 of json.dumps(demo.collect(seed=0, scale=0.05), sort_keys=True): whole, and
# with the contact fields (phone, mobile, fax, email, url; events' link) blanked. Generator
# version 3 changed the contact fields only (RFC 2606 domains, drama numbers); version 4
# changed every collection (the addresses in all 400 districts); version 5 changed
# courses_systematics only (no, one, two or three subjects), and these are its digests.
DIGEST_SMALL = "54f34ce99f6be1f7cec529350cdaf180be70bf80cdfbdf6831bc7c8d4f88ebff"
DIGEST_SMALL_WITHOUT_CONTACTS = "0e61c1f8a7ee0fcf66d660584e4b5de9e1bc67730977b1731a5c73609d8a69ba"
CONTACT_FIELDS = {
    "addresses": ("phone", "mobile", "fax", "email", "url"),
    "contacts": ("phone", "mobile", "fax", "email", "url"),
    "events": ("link",),
}


def _without_contacts(rows: Rows) -> Rows:
    return {
        name: [
            {k: None if k in CONTACT_FIELDS.get(name, ()) else v for k, v in row.items()}
            for row in table
        ]
        for name, table in rows.items()
    }


def test_the_demo_is_byte_stable(demo_small: Rows) -> None:
    """The pinned digests: any change of the output is deliberate (and bumps
    GENERATOR_VERSION)."""
    assert _digest(demo_small) == DIGEST_SMALL
    assert _digest(_without_contacts(demo_small)) == DIGEST_SMALL_WITHOUT_CONTACTS


DRAMA = re.compile(r"^\+49\.(30\.23125|69\.90009|40\.66969|221\.4710|89\.99998)\d{3}$")


def test_synthetic_people_have_fictional_contacts(demo_default: Rows) -> None:
    """E-mail and web addresses on domains reserved for examples (RFC 2606), telephone
    numbers from the ranges kept free for media productions: nobody real is reached."""
    seen = 0
    for name, fields in CONTACT_FIELDS.items():
        for row in demo_default[name]:
            for field in fields:
                value = row[field]
                if value is None:
                    continue
                seen += 1
                if field in ("phone", "mobile", "fax"):
                    assert DRAMA.match(value), value
                elif field == "email":
                    assert re.fullmatch(r"[a-z0-9.\-]+@[a-z0-9\-]+\.example", value), value
                else:
                    host = re.match(r"https://([^/]+)", value)
                    assert host is not None, value
                    assert host.group(1).endswith(".example"), value
    assert seen > 5_000


def test_output_does_not_depend_on_the_hash_seed(demo_small: Rows) -> None:
    code = (
        "import hashlib, json; from educatalog import demodata; "
        f"rows = demodata.collect(seed=0, scale={SMALL_SCALE}); "
        "print(hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest())"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == _digest(demo_small)


def test_invalid_scale_is_rejected() -> None:
    for scale in (0, -1.0):
        with pytest.raises(ValueError, match="scale"):
            next(demodata.iter_rows(scale=scale))


def test_reference_rows_are_fresh_copies() -> None:
    first = demodata.reference_rows()
    first["states"].clear()
    assert len(demodata.reference_rows()["states"]) == 16


# ---------------------------------------------------------------------------------------
# Streaming


def test_iter_rows_streams_in_dependency_order() -> None:
    seen: dict[str, set[int]] = {name: set() for name in SCHEMA}
    last_id: dict[str, int] = {}
    appeared: set[str] = set()
    for name, rows in demodata.iter_rows(seed=3, scale=0.2, chunk_size=300):
        appeared.add(name)
        assert len(rows) <= 300
        collection = SCHEMA[name]
        for row in rows:
            assert row["id"] > last_id.get(name, -1), name  # increasing ids
            last_id[name] = row["id"]
            # every referenced row was yielded before (except the documented defect)
            for f in collection.stored_fields:
                if f.is_many_to_one and row[f.name] is not None:
                    assert f.relation is not None
                    target = f.relation.related
                    if (name, f.name, row[f.name]) == (
                        "events",
                        "instruction_form",
                        demodata.UNKNOWN_INSTRUCTION_FORM,
                    ):
                        continue
                    if target == name:  # systematics.parent: parents come first
                        assert row[f.name] < row["id"]
                        continue
                    assert row[f.name] in seen[target], (name, f.name, row[f.name])
            seen[name].add(row["id"])
    assert appeared == set(SCHEMA)
    assert len(seen["events"]) > 300  # really chunked


def test_iter_rows_is_lazy() -> None:
    rows = demodata.iter_rows(scale=200)  # about a million events: must not be built up front
    name, states = next(rows)
    assert name == "states"
    assert len(states) == 16


def test_every_collection_is_collected(demo_small: Rows) -> None:
    assert list(demo_small) == list(SCHEMA)
    for name, rows in demo_small.items():
        assert rows, f"{name} is empty at scale {SMALL_SCALE}"


# ---------------------------------------------------------------------------------------
# Rows match the catalogue

_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$")
_DECIMAL = re.compile(r"^-?\d+\.\d{2}$")


def _check_value(collection: str, field: str, ftype: FieldType, value: Any) -> None:
    where = f"{collection}.{field}={value!r}"
    if ftype is FieldType.INTEGER:
        assert type(value) is int, where
    elif ftype is FieldType.STRING:
        assert type(value) is str, where
    elif ftype is FieldType.UUID:
        assert type(value) is str, where
        assert str(uuid.UUID(value)) == value, where
    elif ftype is FieldType.DATETIME:
        assert type(value) is str, where
        assert _DATETIME.match(value), where
        dt.datetime.fromisoformat(value)
    elif ftype is FieldType.BOOLEAN:
        assert type(value) is bool, where
    elif ftype is FieldType.DECIMAL:
        assert type(value) is str, where
        assert _DECIMAL.match(value), where
    else:  # pragma: no cover - aliases are never stored
        pytest.fail(f"unexpected stored type {ftype} for {where}")


@pytest.mark.parametrize("scale_fixture", ["demo_small", "demo_default"])
def test_rows_match_the_catalogue(scale_fixture: str, request: pytest.FixtureRequest) -> None:
    rows: Rows = request.getfixturevalue(scale_fixture)
    for name, collection in SCHEMA.items():
        fields = collection.stored_fields
        names = tuple(f.name for f in fields)
        for row in rows[name]:
            assert tuple(row) == names, name
            for f in fields:
                value = row[f.name]
                if value is None:
                    assert not f.required, f"{name}.{f.name} is required"
                    continue
                _check_value(name, f.name, f.type, value)


def test_ids_are_unique_and_count_from_one(demo_default: Rows) -> None:
    for name, collection in SCHEMA.items():
        ids = [r["id"] for r in demo_default[name]]
        assert len(set(ids)) == len(ids), name
        assert ids == sorted(ids), name
        if collection.kind != "reference":
            assert ids == list(range(1, len(ids) + 1)), name


def test_references_resolve_except_documented_defects(demo_default: Rows) -> None:
    ids = {name: {r["id"] for r in rows} for name, rows in demo_default.items()}
    dangling: Counter[tuple[str, str, Any]] = Counter()
    for name, collection in SCHEMA.items():
        for f in collection.stored_fields:
            if not f.is_many_to_one:
                continue
            assert f.relation is not None
            for row in demo_default[name]:
                value = row[f.name]
                if value is not None and value not in ids[f.relation.related]:
                    dangling[(name, f.name, value)] += 1
    assert set(dangling) == {("events", "instruction_form", demodata.UNKNOWN_INSTRUCTION_FORM)}


def test_related_rows_belong_to_the_same_institution(demo_default: Rows) -> None:
    courses = _by_id(demo_default["courses"])
    addresses = _by_id(demo_default["addresses"])
    contacts = _by_id(demo_default["contacts"])
    events = _by_id(demo_default["events"])
    for e in events.values():
        assert courses[e["course"]]["institution"] == e["institution"]
        if e["address"] is not None:
            assert addresses[e["address"]]["institution"] == e["institution"]
    for j in demo_default["events_contacts"]:
        assert contacts[j["contacts_id"]]["institution"] == events[j["events_id"]]["institution"]
    pairs = [(j["events_id"], j["contacts_id"]) for j in demo_default["events_contacts"]]
    assert len(set(pairs)) == len(pairs)
    assert max(Counter(e for e, _ in pairs).values()) <= 3
    # regional funding matches a state the institution has an address in (or a missing state)
    regions = _by_id(demo_default["funding_types_regions"])
    states_of: dict[str, set[int | None]] = {}
    for a in addresses.values():
        states_of.setdefault(a["institution"], set()).add(a["state"])
    for j in demo_default["courses_funding_types_regions"]:
        states = states_of[courses[j["courses_id"]]["institution"]]
        assert regions[j["funding_types_regions_id"]]["state"] in states or None in states


# ---------------------------------------------------------------------------------------
# The reference lists are the real ones


def test_states() -> None:
    states = demodata.reference_rows()["states"]
    assert [s["id"] for s in states] == list(range(1, 17))
    names = [s["name"] for s in states]
    assert names == sorted(names)
    assert [s["code"] for s in states] == [
        "DE-BW",
        "DE-BY",
        "DE-BE",
        "DE-BB",
        "DE-HB",
        "DE-HH",
        "DE-HE",
        "DE-MV",
        "DE-NI",
        "DE-NW",
        "DE-RP",
        "DE-SL",
        "DE-SN",
        "DE-ST",
        "DE-SH",
        "DE-TH",
    ]
    assert names[0] == "Baden-Württemberg"
    assert names[9] == "Nordrhein-Westfalen"
    assert names[15] == "Thüringen"


def test_code_lists() -> None:
    ref = demodata.reference_rows()
    forms = {r["id"]: r for r in ref["instruction_forms"]}
    assert set(forms) == {101, 102, 103, 104, 105, 201, 202, 203, 204, 206, 301, 302, 303}.union(
        {304, 401, 402, 403}
    )
    assert forms[101]["name"] == "Präsenzveranstaltung"
    assert forms[201]["name"] == "Virtuelles Klassenzimmer"
    assert forms[301]["name"] == "Blended Learning"
    categories = {"1": "Präsenz", "2": "Digital", "3": "Kombiniert", "4": "Fernunterricht"}
    for form_id, form in forms.items():
        assert form["category"] == categories[str(form_id)[0]]
    assert ref["instruction_times"] == [
        {"id": 1, "name": "Vollzeit"},
        {"id": 2, "name": "Teilzeit"},
    ]
    durations = {r["id"]: r["name"] for r in ref["durations"]}
    assert list(durations) == list(range(10))
    assert durations[0] == "Keine Angabe"
    assert durations[4] == "mehr als 1 Monat bis 3 Monate"
    education = {r["id"]: r["name"] for r in ref["education_types"]}
    assert set(education) == {0, *range(100, 111)}
    assert education[104] == "Fortbildung/Qualifizierung"
    assert education[110] == "Integrationssprachkurse (BAMF)"
    institution_types = {r["id"]: r["name"] for r in ref["institution_types"]}
    assert set(institution_types) == {0, *range(100, 115)}
    assert institution_types[105] == "Einrichtung der beruflichen Weiterbildung"
    assert {r["id"]: r["name"] for r in ref["course_types"]} == {
        1: "Bildungsangebot",
        2: "Studienangebot",
        3: "Maßnahmeangebot AVGS",
        4: "Angebot zur Sprachförderung",
        5: "Weiterbildungsangebot",
    }
    certifiers = {r["id"]: r["name"] for r in ref["certifiers"]}
    assert certifiers[24] == "Cert-IT GmbH"
    assert certifiers[504] == "acadCERT GmbH"
    assert {25, 31, 34} <= set(certifiers)
    federal = [r["name"] for r in ref["funding_types_federals"]]
    assert "Bildungsgutschein" in federal
    assert "Aufstiegs-BAföG" in federal
    assert len(ref["handicaps"]) >= 6


def test_regional_funding_types() -> None:
    regions = demodata.reference_rows()["funding_types_regions"]
    assert {r["state"] for r in regions} == set(range(1, 17))
    names = {r["name"]: r["state"] for r in regions}
    assert names["Bildungsscheck NRW"] == 10
    assert names["Qualifizierungsscheck Hessen"] == 7
    assert names["Weiterbildungsbonus Hamburg"] == 6
    leave_states = {
        r["state"]
        for r in regions
        if r["name"].startswith(("Bildungsurlaub", "Bildungszeit", "Bildungsfreistellung"))
    }
    assert leave_states == set(range(1, 17)) - {2, 13}  # not in Bayern and Sachsen


def test_systematics_tree() -> None:
    systematics = demodata.reference_rows()["systematics"]
    assert 30 <= len(systematics) <= 100
    by_id = _by_id(systematics)
    roots = {s["code"] for s in systematics if s["parent"] is None}
    assert roots == {"C", "D", "EC", "SA", "HA", "HC"}
    for s in systematics:
        if s["parent"] is not None:
            parent = by_id[s["parent"]]
            assert parent["id"] < s["id"]
            assert s["code"].startswith(parent["code"].split()[0])
    assert "C 1435-10-10" in {s["code"] for s in systematics}


_FIRST_DIGITS = {
    1: "678",
    2: "689",
    3: "1",
    4: "01",
    5: "2",
    6: "2",
    7: "36",
    8: "12",
    9: "234",
    10: "345",
    11: "567",
    12: "6",
    13: "0",
    14: "023",
    15: "2",
    16: "039",
}


def test_locations_are_real_postcodes() -> None:
    locations = demodata.reference_rows()["locations"]
    assert 300 <= len(locations) <= 1500
    assert {r["state"] for r in locations} == set(range(1, 17))
    zips = [r["zip"] for r in locations]
    assert len(set(zips)) == len(zips)
    pairs = {r["zip"]: (r["city"], r["state"]) for r in locations}
    for r in locations:
        assert re.fullmatch(r"\d{5}", r["zip"])
        assert r["zip"][0] in _FIRST_DIGITS[r["state"]], r  # postal zones of the state
    expected = {
        "10115": ("Berlin", 3),
        "80331": ("München", 2),
        "50667": ("Köln", 10),
        "01067": ("Dresden", 13),
        "28195": ("Bremen", 5),
        "66111": ("Saarbrücken", 12),
        "99084": ("Erfurt", 16),
        "19053": ("Schwerin", 8),
        "20095": ("Hamburg", 6),
        "70173": ("Stuttgart", 1),
        "60306": ("Frankfurt am Main", 7),
        "30159": ("Hannover", 9),
        "55116": ("Mainz", 11),
        "39104": ("Magdeburg", 14),
        "24103": ("Kiel", 15),
        "14467": ("Potsdam", 4),
    }
    for zip_code, pair in expected.items():
        assert pairs[zip_code] == pair


# ---------------------------------------------------------------------------------------
# Size and growth


def test_default_scale_size(demo_default: Rows) -> None:
    institutions = {a["institution"] for a in demo_default["addresses"]}
    assert len(institutions) == 300
    assert 1_100 <= len(demo_default["courses"]) <= 2_000
    assert 3_500 <= len(demo_default["events"]) <= 6_500
    for name in ("contacts", "courses"):
        assert {r["institution"] for r in demo_default[name]} <= institutions


def test_growth_is_linear_in_scale(demo_default: Rows) -> None:
    half = demodata.collect(scale=0.5)
    for name in ("addresses", "contacts", "courses", "events", "events_contacts", "event_costs"):
        ratio = len(half[name]) / len(demo_default[name])
        assert 0.38 <= ratio <= 0.62, (name, ratio)
    for name in demodata.REFERENCE_COLLECTIONS:
        assert half[name] == demo_default[name]


# ---------------------------------------------------------------------------------------
# Shares (scale 1, with tolerances)


def test_course_shares(demo_default: Rows) -> None:
    courses = demo_default["courses"]
    education = _shares([c["education_type"] for c in courses])
    assert 0.82 <= education[104] <= 0.95
    assert max((k for k in education if k != 104), key=education.__getitem__) == 103
    assert _shares([c["institution_type"] for c in courses])[105] >= 0.7
    first = _first_events(demo_default).values()
    categories = _shares([e["instruction_form"] // 100 for e in first])
    assert 0.38 <= categories[1] <= 0.52
    assert 0.14 <= categories[2] <= 0.27
    assert 0.18 <= categories[3] <= 0.32
    assert 0.05 <= categories[4] <= 0.15
    classes = _shares([_duration_class(e) for e in first])
    bounds = {3: (0.14, 0.27), 4: (0.22, 0.36), 5: (0.17, 0.32), 6: (0.10, 0.24)}
    for cls, (lo, hi) in bounds.items():
        assert lo <= classes[cls] <= hi, (cls, classes)
    assert 0.02 <= classes.get(7, 0) <= 0.11
    for cls in (1, 2):
        assert 0 < classes.get(cls, 0) <= 0.05
    for cls in (0, 8, 9):
        assert classes.get(cls, 0) <= 0.03


def test_event_shares(demo_default: Rows) -> None:
    events = demo_default["events"]
    times = _shares([e["instruction_time"] for e in events])
    assert 0.65 <= times[1] <= 0.82
    addresses = _by_id(demo_default["addresses"])
    states = _shares([addresses[e["address"]]["state"] for e in events if e["address"]])
    assert max(states, key=lambda s: states[s] if s else 0) == 10  # NRW first
    expected = {10: 0.26, 2: 0.125, 1: 0.119, 9: 0.094, 7: 0.083, 13: 0.054, 12: 0.012}
    for state, share in expected.items():
        assert abs(states[state] - share) <= 0.05, (state, states[state])
    assert set(states) <= {*range(1, 17), None}


def test_events_per_course(demo_default: Rows) -> None:
    per_course = Counter(e["course"] for e in demo_default["events"])
    counts = sorted(per_course.values())
    assert counts[len(counts) // 2] <= 4  # most courses carry a handful
    big = [n for n in counts if n > 100]
    assert 1 <= len(big) <= 10
    assert all(n <= 400 for n in counts)


def test_event_values(demo_default: Rows) -> None:
    start_min, start_max = dt.date(2025, 1, 1), dt.date(2026, 12, 31)
    for e in demo_default["events"]:
        start = _date(e["event_start_date"])
        assert start_min <= start <= start_max
        for name in ("registration_deadline", "announcement_start_date"):
            if e[name] is not None:
                assert _date(e[name]) < start
        if e["min_participants"] is not None:
            assert 4 <= e["min_participants"] <= 10
        if e["max_participants"] is not None:
            assert 12 <= e["max_participants"] <= 25
        assert e["instruction_time"] in (1, 2)
        assert e["duration_unit"] in ("week_days", "calendar_days", "hours", None)
        assert (e["duration_unit"] is None) == (e["event_end_date"] is None)
        if e["duration_in_days"] is not None:
            assert e["duration_in_days"] > 0
        if e["measure_number"] is not None:
            assert re.fullmatch(r"\d{3}/\d{3,4}/20\d{2}", e["measure_number"])
        if e["duration_regular_start"] is not None:
            assert e["has_individual_start"] is True
    vouchers = _shares([e["education_voucher"] for e in demo_default["events"]])
    assert 0.3 <= vouchers[True] <= 0.7


def test_people_and_places(demo_default: Rows) -> None:
    phone = re.compile(r"^\+49\.\d{2,5}\.\d{4,11}$")
    contacts = demo_default["contacts"]
    for c in contacts:
        assert c["salutation"] in ("m", "w", "d", None)
        assert c["role"] in (1, 2, 3, None)
        assert c["academic_title"] in ("Dr.", "Prof. Dr.", None)
        for name in ("phone", "mobile", "fax"):
            assert c[name] is None or phone.match(c[name]), c[name]
        assert c["email"] is None or re.fullmatch(r"[a-z0-9.\-]+@[a-z0-9.\-]+\.example", c["email"])
        assert c["last_name"]
    assert _shares([c["academic_title"] for c in contacts]).get("Dr.", 0) > 0
    per_institution = Counter(c["institution"] for c in contacts)
    assert min(per_institution.values()) >= 1
    for a in demo_default["addresses"]:
        for name in ("phone", "mobile", "fax"):
            assert a[name] is None or phone.match(a[name]), a[name]
    # the places: real pairs of postal code and place, in their state (test_demo_districts.py)
    assert _shares([a["country"] for a in demo_default["addresses"]])["DE"] >= 0.95
    assert {a["barrier_free"] for a in demo_default["addresses"]} == {True, False, None}


def test_course_children(demo_default: Rows) -> None:
    for name, most in (("course_keywords", 5), ("course_degrees", 2), ("event_costs", 2)):
        per_course = Counter(r["course"] for r in demo_default[name])
        assert max(per_course.values()) <= most, name
    costs = demo_default["event_costs"]
    values = [float(c["value"]) for c in costs if c["value"] is not None]
    assert any(v == 0 for v in values)
    assert all(0 <= v <= 100_000 for v in values)
    assert _shares([c["currency"] for c in costs])["EUR"] >= 0.9
    assert {d["degree_type"] for d in demo_default["course_degrees"]} <= {0, 1, 2, 3}
    titles = [c["title"] for c in demo_default["courses"]]
    assert any("(Umschulung)" in t for t in titles)
    assert any(t.startswith("Deutsch B2 Berufssprachkurs") for t in titles)


# ---------------------------------------------------------------------------------------
# Defects and edge cases, present even at small scales


def test_defects_are_documented() -> None:
    assert set(demodata.DEFECTS) == {
        "address_missing_state",
        "empty_participants",
        "end_before_start",
        "course_without_events",
        "unknown_instruction_form",
        "event_without_address",
        "address_missing_postal_code",
        "address_unknown_postal_code",
        "address_city_mismatch",
        "address_other_state",
    }
    assert demodata.__doc__ is not None
    for name, description in demodata.DEFECTS.items():
        assert name in demodata.__doc__
        assert "%" in description


def _defect_counts(rows: Rows) -> dict[str, int]:
    events = rows["events"]
    with_events = {e["course"] for e in events}
    return {
        "address_missing_state": sum(a["state"] is None for a in rows["addresses"]),
        "empty_participants": sum(
            e["min_participants"] is None and e["max_participants"] is None for e in events
        ),
        "end_before_start": sum(
            e["event_end_date"] is not None and e["event_end_date"] < e["event_start_date"]
            for e in events
        ),
        "course_without_events": sum(c["id"] not in with_events for c in rows["courses"]),
        "unknown_instruction_form": sum(
            e["instruction_form"] == demodata.UNKNOWN_INSTRUCTION_FORM for e in events
        ),
        "event_without_address": sum(e["address"] is None for e in events),
        **defect_counts(rows),  # the faults of addresses, as the district rule finds them
    }


@pytest.mark.parametrize("seed", [0, 7])
def test_every_defect_and_a_big_course_at_small_scale(seed: int) -> None:
    rows = demodata.collect(seed=seed, scale=SMALL_SCALE)
    counts = _defect_counts(rows)
    assert all(counts.values()), counts
    assert max(Counter(e["course"] for e in rows["events"]).values()) > 100


def test_defect_shares(demo_default: Rows) -> None:
    counts = _defect_counts(demo_default)
    n_events = len(demo_default["events"])
    n_addresses = len(demo_default["addresses"])
    address_defects = [name for name in counts if name.startswith("address_")]
    shares = {
        **{name: counts[name] / n_addresses for name in address_defects},
        "course_without_events": counts["course_without_events"] / len(demo_default["courses"]),
        **{
            name: counts[name] / n_events
            for name in (
                "empty_participants",
                "end_before_start",
                "unknown_instruction_form",
                "event_without_address",
            )
        },
    }
    bounds = {
        "address_missing_state": (0.005, 0.05),
        "course_without_events": (0.005, 0.05),
        "empty_participants": (0.35, 0.55),
        "end_before_start": (0.001, 0.015),
        "unknown_instruction_form": (0.0003, 0.006),
        "event_without_address": (0.003, 0.025),
        "address_missing_postal_code": (0.0005, 0.01),
        "address_unknown_postal_code": (0.0005, 0.01),
        "address_city_mismatch": (0.001, 0.015),
        "address_other_state": (0.0005, 0.01),
    }
    for name, (lo, hi) in bounds.items():
        assert lo <= shares[name] <= hi, (name, shares[name])


def test_nulls_in_every_nullable_field_type(demo_small: Rows) -> None:
    nulls: set[FieldType] = set()
    nullable: set[FieldType] = set()
    for name, collection in SCHEMA.items():
        if collection.kind != "entity":
            continue
        for f in collection.stored_fields:
            if f.required:
                continue
            nullable.add(f.type)
            if any(r[f.name] is None for r in demo_small[name]):
                nulls.add(f.type)
    assert nullable == {
        FieldType.INTEGER,
        FieldType.STRING,
        FieldType.DATETIME,
        FieldType.BOOLEAN,
        FieldType.DECIMAL,
    }
    assert nulls == nullable
    # and many-to-one references are null now and then
    assert any(e["address"] is None for e in demo_small["events"])
    assert any(c["certifier"] is None for c in demo_small["courses"])
