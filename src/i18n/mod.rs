//! Languages and message catalogs: every sentence a person reads, in English and Simplified
//! Chinese.
//!
//! The catalogs are plain text files (`en.txt`, `zh.txt`, one `key = text` per line, `{name}`
//! placeholders), compiled into native builds. The browser build carries neither: it fetches
//! each in two parts ([`parts`]), the first part of the page's language before the app mounts
//! (handed over with [`provide`]), the rest when one of its texts is first read. They are
//! parsed once into a sorted table; a lookup is a binary search. A key missing from a catalog falls back to
//! English and then to the key itself, so a gap shows up as text, never as a panic. The
//! tests below fail when the two catalogs do not hold the same keys with the same
//! placeholders, or when the code names a key that no catalog has.
//!
//! Why tables rather than Fluent: see `docs/i18n.md`.

pub mod glossary;
mod msg;
// Native builds compile the catalogs in whole; only the browser build reads parts (its
// tests run natively, so the module is compiled there too).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod parts;

pub use msg::{Arg, Msg};

use std::borrow::Cow;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::OnceLock;

/// A language the lab speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// English, the language of the source and the fallback for any missing text.
    #[default]
    En,
    /// Simplified Chinese, with the terms of `docs/glossary.zh.md`.
    Zh,
}

