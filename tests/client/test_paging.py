"""The download planner without a server: the queries of a download, its id slices, the end
check, and the clients' I/O-free decisions (page-size shrinking, window checks)."""

from __future__ import annotations

import itertools
from typing import Any

import pyarrow as pa
import pytest

from educatalog.client._base import ClientBase
from educatalog.client._paging import (
    Page,
    converted,
    count_query,
    download_problem,
    download_query,
    first_is_all,
    first_query,
    incomplete_download,
    last_id,
    merge_deep,
    page_ids,
    page_of,
    row_ids,
    slices,
    sorted_pages,
    sorted_query,
    top_query,
    walk_slices,
    window_query,
)
from educatalog.errors import (
    IncompleteDownload,
    InvalidQuery,
    UnexpectedAnswer,
)
from educatalog.model.schema import SCHEMA
from educatalog.query import F, Query

EVENTS = SCHEMA["events"]
STATE_9 = '{"address":{"state":{"_eq":9}}}'


def rows(*ids: int) -> list[dict[str, Any]]:
    return [{"id": i} for i in ids]


def base(**options: Any) -> Query:
    return download_query(EVENTS, Query(fields=("remarks",), **options))


# -- the queries of a download -----------------------------------------------------------


def test_download_query_drops_paging_and_adds_the_id() -> None:
    query = Query(fields=("remarks",), filter=F("address.state") == 9, search="x", limit=5)
    params = download_query(EVENTS, query.replace(offset=3, page=2)).to_params()
    assert params == {"fields": "remarks,id", "filter": STATE_9, "search": "x"}


def test_download_query_lifts_the_cap_on_every_nested_list() -> None:
    assert download_query(EVENTS, None).to_params() == {"deep": '{"contacts":{"_limit":-1}}'}
    every = download_query(SCHEMA["courses"], None).deep or {}
    assert set(every) >= {"events", "costs", "keywords"}
    assert all(options == {"_limit": -1} for options in every.values())
    # plain fields: nothing to lift
    assert download_query(SCHEMA["courses"], Query(fields=("title",))).deep is None


def test_download_query_keeps_the_users_own_deep_options() -> None:
    query = Query(fields=("contacts.contacts_id",), deep={"contacts": {"_limit": 5}})
    assert download_query(EVENTS, query).deep == {"contacts": {"_limit": 5}}


def test_download_query_refuses_another_order() -> None:
    with pytest.raises(InvalidQuery, match="id order"):
        download_query(EVENTS, Query(sort=("-remarks",)))
    assert download_query(EVENTS, Query(sort=("-id",))).sort is None


def test_first_top_and_window_queries() -> None:
    b = base(filter=F("address.state") == 9)
    first = first_query(b).to_params()
    assert (first["sort"], first["meta"], first["filter"]) == ("id", "filter_count", STATE_9)
    assert top_query(b).to_params() == {
        "fields": "id",
        "filter": STATE_9,
        "sort": "-id",
        "limit": "1",
    }
    window = window_query(b, 10, 20).to_params()
    assert window["sort"] == "id"
    assert window["filter"] == ('{"_and":[' + STATE_9 + ',{"id":{"_gt":10}},{"id":{"_lte":20}}]}')
    # without a filter of its own, the window is the filter
    assert window_query(base(), 0, 5).to_params()["filter"] == (
        '{"_and":[{"id":{"_gt":0}},{"id":{"_lte":5}}]}'
    )


def test_count_query_asks_for_no_rows() -> None:
    params = count_query(Query(search="x", limit=4, offset=2, page=3)).to_params()
    assert params == {"search": "x", "limit": "0", "meta": "filter_count"}
    assert count_query(None).to_params() == {"limit": "0", "meta": "filter_count"}


def test_sorted_query_ends_with_the_id_once() -> None:
    assert sorted_query(EVENTS, Query(sort=("id",)), ["-remarks"]).sort == ("-remarks", "id")
    assert sorted_query(EVENTS, None, ["-id", "remarks"]).sort == ("-id", "remarks")
    assert sorted_query(EVENTS, Query(fields=("remarks",)), ["remarks"]).fields == (
        "remarks",
        "id",
    )


def test_sorted_pages_cover_the_rest_exactly() -> None:
    assert sorted_pages(25, 10) == [(10, 10), (20, 5)]
    assert sorted_pages(20, 10) == [(10, 10)]
    assert sorted_pages(10, 10) == []
    assert sorted_pages(3, 10) == []


# -- id slices -----------------------------------------------------------------------------


def test_slices_cover_the_ids_without_gaps_or_overlaps() -> None:
    parts = slices(100, 1000, rows=900, page_size=10, workers=4)
    assert len(parts) == 16  # four per worker
    assert parts[0][0] == 100
    assert parts[-1][1] == 1000
    assert all(a[1] == b[0] for a, b in itertools.pairwise(parts))
    assert all(low < high for low, high in parts)


