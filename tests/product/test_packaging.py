"""The package as users get it: sdist and wheel built the standard way (`python -m build`: the
sdist first, the wheel from the sdist), the wheel listed, installed into a brand-new virtual
environment and run from a directory outside the repository, as a new user would."""

from __future__ import annotations

import email
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
import zipfile
from pathlib import Path

import nbformat
import pytest
from packaging.version import Version

import educatalog

REPO = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
NOTEBOOK_NAMES = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))
JUNK = re.compile(
    r"__pycache__|\.py[co]$|\.ipynb_checkpoints|/charts/|\.xlsx$|notebooks/[^/]*\.csv$|/report/"
)


def _run(command: list[str], **options: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        command, stdin=subprocess.DEVNULL, capture_output=True, text=True, **options
    )
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the sources (what the sdist takes) in which running the notebooks, the
    report, the explorer and JupyterLab has left outputs beside the notebooks' source
    (the top-level `notebooks/`)."""
    root = tmp_path_factory.mktemp("tree")
    ignore = shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints")
    for name in PYPROJECT["tool"]["hatch"]["build"]["targets"]["sdist"]["only-include"]:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=ignore)
        else:
            shutil.copy2(source, root / name)
    notebooks = root / "notebooks"
    for junk in (
        "charts/supply-by-state.png",
        "report/charts/supply-by-state.png",
        "report/tables.xlsx",
        "tables.xlsx",
        ".ipynb_checkpoints/01-quickstart-checkpoint.ipynb",
        "educatalog-events-by-state-20250101-120000.csv",
    ):
        (notebooks / junk).parent.mkdir(parents=True, exist_ok=True)
        (notebooks / junk).write_bytes(b"an output")
    (root / "src/educatalog/__pycache__").mkdir()
    (root / "src/educatalog/__pycache__/cli.cpython-311.pyc").write_bytes(b"cache")
    return root


@pytest.fixture(scope="module")
def dist(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sdist and the wheel built from it, once for the module."""
    out = tmp_path_factory.mktemp("dist")
    started = time.monotonic()
    _run([sys.executable, "-m", "build", "--outdir", str(out), str(tree)], timeout=300)
    print(f"python -m build: {time.monotonic() - started:.1f} s")
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return sdist, wheel


@pytest.mark.install
def test_sdist_holds_sources_notebooks_and_no_outputs(dist: tuple[Path, Path]) -> None:
    with tarfile.open(dist[0]) as archive:
        names = [n.split("/", 1)[1] for n in archive.getnames() if "/" in n]
    notebooks = sorted(n.rsplit("/", 1)[1] for n in names if "notebooks/" in n)
    assert notebooks == NOTEBOOK_NAMES
    assert len(NOTEBOOK_NAMES) == 8  # 08-districts the newest
    # one source: the top-level folder, no second copy in the package
    assert [n for n in names if "notebooks/" in n] == [f"notebooks/{n}" for n in NOTEBOOK_NAMES]
    assert not [n for n in names if JUNK.search(n)]
    for required in ("LICENSE", "CHANGELOG.md", "README.md", "pyproject.toml", "ci/floors.txt"):
        assert required in names


@pytest.mark.install
def test_wheel_holds_exactly_the_package_and_its_notebooks(dist: tuple[Path, Path]) -> None:
    source = REPO / "src"
    modules = {
        str(p.relative_to(source))
        for p in (source / "educatalog").rglob("*.py")
        if "__pycache__" not in p.parts
    }
    info = f"educatalog-{educatalog.__version__}.dist-info"
    data = {
        str(p.relative_to(source))
        for folder in ("educatalog/data", "educatalog/demodata/data", "educatalog/templates")
        for p in (source / folder).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }  # the package's own data files (population figures; the demo's reference lists; the
    # dashboard's page templates, Voilà's and Solara's, and Voilà's kernel manager)
    assert len(data) >= 5
    expected = modules | data | {"educatalog/py.typed"}
    expected |= {f"educatalog/notebooks/{n}" for n in NOTEBOOK_NAMES}
    expected |= {f"{info}/{n}" for n in ("METADATA", "WHEEL", "entry_points.txt", "RECORD")}
    expected |= {f"{info}/licenses/LICENSE"}
    with zipfile.ZipFile(dist[1]) as wheel:
        assert set(wheel.namelist()) == expected
        metadata = email.message_from_bytes(wheel.read(f"{info}/METADATA"))
        entry_points = wheel.read(f"{info}/entry_points.txt").decode()
    assert metadata["Version"] == educatalog.__version__
    assert metadata["Requires-Python"] == ">=3.11"
    assert "License :: OSI Approved :: MIT License" in metadata.get_all("Classifier")
    assert metadata.get_all("Project-URL")
    required = {r for r in metadata.get_all("Requires-Dist") if "extra ==" not in r}
    assert required == {r.split("#")[0].strip() for r in PYPROJECT["project"]["dependencies"]}
    assert "educatalog = educatalog.cli:main" in entry_points
    assert "educatalog = educatalog.testing" in entry_points  # the pytest plugin


