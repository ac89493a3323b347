//! The messages in flight, by id.
//!
//! Ids are handed out in increasing order and every message is gone a few hundred
//! milliseconds after it was sent, so the live ids form a short window that slides forward.
//! A ring of slots indexed by `id - first` gives insert, lookup and removal in constant time
//! without an allocation per message; an ordered map (what this replaces) paid a tree search
//! and a boxed value for each of the ~30 messages a write costs.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::ops::RangeFrom;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::network::InFlight;

/// Messages in flight keyed by their id.
///
/// Guarantees: it reads as a `BTreeMap<u64, InFlight>` keyed by `InFlight::id` would (same
/// lookups, same iteration order, same `Debug` text and serialized form, equality by
/// contents), whatever order messages are added and removed in.
#[derive(Clone, Default)]
pub struct InFlightMap {
    /// The id of `slots[0]`.
    first: u64,
    /// One slot per id from `first`; None where that message is gone. The front `dead`
    /// slots are None; the back may be None too (ids are handed out in order, so the next
    /// id is the one after the last slot either way).
    slots: VecDeque<Option<InFlight>>,
    /// How many slots at the front are known to be None. They are dropped in batches:
    /// popping one slot at a time moved a whole (empty) message each time.
    dead: usize,
    /// Messages held.
    len: usize,
}

/// Empty front slots are dropped once this many have gathered.
const DEAD_BATCH: usize = 32;

impl InFlightMap {
    /// No message.
    pub fn new() -> InFlightMap {
        InFlightMap::default()
    }

    /// Number of messages in flight.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is in flight.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn slot(&self, id: u64) -> Option<usize> {
        let i = usize::try_from(id.checked_sub(self.first)?).ok()?;
        (i < self.slots.len()).then_some(i)
    }

    /// The message with id `id`.
    pub fn get(&self, id: &u64) -> Option<&InFlight> {
        self.slot(*id).and_then(|i| self.slots[i].as_ref())
    }

    /// Adds `f` under its id (replacing a message of the same id).
    pub fn insert(&mut self, f: InFlight) {
        let id = f.id;
        if self.slots.is_empty() {
            self.first = id;
        } else if id.checked_sub(self.first) == Some(self.slots.len() as u64) {
            // The usual case, the next id: one move of the message into place.
            self.slots.push_back(Some(f));
            self.len += 1;
            return;
        } else if id < self.first {
            for _ in id + 1..self.first {
                self.slots.push_front(None);
            }
            self.slots.push_front(None);
            self.first = id;
        }
        let i = (id - self.first) as usize;
        while self.slots.len() <= i {
            self.slots.push_back(None);
        }
        if self.slots[i].replace(f).is_none() {
            self.len += 1;
        }
        self.dead = self.dead.min(i);
    }

    /// Takes the message with id `id` out.
    pub fn remove(&mut self, id: &u64) -> Option<InFlight> {
        let i = self.slot(*id)?;
        // Taken straight into what is returned, not moved once more on the way: every
        // message passes through here.
        let f = self.slots[i].take();
        if f.is_some() {
            self.len -= 1;
            if self.len == 0 {
                self.slots.clear();
                self.dead = 0;
            } else if i == self.dead {
                while matches!(self.slots.get(self.dead), Some(None)) {
                    self.dead += 1;
                }
                if self.dead >= DEAD_BATCH {
                    self.slots.drain(..self.dead);
                    self.first += self.dead as u64;
                    self.dead = 0;
                }
            }
        }
        f
    }

    /// The messages in id order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &InFlight> + '_ {
        self.slots.iter().flatten()
    }

    /// (id, message) in id order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&u64, &InFlight)> + '_ {
        self.values().map(|f| (&f.id, f))
    }

    /// (id, message) for ids from `range.start` on, in id order.
    pub fn range(&self, range: RangeFrom<u64>) -> impl Iterator<Item = (&u64, &InFlight)> + '_ {
        let skip = range.start.saturating_sub(self.first);
        let skip = usize::try_from(skip).unwrap_or(usize::MAX);
        self.slots.iter().skip(skip).flatten().map(|f| (&f.id, f))
    }
}

impl PartialEq for InFlightMap {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.values().eq(other.values())
    }
}

impl Eq for InFlightMap {}

