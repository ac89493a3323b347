//! Raft's safety properties (Figure 3 of the paper, plus etcd's own), checked from outside
//! the nodes after every event.
//!
//! The checker keeps "ghost" state no single node has: which entry was committed at each
//! index, which node led each term, each node's last term and commit. A violation names the
//! nodes, indexes and terms involved.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::message::NodeId;
use super::raft::{Raft, Role};
use super::shared_vec::SharedVec;
use super::tracker::Config;

/// One broken property.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// The property, e.g. "election safety".
    pub invariant: String,
    /// What exactly broke, naming nodes, indexes and terms.
    pub detail: String,
}

/// A node as the checker sees it: its state and whether it is running. A crashed node keeps
/// its durable state, which still counts for what a quorum holds.
pub struct Observed<'a> {
    /// The node's state (for a crashed node, frozen at the crash).
    pub raft: &'a Raft,
    /// Whether it is running.
    pub alive: bool,
}

/// The invariant checker and its ghost state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checker {
    /// term → the node that led it.
    leaders: BTreeMap<u64, NodeId>,
    /// Term of the entry committed at each index above `base` (index base+1 at position 0).
    /// Shared storage: every time-travel checkpoint holds a copy of the checker.
    committed: SharedVec<u64>,
    /// Entries at or below this index are in every node's snapshot and no longer tracked.
    base: u64,
    /// node → (term, commit) last seen.
    last_seen: BTreeMap<NodeId, (u64, u64)>,
    /// node → commit index whose prefix was already compared with the ghost log.
    checked_upto: BTreeMap<NodeId, u64>,
    /// node → (term, last index, last term) while it leads.
    leader_tail: BTreeMap<NodeId, (u64, u64, u64)>,
    /// node → commit index already checked for quorum counting.
    leader_commit: BTreeMap<NodeId, u64>,
    /// node → the configuration it had at the previous check (a commit is decided under the
    /// configuration in force before the entries it commits are applied).
    prev_config: BTreeMap<NodeId, Config>,
}

/// "term 3", or "no entry" where a log has none.
fn term_word(t: Option<u64>) -> String {
    t.map_or("no entry".to_string(), |t| format!("term {t}"))
}

fn v(invariant: &str, detail: String) -> Violation {
    Violation {
        invariant: invariant.to_string(),
        detail,
    }
}

impl Checker {
    /// A checker that has seen nothing.
    pub fn new() -> Checker {
        Checker::default()
    }

    /// The term committed at `index` as far as the checker knows.
    pub fn committed_term(&self, index: u64) -> Option<u64> {
        if index <= self.base {
            return None;
        }
        self.committed
            .get((index - self.base - 1) as usize)
            .copied()
    }

    /// Checks every property against the cluster now; returns what broke.
    pub fn check(&mut self, nodes: &[Observed]) -> Vec<Violation> {
        let mut out = Vec::new();
        for o in nodes {
            self.check_node(o.raft, &mut out);
        }
        // Forget what every node has compacted away, so memory stays bounded.
        let floor = nodes
            .iter()
            .map(|o| o.raft.log.snapshot.index)
            .min()
            .unwrap_or(0);
        if floor > self.base + 1024 {
            let drop = ((floor - self.base) as usize).min(self.committed.len());
            self.committed.drop_front(drop);
            self.base += drop as u64;
        }
        for o in nodes.iter().filter(|o| o.alive) {
            if o.raft.role == Role::Leader {
                self.check_leader(o.raft, nodes, &mut out);
            } else {
                self.leader_tail.remove(&o.raft.id);
            }
        }
        self.check_log_matching(nodes, &mut out);
        out
    }

