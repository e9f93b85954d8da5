"""`python -m educatalog.jupyter.tethered`: a module run as a child that ends when its parent does,
however the parent ends (the dashboard starts Voilà so). Real processes: a parent that
starts the child and is then killed outright, and the child's own module on disk."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from educatalog.jupyter.tethered import command

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

CHILD = """
    import json, signal, sys, time
    from pathlib import Path

    out = Path(sys.argv[1])
    def stop(signum, frame):
        out.joinpath("stopped").write_text(str(signum))
        sys.exit(0)
    signal.signal(signal.SIGTERM, signal.SIG_IGN if "--stubborn" in sys.argv else stop)
    out.joinpath("argv.json").write_text(json.dumps(sys.argv))
    time.sleep(120)
"""

PARENT = """
    import subprocess, sys
    from educatalog.jupyter.tethered import command

    grace, module, *args = sys.argv[1:]
    child = subprocess.Popen(command(module, *args, grace=float(grace)), stdin=subprocess.PIPE)
    print(child.pid, flush=True)
    child.wait()
"""


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie that nobody reaped has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def start(tmp_path: Path, grace: str, *args: str) -> tuple[subprocess.Popen[str], int]:
    """A parent that runs the module ``args[0]`` tethered (``tethered.command``) and says
    the child's pid."""
    (tmp_path / "child_module.py").write_text(textwrap.dedent(CHILD))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    parent = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(PARENT), grace, *args],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    assert wait_for(lambda: (tmp_path / "argv.json").exists(), 30), "the child did not start"
    return parent, child


def test_a_parent_killed_outright_stops_its_child_as_sigterm_does(tmp_path: Path) -> None:
    parent, child = start(tmp_path, "20", "child_module", str(tmp_path), "--flag", "value")
    try:
        # the module runs as `python -m` runs it, with its own arguments
        argv = json.loads((tmp_path / "argv.json").read_text())
        assert argv[1:] == [str(tmp_path), "--flag", "value"]
        assert argv[0].endswith("child_module.py")
        time.sleep(0.3)
        assert alive(child), "the child must run while its parent does"
        parent.kill()  # no chance to stop the child itself
        parent.wait(timeout=10)
        assert wait_for(lambda: not alive(child), 15), "the child outlived its parent"
        assert (tmp_path / "stopped").read_text() == str(int(signal.SIGTERM))
    finally:
        if alive(child):
            os.kill(child, signal.SIGKILL)


def test_a_child_that_ignores_sigterm_ends_after_the_grace(tmp_path: Path) -> None:
    parent, child = start(tmp_path, "0.5", "child_module", str(tmp_path), "--stubborn")
    try:
        parent.kill()
        parent.wait(timeout=10)
        assert wait_for(lambda: not alive(child), 15), "the child outlived its grace"
        assert not (tmp_path / "stopped").exists()  # SIGTERM was ignored: it was ended
    finally:
        if alive(child):
            os.kill(child, signal.SIGKILL)


@pytest.mark.parametrize(
    ("args", "stdin", "reason"),
    [
        (["--grace", "-1", "http.server"], subprocess.PIPE, "--grace must not be negative"),
        # not a pipe: its end would not tell the parent's (a file ends at once, a terminal
        # would lose its keys)
        (["http.server"], subprocess.DEVNULL, "standard input must be a pipe"),
    ],
)
def test_a_bad_command_line_is_refused_with_the_reason(
    args: list[str], stdin: int, reason: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "educatalog.jupyter.tethered", *args],
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert reason in done.stderr


def test_the_command_runs_the_child_without_the_package() -> None:
    """``tethered.command`` runs the module without importing ``educatalog`` (pandas and
    all) into the child: the dashboard's Voilà stays lean."""
    probe = "import sys; print('educatalog' in sys.modules, 'pandas' in sys.modules)"
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "probe_module.py").write_text(probe)
        env = {**os.environ, "PYTHONPATH": folder}
        child = subprocess.Popen(
            command("probe_module"),
            stdin=subprocess.PIPE,  # held open: its end would stop the child
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert child.stdout is not None
        said = child.stdout.readline()
        assert child.wait(timeout=30) == 0
        assert child.stdin is not None
        child.stdin.close()
    assert said.split() == ["False", "False"]
