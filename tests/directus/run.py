"""Running the comparison: both servers asked every case, differences sorted out.

Used by the live comparison (against a running Directus) and the replay of its recorded
answers (every ``make test``).
"""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from compare import ask, describe, normalise
from deviations import deviation_of
from harness import CATALOGUE_FILE, DIRECTUS_VERSION, RECORDED, catalogue_rows
from queries import Case, cases

ANSWERS_FILE = RECORDED / f"directus-{DIRECTUS_VERSION}.json.gz"
TOKEN = "comparison-token"


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def catalogue_digest() -> str:
    return hashlib.sha256(Path(CATALOGUE_FILE).read_bytes()).hexdigest()


@dataclass
class Clock:
    """The reference server's clock for ``$NOW``: set to the moment Directus answered."""

    now: dt.datetime = field(default_factory=utc_now)

    def __call__(self) -> dt.datetime:
        return self.now


@contextmanager
def reference_server(tmp: Path, clock: Callable[[], dt.datetime]) -> Iterator[str]:
    """The reference server over the recorded test catalogue, with ``clock``; yields URL."""
    from educatalog.server.app import create_app
    from educatalog.server.uvicorn_server import ServerThread
    from educatalog.testing import build_test_database

    database = build_test_database(tmp / "compare.sqlite", catalogue_rows())
    app = create_app(database, tokens=[TOKEN], clock=clock)
    try:
        with ServerThread(app) as server:
            yield server.url
    finally:
        app.state.database.close()


@dataclass
class Outcome:
    case: Case
    ours: dict[str, Any]
    directus: dict[str, Any]

    @property
    def equal(self) -> bool:
        return self.ours == self.directus


@dataclass
class Report:
    outcomes: list[Outcome]

    def problems(self) -> list[str]:
        """Differences no deviation covers, and deviations that no longer differ."""
        out = []
        for o in self.outcomes:
            deviation = deviation_of(o.case.name)
            if not o.equal and deviation is None:
                out.append(f"{o.case.name}: ours {describe(o.ours, o.directus)} Directus")
            elif o.equal and deviation is not None:
                out.append(
                    f"{o.case.name}: listed as deviation {deviation.id!r} but both agree now"
                )
        return out

    def summary(self) -> str:
        deviating = sum(1 for o in self.outcomes if deviation_of(o.case.name))
        plain = [o for o in self.outcomes if not deviation_of(o.case.name)]
        same = sum(o.equal for o in plain)
        return (
            f"{len(self.outcomes)} cases: {same} of {len(plain)} non-deviating cases "
            f"identical ({100 * same / max(1, len(plain)):.1f}%), {deviating} documented "
            "deviations"
        )


def compare_live(
    ours_url: str, clock: Clock, directus_url: str, directus_token: str
) -> tuple[Report, dict[str, Any]]:
    """Ask both servers every case; returns the report and the recording of Directus."""
    outcomes = []
    recorded: dict[str, Any] = {}
    with (
        httpx.Client(base_url=ours_url, timeout=120) as ours,
        httpx.Client(base_url=directus_url, timeout=120) as directus,
    ):
        for case in cases(catalogue_rows()):
            clock.now = utc_now()
            answer = ask(directus, case, directus_token)
            theirs = normalise(case, answer.status_code, answer.content)
            mine = ask(ours, case, TOKEN)
            recorded[case.key] = {"name": case.name, "at": clock.now.isoformat(), "answer": theirs}
            outcomes.append(Outcome(case, normalise(case, mine.status_code, mine.content), theirs))
    return Report(outcomes), recorded


def save_recording(recorded: dict[str, Any]) -> None:
    payload = {
        "directus": DIRECTUS_VERSION,
        "database": "PostgreSQL",
        "catalogue_sha256": catalogue_digest(),
        "recorded": utc_now().isoformat(timespec="seconds"),
        "answers": recorded,
    }
    text = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    with gzip.GzipFile(ANSWERS_FILE, "wb", mtime=0) as fh:
        fh.write(text.encode())


def load_recording() -> dict[str, Any]:
    with gzip.open(ANSWERS_FILE, "rb") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


def compare_recorded(ours_url: str, clock: Clock, recording: dict[str, Any]) -> Report:
    """Ask the reference server every case and compare with Directus's recorded answers."""
    outcomes = []
    answers = recording["answers"]
    with httpx.Client(base_url=ours_url, timeout=120) as ours:
        for case in cases(catalogue_rows()):
            if case.key not in answers:
                raise LookupError(
                    f"case {case.name!r} has no recorded Directus answer: record again with "
                    "`make conformance-directus RECORD=1`"
                )
            entry = answers[case.key]
            clock.now = dt.datetime.fromisoformat(entry["at"])
            mine = ask(ours, case, TOKEN)
            outcomes.append(
                Outcome(case, normalise(case, mine.status_code, mine.content), entry["answer"])
            )
    return Report(outcomes)
