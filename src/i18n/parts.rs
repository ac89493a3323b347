//! The browser build's catalogs, each in two parts: the texts a first visit reads (listed in
//! `scripts/catalog-first.txt`) and the rest. Neither is compiled in. The page fetches the
//! first part of its language before it mounts; the rest arrives the first time one of its
//! texts is asked for, through a loader the UI installs (a synchronous request, as for the
//! wasm's second part). So a first visit carries about half of one catalog instead of the
//! whole English one plus, in Chinese, the whole Chinese one.
//!
//! A text is found by its key's position among en.txt's sorted keys (`tr!`'s index): build.rs
//! marks which positions the first part holds (`FIRST_BITS`), and a part's entries, sorted by
//! key as every catalog is, are those positions in order. So the position within a part is a
//! count of marks, and the keys themselves need not be in the wasm. Both languages have the
//! same keys (the catalog tests check it), hence the same layout.
//!
//! Native builds compile both catalogs in whole and never use this.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use super::{Catalog, Lang};

/// Which part of a catalog holds a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The texts a first visit reads, fetched before the page mounts.
    First,
    /// Every other text, fetched when one of them is first needed.
    Rest,
}

impl Part {
    /// 1 or 2, as in the file's name (`i18n/zh.2.txt`).
    pub fn number(self) -> u8 {
        match self {
            Part::First => 1,
            Part::Rest => 2,
        }
    }

    fn slot(self) -> usize {
        usize::from(self.number() - 1)
    }
}

/// Where the text of key position `index` is: its part, and its position among that part's
/// sorted entries. `first` marks the first part's positions, bit `i % 64` of word `i / 64`.
pub(crate) fn locate(first: &[u64], index: usize) -> (Part, usize) {
    let (word, bit) = (index / 64, index % 64);
    let whole: usize = first
        .iter()
        .take(word)
        .map(|w| w.count_ones() as usize)
        .sum();
    let w = first.get(word).copied().unwrap_or(0);
    let before = whole + (w & ((1u64 << bit) - 1)).count_ones() as usize;
    if w >> bit & 1 == 1 {
        (Part::First, before)
    } else {
        (Part::Rest, index - before)
    }
}

/// Whether `text` starts with the line a part of the catalog with digest `digest` starts with:
/// `# ` and the digest in eight lowercase hex digits (`scripts/split-catalog.mjs`). Written
/// out by hand: `format!`'s hex printing would be the page's only use of it at start-up.
pub fn headed(text: &str, digest: u32) -> bool {
    let b = text.as_bytes();
    b.len() >= 11
        && b.starts_with(b"# ")
        && b[10] == b'\n'
        && (0..8).all(|i| {
            let nibble = (digest >> (28 - 4 * i)) & 0xf;
            b[2 + i] == b"0123456789abcdef"[nibble as usize]
        })
}

/// Fetches one part's file, or says why it could not: installed by the UI (`i18n::set_loader`).
pub type Loader = fn(Lang, Part) -> Result<String, String>;

/// How a refused part's error ends when the file is of another version of the app (the
/// server was updated while the page was open): the page's error box then asks for a reload
/// rather than for the network.
pub const OTHER_VERSION: &str = "is from another version of raftlab";

/// Told once why a part cannot be had (its load failed, or the file it got was refused):
/// installed by the page (`i18n::set_loader`), which shows it in its error box.
pub type Reporter = fn(&str);

/// What a part's file must be: its first line `# ` and the digest of the catalog file it was
/// cut from (so a file of another version of the app is refused), and as many entries as
/// `first` says.
pub(crate) struct Layout {
    /// The first part's key positions (build.rs's `FIRST_BITS`).
    pub first: &'static [u64],
    /// How many keys en.txt has.
    pub keys: usize,
    /// The digest (`crate::digest::digest`) of each language's catalog file.
    pub digest: fn(Lang) -> u32,
}

impl Layout {
    fn expected(&self, part: Part) -> usize {
        let first: usize = self.first.iter().map(|w| w.count_ones() as usize).sum();
        match part {
            Part::First => first,
            Part::Rest => self.keys - first,
        }
    }
}

/// Room for this many keys in the marks of texts read ([`Parts::used`]).
const MARK_WORDS: usize = 32;

/// The parts that arrived, per language and part; a part whose loading failed is not asked
/// for again (each text would otherwise retry it). It also marks which texts were read, so
/// tests/e2e/split-profile.mjs can write the first part's list from real visits.
pub(crate) struct Parts {
    got: [[OnceLock<Catalog>; 2]; 2],
    failed: [[OnceLock<String>; 2]; 2],
    loader: OnceLock<Loader>,
    reporter: OnceLock<Reporter>,
    read: [[AtomicU64; MARK_WORDS]; 2],
}

fn lang_slot(lang: Lang) -> usize {
    match lang {
        Lang::En => 0,
        Lang::Zh => 1,
    }
}

