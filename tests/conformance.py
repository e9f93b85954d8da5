"""What the conformance suite's tests share: the clock and tokens of its servers, the
hand-made catalogue (``server/records/small.json``), and :class:`Api`, a client of one
running server that checks every answer against the independent oracle
(``tests/oracle.py``).

The servers themselves are fixtures: ``demo``, ``small``, ``capped`` and ``anonymous`` in
``tests/server/conftest.py``; the databases they serve come from the ``databases`` fixture
of ``tests/conftest.py``.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from oracle import Oracle, OracleError, encode_params

Records = dict[str, list[dict[str, Any]]]

TEST_TOKEN = "conformance-test-token"
LIMIT_MAX = 120
CLOCK = dt.datetime(2025, 3, 31, 8, 0, 0, 250_000)
"""The servers' local time: the end of a month, with milliseconds (so ``_eq`` never hits it)."""

SMALL_RECORDS = Path(__file__).parent / "server" / "records" / "small.json"


@functools.cache
def _small_text() -> str:
    return SMALL_RECORDS.read_text(encoding="utf-8")


def small_records() -> Records:
    """The small catalogue made by hand (a fresh copy): every type with nulls, tricky text
    (ß, the Kelvin sign, ``%`` and ``_``), dangling references, an event with 150 contacts
    and a course with 120 events (nested caps and ``deep``). Collections it leaves out are
    empty."""
    records: Records = json.loads(_small_text())
    return records


def serve_url(database: Path, token: str, limit_max: int | None = None) -> Iterator[str]:
    """A server of ``database`` (the project's own plugin's ``serve``) on the suite's clock;
    yields its URL."""
    from educatalog.testing import serve

    with serve(database=database, token=token, limit_max=limit_max, clock=lambda: CLOCK) as server:
        yield server.url


def _show(response: httpx.Response) -> str:
    return f"{response.request.method} {response.request.url} -> {response.status_code}"


@dataclass
class Api:
    """A client of one running server, with the oracle of its data."""

    client: httpx.Client
    oracle: Oracle
    limit_max: int | None = None

    def get(self, path: str, params: Sequence[tuple[str, str]] | None = None) -> httpx.Response:
        response = self.client.get(path, params=list(params) if params is not None else None)
        assert response.status_code != 500, f"{_show(response)}: {response.text[:500]}"
        assert response.headers["content-type"].startswith("application/json"), _show(response)
        return response

    def raw(self, path_and_query: str) -> httpx.Response:
        """A request with a query string sent exactly as written."""
        return self.get(path_and_query)

    def expected(self, collection: str, params: Mapping[str, Any] | None = None) -> Any:
        return self.oracle.list(collection, params, limit_max=self.limit_max)

    def check(self, collection: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The server's answer to a list query equals the oracle's; returns the body."""
        expected = self.expected(collection, params)
        response = self.get(f"/items/{collection}", encode_params(params or {}))
        assert response.status_code == 200, f"{_show(response)}: {response.text[:500]}"
        body = response.json()
        assert body == expected, _show(response)
        return body

    def check_query(
        self, collection: str, query: str, params: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        """A raw query string is answered as the oracle answers ``params``."""
        expected = self.expected(collection, params)
        response = self.raw(f"/items/{collection}?{query}")
        assert response.status_code == 200, f"{_show(response)}: {response.text[:500]}"
        assert response.json() == expected, _show(response)
        return expected

    def check_item(
        self, collection: str, item_id: Any, params: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        expected = self.oracle.item(collection, item_id, params)
        response = self.get(f"/items/{collection}/{item_id}", encode_params(params or {}))
        assert response.status_code == 200, f"{_show(response)}: {response.text[:500]}"
        assert response.json() == expected, _show(response)
        return expected

    def check_error(
        self,
        collection: str,
        params: Mapping[str, Any] | None = None,
        *,
        status: int,
        code: str,
        mentions: str | None = None,
    ) -> None:
        """The oracle and the server both refuse the query with ``status`` and ``code``."""
        with pytest.raises(OracleError) as info:
            self.expected(collection, params)
        assert (info.value.status, info.value.code) == (status, code), "oracle disagrees"
        response = self.get(f"/items/{collection}", encode_params(params or {}))
        assert_error(response, status, code, mentions)


def assert_error(
    response: httpx.Response, status: int, code: str, mentions: str | None = None
) -> None:
    """A Directus-shaped error body with ``status`` and ``code``, as JSON."""
    assert response.status_code == status, f"{_show(response)}: {response.text[:500]}"
    assert response.headers["content-type"].startswith("application/json"), _show(response)
    body = response.json()
    assert isinstance(body, dict), body
    assert set(body) == {"errors"}, body
    errors = body["errors"]
    assert isinstance(errors, list), body
    assert errors, body
    assert errors[0]["extensions"]["code"] == code, body
    assert isinstance(errors[0]["message"], str), body
    assert errors[0]["message"], body
    if mentions is not None:
        assert mentions in errors[0]["message"], body
