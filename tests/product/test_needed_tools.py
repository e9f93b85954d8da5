"""A test that needs a tool skips where a developer lacks it, and fails in CI, where the
project's own files install every tool (tests/needs.py); ci/install-chromium exits 1 where
it cannot install chromium, so that CI stops there, naming it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

NEEDS_A_TOOL = """
from needs import missing_tool

def test_needs_a_tool():
    missing_tool("needs the-tool (apt-get install the-tool)")
"""


@pytest.mark.parametrize(("ci", "outcome"), [("", "1 skipped"), ("true", "1 failed")])
def test_a_missing_tool_skips_for_a_developer_and_fails_in_ci(
    ci: str, outcome: str, tmp_path: Path
) -> None:
    (tmp_path / "test_tool.py").write_text(NEEDS_A_TOOL, encoding="utf-8")
    env = {**os.environ, "CI": ci, "PYTHONPATH": str(ROOT / "tests")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-p", "no:educatalog", "--rootdir", str(tmp_path), str(tmp_path / "test_tool.py")],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip
    assert outcome in done.stdout, done.stdout + done.stderr
    if ci:
        assert "needs the-tool" in done.stdout
        assert "CI installs it" in done.stdout


def test_install_chromium_fails_where_it_cannot_install(tmp_path: Path) -> None:
    """Without chromium and without apt-get on the PATH, the script says so and exits 1."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "id", "env"):
        real = subprocess.run(["which", tool], capture_output=True, text=True, check=True)
        (bin_dir / tool).symlink_to(real.stdout.strip())
    done = subprocess.run(
        ["bash", str(ROOT / "ci/install-chromium")],
        capture_output=True, text=True, env={"PATH": str(bin_dir)}, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert "chromium" in done.stderr
