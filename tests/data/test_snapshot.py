"""Snapshots: save, load, verify, diff, serve and export, over real HTTP on loopback and real
files; the `fetch`, `serve --snapshot` and `export` commands as real processes."""

from __future__ import annotations

import copy
import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pyarrow.parquet as pq
import pytest

import educatalog
from educatalog import population, snapshot
from educatalog.errors import EducatalogError, SnapshotError
from educatalog.frames.catalogue import Catalogue, Source
from educatalog.server.store import read_rows
from educatalog.testing import build_test_database, serve
from processes import free_port, serving

PERSONAL = snapshot.PERSONAL_FIELDS["contacts"]
TOKEN = "snapshot-test-token"


def _fetch(database: Path, *, port: int = 0) -> Catalogue:
    with (
        serve(database=database, token=TOKEN, port=port) as server,
        educatalog.Client(server.url, token=TOKEN, page_size=500) as client,
    ):
        return educatalog.load_catalogue(client)


def _assert_same(actual: Catalogue, expected: Catalogue) -> None:
    assert list(actual) == list(expected)
    for name in expected:
        pd.testing.assert_frame_equal(actual[name], expected[name], obj=name)


def _subset(cat: Catalogue, names: list[str], source: Source | None = None) -> Catalogue:
    """Some tables of ``cat`` as a catalogue of their own."""
    return Catalogue({n: cat[n] for n in names}, source=source or cat.source)


@pytest.fixture(scope="module")
def small(demo_catalogue: Catalogue) -> Catalogue:
    """A few tables of the demo catalogue, for the fast checks on files."""
    return _subset(demo_catalogue, ["states", "contacts", "events", "events_contacts"])


def test_a_catalogue_of_another_s_tables_restates_the_source_of_its_own_only(
    demo_catalogue: Catalogue, tmp_path: Path
) -> None:
    """Restating where tables come from (to save the demo's as a snapshot of a service of
    March 2024) leaves the catalogue they came from as it was: its frames, their source,
    their offers, and the per-capita rates measured against the population of its date."""
    before = demo_catalogue.source
    when = dt.datetime(2024, 3, 15, tzinfo=dt.UTC)
    march = Source(url="https://kurse.example.org/api", fetched_at=when)
    restated = Catalogue({n: demo_catalogue[n] for n in demo_catalogue}, source=march)
    assert Source.from_attrs(restated.events.attrs) == march
    assert Source.from_attrs(restated.offers().attrs) == march
    for name in demo_catalogue:
        assert Source.from_attrs(demo_catalogue[name].attrs) == before, name
    offers = demo_catalogue.offers()
    assert Source.from_attrs(offers.attrs) == before
    assert offers.edu.per_capita().attrs["educatalog"]["population"]["date"] == str(
        population.table_for(before.stand).attrs["date"]
    )
    loaded = snapshot.load(snapshot.save(restated, tmp_path / "march"))
    assert loaded.source == march
    assert Source.from_attrs(demo_catalogue.events.attrs) == before


# ---------------------------------------------------------------------------------------
# Round trip


def test_round_trip_through_a_snapshot_and_its_server(
    demo_catalogue: Catalogue, tmp_path: Path
) -> None:
    path = snapshot.save(demo_catalogue, tmp_path / "snap", include_personal=True)
    loaded = snapshot.load(path)
    assert loaded.source == demo_catalogue.source
    _assert_same(loaded, demo_catalogue)
    assert len(loaded) == 25  # every collection and link table

    database = snapshot.database(path, directory=tmp_path / "cache")
    assert snapshot.database(path, directory=tmp_path / "cache") == database  # cached
    served = _fetch(database)
    assert served.source.demo  # a demo snapshot stays marked as demo data
    _assert_same(served, demo_catalogue)


