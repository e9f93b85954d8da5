"""The OpenAPI 3.0 document of the service, generated from the catalogue."""

from __future__ import annotations

from typing import Any

from educatalog.model.schema import Collection, Field, FieldType, Schema

__all__ = ["openapi_document"]

_SCHEMAS: dict[FieldType, dict[str, Any]] = {
    FieldType.INTEGER: {"type": "integer"},
    FieldType.STRING: {"type": "string"},
    FieldType.UUID: {"type": "string", "format": "uuid"},
    # Naive local time, as Directus writes a `dateTime` field: no zone, no fraction (OpenAPI's
    # "date-time" would promise a zone).
    FieldType.DATETIME: {
        "type": "string",
        "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$",
        "example": "2025-03-01T09:00:00",
        "description": "Local time without zone: YYYY-MM-DDTHH:MM:SS.",
    },
    FieldType.BOOLEAN: {"type": "boolean"},
    FieldType.DECIMAL: {
        "type": "string",
        "pattern": r"^-?\d+\.\d+$",
        "example": "1490.00",
        "description": "A decimal number as text, with the field's scale.",
    },
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
    {"$ref": "#/components/parameters/Aggregate"},
    {"$ref": "#/components/parameters/GroupBy"},
    {"$ref": "#/components/parameters/Backlink"},
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


def _field_schema(f: Field, schema: Schema) -> dict[str, Any]:
    spec: dict[str, Any]
    if f.relation is None:
        spec = dict(_SCHEMAS[f.type])
    elif f.relation.kind == "m2o":
        ref = {"$ref": f"#/components/schemas/{_schema_name(schema[f.relation.related])}"}
        spec = {"oneOf": [{"type": "integer"}, ref]}
    else:
        ref = {"$ref": f"#/components/schemas/{_schema_name(schema[f.relation.related])}"}
        spec = {"type": "array", "items": {"oneOf": [{"type": "integer"}, ref]}}
    spec["nullable"] = f.relation is None or f.relation.kind == "m2o"
    if f.note:
        spec["description"] = f.note + (f" {spec['description']}" if "description" in spec else "")
    return spec


def _schema_name(coll: Collection) -> str:
    return "Items" + "".join(part.capitalize() for part in coll.name.split("_"))


def _ok(
    description: str, properties: dict[str, Any], required: list[str] | None = None
) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _error_response(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}},
    }


_SCHEMAS_SHARED: dict[str, Any] = {
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


def _error_responses() -> dict[str, Any]:
    return {
        "400": _error_response("Invalid query (INVALID_QUERY) or payload (INVALID_PAYLOAD)"),
        "401": _error_response("Unknown token (INVALID_CREDENTIALS)"),
        "403": _error_response("No token, unknown collection, field or item (FORBIDDEN)"),
        "404": _error_response("No such route (ROUTE_NOT_FOUND)"),
        "503": {
            **_error_response("The server is busy (SERVICE_UNAVAILABLE): retry after a moment"),
            "headers": {"Retry-After": {"schema": {"type": "integer"}}},
        },
    }


def openapi_document(schema: Schema) -> dict[str, Any]:
    """The OpenAPI document of every route, with one schema per collection."""
    paths: dict[str, Any] = {}
    schemas: dict[str, Any] = dict(_SCHEMAS_SHARED)
    for coll in schema.values():
        name = _schema_name(coll)
        schemas[name] = {
            "type": "object",
            "description": coll.note,
            "properties": {f.name: _field_schema(f, schema) for f in coll.fields},
        }
        paths.update(_collection_paths(coll, {"$ref": f"#/components/schemas/{name}"}))
    paths.update(_public_paths())
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
            "parameters": _parameters(),
        },
        "security": [{"bearer": []}],
    }


def _collection_paths(coll: Collection, ref: dict[str, Any]) -> dict[str, Any]:
    """The list route and the item route of one collection."""
    errors = _error_responses()
    listed = _ok(
        "A page of items (streamed for large answers; a body that ends with an `errors` list "
        "beside `data` was cut short by the server)",
        {
            "data": {"type": "array", "items": ref},
            "meta": {"$ref": "#/components/schemas/Meta"},
            "errors": {"$ref": "#/components/schemas/Errors/properties/errors"},
        },
        required=["data"],
    )
    item_parameters = [
        {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}},
        {"$ref": "#/components/parameters/Fields"},
        {"$ref": "#/components/parameters/Meta"},
        {"$ref": "#/components/parameters/Deep"},
    ]
    return {
        f"/items/{coll.name}": {
            "get": {
                "operationId": f"list_{coll.name}",
                "summary": f"List {coll.name}",
                "tags": [coll.name],
                "parameters": list(_LIST_PARAMETERS),
                "responses": {"200": listed, **errors},
            }
        },
        f"/items/{coll.name}/{{id}}": {
            "get": {
                "operationId": f"get_{coll.name}",
                "summary": f"Retrieve one item of {coll.name}",
                "tags": [coll.name],
                "parameters": item_parameters,
                "responses": {
                    "200": _ok("The item", {"data": ref}, required=["data"]),
                    **errors,
                },
            }
        },
    }


