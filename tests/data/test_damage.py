"""Nothing wrong without an error (issue 22), for archives and snapshots: copies damaged the
ways disks, sync tools and colleagues damage files (tests/damage.py: bits flipped with the
size unchanged at several places, truncated, appended to, replaced by an older snapshot's
file of the same kind), each read as a user reads it. Every read gives the right numbers or
an error naming the damaged file; never wrong numbers. The caches and reports:
test_damage_caches.py."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from damage import Tally, damaged_copies
from educatalog import history, snapshot, stats
from educatalog.demodata.timeline import DemoTimeline, monthly_dates
from educatalog.errors import ArchiveError, EducatalogError
from educatalog.frames.catalogue import Catalogue

SCALE = 0.02
DATES = monthly_dates("2024-01-01", 24)[::8]  # three snapshots, eight months apart
FIRST, MIDDLE, LAST = (d.isoformat() for d in DATES)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Plain snapshots of three dates, the archive of the first two (the older) and of all
    three, and what reading them must give."""
    root = tmp_path_factory.mktemp("damage")
    timeline = DemoTimeline(seed=0, scale=SCALE)
    catalogues = {day: timeline.catalogue(day) for day in DATES}
    for day, catalogue in catalogues.items():
        snapshot.save(catalogue, root / "plain" / day.isoformat())
        history.add(root / "archive", catalogue, date=day)
        if day == DATES[1]:
            shutil.copytree(root / "archive", root / "older")
    archive = history.open(root / "archive")
    truth = {
        "supply": archive.supply(by="state"),
        "flows": archive.flows("courses"),
        "first": archive.snapshot(DATES[0]),
        "last": archive.snapshot(DATES[-1]),
        "snapshot": snapshot.load(root / "plain" / LAST),
    }
    for day, catalogue in catalogues.items():  # the truth is true: pandas on the originals
        got = truth["supply"].xs(pd.Timestamp(day), level="snapshot_date")
        expected = stats.supply(catalogue.offers(), by="state")
        pd.testing.assert_frame_equal(got, expected, check_index_type=False)
    assert _same(truth["snapshot"], truth["last"])  # both without personal fields
    return {"root": root, "truth": truth}


def _same(a: Catalogue, b: Catalogue) -> bool:
    if list(a) != list(b):
        return False
    for name in b:
        try:
            pd.testing.assert_frame_equal(a[name], b[name], check_exact=True)
        except AssertionError:
            return False
    return True


def _equal(expected: pd.DataFrame) -> Any:
    def right(got: pd.DataFrame) -> bool:
        try:
            pd.testing.assert_frame_equal(got, expected, check_exact=True)
        except AssertionError:
            return False
        return True

    return right


ARCHIVE_VICTIMS = [
    # (damaged file, the valid file of the same kind that replaces it)
    ("archive.json", "older/archive.json"),
    (f"snapshots/{LAST}.json", f"archive/snapshots/{MIDDLE}.json"),
    (f"offers/open-{LAST}.parquet", f"older/offers/open-{MIDDLE}.parquet"),
    (f"offers/closed-{LAST}.parquet", f"archive/offers/closed-{MIDDLE}.parquet"),
    (f"funding/open-{LAST}.parquet", f"older/funding/open-{MIDDLE}.parquet"),
    (f"tables/events/open-{LAST}.parquet", f"older/tables/events/open-{MIDDLE}.parquet"),
    (f"tables/events/closed-{MIDDLE}.parquet", f"archive/tables/events/closed-{LAST}.parquet"),
    (f"tables/courses/open-{LAST}.parquet", f"older/tables/courses/open-{MIDDLE}.parquet"),
]


def _archive_reads(copy: Path, victim: str, truth: dict[str, Any]) -> list[tuple[Any, Any]]:
    """The reads of an archive a user makes, each with its check of the answer (the
    oldest snapshot rebuilt where a table's file is damaged: it reads the closed rows)."""
    opened: dict[str, history.Archive] = {}

    def arc() -> history.Archive:
        if "a" not in opened:
            opened["a"] = history.open(copy)
        return opened["a"]

    return [
        (lambda: arc().supply(by="state"), _equal(truth["supply"])),
        (lambda: arc().flows("courses"), _equal(truth["flows"])),
        (lambda: arc().snapshot(DATES[-1]), lambda got: _same(got, truth["last"])),
    ] + [
        (lambda: arc().snapshot(DATES[0]), lambda got: _same(got, truth["first"]))
        for _ in range(victim.startswith("tables/"))
    ]


def test_a_damaged_archive_never_gives_wrong_numbers(made: dict, tmp_path: Path) -> None:
    """96 damaged copies of an archive (8 files of every kind it holds, 12 ways each), each
    read three or four ways: supply by state, flows of courses, the newest (and for tables
    the oldest) snapshot rebuilt. Before issue 22, bits flipped in the newest offers file
    gave wrong numbers without an error in about one read in four."""
    root, truth = made["root"], made["truth"]
    tally = Tally()
    for victim, other in ARCHIVE_VICTIMS:
        for damage, copy in damaged_copies(root / "archive", victim, tmp_path, root / other):
            tally.copies["archive"] += 1
            for read, right in _archive_reads(copy, victim, truth):
                tally.read("archive", copy / victim, damage, read, right)
            shutil.rmtree(copy)
    tally.check(minimum_copies=96)
    assert tally.counts["archive", Tally.NAMED] > 0


