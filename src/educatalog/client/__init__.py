"""The HTTP client of the catalogue service: polite, complete and exact downloads.

>>> client = Client("http://127.0.0.1:8055", token="educatalog-demo-token")  # doctest: +SKIP
>>> rows = client.fetch_all("events", Query(filter=F("address.state") == 9))  # doctest: +SKIP

``fetch_all`` never trusts a single page: it asks for the ``filter_count`` first, walks the
matching rows by id (``sort=id`` and ``filter[id][_gt]=last``, which stays fast and stable on
a large, changing collection, where deep offsets are neither), splits the id range into
slices fetched concurrently (in threads), and checks at the end that it holds exactly that
many rows, without duplicates. A mismatch (the collection changed meanwhile) is retried,
then reported as :class:`~educatalog.errors.IncompleteDownload`, never returned silently.

:class:`Client` and its asyncio twin :class:`~educatalog.client.AsyncClient` are one
loop written once: the async source (:mod:`educatalog.client._async_client`) and the sync code
generated from it (:mod:`educatalog.client._sync_client`, by ``scripts/unasync.py``). Both have the
same methods and properties; :class:`ClientBase` (:mod:`educatalog.client._base`) holds their
I/O-free decisions and :mod:`educatalog.client._paging` the download plan and its check.
"""

from __future__ import annotations

from educatalog.client._base import (
    DEMO_HEADER,
    REFERENCE_SERVER,
    ClientBase,
    filter_count,
    item_of,
    wildcard_warnings,
)
from educatalog.client._paging import Page
from educatalog.client._sync_client import Client
from educatalog.errors import PassingFailure

__all__ = [
    "DEMO_HEADER",
    "REFERENCE_SERVER",
    "Client",
    "ClientBase",
    "Page",
    "PassingFailure",
    "filter_count",
    "item_of",
    "wildcard_warnings",
]
