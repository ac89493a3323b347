//! The key-value state machine's contents, shared between copies.
//!
//! Every node applies the same writes, snapshots copy the applied state, and time-travel
//! checkpoints copy every node: with an ordinary map each copy costs the whole map. Here the
//! keys live in sorted chunks of at most [`CHUNK`], the chunks in groups of at most `CHUNK`,
//! the groups in a root, each level behind reference counts (a B-tree of fixed height): a
//! copy costs one count, and a write to a state no copy shares is two binary searches among
//! groups and chunks, one in a chunk, and an insertion in place. A write to a shared state
//! copies the root, one group and one chunk (pointers only). Each key holds the log entry
//! that last wrote it instead of copies of its key and value strings.
//!
//! (A persistent red-black tree did the same with O(log n) new tree nodes per write, each an
//! allocation, even when nothing shared them: ~2,800 instructions per write at 4,000 keys.)

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::message::{Entry, EntryData};

/// Keys per chunk, and chunks per group, at most: one that grows beyond splits in halves.
const CHUNK: usize = 64;

/// Sorted keys.
type Chunk = Vec<Put>;

/// Sorted, non-empty chunks.
type Group = Vec<Arc<Chunk>>;

/// The applied key-value state: key → value, ordered by key.
///
/// Guarantees: it reads as a `BTreeMap<String, String>` would (same lookups, same order, same
/// `Debug` text and serialized form), and clones are independent values that share storage.
#[derive(Clone, Default)]
pub struct KvState {
    /// Non-empty groups in key order: every key of a group (and of a chunk) is below every
    /// key of the next one.
    root: Arc<Vec<Arc<Group>>>,
    /// Keys held.
    len: usize,
    /// Where the last write landed (group, chunk, and the spot after it in the chunk): a
    /// guess for the next one, checked before use. Writes to keys that follow one another
    /// (`k1233`, `k1234`, …) land next to the previous one; the guess saves them the searches
    /// among groups and chunks, and within the chunk.
    near: (usize, usize, usize),
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

/// Of `items` in key order, the one that holds `key` or would take it: the first whose last
/// key (`last`) is not below it, else the last. None when there is none.
fn slot_for<T>(items: &[T], key: &str, last: impl Fn(&T) -> Option<&Put>) -> Option<usize> {
    let end = items.len().checked_sub(1)?;
    let i = items.partition_point(|x| last(x).is_some_and(|p| p.key().as_str() < key));
    Some(i.min(end))
}

fn group_for(root: &[Arc<Group>], key: &str) -> Option<usize> {
    slot_for(root, key, |g| g.last().and_then(|c| c.last()))
}

fn chunk_for(group: &[Arc<Chunk>], key: &str) -> Option<usize> {
    slot_for(group, key, |c| c.last())
}

fn find(chunk: &[Put], key: &str) -> Result<usize, usize> {
    chunk.binary_search_by(|p| p.key().as_str().cmp(key))
}

/// What `find` returns, trying spot `hint` first: taken only when the key before it is below
/// `key` (or there is none) and `key` is not above the key at it (or there is none), which in
/// a sorted chunk of unique keys is exactly where the search lands. In the browser build each
/// comparison of the search was three calls (closure, slice order, memcmp); a write to the
/// key after the last one written costs two comparisons here instead of about six.
fn find_near(chunk: &[Put], key: &str, hint: usize) -> Result<usize, usize> {
    let after_previous = match hint.checked_sub(1) {
        None => true,
        Some(before) => chunk.get(before).is_some_and(|p| p.key().as_str() < key),
    };
    if after_previous {
        match chunk.get(hint).map(|p| key.cmp(p.key().as_str())) {
            None => return Err(hint),
            Some(Ordering::Equal) => return Ok(hint),
            Some(Ordering::Less) => return Err(hint),
            Some(Ordering::Greater) => {}
        }
    }
    find(chunk, key)
}

/// Splits `items[i]` in halves if it grew beyond [`CHUNK`].
fn split_if_full<T: Clone>(items: &mut Vec<Arc<Vec<T>>>, i: usize) {
    if items[i].len() > CHUNK {
        let full = Arc::make_mut(&mut items[i]);
        let upper = full.split_off(full.len() / 2);
        items.insert(i + 1, Arc::new(upper));
    }
}

impl KvState {
    /// An empty state.
    pub fn new() -> KvState {
        KvState::default()
    }

