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

use crate::raft::message::NodeId;
use crate::raft::vec_map::VecMap;

/// Ghost state of one lineage.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ghost {
    /// term → the node that led it.
    pub leaders: VecMap<u64, NodeId>,
    /// Indexes at or below this are forgotten (every node has compacted past them).
    pub base: u64,
    /// Committed terms some node showed, as runs: first index → (last index, term, seen):
    /// `seen` is the term of the first node seen holding the entries committed, a bound
    /// on the term in which they were committed (no node learns of a commit before the
    /// leader that made it). Runs stay few however long the log (this is copied into every
    /// time-travel checkpoint). An index in no run is unknown.
    pub committed: VecMap<u64, (u64, u64, u64)>,
    /// index → the first (term, term of the entry before it) seen in some log above that
    /// log's commit index. In Raft the leader of a term creates the entry (index, term) once,
    /// after a fixed predecessor, so two logs holding it must agree on the term before it: by
    /// induction this is Log Matching, checked one entry at a time instead of pairwise.
    pub links: VecMap<u64, (u64, u64)>,
    /// Further (term, previous term) pairs at an index (uncommitted entries of other terms).
    pub more_links: VecMap<u64, Vec<(u64, u64)>>,
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
        self.committed
            .range(..=index)
            .next_back()
            .filter(|(_, (end, _, _))| index <= *end)
            .map(|(_, (_, t, _))| *t)
    }

    /// Every known committed (index, term, seen) above `after`, in order (`seen` as in
    /// [`Ghost::committed`]).
    pub fn committed_above(&self, after: u64) -> impl Iterator<Item = (u64, u64, u64)> + '_ {
        let from = self
            .committed
            .range(..=after)
            .next_back()
            .map_or(after + 1, |(s, _)| *s);
        self.committed
            .range(from..)
            .flat_map(move |(s, (e, t, w))| ((*s).max(after + 1)..=*e).map(move |i| (i, *t, *w)))
    }

    /// Records that a node at term `seen` holds `term` committed at `index` (index ≥ 1).
    pub fn commit(&mut self, index: u64, term: u64, seen: u64) -> Seen {
        if index <= self.base {
            return Seen::Agrees;
        }
        if let Some(ct) = self.committed_term(index) {
            return if ct == term {
                Seen::Agrees
            } else {
                Seen::Conflicts(ct)
            };
        }
        // Unknown until now: join the runs on either side when they say the same.
        let before = self
            .committed
            .range(..index)
            .next_back()
            .filter(|(_, (e, t, w))| *e + 1 == index && (*t, *w) == (term, seen))
            .map(|(s, _)| *s);
        let after = self
            .committed
            .get(&(index + 1))
            .filter(|(_, t, w)| (*t, *w) == (term, seen))
            .map(|(e, _, _)| *e);
        if after.is_some() {
            self.committed.remove(&(index + 1));
        }
        let end = after.unwrap_or(index);
        match before {
            Some(s) => {
                self.committed.insert(s, (end, term, seen));
            }
            None => {
                self.committed.insert(index, (end, term, seen));
            }
        }
        Seen::Agrees
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
        let at = self.more_links.get_or_insert_with(index, Vec::new);
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
            self.base = snapshot_floor;
            let mut kept = self.committed.split_off(&(snapshot_floor + 1));
            if let Some((_, &(e, t, w))) = self.committed.iter().next_back() {
                if e > snapshot_floor {
                    kept.insert(snapshot_floor + 1, (e, t, w));
                }
            }
            self.committed = kept;
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
        let mut committed = self.committed.clone();
        committed.split_off(&(commit + 1));
        if let Some((_, (e, _, _))) = committed.iter_mut().next_back() {
            *e = (*e).min(commit);
        }
        Ghost {
            leaders: VecMap::new(),
            base: self.base,
            committed,
            links: VecMap::new(),
            more_links: VecMap::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_terms_are_runs_with_unknown_gaps() {
        let mut g = Ghost::default();
        for i in 1..=5 {
            assert_eq!(g.commit(i, 1, 1), Seen::Agrees);
        }
        // 6-7 never seen; 8-9 of term 2.
        assert_eq!(g.commit(9, 2, 2), Seen::Agrees);
        assert_eq!(g.commit(8, 2, 2), Seen::Agrees);
        assert_eq!(g.committed.len(), 2);
        assert_eq!(g.committed_term(6), None);
        assert_eq!(g.commit(7, 2, 2), Seen::Agrees);
        assert_eq!(g.commit(6, 1, 1), Seen::Agrees);
        // The gap filled, the runs joined where the terms allow.
        assert_eq!(
            g.committed,
            VecMap::from_iter([(1, (6, 1, 1)), (7, (9, 2, 2))])
        );
        assert_eq!(g.commit(7, 3, 3), Seen::Conflicts(2));
        assert_eq!(
            g.committed_above(5).collect::<Vec<_>>(),
            vec![(6, 1, 1), (7, 2, 2), (8, 2, 2), (9, 2, 2)]
        );
        let f = g.fork(7);
        assert_eq!(
            f.committed,
            VecMap::from_iter([(1, (6, 1, 1)), (7, (7, 2, 2))])
        );
        g.prune(2000, 0);
        assert!(g.committed.is_empty());
        assert_eq!(
            g.commit(5, 9, 9),
            Seen::Agrees,
            "forgotten indexes prove nothing"
        );
    }
}