impl Lang {
    /// Every language, in the order the switch shows them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The code used in `?lang=`, `say.zh` and `--lang`: "en" or "zh".
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// How a scenario marks a line in this language (`say.zh`, `# title.zh:`): nothing for
    /// English, the unmarked default.
    pub fn scn_suffix(self) -> &'static str {
        match self {
            Lang::En => "",
            Lang::Zh => ".zh",
        }
    }

    /// The language's own name, for the switch ("English", "简体中文").
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "简体中文",
        }
    }

    /// The BCP 47 tag for the page's `lang` attribute.
    pub fn html_tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-Hans",
        }
    }

    /// Parses a code or a browser language tag: "en", "en-GB", "zh", "zh-CN", "zh-Hans-SG"
    /// (case-insensitive). Traditional-Chinese tags (zh-TW, zh-HK, zh-MO, zh-Hant) are not
    /// taken as Simplified Chinese. Anything else is `None`.
    pub fn parse(tag: &str) -> Option<Lang> {
        let t = tag.trim().to_ascii_lowercase().replace('_', "-");
        let mut parts = t.split('-');
        match parts.next()? {
            "en" => Some(Lang::En),
            "zh" => {
                let rest: Vec<&str> = parts.collect();
                let simplified = rest.contains(&"hans");
                let traditional = rest
                    .iter()
                    .any(|p| matches!(*p, "hant" | "tw" | "hk" | "mo"));
                (simplified || !traditional).then_some(Lang::Zh)
            }
            _ => None,
        }
    }

    /// The first supported language in a browser's preference list (`navigator.languages`),
    /// or English.
    pub fn from_preferences<'a>(tags: impl IntoIterator<Item = &'a str>) -> Lang {
        tags.into_iter().find_map(Lang::parse).unwrap_or_default()
    }

    /// The language of a page load: the address's `?lang=` when it names one, else the
    /// choice remembered from an earlier visit, else the browser's languages, else English.
    /// A malformed `?lang=` or remembered value is ignored, never an error.
    pub fn choose<'a>(
        address: Option<&str>,
        remembered: Option<&str>,
        browser: impl IntoIterator<Item = &'a str>,
    ) -> Lang {
        let exact = |s: &str| Lang::ALL.into_iter().find(|l| l.code() == s.trim());
        address
            .and_then(exact)
            .or_else(|| remembered.and_then(exact))
            .unwrap_or_else(|| Lang::from_preferences(browser))
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn catalog(self) -> Option<&'static Catalog> {
        match self {
            Lang::En => Some(EN.get_or_init(|| Catalog::parse(EN_KEPT).unwrap_or_default())),
            Lang::Zh => Some(ZH.get_or_init(|| Catalog::parse(ZH_TEXT).unwrap_or_default())),
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
static EN: OnceLock<Catalog> = OnceLock::new();
#[cfg(not(target_arch = "wasm32"))]
static ZH: OnceLock<Catalog> = OnceLock::new();

/// The browser build's catalogs, in parts (`parts`).
#[cfg(target_arch = "wasm32")]
static PARTS: parts::Parts = parts::Parts::new();

/// What the browser build's catalog parts must be: build.rs's marks of the first part, and
/// the digests of the files they are cut from.
#[cfg(target_arch = "wasm32")]
static LAYOUT: parts::Layout = parts::Layout {
    first: &keys::FIRST_BITS,
    keys: keys::EN_KEYS.len(),
    digest: catalog_digest,
};

/// The digest ([`crate::digest::digest`]) of the catalog file of `lang`, taken at compile time:
/// the first line of each part the browser build fetches is `# ` and it, in eight hex digits
/// (scripts/split-catalog.mjs), which tells this build's parts from another's.
pub fn catalog_digest(lang: Lang) -> u32 {
    const EN_DIGEST: u32 = crate::digest::digest(EN_TEXT);
    const ZH_DIGEST: u32 = crate::digest::digest(ZH_TEXT);
    match lang {
        Lang::En => EN_DIGEST,
        Lang::Zh => ZH_DIGEST,
    }
}

const EN_TEXT: &str = include_str!("en.txt");

/// en.txt without its comment and blank lines, cut at compile time: the parser skips them, so
/// the catalog is the same and the binary smaller.
#[cfg(not(target_arch = "wasm32"))]
static EN_KEPT: &str = match std::str::from_utf8(&EN_KEPT_BYTES) {
    Ok(s) => s,
    Err(_) => panic!("en.txt cut inside a character"),
};
#[cfg(not(target_arch = "wasm32"))]
static EN_KEPT_BYTES: [u8; kept_len(EN_TEXT)] = kept_bytes::<{ kept_len(EN_TEXT) }>(EN_TEXT);

/// Whether [`Catalog::parse`] reads the line of `b` starting at `at`, and where it ends (past
/// its newline). It skips a blank line and one with `#` after spaces or tabs. (A line starting
/// with other whitespace is kept; the parser still skips it if it is a comment.)
#[cfg(not(target_arch = "wasm32"))]
const fn kept_line(b: &[u8], at: usize) -> (bool, usize) {
    let mut end = at;
    while end < b.len() && b[end] != b'\n' {
        end += 1;
    }
    let mut i = at;
    while i < end && (b[i] == b' ' || b[i] == b'\t' || b[i] == b'\r') {
        i += 1;
    }
    let skipped = i == end || b[i] == b'#';
    (!skipped, if end < b.len() { end + 1 } else { end })
}

// kept_len(text) and kept_bytes::<N>(text): the lines the parser reads.
#[cfg(not(target_arch = "wasm32"))]
crate::line_cut::line_cut!(kept_len, kept_bytes, kept_line);
// In the browser build, as en.txt, only read at compile time (`catalog_digest`), so its bytes
// stay out of the wasm.
const ZH_TEXT: &str = include_str!("zh.txt");

/// Whether the catalog of `lang` is at hand: natively always; in the browser build once its
/// first part arrived ([`provide`]).
pub fn has_catalog(lang: Lang) -> bool {
    #[cfg(not(target_arch = "wasm32"))]
    return lang.catalog().is_some();
    #[cfg(target_arch = "wasm32")]
    return PARTS.arrived(lang, parts::Part::First).is_some();
}

/// Installs the first part of `lang`'s catalog from `text` (the fetched file,
/// `i18n/LANG.1.txt`). An error says what is wrong with it (another version's file, a bad
/// line); a part already there stays as it is. Natively, where the catalogs are compiled in,
/// it does nothing.
pub fn provide(lang: Lang, text: String) -> Result<(), String> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (lang, text);
        Ok(())
    }
    #[cfg(target_arch = "wasm32")]
    PARTS.provide(&LAYOUT, lang, parts::Part::First, text)
}

/// Installs part `part` of `lang`'s catalog from `text` (a copy of `i18n/LANG.N.txt` the page
/// found in the service worker's store), checked as [`provide`] checks the first part.
#[cfg(target_arch = "wasm32")]
pub fn provide_part(lang: Lang, part: parts::Part, text: String) -> Result<(), String> {
    PARTS.provide(&LAYOUT, lang, part, text)
}

