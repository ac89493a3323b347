//! The narrated presets: one `.scn` file per lesson, run by the tests and the native CLI.
//! Each file starts with `# title:`, `# description:`, `# group:` and `# recap:` lines
//! (see `docs/scenario-language.md`, "Lesson headers").
//!
//! Natively every preset's text is compiled in ([`Preset::text`]). The browser build keeps
//! only an index (id, the English title, description and group lines, a digest of the text)
//! and fetches a preset's text from `presets/ID.scn` when a lesson starts (`ui::lazy_text`):
//! the texts are a fifth of the app's download otherwise, and a visitor opens a few lessons
//! at most. The Chinese title and description lines come with the Chinese catalog
//! ([`super::preset_heads`]).

use crate::digest::digest;
use crate::i18n::Lang;

#[cfg(not(target_arch = "wasm32"))]
use super::scenario::Script;

/// One preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// File name without `.scn`, e.g. "01-election".
    pub id: &'static str,
    /// Its `# title:`, `# description:` and `# group:` lines: what the menus show before the
    /// text is fetched.
    head: &'static str,
    /// Its `# title.zh:` and `# description.zh:` lines (natively; the browser gets them with
    /// the Chinese catalog, see [`super::preset_heads`]).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) zh_head: &'static str,
    /// [`digest`] of those lines, for checking the browser's fetched copy.
    pub(crate) zh_digest: u32,
    /// [`digest`] of the whole text: the browser refuses fetched text that differs (a file
    /// of another version of the app).
    pub digest: u32,
    /// The scenario text (native builds only; the browser fetches it).
    #[cfg(not(target_arch = "wasm32"))]
    pub text: &'static str,
}

/// The value of header line `# KEY: value` in `text`, exactly KEY (so `title` never matches
/// `title.zh`).
pub fn header<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix('#'))
        .filter_map(|l| l.trim().strip_prefix(key))
        .find_map(|l| l.strip_prefix(':'))
        .map(str::trim)
}

/// Header `key` of `text` in `lang` (`# KEY.zh:`), or the English one when it has none ("" when
/// neither is there).
pub fn header_in<'a>(text: &'a str, key: &str, lang: Lang) -> &'a str {
    if lang != Lang::En {
        if let Some(t) = header(text, &format!("{key}.{}", lang.code())) {
            return t;
        }
    }
    header(text, key).unwrap_or("")
}

/// What a student should take away from preset text `text`, in `lang` (`# recap:`), shown
/// when the lesson ends ("" when missing).
pub fn recap_in(text: &str, lang: Lang) -> &str {
    header_in(text, "recap", lang)
}

/// The header lines the index keeps.
const INDEXED: [&[u8]; 3] = [b"# title:", b"# description:", b"# group:"];

/// The header lines the Chinese part of the index keeps ([`super::preset_heads`]). The
/// Trunk hook that writes the browser's copy picks the same lines (`Trunk.toml`).
const TRANSLATED_ZH: [&[u8]; 2] = [b"# title.zh:", b"# description.zh:"];

/// Whether the line of `b` starting at `at` is one of [`INDEXED`]; returns where it ends
/// (past its newline) either way.
const fn indexed_line(b: &[u8], at: usize) -> (bool, usize) {
    line_starting(b, at, &INDEXED)
}

/// Whether the line of `b` starting at `at` is one of [`TRANSLATED_ZH`], and where it ends.
const fn translated_zh_line(b: &[u8], at: usize) -> (bool, usize) {
    line_starting(b, at, &TRANSLATED_ZH)
}

/// Whether the line of `b` starting at `at` starts with one of `prefixes`, and where it ends
/// (past its newline).
const fn line_starting(b: &[u8], at: usize, prefixes: &[&[u8]]) -> (bool, usize) {
    let mut end = at;
    while end < b.len() && b[end] != b'\n' {
        end += 1;
    }
    if end < b.len() {
        end += 1;
    }
    let mut k = 0;
    while k < prefixes.len() {
        let p = prefixes[k];
        if end - at >= p.len() {
            let mut j = 0;
            while j < p.len() && b[at + j] == p[j] {
                j += 1;
            }
            if j == p.len() {
                return (true, end);
            }
        }
        k += 1;
    }
    (false, end)
}

