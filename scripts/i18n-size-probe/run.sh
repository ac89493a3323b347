#!/usr/bin/env bash
# Measures what Fluent would add to the wasm bundle compared with raftlab's message tables:
# the same catalogs (src/i18n/en.txt, zh.txt; converted to FTL for Fluent), each in a wasm32
# cdylib built like the app (opt-level z, LTO, panic=abort). Prints sizes; asserts nothing.
# Needs the wasm32-unknown-unknown target and network access to crates.io for fluent-bundle.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="${TMPDIR:-/tmp}/raftlab-i18n-size-probe"
rm -rf "$work" && mkdir -p "$work" && cp -r "$here/tables" "$here/fluent" "$work/"
cp "$here/../../src/i18n/en.txt" "$here/../../src/i18n/zh.txt" "$work/tables/src/"
for lang in en zh; do
  # key.name = text {x}  ->  key-name = text { $x }
  grep -E '^[a-z]' "$here/../../src/i18n/$lang.txt" |
    sed -E 's/^([^ ]+) = /\1\t/; :a; s/^([^\t]*)[._]/\1-/; ta; s/\t/ = /; s/\{([a-z_]+)\}/{ $\1 }/g' \
      >"$work/fluent/src/$lang.ftl"
done
for v in tables fluent; do
  (cd "$work/$v" && cargo build --release --target wasm32-unknown-unknown -q)
  f="$(ls "$work/$v"/target/wasm32-unknown-unknown/release/*.wasm)"
  echo "$v: $(stat -c%s "$f") bytes, $(gzip -9c "$f" | wc -c) gzipped"
done
for lang in en zh; do
  echo "$lang.txt: $(stat -c%s "$here/../../src/i18n/$lang.txt") bytes, $(gzip -9c "$here/../../src/i18n/$lang.txt" | wc -c) gzipped"
done
