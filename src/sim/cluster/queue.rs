//! The event queue: what is due, in order of time, then of scheduling.
//!
//! Nearly every event is due within a few hundred milliseconds of the last one (a delivery
//! 10-40 ms on, a node's next tick 100 ms on), so those sit in a ring of one bucket per
//! millisecond just ahead of the clock, found through a bitmap of the buckets in use: a push
//! is an append and a pop takes a bucket's first item (a bucket is a vector read from a
//! cursor, emptied as a whole once read: cheaper than a double-ended queue's wrapping). A binary heap ordered every event
//! instead, at the cost of a sift through the whole queue per pop. Events further ahead (a
//! request's deadline) wait in a small heap beside the ring, and each pop takes the earlier
//! of the two heads, so the order is exactly (time, sequence number) whatever was queued.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Milliseconds the ring covers from its base (the bits of a `u128`).
const RING: u64 = 128;

/// Items due at a time, popped in order of (`at`, `seq`). `seq` must be unique.
///
/// Guarantees: `pop` returns the item with the smallest (`at`, `seq`) among those pushed and
/// not yet popped, and `peek` the same item, whatever the times pushed (also times before
/// ones already popped).
#[derive(Clone)]
pub(super) struct EventQueue<T> {
    /// Ring bucket `t % RING` holds the items due at `t`, for `base <= t < base + RING`, in
    /// increasing `seq` (pushes come in that order). No ring item is due before `base`.
    base: u64,
    /// Bit `i % 64` of word `i / 64` set: bucket `i` holds something. Two words rather than a
    /// `u128`: wasm has no 128-bit integers, so the browser build did every rotate and
    /// variable shift of one in 64-bit pieces (the queue's head is found once an event).
    occupied: [u64; 2],
    /// (seq, item) per millisecond.
    ring: Vec<Bucket<T>>,
    /// Items due outside the ring's span when pushed.
    far: BinaryHeap<Far<T>>,
}

/// The items due at one millisecond, in the order pushed: `items[next..]` are still queued.
/// Emptied as a whole once every item was read, so pushes stay appends to one vector whose
/// room is kept for the next time the bucket comes round.
#[derive(Clone)]
struct Bucket<T> {
    items: Vec<(u64, T)>,
    next: usize,
}

impl<T: Copy> Bucket<T> {
    fn front(&self) -> Option<&(u64, T)> {
        self.items.get(self.next)
    }

    /// Drops the front item; returns whether the bucket is now empty.
    fn pop_front(&mut self) -> bool {
        self.next += 1;
        let empty = self.next >= self.items.len();
        if empty {
            self.items.clear();
            self.next = 0;
        }
        empty
    }

    fn queued(&self) -> &[(u64, T)] {
        &self.items[self.next.min(self.items.len())..]
    }
}

/// An item of the far heap, ordered so that `BinaryHeap` pops the earliest.
#[derive(Clone)]
struct Far<T> {
    at: u64,
    seq: u64,
    item: T,
}

impl<T> PartialEq for Far<T> {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}

impl<T> Eq for Far<T> {}

impl<T> PartialOrd for Far<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Far<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

impl<T: Copy> Default for EventQueue<T> {
    fn default() -> Self {
        EventQueue {
            base: 0,
            occupied: [0; 2],
            ring: (0..RING)
                .map(|_| Bucket {
                    items: Vec::new(),
                    next: 0,
                })
                .collect(),
            far: BinaryHeap::new(),
        }
    }
}

/// Where the next item is.
enum Head {
    Ring(u64),
    Far,
}

impl<T: Copy> EventQueue<T> {
    /// Queues `item` due at `at`; `seq` orders items due at the same time.
    pub(super) fn push(&mut self, at: u64, seq: u64, item: T) {
        match at.checked_sub(self.base) {
            Some(ahead) if ahead < RING => {
                let i = (at % RING) as usize;
                self.ring[i].items.push((seq, item));
                self.occupied[i / 64] |= 1 << (i % 64);
            }
            _ => self.far.push(Far { at, seq, item }),
        }
    }

    /// The first time the ring holds something at.
    fn ring_head(&self) -> Option<u64> {
        // The first set bit from the base's bucket on, wrapping around once.
        let from = self.base % RING;
        let [lo, hi] = self.occupied;
        let bit = |word: u64, skip: u64| {
            let rest = word & (u64::MAX << skip);
            (rest != 0).then(|| u64::from(rest.trailing_zeros()))
        };
        let found = if from < 64 {
            bit(lo, from)
                .or_else(|| bit(hi, 0).map(|b| b + 64))
                .or_else(|| bit(lo, 0))
        } else {
            bit(hi, from - 64)
                .map(|b| b + 64)
                .or_else(|| bit(lo, 0))
                .or_else(|| bit(hi, 0).map(|b| b + 64))
        }?;
        Some(self.base + (found + RING - from) % RING)
    }

