"""Accessibility checks of the report's HTML: axe-core in headless Chromium where both are
at hand, and a pure-Python check that runs everywhere.

axe-core (MPL-2.0) is not vendored: :func:`axe_script` fetches the pinned release with
``npm pack`` from the npm registry once into ``$EDUCATALOG_CACHE`` (default
``~/.cache/educatalog``), checks its SHA-256 and keeps ``axe.min.js`` there.
"""

from __future__ import annotations

import hashlib
import html
import itertools
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from bs4 import BeautifulSoup

AXE_VERSION = "4.10.3"
AXE_SHA256 = "0f2b4d7dcdf7d1219df8d1959ad68e565f51d14c3f0d88bb71cd59abeb956292"
"""Of the npm package tarball axe-core-4.10.3.tgz."""

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def cache_dir() -> Path:
    configured = os.environ.get("EDUCATALOG_CACHE")
    base = Path(configured) if configured else Path.home() / ".cache" / "educatalog"
    return base / f"axe-core-{AXE_VERSION}"


def axe_script() -> tuple[Path | None, str]:
    """``axe.min.js`` of the pinned axe-core, fetched once with npm; else None and why."""
    target = cache_dir() / "axe.min.js"
    if target.is_file():
        return target, ""
    npm = shutil.which("npm")
    if npm is None:
        return None, "needs npm to fetch axe-core (or axe.min.js in " + str(target.parent) + ")"
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
        digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
        if digest != AXE_SHA256:
            return None, f"axe-core-{AXE_VERSION}.tgz has SHA-256 {digest}, not {AXE_SHA256}"
        with tarfile.open(tarball) as archive:
            member = archive.extractfile("package/axe.min.js")
            assert member is not None
            data = member.read()
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    partial.write_bytes(data)
    partial.replace(target)
    return target, ""


_RUNNER = """
<script>%s</script>
<script>
axe.run(document, {runOnly: {type: "tag", values: %s}}).then(function (result) {
  var out = document.createElement("pre");
  out.id = "axe-results";
  out.textContent = JSON.stringify(result.violations.map(function (v) {
    return {id: v.id, impact: v.impact, help: v.help,
            targets: v.nodes.slice(0, 5).map(function (n) { return n.target.join(" "); })};
  }));
  document.body.appendChild(out);
});
</script>
"""


def run_axe(page: Path, chromium: str, script: Path, work: Path) -> list[dict[str, Any]]:
    """The violations axe-core finds in ``page``, rendered by headless Chromium."""
    source = page.read_text(encoding="utf-8")
    runner = _RUNNER % (script.read_text(encoding="utf-8"), json.dumps(AXE_TAGS))
    checked = work / "axe-page.html"
    checked.write_text(source.replace("</body>", runner + "</body>"), encoding="utf-8")
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu"]
    command += ["--virtual-time-budget=60000", "--dump-dom", checked.as_uri()]
    done = subprocess.run(
        command, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=240
    )
    found = re.search(r'<pre id="axe-results">(.*?)</pre>', done.stdout, re.S)
    if found is None:
        raise AssertionError(f"axe-core did not report; chromium said: {done.stderr[-500:]}")
    return list(json.loads(html.unescape(found.group(1))))


_DEFAULT_ALT = "No description has been provided for this image"


def accessibility_findings(page: str) -> list[str]:
    """What keeps an HTML page from being accessible, as far as a static check can tell
    (empty when nothing): a ``lang`` attribute and a title; every image with a meaningful
    ``alt`` text (not nbconvert's placeholder, not a file name, a sentence long); one
    ``h1`` first and headings without skipped levels; every data table with a caption and
    header cells with ``scope``. axe-core in a browser checks more (:func:`run_axe`).
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
