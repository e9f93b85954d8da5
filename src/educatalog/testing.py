"""Test your own analysis code against the reference server: a pytest plugin and helpers.

The plugin is registered through the ``pytest11`` entry point ``educatalog`` when the package
is installed, so its fixtures are available in every test suite that has educatalog:

* ``educatalog_server`` (session): the reference server running on a free ``127.0.0.1`` port
  in a background thread, stopped at the end of the session; a :class:`RunningServer`
  (``url``, ``token``, ``database``, ``demo``);
* ``educatalog_client``: an :class:`educatalog.Client` of it, closed after the test;
* ``educatalog_env``: sets ``EDUCATALOG_URL`` and ``EDUCATALOG_TOKEN`` for the test, so that
  code calling ``educatalog.connect()`` or ``educatalog.load(...)`` without a client reads
  the test server;
* ``educatalog_data`` (session): what the server serves. By default ``None``, the synthetic
  demo catalogue at ``--educatalog-scale`` (ini ``educatalog_scale``, default 0.05: about
  100 courses and 500 events) and ``--educatalog-seed`` (ini ``educatalog_seed``, default
  0), built once and cached like every demo database. Override it in your ``conftest.py``
  to serve rows of your own::

      @pytest.fixture(scope="session")
      def educatalog_data():
          return {
              "courses": [{"id": 1, "title": "Excel für Einsteiger"}],
              "events": [{"id": 10, "course": 1, "event_start_date": "2025-03-01T09:00:00"}],
          }

  Rows are given as the service returns them (missing fields are null); reference lists you
  leave out are the real KURSNET lists of the demo catalogue, so ids such as
  ``instruction_form=101`` or ``state=9`` resolve.

Outside pytest, :func:`serve` does the same as a context manager::

    with educatalog.testing.serve({"events": [{"id": 1}]}) as server:
        frame = educatalog.load("events", client=server.client())
"""

from __future__ import annotations

import datetime as dt
import math
import os
import re
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from educatalog.errors import InvalidTestData, UsageError, did_you_mean

try:
    import pytest

    _HAVE_PYTEST = True
except ImportError:  # serve() and the other helpers work without pytest; the plugin needs it
    pytest = None  # type: ignore[assignment]
    _HAVE_PYTEST = False

if TYPE_CHECKING:
    from educatalog.client import Client

__all__ = [
    "DEFAULT_SCALE",
    "TEST_TOKEN",
    "InvalidTestData",
    "RunningServer",
    "build_test_database",
    "check_rows",
    "serve",
]

DEFAULT_SCALE: float = 0.05
"""Demo scale served by default: 15 institutions, about 100 courses and 500 events."""

TEST_TOKEN: str = "educatalog-test-token"
"""The bearer token a test server accepts unless told otherwise."""

Rows = Mapping[str, Sequence[Mapping[str, Any]]]

_DATETIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True)
class RunningServer:
    """A reference server running in this process: where it listens and what it accepts."""

    url: str
    token: str
    database: Path
    demo: bool
    _source: object = field(default=None, repr=False, compare=False)

    @property
    def env(self) -> dict[str, str]:
        """The environment that points ``educatalog.connect()`` at this server."""
        return {"EDUCATALOG_URL": self.url, "EDUCATALOG_TOKEN": self.token}

    def client(self, **options: Any) -> Client:
        """A new :class:`educatalog.Client` of this server (close it, or use ``with``)."""
        from educatalog.client import Client

        return Client(self.url, token=self.token, **options)


# ---------------------------------------------------------------------------------------
# Custom rows


