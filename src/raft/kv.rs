//! The key-value state machine's contents, shared between copies.
//!
//! Every node applies the same writes, snapshots copy the applied state, and time-travel
//! checkpoints copy every node: with an ordinary map each copy costs the whole map. Here the
//! map is a persistent red-black tree (`rpds`): a copy costs nothing, a write allocates
//! O(log n) new tree nodes, and each key holds the log entry that last wrote it instead of
//! copies of its key and value strings.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use rpds::RedBlackTreeSetSync;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::message::{Entry, EntryData};

/// The applied key-value state: key → value, ordered by key.
///
/// Guarantees: it reads as a `BTreeMap<String, String>` would (same lookups, same order, same
/// `Debug` text and serialized form), and clones are independent values that share storage.
#[derive(Clone, Default)]
pub struct KvState {
    puts: RedBlackTreeSetSync<Put>,
}

/// A write held by the state: the entry that wrote the key last. Only `EntryData::Put`
/// entries are stored (see [`KvState::apply`]).
#[derive(Clone)]
struct Put(Arc<Entry>);

/// What a non-Put entry would read as; never stored, it keeps the accessors total.
static NOTHING: String = String::new();

impl Put {
    fn key(&self) -> &String {
        match &self.0.data {
            EntryData::Put { key, .. } => key,
            _ => &NOTHING,
        }
    }

    fn value(&self) -> &String {
        match &self.0.data {
            EntryData::Put { value, .. } => value,
            _ => &NOTHING,
        }
    }
}

impl PartialEq for Put {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Put {}

impl PartialOrd for Put {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Put {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(other.key())
    }
}

impl Borrow<str> for Put {
    fn borrow(&self) -> &str {
        self.key()
    }
}

impl KvState {
    /// An empty state.
    pub fn new() -> KvState {
        KvState::default()
    }

    /// Applies a committed entry: a Put sets its key; other entries change nothing.
    pub fn apply(&mut self, entry: &Arc<Entry>) {
        if matches!(entry.data, EntryData::Put { .. }) {
            self.puts.insert_mut(Put(entry.clone()));
        }
    }

    /// Sets `key` to `value` (outside any log: for tests and restored values).
    pub fn insert(&mut self, key: String, value: String) {
        self.apply(&Arc::new(Entry {
            term: 0,
            index: 0,
            data: EntryData::Put { key, value, req: 0 },
        }));
    }

    /// Unsets `key`; returns the value it had. (The state machine never deletes: for tests
    /// that damage a node's state on purpose.)
    pub fn remove(&mut self, key: &str) -> Option<String> {
        let old = self.get(key).cloned();
        self.puts.remove_mut(key);
        old
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&String> {
        self.puts.get(key).map(Put::value)
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.puts.size()
    }

    /// Whether no key is set.
    pub fn is_empty(&self) -> bool {
        self.puts.is_empty()
    }

    /// (key, value) pairs in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &String)> + '_ {
        self.puts.iter().map(|p| (p.key(), p.value()))
    }
}

impl PartialEq for KvState {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for KvState {}

/// Printed exactly as a `BTreeMap<String, String>`, so `Sim::fingerprint` (a digest of
/// `Debug` text) does not depend on the storage.
impl fmt::Debug for KvState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for KvState {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for KvState {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<String, String>::deserialize(d)?;
        let mut kv = KvState::new();
        for (k, v) in map {
            kv.insert(k, v);
        }
        Ok(kv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::Rng;

    fn put(key: &str, value: &str) -> Arc<Entry> {
        Arc::new(Entry {
            term: 1,
            index: 1,
            data: EntryData::Put {
                key: key.into(),
                value: value.into(),
                req: 7,
            },
        })
    }

    /// Random writes checked against a BTreeMap; clones taken on the way must not change.
    #[test]
    fn reads_as_a_btreemap() {
        let mut rng = Rng::new(3);
        let mut model = BTreeMap::new();
        let mut kv = KvState::new();
        let mut copies = Vec::new();
        for i in 0..3000 {
            let key = format!("k{}", rng.range(0, 500));
            let value = format!("v{i}");
            kv.apply(&put(&key, &value));
            model.insert(key, value);
            if i % 97 == 0 {
                copies.push((model.clone(), kv.clone()));
            }
        }
        kv.apply(&Arc::new(Entry {
            term: 1,
            index: 2,
            data: EntryData::Empty,
        }));
        assert_eq!(kv.len(), model.len());
        assert!(kv.iter().eq(model.iter()));
        assert_eq!(format!("{kv:?}"), format!("{model:?}"));
        assert_eq!(
            serde_json::to_string(&kv).unwrap(),
            serde_json::to_string(&model).unwrap()
        );
        for k in ["k0", "k499", "k77", "absent"] {
            assert_eq!(kv.get(k), model.get(k));
        }
        let snapshot = kv.clone();
        assert_eq!(kv.remove("k77"), model.remove("k77"));
        assert_eq!(kv.remove("absent"), None);
        assert!(kv.iter().eq(model.iter()));
        assert_ne!(snapshot, kv, "the copy kept k77");
        for (m, c) in copies {
            assert!(c.iter().eq(m.iter()), "a copy changed");
        }
        let back: KvState = serde_json::from_str(&serde_json::to_string(&kv).unwrap()).unwrap();
        assert_eq!(back, kv);
    }
}