SNAPSHOT_VICTIMS = ["manifest.json", "events.parquet", "courses.parquet", "event_costs.parquet"]
SNAPSHOT_VICTIMS += ["events_contacts.parquet"]


def test_a_damaged_snapshot_never_gives_wrong_numbers(made: dict, tmp_path: Path) -> None:
    """60 damaged copies of a snapshot (its manifest and four tables, 12 ways each; the
    older snapshot's file under the newer name), each loaded and compared table by table."""
    root, truth = made["root"], made["truth"]
    tally = Tally()
    for victim in SNAPSHOT_VICTIMS:
        other = root / "plain" / MIDDLE / victim
        for damage, copy in damaged_copies(root / "plain" / LAST, victim, tmp_path, other):
            tally.copies["snapshot"] += 1
            tally.read(
                "snapshot",
                copy / victim,
                damage,
                lambda copy=copy: snapshot.load(copy),  # type: ignore[misc]
                lambda got: _same(got, truth["snapshot"]),
            )
            shutil.rmtree(copy)
    tally.check(minimum_copies=60)


def test_without_verification_duckdb_errors_still_name_the_file(made: dict, tmp_path: Path) -> None:
    """history.open(..., verify=False) skips the checksums (a flipped bit may then give
    wrong numbers: the user chose so), but DuckDB's own errors on a damaged file ("Out of
    buffer", "don't know what type", ...) still become an ArchiveError naming the file, and
    Archive.verify() still finds it."""
    root = made["root"]
    victim = f"offers/open-{LAST}.parquet"
    size = (root / "archive" / victim).stat().st_size
    errors: list[tuple[Path, EducatalogError]] = []
    for i in range(12):  # the page headers and the footer: where DuckDB notices
        copy = tmp_path / f"copy-{i}"
        shutil.copytree(root / "archive", copy)
        data = bytearray((copy / victim).read_bytes())
        at = 4 + i * 61 if i < 6 else size - 8 - (i - 6) * 97
        data[at : at + 4] = b"\xff\xff\xff\x7f"
        (copy / victim).write_bytes(bytes(data))
        arc = history.open(copy, verify=False)
        try:
            arc.supply(by="state")
            arc.flows("courses")
        except EducatalogError as exc:
            errors.append((copy / victim, exc))
        with pytest.raises(ArchiveError, match="is damaged"):
            arc.verify()
        with pytest.raises(ArchiveError, match=re.escape(str(copy / victim))):
            history.open(copy).supply(by="state")  # verified: named before DuckDB reads
    assert errors  # some damage DuckDB itself noticed: each became an ArchiveError naming it
    for path, error in errors:
        assert isinstance(error, ArchiveError)
        assert str(path) in str(error)


def test_a_file_changed_after_the_archive_was_opened_is_noticed(made: dict, tmp_path: Path) -> None:
    """A file is hashed once while it stays as it was; written in place or replaced later,
    it is hashed again before the next read (a damage between two reads is named too)."""
    root, truth = made["root"], made["truth"]
    copy = tmp_path / "copy"
    shutil.copytree(root / "archive", copy)
    arc = history.open(copy)
    pd.testing.assert_frame_equal(arc.supply(by="state"), truth["supply"])
    victim = copy / f"offers/closed-{LAST}.parquet"
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0x01
    victim.write_bytes(bytes(data))
    with pytest.raises(ArchiveError, match=re.escape(f"{victim} is damaged")):
        arc.supply(by="state")
    with pytest.raises(ArchiveError, match=re.escape(f"{victim} is damaged")):
        arc.sql("SELECT count(*) FROM offers")
    data[len(data) // 2] ^= 0x01  # as it was: the same numbers again
    victim.write_bytes(bytes(data))
    pd.testing.assert_frame_equal(arc.flows("courses"), truth["flows"])
    with pytest.raises(Exception, match="syntax error"):
        arc.sql("SELEC 1")  # a mistake in the query stays DuckDB's own error


def test_an_archive_opened_before_an_addition_says_so(made: dict, tmp_path: Path) -> None:
    """An archive opened before another addition superseded the files it read: the error
    says the archive changed and to open it again (not that a file was lost)."""
    root = made["root"]
    copy = tmp_path / "copy"
    shutil.copytree(root / "older", copy)
    arc = history.open(copy)
    arc.supply(by="state")
    history.add(copy, root / "plain" / LAST)
    with pytest.raises(ArchiveError, match="a snapshot was added to the archive since"):
        arc.supply(by="state")
    assert history.open(copy).dates == DATES
