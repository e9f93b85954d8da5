"""The pytest plugin ``educatalog.testing``, as a user's test suite sees it: small test files
run by pytester in this process, with the plugin loaded from its ``pytest11`` entry point."""

from __future__ import annotations

import datetime as dt
import socket
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

import educatalog
from educatalog.testing import InvalidTestData, RunningServer, check_rows, serve

pytest_plugins = ["pytester"]

# Inner runs without hypothesis's plugin: it would import hypothesis anew in every run.
QUIET = ("-p", "no:hypothesispytest", "-p", "no:cacheprovider")


@pytest.fixture(scope="module")
def demo_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One demo cache for the runs of this module (pytester points HOME elsewhere)."""
    return tmp_path_factory.mktemp("educatalog-cache")


@pytest.fixture(autouse=True)
def _isolated(demo_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EDUCATALOG_CACHE", str(demo_cache))
    monkeypatch.delenv("EDUCATALOG_URL", raising=False)
    monkeypatch.delenv("EDUCATALOG_TOKEN", raising=False)


CUSTOM_ROWS = """
COURSES = [
    {"id": 1, "title": "Excel für Einsteiger", "course_type": 1, "education_type": 104},
    {"id": 2, "title": "Schweißen nach DIN EN ISO 9606-1", "course_type": 1},
]
ADDRESSES = [
    {"id": 7, "city": "Leipzig", "zip": "04109", "state": 13},
    {"id": 8, "city": "Kiel", "zip": "24103", "state": 15},
]
EVENTS = [
    {"id": 10, "course": 1, "address": 7, "instruction_form": 101,
     "event_start_date": "2025-03-03T09:00:00", "education_voucher": True},
    {"id": 11, "course": 1, "address": 8, "instruction_form": 201,
     "event_start_date": "2025-09-01T18:00:00", "education_voucher": False},
    {"id": 12, "course": 2, "address": None, "instruction_form": 999,
     "event_start_date": None, "max_participants": 12},
]
"""
"""A user's own rows, in a module of their suite (``catalogue_rows.py``) that the conftest
and the tests import."""

CUSTOM_CONFTEST = """
import pytest

from catalogue_rows import ADDRESSES, COURSES, EVENTS

@pytest.fixture(scope="session")
def educatalog_data():
    return {"courses": COURSES, "addresses": ADDRESSES, "events": EVENTS}
"""


def test_the_plugin_is_registered_by_its_entry_point(pytestconfig: pytest.Config) -> None:
    plugin = pytestconfig.pluginmanager.get_plugin("educatalog")
    assert plugin is not None
    assert plugin.__name__ == "educatalog.testing"


def test_the_demo_catalogue_through_educatalog_client(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        from educatalog import Client, F, Query

        def test_events(educatalog_client, educatalog_server):
            assert isinstance(educatalog_client, Client)
            assert educatalog_server.demo and educatalog_client.is_demo
            rows = educatalog_client.fetch_all(
                "events", Query(fields=("id", "course", "event_start_date"))
            )
            ids = [row["id"] for row in rows]
            assert len(rows) > 300 and len(set(ids)) == len(ids) and ids == sorted(ids)
            assert all(set(row) == {"id", "course", "event_start_date"} for row in rows)
            assert educatalog_client.count("events") == len(rows)

        def test_the_same_server_for_the_session(educatalog_client, educatalog_server):
            bavarian = educatalog_client.count("events", Query(filter=F("address.state") == 2))
            assert 0 < bavarian < educatalog_client.count("events")
        """
    )
    result = pytester.runpytest(*QUIET)
    result.assert_outcomes(passed=2)


