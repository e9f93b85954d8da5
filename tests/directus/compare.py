"""Asking a server a comparison case, and the normalised answer two servers must agree on.

An answer is normalised to what a client can rely on: the status; for an error, the error
code of Directus's body (messages are free text); for data, the ``data`` and ``meta``
values. Where the order of rows is not defined by the request (``sort=?``), rows are
compared as a set; rows that tie under the sort (groups: by default the first grouped
field) in a canonical order.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from queries import Case

BAD_TOKEN = "no-such-token"


def request_parts(case: Case, token: str) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """The query parameters and headers of ``case``, authenticated as ``case.auth`` says."""
    params = list(case.params)
    headers = {}
    if case.auth == "reader":
        headers["Authorization"] = f"Bearer {token}"
    elif case.auth == "query":
        params.append(("access_token", token))
    elif case.auth == "bad":
        headers["Authorization"] = f"Bearer {BAD_TOKEN}"
    return params, headers


def ask(client: httpx.Client, case: Case, token: str) -> httpx.Response:
    """Send ``case`` to the server ``client`` points at, authenticated as ``case.auth`` says."""
    params, headers = request_parts(case, token)
    return client.get(case.path, params=params, headers=headers)


def normalise(case: Case, status: int, body: bytes) -> dict[str, Any]:
    """What must be equal between the two servers' answers to ``case``."""
    try:
        content = json.loads(body)
    except ValueError:
        return {"status": status, "body": "not JSON"}
    if status >= 400 or not isinstance(content, dict) or "data" not in content:
        errors = content.get("errors") if isinstance(content, dict) else None
        code = None
        if isinstance(errors, list) and errors and isinstance(errors[0], dict):
            code = (errors[0].get("extensions") or {}).get("code")
        return {"status": status, "code": code}
    data = content["data"]
    sort = [p.strip() for k, v in case.params if k in ("sort", "sort[]") for p in v.split(",")]
    groups = [
        p.strip() for k, v in case.params if k in ("groupBy", "groupBy[]") for p in v.split(",")
    ]
    if groups and not sort:  # groups come in the order of the first grouped field
        sort = groups[:1]
    if isinstance(data, list) and sort:
        data = _ties_by_id(data, sort)
    out: dict[str, Any] = {"status": status, "data": data}
    if "meta" in content:
        out["meta"] = content["meta"]
    return out


def _ties_by_id(rows: list[Any], sort: list[str]) -> list[Any]:
    """Rows in a canonical order where the request leaves it open: within runs of equal sort
    values by id (the reference server always ends a sort with ``id``; Directus leaves ties
    to the database), and wholly by id under ``sort=?``."""
    if "?" in sort:
        return sorted(rows, key=lambda row: json.dumps(row, sort_keys=True))
    paths = [key.lstrip("-").split(".") for key in sort]

    def value(row: Any, path: list[str]) -> Any:
        for part in path:
            row = row.get(part) if isinstance(row, dict) else None
        return row

    out: list[Any] = []
    run: list[Any] = []
    last: Any = object()
    for row in rows:
        key = [value(row, p) for p in paths] if isinstance(row, dict) else row
        if key != last and run:
            out.extend(sorted(run, key=lambda r: json.dumps(r, sort_keys=True)))
            run = []
        run.append(row)
        last = key
    out.extend(sorted(run, key=lambda r: json.dumps(r, sort_keys=True)))
    return out


def describe(a: dict[str, Any], b: dict[str, Any]) -> str:
    """A short account of how two normalised answers differ."""
    if a.get("status") != b.get("status") or "data" not in a or "data" not in b:
        return f"{_brief(a)} vs {_brief(b)}"
    parts = []
    if a.get("meta") != b.get("meta"):
        parts.append(f"meta {a.get('meta')} vs {b.get('meta')}")
    da, db = a["data"], b["data"]
    if isinstance(da, list) and isinstance(db, list):
        ids_a = [r.get("id") if isinstance(r, dict) else r for r in da]
        ids_b = [r.get("id") if isinstance(r, dict) else r for r in db]
        if ids_a != ids_b:
            only_a = sorted(set(map(str, ids_a)) - set(map(str, ids_b)))[:8]
            only_b = sorted(set(map(str, ids_b)) - set(map(str, ids_a)))[:8]
            parts.append(
                f"{len(da)} vs {len(db)} rows; only first {only_a}; only second {only_b}"
                + ("; same ids, other order" if not only_a and not only_b else "")
            )
        else:
            for ra, rb in zip(da, db, strict=True):
                if ra != rb:
                    keys = sorted(k for k in {*ra, *rb} if ra.get(k) != rb.get(k))
                    parts.append(
                        f"row {ra.get('id')}: "
                        + "; ".join(f"{k}: {ra.get(k)!r:.80} vs {rb.get(k)!r:.80}" for k in keys)
                    )
                    break
    elif da != db:
        parts.append(f"{json.dumps(da)[:300]} vs {json.dumps(db)[:300]}")
    return " | ".join(parts) or "equal"


def _brief(a: dict[str, Any]) -> str:
    if "data" in a:
        n = len(a["data"]) if isinstance(a["data"], list) else 1
        return f"{a['status']} ({n} rows)"
    return f"{a['status']} {a.get('code') or a.get('body')}"
