"""What the parts of the generator share: the buffers of rows and id counters, and what
one institution or course passes on to the rows generated for it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from educatalog.demodata.distributions import (
    _ENTITY_ORDER,
    _INSTITUTIONS_PER_SCALE,
    CHUNK_SIZE,
    _Kind,
)


class _Institution:
    """What the courses and events of one institution need to know about it."""

    __slots__ = (
        "account",
        "area",
        "certifier",
        "contact_ids",
        "domain",
        "institution_type",
        "kind",
        "main_state",
        "offer_prefix",
        "phone_base",
        "url",
        "uuid",
    )

    account: int
    area: str  # telephone area code of the main address
    certifier: int | None
    contact_ids: list[int]
    domain: str
    institution_type: int
    kind: _Kind
    main_state: int
    offer_prefix: str | None
    phone_base: str
    url: str
    uuid: str

    def __init__(self) -> None:
        self.contact_ids = []


@dataclass(slots=True)
class _Course:
    """How a course's events are held (passed from :meth:`_Generator.course` to the loop)."""

    form: int
    category: int
    part_time: bool
    mixed_times: bool
    slot: tuple[str, str]
    duration_class: int
    span: int
    unit: str
    lessons_per_day: int
    rolling: bool
    practical: bool
    voucher: bool
    measure_number: str | None
    force_defects: bool


class _Rows:
    """The generator's buffers of rows by collection and its id counters."""

    def __init__(self, seed: int, scale: float, chunk_size: int = CHUNK_SIZE) -> None:
        self.seed = seed
        self.chunk_size = chunk_size
        self.n_institutions = max(3, round(_INSTITUTIONS_PER_SCALE * scale))
        self.buffers: dict[str, list[dict[str, Any]]] = {name: [] for name in _ENTITY_ORDER}
        self.last_id: dict[str, int] = dict.fromkeys(_ENTITY_ORDER, 0)

    def _flush(self, seen: set[str]) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        for name in _ENTITY_ORDER:
            rows = self.buffers[name]
            if not rows:
                continue
            self.buffers[name] = []
            seen.add(name)
            for k in range(0, len(rows), self.chunk_size):
                yield name, rows[k : k + self.chunk_size]

    def _next_id(self, collection: str) -> int:
        n = self.last_id[collection] + 1
        self.last_id[collection] = n
        return n