def test_scale_and_seed_from_the_command_line_and_the_ini_file(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
        def test_settings(educatalog_client, educatalog_server):
            own = educatalog_client.server_info["educatalog"]
            assert (own["scale"], own["seed"]) == (0.03, 4)
            assert educatalog_server.database.name.endswith("-seed4-scale0.03.sqlite")
        """
    )
    pytester.makeini("[pytest]\neducatalog_scale = 0.03\neducatalog_seed = 4\n")
    pytester.runpytest(*QUIET).assert_outcomes(passed=1)
    pytester.makeini("[pytest]\neducatalog_scale = 0.02\neducatalog_seed = 5\n")
    pytester.runpytest(*QUIET, "--educatalog-scale=0.03", "--educatalog-seed=4").assert_outcomes(
        passed=1
    )
    result = pytester.runpytest(*QUIET)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*assert (0.02, 5) == (0.03, 4)*"])
    result = pytester.runpytest(*QUIET, "--educatalog-scale=-1")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*the demo scale must be a positive number, got '-1'*"])


def test_custom_rows_from_an_overridden_educatalog_data(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CUSTOM_CONFTEST)
    pytester.makepyfile(catalogue_rows=CUSTOM_ROWS)
    pytester.makepyfile(
        """
        import pandas as pd
        import educatalog
        from educatalog.model.schema import SCHEMA
        from catalogue_rows import ADDRESSES, COURSES, EVENTS

        def stored(collection):
            return tuple(f.name for f in SCHEMA[collection].stored_fields)

        def fetched(client, collection):
            query = educatalog.Query(fields=stored(collection))
            return client.fetch_all(collection, query)

        def full(collection, rows):
            return [{**dict.fromkeys(stored(collection)), **row} for row in rows]

        def test_exactly_the_rows_given(educatalog_client, educatalog_server):
            assert not educatalog_server.demo and not educatalog_client.is_demo
            assert fetched(educatalog_client, "events") == full("events", EVENTS)
            assert fetched(educatalog_client, "courses") == full("courses", COURSES)
            assert fetched(educatalog_client, "addresses") == full("addresses", ADDRESSES)
            assert educatalog_client.fetch_all("contacts") == []

        def test_load_returns_them(educatalog_client):
            events = educatalog.load("events", client=educatalog_client)
            assert events["id"].tolist() == [10, 11, 12]
            assert events["course"].tolist() == [1, 1, 2]
            assert events["event_start_date"].tolist()[:2] == [
                pd.Timestamp("2025-03-03 09:00"), pd.Timestamp("2025-09-01 18:00")
            ]
            assert events["event_start_date"].isna().tolist() == [False, False, True]
            assert events["max_participants"].isna().tolist() == [True, True, False]

        def test_reference_lists_left_out_are_the_real_ones(educatalog_client):
            events = educatalog.load(
                "events",
                fields="id,course.title,address.state.name,instruction_form.name",
                client=educatalog_client,
            )
            assert events["address_state_name"].tolist()[:2] == ["Sachsen", "Schleswig-Holstein"]
            assert events["instruction_form_name"].tolist()[0] == "Präsenzveranstaltung"
            assert pd.isna(events["instruction_form_name"].tolist()[2])  # 999 dangles
            assert events["course_title"].tolist()[2] == "Schweißen nach DIN EN ISO 9606-1"
            assert educatalog_client.count("states") == 16
        """
    )
    result = pytester.runpytest(*QUIET)
    result.assert_outcomes(passed=3)


def test_educatalog_env_points_connect_and_load_at_the_server(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CUSTOM_CONFTEST)
    pytester.makepyfile(catalogue_rows=CUSTOM_ROWS)
    pytester.makepyfile(
        """
        import os
        import educatalog

        def my_analysis():
            # the user's code: no client, it reads the configured service
            events = educatalog.load("events", fields="id,course.title")
            return events.groupby("course_title")["id"].count().to_dict()

        def test_analysis(educatalog_env):
            assert os.environ["EDUCATALOG_URL"] == educatalog_env.url
            assert my_analysis() == {
                "Excel für Einsteiger": 2, "Schweißen nach DIN EN ISO 9606-1": 1
            }
            with educatalog.connect() as client:
                assert client.base_url == educatalog_env.url

        def test_only_for_that_test():
            assert "EDUCATALOG_URL" not in os.environ
        """
    )
    result = pytester.runpytest(*QUIET)
    result.assert_outcomes(passed=2)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"event": []}, "unknown collection 'event'. Did you mean \"events\"?"),
        ({"events": [{"id": 1, "titel": "x"}]}, 'events row id=1: unknown field "titel"'),
        (
            {"courses": [{"id": 1, "events": [1, 2]}]},
            'courses row id=1: "events" is a list of related rows, not stored in courses: '
            'give those rows in "events"',
        ),
        ({"events": [{"course": 1}]}, "events[0]: every row needs an integer id, got None"),
        ({"events": [{"id": 1}, {"id": 1}]}, "events[1]: id 1 appears more than once"),
        (
            {"events": [{"id": 1, "event_start_date": "3.3.2025"}]},
            'events row id=1: field "event_start_date" takes a datetime',
        ),
        (
            {"events": [{"id": 1, "course": "1"}]},
            "events row id=1: field \"course\" takes an integer, got '1'",
        ),
        ({"events": {"id": 1}}, "events: expected a list of row dicts, got dict"),
    ],
)
def test_bad_custom_data_fails_with_a_clear_error(
    pytester: pytest.Pytester, data: object, message: str
) -> None:
    pytester.makeconftest(
        f"""
        import pytest

        @pytest.fixture(scope="session")
        def educatalog_data():
            return {data!r}
        """
    )
    pytester.makepyfile("def test_it(educatalog_client):\n    pass\n")
    result = pytester.runpytest(*QUIET)
    result.assert_outcomes(errors=1)
    output = result.stdout.str()
    assert "educatalog: bad educatalog_data: " + message in output
    assert "Traceback" not in output  # the message, not the plugin's insides


def test_a_function_scoped_override_is_explained(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        """
        import pytest

        @pytest.fixture
        def educatalog_data():
            return {"events": [{"id": 1}]}
        """
    )
    pytester.makepyfile("def test_it(educatalog_client):\n    pass\n")
    result = pytester.runpytest(*QUIET)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(['*"educatalog_data" must have session scope*'])


def test_an_override_for_part_of_the_suite_is_refused(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_a="def test_demo(educatalog_client):\n    assert educatalog_client.is_demo\n",
        test_b="""
        import pytest

        @pytest.fixture(scope="session")
        def educatalog_data():
            return {"events": [{"id": 1}]}

        def test_custom(educatalog_client):
            pass
        """,
    )
    result = pytester.runpytest(*QUIET, "test_a.py", "test_b.py")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*sees a different educatalog_data than the one the session*"])


def test_our_own_fixtures_do_not_clash_with_the_plugin(pytestconfig: pytest.Config) -> None:
    plugin = pytestconfig.pluginmanager.get_plugin("educatalog")
    ours = {name for name in dir(plugin) if name.startswith("educatalog_")}
    assert ours == {
        "educatalog_client",
        "educatalog_data",
        "educatalog_env",
        "educatalog_server",
    }
    conftest = (Path(__file__).resolve().parents[1] / "conftest.py").read_text()
    assert not any(f"def {name}(" in conftest for name in ours)


# ---------------------------------------------------------------------------------------
# The helpers, outside pytest's fixtures


def _listening(url: str) -> bool:
    parts = urlsplit(url)
    with socket.socket() as sock:
        return sock.connect_ex((parts.hostname or "", parts.port or 0)) == 0


def test_serve_custom_rows_and_clean_up() -> None:
    rows = {"courses": [{"id": 5, "title": "Python", "certifier": 24}]}
    with serve(rows, token="secret") as server:
        assert isinstance(server, RunningServer)
        assert server.token == "secret"
        assert server.database.is_file()
        with server.client() as client:
            frame = educatalog.load("courses", fields="id,title,certifier.name", client=client)
        assert frame.to_dict("records") == [
            {"id": 5, "title": "Python", "certifier_name": "Cert-IT GmbH"}
        ]
        answer = httpx.get(server.url + "/items/courses", headers={"Authorization": "Bearer x"})
        assert answer.status_code == 401
        url, database = server.url, server.database
    assert not _listening(url)
    assert not database.exists()  # the temporary directory is gone


def test_serve_the_demo_and_normalized_values(tmp_path: Path) -> None:
    with serve(scale=0.02, seed=1) as server, server.client() as client:
        assert server.demo
        assert client.is_demo
        assert client.server_info["educatalog"]["scale"] == 0.02
    rows = {
        "events": [{"id": 1, "event_start_date": dt.date(2025, 1, 2)}],
        "event_costs": [{"id": 1, "value": Decimal("12.5")}, {"id": 2, "value": 3}],
    }
    assert check_rows(rows) == {
        "events": [{"id": 1, "event_start_date": "2025-01-02T00:00:00"}],
        "event_costs": [{"id": 1, "value": "12.5"}, {"id": 2, "value": "3"}],
    }
    with serve(rows, directory=tmp_path) as server, server.client() as client:
        assert client.fetch_all("event_costs", educatalog.Query(fields=("id", "value"))) == [
            {"id": 1, "value": "12.50"},
            {"id": 2, "value": "3.00"},
        ]
    assert (tmp_path / "educatalog-test.sqlite").is_file()
    with pytest.raises(InvalidTestData, match="unknown collection 'kurse'"):
        check_rows({"kurse": []})


def test_serve_a_database_built_before_on_a_fixed_clock(tmp_path: Path) -> None:
    from educatalog.testing import build_test_database

    rows = {"events": [{"id": 1, "event_start_date": "2025-03-01T00:00:00"}, {"id": 2}]}
    database = build_test_database(tmp_path / "built.sqlite", rows)
    clock = dt.datetime(2025, 3, 15, 12, 0)
    with serve(database=database, token="t", clock=lambda: clock) as server:
        assert server.database == database
        assert not server.demo
        answer = httpx.get(
            server.url + "/items/events",
            params={"filter[event_start_date][_lt]": "$NOW", "fields": "id"},
            headers={"Authorization": "Bearer t"},
        )
        assert answer.json() == {"data": [{"id": 1}]}  # 2025-03-01 is before the fixed clock
    assert database.is_file()  # a database given is never removed
    with (
        pytest.raises(educatalog.UsageError, match="rows or a database"),
        serve(rows, database=database),
    ):
        pass


def test_the_helpers_need_no_pytest() -> None:
    script = """
import sys
sys.modules["pytest"] = None  # as if pytest were not installed
from educatalog.testing import serve
with serve({"states": [{"id": 1, "name": "Berlin"}]}) as server, server.client() as client:
    print(client.fetch_all("states"))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[{'id': 1, 'name': 'Berlin', 'code': None}]"
