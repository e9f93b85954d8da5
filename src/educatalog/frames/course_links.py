"""What a course has several of, as rows of the offers frame: funding types, subjects (the
KURSNET systematics) and degrees.

``offers(funding=True)``, ``offers(subjects=True)`` and ``offers(degrees=True)`` (any of them
together) repeat each event once per value of its course; an event of a course without any
keeps one row with the columns missing ("ohne Angabe"). Statistics count distinct events,
courses and providers, so a course in two subject areas counts once in each and once in the
total. Definitions: ``docs/definitions.md`` ("Subjects and degrees").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np
import pandas as pd

__all__ = [
    "DEGREE_TABLES",
    "DEGREE_TYPES",
    "FUNDING_TABLES",
    "SUBJECT_COLUMNS",
    "SUBJECT_TABLES",
    "subject_levels",
    "subject_rows",
    "with_course_rows",
    "with_degrees",
    "with_funding",
    "with_subjects",
]

FUNDING_TABLES = (
    "courses_funding_types_federals",
    "courses_funding_types_regions",
    "funding_types_federals",
    "funding_types_regions",
)
"""The tables ``offers(funding=True)`` needs."""
SUBJECT_TABLES = ("courses_systematics", "systematics")
"""The tables ``offers(subjects=True)`` needs."""
DEGREE_TABLES = ("course_degrees",)
"""The tables ``offers(degrees=True)`` needs."""

SUBJECT_COLUMNS = (
    "subject",
    "subject_code",
    "subject_area",
    "subject_area_code",
    "subject_group",
    "subject_group_code",
    "subject_id",
)
"""The columns ``offers(subjects=True)`` adds: the subject (a leaf of the systematics), its
area (second level) and group (top level), each as label and code, and the raw id."""

DEGREE_TYPES: dict[int, str] = {
    0: "öffentlich-rechtlich anerkannt",
    1: "Kompetenznachweis",
    2: "Herstellerzertifikat",
    3: "Anbieterzertifikat",
}
"""The ``degree_type`` of ``course_degrees`` (the spec's 0 publicly recognised, 1 certificate
of competence, 2 vendor certificate, 3 provider certificate), as labels in this order."""


class Tables(Protocol):
    """The catalogue's tables by name and its reference labels."""

    def __getitem__(self, name: str, /) -> pd.DataFrame: ...

    def labels(self, reference: str) -> pd.Series[Any]: ...


def with_course_rows(offers: pd.DataFrame, values: pd.DataFrame) -> pd.DataFrame:
    """``offers`` with one row per event and row of ``values`` of its course (``values``:
    ``course_id`` and the columns to add); events of courses without any keep one row with
    the added columns missing. Categoricals stay categoricals."""
    # Join the small key columns only, then repeat the offers' rows by position: merging
    # the whole wide frame would copy every column through pandas' join machinery.
    keys = pd.DataFrame({"course_id": offers["course_id"], "_row": np.arange(len(offers))})
    values = values.assign(course_id=values["course_id"].astype("Int64"))
    pairs = keys.merge(values, on="course_id", how="left", sort=False)
    merged = offers.take(pairs["_row"].to_numpy()).reset_index(drop=True)
    for column in values.columns:
        if column != "course_id":
            merged[column] = pairs[column].array
    merged.attrs = dict(offers.attrs)
    return merged


def with_funding(offers: pd.DataFrame, catalogue: Tables) -> pd.DataFrame:
    """One row per event and funding type: ``funding_type`` and ``funding_level``
    ("federal" or "regional")."""
    parts = []
    for level, links, reference in (
        ("federal", "courses_funding_types_federals", "funding_types_federals"),
        ("regional", "courses_funding_types_regions", "funding_types_regions"),
    ):
        table = catalogue[links]
        course_col, type_col = _link_columns(table)
        names = catalogue.labels(reference)
        parts.append(
            pd.DataFrame(
                {
                    "course_id": table[course_col].astype("Int64"),
                    "funding_type": table[type_col].map(_as_mapping(names)).astype("string"),
                    "funding_level": level,
                }
            )
        )
    funding = pd.concat(parts, ignore_index=True).drop_duplicates()
    order = list(
        dict.fromkeys(
            [
                *catalogue.labels("funding_types_federals"),
                *catalogue.labels("funding_types_regions"),
            ]
        )
    )
    funding["funding_type"] = pd.Categorical(funding["funding_type"], categories=order)
    funding["funding_level"] = pd.Categorical(
        funding["funding_level"], categories=["federal", "regional"]
    )
    return with_course_rows(offers, funding)


def subject_levels(systematics: pd.DataFrame) -> pd.DataFrame:
    """Each node of the systematics (index ``id``) with ``level`` (1 the top group, 2 the
    area, 3 and deeper the subjects), its own ``code`` and ``name`` and the ids of its
    ``group`` and ``area`` (missing above them); a node whose parents form a loop or end
    in an unknown id has no group (level missing)."""
    nodes = systematics.drop_duplicates("id").set_index("id")
    parent = nodes["parent"].astype("Int64") if "parent" in nodes else pd.Series(pd.NA)
    chains: dict[int, list[int]] = {}
    for node in nodes.index:
        chain = [int(node)]
        while True:
            up = parent.get(chain[-1], pd.NA)
            if pd.isna(up):
                break
            if int(up) in chain or int(up) not in nodes.index:
                chain = []  # a loop or a dangling parent: no place in the tree
                break
            chain.append(int(up))
        chains[int(node)] = chain[::-1]  # top group first

    def at(chain: list[int], position: int) -> int | None:
        return chain[position] if len(chain) > position else None

    out = pd.DataFrame(index=nodes.index)
    listed = [chains[int(i)] for i in nodes.index]
    out["level"] = pd.Series([len(c) or None for c in listed], index=nodes.index, dtype="Int64")
    out["group"] = pd.Series([at(c, 0) for c in listed], index=nodes.index, dtype="Int64")
    out["area"] = pd.Series([at(c, 1) for c in listed], index=nodes.index, dtype="Int64")
    out["code"] = nodes["code"].astype("string") if "code" in nodes else pd.NA
    out["name"] = nodes["name"].astype("string") if "name" in nodes else pd.NA
    return out


