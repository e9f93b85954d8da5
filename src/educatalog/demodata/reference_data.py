"""Static data behind the demo catalogue: the real reference lists and the generator's word
lists, read from the data files in ``educatalog/demodata/data/``.

* ``reference_lists.json``: the reference lists, following ``docs/catalogue-schema.md``
  (KURSNET code lists renamed into English), and the demo's shares of events by state.
  Certifier ids other than 24, 25, 31, 34 and 504 are illustrative, as are the
  systematics codes below the top groups.
* ``locations.csv``: real postcodes with their city, state id and telephone area code
  (without the leading 0), used for believable addresses and phone numbers.
* ``course_templates.json``: the kinds of course the generator builds courses from.
* ``words.json``: names, streets, title suffixes, remarks and the other word lists.

The places of the addresses come from the district tables the package ships in
``educatalog/data/districts/`` (:data:`DISTRICT_FILES`, read by
:mod:`educatalog.demodata.places`).

Everything here is plain data, read once at import: tuples and strings with no randomness,
so the demo generator is deterministic by construction. Each name keeps the type it had as
Python source (tuples, not lists; dicts keyed by integer ids).
"""

from __future__ import annotations

import csv
import io
import json
from importlib import resources
from typing import Any, NamedTuple, cast

__all__ = [
    "ACCESSIBILITY_REMARKS",
    "ADDRESS_REMARKS",
    "AGENCY_NUMBERS",
    "CERTIFIERS",
    "CONTACT_LABELS",
    "CONTACT_POINTS",
    "CONTACT_REMARKS",
    "COST_REMARKS",
    "COURSE_TEMPLATES",
    "COURSE_TYPES",
    "DATA_FILES",
    "DESCRIPTION_SENTENCES",
    "DISTRICT_FILES",
    "DIVERSE_FIRST_NAMES",
    "DURATIONS",
    "DURATION_SPANS",
    "EDUCATION_LEAVE_PREFIXES",
    "EDUCATION_TYPES",
    "EVENT_COMMENTS",
    "EVENT_REMARKS",
    "FEMALE_FIRST_NAMES",
    "FUNDING_TYPES_FEDERALS",
    "FUNDING_TYPES_REGIONS",
    "HANDICAPS",
    "INSTITUTION_TYPES",
    "INSTITUTION_WORDS",
    "INSTRUCTION_FORMS",
    "INSTRUCTION_FORM_CATEGORIES",
    "INSTRUCTION_TIMES",
    "KEYWORDS_GENERIC",
    "LANGUAGE_TEMPLATE_TITLES",
    "LAST_NAMES",
    "LOCATIONS",
    "MALE_FIRST_NAMES",
    "MOBILE_PREFIXES",
    "NATIONWIDE_NAMES",
    "REQUIREMENTS",
    "STATES",
    "STATE_EVENT_SHARES",
    "STREETS",
    "STUDY_TEMPLATES",
    "SYSTEMATICS",
    "TARGET_GROUPS",
    "TIME_COMMENTS_FULL",
    "TIME_COMMENTS_PART",
    "TITLE_SUFFIXES_FULL_TIME",
    "TITLE_SUFFIXES_ONLINE",
    "TITLE_SUFFIXES_PART_TIME",
    "TITLE_SUFFIX_CERTIFIED",
    "TITLE_SUFFIX_COMPACT",
    "TITLE_SUFFIX_PRACTICAL",
    "CourseTemplate",
    "Location",
    "data_bytes",
    "district_text",
]


class Location(NamedTuple):
    """A real postcode with its city, state id and telephone area code."""

    zip: str
    city: str
    state: int
    area_code: str


