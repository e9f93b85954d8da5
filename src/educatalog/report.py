"""The course-supply report: the ``06-report`` notebook, executed in a real kernel and rendered.

>>> write_report("reports/", url="http://127.0.0.1:8055", token="...")  # doctest: +SKIP

:func:`write_report` runs the notebook with nbclient against the given service (the URL and
token reach the kernel as ``EDUCATALOG_URL`` / ``EDUCATALOG_TOKEN`` in its environment, never
in a cell), with the filters injected after its ``parameters`` cell as papermill does, and
writes into the output folder: ``report.html`` (self-contained, code hidden, ``lang`` set,
every chart image with its alt text, tables and charts numbered), ``report.pdf`` (the page on
A4: :mod:`educatalog.files.pdf`; without Playwright and a Chromium a one-line notice instead),
``data/`` (every table as CSV in a Frictionless Data Package:
:func:`educatalog.tables.datapackage.write_datapackage`), ``charts/*.png``, ``tables.xlsx``
(a sheet on the source, then one sheet a table: :func:`educatalog.tables.write_excel`), the
executed ``report.ipynb``
and ``manifest.json`` (the data source without token, the time, the parameters, the
toolkit's version and a checksum of every file). ``lang="de"`` (default) or ``"en"`` sets
the language of every word and number on the page and in the workbook.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from educatalog.errors import require

require("report", "nbformat", "nbclient", "nbconvert", "bs4", "ipykernel", what="educatalog.report")

import nbformat

from educatalog import texts
from educatalog._version import __version__
from educatalog.client import Client
from educatalog.client.urls import public_url
from educatalog.errors import EducatalogError, ReportError, UsageError
from educatalog.files import manifests, report_page
from educatalog.files.atomic import atomic_text
from educatalog.files.workspace import NOTEBOOKS, cell_lang, inside_package, localize, output_folder
from educatalog.frames.provenance import served_source
from educatalog.jupyter.kernels import private_kernel
from educatalog.loading.connection import Origin, configured_client, started
from educatalog.periods import period_dates
from educatalog.report_inputs import check_selection, population_record, state_names
from educatalog.tables.symbols import MIN_CASES, check_min_cases

__all__ = [
    "NOTEBOOKS",
    "execute_notebook",
    "make_report",
    "notebook_path",
    "render_html",
    "verify",
    "write_report",
]

REPORT_NOTEBOOK = "06-report"

REPORT_FILES = ("report.html", "report.pdf", "report.ipynb", "tables.xlsx")
"""The files a report writes beside ``charts/``, ``data/`` and ``manifest.json``."""


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

    A shipped notebook runs in the language of the ``lang`` parameter (German by default:
    :func:`educatalog.files.workspace.localize`).
    ``parameters`` become a cell after the one tagged ``parameters``; ``env`` is added to
    the kernel's environment. The kernel runs in ``cwd``: by default the notebook's folder,
    or the current directory for a notebook inside the package (never written into). A
    failing cell raises :class:`ReportError` naming the notebook and the error.
    """
    from jupyter_client.kernelspec import NoSuchKernel
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    path = Path(path)
    nb: nbformat.NotebookNode = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    if any(cell_lang(cell) for cell in nb.cells):  # a shipped notebook: in the reader's language
        nb = localize(nb, (parameters or {}).get("lang", texts.DEFAULT_LANG))
    if parameters:
        _inject(nb, parameters, path)
    if cwd is not None:
        folder = Path(cwd)
    else:
        folder = Path.cwd() if inside_package(path.parent) else path.parent
    environment = {**os.environ, "MPLBACKEND": "module://matplotlib_inline.backend_inline"}
    environment.update(env or {})
    try:
        with private_kernel("python3") as kernel:
            client = NotebookClient(
                nb,
                km=kernel,
                timeout=timeout,
                startup_timeout=180,  # not nbclient's 60 s: a busy 2-core machine needed more
                resources={"metadata": {"path": str(folder)}},
            )
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
    except RuntimeError as exc:  # after DeadKernelError, a RuntimeError too
        if "Kernel didn't respond" not in str(exc):
            raise
        raise ReportError(
            f"The Jupyter kernel for {path.name} did not start in time (the machine is busy?)."
        ) from None
    return nb


