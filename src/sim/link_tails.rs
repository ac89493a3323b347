//! The arrival time of the last message on each directed link, which keeps links FIFO.
//!
//! Every message sent reads and writes its link's entry. Node ids are small (n1..n64 for a
//! cluster made whole, a few more added later), so a square table indexed by (from, to)
//! answers with one multiplication instead of a tree search keyed by pairs; links of larger
//! ids, possible through scenarios (up to n1000) and the library, go to a map.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::raft::vec_map::VecMap;
use crate::raft::NodeId;

/// Ids below this have their links in the table (its side grows up to this as ids appear).
const TABLE_IDS: usize = 65;

/// A table cell no message has used yet.
const ABSENT: u64 = u64::MAX;

/// Link (from, to) → arrival time of the last message sent on it, ms.
///
/// Guarantees: it reads as the `BTreeMap<(NodeId, NodeId), u64>` it replaces (same `Debug`
/// text and serialized form, equality by contents), whatever the ids.
#[derive(Clone, Default)]
pub struct LinkTails {
    /// Side of the table: ids `0..side` on both ends.
    side: usize,
    /// `table[from * side + to]`, [`ABSENT`] where no message went.
    table: Vec<u64>,
    /// Links with an id outside the table, and a tail of exactly `u64::MAX`.
    large: VecMap<(NodeId, NodeId), u64>,
}

impl LinkTails {
    /// No link used.
    pub fn new() -> LinkTails {
        LinkTails::default()
    }

    /// Widens the table so that ids below `side` fit.
    fn grow(&mut self, side: usize) {
        let mut table = vec![ABSENT; side * side];
        for from in 0..self.side {
            let row = &self.table[from * self.side..(from + 1) * self.side];
            table[from * side..from * side + self.side].copy_from_slice(row);
        }
        self.table = table;
        self.side = side;
    }

    /// The table index of link (from, to), widening the table if needed; None outside it.
    fn index(&mut self, from: NodeId, to: NodeId) -> Option<usize> {
        let (f, t) = (usize::try_from(from).ok()?, usize::try_from(to).ok()?);
        let need = f.max(t) + 1;
        if need > TABLE_IDS {
            return None;
        }
        if need > self.side {
            self.grow(need);
        }
        Some(f * self.side + t)
    }

    /// A message sent on (from, to) that would arrive at `at` arrives at `at` or, if later,
    /// when the previous message on the link does; records and returns that time.
    pub fn arrival(&mut self, from: NodeId, to: NodeId, at: u64) -> u64 {
        if let Some(i) = self.index(from, to) {
            // A table link is in the map only once its tail is `u64::MAX`.
            let in_map = !self.large.is_empty() && self.large.contains_key(&(from, to));
            if !in_map {
                let prev = self.table[i];
                let at = if prev == ABSENT { at } else { at.max(prev) };
                if at != ABSENT {
                    self.table[i] = at;
                    return at;
                }
                self.table[i] = ABSENT;
                self.large.insert((from, to), at);
                return at;
            }
        }
        let tail = self.large.get_or_insert_with((from, to), || 0);
        let at = at.max(*tail);
        *tail = at;
        at
    }

    /// The arrival time of the last message sent on (from, to), None if none was. A read: it
    /// widens nothing.
    pub fn last(&self, from: NodeId, to: NodeId) -> Option<u64> {
        if let Some(tail) = self.large.get(&(from, to)) {
            return Some(*tail);
        }
        let (f, t) = (usize::try_from(from).ok()?, usize::try_from(to).ok()?);
        if f >= self.side || t >= self.side {
            return None;
        }
        let tail = self.table[f * self.side + t];
        (tail != ABSENT).then_some(tail)
    }

    /// Every used link and its tail, ordered by (from, to).
    pub fn to_map(&self) -> VecMap<(NodeId, NodeId), u64> {
        let mut map = self.large.clone();
        for (i, &tail) in self.table.iter().enumerate() {
            if tail != ABSENT {
                let (from, to) = ((i / self.side) as NodeId, (i % self.side) as NodeId);
                map.insert((from, to), tail);
            }
        }
        map
    }
}

impl PartialEq for LinkTails {
    fn eq(&self, other: &Self) -> bool {
        self.to_map() == other.to_map()
    }
}

impl Eq for LinkTails {}

/// Printed exactly as a `BTreeMap<(NodeId, NodeId), u64>`, so `Sim::fingerprint` (a digest
/// of `Debug` text) does not depend on the storage.
impl fmt::Debug for LinkTails {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_map().fmt(f)
    }
}

impl Serialize for LinkTails {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_map().serialize(s)
    }
}

impl<'de> Deserialize<'de> for LinkTails {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<(NodeId, NodeId), u64>::deserialize(d)?;
        let mut out = LinkTails::new();
        for ((from, to), tail) in map {
            match out.index(from, to) {
                Some(i) if tail != ABSENT => out.table[i] = tail,
                _ => {
                    out.large.insert((from, to), tail);
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::Rng;

    /// Random sends on links of small and large ids, checked against the map it replaces.
    #[test]
    fn it_keeps_links_fifo_and_reads_as_the_ordered_map() {
        let mut rng = Rng::new(21);
        let mut tails = LinkTails::new();
        let mut model: BTreeMap<(NodeId, NodeId), u64> = BTreeMap::new();
        let ids = [1, 2, 3, 5, 9, 17, 33, 64, 65, 100, 1000];
        for step in 0..5000 {
            let from = ids[rng.range(0, ids.len() as u64) as usize];
            let to = ids[rng.range(0, ids.len() as u64) as usize];
            let at = if step % 997 == 0 {
                u64::MAX
            } else {
                rng.range(0, 10_000)
            };
            let want = {
                let tail = model.entry((from, to)).or_insert(0);
                *tail = at.max(*tail);
                *tail
            };
            assert_eq!(
                tails.arrival(from, to, at),
                want,
                "step {step}: n{from}→n{to}"
            );
            if step % 250 == 0 {
                assert_eq!(format!("{tails:?}"), format!("{model:?}"));
                assert!(tails.to_map().iter().eq(model.iter()));
            }
        }
        assert!(tails.side > 1 && !tails.large.is_empty());
        for from in ids {
            for to in ids {
                let want = model.get(&(from, to)).copied();
                assert_eq!(tails.last(from, to), want, "last on n{from}→n{to}");
            }
        }
        let mut grown_apart = LinkTails::new();
        for ((from, to), tail) in model.iter().rev() {
            grown_apart.arrival(*from, *to, *tail);
        }
        assert_eq!(grown_apart, tails, "equality is by contents");
    }
}
