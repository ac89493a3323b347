#!/usr/bin/env bash
# Builds raftlab for the browser and serves it at http://127.0.0.1:8080/ (PORT=... to change),
# rebuilding and reloading the page when sources change. Ctrl-C stops it.
#   scripts/serve.sh          release build (what the tests run; smaller and faster in use)
#   scripts/serve.sh --dev    debug build (compiles quicker while working on the UI)
# Other arguments go to `trunk serve`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh --no-test
# shellcheck source=scripts/env.sh
source scripts/env.sh

profile=(--release)
args=()
for arg in "$@"; do
  case "$arg" in
    --dev) profile=() ;;
    *) args+=("$arg") ;;
  esac
done

raftlab_wasm_fetch
port="${PORT:-8080}"
echo "serve.sh: building, then serving at http://127.0.0.1:$port/ (first build: a few minutes)"
raftlab_wasm trunk serve "${profile[@]}" --address 127.0.0.1 --port "$port" "${args[@]}"
