"""The kernel manager of the dashboard's Voilà: jupyter_server's, with two races closed.

jupyter_server's culler (``MappingKernelManager.cull_kernel_if_idle``) stops a kernel that
has no connection and whose ``last_activity`` lies more than ``cull_idle_timeout`` seconds
back. Two moments of a visitor's kernel fell under it wrongly:

- A kernel just started: the manager sets ``last_activity`` one turn of the event loop after
  the kernel joins its kernels. A cull in that turn (the dashboard culls every few seconds,
  and a kernel starts whenever a visitor takes the preheated one) read an unset trait, and
  the whole traceback reached the dashboard's output.
- A kernel handed to a page that has not connected yet: Voilà protects the kernels of its
  pool from the culler, but once it hands one to a page, the kernel's last activity is the
  end of its preheating, possibly long ago, and it has no connection until the page's
  scripts open one. On a busy machine, or with a short idle timeout, the culler stopped it
  in between, and the visitor waited for a kernel that "never reached an 'alive' state".

Here a kernel's last activity reads as now until its first connection (bounded by
:data:`UNCONNECTED_GRACE` seconds from its start, so that the kernel of a page that never
connects still ends), and as jupyter_server records it from then on.

The dashboard puts this folder on Voilà's ``PYTHONPATH`` and names
:class:`DashboardKernelManager` as ``MappingKernelManager.kernel_manager_class``, so that
Voilà's process can import it without the ``educatalog`` package (pandas and all).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from jupyter_server.services.kernels.kernelmanager import ServerKernelManager

__all__ = ["UNCONNECTED_GRACE", "DashboardKernelManager"]

UNCONNECTED_GRACE = 600.0
"""Seconds after its start within which a kernel that never had a connection is not idle."""


class DashboardKernelManager(ServerKernelManager):
    """A kernel that is not idle before its page first connected to it (nor when just
    started); from its first connection on, idle as jupyter_server counts it."""

    _started_at: float | None = None
    _recorded: datetime | None = None
    _connected: bool = False

    @property
    def last_activity(self) -> datetime:
        """The kernel's last activity for the culler: now before its first connection
        (within :data:`UNCONNECTED_GRACE`), else the last recorded."""
        now = datetime.now(UTC)  # aware, as jupyter_server's own times
        if self._started_at is None:
            self._started_at = time.monotonic()
        if not self._connected:
            self._connected = self._connections() > 0
        if self._recorded is None:
            self._recorded = now  # a kernel just started is not idle
        if not self._connected and time.monotonic() - self._started_at < UNCONNECTED_GRACE:
            return now
        return self._recorded

    @last_activity.setter
    def last_activity(self, value: datetime) -> None:
        self._recorded = value

    def _connections(self) -> int:
        """The connections of this kernel, as its manager counts them."""
        counts: Any = getattr(self.parent, "_kernel_connections", {})
        return int(counts.get(self.kernel_id, 0)) if self.kernel_id else 0
