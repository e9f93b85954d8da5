"""Every code block of the README and of the documentation's pages (``docs/**/*.md``) runs
as printed, against the synthetic demo catalogue, as a reader runs it: a page's blocks in
order, in one empty folder per page (what one block writes, the next may read).

`python` blocks run as scripts, each in a fresh interpreter. A block whose first line is
`# conftest.py` or `# test_<name>.py` is that file: a conftest block starts a pytest project,
test files join the last one started (or one of their own), and pytest runs each project in
a folder of its own inside the page's. `console` blocks run command by command (`$ ` starts
one, a trailing `\\` continues it) in bash; the lines a block prints under a command must
appear in its output. `educatalog serve` keeps running in the background until the block
ends, on a free port wherever a page says 8055. A block marked
`<!-- readme-test: skip REASON -->` on the line before it is skipped, visibly, with REASON.
The README holds `python` and `console` blocks only; the pages' other blocks (``text``,
directives such as ``{toctree}``) are not run.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from processes import free_port

pytestmark = pytest.mark.slow  # whole reports or README runs: not in make test-floors

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
# The pages of the site (docs/, `make docs`); the API reference and the gallery are generated.
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(\S*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
MARK = re.compile(r"<!-- readme-test: skip (?P<reason>.+?) -->\s*$")
FILE = re.compile(r"# ((?:conftest|test_\w+)\.py)\n")
BIN = Path(sys.executable).parent


@dataclass
class Block:
    page: str
    line: int
    language: str
    code: str
    skip: str | None = None

    @property
    def file(self) -> str | None:
        match = FILE.match(self.code)
        return match[1] if match and self.language == "python" else None


@dataclass
class Example:
    """What one test runs: a block, or the blocks of one pytest project."""

    blocks: list[Block] = field(default_factory=list)

    @property
    def id(self) -> str:
        kind = "pytest" if self.blocks[0].file else self.blocks[0].language
        return f"{self.blocks[0].page}-line-{self.blocks[0].line}-{kind}"

    @property
    def where(self) -> str:
        return f"{self.blocks[0].page} line {self.blocks[0].line}"


def read_blocks(text: str, page: str = "README.md") -> list[Block]:
    blocks = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        mark = MARK.search(before)
        blocks.append(Block(page, line, match[1], match[2], mark["reason"] if mark else None))
    return blocks


def examples(blocks: list[Block]) -> list[Example]:
    found: list[Example] = []
    project: Example | None = None
    for block in blocks:
        if block.language not in ("python", "console"):
            continue
        if block.file == "conftest.py" or (block.file and project is None):
            project = Example([block])
            found.append(project)
        elif block.file and project is not None:
            project.blocks.append(block)
        else:
            found.append(Example([block]))
    return found


def _page(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


BLOCKS = {_page(p): read_blocks(p.read_text(encoding="utf-8"), _page(p)) for p in PAGES}
EXAMPLES = [example for blocks in BLOCKS.values() for example in examples(blocks)]


def _opens_its_page(example: Example) -> bool:
    """Whether ``example`` is the first block its page runs (in an empty folder)."""
    page = example.blocks[0].page
    runs = [e for e in EXAMPLES if e.blocks[0].page == page and not e.blocks[0].skip]
    return bool(runs) and runs[0] is example


def twin(example: Example) -> Example | None:
    """An earlier example with the same code that opens its page as ``example`` opens its
    own: running it again in an empty folder would show nothing new (the README and Getting
    started share their first commands)."""
    if not _opens_its_page(example):
        return None
    code = [b.code for b in example.blocks]
    for earlier in EXAMPLES[: EXAMPLES.index(example)]:
        if [b.code for b in earlier.blocks] == code and _opens_its_page(earlier):
            return earlier
    return None


def test_every_code_block_is_python_or_console() -> None:
    readme = BLOCKS["README.md"]
    assert len(readme) >= 4
    assert [(b.line, b.language) for b in readme if b.language not in ("python", "console")] == []
    every = [b for blocks in BLOCKS.values() for b in blocks]
    assert len([b for b in every if b.language in ("python", "console")]) >= 25
    assert [(b.page, b.line) for b in every if b.file and b.skip] == []


class Pages:
    """Each page's folder, and which of its examples have run there."""

    def __init__(self, factory: pytest.TempPathFactory) -> None:
        self.factory = factory
        self.folders: dict[str, Path] = {}
        self.done: set[str] = set()

    def folder(self, page: str) -> Path:
        if page not in self.folders:
            self.folders[page] = self.factory.mktemp(re.sub(r"\W", "-", page))
        return self.folders[page]


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Pages:
    return Pages(tmp_path_factory)


