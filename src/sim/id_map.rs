//! A map keyed by ids handed out in increasing order, kept as a deque sorted by id: the
//! simulator's recent client requests.
//!
//! Why not a `BTreeMap<u64, Request>`: in the browser bundle each B-tree key/value pair brings
//! its own copy of the tree's node code, and `collect`ing one brings a copy of std's stable
//! sort; together about 11 KB of wasm for this one map. Requests are made with ever larger
//! ids (so an insert is a push at the back) and forgotten mostly from the front, oldest first
//! (a pop, or a short move of the few older ones still pending), which a deque does as cheaply
//! as the tree. `raft::vec_map::VecMap` would move every later entry on each removal.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::ops::{Bound, Index, RangeBounds};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An ordered map from `u64` ids to `V`, stored as `(id, value)` pairs sorted by id.
///
/// Guarantees: it reads as a `BTreeMap<u64, V>` would (same lookups, same ascending
/// iteration order, same `Debug` text and serialized form, equality by contents), whatever
/// order entries are inserted and removed in. Inserting an id above every present one and
/// removing the first entries cost O(1); any other insertion or removal moves the entries
/// on the shorter side of the spot.
#[derive(Clone, PartialEq, Eq)]
pub struct IdMap<V> {
    entries: VecDeque<(u64, V)>,
}

impl<V> Default for IdMap<V> {
    fn default() -> Self {
        IdMap {
            entries: VecDeque::new(),
        }
    }
}

impl<V> IdMap<V> {
    /// An empty map.
    pub fn new() -> Self {
        IdMap::default()
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Where `id` is, or where it would go.
    fn find(&self, id: u64) -> Result<usize, usize> {
        // The common case, a new id, needs no search.
        match self.entries.back() {
            None => Err(0),
            Some((last, _)) if *last < id => Err(self.entries.len()),
            _ => self.entries.binary_search_by_key(&id, |(k, _)| *k),
        }
    }

    /// Sets the value of `id`, returning the value it replaced.
    pub fn insert(&mut self, id: u64, value: V) -> Option<V> {
        match self.find(id) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (id, value));
                None
            }
        }
    }

    /// The value of `id`.
    pub fn get(&self, id: &u64) -> Option<&V> {
        self.find(*id).ok().map(|i| &self.entries[i].1)
    }

    /// The value of `id`, to change.
    pub fn get_mut(&mut self, id: &u64) -> Option<&mut V> {
        match self.find(*id) {
            Ok(i) => Some(&mut self.entries[i].1),
            Err(_) => None,
        }
    }

    /// Removes `id`, returning its value.
    pub fn remove(&mut self, id: &u64) -> Option<V> {
        let i = self.find(*id).ok()?;
        self.entries.remove(i).map(|(_, v)| v)
    }

    /// The entries in ascending id order.
    pub fn iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = (&u64, &V)> + ExactSizeIterator + Clone + '_ {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The ids in ascending order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &u64> + ExactSizeIterator + '_ {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in ascending id order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator + '_ {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The entries whose ids are in `range`, in ascending order.
    pub fn range(
        &self,
        range: impl RangeBounds<u64>,
    ) -> impl DoubleEndedIterator<Item = (&u64, &V)> + '_ {
        let from = self
            .entries
            .partition_point(|(k, _)| match range.start_bound() {
                Bound::Included(s) => k < s,
                Bound::Excluded(s) => k <= s,
                Bound::Unbounded => false,
            });
        let to = self
            .entries
            .partition_point(|(k, _)| match range.end_bound() {
                Bound::Included(e) => k <= e,
                Bound::Excluded(e) => k < e,
                Bound::Unbounded => true,
            });
        self.entries.range(from..to.max(from)).map(|(k, v)| (k, v))
    }
}

impl<V> FromIterator<(u64, V)> for IdMap<V> {
    /// As `BTreeMap`'s: an id given twice keeps the last value.
    fn from_iter<I: IntoIterator<Item = (u64, V)>>(iter: I) -> Self {
        let mut map = IdMap::new();
        for (k, v) in iter {
            map.insert(k, v);
        }
        map
    }
}

impl<V> Index<&u64> for IdMap<V> {
    type Output = V;