    /// Applies a committed entry: a Put sets its key; other entries change nothing.
    pub fn apply(&mut self, entry: &Arc<Entry>) {
        if !matches!(entry.data, EntryData::Put { .. }) {
            return;
        }
        let put = Put(entry.clone());
        let (gi, ci) = match self.near_slot(put.key()) {
            Some(slot) => slot,
            None => {
                let Some(gi) = group_for(&self.root, put.key()) else {
                    Arc::make_mut(&mut self.root).push(Arc::new(vec![Arc::new(vec![put])]));
                    self.len = 1;
                    return;
                };
                (gi, chunk_for(&self.root[gi], put.key()).unwrap_or(0))
            }
        };
        let same_chunk = (self.near.0, self.near.1) == (gi, ci);
        let hint = self.near.2;
        let root = Arc::make_mut(&mut self.root);
        let group = Arc::make_mut(&mut root[gi]);
        let chunk = Arc::make_mut(&mut group[ci]);
        let spot = if same_chunk {
            find_near(chunk, put.key(), hint)
        } else {
            find(chunk, put.key())
        };
        self.near = (gi, ci, spot.unwrap_or_else(|i| i) + 1);
        match spot {
            Ok(i) => chunk[i] = put,
            Err(i) => {
                chunk.insert(i, put);
                self.len += 1;
                split_if_full(group, ci);
                split_if_full(root, gi);
            }
        }
    }

