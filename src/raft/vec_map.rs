//! A small ordered map and set kept as sorted vectors, for the maps and sets of node ids.
//!
//! A cluster has at most 64 nodes, so a binary search over a vector is as fast as a tree and
//! its code is a fraction of the size: every `BTreeMap<K, V>` instantiation brings its own
//! copy of the tree's node handling (4 to 10 KB of wasm each), and the browser bundle holds
//! one per key/value pair. The client requests, which grow at the back and shrink at the
//! front, use `sim::id_map::IdMap`, a sorted deque.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Bound, RangeBounds};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A key of a [`VecMap`]: ordered, and for integer keys a guess of where a key sits.
///
/// Most maps here are keyed by node ids, and a cluster's ids are usually 1..n without a
/// gap: then the key `k` sits at `k - first key`, and a lookup that checks that one spot
/// first skips the binary search (it ran for every node and progress lookup, several per
/// message). The guess is only ever a hint: a wrong one costs one comparison.
pub trait MapKey: Ord {
    /// Where `self` would sit in a map whose keys run from `first` without a gap, if keys
    /// of this type can run so (None: no guess).
    fn dense_offset(&self, _first: &Self) -> Option<usize> {
        None
    }
}

impl MapKey for u64 {
    #[inline(always)]
    fn dense_offset(&self, first: &u64) -> Option<usize> {
        usize::try_from(self.checked_sub(*first)?).ok()
    }
}

impl<A: Ord, B: Ord> MapKey for (A, B) {}

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

impl<K: MapKey, V> VecMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        VecMap::default()
    }

    /// The spot of `key` when the dense guess finds it there.
    ///
    /// Always inlined into the lookups (`find`, `get`, `get_mut`, `contains_key`), the search
    /// left out of line: in the browser build (opt-level "z") a lookup was otherwise three
    /// calls, each passing its Option or Result through memory, around a subtraction and one
    /// comparison.
    #[inline(always)]
    fn guessed(&self, key: &K) -> Option<usize> {
        // Keys are unique, so a guessed spot that holds the key is its one spot.
        let (first, _) = self.entries.first()?;
        let i = key.dense_offset(first)?;
        match self.entries.get(i) {
            Some((k, _)) if k == key => Some(i),
            _ => None,
        }
    }

    /// Where `key` is (Ok) or would go (Err).
    fn find(&self, key: &K) -> Result<usize, usize> {
        match self.guessed(key) {
            Some(i) => Ok(i),
            None => self.search(key),
        }
    }

    /// Where `key` is (Ok) or would go (Err), by binary search.
    fn search(&self, key: &K) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| k.cmp(key))
    }

    /// The spot holding `key`.
    #[inline(always)]
    fn spot(&self, key: &K) -> Option<usize> {
        match self.guessed(key) {
            Some(i) => Some(i),
            None => self.search(key).ok(),
        }
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
        let i = self.spot(key)?;
        Some(&self.entries[i].1)
    }

    /// The value of `key`, to change it.
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        let i = self.spot(key)?;
        Some(&mut self.entries[i].1)
    }

    /// Whether `key` has a value.
    pub fn contains_key(&self, key: &K) -> bool {
        self.spot(key).is_some()
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

impl<K: MapKey, V> Extend<(K, V)> for VecMap<K, V> {
    /// As `BTreeMap::extend`: a key given again keeps the last value.
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl<K: MapKey, V> FromIterator<(K, V)> for VecMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut map = VecMap::new();
        map.extend(iter);
        map
    }
}

impl<'a, K: MapKey, V> IntoIterator for &'a VecMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<K: MapKey, V> std::ops::Index<&K> for VecMap<K, V> {
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

impl<'de, K: MapKey + Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for VecMap<K, V> {
    /// Read as a `BTreeMap` is (a key given twice keeps the last value); nothing in the
    /// browser build reads one, so the tree's code stays out of the bundle.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(VecMap {
            entries: BTreeMap::<K, V>::deserialize(d)?.into_iter().collect(),
        })
    }
}

/// An ordered set of `T` stored as a sorted vector without duplicates.
///
/// Guarantees: it reads as a `BTreeSet<T>` would (same membership, ascending iteration,
/// same `Debug` text, serialized form, hash and ordering), whatever order elements are
/// inserted and removed in. Insertion and removal move the elements after the spot, so it
/// is meant for small sets (node ids) or ones that grow at the end.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct VecSet<T> {
    items: Vec<T>,
}

