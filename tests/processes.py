"""Running `educatalog` commands as real processes on loopback, for the tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

__all__ = ["free_port", "logged", "serving"]


def logged(
    command: list[str], log: Path, env: dict[str, str], cwd: Path | None = None
) -> subprocess.Popen[bytes]:
    """``command`` started in a process group of its own (so that it is stopped together
    with what it starts: Jupyter's or Voilà's kernels), without standard input, its output
    and errors written to ``log``."""
    with log.open("w") as output:
        return subprocess.Popen(
            command,
            env=env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(*args: str, env: dict[str, str] | None = None) -> Iterator[tuple[str, list[str]]]:
    """Run `educatalog serve ARGS` until it answers /server/ping; yield its URL and output."""
    port = free_port()
    cmd = [sys.executable, "-m", "educatalog.cli", "serve", *args, "--port", str(port)]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                raise AssertionError(
                    f"serve exited early: {proc.stdout.read() if proc.stdout else ''}"
                )
            try:
                if httpx.get(url + "/server/ping", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("serve did not answer in time")
            time.sleep(0.1)
        lines: list[str] = []
        yield url, lines
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            out, _ = proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
        if "lines" in locals():
            lines.extend(out.splitlines())
    assert proc.returncode == 0, out  # stopped by Ctrl+C as a user stops it
    assert "Traceback" not in out, out
    assert out.rstrip().endswith("Stopped."), out