def test_slices_are_never_smaller_than_a_page() -> None:
    assert slices(0, 1000, rows=25, page_size=10, workers=4) == [(0, 500), (500, 1000)]
    assert slices(0, 1000, rows=5, page_size=10, workers=4) == [(0, 1000)]
    assert slices(7, 7, rows=0, page_size=10, workers=4) == [(7, 7)]
    assert slices(0, 3, rows=300, page_size=1, workers=4) == [(0, 1), (1, 2), (2, 3)]


def test_walk_slices_start_after_the_first_page_and_end_at_the_top() -> None:
    first = Page(rows(1, 2, 3), {"filter_count": 30})
    # 27 rows left in ids (3, 90]: four slices for the one worker, none under a page
    assert walk_slices(first, Page(rows(90)), 30, 3, 1) == [(3, 25), (25, 47), (47, 69), (69, 90)]
    assert walk_slices(first, Page(rows(90)), 30, 10, 1) == [(3, 47), (47, 90)]
    # no top row (it vanished meanwhile): one slice up to the last id seen
    assert walk_slices(first, Page([]), 30, 3, 4) == [(3, 3)]


def test_first_is_all() -> None:
    assert first_is_all(Page(rows(1, 2)), 2)
    assert first_is_all(Page([]), 5)  # nothing (left) to walk
    assert not first_is_all(Page(rows(1, 2)), 3)


# -- pages ------------------------------------------------------------------------------------


def test_page_of_accepts_only_list_answers() -> None:
    page = page_of({"data": rows(1), "meta": {"filter_count": 1}})
    assert page == Page(rows(1), {"filter_count": 1})
    assert page_of({"data": []}) == Page([], {})
    for body in (None, [], {"data": {}}, {"data": [1]}, {"data": [], "meta": {"x": True}}):
        with pytest.raises(UnexpectedAnswer, match="not a list of items"):
            page_of(body, "GET /items/events")


def test_ids_of_plain_and_arrow_pages() -> None:
    arrow = Page.from_arrow(pa.table({"id": [4, 5, 6]}))
    assert row_ids(arrow) == [4, 5, 6]
    assert last_id(arrow) == 6
    assert row_ids(Page(rows(1, 2))) == [1, 2]
    assert last_id(Page(rows(1, 2))) == 2
    ids, size = converted(Page(rows(7, 8)), lambda page: page.num_rows)
    assert (ids, size) == ([7, 8], 2)


def test_a_page_holds_dicts_or_arrow_and_gives_dicts_either_way() -> None:
    plain = Page(rows(4, 5), {"filter_count": 2})
    assert plain.arrow is None
    assert (plain.num_rows, plain.data) == (2, rows(4, 5))
    arrow = Page.from_arrow(pa.table({"id": [4, 5]}), {"filter_count": 2})
    assert arrow.num_rows == 2
    assert arrow.data == rows(4, 5)  # made on first access, then kept
    assert arrow.data is arrow.data
    assert arrow == plain
    assert arrow != Page(rows(4, 5))  # other meta
    assert "2 rows as Arrow" in repr(arrow)


def test_merge_deep_lets_the_user_win() -> None:
    ours = {"contacts": {"_limit": -1}, "costs": {"_limit": -1}}
    assert merge_deep(ours, {"contacts": {"_limit": 5}}) == {
        "contacts": {"_limit": 5},
        "costs": {"_limit": -1},
    }
    assert merge_deep(ours, None) == ours


# -- the end check ---------------------------------------------------------------------------


def test_download_problem_sees_missing_and_repeated_rows() -> None:
    assert download_problem(3, [([1, 2], None), ([3], None)]) is None
    assert download_problem(0, []) is None
    missing = download_problem(3, [([1, 2], None)])
    assert missing == "expected 3 rows, received 2 (2 distinct)"
    repeated = download_problem(3, [([1, 2], None), ([2], None)])
    assert repeated == "expected 3 rows, received 3 (2 distinct)"
    assert download_problem(2, [([1, 2, 2], None)]) is not None


def test_download_problem_counts_arrow_id_columns_as_lists() -> None:
    def column(*ids: int) -> pa.Array:
        return pa.array(ids, pa.int64())

    assert download_problem(3, [(column(1, 2), None), ([3], None)]) is None
    missing = download_problem(3, [(column(1, 2), None)])
    assert missing == "expected 3 rows, received 2 (2 distinct)"
    repeated = download_problem(3, [(column(1, 2), None), (column(2), None)])
    assert repeated == "expected 3 rows, received 3 (2 distinct)"
    # ids no int64 holds are counted the general way
    assert (
        download_problem(2, [([2**70, 2**70], None)]) == "expected 2 rows, received 2 (1 distinct)"
    )


def test_incomplete_download_names_the_collection_and_the_problem() -> None:
    error = incomplete_download(EVENTS, "expected 3 rows, received 2 (2 distinct)")
    assert isinstance(error, IncompleteDownload)
    assert "GET /items/events: expected 3 rows" in str(error)