def check_rows(rows: Rows) -> dict[str, list[dict[str, Any]]]:
    """Custom rows checked against the catalogue and normalized to what the store takes.

    ``rows`` maps collection names to lists of row dicts in the service's representation.
    Dates may also be given as ``datetime.date``/``datetime.datetime``, decimals as numbers
    or ``Decimal``. Raises :class:`InvalidTestData` naming the collection, row and field.
    """
    from educatalog.model.schema import SCHEMA

    if not isinstance(rows, Mapping):
        raise InvalidTestData(
            f"expected a mapping of collection name -> list of row dicts, got {type(rows).__name__}"
        )
    names = frozenset(SCHEMA)  # not `in SCHEMA`: its lookup raises for unknown names
    out: dict[str, list[dict[str, Any]]] = {}
    for name, collection_rows in rows.items():
        if name not in names:
            raise InvalidTestData(
                f"unknown collection {name!r}.{did_you_mean(name, SCHEMA)} The catalogue "
                f"has: {', '.join(sorted(SCHEMA))}"
            )
        if isinstance(collection_rows, str | bytes | Mapping) or not isinstance(
            collection_rows, Sequence
        ):
            raise InvalidTestData(
                f"{name}: expected a list of row dicts, got {type(collection_rows).__name__}"
            )
        coll = SCHEMA[name]
        seen: set[int] = set()
        checked = []
        for position, row in enumerate(collection_rows):
            where = f"{name}[{position}]"
            if not isinstance(row, Mapping):
                raise InvalidTestData(f"{where}: expected a row dict, got {type(row).__name__}")
            row_id = row.get("id")
            if not isinstance(row_id, int) or isinstance(row_id, bool):
                raise InvalidTestData(f"{where}: every row needs an integer id, got {row_id!r}")
            if row_id in seen:
                raise InvalidTestData(f"{where}: id {row_id} appears more than once")
            seen.add(row_id)
            where = f"{name} row id={row_id}"
            values: dict[str, Any] = {}
            for key, value in row.items():
                if key not in coll:
                    raise InvalidTestData(
                        f'{where}: unknown field "{key}" of {name}.'
                        f"{did_you_mean(key, coll.field_names)} Its fields are: "
                        f"{', '.join(f.name for f in coll.stored_fields)}"
                    )
                f = coll.field(key)
                if not f.is_stored:
                    assert f.relation is not None
                    raise InvalidTestData(
                        f'{where}: "{key}" is a list of related rows, not stored in {name}: '
                        f'give those rows in "{f.relation.related}" (with '
                        f'"{f.relation.foreign_key}" = {row_id})'
                    )
                values[key] = _value(where, f, value)
            checked.append(values)
        out[name] = checked
    return out


def _value(where: str, f: Any, value: Any) -> Any:
    """A value checked against its field's type, in the representation the store takes."""
    from educatalog.model.schema import FieldType

    if value is None:
        return None
    t = f.type
    problem = ""
    if t is FieldType.INTEGER:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        problem = "an integer"
    elif t in (FieldType.STRING, FieldType.UUID):
        if isinstance(value, str):
            return value
        problem = "a string"
    elif t is FieldType.BOOLEAN:
        if isinstance(value, bool):
            return value
        problem = "a boolean"
    elif t is FieldType.DATETIME:
        if isinstance(value, dt.datetime):
            if value.tzinfo is not None:
                problem = "a datetime without a time zone (the service has none)"
            else:
                return value.replace(microsecond=0).isoformat()
        elif isinstance(value, dt.date):
            return value.isoformat() + "T00:00:00"
        elif isinstance(value, str) and _DATETIME.fullmatch(value):
            return value
        elif isinstance(value, str) and _DATE.fullmatch(value):
            return value + "T00:00:00"
        problem = problem or 'a datetime ("YYYY-MM-DDTHH:MM:SS", a date or datetime object)'
    elif t is FieldType.DECIMAL:
        number: Decimal | None = None
        if isinstance(value, int | float | Decimal | str) and not isinstance(value, bool):
            try:
                number = Decimal(str(value))
            except InvalidOperation:
                number = None
        if number is not None and number.is_finite():
            return str(number)
        problem = 'a decimal (a number, or a string such as "1490.00")'
    else:  # pragma: no cover - aliases are refused before
        problem = "no value"
    raise InvalidTestData(f'{where}: field "{f.name}" takes {problem}, got {value!r}')


