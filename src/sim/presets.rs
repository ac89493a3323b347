//! The narrated presets: one `.scn` file per lesson, shipped inside the app and run by the
//! tests. Each file starts with `# title:` and `# description:` lines.

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

/// The preset with this id.
pub fn find(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}
