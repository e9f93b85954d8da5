"""The notebooks have one source in two languages (``notebooks/``), and the two cannot drift
apart: the German and the English copy of each notebook have the same cells, run the same
code (comments and the ``lang`` setting aside), and their prose has the same headings, code
spans and links. A copy speaks one language; `educatalog notebooks --lang` writes it."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path
from typing import Any

import nbformat
import pytest

from educatalog.cli import main
from educatalog.files.workspace import NOTEBOOKS, cell_lang, localize, notebook

NAMES = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))


def source(name: str) -> Any:
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)


def code_only(text: str) -> str:
    """The code without comments, blank lines and the value of ``lang = "..."``."""
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(text).readline)
        if t.type not in (tokenize.COMMENT, tokenize.NL)
    ]
    code = tokenize.untokenize((t.type, t.string) for t in tokens)
    return re.sub(r"lang\s*=\s*['\"](de|en)['\"]", 'lang = "<lang>"', code)


def shape(markdown: str) -> dict[str, list[str]]:
    """What both languages of a text must share: heading levels, code spans, link targets,
    emphasis count and paragraph count."""
    return {
        "headings": re.findall(r"^(#+) ", markdown, re.M),
        "code": re.findall(r"`([^`]+)`", markdown),
        "links": re.findall(r"\]\(([^)]+)\)", markdown),
        "bold": [str(len(re.findall(r"\*\*[^*]+\*\*", markdown)))],
        "paragraphs": [str(len([p for p in markdown.split("\n\n") if p.strip()]))],
    }


@pytest.mark.parametrize("name", NAMES)
def test_each_language_has_its_counterpart_next_to_it(name: str) -> None:
    cells = source(name).cells
    k = 0
    while k < len(cells):
        lang = cell_lang(cells[k])
        if lang is None:
            k += 1
            continue
        assert lang == "de", f"{name}: cell {k} is {lang} without a German cell before it"
        pair = cells[k + 1] if k + 1 < len(cells) else None
        assert pair is not None, f"{name}: cell {k} has no English counterpart"
        assert cell_lang(pair) == "en", f"{name}: cell {k + 1} should be its English version"
        assert pair.cell_type == cells[k].cell_type, f"{name}: cells {k}, {k + 1}"
        other = [t for t in cells[k].metadata.get("tags", []) if not t.startswith("lang:")]
        assert [t for t in pair.metadata.get("tags", []) if not t.startswith("lang:")] == other
        k += 2


@pytest.mark.parametrize("name", NAMES)
def test_both_languages_run_the_same_code_and_say_the_same(name: str) -> None:
    german, english = notebook(name, "de"), notebook(name, "en")
    assert [c.cell_type for c in german.cells] == [c.cell_type for c in english.cells]
    for k, (de, en) in enumerate(zip(german.cells, english.cells, strict=True)):
        if de.cell_type == "code":
            assert code_only(de.source) == code_only(en.source), f"{name}: code cell {k}"
            assert re.findall(r"lang\s*=\s*\"(\w+)\"", de.source) in ([], ["de"])
            assert re.findall(r"lang\s*=\s*\"(\w+)\"", en.source) in ([], ["en"])
        else:
            assert shape(de.source) == shape(en.source), f"{name}: markdown cell {k}"


@pytest.mark.parametrize("name", NAMES)
def test_a_copy_speaks_one_language(name: str) -> None:
    for lang in ("de", "en"):
        copy = notebook(name, lang)
        assert copy.metadata["educatalog"] == {"lang": lang}
        assert all(cell_lang(c) is None for c in copy.cells)
        assert len({c["id"] for c in copy.cells}) == len(copy.cells)
        nbformat.validate(copy)
        settings = [c.source for c in copy.cells if re.search(r"^lang = ", c.source, re.M)]
        assert all(f'lang = "{lang}"' in s for s in settings), name
    german = notebook(name, "de")
    assert 'lang = "de"' in "".join(c.source for c in german.cells) or name == "05-explorer"


def test_the_prose_of_the_german_notebooks_is_german() -> None:
    english_words = re.compile(r"\b(the|and|with|which|events?|courses?|without)\b")
    for name in NAMES:
        for cell in notebook(name, "de").cells:
            if cell.cell_type == "markdown":
                prose = re.sub(r"`[^`]*`", "", cell.source)
                assert not english_words.findall(prose), (name, english_words.findall(prose))


def test_one_label_for_a_missing_value() -> None:
    for name in NAMES:
        text = "".join(c.source for c in notebook(name, "de").cells if c.cell_type == "markdown")
        assert "Keine Angabe" not in text, name
        text = "".join(c.source for c in notebook(name, "en").cells if c.cell_type == "markdown")
        assert "Keine Angabe" not in text, name
        assert '("unknown")' not in text, name  # the label is "not stated"


def test_no_link_points_outside_the_copied_folder() -> None:
    for name in NAMES:
        for lang in ("de", "en"):
            for cell in notebook(name, lang).cells:
                for target in re.findall(r"\]\(([^)]+)\)", cell.source):
                    assert target.startswith(("http://", "https://", "#")), (name, target)


def test_notebooks_command_writes_the_language_asked_for(tmp_path: Path) -> None:
    assert main(["notebooks", "--out", str(tmp_path / "de")]) == 0
    assert main(["notebooks", "--out", str(tmp_path / "en"), "--lang", "en"]) == 0
    for lang in ("de", "en"):
        copies = sorted((tmp_path / lang).glob("*.ipynb"))
        assert [p.stem for p in copies] == NAMES
        for path in copies:
            copied = nbformat.read(path, as_version=4)
            assert copied.metadata["educatalog"]["lang"] == lang
            assert copied.cells == localize(source(path.stem), lang).cells
    # An unedited German copy becomes English when asked for.
    assert main(["notebooks", "--out", str(tmp_path / "de"), "--lang", "en"]) == 0
    first = nbformat.read(tmp_path / "de" / f"{NAMES[0]}.ipynb", as_version=4)
    assert first.metadata["educatalog"]["lang"] == "en"


def test_notebooks_command_refuses_an_unknown_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["notebooks", "--out", str(tmp_path), "--lang", "fr"])
    assert "invalid choice: 'fr'" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_code_both_languages_share_says_nothing_in_either() -> None:
    """A shared code cell is read by readers of both languages: no comment or docstring in
    one of them (a cell that needs words comes twice, tagged by language), the report
    notebook's too."""
    for name in NAMES:
        for cell in source(name).cells:
            if cell.cell_type != "code" or cell_lang(cell) is not None:
                continue
            tokens = list(tokenize.generate_tokens(io.StringIO(cell.source).readline))
            comments = [t.string for t in tokens if t.type == tokenize.COMMENT]
            assert all(c.startswith("# noqa") for c in comments), (name, comments)
            assert '"""' not in cell.source, name
            assert "'''" not in cell.source, name