def build_test_database(
    path: str | os.PathLike[str], rows: Rows, *, references: bool = True
) -> Path:
    """Build a reference-server database of ``rows`` at ``path`` (see :func:`check_rows`).

    Reference lists not in ``rows`` are the real ones of the demo catalogue
    (``references=False``: exactly the rows given, every other collection empty).
    """
    from educatalog.demodata import reference_rows
    from educatalog.server.store import build_database

    checked = check_rows(rows)
    chunks = {**(reference_rows() if references else {}), **checked}
    info = {"demo": False, "testing": True, "collections": sorted(checked)}
    return build_database(path, chunks.items(), info=info)


# ---------------------------------------------------------------------------------------
# Serving


@contextmanager
def serve(
    rows: Rows | None = None,
    *,
    scale: float = DEFAULT_SCALE,
    seed: int | None = None,
    token: str = TEST_TOKEN,
    directory: str | os.PathLike[str] | None = None,
    limit_max: int | None = None,
    database: str | os.PathLike[str] | None = None,
    clock: Callable[[], dt.datetime] | None = None,
    port: int = 0,
) -> Iterator[RunningServer]:
    """Run the reference server on a free ``127.0.0.1`` port for the ``with`` block.

    Without ``rows`` it serves the synthetic demo catalogue of ``(seed, scale)``, built once
    and cached (in ``directory`` if given, else in ``$EDUCATALOG_CACHE``). With ``rows`` (a
    mapping collection -> list of row dicts) it serves exactly those, built in ``directory``
    or in a temporary directory removed afterwards. ``database`` serves a database file
    built before (by :func:`build_test_database`, ``educatalog serve --db`` or a snapshot)
    instead. ``token`` is the accepted bearer token, ``limit_max`` the largest page size the
    server allows, ``clock`` the time ``$NOW`` stands for (default: now), ``port`` a fixed
    port (default: a free one).

    >>> with serve({"courses": [{"id": 1, "title": "Excel"}]}) as server:  # doctest: +SKIP
    ...     educatalog.load("courses", client=server.client())
    """
    from educatalog.demodata.embedded import demo_database
    from educatalog.server.app import create_app
    from educatalog.server.run import ServerThread

    if not token:
        raise UsageError("the test server needs a token")
    if rows is not None and database is not None:
        raise UsageError("serve() takes rows or a database, not both")
    with ExitStack() as stack:
        if database is not None:
            served = Path(database)
        elif rows is None:
            served = demo_database(seed, scale, directory=directory)
        else:
            folder = directory
            if folder is None:
                folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="educatalog-"))
            served = build_test_database(Path(folder) / "educatalog-test.sqlite", rows)
        app = create_app(
            served, tokens=[token], limit_max=limit_max, clock=clock or dt.datetime.now
        )
        stack.callback(app.state.database.close)
        server = stack.enter_context(ServerThread(app, port=port))
        demo = rows is None and database is None
        yield RunningServer(server.url, token, served, demo=demo, _source=rows)


# ---------------------------------------------------------------------------------------
# The pytest plugin

_SETTINGS = pytest.StashKey[tuple[float, int | None]]() if _HAVE_PYTEST else None

_Function = TypeVar("_Function", bound=Callable[..., object])


def _fixture(**options: Any) -> Callable[[_Function], _Function]:
    """``pytest.fixture(**options)``, or no decorator at all when pytest is not installed."""
    if not _HAVE_PYTEST:
        return lambda function: function
    decorator: Callable[[_Function], _Function] = pytest.fixture(**options)
    return decorator


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("educatalog", "educatalog reference server (educatalog_* fixtures)")
    group.addoption(
        "--educatalog-scale",
        dest="educatalog_scale",
        metavar="N",
        default=None,
        help=f"scale of the demo catalogue that educatalog_server serves (default "
        f"{DEFAULT_SCALE:g}: about 500 events; 1 is about 5,000)",
    )
    group.addoption(
        "--educatalog-seed",
        dest="educatalog_seed",
        metavar="S",
        default=None,
        help="random seed of that demo catalogue (default 0)",
    )
    parser.addini("educatalog_scale", "default for --educatalog-scale", default=None)
    parser.addini("educatalog_seed", "default for --educatalog-seed", default=None)


