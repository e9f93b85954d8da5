"""What the client and the reference server say to each other beyond Directus's own API: the
words of the wire, written once for both halves.

The reference server answers ``/server/info`` with :data:`REFERENCE_SERVER` as its
``project_name`` and marks every answer on the demo catalogue with the header
:data:`DEMO_HEADER` set to :data:`DEMO_DATA`; the client reads both to tell a reader that
what they see is synthetic. A real Directus sends neither.

>>> response.headers.get(DEMO_HEADER) == DEMO_DATA  # doctest: +SKIP
True
"""

from __future__ import annotations

__all__ = ["DEMO_DATA", "DEMO_HEADER", "INFO_PATH", "PING_PATH", "REFERENCE_SERVER"]

REFERENCE_SERVER = "educatalog reference server"
"""The ``project_name`` in ``/server/info`` of educatalog's own reference server."""

DEMO_HEADER = "X-Educatalog-Data"
"""The header every answer of a reference server on the demo catalogue carries."""

DEMO_DATA = "synthetic-demo"
"""The value of :data:`DEMO_HEADER`: the data are the synthetic demo catalogue."""

INFO_PATH = "/server/info"
"""What the service says of itself (the reference server adds an ``educatalog`` object)."""

PING_PATH = "/server/ping"
"""Whether the service is up: ``pong``."""
