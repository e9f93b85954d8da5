"""The archive of snapshots over time: exact rebuilds, and trend statistics by DuckDB equal
to pandas (stats.supply on each original snapshot) and to plain-Python comparisons of ids."""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from educatalog import history, snapshot, stats
from educatalog.demodata.timeline import DemoTimeline, monthly_dates
from educatalog.errors import EducatalogError, UsageError
from educatalog.frames.catalogue import Catalogue
from educatalog.history import ArchiveError

SCALE = 0.05
DATES = monthly_dates("2024-01-01", 24)[::6]  # four snapshots, six months apart


@pytest.fixture(scope="module")
def timeline() -> DemoTimeline:
    return DemoTimeline(seed=0, scale=SCALE)


@pytest.fixture(scope="module")
def built(timeline: DemoTimeline, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Plain snapshots of four dates, and an archive made from those snapshot folders."""
    root = tmp_path_factory.mktemp("history")
    for day in DATES:
        snapshot.save(timeline.catalogue(day), root / "plain" / day.isoformat())
        history.add(root / "archive", root / "plain" / day.isoformat(), date=day)
    return root / "plain", root / "archive"


@pytest.fixture(scope="module")
def archive(built: tuple[Path, Path]) -> history.Archive:
    return history.open(built[1])


@pytest.fixture(scope="module")
def originals(built: tuple[Path, Path]) -> dict[dt.date, Catalogue]:
    return {day: snapshot.load(built[0] / day.isoformat()) for day in DATES}


def test_every_snapshot_is_rebuilt_exactly(
    archive: history.Archive, originals: dict, tmp_path: Path
) -> None:
    assert archive.dates == DATES
    assert archive.demo
    for day, original in originals.items():
        rebuilt = archive.snapshot(day)
        assert list(rebuilt) == list(original)
        for name, frame in original.items():
            pd.testing.assert_frame_equal(rebuilt[name], frame, check_exact=True, obj=name)
        assert rebuilt.source == original.source
    restored = snapshot.load(archive.restore(DATES[1], tmp_path / "restored"))
    for name, frame in originals[DATES[1]].items():
        pd.testing.assert_frame_equal(restored[name], frame, check_exact=True, obj=name)
    archive.verify()


def test_rows_are_stored_once_across_snapshots(archive: history.Archive, originals: dict) -> None:
    listed = sum(len(cat.events) for cat in originals.values())
    stored = sum(pq.read_metadata(f).num_rows for f in archive.files("events"))
    distinct_rows = pd.concat([cat.events for cat in originals.values()]).drop_duplicates()
    assert stored == len(distinct_rows) < listed  # one row per version, none twice
    versions = pd.concat([pq.read_table(f).to_pandas() for f in archive.files("events")])
    for day, cat in originals.items():
        held = versions[
            (versions["valid_from"] <= day)
            & (versions["valid_to"].isna() | (versions["valid_to"] > day))
        ]
        assert sorted(held["id"]) == sorted(cat.events["id"])


BYS = [
    ("state", "all", False),
    ("instruction_form_category", "all", False),
    ("duration_class", "all", False),
    ("month", "all", False),
    ("year", "all", True),
    ("education_voucher", "all", False),
    ("district", "all", False),
    ("district_key", "all", True),
    (["state", "district_problem"], "index", False),
    (["state", "instruction_form_category"], "index", False),
    (["duration_class", "instruction_time"], "columns", True),
]


@pytest.mark.parametrize(("by", "normalize", "dropna"), BYS)
def test_supply_by_duckdb_equals_pandas_on_each_snapshot(
    archive: history.Archive, originals: dict, by: str | list[str], normalize: str, dropna: bool
) -> None:
    trend = archive.supply(by=by, normalize=normalize, dropna=dropna)
    assert trend.index.names[0] == "snapshot_date"
    assert trend.attrs["educatalog"]["demo"] is True
    for day, cat in originals.items():
        expected = stats.supply(cat.offers(), by=by, normalize=normalize, dropna=dropna)
        got = trend.xs(pd.Timestamp(day), level="snapshot_date")
        pd.testing.assert_frame_equal(got, expected, check_index_type=False, obj=str(day))
        assert list(map(str, got.index)) == list(map(str, expected.index))  # NA-safe
    some = archive.supply(by=by, normalize=normalize, dropna=dropna, dates=[DATES[2], DATES[1]])
    assert list(some.index.get_level_values(0).unique()) == [pd.Timestamp(d) for d in DATES[1:3]]
    pd.testing.assert_frame_equal(some, trend.loc[[pd.Timestamp(d) for d in DATES[1:3]]])


def test_offers_of_the_archive_are_those_pandas_computed(
    archive: history.Archive, originals: dict
) -> None:
    day = DATES[2]
    expected = originals[day].offers()
    pd.testing.assert_frame_equal(archive.offers(day), expected, check_exact=True)
    assert expected["district"].notna().any()  # derived when read: districts are there


def test_the_archive_stores_no_district_and_derives_them_when_read(
    archive: history.Archive,
) -> None:
    stored = archive.sql("SELECT * FROM stored_offer_versions LIMIT 0").columns
    assert not {"district", "district_key", "district_problem"} & set(stored)
    for day in archive.dates:
        assert "district" not in archive.entry(day)["offers"]["categories"]
    got = archive.sql(
        "SELECT district_key, count(*) AS n FROM offers WHERE snapshot_index = 0 "
        "AND district_key IS NOT NULL GROUP BY 1 ORDER BY 1"
    )
    offers = archive.offers(archive.dates[0])
    expected = offers["district_key"].dropna().value_counts().sort_index()
    assert dict(zip(got["district_key"], got["n"], strict=True)) == expected.to_dict()


def _ids(cat: Catalogue, level: str) -> set:
    column = {"events": "id", "courses": "course", "institutions": "institution"}[level]
    return set(cat.events[column].dropna())


@pytest.mark.parametrize("level", history.LEVELS)
def test_entries_and_exits_equal_a_plain_comparison_of_ids(
    archive: history.Archive, originals: dict, level: str
) -> None:
    flows = archive.flows(level)
    previous: set | None = None
    for day, cat in originals.items():
        ids = _ids(cat, level)
        row = flows.loc[pd.Timestamp(day)]
        assert row["listed"] == len(ids)
        if previous is None:
            assert pd.isna(row["entered"])
            assert pd.isna(row["exited"])
        else:
            assert row["entered"] == len(ids - previous)
            assert row["exited"] == len(previous - ids)
            assert row["net"] == len(ids) - len(previous)
        previous = ids
    assert flows["entered"].sum() > 0  # the demo changes
    assert flows["exited"].sum() > 0


def test_lifetimes_equal_a_plain_computation(archive: history.Archive, originals: dict) -> None:
    lifetimes = archive.lifetimes("courses")
    seen: dict[int, list[dt.date]] = {}
    for day, cat in originals.items():
        for course in _ids(cat, "courses"):
            seen.setdefault(int(course), []).append(day)
    assert sorted(lifetimes.index) == sorted(seen)
    for course, days in seen.items():
        row = lifetimes.loc[course]
        assert row["first_seen"] == pd.Timestamp(min(days))
        assert row["last_seen"] == pd.Timestamp(max(days))
        assert row["snapshots"] == len(days)
        assert row["days"] == (max(days) - min(days)).days
        assert row["left_censored"] == (min(days) == DATES[0])
        assert row["right_censored"] == (max(days) == DATES[-1])


def test_polars_reads_the_archive_as_it_is(archive: history.Archive) -> None:
    import polars as pl

    day = DATES[1]
    offers = pl.scan_parquet(str(archive.path / "offers" / "*.parquet"))
    listed = offers.filter(
        (pl.col("valid_from") <= day) & (pl.col("valid_to").is_null() | (pl.col("valid_to") > day))
    )
    counts = listed.group_by("state").agg(pl.len().alias("events")).collect()
    by_polars = {row["state"]: row["events"] for row in counts.iter_rows(named=True)}
    by_duckdb = archive.supply(by="state").xs(pd.Timestamp(day), level="snapshot_date")["events"]
    by_duckdb = {(None if pd.isna(k) else k): int(v) for k, v in by_duckdb.items() if v}
    assert by_polars == by_duckdb


def test_a_snapshot_must_be_newer_and_names_are_checked(
    archive: history.Archive, timeline: DemoTimeline, tmp_path: Path
) -> None:
    with pytest.raises(ArchiveError, match="must be of a later date"):
        history.add(archive.path, timeline.catalogue(DATES[0]), date=DATES[0])
    with pytest.raises(ArchiveError, match="not an archive"):
        history.open(tmp_path)
    with pytest.raises(ArchiveError, match="no snapshot of 2024-02-01"):
        archive.snapshot("2024-02-01")
    with pytest.raises(UsageError, match='Did you mean "state"'):
        archive.supply(by="stat")
    with pytest.raises(UsageError, match="YYYY-MM-DD, got '1 May 2024'"):
        archive.snapshot("1 May 2024")
    with pytest.raises(EducatalogError, match="choose one of 'events'"):
        archive.flows("event")


def test_a_tampered_file_is_named(archive: history.Archive, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(archive.path, copy)
    victim = history.open(copy).files("events")[-1]
    victim.write_bytes(victim.read_bytes()[:-10])
    with pytest.raises(ArchiveError, match=victim.name):
        history.open(copy).snapshot(DATES[-1])


def test_trend_chart_carries_the_demo_mark(archive: history.Archive) -> None:
    from educatalog import plots
    from educatalog import texts as words

    table = archive.supply(by="instruction_form_category")
    fig = table.edu.plot.trend(kind="area")  # German by default
    shown = [t.get_text() for t in fig.texts]
    assert words.text("demo_mark", "de") in shown
    assert any("4 Stichtage, 01.01.2024 bis 01.07.2025" in t for t in shown)
    assert fig.axes[0].get_title(loc="left") == "Veranstaltungen im Zeitverlauf nach Lernform"
    english = table.edu.plot.trend(kind="area", lang="en")
    shown = [t.get_text() for t in english.texts]
    assert plots.DEMO_MARK in shown
    assert any("4 snapshots, 1 Jan 2024 to 1 Jul 2025" in t for t in shown)
    lines = archive.flows("courses").edu.plot.trend("entered", lang="en")
    assert lines.axes[0].get_ylabel() == "Entered"
    # Entries are not defined on the first snapshot: left out, not drawn as 0.
    assert len(lines.axes[0].get_lines()[0].get_xdata()) == len(archive.dates) - 1
    assert any("3 snapshots, 1 Jul 2024 to 1 Jul 2025" in t.get_text() for t in lines.texts)
    assert (plots.alt_text(lines) or "").startswith("Line chart: Entered over time, 1 Jul 2024 to")
    fig.canvas.draw()
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels() if t.get_text()]
    assert 3 <= len(ticks) <= 7  # months by name, few enough not to overlap
    assert all(re.fullmatch(r"[A-ZÄÖÜ][a-zäöü]+\.? \d{4}", t) for t in ticks), ticks


def test_demo_over_time_is_deterministic_and_plausible(timeline: DemoTimeline) -> None:
    again = DemoTimeline(seed=0, scale=SCALE).catalogue(DATES[1])
    for name, frame in timeline.catalogue(DATES[1]).items():
        pd.testing.assert_frame_equal(again[name], frame, obj=name)
    assert not DemoTimeline(seed=1, scale=SCALE).catalogue(DATES[1]).events.equals(again.events)
    first, last = (timeline.catalogue(d).offers() for d in (DATES[0], monthly_dates()[-1]))

    def share(offers: pd.DataFrame, column: str, values: set[str]) -> float:
        return float(offers[column].isin(values).mean())

    assert share(last, "instruction_form_category", {"Digital"}) > share(
        first, "instruction_form_category", {"Digital"}
    )
    rural = {"Brandenburg", "Mecklenburg-Vorpommern", "Saarland", "Sachsen-Anhalt", "Thüringen"}
    assert share(last, "state", rural) < share(first, "state", rural)
    assert first.attrs["educatalog"]["demo"] is True


def test_fetch_archive_from_the_command_line(timeline: DemoTimeline, tmp_path: Path) -> None:
    """`educatalog fetch --archive` over HTTP from the demo server as of two dates; the
    archive holds what the offline timeline gives."""
    env = {**os.environ, "EDUCATALOG_CACHE": str(tmp_path / "cache")}
    env.pop("EDUCATALOG_URL", None)
    target = tmp_path / "archive"
    for day in DATES[:2]:
        command = [sys.executable, "-m", "educatalog.cli", "fetch", "--archive", str(target)]
        command += ["--demo", "--scale", str(SCALE), "--as-of", day.isoformat()]
        done = subprocess.run(
            command, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr
        assert f"Snapshot of {day} added" in done.stdout
        assert "SYNTHETIC demo data" in done.stdout
    arc = history.open(target)
    assert arc.dates == DATES[:2]
    offline = timeline.catalogue(DATES[1])
    fetched = arc.snapshot(DATES[1])
    for name, frame in offline.items():
        personal = [c for c in snapshot.PERSONAL_FIELDS.get(name, ()) if c in frame]
        assert personal == [] or not set(personal) & set(fetched[name].columns)  # left out
        pd.testing.assert_frame_equal(fetched[name], frame.drop(columns=personal), obj=name)
    done = subprocess.run(
        [
            *(sys.executable, "-m", "educatalog.cli", "fetch", "--archive", str(target)),
            *("--demo", "--scale", str(SCALE), "--as-of", DATES[0].isoformat()),
        ],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1
    assert "must be of a later date" in done.stderr


FUNDING_BYS = [
    ("funding_type", "all", False),
    ("funding_level", "all", True),
    (["funding_level", "state"], "index", False),
    (["instruction_form_category", "funding_type"], "columns", False),
]


@pytest.mark.parametrize(("by", "normalize", "dropna"), FUNDING_BYS)
def test_supply_by_funding_types_equals_pandas(
    archive: history.Archive, originals: dict, by: str | list[str], normalize: str, dropna: bool
) -> None:
    """Funding types are archived: DuckDB groups by them as stats.supply does on the frame
    of offers(funding=True), where an event funded in two ways counts once in each group."""
    trend = archive.supply(by=by, normalize=normalize, dropna=dropna)
    for day, cat in originals.items():
        funded = cat.offers(funding=True)
        expected = stats.supply(funded, by=by, normalize=normalize, dropna=dropna)
        got = trend.xs(pd.Timestamp(day), level="snapshot_date")
        pd.testing.assert_frame_equal(got, expected, check_index_type=False, obj=str(day))
        assert list(map(str, got.index)) == list(map(str, expected.index))
    assert (trend["events"] > 0).any()


@pytest.mark.parametrize(
    ("by", "normalize", "dropna"),
    [
        ("subject_area", "all", False),
        ("subject_group_code", "all", True),
        (["state", "subject_area"], "index", False),
        (["subject_area", "funding_level"], "columns", False),
    ],
)
def test_supply_by_subjects_equals_pandas(
    archive: history.Archive, originals: dict, by: str | list[str], normalize: str, dropna: bool
) -> None:
    """Subjects are derived from each snapshot's archived systematics tables: DuckDB groups
    by them as stats.supply does on the frame of offers(subjects=True)."""
    trend = archive.supply(by=by, normalize=normalize, dropna=dropna)
    funding = "funding_level" in by
    for day, cat in originals.items():
        frame = cat.offers(subjects=True, funding=funding)
        expected = stats.supply(frame, by=by, normalize=normalize, dropna=dropna)
        got = trend.xs(pd.Timestamp(day), level="snapshot_date")
        pd.testing.assert_frame_equal(got, expected, check_index_type=False, obj=str(day))
        assert list(map(str, got.index)) == list(map(str, expected.index))
    assert (trend["events"] > 0).any()


def test_funding_types_are_stored_once_and_missing_ones_are_named(
    archive: history.Archive, originals: dict, tmp_path: Path
) -> None:
    stored = pd.concat([pq.read_table(f).to_pandas() for f in archive.files("funding")])
    distinct = pd.concat(
        [
            cat.offers(funding=True)[["course_id", "funding_level", "funding_type"]]
            .dropna()
            .astype("string")
            for cat in originals.values()
        ]
    ).drop_duplicates()
    assert 0 < len(stored) < len(distinct) * len(originals)  # versions, not every snapshot
    day = DATES[0]
    partial = {k: v for k, v in originals[day].items() if "funding" not in k}
    arc = history.add(
        tmp_path / "partial", Catalogue(partial, source=originals[day].source), date=day
    )
    assert arc.supply(by="state")["events"].sum() == len(originals[day].events)
    with pytest.raises(UsageError, match="no funding types for the snapshots of 2024-01-01"):
        arc.supply(by="funding_type")


_HOLD = """
import sys
from pathlib import Path
from educatalog.history.lock import locked
with locked(Path(sys.argv[1]), wait=0):
    print("locked", flush=True)
    sys.stdin.readline()
"""

_ADD = """
import sys, time
from pathlib import Path
from educatalog import history, snapshot
archive, plain, go, wait = sys.argv[1:5]
catalogue = snapshot.load(plain)
print("ready", flush=True)
while not Path(go).exists():
    time.sleep(0.01)
try:
    history.add(archive, catalogue, date=Path(plain).name, wait=float(wait))
except history.ArchiveError as exc:
    print("ArchiveError:", exc)
    sys.exit(3)
print("added")
"""


def _python(code: str, *args: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *map(str, args)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_second_writer_waits_or_fails_clearly(built: tuple[Path, Path], tmp_path: Path) -> None:
    """Two processes: while one holds the archive's lock, another add fails with a clear
    ArchiveError after its wait, leaving the archive as it was; then it goes through."""
    plain, _ = built
    target = tmp_path / "archive"
    history.add(target, plain / DATES[0].isoformat())
    holder = _python(_HOLD, target)
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "locked"
    go = tmp_path / "go"
    go.touch()
    second = _python(_ADD, target, plain / DATES[1].isoformat(), go, 0.5)
    out, err = second.communicate(timeout=120)
    assert second.returncode == 3, err
    assert out.startswith("ready\n")
    assert f"The archive {target} is busy: process {holder.pid}" in out
    assert history.open(target).dates == DATES[:1]
    holder.communicate("\n", timeout=30)
    third = _python(_ADD, target, plain / DATES[1].isoformat(), go, 0)
    out, err = third.communicate(timeout=120)
    assert third.returncode == 0, err
    assert history.open(target).dates == DATES[:2]


def test_two_concurrent_adds_never_corrupt_the_archive(
    built: tuple[Path, Path], originals: dict, tmp_path: Path
) -> None:
    """Two processes add two dates at the same moment: the second waits for the first, so
    both go in (or the older date fails as older); every file checks out and rebuilds."""
    plain, _ = built
    target = tmp_path / "archive"
    history.add(target, plain / DATES[0].isoformat())
    go = tmp_path / "go"
    writers = [_python(_ADD, target, plain / day.isoformat(), go, 300) for day in DATES[1:3]]
    for writer in writers:  # both have loaded their snapshot and wait for the start
        assert writer.stdout is not None
        assert writer.stdout.readline().strip() == "ready", writer.stderr
    go.touch()
    results = [(*w.communicate(timeout=300), w.returncode) for w in writers]
    for out, err, code in results:
        assert code == 0 or (code == 3 and "must be of a later date" in out), (out, err)
    assert any(code == 0 for _, _, code in results)
    arc = history.open(target)
    arc.verify()
    assert arc.dates[0] == DATES[0]
    assert set(arc.dates) <= set(DATES[:3])
    for day in arc.dates:
        rebuilt = arc.snapshot(day)
        for name, frame in originals[day].items():
            pd.testing.assert_frame_equal(rebuilt[name], frame, check_exact=True, obj=name)
    stored = {p.relative_to(target).as_posix() for p in target.rglob("*.parquet")}
    assert stored == {f for f in arc.manifest["files"] if f.endswith(".parquet")}


def test_the_demo_archive_is_built_once_into_the_cache_and_rebuilt_when_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What notebook 07 opens without an archive: no new folder on every run."""
    from educatalog.history import demo

    built: list[Path] = []
    build_demo = demo.build_demo

    def counting(path: Path, **options: object) -> history.Archive:
        built.append(Path(path))
        return build_demo(path, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(demo, "build_demo", counting)
    first = history.demo_archive(months=2, scale=SCALE, directory=tmp_path)
    again = history.demo_archive(months=2, scale=SCALE, directory=tmp_path)
    assert again.path == first.path
    assert len(built) == 1
    assert [p.name for p in tmp_path.iterdir()] == [first.path.name]  # nothing left beside it
    assert first.dates == monthly_dates("2024-01-01", 2)
    assert first.demo
    assert "scale0.05" in first.path.name
    assert first.path.name.endswith("-2024-01-01-2m")
    other = history.demo_archive(months=3, scale=SCALE, directory=tmp_path)
    assert other.path != first.path
    assert len(other.dates) == 3

    expected = first.supply(by="state")
    victim = next(first.path.glob("offers/*.parquet"))
    victim.write_bytes(victim.read_bytes()[:-10])  # damaged: built again, not read
    rebuilt = history.demo_archive(months=2, scale=SCALE, directory=tmp_path)
    assert len(built) == 3
    assert rebuilt.path == first.path
    pd.testing.assert_frame_equal(rebuilt.supply(by="state"), expected)
