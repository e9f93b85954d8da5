"""Nothing wrong without an error (issue 22), for the databases cached in $EDUCATALOG_CACHE
(the demo's, a served snapshot's) and for report manifests: damaged copies (tests/damage.py)
are detected before anything is served or trusted. A damaged cached database is built again
(a CacheRebuilt warning names it) and serves the right rows; a damaged report is named."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pytest

import educatalog
from damage import Tally, damaged_copies
from educatalog import report, snapshot
from educatalog.demodata.embedded import demo_database
from educatalog.demodata.timeline import DemoTimeline
from educatalog.errors import ReportError
from educatalog.files import cache
from educatalog.server.store import read_rows
from educatalog.testing import serve
from processes import serving

SCALE = 0.01
SERVED = ("events", "courses", "event_costs", "institution_types")


def _rows(database: Path) -> str:
    """A digest of every row the server serves of a few collections."""
    digest = hashlib.sha256()
    for name in SERVED:
        digest.update(repr(read_rows(database, name)).encode())
    return digest.hexdigest()


def _cached_reads(
    tally: Tally, what: str, folder: Path, name: str, other: Path, get: Any, truth: str
) -> None:
    """Damaged copies of the cache folder ``folder``: the database ``name`` and its
    checksum beside it, each damaged 12 ways; ``get(copy)`` is the cached database of the
    copy, whose rows must be those of ``truth``."""
    for victim, replacement in ((name, other), (name + ".sha256", Path(f"{other}.sha256"))):
        for damage, copy in damaged_copies(folder, victim, folder.parent, replacement):
            tally.copies[what] += 1
            tally.read(
                what,
                copy / victim,
                damage,
                lambda copy=copy: _rows(get(copy)),  # type: ignore[misc]
                lambda rows: rows == truth,
                names=(copy / name,),  # a damaged checksum: its database is named
            )
            shutil.rmtree(copy)


def test_a_damaged_demo_cache_is_built_again(tmp_path: Path) -> None:
    """24 damaged copies of a cached demo database (the database and its checksum, 12
    ways each; the seed 1 database under the seed 0 name): each is detected before it is
    served and built again, so the rows served are the right ones."""
    folder = tmp_path / "cache"
    path = demo_database(0, SCALE, directory=folder)
    other = demo_database(1, SCALE, directory=tmp_path / "other")
    assert cache.problem(path) is None
    truth = _rows(path)
    tally = Tally()
    _cached_reads(
        tally,
        "demo cache",
        folder,
        path.name,
        other,
        lambda copy: demo_database(0, SCALE, directory=copy),
        truth,
    )
    tally.check(minimum_copies=24)
    # every damaged database was built again; a checksum file whose last byte, the line
    # break, became another white space still holds the checksum: nothing to rebuild
    assert tally.counts["demo cache", Tally.REBUILT] >= 23


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("snapshots")
    timeline = DemoTimeline(seed=0, scale=SCALE)
    dates = timeline.monthly_dates("2024-01-01", 2)
    return (
        snapshot.save(timeline.catalogue(dates[1]), root / "newer"),
        snapshot.save(timeline.catalogue(dates[0]), root / "older"),
    )


def test_a_damaged_snapshot_cache_is_built_again(
    snapshots: tuple[Path, Path], tmp_path: Path
) -> None:
    """24 damaged copies of the cached database of a served snapshot (`serve --snapshot`),
    the older snapshot's database under the newer name among them: each is built again
    from the (verified) snapshot before it is served."""
    newer, older = snapshots
    folder = tmp_path / "cache"
    path = snapshot.database(newer, directory=folder)
    other = snapshot.database(older, directory=tmp_path / "other")
    truth = _rows(path)
    tally = Tally()
    _cached_reads(
        tally,
        "snapshot cache",
        folder,
        path.name,
        other,
        lambda copy: snapshot.database(newer, directory=copy),
        truth,
    )
    tally.check(minimum_copies=24)
    # every damaged database was built again; a checksum file whose last byte, the line
    # break, became another white space still holds the checksum: nothing to rebuild
    assert tally.counts["snapshot cache", Tally.REBUILT] >= 23


def test_serve_snapshot_serves_the_right_rows_from_a_damaged_cache(
    snapshots: tuple[Path, Path], tmp_path: Path
) -> None:
    """`educatalog serve --snapshot` as a real process, its cached database damaged (a bit
    flipped, the size unchanged): it says so, builds it again and serves the right rows."""
    newer, _ = snapshots
    env = {"EDUCATALOG_CACHE": str(tmp_path)}
    with serving("--snapshot", str(newer), env=env) as (url, _):
        pass
    (built,) = (tmp_path / "snapshots").glob("*.sqlite")
    data = bytearray(built.read_bytes())
    data[len(data) // 2] ^= 0x01
    built.write_bytes(bytes(data))
    with serving("--snapshot", str(newer), env=env) as (url, lines):
        answer = httpx.get(
            f"{url}/items/events",
            params={"limit": "-1", "fields": "id,max_participants"},
            headers={"Authorization": "Bearer educatalog-demo-token"},
        )
    assert answer.status_code == 200, answer.text
    served = pd.DataFrame(answer.json()["data"])
    expected = snapshot.load(newer).events
    assert served["id"].tolist() == expected["id"].tolist()
    assert served["max_participants"].sum() == expected["max_participants"].sum()
    assert any(str(built) in line and "damaged" in line for line in lines), lines


def test_the_demo_server_serves_the_right_rows_from_a_damaged_cache(tmp_path: Path) -> None:
    """The embedded demo server (what `educatalog.load()` uses without a service) on a
    cached database with a bit flipped: built again, the sum of max_participants right."""
    path = demo_database(0, SCALE, directory=tmp_path)
    expected = sum(r["max_participants"] or 0 for r in read_rows(path, "events"))
    data = bytearray(path.read_bytes())
    data[int(len(data) * 0.6)] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.warns(cache.CacheRebuilt, match="damaged"):  # noqa: SIM117
        with serve(scale=SCALE, directory=tmp_path) as server, server.client() as client:
            events = educatalog.load("events", client=client)
    assert int(events["max_participants"].sum()) == expected


_BUILD = """
import sys, warnings
warnings.simplefilter("error")  # a CacheRebuilt warning fails
from educatalog.demodata.embedded import demo_database
print(demo_database(0, float(sys.argv[2]), directory=sys.argv[1]))
"""


def test_two_processes_share_one_cached_build(tmp_path: Path) -> None:
    """Two processes asking for the same cached database at once: one builds it, the
    other waits for it (the per-file lock) and neither finds it damaged."""
    command = [sys.executable, "-c", _BUILD, str(tmp_path), "0.05"]
    runs = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    results = [(*run.communicate(timeout=300), run.returncode) for run in runs]
    assert all(code == 0 for _, _, code in results), results
    (path,) = {Path(out.strip()) for out, _, _ in results}
    assert cache.problem(path) is None
    assert (tmp_path / f"{path.name}.sha256").read_text().endswith(f"  {path.name}\n")
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == [
        path.name,
        f"{path.name}.sha256",
    ]


# ---------------------------------------------------------------------------------------
# report manifests


def _report(folder: Path, text: str, states: list[str]) -> dict[str, Any]:
    """A report folder as write_report leaves it (its files and manifest.json)."""
    (folder / "charts").mkdir(parents=True)
    (folder / "report.html").write_text(f"<html><body>{text}</body></html>")
    (folder / "report.ipynb").write_text('{"cells": []}')
    (folder / "tables.xlsx").write_bytes(b"PK\x03\x04" + text.encode() * 50)
    chart = folder / "charts" / "supply-by-state.png"
    chart.write_bytes(b"\x89PNG\r\n" + text.encode() * 80)
    report._write_manifest(
        folder,
        [chart],
        complete=True,
        source={"url": "http://127.0.0.1:8055", "demo": True},
        parameters={"states": states, "start": None, "end": None, "lang": "de"},
    )
    return report.verify(folder)


REPORT_VICTIMS = ["manifest.json", "report.html", "charts/supply-by-state.png"]


def test_a_damaged_report_is_named(tmp_path: Path) -> None:
    """36 damaged copies of a report folder (its manifest, page and a chart, 12 ways each;
    another report's file of the same kind in place of each): report.verify gives the
    manifest as written or an error naming the file."""
    written = _report(tmp_path / "report", "Angebot nach Ländern: 1.234", ["Berlin"])
    _report(tmp_path / "other", "Angebot nach Ländern: 1.243", ["Bayern"])
    tally = Tally()
    for victim in REPORT_VICTIMS:
        copies = damaged_copies(
            tmp_path / "report", victim, tmp_path / "copies", tmp_path / "other" / victim
        )
        for damage, copy in copies:
            tally.copies["report"] += 1
            tally.read(
                "report",
                copy / victim,
                damage,
                lambda copy=copy: report.verify(copy),  # type: ignore[misc]
                lambda manifest: manifest == written,
            )
    tally.check(minimum_copies=36)


def test_a_new_report_never_trusts_a_damaged_manifest(tmp_path: Path) -> None:
    """An earlier report whose manifest is damaged: the folder is refused (naming the
    manifest), nothing of it is deleted; an intact one is replaced as before."""
    from educatalog.report import _remove_earlier_report

    _report(tmp_path, "alt", ["Berlin"])
    manifest = tmp_path / "manifest.json"
    data = manifest.read_bytes()
    manifest.write_bytes(data.replace(b'"Berlin"', b'"Berlim"'))
    before = sorted(p.name for p in tmp_path.rglob("*"))
    with pytest.raises(ReportError, match=f"{manifest} was modified"):
        _remove_earlier_report(tmp_path)
    assert sorted(p.name for p in tmp_path.rglob("*")) == before
    manifest.write_bytes(data)
    _remove_earlier_report(tmp_path)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["charts"]


def test_cache_problem_says_what_is_wrong(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite"
    path.write_bytes(b"data")
    assert "has no checksum beside it" in (cache.problem(path) or "")
    cache.checksum_file(path).write_text(f"{'0' * 64}  y.sqlite\n")
    assert "is not the checksum of x.sqlite" in (cache.problem(path) or "")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        built = cache.cached(tmp_path / "y.bin", lambda p: p.write_bytes(b"built"))
    assert cache.problem(built) is None
    assert os.path.exists(cache.checksum_file(built))


def test_the_demo_as_of_a_date_is_checked_too(tmp_path: Path) -> None:
    """The cached demo as of a date (`fetch --demo --as-of`) is kept and checked the same
    way: a flipped bit is noticed, the database built again."""
    from educatalog.demodata.timeline import as_of_database

    path = as_of_database("2024-06-01", 0, SCALE, directory=tmp_path)
    truth = _rows(path)
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 0x10
    path.write_bytes(bytes(data))
    with pytest.warns(cache.CacheRebuilt, match=re.escape(str(path))):
        again = as_of_database("2024-06-01", 0, SCALE, directory=tmp_path)
    assert again == path
    assert _rows(path) == truth