def test_without_personal_fields_the_server_serves_them_as_null(
    demo_catalogue: Catalogue, tmp_path: Path
) -> None:
    path = snapshot.save(demo_catalogue, tmp_path / "snap")
    served = _fetch(snapshot.database(path, directory=tmp_path / "cache"))
    contacts = served.contacts
    assert contacts[list(PERSONAL)].isna().all().all()
    kept = [c for c in demo_catalogue.contacts.columns if c not in PERSONAL]
    pd.testing.assert_frame_equal(contacts[kept], demo_catalogue.contacts[kept])
    others = [n for n in demo_catalogue if n != "contacts"]
    _assert_same(_subset(served, others), _subset(demo_catalogue, others))


def test_dtypes_survive_exactly(tmp_path: Path) -> None:
    states = pd.DataFrame(
        {
            "id": pd.array([1, 2, None], dtype="Int64"),
            "name": pd.array(["Bayern", None, "Straße"], dtype="string"),
            "flag": pd.array([True, None, False], dtype="boolean"),
            "share": pd.array([0.5, None, 1.25], dtype="Float64"),
            # the toolkit's one datetime unit (a nanosecond snapshot: tests/data/test_loaders.py)
            "when": pd.to_datetime(["2025-01-01T08:00:00", None, "2026-12-31T23:59:59"]).as_unit(
                "us"
            ),
            "when_us": pd.to_datetime(["2025-01-01", None, "2025-02-01"]).as_unit("us"),
            "kind": pd.Categorical(["a", None, "b"], categories=["b", "a", "c"], ordered=True),
            "kind_obj": pd.Categorical(
                ["x", "y", None], categories=pd.Index(["y", "x"], dtype=object)
            ),
        }
    )
    empty = pd.DataFrame({"id": pd.array([], dtype="Int64"), "name": pd.array([], "string")})
    source = Source(url="http://example.org/api", demo=False)
    cat = Catalogue({"states": states, "handicaps": empty}, source=source)
    loaded = snapshot.load(snapshot.save(cat, tmp_path / "snap"))
    _assert_same(loaded, cat)
    assert loaded.source == source
    assert loaded.handicaps.shape == (0, 2)


def test_manifest_records_source_version_tables_and_no_token(
    small: Catalogue, tmp_path: Path
) -> None:
    secret = "s3cr3t-token-value"
    when = small.source.fetched_at
    url = f"https://user:{secret}@edu.example.org/api?access_token={secret}#x"
    cat = _subset(small, list(small), Source(url=url, demo=False, fetched_at=when))
    path = snapshot.save(cat, tmp_path / "snap")
    manifest = snapshot.read_manifest(path)
    assert manifest["format_version"] == snapshot.FORMAT_VERSION
    assert manifest["educatalog_version"] == educatalog.__version__
    assert manifest["source"] == {
        "url": "https://edu.example.org/api",
        "demo": False,
        "fetched_at": when.isoformat(),
    }
    assert manifest["created_at"]
    events = manifest["tables"]["events"]
    assert events["file"] == "events.parquet"
    assert events["rows"] == len(small.events)
    assert {"name": "event_start_date", "dtype": str(small.events.event_start_date.dtype)} in (
        events["columns"]
    )
    assert len(events["sha256"]) == 64
    for file in path.iterdir():
        assert secret.encode() not in file.read_bytes(), file
    assert snapshot.load(path).source.url == "https://edu.example.org/api"


# ---------------------------------------------------------------------------------------
# Personal data