# -- the clients' decisions ---------------------------------------------------------------


@pytest.fixture
def client() -> ClientBase:
    c = ClientBase()
    c._configure(
        "http://127.0.0.1:9",
        None,
        timeout=1,
        max_concurrency=2,
        page_size=100,
        retries=0,
        backoff=0,
        progress=False,
    )
    return c


def test_the_page_size_halves_when_the_service_refuses_it(client: ClientBase) -> None:
    refused = InvalidQuery('"limit" is too large')
    assert client._page_limit(Query()) == 100
    assert client._shrink_page(Query(), 100, refused)
    assert client._page_limit(Query()) == 50
    assert client._shrink_page(Query(), 50, refused)
    assert client._page_limit(Query()) == 25
    # not about the limit, a limit of the user's own, or nothing left to halve: raise it
    assert not client._shrink_page(Query(), 25, InvalidQuery("unknown field"))
    assert not client._shrink_page(Query(limit=7), 7, refused)
    assert client._page_limit(Query(limit=7)) == 7
    assert not client._shrink_page(Query(), 1, refused)


def test_the_page_size_is_the_maximum_a_refusal_names(client: ClientBase) -> None:
    directus = InvalidQuery('Invalid query. "limit" must be less than or equal to 40.')
    assert client._shrink_page(Query(), 100, directus)
    assert client._page_limit(Query()) == 40
    # a maximum no lower than the page refused says nothing: halved
    assert client._shrink_page(Query(), 30, directus)
    assert client._page_limit(Query()) == 15
    # numbers that are no maximum of a page: halved
    objects = InvalidQuery(
        "The answer would hold 120,000 objects, more than 100,000: select fewer "
        "relations, or ask for fewer items with limit."
    )
    assert client._shrink_page(Query(), 14, objects)
    assert client._page_limit(Query()) == 7


def test_a_short_first_page_means_a_silent_cap(client: ClientBase) -> None:
    client._notice_cap(Page(rows(*range(1, 31))), 100, expected=500)
    assert client._effective_page_size == 30
    assert client._slice_done(Page(rows(*range(29))))
    assert not client._slice_done(Page(rows(*range(30))))
    # all there is, or a full page: no cap
    client._notice_cap(Page(rows(1, 2)), 30, expected=2)
    client._notice_cap(Page(rows(*range(30))), 30, expected=500)
    assert client._effective_page_size == 30
    # a cap only ever lowers the page size
    client._effective_page_size = 20
    client._notice_cap(Page(rows(*range(25))), 100, expected=500)
    assert client._effective_page_size == 20


def test_pages_must_hold_integer_ids_inside_the_window() -> None:
    ClientBase._check_window(EVENTS, Page(rows(11, 20)), 10, 20)
    ClientBase._check_window(EVENTS, Page(rows(1, 2)), None, None)
    with pytest.raises(UnexpectedAnswer, match="holds id 21"):
        ClientBase._check_window(EVENTS, Page(rows(11, 21)), 10, 20)
    with pytest.raises(UnexpectedAnswer, match="holds id 10"):
        ClientBase._check_window(EVENTS, Page(rows(10)), 10, 20)
    with pytest.raises(UnexpectedAnswer, match="integer id"):
        ClientBase._check_window(EVENTS, Page([{"id": "11"}]), 10, 20)


def test_arrow_pages_must_hold_integer_ids_inside_the_window() -> None:
    def page(ids: pa.Array) -> Page:
        return Page.from_arrow(pa.table({"id": ids}))

    assert page_ids(page(pa.array([4, 5]))).to_pylist() == [4, 5]
    assert page_ids(Page(rows(4, 5))) == [4, 5]
    ClientBase._check_window(EVENTS, page(pa.array([11, 20])), 10, 20)
    ClientBase._check_window(EVENTS, page(pa.array([], pa.int64())), 10, 20)
    with pytest.raises(UnexpectedAnswer, match="holds id 21"):
        ClientBase._check_window(EVENTS, page(pa.array([11, 21, 22])), 10, 20)
    with pytest.raises(UnexpectedAnswer, match="holds id 10"):
        ClientBase._check_window(EVENTS, page(pa.array([12, 10])), 10, 20)
    for wrong in (pa.array(["11"]), pa.array([11, None]), pa.array([True]), pa.array([1.5])):
        with pytest.raises(UnexpectedAnswer, match="integer id"):
            ClientBase._check_window(EVENTS, page(wrong), 10, 20)


def test_retry_delays_grow_and_honour_retry_after(client: ClientBase) -> None:
    from educatalog.errors import PassingFailure

    client.backoff = 1.0
    delays = [client._retry_delay(attempt, None) for attempt in range(4)]
    for attempt, delay in enumerate(delays):
        assert 0.5 * 2**attempt <= delay <= 1.5 * 2**attempt
    assert client._retry_delay(0, PassingFailure("HTTP 429", 30.0)) == 30.0
