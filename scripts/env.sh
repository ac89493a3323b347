# shellcheck shell=bash
# Sourced by the other scripts (and by hand: `source scripts/env.sh`). Installs nothing.
#
# Native commands (cargo fmt/clippy/test) keep using whatever `cargo` is on PATH (rustup's).
# The wasm32 build runs through `raftlab_wasm CMD...`, which adds the environment of the chosen
# wasm toolchain for that one command only:
#   rustup  - `rustup target list --installed` has wasm32-unknown-unknown: nothing special.
#   debian  - Debian's rustc-web/cargo-web 1.x at /usr/bin, std for wasm32 built from
#             rust-web-src by cargo itself (RUSTC_BOOTSTRAP=1 + -Zbuild-std), via the links in
#             target/toolbin put first on PATH (trunk calls plain `cargo`).
# Override the choice with RAFTLAB_WASM_TOOLCHAIN=rustup|debian.
# wasm builds use their own target dir per toolchain (target/wasm-rustup, target/wasm-debian),
# apart from the native target/, so no two toolchains invalidate each other's fingerprints.

RAFTLAB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export RAFTLAB_ROOT
export RAFTLAB_WASM_TARGET=wasm32-unknown-unknown
export RAFTLAB_WASM_BINDGEN_VERSION=0.2.130
export RAFTLAB_TRUNK_VERSION=0.21.14
# wasm-opt for release bundles: npm's `binaryen` package (a wasm build of binaryen run by node),
# installed by setup.sh into $RAFTLAB_TOOLS and pinned in Trunk.toml ([tools] wasm_opt).
export RAFTLAB_BINARYEN_VERSION=132.0.0
export RAFTLAB_TOOLS="${RAFTLAB_TOOLS:-$HOME/.cache/raftlab-tools}"
# terser minifies the JS glue of release builds (scripts/minify-glue.mjs, Trunk.toml's hook);
# npm's package, installed by setup.sh into $RAFTLAB_TOOLS.
export RAFTLAB_TERSER_VERSION=5.51.2
export RAFTLAB_BINARYEN_BIN="$RAFTLAB_TOOLS/binaryen-$RAFTLAB_BINARYEN_VERSION/node_modules/.bin"
export RAFTLAB_TOOLBIN="$RAFTLAB_ROOT/target/toolbin"
# Trunk: never ask the network about a newer trunk (takes true/false, not 1).
export TRUNK_SKIP_VERSION_CHECK=true
# The e2e tests' browser; Debian's chromium by default.
export RAFTLAB_CHROMIUM="${RAFTLAB_CHROMIUM:-/usr/bin/chromium}"

# cargo-installed tools (trunk, wasm-bindgen) live here.
export CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
case ":$PATH:" in
  *":$CARGO_HOME/bin:"*) ;;
  *) export PATH="$CARGO_HOME/bin:$PATH" ;;
esac
# trunk finds wasm-opt on PATH (it never downloads one: offline = true in Trunk.toml).
case ":$PATH:" in
  *":$RAFTLAB_BINARYEN_BIN:"*) ;;
  *) export PATH="$RAFTLAB_BINARYEN_BIN:$PATH" ;;
esac

# Does rustup have the wasm32 std installed for the active toolchain?
raftlab_rustup_has_wasm() {
  command -v rustup >/dev/null 2>&1 &&
    rustup target list --installed 2>/dev/null | grep -x "$RAFTLAB_WASM_TARGET" >/dev/null
}

# Is Debian's toolchain complete enough to build wasm32 with build-std?
raftlab_debian_has_wasm() {
  [ -x /usr/bin/cargo ] && [ -x /usr/bin/rustc ] &&
    [ -d /usr/lib/rustlib/src/rust/library/std ] &&
    /usr/bin/rust-lld -flavor wasm --version >/dev/null 2>&1 &&
    /usr/bin/rustc --print target-list 2>/dev/null | grep -x "$RAFTLAB_WASM_TARGET" >/dev/null
}

# Does rustup's active toolchain have the standard library's sources (component rust-src)?
# With them the wasm build compiles std itself, for size (see raftlab_wasm).
raftlab_rustup_has_src() {
  command -v rustc >/dev/null 2>&1 &&
    [ -d "$(rustc --print sysroot 2>/dev/null)/lib/rustlib/src/rust/library/std" ]
}

