#!/usr/bin/env bash
# Builds the release web bundle into dist/ (static files: serve dist/ from any web server).
#   scripts/build.sh [extra trunk build args]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh --no-test
# shellcheck source=scripts/env.sh
source scripts/env.sh
raftlab_wasm_fetch
raftlab_wasm trunk build --release "$@"
echo "build.sh: release bundle in $RAFTLAB_ROOT/dist/"
