# Geçit: two commands work on a fresh machine (Python >= 3.11 with venv, a C/C++ compiler):
#   make serve   -> creates .venv, installs gecit with the bundled local model, runs `gateway serve`
#                   (its flags in ARGS: make serve ARGS="--port 9000")
#   make test    -> installs the dev tools too, runs ruff, the import contracts (lint-imports),
#                   mypy and the whole test suite
#   make coverage -> line coverage of service/ and usage/ with a floor for each
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# llama-cpp-python compiles llama.cpp from source (once; pip caches the wheel): use both cores
export CMAKE_BUILD_PARALLEL_LEVEL ?= 2
# ...for any x86-64 CPU of the last decade, never for the build host alone: llama.cpp's default
# (a native build: the build host's own instruction set) picks up AVX-512/AMX where the build host has them, and an
# engine built so dies with SIGILL/SIGSEGV on a CPU (or a VM) that lacks or traps them. AVX2 + FMA
# + F16C is Haswell (2013) and later. Override LLAMA_CMAKE_ARGS for an older or a specific CPU.
LLAMA_CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF
export CMAKE_ARGS := $(LLAMA_CMAKE_ARGS) $(CMAKE_ARGS)

.PHONY: serve test install install-dev lint typecheck pytest coverage classifier vendor-editor clean

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

# flags of `gateway serve` go in ARGS: make serve ARGS="--port 9000 --policy policies/bank.yaml"
serve: install
	$(BIN)/gateway serve $(ARGS)

lint: install-dev
	$(BIN)/ruff check gateway tests bench
	$(BIN)/ruff format --check gateway tests bench
	$(BIN)/lint-imports

typecheck: install-dev
	$(BIN)/mypy gateway

# pytest exits 5 when it collected nothing: make that a loud failure, never a silent pass
pytest: install-dev
	@$(BIN)/pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests" >&2; exit 1; fi; \
	exit $$rc

test: lint typecheck pytest

# line coverage of service/ and usage/ over the unit and API tests, each held to its floor;
# a target of its own, not part of `make test`: tracing every line slows the whole suite.
# Measured over tests/unit/{service,usage,reports} and tests/api: service 86.5 %, usage 82.5 %
COVERAGE_TESTS ?= tests/unit tests/api
COVERAGE_FLOOR_SERVICE ?= 85
COVERAGE_FLOOR_USAGE ?= 80
coverage: install-dev
	$(BIN)/coverage erase
	$(BIN)/pytest -q -p no:cacheprovider $(COVERAGE_TESTS) --cov=gateway.service --cov=gateway.usage --cov-report=
	$(BIN)/coverage report --include='gateway/service/*' --fail-under=$(COVERAGE_FLOOR_SERVICE)
	$(BIN)/coverage report --include='gateway/usage/*' --fail-under=$(COVERAGE_FLOOR_USAGE)

# rebuild the special-category second stage's model from gateway/sensitivity/training/, the
# wording net from the development records, then the language-model judge's head on top of the
# first (needs the `local` extra; ~10 min on one core)
classifier: install
	$(BIN)/python -m gateway.sensitivity.train
	$(BIN)/python -m gateway.sensitivity.train_wording
	$(BIN)/python -m gateway.sensitivity.train_judge

# vendor the policy editor (CodeMirror, pinned version and tarball hash) from npm into the package
vendor-editor:
	sh scripts/vendor-codemirror.sh

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .coverage htmlcov
