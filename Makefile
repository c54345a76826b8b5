# cardgames_tutor: `make tutor` to learn, `make test` to check everything. Needs Python >= 3.10, git, make.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
PORT   ?= 8888
HOST   ?= 127.0.0.1
START  ?= tutorials/start.ipynb
# `make tutor` serves the learner's own copy of nbs/ (git ignores it): play never changes the project's notebooks.
LEARN  ?= learn
# Headless knobs: `make tutor NO_BROWSER=1 PORT=9000`; `make classroom PORT=8866`.
NO_BROWSER ?=
# Python writes its compiled modules (`__pycache__`, which git ignores): with PYTHONDONTWRITEBYTECODE set, as some shells
# and CI images set it, every server, kernel and command the tests start compiled the package again from source.
unexport PYTHONDONTWRITEBYTECODE
ROOT_FLAG = $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: install tutor test quick in-step classroom docs bench clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev,classroom]'
	@touch $@

# The server's root is the copy's top (not the start notebook's folder), so the tutorials' links to rulebooks open.
tutor: install
	$(BIN)/python tools/learner_copy.py nbs $(LEARN)
	$(BIN)/jupyter lab --ServerApp.root_dir=$(LEARN) --LabApp.default_url=/lab/tree/$(START) --ServerApp.ip=$(HOST) --ServerApp.port=$(PORT) $(if $(NO_BROWSER),--no-browser) $(ROOT_FLAG)

# Every notebook runs once: the docs build executes each (as `nbdev-test` would, two at a time) and fails on any
# notebook error; tests/test_docs.py then checks that site (stamped in _docs/.built.json) instead of building its own.
# `nbdev-test` is still there to run the notebooks alone. `make quick`: the checks a developer runs between edits
# (no notebooks, no browser or server tests, none marked slow in tests/conftest.py); `make test` runs everything.
# The tests run in two processes per core side by side (4 at least), as much of the suite waits on browsers and
# servers, and a machine busy with other work shares itself out by process (tests/shards.py: whole files, and the
# tests of files that share nothing dealt out one by one, balanced by measured weight: tests/weights.json); the docs
# build runs beside them (`--site`) and the site tests wait for it.
test: install in-step
	$(BIN)/python tests/shards.py auto --site -q --durations=25

quick: install in-step
	$(BIN)/python tests/shards.py 2 -q -m 'not browser and not slow' --durations=10

in-step: install
	$(BIN)/python tools/in_step.py cardgames_tutor "exported modules match the notebooks" $(BIN)/nbdev-export
	$(BIN)/python tools/in_step.py nbs "notebooks are clean" $(BIN)/nbdev-clean
	$(BIN)/python tools/start_page.py --check

docs: install
	$(BIN)/python tools/readme.py
	$(BIN)/python tools/docs.py --renderer $(if $(shell command -v quarto),quarto,smalldocs)

# The start page for a whole class (Solara: one process, a light session per student; see README for the figures).
# On 127.0.0.1 unless HOST is set; on a network (HOST=0.0.0.0) it prints a class code to hand out (or give CODE=...).
# PORT defaults to 8866 here (unless given). TABLES=1: a class at tables (the page opens on the form to join a table).
CLASSROOM_PORT = $(if $(filter command line environment environment override,$(origin PORT)),$(PORT),8866)
CODE ?=
TABLES ?=
classroom: install
	$(BIN)/cardgames-classroom --host $(HOST) --port $(CLASSROOM_PORT) $(if $(CODE),--code $(CODE)) $(if $(TABLES),--start tables)

bench: install
	$(BIN)/python bench/bench_engine.py
	$(BIN)/python bench/bench_panel.py
	$(BIN)/python bench/bench_classroom.py --n 10

clean:
	rm -rf _docs _proc .pytest_cache
