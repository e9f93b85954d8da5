"""Rows as the service sends them: every row of some collections over plain HTTP
(``limit=-1``), for the tests that count by hand what educatalog counts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx


def raw_rows(url: str, token: str, fields: Mapping[str, str]) -> dict[str, list[dict[str, Any]]]:
    """``{collection: rows}`` for each collection of ``fields`` (its ``fields`` parameter)."""
    out = {}
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}) as http:
        for name, wanted in fields.items():
            answer = http.get(f"/items/{name}", params={"fields": wanted, "limit": -1})
            answer.raise_for_status()
            out[name] = answer.json()["data"]
    return out
