"""The search index narrows ``search`` to the rows that may match, and never changes an
answer: every search is answered the same with it and without it (the same database, its
index tables dropped), whichever rows and case the text has, and a collection whose text
holds a character SQLite folds unlike Python is not narrowed at all."""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from educatalog.model.schema import SCHEMA
from educatalog.query import Query, bind
from educatalog.server import items, search_index, sql
from educatalog.server.app import create_app
from educatalog.server.context import Context
from educatalog.server.run import ServerThread
from educatalog.server.store import Database, build_database
from educatalog.testing import build_test_database

TOKEN = "search-index-token"


def _trigram_tables() -> bool:
    with sqlite3.connect(":memory:") as conn:
        try:
            conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='trigram')")
        except sqlite3.OperationalError:
            return False
    return True


pytestmark = pytest.mark.skipif(
    not _trigram_tables(),
    reason=f"SQLite {sqlite3.sqlite_version} has no FTS5 trigram tokenizer (3.34 and newer)",
)


@pytest.fixture(scope="module")
def pair(
    demo_database: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Database, Database]]:
    """The demo database with its search index, and a copy without it."""
    bare = tmp_path_factory.mktemp("search-index") / "bare.sqlite"
    shutil.copy(demo_database, bare)
    conn = sqlite3.connect(bare)
    for coll in SCHEMA.values():
        conn.execute(f"DROP TABLE IF EXISTS {sql.quote(sql.search_table(coll))}")
    conn.commit()
    conn.close()
    indexed, plain = Database(demo_database), Database(bare)
    assert {"events", "courses", "contacts", "addresses"} <= indexed.search_indexes
    assert plain.search_indexes == frozenset()
    yield indexed, plain
    indexed.close()
    plain.close()


def _answer(db: Database, collection: str, **query: object) -> tuple[list[object], dict[str, int]]:
    bound = bind(Query(**query), collection)  # type: ignore[arg-type]
    with Context.lease(db) as ctx:
        return items.read_items(ctx, bound)


def _texts(db: Database, collection: str) -> list[str]:
    coll = SCHEMA[collection]
    columns = ", ".join(sql.quote(f.name) for f in sql.searched_text_fields(coll))
    rows = db.connection().execute(f"SELECT {columns} FROM {sql.quote(collection)}")
    return [value for row in rows for value in row if isinstance(value, str)]


