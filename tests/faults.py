"""Faults to inject between a client and the reference server, for the client tests."""

from __future__ import annotations

import random
from collections.abc import Callable

import httpx

__all__ = ["Fault", "random_faults"]

Fault = Callable[[httpx.Request, int], httpx.Response | None]
"""Given a request and its call number: a response to give instead, None to pass it on, or
an httpx error raised."""


def random_faults(seed: int) -> Fault:
    """About 30 % of requests fail at random: 429, 5xx, a reset, a timeout, a cut body."""
    rng = random.Random(seed)

    def fault(request: httpx.Request, call: int) -> httpx.Response | None:
        roll = rng.random()
        if roll < 0.08:
            return httpx.Response(429, headers={"Retry-After": "0"}, request=request)
        if roll < 0.16:
            return httpx.Response(rng.choice([500, 502, 503]), request=request)
        if roll < 0.22:
            raise httpx.ConnectError("connection reset by fault injection", request=request)
        if roll < 0.26:
            raise httpx.ReadTimeout("timed out by fault injection", request=request)
        if roll < 0.30:
            return httpx.Response(200, content=b'{"data": [{"id": 1', request=request)
        return None

    return fault
