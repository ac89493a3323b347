//! The narrated presets: one `.scn` file per lesson, shipped inside the app and run by the
//! tests. Each file starts with `# title:`, `# description:`, `# group:` and `# recap:` lines
//! (see `docs/scenario-language.md`, "Lesson headers").

use crate::i18n::Lang;

use super::scenario::Script;

/// One preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// File name without `.scn`, e.g. "01-election".
    pub id: &'static str,
    /// The scenario text.
    pub text: &'static str,
}

impl Preset {
    /// The value of the `# KEY: value` header line, exactly KEY (so `title` never matches
    /// `title.zh`).
    fn header(&self, key: &str) -> Option<&'static str> {
        let text: &'static str = self.text;
        text.lines()
            .filter_map(|l| l.trim().strip_prefix('#'))
            .filter_map(|l| l.trim().strip_prefix(key))
            .find_map(|l| l.strip_prefix(':'))
            .map(str::trim)
    }

    /// Its title.
    pub fn title(&self) -> &'static str {
        self.header("title").unwrap_or("")
    }

    /// Its one-line description.
    pub fn description(&self) -> &'static str {
        self.header("description").unwrap_or("")
    }

    /// Its title in `lang` (`# title.zh:`), or the English one when it has none.
    pub fn title_in(&self, lang: Lang) -> &'static str {
        self.localized("title", lang)
    }

    /// Its description in `lang` (`# description.zh:`), or the English one.
    pub fn description_in(&self, lang: Lang) -> &'static str {
        self.localized("description", lang)
    }

    fn localized(&self, key: &str, lang: Lang) -> &'static str {
        if lang != Lang::En {
            if let Some(t) = self.header(&format!("{key}.{}", lang.code())) {
                return t;
            }
        }
        self.header(key).unwrap_or("")
    }

    /// What this preset lacks in `lang`: its title, description or the translation of a
    /// `say` line (by line number). Empty when it is complete.
    pub fn missing_in(&self, lang: Lang) -> Vec<String> {
        let mut gaps = Vec::new();
        if lang == Lang::En {
            return gaps;
        }
        for key in ["title", "description", "recap"] {
            if self.header(&format!("{key}.{}", lang.code())).is_none() {
                gaps.push(format!("# {key}.{}", lang.code()));
            }
        }
        match Script::parse(self.text) {
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

    /// The group of lessons it belongs to (one of [`GROUPS`]; "" when the header is missing).
    pub fn group(&self) -> &'static str {
        self.header("group").unwrap_or("")
    }

    /// What a student should take away, shown when the lesson ends ("" when missing).
    pub fn recap(&self) -> &'static str {
        self.header("recap").unwrap_or("")
    }

    /// Its recap in `lang` (`# recap.zh:`), or the English one.
    pub fn recap_in(&self, lang: Lang) -> &'static str {
        self.localized("recap", lang)
    }

    /// The preset after this one in teaching order.
    pub fn next(&self) -> Option<&'static Preset> {
        let i = PRESETS.iter().position(|p| p.id == self.id)?;
        PRESETS.get(i + 1)
    }
}

macro_rules! presets {
    ($($id:literal),* $(,)?) => {
        /// Every preset, in teaching order.
        pub const PRESETS: &[Preset] = &[
            $(Preset { id: $id, text: include_str!(concat!("../../scenarios/presets/", $id, ".scn")) },)*
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
        let p = Preset {
            id: "t",
            text:
                "# title: T\n# title.zh: 题\n# description: D\ncluster 1\nsay a\nsay.zh 甲\nsay b\n",
        };
        assert_eq!(p.title_in(Lang::Zh), "题");
        assert_eq!(p.description_in(Lang::Zh), "D");
        assert_eq!(
            p.missing_in(Lang::Zh),
            [
                "# description.zh",
                "# recap.zh",
                "line 7: say without say.zh"
            ]
        );
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