def _inject(nb: nbformat.NotebookNode, parameters: Mapping[str, Any], path: Path) -> None:
    tagged = [k for k, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", [])]
    if not tagged:
        raise ReportError(f"The notebook {path.name} has no cell tagged 'parameters'.")
    source = "# Injected parameters\n" + "".join(
        f"{name} = {value!r}\n" for name, value in parameters.items()
    )
    cell = nbformat.v4.new_code_cell(source)  # type: ignore[no-untyped-call]
    cell.metadata["tags"] = ["injected-parameters"]
    nb.cells.insert(tagged[0] + 1, cell)


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _first_line(exc: BaseException) -> str:
    lines = [line for line in _ANSI.sub("", str(exc)).splitlines() if line.strip()]
    errors = [line for line in lines if re.match(r"^\w*(Error|Exception)\b", line)]
    return (errors or lines or ["unknown error"])[-1].strip()


def render_html(nb: nbformat.NotebookNode, *, title: str, lang: str = "de") -> str:
    """The executed notebook as one self-contained HTML page, code and prompts hidden,
    in ``lang`` (the ``lang`` attribute of the page), every chart image with the text
    alternative its output carries (``alt`` metadata, :func:`educatalog.plots.alt_text`)."""
    from bs4 import BeautifulSoup
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(  # type: ignore[no-untyped-call]
        template_name="lab",
        exclude_input=True,
        exclude_input_prompt=True,
        exclude_output_prompt=True,
        embed_images=True,
    )
    try:
        html, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": title}})
    except Exception as exc:  # a fault of the renderer, not of the notebook: name versions
        raise ReportError(
            f"nbconvert could not render the report as HTML ({type(exc).__name__}: {exc}). "
            f"Installed: {_versions('nbconvert', 'mistune', 'jinja2')}; "
            "`pip install --upgrade nbconvert mistune` usually fixes this."
        ) from None
    # The page needs no scripts from the network: no math, no widgets in a report.
    html = re.sub(r"<script[^>]*src=\"https?://[^\"]*\"[^>]*>\s*</script>", "", html)
    alts = {
        str(output["data"]["image/png"]).replace("\n", ""): alt
        for cell in nb.cells
        for output in cell.get("outputs", [])
        if "image/png" in output.get("data", {})
        and (alt := (output.get("metadata", {}).get("image/png", {}) or {}).get("alt"))
    }
    soup = BeautifulSoup(html, features="html.parser")
    if soup.html is not None:
        soup.html["lang"] = lang
    for image in soup.find_all("img"):
        data = str(image.get("src", "")).removeprefix("data:image/png;base64,")
        if data in alts:
            image["alt"] = alts[data]
    report_page.number(soup, report_page.chart_outputs(nb), lang)  # Tabelle 1, Abbildung 1
    return str(soup)


def _versions(*names: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for name in names:
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} (not installed)")
    return ", ".join(found)


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
    lang: str = "de",
    archive: str | os.PathLike[str] | None = None,
    population: str | os.PathLike[str] | None = None,
    catalogue: Mapping[str, Any] | None = None,
    min_cases: int = MIN_CASES,
    pdf: bool = True,
    notify: Callable[[str], object] = print,
) -> Path:
    """Execute the report notebook against the service at ``url`` and write the report
    into ``out`` in ``lang`` (``"de"``, the default, or ``"en"``); returns the path of
    ``report.html``. With ``archive`` (a folder of :mod:`educatalog.history`, as
    ``educatalog fetch --archive`` writes it) the report adds "the catalogue over time":
    which archive and dates it shows and whether its newest snapshot is the report's
    catalogue, supply by state on every snapshot date, courses entered and exited, how
    long courses stay listed; the manifest names the archive and its snapshot dates.
    ``population`` is a CSV of state, population, date, source
    (:func:`educatalog.population.read_population`) for the per-capita rates instead of the
    shipped figures of the newest date on or before the data's date (Zensus 2022 basis:
    :func:`educatalog.population.table_for`); it is read before the notebook runs.
    ``catalogue`` is what the service says of itself (``/server/info``'s ``educatalog``
    part): for the synthetic demo its seed and scale, which the manifest records in place
    of a passing loopback address. Costs resting on fewer than ``min_cases`` courses and
    rates resting on fewer than ``min_cases`` events show "/" (the small-cell rule of
    :func:`educatalog.tables.present`; the manifest records it among the parameters).
    ``pdf=False`` leaves out ``report.pdf`` (no Chromium is started).

    The manifest is written first and again if the run fails, listing what this run wrote
    (marked ``"complete": false``), so that the next run may write over a half-written
    folder while files nobody of ours wrote are never touched.
    """
    from educatalog import texts

    lang = texts.check_lang(lang)
    folder = _report_folder(out, start, end)
    parameters: dict[str, Any] = {
        "states": list(states) if states else None,
        "start": start,
        "end": end,
        "out_dir": str(folder),
        "lang": lang,
        "archive": None,
        "population": None,
        "min_cases": check_min_cases(min_cases),
    }
    stand = _stand(url, demo, catalogue)
    figures = _population(population, parameters, stand)
    over_time = _archive(archive, parameters)
    source = _source_record(url, demo, catalogue)

    def manifest(charts: Sequence[Path], *, complete: bool) -> None:
        _write_manifest(
            folder,
            charts,
            complete=complete,
            source=source,
            parameters=parameters,
            archive=over_time,
            population=figures,
        )

    try:
        folder.mkdir(parents=True, exist_ok=True)
        _remove_earlier_report(folder)
        before = _charts(folder)  # someone else's: never listed
        manifest([], complete=False)
    except OSError as exc:
        raise ReportError(f"Cannot write the report into {folder}: {exc.strerror}.") from None
    env = {"EDUCATALOG_URL": url, **({"EDUCATALOG_TOKEN": token} if token else {})}
    try:
        nb, html = _render(folder, parameters, env, timeout, lang)
        if pdf:
            _print_pdf(folder, nb, html, lang, texts.date(stand, lang), notify)
    except BaseException:
        manifest(_new_charts(folder, before), complete=False)
        raise
    manifest(_new_charts(folder, before), complete=True)
    return folder / "report.html"


