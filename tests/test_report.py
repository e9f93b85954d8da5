"""`educatalog report`: every number checked against the demo records, counted in Python."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from educatalog.cli import main
from educatalog.report import DEMO_MARK
from educatalog.server.app import create_app
from educatalog.server.demo import collect
from educatalog.server.run import ServerThread
from educatalog.server.store import build_database

SCALE = 0.05


def _expected(records: dict[str, list[dict]]) -> dict[str, dict[str, int]]:
    states = {s["id"]: s["name"] for s in records["states"]}
    address_state = {a["id"]: a["state"] for a in records["addresses"]}
    category = {f["id"]: f["category"] for f in records["instruction_forms"]}
    times = {t["id"]: t["name"] for t in records["instruction_times"]}
    by_state: Counter[str] = Counter()
    by_category: Counter[str] = Counter()
    by_time: Counter[str] = Counter()
    by_voucher: Counter[str] = Counter()
    by_quarter: Counter[str] = Counter()
    for e in records["events"]:
        state = address_state.get(e["address"]) if e["address"] is not None else None
        by_state[states[state] if state is not None else "(no state)"] += 1
        if e["instruction_form"] in category:
            by_category[category[e["instruction_form"]]] += 1
        if e["instruction_time"] in times:
            by_time[times[e["instruction_time"]]] += 1
        voucher = e["education_voucher"]
        by_voucher[{True: "eligible", False: "not eligible", None: "not stated"}[voucher]] += 1
        start = e["event_start_date"]
        if start is None:
            by_quarter["(no start date)"] += 1
        else:
            by_quarter[f"{start[:4]} Q{(int(start[5:7]) - 1) // 3 + 1}"] += 1
    return {
        "Events by state": dict(by_state),
        "Events by instruction-form category": dict(by_category),
        "Events by instruction time": dict(by_time),
        "Events by education-voucher eligibility": dict(by_voucher),
        "Events by quarter of start": dict(by_quarter),
    }


def test_demo_report_matches_the_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("EDUCATALOG_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "reports"
    assert main(["report", "--demo", "--scale", str(SCALE), "--out", str(out)]) == 0
    assert "SYNTHETIC" in capsys.readouterr().out
    data = json.loads((out / "report.json").read_text())
    records = collect(scale=SCALE)
    assert data["synthetic_demo_data"] is True
    assert data["totals"]["events"] == len(records["events"])
    assert data["totals"]["contacts"] == len(records["contacts"])
    expected = _expected(records)
    assert [t["title"] for t in data["tables"]] == list(expected)
    for t in data["tables"]:
        got = {label: n for label, n in t["rows"] if n}
        assert got == {k: v for k, v in expected[t["title"]].items() if v}, t["title"]
    page = (out / "report.html").read_text()
    assert DEMO_MARK in page
    for state in records["states"]:
        assert state["name"] in page


def test_report_against_a_service_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    records = collect(scale=SCALE)
    db = build_database(tmp_path / "real.sqlite", records.items())  # no demo mark in its info
    with ServerThread(create_app(db, tokens=["s3cret-token"])) as server:
        monkeypatch.setenv("EDUCATALOG_TOKEN", "s3cret-token")
        out = tmp_path / "r"
        assert main(["report", "--url", server.url, "--out", str(out)]) == 0
        data = json.loads((out / "report.json").read_text())
        assert data["synthetic_demo_data"] is False
        assert data["source"] == server.url
        assert DEMO_MARK not in (out / "report.html").read_text()

        monkeypatch.setenv("EDUCATALOG_TOKEN", "wrong-token")
        assert main(["report", "--url", server.url, "--out", str(tmp_path / "x")]) == 1
        err = capsys.readouterr().err
        assert "answered 401" in err
        assert "wrong-token" not in err
        assert not (tmp_path / "x").exists()
