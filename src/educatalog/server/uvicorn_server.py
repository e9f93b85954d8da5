"""Run the reference server: in the foreground (the CLI) or in a background thread
(``educatalog.connect()``, notebooks and tests) on a free loopback port.

Both run uvicorn with :func:`server_config`: its HTTP protocol answers what uvicorn itself
would answer in plain text (a malformed request, a URL or headers too long, an unknown
method, raw non-ASCII bytes) with the service's JSON error, closes connections that do not
finish their request headers in time, and refuses connections beyond a cap with a JSON 503.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from types import TracebackType
from typing import Any

import orjson
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from educatalog.server.tuning import TUNING

__all__ = ["ServerThread", "server_config"]

log = logging.getLogger("educatalog.server")


def _error_response(
    status: int, reason: bytes, code: str, message: str, extra: bytes = b""
) -> bytes:
    body = orjson.dumps({"errors": [{"message": message, "extensions": {"code": code}}]})
    return (
        b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
        b"%sconnection: close\r\n\r\n" % (status, reason, len(body), extra)
    ) + body


_BAD_REQUEST = _error_response(
    400,
    b"Bad Request",
    "INVALID_PAYLOAD",
    "Invalid HTTP request: malformed, an unknown method, raw non-ASCII bytes in the URL, or "
    "a request line or headers too long.",
)
_BUSY = _error_response(
    503,
    b"Service Unavailable",
    "SERVICE_UNAVAILABLE",
    "The server has too many open connections; try again in a moment.",
    b"retry-after: 1\r\n",
)


def _hardened(base: type[asyncio.Protocol], header_timeout: float, max_connections: int) -> type:
    """``base`` (one of uvicorn's HTTP protocols) with JSON errors, a timeout for request
    headers and a cap on open connections."""

    # A class on a base chosen at run time: mypy cannot check a base held in a variable.
    class Hardened(base):  # type: ignore[valid-type,misc]
        _header_timer: asyncio.TimerHandle | None = None
        _counted: Any = None
        _received = 0

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                transport.write(_BUSY)
                transport.close()
                return
            self._arm_header_timer()

        def _arm_header_timer(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
            cycle = self.cycle
            self._header_timer = self.loop.call_later(header_timeout, self._headers_late, cycle)

        def _headers_late(self, cycle: Any) -> None:
            self._header_timer = None
            if self.cycle is cycle and not self.transport.is_closing():
                self.transport.close()  # no new request began in time

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm_header_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            # Bytes since the last request began: its line and headers (httptools itself
            # would take any length).
            cycle = self.cycle
            if cycle is not self._counted:
                self._counted, self._received = cycle, 0
            self._received += len(data)
            too_long = self._received > TUNING.max_header_bytes
            if too_long and (cycle is None or cycle.response_complete):
                self.send_400_response("Request line and headers too long.")
                return
            try:
                super().data_received(data)
            except Exception:  # uvicorn's own parsing failed (raw bytes it cannot decode)
                self.send_400_response("Invalid HTTP request received.")
            if self.cycle is not cycle:  # a request began: count afresh
                self._counted, self._received = self.cycle, 0

        def send_400_response(self, msg: str) -> None:
            if self.transport.is_closing():
                return
            cycle = self.cycle
            if cycle is not None and not cycle.response_started:
                cycle.disconnected = True  # the application's answer goes nowhere
            if cycle is None or cycle.response_complete or cycle.disconnected:
                self.transport.write(_BAD_REQUEST)
            self.transport.close()

    Hardened.__name__ = Hardened.__qualname__ = f"Hardened{base.__name__}"
    return Hardened


def http_protocol(
    header_timeout: float = TUNING.header_timeout,
    max_connections: int = TUNING.max_connections,
    implementation: str = "auto",
) -> type:
    """The HTTP protocol class to give uvicorn: httptools' when installed (or
    ``implementation="httptools"``), else h11's."""
    try:
        if implementation == "h11":
            raise ImportError
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return _hardened(H11Protocol, header_timeout, max_connections)
    return _hardened(HttpToolsProtocol, header_timeout, max_connections)


def server_config(
    app: Any,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    header_timeout: float = TUNING.header_timeout,
    max_connections: int = TUNING.max_connections,
    http: str = "auto",
    **options: Any,
) -> uvicorn.Config:
    """uvicorn's configuration for the reference server (see the module's docstring);
    ``http`` chooses the HTTP implementation: ``auto``, ``httptools`` or ``h11``."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=http_protocol(header_timeout, max_connections, http),
        log_level="warning",
        access_log=False,
        lifespan="off",
        timeout_keep_alive=5,
        h11_max_incomplete_event_size=TUNING.max_header_bytes,
        **options,
    )


class ServerThread:
    """Serve an ASGI app with uvicorn in a daemon thread; stops on ``close()`` / ``with`` exit.

    >>> with ServerThread(app) as server:  # doctest: +SKIP
    ...     httpx.get(server.url + "/server/ping")
    """

    def __init__(self, app: Any, *, host: str = "127.0.0.1", port: int = 0, **options: Any) -> None:
        """``options`` go to :func:`server_config` (``header_timeout``, ``max_connections``)."""
        self.app = app
        self.options = options
        self.host = host
        self._requested_port = port
        self.port = port
        self._socket: socket.socket | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def _run(self, server: uvicorn.Server, sock: socket.socket) -> None:
        try:
            asyncio.run(server.serve(sockets=[sock]))
        except BaseException as exc:
            self._error = exc
            log.exception("the educatalog server thread stopped")

    def start(self, timeout: float = 30.0) -> ServerThread:
        """Bind the port and serve; returns once the server accepts connections."""
        # proto=IPPROTO_TCP: asyncio then sets TCP_NODELAY on accepted connections; without
        # it, every keep-alive response waits ~40 ms for a delayed ACK (Nagle's algorithm).
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        self._socket = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        try:
            self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self._socket.bind((self.host, self._requested_port))
            self.port = self._socket.getsockname()[1]
            config = server_config(self.app, **self.options)
            self._server = uvicorn.Server(config)
            self._thread = threading.Thread(
                target=self._run,
                args=(self._server, self._socket),
                name="educatalog-server",
                daemon=True,
            )
            self._thread.start()
            deadline = time.monotonic() + timeout
            while not self._server.started:
                if self._error is not None or not self._thread.is_alive():
                    raise RuntimeError(f"the server did not start: {self._error!r}")
                if time.monotonic() > deadline:
                    raise TimeoutError("the server did not start in time")
                time.sleep(0.01)
        except BaseException:
            self.close()
            raise
        return self

    def close(self) -> None:
        """Stop serving and release the port (safe to call more than once)."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None and self._thread.is_alive():
            self._thread.join(timeout=10)
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