impl Parts {
    /// None arrived yet, no loader.
    pub(crate) const fn new() -> Self {
        Parts {
            got: [
                [OnceLock::new(), OnceLock::new()],
                [OnceLock::new(), OnceLock::new()],
            ],
            failed: [
                [OnceLock::new(), OnceLock::new()],
                [OnceLock::new(), OnceLock::new()],
            ],
            loader: OnceLock::new(),
            reporter: OnceLock::new(),
            read: [const { [const { AtomicU64::new(0) }; MARK_WORDS] }; 2],
        }
    }

    /// Notes that the text at position `at` of `part` was read.
    pub(crate) fn mark(&self, part: Part, at: usize) {
        if let Some(w) = self.read[part.slot()].get(at / 64) {
            w.fetch_or(1 << (at % 64), Ordering::Relaxed);
        }
    }

    /// The keys of every text read so far (of the parts at hand), in no particular order.
    pub(crate) fn used(&self) -> Vec<&'static str> {
        let mut keys = Vec::new();
        for part in [Part::First, Part::Rest] {
            let Some(c) = [Lang::En, Lang::Zh]
                .into_iter()
                .find_map(|l| self.got[lang_slot(l)][part.slot()].get())
            else {
                continue;
            };
            for (i, w) in self.read[part.slot()].iter().enumerate() {
                let w = w.load(Ordering::Relaxed);
                keys.extend(
                    (0..64)
                        .filter(|b| w >> b & 1 == 1)
                        .filter_map(|b| c.entries.get(i * 64 + b).map(|e| e.0)),
                );
            }
        }
        keys
    }

    /// Installs how missing parts are fetched, and who is told when one cannot be had (the
    /// first call wins).
    pub(crate) fn set_loader(&self, loader: Loader, reporter: Option<Reporter>) {
        let _ = self.loader.set(loader);
        if let Some(r) = reporter {
            let _ = self.reporter.set(r);
        }
    }

    /// The part, if it has arrived; nothing is fetched.
    pub(crate) fn arrived(&self, lang: Lang, part: Part) -> Option<&Catalog> {
        self.got[lang_slot(lang)][part.slot()].get()
    }

    /// Checks `text` against `layout` and installs it. An error says what is wrong with it;
    /// a part already there stays as it is.
    pub(crate) fn provide(
        &self,
        layout: &Layout,
        lang: Lang,
        part: Part,
        text: String,
    ) -> Result<(), String> {
        if self.arrived(lang, part).is_some() {
            return Ok(());
        }
        let name = format!("{}.{}", lang.code(), part.number());
        if !headed(&text, (layout.digest)(lang)) {
            return Err(format!("{name} {OTHER_VERSION}"));
        }
        let catalog =
            Catalog::parse(Box::leak(text.into_boxed_str())).map_err(|e| format!("{name}: {e}"))?;
        let want = layout.expected(part);
        if catalog.entries.len() != want {
            return Err(format!(
                "{name} holds {} texts, this build expects {want}",
                catalog.entries.len()
            ));
        }
        let _ = self.got[lang_slot(lang)][part.slot()].set(catalog);
        Ok(())
    }

    /// The part: at hand, or fetched now with the loader. `None` when it cannot be had (no
    /// loader, or the loader or the check failed, now or before); the reporter is told the
    /// first time.
    pub(crate) fn get(&self, layout: &Layout, lang: Lang, part: Part) -> Option<&Catalog> {
        if let Some(c) = self.arrived(lang, part) {
            return Some(c);
        }
        let failed = &self.failed[lang_slot(lang)][part.slot()];
        if failed.get().is_some() {
            return None;
        }
        let loader = self.loader.get()?;
        match loader(lang, part).and_then(|t| self.provide(layout, lang, part, t)) {
            Ok(()) => self.arrived(lang, part),
            Err(why) => {
                if let Some(report) = self.reporter.get() {
                    report(&why);
                }
                let _ = failed.set(why);
                None
            }
        }
    }

    /// Why the part could not be had, once that was tried and failed.
    pub(crate) fn failure(&self, lang: Lang, part: Part) -> Option<&str> {
        self.failed[lang_slot(lang)][part.slot()]
            .get()
            .map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    // Keys a < b < c < d < e; the first part holds b and d.
    const FIRST: [u64; 1] = [0b01010];

    fn digest(lang: Lang) -> u32 {
        match lang {
            Lang::En => 0xabcd_0001,
            Lang::Zh => 0xabcd_0002,
        }
    }

    fn layout() -> Layout {
        Layout {
            first: &FIRST,
            keys: 5,
            digest,
        }
    }

    #[test]
    fn a_position_is_found_in_its_part_by_counting_marks() {
        let at: Vec<_> = (0..5).map(|i| locate(&FIRST, i)).collect();
        assert_eq!(
            at,
            [
                (Part::Rest, 0),
                (Part::First, 0),
                (Part::Rest, 1),
                (Part::First, 1),
                (Part::Rest, 2)
            ]
        );
        // Across words: bit 0 of the second word is position 64.
        let two = [u64::MAX, 1];
        assert_eq!(locate(&two, 63), (Part::First, 63));
        assert_eq!(locate(&two, 64), (Part::First, 64));
        assert_eq!(locate(&two, 65), (Part::Rest, 0));
    }

    #[test]
    fn the_head_line_is_the_digest_in_eight_hex_digits() {
        assert!(headed("# 0a0b0c0d\nk = v\n", 0x0a0b_0c0d));
        assert!(headed("# dcddea08\n", 0xdcdd_ea08));
        assert!(!headed("# 0a0b0c0e\n", 0x0a0b_0c0d));
        assert!(!headed("# 0A0B0C0D\n", 0x0a0b_0c0d));
        assert!(!headed("# 0a0b0c0d", 0x0a0b_0c0d));
        assert!(!headed("", 0));
    }

    #[test]
    fn a_part_is_taken_only_with_this_builds_digest_and_its_number_of_texts() {
        let parts = Parts::new();
        let l = layout();
        let other = "# abcd0009\nb = B\nd = D\n".to_string();
        let err = parts.provide(&l, Lang::En, Part::First, other).unwrap_err();
        assert!(err.contains("another version"), "{err}");
        let short = "# abcd0001\nb = B\n".to_string();
        let err = parts.provide(&l, Lang::En, Part::First, short).unwrap_err();
        assert!(err.contains("holds 1 texts, this build expects 2"), "{err}");
        assert!(parts.arrived(Lang::En, Part::First).is_none());
        let good = "# abcd0001\nd = D\nb = B\n".to_string();
        parts.provide(&l, Lang::En, Part::First, good).unwrap();
        // Sorted by key, so position 1 of the first part is d.
        let c = parts.arrived(Lang::En, Part::First).unwrap();
        assert_eq!(c.entries[1].0, "d");
        assert_eq!(&*c.entries[1].1, "D");
    }

    #[test]
    fn the_texts_read_are_told_by_key() {
        let parts = Parts::new();
        let l = layout();
        parts
            .provide(
                &l,
                Lang::En,
                Part::First,
                "# abcd0001\nb = B\nd = D\n".into(),
            )
            .unwrap();
        parts.mark(Part::First, 1);
        parts.mark(Part::Rest, 2); // the rest has not arrived: not told
        assert_eq!(parts.used(), ["d"]);
    }

    static CALLS: AtomicUsize = AtomicUsize::new(0);

    fn loader(lang: Lang, part: Part) -> Result<String, String> {
        CALLS.fetch_add(1, Ordering::SeqCst);
        match (lang, part) {
            (Lang::Zh, Part::Rest) => Ok("# abcd0002\na = 甲\nc = 丙\ne = 戊\n".into()),
            _ => Err("HTTP 404".into()),
        }
    }

    #[test]
    fn a_missing_part_is_loaded_once_and_a_failed_one_not_retried() {
        let parts = Parts::new();
        let l = layout();
        assert!(
            parts.get(&l, Lang::Zh, Part::Rest).is_none(),
            "no loader yet"
        );
        parts.set_loader(loader, Some(report));
        let before = CALLS.load(Ordering::SeqCst);
        let c = parts.get(&l, Lang::Zh, Part::Rest).unwrap();
        assert_eq!(&*c.entries[2].1, "戊");
        assert!(parts.get(&l, Lang::Zh, Part::Rest).is_some());
        assert!(parts.get(&l, Lang::En, Part::Rest).is_none());
        assert!(parts.get(&l, Lang::En, Part::Rest).is_none());
        assert_eq!(CALLS.load(Ordering::SeqCst) - before, 2, "one load each");
        assert_eq!(parts.failure(Lang::En, Part::Rest), Some("HTTP 404"));
        assert_eq!(*REPORTED.lock().unwrap(), ["HTTP 404"], "told once");
    }

    static REPORTED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

    fn report(why: &str) {
        REPORTED.lock().unwrap().push(why.to_string());
    }

    fn other_version(_: Lang, _: Part) -> Result<String, String> {
        Ok("# abcd0009\nb = B\nd = D\n".into())
    }

    fn report_refused(why: &str) {
        REFUSED.lock().unwrap().push(why.to_string());
    }

    static REFUSED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

    #[test]
    fn a_part_refused_on_arrival_is_reported_too() {
        let parts = Parts::new();
        parts.set_loader(other_version, Some(report_refused));
        assert!(parts.get(&layout(), Lang::En, Part::First).is_none());
        assert!(parts.get(&layout(), Lang::En, Part::First).is_none());
        assert_eq!(
            *REFUSED.lock().unwrap(),
            ["en.1 is from another version of raftlab"]
        );
    }
}
