//! A vector whose clones share their contents: the storage behind logs and ghost logs that
//! time-travel checkpoints copy again and again.
//!
//! Elements live in chunks of [`CHUNK`] behind reference counts. A clone copies one pointer per
//! chunk; a write to a shared chunk copies that chunk only (copy on write). So keeping many
//! copies of a growing vector, each a little longer than the last, costs memory in proportion
//! to what was added, not to the length times the number of copies.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Elements per chunk: big enough that a clone is a short list of pointers, small enough that
/// copying the chunk being written stays cheap.
pub const CHUNK: usize = 128;

/// A vector of `T` with cheap clones (see the module documentation).
///
/// Guarantees: it behaves as a `Vec<T>` for every operation it offers (same elements, same
/// order, same `Debug` text, same serialized form), and a clone is independent of the vector
/// it was cloned from: changing one never changes the other.
#[derive(Clone)]
pub struct SharedVec<T> {
    /// Every chunk is full (`CHUNK` elements) except the last, which is never empty.
    chunks: Vec<Arc<Vec<T>>>,
    /// Elements dropped from the front of the first chunk.
    skip: usize,
    /// Number of elements held (after `skip`).
    len: usize,
}

impl<T> Default for SharedVec<T> {
    fn default() -> Self {
        SharedVec {
            chunks: Vec::new(),
            skip: 0,
            len: 0,
        }
    }
}

impl<T: Clone> SharedVec<T> {
    /// An empty vector.
    pub fn new() -> SharedVec<T> {
        SharedVec::default()
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Element `i`, if `i < len()`.
    pub fn get(&self, i: usize) -> Option<&T> {
        if i >= self.len {
            return None;
        }
        let j = i + self.skip;
        self.chunks.get(j / CHUNK).and_then(|c| c.get(j % CHUNK))
    }

    /// The last element.
    pub fn last(&self) -> Option<&T> {
        self.len.checked_sub(1).and_then(|i| self.get(i))
    }

    /// The elements in order.
    pub fn iter(&self) -> Iter<'_, T> {
        let chunk: fn(&Arc<Vec<T>>) -> std::slice::Iter<'_, T> = |c| c.iter();
        self.chunks
            .iter()
            .flat_map(chunk)
            .skip(self.skip)
            .take(self.len)
    }

    /// The elements in order, mutable. Every chunk still shared with a clone is copied first
    /// (so the clone keeps its values).
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> + '_ {
        let (skip, len) = (self.skip, self.len);
        self.chunks
            .iter_mut()
            .flat_map(|c| Arc::make_mut(c).iter_mut())
            .skip(skip)
            .take(len)
    }

    /// The elements from position `from` on, in order (empty past the end).
    pub fn iter_from(&self, from: usize) -> impl Iterator<Item = &T> + '_ {
        let start = (from.min(self.len)) + self.skip;
        let first_chunk = start / CHUNK;
        self.chunks[first_chunk.min(self.chunks.len())..]
            .iter()
            .flat_map(|c| c.iter())
            .skip(start % CHUNK)
            .take(self.len - from.min(self.len))
    }

    /// Appends `v`.
    pub fn push(&mut self, v: T) {
        match self.chunks.last_mut() {
            Some(c) if c.len() < CHUNK => Arc::make_mut(c).push(v),
            _ => {
                let mut c = Vec::with_capacity(CHUNK);
                c.push(v);
                self.chunks.push(Arc::new(c));
            }
        }
        self.len += 1;
    }

    /// Replaces element `i` (if `i < len()`; otherwise does nothing).
    pub fn set(&mut self, i: usize, v: T) {
        if i >= self.len {
            return;
        }
        let j = i + self.skip;
        if let Some(slot) = self
            .chunks
            .get_mut(j / CHUNK)
            .and_then(|c| Arc::make_mut(c).get_mut(j % CHUNK))
        {
            *slot = v;
        }
    }

    /// Grows to `n` elements with clones of `v` (never shrinks).
    pub fn resize(&mut self, n: usize, v: T) {
        while self.len < n {
            self.push(v.clone());
        }
    }

    /// Appends clones of `vs`.
    pub fn extend_from_slice(&mut self, vs: &[T]) {
        for v in vs {
            self.push(v.clone());
        }
    }

    /// Keeps the first `n` elements.
    pub fn truncate(&mut self, n: usize) {
        if n >= self.len {
            return;
        }
        if n == 0 {
            self.clear();
            return;
        }
        let end = n + self.skip;
        self.chunks.truncate(end.div_ceil(CHUNK));
        let in_last = end - (self.chunks.len() - 1) * CHUNK;
        if let Some(c) = self.chunks.last_mut() {
            if c.len() > in_last {
                Arc::make_mut(c).truncate(in_last);
            }
        }
        self.len = n;
    }

    /// Drops the first `n` elements (all of them if `n >= len()`).
    pub fn drop_front(&mut self, n: usize) {
        if n >= self.len {
            self.clear();
            return;
        }
        let start = self.skip + n;
        self.chunks.drain(..start / CHUNK);
        self.skip = start % CHUNK;
        self.len -= n;
    }

    /// Removes every element.
    pub fn clear(&mut self) {
        self.chunks.clear();
        self.skip = 0;
        self.len = 0;
    }

    /// Clones of the elements in `from..from + max` (clipped to the end).
    pub fn to_vec_from(&self, from: usize, max: usize) -> Vec<T> {
        // Allocated at its exact length: a message's entries become a boxed slice, which
        // would otherwise be reallocated to drop the spare room.
        let n = max.min(self.len.saturating_sub(from));
        let mut out = Vec::with_capacity(n);
        out.extend(self.iter_from(from).take(n).cloned());
        out
    }

    /// How many chunks this vector shares with `other` (the same storage, not copies): for
    /// tests and measurements of structural sharing.
    pub fn shared_chunks(&self, other: &SharedVec<T>) -> usize {
        self.chunks
            .iter()
            .filter(|c| other.chunks.iter().any(|o| Arc::ptr_eq(c, o)))
            .count()
    }
}