// head_len(text) and head_bytes::<N>(text): the [`INDEXED`] lines, copied at compile time so
// the browser build carries these bytes and not the whole text.
crate::line_cut::line_cut!(head_len, head_bytes, indexed_line);
// zh_head_len(text) and zh_head_bytes::<N>(text): the [`TRANSLATED_ZH`] lines.
crate::line_cut::line_cut!(zh_head_len, zh_head_bytes, translated_zh_line);

impl Preset {
    /// Its title.
    pub fn title(&self) -> &'static str {
        header(self.head, "title").unwrap_or("")
    }

    /// Its one-line description.
    pub fn description(&self) -> &'static str {
        header(self.head, "description").unwrap_or("")
    }

    /// Its title in `lang` (`# title.zh:`), or the English one when it has none (or, in the
    /// browser, before the Chinese catalog has arrived).
    pub fn title_in(&self, lang: Lang) -> &'static str {
        self.translated(lang, "title")
    }

    /// Its description in `lang` (`# description.zh:`), or the English one.
    pub fn description_in(&self, lang: Lang) -> &'static str {
        self.translated(lang, "description")
    }

    fn translated(&self, lang: Lang, key: &str) -> &'static str {
        let translated = super::preset_heads::head(self, lang)
            .and_then(|h| header(h, &format!("{key}.{}", lang.code())));
        translated.unwrap_or_else(|| header(self.head, key).unwrap_or(""))
    }

    /// What this preset lacks in `lang`: its title, description or the translation of a
    /// `say` line (by line number). Empty when it is complete.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn missing_in(&self, lang: Lang) -> Vec<String> {
        missing_in(self.text, lang)
    }

    /// The group of lessons it belongs to (one of [`GROUPS`]; "" when the header is missing).
    pub fn group(&self) -> &'static str {
        header(self.head, "group").unwrap_or("")
    }

    /// What a student should take away, shown when the lesson ends ("" when missing).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn recap(&self) -> &'static str {
        header(self.text, "recap").unwrap_or("")
    }

    /// Its recap in `lang` (`# recap.zh:`), or the English one.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn recap_in(&self, lang: Lang) -> &'static str {
        recap_in(self.text, lang)
    }

    /// The preset after this one in teaching order.
    pub fn next(&self) -> Option<&'static Preset> {
        let i = PRESETS.iter().position(|p| p.id == self.id)?;
        PRESETS.get(i + 1)
    }
}

/// What preset text `text` lacks in `lang` (see [`Preset::missing_in`]).
#[cfg(not(target_arch = "wasm32"))]
fn missing_in(text: &str, lang: Lang) -> Vec<String> {
    let mut gaps = Vec::new();
    if lang == Lang::En {
        return gaps;
    }
    for key in ["title", "description", "recap"] {
        if header(text, &format!("{key}.{}", lang.code())).is_none() {
            gaps.push(format!("# {key}.{}", lang.code()));
        }
    }
    match Script::parse(text) {
        Ok(script) => {
            for l in &script.lines {
                if l.say().is_some() && !l.translations.iter().any(|(t, _)| *t == lang) {
                    gaps.push(format!(
                        "line {}: say without say.{}",
                        l.lineno,
                        lang.code()
                    ));
                }
            }
        }
        Err(e) => gaps.push(format!("does not parse: {e}")),
    }
    gaps
}

macro_rules! presets {
    ($($id:literal),* $(,)?) => {
        /// Every preset, in teaching order.
        pub const PRESETS: &[Preset] = &[
            $({
                const TEXT: &str = include_str!(concat!("../../scenarios/presets/", $id, ".scn"));
                const HEAD: [u8; head_len(TEXT)] = head_bytes::<{ head_len(TEXT) }>(TEXT);
                const ZH_HEAD: &str = {
                    const BYTES: [u8; zh_head_len(TEXT)] =
                        zh_head_bytes::<{ zh_head_len(TEXT) }>(TEXT);
                    match std::str::from_utf8(&BYTES) {
                        Ok(s) => s,
                        Err(_) => panic!("a header line cut inside a character"),
                    }
                };
                Preset {
                    id: $id,
                    head: match std::str::from_utf8(&HEAD) {
                        Ok(s) => s,
                        Err(_) => panic!("a header line cut inside a character"),
                    },
                    #[cfg(not(target_arch = "wasm32"))]
                    zh_head: ZH_HEAD,
                    zh_digest: digest(ZH_HEAD),
                    digest: digest(TEXT),
                    #[cfg(not(target_arch = "wasm32"))]
                    text: TEXT,
                }
            },)*
        ];
    };
}

