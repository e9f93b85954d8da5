"""Accessibility checks: axe-core in a page of headless Chromium (the report, the dashboard,
the documentation site), and a pure-Python check of the report's HTML that runs everywhere.

axe-core (MPL-2.0) is not vendored: :func:`axe_script` downloads the pinned release's npm
tarball from the npm registry over HTTPS once (httpx; ``npm pack`` only where that fails and
npm is at hand) into ``$EDUCATALOG_CACHE`` (default ``~/.cache/educatalog``), checks its
SHA-256 and keeps ``axe.min.js`` there, whose own SHA-256 is checked on every use.

:func:`axe_violations` runs it in a Playwright page that is open (the dashboard after it
rendered, a ``file://`` page) and :func:`wcag_failures` says what fails: every violation of
a rule tagged WCAG 2.0, 2.1 or 2.2 level A or AA, whatever its impact. Best-practice
findings are printed, and fail nothing.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from bs4 import BeautifulSoup

AXE_VERSION = "4.10.3"
AXE_URL = f"https://registry.npmjs.org/axe-core/-/axe-core-{AXE_VERSION}.tgz"
AXE_SHA256 = "0f2b4d7dcdf7d1219df8d1959ad68e565f51d14c3f0d88bb71cd59abeb956292"
"""Of the npm package tarball axe-core-4.10.3.tgz."""
AXE_MIN_SHA256 = "880970c081707360e64f34cea25ff91892f5bc95675b0776925b9709dd8a68bb"
"""Of ``package/axe.min.js`` in that tarball (the cached copy is checked against it)."""

WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa")
"""The rules that fail a test: WCAG 2.0, 2.1 and 2.2, levels A and AA."""
AXE_TAGS = [*WCAG_TAGS, "best-practice"]
"""The rules axe-core runs: those of :data:`WCAG_TAGS`, and best practices (reported)."""


def cache_dir() -> Path:
    configured = os.environ.get("EDUCATALOG_CACHE")
    base = Path(configured) if configured else Path.home() / ".cache" / "educatalog"
    return base / f"axe-core-{AXE_VERSION}"


def axe_script() -> tuple[Path | None, str]:
    """``axe.min.js`` of the pinned axe-core, downloaded once; else None and why."""
    target = cache_dir() / "axe.min.js"
    if target.is_file() and _sha256(target.read_bytes()) == AXE_MIN_SHA256:
        return target, ""
    tarball, why = _download()
    if tarball is None:
        tarball, npm_why = _npm_pack()
        if tarball is None:
            return None, f"axe-core {AXE_VERSION} could not be fetched: {why}; {npm_why}"
    digest = _sha256(tarball)
    if digest != AXE_SHA256:
        return None, f"axe-core-{AXE_VERSION}.tgz has SHA-256 {digest}, not {AXE_SHA256}"
    with tarfile.open(fileobj=io.BytesIO(tarball)) as archive:
        member = archive.extractfile("package/axe.min.js")
        assert member is not None
        data = member.read()
    if _sha256(data) != AXE_MIN_SHA256:
        return None, f"axe.min.js of axe-core-{AXE_VERSION}.tgz is not the one pinned"
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(f".{os.getpid()}.partial")
    partial.write_bytes(data)
    partial.replace(target)
    return target, ""


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _download() -> tuple[bytes | None, str]:
    """The pinned tarball from the npm registry over HTTPS (a proxy in the environment is
    used), or None and why."""
    try:
        answer = httpx.get(AXE_URL, follow_redirects=True, timeout=60)
        answer.raise_for_status()
    except httpx.HTTPError as error:
        return None, f"GET {AXE_URL} failed ({type(error).__name__}: {error})"
    return answer.content, ""


def _npm_pack() -> tuple[bytes | None, str]:
    """The pinned tarball through ``npm pack`` (where npm is configured for a mirror), or
    None and why."""
    npm = shutil.which("npm")
    if npm is None:
        return None, "no npm to try instead"
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [npm, "pack", f"axe-core@{AXE_VERSION}", "--pack-destination", tmp],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=180,
        )
        tarball = Path(tmp) / f"axe-core-{AXE_VERSION}.tgz"
        if done.returncode != 0 or not tarball.is_file():
            return None, f"npm pack axe-core@{AXE_VERSION} failed: {done.stderr.strip()[-300:]}"
        return tarball.read_bytes(), ""


def axe_source() -> str:
    """The text of ``axe.min.js``; where it cannot be had, the test is skipped for a
    developer and fails in CI (:func:`needs.missing_tool`), naming why."""
    from needs import missing_tool

    script, why = axe_script()
    if script is None:
        missing_tool(why)
    return script.read_text(encoding="utf-8")


@contextmanager
def chromium_page(chromium: str) -> Iterator[Any]:
    """A page of headless Chromium (Debian's, driven by Playwright), closed afterwards:
    for a test without the browser fixtures of ``tests/browser/``."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - a dev dependency
        from needs import missing_tool

        missing_tool("needs playwright (pip install -e '.[dev]')")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield browser.new_page(viewport={"width": 1400, "height": 1000})
        finally:
            browser.close()


_RUN = """
async (tags) => {
  const result = await axe.run(document, {
    runOnly: {type: "tag", values: tags}, resultTypes: ["violations"],
  });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, tags: v.tags,
    nodes: v.nodes.map((n) => ({
      target: n.target.map((t) => Array.isArray(t) ? t.join(" >>> ") : t).join(" "),
      impact: n.impact, summary: n.failureSummary || "", html: n.html,
    })),
  }));
}
"""


def axe_violations(page: Any, script: str) -> list[dict[str, Any]]:
    """What axe-core finds in the Playwright ``page`` as it is now (rendered, scrolled,
    a control switched), by the rules of :data:`AXE_TAGS`: each violation with its rule
    ``id``, ``impact``, ``help``, ``tags`` and ``nodes`` (``target``, ``impact``,
    ``summary``, ``html``). Nothing is left out: a finding that cannot be mended from our
    side would be named in the test that meets it, by rule and node."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=script)
    found: list[dict[str, Any]] = page.evaluate(_RUN, AXE_TAGS)
    return found


def is_wcag(violation: dict[str, Any]) -> bool:
    """Whether ``violation`` breaks a rule of WCAG 2.0 to 2.2, level A or AA."""
    return bool(set(violation["tags"]) & set(WCAG_TAGS))


def describe(violations: Iterable[dict[str, Any]], nodes: int = 8) -> str:
    """One paragraph a violation: rule, impact, help, and (up to ``nodes``) the nodes by
    their selectors, with axe-core's summary of what is wrong there."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} [{len(v['nodes'])} nodes]")
        for node in v["nodes"][:nodes]:
            summary = " ".join(node["summary"].split())
            lines.append(f"    {node['target']}  --  {summary[:300]}")
        if len(v["nodes"]) > nodes:
            lines.append(f"    ... and {len(v['nodes']) - nodes} more")
    return "\n".join(lines)


def wcag_failures(violations: list[dict[str, Any]], what: str) -> str:
    """Empty when ``violations`` break no rule of WCAG A or AA; else the message that
    names each. The best-practice findings are printed either way (they fail nothing)."""
    advice = [v for v in violations if not is_wcag(v)]
    if advice:
        print(f"axe-core best practices on {what} (not failures):\n{describe(advice)}")
    failing = [v for v in violations if is_wcag(v)]
    if not failing:
        return ""
    return f"axe-core: WCAG A/AA violations on {what}:\n{describe(failing)}"


def assert_accessible(page: Any, script: str, what: str) -> None:
    """Fail on any WCAG A/AA violation axe-core finds in ``page``, whatever its impact."""
    started = time.monotonic()
    violations = axe_violations(page, script)
    print(f"axe-core checked {what} in {time.monotonic() - started:.1f} s")
    failures = wcag_failures(violations, what)
    assert not failures, failures


_DEFAULT_ALT = "No description has been provided for this image"


def accessibility_findings(page: str) -> list[str]:
    """What keeps an HTML page from being accessible, as far as a static check can tell
    (empty when nothing): a ``lang`` attribute and a title; every image with a meaningful
    ``alt`` text (not nbconvert's placeholder, not a file name, a sentence long); one
    ``h1`` first and headings without skipped levels; every data table with a caption and
    header cells with ``scope``. axe-core in a browser checks more (:func:`assert_accessible`).
    """

    soup = BeautifulSoup(page, features="html.parser")
    findings = []
    root = soup.find("html")
    if root is None or not str(root.get("lang", "")).strip():
        findings.append("the page has no lang attribute")
    title = soup.find("title")
    if title is None or not title.get_text(strip=True):
        findings.append("the page has no title")
    for n, image in enumerate(soup.find_all("img"), start=1):
        alt = str(image.get("alt", "")).strip()
        if not alt:
            findings.append(f"image {n} has no alt text")
        elif alt == _DEFAULT_ALT or re.fullmatch(r"[\w.-]+\.(png|svg|jpe?g)", alt):
            findings.append(f"image {n} has a placeholder alt text: {alt!r}")
        elif len(alt.split()) < 4:
            findings.append(f"image {n} has an alt text that says little: {alt!r}")
    levels = [int(h.name[1]) for h in soup.find_all(re.compile(r"^h[1-6]$"))]
    if levels.count(1) != 1 or (levels and levels[0] != 1):
        findings.append(f"the page needs exactly one h1, first; its headings: {levels}")
    for before, after in itertools.pairwise(levels):
        if after > before + 1:
            findings.append(f"a heading skips from h{before} to h{after}")
    for n, table in enumerate(soup.find_all("table"), start=1):
        if table.find("caption") is None and not table.get("aria-label"):
            findings.append(f"table {n} has no caption")
        headers = table.find_all("th")
        if not headers:
            findings.append(f"table {n} has no header cells")
        for cell in headers:
            if cell.get("scope") not in ("col", "row", "colgroup", "rowgroup"):
                findings.append(f"table {n} has a header cell without scope: {cell.get_text()!r}")
                break
    return findings


def language_findings(page: str, lang: str) -> list[str]:
    """Where an HTML page says that it is in another language than ``lang`` (empty when
    nowhere): its root's ``lang`` (missing or another), and any ``lang`` or ``xml:lang``
    of the root or an element within that names another (WCAG 3.1.1 and 3.1.2)."""
    soup = BeautifulSoup(page, features="html.parser")
    root = soup.find("html")
    said = root.get("lang") if root is not None else None
    findings = [] if said == lang else [f"the page's lang is {said!r}, not {lang!r}"]
    for element in soup.find_all(True):
        for attribute in ("lang", "xml:lang"):
            value = element.get(attribute)
            if value is not None and str(value).split("-")[0].lower() != lang:
                findings.append(f"<{element.name} {attribute}={str(value)!r}> on a page in {lang}")
    return findings
