#!/usr/bin/env bash
# Installs what building, serving and testing raftlab needs, and only what is missing or of
# the wrong version: a second run takes seconds.
#
#   scripts/setup.sh              everything (wasm toolchain, wasm-bindgen, trunk, wasm-opt, test deps)
#   scripts/setup.sh --no-test    skip the e2e test deps (chromium, fonts-noto-cjk, npm packages)
#
# wasm32 std: rustup's target if installed, else `rustup target add` (30 s limit), else Debian's
# rustc-web toolchain (apt) building std from source. With rustup, also the rust-src component
# if it can be had (optional: the bundle is then built lean). See scripts/env.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/env.sh
source scripts/env.sh

WANT_TEST_DEPS=1
for arg in "$@"; do
  case "$arg" in
    --no-test) WANT_TEST_DEPS=0 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown argument: $arg" >&2; exit 2 ;;
  esac
done

say() { echo "setup: $*"; }
die() { echo "setup: ERROR: $*" >&2; exit 1; }
T0=$SECONDS

# ---------------------------------------------------------------- apt helpers
APT_UPDATED=0
as_root() {
  if [ "$(id -u)" = 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo "$@"
  else
    die "need root to run: $*
       Run it yourself (e.g. with sudo), then run scripts/setup.sh again."
  fi
}
apt_update() {
  [ "$APT_UPDATED" = 1 ] && return 0
  say "apt-get update"
  as_root apt-get update -qq >/dev/null || die "apt-get update failed"
  APT_UPDATED=1
}
# apt_install PKG...: installs with one update first if a package is unknown, or if the
# install fails on possibly stale lists.
apt_install() {
  command -v apt-get >/dev/null 2>&1 ||
    die "these packages are missing and there is no apt-get to install them: $*"
  local p cand need_update=0
  for p in "$@"; do
    # (awk reads all: `grep -q` would close the pipe early and pipefail would call that a miss)
    cand="$(apt-cache policy "$p" 2>/dev/null | awk '/Candidate:/ {print $2}')"
    if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then need_update=1; fi
  done
  [ "$need_update" = 1 ] && apt_update
  say "apt-get install $*"
  if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/tmp/raftlab-apt.log 2>&1; then
    if [ "$APT_UPDATED" = 0 ]; then
      apt_update
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/tmp/raftlab-apt.log 2>&1 ||
        { tail -n 20 /tmp/raftlab-apt.log >&2; die "apt-get install $* failed (log: /tmp/raftlab-apt.log)"; }
    else
      tail -n 20 /tmp/raftlab-apt.log >&2
      die "apt-get install $* failed (log: /tmp/raftlab-apt.log)"
    fi
  fi
}
pkg_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep 'install ok installed' >/dev/null; }

# ---------------------------------------------------------------- (a) wasm32 toolchain
command -v cargo >/dev/null 2>&1 ||
  die "no cargo on PATH: install Rust (rustup) first; then run scripts/setup.sh again"

install_debian_toolchain() {
  apt_install rustc-web cargo-web rust-web-src rust-web-llvm rust-web-clippy
  # /usr/bin/rust-lld points into one lld-NN package (lld-22 for rustc-web 1.96).
  if ! /usr/bin/rust-lld -flavor wasm --version >/dev/null 2>&1; then
    local lld_target lld_pkg
    lld_target="$(readlink -f /usr/bin/rust-lld || true)"      # /usr/lib/llvm-22/bin/lld
    lld_pkg="lld-$(echo "$lld_target" | sed -n 's#.*/llvm-\([0-9][0-9]*\)/.*#\1#p')"
    [ "$lld_pkg" = lld- ] && lld_pkg=lld-22
    apt_install "$lld_pkg"
  fi
  raftlab_debian_has_wasm || die "Debian's toolchain is installed but cannot target $RAFTLAB_WASM_TARGET"
}
try_rustup_target() {
  command -v rustup >/dev/null 2>&1 || return 1
  local limit="${RAFTLAB_RUSTUP_TIMEOUT:-30}"
  say "trying: rustup target add $RAFTLAB_WASM_TARGET (${limit} s limit)"
  timeout "$limit" rustup target add "$RAFTLAB_WASM_TARGET" >/tmp/raftlab-rustup.log 2>&1 &&
    raftlab_rustup_has_wasm
}