def _public_paths() -> dict[str, Any]:
    """The routes answered without a token: ping, the OpenAPI document, info."""
    public = {
        "ping": {"type": "string", "enum": ["pong"]},
        "openapi": {"type": "object", "required": ["openapi", "paths"]},
        "info": {
            "type": "object",
            "required": ["data"],
            "properties": {"data": {"type": "object"}},
        },
    }
    paths: dict[str, Any] = {}
    for path, operation, summary in _PUBLIC_ROUTES:
        content = {"application/json": {"schema": public[operation]}}
        paths[path] = {
            "get": {
                "operationId": operation,
                "summary": summary,
                "security": [],
                "responses": {"200": {"description": summary, "content": content}},
            }
        }
    return paths


def _parameters() -> dict[str, Any]:
    """The query parameters of the list and item routes."""
    return {
        "Fields": _query_param("fields", "Fields to return; dot notation, `*`.", "array"),
        "Filter": _json_param(
            "filter",
            "Filter object, as JSON (or in bracket form: `filter[field][_eq]=1`): "
            "field names map to objects of operators (`_eq`, `_in`, ...) or nested "
            "fields; `_and`/`_or` hold lists of such objects.",
            _FILTER_SCHEMA,
        ),
        "Sort": _query_param("sort", "Sort fields; `-` descends, `?` random.", "array"),
        "Search": _query_param("search", "Text to search in the item's fields.", "string"),
        "Limit": _query_param(
            "limit", "Items per page (default 100; -1 all).", "integer", minimum=-1
        ),
        "Offset": _query_param("offset", "Items to skip.", "integer", minimum=0),
        "Page": _query_param("page", "1-indexed page number.", "integer", minimum=0),
        "Meta": {
            "name": "meta",
            "in": "query",
            "description": "Counts to add: total_count, filter_count or * (both); empty: none.",
            "schema": {
                "type": "array",
                "items": {"type": "string", "enum": ["total_count", "filter_count", "*", ""]},
            },
            "style": "form",
            "explode": False,
        },
        "Deep": _json_param(
            "deep",
            "Per-relation options, as JSON: relation names map to objects holding "
            "`_limit` (the nested cap; -1 for all) and nested relations.",
            _DEEP_SCHEMA,
        ),
        "Aggregate": _json_param(
            "aggregate",
            "Aggregate functions, as JSON (or in bracket form: `aggregate[count]=*`): count, "
            "countDistinct, sum, sumDistinct, avg, avgDistinct, min, max, each mapped to "
            "fields (`*` for counts). The answer is rows of groups instead of items.",
            {"type": "object", "additionalProperties": {"type": "string"}},
        ),
        "GroupBy": _query_param(
            "groupBy", "Fields to group by (with `aggregate`, or alone: distinct values).", "array"
        ),
        "Backlink": _query_param(
            "backlink",
            "`false`: a `*.*` expansion leaves the relation it came through unexpanded "
            "(any other value: expanded, as without it).",
            "string",
        ),
    }


_FILTER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "A field name, `_and` or `_or` per key.",
    "properties": {
        "_and": {"type": "array", "items": {"type": "object"}},
        "_or": {"type": "array", "items": {"type": "object"}},
    },
    "additionalProperties": {"type": "object"},
}

_DEEP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"_limit": {"type": "integer", "minimum": -1}},
    "additionalProperties": {"type": "object"},
}


def _json_param(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "description": description,
        "content": {"application/json": {"schema": schema}},
    }


def _query_param(
    name: str, description: str, kind: str, minimum: int | None = None
) -> dict[str, Any]:
    schema: dict[str, Any] = (
        {"type": "array", "items": {"type": "string"}} if kind == "array" else {"type": kind}
    )
    if minimum is not None:
        schema["minimum"] = minimum
    param: dict[str, Any] = {"name": name, "in": "query", "description": description}
    param["schema"] = schema
    if kind == "array":
        param.update(style="form", explode=False)
    return param