def _render(
    folder: Path, parameters: Mapping[str, Any], env: Mapping[str, str], timeout: int, lang: str
) -> tuple[nbformat.NotebookNode, str]:
    """The report notebook executed with ``parameters``, written as ``report.ipynb`` and
    rendered as ``report.html`` in ``folder``; returns both as written."""
    from educatalog import texts

    nb = execute_notebook(
        notebook_path(REPORT_NOTEBOOK), parameters=parameters, env=env, cwd=folder, timeout=timeout
    )
    nbformat.write(nb, folder / "report.ipynb")  # type: ignore[no-untyped-call]
    html = render_html(nb, title=texts.text("report.title", lang), lang=lang)
    (folder / "report.html").write_text(html, encoding="utf-8")
    return nb, html


def _print_pdf(
    folder: Path,
    nb: nbformat.NotebookNode,
    page: str,
    lang: str,
    stand: str,
    notify: Callable[[str], object],
) -> None:
    """``report.pdf``: the page's print view (A4, running head, page numbers, the charts as
    SVG from ``nb``) printed by Chromium; where it cannot be printed here, a one-line notice."""
    from educatalog.errors import MissingDependency
    from educatalog.files.pdf import write_pdf

    title = texts.text("report.title", lang)
    view = report_page.print_view(
        page, report_page.chart_outputs(nb), title=title, stand=stand, lang=lang
    )
    try:
        write_pdf(view, folder / "report.pdf")
    except MissingDependency as exc:  # the HTML is the report; the PDF is its print
        notify(f"Note: no report.pdf: {exc}. report.html has everything.")


def _report_folder(out: str | os.PathLike[str], start: str | None, end: str | None) -> Path:
    """The folder to write into, once the dates are checked."""
    period_dates(None, start, end)  # a malformed or impossible date, or start after end
    try:
        folder = output_folder(out, what="reports")
    except EducatalogError as exc:
        raise ReportError(str(exc)) from None
    if folder in (Path.home().resolve(), Path(folder.anchor)):
        raise UsageError(
            f"Refusing to write the report into {folder} (a home or root folder): give "
            "--out a folder of its own, such as reports/."
        )
    return folder


