//! The replicated log: a snapshot prefix, then entries; plus the commit and apply points.
//!
//! Invariant: `snapshot.index <= applied <= committed <= last_index()`. Everything here except
//! `applied` is durable (the node persists before it answers, as etcd's Ready contract says).

use serde::{Deserialize, Serialize};

use std::sync::Arc;

use super::message::{Entry, Snapshot};
use super::shared_vec::SharedVec;

/// A node's log.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaftLog {
    /// The compacted prefix.
    pub snapshot: Snapshot,
    /// Entries `snapshot.index + 1 ..= last_index()`, shared with messages and copies of
    /// this log (time-travel checkpoints): cloning a log copies one pointer per chunk.
    pub entries: SharedVec<Arc<Entry>>,
    /// The highest index known to be committed.
    pub committed: u64,
    /// The highest index applied to the state machine.
    pub applied: u64,
}

impl RaftLog {
    /// A log that starts after `snapshot`.
    pub fn new(snapshot: Snapshot) -> RaftLog {
        let i = snapshot.index;
        RaftLog {
            snapshot,
            entries: SharedVec::new(),
            committed: i,
            applied: i,
        }
    }

    /// A log that starts after `snapshot` and holds empty entries whose terms are `terms`, in
    /// order (entry `snapshot.index + i + 1` has term `terms[i]`), none committed beyond the
    /// snapshot. For tests and worked examples that need a log of a given shape (the paper's
    /// figures are drawn as such term lists).
    pub fn with_terms(snapshot: Snapshot, terms: &[u64]) -> RaftLog {
        let mut log = RaftLog::new(snapshot);
        let first = log.first_index();
        let ents: Vec<Arc<Entry>> = terms
            .iter()
            .zip(first..)
            .map(|(&term, index)| {
                Arc::new(Entry {
                    term,
                    index,
                    data: super::message::EntryData::Empty,
                })
            })
            .collect();
        log.append(&ents);
        log
    }

    /// The first index still held as an entry.
    pub fn first_index(&self) -> u64 {
        self.snapshot.index + 1
    }

    /// The index of the last entry (the snapshot's if there are none).
    pub fn last_index(&self) -> u64 {
        self.snapshot.index + self.entries.len() as u64
    }

    /// The term of the last entry.
    pub fn last_term(&self) -> u64 {
        self.term(self.last_index()).unwrap_or(0)
    }

    /// The term of entry `i`; None if compacted away or not yet there.
    pub fn term(&self, i: u64) -> Option<u64> {
        if i == self.snapshot.index {
            return Some(self.snapshot.term);
        }
        if i < self.snapshot.index || i > self.last_index() {
            return None;
        }
        self.entries
            .get((i - self.first_index()) as usize)
            .map(|e| e.term)
    }

    /// Entry `i`, if held.
    pub fn entry(&self, i: u64) -> Option<&Entry> {
        self.shared_entry(i).map(|e| &**e)
    }

    /// Entry `i` as the shared pointer the log holds (cloning it copies no entry).
    pub fn shared_entry(&self, i: u64) -> Option<&Arc<Entry>> {
        if i < self.first_index() || i > self.last_index() {
            return None;
        }
        self.entries.get((i - self.first_index()) as usize)
    }

    /// Whether entry `i` has term `t`.
    pub fn match_term(&self, i: u64, t: u64) -> bool {
        self.term(i) == Some(t)
    }

    /// Up to `max` entries from `lo`; None if `lo` was compacted.
    pub fn entries_from(&self, lo: u64, max: usize) -> Option<Vec<Arc<Entry>>> {
        if lo < self.first_index() {
            return None;
        }
        if lo > self.last_index() {
            return Some(Vec::new());
        }
        let start = (lo - self.first_index()) as usize;
        Some(self.entries.to_vec_from(start, max))
    }

