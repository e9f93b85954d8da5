"""An interrupted `history.add` or `educatalog fetch --archive` (SIGKILL: nothing can be
cleaned up) leaves an archive that holds the new snapshot completely or not at all, every
file checking out against the manifest, and the next add works (issue 22).

Processes are killed at random moments of the addition and at the steps that matter: after
some of its Parquet files are written, with the new manifest written but not yet moved into
place, and with it in place but the files it supersedes not yet removed
(tests/interrupted.py); `educatalog fetch --archive` as a real command."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from educatalog import history, snapshot
from educatalog.demodata.timeline import DemoTimeline, monthly_dates
from interrupted import add_killed, time_add

SCALE = 0.02
DATES = monthly_dates("2024-01-01", 24)[::8]  # the archive holds the first; add the second


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The archive of the first date, the plain snapshots of all three, and the supply by
    state each archive state must give."""
    root = tmp_path_factory.mktemp("interrupted")
    timeline = DemoTimeline(seed=0, scale=SCALE)
    for day in DATES:
        snapshot.save(timeline.catalogue(day), root / "plain" / day.isoformat())
    history.add(root / "base", root / "plain" / DATES[0].isoformat())
    full = root / "full"
    for day in DATES:
        history.add(full, root / "plain" / day.isoformat())
    supply = history.open(full).supply(by="state")
    return {"root": root, "supply": supply}


def _check(archive: Path, made: dict[str, Any]) -> list:
    """The archive holds the first date and the second completely or not at all; every file
    checks out; nothing is stored that its manifest does not list (once the next add has
    cleaned up); the supply by state of each date is the right one."""
    arc = history.open(archive)
    assert arc.dates in (DATES[:1], DATES[:2], DATES), arc.dates
    arc.verify()
    got = arc.supply(by="state")
    expected = made["supply"].loc[[pd.Timestamp(d) for d in arc.dates]]
    pd.testing.assert_frame_equal(got, expected, check_exact=True)
    for day in arc.dates[1:]:
        original = snapshot.load(made["root"] / "plain" / day.isoformat())
        rebuilt = arc.snapshot(day)
        for name in ("events", "courses", "events_contacts"):
            pd.testing.assert_frame_equal(rebuilt[name], original[name], check_exact=True)
    arc.close()
    return arc.dates


def _next_add_works(archive: Path, made: dict[str, Any]) -> None:
    dates = history.open(archive).dates
    following = DATES[len(dates)]
    history.add(archive, made["root"] / "plain" / following.isoformat())
    assert _check(archive, made)[-1] == following
    stored = {p.relative_to(archive).as_posix() for p in archive.rglob("*") if p.is_file()}
    listed = set(history.open(archive).manifest["files"])
    assert stored - listed == {"archive.json", ".archive.lock"}  # no stray file left


STEPS = ["write:1", "write:12", "write:30", "replace", "committed"]


@pytest.mark.parametrize("step", STEPS)
def test_an_add_killed_at_a_step_leaves_the_archive_whole(
    made: dict[str, Any], tmp_path: Path, step: str
) -> None:
    archive = tmp_path / "archive"
    shutil.copytree(made["root"] / "base", archive)
    assert not add_killed(archive, made["root"] / "plain" / DATES[1].isoformat(), step)
    dates = _check(archive, made)
    assert dates == (DATES[:2] if step == "committed" else DATES[:1])
    if step == "replace":
        assert list(archive.glob(".archive.json.*.partial"))  # what the next add removes
    _next_add_works(archive, made)


