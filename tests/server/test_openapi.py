"""The OpenAPI document served at /server/specs/oas is valid and describes every route."""

from __future__ import annotations

from pathlib import Path

import httpx
from openapi_spec_validator import validate

from educatalog.model.schema import SCHEMA, FieldType
from educatalog.testing import build_test_database, serve


def test_document_is_valid_and_complete(tmp_path: Path) -> None:
    db = build_test_database(tmp_path / "db.sqlite", {}, references=False)
    with serve(database=db, token="t") as server:
        response = httpx.get(server.url + "/server/specs/oas")  # public, like /server/ping
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    spec = response.json()
    validate(spec)
    for name, coll in SCHEMA.items():
        assert f"/items/{name}" in spec["paths"]
        assert f"/items/{name}/{{id}}" in spec["paths"]
        schema = next(
            s for s in spec["components"]["schemas"].values() if s.get("description") == coll.note
        )
        assert list(schema["properties"]) == list(coll.field_names)
        for f in coll.fields:
            prop = schema["properties"][f.name]
            if f.type is FieldType.DECIMAL:
                assert prop["type"] == "string"  # money comes as "1490.00"
            if f.relation is not None and f.relation.is_list:
                assert prop["type"] == "array"
