# The two everyday commands: `make run` and `make test`. Both build .venv on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test bench lint clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "fantan-table needs Python 3.11 or newer; set PYTHON=python3.11 (or newer)"; exit 1; }
	@$(PYTHON) -m venv $(VENV) || \
	  { echo "could not create $(VENV): on Debian or Raspberry Pi OS run 'sudo apt install python3-venv'"; rm -rf $(VENV); exit 1; }

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

run: $(STAMP)
	$(BIN)/fantan-table run

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

lint: $(STAMP)
	$(BIN)/ruff check fantan_table tests benchmarks hardware
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis .mypy_cache .ruff_cache