@pytest.mark.slow  # minutes of kills; the kills at the steps that matter run in test-floors
def test_adds_killed_at_random_moments_leave_the_archive_whole(
    made: dict[str, Any], tmp_path: Path
) -> None:
    """Eight additions killed at random moments of their run (seeded): while reading and
    writing, before, while and after the manifest moves into place; each leaves a whole
    archive, and the next add works."""
    plain = made["root"] / "plain" / DATES[1].isoformat()
    shutil.copytree(made["root"] / "base", tmp_path / "timed")
    took = time_add(tmp_path / "timed", plain)
    rng = random.Random(22)
    outcomes = []
    for i in range(8):
        archive = tmp_path / f"archive-{i}"
        shutil.copytree(made["root"] / "base", archive)
        add_killed(archive, plain, delay=rng.uniform(0.0, took * 1.1))
        outcomes.append(len(_check(archive, made)))
        _next_add_works(archive, made)
    print(f"\nadd takes {took:.2f} s; dates held after each kill: {outcomes}")
    assert 1 in outcomes  # some kills landed before the manifest moved


def _files(archive: Path) -> dict[str, bytes]:
    """The archive's Parquet files and its manifest, by path (the manifest with its bytes)."""
    found = {p.relative_to(archive).as_posix(): b"" for p in archive.rglob("*.parquet")}
    manifest = archive / "archive.json"
    found["archive.json"] = manifest.read_bytes() if manifest.is_file() else b""
    return found


def _landed(archive: Path, before: dict[str, bytes]) -> str:
    """Where a kill landed, read from what it left (a killed process cleans nothing up):
    ``download`` (the archive untouched), ``writing`` (new Parquet files, the manifest
    the old one), ``committed`` (a new manifest)."""
    after = _files(archive)
    if after["archive.json"] != before["archive.json"]:
        return "committed"
    return "writing" if set(after) - set(before) else "download"


# Where a fetch is killed: once it says that it is fetching (the download from the demo
# server), and once some of the new snapshot's Parquet files are written (the addition).
KILLS = {"download": 0, "writing": 3}
"""Phase -> how many new Parquet files to wait for before the kill."""


def test_a_fetch_killed_while_downloading_or_writing_leaves_the_archive_whole(
    made: dict[str, Any], tmp_path: Path
) -> None:
    """`educatalog fetch --archive DIR --demo --as-of DATE` killed while it downloads and
    while it writes the new snapshot's rows into the archive: the archive holds the new
    snapshot completely or not at all, and the next add works. Each kill waits for what
    the command does (its message, the files it writes), not for a time, and the test
    checks where it landed from what the archive holds after it."""
    env = {**os.environ, "EDUCATALOG_CACHE": str(tmp_path / "cache")}
    env.pop("EDUCATALOG_URL", None)
    command = [sys.executable, "-m", "educatalog.cli", "fetch", "--demo", "--scale", str(SCALE)]
    command += ["--as-of", DATES[1].isoformat(), "--archive"]
    landed: dict[str, list[str]] = {phase: [] for phase in KILLS}
    for phase, files in KILLS.items():
        for attempt in range(3):  # a busy machine may let the window pass unseen: again
            archive = tmp_path / f"archive-{phase}-{attempt}"
            shutil.copytree(made["root"] / "base", archive)
            before = _files(archive)
            log = tmp_path / f"fetch-{phase}-{attempt}.log"
            with log.open("w") as output:
                proc = subprocess.Popen(
                    [*command, str(archive)],
                    env=env,
                    stdout=output,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                )
            deadline = time.monotonic() + 300
            try:
                while proc.poll() is None:
                    assert time.monotonic() < deadline, log.read_text()
                    said = "Fetching the catalogue" in log.read_text()
                    new = set(_files(archive)) - set(before)
                    if said and len(new) >= files:
                        break
                    time.sleep(0.002)  # polling, not a wait taken as proof
            finally:
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=60)
            assert proc.returncode in (0, -signal.SIGKILL), (proc.returncode, log.read_text())
            # run to its end before the kill (the window passed unseen): "completed"
            landed[phase].append(_landed(archive, before) if proc.returncode else "completed")
            held = 1 if landed[phase][-1] in ("download", "writing") else 2
            assert len(_check(archive, made)) == held
            _next_add_works(archive, made)
            if landed[phase][-1] == phase:
                break
    print(f"\nwhere the kills landed: {landed}")
    assert {phase: kills[-1] for phase, kills in landed.items()} == {p: p for p in KILLS}
