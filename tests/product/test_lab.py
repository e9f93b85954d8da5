"""`make lab` starts JupyterLab on copies of the notebooks, as root (as in many containers) and
as a normal user: the test asks its REST API for the notebooks, then stops it.

The other of the two users comes from a user namespace (`unshare --user`): run by root, the
process is uid 65534 inside it (`--map-user`), so Jupyter sees a normal user; run by a normal
user, it is uid 0 inside (`--map-root-user`), so Jupyter sees root. Files keep their owners."""

from __future__ import annotations

import os
import secrets
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest

from educatalog.files.workspace import NOTEBOOKS
from processes import free_port, logged

REPO = Path(__file__).resolve().parents[2]
SHIPPED = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))

pytestmark = pytest.mark.install


def _as(user: str) -> list[str]:
    """The command prefix that runs make as ``user`` ("root" or "normal")."""
    if (os.geteuid() == 0) == (user == "root"):
        return []
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare (util-linux) to run make lab as the other user")
    mapping = ["--map-root-user"] if user == "root" else ["--map-user=65534", "--map-group=65534"]
    prefix = ["unshare", "--user", *mapping]
    probe = subprocess.run([*prefix, "id", "-u"], capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"user namespaces are not allowed here: {probe.stderr.strip()}")
    assert probe.stdout.strip() == ("0" if user == "root" else "65534")
    return prefix


@pytest.mark.parametrize("user", ["root", "normal"])
def test_make_lab_serves_the_notebooks(user: str, tmp_path: Path) -> None:
    prefix = _as(user)
    token = secrets.token_hex(16)
    lab_port, jupyter_port = free_port(), free_port()
    home = tmp_path / "home"
    home.mkdir()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("EDUCATALOG_URL", "EDUCATALOG_TOKEN", "JUPYTER", "VIRTUAL_ENV"))
    }
    env.update(HOME=str(home), JUPYTER_TOKEN=token)
    lab_dir = tmp_path / "lab"
    command = [*prefix, "make", "--no-print-directory", "-C", str(REPO), "lab"]
    command += [f"LAB_DIR={lab_dir}", f"LAB_PORT={lab_port}"]
    command += [f"LAB_ARGS=--no-browser --ServerApp.port={jupyter_port} --ServerApp.port_retries=0"]
    log = tmp_path / "lab.log"
    proc = logged(command, log, env)  # its own process group: stopped together below
    api = f"http://127.0.0.1:{jupyter_port}/api/contents"
    headers = {"Authorization": f"token {token}"}
    try:
        deadline = time.monotonic() + 180
        while True:
            assert proc.poll() is None, f"make lab stopped:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"JupyterLab did not answer:\n{log.read_text()}"
            try:
                listing = httpx.get(api, headers=headers, timeout=2)
                if listing.status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.5)
        names = sorted(item["name"] for item in listing.json()["content"])
        assert names == SHIPPED  # the copies in LAB_DIR, not the package's folder
        notebook = httpx.get(f"{api}/01-quickstart.ipynb", headers=headers, timeout=10)
        assert notebook.json()["type"] == "notebook"
        assert httpx.get(api, timeout=5).status_code == 403  # no token, no notebooks
        ping = httpx.get(f"http://127.0.0.1:{lab_port}/server/ping", timeout=5)
        assert ping.status_code == 200  # the demo server the notebooks read
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
    text = log.read_text()
    assert token not in text.replace(f"token={token}", "")  # only in Jupyter's own URL
    assert sorted(p.name for p in lab_dir.glob("*.ipynb")) == SHIPPED
    with pytest.raises(httpx.TransportError):
        httpx.get(f"http://127.0.0.1:{lab_port}/server/ping", timeout=2)  # stopped with Lab


def test_the_command_educatalog_notebooks_suggests_runs_kernels_without_a_warning(
    tmp_path: Path,
) -> None:
    """``educatalog notebooks`` ends with the command that opens the copies: JupyterLab with
    its kernels over IPC (and --allow-root as root), as make lab starts it. Run as printed,
    a kernel it starts says nothing of "running over TCP without encryption"."""
    runtime = Path(tempfile.mkdtemp(prefix="lab-"))  # short: the kernels' sockets lie in it
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("EDUCATALOG_URL", "EDUCATALOG_TOKEN", "JUPYTER"))
    }
    token = secrets.token_hex(16)
    env.update(HOME=str(tmp_path), JUPYTER_RUNTIME_DIR=str(runtime), JUPYTER_TOKEN=token)
    folder = tmp_path / "notebooks"
    copied = subprocess.run(
        [sys.executable, "-m", "educatalog.cli", "notebooks", "--out", str(folder)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    said = copied.stdout.strip().splitlines()[-1]
    suggested = shlex.split(said.split("Open them with: ", 1)[1])
    assert suggested[:2] == ["jupyter", "lab"]
    assert "--KernelManager.transport=ipc" in suggested
    assert ("--allow-root" in suggested) == (os.geteuid() == 0)
    assert suggested[-1] == str(folder)
    port = free_port()
    jupyter = str(Path(sys.executable).with_name("jupyter"))
    command = [jupyter, *suggested[1:], "--no-browser", f"--ServerApp.port={port}"]
    log = tmp_path / "lab.log"
    lab = logged(command, log, env)
    api = f"http://127.0.0.1:{port}/api"
    headers = {"Authorization": f"token {token}"}
    try:
        deadline = time.monotonic() + 180
        while True:
            assert lab.poll() is None, f"JupyterLab stopped:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"JupyterLab did not answer:\n{log.read_text()}"
            try:
                if httpx.get(f"{api}/status", headers=headers, timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.5)
        kernel = httpx.post(f"{api}/kernels", headers=headers, json={}, timeout=60).json()["id"]
        deadline = time.monotonic() + 180
        # its sockets bound, over IPC: files in the runtime folder (over TCP there are none,
        # and the kernel warns as it binds them); shell, iopub, stdin, control and heartbeat
        while len(list(runtime.glob(f"kernel-{kernel}-ipc-*"))) < 5:
            assert lab.poll() is None, f"JupyterLab stopped:\n{log.read_text()}"
            assert time.monotonic() < deadline, (
                f"the kernel bound no IPC sockets: {sorted(runtime.iterdir())}\n{log.read_text()}"
            )
            time.sleep(0.3)
        httpx.delete(f"{api}/kernels/{kernel}", headers=headers, timeout=60)
    finally:
        os.killpg(lab.pid, signal.SIGTERM)
        try:
            lab.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(lab.pid, signal.SIGKILL)
            lab.wait(timeout=10)
        shutil.rmtree(runtime, ignore_errors=True)
    assert "without encryption" not in log.read_text(), log.read_text()