/// The iterator of [`SharedVec::iter`].
pub type Iter<'a, T> = std::iter::Take<
    std::iter::Skip<
        std::iter::FlatMap<
            std::slice::Iter<'a, Arc<Vec<T>>>,
            std::slice::Iter<'a, T>,
            fn(&'a Arc<Vec<T>>) -> std::slice::Iter<'a, T>,
        >,
    >,
>;

impl<'a, T: Clone> IntoIterator for &'a SharedVec<T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<T: Clone> FromIterator<T> for SharedVec<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v = SharedVec::new();
        for x in iter {
            v.push(x);
        }
        v
    }
}

impl<T: Clone + PartialEq> PartialEq for SharedVec<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl<T: Clone + Eq> Eq for SharedVec<T> {}

/// Printed exactly as a `Vec` would be, so state digests built from `Debug` text
/// (`Sim::fingerprint`) do not depend on the storage.
impl<T: Clone + fmt::Debug> fmt::Debug for SharedVec<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Clone + Serialize> Serialize for SharedVec<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de, T: Clone + Deserialize<'de>> Deserialize<'de> for SharedVec<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Vec::<T>::deserialize(d)?.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::Rng;

    /// Random pushes, truncations, front drops and clones, checked against a plain Vec.
    #[test]
    fn behaves_as_a_vec() {
        let mut rng = Rng::new(5);
        let mut model: Vec<u64> = Vec::new();
        let mut v: SharedVec<u64> = SharedVec::new();
        let mut copies: Vec<(Vec<u64>, SharedVec<u64>)> = Vec::new();
        for step in 0..4000u64 {
            match rng.range(0, 10) {
                0 => {
                    let n = rng.range(0, model.len() as u64 + 1) as usize;
                    model.truncate(n);
                    v.truncate(n);
                }
                1 => {
                    let n = rng.range(0, model.len() as u64 / 2 + 2) as usize;
                    model.drain(..n.min(model.len()));
                    v.drop_front(n);
                }
                2 => copies.push((model.clone(), v.clone())),
                5 => {
                    for (x, y) in model.iter_mut().zip(v.iter_mut()) {
                        *x += 1;
                        *y += 1;
                    }
                }
                3 if !model.is_empty() => {
                    let i = rng.range(0, model.len() as u64) as usize;
                    model[i] = step;
                    v.set(i, step);
                }
                4 => {
                    let n = model.len() + rng.range(0, 300) as usize;
                    model.resize(n, 9);
                    v.resize(n, 9);
                }
                _ => {
                    let k = rng.range(1, 700);
                    let xs: Vec<u64> = (0..k).map(|i| step * 1000 + i).collect();
                    model.extend_from_slice(&xs);
                    v.extend_from_slice(&xs);
                }
            }
            assert_eq!(v.len(), model.len());
            assert_eq!(v.iter().copied().collect::<Vec<_>>(), model, "step {step}");
        }
        for (m, c) in &copies {
            assert_eq!(&c.iter().copied().collect::<Vec<_>>(), m, "a clone changed");
        }
        for i in 0..model.len() + 2 {
            assert_eq!(v.get(i), model.get(i));
            let from = v.to_vec_from(i, 300);
            assert_eq!(
                from,
                model.iter().skip(i).take(300).copied().collect::<Vec<_>>()
            );
            assert_eq!(from.capacity(), from.len(), "allocated at its exact length");
        }
        assert_eq!(v.last(), model.last());
        assert_eq!(format!("{v:?}"), format!("{model:?}"));
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            serde_json::to_string(&model).unwrap()
        );
    }

    #[test]
    fn a_clone_shares_every_chunk_but_the_one_written() {
        let a: SharedVec<u64> = (0..10 * CHUNK as u64 + 7).collect();
        let mut b = a.clone();
        b.push(1);
        assert_eq!(b.shared_chunks(&a), 10, "only the last chunk was copied");
        b.truncate(3 * CHUNK + 1);
        assert_eq!(b.shared_chunks(&a), 3);
        assert_eq!(a.len(), 10 * CHUNK + 7, "the original is untouched");
    }
}
