//! Writes `$OUT_DIR/en_keys.rs`: every key of `src/i18n/en.txt`, sorted as the English
//! catalog sorts them at run time, so `tr!` can turn a key into its position in that catalog
//! at compile time (`i18n::key_index`). The key strings then stay out of the binary's data:
//! the browser bundle carries each key once, inside en.txt, and not again at every `tr!`.
//!
//! The parsing rules are `i18n::Catalog::parse`'s (a test compares the two); a line this
//! script cannot read is left to that parser, whose tests name it.

use std::fmt::Write as _;

fn main() {
    let path = "src/i18n/en.txt";
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
    let dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(format!("{dir}/en_keys.rs"), out).expect("OUT_DIR is writable");
}
