"""Run the reference server: in the foreground (the CLI) or in a background thread
(``educatalog.connect()``, notebooks and tests) on a free loopback port.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from types import TracebackType
from typing import Any

import uvicorn

__all__ = ["ServerThread"]

log = logging.getLogger("educatalog.server")


class ServerThread:
    """Serve an ASGI app with uvicorn in a daemon thread; stops on ``close()`` / ``with`` exit.

    >>> with ServerThread(app) as server:  # doctest: +SKIP
    ...     httpx.get(server.url + "/server/ping")
    """

    def __init__(self, app: Any, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.app = app
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
            config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="off")
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