presets![
    "01-election",
    "02-leader-killed",
    "03-follower-isolated",
    "04-leader-isolated",
    "05-new-member-leader-side",
    "06-split-two-two",
    "07-partition-then-add",
    "08-add-to-single-node",
    "09-misconfigured-single-node",
    "10-follower-down-plus-misconfigured",
    "11-add-learner",
    "12-promote-learner",
    "13-promotion-refused",
    "14-learner-limits",
    "15-probe-replicate-snapshot",
    "16-prevote-checkquorum",
    "17-joint-consensus",
    "18-linearizable-vs-serializable",
    "19-figure-8",
    "20-figure-8-unsafe",
    "21-compare-prevote-rejoin",
    "22-compare-learner-vs-voter",
    "23-compare-checkquorum-isolated-leader",
    "24-compare-figure-8-rule",
    "25-explore-figure-8-unsafe",
    "26-explore-disruptive-rejoin",
    "27-explore-defaults-hold",
];

/// The lesson groups, in teaching order.
pub const GROUPS: [&str; 4] = [
    "basics",
    "failures",
    "membership & learners",
    "etcd internals",
];

/// The name of lesson group `group` (one of [`GROUPS`]) in `lang`.
pub fn group_name(group: &str, lang: Lang) -> &'static str {
    let key = match group {
        "basics" => "group.basics",
        "failures" => "group.failures",
        "membership & learners" => "group.membership",
        "etcd internals" => "group.etcd_internals",
        _ => return "",
    };
    crate::i18n::lookup(lang, key).unwrap_or("")
}

/// The preset with this id.
pub fn find(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_narrated_in_every_language() {
        let gaps: Vec<String> = PRESETS
            .iter()
            .flat_map(|p| {
                Lang::ALL.iter().flat_map(move |l| {
                    p.missing_in(*l)
                        .into_iter()
                        .map(move |g| format!("{}: {g}", p.id))
                })
            })
            .collect();
        assert!(gaps.is_empty(), "untranslated:\n{}", gaps.join("\n"));
    }

    #[test]
    fn a_missing_translation_is_found() {
        let text =
            "# title: T\n# title.zh: 题\n# description: D\ncluster 1\nsay a\nsay.zh 甲\nsay b\n";
        assert_eq!(header_in(text, "title", Lang::Zh), "题");
        assert_eq!(header_in(text, "description", Lang::Zh), "D");
        assert_eq!(
            missing_in(text, Lang::Zh),
            [
                "# description.zh",
                "# recap.zh",
                "line 7: say without say.zh"
            ]
        );
    }

    #[test]
    fn the_index_says_what_the_text_says() {
        for p in PRESETS {
            for l in Lang::ALL {
                assert_eq!(p.title_in(l), header_in(p.text, "title", l), "{}", p.id);
                assert_eq!(
                    p.description_in(l),
                    header_in(p.text, "description", l),
                    "{}",
                    p.id
                );
            }
            assert_eq!(Some(p.group()), header(p.text, "group"), "{}", p.id);
            assert!(!p.head.contains("# recap"), "{}", p.id);
            assert!(!p.head.contains(".zh"), "{}", p.id);
            assert!(p.zh_head.contains("# title.zh:"), "{}", p.id);
            assert_eq!(p.digest, digest(p.text));
        }
    }

    #[test]
    fn group_names_exist_in_every_language() {
        for g in GROUPS {
            for l in Lang::ALL {
                assert!(!group_name(g, l).is_empty(), "{g} in {l:?}");
            }
        }
        assert_eq!(group_name("basics", Lang::Zh), "基础");
    }

    #[test]
    fn every_preset_has_lesson_headers() {
        for p in PRESETS {
            assert!(!p.title().is_empty(), "{}: no title", p.id);
            assert!(!p.description().is_empty(), "{}: no description", p.id);
            assert!(
                GROUPS.contains(&p.group()),
                "{}: group '{}'",
                p.id,
                p.group()
            );
            assert!(!p.recap().is_empty(), "{}: no recap", p.id);
        }
        for g in GROUPS {
            assert!(PRESETS.iter().any(|p| p.group() == g), "group {g} is empty");
        }
        assert_eq!(PRESETS[0].next().map(|p| p.id), Some("02-leader-killed"));
        assert!(PRESETS.last().unwrap().next().is_none());
    }
}