    /// The value of `id`; panics when there is none, as `BTreeMap`'s index does.
    fn index(&self, id: &u64) -> &V {
        self.get(id).expect("no entry with this id")
    }
}

impl<V: fmt::Debug> fmt::Debug for IdMap<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<V: Serialize> Serialize for IdMap<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for IdMap<V> {
    /// Read as a `BTreeMap` is (an id given twice keeps the last value); nothing in the
    /// browser build reads one, so the tree's code stays out of the bundle.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(IdMap {
            entries: BTreeMap::<u64, V>::deserialize(d)?.into_iter().collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::Rng;

    /// Random inserts (mostly new ids at the back, as requests are made, some anywhere),
    /// removals (mostly of old ids, as pruning does) and changes, against a `BTreeMap`,
    /// checking every way of reading the map after each step.
    #[test]
    fn it_reads_as_a_btree_map() {
        let mut rng = Rng::new(7);
        let mut ours: IdMap<String> = IdMap::new();
        let mut theirs: BTreeMap<u64, String> = BTreeMap::new();
        let mut next = 0u64;
        for step in 0..4000u64 {
            match rng.range(0, 10) {
                0..=4 => {
                    next += rng.range(1, 3);
                    let v = format!("v{step}");
                    assert_eq!(ours.insert(next, v.clone()), theirs.insert(next, v));
                }
                5 => {
                    let id = rng.range(0, next + 2);
                    let v = format!("w{step}");
                    assert_eq!(ours.insert(id, v.clone()), theirs.insert(id, v));
                }
                6 | 7 => {
                    let first = theirs.keys().next().copied().unwrap_or(0);
                    let id = first + rng.range(0, 4);
                    assert_eq!(ours.remove(&id), theirs.remove(&id));
                }
                8 => {
                    let id = rng.range(0, next + 2);
                    assert_eq!(ours.remove(&id), theirs.remove(&id));
                }
                _ => {
                    let id = rng.range(0, next + 2);
                    if let Some(v) = ours.get_mut(&id) {
                        v.push('!');
                    }
                    if let Some(v) = theirs.get_mut(&id) {
                        v.push('!');
                    }
                }
            }
            assert_eq!(ours.len(), theirs.len());
            assert_eq!(ours.is_empty(), theirs.is_empty());
            assert!(ours.iter().eq(theirs.iter()), "step {step}");
            assert!(ours.iter().rev().eq(theirs.iter().rev()));
            assert!(ours.keys().eq(theirs.keys()));
            assert!(ours.values().rev().eq(theirs.values().rev()));
            let probe = rng.range(0, next + 2);
            assert_eq!(ours.get(&probe), theirs.get(&probe));
            let hi = probe + rng.range(0, 6);
            assert!(ours.range(probe..).eq(theirs.range(probe..)));
            assert!(ours.range(probe..hi).eq(theirs.range(probe..hi)));
            assert!(ours.range(probe..=hi).eq(theirs.range(probe..=hi)));
            assert!(ours.range(..hi).rev().eq(theirs.range(..hi).rev()));
            assert!(ours
                .range((Bound::Excluded(probe), Bound::Unbounded))
                .eq(theirs.range((Bound::Excluded(probe), Bound::Unbounded))));
            if let Some(k) = theirs.keys().next() {
                assert_eq!(ours[k], theirs[k]);
            }
        }
        assert!(ours.len() > 100, "{}", ours.len());
        assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
        assert_eq!(format!("{ours:#?}"), format!("{theirs:#?}"));
        let json = serde_json::to_string(&ours).unwrap();
        assert_eq!(json, serde_json::to_string(&theirs).unwrap());
        let back: IdMap<String> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, ours);
        let collected: IdMap<String> = theirs.clone().into_iter().rev().collect();
        assert_eq!(collected, ours);
        let dup: IdMap<u8> = [(3, 1), (1, 2), (3, 4)].into_iter().collect();
        let dup_tree: BTreeMap<u64, u8> = [(3, 1), (1, 2), (3, 4)].into_iter().collect();
        assert!(dup.iter().eq(dup_tree.iter()));
    }

    #[test]
    #[should_panic(expected = "no entry")]
    fn indexing_a_missing_id_panics_as_a_btree_map_does() {
        let m: IdMap<u8> = IdMap::new();
        let _ = m[&1];
    }
}