class CourseTemplate(NamedTuple):
    """One kind of course: what a course built from it looks like.

    ``funding`` is one of ``voucher`` (AZAV measure, Bildungsgutschein), ``avgs``, ``aufstieg``
    (Aufstiegs-BAföG), ``bamf``, ``bafoeg``, ``none``. ``lessons_per_day`` is for full-time.
    ``also`` holds the leaves of related other areas a course of this kind may carry besides
    ``systematic`` (a commerce course an IT leaf, a care course a language leaf).
    """

    title: str
    classes: tuple[int, ...]  # possible duration classes
    education_type: int
    course_type: int
    systematic: str  # leaf code in SYSTEMATICS
    keywords: tuple[str, ...]
    degree: tuple[str, int, str | None, str | None] | None  # title, type, addl. quals, entitled
    funding: str = "voucher"
    about: str = ""
    also: tuple[str, ...] = ()  # leaf codes in other areas, in the order they are added


DATA_FILES = ("reference_lists.json", "locations.csv", "course_templates.json", "words.json")
"""The data files this module reads, in ``educatalog/demodata/data/``."""

DISTRICT_FILES = ("plz_place_district.csv", "district_population_2024.csv")
"""The district tables the addresses' places are drawn from, in ``educatalog/data/districts/``
(their sources and licences in its ``README.md``); ``plz_district.csv`` holds the same postal
codes and districts."""


def _text(name: str) -> str:
    return (resources.files("educatalog.demodata") / "data" / name).read_text(encoding="utf-8")


def district_text(name: str) -> str:
    """One of the :data:`DISTRICT_FILES`, as text."""
    path = resources.files("educatalog").joinpath("data", "districts", name)
    return path.read_text(encoding="utf-8")


def data_bytes() -> bytes:
    """The data files' contents (the district tables' too), for fingerprints of what is
    generated from them."""
    texts = [_text(name) for name in DATA_FILES] + [district_text(n) for n in DISTRICT_FILES]
    return b"".join(text.encode() for text in texts)


