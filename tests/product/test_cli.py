"""The command line: `educatalog serve` as a user runs it, as a real process on loopback."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from educatalog.cli import main
from educatalog.demodata import DEMO_TOKEN
from educatalog.testing import build_test_database
from processes import serving


def test_serve_db_with_tokens_and_limit_max(tmp_path: Path) -> None:
    states = [{"id": i, "name": f"Land {i}", "code": f"DE-{i:02d}"} for i in range(1, 17)]
    db = build_test_database(tmp_path / "db.sqlite", {"states": states}, references=False)
    with serving(
        "--db", str(db), "--token", "secret-1", "--token", "secret-2", "--limit-max", "5"
    ) as (url, output):
        for token in ("secret-1", "secret-2"):
            r = httpx.get(
                url + "/items/states",
                params={"limit": "-1"},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert r.status_code == 200
            assert [s["id"] for s in r.json()["data"]] == [1, 2, 3, 4, 5]
            assert "x-educatalog-data" not in r.headers  # not the demo
        r = httpx.get(url + "/items/states", params={"access_token": DEMO_TOKEN})
        assert r.status_code == 401
        r = httpx.get(url + "/items/states", params={"access_token": "secret-1", "limit": "6"})
        assert r.status_code == 400
        assert "at most 5" in r.json()["errors"][0]["message"]
    text = "\n".join(output)
    assert f"Serving {db}" in text
    assert "secret-1" not in text  # tokens given by the user are never printed


def test_serve_demo_prints_url_and_demo_token(tmp_path: Path) -> None:
    env = {"EDUCATALOG_CACHE": str(tmp_path)}
    with serving("--demo", "--scale", "0.02", "--seed", "5", env=env) as (url, output):
        r = httpx.get(
            url + "/items/events",
            params={"limit": "1", "meta": "total_count"},
            headers={"Authorization": f"Bearer {DEMO_TOKEN}"},
        )
        assert r.status_code == 200
        assert r.headers["x-educatalog-data"] == "synthetic-demo"
        assert r.json()["meta"]["total_count"] > 0
        info = httpx.get(url + "/server/info").json()["data"]["educatalog"]
        assert info["demo"] is True
        assert info["seed"] == 5
    text = "\n".join(output)
    assert url in text
    assert f"Token: {DEMO_TOKEN}" in text
    assert "SYNTHETIC" in text
    assert [p.name for p in tmp_path.glob("demo-*.sqlite")], "the demo database is cached"


def test_serve_missing_database_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--db", str(tmp_path / "nope.sqlite")]) == 2
    assert "no database file at" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["serve"],
        ["serve", "--demo", "--db", "x"],
        ["serve", "--demo", "--scale", "0"],
        ["serve", "--demo", "--limit-max", "0"],
    ],
)
def test_bad_arguments_exit_with_usage(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert "usage: educatalog" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------
# The library functions under the commands: one way to "the configured service or the demo"


def test_resolve_origin_reads_the_environment_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from educatalog.errors import UsageError
    from educatalog.loading.connection import Origin, resolve_origin

    monkeypatch.setenv("EDUCATALOG_URL", "https://me:pw@catalogue.example/api?access_token=x")
    monkeypatch.setenv("EDUCATALOG_TOKEN", "env-token")
    configured = resolve_origin()
    assert (configured.demo, configured.token) == (False, "env-token")
    assert configured.label == "https://catalogue.example/api"
    assert configured.record() == {"kind": "url", "url": "https://catalogue.example/api"}
    assert "env-token" not in repr(configured)
    assert "pw" not in str(configured.record())
    assert resolve_origin("http://other:8055", token="t").token == "t"
    assert Origin.from_record(configured.record()).token == "env-token"

    demo = resolve_origin(demo=True, seed=5, scale=0.5, as_of="2024-06-01")
    assert demo.demo
    assert demo.token == DEMO_TOKEN
    assert demo.url is None
    assert (
        demo.label == "the embedded SYNTHETIC demo catalogue (seed 5, scale 0.5, as of 2024-06-01)"
    )
    assert Origin.from_record(demo.record()) == demo
    with pytest.raises(UsageError, match="not both"):
        resolve_origin("http://x", demo=True)

    monkeypatch.setenv("EDUCATALOG_URL", "")  # empty counts as not set, everywhere
    assert resolve_origin().demo


def test_configured_client_stops_its_private_demo_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from educatalog.loading.connection import configured_client, resolve_origin

    monkeypatch.setenv("EDUCATALOG_CACHE", str(tmp_path))
    with configured_client(resolve_origin(demo=True, seed=5, scale=0.02)) as client:
        assert client.is_demo
        url = client.base_url
        assert httpx.get(url + "/server/ping").status_code == 200
    assert client.closed
    with pytest.raises(httpx.TransportError):
        httpx.get(url + "/server/ping", timeout=2)


def test_fetch_and_update_a_snapshot_from_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from educatalog import snapshot
    from educatalog.cli import fetch
    from educatalog.errors import SnapshotError, UsageError
    from educatalog.loading.connection import resolve_origin

    monkeypatch.setenv("EDUCATALOG_CACHE", str(tmp_path / "cache"))
    origin = resolve_origin(demo=True, seed=5, scale=0.02)
    lines: list[str] = []
    out = tmp_path / "snaps" / "demo"
    done = fetch.fetch_snapshot(out, origin=origin, collections=["states", "events"])
    assert done.path == out
    assert done.rows == sum(len(f) for f in done.catalogue.values())
    assert snapshot.read_manifest(out)["origin"] == {"kind": "demo", "seed": 5, "scale": 0.02}
    with pytest.raises(SnapshotError, match="already exists"):
        fetch.fetch_snapshot(out, origin=origin)

    newer = fetch.update_snapshot(out, notify=lines.append)  # from where the manifest says
    assert newer.path.parent == out.parent
    assert newer.path.name.startswith("demo-")
    assert newer.previous == out
    assert newer.changes is not None
    assert set(newer.catalogue) == {"states", "events"}
    assert int(newer.changes[["added", "removed", "changed"]].to_numpy().sum()) == 0
    assert lines[0] == f"Checking {out} ..."
    assert "SYNTHETIC demo" in lines[1]

    plain = snapshot.save(done.catalogue, tmp_path / "plain")  # no origin recorded
    with pytest.raises(UsageError, match="does not say where it came from"):
        fetch.update_snapshot(plain)


def test_make_report_checks_states_before_the_kernel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from educatalog.errors import UsageError
    from educatalog.loading.connection import resolve_origin
    from educatalog.report import make_report

    monkeypatch.setenv("EDUCATALOG_CACHE", str(tmp_path / "cache"))
    origin = resolve_origin(demo=True, seed=5, scale=0.02)
    with pytest.raises(UsageError, match=r'No state "Bayernn"\. Did you mean "Bayern"'):
        make_report(tmp_path / "out", origin=origin, states=["Bayernn"])
    with pytest.raises(UsageError, match=r'No state "Bavria"\. Did you mean "Bavaria"'):
        make_report(tmp_path / "out", origin=origin, states=["Bavria"])
    empty = r"The selection \(states Bremen; start dates 2027-01-01 to …\) holds no event"
    with pytest.raises(UsageError, match=empty):
        make_report(tmp_path / "out", origin=origin, states=["Bremen"], start="2027-01-01")
    with pytest.raises(UsageError, match=r"--period 2025 and --start/--end both give"):
        make_report(tmp_path / "out", origin=origin, period="2025", end="2025-06-30")
    assert not (tmp_path / "out").exists()


def test_report_refuses_an_impossible_date_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["report", "--demo", "--out", str(out), "--start", "2025-13-01"]) != 0
    assert "start 2025-13-01 is no date of the calendar" in capsys.readouterr().err
    assert not out.exists()


HANGS_IN_ITS_CLEAN_UP = """
import sys, time
from educatalog.cli._common import interrupt_on_sigterm

def clean_up():
    time.sleep(120)  # hangs

interrupt_on_sigterm(bound=1)
try:
    print("ready", flush=True)  # in the try: the signal that follows is caught below
    time.sleep(120)
except KeyboardInterrupt:
    clean_up()
sys.exit(0)
"""


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
def test_a_command_that_hangs_as_it_stops_ends_itself_and_says_where(how: int) -> None:
    """What ``educatalog dashboard`` does when its clean-up hangs (``bound``)."""
    process = subprocess.Popen(
        [sys.executable, "-c", HANGS_IN_ITS_CLEAN_UP],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline() == "ready\n"
        process.send_signal(how)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 1
    assert "most recent call first" in err
    assert "line 6 in clean_up" in err  # where it hung
