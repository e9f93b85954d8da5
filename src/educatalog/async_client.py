"""The asyncio twin of :class:`~educatalog.client.Client`, on ``httpx.AsyncClient``.

>>> async with AsyncClient("http://127.0.0.1:8055", token="...") as client:  # doctest: +SKIP
...     events, courses = await asyncio.gather(
...         client.fetch_all("events"), client.fetch_all("courses")
...     )
...     demo = await client.is_demo

It is the same loop as ``Client`` (written once: ``Client`` is generated from this client's
source, :mod:`educatalog._async_client`), with the same methods and properties: the
retries, errors, id-slice downloads, count check and page-size adaptation, with
``asyncio.sleep`` between attempts and the id slices of one download walked by at most
``max_concurrency`` tasks at once. What differs is waiting: its methods are coroutines,
``iter_pages`` is an async iterator, it closes with ``aclose()``, and the properties that
need an answer of the service are awaited (``await client.server_info``,
``await client.is_reference_server``, ``await client.is_demo``); calling them as the
coroutine methods they used to be (``await client.is_demo()``) still works and warns.
"""

from __future__ import annotations

from educatalog._async_client import AsyncClient

__all__ = ["AsyncClient"]
