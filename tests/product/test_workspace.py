"""`educatalog notebooks`, `--version` and `python -m educatalog`, and the rule that nothing
the toolkit writes lands inside the package."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest

import educatalog
from educatalog.cli import main
from educatalog.errors import EducatalogError
from educatalog.files.workspace import (
    NOTEBOOKS,
    PACKAGE,
    RECORD,
    copy_notebooks,
    notebook,
    output_folder,
)

SHIPPED = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))


def shipped(copy: Path, lang: str) -> bool:
    """Whether ``copy`` holds the shipped notebook of its name in ``lang``, byte for byte."""
    expected = nbformat.writes(notebook(copy.stem, lang)) + "\n"
    return copy.read_bytes() == expected.encode("utf-8")


def test_version_and_python_m_educatalog(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, *args],
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )

    done = run("-m", "educatalog", "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"educatalog {educatalog.__version__}"
    done = run("-m", "educatalog", "--help")
    assert done.returncode == 0, done.stderr
    for command in ("serve", "report", "fetch", "export", "notebooks"):
        assert command in done.stdout
    done = run("-m", "educatalog")
    assert done.returncode == 2
    assert "required: COMMAND" in done.stderr


def test_notebooks_copies_the_eight_and_keeps_edited_copies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["notebooks"]) == 0  # default: ./notebooks
    out = tmp_path / "notebooks"
    assert (
        sorted(p.name for p in out.glob("*.ipynb"))
        == SHIPPED
        == [
            "01-quickstart.ipynb",
            "02-supply-by-state.ipynb",
            "03-instruction-forms-and-durations.ipynb",
            "04-costs-funding-and-access.ipynb",
            "05-explorer.ipynb",
            "06-report.ipynb",
            "07-trends.ipynb",
            "08-districts.ipynb",
        ]
    )
    for name in SHIPPED:  # in German, the default
        assert shipped(out / name, "de")
    assert "copied" in capsys.readouterr().out

    edited = out / "02-supply-by-state.ipynb"
    edited.write_text(edited.read_text() + " ", encoding="utf-8")
    (out / "05-explorer.ipynb").unlink()
    assert main(["notebooks", "--out", "notebooks"]) == 0
    text = capsys.readouterr().out
    assert f"kept        {edited} (you edited it; --force replaces it)" in text
    assert f"copied      {out / '05-explorer.ipynb'}" in text
    assert f"up to date  {out / '01-quickstart.ipynb'}" in text
    assert not shipped(edited, "de")

    assert main(["notebooks", "--out", str(out), "--force"]) == 0
    assert f"replaced    {edited}" in capsys.readouterr().out
    assert shipped(edited, "de")


def test_an_unedited_copy_of_an_earlier_version_is_updated(tmp_path: Path) -> None:
    copy_notebooks(tmp_path)
    old = tmp_path / "01-quickstart.ipynb"
    old.write_text('{"an": "earlier version"}', encoding="utf-8")
    record = json.loads((tmp_path / RECORD).read_text())
    record["notebooks"][old.name] = hashlib.sha256(old.read_bytes()).hexdigest()
    (tmp_path / RECORD).write_text(json.dumps(record))
    done = copy_notebooks(tmp_path)
    assert done.copied == [old]
    assert done.kept == []
    assert shipped(old, "de")


def test_notebooks_refuses_a_file_and_the_package(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "afile").write_text("x")
    assert main(["notebooks", "--out", str(tmp_path / "afile")]) == 1
    assert "is a file, not a folder" in capsys.readouterr().err
    assert main(["notebooks", "--out", str(NOTEBOOKS)]) == 1
    err = capsys.readouterr().err
    assert "is inside the educatalog package" in err
    assert "Traceback" not in err
    assert not (NOTEBOOKS / RECORD).exists()


def test_output_folder_refuses_the_package_and_anything_in_it(tmp_path: Path) -> None:
    assert output_folder(tmp_path / "x") == (tmp_path / "x").resolve()
    for inside in (PACKAGE, NOTEBOOKS, NOTEBOOKS / "charts", PACKAGE / "server" / ".." / "y"):
        with pytest.raises(EducatalogError, match="inside the educatalog package; tables"):
            output_folder(inside, what="tables")
    (tmp_path / "link").symlink_to(NOTEBOOKS)  # as the repository's notebooks/ link was
    with pytest.raises(EducatalogError, match="inside the educatalog package"):
        output_folder(tmp_path / "link" / "report")


def test_the_explorer_never_exports_into_the_package(
    demo_catalogue: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A notebook opened from the package folder runs there: writing the table to the
    kernel's disk is refused (the download link goes through the browser instead)."""
    from educatalog.widgets import explorer

    monkeypatch.chdir(NOTEBOOKS)
    dashboard = explorer(demo_catalogue.offers(), debounce=0)  # export_dir: the current directory
    assert "download=" in dashboard._download.value  # the browser download needs no disk
    with pytest.raises(EducatalogError, match="inside the educatalog package"):
        dashboard.export("csv")
    assert dashboard.exported is None
    assert sorted(p.name for p in NOTEBOOKS.iterdir()) == SHIPPED
    monkeypatch.chdir(tmp_path)
    assert dashboard.export("csv", tmp_path).parent == tmp_path