impl<T> Default for VecSet<T> {
    fn default() -> Self {
        VecSet { items: Vec::new() }
    }
}

impl<T: Ord> VecSet<T> {
    /// An empty set.
    pub fn new() -> Self {
        VecSet::default()
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Whether `x` is in the set.
    pub fn contains(&self, x: &T) -> bool {
        self.items.binary_search(x).is_ok()
    }

    /// Adds `x`; false when it was there already.
    pub fn insert(&mut self, x: T) -> bool {
        // Most sets are built in ascending order: append without a search.
        if self.items.last().is_none_or(|l| *l < x) {
            self.items.push(x);
            return true;
        }
        match self.items.binary_search(&x) {
            Ok(_) => false,
            Err(i) => {
                self.items.insert(i, x);
                true
            }
        }
    }

    /// Removes `x`; false when it was not there.
    pub fn remove(&mut self, x: &T) -> bool {
        match self.items.binary_search(x) {
            Ok(i) => {
                self.items.remove(i);
                true
            }
            Err(_) => false,
        }
    }

    /// Removes every element.
    pub fn clear(&mut self) {
        self.items.clear();
    }

    /// Keeps only the elements for which `keep` holds.
    pub fn retain(&mut self, keep: impl FnMut(&T) -> bool) {
        self.items.retain(keep);
    }

    /// The smallest element.
    pub fn first(&self) -> Option<&T> {
        self.items.first()
    }

    /// The largest element.
    pub fn last(&self) -> Option<&T> {
        self.items.last()
    }

    /// The elements in ascending order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    /// The elements in either set, ascending, each once.
    pub fn union<'a>(&'a self, other: &'a VecSet<T>) -> impl Iterator<Item = &'a T> + 'a {
        let (mut a, mut b) = (self.items.iter().peekable(), other.items.iter().peekable());
        std::iter::from_fn(move || match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x < y => a.next(),
            (Some(x), Some(y)) if y < x => b.next(),
            (Some(_), Some(_)) => {
                b.next();
                a.next()
            }
            (Some(_), None) => a.next(),
            (None, _) => b.next(),
        })
    }

    /// The elements of this set that are also in `other`, ascending.
    pub fn intersection<'a>(&'a self, other: &'a VecSet<T>) -> impl Iterator<Item = &'a T> + 'a {
        self.items.iter().filter(move |x| other.contains(x))
    }

    /// The elements of this set that are not in `other`, ascending.
    pub fn difference<'a>(&'a self, other: &'a VecSet<T>) -> impl Iterator<Item = &'a T> + 'a {
        self.items.iter().filter(move |x| !other.contains(x))
    }

    /// The elements in exactly one of the two sets, ascending.
    pub fn symmetric_difference<'a>(
        &'a self,
        other: &'a VecSet<T>,
    ) -> impl Iterator<Item = &'a T> + 'a {
        self.union(other)
            .filter(move |x| self.contains(x) != other.contains(x))
    }

    /// Whether every element is also in `other`.
    pub fn is_subset(&self, other: &VecSet<T>) -> bool {
        self.items.iter().all(|x| other.contains(x))
    }
}

impl<T: Ord> Extend<T> for VecSet<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for x in iter {
            self.insert(x);
        }
    }
}

impl<'a, T: Ord + Copy + 'a> Extend<&'a T> for VecSet<T> {
    fn extend<I: IntoIterator<Item = &'a T>>(&mut self, iter: I) {
        for x in iter {
            self.insert(*x);
        }
    }
}

impl<T: Ord> FromIterator<T> for VecSet<T> {
    /// Inserted one by one (no sort: ascending input, the usual case, only appends).
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut set = VecSet::new();
        set.extend(iter);
        set
    }
}

impl<T: Ord, const N: usize> From<[T; N]> for VecSet<T> {
    fn from(items: [T; N]) -> Self {
        items.into_iter().collect()
    }
}

impl<'a, T> IntoIterator for &'a VecSet<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<T> IntoIterator for VecSet<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

/// Hashed as a `BTreeSet<T>` is: the length, then each element.
impl<T: Hash> Hash for VecSet<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.items.len());
        for x in &self.items {
            x.hash(state);
        }
    }
}