    /// §5.4.1 election restriction: is a log ending at (`last_index`, `term`) at least as
    /// up to date as ours?
    pub fn is_up_to_date(&self, last_index: u64, term: u64) -> bool {
        term > self.last_term() || (term == self.last_term() && last_index >= self.last_index())
    }

    /// The AppendEntries consistency check and append: if our entry at `index` has `log_term`,
    /// append `ents` (truncating a conflicting suffix, never a committed entry) and advance the
    /// commit to `min(commit, last new index)`. Returns the last new index, or None to reject.
    pub fn maybe_append(
        &mut self,
        index: u64,
        log_term: u64,
        commit: u64,
        ents: &[Arc<Entry>],
    ) -> Option<u64> {
        if !self.match_term(index, log_term) {
            return None;
        }
        let last_new = index + ents.len() as u64;
        if let Some(conflict) = self.find_conflict(ents) {
            // A conflict at or below the commit index cannot happen in correct Raft (etcd
            // panics). It can here with the teaching-only unsafe switch; then the log follows
            // the leader and the invariant checker reports the damage, instead of the app
            // stopping.
            let from = (conflict - (index + 1)) as usize;
            self.append(&ents[from..]);
        }
        self.commit_to(commit.min(last_new));
        Some(last_new)
    }

    /// The first entry of `ents` that is not already in our log with the same term.
    fn find_conflict(&self, ents: &[Arc<Entry>]) -> Option<u64> {
        ents.iter()
            .find(|e| !self.match_term(e.index, e.term))
            .map(|e| e.index)
    }

    /// Appends `ents`, dropping our entries from `ents[0].index` on. Entries already covered
    /// by the snapshot are skipped; entries that would leave a gap are ignored.
    pub fn append(&mut self, ents: &[Arc<Entry>]) {
        let Some(first) = ents.first() else { return };
        let covered = (self.snapshot.index + 1).saturating_sub(first.index) as usize;
        let Some(ents) = ents.get(covered..).filter(|e| !e.is_empty()) else {
            return;
        };
        let after = ents[0].index - 1;
        if after > self.last_index() {
            return;
        }
        // Truncating committed entries only happens once safety is already broken (see
        // `maybe_append`): commit and applied follow, so the checker sees commit go back.
        self.committed = self.committed.min(after);
        self.applied = self.applied.min(after);
        let keep = (after - self.snapshot.index) as usize;
        self.entries.truncate(keep);
        self.entries.extend_from_slice(ents);
    }

    /// Fast backtracking (etcd's findConflictByTerm): the largest index `<= index` whose term is
    /// `<= term`, with that term. Lets a leader skip a whole term of mismatching entries.
    pub fn find_conflict_by_term(&self, index: u64, term: u64) -> (u64, u64) {
        let mut i = index.min(self.last_index());
        loop {
            match self.term(i) {
                Some(t) if t > term => {
                    if i == 0 {
                        return (0, 0);
                    }
                    i -= 1;
                }
                Some(t) => return (i, t),
                None => return (i, 0),
            }
        }
    }

    /// Raises the commit index (never lowers it).
    pub fn commit_to(&mut self, to: u64) {
        // Never beyond the last entry: a commit index says which entries are committed, and
        // we can only commit entries we have.
        let to = to.min(self.last_index());
        if to > self.committed {
            self.committed = to;
        }
    }

    /// Figure 8: a leader commits `max_index` only if that entry is from its own `term`.
    pub fn maybe_commit(&mut self, max_index: u64, term: u64) -> bool {
        if max_index > self.committed && self.term(max_index) == Some(term) {
            self.commit_to(max_index);
            return true;
        }
        false
    }

    /// Replaces the whole log by `snapshot` (a follower installing a leader's snapshot).
    pub fn restore(&mut self, snapshot: Snapshot) {
        self.committed = snapshot.index;
        self.applied = snapshot.index;
        self.entries.clear();
        self.snapshot = snapshot;
    }

