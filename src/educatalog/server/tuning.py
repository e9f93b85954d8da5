"""The server's tuning numbers in one place: :class:`Tuning`, of which :data:`TUNING` is the
one the server reads (a test replaces it to try another number). Each field says the
measurement that chose it."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TUNING", "Tuning"]


@dataclass(frozen=True)
class Tuning:
    """Every threshold, budget and size the server is tuned by."""

    # -- Limits of a server (the defaults of ``create_app`` and ``educatalog serve``) --------

    query_time: float = 10.0
    """Seconds of CPU time a query may take (plus 0.1 ms for every row it writes)."""

    stream_rows: int = 5_000
    """Answers that may hold more rows than this (``limit=-1`` among them) are streamed in
    constant memory; the client asks for 5,000 rows a page, which stay whole."""

    max_response_objects: int = 5_000_000
    """JSON objects one answer may hold, nested ones counted each time they are written (a
    bound on what one query may cost, found in review: refused before anything is built)."""

    whole_bytes: int = 1 << 20
    """An answer chosen to be streamed that ends within its first this many bytes
    (``limit=-1`` over a reference list, or a filter that matches little) is sent whole, with
    its length: read in one worker call, not one a piece."""

    # -- The plan: where a read runs and the shape of its body (:mod:`~.plan`) -------------

    quick_rows: int = 5_000
    """Reads of a collection with more rows than this are read in a worker thread at once:
    any read of a larger collection may scan it (a filter, a count or a page of 100 of a
    million events took 2.4 ms); on the loop it would run out of the quick guard and start
    over, its first attempt wasted."""

    quick_objects: int = 500
    """Answers built in Python that can hold more JSON objects than this are read in a
    worker thread at once (a page of 1,000 events takes several milliseconds)."""

    quick_flat_objects: int = 1_500
    """The same for answers that SQLite writes alone, about 1,500 objects a millisecond:
    492 events with their address's city took 0.7 ms."""

    flat_whole_factor: int = 4
    """Pages that SQLite writes alone are read whole up to this many times
    ``stream_rows`` in objects (20,000 events with every field: at most about 16 MB; nested
    many-to-one objects count, so fewer rows with them): SQLite writes their array in one
    statement, where a streamed page takes a Python bytes object a row (``limit=10000`` of
    three fields 8.8 ms instead of 20 ms, one process)."""

    nested_stream_rows: int = 500
    """Pages with expanded relations that may hold more rows than this are streamed too,
    chunk by chunk: a page of them can be large; smaller ones are built whole, as fast as
    before they were streamed."""

    flat_depth: int = 4
    """The most levels of many-to-one objects that SQLite writes nested in a row; a deeper
    selection is built in Python. Each level is a subquery in the statement, and SQLite's
    parser refused eight of them ("parser stack overflow")."""

    # -- Reading (:mod:`~.items`, :mod:`~.reader`) ------------------------------------------

    chunk_rows: int = 2_000
    """Rows a chunk of a streamed answer is read and built from (with their relations)."""

    chunk_objects: int = 100_000
    """The most objects (by the upper bound) a chunk of a streamed answer is built from:
    pages with expanded relations stream fewer rows a chunk, sized by their objects."""

    stream_cache_kib: int = 8_192
    """SQLite's page cache while a connection streams an answer (a scan reads each page
    once): with it, the abuse run's peak was 191 MB against a 528 MB target."""

    id_scan_budget: int = 1_000_000
    """SQLite VM steps (about 50 ms) allowed to the walk of a filtered page in id order
    before the planner's plan (which ignores ``LIMIT`` and sorts every match of a wide
    filter); selective equalities go to their index at once, so the walk can be this long."""

    search_scan_budget: int = 250_000
    """SQLite VM steps allowed to a search's walk in id order when its collection has a
    search index (about 10 ms: a page of a word that one row in a hundred holds); beyond
    them, the index's rows are read."""

    walk_ticks: int = 16
    """A walk's step budget is counted in this many calls of SQLite's progress handler:
    SQLite counts a reused statement's steps across its runs, so one call at the whole
    budget cut repeated pages short at random."""

    selective_rows: int = 5_000
    """An equality on an indexed column expected to match fewer rows goes straight to its
    index (a page of one course's events: the index wins by far over the walk)."""

    page_candidates: int = 10_000
    """A page of a search is read from the index's rows when it names at most this many
    (a scan in id order finds a page of a word that most rows hold after a few hundred
    rows; a word that few rows hold: a million events 0.6 s to 1 ms)."""

    all_candidates_share: int = 4
    """A statement that reads every match (a count, a sort) is read from the index's rows
    when it names at most this part of the collection's rows (or ``page_candidates``)."""

    # -- The guard (:mod:`~.guard`) -------------------------------------------------------------

    check_steps: int = 1_000_000
    """SQLite VM steps between two checks of a guard (about 50 ms of SQLite's work; a page
    of 1,000 rows written as JSON takes about 100,000). A check is a Python call from inside
    SQLite: it takes the GIL, which another request's thread may hold for up to the
    interpreter's switch interval. Rare checks cost nothing measurable; frequent ones
    (every 50,000 steps) made deep pages and large answers wait."""

    quick_time: float = 0.001
    """CPU seconds a read may take on the event loop before it is run again in a worker
    thread: most reads of small pages, items and groups take less, and handing a read to a
    worker and back costs about 0.15 ms, a third of a small page's whole read."""

    quick_steps: int = 20_000
    """SQLite VM steps between two checks of a quick guard (about 1 ms of SQLite's work)."""

    # -- Slots (:class:`~.scheduling.FairShare`) -------------------------------------------

    slots: int = 8
    """Queries running at once, so that small requests (and ``/server/ping``) stay fast
    while expensive ones run."""

    heavy_slots: int = 2
    """Of those, answers that may be large (streamed, or many groups)."""

    slot_queue: int = 32
    """Requests waiting for a slot; any more get a 503 with ``Retry-After``."""

    # -- The database (:mod:`~.store`) -------------------------------------------------------

    statement_cache: int = 1_024
    """Prepared statements a connection keeps (Python's default: 128). Preparing a statement
    again cost up to 70 us, as much as a small read: the comparison's 859 queries, asked
    again, took 7 % less of the server's time with this cache, and about 2 MB more memory."""

    rank_step: int = 1_024
    """Every this many rows of a table in id order, ``Database.rank_start`` knows the id:
    ``limit=100&page=8000`` at a million events 4 ms instead of 115 ms, from samples read
    once per table."""

    # -- HTTP (:mod:`~.uvicorn_server`) ------------------------------------------------------

    header_timeout: float = 10.0
    """Seconds a connection may take to send the headers of its next request."""

    max_connections: int = 1_000
    """Open connections beyond this are answered with a 503 and closed."""

    max_header_bytes: int = 65_536
    """Request line and headers larger than this are refused (h11; httptools has its own
    cap)."""


TUNING = Tuning()
"""The numbers the server reads, at the moment it reads them."""
