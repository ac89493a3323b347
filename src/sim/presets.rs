//! The narrated presets: one `.scn` file per lesson, shipped inside the app and run by the
//! tests. Each file starts with `# title:`, `# description:`, `# group:` and `# recap:` lines
//! (see `docs/scenario-language.md`, "Lesson headers").

/// One preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// File name without `.scn`, e.g. "01-election".
    pub id: &'static str,
    /// The scenario text.
    pub text: &'static str,
}

impl Preset {
    fn header(&self, key: &str) -> &'static str {
        let text: &'static str = self.text;
        text.lines()
            .filter_map(|l| l.trim().strip_prefix('#'))
            .filter_map(|l| l.trim().strip_prefix(key))
            .map(|l| l.trim_start_matches(':').trim())
            .next()
            .unwrap_or("")
    }

    /// Its title.
    pub fn title(&self) -> &'static str {
        self.header("title")
    }

    /// Its one-line description.
    pub fn description(&self) -> &'static str {
        self.header("description")
    }

    /// The group of lessons it belongs to (one of [`GROUPS`]; "" when the header is missing).
    pub fn group(&self) -> &'static str {
        self.header("group")
    }

    /// What a student should take away, shown when the lesson ends ("" when missing).
    pub fn recap(&self) -> &'static str {
        self.header("recap")
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

/// The preset with this id.
pub fn find(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

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
