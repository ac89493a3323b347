//! The checker's ghost state for one cluster lineage: what no single node knows but the
//! whole history shows (who led each term, which term was committed at each index, which
//! term precedes each (index, term) entry).
//!
//! A lineage is the original cluster, or a cluster started by `--force-new-cluster`: that
//! recovery deliberately forks history (the forced node commits entries the old members
//! never see), so evidence from one lineage is never held against another.
//!
//! An index whose committed term the checker never saw (a node compacted or installed a
//! snapshot past it before the checker looked) is unknown, never a guessed term: only a term
//! read from some node's log is evidence.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::raft::message::NodeId;

/// Ghost state of one lineage.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ghost {
    /// term → the node that led it.
    pub leaders: BTreeMap<u64, NodeId>,
    /// Indexes at or below this are forgotten (every node has compacted past them).
    pub base: u64,
    /// The committed term at index base+1+position, if some node showed it.
    pub committed: Vec<Option<u64>>,
    /// index → the first (term, term of the entry before it) seen in some log above that
    /// log's commit index. In Raft the leader of a term creates the entry (index, term) once,
    /// after a fixed predecessor, so two logs holding it must agree on the term before it: by
    /// induction this is Log Matching, checked one entry at a time instead of pairwise.
    pub links: BTreeMap<u64, (u64, u64)>,
    /// Further (term, previous term) pairs at an index (uncommitted entries of other terms).
    pub more_links: BTreeMap<u64, Vec<(u64, u64)>>,
}

/// The result of recording evidence.
#[derive(Debug, PartialEq, Eq)]
pub enum Seen {
    /// New or agreeing evidence.
    Agrees,
    /// The ghost already holds a different term; the one held is returned.
    Conflicts(u64),
}

impl Ghost {
    /// The term committed at `index`, if known.
    pub fn committed_term(&self, index: u64) -> Option<u64> {
        if index <= self.base {
            return None;
        }
        self.committed
            .get((index - self.base - 1) as usize)
            .copied()
            .flatten()
    }

    /// Records that a node committed `term` at `index` (index ≥ 1).
    pub fn commit(&mut self, index: u64, term: u64) -> Seen {
        if index <= self.base {
            return Seen::Agrees;
        }
        let pos = (index - self.base - 1) as usize;
        if self.committed.len() <= pos {
            self.committed.resize(pos + 1, None);
        }
        match self.committed[pos] {
            Some(ct) if ct != term => Seen::Conflicts(ct),
            Some(_) => Seen::Agrees,
            None => {
                self.committed[pos] = Some(term);
                Seen::Agrees
            }
        }
    }

    /// Records that a log holds (index, term) right after an entry of term `prev`.
    pub fn link(&mut self, index: u64, term: u64, prev: u64) -> Seen {
        match self.links.get(&index) {
            None => {
                self.links.insert(index, (term, prev));
                return Seen::Agrees;
            }
            Some(&(t, p)) if t == term => {
                return if p == prev {
                    Seen::Agrees
                } else {
                    Seen::Conflicts(p)
                };
            }
            Some(_) => {}
        }
        let at = self.more_links.entry(index).or_default();
        match at.iter().find(|(t, _)| *t == term) {
            Some(&(_, p)) if p != prev => Seen::Conflicts(p),
            Some(_) => Seen::Agrees,
            None => {
                at.push((term, prev));
                Seen::Agrees
            }
        }
    }

    /// Forgets committed terms at or below `snapshot_floor` (every node's snapshot covers
    /// them) once there are enough to be worth it, and links at or below `commit_floor`
    /// (every live node committed them; a link is only consulted above a log's commit).
    pub fn prune(&mut self, snapshot_floor: u64, commit_floor: u64) {
        if snapshot_floor > self.base + 1024 {
            let drop = ((snapshot_floor - self.base) as usize).min(self.committed.len());
            self.committed.drain(..drop);
            self.base += drop as u64;
        }
        if self
            .links
            .first_key_value()
            .is_some_and(|(i, _)| *i + 1024 < commit_floor)
        {
            self.links = self.links.split_off(&(commit_floor + 1));
            self.more_links = self.more_links.split_off(&(commit_floor + 1));
        }
    }

    /// The ghost a node starts from when `--force-new-cluster` forks it off this lineage
    /// with commit index `commit`: the committed history up to there, nothing else (terms
    /// may be led again in the new lineage, and entries above `commit` are its own).
    pub fn fork(&self, commit: u64) -> Ghost {
        let keep = commit.saturating_sub(self.base) as usize;
        Ghost {
            leaders: BTreeMap::new(),
            base: self.base,
            committed: self.committed.iter().take(keep).copied().collect(),
            links: BTreeMap::new(),
            more_links: BTreeMap::new(),
        }
    }
}
