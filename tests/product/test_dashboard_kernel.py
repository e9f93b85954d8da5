"""The dashboard's kernel manager (``data/python/educatalog_dashboard_kernel.py``): a kernel
that jupyter_server's culler reads in the turn it starts in is neither an error nor culled.

jupyter_server adds a starting kernel to its kernels one turn of the event loop before it
sets the kernel's ``last_activity``; a cull in that turn raised a ``TraitError`` whose
traceback reached the dashboard's output (seen in CI). The culler here is jupyter_server's
own, on a kernel manager caught in that turn: created, among the kernels, not yet marked."""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys

import pytest

from educatalog.cli.dashboard import KERNEL_MANAGER
from educatalog.files.workspace import PACKAGE

pytest.importorskip("voila")

from jupyter_server.services.kernels.kernelmanager import (
    AsyncMappingKernelManager,
    ServerKernelManager,
)
from traitlets import TraitError

FOLDER = PACKAGE / "data" / "python"


def cull_while_starting(kernel_manager_class: str) -> tuple[bool, bool]:
    """jupyter_server's culler on a kernel in the turn it starts in: whether the kernel is
    still among the kernels afterwards, and whether the culler logged an exception."""
    logged: list[logging.LogRecord] = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            logged.append(record)

    log = logging.getLogger(f"educatalog-test-culler-{kernel_manager_class}")
    log.handlers = [Catch()]
    manager = AsyncMappingKernelManager(
        kernel_manager_class=kernel_manager_class, cull_idle_timeout=1, log=log
    )
    kernel = manager.kernel_manager_factory(parent=manager, log=log, kernel_name="python3")
    manager._kernels["starting"] = kernel  # as jupyter_client adds it, before it is marked
    asyncio.run(manager.cull_kernels())
    return "starting" in manager._kernels, any(r.exc_info for r in logged)


def test_a_kernel_read_by_the_culler_as_it_starts_is_not_culled_and_raises_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(FOLDER))
    kept, failed = cull_while_starting(KERNEL_MANAGER)
    assert kept
    assert not failed


def test_the_race_is_real_with_jupyter_servers_own_kernel_manager() -> None:
    """Without the dashboard's class the same cull fails: the test above tests something."""
    stock = f"{ServerKernelManager.__module__}.{ServerKernelManager.__qualname__}"
    kernel = ServerKernelManager()
    with pytest.raises(TraitError, match="last_activity"):
        _ = kernel.last_activity
    kept, failed = cull_while_starting(stock)
    assert kept
    assert failed, "jupyter_server now marks a kernel before it joins: the class can go"


def test_voilas_process_imports_the_class_without_the_educatalog_package() -> None:
    """As the dashboard starts Voilà: the folder on PYTHONPATH, and nothing of educatalog
    (pandas and all) imported along."""
    module, name = KERNEL_MANAGER.rsplit(".", 1)
    script = (
        f"import sys; from {module} import {name}; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('educatalog', 'pandas')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={"PYTHONPATH": str(FOLDER), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
        cwd=FOLDER.parent,
    )
    assert done.stdout.strip() == "[]"


def cull_handed_out(kernel_manager_class: str, connections: int, idle: float) -> bool:
    """jupyter_server's culler on a kernel whose last recorded activity lies ``idle``
    seconds back and that has ``connections`` (a kernel Voilà handed to a page from its
    pool: preheated long ago, its page not connected yet): whether the kernel is kept."""
    import datetime as dt

    log = logging.getLogger(f"educatalog-test-handed-out-{kernel_manager_class}")
    manager = AsyncMappingKernelManager(
        kernel_manager_class=kernel_manager_class, cull_idle_timeout=1, log=log
    )
    kernel = manager.kernel_manager_factory(parent=manager, log=log, kernel_name="python3")
    kernel.kernel_id = "page"
    manager._kernels["page"] = kernel
    kernel.last_activity = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=idle)
    if connections:
        manager._kernel_connections["page"] = connections

    async def shutdown_kernel(kernel_id: str, *args: object, **kwargs: object) -> None:
        manager._kernels.pop(kernel_id)  # no process to stop: the kernel never started

    manager.shutdown_kernel = shutdown_kernel  # type: ignore[method-assign]
    asyncio.run(manager.cull_kernels())
    return "page" in manager._kernels


def test_a_kernel_handed_to_a_page_is_not_culled_before_the_page_connects(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The kernel Voilà hands to a page has no connection until the page's scripts open
    one; on a busy machine that took longer than the idle timeout, and the culler stopped
    the kernel: the visitor's page waited for a kernel that "never reached an 'alive'
    state" (seen in the suite's browser tests). Once the page connected, and went, the
    kernel is culled as before."""
    monkeypatch.syspath_prepend(str(FOLDER))
    assert cull_handed_out(KERNEL_MANAGER, connections=0, idle=60)
    stock = f"{ServerKernelManager.__module__}.{ServerKernelManager.__qualname__}"
    assert not cull_handed_out(stock, connections=0, idle=60)  # the race, without the class

    import educatalog_dashboard_kernel as module

    manager = AsyncMappingKernelManager(kernel_manager_class=KERNEL_MANAGER, cull_idle_timeout=1)
    kernel = manager.kernel_manager_factory(parent=manager, kernel_name="python3")
    kernel.kernel_id = "page"
    manager._kernels["page"] = kernel
    manager._kernel_connections["page"] = 1  # the page connected: read by the culler
    _ = kernel.last_activity
    manager._kernel_connections["page"] = 0  # and went
    import datetime as dt

    kernel.last_activity = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=60)
    assert kernel.last_activity < dt.datetime.now(dt.UTC) - dt.timedelta(seconds=59)
    assert module.UNCONNECTED_GRACE >= 60  # a page's scripts get minutes, not seconds


def test_a_kernel_whose_page_never_connects_ends_after_the_grace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(FOLDER))
    import educatalog_dashboard_kernel as module

    monkeypatch.setattr(module, "UNCONNECTED_GRACE", 0.0)
    assert not cull_handed_out(KERNEL_MANAGER, connections=0, idle=60)
