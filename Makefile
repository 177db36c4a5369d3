# The two everyday commands: `make run` and `make test`. Both build .venv on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

# The old end of the supported range: Raspberry Pi OS bookworm's OpenCV and numpy (apt), as pip wheels, and the
# oldest ONNX Runtime supported.
OLDCV      := .venv-oldcv
OLDEST     := opencv-python-headless==4.6.0.66 numpy==1.24.4 onnxruntime==1.19.0
VISION_TESTS := tests/vision tests/devices/test_camera.py tests/cli/test_vision_cli.py
# The suite on every core up to 4 (pytest-xdist), one test file per process at a time: a file's module fixtures
# (a trained model, a rendered set) are then built once. It takes about 5 minutes on 2 cores, 9 on one.
PARALLEL := -n auto --maxprocesses 4 --dist loadfile

.PHONY: run test test-oldcv bench lint clean

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
	tools/ensure-system-packages.sh
	$(BIN)/python -m pytest $(PARALLEL)

$(OLDCV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(OLDCV)
	$(OLDCV)/bin/python -m pip install --quiet --upgrade pip
	$(OLDCV)/bin/python -m pip install --quiet -e '.[vision,onnxruntime,test]' $(OLDEST)
	@touch $@

test-oldcv: $(OLDCV)/.installed
	$(OLDCV)/bin/python -c 'import cv2, numpy, onnxruntime as o; print("OpenCV", cv2.__version__, "numpy", numpy.__version__, "ONNX Runtime", o.__version__)'
	$(OLDCV)/bin/python -m pytest $(PARALLEL) $(VISION_TESTS)

bench: $(STAMP)
	$(BIN)/python -m pytest -m slow
	$(BIN)/python benchmarks/run.py

lint: $(STAMP)
	$(BIN)/ruff check fantan_table tests benchmarks hardware tools
	$(BIN)/ruff format --check fantan_table tests benchmarks hardware tools
	$(BIN)/mypy

clean:
	rm -rf $(VENV) $(OLDCV) build *.egg-info .pytest_cache .hypothesis .mypy_cache .ruff_cache
