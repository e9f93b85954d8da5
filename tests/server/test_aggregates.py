"""Counting on the server: ``aggregate`` and ``groupBy`` answered as Directus answers them
(checked against Directus itself by the recorded comparison), each value here recomputed
from the rows in Python; Directus's other global parameters answered or refused by name;
and the depth of relational paths bounded as Directus bounds it."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import httpx
import pytest

import educatalog
from educatalog import Query
from educatalog.errors import UsageError
from educatalog.server.numbers import average_text, numeric_text
from educatalog.testing import serve

Records = dict[str, list[dict[str, Any]]]
TOKEN = "aggregates-token"


@pytest.fixture(scope="module")
def api(demo_url: str, demo_token: str) -> Iterator[httpx.Client]:
    headers = {"Authorization": f"Bearer {demo_token}"}
    with httpx.Client(base_url=demo_url, headers=headers, timeout=60) as client:
        yield client


def _data(response: httpx.Response) -> Any:
    assert response.status_code == 200, response.text[:300]
    return response.json()["data"]


def _refused(response: httpx.Response, status: int, *needles: str) -> None:
    assert response.status_code == status, response.text[:300]
    message = response.json()["errors"][0]["message"]
    for needle in needles:
        assert needle in message, message


def test_count_by_a_field_is_one_row_a_group_in_its_order(
    api: httpx.Client, demo_records: Records
) -> None:
    params = {"aggregate[count]": "*", "groupBy[]": "instruction_form", "limit": "-1"}
    rows = _data(api.get("/items/events", params=params))
    counts = Counter(e["instruction_form"] for e in demo_records["events"])
    assert rows == [{"instruction_form": k, "count": str(counts[k])} for k in sorted(counts)]
    by_count = _data(api.get("/items/events", params={**params, "sort": "-count", "limit": "3"}))
    assert [int(r["count"]) for r in by_count] == sorted(counts.values(), reverse=True)[:3]


def test_groups_of_booleans_sort_nulls_last_and_meta_counts_items(
    api: httpx.Client, demo_records: Records
) -> None:
    params = {"aggregate[count]": "*", "groupBy[]": "is_inhouse", "meta": "*"}
    body = api.get("/items/events", params=params).json()
    counts = Counter(e["is_inhouse"] for e in demo_records["events"])
    expected = [{"is_inhouse": k, "count": str(counts[k])} for k in (False, True, None)]
    assert body["data"] == expected
    total = len(demo_records["events"])
    assert body["meta"] == {"total_count": total, "filter_count": total}


def test_sums_averages_minima_as_the_service_writes_them(
    api: httpx.Client, demo_records: Records
) -> None:
    params = {
        "aggregate[sum]": "value",
        "aggregate[avg]": "value",
        "aggregate[min]": "value",
        "aggregate[countDistinct]": "value",
        "groupBy[]": "currency",
    }
    rows = _data(api.get("/items/event_costs", params=params))
    for row in rows:
        values = [
            Decimal(c["value"])
            for c in demo_records["event_costs"]
            if c["currency"] == row["currency"] and c["value"] is not None
        ]
        assert Decimal(row["sum"]["value"]) == sum(values)
        assert row["sum"]["value"].endswith(f"{sum(values):.2f}"[-3:])  # the field's scale
        assert row["min"]["value"] == f"{min(values):.2f}"
        assert row["countDistinct"]["value"] == str(len(set(values)))
        average = Decimal(row["avg"]["value"])
        assert abs(average - sum(values) / len(values)) < Decimal("1e-15")
        assert len(row["avg"]["value"].replace(".", "").lstrip("0")) >= 16  # PostgreSQL's


def test_an_aggregate_of_no_rows_is_one_row_of_zero_and_nulls(api: httpx.Client) -> None:
    params = {
        "aggregate[count]": "*",
        "aggregate[sum]": "max_participants",
        "aggregate[avg]": "max_participants",
        "filter": json.dumps({"id": {"_lt": 0}}),
    }
    assert _data(api.get("/items/events", params=params)) == [
        {"count": "0", "sum": {"max_participants": None}, "avg": {"max_participants": None}}
    ]


def test_filter_search_and_paging_apply_to_groups(api: httpx.Client, demo_records: Records) -> None:
    states = {a["id"]: a["state"] for a in demo_records["addresses"]}
    events = [e for e in demo_records["events"] if states.get(e["address"]) == 9]
    counts = Counter(e["course"] for e in events)
    params = {
        "aggregate[count]": "*",
        "groupBy[]": "course",
        "filter": json.dumps({"address": {"state": {"_eq": 9}}}),
        "limit": "3",
        "page": "2",
    }
    rows = _data(api.get("/items/events", params=params))
    assert rows == [{"course": k, "count": str(counts[k])} for k in sorted(counts)[3:6]]


def test_groupby_alone_gives_the_distinct_values(api: httpx.Client, demo_records: Records) -> None:
    rows = _data(api.get("/items/addresses", params={"groupBy[]": "state", "limit": "-1"}))
    states = {a["state"] for a in demo_records["addresses"]}
    assert rows == [{"state": s} for s in sorted(states - {None})] + [{"state": None}]


@pytest.mark.parametrize(
    ("params", "status", "needles"),
    [
        ({"aggregate[sum]": "remarks"}, 400, ("aggregate[sum]", '"remarks"', "string")),
        ({"aggregate[max]": "institution"}, 400, ('"institution"', "uuid")),
        ({"aggregate[countAll]": "*"}, 400, ('"countAll"',)),
        ({"aggregate[total]": "id"}, 400, ('"total"', "count")),
        ({"aggregate": "{nope"}, 400, ("aggregate",)),
        ({"aggregate[count]": "*", "groupBy[]": "address.state"}, 400, ("address.state",)),
        ({"aggregate[count]": "nope"}, 403, ('"nope"',)),
        ({"aggregate[count]": "*", "groupBy[]": "course", "sort": "id"}, 400, ('"id"',)),
        ({"export": "csv"}, 400, ('"export"', "snapshot.export")),
        ({"alias[title]": "remarks"}, 400, ('"alias"',)),
        ({"version": "draft"}, 403, ('"draft"', "versions")),
        ({"fields": "year(event_start_date)"}, 400, ("year(event_start_date)", "functions")),
        ({"groupBy[]": "year(event_start_date)"}, 400, ("functions",)),
    ],
)
def test_what_the_server_does_not_answer_it_refuses_by_name(
    api: httpx.Client, params: dict[str, str], status: int, needles: tuple[str, ...]
) -> None:
    _refused(api.get("/items/events", params=params), status, *needles)


def test_aggregates_belong_to_the_list_route(api: httpx.Client) -> None:
    response = api.get("/items/events/1", params={"aggregate[count]": "*"})
    _refused(response, 400, "/items/events", "filter[id][_eq]=1")


def test_empty_and_main_values_are_no_request(api: httpx.Client) -> None:
    for params in ({"export": ""}, {"alias": ""}, {"version": "main"}, {"versionRaw": "true"}):
        rows = _data(api.get("/items/events", params={**params, "fields": "id", "limit": "2"}))
        assert rows == [{"id": 1}, {"id": 2}]


def test_backlink_false_leaves_the_way_back_unexpanded(api: httpx.Client) -> None:
    params = {"fields": "*.*.*", "limit": "1"}
    full = _data(api.get("/items/courses", params=params))[0]
    back = _data(api.get("/items/courses", params={**params, "backlink": "false"}))[0]
    assert isinstance(full["costs"][0]["course"], dict)
    assert back["costs"][0]["course"] == back["id"]  # the relation it came through: an id
    assert isinstance(back["costs"], list)
    assert isinstance(back["events"][0]["address"], dict)  # other relations: expanded


def test_relational_depth_counts_every_field_of_a_path(api: httpx.Client) -> None:
    def chain(n: int) -> str:
        leaf: Any = {"id": {"_nnull": True}}
        for _ in range(n):
            leaf = {"parent": leaf}
        return json.dumps(leaf)

    assert api.get("/items/systematics", params={"filter": chain(9)}).status_code == 200
    _refused(api.get("/items/systematics", params={"filter": chain(10)}), 400, "depth")
    path = ".".join(["parent"] * 10)  # 10 names: the most a path may have
    assert api.get("/items/systematics", params={"fields": path}).status_code == 200
    _refused(api.get("/items/systematics", params={"fields": path + ".id"}), 400, "depth")
    _refused(api.get("/items/systematics", params={"sort": path + ".id"}), 400, "depth")


def test_the_client_asks_for_groups_in_one_page(demo_url: str, demo_token: str) -> None:
    query = Query(aggregate={"count": "*"}, group_by=("instruction_time",), fields=("id",))
    assert Query.from_params(query.to_params()) == query
    with educatalog.Client(demo_url, token=demo_token) as client:
        rows = client.list("events", query).data
        assert [r["instruction_time"] for r in rows] == [1, 2]
        assert sum(int(r["count"]) for r in rows) == client.count("events")
        with pytest.raises(UsageError, match=r"client\.list"):
            client.fetch_all("events", query)


def test_numbers_are_written_as_postgresql_writes_them() -> None:
    # what Directus 12.4 on PostgreSQL answered for the recorded test catalogue
    assert average_text(5010, 271, 0) == "18.4870848708487085"
    assert average_text(75038000, 93, 2) == "8068.6021505376344086"
    assert average_text(259, 14, 0) == "18.5000000000000000"
    assert average_text(0, 5, 0) == "0.00000000000000000000"
    assert average_text(20000, 1, 0) == "20000.000000000000"
    assert average_text(-5, 3, 0) == "-1.6666666666666667"
    assert average_text(None, 0, 2) is None
    assert numeric_text(75038000, 2) == "750380.00"
    assert numeric_text(-5, 2) == "-0.05"
    assert numeric_text(None, 2) is None


def test_groups_of_a_served_catalogue_of_ones_own(tmp_path: Any) -> None:
    rows = {
        "courses": [{"id": 1, "title": "A"}, {"id": 2, "title": "B"}],
        "event_costs": [
            {"id": 1, "course": 1, "value": "10.10", "currency": "EUR"},
            {"id": 2, "course": 1, "value": "0.05", "currency": "EUR"},
            {"id": 3, "course": 2, "value": None, "currency": "EUR"},
        ],
    }
    with serve(rows, token=TOKEN, directory=tmp_path) as server, server.client() as client:
        query = Query(aggregate={"sum": "value", "count": "value"}, group_by=("course",))
        assert client.list("event_costs", query).data == [
            {"course": 1, "sum": {"value": "10.15"}, "count": {"value": "2"}},
            {"course": 2, "sum": {"value": None}, "count": {"value": "0"}},
        ]