    /// The (group, chunk) that `group_for` and `chunk_for` would pick for `key`, if it is the
    /// chunk of the last write or the one after it in the same group; None when neither is.
    ///
    /// The searches pick the first chunk whose last key is not below `key`, else the very
    /// last chunk. A chunk whose first key is at or below `key` has every earlier chunk's
    /// keys below `key` (keys ascend across chunks and groups), so it is that pick if its
    /// last key is not below `key` or it is the very last chunk. The chunk after one whose
    /// last key is below `key` has every earlier key below `key` too.
    fn near_slot(&self, key: &str) -> Option<(usize, usize)> {
        let (gi, ci, _) = self.near;
        let group = self.root.get(gi)?;
        let chunk = group.get(ci)?;
        let fits = |chunk: &Chunk, ci: usize| {
            chunk.last().is_some_and(|p| key <= p.key().as_str())
                || (gi + 1 == self.root.len() && ci + 1 == group.len())
        };
        if chunk.first()?.key().as_str() > key {
            return None;
        }
        if fits(chunk, ci) {
            return Some((gi, ci));
        }
        let next = group.get(ci + 1)?;
        fits(next, ci + 1).then_some((gi, ci + 1))
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
        let gi = group_for(&self.root, key)?;
        let ci = chunk_for(&self.root[gi], key)?;
        let i = find(&self.root[gi][ci], key).ok()?;
        let root = Arc::make_mut(&mut self.root);
        let group = Arc::make_mut(&mut root[gi]);
        let chunk = Arc::make_mut(&mut group[ci]);
        let old = chunk.remove(i).value().clone();
        if chunk.is_empty() {
            group.remove(ci);
            if group.is_empty() {
                root.remove(gi);
            }
        }
        self.len -= 1;
        Some(old)
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&String> {
        let group = &self.root[group_for(&self.root, key)?];
        let chunk = &group[chunk_for(group, key)?];
        find(chunk, key).ok().map(|i| chunk[i].value())
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no key is set.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// (key, value) pairs in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &String)> + '_ {
        self.root
            .iter()
            .flat_map(|g| g.iter())
            .flat_map(|c| c.iter())
            .map(|p| (p.key(), p.value()))
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
        super::debug_text::string_map(f, self.iter())
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

    /// The spot hint is taken only where the binary search would land: every hint, for keys
    /// present, absent, below and above all, in chunks of every length up to 9.
    #[test]
    fn a_spot_hint_is_only_taken_where_the_search_would_land() {
        for n in 0..10usize {
            let chunk: Vec<Put> = (0..n)
                .map(|i| Put(put(&format!("k{:02}", 2 * i + 1), "v")))
                .collect();
            for probe in 0..=2 * n + 1 {
                let key = format!("k{probe:02}");
                for hint in 0..=n + 2 {
                    assert_eq!(
                        find_near(&chunk, &key, hint),
                        find(&chunk, &key),
                        "n {n} key {key} hint {hint}"
                    );
                }
            }
        }
    }

    /// Many keys, written, read and removed in random order (removals empty whole chunks),
    /// copies taken on the way: it keeps reading as the map, the copies do not change, and
    /// the chunks stay sorted, non-empty and at most `CHUNK` long.
    #[test]
    fn chunks_split_and_empty_and_copies_stay_apart() {
        let mut rng = Rng::new(17);
        let mut model: BTreeMap<String, String> = BTreeMap::new();
        let mut kv = KvState::new();
        let mut copies = Vec::new();
        for i in 0..60_000u64 {
            let key = format!("{:x}", rng.range(0, 12_000) * 7919 % 16_384);
            match rng.range(0, 10) {
                0..=5 => {
                    let value = format!("v{i}");
                    kv.apply(&put(&key, &value));
                    model.insert(key, value);
                }
                6..=8 => assert_eq!(kv.remove(&key), model.remove(&key)),
                _ => assert_eq!(kv.get(&key), model.get(&key)),
            }
            if i % 1_000 == 0 {
                copies.push((model.clone(), kv.clone()));
                assert!(kv.iter().eq(model.iter()));
            }
            assert_eq!(kv.len(), model.len());
        }
        let keys: Vec<&String> = kv.iter().map(|(k, _)| k).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        assert!(kv.root.len() > 1, "more than one group");
        assert!(kv.root.iter().all(|g| !g.is_empty() && g.len() <= CHUNK));
        let chunks = kv.root.iter().flat_map(|g| g.iter());
        assert!(chunks.clone().all(|c| !c.is_empty() && c.len() <= CHUNK));
        for (m, c) in copies {
            assert!(c.iter().eq(m.iter()), "a copy changed");
            assert_eq!(c.len(), m.len());
        }
        for key in model.keys().cloned().collect::<Vec<_>>() {
            assert_eq!(kv.remove(&key), model.remove(&key));
        }
        assert!(kv.is_empty() && kv.root.is_empty() && kv.get("a").is_none());
    }

    /// Runs of keys that follow one another (where the guess of the last write's chunk is
    /// taken), descending runs, jumps and removals (where it must be refused), checked against
    /// a BTreeMap: the same contents and order, chunks sorted and within bounds.
    #[test]
    fn the_near_guess_is_only_taken_where_the_search_would_land() {
        let mut rng = Rng::new(5);
        let mut model: BTreeMap<String, String> = BTreeMap::new();
        let mut kv = KvState::new();
        let mut copies = Vec::new();
        for i in 0..24_000u64 {
            let key = match (i / 3_000) % 4 {
                0 => format!("k{i}"),
                1 => format!("k{}", 100_000 - i),
                2 if i % 3 == 0 => format!("k{}", rng.range(0, 40_000)),
                2 => format!("j{i:06}"),
                _ => format!("k{}", i - 9_000 + rng.range(0, 4)),
            };
            if i % 11 == 0 {
                assert_eq!(kv.remove(&key), model.remove(&key));
            } else {
                let value = format!("v{i}");
                kv.apply(&put(&key, &value));
                model.insert(key, value);
            }
            if i % 2_000 == 0 {
                copies.push((model.clone(), kv.clone()));
            }
        }
        assert_eq!(kv.len(), model.len());
        assert!(kv.iter().eq(model.iter()));
        let chunks: Vec<&Arc<Chunk>> = kv.root.iter().flat_map(|g| g.iter()).collect();
        assert!(chunks.iter().all(|c| !c.is_empty() && c.len() <= CHUNK));
        for (m, c) in copies {
            assert!(c.iter().eq(m.iter()), "a copy changed");
        }
    }
}
