//! Writes `$OUT_DIR/en_keys.rs`: every key of `src/i18n/en.txt`, sorted as the English
//! catalog sorts them at run time, so `tr!` can turn a key into its position in that catalog
//! at compile time (`i18n::key_index`). The key strings then stay out of the binary's data:
//! the browser bundle carries each key once, inside en.txt, and not again at every `tr!`.
//!
//! The parsing rules are `i18n::Catalog::parse`'s (a test compares the two); a line this
//! script cannot read is left to that parser, whose tests name it.

use std::fmt::Write as _;

fn main() {
    let path = "../src/i18n/en.txt";
    println!("cargo:rerun-if-changed={FIRST_LIST}");
    println!("cargo:rerun-if-changed={path}");
    println!("cargo:rerun-if-changed=build.rs");
    let text = std::fs::read_to_string(path).expect("src/i18n/en.txt is readable");
    let mut keys: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(" = ").map(|(k, _)| k.trim()))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let mut out = String::new();
    writeln!(
        out,
        "/// Every key of en.txt, sorted (written by build.rs)."
    )
    .unwrap();
    // A const, not a static: only compile-time code reads it, so no copy lands in the binary
    // (clippy's large_const_arrays worries about copies at run-time uses).
    writeln!(out, "#[allow(clippy::large_const_arrays)]").unwrap();
    writeln!(out, "pub(crate) const EN_KEYS: [&str; {}] = [", keys.len()).unwrap();
    for k in &keys {
        writeln!(out, "    {k:?},").unwrap();
    }
    writeln!(out, "];").unwrap();
    first_visit_bits(&keys, &mut out);
    let dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(format!("{dir}/en_keys.rs"), out).expect("OUT_DIR is writable");
}

/// The list of the keys a first visit reads (see its header).
const FIRST_LIST: &str = "../scripts/catalog-first.txt";

/// Appends `FIRST_BITS`: bit `i` is set when the key at position `i` of the sorted `keys` is
/// in [`FIRST_LIST`], that is, when the browser build finds its text in a catalog's first
/// part (`i18n::parts`). A listed key en.txt lacks is skipped: the list may lag behind.
fn first_visit_bits(keys: &[&str], out: &mut String) {
    let list = std::fs::read_to_string(FIRST_LIST).expect("scripts/catalog-first.txt is readable");
    let listed: std::collections::BTreeSet<&str> = list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let mut bits = vec![0u64; keys.len().div_ceil(64)];
    for (i, k) in keys.iter().enumerate() {
        if listed.contains(k) {
            bits[i / 64] |= 1 << (i % 64);
        }
    }
    writeln!(
        out,
        "/// Which keys (by position) a catalog's first part holds (written by build.rs)."
    )
    .unwrap();
    // Only the browser build reads it (and the tests).
    writeln!(
        out,
        "#[cfg_attr(not(target_arch = \"wasm32\"), allow(dead_code))]"
    )
    .unwrap();
    writeln!(
        out,
        "pub(crate) static FIRST_BITS: [u64; {}] = [",
        bits.len()
    )
    .unwrap();
    for b in &bits {
        writeln!(out, "    {b:#x},").unwrap();
    }
    writeln!(out, "];").unwrap();
}