def test_personal_fields_are_left_out_unless_asked_for(small: Catalogue, tmp_path: Path) -> None:
    assert set(PERSONAL) >= {"first_name", "last_name", "phone", "email"}
    default = snapshot.save(small, tmp_path / "default")
    manifest = snapshot.read_manifest(default)
    assert manifest["include_personal"] is False
    assert manifest["personal_fields_omitted"] == {"contacts": list(PERSONAL)}
    columns = pq.read_schema(default / "contacts.parquet").names
    assert not set(PERSONAL) & set(columns)  # not in the file, not only hidden on load
    loaded = snapshot.load(default)
    assert list(loaded.contacts.columns) == [c for c in small.contacts if c not in PERSONAL]
    people = set(small.contacts["email"].dropna()) | set(small.contacts["phone"].dropna())
    assert people
    text = (default / "contacts.parquet").read_bytes()
    assert not [p for p in people if p.encode() in text]

    full = snapshot.save(small, tmp_path / "full", include_personal=True)
    manifest = snapshot.read_manifest(full)
    assert manifest["include_personal"] is True
    assert manifest["personal_fields_omitted"] == {}
    pd.testing.assert_frame_equal(snapshot.load(full).contacts, small.contacts)


# ---------------------------------------------------------------------------------------
# Damage is detected, naming the file


@pytest.fixture
def saved(small: Catalogue, tmp_path: Path) -> Path:
    return snapshot.save(small, tmp_path / "snap")


def _fails(path: Path, mentions: str, *, verify: bool = True) -> str:
    with pytest.raises(SnapshotError) as info:
        snapshot.load(path, verify=verify)
    assert mentions in str(info.value)
    with pytest.raises(SnapshotError, match=mentions):
        snapshot.verify(path)
    return str(info.value)


def test_a_corrupted_file_is_named(saved: Path) -> None:
    file = saved / "events.parquet"
    data = bytearray(file.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 8] = bytes(b ^ 0xFF for b in data[middle : middle + 8])
    file.write_bytes(bytes(data))
    message = _fails(saved, str(file))
    assert "corrupted" in message


