"""Carrying out a :class:`~educatalog.server.plan.ReadPlan`: the one way every read of the
server goes, whatever the shape of its body (:class:`Reader`), and the answer it makes
(:func:`answer`): sent whole, in the pieces it was read in, or streamed."""

from __future__ import annotations

from collections.abc import Generator
from contextlib import AbstractContextManager
from functools import partial
from typing import Any

import anyio
import anyio.to_thread
import orjson
from starlette.requests import Request
from starlette.responses import Response

from educatalog.server import tuning
from educatalog.server.answers import PiecewiseAnswer, StreamedAnswer
from educatalog.server.context import Context, Limits
from educatalog.server.guard import Guard
from educatalog.server.items import (
    meta_tail,
    read_groups,
    read_item,
    read_items,
    read_items_json,
    stream_items,
)
from educatalog.server.plan import ReadPlan, Shape
from educatalog.server.scheduling import FairShare, read_quickly
from educatalog.server.store import Database

__all__ = ["Reader", "answer"]


class Reader:
    """One read of a plan's answer: its lease, guard and pieces while it streams (one
    attempt at a time: :meth:`start` begins anew, as a read that ran out of the quick guard
    on the event loop does in a worker thread)."""

    def __init__(self, db: Database, limits: Limits, plan: ReadPlan) -> None:
        self.db = db
        self.limits = limits
        self.plan = plan
        self.guard: Guard | None = None
        self.lease: AbstractContextManager[Context] | None = None
        self.pieces: Generator[bytes, None, None] | None = None

    def start(self, guard: Guard) -> tuple[list[bytes], bool]:
        """The answer's first pieces, and whether they are all of it (then it is finished).
        Only a streamed plan may leave pieces to read; an attempt of one under a quick guard
        does not stream: a longer answer is its QueryTooLong."""
        self.finish()
        self.guard = guard
        if not self.plan.streamed:
            return self._whole(guard), True
        limits = self.limits
        cache = tuning.TUNING.stream_cache_kib
        self.lease = Context.lease(self.db, guard, limits, cache_kib=cache)
        try:
            self.pieces = stream_items(self.lease.__enter__(), self.plan.bound, flat=self.plan.flat)
            first: list[bytes] = []
            size = 0
            for piece in self.pieces:
                first.append(piece)
                size += len(piece)
                if len(first) > 1 and size > limits.whole_bytes:
                    if guard.on_loop:
                        raise guard.too_long()
                    return first, False
        except BaseException:
            self.finish()
            raise
        self.finish()
        return first, True

    def _whole(self, guard: Guard) -> list[bytes]:
        """The body of an answer read whole, in pieces to be sent one after the other: rows
        serialized by SQLite are not copied once more to be spliced in."""
        plan, bound = self.plan, self.plan.bound
        with Context.lease(self.db, guard, self.limits) as ctx:
            if plan.shape is Shape.GROUPS:
                groups, meta = read_groups(ctx, bound)
                return [b'{"data":', groups, meta_tail(meta)]
            if plan.shape is Shape.WRITTEN:
                written = read_items_json(ctx, bound, flat=True)
                assert written is not None
                objects, meta = written
                return [b'{"data":[', objects, b"]" + meta_tail(meta)]
            if plan.shape is Shape.ITEM:
                coll = bound.collection
                row = read_item(ctx, coll, plan.item_id, bound.fields, bound.deep)
                return [orjson.dumps({"data": row})]
            rows, meta = read_items(ctx, bound)
        content: dict[str, Any] = {"data": rows}
        if meta:
            content["meta"] = meta
        return [orjson.dumps(content)]

    @property
    def open(self) -> bool:
        """Whether a lease or pieces are still held (:meth:`finish` gives them back)."""
        return self.lease is not None or self.pieces is not None

    def finish(self) -> None:
        """Close the pieces and give the connection back (in the thread that read them)."""
        pieces, lease = self.pieces, self.lease
        self.pieces = self.lease = None
        if pieces is not None:
            pieces.close()
        if lease is not None:
            lease.__exit__(None, None, None)


async def answer(
    request: Request,
    db: Database,
    limits: Limits,
    share: FairShare,
    plan: ReadPlan,
    headers: dict[str, str],
) -> Response:
    """The answer to a plan: read in a slot of ``share``, on the event loop first when the
    plan is quick, else (or when that runs out of the quick guard) in a worker thread.

    Its first pieces are read before the status is sent, so that a refused or too long
    query is still answered with its error. One that ends within its first
    ``whole_bytes`` is sent whole, with its length; any other is streamed, and its slot is
    released when it is done."""
    slot = await share.acquire(heavy=plan.heavy)
    reader = Reader(db, limits, plan)
    try:
        first, whole = await read_quickly(request, limits, reader.start, quick=plan.quick)
    except BaseException:
        if reader.open:
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(reader.finish)
        share.release(slot)
        raise
    if whole:
        share.release(slot)
        return PiecewiseAnswer(first, headers)
    assert reader.pieces is not None
    assert reader.guard is not None
    done = partial(share.release, slot)
    return StreamedAnswer(first, reader.pieces, reader.guard, reader.finish, done, headers)