    fn check_node(&mut self, r: &Raft, out: &mut Vec<Violation>) {
        let id = r.id;
        let l = &r.log;
        if !(l.snapshot.index <= l.applied
            && l.applied <= l.committed
            && l.committed <= l.last_index())
        {
            out.push(v(
                "snapshot <= applied <= commit <= last",
                format!(
                    "n{id}: snapshot {} applied {} commit {} last {}",
                    l.snapshot.index,
                    l.applied,
                    l.committed,
                    l.last_index()
                ),
            ));
        }
        if let Some(&(t, c)) = self.last_seen.get(&id) {
            if r.term < t {
                out.push(v(
                    "term never goes back",
                    format!("n{id}: term went from {t} to {}", r.term),
                ));
            }
            if l.committed < c {
                out.push(v(
                    "commit never goes back",
                    format!("n{id}: commit went from {c} to {}", l.committed),
                ));
            }
        }
        self.last_seen.insert(id, (r.term, l.committed));
        // State machine safety: every node commits the same entry at each index.
        let from = self.checked_upto.get(&id).copied().unwrap_or(0) + 1;
        for i in from.max(l.first_index())..=l.committed {
            let Some(t) = l.term(i) else { continue };
            match self.committed_term(i) {
                Some(ct) if ct != t => out.push(v(
                    "state machine safety",
                    format!("n{id} committed index {i} with term {t}, but term {ct} was committed there"),
                )),
                Some(_) => {}
                None if i <= self.base => {}
                None => {
                    let pos = (i - self.base - 1) as usize;
                    if self.committed.len() < pos {
                        self.committed.resize(pos, 0);
                    }
                    if self.committed.len() == pos {
                        self.committed.push(t);
                    } else {
                        self.committed.set(pos, t);
                    }
                }
            }
        }
        self.checked_upto.insert(id, l.committed.max(from - 1));
    }

    fn check_leader(&mut self, r: &Raft, nodes: &[Observed], out: &mut Vec<Violation>) {
        let id = r.id;
        match self.leaders.get(&r.term) {
            Some(&other) if other != id => out.push(v(
                "election safety",
                format!("n{other} and n{id} both led term {}", r.term),
            )),
            Some(_) => {}
            None => {
                self.leaders.insert(r.term, id);
                // Leader completeness: a new leader holds every committed entry.
                for (pos, &ct) in self.committed.iter().enumerate() {
                    let i = self.base + pos as u64 + 1;
                    if ct == 0 || i <= r.log.snapshot.index {
                        continue;
                    }
                    if r.log.term(i) != Some(ct) {
                        out.push(v(
                            "leader completeness",
                            format!(
                                "n{id} leads term {} without committed entry {i} (term {ct}); it has {} there",
                                r.term,
                                term_word(r.log.term(i))
                            ),
                        ));
                        break;
                    }
                }
            }
        }
        // Leader append-only: a leader never overwrites or deletes its own entries.
        let (li, lt) = (r.log.last_index(), r.log.last_term());
        if let Some(&(term, old_li, old_lt)) = self.leader_tail.get(&id) {
            if term == r.term
                && (li < old_li
                    || (old_li >= r.log.snapshot.index && r.log.term(old_li) != Some(old_lt)))
            {
                out.push(v(
                    "leader append-only",
                    format!(
                        "n{id} (term {term}) had last {old_li}/term {old_lt}, now last {li}, entry {old_li} {}",
                        term_word(r.log.term(old_li))
                    ),
                ));
            }
        }
        self.leader_tail.insert(id, (r.term, li, lt));
        // At most one configuration change pending.
        let pending = (r.log.applied + 1..=li)
            .filter(|i| r.log.entry(*i).is_some_and(|e| e.is_conf()))
            .count();
        if pending > 1 {
            out.push(v(
                "at most one pending configuration change",
                format!(
                    "n{id} (leader, term {}) has {pending} unapplied configuration entries after index {}",
                    r.term, r.log.applied
                ),
            ));
        }
        // Learners never counted: what the leader committed in its term is held by a
        // majority of voters of each half of its configuration, learners aside.
        let c = r.log.committed;
        let prev = self.prev_config.insert(id, r.trk.config.clone());
        if self.leader_commit.get(&id).copied().unwrap_or(0) < c && r.log.term(c) == Some(r.term) {
            let holds = |nid: NodeId| {
                nodes.iter().any(|o| {
                    o.raft.id == nid
                        && (o.raft.log.snapshot.index >= c || o.raft.log.term(c) == Some(r.term))
                })
            };
            let short = |cfg: &Config| -> Option<String> {
                for half in [&cfg.voters, &cfg.outgoing] {
                    if half.is_empty() {
                        continue;
                    }
                    let have = half.iter().filter(|n| holds(**n)).count();
                    let q = half.len() / 2 + 1;
                    if have < q {
                        return Some(format!("{have} of {} voters, quorum {q}", half.len()));
                    }
                }
                None
            };
            // Committing an entry may apply a configuration change at once; the decision was
            // made under the configuration before it.
            let now = short(&r.trk.config);
            let before = prev.as_ref().map_or(now.clone(), short);
            if let (Some(why), Some(_)) = (now, before) {
                let learners: Vec<String> = r
                    .trk
                    .config
                    .learners
                    .iter()
                    .map(|n| format!("n{n}"))
                    .collect();
                out.push(v(
                    "learners never counted",
                    format!(
                        "n{id} committed index {c} (term {}) held by {why}; learners: [{}]",
                        r.term,
                        learners.join(" ")
                    ),
                ));
            }
            self.leader_commit.insert(id, c);
        }
    }

