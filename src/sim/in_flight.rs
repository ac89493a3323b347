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
    /// One slot per id from `first`; None where that message is gone. Neither end is None.
    slots: VecDeque<Option<InFlight>>,
    /// Messages held.
    len: usize,
}

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
    }

    /// Takes the message with id `id` out.
    pub fn remove(&mut self, id: &u64) -> Option<InFlight> {
        let i = self.slot(*id)?;
        let f = self.slots[i].take()?;
        self.len -= 1;
        while matches!(self.slots.front(), Some(None)) {
            self.slots.pop_front();
            self.first += 1;
        }
        while matches!(self.slots.back(), Some(None)) {
            self.slots.pop_back();
        }
        Some(f)
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
}
