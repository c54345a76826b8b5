# cardgames_tutor: `make tutor` to learn, `make test` to check everything. Needs Python >= 3.10, git, make.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
PORT   ?= 8888
HOST   ?= 127.0.0.1
START  ?= nbs/tutorials/start.ipynb
# Headless knobs: `make tutor NO_BROWSER=1 PORT=9000`; `make classroom PORT=8866`.
NO_BROWSER ?=
ROOT_FLAG = $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: install tutor test classroom docs bench clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev]'
	@touch $@

tutor: install
	$(BIN)/jupyter lab $(START) --ServerApp.ip=$(HOST) --ServerApp.port=$(PORT) $(if $(NO_BROWSER),--no-browser) $(ROOT_FLAG)

test: install
	$(BIN)/python tools/in_step.py cardgames_tutor "exported modules match the notebooks" $(BIN)/nbdev-export
	$(BIN)/python tools/in_step.py nbs "notebooks are clean" $(BIN)/nbdev-clean
	$(BIN)/nbdev-test --n-workers 2
	$(BIN)/python -m pytest -q

docs: install
	$(BIN)/python tools/readme.py
	$(BIN)/python tools/docs.py --renderer $(if $(shell command -v quarto),quarto,smalldocs)

# The start page as a standalone web app (Voilà): no code shown, one kernel per visitor.
# PORT defaults to 8866 here (unless given), on 127.0.0.1 unless HOST is set, e.g. HOST=0.0.0.0 for a classroom network.
CLASSROOM_PORT = $(if $(filter command line environment environment override,$(origin PORT)),$(PORT),8866)
classroom: install
	$(BIN)/voila $(START) --no-browser --port=$(CLASSROOM_PORT) --Voila.ip=$(HOST)

bench: install
	$(BIN)/python bench/bench_engine.py
	$(BIN)/python bench/bench_panel.py

clean:
	rm -rf _docs _proc .pytest_cache