def _frozen(value: Any) -> Any:
    """JSON values as the Python source had them: lists as tuples, all the way down."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _by_id(value: dict[str, Any]) -> dict[int, Any]:
    return {int(key): _frozen(v) for key, v in value.items()}


def _template(row: dict[str, Any]) -> CourseTemplate:
    return CourseTemplate(**{key: _frozen(v) for key, v in row.items()})


def _locations() -> tuple[Location, ...]:
    rows = csv.DictReader(io.StringIO(_text("locations.csv")))
    return tuple(Location(r["zip"], r["city"], int(r["state"]), r["area_code"]) for r in rows)


_LISTS: dict[str, Any] = json.loads(_text("reference_lists.json"))
_WORDS: dict[str, Any] = json.loads(_text("words.json"))
_TEMPLATES: dict[str, Any] = json.loads(_text("course_templates.json"))

# ---------------------------------------------------------------------------------------
# Reference lists

STATES: tuple[tuple[int, str, str], ...] = cast(
    "tuple[tuple[int, str, str], ...]", _frozen(_LISTS["STATES"])
)
"""The 16 German states (Länder) as (id, name, ISO 3166-2 code),
``(1, "Baden-Württemberg", "DE-BW")`` to 16: the rows of the ``states`` collection."""
STATE_EVENT_SHARES: dict[int, float] = cast(
    "dict[int, float]", _by_id(_LISTS["STATE_EVENT_SHARES"])
)
"""Percent of the demo's events in each state, by state id (about 100 in all): the weights by
which the generator picks an institution's main state and the states of its further locations."""
INSTRUCTION_FORM_CATEGORIES: dict[int, str] = cast(
    "dict[int, str]", _by_id(_LISTS["INSTRUCTION_FORM_CATEGORIES"])
)
"""The four categories of instruction form by id (1 Präsenz, 2 Digital, 3 Kombiniert, 4
Fernunterricht); a form's category is its id // 100."""
INSTRUCTION_FORMS: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["INSTRUCTION_FORMS"])
)
"""The instruction forms (Unterrichtsformen) as (id, name), 101 "Präsenzveranstaltung" to the
400s: the rows of ``instruction_forms``, whose category (:data:`INSTRUCTION_FORM_CATEGORIES`) is
the id's hundreds."""
INSTRUCTION_TIMES: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["INSTRUCTION_TIMES"])
)
"""Full time and part time as (id, name), 1 "Vollzeit" and 2 "Teilzeit": the rows of
``instruction_times`` (an event's ``instruction_time``)."""
DURATIONS: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["DURATIONS"])
)
"""The duration classes as (id, name), 0 "Keine Angabe", 1 "bis 3 Tage" to 9 "mehr als 3 Jahre":
the rows of ``durations``, the classes an offer's ``duration_class`` is labelled with."""
DURATION_SPANS: dict[int, tuple[int, int]] = cast(
    "dict[int, tuple[int, int]]", _by_id(_LISTS["DURATION_SPANS"])
)
"""Days from start to end of an event of each duration class 1 to 9, as (fewest, most): the
generator draws an event's length within its class's span (class 0 has none); from any start,
both ends of a span fall in their class (:func:`~educatalog.frames.offers.duration_class_ids`)."""
EDUCATION_TYPES: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["EDUCATION_TYPES"])
)
"""The education types (Bildungsarten) as (id, name), 0 "Keine Zuordnung möglich" and 100 to 110:
the rows of ``education_types`` (a course's ``education_type``)."""
INSTITUTION_TYPES: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["INSTITUTION_TYPES"])
)
"""The institution types as (id, name), 0 "Keine Zuordnung möglich" and 100 onwards: the rows of
``institution_types`` (a course's ``institution_type``)."""
COURSE_TYPES: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["COURSE_TYPES"])
)
"""The course types as (id, name), 1 "Bildungsangebot" to 5 "Weiterbildungsangebot": the rows of
``course_types`` (a course's ``course_type``)."""
CERTIFIERS: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["CERTIFIERS"])
)
"""The AZAV certification bodies (fachkundige Stellen) as (id, name): the rows of ``certifiers``,
which certify the institutions and their voucher-funded courses (ids other than 24, 25, 31, 34
and 504 are illustrative)."""
FUNDING_TYPES_FEDERALS: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["FUNDING_TYPES_FEDERALS"])
)
"""The nationwide funding types as (id, name), 1 "Bildungsgutschein" onwards: the rows of
``funding_types_federals``."""
FUNDING_TYPES_REGIONS: tuple[tuple[int, str, int], ...] = cast(
    "tuple[tuple[int, str, int], ...]", _frozen(_LISTS["FUNDING_TYPES_REGIONS"])
)
"""The states' funding programmes as (id, name, state id): the rows of ``funding_types_regions``;
the generator tells each state's educational leave (:data:`EDUCATION_LEAVE_PREFIXES`) from its
other programmes."""
EDUCATION_LEAVE_PREFIXES: tuple[str, ...] = cast(
    "tuple[str, ...]", _frozen(_LISTS["EDUCATION_LEAVE_PREFIXES"])
)
"""How the names of the states' educational-leave schemes begin (Bildungsurlaub, Bildungszeit,
Bildungsfreistellung): a regional funding type so named is its state's educational leave, not a
programme."""
HANDICAPS: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["HANDICAPS"])
)
"""The disabilities a course can be suited to, as (id, name), 1 "Sehbehinderung" to 9: the rows
of ``handicaps``."""
SYSTEMATICS: tuple[tuple[str, str, str | None], ...] = cast(
    "tuple[tuple[str, str, str | None], ...]", _frozen(_LISTS["SYSTEMATICS"])
)
"""The subject classification (Systematik) as (code, name, parent code or None), each parent
before its children: the rows of ``systematics``, whose ids are positions + 1; a course
template's ``systematic`` is one of its leaf codes."""

LOCATIONS: tuple[Location, ...] = _locations()
"""All locations, sorted by postcode; a location's id is its position + 1: the rows of
``locations``, and the telephone area codes of the addresses' places (each takes that of the
location nearest to its postal code)."""

# ---------------------------------------------------------------------------------------
# Course templates and word lists