def test_a_truncated_file_is_named_even_without_checksums(saved: Path) -> None:
    file = saved / "events.parquet"
    file.write_bytes(file.read_bytes()[: file.stat().st_size // 2])
    assert "truncated" in _fails(saved, str(file))
    with pytest.raises(SnapshotError, match=r"events\.parquet"):
        snapshot.load(saved, verify=False)  # Parquet itself refuses it


def test_a_missing_file_is_named(saved: Path) -> None:
    (saved / "contacts.parquet").unlink()
    assert "missing" in _fails(saved, "contacts.parquet")


@pytest.mark.parametrize(
    "tamper",
    [
        lambda m: m["tables"]["events"].update(rows=m["tables"]["events"]["rows"] + 1),
        lambda m: m.update(include_personal=True),
        lambda m: m["source"].update(url="https://elsewhere.example.org"),
        lambda m: m["tables"]["states"].update(sha256="0" * 64),
    ],
    ids=["rows", "personal", "source", "checksum"],
)
def test_a_tampered_manifest_is_named(saved: Path, tamper: Any) -> None:
    file = saved / "manifest.json"
    manifest = json.loads(file.read_text())
    tamper(manifest)
    file.write_text(json.dumps(manifest))
    assert "modified" in _fails(saved, str(file))


def test_a_tampered_row_count_is_caught_by_the_data_without_checksums(saved: Path) -> None:
    file = saved / "manifest.json"
    manifest = json.loads(file.read_text())
    manifest["tables"]["events"]["rows"] += 1
    file.write_text(json.dumps(manifest))
    with pytest.raises(SnapshotError, match=r"events\.parquet holds \d+ rows"):
        snapshot.load(saved, verify=False)


def test_a_missing_or_broken_manifest_is_named(saved: Path, tmp_path: Path) -> None:
    file = saved / "manifest.json"
    file.write_text("{not json")
    _fails(saved, str(file))
    file.unlink()
    assert "missing" in _fails(saved, str(file))
    with pytest.raises(SnapshotError, match="not a directory"):
        snapshot.load(tmp_path / "nowhere")


# ---------------------------------------------------------------------------------------
# Writing: all or nothing, never over an existing snapshot


@pytest.mark.parametrize("error", [OSError("disk full"), KeyboardInterrupt()])
def test_an_interrupted_save_leaves_nothing_behind(
    small: Catalogue, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> None:
    from educatalog.snapshot import saving

    original = saving._write_table
    written: list[str] = []

    def failing(folder: Path, name: str, frame: pd.DataFrame) -> dict[str, Any]:
        if len(written) == 2:
            raise error
        written.append(name)
        return original(folder, name, frame)

    monkeypatch.setattr(saving, "_write_table", failing)
    with pytest.raises(type(error)):
        snapshot.save(small, tmp_path / "snap")
    assert written  # it was interrupted in the middle
    assert list(tmp_path.iterdir()) == []  # no snapshot, no temporary directory


def test_save_never_overwrites(saved: Path, small: Catalogue) -> None:
    before = {f.name: f.read_bytes() for f in saved.iterdir()}
    with pytest.raises(SnapshotError, match="already exists"):
        snapshot.save(small, saved)
    assert {f.name: f.read_bytes() for f in saved.iterdir()} == before
    with pytest.raises(SnapshotError, match="already exists"):
        snapshot.save(small, saved / "manifest.json")
    assert sorted(p.name for p in saved.parent.iterdir()) == ["snap"]


# ---------------------------------------------------------------------------------------
# diff


def test_diff_counts_rows_added_removed_and_changed(small: Catalogue) -> None:
    events = small.events.copy()
    events = events[~events["id"].isin(events["id"].iloc[:3])]  # 3 removed
    events.loc[events.index[:4], "remarks"] = "geändert"  # 4 changed (none said that)
    events.loc[events.index[4], "event_start_date"] = pd.NaT  # a null where a value was
    new_rows = small.events.iloc[:2].copy()
    new_rows["id"] = new_rows["id"] + 1_000_000  # 2 added
    events = pd.concat([events, new_rows], ignore_index=True)
    links = small.events_contacts.iloc[2:]  # 2 pairs removed
    extra = pd.DataFrame({"event_id": [999_999], "contact_id": [1]}).astype("Int64")
    links = pd.concat([links, extra], ignore_index=True)  # 1 pair added
    contacts = small.contacts.copy()
    contacts.loc[0, "email"] = pd.NA if pd.notna(contacts.loc[0, "email"]) else "x@example.org"
    new = Catalogue(
        {
            "states": small.states.copy(),
            "events": events,
            "contacts": contacts,
            "events_contacts": links,
        }
    )
    changes = snapshot.diff(small, new)
    assert list(changes.columns) == ["rows_before", "rows_after", "added", "removed", "changed"]
    assert changes.loc["events"].tolist() == [len(small.events), len(events), 2, 3, 5]
    assert changes.loc["events_contacts", ["added", "removed", "changed"]].tolist() == [1, 2, 0]
    assert changes.loc["contacts", "changed"] == 1
    assert changes.loc["states"].tolist() == [16, 16, 0, 0, 0]
    assert (snapshot.diff(small, small)[["added", "removed", "changed"]] == 0).all().all()
    only_old = snapshot.diff(small, _subset(small, ["states"]))
    assert only_old.loc["events"].isna().tolist() == [False, True, True, True, True]


# ---------------------------------------------------------------------------------------
# export


def test_export_csv_xlsx_parquet_with_row_counts(small: Catalogue, tmp_path: Path) -> None:
    path = snapshot.save(small, tmp_path / "snap", include_personal=True)
    counts = {name: len(frame) for name, frame in small.items()}

    files = snapshot.export(path, tmp_path / "csv", format="csv")
    assert sorted(f.name for f in files) == sorted(f"{n}.csv" for n in counts)
    for name, rows in counts.items():
        frame = pd.read_csv(tmp_path / "csv" / f"{name}.csv")
        assert len(frame) == rows, name
    contacts = pd.read_csv(tmp_path / "csv" / "contacts.csv")
    assert not set(PERSONAL) & set(contacts.columns)  # left out unless asked for
    events = pd.read_csv(tmp_path / "csv" / "events.csv", dtype=str)
    first = small.events.event_start_date.dropna().iloc[0]
    assert first.strftime("%Y-%m-%dT%H:%M:%S") in set(events["event_start_date"])

    (parquet,) = set(snapshot.export(path, tmp_path / "pq", format="parquet")) & {
        tmp_path / "pq" / "events.parquet"
    }
    pd.testing.assert_frame_equal(pd.read_parquet(parquet), small.events)

    (book,) = snapshot.export(path, tmp_path / "xl", format="xlsx", include_personal=True)
    assert book == tmp_path / "xl" / "snap.xlsx"
    sheets = pd.read_excel(book, sheet_name=None)
    assert {name: len(frame) for name, frame in sheets.items()} == counts
    assert set(PERSONAL) <= set(sheets["contacts"].columns)  # asked for, and held

    with pytest.raises(EducatalogError, match="Not overwriting"):
        snapshot.export(path, tmp_path / "csv", format="csv")


def test_excel_sheet_names_and_text_that_looks_like_a_formula(tmp_path: Path) -> None:
    names = snapshot.sheet_names(
        ["courses_funding_types_federals", "x" * 40, "x" * 35, "X" * 31, "a/b"]
    )
    assert all(len(n) <= 31 for n in names.values())
    assert len({n.lower() for n in names.values()}) == 5
    assert names["a/b"] == "a_b"
    states = pd.DataFrame(
        {
            "id": pd.array([1, 2], dtype="Int64"),
            "name": pd.array(['=HYPERLINK("http://x")', "a\x01b"], dtype="string"),
        }
    )
    path = snapshot.save(Catalogue({"states": states}), tmp_path / "snap")
    (book,) = snapshot.export(path, tmp_path / "xl", format="xlsx")
    from openpyxl import load_workbook

    sheet = load_workbook(book)["states"]
    assert sheet["B2"].value == '=HYPERLINK("http://x")'
    assert sheet["B2"].data_type == "s"  # text, not a formula
    assert sheet["B3"].value == "a\ufffdb"


# ---------------------------------------------------------------------------------------
# The command line, as real processes


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "educatalog.cli", *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
        timeout=300,
    )


def _modified(records: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """The records with 3 events removed, 2 added, 4 changed; one contact's personal e-mail
    and another's role changed; 2 links removed and 1 added."""
    new = copy.deepcopy(records)
    events = new["events"]
    del events[10:13]
    for event in events[20:24]:
        event["max_participants"] = (event["max_participants"] or 0) + 100
    top = max(e["id"] for e in events)
    events += [{**events[0], "id": top + 1}, {**events[1], "id": top + 2}]
    new["contacts"][0]["email"] = "changed@example.org"  # personal: not in the snapshot
    new["contacts"][1]["role"] = (new["contacts"][1]["role"] or 0) % 3 + 1
    links = new["events_contacts"]
    del links[:2]
    pairs = {(r["events_id"], r["contacts_id"]) for r in links}
    assert (top + 1, new["contacts"][0]["id"]) not in pairs
    links.append({"id": 10**6, "events_id": top + 1, "contacts_id": new["contacts"][0]["id"]})
    return new


def _expected_changes(old_db: Path, new_db: Path) -> dict[str, dict[str, int]]:
    """Plain Python over the two databases' rows: what `fetch --update` must report."""
    out: dict[str, dict[str, int]] = {}
    for name in ("events", "contacts", "states"):
        personal = set(snapshot.PERSONAL_FIELDS.get(name, ()))
        old = {r["id"]: r for r in read_rows(old_db, name)}
        new = {r["id"]: r for r in read_rows(new_db, name)}
        common = old.keys() & new.keys()

        def public(row: dict[str, Any], personal: set[str] = personal) -> dict[str, Any]:
            return {k: v for k, v in row.items() if k not in personal}

        out[name] = {
            "added": len(new.keys() - old.keys()),
            "removed": len(old.keys() - new.keys()),
            "changed": sum(public(old[i]) != public(new[i]) for i in common),
        }
    junction = "events_contacts"
    old_pairs = {(r["events_id"], r["contacts_id"]) for r in read_rows(old_db, junction)}
    new_pairs = {(r["events_id"], r["contacts_id"]) for r in read_rows(new_db, junction)}
    old_pairs = {p for p in old_pairs if None not in p}
    new_pairs = {p for p in new_pairs if None not in p}
    out[junction] = {
        "added": len(new_pairs - old_pairs),
        "removed": len(old_pairs - new_pairs),
        "changed": 0,
    }
    return out


def test_fetch_then_update_writes_a_new_snapshot_with_the_changes(tmp_path: Path) -> None:
    from educatalog.demodata import collect

    records = collect(seed=3, scale=0.02)
    old_db = build_test_database(tmp_path / "old.sqlite", records)
    new_db = build_test_database(tmp_path / "new.sqlite", _modified(records))
    env = {"EDUCATALOG_TOKEN": TOKEN, "EDUCATALOG_CACHE": str(tmp_path / "cache")}
    port = free_port()
    out = tmp_path / "snaps" / "catalogue"
    with serve(database=old_db, token=TOKEN, port=port) as server:
        done = _cli("fetch", "--url", server.url, "--out", str(out), env=env)
    assert done.returncode == 0, done.stderr
    assert f"Snapshot written to {out}" in done.stdout
    assert "Personal fields of contacts are left out" in done.stdout
    assert TOKEN not in done.stdout + done.stderr
    manifest = snapshot.read_manifest(out)
    assert manifest["source"]["url"] == f"http://127.0.0.1:{port}"
    assert manifest["include_personal"] is False
    assert len(manifest["tables"]) == 25
    first = {n: e["sha256"] for n, e in manifest["tables"].items()}

    # The same address now serves the changed catalogue.
    with serve(database=new_db, token=TOKEN, port=port):
        done = _cli("fetch", "--update", str(out), env=env)
    assert done.returncode == 0, done.stderr
    (newer,) = [p for p in out.parent.iterdir() if p != out]
    assert newer.name.startswith("catalogue-")
    assert newer.name.endswith("Z")
    assert f"Snapshot written to {newer}" in done.stdout
    assert f"Changes since {out}" in done.stdout
    # The old snapshot is untouched.
    assert {n: e["sha256"] for n, e in snapshot.verify(out)["tables"].items()} == first

    expected = _expected_changes(old_db, new_db)
    assert expected["events"] == {"added": 2, "removed": 3, "changed": 4}
    assert expected["contacts"] == {"added": 0, "removed": 0, "changed": 1}
    assert expected["events_contacts"] == {"added": 1, "removed": 2, "changed": 0}
    changes = snapshot.read_manifest(newer)["changes"]
    for name, counts in expected.items():
        assert {k: changes[name][k] for k in counts} == counts, name
    for name, counts in changes.items():
        if name not in expected:
            assert counts["added"] == counts["removed"] == counts["changed"] == 0, name
    assert snapshot.read_manifest(newer)["previous"]["name"] == "catalogue"
    line = next(r for r in done.stdout.splitlines() if r.startswith("events "))
    rows = len(records["events"])
    assert line.split()[1:] == [str(rows), str(rows - 1), "2", "3", "4"]
    assert "In all: 3 rows added, 5 removed, 5 changed." in done.stdout
    pd.testing.assert_frame_equal(snapshot.diff(out, newer).astype(int), _as_frame(changes))

    # Nothing is ever written over an existing snapshot.
    done = _cli("fetch", "--url", "http://127.0.0.1:9", "--out", str(out), env=env)
    assert done.returncode == 1
    assert "already exists" in done.stderr


def test_a_served_snapshot_is_cited_by_its_service_and_the_day_it_was_fetched(
    small: Catalogue, tmp_path: Path
) -> None:
    """Loaded from ``educatalog serve --snapshot``, the catalogue's source (every chart's,
    table's and report's source line and "Stand") is the service the snapshot was fetched
    from, as it stood then: not the loopback address it was served from, not today."""
    fetched = dt.datetime(2024, 3, 15, 9, 30, tzinfo=dt.UTC)
    source = Source(url="https://kurse.example.org/api", demo=False, fetched_at=fetched)
    path = snapshot.save(_subset(small, ["states", "events"], source), tmp_path / "snap")
    served = _fetch(snapshot.database(path, directory=tmp_path / "cache"))
    assert served.source == source
    assert served.source.stand == dt.date(2024, 3, 15)
    demo = snapshot.save(_subset(small, ["states"]), tmp_path / "demo")
    served = _fetch(snapshot.database(demo, directory=tmp_path / "cache"))
    assert served.source == small.source  # the demo, as of when it was fetched
    assert served.source.demo


def _as_frame(changes: dict[str, dict[str, int]]) -> pd.DataFrame:
    frame = pd.DataFrame.from_dict(changes, orient="index").astype(int)
    frame.index.name = "table"
    return frame


def test_serve_snapshot_and_export_as_commands(small: Catalogue, tmp_path: Path) -> None:
    path = snapshot.save(small, tmp_path / "snap")
    env = {"EDUCATALOG_CACHE": str(tmp_path / "cache")}
    with serving("--snapshot", str(path), "--token", TOKEN, env=env) as (url, _):
        info = httpx.get(url + "/server/info").json()["data"]["educatalog"]
        assert info["demo"] is True
        assert info["snapshot"]["name"] == "snap"
        assert info["snapshot"]["include_personal"] is False
        with educatalog.Client(url, token=TOKEN) as client:
            served = educatalog.load_catalogue(client)
            r = client._http.get("/items/events", params={"limit": "1"})
            assert r.headers["x-educatalog-data"] == "synthetic-demo"
    loaded = snapshot.load(path)
    for name in loaded:
        columns = list(loaded[name].columns)
        pd.testing.assert_frame_equal(served[name][columns], loaded[name], obj=name)
    assert list((tmp_path / "cache" / "snapshots").glob("snapshot-*.sqlite"))

    for fmt in ("csv", "xlsx", "parquet"):
        done = _cli(
            "export", "--snapshot", str(path), "--format", fmt, "--out", str(tmp_path / fmt)
        )
        assert done.returncode == 0, done.stderr
        assert "left out" in done.stdout
    assert len(list((tmp_path / "csv").glob("*.csv"))) == len(small)
    assert len(pd.read_csv(tmp_path / "csv" / "events.csv")) == len(small.events)
    sheets = pd.read_excel(tmp_path / "xlsx" / "snap.xlsx", sheet_name=None)
    assert {n: len(f) for n, f in sheets.items()} == {n: len(f) for n, f in loaded.items()}
    assert len(pd.read_parquet(tmp_path / "parquet" / "events_contacts.parquet")) == len(
        loaded.events_contacts
    )
    done = _cli(
        "export", "--snapshot", str(path), "--format", "csv", "--out", str(tmp_path / "p"),
        "--include-personal",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "saved without the personal fields" in done.stdout


def test_commands_name_a_damaged_snapshot_file(saved: Path, tmp_path: Path) -> None:
    (saved / "events.parquet").write_bytes(b"PAR1 not really")
    env = {"EDUCATALOG_CACHE": str(tmp_path / "cache")}
    done = _cli("serve", "--snapshot", str(saved), "--port", str(free_port()), env=env)
    assert done.returncode == 2
    assert str(saved / "events.parquet") in done.stderr
    done = _cli("export", "--snapshot", str(saved), "--format", "csv", "--out", str(tmp_path))
    assert done.returncode == 1
    assert "events.parquet" in done.stderr
    done = _cli("fetch")
    assert done.returncode == 2
    assert "--out PATH" in done.stderr