def pytest_configure(config: pytest.Config) -> None:
    assert _SETTINGS is not None
    config.stash[_SETTINGS] = _settings(config)


def _settings(config: pytest.Config) -> tuple[float, int | None]:
    """Demo scale and seed: the command line, else the ini file, else the defaults."""
    raw_scale = config.getoption("educatalog_scale", None) or config.getini("educatalog_scale")
    raw_seed = config.getoption("educatalog_seed", None) or config.getini("educatalog_seed")
    scale = DEFAULT_SCALE
    if raw_scale not in (None, ""):
        try:
            scale = float(str(raw_scale))
        except ValueError:
            scale = math.nan
        if not scale > 0 or math.isinf(scale):
            raise pytest.UsageError(
                f"educatalog: the demo scale must be a positive number, got {raw_scale!r}"
            )
    seed: int | None = None
    if raw_seed not in (None, ""):
        try:
            seed = int(str(raw_seed))
        except ValueError:
            raise pytest.UsageError(
                f"educatalog: the demo seed must be an integer, got {raw_seed!r}"
            ) from None
    return scale, seed


@_fixture(scope="session")
def educatalog_data() -> Rows | None:
    """What ``educatalog_server`` serves: ``None`` for the demo catalogue (the default).

    Override it (session scope) in your ``conftest.py`` with a mapping collection -> rows.
    """
    return None


@_fixture(scope="session")
def educatalog_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RunningServer]:
    """The reference server on ``educatalog_data`` (default: the demo catalogue)."""
    problem = ""
    try:
        data = request.getfixturevalue("educatalog_data")
    except pytest.fail.Exception as exc:
        if "ScopeMismatch" not in str(exc):
            raise
        problem = (
            'the fixture "educatalog_data" must have session scope, as the server has: '
            '@pytest.fixture(scope="session"). For other data in some tests, start a server '
            "of your own with educatalog.testing.serve(rows)."
        )
    if not problem and data is not None:
        try:
            check_rows(data)
        except InvalidTestData as exc:
            problem = f"bad educatalog_data: {exc}"
    if problem:  # failed outside the except clauses: the message alone, no chained traceback
        pytest.fail(f"educatalog: {problem}", pytrace=False)
    assert _SETTINGS is not None
    scale, seed = request.config.stash[_SETTINGS]
    directory = tmp_path_factory.mktemp("educatalog") if data is not None else None
    with serve(data, scale=scale, seed=seed, directory=directory) as server:
        yield server


def _checked_server(request: pytest.FixtureRequest) -> RunningServer:
    """The session's server, after checking that this test sees the data it serves.

    ``educatalog_data`` overridden for a part of the suite only (a conftest in a
    subdirectory, a test module) cannot change a server started for the whole session.
    """
    server: RunningServer = request.getfixturevalue("educatalog_server")
    data = request.getfixturevalue("educatalog_data")
    if data is not server._source and data != server._source:
        pytest.fail(
            "educatalog: this test sees a different educatalog_data than the one the "
            "session's educatalog_server was started with (it is overridden for part of the "
            "suite only). Override it once, in the root conftest.py, or start a second "
            "server with educatalog.testing.serve(rows) in a fixture of your own.",
            pytrace=False,
        )
    return server


@_fixture()
def educatalog_client(request: pytest.FixtureRequest) -> Iterator[Client]:
    """An :class:`educatalog.Client` of ``educatalog_server``, closed after the test."""
    with _checked_server(request).client() as client:
        yield client


@_fixture()
def educatalog_env(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> RunningServer:
    """``EDUCATALOG_URL`` and ``EDUCATALOG_TOKEN`` point at ``educatalog_server`` for the test,
    so ``educatalog.connect()`` and ``educatalog.load(...)`` without a client read it."""
    server = _checked_server(request)
    for name, value in server.env.items():
        monkeypatch.setenv(name, value)
    return server