/// Installs how the browser build fetches a catalog part it lacks when one of its texts is
/// asked for, and who is told, once, when a part cannot be had (the first call wins).
/// Without a loader, such a text is empty.
#[cfg(target_arch = "wasm32")]
pub fn set_loader(loader: parts::Loader, reporter: Option<parts::Reporter>) {
    PARTS.set_loader(loader, reporter);
}

/// The keys of every text read so far, for tests/e2e/split-profile.mjs, which lists those a
/// first visit reads in scripts/catalog-first.txt.
#[cfg(target_arch = "wasm32")]
pub fn used_keys() -> Vec<&'static str> {
    PARTS.used()
}

/// Makes sure the first part of `lang`'s catalog is here, fetching it with the loader if
/// needed; else says why it cannot be had.
#[cfg(target_arch = "wasm32")]
pub fn ensure(lang: Lang) -> Result<(), String> {
    match PARTS.get(&LAYOUT, lang, parts::Part::First) {
        Some(_) => Ok(()),
        None => Err(PARTS
            .failure(lang, parts::Part::First)
            .unwrap_or("no loader")
            .to_string()),
    }
}

/// The text for `key` in `lang`: the catalog's, else the English one, else the key itself.
pub fn text(lang: Lang, key: &str) -> &str {
    lookup(lang, key).unwrap_or(key)
}

/// The text for `key` in `lang`, else the English one; `None` when no catalog has the key.
/// (In the browser build a key not in a first part fetches the rest, once.)
pub fn lookup(lang: Lang, key: &str) -> Option<&'static str> {
    #[cfg(not(target_arch = "wasm32"))]
    return lang
        .catalog()
        .and_then(|c| c.get(key))
        .or_else(|| Lang::En.catalog().and_then(|c| c.get(key)));
    #[cfg(target_arch = "wasm32")]
    return [lang, Lang::En].into_iter().find_map(|l| {
        [parts::Part::First, parts::Part::Rest]
            .into_iter()
            .find_map(|p| {
                let c = PARTS.get(&LAYOUT, l, p)?;
                let at = c.position(key)?;
                PARTS.mark(p, at);
                Some(&*c.entries[at].1)
            })
    });
}

/// The text for `key` in `lang` with each `{name}` replaced by its value in `args`.
/// A placeholder without a value is left as written.
pub fn fill(lang: Lang, key: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
    substitute(text(lang, key), |name| {
        args.iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.to_string())
    })
}

/// `tr!(lang, "key")` is the text; `tr!(lang, "key", name = value, ...)` fills placeholders.
/// The key is looked up in en.txt at compile time ([`key_index`]): a key en.txt lacks is a
/// compile error, and the key's string is not in the binary.
#[macro_export]
macro_rules! tr {
    ($lang:expr, $key:literal) => {
        $crate::i18n::text_at($lang, const { $crate::i18n::key_index($key) })
    };
    ($lang:expr, $key:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::fill_at(
            $lang,
            const { $crate::i18n::key_index($key) },
            &[$(stringify!($name)),+],
            &[$(&$value as &dyn ::std::fmt::Display),+],
        )
    };
}

/// `msg!("key")` is `Msg::new("key")` with the key checked against en.txt at compile time, as
/// `tr!` does ([`key_index`]): the message holds the same key, taken from the compiled English
/// catalog, so the key's string is not in the binary a second time.
#[macro_export]
macro_rules! msg {
    ($key:literal) => {
        $crate::i18n::Msg::at(const { $crate::i18n::key_index($key) })
    };
}

/// `key_of!("key")` is the key's position in the English catalog ([`key_index`], at compile
/// time), for [`Msg::at`] where the key is chosen at run time (`match` arms).
#[macro_export]
macro_rules! key_of {
    ($key:literal) => {
        const { $crate::i18n::key_index($key) }
    };
}

/// en.txt's keys, sorted (generated by build.rs). Only compile-time code reads them (and the
/// tests), so the browser build does not carry them a second time.
mod keys {
    include!(concat!(env!("OUT_DIR"), "/en_keys.rs"));
}

