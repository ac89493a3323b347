//! A small ordered map kept as a sorted vector, for the maps keyed by node id.
//!
//! A cluster has at most 64 nodes, so a binary search over a vector is as fast as a tree and
//! its code is a fraction of the size: every `BTreeMap<K, V>` instantiation brings its own
//! copy of the tree's node handling (4 to 10 KB of wasm each), and the browser bundle holds
//! one per key/value pair. Maps that can grow large (requests, log indexes) stay B-trees.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::{Bound, RangeBounds};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An ordered map from `K` to `V` stored as `(key, value)` pairs sorted by key.
///
/// Guarantees: it reads as a `BTreeMap<K, V>` would (same lookups, same ascending iteration
/// order, same `Debug` text and serialized form, equality by contents), whatever order
/// entries are inserted and removed in. Insertion and removal move the entries after the
/// spot, so it is meant for small maps (a cluster's nodes).
#[derive(Clone, PartialEq, Eq)]
pub struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap {
            entries: Vec::new(),
        }
    }
}

impl<K: Ord, V> VecMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        VecMap::default()
    }

    /// Where `key` is (Ok) or would go (Err).
    fn find(&self, key: &K) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| k.cmp(key))
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The value of `key`.
    pub fn get(&self, key: &K) -> Option<&V> {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    /// The value of `key`, to change it.
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        match self.find(key) {
            Ok(i) => Some(&mut self.entries[i].1),
            Err(_) => None,
        }
    }

    /// Whether `key` has a value.
    pub fn contains_key(&self, key: &K) -> bool {
        self.find(key).is_ok()
    }

    /// Sets the value of `key`; returns the value it replaced.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// The value of `key`, inserting `make()` first when it has none.
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, make()));
                i
            }
        };
        &mut self.entries[i].1
    }

    /// Removes `key`; returns its value.
    pub fn remove(&mut self, key: &K) -> Option<V> {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Keeps only the entries for which `keep` holds.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }

    /// The entries whose keys are in `range`, in ascending key order (none when the range
    /// ends before it starts, where `BTreeMap::range` panics).
    pub fn range<R: RangeBounds<K>>(
        &self,
        range: R,
    ) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator + Clone {
        let from = match range.start_bound() {
            Bound::Included(s) => self.entries.partition_point(|(k, _)| k < s),
            Bound::Excluded(s) => self.entries.partition_point(|(k, _)| k <= s),
            Bound::Unbounded => 0,
        };
        let to = match range.end_bound() {
            Bound::Included(e) => self.entries.partition_point(|(k, _)| k <= e),
            Bound::Excluded(e) => self.entries.partition_point(|(k, _)| k < e),
            Bound::Unbounded => self.entries.len(),
        };
        self.entries[from..to.max(from)].iter().map(|(k, v)| (k, v))
    }

    /// The entry with the smallest key.
    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.entries.first().map(|(k, v)| (k, v))
    }

    /// The entry with the largest key.
    pub fn last_key_value(&self) -> Option<(&K, &V)> {
        self.entries.last().map(|(k, v)| (k, v))
    }

    /// Splits the map in two at `key`: returns the entries at or above it and keeps the
    /// rest, as `BTreeMap::split_off`.
    pub fn split_off(&mut self, key: &K) -> Self {
        let at = self.entries.partition_point(|(k, _)| k < key);
        VecMap {
            entries: self.entries.split_off(at),
        }
    }

    /// The entries in ascending key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The entries in ascending key order, values changeable.
    pub fn iter_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = (&K, &mut V)> + ExactSizeIterator {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }

    /// The keys in ascending order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in ascending key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The values in ascending key order, changeable.
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }
}

impl<K: Ord, V> Extend<(K, V)> for VecMap<K, V> {
    /// As `BTreeMap::extend`: a key given again keeps the last value.
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut map = VecMap::new();
        map.extend(iter);
        map
    }
}

