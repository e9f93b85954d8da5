"""Additions to an archive killed with SIGKILL, for the tests (issue 22): each runs in a
process forked from a forkserver that has imported educatalog once, so that a kill costs
no interpreter start and the test can afford many."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import time
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

__all__ = ["add_killed"]

_CONTEXT: Any = None


def _context() -> Any:
    global _CONTEXT
    if _CONTEXT is None:
        _CONTEXT = multiprocessing.get_context("forkserver")
        _CONTEXT.set_forkserver_preload(["interrupted", "educatalog.history", "pyarrow.parquet"])
    return _CONTEXT


def _die(*args: object, **kwargs: object) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _arm(step: str) -> None:
    """Make this process kill itself at ``step`` of the addition."""
    if step.startswith("write:"):  # after the n-th Parquet file is written
        import pyarrow.parquet as pq

        written, original = [0], pq.write_table

        def write_table(*args: Any, **kwargs: Any) -> None:
            original(*args, **kwargs)
            written[0] += 1
            if written[0] == int(step[len("write:") :]):
                _die()

        pq.write_table = write_table
    elif step == "replace":  # the new manifest written beside the old one, not moved yet
        real_replace = os.replace

        def replace(src: Any, dst: Any) -> None:
            if str(dst).endswith("archive.json"):
                _die()
            real_replace(src, dst)

        os.replace = replace
    elif step == "committed":  # the new manifest in place, superseded files still there
        from educatalog.history import writer

        def commit(self: Any) -> None:
            writer.atomic_text(self.folder / "archive.json", json.dumps(self.manifest))
            _die()

        writer._Writer.commit = commit  # type: ignore[method-assign]


def _child(archive: str, plain: str, step: str, ready: Event, done: Event) -> None:
    from educatalog import history, snapshot

    catalogue = snapshot.load(plain)
    _arm(step)
    ready.set()
    history.add(archive, catalogue, date=Path(plain).name)
    done.set()


def add_killed(archive: Path, plain: Path, step: str = "", delay: float | None = None) -> bool:
    """Add the snapshot folder ``plain`` (named by its date) to ``archive`` in a process
    that kills itself at ``step`` (``write:N``, ``replace``, ``committed``) or is killed
    ``delay`` seconds after it starts adding; True when the addition completed."""
    ctx = _context()
    ready, done = ctx.Event(), ctx.Event()
    proc = ctx.Process(target=_child, args=(str(archive), str(plain), step, ready, done))
    proc.start()
    try:
        assert ready.wait(timeout=300), "the process never got ready to add"
        if delay is not None:
            time.sleep(delay)
            proc.kill()
        proc.join(timeout=300)
    finally:
        if proc.is_alive():  # pragma: no cover - only when an assertion failed
            proc.kill()
            proc.join()
    completed: bool = done.is_set()
    assert completed or proc.exitcode == -signal.SIGKILL, proc.exitcode
    return completed


def time_add(archive: Path, plain: Path) -> float:
    """Seconds one addition takes (from ready to done), in the same kind of process."""
    started = time.perf_counter()
    ctx = _context()
    ready, done = ctx.Event(), ctx.Event()
    proc = ctx.Process(target=_child, args=(str(archive), str(plain), "", ready, done))
    proc.start()
    assert ready.wait(timeout=300)
    started = time.perf_counter()
    assert done.wait(timeout=300)
    took = time.perf_counter() - started
    proc.join(timeout=60)
    assert proc.exitcode == 0
    return took
