"""The reference server against Directus 12.4's recorded answers: runs in every `make test`.

`make conformance-directus RECORD=1` asks a real Directus on PostgreSQL every comparison case
and stores its normalised answers (`recorded/directus-12.4.0.json.gz`, with the moment each
was given, for `$NOW`). Here the reference server, serving the same rows with its clock set to
those moments, must give the same answers, except where `deviations.py` says otherwise.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from deviations import DEVIATIONS, deviation_of
from harness import ROOT, catalogue_rows
from queries import ALL_OPERATORS, NOT_OPERATORS, cases, iter_operators
from run import Clock, catalogue_digest, compare_recorded, load_recording, reference_server

from educatalog.model.schema import SCHEMA, FieldType


@pytest.fixture(scope="module")
def recording() -> dict:
    data = load_recording()
    assert data["catalogue_sha256"] == catalogue_digest(), (
        "the test catalogue changed since Directus's answers were recorded: record them "
        "again with `make conformance-directus RECORD=1`"
    )
    return data


def test_reference_server_answers_as_directus_did(recording: dict, tmp_path: Path) -> None:
    clock = Clock()
    with reference_server(tmp_path, clock) as url:
        report = compare_recorded(url, clock, recording)
    problems = report.problems()
    assert not problems, report.summary() + "\n" + "\n".join(problems)
    plain = [o for o in report.outcomes if deviation_of(o.case.name) is None]
    assert len(plain) >= 300


def test_cases_cover_the_query_language(recording: dict) -> None:
    """At least 300 requests over every operator and field type, every kind of relation,
    fields, sort, search, meta, paging, the item route and errors."""
    found = cases(catalogue_rows())
    assert len(found) >= 300
    assert set(ALL_OPERATORS) | set(NOT_OPERATORS[:2]) <= set(iter_operators(found))
    assert {"_some", "_none", "_and", "_or"} <= set(iter_operators(found))
    filtered_types = set()
    for case in found:
        for key, _ in case.params:
            if key == "filter" and case.name.startswith("op "):
                coll, field = case.name.split()[1].split(".")
                filtered_types.add(SCHEMA[coll].field(field).type)
    assert filtered_types == set(FieldType) - {FieldType.ALIAS}
    names = " ".join(c.name for c in found)
    for part in ("m2o", "o2m", "m2m", "fields", "sort", "search", "meta", "paging", "item", "now"):
        assert part in names, part
    answers = recording["answers"]
    statuses = Counter(answers[c.key]["answer"]["status"] for c in found)
    assert {200, 400, 401, 403, 404} <= set(statuses), statuses
    assert statuses[200] >= 300, statuses


def test_every_listed_deviation_has_a_case_and_a_row_in_the_docs() -> None:
    names = [c.name for c in cases(catalogue_rows())]
    doc = (ROOT / "docs" / "directus.md").read_text()
    for deviation in DEVIATIONS:
        assert f"`{deviation.id}`" in doc, f"docs/directus.md has no row for {deviation.id}"
        for pattern in deviation.cases:
            assert any(deviation.covers(n) for n in names), (deviation.id, pattern)


def test_recording_is_of_real_directus(recording: dict) -> None:
    assert recording["directus"] == "12.4.0"
    assert recording["database"] == "PostgreSQL"
    # A Directus answer looks like one: errors carry Directus's codes.
    codes = {
        a["answer"].get("code") for a in recording["answers"].values() if "code" in a["answer"]
    }
    assert {"INVALID_QUERY", "FORBIDDEN", "INVALID_CREDENTIALS", "ROUTE_NOT_FOUND"} <= codes
    assert json.dumps(recording).count("INTERNAL_SERVER_ERROR") >= 3  # Directus's own 500s