def _environment(folder: Path) -> dict[str, str]:
    """The demo: no service configured; the test's interpreter first on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("EDUCATALOG_")}
    env["PATH"] = os.pathsep.join([str(BIN), env.get("PATH", "")])
    env["HOME"] = os.environ.get("HOME", str(folder))
    if "EDUCATALOG_CACHE" in os.environ:  # the demo database, built once
        env["EDUCATALOG_CACHE"] = os.environ["EDUCATALOG_CACHE"]
    env.pop("VIRTUAL_ENV", None)
    return env


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_readme_example_runs(example: Example, pages: Pages) -> None:
    first = example.blocks[0]
    if first.skip:
        pytest.skip(f"{example.where}: {first.skip}")
    if (same := twin(example)) is not None:
        pytest.skip(f"{example.where}: the same commands as {same.where}, which runs them")
    # The page's earlier blocks first, where this one runs alone (pytest -k).
    for earlier in EXAMPLES[: EXAMPLES.index(example)]:
        page, skip = earlier.blocks[0].page, earlier.blocks[0].skip
        if page == first.page and earlier.id not in pages.done and not skip and not twin(earlier):
            _run(earlier, pages)
    _run(example, pages)


def _run(example: Example, pages: Pages) -> None:
    pages.done.add(example.id)
    first = example.blocks[0]
    folder = pages.folder(first.page)
    if first.file:
        project = folder / f"project-line-{first.line}"
        project.mkdir()
        _run_pytest_project(example.blocks, project)
    elif first.language == "python":
        _run_python(first, folder)
    else:
        _run_console(first, folder)


def _run_python(block: Block, folder: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", block.code],
        cwd=folder,
        env=_environment(folder),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"{block.page} line {block.line}:\n{done.stderr[-3000:]}"


def _run_pytest_project(blocks: list[Block], folder: Path) -> None:
    for block in blocks:
        assert block.file is not None
        (folder / block.file).write_text(block.code, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=folder,
        env=_environment(folder),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    tests = sum(len(re.findall(r"(?m)^def test_", b.code)) for b in blocks)
    assert done.returncode == 0, f"{blocks[0].page} line {blocks[0].line}:\n{done.stdout[-3000:]}"
    assert re.search(rf"\b{tests} passed", done.stdout), done.stdout


@dataclass
class Command:
    text: str
    expected: list[str] = field(default_factory=list)


def read_commands(code: str) -> list[Command]:
    commands: list[Command] = []
    continued = False
    for line in code.splitlines():
        if continued:
            commands[-1].text += "\n" + line
        elif line.startswith("$ "):
            commands.append(Command(line[2:]))
        elif line.strip():
            assert commands, f"output before any command: {line!r}"
            commands[-1].expected.append(line.strip())
        continued = line.endswith("\\")
    return commands


def _run_console(block: Block, folder: Path) -> None:
    port = str(free_port())
    env = _environment(folder)
    servers: list[tuple[subprocess.Popen[str], Command]] = []
    try:
        for command in read_commands(block.code):
            text = command.text.replace("8055", port)
            expected = [line.replace("8055", port) for line in command.expected]
            if text.split()[0] == "curl" and shutil.which("curl") is None:
                pytest.skip(f"{block.page} line {block.line}: needs curl")
            if text.startswith("educatalog serve"):
                servers.append((_start_server(text, port, folder, env), command))
                continue
            done = subprocess.run(
                ["bash", "-o", "pipefail", "-c", text],
                cwd=folder,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=300,
            )
            output = done.stdout + done.stderr
            where = f"{block.page} line {block.line}: $ {text}\n{output[-3000:]}"
            assert done.returncode == 0, where
            for line in expected:
                assert line in output, where
    finally:
        outputs = [(_stop(proc), command) for proc, command in servers]
    for output, command in outputs:
        for line in command.expected:
            assert line.replace("8055", port) in output, f"$ {command.text}\n{output}"


def _start_server(text: str, port: str, folder: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    if "--port" not in text:  # before any comment on the line
        text = text.replace("educatalog serve", f"educatalog serve --port {port}", 1)
    proc = subprocess.Popen(
        ["bash", "-c", f"exec {text}"],
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"$ {text} stopped: {proc.communicate()[0]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/server/ping", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.2)
    _stop(proc)
    raise AssertionError(f"$ {text} did not answer in time")


def _stop(proc: subprocess.Popen[str]) -> str:
    proc.send_signal(signal.SIGINT)
    try:
        return proc.communicate(timeout=30)[0]
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.communicate()[0]


def test_the_harness_reads_commands_outputs_and_marks() -> None:
    text = (
        "<!-- readme-test: skip needs the real service -->\n```console\n$ a \\\n  b\nout\n```\n"
        "```python\n# conftest.py\nx = 1\n```\n```python\n# test_x.py\ndef test_x(): ...\n```\n"
        "```python\nprint(1)\n```\n"
    )
    blocks = read_blocks(text)
    assert {b.page for b in blocks} == {"README.md"}
    assert [(b.line, b.language, b.skip) for b in blocks] == [
        (2, "console", "needs the real service"),
        (7, "python", None),
        (11, "python", None),
        (15, "python", None),
    ]
    assert [(c.text, c.expected) for c in read_commands(blocks[0].code)] == [("a \\\n  b", ["out"])]
    assert [[b.line for b in e.blocks] for e in examples(blocks)] == [[2], [7, 11], [15]]