/// Printed exactly as a `BTreeSet<T>`, so `Sim::fingerprint` does not depend on the storage.
impl<T: fmt::Debug> fmt::Debug for VecSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.items.iter()).finish()
    }
}

impl<T: Serialize> Serialize for VecSet<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.items.iter())
    }
}

impl<'de, T: Ord + Deserialize<'de>> Deserialize<'de> for VecSet<T> {
    /// Read as a `BTreeSet` is (duplicates collapse); nothing in the browser build reads one.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(VecSet {
            items: BTreeSet::<T>::deserialize(d)?.into_iter().collect(),
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

    /// The guessed spot of a key (its offset from the first key) is only a hint: maps with
    /// and without gaps, keys below the first, at the top of the range and past the end all
    /// read as a `BTreeMap`.
    #[test]
    fn a_guessed_spot_is_only_a_hint() {
        let layouts: [&[u64]; 6] = [
            &[1, 2, 3, 4, 5],
            &[1, 2, 4, 5, 9],
            &[3, 4, 5, 6],
            &[0, 2, 3],
            &[7, 1000, 1001],
            &[1, u64::MAX - 1, u64::MAX],
        ];
        for keys in layouts {
            let map: VecMap<u64, u64> = keys.iter().map(|k| (*k, k.wrapping_mul(3))).collect();
            let model: BTreeMap<u64, u64> = keys.iter().map(|k| (*k, k.wrapping_mul(3))).collect();
            let probes = (0..12).chain([999, 1000, 1001, 1002, u64::MAX - 1, u64::MAX]);
            for p in probes {
                assert_eq!(map.get(&p), model.get(&p), "{keys:?} get {p}");
                assert_eq!(map.contains_key(&p), model.contains_key(&p));
                let (mut m, mut b) = (map.clone(), model.clone());
                assert_eq!(m.insert(p, 1), b.insert(p, 1), "{keys:?} insert {p}");
                assert!(m.iter().eq(b.iter()), "{keys:?} insert {p}");
                assert_eq!(m.remove(&p), b.remove(&p));
                assert!(m.iter().eq(b.iter()), "{keys:?} remove {p}");
            }
        }
    }

    /// Random inserts and removals against a `BTreeSet`, and the set operations: same
    /// answers, `Debug` text, JSON, hash and order.
    #[test]
    fn it_reads_as_a_btree_set() {
        use std::hash::DefaultHasher;
        let hash = |h: &dyn Fn(&mut DefaultHasher)| {
            let mut s = DefaultHasher::new();
            h(&mut s);
            s.finish()
        };
        let mut rng = Rng::new(5);
        let (mut a, mut b) = (VecSet::new(), VecSet::new());
        let (mut ma, mut mb) = (BTreeSet::new(), BTreeSet::new());
        for _ in 0..3000 {
            let x = rng.range(0, 30);
            match rng.range(0, 5) {
                0 | 1 => assert_eq!(a.insert(x), ma.insert(x)),
                2 => assert_eq!(a.remove(&x), ma.remove(&x)),
                3 => assert_eq!(b.insert(x), mb.insert(x)),
                _ => assert_eq!(b.remove(&x), mb.remove(&x)),
            }
            assert_eq!(a.contains(&x), ma.contains(&x));
            assert!(a.iter().eq(ma.iter()) && b.iter().eq(mb.iter()));
            assert!(a.union(&b).eq(ma.union(&mb)));
            assert!(a.intersection(&b).eq(ma.intersection(&mb)));
            assert!(a.difference(&b).eq(ma.difference(&mb)));
            assert!(a.symmetric_difference(&b).eq(ma.symmetric_difference(&mb)));
            assert_eq!(a.is_subset(&b), ma.is_subset(&mb));
            assert_eq!(a.cmp(&b), ma.cmp(&mb));
            assert_eq!((a.first(), a.last()), (ma.first(), ma.last()));
            assert_eq!(hash(&|s| a.hash(s)), hash(&|s| ma.hash(s)));
        }
        assert_eq!(format!("{a:?}"), format!("{ma:?}"));
        assert_eq!(format!("{b:#?}"), format!("{mb:#?}"));
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, serde_json::to_string(&ma).unwrap());
        assert!(serde_json::from_str::<VecSet<u64>>(&json).unwrap() == a);
        let c: VecSet<u64> = [5, 1, 5, 3].into_iter().collect();
        assert_eq!(format!("{c:?}"), "{1, 3, 5}");
    }
}
