"""The html dashboard's turns (``cli/dashboard_html.py``: :class:`Turns`): one computation at
a time, the pages before the charts before the files, in order of arrival within each; a
request whose visitor is gone while it waits is skipped, and one cancelled as its turn came
hands the turn on."""

from __future__ import annotations

import asyncio
import threading

import pytest

from educatalog.cli.dashboard_html import CHART, FILE, PAGE, Turns


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