# Prints rustup, debian or none.
raftlab_wasm_toolchain() {
  if [ -n "${RAFTLAB_WASM_TOOLCHAIN:-}" ]; then
    echo "$RAFTLAB_WASM_TOOLCHAIN"
  elif raftlab_rustup_has_wasm; then
    echo rustup
  elif raftlab_debian_has_wasm; then
    echo debian
  else
    echo none
  fi
}

# Runs one command with the wasm build environment, e.g. `raftlab_wasm trunk build --release`.
raftlab_wasm() {
  local tc
  tc="$(raftlab_wasm_toolchain)"
  case "$tc" in
    rustup)
      if [ "${RAFTLAB_WASM_LEAN:-1}" = 1 ] && raftlab_rustup_has_src; then
        # The lean bundle: std compiled with the crate (at the web profile's opt-level z, with
        # LTO), and a panic is an immediate trap, with no formatting machinery or message
        # strings in the wasm: about 21 KB gzipped less. A trap still shows the page's error box
        # (index.html's error handler); only the panic's message is gone. RUSTC_BOOTSTRAP lets
        # stable cargo take these two unstable options (the Debian path below relies on it too).
        # Without rust-src (or with RAFTLAB_WASM_LEAN=0) the build is the plain one.
        RUSTC_BOOTSTRAP=1 \
          CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
          CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort" \
          CARGO_TARGET_DIR="$RAFTLAB_ROOT/target/wasm-rustup-lean" "$@"
      else
        CARGO_TARGET_DIR="$RAFTLAB_ROOT/target/wasm-rustup" "$@"
      fi
      ;;
    debian)
      PATH="$RAFTLAB_TOOLBIN:$PATH" \
        CARGO="$RAFTLAB_TOOLBIN/cargo" \
        RUSTC="$RAFTLAB_TOOLBIN/rustc" \
        RUSTDOC="$RAFTLAB_TOOLBIN/rustdoc" \
        RUSTC_BOOTSTRAP=1 \
        CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
        CARGO_TARGET_DIR="$RAFTLAB_ROOT/target/wasm-debian" \
        "$@"
      ;;
    *)
      echo "raftlab: no wasm32 toolchain found; run scripts/setup.sh first" >&2
      return 1
      ;;
  esac
}

# `cargo clippy` for the wasm32 target, or exit 3 if this toolchain has no clippy.
raftlab_wasm_clippy() {
  case "$(raftlab_wasm_toolchain)" in
    rustup)
      cargo clippy --version >/dev/null 2>&1 || return 3
      # Lints do not depend on how std was built: check against rustup's prebuilt std.
      RAFTLAB_WASM_LEAN=0 raftlab_wasm cargo clippy --target "$RAFTLAB_WASM_TARGET" "$@"
      ;;
    debian)
      # Called directly: `cargo clippy` would find rustup's cargo-clippy in $CARGO_HOME/bin first.
      [ -x /usr/bin/cargo-clippy ] && [ -x /usr/bin/clippy-driver ] || return 3
      raftlab_wasm /usr/bin/cargo-clippy clippy --target "$RAFTLAB_WASM_TARGET" "$@"
      ;;
    *) return 1 ;;
  esac
}

# Fetches every crate the wasm build needs (trunk builds with `cargo --offline`), and checks
# that Cargo.lock's wasm-bindgen matches the installed CLI (else trunk would want to download).
raftlab_wasm_fetch() {
  raftlab_wasm cargo fetch --target "$RAFTLAB_WASM_TARGET" --manifest-path "$RAFTLAB_ROOT/Cargo.toml" ||
    { echo "raftlab: cargo fetch for $RAFTLAB_WASM_TARGET failed" >&2; return 1; }
  local lock_ver
  lock_ver="$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/"/, "", $3); print $3; exit }' \
    "$RAFTLAB_ROOT/Cargo.lock")"
  if [ -n "$lock_ver" ] && [ "$lock_ver" != "$RAFTLAB_WASM_BINDGEN_VERSION" ]; then
    echo "raftlab: Cargo.lock has wasm-bindgen $lock_ver but the CLI is $RAFTLAB_WASM_BINDGEN_VERSION;" \
      "pin wasm-bindgen = \"=$RAFTLAB_WASM_BINDGEN_VERSION\" in Cargo.toml (or change both)" >&2
    return 1
  fi
}
