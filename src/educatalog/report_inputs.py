"""The inputs of ``educatalog report`` checked before anything is written: the states as the
service names them (also given in English or as ISO 3166-2 codes), a selection that holds
events, and the population file as the manifest records it (its path, checksum, and a
warning where it is dated after the data).

>>> state_names(["Bavaria", "DE-SN"], ["Bayern", "Sachsen", ...])   # doctest: +SKIP
['Bayern', 'Sachsen']
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from educatalog import periods
from educatalog.client import Client
from educatalog.errors import UsageError, did_you_mean
from educatalog.population import STATES
from educatalog.query import Query
from educatalog.query.tree import filter_from_json
from educatalog.texts.labels import EN_LABELS

__all__ = ["check_selection", "population_record", "selected_events", "state_names"]


def _aliases() -> dict[str, str]:
    """Every way of naming a state, casefolded: its German and English name, its ISO
    3166-2 code with and without ``DE-``, its official key; each to the German name."""
    found: dict[str, str] = {}
    for code, row in STATES.iterrows():
        name = str(row["state"])
        for alias in (name, EN_LABELS.get(name, name), str(code), str(code)[3:], row["key"]):
            found[str(alias).casefold()] = name
    return found


def state_names(given: Sequence[str], names: Sequence[str]) -> list[str]:
    """``given`` as the service names its states (``names``): a name as it is, or in
    other case, an English name ("Bavaria"), an ISO 3166-2 code ("DE-BY", "BY") or an
    official key ("09") as the German name. Anything else fails with the nearest name
    ("Did you mean …?"), or the service's names."""
    aliases = _aliases()
    folded = {n.casefold(): n for n in names}
    found = []
    for state in given:
        text = str(state).strip()
        name = folded.get(text.casefold()) or folded.get(
            aliases.get(text.casefold(), "").casefold()
        )
        if name is None:
            choices = [*names, *(EN_LABELS.get(n, n) for n in names), *STATES.index]
            hint = did_you_mean(text, choices) or f" States: {', '.join(names)}."
            raise UsageError(f'No state "{state}".{hint}')
        found.append(name)
    return found


def selected_events(
    client: Client, states: Sequence[str] | None, start: str | None, end: str | None
) -> int:
    """How many events of the service at ``client`` the report's selection keeps: those
    whose address lies in one of ``states`` (all where None), starting from ``start`` to
    ``end`` (both included), as :func:`educatalog.stats.select` keeps them."""
    parts: list[Mapping[str, Any]] = []
    if states:
        parts.append({"address": {"state": {"name": {"_in": list(states)}}}})
    if start:
        parts.append({"event_start_date": {"_gte": f"{start}T00:00:00"}})
    if end:
        after = dt.date.fromisoformat(end) + dt.timedelta(days=1)
        parts.append({"event_start_date": {"_lt": f"{after.isoformat()}T00:00:00"}})
    query = Query(filter=filter_from_json({"_and": parts})) if parts else None
    return client.count("events", query)


def check_selection(
    client: Client, states: Sequence[str] | None, start: str | None, end: str | None
) -> None:
    """Fail, naming the selection, where it keeps no event: a report of it would be empty."""
    if not (states or start or end) or selected_events(client, states, start, end):
        return
    words = []
    if states:
        words.append(f"states {', '.join(states)}")
    if start or end:
        words.append(f"start dates {start or '…'} to {end or '…'}")
    raise UsageError(
        f"The selection ({'; '.join(words)}) holds no event of the catalogue: the report "
        "would be empty. Choose other states or dates."
    )


def population_record(
    path: str | os.PathLike[str] | None, found: Mapping[str, Any], stand: dt.date
) -> dict[str, Any]:
    """The population figures as the manifest records them: ``found`` (source, date,
    basis …), for a file of one's own its ``path`` and ``sha256``, and a ``warning`` where
    the figures are dated after the data's date ``stand``."""
    record = dict(found)
    if path is not None:
        file = Path(path).resolve()
        record["path"] = str(file)
        record["sha256"] = hashlib.sha256(file.read_bytes()).hexdigest()
    later = periods.population_notes(found, stand, "en")
    if later:
        record["warning"] = later[0]
    return record