def test_the_prose_names_things_as_the_tables_do() -> None:
    from educatalog import texts

    forms = notebook("03-instruction-forms-and-durations", "en").cells[0].source.lower()
    for category in ("Präsenz", "Digital", "Kombiniert", "Fernunterricht"):
        assert texts.label(category, "en").lower() in forms, category
    for name in NAMES:
        prose = " ".join(c.source for c in notebook(name, "en").cells if c.cell_type == "markdown")
        # The tables say "Institutions"; "providers" only to explain the word.
        assert len(re.findall(r"\bprovider", prose)) == prose.count("institutions (providers)")
    trends = {lang: notebook("07-trends", lang) for lang in ("de", "en")}
    german = " ".join(c.source for c in trends["de"].cells)
    assert "am jeweiligen Stichtag gelistet" in german
    assert "an jedem Stichtag gelistet" not in german
    assert "„keine Förderart“" in german  # as the funding table labels it
    english = " ".join(c.source for c in trends["en"].cells)
    assert "listed on the snapshot date in question" in english
    assert '"no funding type"' in english


def comments(code: str) -> list[str]:
    """The comments of ``code``."""
    tokens = tokenize.generate_tokens(io.StringIO(code).readline)
    return [t.string for t in tokens if t.type == tokenize.COMMENT]


def test_the_code_of_a_german_copy_comments_in_german() -> None:
    """What a German reader reads in the code is German: the comments of every German
    copy, the report notebook's (06-report) too."""
    english = re.compile(r"\b(the|and|of|with|every|which|what|when|its)\b")
    german = re.compile(r"\b(der|die|das|und|oder|mit|ein|eine|je|nach|wie)\b")
    said: dict[str, list[str]] = {}
    for name in NAMES:
        cells = [cell for cell in notebook(name, "de").cells if cell.cell_type == "code"]
        said[name] = [c for cell in cells for c in comments(cell.source)]
        for comment in said[name]:
            assert not english.findall(comment), (name, comment)
    report = " ".join(said["06-report"])
    assert len(german.findall(report)) > 20, report


def test_a_german_notebook_says_in_german_that_it_reads_the_demo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a service configured, the first code cell of a German notebook starts the
    demo catalogue's server, and the notice it writes under the cell is German."""
    pytest.importorskip("nbclient", reason="runs a notebook's cell in a kernel")
    from educatalog.report import execute_notebook

    monkeypatch.delenv("EDUCATALOG_URL", raising=False)
    monkeypatch.delenv("EDUCATALOG_TOKEN", raising=False)
    monkeypatch.delenv("EDUCATALOG_LANG", raising=False)
    copy = notebook("01-quickstart", "de")
    first = next(i for i, cell in enumerate(copy.cells) if cell.cell_type == "code")
    copy.cells = copy.cells[: first + 1]
    path = tmp_path / "first-cell.ipynb"
    nbformat.write(copy, path)
    ran = execute_notebook(path, cwd=tmp_path, timeout=240)
    said = "".join(o.get("text", "") for o in ran.cells[first].outputs if o.get("name") == "stderr")
    assert said.startswith(
        "educatalog: Der eingebaute Referenzserver liefert den SYNTHETISCHEN Demokatalog"
    ), said
    assert "serving" not in said
