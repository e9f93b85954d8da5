"""Files that never surprise: a killed fetch leaves nothing a later run does not clean up, a
snapshot manifest is validated before use, `serve --db` says what is wrong with a file, and
`report --out` deletes only what its own manifest lists with a matching checksum and never
writes into a home or root folder."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from educatalog import snapshot
from educatalog.errors import SnapshotError, UsageError
from educatalog.files import manifests
from educatalog.frames.catalogue import Catalogue, Source
from educatalog.report import ReportError, _remove_earlier_report, write_report


def _tiny() -> Catalogue:
    frame = pd.DataFrame({"id": pd.array([1, 2], dtype="Int64"), "name": ["A", "B"]})
    return Catalogue({"states": frame}, source=Source(url="http://x", demo=True))


def _partials(folder: Path) -> list[Path]:
    return sorted(folder.glob(".*.partial"))


KILLED_SAVE = """
import os, signal, sys
import pandas as pd
from educatalog import snapshot
from educatalog.frames.catalogue import Catalogue, Source
from educatalog.cli._common import interrupt_on_sigterm

interrupt_on_sigterm()
sig = getattr(signal, sys.argv[2])
from educatalog.snapshot import saving
original = saving._write_table
def write_table(folder, name, frame):
    original(folder, name, frame)
    os.kill(os.getpid(), sig)
saving._write_table = write_table
frame = pd.DataFrame({"id": pd.array([1], dtype="Int64"), "name": ["A"]})
try:
    snapshot.save(Catalogue({"states": frame}, source=Source()), sys.argv[1])
except KeyboardInterrupt:
    sys.exit(130)
"""


def test_a_fetch_ended_by_sigterm_removes_its_partial_snapshot(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-c", KILLED_SAVE, str(tmp_path / "snap"), "SIGTERM"], timeout=120
    )
    assert run.returncode == 130
    assert list(tmp_path.iterdir()) == []


def test_a_killed_fetch_is_cleaned_up_by_the_next(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-c", KILLED_SAVE, str(tmp_path / "snap"), "SIGKILL"], timeout=120
    )
    assert run.returncode == -9
    (left,) = _partials(tmp_path)  # SIGKILL cannot be caught: the folder stays ...
    assert (left / "states.parquet").is_file()
    other = tmp_path / ".someone-elses.partial"  # ... and what is not ours stays anyway
    other.mkdir()
    snapshot.save(_tiny(), tmp_path / "snap")  # ... until the next save there
    assert _partials(tmp_path) == [other]
    assert snapshot.load(tmp_path / "snap").states.shape == (2, 2)
    assert not (tmp_path / "snap" / ".educatalog-partial-owner").exists()


def test_a_partial_snapshot_of_a_running_writer_is_left_alone(tmp_path: Path) -> None:
    import os
    import socket

    busy = tmp_path / ".snap.abc.partial"
    busy.mkdir()
    (busy / ".educatalog-partial-owner").write_text(f"{os.getpid()} {socket.gethostname()}")
    assert snapshot.remove_abandoned(tmp_path) == []
    assert busy.is_dir()


def _rewrite_manifest(folder: Path, change: object) -> None:
    file = folder / "manifest.json"
    manifest = json.loads(file.read_text())
    change(manifest)  # type: ignore[operator]
    manifest["manifest_sha256"] = manifests.checksum(manifest)  # a consistent forgery
    file.write_text(json.dumps(manifest))


@pytest.mark.parametrize(
    ("dtype", "needle"),
    [("no-such-dtype", "unknown dtype"), (None, "unknown dtype"), (7, "unknown dtype")],
)
def test_a_wrong_dtype_in_a_manifest_is_named(tmp_path: Path, dtype: object, needle: str) -> None:
    folder = snapshot.save(_tiny(), tmp_path / "snap")

    def change(manifest: dict) -> None:
        manifest["tables"]["states"]["columns"][1]["dtype"] = dtype

    _rewrite_manifest(folder, change)
    with pytest.raises(SnapshotError, match=needle):
        snapshot.read_manifest(folder)
    run = subprocess.run(
        [sys.executable, "-m", "educatalog.cli", "serve", "--snapshot", str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert "unknown dtype" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_dtype_the_data_does_not_fit_is_named(tmp_path: Path) -> None:
    folder = snapshot.save(_tiny(), tmp_path / "snap")

    def change(manifest: dict) -> None:
        manifest["tables"]["states"]["columns"][1]["dtype"] = "datetime64[ns, Nowhere/Zone]"

    _rewrite_manifest(folder, change)
    with pytest.raises(SnapshotError):
        snapshot.load(folder)


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b"", "is empty"),
        (b"%PDF-1.7 not a database at all", "not an SQLite database"),
        (None, "not a database of the catalogue"),
    ],
)
def test_serve_db_says_what_is_wrong_with_the_file(
    tmp_path: Path, content: bytes | None, needle: str
) -> None:
    import sqlite3

    file = tmp_path / "file.sqlite"
    if content is None:
        with sqlite3.connect(file) as conn:
            conn.execute("CREATE TABLE something_else (x)")
        conn.close()
    else:
        file.write_bytes(content)
    run = subprocess.run(
        [sys.executable, "-m", "educatalog.cli", "serve", "--db", str(file), "--port", "9"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert needle in run.stderr
    assert "Traceback" not in run.stderr


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_report_out_deletes_only_files_its_manifest_lists_with_their_checksum(
    tmp_path: Path,
) -> None:
    thesis = tmp_path / "thesis.docx"
    thesis.write_bytes(b"three years of work")
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"educatalog": "0", "files": {"thesis.docx": "x"}}))
    _remove_earlier_report(tmp_path)
    assert thesis.read_bytes() == b"three years of work"

    (tmp_path / "charts").mkdir()
    chart = tmp_path / "charts" / "supply.png"
    chart.write_bytes(b"png")
    page = tmp_path / "report.html"
    page.write_text("<html>old report</html>")
    files = {"charts/supply.png": _sha(chart), "report.html": _sha(page), "thesis.docx": "x"}
    manifest.write_text(json.dumps({"educatalog": "0", "files": files}))
    _remove_earlier_report(tmp_path)
    assert not chart.exists()
    assert not page.exists()
    assert thesis.exists()

    page.write_text("<html>my own edits</html>")  # listed, but changed since
    manifest.write_text(json.dumps({"educatalog": "0", "files": {"report.html": "0" * 64}}))
    with pytest.raises(ReportError, match="changed since"):
        _remove_earlier_report(tmp_path)
    assert page.read_text() == "<html>my own edits</html>"


def test_report_out_refuses_a_home_or_root_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "notes.txt").write_text("mine")
    for folder in (tmp_path, Path("/")):
        with pytest.raises(UsageError, match="home or root"):
            write_report(folder, url="http://127.0.0.1:9", token=None)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
