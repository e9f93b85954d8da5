"""The command line: `educatalog serve` as a user runs it, as a real process on loopback."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from educatalog.cli import main
from educatalog.server.demo import DEMO_TOKEN
from educatalog.server.store import build_database
from processes import serving


def test_serve_db_with_tokens_and_limit_max(tmp_path: Path) -> None:
    states = [{"id": i, "name": f"Land {i}", "code": f"DE-{i:02d}"} for i in range(1, 17)]
    db = build_database(tmp_path / "db.sqlite", [("states", states)])
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
