"""The course-supply report: the ``06-report`` notebook, executed in a real kernel and rendered.

>>> write_report("reports/", url="http://127.0.0.1:8055", token="...")  # doctest: +SKIP

:func:`write_report` runs the notebook with nbclient against the given service (the URL and
token reach the kernel as ``EDUCATALOG_URL`` / ``EDUCATALOG_TOKEN`` in its environment, never
in a cell), with the filters injected after its ``parameters`` cell as papermill does, and
writes into the output folder: ``report.html`` (self-contained, code hidden), ``charts/*.png``,
``tables.xlsx`` (one sheet a table), the executed ``report.ipynb`` and ``manifest.json`` (the
data source without token, the time, the parameters, the toolkit's version and a checksum of
every file).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import nbformat

from educatalog.errors import EducatalogError
from educatalog.urls import public_url

__all__ = ["NOTEBOOKS", "execute_notebook", "notebook_path", "render_html", "write_report"]

NOTEBOOKS = Path(__file__).resolve().parent / "notebooks"
"""The ready-made notebooks shipped with the package (``notebooks/`` in the repository)."""

REPORT_NOTEBOOK = "06-report"

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class ReportError(EducatalogError):
    """A notebook failed to run, or the report could not be written."""


def notebook_path(name: str) -> Path:
    """The shipped notebook called ``name`` (with or without ``.ipynb``)."""
    path = NOTEBOOKS / (name if name.endswith(".ipynb") else f"{name}.ipynb")
    if not path.is_file():
        available = ", ".join(sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")))
        raise ReportError(f'No notebook "{name}"; the shipped notebooks are: {available}.')
    return path


def execute_notebook(
    path: str | os.PathLike[str],
    *,
    parameters: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    timeout: int = 600,
) -> nbformat.NotebookNode:
    """Run a notebook top to bottom in a fresh ``python3`` kernel and return it executed.

    ``parameters`` become a cell after the one tagged ``parameters``; ``env`` is added to
    the kernel's environment. A failing cell raises :class:`ReportError` naming the notebook
    and the error.
    """
    from jupyter_client.kernelspec import NoSuchKernel
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    if parameters:
        _inject(nb, parameters, path)
    folder = Path(cwd) if cwd is not None else path.parent
    client = NotebookClient(
        nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(folder)}}
    )
    environment = {**os.environ, "MPLBACKEND": "module://matplotlib_inline.backend_inline"}
    environment.update(env or {})
    try:
        client.execute(env=environment)
    except CellExecutionError as exc:
        raise ReportError(f"The notebook {path.name} failed: {_first_line(exc)}") from None
    except CellTimeoutError:
        raise ReportError(
            f"The notebook {path.name} took more than {timeout} s for one cell."
        ) from None
    except DeadKernelError:
        raise ReportError(f"The kernel running {path.name} died (out of memory?).") from None
    except NoSuchKernel:
        raise ReportError(
            "No 'python3' Jupyter kernel is installed: pip install ipykernel."
        ) from None
    return nb


def _inject(nb: nbformat.NotebookNode, parameters: Mapping[str, Any], path: Path) -> None:
    tagged = [k for k, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", [])]
    if not tagged:
        raise ReportError(f"The notebook {path.name} has no cell tagged 'parameters'.")
    source = "# Injected parameters\n" + "".join(
        f"{name} = {value!r}\n" for name, value in parameters.items()
    )
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["tags"] = ["injected-parameters"]
    nb.cells.insert(tagged[0] + 1, cell)


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _first_line(exc: BaseException) -> str:
    lines = [line for line in _ANSI.sub("", str(exc)).splitlines() if line.strip()]
    errors = [line for line in lines if re.match(r"^\w*(Error|Exception)\b", line)]
    return (errors or lines or ["unknown error"])[-1].strip()


def render_html(nb: nbformat.NotebookNode, *, title: str) -> str:
    """The executed notebook as one self-contained HTML page, code and prompts hidden."""
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(
        template_name="lab",
        exclude_input=True,
        exclude_input_prompt=True,
        exclude_output_prompt=True,
        embed_images=True,
    )
    html, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": title}})
    # The page needs no scripts from the network: no math, no widgets in a report.
    html = re.sub(r"<script[^>]*src=\"https?://[^\"]*\"[^>]*>\s*</script>", "", html)
    return html


def write_report(
    out: str | os.PathLike[str],
    *,
    url: str,
    token: str | None,
    states: Sequence[str] | None = None,
    start: str | None = None,
    end: str | None = None,
    demo: bool = False,
    timeout: int = 600,
) -> Path:
    """Execute the report notebook against the service at ``url`` and write the report
    into ``out``; returns the path of ``report.html``."""
    for name, value in (("start", start), ("end", end)):
        if value is not None and not _DATE.fullmatch(value):
            raise ReportError(f"{name} must be a date as YYYY-MM-DD, got {value!r}")
    if start and end and start > end:
        raise ReportError(f"start {start} is after end {end}.")
    folder = Path(out).resolve()
    if folder in (Path.home().resolve(), Path(folder.anchor)):
        raise ReportError(
            f"Refusing to write the report into {folder} (a home or root folder): give "
            "--out a folder of its own, such as reports/."
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _remove_earlier_report(folder)
        foreign = set((folder / "charts").glob("*.png"))  # someone else's: never listed
    except OSError as exc:
        raise ReportError(f"Cannot write the report into {folder}: {exc.strerror}.") from None
    parameters = {
        "states": list(states) if states else None,
        "start": start,
        "end": end,
        "out_dir": str(folder),
    }
    env = {"EDUCATALOG_URL": url}
    if token:
        env["EDUCATALOG_TOKEN"] = token
    nb = execute_notebook(
        notebook_path(REPORT_NOTEBOOK), parameters=parameters, env=env, timeout=timeout
    )
    nbformat.write(nb, folder / "report.ipynb")
    page = folder / "report.html"
    page.write_text(render_html(nb, title="Course supply report"), encoding="utf-8")
    charts = sorted(set((folder / "charts").glob("*.png")) - foreign)
    _write_manifest(folder, charts, url=url, demo=demo, parameters=parameters)
    return page


def _remove_earlier_report(folder: Path) -> None:
    """Remove the files an earlier report listed in its manifest, and only those whose
    checksum is still the one it records, so that a new report, or a failed one, never
    mixes with an old one. Files of the same names that no report of ours wrote are never
    touched: the folder is refused instead."""
    manifest = folder / "manifest.json"
    try:
        earlier = json.loads(manifest.read_text(encoding="utf-8"))
        files = list(earlier["files"]) if "educatalog" in earlier else None
        if files is not None and not all(isinstance(v, str) for v in earlier["files"].values()):
            files = None
    except FileNotFoundError:
        files = []
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        files = None
    ours = ("report.html", "report.ipynb", "tables.xlsx")
    if files is None or any((folder / n).exists() and n not in files for n in ours):
        raise ReportError(
            f"{folder} holds files that no educatalog report wrote (report.html, "
            "tables.xlsx ...); choose an empty folder with --out."
        )
    unchanged = []
    for name in files:
        path = (folder / name).resolve()
        if path.parent in (folder, folder / "charts") and _sha256(path) == earlier["files"][name]:
            unchanged.append(path)  # only files as the earlier report wrote them
    changed = [n for n in ours if (folder / n).exists() and (folder / n).resolve() not in unchanged]
    if changed:
        raise ReportError(
            f"{', '.join(changed)} in {folder} changed since the earlier report wrote it; "
            "move it away or choose another folder with --out."
        )
    for path in unchanged:
        path.unlink()
    manifest.unlink(missing_ok=True)


def _sha256(path: Path) -> str | None:
    """The SHA-256 of a file (None when there is no such file)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
    except OSError:
        return None


def _write_manifest(
    folder: Path,
    charts: Sequence[Path],
    *,
    url: str,
    demo: bool,
    parameters: Mapping[str, Any],
) -> None:
    from educatalog import __version__

    written = [folder / n for n in ("report.html", "report.ipynb", "tables.xlsx")]
    files = [p for p in written if p.is_file()] + list(charts)
    manifest = {
        "generated_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "source": {"url": public_url(url), "demo": demo},
        "parameters": {k: v for k, v in parameters.items() if k != "out_dir"},
        "educatalog": __version__,
        "files": {
            str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files
        },
    }
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
