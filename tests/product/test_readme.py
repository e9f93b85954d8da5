"""Every code block of the README runs as printed, against the synthetic demo catalogue.

`python` blocks run as scripts, each in a fresh interpreter and an empty folder. A block whose
first line is `# conftest.py` or `# test_<name>.py` is that file: a conftest block starts a
pytest project, test files join the last one started (or one of their own), and pytest runs
each project. `console` blocks run command by command (`$ ` starts one, a trailing `\\`
continues it) in bash, in an empty folder; the lines a block prints under a command must
appear in its output. `educatalog serve` keeps running in the background until the block
ends, on a free port wherever the README says 8055. A block marked
`<!-- readme-test: skip REASON -->` on the line before it is skipped, visibly, with REASON.
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

README = Path(__file__).resolve().parents[2] / "README.md"
FENCE = re.compile(r"^```(\S*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
MARK = re.compile(r"<!-- readme-test: skip (?P<reason>.+?) -->\s*$")
FILE = re.compile(r"# ((?:conftest|test_\w+)\.py)\n")
BIN = Path(sys.executable).parent


@dataclass
class Block:
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
        return f"line-{self.blocks[0].line}-{kind}"


def read_blocks(text: str) -> list[Block]:
    blocks = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        mark = MARK.search(before)
        blocks.append(Block(line, match[1], match[2], mark["reason"] if mark else None))
    return blocks


def examples(blocks: list[Block]) -> list[Example]:
    found: list[Example] = []
    project: Example | None = None
    for block in blocks:
        if block.file == "conftest.py" or (block.file and project is None):
            project = Example([block])
            found.append(project)
        elif block.file and project is not None:
            project.blocks.append(block)
        else:
            found.append(Example([block]))
    return found


BLOCKS = read_blocks(README.read_text(encoding="utf-8"))
EXAMPLES = examples(BLOCKS)


def test_every_code_block_is_python_or_console() -> None:
    assert len(BLOCKS) >= 10
    assert [(b.line, b.language) for b in BLOCKS if b.language not in ("python", "console")] == []
    assert [b.line for b in BLOCKS if b.file and b.skip] == []


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
def test_readme_example_runs(example: Example, tmp_path: Path) -> None:
    first = example.blocks[0]
    if first.skip:
        pytest.skip(f"README line {first.line}: {first.skip}")
    if first.file:
        _run_pytest_project(example.blocks, tmp_path)
    elif first.language == "python":
        _run_python(first, tmp_path)
    else:
        _run_console(first, tmp_path)


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
    assert done.returncode == 0, f"README line {block.line}:\n{done.stderr[-3000:]}"


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
    assert done.returncode == 0, f"README line {blocks[0].line}:\n{done.stdout[-3000:]}"
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
                pytest.skip(f"README line {block.line}: needs curl")
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
            assert done.returncode == 0, f"README line {block.line}: $ {text}\n{output[-3000:]}"
            for line in expected:
                assert line in output, f"README line {block.line}: $ {text}\n{output[-3000:]}"
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
    assert [(b.line, b.language, b.skip) for b in blocks] == [
        (2, "console", "needs the real service"),
        (7, "python", None),
        (11, "python", None),
        (15, "python", None),
    ]
    assert [(c.text, c.expected) for c in read_commands(blocks[0].code)] == [("a \\\n  b", ["out"])]
    assert [[b.line for b in e.blocks] for e in examples(blocks)] == [[2], [7, 11], [15]]
