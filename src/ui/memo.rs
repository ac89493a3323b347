//! Panels rebuilt only when what they show changed.
//!
//! The app re-renders on every animation frame while something plays, but most panels (the
//! toolbar's controls, the tabs, the progress table, the event log's filters) show nothing
//! that moves with the clock. Each such panel is given a stamp: a hash of the view-state
//! generation (bumped by every message but the frame, so any click, key, field, seek or
//! language switch changes it) and of the few simulator values the panel reads that can change
//! while the clock runs. While the stamp stays the same, the panel's virtual DOM is neither
//! built again (the last one is kept in [`Memos`]) nor compared (the [`Frozen`] component's
//! props compare by stamp), so yew skips the whole subtree.
//!
//! The counts of builds per panel are shown in the hidden status element (`data-builds`) for
//! the render tests and benchmarks.

use std::cell::RefCell;
use std::hash::{DefaultHasher, Hash, Hasher};

use yew::prelude::*;

/// The panels that keep their last build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// The toolbar's play, pace and fast buttons.
    ToolbarPlay,
    /// The toolbar's folded options, badge, theme, language and help.
    ToolbarOptions,
    /// The tab bar and the chosen tab's panel.
    Tabs,
    /// The leader's progress table.
    Progress,
    /// The event log (its filters and list).
    Events,
    /// The welcome box shown beside free play.
    Welcome,
}

impl Slot {
    const ALL: [Slot; 6] = [
        Slot::ToolbarPlay,
        Slot::ToolbarOptions,
        Slot::Tabs,
        Slot::Progress,
        Slot::Events,
        Slot::Welcome,
    ];

    fn name(self) -> &'static str {
        match self {
            Slot::ToolbarPlay => "toolbar-play",
            Slot::ToolbarOptions => "toolbar-options",
            Slot::Tabs => "tabs",
            Slot::Progress => "progress",
            Slot::Events => "events",
            Slot::Welcome => "welcome",
        }
    }
}

/// The last build of each panel, with the stamp it was built for, and how often each was built.
#[derive(Default)]
pub struct Memos {
    kept: RefCell<[Option<(u64, Html)>; Slot::ALL.len()]>,
    builds: RefCell<[u64; Slot::ALL.len()]>,
}

impl Memos {
    /// The panel for `stamp`: the kept build when it was made for the same stamp, else a new
    /// one from `build`. Wrapped in [`Frozen`], so an unchanged panel is not compared either.
    pub fn panel(&self, slot: Slot, stamp: u64, build: impl FnOnce() -> Html) -> Html {
        let i = slot as usize;
        let kept = self.kept.borrow()[i]
            .as_ref()
            .filter(|(s, _)| *s == stamp)
            .map(|(_, h)| h.clone());
        let view = match kept {
            Some(h) => h,
            None => {
                // Built outside the borrow: a panel may itself contain memoized parts.
                let h = build();
                self.kept.borrow_mut()[i] = Some((stamp, h.clone()));
                self.builds.borrow_mut()[i] += 1;
                h
            }
        };
        html! { <Frozen {stamp} {view} /> }
    }

    /// "toolbar:3 tabs:1 ...": how many times each panel was built since the app started.
    pub fn builds(&self) -> String {
        let b = self.builds.borrow();
        Slot::ALL
            .iter()
            .map(|s| format!("{}:{}", s.name(), b[*s as usize]))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A stamp from the view-state generation and the values a panel reads from the run.
pub fn stamp(generation: u64, parts: impl Hash) -> u64 {
    let mut h = DefaultHasher::new();
    generation.hash(&mut h);
    parts.hash(&mut h);
    h.finish()
}

/// Props of [`Frozen`]: equal when the stamps are (the view was built from the same inputs).
#[derive(Properties, Clone)]
pub struct FrozenProps {
    pub stamp: u64,
    pub view: Html,
}

impl PartialEq for FrozenProps {
    fn eq(&self, other: &Self) -> bool {
        self.stamp == other.stamp
    }
}

/// Shows a kept build; re-rendered only when its stamp changes.
#[component]
pub fn Frozen(p: &FrozenProps) -> Html {
    p.view.clone()
}
