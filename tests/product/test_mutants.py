"""The list of ``make mutants`` (``scripts/mutants.py``) stays true as the code moves: every
mutant's snippet occurs exactly once in its module, the mutated module is still Python (a
mutant is a bug, not a syntax error), and the tests it names exist. Reads files only; the
mutants themselves run in ``make mutants``, not here."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def mutants() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutants", ROOT / "scripts" / "mutants.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutants"] = module  # dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules["mutants"]
    return module


def test_every_snippet_occurs_once_in_the_current_sources(mutants: ModuleType) -> None:
    assert mutants.check(mutants.MUTANTS) == []


def test_every_mutant_is_still_python(mutants: ModuleType) -> None:
    sources = {m.module: m.path.read_text(encoding="utf-8") for m in mutants.MUTANTS}
    for mutant in mutants.MUTANTS:
        mutated = sources[mutant.module].replace(mutant.original, mutant.mutated)
        compile(mutated, mutant.module, "exec")  # SyntaxError if the mutant is no Python


def test_every_test_a_mutant_names_exists(mutants: ModuleType) -> None:
    texts: dict[str, str] = {}
    for mutant in mutants.MUTANTS:
        for test in mutant.tests:
            path, _, name = test.partition("::")
            assert (ROOT / path).is_file(), (mutant.name, path)
            text = texts.setdefault(path, (ROOT / path).read_text(encoding="utf-8"))
            if name:
                assert re.search(rf"^def {re.escape(name)}\(", text, re.M), (mutant.name, test)


def test_each_group_has_its_mutants_and_a_stale_snippet_is_said(mutants: ModuleType) -> None:
    counts = {g: sum(m.group == g for m in mutants.MUTANTS) for g in mutants.GROUPS}
    assert list(counts) == ["display", "explorer", "report", "workbook", "dashboard"]
    assert min(counts.values()) >= 8
    assert 40 <= len(mutants.MUTANTS) <= 60
    first = mutants.MUTANTS[0]
    gone = dataclasses.replace(first, original="a snippet that is in no module")
    twice = dataclasses.replace(first, name="twice", original="\n")
    assert mutants.check([gone, twice]) == [
        f"{first.name}: its snippet occurs 0 times in {first.module}, not once",
        f"twice: its snippet occurs {first.path.read_text().count(chr(10))} times in "
        f"{first.module}, not once",
    ]
