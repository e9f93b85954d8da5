"""Where the data comes from: the configured service, or the embedded demo server.

>>> client = educatalog.connect()  # doctest: +SKIP
>>> with configured_client() as client:  # a private demo server, stopped after  # doctest: +SKIP
...     frame = educatalog.load("events", client=client)

:func:`resolve_origin` is the one place that reads the configuration: the URL given, else
``$EDUCATALOG_URL`` (token from ``$EDUCATALOG_TOKEN``), else the synthetic demo catalogue.
:func:`connect` returns a client of it; its demo servers are shared (calling again with the
same seed and scale reuses the server) and run until the process ends.
:func:`configured_client` (a context manager) starts a private demo server for its block and
stops it afterwards: what ``educatalog report`` and ``educatalog fetch`` use.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from educatalog.client import Client
from educatalog.client.urls import public_url
from educatalog.errors import UsageError

if TYPE_CHECKING:
    from educatalog.server.uvicorn_server import ServerThread

__all__ = ["Origin", "configured_client", "connect", "demo", "resolve_origin", "started"]

_servers: dict[tuple[int, float], ServerThread] = {}
_lock = threading.Lock()


_default_clients: dict[tuple[str, str | None], Client] = {}


@dataclass(frozen=True)
class Origin:
    """Where data is fetched from: a service (``url``, ``token``) or, with ``demo``, the
    embedded synthetic demo catalogue of ``seed`` and ``scale`` (as listed on ``as_of``,
    when given); a demo origin has a ``url`` only while its server runs (:func:`started`).

    Made by :func:`resolve_origin`; the token never shows in a repr or a :meth:`record`.
    """

    url: str | None = None
    token: str | None = field(default=None, repr=False)
    demo: bool = False
    seed: int = 0
    scale: float = 1.0
    as_of: str | None = None

    @property
    def label(self) -> str:
        """What to tell the user: the service's URL (without credentials) or the demo."""
        if self.demo:
            as_of = f", as of {self.as_of}" if self.as_of else ""
            return (
                f"the embedded SYNTHETIC demo catalogue (seed {self.seed}, "
                f"scale {self.scale:g}{as_of})"
            )
        return public_url(self.url) or ""

    def record(self) -> dict[str, object]:
        """The origin as a snapshot's manifest records it (never with a token)."""
        if self.demo:
            out: dict[str, object] = {"kind": "demo", "seed": self.seed, "scale": self.scale}
            if self.as_of:
                out["as_of"] = self.as_of
            return out
        return {"kind": "url", "url": public_url(self.url)}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Origin:
        """The origin a manifest recorded (:meth:`record`); the token from the environment."""
        if record.get("kind") == "demo":
            return resolve_origin(
                demo=True,
                seed=int(str(record["seed"])),
                scale=float(str(record["scale"])),
                as_of=str(record["as_of"]) if record.get("as_of") else None,
            )
        return resolve_origin(str(record["url"]))


def resolve_origin(
    url: str | None = None,
    *,
    demo: bool = False,
    token: str | None = None,
    seed: int | None = None,
    scale: float | None = None,
    as_of: str | None = None,
) -> Origin:
    """The configured service or the demo: ``url``, else ``$EDUCATALOG_URL`` (unless
    ``demo``), with ``token`` or ``$EDUCATALOG_TOKEN``; without a URL, the demo catalogue
    of ``seed`` and ``scale`` (as of the date ``as_of``, YYYY-MM-DD).

    >>> resolve_origin(demo=True, scale=0.1).label
    'the embedded SYNTHETIC demo catalogue (seed 0, scale 0.1)'
    """
    if url and demo:
        raise UsageError("Give a service URL or ask for the demo catalogue, not both.")
    if not demo:
        url = url or os.environ.get("EDUCATALOG_URL") or None
    if url:
        return Origin(url=url, token=token or os.environ.get("EDUCATALOG_TOKEN") or None)
    from educatalog.demodata import DEFAULT_SEED, DEMO_TOKEN

    return Origin(
        token=DEMO_TOKEN,
        demo=True,
        seed=DEFAULT_SEED if seed is None else seed,
        scale=1.0 if scale is None else scale,
        as_of=as_of,
    )


