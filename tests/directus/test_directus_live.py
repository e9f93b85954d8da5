"""The reference server and the toolkit against a live Directus 12.4 on PostgreSQL.

Runs with `make conformance-directus` (which installs, starts and loads Directus through
`harness.py`); elsewhere these tests are skipped, saying how to run them. With `RECORD=1`
the comparison also stores Directus's answers for `test_directus_recorded.py`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from harness import State, catalogue_rows, extra_instance
from run import Clock, compare_live, reference_server, save_recording

import educatalog
from educatalog.model.schema import SCHEMA

pytestmark = [
    pytest.mark.directus,
    pytest.mark.skipif(
        os.environ.get("EDUCATALOG_DIRECTUS") != "1",
        reason="needs a live Directus: run `make conformance-directus`",
    ),
]


@pytest.fixture(scope="module")
def directus() -> State:
    state = State.read()
    assert state.reader_token, "Directus runs but holds no catalogue: run harness.py load"
    assert httpx.get(state.url + "/server/ping", timeout=5).text == "pong"
    return state


def _count(url: str, token: str, collection: str) -> int:
    answer = httpx.get(
        f"{url}/items/{collection}",
        params={"limit": "0", "meta": "total_count"},
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
    )
    answer.raise_for_status()
    return int(answer.json()["meta"]["total_count"])


def test_reference_server_agrees_with_directus(directus: State, tmp_path: Path) -> None:
    clock = Clock()
    with reference_server(tmp_path, clock) as url:
        report, recorded = compare_live(url, clock, directus.url, directus.reader_token or "")
    if os.environ.get("RECORD") == "1":
        save_recording(recorded)
    print(report.summary())
    problems = report.problems()
    assert not problems, report.summary() + "\n" + "\n".join(problems)


# -- the toolkit against Directus --------------------------------------------------------


@pytest.fixture(
    scope="module",
    params=["plain", "limit-max-200", "rate-limited"],
)
def service(request: pytest.FixtureRequest, directus: State) -> Iterator[str]:
    """Directus as deployments often run it: as it is, with a page-size cap, rate limited."""
    settings = {
        "plain": None,
        "limit-max-200": {"QUERY_LIMIT_MAX": "200"},
        # 25 requests a second: the toolkit's concurrent pages run into 429 at once.
        "rate-limited": {
            "RATE_LIMITER_ENABLED": "true",
            "RATE_LIMITER_STORE": "memory",
            "RATE_LIMITER_POINTS": "25",
            "RATE_LIMITER_DURATION": "1",
        },
    }[request.param]
    if settings is None:
        yield directus.url
        return
    with extra_instance(**settings) as url:
        yield url


def test_loaders_download_every_row(service: str, directus: State) -> None:
    token = directus.reader_token or ""
    with educatalog.Client(service, token=token, progress=False, backoff=0.2) as client:
        events = educatalog.load("events", client=client)
        assert len(events) == _count(directus.url, token, "events")
        assert events["id"].is_unique
        assert str(events["event_start_date"].dtype).startswith("datetime64")
        links = educatalog.load_links("events", "contacts", client=client)
        assert len(links) == _count(directus.url, token, "events_contacts") - sum(
            1 for row in catalogue_rows()["events_contacts"] if row["events_id"] is None
        )
        cat = educatalog.load_catalogue(client=client, progress=False)
        for name in SCHEMA:
            assert len(cat[name]) == _count(directus.url, token, name), name
        offers = cat.offers()
        assert len(offers) == len(cat.events)
        assert not cat.source.demo  # a real Directus is no demo
        # sorted and limited by the service: the same rows as sorting everything here
        for keys, ascending in ((["event_start_date"], [True]), (["max_participants"], [False])):
            sort = [("" if up else "-") + key for key, up in zip(keys, ascending, strict=True)]
            top = educatalog.load("events", sort=sort, limit=30, client=client)
            expected = events.sort_values(
                [*keys, "id"],
                ascending=[*ascending, True],
                na_position="last" if ascending[0] else "first",
                kind="stable",
            ).head(30)
            assert top["id"].tolist() == expected["id"].tolist(), sort


def test_rate_limiter_answers_429_and_nothing_is_lost(directus: State) -> None:
    token = directus.reader_token or ""
    statuses: list[int] = []
    with extra_instance(
        RATE_LIMITER_ENABLED="true",
        RATE_LIMITER_STORE="memory",
        RATE_LIMITER_POINTS="5",
        RATE_LIMITER_DURATION="1",
    ) as url:
        client = educatalog.Client(url, token=token, progress=False, page_size=20, backoff=0.2)
        client._http.event_hooks["response"].append(lambda r: statuses.append(r.status_code))
        with client:
            events = educatalog.load("events", client=client)
    assert 429 in statuses, "the rate limiter never answered 429: the test proves nothing"
    assert sorted(events["id"]) == sorted(r["id"] for r in catalogue_rows()["events"])


def test_report_against_directus(directus: State, tmp_path: Path) -> None:
    out = tmp_path / "report"
    env = {**os.environ, "EDUCATALOG_TOKEN": directus.reader_token or ""}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "educatalog.cli",
            "report",
            "--url",
            directus.url,
            "--out",
            str(out),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    manifest = json.loads((out / "manifest.json").read_text())
    text = json.dumps(manifest)
    assert directus.url in text
    assert (directus.reader_token or "") not in text
    html = (out / "report.html").read_text()
    assert "Synthetic demo data" not in html  # real data: no demo mark
    assert f"{len(catalogue_rows()['events']):,}".replace(",", ".") in html  # events counted