TOOLCHAIN="$(raftlab_wasm_toolchain)"
case "$TOOLCHAIN" in
  rustup)
    raftlab_rustup_has_wasm || try_rustup_target ||
      die "RAFTLAB_WASM_TOOLCHAIN=rustup, but rustup cannot add $RAFTLAB_WASM_TARGET (log: /tmp/raftlab-rustup.log)"
    ;;
  debian)
    raftlab_debian_has_wasm || install_debian_toolchain
    ;;
  none)
    if try_rustup_target; then
      TOOLCHAIN=rustup
    else
      say "no wasm32 std from rustup; falling back to Debian's rustc-web toolchain (std built from source)"
      install_debian_toolchain
      TOOLCHAIN=debian
    fi
    ;;
  *) die "RAFTLAB_WASM_TOOLCHAIN must be rustup or debian, not $TOOLCHAIN" ;;
esac
if [ "$TOOLCHAIN" = rustup ] && ! raftlab_rustup_has_src; then
  # Optional: with std's sources the bundle is built lean (scripts/env.sh, raftlab_wasm).
  say "trying: rustup component add rust-src (${RAFTLAB_RUSTUP_TIMEOUT:-60} s limit; optional, for a smaller bundle)"
  timeout "${RAFTLAB_RUSTUP_TIMEOUT:-60}" rustup component add rust-src >/tmp/raftlab-rustup-src.log 2>&1 ||
    say "no rust-src (log: /tmp/raftlab-rustup-src.log): the bundle is built without it, about 21 KB gzipped larger"
