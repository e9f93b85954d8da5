"""Where the reference server answers differently from Directus 12.4 on purpose.

Each deviation names the comparison cases it covers (patterns over case names); the
comparison fails on any other difference, and also when a listed case no longer differs
(the list must not outlive the difference). ``docs/directus.md`` shows the same table for
readers; a test checks that every deviation here has its row there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Deviation:
    id: str
    ours: str
    directus: str
    reason: str
    cases: tuple[str, ...]  # regular expressions matched against the whole case name

    def covers(self, name: str) -> bool:
        return any(re.fullmatch(pattern, name) for pattern in self.cases)


DEVIATIONS = (
    Deviation(
        "literal-wildcards",
        "`%` and `_` in `_contains`, `_icontains`, … and in `search` match themselves",
        'they are SQL `LIKE` wildcards (`_icontains: "_"` matches every non-empty text)',
        "An analyst who filters for `50%` means the text; the toolkit warns when a filter "
        "value holds `%` or `_`, because the real service reads them as wildcards.",
        (r"coerce \d+ addresses\.city _i?contains '[%_]'", r"search 1[45] \w+ '[%_]'"),
    ),
    Deviation(
        "no-500",
        "a clear 400 naming the field, operator and value (or, for a fractional bound on an "
        "integer field, the numeric comparison)",
        "500 INTERNAL_SERVER_ERROR: `_eq` with a value that is not a date, a UUID or (for "
        "`_lt` and friends) an integer; `$NOW` on a number",
        "A 500 is a bug: it tells the user nothing and is retried by clients as a server fault.",
        (
            r"coerce \d+ events\.max_participants _lt '12\.5'",
            r"coerce \d+ events\.event_start_date _eq 'kein Datum'",
            r"coerce \d+ events\.institution _(eq|in) 'keine-uuid'",
            r"now on integer",
            r"aggregate 500 .*",
        ),
    ),
    Deviation(
        "numbers-as-doubles",
        "400 for a number in a filter that a double cannot hold: beyond its range (`1e400`) "
        "or too close to zero to tell from it (`1e-400`)",
        "500 for `1e400` on an integer field; `1e-400` compared exactly by PostgreSQL "
        "(`_eq`: no rows)",
        "The server compares numbers as doubles (SQLite). Read as infinity or 0, such a "
        "value would be compared as a number the user did not write; a clear 400 says so.",
        (r"coerce \d+ events\.max_participants _eq '1e-?400'",),
    ),
    Deviation(
        "between-two-values",
        "400 unless `_between`/`_nbetween` has exactly two values",
        "the condition is silently dropped (every row matches)",
        "A dropped condition gives a wrong number without any sign of it.",
        (r"coerce \d+ events\.max_participants _between \[1\]",),
    ),
    Deviation(
        "or-inside-some",
        "`_or` inside `_some` holds when one of its conditions does",
        "the `_or` is ignored: every item with a related row matches",
        "Directus bug: the condition is lost without an error.",
        (r"o2m _or inside some",),
    ),
    Deviation(
        "path-on-plain-field",
        "400 saying that the field is not a relation",
        "looks the next name up in the root collection (403), or drops the path from "
        "`fields` without a word",
        "The error should name the mistake the user made.",
        (r"m2o path on non-relation", r"fields \d+ events id,remarks\.x", r"_some on plain field"),
    ),
    Deviation(
        "filter-array",
        "400: a filter is a JSON object",
        'reads the array\'s indexes as field names and answers 403 for fields "0", "1"',
        "The error should name the mistake the user made.",
        (r"filter array",),
    ),
    Deviation(
        "sort-by-list",
        "400: a one-to-many or many-to-many field cannot be a sort key",
        "sorts by one arbitrary related row",
        "An order that depends on an arbitrary row is no order.",
        (r"sort \d+ events contacts",),
    ),
    Deviation(
        "random-sort",
        "`sort=?` sorts randomly (the spec)",
        "403 (Directus 12 has no random sort)",
        "The spec of the service names `?`; the toolkit never relies on it.",
        (r"sort \d+ events \?",),
    ),
    Deviation(
        "aggregate-functions",
        "400 naming the function: `countAll` and unknown functions are refused",
        "`countAll` answers `[{}]`; an unknown function answers 100 empty objects",
        "An answer without the number asked for looks like a result and is none.",
        (r"aggregate function .*",),
    ),
    Deviation(
        "aggregate-item",
        "400: `aggregate` and `groupBy` apply to the list route",
        'aggregates the one item (`{"data": {"count": "1"}}`)',
        "Counting one item by its id is never what a user means; the message says how to "
        "filter the list by id instead.",
        (r"aggregate on item route",),
    ),
    Deviation(
        "export",
        "400 naming `export`: download with the client and write files with "
        "`educatalog.snapshot.export` or pandas",
        "the rows as a CSV, JSON or XML file",
        "The toolkit writes files from typed frames (with the source and the census basis); "
        "a second file writer in the server would be a second truth.",
        (r"export (csv|json|xml)",),
    ),
    Deviation(
        "alias",
        "400 naming `alias`",
        "renames fields, with answers that depend on the combination (`data: [1, 2]` for "
        "`alias[title]=remarks&fields=title`)",
        "Renamed fields would not be the catalogue's; the client selects fields by name.",
        (r"alias",),
    ),
    Deviation(
        "functions",
        "400 naming the function (`year(...)`, `count(...)`, …) in fields, filter, sort and "
        "groupBy",
        "computes date parts and counts of related items",
        "Not implemented: group by a stored field instead, or compute date parts from the "
        "downloaded frame.",
        (r"function in .*",),
    ),
    Deviation(
        "deep-subqueries",
        "400: `deep` takes `_limit` only",
        "filters, sorts and pages each nested list (`deep[events][_filter]`, `_sort`, "
        "`_offset`, …)",
        "Not implemented: the toolkit downloads relations whole (link tables) and filters "
        "them in pandas; a refused option is better than a nested list that silently "
        "ignores it.",
        (r"deep subquery .*",),
    ),
    Deviation(
        "stable-sort",
        "every sort ends with `id`, so rows that tie come in id order and pages are stable",
        "ties come in the database's order, which may change between pages",
        "Paging through a sorted list must neither repeat nor skip rows. The comparison "
        "puts ties in id order on both sides, so this deviation has no failing case.",
        (),
    ),
)


def deviation_of(name: str) -> Deviation | None:
    """The deviation that covers the case called ``name``, if any."""
    return next((d for d in DEVIATIONS if d.covers(name)), None)