/// `a` compared with `b` byte by byte, as `str`'s `Ord` does, in a `const fn`.
const fn str_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return if a[i] < b[i] {
                std::cmp::Ordering::Less
            } else {
                std::cmp::Ordering::Greater
            };
        }
        i += 1;
    }
    if a.len() < b.len() {
        std::cmp::Ordering::Less
    } else if a.len() > b.len() {
        std::cmp::Ordering::Greater
    } else {
        std::cmp::Ordering::Equal
    }
}

/// The position of `key` in the English catalog (its entries are sorted by key, as
/// build.rs sorts en.txt's keys). Used by `tr!` at compile time, where a key en.txt lacks
/// stops the build.
#[doc(hidden)]
pub const fn key_index(key: &str) -> u16 {
    let (mut lo, mut hi) = (0, keys::EN_KEYS.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        match str_cmp(keys::EN_KEYS[mid], key) {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => return mid as u16,
        }
    }
    panic!("tr!: en.txt has no such key");
}

/// The text of the English catalog's entry `index` ([`key_index`]) in `lang`, else the English
/// one. Every index `key_index` gives is in the catalogs (tested natively; in the browser
/// build a part's number of texts is checked when it arrives), so "" only when no part
/// holding it can be had, never a panic.
#[doc(hidden)]
pub fn text_at(lang: Lang, index: u16) -> &'static str {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let Some((key, en)) = Lang::En
            .catalog()
            .and_then(|c| c.entries.get(usize::from(index)))
        else {
            return "";
        };
        if lang != Lang::En {
            if let Some(t) = lang.catalog().and_then(|c| c.get(key)) {
                return t;
            }
        }
        en
    }
    #[cfg(target_arch = "wasm32")]
    {
        let (part, at) = parts::locate(&keys::FIRST_BITS, usize::from(index));
        PARTS.mark(part, at);
        [lang, Lang::En]
            .into_iter()
            .find_map(|l| PARTS.get(&LAYOUT, l, part).and_then(|c| c.entries.get(at)))
            .map_or("", |(_, t)| t)
    }
}

/// The key of the English catalog's entry `index` ([`key_index`]) ("" when no catalog part
/// holding it can be had, never a panic).
#[doc(hidden)]
pub fn key_at(index: u16) -> &'static str {
    #[cfg(not(target_arch = "wasm32"))]
    return Lang::En
        .catalog()
        .and_then(|c| c.entries.get(usize::from(index)))
        .map_or("", |(key, _)| key);
    #[cfg(target_arch = "wasm32")]
    {
        // Both languages have the same keys at the same places: a part that is here will do,
        // else the part of the language in use (Chinese once its first part is here).
        let (part, at) = parts::locate(&keys::FIRST_BITS, usize::from(index));
        let fetch = if has_catalog(Lang::Zh) {
            Lang::Zh
        } else {
            Lang::En
        };
        PARTS
            .arrived(Lang::En, part)
            .or_else(|| PARTS.arrived(Lang::Zh, part))
            .or_else(|| PARTS.get(&LAYOUT, fetch, part))
            .and_then(|c| c.entries.get(at))
            .map_or("", |(key, _)| key)
    }
}

/// [`text_at`] with each `{name}` replaced by the value at the same position in `values`
/// as `name` in `names`, as [`fill`] does. Names and values come apart so that a call site's
/// names are one constant table instead of being stored beside each value at run time.
#[doc(hidden)]
pub fn fill_at(
    lang: Lang,
    index: u16,
    names: &[&str],
    values: &[&dyn std::fmt::Display],
) -> String {
    substitute(text_at(lang, index), |name| {
        names
            .iter()
            .position(|n| *n == name)
            .and_then(|i| values.get(i))
            .map(|v| v.to_string())
    })
}

