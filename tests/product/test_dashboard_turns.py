"""The html dashboard's turns (``cli/dashboard_html.py``: :class:`Turns`): one computation at
a time, the pages before the charts before the files, in order of arrival within each; a
request whose visitor is gone while it waits is skipped, one cancelled as its turn came
hands the turn on, one whose visitor left is not computed when its turn comes, and past
the limit of those waiting the next is told the dashboard is busy."""

from __future__ import annotations

import asyncio
import threading

import pytest

from educatalog.cli.dashboard_html import CHART, FILE, PAGE, Busy, Gone, Turns


def test_one_at_a_time_pages_first_and_a_request_given_up_is_skipped() -> None:
    done: list[str] = []
    running: list[str] = []
    most = [0]
    started, release = threading.Event(), threading.Event()

    def work(name: str, hold: bool = False) -> str:
        running.append(name)
        most[0] = max(most[0], len(running))
        if hold:
            started.set()
            assert release.wait(30), "the first computation was never released"
        running.remove(name)
        done.append(name)
        return name.upper()

    async def main() -> list[str]:
        turns = Turns()
        first = asyncio.create_task(turns.run(PAGE, lambda: work("first", hold=True)))
        await asyncio.to_thread(started.wait, 30)  # the first computes; the rest must wait
        later = [
            ("chart-1", CHART),
            ("page-2", PAGE),
            ("file-1", FILE),
            ("chart-2", CHART),
            ("page-3", PAGE),
        ]
        tasks = {}
        for name, urgency in later:
            tasks[name] = asyncio.create_task(turns.run(urgency, lambda n=name: work(n)))
            await asyncio.sleep(0)  # it queues (one turn of the loop, no time)
        tasks["chart-2"].cancel()  # its visitor is gone
        await asyncio.sleep(0)
        release.set()
        results = [await first]
        for name, task in tasks.items():
            if name != "chart-2":
                results.append(await task)
        assert tasks["chart-2"].cancelled()
        return results

    results = asyncio.run(main())
    assert done == ["first", "page-2", "page-3", "chart-1", "file-1"]
    assert most[0] == 1  # never two at once
    assert sorted(results) == sorted(n.upper() for n in done)


def test_a_failed_computation_is_raised_and_the_next_gets_its_turn() -> None:
    async def main() -> str:
        turns = Turns()

        def fails() -> str:
            raise ValueError("no such view")

        failed = asyncio.create_task(turns.run(PAGE, fails))
        following = asyncio.create_task(turns.run(CHART, lambda: "drawn"))
        with pytest.raises(ValueError, match="no such view"):
            await failed
        return await asyncio.wait_for(following, 30)

    assert asyncio.run(main()) == "drawn"


def test_a_turn_handed_to_a_request_cancelled_meanwhile_goes_on_to_the_next() -> None:
    ran: list[str] = []

    async def main() -> None:
        turns = Turns()
        turns._busy = True  # as if a computation ran: the next two wait
        first = asyncio.create_task(turns.run(PAGE, lambda: ran.append("first")))
        second = asyncio.create_task(turns.run(PAGE, lambda: ran.append("second")))
        await asyncio.sleep(0)  # both wait for their turn
        turns._next()  # the running one is done: the turn goes to the first ...
        first.cancel()  # ... whose visitor leaves before it could start
        await asyncio.wait_for(second, 30)
        assert first.cancelled()

    asyncio.run(main())
    assert ran == ["second"]


def test_a_request_whose_visitor_left_is_not_computed_and_too_many_are_turned_away() -> None:
    ran: list[str] = []

    async def left() -> bool:
        return True

    async def main() -> None:
        turns = Turns(limit=1)
        with pytest.raises(Gone):
            await turns.run(PAGE, lambda: ran.append("left"), gone=left)
        turns._busy = True
        waiting = asyncio.create_task(turns.run(CHART, lambda: ran.append("waiting")))
        await asyncio.sleep(0)
        with pytest.raises(Busy):
            await turns.run(PAGE, lambda: ran.append("one too many"))
        turns._next()
        await asyncio.wait_for(waiting, 30)

    asyncio.run(main())
    assert ran == ["waiting"]