@contextmanager
def started(origin: Origin | None = None) -> Iterator[Origin]:
    """``origin`` (default: :func:`resolve_origin`) ready to be asked: a service as it is,
    the demo catalogue served by a private server on a free loopback port for the block
    (its ``url`` set), stopped after it."""
    origin = origin or resolve_origin()
    if not origin.demo:
        yield origin
        return
    server = _start_demo(origin)
    try:
        yield replace(origin, url=server.url)
    finally:
        server.close()


@contextmanager
def configured_client(origin: Origin | None = None, **client_options: Any) -> Iterator[Client]:
    """A client of ``origin`` (default: the configured service, else the demo) for the block,
    closed after it, with a private demo server stopped after it (see :func:`started`).

    >>> with configured_client(resolve_origin(demo=True, scale=0.05)) as client:  # doctest: +SKIP
    ...     client.is_demo
    True
    """
    with started(origin) as live, Client(live.url, token=live.token, **client_options) as client:
        yield client


def _start_demo(origin: Origin) -> ServerThread:
    """A demo server of ``origin`` (the demo as of its date, if it has one), running."""
    from educatalog.demodata.embedded import start_demo_server

    if not origin.as_of:
        return start_demo_server(origin.seed, origin.scale)
    from educatalog.demodata import DEMO_TOKEN
    from educatalog.demodata.timeline import as_of_database
    from educatalog.server.app import create_app
    from educatalog.server.uvicorn_server import ServerThread

    path = as_of_database(origin.as_of, origin.seed, origin.scale)
    return ServerThread(create_app(path, tokens=[DEMO_TOKEN])).start()


def connect(*, lang: str | None = None, **client_options: Any) -> Client:
    """A client of ``$EDUCATALOG_URL``, or of the embedded demo server when it is not set.

    Without options, the same client is returned for the same URL and token, so that
    calls such as ``educatalog.load(...)`` without ``client=`` share its connections.
    ``lang`` is the language of the notice that the demo is served (:func:`demo`); a
    notebook passes its own (``educatalog.connect(lang=lang)``).
    """
    origin = resolve_origin()
    if origin.demo:
        return demo(lang=lang, **client_options)
    if client_options:
        return Client(**client_options)
    assert origin.url is not None
    return _shared_client(origin.url, origin.token)


def demo(
    scale: float = 1.0,
    seed: int | None = None,
    *,
    lang: str | None = None,
    **client_options: Any,
) -> Client:
    """A client of the embedded reference server on the synthetic demo catalogue.

    ``scale`` 1 is about 5,000 events, 200 about one million (built once, then cached).
    ``base_url`` and ``token`` are the demo server's own; other options go to the client.
    Starting the server says so on standard error, in ``lang`` (``"de"`` or ``"en"``;
    default ``$EDUCATALOG_LANG``, else English, as the command line speaks).
    """
    from educatalog.demodata import DEFAULT_SEED, DEMO_TOKEN
    from educatalog.demodata.embedded import start_demo_server

    client_options = {k: v for k, v in client_options.items() if k not in ("base_url", "token")}

    seed = DEFAULT_SEED if seed is None else seed
    with _lock:
        server = _servers.get((seed, scale))
        if server is None:
            server = _servers[(seed, scale)] = start_demo_server(seed, scale)
            print(_serving(seed, scale, server.url, lang), file=sys.stderr)
    if client_options:
        return Client(server.url, token=DEMO_TOKEN, **client_options)
    return _shared_client(server.url, DEMO_TOKEN)


ENV_LANG = "EDUCATALOG_LANG"
"""The language of educatalog's notices where no ``lang`` is given (``de`` or ``en``)."""


def _serving(seed: int, scale: float, url: str, lang: str | None) -> str:
    """The notice that the demo is served, in ``lang`` (else ``$EDUCATALOG_LANG``, else
    English)."""
    from babel.numbers import format_decimal

    from educatalog import texts

    chosen = lang or os.environ.get(ENV_LANG) or "en"
    lang = texts.check_lang(chosen)
    shown = format_decimal(scale, locale=texts.LOCALES[lang])
    return texts.text("notice.demo_server", lang, seed=seed, scale=shown, url=url)


def _shared_client(url: str, token: str | None) -> Client:
    """The one client without options of ``url`` and ``token`` (a new one once closed)."""
    with _lock:
        client = _default_clients.get((url, token))
        if client is None or client.closed:
            client = _default_clients[(url, token)] = Client(url, token=token)
    return client
