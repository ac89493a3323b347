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
//! Long lists whose items change one at a time (a node's log boxes, the event lines) make
//! each item a component of its own, so a changed item is built alone; [`item_built`] counts
//! those builds. A message in flight's pill is kept per slot of the messages layer: it moves
//! by its group's position and is built only when its slot starts showing another message.
//!
//! The counts of builds per panel and per kind of item are shown in the hidden status element
//! (`data-builds`) for the render tests and benchmarks.

use std::cell::{Cell, RefCell};
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
        frozen(stamp, view)
    }

    /// "toolbar:3 tabs:1 ... log-boxes:40 event-lines:12": how many times each panel and
    /// each kind of list item was built since the app started.
    pub fn builds(&self) -> String {
        let b = self.builds.borrow();
        let items = ITEM_BUILDS.with(Cell::get);
        Slot::ALL
            .iter()
            .map(|s| format!("{}:{}", s.name(), b[*s as usize]))
            .chain(
                Item::ALL
                    .iter()
                    .map(|i| format!("{}:{}", i.name(), items[*i as usize])),
            )
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The list items that are components of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// An entry box in a node's log row.
    LogBox,
    /// A line of the event log.
    EventLine,
    /// The shapes of a message in flight (its pill, arrowhead, tail and tooltip).
    MessagePill,
}

impl Item {
    const ALL: [Item; 3] = [Item::LogBox, Item::EventLine, Item::MessagePill];

    fn name(self) -> &'static str {
        match self {
            Item::LogBox => "log-boxes",
            Item::EventLine => "event-lines",
            Item::MessagePill => "message-pills",
        }
    }
}

thread_local! {
    static ITEM_BUILDS: Cell<[u64; Item::ALL.len()]> = const { Cell::new([0; Item::ALL.len()]) };
}

/// Counts one build of a list item (shown in `data-builds`).
pub fn item_built(item: Item) {
    ITEM_BUILDS.with(|c| {
        let mut n = c.get();
        n[item as usize] += 1;
        c.set(n);
    });
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

/// `view` in a [`Frozen`]: while `stamp` stays the same, yew neither re-renders nor compares it.
pub fn frozen(stamp: u64, view: Html) -> Html {
    html! { <Frozen {stamp} {view} /> }
}

/// Shows a kept build; re-rendered only when its stamp changes.
#[component]
pub fn Frozen(p: &FrozenProps) -> Html {
    p.view.clone()
}
