"""An archive of the synthetic demo catalogue over time, built offline (:func:`build_demo`).

The demo over time is made by the demo generator
(:mod:`educatalog.demodata.timeline`), imported only when an archive of it is built.
"""

from __future__ import annotations

import datetime as dt
import os

from educatalog.errors import UsageError
from educatalog.history.archive import Archive
from educatalog.history.writer import add

__all__ = ["build_demo"]


def build_demo(
    path: str | os.PathLike[str],
    *,
    months: int | None = None,
    start: dt.date | str | None = None,
    scale: float = 1.0,
    seed: int | None = None,
    progress: bool = False,
) -> Archive:
    """An archive of monthly snapshots of the synthetic demo catalogue over time
    (:mod:`educatalog.demodata.timeline`), built offline and deterministically.

    >>> arc = history.build_demo("demo-archive/", months=6, scale=0.05)  # doctest: +SKIP
    """
    from educatalog import demodata
    from educatalog.demodata.timeline import HISTORY_MONTHS, HISTORY_START, DemoTimeline

    timeline = DemoTimeline(demodata.DEFAULT_SEED if seed is None else seed, scale)
    dates = timeline.monthly_dates(start or HISTORY_START, months or HISTORY_MONTHS)
    archive = None
    for day in dates:
        archive = add(path, timeline.catalogue(day), date=day)
        if progress:
            print(f"  {day}: added", flush=True)
    if archive is None:
        raise UsageError(f"build_demo needs at least one month, got months={months!r}.")
    return archive