    /// Log compaction: drops entries up to `snapshot.index`, which must be applied.
    pub fn compact(&mut self, snapshot: Snapshot) {
        if snapshot.index <= self.snapshot.index || snapshot.index > self.applied {
            return;
        }
        let drop = (snapshot.index - self.snapshot.index) as usize;
        self.entries.drop_front(drop);
        self.snapshot = snapshot;
    }

    /// Whether any entry in `(applied, committed]` changes the configuration.
    pub fn has_unapplied_conf(&self) -> bool {
        (self.applied + 1..=self.committed).any(|i| self.entry(i).is_some_and(Entry::is_conf))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::message::EntryData;

    fn ent(index: u64, term: u64) -> Arc<Entry> {
        Arc::new(Entry {
            term,
            index,
            data: EntryData::Empty,
        })
    }

    fn log_with(terms: &[u64]) -> RaftLog {
        let mut l = RaftLog::new(Snapshot::default());
        let ents: Vec<Arc<Entry>> = terms
            .iter()
            .enumerate()
            .map(|(i, t)| ent(i as u64 + 1, *t))
            .collect();
        l.append(&ents);
        l
    }

    #[test]
    fn consistency_check_rejects_a_gap_or_a_term_mismatch() {
        let mut l = log_with(&[1, 1, 2]);
        assert_eq!(l.maybe_append(5, 2, 0, &[ent(6, 2)]), None, "gap");
        assert_eq!(l.maybe_append(3, 1, 0, &[ent(4, 2)]), None, "term mismatch");
        assert_eq!(l.maybe_append(3, 2, 3, &[ent(4, 2)]), Some(4));
        assert_eq!(l.committed, 3);
    }

    #[test]
    fn conflicting_suffix_is_replaced() {
        // §5.3: a follower's uncommitted entries from an old term are overwritten.
        let mut l = log_with(&[1, 1, 2, 2]);
        assert_eq!(l.maybe_append(2, 1, 0, &[ent(3, 3)]), Some(3));
        assert_eq!(l.last_index(), 3);
        assert_eq!(l.term(3), Some(3));
    }

    #[test]
    fn duplicate_append_keeps_later_entries() {
        let mut l = log_with(&[1, 1, 1]);
        assert_eq!(l.maybe_append(0, 0, 0, &[ent(1, 1)]), Some(1));
        assert_eq!(l.last_index(), 3, "a stale append must not truncate");
    }

    #[test]
    fn figure8_commit_needs_current_term() {
        let mut l = log_with(&[1, 2]);
        assert!(
            !l.maybe_commit(2, 4),
            "entry 2 is from term 2, leader is at 4"
        );
        l.append(&[ent(3, 4)]);
        assert!(l.maybe_commit(3, 4));
        assert_eq!(l.committed, 3);
    }

    #[test]
    fn election_restriction() {
        let l = log_with(&[1, 2, 2]);
        assert!(l.is_up_to_date(3, 2));
        assert!(l.is_up_to_date(1, 3), "higher last term wins");
        assert!(!l.is_up_to_date(2, 2), "same term, shorter log");
        assert!(!l.is_up_to_date(9, 1), "lower last term loses");
    }

    #[test]
    fn find_conflict_by_term_skips_a_term() {
        let l = log_with(&[1, 1, 4, 4, 4]);
        assert_eq!(l.find_conflict_by_term(5, 2), (2, 1));
        assert_eq!(l.find_conflict_by_term(9, 4), (5, 4));
    }

    #[test]
    fn compaction_keeps_terms_at_the_boundary() {
        let mut l = log_with(&[1, 1, 2, 2]);
        l.commit_to(3);
        l.applied = 3;
        l.compact(Snapshot {
            index: 3,
            term: 2,
            ..Snapshot::default()
        });
        assert_eq!(l.first_index(), 4);
        assert_eq!(l.term(3), Some(2));
        assert_eq!(l.term(2), None);
        assert_eq!(l.entries_from(2, 10), None);
        assert_eq!(l.entries_from(4, 10).unwrap().len(), 1);
    }
}
