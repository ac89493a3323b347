//! Each property is caught when broken, in both modes; and no event that Raft allows
//! (compaction, snapshot install, restart, force-new-cluster, joint configurations) is
//! reported.

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

/// The full check and the incremental one, fed the same states.
struct Both {
    full: Checker,
    inc: Checker,
}

impl Both {
    fn new() -> Both {
        Both {
            full: Checker::new(),
            inc: Checker::new(),
        }
    }
}

fn names(found: Vec<Violation>) -> Vec<String> {
    let mut n: Vec<String> = found.into_iter().map(|v| v.invariant).collect();
    n.sort();
    n.dedup();
    n
}

/// Checks `nodes` with both checkers (every node touched); they must agree.
fn check(c: &mut Both, nodes: &[&Raft]) -> Vec<String> {
    let obs: Vec<Observed> = nodes
        .iter()
        .map(|r| Observed {
            raft: r,
            alive: true,
        })
        .collect();
    let full = names(c.full.check(&obs));
    let ids: Vec<NodeId> = nodes.iter().map(|r| r.id).collect();
    let inc = names(
        c.inc
            .check_touched(&ids, &|id| obs.iter().find(|o| o.raft.id == id).copied()),
    );
    assert_eq!(full, inc, "the full and the incremental check disagree");
    full
}

#[test]
fn healthy_cluster_has_no_violation() {
    let (a, b) = (node(1, 2, &[1, 2], 2), node(2, 2, &[1, 2], 2));
    assert!(check(&mut Both::new(), &[&a, &b]).is_empty());
}

#[test]
fn two_leaders_in_one_term_break_election_safety() {
    let mut c = Both::new();
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
    let mut c = Both::new();
    let a = node(1, 3, &[1, 2], 2);
    let b = node(2, 3, &[1, 3], 2);
    assert!(check(&mut c, &[&a, &b]).contains(&"state machine safety".to_string()));
}

#[test]
fn commit_and_term_never_go_back() {
    let mut c = Both::new();
    let a = node(1, 3, &[1, 2], 2);
    assert!(check(&mut c, &[&a]).is_empty());
    let back = node(1, 2, &[1, 2], 1);
    let found = check(&mut c, &[&back]);
    assert!(found.contains(&"term never goes back".to_string()));
    assert!(found.contains(&"commit never goes back".to_string()));
}

#[test]
fn leader_without_a_committed_entry_breaks_leader_completeness() {
    let mut c = Both::new();
    let a = node(1, 2, &[1, 2], 2);
    assert!(check(&mut c, &[&a]).is_empty());
    let mut l = node(2, 3, &[1], 1);
    l.role = Role::Leader;
    assert!(check(&mut c, &[&a, &l]).contains(&"leader completeness".to_string()));
}

#[test]
fn logs_that_agree_at_an_index_must_agree_before_it() {
    let mut c = Both::new();
    let a = node(1, 4, &[1, 2, 4], 0);
    let b = node(2, 4, &[1, 3, 4], 0);
    assert_eq!(check(&mut c, &[&a, &b]), vec!["log matching"]);
}

#[test]
fn leader_that_commits_without_a_voter_majority_is_caught() {
    // n1 leads term 2 and claims index 2 committed, but only it holds entry 2: learners or
    // anything else must not have been counted.
    let mut c = Both::new();
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
    assert!(check(&mut Both::new(), &[&a])
        .contains(&"snapshot <= applied <= commit <= last".to_string()));
}

#[test]
fn a_leader_that_loses_entries_breaks_append_only() {
    let mut c = Both::new();
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
    assert!(check(&mut Both::new(), &[&l])
        .contains(&"at most one pending configuration change".to_string()));
}
