"""What the parts of the generator share: the buffers of rows with their id counters, and
what one institution or course passes on to the rows generated for it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from educatalog.demodata.distributions import CHUNK_SIZE, ENTITY_ORDER, Kind, Weighted

Row = dict[str, Any]


class Institution:
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
        "venues",
    )

    account: int
    area: str  # telephone area code of the main address
    certifier: int | None
    contact_ids: list[int]
    domain: str
    institution_type: int
    kind: Kind
    main_state: int
    offer_prefix: str | None
    phone_base: str
    url: str
    uuid: str
    venues: Weighted[int]  # the address ids its events are held at, by weight

    def __init__(self) -> None:
        self.contact_ids = []


@dataclass(slots=True)
class EventTerms:
    """What the events of one course share: how they are held, how long, how funded
    (from :class:`~educatalog.demodata.courses.CourseWriter` to the events)."""

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
    addressed_from: int = 1 << 30
    """Events from this index on keep their address whatever is drawn: a nationwide
    provider's one event at each branch (the other courses' events may lose theirs)."""


class RowBuffers:
    """The generated rows by collection, waiting to be yielded in chunks, and the last id
    given in each collection."""

    def __init__(self, chunk_size: int = CHUNK_SIZE) -> None:
        self.chunk_size = chunk_size
        self.buffers: dict[str, list[Row]] = {name: [] for name in ENTITY_ORDER}
        self.last_id: dict[str, int] = dict.fromkeys(ENTITY_ORDER, 0)
        self.seen: set[str] = set()

    def __getitem__(self, collection: str) -> list[Row]:
        """The buffer of ``collection`` (append rows to it)."""
        return self.buffers[collection]

    def next_id(self, collection: str) -> int:
        """The id of the next row of ``collection``."""
        n = self.last_id[collection] + 1
        self.last_id[collection] = n
        return n

    def full(self) -> bool:
        """Whether a buffer holds a chunk's worth of rows."""
        return any(len(b) >= self.chunk_size for b in self.buffers.values())

    def flush(self) -> Iterator[tuple[str, list[Row]]]:
        """The buffered rows as ``(collection, rows)`` chunks, in ``ENTITY_ORDER``."""
        for name in ENTITY_ORDER:
            rows = self.buffers[name]
            if not rows:
                continue
            self.buffers[name] = []
            self.seen.add(name)
            for k in range(0, len(rows), self.chunk_size):
                yield name, rows[k : k + self.chunk_size]