def _floors(requirements: list[str]) -> dict[str, Version]:
    """The floor of each requirement; an extra of educatalog itself brings its own floors."""
    floors = {}
    for line in requirements:
        extras = re.fullmatch(r"educatalog\[([a-z,]+)\]", line)
        if extras:
            for extra in extras[1].split(","):
                floors.update(_floors(PYPROJECT["project"]["optional-dependencies"][extra]))
            continue
        match = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)(\[[^]]*\])?\s*>=\s*([0-9.]+)\s*(#.*)?", line)
        assert match, f"not a floor: {line!r}"
        floors[match[1].lower()] = Version(match[3])
    return floors


CONDA_NAMES = {
    "matplotlib": "matplotlib-base",
    "nbconvert": "nbconvert-core",
    "uvicorn": "uvicorn-standard",
    "build": "python-build",
}


def test_floors_constraints_and_conda_environments_agree_with_pyproject() -> None:
    """ci/floors.txt pins exactly the floors that make test-floors tests; environment.yml
    (users) and environment-dev.yml (developers) ask conda-forge for the same floors."""
    runtime = _floors(PYPROJECT["project"]["dependencies"])
    extras = PYPROJECT["project"]["optional-dependencies"]
    lines = (REPO / "ci/floors.txt").read_text().splitlines()
    pins = {
        name: Version(pin)
        for name, pin in (line.split("==") for line in lines if line and line[0] != "#")
    }
    tested = {**runtime, **_floors(extras["report"]), **_floors(extras["archive"])}
    tested.update(_floors(extras["widgets"]))
    assert pins == {**tested, "pytest": _floors(extras["dev"])["pytest"]}

    def conda(name: str) -> dict[str, Version]:
        text = (REPO / name).read_text(encoding="utf-8")
        found = re.findall(r"(?m)^  - ([a-z0-9-]+)>=([0-9.]+)$", text)
        floors = {package: Version(floor) for package, floor in found}
        assert floors.pop("python") == Version("3.11")
        return floors

    wanted = {**runtime, **_floors(extras["lab"]), **_floors(extras["dashboard"])}
    users = {CONDA_NAMES.get(n, n): v for n, v in wanted.items()}
    assert conda("environment.yml") == users
    developers = {**users, **{CONDA_NAMES.get(n, n): v for n, v in _floors(extras["dev"]).items()}}
    assert conda("environment-dev.yml") == developers


def _new_venv(wheel: Path, extras: str, folder: Path) -> Path:
    """A brand-new virtual environment with the wheel (with ``extras``, if any) and its
    dependencies installed (by uv, from its cache; by pip, a minute slower, where uv is not
    installed)."""
    env = folder / "env"
    requirement = f"educatalog{f'[{extras}]' if extras else ''} @ {wheel.resolve().as_uri()}"
    started = time.monotonic()
    try:
        from uv import find_uv_bin

        uv = find_uv_bin()
        _run([uv, "venv", "--quiet", "--python", sys.executable, str(env)], timeout=120)
        python = env / "bin" / "python"
        _run([uv, "pip", "install", "--quiet", "--python", str(python), requirement], timeout=600)
    except ImportError:
        _run([sys.executable, "-m", "venv", str(env)], timeout=120)
        _run([str(env / "bin/python"), "-m", "pip", "install", "-q", requirement], timeout=600)
    print(f"new virtual environment with {requirement}: {time.monotonic() - started:.1f} s")
    return env


@pytest.fixture(scope="module")
def venv(dist: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What a notebook user installs: ``pip install "educatalog[lab]"``."""
    return _new_venv(dist[1], "lab", tmp_path_factory.mktemp("venv"))


def _user_env(venv: Path, home: Path) -> dict[str, str]:
    """The environment of a new user of ``venv``: no caches, settings or repository."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("EDUCATALOG_", "JUPYTER", "PYTHON", "XDG_", "MPL"))
        and k != "VIRTUAL_ENV"
    }
    path = [
        p for p in env.get("PATH", "").split(os.pathsep) if Path(sys.executable).parent != Path(p)
    ]
    env.update(HOME=str(home), PATH=os.pathsep.join([str(venv / "bin"), *path]))
    return env


LIGHT = ("ipykernel", "nbclient", "nbconvert", "nbformat", "duckdb", "openpyxl", "beautifulsoup4")
"""What ``pip install educatalog`` no longer brings: the extras' packages."""

CORE_SCRIPT = """
import importlib.metadata as md, json, sys
import educatalog
offers = educatalog.load_catalogue().offers()
by_state = offers.edu.supply(by="state")
figure = offers.edu.plot.supply(by="state")
figure.savefig("supply.png")
problems = {}
for name in ("educatalog.history", "educatalog.report"):
    try:
        __import__(name)
    except educatalog.MissingDependency as exc:
        problems[name] = str(exc)
try:
    educatalog.tables.write_excel("supply.xlsx", [by_state])
except educatalog.MissingDependency as exc:
    problems["tables.write_excel"] = str(exc)
installed = sorted(d.metadata["Name"].lower() for d in md.distributions())
print(json.dumps({"events": int(by_state["events"].sum()), "problems": problems,
                  "installed": installed, "rows": len(offers)}))
"""


@pytest.mark.install
def test_the_core_install_loads_counts_and_draws_and_names_the_extras(
    dist: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """``pip install educatalog`` (no extra) gives ``load()``, the statistics, the charts and
    the embedded demo server, without Jupyter, DuckDB or openpyxl; a feature of an extra
    says which ``pip install`` brings it, in Python and on the command line."""
    folder = tmp_path_factory.mktemp("core")
    env = _new_venv(dist[1], "", folder)
    work, home = folder / "work", folder / "home"
    work.mkdir()
    home.mkdir()
    user = _user_env(env, home)
    done = _run(["python", "-c", CORE_SCRIPT], cwd=work, env=user, timeout=300)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert not set(LIGHT) & set(result["installed"]), result["installed"]
    assert result["events"] == result["rows"] > 0
    assert (work / "supply.png").stat().st_size > 10_000
    assert result["problems"] == {
        "educatalog.history": "educatalog.history needs duckdb, which the extra 'archive' "
        "installs: pip install 'educatalog[archive]'",
        "educatalog.report": "educatalog.report needs nbformat, nbclient, nbconvert, bs4, "
        "ipykernel, which the extra 'report' installs: pip install 'educatalog[report]'",
        "tables.write_excel": "tables.write_excel needs openpyxl, which the extra 'excel' "
        "installs: pip install 'educatalog[excel]'",
    }
    report = subprocess.run(
        ["educatalog", "report", "--demo", "--out", "r"],
        cwd=work, env=user, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert report.returncode != 0
    assert "pip install 'educatalog[report]'" in report.stderr
    assert not (work / "r").exists()
    # a snapshot needs no extra (the archive's DuckDB only with --archive); the dashboard
    # needs openpyxl alone (its Excel download), and says so before it fetches anything
    fetched = subprocess.run(
        ["educatalog", "fetch", "--demo", "--out", "snap"],
        cwd=work, env=user, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert fetched.returncode == 0, fetched.stderr
    assert (work / "snap" / "manifest.json").is_file()
    dashboard = subprocess.run(
        ["educatalog", "dashboard", "--snapshot", "snap", "--port", "9"],
        cwd=work, env=user, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert dashboard.returncode != 0
    assert "needs openpyxl: pip install 'educatalog[excel]'" in dashboard.stderr


@pytest.mark.install
def test_installed_wheel_works_from_a_fresh_directory(
    venv: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """What the README promises a new user: version, help, notebooks, report, a notebook."""
    work = tmp_path_factory.mktemp("work")  # outside the repository
    home = tmp_path_factory.mktemp("home")  # a new user: no caches, no Jupyter settings
    env = _user_env(venv, home)

    def run(*command: str, timeout: int = 120) -> str:
        return _run(list(command), cwd=work, env=env, timeout=timeout).stdout

    site = Path(run("python", "-c", "import educatalog; print(educatalog.__file__)").strip())
    assert site.parent.is_relative_to(venv), "the installed package, not the repository's"
    package = _listing(site.parent)

    version = educatalog.__version__
    assert run("educatalog", "--version").strip() == f"educatalog {version}"
    assert run("python", "-m", "educatalog", "--version").strip() == f"educatalog {version}"
    assert "notebooks" in run("python", "-m", "educatalog", "--help")

    run("educatalog", "notebooks", "--out", "nb")
    assert sorted(p.name for p in (work / "nb").glob("*.ipynb")) == NOTEBOOK_NAMES

    started = time.monotonic()
    out = run("educatalog", "report", "--demo", "--out", "r", timeout=300)
    print(f"educatalog report --demo: {time.monotonic() - started:.1f} s")
    assert "Report written to" in out
    assert (work / "r/report.html").stat().st_size > 100_000
    assert len(list((work / "r/charts").glob("*.png"))) == 8  # the district map, the subject areas
    assert json.loads((work / "r/manifest.json").read_text())["complete"] is True

    # A copied notebook, run as a user would from the command line.
    run(
        "jupyter", "nbconvert", "--to", "notebook", "--execute", "--output-dir", "executed",
        "nb/01-quickstart.ipynb", timeout=300,
    )  # fmt: skip
    executed = nbformat.read(work / "executed/01-quickstart.ipynb", as_version=4)
    outputs = [o for c in executed.cells if c.cell_type == "code" for o in c.outputs]
    assert outputs
    assert not [o for o in outputs if o.output_type == "error"]

    assert _listing(site.parent) == package, "nothing is written into the installed package"


def _listing(folder: Path) -> dict[str, int | None]:
    """Every file (its modification time) and folder in ``folder``, bytecode caches aside."""
    return {
        str(p.relative_to(folder)): p.stat().st_mtime_ns if p.is_file() else None
        for p in folder.rglob("*")
        if "__pycache__" not in p.parts
    }
