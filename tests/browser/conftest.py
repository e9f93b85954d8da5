"""What people see, seen in a browser: Playwright for Python drives Debian's ``chromium`` (no
browser download) against a JupyterLab and the dashboard that the tests start on 127.0.0.1
and stop by their process group.

* ``chromium``: the browser's path, or the tests of this folder are skipped with the reason;
* ``axe``: axe-core's script, to check a page against WCAG 2.0 to 2.2, levels A and AA;
* ``browser``: one headless Chromium for the session, new pages per test (:func:`open_page`
  records the console, failed requests and requests that leave the machine);
* ``service``: the synthetic demo catalogue (scale 1, as ``educatalog.connect()`` serves it)
  behind a reference server the notebooks read through ``$EDUCATALOG_URL``;
* ``lab``: JupyterLab over copies of the notebooks in German (``de/``) and English (``en/``),
  as ``make lab`` starts it (``--allow-root`` as root, kernels over IPC), with notebook cells
  rendered whether or not they are in view.

Screenshots go to ``build/screenshots/`` in the repository (or ``$EDUCATALOG_SCREENSHOTS``),
where a failing test names them.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from accessibility import axe_source
from browsing import Lab, Recorder
from educatalog.files.workspace import copy_notebooks
from educatalog.jupyter.kernels import server_args
from educatalog.testing import serve
from needs import missing_tool
from processes import free_port, logged

REPO = Path(__file__).resolve().parents[2]

CHROMIUM_FLAGS = [
    "--no-sandbox",  # as root, in containers
    "--disable-gpu",
    "--disable-background-networking",  # no connections this machine refuses anyway
    "--disable-component-update",
    "--no-first-run",
]

LAB_SETTINGS = {
    # Every cell rendered, also out of view: its outputs are read and screenshot.
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    # No "official Jupyter news?" box over the notebook (and no request to jupyter.org).
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        missing_tool(
            "needs Debian's chromium for the browser tests (apt-get install chromium; "
            ".ci/run installs it)"
        )
    try:
        import playwright  # noqa: F401
    except ImportError:  # pragma: no cover - a dev dependency
        missing_tool("needs playwright (pip install -e '.[dev]')")
    return path


@pytest.fixture(scope="session")
def axe(chromium: str) -> str:
    """axe-core's script (``tests/accessibility.py``: the pinned release, fetched once), for
    :func:`accessibility.assert_accessible` in a page."""
    return axe_source()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    folder = Path(os.environ.get("EDUCATALOG_SCREENSHOTS", REPO / "build" / "screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Any]:
    """Headless Chromium for the tests of one module. Not for the session: Playwright's
    sync API keeps an event loop running in the main thread while it is open, and the
    tests after this folder call asyncio.run()."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def recorder(browser: Any) -> Iterator[Recorder]:
    """A new browser context and page whose console, errors and requests are recorded."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    recorder = Recorder(context)
    yield recorder
    context.close()


@pytest.fixture(scope="session")
def service(chromium: str) -> Iterator[Any]:
    with serve(scale=1.0, token=secrets.token_hex(12)) as running:
        yield running


@pytest.fixture(scope="session")
def offers(service: Any) -> Any:
    """The offers frame of the demo catalogue the notebooks and the explorer show."""
    import educatalog

    with service.client() as client:
        return educatalog.load_catalogue(client, progress=False).offers()


@pytest.fixture(scope="session")
def archive(tmp_path_factory: pytest.TempPathFactory, chromium: str) -> Path:
    """The demo archive notebook 07 would build (its default months and scale), built once."""
    from educatalog import history

    path = tmp_path_factory.mktemp("trends") / "archive"
    history.build_demo(path, months=12, scale=0.5)
    return path


@pytest.fixture(scope="session")
def lab(
    tmp_path_factory: pytest.TempPathFactory, service: Any, archive: Path, screenshots: Path
) -> Iterator[Lab]:
    pytest.importorskip("jupyterlab", reason="JupyterLab comes with the 'lab' extra")
    root = tmp_path_factory.mktemp("lab")
    for lang in ("de", "en"):
        copy_notebooks(root / lang, lang=lang)
    home = tmp_path_factory.mktemp("home")
    settings = home / "lab-settings"
    for name, values in LAB_SETTINGS.items():
        (settings / name).parent.mkdir(parents=True, exist_ok=True)
        (settings / name).write_text(json.dumps(values), encoding="utf-8")
    token, port = secrets.token_hex(16), free_port()
    runtime = Path(tempfile.mkdtemp(prefix="lab-"))  # short: the kernels' sockets lie in it
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("EDUCATALOG_URL", "EDUCATALOG_TOKEN", "JUPYTER"))
    }
    env.update(
        HOME=str(home),
        JUPYTERLAB_SETTINGS_DIR=str(settings),
        JUPYTER_TOKEN=token,
        EDUCATALOG_URL=service.url,
        EDUCATALOG_TOKEN=service.token,
        EDUCATALOG_ARCHIVE=str(archive),
        JUPYTER_RUNTIME_DIR=str(runtime),
    )
    command = [sys.executable, "-m", "jupyter", "lab", "--no-browser"]
    command += ["--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}"]
    command += ["--ServerApp.port_retries=0", f"--ServerApp.root_dir={root}", *server_args(runtime)]
    if os.geteuid() == 0:
        command.append("--allow-root")
    log = root.parent / "lab.log"
    process = logged(command, log, env, cwd=root)  # stopped with its kernels below
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_for(f"{url}/api/status", process, log, headers={"Authorization": f"token {token}"})
        yield Lab(url=url, token=token, root=root, log=log, screenshots=screenshots)
    finally:
        _stop(process)
        shutil.rmtree(runtime, ignore_errors=True)


def _wait_for(
    url: str, process: subprocess.Popen[bytes], log: Path, headers: dict[str, str] | None = None
) -> None:
    deadline = time.monotonic() + 180
    while True:
        assert process.poll() is None, f"{url} stopped:\n{log.read_text()[-3000:]}"
        assert time.monotonic() < deadline, f"{url} did not answer:\n{log.read_text()[-3000:]}"
        try:
            if httpx.get(url, headers=headers, timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.3)


def _stop(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
