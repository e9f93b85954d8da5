"""The terms every SQL text of the server is made of: quoted identifiers, values in their
JSON representation, and :class:`Sql`, a text being built with its parameters in order."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from educatalog.model.schema import Collection, Field, FieldType

__all__ = [
    "SPECIAL_LOWERING",
    "Layout",
    "SearchPrefilter",
    "Sql",
    "copied_column",
    "json_value_sql",
    "quote",
]

SPECIAL_LOWERING = ("\u212a", "\u0130")
"""The only characters whose lower case holds ASCII letters: KELVIN SIGN -> "k" and
LATIN CAPITAL LETTER I WITH DOT ABOVE -> "i̇". Columns holding them cannot use SQLite's
ASCII-only case folding as a shortcut (see :func:`~educatalog.server.sql.filters.contains_ci`)."""

# Beyond this many values, IN lists travel as one JSON array parameter.
_JSON_IN_THRESHOLD = 64


def quote(identifier: str) -> str:
    """Quote an SQL identifier. Identifiers only ever come from the catalogue."""
    return '"' + identifier.replace('"', '""') + '"'


def copied_column(relation: str, name: str) -> str:
    """The name of the column that holds field ``name`` of the item that ``relation``
    points to: ``relation.name``, which no field of the catalogue can be named."""
    return f"{relation}.{name}"


def json_value_sql(f: Field, column: str) -> str:
    """SQL giving a column's value in its JSON representation, as ``store`` converts it in
    Python: booleans as ``true``/``false``, decimals as text with the field's scale."""
    if f.type is FieldType.BOOLEAN:
        return (
            f"CASE WHEN {column} IS NULL THEN NULL "
            f"WHEN {column} THEN json('true') ELSE json('false') END"
        )
    if f.type is FieldType.DECIMAL:
        return (
            f"CASE WHEN {column} IS NULL THEN NULL ELSE printf('%.{f.scale or 2}f', {column}) END"
        )
    return column


class SearchPrefilter(Protocol):
    """Whether a collection's search index narrows a search enough to be asked first
    (:mod:`~educatalog.server.sql.search_index`): ``query`` is the index's query of the
    search's text, ``reads_all`` whether the statement reads every match (a count, a sort)
    rather than the first page of them."""

    def __call__(self, coll: Collection, query: str, reads_all: bool) -> bool: ...


@dataclass(frozen=True)
class Layout:
    """What a database holds beyond a table a collection, as the SQL of a query may use it.

    ``special_text`` names the text columns that hold characters whose lower case is ASCII
    (:data:`SPECIAL_LOWERING`); None means unknown, and every column is treated so.
    ``copied`` names the fields of related items that rows carry as their own columns,
    as ``(collection, relation, field)`` (:mod:`~educatalog.server.sql.copied_fields`).
    The default is what any database of the catalogue's tables holds: nothing known.
    """

    special_text: frozenset[tuple[str, str]] | None = None
    copied: frozenset[tuple[str, str, str]] = frozenset()


@dataclass
class Sql:
    """An SQL text being built, with its parameters in order, for a database laid out as
    ``layout``. ``prefilter`` tells whether a search is narrowed by its collection's search
    index first (None: never).
    """

    layout: Layout = field(default_factory=Layout)
    params: list[Any] = field(default_factory=list)
    aliases: int = 0
    prefilter: SearchPrefilter | None = None

    def is_special(self, collection: str, name: str) -> bool:
        special = self.layout.special_text
        return special is None or (collection, name) in special

    def copied_column(self, collection: str, relation: str, name: str) -> str | None:
        """The column of ``collection`` that holds ``name`` of the item its ``relation``
        points to, if the database has one (None: read it through the relation)."""
        if (collection, relation, name) in self.layout.copied:
            return copied_column(relation, name)
        return None

    def param(self, value: Any) -> str:
        self.params.append(value)
        return "?"

    def alias(self) -> str:
        self.aliases += 1
        return f"t{self.aliases}"

    def child(self) -> Sql:
        """A part built apart: its parameters join this one's only if it is :meth:`adopt`-ed
        (alias names stay unique either way)."""
        return Sql(self.layout, aliases=self.aliases, prefilter=self.prefilter)

    def adopt(self, part: Sql) -> None:
        self.params.extend(part.params)
        self.aliases = max(self.aliases, part.aliases)

    def in_list(self, values: tuple[Any, ...]) -> str:
        if len(values) > _JSON_IN_THRESHOLD:
            return f"(SELECT value FROM json_each({self.param(orjson.dumps(values).decode())}))"
        return "(" + ", ".join(self.param(v) for v in values) + ")"