    // Inlined natively (into the event loop, as it was before the bitmap became two words);
    // the browser build keeps one copy.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn head(&self) -> Option<(Head, u64, u64, T)> {
        let near = self.ring_head().and_then(|t| {
            let (seq, item) = *self.ring[(t % RING) as usize].front()?;
            Some((t, seq, item))
        });
        let far = self.far.peek().map(|f| (f.at, f.seq, f.item));
        match (near, far) {
            (Some((t, s, i)), Some((ft, fs, _))) if (t, s) < (ft, fs) => {
                Some((Head::Ring(t), t, s, i))
            }
            (_, Some((ft, fs, fi))) => Some((Head::Far, ft, fs, fi)),
            (Some((t, s, i)), None) => Some((Head::Ring(t), t, s, i)),
            (None, None) => None,
        }
    }

    /// The next item as (at, seq, item), without taking it.
    pub(super) fn peek(&self) -> Option<(u64, u64, T)> {
        self.head().map(|(_, at, seq, item)| (at, seq, item))
    }

    /// Takes the next item: (at, seq, item).
    #[cfg(test)]
    fn pop(&mut self) -> Option<(u64, u64, T)> {
        self.pop_due_by(u64::MAX)
    }

    /// Takes the next item if it is due at `by` or before.
    pub(super) fn pop_due_by(&mut self, by: u64) -> Option<(u64, u64, T)> {
        let (head, at, seq, item) = self.head().filter(|h| h.1 <= by)?;
        match head {
            Head::Ring(t) => {
                let i = (t % RING) as usize;
                if self.ring[i].pop_front() {
                    self.occupied[i / 64] &= !(1 << (i % 64));
                }
            }
            Head::Far => {
                self.far.pop();
            }
        }
        // Nothing earlier is left in the ring, so the ring may start here (never moving
        // back, which would leave ring items beyond its span).
        self.base = self.base.max(at);
        Some((at, seq, item))
    }

    /// Every item as (at, seq, item), in the order they would be popped.
    pub(super) fn sorted(&self) -> Vec<(u64, u64, T)> {
        let mut all: Vec<(u64, u64, T)> = self
            .ring
            .iter()
            .enumerate()
            .flat_map(|(i, b)| {
                // Bucket i holds the one time in [base, base + RING) congruent to i.
                let t = self.base + (i as u64 + RING - self.base % RING) % RING;
                b.queued().iter().map(move |&(s, item)| (t, s, item))
            })
            .chain(self.far.iter().map(|f| (f.at, f.seq, f.item)))
            .collect();
        all.sort_by_key(|&(at, seq, _)| (at, seq));
        all
    }
}

impl<T: Copy + fmt::Debug> fmt::Debug for EventQueue<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.sorted()).finish()
    }
}

/// One queued item as serialized (the fields of the heap entries this queue replaced).
#[derive(Serialize, Deserialize)]
struct Queued<T> {
    at: u64,
    seq: u64,
    due: T,
}

impl<T: Copy + Serialize> Serialize for EventQueue<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            self.sorted()
                .into_iter()
                .map(|(at, seq, due)| Queued { at, seq, due }),
        )
    }
}

impl<'de, T: Copy + Deserialize<'de>> Deserialize<'de> for EventQueue<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut q = EventQueue::default();
        for e in Vec::<Queued<T>>::deserialize(d)? {
            q.push(e.at, e.seq, e.due);
        }
        Ok(q)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::Rng;

    /// A queue holding a few items spread over the ring's whole span: the first occupied
    /// bucket is often behind the base's bucket (wrapped around) or in the other word.
    #[test]
    fn a_sparse_ring_finds_its_head_across_the_wrap() {
        let mut rng = Rng::new(5);
        let mut q: EventQueue<u32> = EventQueue::default();
        let mut model: BinaryHeap<Far<u32>> = BinaryHeap::new();
        let (mut now, mut seq) = (0u64, 0u64);
        for step in 0..20_000u32 {
            if model.len() < 3 && rng.range(0, 2) == 0 {
                let at = now + rng.range(0, RING);
                seq += 1;
                q.push(at, seq, step);
                model.push(Far {
                    at,
                    seq,
                    item: step,
                });
            } else {
                let want = model.pop().map(|f| (f.at, f.seq, f.item));
                assert_eq!(q.pop(), want, "step {step}");
                if let Some((at, _, _)) = want {
                    now = at;
                }
            }
        }
    }

    #[test]
    fn it_pops_in_time_then_sequence_order_like_a_heap() {
        let mut rng = Rng::new(9);
        let mut q: EventQueue<u32> = EventQueue::default();
        let mut model: BinaryHeap<Far<u32>> = BinaryHeap::new();
        let (mut now, mut seq) = (0u64, 0u64);
        for step in 0..20_000u32 {
            if rng.range(0, 100) < 55 {
                // Mostly just ahead; sometimes far ahead, now, or (as no caller does) behind.
                let at = match rng.range(0, 20) {
                    0 => now + rng.range(128, 10_000),
                    1 => now.saturating_sub(rng.range(0, 300)),
                    2 => now,
                    _ => now + rng.range(0, 130),
                };
                seq += 1;
                q.push(at, seq, step);
                model.push(Far {
                    at,
                    seq,
                    item: step,
                });
            } else {
                let want = model.pop().map(|f| (f.at, f.seq, f.item));
                assert_eq!(q.peek(), want);
                assert_eq!(q.pop(), want);
                if let Some((at, _, _)) = want {
                    now = now.max(at);
                }
            }
            if step % 1000 == 0 {
                let mut all: Vec<(u64, u64, u32)> =
                    model.iter().map(|f| (f.at, f.seq, f.item)).collect();
                all.sort_by_key(|&(at, seq, _)| (at, seq));
                assert_eq!(q.sorted(), all);
            }
        }
        while let Some(f) = model.pop() {
            assert_eq!(q.pop(), Some((f.at, f.seq, f.item)));
        }
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn it_serializes_as_its_items_in_order_and_reads_back() {
        let mut q: EventQueue<u32> = EventQueue::default();
        for (seq, at) in [(1, 500), (2, 20), (3, 20), (4, 90_000)] {
            q.push(at, seq, seq as u32 * 10);
        }
        let json = serde_json::to_string(&q).unwrap();
        assert_eq!(
            json,
            r#"[{"at":20,"seq":2,"due":20},{"at":20,"seq":3,"due":30},{"at":500,"seq":1,"due":10},{"at":90000,"seq":4,"due":40}]"#
        );
        let back: EventQueue<u32> = serde_json::from_str(&json).unwrap();
        assert_eq!(back.sorted(), q.sorted());
    }
}