def with_subjects(offers: pd.DataFrame, catalogue: Tables) -> pd.DataFrame:
    """One row per event and subject of its course (:data:`SUBJECT_COLUMNS`; see
    :func:`subject_rows`)."""
    return with_course_rows(offers, subject_rows(catalogue))


def subject_rows(catalogue: Tables) -> pd.DataFrame:
    """The subjects of each course: ``course_id`` and :data:`SUBJECT_COLUMNS`, one row per
    course and subject. A course's subjects are its links to the systematics, each node
    that is no ancestor of another of its links (a course linked to "C 14" and to its leaf
    "C 1435-10-10" has the one subject, the leaf). A link to an area or group gives that
    level and leaves the levels below missing; an id missing from the systematics stays
    visible as ``subject_id`` with no labels."""
    links = catalogue["courses_systematics"]
    course_col, node_col = _link_columns(links)
    pairs = (
        pd.DataFrame(
            {"course_id": links[course_col].astype("Int64"), "id": links[node_col].astype("Int64")}
        )
        .dropna()
        .drop_duplicates()
    )
    tree = subject_levels(catalogue["systematics"])
    ancestors: dict[int, set[int]] = {
        int(i): {int(v) for v in (group, area) if not pd.isna(v) and int(v) != int(i)}
        for i, group, area in zip(tree.index, tree["group"], tree["area"], strict=True)
    }
    by_course: dict[int, set[int]] = {}
    for course, node in pairs.itertuples(index=False):
        by_course.setdefault(int(course), set()).add(int(node))
    kept = [
        (course, node)
        for course, nodes in by_course.items()
        for node in sorted(nodes)
        if not any(node in ancestors.get(other, ()) for other in nodes)
    ]
    rows = pd.DataFrame(kept, columns=["course_id", "subject_id"]).astype("Int64")
    at = tree.reindex(rows["subject_id"].astype("int64"))
    order = list(tree.index)  # the reference list's order
    level_of = {
        int(i): (None if pd.isna(v) else int(v))
        for i, v in zip(tree.index, tree["level"], strict=True)
    }
    leaf = at["level"] >= 3
    own = rows["subject_id"].where(leaf.fillna(False).to_numpy())
    values = {"subject": own, "subject_area": at["area"], "subject_group": at["group"]}
    out = rows[["course_id"]].copy()
    for column, ids in values.items():
        levels = [i for i in order if _is_level(level_of[int(i)], column)]
        out[column] = _labels(ids, tree["name"], levels)
        out[f"{column}_code"] = _labels(ids, tree["code"], levels)
    out["subject_id"] = rows["subject_id"].to_numpy()
    return out


def _is_level(level: int | None, column: str) -> bool:
    """Whether a node of ``level`` is a value of ``column`` (group 1, area 2, subject 3+)."""
    if level is None:
        return False
    return {"subject_group": level == 1, "subject_area": level == 2}.get(column, level >= 3)


def _labels(ids: pd.Series, names: pd.Series, levels: list[Any]) -> pd.Categorical:
    """Categorical labels of node ids, categories the nodes of ``levels`` in list order;
    a name two nodes share gets its code, so that both stay apart."""
    texts = (
        names.reindex(levels)
        .astype("string")
        .fillna(pd.Series(levels, index=levels).astype("string"))
    )
    counts = texts.value_counts()
    unique = [f"{t} ({i})" if counts[t] > 1 else str(t) for i, t in texts.items()]
    by_id = dict(zip(levels, unique, strict=True))
    values = [by_id.get(int(i)) if not pd.isna(i) else None for i in ids]
    return pd.Categorical(values, categories=list(dict.fromkeys(unique)))


def with_degrees(offers: pd.DataFrame, catalogue: Tables) -> pd.DataFrame:
    """One row per event and degree type of its course: ``degree_type`` (labels of
    :data:`DEGREE_TYPES`, in their order) and ``degree_type_id`` (the raw value; one
    outside 0–3 stays visible there with no label). A course with two degrees of one type
    has one row for it."""
    degrees = catalogue["course_degrees"]
    raw = (
        pd.DataFrame(
            {
                "course_id": degrees.get("course", pd.Series(dtype="Int64")).astype("Int64"),
                "degree_type_id": degrees.get("degree_type", pd.Series(dtype="Int64")).astype(
                    "Int64"
                ),
            }
        )
        .dropna(subset=["course_id"])
        .drop_duplicates()
    )
    labels = raw["degree_type_id"].map(DEGREE_TYPES)
    kinds = pd.CategoricalDtype(list(DEGREE_TYPES.values()))
    raw.insert(1, "degree_type", labels.astype(kinds))
    return with_course_rows(offers, raw)


def _link_columns(junction: pd.DataFrame) -> tuple[str, str]:
    """The two foreign keys of a junction table (``courses_id`` and the other's), whatever
    else it holds (its own ``id``)."""
    keys = [str(c) for c in junction.columns if str(c) != "id"]
    course = "courses_id" if "courses_id" in keys else keys[0]
    return course, next(k for k in keys if k != course)


def _as_mapping(labels: pd.Series) -> Mapping[int, str]:
    ids = labels.index.to_numpy(dtype="int64")
    return {int(i): str(v) for i, v in zip(ids, labels.to_numpy(), strict=True)}