def _population(
    population: str | os.PathLike[str] | None, parameters: dict[str, Any], stand: dt.date
) -> dict[str, Any]:
    """The population figures the rates use, read now (a bad file fails before the
    kernel starts), as the manifest records them: the file's, else the shipped table of
    the data's date ``stand`` (:func:`educatalog.population.table_for`, as the notebook
    chooses it)."""
    from educatalog.population import origin, read_population, table_for

    table = table_for(stand)
    if population is not None:
        table = read_population(population)
        parameters["population"] = str(Path(population).resolve())
    found = origin(table)
    kept: dict[str, Any] = {
        k: found[k] for k in ("source", "date", "basis", "table", "total") if k in found
    }
    return population_record(population, kept, stand)  # its file's path, checksum; too new?


def _archive(archive: str | os.PathLike[str] | None, parameters: dict[str, Any]) -> Any:
    """The archive's record for the manifest (None without one); an ArchiveError names
    what is wrong with it before the kernel starts."""
    if archive is None:
        return None
    from educatalog import history

    opened = history.open(archive)
    parameters["archive"] = str(opened.path.resolve())
    return {
        "folder": str(opened.path.resolve()),
        "dates": [day.isoformat() for day in opened.dates],
        "demo": opened.demo,
    }


def _stand(url: str, demo: bool, catalogue: Mapping[str, Any] | None) -> dt.date:
    """The date of the data as the notebook's source gives it (``describe_source`` of
    :mod:`educatalog.publication`): the demo catalogue cut as of a day by that day, a
    served snapshot by the day it was fetched, a service's catalogue by today."""
    return served_source(url, demo, catalogue).stand


def _source_record(url: str, demo: bool, catalogue: Mapping[str, Any] | None) -> dict[str, Any]:
    """The data source as the manifest records it: a service by its URL (no credentials),
    a snapshot served by the reference server by the service it was fetched from and when,
    the synthetic demo by its seed, scale and generator, not by the passing address of the
    server that served it."""
    if not demo:
        served = served_source(url, demo, catalogue)
        record: dict[str, Any] = {"url": public_url(served.url), "demo": False}
        if catalogue and isinstance(catalogue.get("snapshot"), Mapping):  # as fetched then
            record["fetched_at"] = served.fetched_at.isoformat()
        return record
    record = {"demo": True, "catalogue": "educatalog synthetic demo catalogue"}
    for key in ("seed", "scale", "generator", "as_of"):
        if catalogue and catalogue.get(key) is not None:
            record[key] = catalogue[key]
    record["stand"] = _stand(url, demo, catalogue).isoformat()  # the day its words name
    return record


def make_report(
    out: str | os.PathLike[str],
    *,
    origin: Origin | None = None,
    states: Sequence[str] | None = None,
    start: str | None = None,
    end: str | None = None,
    lang: str = "de",
    timeout: int = 600,
    notify: Callable[[str], object] = print,
    archive: str | os.PathLike[str] | None = None,
    population: str | os.PathLike[str] | None = None,
    period: str | int | None = None,
    min_cases: int = MIN_CASES,
    pdf: bool = True,
) -> Path:
    """What ``educatalog report`` does: :func:`write_report` against ``origin`` (default: the
    configured service, else the demo catalogue on a private server for the run) once every
    one of ``states`` is found to be a state of the service (also named in English or by
    its ISO code: :func:`educatalog.report_inputs.state_names`) and the selection to hold
    events; the manifest says whether the data is the synthetic demo (with its seed, scale
    and day). ``period`` (a calendar year, ``"2025"``) is ``start`` and ``end`` of that
    year (:func:`educatalog.periods.period_dates`: not with them). ``notify`` receives a line
    before the notebook runs; ``archive`` adds the catalogue over time and the year before,
    ``population`` gives the figures of the per-capita rates, ``min_cases`` the small-cell
    rule and ``pdf=False`` leaves out the PDF (:func:`write_report`).

    >>> make_report("reports/", origin=resolve_origin(demo=True), lang="en")  # doctest: +SKIP
    PosixPath('/home/me/reports/report.html')
    """
    start, end = period_dates(period, start, end)  # before a server starts: given right?
    with started(origin) as live:
        assert live.url is not None
        with configured_client(live) as client:
            demo = client.is_demo
            info = client.server_info.get("educatalog")
            if states:
                states = _check_states(client, states)
            check_selection(client, states, start, end)  # an empty report is refused
        notify("Running the report notebook...")
        return write_report(
            out,
            url=live.url,
            token=live.token,
            states=states,
            start=start,
            end=end,
            demo=demo,
            timeout=timeout,
            lang=lang,
            archive=archive,
            population=population,
            catalogue=info if isinstance(info, Mapping) else None,
            min_cases=min_cases,
            pdf=pdf,
            notify=notify,
        )


