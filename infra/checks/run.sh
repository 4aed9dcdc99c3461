#!/usr/bin/env bash
# Offline deployment checks for CI: infra/checks/run.sh  (exit status != 0 on any failure)
#
#   1. terraform fmt -check -recursive terraform/   (fallback: infra/checks/tf_fmt_check.py)
#   2. checkov --skip-download on terraform/ and on infra/ (Dockerfile, Kubernetes), in its own
#      virtualenv (infra/checks/.venv-checkov) because it pins its own HCL parser
#   3. docker compose config (the compose v2 plugin if present, else Debian's docker-compose)
#      on infra/compose.yaml, with and without the gpu profile, and a negative run that must fail
#      when a required password is missing
#   4. pytest tests/infra (HCL property rules, compose-spec schema, Kubernetes strict schemas,
#      Dockerfile shape) in the project venv
#
# Installs what it needs from PyPI / Debian on a fresh machine. Set GECIT_CHECKS_SKIP_INSTALL=1
# to forbid installs (then a missing tool is a failure).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
CHECKOV_VERSION="3.3.30"
CHECKOV_VENV="$ROOT/infra/checks/.venv-checkov"
PY="${GECIT_PYTHON:-$ROOT/.venv/bin/python}"
FAILED=()

step() { printf '\n=== %s\n' "$*"; }
fail() { echo "FAILED: $*"; FAILED+=("$*"); }
can_install() { [ "${GECIT_CHECKS_SKIP_INSTALL:-0}" != "1" ]; }

# --- 0. project venv with the dev extra (python-hcl2, kubernetes-validate, compose-spec, pytest)
if [ ! -x "$PY" ]; then
  if can_install; then
    python3 -m venv "$ROOT/.venv" && PY="$ROOT/.venv/bin/python"
  fi
fi
if ! "$PY" -c 'import hcl2, kubernetes_validate, compose_spec, pytest, yaml' 2>/dev/null; then
  if can_install; then
    "$PY" -m pip install -q -e "$ROOT[dev]" || fail "pip install -e .[dev]"
  else
    fail "project venv lacks the dev extra"
  fi
fi

# --- 1. terraform fmt -------------------------------------------------------------------------
step "terraform fmt -check -recursive terraform/"
if command -v terraform >/dev/null 2>&1; then
  # TF_CLI_CONFIG_FILE may point at a missing file; fmt needs no CLI configuration.
  if env -u TF_CLI_CONFIG_FILE terraform fmt -check -recursive -diff terraform; then
    echo "ok ($(env -u TF_CLI_CONFIG_FILE terraform version | head -1))"
  else
    fail "terraform fmt"
  fi
else
  echo "terraform is not installed and no registry reachable here ships it:"
  echo "running the fallback layout checker infra/checks/tf_fmt_check.py instead"
  "$PY" infra/checks/tf_fmt_check.py terraform && echo ok || fail "tf_fmt_check.py"
fi

# --- 2. checkov -----------------------------------------------------------------------------
step "checkov $CHECKOV_VERSION (own venv: $CHECKOV_VENV)"
if [ ! -x "$CHECKOV_VENV/bin/checkov" ] || ! "$CHECKOV_VENV/bin/checkov" --version 2>/dev/null | grep -qx "$CHECKOV_VERSION"; then
  if can_install; then
    python3 -m venv "$CHECKOV_VENV" && "$CHECKOV_VENV/bin/pip" install -q "checkov==$CHECKOV_VERSION" \
      || fail "install checkov"
  fi
fi
if [ -x "$CHECKOV_VENV/bin/checkov" ]; then
  # timeout: checkov's parallel runner has been seen to hang after an internal error.
  timeout 600 "$CHECKOV_VENV/bin/checkov" -d terraform --framework terraform --skip-download \
    --compact --quiet -o cli || fail "checkov terraform"
  timeout 600 "$CHECKOV_VENV/bin/checkov" -d infra --framework dockerfile kubernetes --skip-download \
    --skip-path checks --compact --quiet -o cli || fail "checkov dockerfile/kubernetes"
else
  fail "checkov not available"
fi

# --- 3. compose config ----------------------------------------------------------------------
step "compose config infra/compose.yaml"
COMPOSE=()
if docker compose version >/dev/null 2>&1; then
  COMPOSE=(docker compose)
elif command -v docker-compose >/dev/null 2>&1; then
  COMPOSE=(docker-compose)
elif can_install && command -v apt-get >/dev/null 2>&1; then
  echo "no compose plugin for the docker CLI: installing Debian's docker-compose"
  (apt-get install -y -qq docker-compose >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq docker-compose >/dev/null; }) \
    && COMPOSE=(docker-compose)
fi
if [ ${#COMPOSE[@]} -gt 0 ]; then
  echo "using: ${COMPOSE[*]} ($("${COMPOSE[@]}" version --short 2>/dev/null || true))"
  ENVF=infra/checks/compose.env
  "${COMPOSE[@]}" --env-file "$ENVF" -p gecit -f infra/compose.yaml config -q \
    && "${COMPOSE[@]}" --env-file "$ENVF" -p gecit -f infra/compose.yaml --profile gpu config -q \
    && echo ok || fail "compose config"
  # Negative: without the passwords compose must refuse the file.
  if "${COMPOSE[@]}" --env-file /dev/null -p gecit -f infra/compose.yaml config -q >/dev/null 2>&1; then
    fail "compose config accepted the file without POSTGRES_PASSWORD etc."
  else
    echo "ok: refused without the required passwords"
  fi
else
  fail "no compose implementation (docker compose plugin or docker-compose) available"
fi

# --- 4. pytest ------------------------------------------------------------------------------
step "pytest tests/infra"
"$PY" -m pytest -q -p no:cacheprovider tests/infra || fail "pytest tests/infra"

echo
if [ ${#FAILED[@]} -gt 0 ]; then
  printf 'infra checks FAILED: %s\n' "${FAILED[@]}"
  exit 1
fi
echo "infra checks passed"
