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


DATA_FILES = ("reference_lists.json", "locations.csv", "course_templates.json", "words.json")
"""The data files this module reads, in ``educatalog/demodata/data/``."""


def _text(name: str) -> str:
    return (resources.files("educatalog.demodata") / "data" / name).read_text(encoding="utf-8")


def data_bytes() -> bytes:
    """The data files' contents, for fingerprints of what is generated from them."""
    return b"".join(_text(name).encode() for name in DATA_FILES)


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
STATE_EVENT_SHARES: dict[int, float] = cast(
    "dict[int, float]", _by_id(_LISTS["STATE_EVENT_SHARES"])
)
INSTRUCTION_FORM_CATEGORIES: dict[int, str] = cast(
    "dict[int, str]", _by_id(_LISTS["INSTRUCTION_FORM_CATEGORIES"])
)
INSTRUCTION_FORMS: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["INSTRUCTION_FORMS"])
)
INSTRUCTION_TIMES: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["INSTRUCTION_TIMES"])
)
DURATIONS: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["DURATIONS"])
)
DURATION_SPANS: dict[int, tuple[int, int]] = cast(
    "dict[int, tuple[int, int]]", _by_id(_LISTS["DURATION_SPANS"])
)
EDUCATION_TYPES: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["EDUCATION_TYPES"])
)
INSTITUTION_TYPES: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["INSTITUTION_TYPES"])
)
COURSE_TYPES: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["COURSE_TYPES"])
)
CERTIFIERS: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["CERTIFIERS"])
)
FUNDING_TYPES_FEDERALS: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["FUNDING_TYPES_FEDERALS"])
)
FUNDING_TYPES_REGIONS: tuple[tuple[int, str, int], ...] = cast(
    "tuple[tuple[int, str, int], ...]", _frozen(_LISTS["FUNDING_TYPES_REGIONS"])
)
EDUCATION_LEAVE_PREFIXES: tuple[str, ...] = cast(
    "tuple[str, ...]", _frozen(_LISTS["EDUCATION_LEAVE_PREFIXES"])
)
HANDICAPS: tuple[tuple[int, str], ...] = cast(
    "tuple[tuple[int, str], ...]", _frozen(_LISTS["HANDICAPS"])
)
SYSTEMATICS: tuple[tuple[str, str, str | None], ...] = cast(
    "tuple[tuple[str, str, str | None], ...]", _frozen(_LISTS["SYSTEMATICS"])
)

LOCATIONS: tuple[Location, ...] = _locations()
"""All locations, sorted by postcode; a location's id is its position + 1."""

# ---------------------------------------------------------------------------------------
# Course templates and word lists

COURSE_TEMPLATES: tuple[CourseTemplate, ...] = tuple(
    _template(row) for row in _TEMPLATES["COURSE_TEMPLATES"]
)
STUDY_TEMPLATES: tuple[CourseTemplate, ...] = tuple(
    _template(row) for row in _TEMPLATES["STUDY_TEMPLATES"]
)

FEMALE_FIRST_NAMES: tuple[str, ...] = _frozen(_WORDS["FEMALE_FIRST_NAMES"])
MALE_FIRST_NAMES: tuple[str, ...] = _frozen(_WORDS["MALE_FIRST_NAMES"])
DIVERSE_FIRST_NAMES: tuple[str, ...] = cast(
    "tuple[str, ...]", _frozen(_WORDS["DIVERSE_FIRST_NAMES"])
)
LAST_NAMES: tuple[str, ...] = _frozen(_WORDS["LAST_NAMES"])
STREETS: tuple[str, ...] = _frozen(_WORDS["STREETS"])
INSTITUTION_WORDS: tuple[str, ...] = _frozen(_WORDS["INSTITUTION_WORDS"])
NATIONWIDE_NAMES: tuple[str, ...] = _frozen(_WORDS["NATIONWIDE_NAMES"])
LANGUAGE_TEMPLATE_TITLES: tuple[str, ...] = cast(
    "tuple[str, ...]", _frozen(_WORDS["LANGUAGE_TEMPLATE_TITLES"])
)
TITLE_SUFFIXES_FULL_TIME: tuple[str, ...] = cast(
    "tuple[str, ...]", _frozen(_WORDS["TITLE_SUFFIXES_FULL_TIME"])
)
TITLE_SUFFIX_PRACTICAL: str = _WORDS["TITLE_SUFFIX_PRACTICAL"]
TITLE_SUFFIX_CERTIFIED: str = _WORDS["TITLE_SUFFIX_CERTIFIED"]
TITLE_SUFFIX_COMPACT: str = _WORDS["TITLE_SUFFIX_COMPACT"]
TITLE_SUFFIXES_PART_TIME: tuple[str, ...] = cast(
    "tuple[str, ...]", _frozen(_WORDS["TITLE_SUFFIXES_PART_TIME"])
)
TITLE_SUFFIXES_ONLINE: tuple[str, ...] = cast(
    "tuple[str, ...]", _frozen(_WORDS["TITLE_SUFFIXES_ONLINE"])
)
TARGET_GROUPS: tuple[str, ...] = _frozen(_WORDS["TARGET_GROUPS"])
REQUIREMENTS: tuple[str, ...] = _frozen(_WORDS["REQUIREMENTS"])
ACCESSIBILITY_REMARKS: tuple[str, ...] = cast(
    "tuple[str, ...]", _frozen(_WORDS["ACCESSIBILITY_REMARKS"])
)
DESCRIPTION_SENTENCES: tuple[str, ...] = cast(
    "tuple[str, ...]", _frozen(_WORDS["DESCRIPTION_SENTENCES"])
)
KEYWORDS_GENERIC: tuple[str, ...] = _frozen(_WORDS["KEYWORDS_GENERIC"])
EVENT_REMARKS: tuple[str, ...] = _frozen(_WORDS["EVENT_REMARKS"])
EVENT_COMMENTS: tuple[str, ...] = _frozen(_WORDS["EVENT_COMMENTS"])
TIME_COMMENTS_FULL: tuple[str, ...] = _frozen(_WORDS["TIME_COMMENTS_FULL"])
TIME_COMMENTS_PART: tuple[str, ...] = _frozen(_WORDS["TIME_COMMENTS_PART"])
COST_REMARKS: tuple[str, ...] = _frozen(_WORDS["COST_REMARKS"])
ADDRESS_REMARKS: tuple[str, ...] = _frozen(_WORDS["ADDRESS_REMARKS"])
CONTACT_REMARKS: tuple[str, ...] = _frozen(_WORDS["CONTACT_REMARKS"])
CONTACT_LABELS: tuple[str, ...] = _frozen(_WORDS["CONTACT_LABELS"])
CONTACT_POINTS: tuple[tuple[str, str], ...] = cast(
    "tuple[tuple[str, str], ...]", _frozen(_WORDS["CONTACT_POINTS"])
)
MOBILE_PREFIXES: tuple[str, ...] = _frozen(_WORDS["MOBILE_PREFIXES"])
AGENCY_NUMBERS: tuple[str, ...] = _frozen(_WORDS["AGENCY_NUMBERS"])
