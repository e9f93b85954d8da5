"""`educatalog report` as a user runs it: a process of its own, against the service at a
URL with a token in the environment (never $EDUCATALOG_URL of the machine), no standard
input. Shared by the tests that read a written report."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def report_command(
    server: str, out: Path, *options: str, token: str, timeout: float
) -> subprocess.CompletedProcess[str]:
    """Run ``educatalog report --url server --out out *options`` and return what it did."""
    env = {**os.environ, "EDUCATALOG_TOKEN": token}
    env.pop("EDUCATALOG_URL", None)
    command = [sys.executable, "-m", "educatalog.cli", "report", "--url", server]
    return subprocess.run(
        [*command, "--out", str(out), *options],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