COURSE_TEMPLATES: tuple[CourseTemplate, ...] = tuple(
    _template(row) for row in _TEMPLATES["COURSE_TEMPLATES"]
)
"""The kinds of course most courses are built from, picked by duration class (further training,
education type 104, weighted highest); language schools and chambers also pick among them by
title and regulation."""
STUDY_TEMPLATES: tuple[CourseTemplate, ...] = tuple(
    _template(row) for row in _TEMPLATES["STUDY_TEMPLATES"]
)
"""The degree programmes (Studienangebote) the courses of universities are built from."""

FEMALE_FIRST_NAMES: tuple[str, ...] = _frozen(_WORDS["FEMALE_FIRST_NAMES"])
"""First names of the demo's contact persons with salutation ``w`` (55 in 100)."""
MALE_FIRST_NAMES: tuple[str, ...] = _frozen(_WORDS["MALE_FIRST_NAMES"])
"""First names of the demo's contact persons with salutation ``m`` (44 in 100)."""
DIVERSE_FIRST_NAMES: tuple[str, ...] = cast(
    "tuple[str, ...]", _frozen(_WORDS["DIVERSE_FIRST_NAMES"])
)
"""First names of the demo's contact persons with salutation ``d`` (1 in 100)."""
LAST_NAMES: tuple[str, ...] = _frozen(_WORDS["LAST_NAMES"])
"""Last names of the demo's contact persons, also used in institution names (``Akademie Müller``,
``Sprachschule Weber``)."""
STREETS: tuple[str, ...] = _frozen(_WORDS["STREETS"])
"""Street names of the demo's addresses, which add a house number."""
INSTITUTION_WORDS: tuple[str, ...] = _frozen(_WORDS["INSTITUTION_WORDS"])
"""Words institution names are built from: ``Impuls Akademie GmbH``,
``Horizont Sprachinstitut``."""
NATIONWIDE_NAMES: tuple[str, ...] = _frozen(_WORDS["NATIONWIDE_NAMES"])
"""The names of the nationwide providers, taken in turn by the institutions of that kind
(numbered once every name is in use)."""
LANGUAGE_TEMPLATE_TITLES: tuple[str, ...] = cast(
    "tuple[str, ...]", _frozen(_WORDS["LANGUAGE_TEMPLATE_TITLES"])
)
"""Titles of the course templates language schools mostly offer (German and English for work,
integration courses)."""
TITLE_SUFFIXES_FULL_TIME: tuple[str, ...] = cast(
    "tuple[str, ...]", _frozen(_WORDS["TITLE_SUFFIXES_FULL_TIME"])
)
"""Suffixes a full-time course's title may get (``" inkl. Zertifikatsprüfung"`` ...), with the
other ``TITLE_SUFFIX_*`` that apply."""
TITLE_SUFFIX_PRACTICAL: str = _WORDS["TITLE_SUFFIX_PRACTICAL"]
"""The title suffix of a full-time course with a practical part whose title does not say so
already: ``" mit Praktikum"``."""
TITLE_SUFFIX_CERTIFIED: str = _WORDS["TITLE_SUFFIX_CERTIFIED"]
"""The title suffix of a full-time course funded by a voucher: ``" (AZAV-zertifiziert)"``."""
TITLE_SUFFIX_COMPACT: str = _WORDS["TITLE_SUFFIX_COMPACT"]
"""The title suffix of a full-time course of duration class 1 to 4 (up to three months):
``" – Kompaktkurs"``."""
TITLE_SUFFIXES_PART_TIME: tuple[str, ...] = cast(
    "tuple[str, ...]", _frozen(_WORDS["TITLE_SUFFIXES_PART_TIME"])
)
"""Suffixes a part-time course's title may get (Teilzeit, berufsbegleitend, Abendkurs,
Wochenendkurs)."""
TITLE_SUFFIXES_ONLINE: tuple[str, ...] = cast(
    "tuple[str, ...]", _frozen(_WORDS["TITLE_SUFFIXES_ONLINE"])
)
"""Suffixes the title of a course held digitally (category 2) may get (Online, Live-Online,
virtual classroom)."""
TARGET_GROUPS: tuple[str, ...] = _frozen(_WORDS["TARGET_GROUPS"])
"""Target groups: a course's ``target_groups`` lists one to three of them, comma-separated."""
REQUIREMENTS: tuple[str, ...] = _frozen(_WORDS["REQUIREMENTS"])
"""Admission requirements: a course's ``requirements`` lists one or two of them, separated by
semicolons."""
ACCESSIBILITY_REMARKS: tuple[str, ...] = cast(
    "tuple[str, ...]", _frozen(_WORDS["ACCESSIBILITY_REMARKS"])
)
"""Remarks on accessibility: a course's ``accessibility_remarks`` (a quarter of the courses have
one)."""
DESCRIPTION_SENTENCES: tuple[str, ...] = cast(
    "tuple[str, ...]", _frozen(_WORDS["DESCRIPTION_SENTENCES"])
)
"""Stock sentences: a course's description adds one to three of them to its template's ``about``."""
KEYWORDS_GENERIC: tuple[str, ...] = _frozen(_WORDS["KEYWORDS_GENERIC"])
"""Generic keywords that complete a course's keywords where its template has fewer than the
course gets."""
EVENT_REMARKS: tuple[str, ...] = _frozen(_WORDS["EVENT_REMARKS"])
"""An event's ``remarks`` (about one event in eight has one)."""
EVENT_COMMENTS: tuple[str, ...] = _frozen(_WORDS["EVENT_COMMENTS"])
"""An event's ``comment`` (about one event in ten has one)."""
TIME_COMMENTS_FULL: tuple[str, ...] = _frozen(_WORDS["TIME_COMMENTS_FULL"])
"""A full-time event's ``instruction_time_comment``: its teaching hours
("Mo–Fr 08:00–15:30 Uhr" ...)."""
TIME_COMMENTS_PART: tuple[str, ...] = _frozen(_WORDS["TIME_COMMENTS_PART"])
"""A part-time event's ``instruction_time_comment``: its teaching hours (evenings, Saturdays,
mornings)."""
COST_REMARKS: tuple[str, ...] = _frozen(_WORDS["COST_REMARKS"])
"""Remarks on a course's price (``remarks`` of its cost row), such as "zzgl. Prüfungsgebühr"."""
ADDRESS_REMARKS: tuple[str, ...] = _frozen(_WORDS["ADDRESS_REMARKS"])
"""An address's ``remarks`` ("Eingang über den Hof" ...)."""
CONTACT_REMARKS: tuple[str, ...] = _frozen(_WORDS["CONTACT_REMARKS"])
"""A contact person's ``contact_remarks`` ("Beratung nach Terminvereinbarung" ...)."""
CONTACT_LABELS: tuple[str, ...] = _frozen(_WORDS["CONTACT_LABELS"])
"""What a contact person does, as ``labels`` (Beratung, Anmeldung ...); a managing director's is
"Geschäftsführung"."""
CONTACT_POINTS: tuple[tuple[str, str], ...] = cast(
    "tuple[tuple[str, str], ...]", _frozen(_WORDS["CONTACT_POINTS"])
)
"""Desks that now and then stand for a contact instead of a person, as (last name, e-mail local
part): ``("Kundenservice", "kundenservice")`` ..."""
MOBILE_PREFIXES: tuple[str, ...] = _frozen(_WORDS["MOBILE_PREFIXES"])
"""German mobile prefixes without the leading 0 (``151`` ...): a mobile number is one of the
fictional drama numbers chosen by one of them, never a real one."""
AGENCY_NUMBERS: tuple[str, ...] = _frozen(_WORDS["AGENCY_NUMBERS"])
"""Three-digit agency numbers that begin the measure number (``<agency>/<number>/<year>``) of a
course funded by a voucher."""