impl<'a, K: Ord, V> IntoIterator for &'a VecMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<K: Ord, V> std::ops::Index<&K> for VecMap<K, V> {
    type Output = V;
    /// The value of `key`; panics when there is none, as `BTreeMap`'s index does.
    fn index(&self, key: &K) -> &V {
        match self.get(key) {
            Some(v) => v,
            None => panic!("no entry for the key"),
        }
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

/// Printed exactly as a `BTreeMap<K, V>`, so `Sim::fingerprint` (a digest of `Debug` text)
/// does not depend on the storage.
impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for VecMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

impl<K: Serialize, V: Serialize> Serialize for VecMap<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.entries.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de, K: Ord + Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for VecMap<K, V> {
    /// Read as a `BTreeMap` is (a key given twice keeps the last value); nothing in the
    /// browser build reads one, so the tree's code stays out of the bundle.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(VecMap {
            entries: BTreeMap::<K, V>::deserialize(d)?.into_iter().collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::Rng;

    /// Random inserts, removals, lookups and retains against a `BTreeMap`: same answers,
    /// same `Debug` text, same JSON, same iteration.
    #[test]
    fn it_reads_as_a_btree_map() {
        let mut rng = Rng::new(7);
        let mut map: VecMap<u64, u64> = VecMap::new();
        let mut model: BTreeMap<u64, u64> = BTreeMap::new();
        for step in 0..4000 {
            let k = rng.range(0, 40);
            match rng.range(0, 6) {
                0 | 1 => assert_eq!(map.insert(k, step), model.insert(k, step)),
                2 => assert_eq!(map.remove(&k), model.remove(&k)),
                3 => {
                    *map.get_or_insert_with(k, || step) += 1;
                    *model.entry(k).or_insert(step) += 1;
                }
                4 => {
                    if let (Some(a), Some(b)) = (map.get_mut(&k), model.get_mut(&k)) {
                        *a += 3;
                        *b += 3;
                    }
                }
                _ if step % 97 == 0 => {
                    map.retain(|k, v| (k + *v) % 3 != 0);
                    model.retain(|k, v| (k + *v) % 3 != 0);
                }
                _ => assert_eq!(map.contains_key(&k), model.contains_key(&k)),
            }
            assert_eq!(map.get(&k), model.get(&k));
            assert_eq!(map.len(), model.len());
        }
        assert!(map.len() > 5);
        assert_eq!(format!("{map:?}"), format!("{model:?}"));
        assert_eq!(format!("{map:#?}"), format!("{model:#?}"));
        assert!(map.iter().eq(model.iter()));
        assert!(map.keys().rev().eq(model.keys().rev()));
        assert!(map.values().eq(model.values()));
        let json = serde_json::to_string(&map).unwrap();
        assert_eq!(json, serde_json::to_string(&model).unwrap());
        let back: VecMap<u64, u64> = serde_json::from_str(&json).unwrap();
        assert!(back == map);
        for (a, b) in [(0, 50), (3, 3), (7, 20), (39, 40)] {
            assert!(map.range(a..b).eq(model.range(a..b)), "{a}..{b}");
            assert!(
                map.range(a..=b).rev().eq(model.range(a..=b).rev()),
                "{a}..={b}"
            );
            assert!(map.range(..b).eq(model.range(..b)));
            assert!(map.range(a..).eq(model.range(a..)));
        }
        assert_eq!(map.first_key_value(), model.first_key_value());
        assert_eq!(map.last_key_value(), model.last_key_value());
        let (mut m2, mut b2) = (map.clone(), model.clone());
        let (hi, bhi) = (m2.split_off(&17), b2.split_off(&17));
        assert!(m2.iter().eq(b2.iter()) && hi.iter().eq(bhi.iter()));
        let collected: VecMap<u64, u64> = [(3, 1), (1, 2), (3, 4)].into_iter().collect();
        assert_eq!(format!("{collected:?}"), "{1: 2, 3: 4}");
    }
}
