"""Jupyter kernels that talk to their client privately, without a warning to the user.

A kernel on TCP sends code and outputs unencrypted over loopback, and ipykernel 7 says so on
every start ("Kernel is running over TCP without encryption"), which alarms those who review
the tools they run. On POSIX systems the report's kernel, JupyterLab's (``make lab``, and the
command ``educatalog notebooks`` prints: :func:`lab_command`) and the dashboard's talk over
IPC instead: Unix sockets in a folder only the user can open. (The
other remedy ipykernel names, CurveZMQ keys from the kernel manager, encrypts nbclient's
kernels but leaves JupyterLab 4.6's unable to run a cell.) Elsewhere, or where the socket's
path would be longer than a Unix socket's path may be, kernels stay on TCP.

>>> with private_kernel() as km:  # doctest: +SKIP
...     NotebookClient(nb, km=km).execute()
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["SOCKET_PATH_MAX", "lab_command", "private_kernel", "server_args"]

SOCKET_PATH_MAX = 100
"""The longest socket path used (Linux allows 107 bytes, macOS 103)."""

_SERVER_SOCKET = len("/kernel-00000000-0000-0000-0000-000000000000-ipc-5")
"""What a Jupyter server adds to its runtime folder for a kernel's socket."""


def server_args(runtime_dir: str | os.PathLike[str] | None = None) -> list[str]:
    """Options for a Jupyter server (JupyterLab, Voilà) that let its kernels talk over IPC
    where they can: their sockets lie in the server's runtime folder, ``runtime_dir``
    (default: Jupyter's, ``jupyter --runtime-dir``)."""
    if os.name != "posix":
        return []
    if runtime_dir is None:
        from jupyter_core.paths import jupyter_runtime_dir

        runtime_dir = jupyter_runtime_dir()
    if len(os.path.abspath(runtime_dir)) + _SERVER_SOCKET > SOCKET_PATH_MAX:
        return []
    return ["--KernelManager.transport=ipc"]


def lab_command(folder: str | os.PathLike[str]) -> list[str]:
    """The command that opens JupyterLab on ``folder`` as ``make lab`` does: its kernels
    over IPC where they can (:func:`server_args`), and as root (in many containers) with
    ``--allow-root``. What ``educatalog notebooks`` tells its user to run."""
    try:
        options = server_args()
    except ImportError:  # no Jupyter yet: the user installs it before running the command
        options = ["--KernelManager.transport=ipc"] if os.name == "posix" else []
    root = ["--allow-root"] if os.name == "posix" and os.geteuid() == 0 else []
    return ["jupyter", "lab", *options, *root, os.fspath(folder)]


@contextmanager
def private_kernel(kernel_name: str = "python3") -> Iterator[Any]:
    """A :class:`jupyter_client.KernelManager` for ``kernel_name`` (not started) whose
    kernel talks over IPC sockets in a private temporary folder (on POSIX systems); the
    kernel is shut down and the folder removed afterwards."""
    from jupyter_client.manager import KernelManager

    folder = tempfile.mkdtemp(prefix="educatalog-kernel-")  # mode 0700: the user's only
    socket = os.path.join(folder, "kernel")
    if os.name == "posix" and len(socket) + len("-5") <= SOCKET_PATH_MAX:
        manager = KernelManager(kernel_name=kernel_name, transport="ipc", ip=socket)
    else:
        manager = KernelManager(kernel_name=kernel_name)
    try:
        yield manager
    finally:
        try:
            if manager.has_kernel:  # whoever was given a manager does not stop its kernel
                manager.shutdown_kernel(now=False)
            manager.cleanup_resources()
        finally:
            shutil.rmtree(folder, ignore_errors=True)