def _needles(texts: list[str], seed: int, n: int) -> list[str]:
    """Pieces of the collection's own text (so that most match), in changed case."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        text = rng.choice(texts)
        start = rng.randrange(len(text))
        piece = text[start : start + rng.randint(1, 14)]
        out.append("".join(c.upper() if rng.random() < 0.3 else c for c in piece))
    return out


EDGES = [
    "kurs", "KURS", "Straße", "STRASSE", "öl", "Ölkurs", "zzqxj", "ab", "e", "  ", " a ",
    '"', 'ku"rs', "%", "50%", "_", "a_b", "\\", "x'y", "https://", "www.", ".example/",
    "ä" * 3, "Ä", "ß", "ẞ", "İst", "\u212aurs", "1", "2024", "-3", "1.5",
]  # fmt: skip


@pytest.mark.parametrize("collection", ["events", "courses", "contacts", "addresses"])
def test_every_search_is_answered_as_without_the_index(
    pair: tuple[Database, Database], collection: str
) -> None:
    indexed, plain = pair
    texts = _texts(plain, collection)
    for needle in EDGES + _needles(texts, seed=len(collection), n=60):
        for query in (
            {"search": needle, "limit": -1, "fields": ("id",), "meta": ("filter_count",)},
            {"search": needle, "limit": 3, "fields": ("id",)},
            {"search": needle, "limit": 3, "offset": 2, "sort": ("-id",), "fields": ("id",)},
        ):
            assert _answer(indexed, collection, **query) == _answer(plain, collection, **query), (
                needle,
                query,
            )


@settings(max_examples=150, deadline=None)
@given(
    needle=st.text(
        st.characters(codec="utf-8", blacklist_characters="\x00"), min_size=1, max_size=12
    )
)
def test_any_text_is_searched_as_without_the_index(
    pair: tuple[Database, Database], needle: str
) -> None:
    indexed, plain = pair
    query = {"search": needle, "limit": -1, "fields": ("id",), "meta": ("filter_count",)}
    assert _answer(indexed, "events", **query) == _answer(plain, "events", **query)


def _count_text(db: Database, collection: str, needle: str) -> str:
    bound = bind(Query(search=needle, meta=("filter_count",)), collection)
    with Context.lease(db) as ctx:
        text, _ = sql.count_sql(bound, db.catalogue, db.layout, prefilter=ctx.prefilter)
    return text


def _page_text(db: Database, collection: str, needle: str) -> str:
    bound = bind(Query(search=needle, limit=100), collection)
    with Context.lease(db) as ctx:
        text, _ = sql.page_sql(bound, ["id"], db.catalogue, db.layout, prefilter=ctx.prefilter)
    return text


def test_the_index_is_asked_when_it_narrows_the_search(
    pair: tuple[Database, Database], monkeypatch: pytest.MonkeyPatch
) -> None:
    indexed, plain = pair
    table = sql.search_table(SCHEMA["events"])
    # a word no event holds: every statement reads the index's rows (none)
    assert table in _count_text(indexed, "events", "zzqxj")
    assert table in _page_text(indexed, "events", "zzqxj")
    # without the index, or without three ASCII characters in a row, it reads every row
    assert table not in _count_text(plain, "events", "zzqxj")
    assert table not in _count_text(indexed, "events", "öl")
    # a word that more rows hold than a page needs: a page scans in id order (it stops
    # after one page), a count reads the index's rows while they are a quarter of all
    common = "https"
    total = indexed.total_count("events")
    named = _answer(indexed, "events", search=common, limit=0, meta=("filter_count",))[1]
    assert named["filter_count"] > 10
    monkeypatch.setattr(search_index, "PAGE_CANDIDATES", 10)
    assert table not in _page_text(indexed, "events", common)
    assert (table in _count_text(indexed, "events", common)) is (
        named["filter_count"] <= total // search_index.ALL_CANDIDATES_SHARE
    )


def test_text_that_sqlite_folds_unlike_python_is_searched_row_by_row(tmp_path: Path) -> None:
    """SQLite's case folding is Python's for ASCII letters, but not for "İ" (Python: "i"
    and a combining dot) nor for letters newer than SQLite's tables (Georgian Mtavruli):
    a column holding "İ" is not narrowed, and only ASCII trigrams are asked elsewhere."""
    rows = {
        "events": [
            {"id": 1, "remarks": "TAXİ zum Kurs"},
            {"id": 2, "remarks": "taxi"},
            {"id": 3, "remarks": "Bonn"},
        ],
        "courses": [
            {"id": 1, "title": "ᲗᲑᲘᲚᲘᲡᲘ Kurs"},  # Mtavruli; Python lower-cases it
            {"id": 2, "title": "Kurs"},
        ],
    }
    path = build_test_database(tmp_path / "folding.sqlite", rows)
    db = Database(path)
    try:
        assert {"events", "courses"} <= db.search_indexes
        assert sql.search_table(SCHEMA["events"]) not in _count_text(db, "events", "taxi")
        assert [r["id"] for r in _answer(db, "events", search="TAXI", fields=("id",))[0]] == [
            1,
            2,
        ]
        table = sql.search_table(SCHEMA["courses"])
        assert table in _count_text(db, "courses", "kurs")  # narrowed: ASCII, no "İ"
        assert table not in _count_text(db, "courses", "თბილისი")  # no ASCII trigram
        assert [r["id"] for r in _answer(db, "courses", search="თბილისი", fields=("id",))[0]] == [1]
    finally:
        db.close()


def test_a_database_without_the_index_is_served_and_searched(tmp_path: Path) -> None:
    """A database built where SQLite has no trigram tokenizer (or before the index) is
    searched by reading every row."""
    rows = {"courses": [{"id": 1, "title": "Excel für Einsteiger"}, {"id": 2, "title": "Word"}]}
    path = build_database(tmp_path / "old.sqlite", rows.items())
    conn = sqlite3.connect(path)
    conn.execute(f"DROP TABLE {sql.quote(sql.search_table(SCHEMA['courses']))}")
    conn.commit()
    conn.close()
    app = create_app(path, tokens=[TOKEN])
    with (
        ServerThread(app) as server,
        httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {TOKEN}"}) as c,
    ):
        answer = c.get("/items/courses", params={"search": "EXCEL", "fields": "id"})
    app.state.database.close()
    assert answer.json() == {"data": [{"id": 1}]}


def test_a_page_of_a_search_walks_first_and_reads_the_index_when_the_word_is_rare(
    pair: tuple[Database, Database], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page in id order walks the table within a budget (a common word is found there,
    the index unasked); when the budget runs out, the index names the rows."""
    indexed, _ = pair
    built: list[str] = []
    page_sql = sql.page_sql

    def spy(*args: object, **kwargs: object) -> tuple[str, list[object]]:
        text, params = page_sql(*args, **kwargs)  # type: ignore[arg-type]
        built.append(text)
        return text, params

    monkeypatch.setattr(sql, "page_sql", spy)
    table = sql.search_table(SCHEMA["events"])
    rows, _ = _answer(indexed, "events", search="https", limit=3, fields=("id",))
    assert len(rows) == 3
    assert [table in text for text in built] == [False]  # found by the walk
    built.clear()
    monkeypatch.setattr(items, "SEARCH_SCAN_BUDGET", 10)  # every walk runs out at once
    assert _answer(indexed, "events", search="https", limit=3, fields=("id",))[0] == rows
    assert [table in text for text in built] == [False, True]
