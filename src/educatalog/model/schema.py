"""The catalogue's collections, fields, types and relations: the single source of truth.

Everything else reads this module: the query grammar validates against it, the reference
server builds its tables and serializes rows from it, and the toolkit types its DataFrames
from it. Field names that the service spec gives exactly (events, contacts) are kept as they
are; the others follow ``docs/catalogue-schema.md``.

Relations follow the Directus model:

* many-to-one (``m2o``): the field holds the id of an item of ``related``;
* one-to-many (``o2m``): an alias field listing the items of ``related`` whose
  ``foreign_key`` points back here;
* many-to-many (``m2m``): a one-to-many onto a *junction* collection (``related``) whose
  ``junction_field`` is a many-to-one onto ``target``.

>>> SCHEMA["events"].field("address").relation.related
'addresses'
>>> SCHEMA["events"].field("contacts").relation.target
'contacts'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from educatalog.errors import NotFoundOrForbidden, did_you_mean

__all__ = [
    "SCHEMA",
    "Collection",
    "Field",
    "FieldType",
    "Relation",
    "Schema",
]


class FieldType(StrEnum):
    """Logical type of a field, as the service serializes it."""

    INTEGER = "integer"
    STRING = "string"
    UUID = "uuid"  # a string in UUID format
    DATETIME = "datetime"  # "YYYY-MM-DDTHH:MM:SS", no zone
    BOOLEAN = "boolean"
    DECIMAL = "decimal"  # money: serialized as a string such as "1490.00"
    ALIAS = "alias"  # one-to-many / many-to-many: no column of its own

    @property
    def is_text(self) -> bool:
        return self in (FieldType.STRING, FieldType.UUID)

    @property
    def is_numeric(self) -> bool:
        return self in (FieldType.INTEGER, FieldType.DECIMAL)


RelationKind = Literal["m2o", "o2m", "m2m"]


@dataclass(frozen=True)
class Relation:
    """How a field relates to another collection (see the module docstring)."""

    kind: RelationKind
    related: str
    foreign_key: str | None = None  # o2m/m2m: the field of `related` that points back
    junction_field: str | None = None  # m2m: the junction's field pointing to `target`
    target: str | None = None  # m2m: the collection reached through the junction

    @property
    def is_list(self) -> bool:
        """True for one-to-many and many-to-many: the field holds a list."""
        return self.kind != "m2o"


@dataclass(frozen=True)
class Field:
    """One field of a collection."""

    name: str
    type: FieldType
    relation: Relation | None = None
    required: bool = False
    personal: bool = False  # personal data of real people (contacts): left out of exports
    scale: int | None = None  # decimals: digits after the point
    note: str = ""

    @property
    def is_stored(self) -> bool:
        """True when the field is a column of its collection (not a list alias)."""
        return self.type is not FieldType.ALIAS

    @property
    def is_many_to_one(self) -> bool:
        return self.relation is not None and self.relation.kind == "m2o"


CollectionKind = Literal["entity", "reference", "junction"]


@dataclass(frozen=True)
class Collection:
    """A collection of the service: its fields in order, and for reference lists the label."""

    name: str
    kind: CollectionKind
    fields: tuple[Field, ...]
    label: str | None = None  # reference lists: the field holding the human-readable name
    note: str = ""
    _by_name: Mapping[str, Field] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {f.name: f for f in self.fields})

    def __repr__(self) -> str:
        return f"<Collection {self.name!r} ({self.kind}, {len(self.fields)} fields)>"

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def field(self, name: str) -> Field:
        """The field called ``name``; an unknown name raises :class:`NotFoundOrForbidden`."""
        try:
            return self._by_name[name]
        except KeyError:
            raise NotFoundOrForbidden(
                f'You don\'t have permission to access field "{name}" in collection '
                f'"{self.name}" or it does not exist.{did_you_mean(name, self._by_name)}'
            ) from None

    @property
    def field_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    @property
    def stored_fields(self) -> tuple[Field, ...]:
        """Fields with a column of their own, in order (``id`` first)."""
        return tuple(f for f in self.fields if f.is_stored)

    @property
    def relations(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.relation is not None)


class Schema(Mapping[str, Collection]):
    """All collections by name. ``catalogue[name]`` raises a clear error for unknown names."""

    def __init__(self, collections: list[Collection]) -> None:
        self._collections = {c.name: c for c in collections}
        self._check()

    def __getitem__(self, name: str) -> Collection:
        try:
            return self._collections[name]
        except KeyError:
            raise NotFoundOrForbidden(
                f'You don\'t have permission to access collection "{name}" or it does not '
                f"exist.{did_you_mean(name, self._collections)}"
            ) from None

    def __contains__(self, name: object) -> bool:
        return name in self._collections

    def __iter__(self) -> Iterator[str]:
        return iter(self._collections)

    def __len__(self) -> int:
        return len(self._collections)

    def of_kind(self, *kinds: CollectionKind) -> tuple[Collection, ...]:
        return tuple(c for c in self._collections.values() if c.kind in kinds)

    def expansion_target(self, f: Field) -> Collection:
        """The collection whose items a relational field expands into (junction for m2m)."""
        if f.relation is None:
            raise ValueError(f"{f.name} is not a relation")
        return self[f.relation.related]

    def _check(self) -> None:
        """Fail loudly on an inconsistent catalogue definition."""
        for c in self._collections.values():
            if c.fields[0].name != "id":
                raise ValueError(f"{c.name}: the first field must be id")
            for f in c.fields:
                if "." in f.name:  # the query language's paths join names with "."
                    raise ValueError(f"{c.name}.{f.name}: a field's name cannot hold '.'")
            for f in c.relations:
                rel = f.relation
                assert rel is not None
                related = self._collections.get(rel.related)
                if related is None:
                    raise ValueError(f"{c.name}.{f.name}: unknown collection {rel.related}")
                if rel.kind in ("o2m", "m2m"):
                    back = related.field(rel.foreign_key or "").relation
                    if back is None or back.related != c.name:
                        raise ValueError(f"{c.name}.{f.name}: {rel.foreign_key} is no way back")
                if rel.kind == "m2m":
                    fwd = related.field(rel.junction_field or "").relation
                    if fwd is None or fwd.related != rel.target:
                        raise ValueError(f"{c.name}.{f.name}: junction does not reach target")


# ---------------------------------------------------------------------------------------
# Field constructors, to keep the tables below readable.

T = FieldType


def _id() -> Field:
    return Field("id", T.INTEGER, required=True)


def _int(name: str, note: str = "") -> Field:
    return Field(name, T.INTEGER, note=note)


def _str(name: str, note: str = "", personal: bool = False) -> Field:
    return Field(name, T.STRING, note=note, personal=personal)


def _dt(name: str) -> Field:
    return Field(name, T.DATETIME)


def _bool(name: str, note: str = "") -> Field:
    return Field(name, T.BOOLEAN, note=note)


def _institution() -> Field:
    return Field("institution", T.UUID, required=True, note="institution id (UUID), mandatory")


def _m2o(name: str, related: str, note: str = "") -> Field:
    return Field(name, T.INTEGER, Relation("m2o", related), note=note)


def _o2m(name: str, related: str, foreign_key: str) -> Field:
    return Field(name, T.ALIAS, Relation("o2m", related, foreign_key=foreign_key))


def _m2m(name: str, owner: str, target: str) -> Field:
    junction = f"{owner}_{target}"
    return Field(
        name,
        T.ALIAS,
        Relation(
            "m2m",
            junction,
            foreign_key=f"{owner}_id",
            junction_field=f"{target}_id",
            target=target,
        ),
    )


def _junction(owner: str, target: str) -> Collection:
    return Collection(
        f"{owner}_{target}",
        "junction",
        (_id(), _m2o(f"{owner}_id", owner), _m2o(f"{target}_id", target)),
        note=f"junction of the many-to-many relation {owner}.{target}",
    )


def _reference(name: str, *extra: Field, note: str = "", label: str = "name") -> Collection:
    fields = (_id(), *extra) if label != "name" else (_id(), _str("name"), *extra)
    return Collection(name, "reference", fields, label=label, note=note)


_PHONE = "dotted international format, e.g. +49.30.1234567"

_COLLECTIONS = [
    Collection(
        "addresses",
        "entity",
        (
            _id(),
            _institution(),
            _str("street"),
            _str("zip"),
            _str("city"),
            _str("country", "ISO 3166-1 alpha-2 code, mostly DE"),
            _m2o("state", "states"),
            _str("phone", _PHONE),
            _str("mobile", _PHONE),
            _str("fax", _PHONE),
            _str("email"),
            _str("url"),
            _bool("barrier_free", "the location is accessible without barriers"),
            _str("remarks"),
        ),
        note="Location and contact information of an institution or an event",
    ),
    Collection(
        "courses",
        "entity",
        (
            _id(),
            _institution(),
            _str("title"),
            _str("description"),
            _m2o("course_type", "course_types"),
            _m2o("education_type", "education_types"),
            _m2o("institution_type", "institution_types"),
            _m2o("certifier", "certifiers"),
            _str("target_groups"),
            _str("requirements"),
            _str("accessibility_remarks"),
            _o2m("events", "events", "course"),
            _o2m("costs", "event_costs", "course"),
            _o2m("degrees", "course_degrees", "course"),
            _o2m("keywords", "course_keywords", "course"),
            _m2m("funding_types_federals", "courses", "funding_types_federals"),
            _m2m("funding_types_regions", "courses", "funding_types_regions"),
            _m2m("handicaps", "courses", "handicaps"),
            _m2m("systematics", "courses", "systematics"),
        ),
        note="An educational offering",
    ),
    Collection(
        "event_costs",
        "entity",
        (
            _id(),
            _m2o("course", "courses"),
            Field("value", T.DECIMAL, scale=2, note="amount of money, serialized as a string"),
            _str("currency", "ISO 4217 code, mostly EUR"),
            _str("remarks"),
        ),
        note="Monetary value and currency tied to a course",
    ),
    Collection(
        "course_degrees",
        "entity",
        (
            _id(),
            _m2o("course", "courses"),
            _str("degree_title"),
            _int(
                "degree_type",
                "0 publicly recognised, 1 certificate of competence, 2 vendor certificate, "
                "3 provider certificate",
            ),
            _str("additional_qualifications"),
            _str("entitlements"),
            _int("credits"),
        ),
        note="Degrees or certifications tied to a course",
    ),
    Collection(
        "course_keywords",
        "entity",
        (_id(), _m2o("course", "courses"), _str("keyword")),
        note="Key terms tied to a course",
    ),
    Collection(
        "contacts",
        "entity",
        (
            _id(),
            _str("salutation", "m, w or d", personal=True),
            _str("academic_title", personal=True),
            _str("first_name", personal=True),
            _str("last_name", personal=True),
            _str("phone", _PHONE, personal=True),
            _str("mobile", _PHONE, personal=True),
            _str("fax", _PHONE, personal=True),
            _str("email", personal=True),
            _str("url"),
            _str("contact_remarks", personal=True),
            _institution(),
            _int("role", "1 contact person, 2 overall contact, 3 head of institution"),
            _str("labels"),
        ),
        note="People or contact points of an institution",
    ),
    Collection(
        "events",
        "entity",
        (
            _id(),
            _int("min_participants"),
            _int("max_participants"),
            _str("remarks"),
            _str("link"),
            _institution(),
            _m2o("address", "addresses"),
            _dt("event_start_date"),
            _dt("event_end_date"),
            _dt("registration_deadline"),
            _dt("announcement_start_date"),
            _dt("announcement_end_date"),
            _m2o("instruction_form", "instruction_forms"),
            _m2o("instruction_time", "instruction_times"),
            _bool("is_inhouse"),
            _int("duration_regular_start"),
            _bool("has_individual_start"),
            _bool("is_part_time", "alongside work"),
            _bool("has_employer_practical_part"),
            _str("instruction_time_comment"),
            _bool("education_voucher", "eligible for an education voucher (Bildungsgutschein)"),
            _str("comment"),
            _m2o("course", "courses"),
            _int("execution_form"),
            _str("measure_number"),
            _str("own_offer_number"),
            _int("duration_in_days"),
            _int("account"),
            _str("duration_unit", "week_days, calendar_days or hours"),
            _m2m("contacts", "events", "contacts"),
        ),
        note="Sessions or occurrences of a course",
    ),
    _reference("certifiers", note="All known certifiers"),
    _reference("course_types", note="Type of a course"),
    _reference("durations", note="All duration classes (KURSNET)"),
    _reference("education_types", note="All education types from the national course catalogue"),
    _reference("funding_types_federals", note="All federal funding types"),
    _reference("funding_types_regions", _m2o("state", "states"), note="Regional funding types"),
    _reference("handicaps", note="Handicaps that courses are suitable for"),
    _reference("institution_types", note="Type of an institution"),
    _reference(
        "instruction_forms",
        _str("category", "Präsenz (1xx), Digital (2xx), Kombiniert (3xx), Fernunterricht (4xx)"),
        note="All instruction forms",
    ),
    _reference("instruction_times", note="All instruction times"),
    _reference(
        "locations",
        _str("zip"),
        _str("city"),
        _m2o("state", "states"),
        label="city",
        note="Mapping of zip codes and city names",
    ),
    _reference("states", _str("code", "ISO 3166-2 code, e.g. DE-BW"), note="All German states"),
    _reference(
        "systematics",
        _str("code", "KURSNET systematics code, e.g. C 1435-10-10"),
        _m2o("parent", "systematics"),
        note="All systematics from the national course catalogue",
    ),
    _junction("events", "contacts"),
    _junction("courses", "funding_types_federals"),
    _junction("courses", "funding_types_regions"),
    _junction("courses", "handicaps"),
    _junction("courses", "systematics"),
]

SCHEMA = Schema(_COLLECTIONS)
"""The catalogue of the service: 20 collections of the spec plus 5 junction collections."""
