"""The demo's subjects (KURSNET systematics) and degrees: most courses one subject leaf, some
two or three of related other areas, a few none; IT, business, health and languages among
the top areas; drawn from a stream of their own, so that no other collection depends on them.

Every expectation is counted here in plain Python from the generated rows."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import pytest

from educatalog import demodata
from educatalog.demodata import courses as demo_courses
from educatalog.demodata import reference_data as ref

Rows = dict[str, list[dict[str, Any]]]


@pytest.fixture(scope="module", params=[0, 1], ids=["seed0", "seed1"])
def demo(request: pytest.FixtureRequest) -> Rows:
    return demodata.collect(seed=request.param, scale=1.0)


def _tree(rows: Rows) -> tuple[dict[int, int | None], set[int]]:
    """Each systematics node's parent, and the leaves (nodes no other node names as parent)."""
    parent = {s["id"]: s["parent"] for s in rows["systematics"]}
    return parent, set(parent) - {p for p in parent.values() if p is not None}


def _area(node: int, parent: dict[int, int | None]) -> int:
    """The node's second level: its area (the node itself for an area)."""
    chain = [node]
    while parent[chain[-1]] is not None:
        chain.append(parent[chain[-1]])  # type: ignore[arg-type]
    return chain[-2]


def _leaves_by_course(rows: Rows) -> dict[int, list[int]]:
    """The subject leaves each course links to (an empty list: none), in link order."""
    _, leaves = _tree(rows)
    out: dict[int, list[int]] = {c["id"]: [] for c in rows["courses"]}
    for link in rows["courses_systematics"]:
        if link["systematics_id"] in leaves:
            out[link["courses_id"]].append(link["systematics_id"])
    return out


def _events_by_area(rows: Rows) -> tuple[Counter[int | None], int]:
    """Distinct events per subject area (None: without subject), and all events."""
    parent, _ = _tree(rows)
    areas = {
        course: {_area(leaf, parent) for leaf in leaves} or {None}
        for course, leaves in _leaves_by_course(rows).items()
    }
    counts: Counter[int | None] = Counter()
    for event in rows["events"]:
        counts.update(areas[event["course"]])
    return counts, len(rows["events"])


def _code(rows: Rows, node: int | None) -> str | None:
    return None if node is None else next(s["code"] for s in rows["systematics"] if s["id"] == node)


# ---------------------------------------------------------------------------------------
# How many subjects a course has


def test_most_courses_have_one_subject_some_two_or_three_a_few_none(demo: Rows) -> None:
    n = Counter(len(leaves) for leaves in _leaves_by_course(demo).values())
    total = sum(n.values())
    share = {k: n[k] / total for k in range(4)}
    assert set(n) <= {0, 1, 2, 3}, n
    assert 0.015 <= share[0] <= 0.05, share
    assert 0.65 <= share[1] <= 0.85, share
    assert 0.12 <= share[2] <= 0.28, share
    assert 0.01 <= share[3] <= 0.05, share


def test_a_courses_leaves_lie_in_different_areas(demo: Rows) -> None:
    """A second or third leaf comes from a related *other* area, never twice the same."""
    parent, _ = _tree(demo)
    for course, leaves in _leaves_by_course(demo).items():
        areas = [_area(leaf, parent) for leaf in leaves]
        assert len(set(areas)) == len(areas), (course, [_code(demo, x) for x in leaves])


def test_an_area_link_comes_with_a_leaf_of_that_area(demo: Rows) -> None:
    """Some courses link their first leaf's area too (about 3 in 10): never an area alone."""
    parent, leaves = _tree(demo)
    by_course = _leaves_by_course(demo)
    area_links = [s for s in demo["courses_systematics"] if s["systematics_id"] not in leaves]
    assert 0.2 <= len(area_links) / len(demo["courses"]) <= 0.4
    for link in area_links:
        own = {_area(leaf, parent) for leaf in by_course[link["courses_id"]]}
        assert link["systematics_id"] in own, link