/// Replaces every `{name}` in `template` by `value(name)` (when it gives one).
pub(crate) fn substitute(template: &str, mut value: impl FnMut(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) if is_name(&after[..close]) => {
                let name = &after[..close];
                match value(name) {
                    Some(v) => out.push_str(&v),
                    None => {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                }
                rest = &after[close + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn is_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The placeholder names of a template, sorted, without duplicates.
#[cfg(test)]
pub(crate) fn placeholders(template: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) if is_name(&after[..close]) => {
                names.push(&after[..close]);
                rest = &after[close + 1..];
            }
            _ => rest = after,
        }
    }
    names.sort_unstable();
    names.dedup();
    names
}

/// One parsed catalog: `(key, text)` sorted by key.
#[derive(Default)]
pub(crate) struct Catalog {
    entries: Vec<(&'static str, Cow<'static, str>)>,
}

/// A catalog value with its escapes undone: `\s` is a space (values are trimmed, so a space
/// at either end must be written so), `\n` a line break, `\\` a backslash.
fn unescape(v: &'static str) -> Cow<'static, str> {
    if !v.contains('\\') {
        return Cow::Borrowed(v);
    }
    let mut out = String::with_capacity(v.len());
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('s') => out.push(' '),
            Some('n') => out.push('\n'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    Cow::Owned(out)
}

/// `v` sorted by `key`, equal keys in their order (what `sort_by_key` gives). A plain merge
/// sort: std's sort would link one more copy of its sorting code (about 4 KB of wasm) for
/// this one element type, and an insertion sort of a thousand entries would slow the start.
fn merge_sort_by_key<T, K: Ord>(mut v: Vec<T>, key: &impl Fn(&T) -> K) -> Vec<T> {
    if v.len() <= 1 {
        return v;
    }
    let right = v.split_off(v.len() / 2);
    let (left, right) = (merge_sort_by_key(v, key), merge_sort_by_key(right, key));
    let mut out = Vec::with_capacity(left.len() + right.len());
    let (mut l, mut r) = (left.into_iter().peekable(), right.into_iter().peekable());
    loop {
        // On equal keys the left one goes first, which keeps the sort stable.
        let from_right = match (l.peek(), r.peek()) {
            (Some(a), Some(b)) => key(b) < key(a),
            (Some(_), None) => false,
            (None, Some(_)) => true,
            (None, None) => break,
        };
        out.extend(if from_right { r.next() } else { l.next() });
    }
    out
}

impl Catalog {
    /// Parses `key = text` lines; `#` lines and blank lines are skipped. A malformed line or
    /// a key given twice is an error naming the line.
    fn parse(src: &'static str) -> Result<Catalog, String> {
        let mut entries = Vec::new();
        for (i, line) in src.lines().enumerate() {
            let l = line.trim();
            if l.is_empty() || l.starts_with('#') {
                continue;
            }
            let (k, v) = l
                .split_once(" = ")
                .ok_or_else(|| format!("line {}: expected 'key = text'", i + 1))?;
            let k = k.trim();
            // A byte test, not `"._-".contains(c)`: that searches a string for every
            // character of every key, which was most of the catalog's parse at start-up.
            if k.is_empty()
                || !k
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-'))
            {
                return Err(format!("line {}: bad key '{k}'", i + 1));
            }
            entries.push((k, unescape(v.trim())));
        }
        let entries = merge_sort_by_key(entries, &|e: &(&str, _)| e.0);
        if let Some(w) = entries.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(format!("key '{}' given twice", w[0].0));
        }
        Ok(Catalog { entries })
    }

    /// Where `key`'s entry is.
    fn position(&self, key: &str) -> Option<usize> {
        self.entries.binary_search_by(|e| e.0.cmp(key)).ok()
    }

    // The browser build looks up positions (`lookup`), to mark the text read.
    #[cfg(not(target_arch = "wasm32"))]
    fn get(&self, key: &str) -> Option<&str> {
        self.position(key).map(|i| &*self.entries[i].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(lang: Lang) -> Catalog {
        let src = match lang {
            Lang::En => EN_TEXT,
            Lang::Zh => ZH_TEXT,
        };
        Catalog::parse(src).unwrap_or_else(|e| panic!("{}.txt: {e}", lang.code()))
    }

    #[test]
    fn the_merge_sort_sorts_as_std_does() {
        let mut seed = 11u64;
        for len in 0..200 {
            let v: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((seed >> 59) as u8, i)
                })
                .collect();
            let mut theirs = v.clone();
            theirs.sort_by_key(|e| e.0);
            assert_eq!(merge_sort_by_key(v, &|e: &(u8, usize)| e.0), theirs);
        }
    }

    /// The English catalog the app uses (comments and blank lines cut at compile time) is
    /// the one the whole file gives.
    #[test]
    fn the_cut_english_text_gives_the_same_catalog() {
        let cut = Catalog::parse(EN_KEPT).unwrap();
        assert_eq!(cut.entries, parsed(Lang::En).entries);
        assert!(EN_KEPT.len() + 1000 < EN_TEXT.len(), "{}", EN_KEPT.len());
        assert!(EN_KEPT
            .lines()
            .all(|l| !l.trim().is_empty() && !l.starts_with('#')));
    }

    #[test]
    fn both_catalogs_hold_the_same_keys_with_the_same_placeholders() {
        let en = parsed(Lang::En);
        let zh = parsed(Lang::Zh);
        let mut problems = Vec::new();
        for (k, v) in &en.entries {
            match zh.get(k) {
                None => problems.push(format!("zh.txt lacks '{k}'")),
                Some(z) if placeholders(v) != placeholders(z) => problems.push(format!(
                    "'{k}': en has {:?}, zh has {:?}",
                    placeholders(v),
                    placeholders(z)
                )),
                Some(z) if z.trim().is_empty() => problems.push(format!("zh '{k}' is empty")),
                _ => {}
            }
        }
        for (k, _) in &zh.entries {
            if en.get(k).is_none() {
                problems.push(format!("en.txt lacks '{k}'"));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// Every key the code names is in the English catalog, and so, by the test above, in
    /// every catalog. A key is any string literal in `src/` shaped like `section.name` whose
    /// section is one the catalog uses ("ev.crashed", "ui.tab.log"); this module's own file
    /// is skipped (its tests hold made-up keys).
    #[test]
    fn every_key_the_code_uses_is_in_the_catalog() {
        let en = parsed(Lang::En);
        let mut sections: Vec<&str> = en
            .entries
            .iter()
            .filter_map(|(k, _)| k.split_once('.').map(|s| s.0))
            .collect();
        sections.dedup();
        let mut missing = Vec::new();
        let mut seen = 0;
        // The engine's manifest is engine/Cargo.toml; its sources, and the UI's, are in src/.
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../src"));
        for (path, src) in rust_sources(root) {
            if path.ends_with("i18n/mod.rs") {
                continue;
            }
            for key in keys_used(&src, &sections) {
                seen += 1;
                if en.get(&key).is_none() {
                    missing.push(format!("{path}: '{key}'"));
                }
            }
        }
        assert!(seen > 50, "the scan found only {seen} keys");
        assert!(
            missing.is_empty(),
            "keys not in en.txt:\n{}",
            missing.join("\n")
        );
    }

    fn rust_sources(dir: &std::path::Path) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let Ok(rd) = std::fs::read_dir(dir) else {
            return out;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(rust_sources(&p));
            } else if p.extension().is_some_and(|x| x == "rs") {
                if let Ok(s) = std::fs::read_to_string(&p) {
                    out.push((p.display().to_string(), s));
                }
            }
        }
        out
    }

    /// String literals shaped like a key of one of `sections`.
    fn keys_used(src: &str, sections: &[&str]) -> Vec<String> {
        src.split('"')
            .skip(1)
            .step_by(2)
            .filter(|lit| {
                lit.split_once('.').is_some_and(|(sec, rest)| {
                    sections.contains(&sec)
                        && !rest.is_empty()
                        && rest.chars().all(|c| {
                            c.is_ascii_lowercase() || c.is_ascii_digit() || "._".contains(c)
                        })
                })
            })
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn the_scan_sees_keys_in_each_form() {
        let src = r#"tr!(lang, "ev.a"); x => "ev.b_c", Msg::new(if p { "kind.d" } else { "ev" }) "x.y" "ev.Up""#;
        assert_eq!(
            keys_used(src, &["ev", "kind"]),
            ["ev.a", "ev.b_c", "kind.d"]
        );
    }

    #[test]
    fn lookup_falls_back_and_substitutes() {
        assert_eq!(text(Lang::Zh, "no.such.key"), "no.such.key");
        assert_eq!(
            substitute("n{id} term {term} {missing} {", |n| match n {
                "id" => Some("3".into()),
                "term" => Some("7".into()),
                _ => None,
            }),
            "n3 term 7 {missing} {"
        );
        assert_eq!(placeholders("{b} {a} {b} {x y}"), ["a", "b"]);
    }

    /// `tr!`'s compile-time index names the same entry as a lookup by key, in both
    /// languages: build.rs read and sorted en.txt's keys as the catalog does.
    #[test]
    fn a_compile_time_index_is_the_catalogs_entry() {
        let en = Lang::En.catalog().unwrap();
        let keys: Vec<&str> = en.entries.iter().map(|e| e.0).collect();
        assert_eq!(keys, keys::EN_KEYS);
        for (i, key) in keys::EN_KEYS.iter().enumerate() {
            assert_eq!(key_index(key), i as u16);
            for lang in Lang::ALL {
                assert_eq!(
                    text_at(lang, i as u16),
                    text(lang, key),
                    "{key} in {lang:?}"
                );
            }
        }
        assert_eq!(tr!(Lang::Zh, "ui.tab.node"), text(Lang::Zh, "ui.tab.node"));
        assert_eq!(
            tr!(Lang::En, "ev.campaign", id = 3, term = 7),
            "n3 campaigns for term 7"
        );
        assert_eq!(text_at(Lang::En, u16::MAX), "");
    }

    /// `msg!` and `Msg::at` make the message `Msg::new` makes with the same key.
    #[test]
    fn a_message_by_index_is_the_message_by_key() {
        for (i, key) in keys::EN_KEYS.iter().enumerate() {
            assert_eq!(key_at(i as u16), *key);
            assert_eq!(Msg::at(i as u16), Msg::new(key));
        }
        assert_eq!(crate::msg!("ev.crashed"), Msg::new("ev.crashed"));
        assert_eq!(
            Msg::at(crate::key_of!("word.vote")).arg("id", 2u64),
            Msg::new("word.vote").arg("id", 2u64)
        );
        assert_eq!(key_at(u16::MAX), "");
    }

    #[test]
    fn escapes_keep_spaces_at_the_ends() {
        let c = Catalog::parse("a.b = \\sAND\\s\nc.d = x\\ny \\\\ z\\\n").unwrap();
        assert_eq!(c.get("a.b"), Some(" AND "));
        assert_eq!(c.get("c.d"), Some("x\ny \\ z\\"));
        assert_eq!(text(Lang::En, "ui.q.and"), " AND ");
    }

    #[test]
    fn a_malformed_catalog_is_an_error_not_a_panic() {
        assert!(Catalog::parse("a.b = x\nnot a line\n").is_err());
        assert!(Catalog::parse("a.b = x\na.b = y\n").is_err());
        assert!(Catalog::parse("bad key! = x\n").is_err());
    }

    #[test]
    fn the_address_beats_the_remembered_choice_which_beats_the_browser() {
        assert_eq!(Lang::choose(Some("zh"), Some("en"), ["en-US"]), Lang::Zh);
        assert_eq!(Lang::choose(Some("en"), Some("zh"), ["zh-CN"]), Lang::En);
        assert_eq!(Lang::choose(None, Some("zh"), ["en-US"]), Lang::Zh);
        assert_eq!(Lang::choose(Some("klingon"), Some("zh"), ["en"]), Lang::Zh);
        assert_eq!(Lang::choose(Some(""), Some("??"), ["zh-SG"]), Lang::Zh);
        assert_eq!(Lang::choose(None, None, []), Lang::En);
    }

    #[test]
    fn browser_languages_pick_simplified_chinese_only() {
        assert_eq!(Lang::from_preferences(["fr-FR", "zh-CN", "en"]), Lang::Zh);
        assert_eq!(Lang::from_preferences(["zh-TW", "en-US"]), Lang::En);
        assert_eq!(Lang::from_preferences(["zh-Hans-HK"]), Lang::Zh);
        assert_eq!(Lang::from_preferences(["de"]), Lang::En);
        assert_eq!(Lang::parse("ZH"), Some(Lang::Zh));
        assert_eq!(Lang::parse(""), None);
    }
}