    fn check_log_matching(&self, nodes: &[Observed], out: &mut Vec<Violation>) {
        // Committed prefixes are already compared with the ghost log; here the uncommitted
        // tails: if two logs hold an entry with the same index and term, they agree before it.
        for (a_i, a) in nodes.iter().enumerate() {
            for b in nodes.iter().skip(a_i + 1) {
                let (la, lb) = (&a.raft.log, &b.raft.log);
                let lo = la
                    .committed
                    .min(lb.committed)
                    .max(la.first_index())
                    .max(lb.first_index());
                let mut hi = la.last_index().min(lb.last_index());
                while hi >= lo && hi > 0 && la.term(hi) != lb.term(hi) {
                    hi -= 1;
                }
                if hi < lo {
                    continue;
                }
                for i in lo..=hi {
                    if la.term(i) != lb.term(i) {
                        out.push(v(
                            "log matching",
                            format!(
                                "n{} and n{} agree at index {hi} ({}) but differ at {i}: {} vs {}",
                                a.raft.id,
                                b.raft.id,
                                term_word(la.term(hi)),
                                term_word(la.term(i)),
                                term_word(lb.term(i))
                            ),
                        ));
                        break;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::log::RaftLog;
    use crate::raft::message::{Entry, EntryData, Snapshot};
    use crate::raft::{Durable, RaftConfig, Rng};
    use std::sync::Arc;

    fn node(id: NodeId, term: u64, terms: &[u64], commit: u64) -> Raft {
        let conf = Config::with_voters([1, 2, 3]);
        let mut log = RaftLog::new(Snapshot {
            conf,
            ..Snapshot::default()
        });
        let ents: Vec<Arc<Entry>> = terms
            .iter()
            .enumerate()
            .map(|(i, t)| {
                Arc::new(Entry {
                    term: *t,
                    index: i as u64 + 1,
                    data: EntryData::Empty,
                })
            })
            .collect();
        log.append(&ents);
        log.committed = commit;
        Raft::restart(
            id,
            Durable { term, vote: 0, log },
            RaftConfig::default(),
            Rng::new(id),
        )
    }

    fn check(c: &mut Checker, nodes: &[&Raft]) -> Vec<String> {
        let obs: Vec<Observed> = nodes
            .iter()
            .map(|r| Observed {
                raft: r,
                alive: true,
            })
            .collect();
        c.check(&obs).into_iter().map(|v| v.invariant).collect()
    }

    #[test]
    fn healthy_cluster_has_no_violation() {
        let (a, b) = (node(1, 2, &[1, 2], 2), node(2, 2, &[1, 2], 2));
        assert!(check(&mut Checker::new(), &[&a, &b]).is_empty());
    }

    #[test]
    fn two_leaders_in_one_term_break_election_safety() {
        let mut c = Checker::new();
        let mut a = node(1, 3, &[1], 1);
        let mut b = node(2, 3, &[1], 1);
        a.role = Role::Leader;
        assert!(check(&mut c, &[&a, &b]).is_empty());
        a.role = Role::Follower;
        b.role = Role::Leader;
        assert_eq!(check(&mut c, &[&a, &b]), vec!["election safety"]);
    }

    #[test]
    fn different_committed_entries_break_state_machine_safety() {
        let mut c = Checker::new();
        let a = node(1, 3, &[1, 2], 2);
        let b = node(2, 3, &[1, 3], 2);
        assert!(check(&mut c, &[&a, &b]).contains(&"state machine safety".to_string()));
    }

    #[test]
    fn commit_and_term_never_go_back() {
        let mut c = Checker::new();
        let a = node(1, 3, &[1, 2], 2);
        assert!(check(&mut c, &[&a]).is_empty());
        let back = node(1, 2, &[1, 2], 1);
        let found = check(&mut c, &[&back]);
        assert!(found.contains(&"term never goes back".to_string()));
        assert!(found.contains(&"commit never goes back".to_string()));
    }

    #[test]
    fn leader_without_a_committed_entry_breaks_leader_completeness() {
        let mut c = Checker::new();
        let a = node(1, 2, &[1, 2], 2);
        assert!(check(&mut c, &[&a]).is_empty());
        let mut l = node(2, 3, &[1], 1);
        l.role = Role::Leader;
        assert!(check(&mut c, &[&a, &l]).contains(&"leader completeness".to_string()));
    }

    #[test]
    fn logs_that_agree_at_an_index_must_agree_before_it() {
        let mut c = Checker::new();
        let a = node(1, 4, &[1, 2, 4], 0);
        let b = node(2, 4, &[1, 3, 4], 0);
        assert_eq!(check(&mut c, &[&a, &b]), vec!["log matching"]);
    }

    #[test]
    fn leader_that_commits_without_a_voter_majority_is_caught() {
        // n1 leads term 2 and claims index 2 committed, but only it holds entry 2: learners or
        // anything else must not have been counted.
        let mut c = Checker::new();
        let mut l = node(1, 2, &[1, 2], 1);
        l.role = Role::Leader;
        let f2 = node(2, 2, &[1], 1);
        let f3 = node(3, 2, &[1], 1);
        assert!(check(&mut c, &[&l, &f2, &f3]).is_empty());
        l.log.committed = 2;
        assert!(check(&mut c, &[&l, &f2, &f3]).contains(&"learners never counted".to_string()));
    }

    #[test]
    fn commit_beyond_the_log_breaks_the_index_order() {
        let mut a = node(1, 2, &[1, 2], 2);
        a.log.committed = 5;
        assert!(check(&mut Checker::new(), &[&a])
            .contains(&"snapshot <= applied <= commit <= last".to_string()));
    }

    #[test]
    fn a_leader_that_loses_entries_breaks_append_only() {
        let mut c = Checker::new();
        let mut l = node(1, 2, &[1, 2, 2], 1);
        l.role = Role::Leader;
        assert!(check(&mut c, &[&l]).is_empty());
        l.log.entries.truncate(2);
        assert!(check(&mut c, &[&l]).contains(&"leader append-only".to_string()));
    }

    #[test]
    fn two_unapplied_conf_changes_on_a_leader_are_caught() {
        use crate::raft::message::{ConfChange, ConfChangeSingle};
        let mut l = node(1, 2, &[1], 1);
        l.role = Role::Leader;
        for (i, id) in [(2u64, 4u64), (3, 5)] {
            l.log.entries.push(Arc::new(Entry {
                term: 2,
                index: i,
                data: EntryData::Conf {
                    cc: ConfChange {
                        changes: vec![ConfChangeSingle::AddLearner(id)],
                    },
                    req: 0,
                },
            }));
        }
        assert!(check(&mut Checker::new(), &[&l])
            .contains(&"at most one pending configuration change".to_string()));
    }
}