fi
if [ "$TOOLCHAIN" = debian ]; then
  # clippy for the wasm target (optional; test.sh skips that check without it)
  if [ ! -x /usr/bin/cargo-clippy ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    (apt_install rust-web-clippy) || say "no clippy for the wasm target (optional)"
  fi
  mkdir -p "$RAFTLAB_TOOLBIN"
  for t in cargo rustc rustdoc cargo-clippy clippy-driver; do
    if [ -x "/usr/bin/$t" ] && [ "$(readlink "$RAFTLAB_TOOLBIN/$t" 2>/dev/null)" != "/usr/bin/$t" ]; then
      ln -sfn "/usr/bin/$t" "$RAFTLAB_TOOLBIN/$t"
    fi
  done
fi
say "wasm32 toolchain: $TOOLCHAIN ($(raftlab_wasm rustc --version))"

# ---------------------------------------------------------------- (b) wasm-bindgen-cli
# Must equal the wasm-bindgen crate in Cargo.lock exactly, or trunk tries to download one.
have_version() { "$1" --version 2>/dev/null | awk '{print $2}'; }
if [ "$(have_version wasm-bindgen)" != "$RAFTLAB_WASM_BINDGEN_VERSION" ]; then
  say "cargo install wasm-bindgen-cli $RAFTLAB_WASM_BINDGEN_VERSION (about 6 min on 2 cores)"
  # no --locked: one locked dependency of 0.2.130 is missing from the registry
  cargo install wasm-bindgen-cli --version "$RAFTLAB_WASM_BINDGEN_VERSION" \
    >/tmp/raftlab-wasm-bindgen-install.log 2>&1 ||
    { tail -n 30 /tmp/raftlab-wasm-bindgen-install.log >&2; die "installing wasm-bindgen-cli failed"; }
fi
[ "$(have_version wasm-bindgen)" = "$RAFTLAB_WASM_BINDGEN_VERSION" ] ||
  die "wasm-bindgen on PATH is $(command -v wasm-bindgen || echo missing), not $RAFTLAB_WASM_BINDGEN_VERSION"

# ---------------------------------------------------------------- (c) trunk
if [ "$(have_version trunk)" != "$RAFTLAB_TRUNK_VERSION" ]; then
  say "cargo install trunk $RAFTLAB_TRUNK_VERSION --locked (about 18 min on 2 cores)"
  cargo install trunk --version "$RAFTLAB_TRUNK_VERSION" --locked \
    >/tmp/raftlab-trunk-install.log 2>&1 ||
    { tail -n 30 /tmp/raftlab-trunk-install.log >&2; die "installing trunk failed"; }
fi
[ "$(have_version trunk)" = "$RAFTLAB_TRUNK_VERSION" ] ||
  die "trunk on PATH is $(command -v trunk || echo missing), not $RAFTLAB_TRUNK_VERSION"

# ---------------------------------------------------------------- (d) wasm-opt (binaryen)
# npm's binaryen package ships wasm-opt compiled to wasm, run by node: no prebuilt binary to
# download, and the same on every machine. trunk runs it on release builds (index.html
# data-wasm-opt, Trunk.toml [tools] wasm_opt pins the version).
binaryen_major="${RAFTLAB_BINARYEN_VERSION%%.*}"
if [ "$(wasm-opt --version 2>/dev/null | awk '{print $3}')" != "$binaryen_major" ]; then
  command -v npm >/dev/null 2>&1 || apt_install nodejs npm
  say "npm install binaryen@$RAFTLAB_BINARYEN_VERSION (wasm-opt) into $RAFTLAB_TOOLS"
  mkdir -p "$RAFTLAB_TOOLS"
  npm install --prefix "$RAFTLAB_TOOLS/binaryen-$RAFTLAB_BINARYEN_VERSION" --no-audit --no-fund \
    "binaryen@$RAFTLAB_BINARYEN_VERSION" >/tmp/raftlab-binaryen.log 2>&1 ||
    { tail -n 30 /tmp/raftlab-binaryen.log >&2; die "npm install binaryen failed (log: /tmp/raftlab-binaryen.log)"; }
fi
[ "$(wasm-opt --version 2>/dev/null | awk '{print $3}')" = "$binaryen_major" ] ||
  die "wasm-opt on PATH is $(command -v wasm-opt || echo missing), not binaryen $binaryen_major"

# ---------------------------------------------------------------- (d2) terser
# Minifies the JS glue of release builds (Trunk.toml's post_build hook runs
# scripts/minify-glue.mjs, which loads it from here).
terser_dir="$RAFTLAB_TOOLS/terser-$RAFTLAB_TERSER_VERSION"
if [ "$(node -p "require('$terser_dir/node_modules/terser/package.json').version" 2>/dev/null)" != "$RAFTLAB_TERSER_VERSION" ]; then
  command -v npm >/dev/null 2>&1 || apt_install nodejs npm
  say "npm install terser@$RAFTLAB_TERSER_VERSION (JS glue minifier) into $RAFTLAB_TOOLS"
  mkdir -p "$RAFTLAB_TOOLS"
  npm install --prefix "$terser_dir" --no-audit --no-fund "terser@$RAFTLAB_TERSER_VERSION" \
    >/tmp/raftlab-terser.log 2>&1 ||
    { tail -n 30 /tmp/raftlab-terser.log >&2; die "npm install terser failed (log: /tmp/raftlab-terser.log)"; }
fi

# ---------------------------------------------------------------- (d3) xz
# Packs the page's wasm with LZMA in release builds (scripts/pack-wasm.mjs); Debian's xz-utils,
# present on most machines (priority standard).
command -v xz >/dev/null 2>&1 || apt_install xz-utils
command -v xz >/dev/null 2>&1 || die "no xz on PATH after installing xz-utils"

# ---------------------------------------------------------------- (e) e2e test deps
if [ "$WANT_TEST_DEPS" = 1 ]; then
  apt_pkgs=()
  [ -x "$RAFTLAB_CHROMIUM" ] || apt_pkgs+=(chromium)
  # Chinese screenshots need a CJK font; the app itself loads none (system font stack).
  pkg_installed fonts-noto-cjk || apt_pkgs+=(fonts-noto-cjk)
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    pkg_installed nodejs || apt_pkgs+=(nodejs)
    pkg_installed npm || apt_pkgs+=(npm)
  fi
  [ "${#apt_pkgs[@]}" -gt 0 ] && apt_install "${apt_pkgs[@]}"
  [ -x "$RAFTLAB_CHROMIUM" ] || die "no browser at $RAFTLAB_CHROMIUM (set RAFTLAB_CHROMIUM to a Chromium binary)"
  node_major="$(node -p 'process.versions.node.split(".")[0]')"
  [ "$node_major" -ge 20 ] || die "node $node_major is too old: the e2e tests (playwright-core) need node >= 20"

  # playwright-core (no browser download, ever) and axe-core, versions pinned in
  # package-lock.json: `npm ci` when any dependency is missing or of another version.
  stale_deps="$(cd tests/e2e && node -e '
    const deps = require("./package.json").dependencies || {};
    const stale = Object.entries(deps).filter(([name, want]) => {
      try { return require("./node_modules/" + name + "/package.json").version !== want; }
      catch (e) { return true; }
    }).map(([name, want]) => name + "@" + want);
    process.stdout.write(stale.join(" "));')"
  if [ -n "$stale_deps" ]; then
    say "npm ci in tests/e2e ($stale_deps)"
    (cd tests/e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund >/tmp/raftlab-npm.log 2>&1) ||
      { tail -n 30 /tmp/raftlab-npm.log >&2; die "npm ci in tests/e2e failed (log: /tmp/raftlab-npm.log)"; }
  fi
fi

say "ready in $((SECONDS - T0)) s (wasm toolchain $TOOLCHAIN, wasm-bindgen $RAFTLAB_WASM_BINDGEN_VERSION, trunk $RAFTLAB_TRUNK_VERSION, wasm-opt $binaryen_major)"
