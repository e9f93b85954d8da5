"""The few ways the two clients wait differently, as small sync and async primitives.

The client loop is written once, for asyncio (:mod:`educatalog.client._async_client`), and the
threaded :class:`~educatalog.client.Client` is generated from it (``scripts/unasync.py``),
which turns :class:`AsyncBackend` into :class:`SyncBackend` and an :func:`awaitable`
property into a plain one. As in httpcore, everything that differs is here:

* ``sleep``: ``asyncio.sleep`` or ``time.sleep``;
* ``run_all``: calls run at most ``limit`` at once, results in order: asyncio tasks under a
  semaphore (the first error cancels the others) or a thread pool;
* :func:`awaitable`: what ``AsyncClient`` returns for a property that needs an answer of the
  service (``await client.is_demo``); the sync client returns the value itself.
"""

from __future__ import annotations

import asyncio
import time
import warnings
from collections.abc import Callable, Coroutine, Generator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Generic, TypeVar

__all__ = ["AsyncBackend", "AsyncCall", "Awaitable", "Call", "SyncBackend", "awaitable"]

T = TypeVar("T")

AsyncCall = Callable[[], Coroutine[Any, Any, T]]
"""A call without arguments whose result is awaited."""

Call = Callable[[], T]
"""A call without arguments (the sync form of :data:`AsyncCall`)."""


class AsyncBackend:
    """Waiting in asyncio."""

    @staticmethod
    async def sleep(seconds: float) -> None:
        await asyncio.sleep(seconds)

    @staticmethod
    async def run_all(calls: Sequence[AsyncCall[T]], limit: int) -> list[T]:
        """The results of ``calls``, run as tasks, at most ``limit`` at once.

        On the first error the others are cancelled and awaited before it is raised, so that
        no call outlives the download it belongs to.
        """
        workers = asyncio.Semaphore(limit)

        async def run(call: AsyncCall[T]) -> T:
            async with workers:
                return await call()

        tasks = [asyncio.ensure_future(run(call)) for call in calls]
        try:
            return await asyncio.gather(*tasks)
        except BaseException:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise


class SyncBackend:
    """Waiting in threads."""

    @staticmethod
    def sleep(seconds: float) -> None:
        time.sleep(seconds)

    @staticmethod
    def run_all(calls: Sequence[Call[T]], limit: int) -> list[T]:
        """The results of ``calls``, run in a pool of ``limit`` threads (the first error is
        raised once the calls already started have ended)."""
        with ThreadPoolExecutor(limit) as pool:
            return list(pool.map(lambda call: call(), calls))


class Awaitable(Generic[T]):
    """The value of an ``AsyncClient`` property that needs an answer of the service: await
    it (``await client.is_demo``). Nothing is asked until then.

    Calling it, as earlier versions asked (``await client.is_demo()``), still works and
    warns: those were coroutine methods.
    """

    def __init__(self, ask: AsyncCall[T], name: str) -> None:
        self._ask = ask
        self._name = name

    def __await__(self) -> Generator[Any, None, T]:
        return self._ask().__await__()

    def __call__(self) -> Awaitable[T]:
        warnings.warn(
            f"AsyncClient.{self._name} is a property, as on Client: write "
            f"`await client.{self._name}`, not `await client.{self._name}()`.",
            DeprecationWarning,
            stacklevel=2,
        )
        return self


def awaitable(ask: AsyncCall[T], name: str) -> Awaitable[T]:
    """An :class:`Awaitable` of ``ask()`` for the property ``name``."""
    return Awaitable(ask, name)
