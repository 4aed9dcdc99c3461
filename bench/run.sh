#!/usr/bin/env bash
# Hot-path benchmark: Geçit (every feature on) vs a direct call to a fast mock OpenAI upstream,
# optionally vs the LiteLLM proxy. Prints one table. Bounded: about 1 minute per target.
#
#   bench/run.sh                 # direct + Geçit
#   bench/run.sh --litellm       # + LiteLLM proxy (installed once into bench/.venv-litellm)
#   bench/run.sh --portkey       # + Portkey gateway (Node; npm-installed once into bench/.portkey)
#                                #   non-streamed rows only: its streams answer 500 "TypeError:
#                                #   immutable" on Node 20 (Portkey-AI/gateway#1389, #1550)
#   bench/run.sh --minimal       # + a minimal proxy on the same server parts, no features
#   bench/run.sh --committed     # measure the committed HEAD, not a working tree in flux
#   bench/run.sh --seconds 1 --open-seconds 2 --streams 40    # a quick smoke run
#
# To judge a change on the request path, compare the two commits side by side instead:
#   .venv/bin/python bench/ab.py BASE HEAD   # CPU/request and req/s in alternating rounds
# (two runs of this script minutes apart differ by more than most changes on a shared machine).
#
# Needs: the project venv (.venv, `make install`), wrk (Debian: apt-get install -y wrk; done
# here when running as root), taskset (util-linux). Only 127.0.0.1 is ever contacted.
# Run it on a quiet machine: the load average is printed under the table.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}

if [ ! -x "$PY" ]; then
  echo "bench: $PY not found; run 'make install' first (or set PYTHON=...)" >&2; exit 2
fi
if ! command -v wrk >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "bench: installing wrk (apt-get install -y wrk)" >&2
    apt-get update -qq >/dev/null && apt-get install -y -qq wrk >/dev/null
  else
    echo "bench: wrk is missing; install it: sudo apt-get install -y wrk" >&2; exit 2
  fi
fi
command -v taskset >/dev/null 2>&1 || echo "bench: taskset missing (util-linux): nothing pinned" >&2

for arg in "$@"; do
  if [ "$arg" = "--litellm" ]; then
    VENV=bench/.venv-litellm
    if [ ! -x "$VENV/bin/litellm" ]; then
      echo "bench: installing the LiteLLM proxy into $VENV (pip install 'litellm[proxy]')" >&2
      python3 -m venv "$VENV"
      "$VENV/bin/pip" install --quiet 'litellm[proxy]'
    fi
  fi
done

for arg in "$@"; do
  if [ "$arg" = "--portkey" ]; then
    DIR=bench/.portkey
    if [ ! -f "$DIR/node_modules/@portkey-ai/gateway/build/start-server.js" ]; then
      command -v npm >/dev/null 2>&1 || { echo "bench: --portkey needs node and npm" >&2; exit 2; }
      echo "bench: installing the Portkey gateway into $DIR (npm install @portkey-ai/gateway)" >&2
      mkdir -p "$DIR"
      (cd "$DIR" && npm install --silent --no-audit --no-fund @portkey-ai/gateway@1.15.2)
    fi
  fi
done

# --committed: measure the committed HEAD (exported to a temp dir), not the working tree
ARGS=()
TREE=""
for arg in "$@"; do
  if [ "$arg" = "--committed" ]; then
    TREE=$(mktemp -d /tmp/gecit-bench-tree.XXXXXX)
    trap 'rm -rf "$TREE"' EXIT
    git archive HEAD gateway | tar -x -C "$TREE"
    "$PY" -m compileall -q "$TREE" >/dev/null  # as an installed tree would be: no compile at start
    ARGS+=(--tree "$TREE")
    export BENCH_TREE_LABEL="commit $(git rev-parse --short HEAD) (git archive HEAD)"
  else
    ARGS+=("$arg")
  fi
done
set -- "${ARGS[@]}"

echo "bench: load average now: $(cut -d' ' -f1-3 /proc/loadavg) (figures are only meaningful below ~1.0)" >&2
"$PY" bench/harness.py "$@"
