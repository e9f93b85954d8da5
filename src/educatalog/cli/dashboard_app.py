"""The dashboard's page as a Solara app: one process serves every visitor.

:func:`educatalog.cli.dashboard_solara.serve_snapshot` loads the catalogue once into
:data:`SHARED` and starts Solara's server with this module as its app. Each visitor gets a
virtual kernel of Solara's in that process, and in it :func:`Page` builds the page of
:func:`educatalog.cli.dashboard.show` for the visitor's address: their own explorer (their
view, their numbers) over the one :class:`~educatalog.widgets.ExplorerData` that all
visitors share, so a view that one visitor's numbers were computed for is shown to the
next at once. The page's own templates (its language from the first byte, the words while
it loads) lie in ``educatalog/templates``, where Solara looks for an app's templates.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import solara

from educatalog.cli.dashboard import Prepared, show
from educatalog.errors import UsageError

__all__ = ["SHARED", "Page", "Shared"]


@dataclass
class Shared:
    """What every visitor's page reads: the offers with what is derived from them
    (:class:`~educatalog.widgets.ExplorerData`), the page's language, the snapshot."""

    data: Any
    lang: str
    path: Path
    demo: bool


SHARED: list[Shared] = []
"""The one :class:`Shared` of this process, set by the server before it serves."""


def build(query: str) -> tuple[Any, Callable[[], None]]:
    """The page for the address ``query``, and how to end it (when the visitor is gone)."""
    from educatalog.widgets import Explorer

    if not SHARED:
        raise UsageError("The dashboard's page needs its data: start it with serve().")
    shared = SHARED[0]
    explorer = Explorer(shared.data, lang=shared.lang, heading=False)
    widget = show(Prepared(explorer, shared.lang, shared.path, shared.demo), query=query)

    # the widgets go with the visitor's virtual kernel; its pending update goes now
    return widget, explorer.close


@solara.component
def Page() -> None:
    """A visitor's page: built once for the address they came with."""
    router = solara.use_router()
    widget, end = solara.use_memo(lambda: build(router.search or ""), [])
    solara.use_effect(lambda: end, [])
    solara.display(widget)  # type: ignore[no-untyped-call]
