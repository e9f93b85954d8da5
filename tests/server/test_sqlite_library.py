"""SQLite set up for reads in parallel threads: in a fresh process only, never under an open
connection, and with the same answers (each case runs in a process of its own, since the
setting holds for a whole process)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import httpx
import pytest

from processes import serving

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="set up on Linux only")

PAGES_IN_THREADS = """
import json, sys, threading
from educatalog.query import Query, bind
from educatalog.server.context import Context
from educatalog.server.items import read_items_json
from educatalog.server.store import Database
from educatalog.server.sqlite_library import memory_in_use, serve_reads_in_parallel

{before}
done = serve_reads_in_parallel()
db = Database(sys.argv[1])
pages = {{}}

def read(offset):
    query = Query(fields=("id", "event_start_date", "is_inhouse"), limit=7, offset=offset)
    bound = bind(query, "events")
    with Context.lease(db) as ctx:
        pages[offset] = json.loads(b"[" + read_items_json(ctx, bound)[0] + b"]")

threads = [threading.Thread(target=read, args=(n,)) for n in (0, 7, 14)]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps({{"done": done, "counted": memory_in_use(), "pages": pages}}))
"""


def _run(database: Path, before: str = "") -> dict:
    code = textwrap.dedent(PAGES_IN_THREADS.format(before=before))
    out = subprocess.run(
        [sys.executable, "-c", code, str(database)], capture_output=True, text=True, check=True
    )
    result: dict = json.loads(out.stdout)
    return result


def test_a_process_without_connections_reads_in_threads_without_counting_memory(
    small_database: Path,
) -> None:
    fresh = _run(small_database)
    assert fresh["done"] is True
    assert fresh["counted"] == 0  # three connections open, and SQLite counts nothing
    # a process that opened a connection first keeps SQLite as it is, and reads the same
    held = _run(small_database, "import sqlite3\nheld = sqlite3.connect(':memory:')")
    assert held["done"] is False
    assert held["counted"] > 0
    assert held["pages"] == fresh["pages"]
    with sqlite3.connect(small_database) as conn:
        ids = [i for (i,) in conn.execute("SELECT id FROM events ORDER BY id LIMIT 7 OFFSET 7")]
    assert [row["id"] for row in fresh["pages"]["7"]] == ids


SERVE_AND_COUNT = """
import sys, uvicorn
from educatalog import cli
from educatalog.server.sqlite_library import memory_in_use

def run(self, sockets=None):  # instead of serving: a read, then what SQLite counted
    db = self.config.app.state.service.db
    db.connection().execute("SELECT count(*) FROM events").fetchone()
    print("counted", memory_in_use())

uvicorn.Server.run = run
cli.main(["serve", "--db", sys.argv[1], "--token", "t", "--port", "0"])
"""


def test_the_server_command_sets_it_up_first_and_answers_as_before(
    small_database: Path,
) -> None:
    out = subprocess.run(
        [sys.executable, "-c", SERVE_AND_COUNT, str(small_database)],
        capture_output=True,
        text=True,
        check=True,
    )
    # a connection open, nothing counted
    assert out.stdout.splitlines()[-2:] == ["counted 0", "Stopped."]
    with serving("--db", str(small_database), "--token", "t") as (url, _):
        headers = {"Authorization": "Bearer t"}
        params = {"fields": "id", "limit": "7", "offset": "7", "sort": "id"}
        served = httpx.get(f"{url}/items/events", params=params, headers=headers).json()
    assert served["data"] == [{"id": row["id"]} for row in _run(small_database)["pages"]["7"]]
