//! A pool of drawn slots for short-lived items (messages in flight), so that the drawing's
//! elements are reused instead of created and removed.
//!
//! Nine nodes send and deliver dozens of messages at every tick. Drawn as one element group
//! each, keyed by message, every tick created and removed that many groups (and their shapes,
//! their text to lay out, their listeners). The pool instead keeps one slot per element: an
//! item keeps its slot while it lives; when it goes, its slot goes idle (hidden, still in the
//! page) and the next new item takes it, preferably one whose last item looked the same, so
//! reusing it changes as few attributes as possible. The pool grows only when more items live
//! at once than it has slots, and gives back idle slots at its end only when it has many more
//! than it needs.

use crate::raft::vec_map::VecMap;
use std::collections::BTreeSet;

/// Idle slots kept beyond twice the items alive, so a pool that shrank does not grow back at
/// the next burst.
const SPARE: usize = 16;

/// One slot: the item it shows (none while idle) and the last item it showed.
pub struct Slot<T> {
    /// The live item's id; `None` while the slot is idle.
    pub id: Option<u64>,
    /// What the slot shows, or showed last while idle.
    pub item: T,
}

/// The slots, in drawing order (their index is their element's key).
pub struct Pool<T> {
    slots: Vec<Slot<T>>,
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool { slots: Vec::new() }
    }
}

impl<T: Clone> Pool<T> {
    /// The slots, in key order, as last placed.
    pub fn slots(&self) -> &[Slot<T>] {
        &self.slots
    }

    /// Places `items` (each with its id): an item already placed keeps its slot (updated to
    /// the item's new state); a new one takes the idle slot whose last item is most `alike`
    /// (a higher score is more alike; ties go to the lowest slot), or a new slot when none is
    /// idle. Slots whose item is gone become idle. Returns the slots, in key order.
    pub fn place<'a>(
        &mut self,
        items: impl IntoIterator<Item = (u64, &'a T)>,
        alike: impl Fn(&T, &T) -> u8,
    ) -> &[Slot<T>]
    where
        T: 'a,
    {
        let items: Vec<(u64, &T)> = items.into_iter().collect();
        let mut live: BTreeSet<u64> = BTreeSet::new();
        live.extend(items.iter().map(|(id, _)| *id));
        let mut placed: VecMap<u64, usize> = VecMap::new();
        for (i, slot) in self.slots.iter_mut().enumerate() {
            match slot.id {
                Some(id) if live.contains(&id) => {
                    placed.insert(id, i);
                }
                _ => slot.id = None,
            }
        }
        for (id, item) in items.iter().copied() {
            if let Some(&i) = placed.get(&id) {
                self.slots[i].item = item.clone();
                continue;
            }
            let best = self
                .slots
                .iter()
                .enumerate()
                .filter(|(_, s)| s.id.is_none())
                .max_by_key(|(i, s)| (alike(&s.item, item), std::cmp::Reverse(*i)))
                .map(|(i, _)| i);
            let slot = Slot {
                id: Some(id),
                item: item.clone(),
            };
            match best {
                Some(i) => self.slots[i] = slot,
                None => self.slots.push(slot),
            }
        }
        while self.slots.len() > 2 * items.len() + SPARE
            && self.slots.last().is_some_and(|s| s.id.is_none())
        {
            self.slots.pop();
        }
        &self.slots
    }
}
