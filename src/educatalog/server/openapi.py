"""The OpenAPI 3.0 document of the service, generated from the catalogue."""

from __future__ import annotations

from typing import Any

from educatalog.catalogue import Collection, Field, FieldType, Schema

__all__ = ["openapi_document"]

_SCHEMAS: dict[FieldType, dict[str, Any]] = {
    FieldType.INTEGER: {"type": "integer"},
    FieldType.STRING: {"type": "string"},
    FieldType.UUID: {"type": "string", "format": "uuid"},
    FieldType.DATETIME: {"type": "string", "format": "date-time", "example": "2025-03-01T09:00:00"},
    FieldType.BOOLEAN: {"type": "boolean"},
    FieldType.DECIMAL: {"type": "string", "format": "decimal", "example": "1490.00"},
}

_LIST_PARAMETERS: list[dict[str, Any]] = [
    {"$ref": "#/components/parameters/Fields"},
    {"$ref": "#/components/parameters/Filter"},
    {"$ref": "#/components/parameters/Sort"},
    {"$ref": "#/components/parameters/Search"},
    {"$ref": "#/components/parameters/Limit"},
    {"$ref": "#/components/parameters/Offset"},
    {"$ref": "#/components/parameters/Page"},
    {"$ref": "#/components/parameters/Meta"},
    {"$ref": "#/components/parameters/Deep"},
]


_PUBLIC_ROUTES = (
    ("/server/ping", "ping", "Is the server up? (answers pong)"),
    ("/server/specs/oas", "openapi", "This OpenAPI document"),
    (
        "/server/info",
        "info",
        "What this server serves (demo catalogue, seed, scale, limit maximum)",
    ),
)


def _field_schema(f: Field, catalogue: Schema) -> dict[str, Any]:
    schema: dict[str, Any]
    if f.relation is None:
        schema = dict(_SCHEMAS[f.type])
    elif f.relation.kind == "m2o":
        ref = {"$ref": f"#/components/schemas/{_schema_name(catalogue[f.relation.related])}"}
        schema = {"oneOf": [{"type": "integer"}, ref]}
    else:
        ref = {"$ref": f"#/components/schemas/{_schema_name(catalogue[f.relation.related])}"}
        schema = {"type": "array", "items": {"oneOf": [{"type": "integer"}, ref]}}
    schema["nullable"] = f.relation is None or f.relation.kind == "m2o"
    if f.note:
        schema["description"] = f.note
    return schema


def _schema_name(coll: Collection) -> str:
    return "Items" + "".join(part.capitalize() for part in coll.name.split("_"))


def _ok(description: str, properties: dict[str, Any]) -> dict[str, Any]:
    schema = {"type": "object", "properties": properties}
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _error_response(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}},
    }


def openapi_document(catalogue: Schema) -> dict[str, Any]:
    """The OpenAPI document of every route, with one schema per collection."""
    paths: dict[str, Any] = {}
    schemas: dict[str, Any] = {
        "Errors": {
            "type": "object",
            "properties": {
                "errors": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "message": {"type": "string"},
                            "extensions": {
                                "type": "object",
                                "properties": {"code": {"type": "string"}},
                            },
                        },
                    },
                }
            },
        },
        "Meta": {
            "type": "object",
            "properties": {
                "total_count": {"type": "integer"},
                "filter_count": {"type": "integer"},
            },
        },
    }
    errors = {
        "400": _error_response("Invalid query (INVALID_QUERY) or payload (INVALID_PAYLOAD)"),
        "401": _error_response("Unknown token (INVALID_CREDENTIALS)"),
        "403": _error_response("No token, unknown collection, field or item (FORBIDDEN)"),
    }
    for coll in catalogue.values():
        name = _schema_name(coll)
        schemas[name] = {
            "type": "object",
            "description": coll.note,
            "properties": {f.name: _field_schema(f, catalogue) for f in coll.fields},
        }
        ref = {"$ref": f"#/components/schemas/{name}"}
        tag = coll.name
        paths[f"/items/{coll.name}"] = {
            "get": {
                "operationId": f"list_{coll.name}",
                "summary": f"List {coll.name}",
                "tags": [tag],
                "parameters": list(_LIST_PARAMETERS),
                "responses": {
                    "200": _ok(
                        "A page of items",
                        {
                            "data": {"type": "array", "items": ref},
                            "meta": {"$ref": "#/components/schemas/Meta"},
                        },
                    ),
                    **errors,
                },
            }
        }
        paths[f"/items/{coll.name}/{{id}}"] = {
            "get": {
                "operationId": f"get_{coll.name}",
                "summary": f"Retrieve one item of {coll.name}",
                "tags": [tag],
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}},
                    {"$ref": "#/components/parameters/Fields"},
                    {"$ref": "#/components/parameters/Meta"},
                    {"$ref": "#/components/parameters/Deep"},
                ],
                "responses": {"200": _ok("The item", {"data": ref}), **errors},
            }
        }
    for path, operation, summary in _PUBLIC_ROUTES:
        paths[path] = {
            "get": {
                "operationId": operation,
                "summary": summary,
                "security": [],
                "responses": {"200": {"description": summary}},
            }
        }
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "Educational Data Service (educatalog reference server)",
            "version": "1.0.0",
            "description": "Read-only catalogue interface: courses, events, contacts, "
            "addresses, costs, degrees, keywords and reference lists.",
        },
        "paths": paths,
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": schemas,
            "parameters": {
                "Fields": _query_param("fields", "Fields to return; dot notation, `*`.", "array"),
                "Filter": _query_param("filter", "Filter object (JSON).", "string"),
                "Sort": _query_param("sort", "Sort fields; `-` descends, `?` random.", "array"),
                "Search": _query_param("search", "Text to search in the item's fields.", "string"),
                "Limit": _query_param("limit", "Items per page (default 100; -1 all).", "integer"),
                "Offset": _query_param("offset", "Items to skip.", "integer"),
                "Page": _query_param("page", "1-indexed page number.", "integer"),
                "Meta": _query_param("meta", "total_count, filter_count or *.", "string"),
                "Deep": _query_param("deep", "Per-relation options such as _limit.", "string"),
            },
        },
        "security": [{"bearer": []}],
    }


def _query_param(name: str, description: str, kind: str) -> dict[str, Any]:
    schema: dict[str, Any] = (
        {"type": "array", "items": {"type": "string"}} if kind == "array" else {"type": kind}
    )
    param: dict[str, Any] = {"name": name, "in": "query", "description": description}
    param["schema"] = schema
    if kind == "array":
        param.update(style="form", explode=False)
    return param
