"""An archive of the synthetic demo catalogue over time, built offline (:func:`build_demo`),
or built once into the cache and reused (:func:`demo_archive`).

The demo over time is made by the demo generator
(:mod:`educatalog.demodata.timeline`), imported only when an archive of it is built.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import tempfile
from pathlib import Path

from educatalog.errors import ArchiveError, UsageError
from educatalog.history.archive import Archive
from educatalog.history.writer import add

__all__ = ["build_demo", "demo_archive"]


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


def demo_archive(
    *,
    months: int | None = None,
    start: dt.date | str | None = None,
    scale: float = 1.0,
    seed: int | None = None,
    directory: str | os.PathLike[str] | None = None,
) -> Archive:
    """The archive :func:`build_demo` builds for these arguments, kept in the cache
    (``educatalog.files.workspace.cache_dir()``, or ``directory``) and reused: what a notebook
    opens when it is given no archive, without leaving a new folder behind on every run.

    Folders are named after the arguments, the generator's version and a fingerprint of its
    code and of the archive's writer, so that a changed generator is never read from a
    stale folder. An archive is built in a folder of its own and renamed into place when
    complete; one whose files no longer match their checksums is built again.

    >>> arc = history.demo_archive(months=12, scale=0.5)  # doctest: +SKIP
    """
    from educatalog import demodata
    from educatalog.demodata.embedded import code_fingerprint
    from educatalog.demodata.timeline import HISTORY_MONTHS, HISTORY_START
    from educatalog.files.manifests import as_date
    from educatalog.files.workspace import cache_dir
    from educatalog.history import format, writer

    seed = demodata.DEFAULT_SEED if seed is None else seed
    first = as_date(start or HISTORY_START)
    months = months or HISTORY_MONTHS
    fingerprint = code_fingerprint(__file__, format.__file__ or "", writer.__file__ or "")
    name = (
        f"demo-archive-v{demodata.GENERATOR_VERSION}-{fingerprint}-seed{seed}-scale{scale:g}"
        f"-{first.isoformat()}-{months}m"
    )
    folder = Path(directory) if directory is not None else cache_dir()
    final = folder / name
    if final.is_dir():
        try:
            kept = Archive(final)
            kept.verify()  # every file against its checksum: a few MB, once per process
            return kept
        except ArchiveError:  # damaged: built again below
            shutil.rmtree(final, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=folder))
    try:
        build_demo(building / "archive", months=months, start=first, scale=scale, seed=seed)
        try:
            (building / "archive").rename(final)
        except OSError:  # another process put its copy in place first: that one is used
            if not final.is_dir():
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return Archive(final)
