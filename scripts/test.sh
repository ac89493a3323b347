#!/usr/bin/env bash
# Everything CI checks, in order, stopping at the first failure:
#   setup -> cargo fmt --check -> cargo clippy (native) -> cargo test (native)
#   -> cargo clippy (wasm32, when that toolchain has clippy) -> trunk build --release (dist/)
#   -> browser e2e tests (tests/e2e/*.test.mjs, node --test, headless Chromium against dist/
#      served on 127.0.0.1).
# Logs: target/test-logs/. Screenshots: tests/e2e/screenshots/.
# Set RAFTLAB_SKIP_E2E=1 to stop after the wasm build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$PWD"
LOG_DIR="$ROOT/target/test-logs"
T_START=$SECONDS
STEP="start"
STEP_NO=0
STEP_T0=$SECONDS
DONE=()
SERVER_PID=""

step() {
  STEP="$1"
  STEP_NO=$((STEP_NO + 1))
  STEP_T0=$SECONDS
  echo
  echo "==> [$STEP_NO] $STEP"
}
ok() { DONE+=("$STEP ${1:-ok} ($((SECONDS - STEP_T0))s)"); }
fail() {
  echo >&2
  echo "test.sh: FAILED: $*" >&2
  exit 1
}
finish() {
  local rc=$?
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  if [ "$rc" != 0 ]; then
    echo >&2
    echo "test.sh: FAILED in step [$STEP_NO] '$STEP' (exit $rc) after $((SECONDS - T_START))s" >&2
    [ "${#DONE[@]}" -gt 0 ] && printf '  passed before it: %s\n' "${DONE[@]}" >&2
  fi
}
trap finish EXIT

# ------------------------------------------------------------------ setup
step "setup (scripts/setup.sh)"
bash scripts/setup.sh || fail "setup failed (see above)"
# shellcheck source=scripts/env.sh
source scripts/env.sh
mkdir -p "$LOG_DIR"
ok

# ------------------------------------------------------------------ native checks
step "cargo fmt --check"
cargo fmt --all -- --check || fail "code is not formatted: run 'cargo fmt --all'"
ok

step "cargo clippy --all-targets -- -D warnings (native)"
cargo clippy --all-targets -- -D warnings || fail "clippy (native) found problems"
ok

step "cargo test (native)"
cargo test 2>&1 | tee "$LOG_DIR/cargo-test.log" || fail "cargo test failed"
read -r CARGO_PASS CARGO_FAIL < <(awk '/^test result:/ {
    for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i }
  } END { print p + 0, f + 0 }' "$LOG_DIR/cargo-test.log")
ok "$CARGO_PASS passed"

# ------------------------------------------------------------------ wasm
step "cargo fetch (wasm32, for trunk's offline build)"
raftlab_wasm_fetch || fail "fetching the wasm32 dependencies failed"
ok

step "cargo clippy --target $RAFTLAB_WASM_TARGET -- -D warnings"
set +e
raftlab_wasm_clippy --lib --bins -- -D warnings
rc=$?
set -e
case "$rc" in
  0) ok ;;
  3) echo "(skipped: the $(raftlab_wasm_toolchain) wasm toolchain has no clippy)"; ok skipped ;;
  *) fail "clippy (wasm32) found problems" ;;
esac

step "trunk build --release (dist/)"
raftlab_wasm trunk build --release || fail "the wasm build (trunk build --release) failed"
# The page's first wasm part ships LZMA-packed (.lzma, scripts/pack-wasm.mjs).
if [ ! -f dist/index.html ] || ! ls dist/*_bg.lzma dist/*.wasm >/dev/null 2>&1; then
  fail "trunk left no dist/index.html, packed first part or .wasm"
fi
WASM_SIZE="$(du -k dist/*.wasm dist/*.lzma | awk '{s += $1} END {print s}')"
ok "wasm and packed wasm ${WASM_SIZE} KiB"

# ------------------------------------------------------------------ browser e2e
E2E_PASS=0
E2E_FAIL=0
if [ "${RAFTLAB_SKIP_E2E:-0}" = 1 ]; then
  echo
  echo "(e2e tests skipped: RAFTLAB_SKIP_E2E=1)"
else
  step "browser e2e tests (node --test tests/e2e, headless Chromium)"
  shopt -s nullglob
  E2E_FILES=(tests/e2e/*.test.mjs)
  shopt -u nullglob
  [ "${#E2E_FILES[@]}" -gt 0 ] || fail "no tests/e2e/*.test.mjs files"
  rm -f "$LOG_DIR/e2e-url"
  node tests/e2e/serve.mjs dist 0 --url-file "$LOG_DIR/e2e-url" >"$LOG_DIR/e2e-server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 100); do
    [ -s "$LOG_DIR/e2e-url" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$LOG_DIR/e2e-server.log" >&2; fail "the static server for dist/ did not start"; }
    sleep 0.1
  done
  [ -s "$LOG_DIR/e2e-url" ] || fail "the static server for dist/ did not start within 10 s"
  RAFTLAB_URL="$(cat "$LOG_DIR/e2e-url")"
  export RAFTLAB_URL
  echo "serving dist/ at $RAFTLAB_URL"
  set +e
  node --test --test-concurrency=1 \
    --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$LOG_DIR/e2e.tap" \
    "${E2E_FILES[@]}"
  rc=$?
  set -e
  E2E_PASS="$(awk '/^# pass / {print $3}' "$LOG_DIR/e2e.tap" 2>/dev/null | tail -n 1)"
  E2E_FAIL="$(awk '/^# fail / {print $3}' "$LOG_DIR/e2e.tap" 2>/dev/null | tail -n 1)"
  E2E_PASS="${E2E_PASS:-0}"
  E2E_FAIL="${E2E_FAIL:-0}"
  [ "$rc" = 0 ] || fail "browser e2e tests failed ($E2E_FAIL failed; screenshots in tests/e2e/screenshots/)"
  [ "$E2E_PASS" -gt 0 ] || fail "the browser e2e tests ran no test"
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
  ok "$E2E_PASS passed"
fi

# ------------------------------------------------------------------ summary
echo
echo "test.sh: all steps passed in $((SECONDS - T_START))s:"
printf '  %s\n' "${DONE[@]}"
echo "  tests: cargo test $CARGO_PASS passed, browser e2e $E2E_PASS passed"
echo "summary: $((CARGO_PASS + E2E_PASS)) passed, $((CARGO_FAIL + E2E_FAIL)) failed"