/// Printed exactly as the `BTreeMap<u64, Box<InFlight>>` it replaces, so `Sim::fingerprint`
/// (a digest of `Debug` text) does not depend on the storage.
impl fmt::Debug for InFlightMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for InFlightMap {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for InFlightMap {
    /// Each message is stored under the id it carries (the map's key is only a label).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<u64, InFlight>::deserialize(d)?;
        let mut out = InFlightMap::new();
        for f in map.into_values() {
            out.insert(f);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::{Message, MsgType, Rng};

    fn flight(id: u64) -> InFlight {
        InFlight {
            id,
            msg: Message::new(MsgType::App, 1, 2),
            sent_at: id,
            deliver_at: id + 10,
            lost: false,
        }
    }

    #[test]
    fn it_reads_as_an_ordered_map_whatever_the_order_of_changes() {
        let mut rng = Rng::new(5);
        let mut map = InFlightMap::new();
        let mut model: BTreeMap<u64, Box<InFlight>> = BTreeMap::new();
        let mut next = 40;
        for step in 0..3000 {
            match rng.range(0, 10) {
                0..=4 => {
                    next += 1;
                    map.insert(flight(next));
                    model.insert(next, Box::new(flight(next)));
                }
                5 => {
                    // An id below the window (as a deserialized map may give).
                    let id = rng.range(0, 60);
                    map.insert(flight(id));
                    model.insert(id, Box::new(flight(id)));
                }
                _ => {
                    let id = rng.range(0, next + 2);
                    assert_eq!(map.remove(&id), model.remove(&id).map(|b| *b));
                }
            }
            let probe = rng.range(0, next + 2);
            assert_eq!(map.get(&probe), model.get(&probe).map(|b| &**b));
            assert_eq!(map.len(), model.len());
            assert!(map.slots.iter().take(map.dead).all(Option::is_none));
            if step % 100 == 0 {
                assert_eq!(format!("{map:?}"), format!("{model:?}"));
            }
            let from = rng.range(0, next + 2);
            let got: Vec<u64> = map.range(from..).map(|(id, _)| *id).collect();
            let want: Vec<u64> = model.range(from..).map(|(id, _)| *id).collect();
            assert_eq!(got, want);
        }
        assert_eq!(
            serde_json::to_string(&map).unwrap(),
            serde_json::to_string(&model).unwrap()
        );
        let back: InFlightMap =
            serde_json::from_str(&serde_json::to_string(&map).unwrap()).unwrap();
        assert_eq!(back, map);
    }

    /// The simulator's pattern: ids sent in order, each delivered a little later in a
    /// shuffled order, the window sliding far past many batches of dropped front slots.
    #[test]
    fn a_sliding_window_drops_its_empty_front_in_batches_and_reads_the_same() {
        let mut rng = Rng::new(11);
        let mut map = InFlightMap::new();
        let mut model: BTreeMap<u64, InFlight> = BTreeMap::new();
        let mut next = 0;
        let mut longest = 0;
        for step in 0..20_000 {
            if rng.range(0, 2) == 0 || model.is_empty() {
                next += 1;
                map.insert(flight(next));
                model.insert(next, flight(next));
            } else {
                // Mostly the oldest few, sometimes any.
                let live: Vec<u64> = model.keys().copied().collect();
                let k = if rng.range(0, 4) == 0 {
                    rng.range(0, live.len() as u64)
                } else {
                    rng.range(0, live.len().min(3) as u64)
                } as usize;
                let id = live[k];
                assert_eq!(map.remove(&id), model.remove(&id));
            }
            assert_eq!(map.len(), model.len());
            assert!(map.slots.iter().take(map.dead).all(Option::is_none));
            assert!(
                map.dead < DEAD_BATCH,
                "the empty front is dropped in batches"
            );
            assert_eq!(map.slots.iter().flatten().count(), map.len);
            longest = longest.max(map.slots.len());
            if step % 50 == 0 {
                assert!(map.values().map(|f| f.id).eq(model.keys().copied()));
                let probe = rng.range(0, next + 2);
                assert_eq!(map.get(&probe), model.get(&probe));
            }
        }
        assert!(
            next > 5_000 && longest < 1_000,
            "the window slides: {longest} slots"
        );
        assert_eq!(format!("{map:?}"), format!("{model:?}"));
    }
}
