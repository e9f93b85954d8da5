"""Where the data comes from: the configured service, or the embedded demo server.

>>> client = educatalog.connect()  # doctest: +SKIP

With ``EDUCATALOG_URL`` set, :func:`connect` returns a client of that service (token from
``EDUCATALOG_TOKEN``). Without it, it starts the reference server on the synthetic demo
catalogue in a background thread on a free loopback port, says so, and returns a client of
it. Demo servers are shared: calling again with the same seed and scale reuses the server.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

from educatalog.client import Client

__all__ = ["connect", "demo"]

_servers: dict[tuple[int | None, float], Any] = {}
_lock = threading.Lock()


_default_clients: dict[tuple[str, str | None], Client] = {}


def connect(**client_options: Any) -> Client:
    """A client of ``$EDUCATALOG_URL``, or of the embedded demo server when it is not set.

    Without options, the same client is returned for the same URL and token, so that
    calls such as ``educatalog.load(...)`` without ``client=`` share its connections.
    """
    url = os.environ.get("EDUCATALOG_URL")
    if not url:
        return demo(**client_options)
    if client_options:
        return Client(**client_options)
    return _shared_client(url, os.environ.get("EDUCATALOG_TOKEN") or None)


def demo(scale: float = 1.0, seed: int | None = None, **client_options: Any) -> Client:
    """A client of the embedded reference server on the synthetic demo catalogue.

    ``scale`` 1 is about 5,000 events, 200 about one million (built once, then cached).
    ``base_url`` and ``token`` are the demo server's own; other options go to the client.
    """
    from educatalog.server.demo import DEFAULT_SEED, DEMO_TOKEN
    from educatalog.server.embedded import start_demo_server

    client_options = {k: v for k, v in client_options.items() if k not in ("base_url", "token")}

    seed = DEFAULT_SEED if seed is None else seed
    with _lock:
        server = _servers.get((seed, scale))
        if server is None:
            server = _servers[(seed, scale)] = start_demo_server(seed, scale)
            print(
                f"educatalog: serving the SYNTHETIC demo catalogue (seed {seed}, scale "
                f"{scale:g}) at {server.url}; set EDUCATALOG_URL to use the real service.",
                file=sys.stderr,
            )
    if client_options:
        return Client(server.url, token=DEMO_TOKEN, **client_options)
    return _shared_client(server.url, DEMO_TOKEN)


def _shared_client(url: str, token: str | None) -> Client:
    """The one client without options of ``url`` and ``token`` (a new one once closed)."""
    with _lock:
        client = _default_clients.get((url, token))
        if client is None or client.closed:
            client = _default_clients[(url, token)] = Client(url, token=token)
    return client