def _check_states(client: Client, states: Sequence[str]) -> list[str]:
    """``states`` as the service names them; fails before the kernel starts when one is
    no state of the service."""
    from educatalog.query import Query

    rows: Iterable[Mapping[str, Any]] = client.fetch_all("states", Query(fields=("name",)))
    return state_names(states, [str(row["name"]) for row in rows])


def verify(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """Check the report in ``folder`` as a reader of it would: its ``manifest.json``
    (unchanged since written: its checksum of itself), complete, and every file it lists
    (``report.html``, ``tables.xlsx``, the charts ...) as the report wrote it; returns the
    manifest. A damaged, changed or missing file raises
    :class:`~educatalog.errors.ReportError` naming it."""
    return manifests.verify_report(folder)


def _charts(folder: Path) -> dict[Path, tuple[int, int]]:
    """The charts and the data package's files in ``folder``, with their times and sizes."""
    paths = [*(folder / "charts").glob("*.png"), *(folder / "data").glob("*")]
    return {p: (p.stat().st_mtime_ns, p.stat().st_size) for p in paths if p.is_file()}


def _new_charts(folder: Path, before: Mapping[Path, tuple[int, int]]) -> list[Path]:
    """The charts this run wrote: new ones, and any it wrote over."""
    return sorted(p for p, stamp in _charts(folder).items() if before.get(p) != stamp)


def _remove_earlier_report(folder: Path) -> None:
    """Remove the files an earlier report listed in its manifest, and only those whose
    checksum is still the one it records, so that a new report, or a failed one, never
    mixes with an old one. Files of the same names that no report of ours wrote are never
    touched: the folder is refused instead."""
    manifest = folder / "manifest.json"
    try:
        earlier = manifests.read_report(folder)  # checked: a damaged one is named
    except ReportError as exc:
        raise ReportError(
            f"{exc} It cannot say which files of {folder} an earlier report wrote: move them "
            "away or choose another folder with --out."
        ) from None
    if earlier is None:
        files: list[str] | None = []
    else:
        files = list(earlier["files"]) if "educatalog" in earlier else None
        recorded = earlier["files"].values() if files is not None else ()
        if not all(v is None or isinstance(v, str) for v in recorded):
            files = None  # a checksum, or None for a file a failed run did not write
    if files is None or any((folder / n).exists() and n not in files for n in REPORT_FILES):
        raise ReportError(
            f"{folder} holds files that no educatalog report wrote (report.html, "
            "tables.xlsx ...); choose an empty folder with --out."
        )
    unchanged = []
    for name in files:
        path = (folder / name).resolve()
        checksum = earlier["files"][name] if earlier else None
        if (
            checksum is not None
            and path.parent in (folder, folder / "charts", folder / "data")
            and (_sha256(path) == checksum)
        ):
            unchanged.append(path)  # only files as the earlier report wrote them
    changed = [
        n for n in REPORT_FILES if (folder / n).exists() and (folder / n).resolve() not in unchanged
    ]
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
    complete: bool,
    source: Mapping[str, Any],
    parameters: Mapping[str, Any],
    archive: Mapping[str, Any] | None = None,
    population: Mapping[str, Any] | None = None,
) -> None:
    """The manifest of the report in ``folder``. Until the report is complete it lists every
    file this run may have written (a checksum where the file is there, else null)."""
    files: dict[str, str | None] = {}
    for path in [folder / n for n in REPORT_FILES] + list(charts):
        name = str(path.relative_to(folder))
        if path.is_file():
            files[name] = hashlib.sha256(path.read_bytes()).hexdigest()
        elif not complete:
            files[name] = None
    hidden = ("out_dir", "archive", "population")
    manifest = {
        "format": manifests.REPORT_FORMAT,
        "format_version": manifests.REPORT_FORMAT_VERSION,
        "generated_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "complete": complete,
        "source": dict(source),
        "parameters": {k: v for k, v in parameters.items() if k not in hidden},
        "population": dict(population) if population else None,
        "archive": archive,
        "educatalog": __version__,
        "files": files,
    }
    text = json.dumps(manifests.sealed(manifest), indent=2) + "\n"
    atomic_text(folder / "manifest.json", text)  # with its checksum of itself