def test_multiple_areas_occur_across_groups(demo: Rows) -> None:
    """Courses in two areas are common; some pairs cross the top groups (coaching and
    orientation, a Meister course with its trade)."""
    parent, _ = _tree(demo)
    pairs: Counter[tuple[str | None, ...]] = Counter()
    for leaves in _leaves_by_course(demo).values():
        if len(leaves) > 1:
            pairs[tuple(sorted(_code(demo, _area(x, parent)) for x in leaves[:2]))] += 1
    assert sum(pairs.values()) >= 0.12 * len(demo["courses"])
    assert len(pairs) >= 15, pairs
    groups = [{code.split()[0] for code in pair if code} for pair in pairs]
    assert any(len(g) > 1 for g in groups), pairs


def test_a_nationwide_flagship_always_has_a_subject(demo: Rows) -> None:
    """The courses with the most events (a flagship has one per branch) are never without."""
    events = Counter(e["course"] for e in demo["events"])
    by_course = _leaves_by_course(demo)
    big = [course for course, n in events.items() if n >= 100]
    assert big
    assert all(by_course[course] for course in big)


# ---------------------------------------------------------------------------------------
# Which areas lead


def test_the_top_areas_include_it_business_health_and_languages(demo: Rows) -> None:
    counts, _ = _events_by_area(demo)
    top = {_code(demo, area) for area, _ in counts.most_common(7)}
    assert {"C 14", "C 28", "C 23"} <= top, counts.most_common(8)
    assert top & {"C 11", "C 12"}, counts.most_common(8)


def test_logistics_and_the_trades_have_a_share(demo: Rows) -> None:
    counts, total = _events_by_area(demo)
    share = {_code(demo, area): n / total for area, n in counts.items()}
    assert share["C 21"] >= 0.02, share  # Lager, Logistik, Verkehr
    assert share["C 17"] >= 0.04, share  # Metall, Maschinenbau, Elektrotechnik
    assert 0.01 <= share[None] <= 0.06, share  # events of courses without subject


# ---------------------------------------------------------------------------------------
# Degrees


def test_degrees_in_plausible_shares(demo: Rows) -> None:
    """Every degree type 0-3 for a share of the courses, provider certificates the most
    common, and some courses without any degree."""
    types: defaultdict[int, set[int]] = defaultdict(set)
    for degree in demo["course_degrees"]:
        types[degree["course"]].add(degree["degree_type"])
    total = len(demo["courses"])
    share = {t: sum(t in s for s in types.values()) / total for t in range(4)}
    assert all(0.05 <= v <= 0.6 for v in share.values()), share
    assert max(share, key=lambda t: share[t]) == 3, share
    assert 0.05 <= 1 - len(types) / total <= 0.35


# ---------------------------------------------------------------------------------------
# Determinism, and a stream of their own


def test_same_seed_same_subjects() -> None:
    one = demodata.collect(seed=4, scale=0.1)
    two = demodata.collect(seed=4, scale=0.1)
    assert one["courses_systematics"] == two["courses_systematics"]
    assert demodata.collect(seed=5, scale=0.1)["courses_systematics"] != one["courses_systematics"]


def test_the_subjects_change_no_other_collection(monkeypatch: pytest.MonkeyPatch) -> None:
    """Other shares of subjects give other ``courses_systematics`` and every other collection
    unchanged: the subjects are drawn from a stream of their own."""
    before = demodata.collect(seed=2, scale=0.1)
    monkeypatch.setattr(demo_courses, "SUBJECTS_NONE", 0.5)
    monkeypatch.setattr(demo_courses, "SUBJECTS_SECOND", 1.0)
    after = demodata.collect(seed=2, scale=0.1)
    assert after["courses_systematics"] != before["courses_systematics"]
    for name in before:
        if name != "courses_systematics":
            assert after[name] == before[name], name


def test_the_templates_related_leaves_are_leaves_of_other_areas() -> None:
    parent = {code: p for code, _, p in ref.SYSTEMATICS}
    leaves = set(parent) - set(parent.values())
    templates = ref.COURSE_TEMPLATES + ref.STUDY_TEMPLATES
    assert sum(bool(t.also) for t in templates) >= len(templates) / 3
    for t in templates:
        assert set(t.also) <= leaves, t.title
        areas = [parent[code] for code in (t.systematic, *t.also)]
        assert len(set(areas)) == len(areas), t.title
