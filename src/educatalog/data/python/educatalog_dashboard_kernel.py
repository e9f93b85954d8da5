"""The kernel manager of the dashboard's Voilà: jupyter_server's, with one race closed.

jupyter_server's culler (``MappingKernelManager.cull_kernel_if_idle``) reads a kernel's
``last_activity``, which the manager sets one turn of the event loop after the kernel joins
its kernels. A cull in that turn (the dashboard culls every few seconds, and a kernel starts
whenever a visitor takes the preheated one) read an unset trait, and the whole traceback
reached the dashboard's output. Here a kernel's last activity reads as the moment it is
first read, until the manager sets it: a kernel just started is never idle.

The dashboard puts this folder on Voilà's ``PYTHONPATH`` and names
:class:`DashboardKernelManager` as ``MappingKernelManager.kernel_manager_class``, so that
Voilà's process can import it without the ``educatalog`` package (pandas and all).
"""

from __future__ import annotations

from datetime import UTC, datetime

from jupyter_server.services.kernels.kernelmanager import ServerKernelManager
from traitlets import default

__all__ = ["DashboardKernelManager"]


class DashboardKernelManager(ServerKernelManager):
    """A kernel whose unset last activity reads as now (a kernel just started is not idle)."""

    @default("last_activity")
    def _started(self) -> datetime:
        return datetime.now(UTC)  # aware, as jupyter_server's own times
